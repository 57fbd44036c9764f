//! The Slurm job array of a job directory: one array task per cube.

use std::fs;
use std::path::Path;

use super::job::{read_text, write_atomically, Job, JobDir, JobError};

/// The text of `run.sbatch` for the job directory `root` (absolute), run by `binary`, for the
/// puzzle `description` names. A split that decided the puzzle by itself has no cube: its
/// script runs the merge instead of an array, and says where the answer is.
pub fn script(root: &Path, binary: &Path, job: &Job, description: &str) -> String {
    let last = job.cubes.saturating_sub(1);
    let root = quote(&root.display().to_string());
    let binary = quote(&binary.display().to_string());
    if job.cubes == 0 {
        return format!(
            r#"#!/bin/bash
# knights-sat cube and conquer: {description}. The split decided the puzzle by itself, so
# there is no cube to search: `knights-sat merge {root}` gives the answer.
#SBATCH --job-name=knights-sat-cubes
#SBATCH --ntasks=1
#SBATCH --output={root}/logs/merge.out

exec {binary} merge {root}
"#
        );
    }
    format!(
        r#"#!/bin/bash
# knights-sat cube and conquer: {description}, {cubes} cubes.
#
#   sbatch {root}/run.sbatch                  solve every cube, one array task each
#   knights-sat merge {root}                  the optimum, once every cube has a result
#   sbatch --array=$(knights-sat merge {root} --missing) {root}/run.sbatch
#                                             solve again only the cubes with no result
#
# A task writes its result by renaming a finished file, so a task killed on the way leaves
# nothing behind, and a task whose cube has a result already ends at once. Slurm's default
# MaxArraySize is 1001: a job of more cubes needs it raised in slurm.conf.{keeps}
#SBATCH --job-name=knights-sat-cubes
#SBATCH --array=0-{last}
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output={root}/logs/cube-%a.out
#SBATCH --error={root}/logs/cube-%a.out

exec {binary} cube {root} "$SLURM_ARRAY_TASK_ID" --threads "${{SLURM_CPUS_PER_TASK:-1}}"
"#,
        cubes = job.cubes,
        keeps = if job.horizon.is_none() && !job.certify {
            "\n#\n# A task stopped by SIGTERM (at its time limit, `sbatch --time=...`, or when preempted)\n\
             # keeps its cube's open nodes in results/cube-N.open.json: the next task of that cube\n\
             # goes on from them, so `--missing` above resumes a stopped job."
        } else {
            ""
        },
    )
}

/// Points `run.sbatch` at the directory it is in, if the job has moved since its split (copied
/// to a cluster, renamed): the script names its directory by its absolute path, and as written
/// it would run the cubes of the old one and log there. Every mention of the old directory is
/// replaced; the binary and the rest stay. Returns the old directory when it was moved (and
/// nothing for a job without its script).
pub fn follow_move(jobs: &JobDir) -> Result<Option<String>, JobError> {
    let path = jobs.file("run.sbatch");
    if !path.is_file() {
        return Ok(None);
    }
    let root = fs::canonicalize(&jobs.root).map_err(|source| JobError::Io { path: jobs.root.clone(), source })?;
    let root = quote(&root.display().to_string());
    let text = read_text(&path)?;
    let Some(old) = text.lines().find_map(|line| line.strip_prefix("#SBATCH --output=")?.split_once("/logs/")) else {
        return Ok(None);
    };
    let old = old.0.to_string();
    if old == root {
        return Ok(None);
    }
    // Only whole mentions: the old path followed by a slash, a space or the line's end (the
    // binary's path, say `/work/job-bin/knights-sat` for `/work/job`, stays).
    let moved =
        ['/', ' ', '\n'].iter().fold(text, |text, end| text.replace(&format!("{old}{end}"), &format!("{root}{end}")));
    write_atomically(&path, &moved)?;
    Ok(Some(old))
}

/// `text` quoted for bash if it needs it.
fn quote(text: &str) -> String {
    if text.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c)) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

//! Writing a job directory from a split, and solving one of its cubes.

use std::fs;
use std::path::Path;
use std::time::Instant;

use super::job::{digest, json_lines, write_atomically, CubeResult, Job, JobDir, JobError, OpenJob, FORMAT};
use super::sbatch::script;
use crate::certify::write_solution;
use crate::driver::{self, Event, Ingredients, Solution};
use crate::encodings::puzzle::placement::PlacementPuzzle;
use crate::encodings::puzzle::{self, Puzzle};

/// Splits `puzzle` into at least `wanted` cubes and writes the job directory `dir` (which
/// must not exist, or be empty). `binary` is the `knights-sat` that the job array runs. The
/// split's placements and progress go to `emit` as a search's do.
pub fn split_into(
    puzzle: &Puzzle,
    source: &str,
    dir: &Path,
    wanted: usize,
    threads: usize,
    binary: &Path,
    emit: &mut dyn FnMut(&Event),
) -> Result<Job, JobError> {
    let placement = splittable(puzzle)?;
    let occupied = fs::read_dir(dir).map(|mut entries| entries.next().is_some()).unwrap_or(false);
    if occupied {
        return Err(JobError::Refused(format!(
            "{} exists and is not empty; choose another directory or remove it",
            dir.display()
        )));
    }
    for sub in ["", "results", "logs"] {
        let path = dir.join(sub);
        fs::create_dir_all(&path).map_err(|source| JobError::Io { path, source })?;
    }
    let started = Instant::now();
    let mut best: Option<(usize, Solution)> = None;
    let split = driver::split(placement, Ingredients::default(), threads, wanted, &mut |event| {
        if let Event::Solution { value, solution } = &event {
            best = Some((*value, solution.clone()));
        }
        emit(&event);
    })?;
    let jobs = JobDir::at(dir);
    let puzzle_text = puzzle::to_toml(puzzle);
    let cubes_text = json_lines(&split.cubes);
    let cuts_text = json_lines(&split.cuts);
    let job = Job {
        format: FORMAT,
        id: digest(&[&puzzle_text, &cubes_text, &cuts_text]),
        source: source.to_string(),
        cubes: split.cubes.len(),
        depth: split.depth,
        symmetry: true,
        incumbent_cost: split.incumbent_cost,
        incumbent_value: best.as_ref().map(|b| b.0),
        split_seconds: started.elapsed().as_secs_f64(),
    };
    write_atomically(&jobs.file("puzzle.toml"), &puzzle_text)?;
    write_atomically(&jobs.file("cubes.json"), &cubes_text)?;
    write_atomically(&jobs.file("cuts.json"), &cuts_text)?;
    if let Some((value, solution)) = &best {
        write_atomically(&jobs.file("best.txt"), &write_solution(puzzle, solution, *value))?;
    }
    let root = fs::canonicalize(dir).map_err(|source| JobError::Io { path: dir.to_path_buf(), source })?;
    write_atomically(&jobs.file("run.sbatch"), &script(&root, binary, &job, placement))?;
    // Last: a directory with job.json is a whole split.
    let text = serde_json::to_string_pretty(&job).expect("the job serialises");
    write_atomically(&jobs.file("job.json"), &(text + "\n"))?;
    Ok(job)
}

/// The placement of `puzzle`, if its tree can be split.
fn splittable(puzzle: &Puzzle) -> Result<&PlacementPuzzle, JobError> {
    let Some(placement) = puzzle.placement() else {
        return Err(JobError::Refused(format!(
            "cubes are split from the branch-and-bound tree of a placement; a {} cannot be split yet",
            puzzle.kind()
        )));
    };
    if !driver::placement_has_tree(placement) {
        return Err(JobError::Refused(
            "this placement has no linear model (pieces that block lines), so no tree to split".into(),
        ));
    }
    Ok(placement)
}

/// What [`solve_cube_in`] did.
#[derive(Clone, Debug)]
pub enum CubeRun {
    /// The cube was searched now.
    Searched(CubeResult),
    /// The cube had a result already (not searched again).
    Done(CubeResult),
}

/// Searches cube `id` of the job `open` on `threads` threads and writes its result, unless
/// it has one already (or `again`). A search that fails writes a result saying why and
/// returns the error.
pub fn solve_cube_in(
    open: &OpenJob,
    id: usize,
    threads: usize,
    again: bool,
    emit: &mut dyn FnMut(&Event),
) -> Result<CubeRun, JobError> {
    let OpenJob { dir: jobs, job, puzzle, cubes, cuts } = open;
    if id >= job.cubes {
        return Err(JobError::Refused(format!(
            "{}: there is no cube {id}: the job has {} (0 to {})",
            jobs.root.display(),
            job.cubes,
            job.cubes.saturating_sub(1)
        )));
    }
    if !again {
        if let Some(result) = jobs.result(id)?.filter(|r| r.job == job.id && r.error.is_none()) {
            return Ok(CubeRun::Done(result));
        }
    }
    let placement = splittable(puzzle)?;
    let started = Instant::now();
    let mut best: Option<(usize, Solution)> = None;
    let ingredients = Ingredients { symmetry: job.symmetry, ..Ingredients::default() };
    let searched = driver::solve_cube(
        placement,
        ingredients,
        threads,
        (&cubes[id], Some(cuts)),
        job.incumbent_cost,
        &mut |event| {
            if let Event::Solution { value, solution } = &event {
                best = Some((*value, solution.clone()));
            }
            emit(&event);
        },
    );
    let mut result = CubeResult {
        job: job.id.clone(),
        cube: id,
        seconds: started.elapsed().as_secs_f64(),
        nodes: 0,
        value: None,
        solution: None,
        error: None,
    };
    match searched {
        Ok(stats) => {
            result.nodes = stats.nodes;
            if let Some((value, solution)) = best {
                result.value = Some(value);
                result.solution = Some(write_solution(puzzle, &solution, value));
            }
            jobs.write_result(&result)?;
            Ok(CubeRun::Searched(result))
        }
        Err(error) => {
            result.error = Some(error.to_string());
            jobs.write_result(&result)?;
            Err(error.into())
        }
    }
}

//! The certificate of a certified job, written by the merge and checked at once.
//!
//! - A placement's: the split's tree (`tree.json`) and every cube's part of it (in its result)
//!   are one branch-and-bound tree, written as one VeriPB proof by
//!   [`crate::certify::certify_with`].
//! - An exchange's or a tour's: every cube's search wrote the refutation of its cube
//!   (`proofs/cube-N`), and the merge adds the cover, the proof that every short route stands in
//!   one of the cubes ([`crate::certify::split`]).

use std::path::PathBuf;

use super::job::{read_text, JobDir, JobError};
use super::merge::MergeReport;
use crate::certify::split::{certify_split, CubeClaim, SplitClaims};
use crate::certify::{certify_with, verify, write_solution, ProofCompression, Verification};
use crate::driver::TreeProof;
use crate::encodings::puzzle;

/// Where the merge writes the certificate of a job, inside the job directory.
pub const CERTIFICATE_DIR: &str = "certificate";

/// A job's certificate, written and checked.
#[derive(Debug)]
pub struct JobCertificate {
    /// Its directory.
    pub dir: PathBuf,
    /// What it holds, in a phrase: its parts, steps and size.
    pub summary: String,
    /// The checks of its parts.
    pub verification: Verification,
}

/// Writes the certificate of the complete, certified job `report` of directory `jobs` into
/// `jobs/certificate` and checks it as `verify` does.
pub fn certify_job(jobs: &JobDir, report: &MergeReport) -> Result<JobCertificate, JobError> {
    if !report.job.certify {
        return Err(refused("the job was split without --certify: its tree was not recorded".into()));
    }
    if !report.complete() {
        return Err(refused("a job is certified once every cube is searched".into()));
    }
    let Some((value, solution, _)) = &report.best else {
        let what = if report.job.horizon.is_some() { "no route" } else { "no placement" };
        return Err(refused(format!("{what} satisfies the rules: there is no optimum to certify")));
    };
    let dir = jobs.file(CERTIFICATE_DIR);
    let text = puzzle::to_toml(&report.puzzle);
    let summary = if let Some(horizon) = report.job.horizon {
        let claims = route_claims(jobs, report, horizon, *value)?;
        let part_of = |i: usize| jobs.proof_dir(report.searched[i].cube);
        let solution_text = write_solution(&report.puzzle, solution, *value);
        let (puzzle, value) = ((&report.puzzle, &text[..]), (&solution_text[..], *value));
        let cover = certify_split(puzzle, value, &claims, &part_of, &dir, ProofCompression::Auto)
            .map_err(|e| refused(e.to_string()))?;
        let bytes = stored_bytes(&dir);
        format!(
            "the cover ({} lemmas) and {} cubes' refutations, {:.1} MiB stored",
            cover.figures.lemmas,
            claims.cubes.len(),
            bytes as f64 / (1024.0 * 1024.0)
        )
    } else {
        let tree = merged_tree(jobs, report)?;
        let certificate =
            certify_with(&report.puzzle, &text, solution, *value, &dir, ProofCompression::Auto, Some(&tree))
                .map_err(|e| refused(e.to_string()))?;
        let proof = &certificate.proof;
        format!(
            "the split's and the cubes' trees, {} steps, proof {} lines, {:.1} MiB stored",
            certificate.figures.lemmas,
            proof.lines,
            proof.stored_bytes as f64 / (1024.0 * 1024.0)
        )
    };
    let verification = verify(&dir).map_err(|e| refused(e.to_string()))?;
    Ok(JobCertificate { dir, summary, verification })
}

fn refused(why: String) -> JobError {
    JobError::Refused(why)
}

/// The split's tree with every cube's part of it.
fn merged_tree(jobs: &JobDir, report: &MergeReport) -> Result<TreeProof, JobError> {
    let path = jobs.file("tree.json");
    let mut tree: TreeProof = serde_json::from_str(&read_text(&path)?)
        .map_err(|e| JobError::Malformed { path: path.clone(), why: e.to_string() })?;
    for result in &report.searched {
        let part = result.tree.as_ref().ok_or_else(|| {
            refused(format!(
                "cube {} was searched without its tree; search it again with this knights-sat",
                result.cube
            ))
        })?;
        tree.combinations.extend(part.combinations.iter().cloned());
        tree.orbits.extend(part.orbits.iter().cloned());
        tree.leaves.extend(part.leaves.iter().cloned());
    }
    Ok(tree)
}

/// What the cubes of an exchange or tour job refuted, for a solution of `value` moves: every
/// cube (in the order of `report.searched`) when the value lies past the job's depth, none when
/// the split's own search of the shorter horizons decides it.
fn route_claims(jobs: &JobDir, report: &MergeReport, horizon: usize, value: usize) -> Result<SplitClaims, JobError> {
    let depth = report.job.depth;
    let mut claims = SplitClaims { horizon, depth, cubes: Vec::new() };
    if value <= depth {
        return Ok(claims);
    }
    let open = jobs.open()?;
    for result in &report.searched {
        let id = result.cube;
        let cube = open.cubes.route_cube(id, &open.puzzle).map_err(refused)?;
        let refuted = result.refuted_to.ok_or_else(|| refused(format!("cube {id} refuted no horizon")))?;
        if !jobs.proof_dir(id).is_dir() {
            return Err(refused(format!(
                "cube {id} was searched without its part of the certificate; search it again: knights-sat cube {} {id} --again",
                jobs.root.display()
            )));
        }
        claims.cubes.push(CubeClaim { cube, refuted });
    }
    Ok(claims)
}

/// The bytes of every file under `dir`.
fn stored_bytes(dir: &std::path::Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .filter_map(Result::ok)
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => stored_bytes(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

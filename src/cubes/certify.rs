//! The certificate of a certified placement job: the split's tree (`tree.json`) and every
//! cube's part of it (in its result) are one branch-and-bound tree, written as one VeriPB proof
//! by [`crate::certify::certify_with`] and checked at once.

use std::path::PathBuf;

use super::job::{read_text, JobDir, JobError};
use super::merge::MergeReport;
use crate::certify::{certify_with, verify, Certificate, ProofCompression, Verification};
use crate::driver::TreeProof;
use crate::encodings::puzzle;

/// Where the merge writes the certificate of a job, inside the job directory.
pub const CERTIFICATE_DIR: &str = "certificate";

/// Writes the certificate of the complete, certified job `report` of directory `jobs` into
/// `jobs/certificate` and checks it as `verify` does.
pub fn certify_job(jobs: &JobDir, report: &MergeReport) -> Result<(Certificate, Verification, PathBuf), JobError> {
    let refused = |why: String| JobError::Refused(why);
    if !report.job.certify {
        return Err(refused("the job was split without --certify: its tree was not recorded".into()));
    }
    if !report.complete() {
        return Err(refused("a job is certified once every cube is searched".into()));
    }
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
    let Some((value, solution, _)) = &report.best else {
        return Err(refused("no placement satisfies the rules: there is no optimum to certify".into()));
    };
    let dir = jobs.file(CERTIFICATE_DIR);
    let text = puzzle::to_toml(&report.puzzle);
    let certificate = certify_with(&report.puzzle, &text, solution, *value, &dir, ProofCompression::Auto, Some(&tree))
        .map_err(|e| refused(e.to_string()))?;
    let verification = verify(&dir).map_err(|e| refused(e.to_string()))?;
    Ok((certificate, verification, dir))
}

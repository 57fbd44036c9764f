//! The parts of a certificate directory: its files, the three checks of a verification and
//! their verdicts, and the comparison of a model with the file that states it.

use std::fmt;
use std::path::Path;

use crate::encodings::linear::{write_opb, LinearModel};

/// The files of a certificate besides its proof: the puzzle, the model and the solution. The
/// proof is [`super::PROOF`] or, compressed, [`super::PROOF_GZ`].
pub const FILES: [&str; 3] = ["puzzle.toml", "model.opb", "solution.txt"];

/// The three parts of a verification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// a. The solution, replayed by the rules checker, has the stated value.
    Solution,
    /// b. `model.opb` is the model the puzzle generates.
    Model,
    /// c. VeriPB checks the proof and it concludes the stated bounds.
    Proof,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Part::Solution => "solution",
            Part::Model => "model",
            Part::Proof => "proof",
        })
    }
}

/// One part's verdict.
#[derive(Clone, Debug)]
pub struct Check {
    /// Which part.
    pub part: Part,
    /// Whether it passed.
    pub passed: bool,
    /// What was checked, or why it failed.
    pub message: String,
}

/// Whether the file `path` is `model` written as OPB; what differs first if not.
pub fn same_model(model: &LinearModel, path: &Path) -> Result<String, String> {
    let mut expected = Vec::new();
    write_opb(model, &mut expected).map_err(|e| e.to_string())?;
    let found = std::fs::read(path).map_err(|e| format!("cannot read model.opb: {e}"))?;
    if found == expected {
        return Ok(format!(
            "model.opb is the model the puzzle generates ({} variables, {} rows)",
            model.variables.len(),
            model.constraints.len()
        ));
    }
    let (found, expected) = (String::from_utf8_lossy(&found), String::from_utf8_lossy(&expected));
    let mut lines = found.lines().zip(expected.lines()).enumerate();
    let message = match lines.find(|(_, (a, b))| a != b) {
        Some((i, (a, b))) => {
            format!("model.opb differs from the generated model at line {}: `{a}`, expected `{b}`", i + 1)
        }
        None => {
            format!("model.opb has {} lines, the generated model {}", found.lines().count(), expected.lines().count())
        }
    };
    Err(message)
}

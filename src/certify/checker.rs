//! VeriPB, in-process: checks a proof against an OPB model and reports what it concluded.
//!
//! The proof must be in VeriPB's line-based format 2.0 (as pigeons writes it), so that its
//! `conclusion` line, the one rule that the checker accepted as the conclusion, can be read
//! back: `BOUNDS lower upper`, with the lower bound derived and the upper bound witnessed by a
//! logged solution. Proofs that use unchecked assumptions are rejected.

use std::path::Path;

use veripb::args::Args;
use veripb::prelude::{Context, Verifier};

/// What a checked proof concluded about the objective (as OPB minimises it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// No solution has a smaller objective value.
    pub lower: i64,
    /// A solution with this value was logged.
    pub upper: i64,
}

/// Checks `proof` against `model` with VeriPB; the bounds it concluded, or why it failed.
pub fn check(model: &Path, proof: &Path) -> Result<Bounds, String> {
    let text = std::fs::read_to_string(proof).map_err(|e| format!("cannot read {}: {e}", proof.display()))?;
    if text.lines().next().map(str::trim) != Some("pseudo-Boolean proof version 2.0") {
        return Err("the proof does not start with `pseudo-Boolean proof version 2.0`".into());
    }
    let bounds = conclusion(&text)?;
    let (model, proof) = (model.to_path_buf(), proof.to_path_buf());
    let run = move || -> Result<(), String> {
        let (formula, variables, _labels) =
            veripb_parser::opb_parser::parse_opb_from_file(&model).map_err(|e| format!("model.opb: {e}"))?;
        let args = Args {
            formula: model,
            derivation: proof,
            print_verification_result: false,
            show_warnings: false,
            ..Args::default()
        };
        let context = Context::new(args, variables);
        let mut verifier = Verifier::new(context, formula).map_err(|e| e.to_string())?;
        verifier.initialize().map_err(|e| format!("{e:#}"))?;
        verifier.verify_file_version_2().map_err(|e| format!("{e:#}"))?;
        if verifier.context.assumption_used {
            return Err("the proof uses unchecked assumptions".into());
        }
        if !verifier.context.has_conclusion {
            return Err("the proof has no conclusion".into());
        }
        Ok(())
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(Ok(())) => Ok(bounds),
        Ok(Err(e)) => Err(e.lines().map(str::trim).collect::<Vec<_>>().join(" ")),
        Err(_) => Err("VeriPB stopped on malformed input".into()),
    }
}

/// The bounds of the proof's single `conclusion BOUNDS` line.
fn conclusion(text: &str) -> Result<Bounds, String> {
    let lines: Vec<&str> = text.lines().filter(|l| l.split_whitespace().next() == Some("conclusion")).collect();
    let [line] = lines.as_slice() else {
        return Err(format!("the proof has {} conclusion lines, not one", lines.len()));
    };
    // conclusion BOUNDS lower [: id] upper [: assignment]
    let mut words = line.split_whitespace().skip(1);
    if words.next() != Some("BOUNDS") {
        return Err(format!("the proof concludes `{line}`, not bounds on the objective"));
    }
    let number = |word: Option<&str>| -> Result<i64, String> {
        word.and_then(|w| w.parse().ok()).ok_or_else(|| format!("cannot read the bounds of `{line}`"))
    };
    let lower = number(words.next())?;
    let mut next = words.next();
    if next == Some(":") {
        words.next();
        next = words.next();
    }
    let upper = number(next)?;
    Ok(Bounds { lower, upper })
}

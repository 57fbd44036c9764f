//! The formula of one question about a puzzle, as DIMACS CNF for any external SAT solver.
//!
//! A move puzzle (exchange or tour) is asked "is the goal reached after exactly `T` time
//! steps?"; a placement "is there a placement whose value is `K` or better?". The clauses are
//! the ones the solver receives in `solve` at that horizon or bound, with the goal switch or
//! the bound's output literals written as unit clauses instead of assumptions. Symmetry
//! breaking is left out of placements, so that every placement of the puzzle is a model.
//!
//! The same questions are also written as 0-1 linear models ([`linear_model`], OPB or LP): the
//! placement's covering and conflict model with its objective (given `--bound`, the bound as
//! one more constraint), and the time-indexed models of exchanges and tours at a horizon.

use std::io::{self, Write};

use knights_sat_encodings::encode::{AtMostOne, HorizonEncoding, MAX_SWITCH_LITERALS};
use knights_sat_encodings::linear::LinearModel;
use knights_sat_encodings::puzzle::Puzzle;
use rustsat::instances::Cnf;

use crate::family;

/// What the exported formula asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Move puzzles: is the goal reached after exactly this many time steps?
    Horizon(usize),
    /// Placements: is there a placement with this value or better (at most this many pieces
    /// when minimising, at least when maximising)?
    Bound(usize),
}

/// Why a formula cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The question does not fit the puzzle's family.
    #[error("{0}")]
    Question(String),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// A formula and what it says.
#[derive(Debug)]
pub struct Formula {
    /// The clauses.
    pub cnf: Cnf,
    /// Variables used (DIMACS numbers them `1..=n_vars`).
    pub n_vars: u32,
    /// One line on what a model of the formula is.
    pub meaning: String,
}

/// Builds the formula of `question` about `puzzle`.
pub fn formula(puzzle: &Puzzle, question: Question, at_most_one: AtMostOne) -> Result<Formula, ExportError> {
    family::of(puzzle).formula(question, at_most_one)
}

/// The error of a question that does not fit the family: `family` puzzles take `flag`.
pub fn wrong_question(family: &str, flag: &str) -> ExportError {
    ExportError::Question(format!("{family} puzzles are exported at a horizon or bound given by `{flag}`"))
}

/// The formula of a horizon encoding at `horizon`, its goal switch a unit clause; `cnf` holds
/// what the encoding wrote when it was made.
pub fn at_horizon(
    mut encoding: impl HorizonEncoding,
    mut cnf: Cnf,
    horizon: usize,
    meaning: String,
) -> Result<Formula, ExportError> {
    // A step is never smaller than the one before (the positions reachable only grow), so the
    // last step times the steps to go tells early that a formula is too big to write.
    while encoding.horizon() < horizon {
        let before = cnf.len();
        encoding.extend(&mut cnf);
        let step = cnf.len() - before;
        let projected = cnf.len().saturating_add(step.saturating_mul(horizon - encoding.horizon()));
        if projected > MAX_EXPORT_CLAUSES {
            return Err(ExportError::Question(format!(
                "a horizon of {horizon} needs at least {projected} clauses ({step} at step {}), more than \
                 the {MAX_EXPORT_CLAUSES} an export writes",
                encoding.horizon()
            )));
        }
    }
    if let Some(size) = encoding.goal_switch_too_big(horizon) {
        return Err(ExportError::Question(format!(
            "the goal at horizon {horizon} needs about {size} literals, more than the {MAX_SWITCH_LITERALS} \
             an export writes"
        )));
    }
    let switch = encoding.goal_switch(horizon, &mut cnf);
    cnf.add_unit(switch);
    Ok(Formula { cnf, n_vars: encoding.n_vars(), meaning })
}

/// The most clauses an exported formula may have: it is built in memory before it is written,
/// and ten million clauses take about a gigabyte there (and some 200 MB of DIMACS).
pub const MAX_EXPORT_CLAUSES: usize = 10_000_000;

/// The most terms (non-zero coefficients) a time-indexed linear model may have, written or
/// handed to HiGHS, for the same reason.
pub const MAX_EXPORT_TERMS: usize = 10_000_000;

/// The terms of the time-indexed linear model of `puzzle` at `horizon`, told before it is
/// built (0 for a placement, whose model has no horizon).
pub fn time_indexed_terms(puzzle: &Puzzle, horizon: usize) -> usize {
    family::of(puzzle).time_indexed_terms(horizon)
}

/// Refuses a time-indexed linear model of `projected` terms at `horizon` past
/// [`MAX_EXPORT_TERMS`], before it is built; `who` says who would be given it.
pub fn check_model_size(projected: usize, horizon: usize, who: &str) -> Result<(), String> {
    if projected > MAX_EXPORT_TERMS {
        return Err(format!(
            "a horizon of {horizon} needs about {projected} terms in the linear model, more than the \
             {MAX_EXPORT_TERMS} {who}"
        ));
    }
    Ok(())
}

/// Writes `formula` as DIMACS CNF, with `source` and its meaning in comment lines.
pub fn write_dimacs(formula: &Formula, source: &str, out: &mut dyn Write) -> Result<(), ExportError> {
    writeln!(out, "c knights-sat export of {source}")?;
    writeln!(out, "c {}", formula.meaning)?;
    let mut out = io::BufWriter::new(out);
    formula.cnf.write_dimacs(&mut out, formula.n_vars)?;
    out.flush()?;
    Ok(())
}

/// The most positions the network-flow model of an exchange may list.
pub const FLOW_POSITIONS: usize = 1_000_000;

/// The 0-1 linear model of `puzzle`; with a question, the model of that question (for a
/// placement, the objective bounded by `K` as one more constraint). An exchange without a
/// horizon gets its network-flow model (a shortest path over positions).
pub fn linear_model(puzzle: &Puzzle, question: Option<Question>) -> Result<LinearModel, ExportError> {
    family::of(puzzle).linear_model(question)
}

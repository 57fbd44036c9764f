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

pub(crate) mod parts;

use knights_sat_encodings::encode::AtMostOne;
use knights_sat_encodings::linear::LinearModel;
use knights_sat_encodings::puzzle::Puzzle;

pub use parts::{
    at_horizon, check_model_size, write_dimacs, wrong_question, ExportError, Formula, Question, FLOW_POSITIONS,
    MAX_EXPORT_CLAUSES, MAX_EXPORT_TERMS,
};

use crate::family;

/// Builds the formula of `question` about `puzzle`.
pub fn formula(puzzle: &Puzzle, question: Question, at_most_one: AtMostOne) -> Result<Formula, ExportError> {
    family::of(puzzle).formula(question, at_most_one)
}

/// The terms of the time-indexed linear model of `puzzle` at `horizon`, told before it is
/// built (0 for a placement, whose model has no horizon).
pub fn time_indexed_terms(puzzle: &Puzzle, horizon: usize) -> usize {
    family::of(puzzle).time_indexed_terms(horizon)
}

/// The 0-1 linear model of `puzzle`; with a question, the model of that question (for a
/// placement, the objective bounded by `K` as one more constraint). An exchange without a
/// horizon gets its network-flow model (a shortest path over positions).
pub fn linear_model(puzzle: &Puzzle, question: Option<Question>) -> Result<LinearModel, ExportError> {
    family::of(puzzle).linear_model(question)
}

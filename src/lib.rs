//! knights-sat: chess-board optimisation puzzles solved exactly by incremental SAT.
//!
//! The library behind the `knights-sat` command: [`solver`] puts SAT backends behind one
//! trait, [`driver`] runs the searches that prove optima, [`render`] turns outcomes into
//! text, JSON and SVG, [`export`] writes the formula of one question for other solvers, and [`certify`] writes and
//! checks certificates of optimality; [`cubes`] splits a search into a job directory of cubes
//! for many cores or a cluster. Board geometry, puzzle models and their encodings live in the
//! `knights-sat-encodings` crate, re-exported as [`encodings`].

#![warn(missing_docs)]
// The docs are written for those who work on the crate too, and link the private items they
// describe: `cargo doc --document-private-items` renders those links (CI checks them).
#![allow(rustdoc::private_intra_doc_links)]

pub mod certify;
pub mod cubes;
pub mod driver;
pub mod export;
pub mod family;
pub mod render;
pub mod solver;

pub use knights_sat_encodings as encodings;

/// Why a search could not produce an answer.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The SAT backend failed or is not built in.
    #[error(transparent)]
    Solver(#[from] solver::SolverError),
    /// The chosen model cannot take this puzzle (the network-flow model's limit on positions,
    /// a linear model for pieces that block lines): a limit of the request, not a failure.
    #[error("the chosen model cannot take this puzzle: {0}")]
    Unsupported(String),
    /// A horizon search refused to build its next time step, too large for memory: what it
    /// proved of the horizons before still holds.
    #[error("the chosen model cannot take this puzzle: {0}")]
    StepTooLarge(String),
    /// A solution failed the independent rules checker: a bug in knights-sat, never an answer.
    #[error("internal error: the rules checker rejected a solution found by the solver: {0}")]
    CheckerRejected(String),
    /// A search broke one of its own invariants: a bug in knights-sat, never an answer.
    #[error("internal error: {0}")]
    Internal(String),
    /// A solver or encoder panicked: a bug in knights-sat or in a solver it embeds.
    #[error("internal error: the search panicked: {0}")]
    Panicked(String),
}

impl From<encodings::check::PlacementViolation> for Error {
    /// A placement the rules checker rejected: [`Error::CheckerRejected`].
    fn from(violation: encodings::check::PlacementViolation) -> Error {
        Error::CheckerRejected(violation.to_string())
    }
}

//! Certificates of optimality, checked by VeriPB.
//!
//! A certificate is a directory: the puzzle (`puzzle.toml`), its 0-1 linear model with the
//! objective (`model.opb`), a solution (`solution.txt`) and a VeriPB proof (`proof.pbp`, or
//! `proof.pbp.gz` when it is long) that no solution of the model is better. [`certify`] writes
//! one from a solution that a search found; [`verify`] checks one without trusting the encoder
//! or the solver:
//!
//! a. the solution, replayed by the independent rules checker, has the stated value;
//! b. `model.opb` is exactly the model the puzzle generates;
//! c. VeriPB checks the proof and it concludes `value <= objective <= value`.
//!
//! A job split into cubes ([`crate::cubes`]) is certified as one: a placement's by its tree,
//! an exchange's or a tour's by its cubes' refutations and their cover ([`split`]).
//!
//! Three searches certify themselves as they run: the branch-and-bound tree of a placement
//! ([`tree`]), the core-guided search ([`core_guided`]) and the horizon search of a lone
//! knight's tour from any square ([`traced_tour`]). Otherwise the proof is built by a pipeline
//! of its own ([`prove`]): the SAT variables are the model's variables, every clause is a row
//! of the model or derived from one in the proof, and the refutation is varisat's or CaDiCaL's
//! (traced in LRAT), logged clause by clause; with two cores both race ([`race`]).

mod ahead;
mod argument;
mod checker;
mod colour;
#[cfg(unix)]
pub mod core_guided;
mod derive;
mod directory;
mod distances;
mod landings;
#[cfg(unix)]
mod lrat;
mod parts;
mod proof_file;
mod prove;
mod race;
mod solution;
mod speculation;
pub mod split;
#[cfg(unix)]
mod streamed;
mod swaps;
mod tour_model;
mod trace;
#[cfg(unix)]
pub mod traced_exchange;
#[cfg(unix)]
pub mod traced_tour;
mod tree;

pub use argument::Argument;
pub use checker::{check, check_unsat, Bounds};
pub use colour::LoneKnight;
pub use directory::{
    certified_model, certify, certify_begun, certify_with, opb_value, verify, CanonicalOrderUse, Certificate,
    ProofOptions, Verification, VerifyError, HARD_HORIZON_SECONDS,
};
#[cfg(unix)]
pub use directory::{certify_core_guided, certify_traced_exchange, certify_traced_tour};
pub use distances::Distances;
pub use landings::Landings;
pub use parts::{Check, Part, FILES};
pub use proof_file::{ProofCompression, StoredProof, AUTO_GZIP_BYTES, PROOF, PROOF_GZ};
pub use prove::{prove_optimal, prove_optimal_until, ProofFigures, Refuter};
pub use solution::{read_solution, stated_horizon, stated_value, write_solution, write_solution_in};
pub use speculation::Speculation;
pub use swaps::CanonicalOrder;
pub use tour_model::{colour_argument, tour_cap_model, tour_certified, tour_certified_model};
pub use tree::prove_tree;

/// Why a certificate could not be written.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The puzzle or its model is of a kind this pipeline does not certify.
    #[error("cannot certify: {0}")]
    Unsupported(String),
    /// Writing a file failed.
    #[error("writing the certificate failed: {0}")]
    Io(#[from] std::io::Error),
    /// The search that the certificate proves failed.
    #[error(transparent)]
    Search(#[from] crate::Error),
    /// The pipeline broke one of its own invariants: a bug, never an answer.
    #[error("internal error while certifying: {0}")]
    Internal(String),
    /// A refutation was stopped because another one, racing it, finished first.
    #[error("stopped: another refutation finished first")]
    Stopped,
}

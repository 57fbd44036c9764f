//! Exhaustive searches that compute optima without SAT, as ground truth for the tests.
//!
//! They are written from the rules of each family and share nothing with the encodings: even
//! their moves and attacks come from [`rules`], a derivation of the chess rules of its own.

pub mod exchange;
pub mod placement;
pub mod rules;
pub mod tour;

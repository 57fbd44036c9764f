//! Exhaustive searches that compute optima without SAT, as ground truth for the tests.
//!
//! They are written from the rules of each family and share nothing with the encodings but the
//! geometry.

pub mod exchange;
pub mod placement;
pub mod tour;

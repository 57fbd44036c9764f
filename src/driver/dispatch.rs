//! The searches of any puzzle, through its family (the searches themselves take the family's
//! puzzle; this is the entry point for callers that hold a [`Puzzle`]).

use knights_sat_encodings::puzzle::Puzzle;

#[cfg(feature = "mip")]
use super::MipSearch;
use super::{Event, Outcome};
use crate::family::{self, Searches};
use crate::Error;

/// Solves `puzzle` with the SAT searches (or the search `searches` selects for its family),
/// reporting every solver call to `on_event`.
pub fn solve(puzzle: &Puzzle, searches: &Searches, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error> {
    family::of(puzzle).solve(searches, on_event)
}

/// Solves `puzzle` with HiGHS, reporting every model solved to `on_event` (each family's MIP
/// search is in `mip.rs`).
#[cfg(feature = "mip")]
pub fn solve_mip(puzzle: &Puzzle, search: &MipSearch, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error> {
    family::of(puzzle).solve_mip(search, on_event)
}

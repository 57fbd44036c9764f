//! The count-bound search for placement puzzles, on one solver instance.
//!
//! The objective becomes a *cost* to minimise — the objective itself, or for independence the
//! weight left off the board — over literals of the encoding. Four strategies tighten it:
//! three ask "is there a placement of cost at most `b`?" through a RustSAT bound encoding whose
//! output literals are set by assumptions ([`bounds`]); the fourth grows a lower bound from
//! unsatisfiable cores ([`core_guided`]). Each ends on an UNSAT answer that proves the last
//! placement optimal, and every placement passes the independent rules checker before it is
//! reported.

mod bounds;
pub mod branch_and_bound;
pub mod core_guided;
mod fill;
mod session;
mod settings;

use std::time::Instant;

use knights_sat_encodings::puzzle::placement::PlacementPuzzle;

use super::{Event, Knowledge, Outcome};
use crate::Error;
use session::Session;
pub use settings::{default_threads, PlacementSearch, Strategy};

/// Finds an optimal placement and proves it optimal.
///
/// Every solver call is reported to `on_event`; its statistics carry, in `horizon`, the
/// objective value the call demanded (query [`super::Query::Bound`]).
pub fn solve_placement(
    puzzle: &PlacementPuzzle,
    search: &PlacementSearch,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, Error> {
    let started = Instant::now();
    let mut knowledge = if puzzle.goal.minimises() { Knowledge::minimising() } else { Knowledge::maximising() };
    let mut emit = |event: Event| {
        knowledge.observe(&event);
        on_event(&event);
    };
    let strategy = search.strategy.resolve(puzzle);
    if strategy == Strategy::BranchAndBound && branch_and_bound::supports(puzzle) {
        let ingredients = branch_and_bound::Ingredients { symmetry: search.symmetry, ..search.ingredients };
        branch_and_bound::solve(puzzle, ingredients, search.threads, &mut emit)?;
        return Ok(knowledge.outcome(started.elapsed(), None));
    }
    let mut session = Session::new(puzzle, search, &mut emit)?;
    match strategy {
        Strategy::SatUnsat => bounds::sat_unsat(&mut session, search.encoding)?,
        Strategy::UnsatSat => bounds::unsat_sat(&mut session, search.encoding)?,
        Strategy::Binary => bounds::binary(&mut session, search.encoding)?,
        Strategy::CoreGuided | Strategy::BranchAndBound | Strategy::Auto => core_guided::run(&mut session)?,
    }
    drop(session);
    Ok(knowledge.outcome(started.elapsed(), None))
}

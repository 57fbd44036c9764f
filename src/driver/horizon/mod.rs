//! The horizon search that exchanges and tours share, whatever the backend.
//!
//! Horizons are asked in increasing order; the first one at which the goal is reachable is the
//! optimum, and the "unreachable" answer one below it the proof. A backend answers one horizon
//! at a time behind [`HorizonOracle`]: a SAT solver that keeps its clauses from one horizon to
//! the next ([`SatHorizon`]), or HiGHS on the time-indexed linear model of each horizon (with
//! the `mip` feature). What is particular to a family comes on top: the exchange's invariant
//! and completeness proofs between two horizons, the tour's legs and its fewer-moves stage.

#[cfg(feature = "mip")]
mod mip;
mod parallel;
mod sat;

use std::ops::ControlFlow;

#[cfg(feature = "mip")]
pub(super) use mip::{ask_highs, highs_error, MipHorizon};
pub(super) use parallel::{first_reachable_parallel, Then};
pub(super) use sat::SatHorizon;

use knights_sat_encodings::encode::HorizonEncoding;
use rustsat::types::Lit;

use super::{Event, Query};
use crate::solver::SolverKind;
use crate::Error;

/// The longest horizon a search or an export accepts: far beyond any puzzle of up to 64x64
/// squares, and small enough that a runaway request is refused before it is built.
pub const MAX_HORIZON: usize = 100_000;

/// How to run a horizon search; `O` holds the family's encoding choices.
#[derive(Clone, Copy, Debug)]
pub struct HorizonSearch<O> {
    /// The SAT backend.
    pub solver: SolverKind,
    /// Keep one solver across horizons (true) or rebuild the formula at each horizon.
    pub incremental: bool,
    /// The largest horizon to try (for a tour in a listed order, per leg).
    pub max_horizon: usize,
    /// Encoding choices.
    pub encoding: O,
    /// Tours: once the optimum is proved, also list every choice of starting squares that
    /// reaches it (exchanges start where they start).
    pub list_starts: bool,
    /// Horizons asked at once, each on a SAT solver of its own (1: one solver for all).
    pub threads: usize,
}

impl<O: Default> Default for HorizonSearch<O> {
    fn default() -> Self {
        HorizonSearch {
            solver: SolverKind::default(),
            incremental: true,
            max_horizon: 1000,
            encoding: O::default(),
            list_starts: false,
            threads: 1,
        }
    }
}

/// A backend's answer to "can the goal be reached at exactly this horizon?": the seam between
/// the horizon search and the solvers.
pub(super) trait HorizonOracle {
    /// What a reachable horizon yields (an exchange's moves, a tour's route).
    type Solution;

    /// Asks for the goal at `horizon`, one call reported to `emit` as `query`: the solution,
    /// or `None` when no solution has exactly that horizon.
    fn reach(
        &mut self,
        horizon: usize,
        query: Query,
        emit: &mut dyn FnMut(Event),
    ) -> Result<Option<Self::Solution>, Error>;
}

/// How a horizon search ended.
pub(super) enum Reached<S> {
    /// The goal is reachable at this horizon, and at none before it that was asked.
    At(usize, S),
    /// A proof between two horizons ended the search (the goal is unreachable).
    Stopped,
    /// Every horizon asked was unreachable.
    Exhausted,
}

/// Asks `oracle` at each of `horizons` in turn until the goal is reachable. After each
/// unreachable horizon, `between` may end the search with a proof of its own.
pub(super) fn first_reachable<O: HorizonOracle>(
    oracle: &mut O,
    horizons: impl IntoIterator<Item = usize>,
    query: Query,
    emit: &mut dyn FnMut(Event),
    mut between: impl FnMut(usize, &mut dyn FnMut(Event)) -> Result<ControlFlow<()>, Error>,
) -> Result<Reached<O::Solution>, Error> {
    for horizon in horizons {
        if let Some(solution) = oracle.reach(horizon, query, emit)? {
            return Ok(Reached::At(horizon, solution));
        }
        if between(horizon, emit)?.is_break() {
            return Ok(Reached::Stopped);
        }
    }
    Ok(Reached::Exhausted)
}

/// What the search of one cube of a horizon search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeSearch<S> {
    /// The shortest solution in the cube, if one was found.
    pub found: Option<S>,
    /// Every horizon from the cube's depth up to this one is refuted in the cube (`None`:
    /// none was asked).
    pub refuted_to: Option<usize>,
}

/// A cube's search: the literals `units` picks from the encoding (`None`: the cube holds
/// nothing) fixed at horizon `from`, then the horizons `from..=to` asked in turn while
/// `worth_asking` says so, until the goal is reachable.
pub(super) fn search_cube<E: HorizonEncoding>(
    oracle: &mut SatHorizon<E>,
    (from, to): (usize, usize),
    units: impl FnOnce(&E) -> Option<Vec<Lit>>,
    worth_asking: &dyn Fn(usize) -> bool,
    emit: &mut dyn FnMut(Event),
) -> Result<CubeSearch<E::Solution>, Error> {
    if !oracle.restrict(from, units)? {
        // Nothing lies in the cube: every horizon is refuted at once.
        return Ok(CubeSearch { found: None, refuted_to: Some(to) });
    }
    let mut refuted_to = None;
    for horizon in (from..=to).take_while(|&h| worth_asking(h)) {
        if let Some(solution) = oracle.reach(horizon, Query::Goal, emit)? {
            return Ok(CubeSearch { found: Some(solution), refuted_to });
        }
        refuted_to = Some(horizon);
    }
    Ok(CubeSearch { found: None, refuted_to })
}

/// No proof between horizons.
pub(super) fn nothing_between(_: usize, _: &mut dyn FnMut(Event)) -> Result<ControlFlow<()>, Error> {
    Ok(ControlFlow::Continue(()))
}

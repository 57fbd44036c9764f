//! The searches of the MIP backend: the puzzles' 0-1 linear models solved by HiGHS.
//!
//! - Placements: the covering and conflict model, solved once with its objective.
//! - Exchanges: the time-indexed model at horizons 0, 1, 2, … until one is feasible (as the SAT
//!   driver grows its horizon), or the network-flow model, solved once.
//! - Tours: the time-indexed model at horizons from 0 upward; with the `steps` objective and
//!   several knights each model also minimises the moves, so the first feasible horizon gives
//!   the fewest moves too. A lone knight in a listed order is solved leg by leg, as the SAT
//!   driver does, and `feasible` grows the horizon geometrically from a distance bound.
//!
//! Exchanges and tours run the SAT searches' own horizon loops ([`super::horizon`]) with HiGHS
//! behind the oracle; the same events are reported, the same rules checkers replay every
//! solution, and a model HiGHS calls infeasible is the proof of a bound, as an UNSAT answer is.

use std::time::Instant;

use knights_sat_encodings::check::{check_placement, replay_exchange};
use knights_sat_encodings::encode::exchange::full_step_size;
use knights_sat_encodings::linear::{
    check_model_size, exchange_model, flow_model, placement_model, tour_model, tour_model_terms, Unsupported,
    FLOW_POSITIONS,
};
use knights_sat_encodings::puzzle::placement::PlacementPuzzle;
use knights_sat_encodings::puzzle::tour::TourPuzzle;
use knights_sat_encodings::puzzle::ExchangePuzzle;

use super::horizon::{ask_highs, first_reachable, highs_error, nothing_between, MipHorizon};
use super::{exchange, tour, Event, Knowledge, Outcome, Query, Solution};
use crate::solver::highs::Formulation;
use crate::Error;

/// How the MIP backend searches.
#[derive(Clone, Copy, Debug)]
pub struct MipSearch {
    /// Which model of an exchange to solve.
    pub formulation: Formulation,
    /// The largest horizon to try (for a listed order, per leg).
    pub max_horizon: usize,
}

impl Default for MipSearch {
    fn default() -> Self {
        MipSearch { formulation: Formulation::default(), max_horizon: 1000 }
    }
}

/// Solves a placement's covering and conflict model with HiGHS, once.
pub fn solve_placement_mip(puzzle: &PlacementPuzzle, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error> {
    one_model(!puzzle.goal.minimises(), on_event, |emit| placement(puzzle, emit))
}

/// Solves an exchange with HiGHS: its network-flow model once, or its time-indexed model at
/// horizons 0, 1, 2, … until one is feasible.
pub fn solve_exchange_mip(
    puzzle: &ExchangePuzzle,
    search: &MipSearch,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, Error> {
    if search.formulation == Formulation::NetworkFlow {
        return one_model(false, on_event, |emit| network_flow(puzzle, emit));
    }
    let model_at = |h| {
        let projected = full_step_size(puzzle).saturating_mul(h);
        check_model_size(projected, h, "HiGHS is given").map_err(Error::Unsupported)?;
        Ok(exchange_model(puzzle, h))
    };
    exchange::shortest(puzzle, search.max_horizon, on_event, |horizons, emit| {
        first_reachable(&mut MipHorizon::new(model_at), horizons, Query::Goal, emit, nothing_between)
    })
}

/// Solves a tour with HiGHS: its time-indexed model at horizons from 0 upward, leg by leg for
/// a lone knight in a listed order.
pub fn solve_tour_mip(
    puzzle: &TourPuzzle,
    search: &MipSearch,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, Error> {
    if search.formulation == Formulation::NetworkFlow {
        return Err(highs_error("the network-flow model is for exchanges; tours have the time-indexed one"));
    }
    let oracle_for = |p: &TourPuzzle, _stop| {
        let p = p.clone();
        Ok(MipHorizon::new(move |h| {
            check_model_size(tour_model_terms(&p, h), h, "HiGHS is given").map_err(Error::Unsupported)?;
            Ok(tour_model(&p, h))
        }))
    };
    // The models of the `steps` objective minimise the moves already.
    let horizons = tour::Horizons { max_horizon: search.max_horizon, threads: 1, finish_needs_oracle: false };
    tour::search(puzzle, horizons, oracle_for, |_, _, _, route, _| Ok(route), on_event)
}

/// A search that solves one model, whose optimum is its own proof.
fn one_model(
    maximise: bool,
    on_event: &mut dyn FnMut(&Event),
    solve: impl FnOnce(&mut dyn FnMut(Event)) -> Result<(), Error>,
) -> Result<Outcome, Error> {
    let started = Instant::now();
    let mut knowledge = if maximise { Knowledge::maximising() } else { Knowledge::minimising() };
    let mut emit = |event: Event| {
        knowledge.observe(&event);
        on_event(&event);
    };
    solve(&mut emit)?;
    Ok(knowledge.outcome(started.elapsed(), None))
}

fn placement(puzzle: &PlacementPuzzle, emit: &mut dyn FnMut(Event)) -> Result<(), Error> {
    let modelled = placement_model(puzzle).map_err(|Unsupported(why)| Error::Unsupported(why))?;
    match ask_highs(&modelled.model, 0, Query::Optimise, emit)? {
        Some(values) => {
            let placement = modelled.placement(&values);
            let value = check_placement(puzzle, &placement)?;
            emit(Event::Solution { value, solution: Solution::Placement(placement) });
            emit(Event::Bound(value));
        }
        None => emit(Event::Infeasible("the covering and conflict model has no 0-1 solution".into())),
    }
    Ok(())
}

fn network_flow(puzzle: &ExchangePuzzle, emit: &mut dyn FnMut(Event)) -> Result<(), Error> {
    let flow = flow_model(puzzle, FLOW_POSITIONS).map_err(|Unsupported(why)| Error::Unsupported(why))?;
    match ask_highs(&flow.model, 0, Query::Optimise, emit)? {
        Some(values) => {
            let moves = flow.moves(&values);
            replay_exchange(puzzle, &moves).map_err(|v| Error::CheckerRejected(v.to_string()))?;
            let value = moves.len();
            emit(Event::Solution { value, solution: Solution::Moves(moves) });
            emit(Event::Bound(value));
        }
        None => emit(Event::Infeasible(format!(
            "the goal is none of the {} positions reachable from the start",
            flow.positions
        ))),
    }
    Ok(())
}

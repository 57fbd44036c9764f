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
//! The same events as the SAT searches are reported, the same rules checkers replay every
//! solution, and a model HiGHS calls infeasible is the proof of a bound, as an UNSAT answer is.

use std::time::Instant;

use knights_sat_encodings::check::{check_placement, replay_exchange, replay_tour};
use knights_sat_encodings::linear::{
    exchange_model, flow_model, placement_model, tour_model, LinearModel, Unsupported,
};
use knights_sat_encodings::puzzle::placement::PlacementPuzzle;
use knights_sat_encodings::puzzle::tour::{KnightStart, Route, TourObjective, TourPuzzle, VisitOrder};
use knights_sat_encodings::puzzle::{ExchangePuzzle, Move, Puzzle};

use super::tour::{distance_bound, leg_puzzle};
use super::{Event, Knowledge, Outcome, Query, Solution, StepStats};
use crate::export::FLOW_POSITIONS;
use crate::mip::{solve_model, Formulation, MipStatus};
use crate::solver::{Answer, SolverError};
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

/// Solves `puzzle` with HiGHS, reporting every model solved to `on_event`.
pub fn solve_mip(puzzle: &Puzzle, search: &MipSearch, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error> {
    let started = Instant::now();
    let mut knowledge = match puzzle {
        Puzzle::Placement(p) if !p.goal.minimises() => Knowledge::maximising(),
        _ => Knowledge::minimising(),
    };
    let mut emit = |event: Event| {
        knowledge.observe(&event);
        on_event(&event);
    };
    let exhausted = match puzzle {
        Puzzle::Placement(p) => placement(p, &mut emit)?,
        Puzzle::Exchange(p) if search.formulation == Formulation::NetworkFlow => network_flow(p, &mut emit)?,
        Puzzle::Exchange(p) => exchange(p, search, &mut emit)?,
        Puzzle::Tour(_) if search.formulation == Formulation::NetworkFlow => {
            return Err(unsupported("the network-flow model is for exchanges; tours have the time-indexed one"))
        }
        Puzzle::Tour(p) => tour(p, search, &mut emit)?,
    };
    Ok(knowledge.outcome(started.elapsed(), exhausted.then_some(search.max_horizon)))
}

fn unsupported(why: impl Into<String>) -> Error {
    Error::Solver(SolverError { solver: "highs", message: why.into() })
}

/// Solves one model and reports it as a call asking `query` at `horizon`: the values of an
/// optimal solution, or `None` when the model is infeasible.
fn ask(
    model: &LinearModel,
    horizon: usize,
    query: Query,
    emit: &mut dyn FnMut(Event),
) -> Result<Option<Vec<bool>>, Error> {
    emit(Event::Trying { horizon, query });
    let clock = Instant::now();
    let answer = solve_model(model, None)?;
    let result = match answer.status {
        MipStatus::Optimal => Answer::Sat,
        MipStatus::Infeasible => Answer::Unsat,
        other => return Err(unsupported(format!("HiGHS ended with {other:?}"))),
    };
    emit(Event::Step(StepStats {
        horizon,
        query,
        variables: model.variables.len() as u32,
        clauses: model.constraints.len(),
        conflicts: None,
        seconds: clock.elapsed().as_secs_f64(),
        result,
    }));
    match (result, answer.values) {
        (Answer::Sat, Some(values)) => Ok(Some(values)),
        (Answer::Sat, None) => Err(unsupported("HiGHS reported an optimum without a solution")),
        (Answer::Unsat, _) => Ok(None),
    }
}

fn placement(puzzle: &PlacementPuzzle, emit: &mut dyn FnMut(Event)) -> Result<bool, Error> {
    let modelled = placement_model(puzzle).map_err(|Unsupported(why)| Error::Unsupported(why))?;
    match ask(&modelled.model, 0, Query::Optimise, emit)? {
        Some(values) => {
            let placement = modelled.placement(&values);
            let value = check_placement(puzzle, &placement).map_err(|why| Error::CheckerRejected(why.to_string()))?;
            emit(Event::Solution { value, solution: Solution::Placement(placement) });
            emit(Event::Bound(value));
        }
        None => emit(Event::Infeasible("the covering and conflict model has no 0-1 solution".into())),
    }
    Ok(false)
}

fn network_flow(puzzle: &ExchangePuzzle, emit: &mut dyn FnMut(Event)) -> Result<bool, Error> {
    let flow = flow_model(puzzle, FLOW_POSITIONS).map_err(|Unsupported(why)| Error::Unsupported(why))?;
    match ask(&flow.model, 0, Query::Optimise, emit)? {
        Some(values) => {
            let moves = checked_moves(puzzle, flow.moves(&values))?;
            let value = moves.len();
            emit(Event::Solution { value, solution: Solution::Moves(moves) });
            emit(Event::Bound(value));
        }
        None => emit(Event::Infeasible(format!(
            "the goal is none of the {} positions reachable from the start",
            flow.positions
        ))),
    }
    Ok(false)
}

/// Replays `moves` with the rules checker, which must end on the goal.
fn checked_moves(puzzle: &ExchangePuzzle, moves: Vec<Move>) -> Result<Vec<Move>, Error> {
    let positions = replay_exchange(puzzle, &moves).map_err(|v| Error::CheckerRejected(v.to_string()))?;
    if positions.last() != Some(&puzzle.goal) {
        return Err(Error::CheckerRejected("the moves do not end on the goal".into()));
    }
    Ok(moves)
}

/// Horizons from 0; returns whether the search ran out of horizons.
fn exchange(puzzle: &ExchangePuzzle, search: &MipSearch, emit: &mut dyn FnMut(Event)) -> Result<bool, Error> {
    if let Some(reason) = puzzle.obstruction() {
        emit(Event::Infeasible(reason));
        return Ok(false);
    }
    for horizon in 0..=search.max_horizon {
        let modelled = exchange_model(puzzle, horizon);
        if let Some(values) = ask(&modelled.model, horizon, Query::Goal, emit)? {
            let moves = checked_moves(puzzle, modelled.moves(&values))?;
            emit(Event::Solution { value: moves.len(), solution: Solution::Moves(moves) });
            return Ok(false);
        }
    }
    Ok(true)
}

/// Returns whether the search ran out of horizons.
fn tour(puzzle: &TourPuzzle, search: &MipSearch, emit: &mut dyn FnMut(Event)) -> Result<bool, Error> {
    if let Some(reason) = puzzle.obstruction() {
        emit(Event::Infeasible(reason));
        return Ok(false);
    }
    let lone = puzzle.knights.len() == 1;
    let fixed = matches!(puzzle.knights[0], KnightStart::At(_));
    let route = if lone && fixed && puzzle.order == VisitOrder::Listed && puzzle.objective != TourObjective::Feasible {
        by_legs(puzzle, search, emit)?
    } else {
        shortest(puzzle, search, Query::Goal, emit)?
    };
    let Some(route) = route else { return Ok(true) };
    replay_tour(puzzle, &route).map_err(|v| Error::CheckerRejected(v.to_string()))?;
    emit(Event::Solution { value: route.value(puzzle.objective), solution: Solution::Route(route) });
    Ok(false)
}

/// The first feasible horizon's route (from 0, or geometrically from a distance bound for
/// `feasible`).
fn shortest(
    puzzle: &TourPuzzle,
    search: &MipSearch,
    query: Query,
    emit: &mut dyn FnMut(Event),
) -> Result<Option<Route>, Error> {
    let feasible = puzzle.objective == TourObjective::Feasible;
    let mut horizon = if feasible { distance_bound(puzzle) } else { 0 };
    while horizon <= search.max_horizon {
        let modelled = tour_model(puzzle, horizon);
        if let Some(values) = ask(&modelled.model, horizon, query, emit)? {
            return Ok(Some(modelled.route(&values)));
        }
        horizon = if feasible { horizon + (horizon / 4).max(1) } else { horizon + 1 };
    }
    Ok(None)
}

fn by_legs(puzzle: &TourPuzzle, search: &MipSearch, emit: &mut dyn FnMut(Event)) -> Result<Option<Route>, Error> {
    let KnightStart::At(start) = puzzle.knights[0] else {
        return Err(Error::Internal("legs need a knight with a fixed start".into()));
    };
    let mut route = Route { starts: vec![start], steps: Vec::new() };
    let mut from = start;
    for (i, &target) in puzzle.targets.iter().enumerate() {
        let leg = leg_puzzle(puzzle, i, from, target)?;
        let Some(found) = shortest(&leg, search, Query::Leg, emit)? else { return Ok(None) };
        route.steps.extend(found.steps);
        from = target;
        emit(Event::Bound(route.moves()));
    }
    Ok(Some(route))
}

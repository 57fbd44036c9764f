//! The horizon search for tour puzzles.
//!
//! Horizons are tried from 0 upward on one solver instance (or a rebuilt formula per horizon,
//! to measure the difference): the first SAT horizon is the optimum and the UNSAT answer one
//! below it the proof. With the `steps` objective and several knights, the number of moves is
//! then minimised at that horizon by tightening a totalizer bound on the move literals until
//! the solver answers UNSAT.
//!
//! A lone knight touching targets in a listed order is solved leg by leg: it touches target
//! `i` only after target `i - 1`, and at that moment it stands on target `i - 1`, so the
//! shortest route is the concatenation of shortest legs, each proved optimal by its own UNSAT
//! answer. The `feasible` objective grows the horizon geometrically from a distance bound and
//! claims no optimality.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use knights_sat_encodings::check::{replay_tour, TourViolation};
use knights_sat_encodings::encode::bound::{BoundEncoding, ObjectiveBound};
use knights_sat_encodings::encode::tour::{TourEncoding, TourOptions};
use knights_sat_encodings::encode::HorizonEncoding as _;
use knights_sat_encodings::geometry::Square;
use knights_sat_encodings::puzzle::tour::{KnightStart, Route, TourObjective, TourPuzzle, VisitOrder};
use rustsat::types::Lit;

mod cube;

pub use cube::solve_tour_cube;

use super::fed_solver::FedSolver;
use super::horizon::{
    first_reachable, first_reachable_parallel, nothing_between, HorizonOracle, HorizonSearch, Reached, SatHorizon, Then,
};
use super::{Event, Knowledge, Outcome, Query, Solution};
use crate::solver::Answer;
use crate::Error;

/// How to search for the shortest tour.
pub type TourSearch = HorizonSearch<TourOptions>;

/// Finds a shortest tour (by the puzzle's objective), or proves there is none within
/// `max_horizon`. Every route goes through the rules checker before it is reported.
pub fn solve_tour(
    puzzle: &TourPuzzle,
    search: &TourSearch,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, Error> {
    let oracle_for = |p: &TourPuzzle, stop: Arc<AtomicBool>| {
        let (p, options) = (p.clone(), search.encoding);
        let build = move |cnf: &mut _| TourEncoding::new(&p, options, cnf);
        Ok(SatHorizon::new(search.solver, search.incremental, build).stopped_by(stop))
    };
    let fewer = puzzle.objective == TourObjective::Steps && puzzle.knights.len() > 1;
    let finish = |p: &TourPuzzle,
                  oracle: &mut SatHorizon<TourEncoding>,
                  horizon,
                  route,
                  emit: &mut dyn FnMut(Event)| {
        let (route, at_best) =
            if fewer { fewer_moves(p, oracle, horizon, route, search.list_starts, emit)? } else { (route, Vec::new()) };
        if search.list_starts {
            list_starts(p, oracle, horizon, &route, &at_best, emit)?;
        }
        Ok(route)
    };
    let horizons = Horizons {
        max_horizon: search.max_horizon,
        threads: search.threads,
        finish_needs_oracle: fewer || search.list_starts,
    };
    self::search(puzzle, horizons, oracle_for, finish, on_event)
}

/// Which horizons a tour search asks, and how.
pub(super) struct Horizons {
    /// The largest horizon to ask (per leg, for a tour in a listed order).
    pub max_horizon: usize,
    /// Horizons asked at once (the legs of a listed order are asked one at a time).
    pub threads: usize,
    /// `finish` goes on from the solver that reached the optimum: on several threads, it runs
    /// on the thread that reached it.
    pub finish_needs_oracle: bool,
}

/// The search of a tour on any backend, asking the oracles `oracle_for` makes (each given the
/// flag that stops its calls): leg by leg for a lone knight in a listed order, else horizon by
/// horizon; `finish` then goes on from the fewest time steps and their route (the SAT search:
/// fewer moves where the `steps` objective asks for them, and the optimal starts when asked).
pub(super) fn search<O: HorizonOracle<Solution = Route>>(
    puzzle: &TourPuzzle,
    horizons: Horizons,
    oracle_for: impl Fn(&TourPuzzle, Arc<AtomicBool>) -> Result<O, Error> + Sync,
    finish: impl FnOnce(&TourPuzzle, &mut O, usize, Route, &mut dyn FnMut(Event)) -> Result<Route, Error> + Send,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, Error> {
    let started = Instant::now();
    let max_horizon = horizons.max_horizon;
    let mut knowledge = Knowledge::minimising();
    let mut emit = |event: Event| {
        knowledge.observe(&event);
        on_event(&event);
    };
    if let Some(reason) = puzzle.obstruction() {
        emit(Event::Infeasible(reason));
        return Ok(knowledge.outcome(started.elapsed(), None));
    }
    let lone = puzzle.knights.len() == 1;
    let fixed_start = matches!(puzzle.knights[0], KnightStart::At(_));
    let legs = lone && fixed_start && puzzle.order == VisitOrder::Listed && puzzle.objective != TourObjective::Feasible;
    let found = if legs {
        by_legs(puzzle, max_horizon, &|p: &TourPuzzle| oracle_for(p, Arc::default()), &mut emit)?
    } else if horizons.threads > 1 {
        let asked: Vec<usize> = self::horizons(puzzle, max_horizon).collect();
        let make = |stop| oracle_for(puzzle, stop);
        // The stage after the optimum runs on the thread whose solver reached it.
        let finish = Mutex::new(Some(finish));
        let then = |oracle: &mut O, horizon, route, emit: &mut dyn FnMut(Event)| {
            let finish = finish.lock().ok().and_then(|mut f| f.take());
            let finish = finish.ok_or_else(|| Error::Internal("a tour finished twice".into()))?;
            finish(puzzle, oracle, horizon, route, emit)
        };
        let then = horizons.finish_needs_oracle.then_some(&then as Then<O, Route>);
        let threads = horizons.threads;
        match first_reachable_parallel(threads, &make, &asked, Query::Goal, &mut emit, nothing_between, then)? {
            Reached::At(horizon, route) if then.is_none() => {
                let finish = finish.into_inner().ok().flatten();
                let finish = finish.ok_or_else(|| Error::Internal("a tour finished twice".into()))?;
                Some(finish(puzzle, &mut oracle_for(puzzle, Arc::default())?, horizon, route, &mut emit)?)
            }
            Reached::At(_, route) => Some(route),
            Reached::Stopped | Reached::Exhausted => None,
        }
    } else {
        let mut oracle = oracle_for(puzzle, Arc::default())?;
        match first_reachable(
            &mut oracle,
            self::horizons(puzzle, max_horizon),
            Query::Goal,
            &mut emit,
            nothing_between,
        )? {
            Reached::At(horizon, route) => Some(finish(puzzle, &mut oracle, horizon, route, &mut emit)?),
            Reached::Stopped | Reached::Exhausted => None,
        }
    };
    if let Some(route) = found {
        let route = checked(puzzle, route)?;
        emit(Event::Solution { value: route.value(puzzle.objective), solution: Solution::Route(route) });
        return Ok(knowledge.outcome(started.elapsed(), None));
    }
    Ok(knowledge.outcome(started.elapsed(), Some(max_horizon)))
}

/// The horizons to ask: from 0 one by one, or for `feasible` geometrically from a distance
/// bound (no route is shorter).
fn horizons(puzzle: &TourPuzzle, max_horizon: usize) -> impl Iterator<Item = usize> {
    let feasible = puzzle.objective == TourObjective::Feasible;
    let first = if feasible { distance_bound(puzzle) } else { 0 };
    let next = move |&h: &usize| Some(if feasible { h + (h / 4).max(1) } else { h + 1 });
    std::iter::successors(Some(first), next).take_while(move |&h| h <= max_horizon)
}

/// Replays a route with the rules checker; a rejected route is a bug, never an answer.
fn checked(puzzle: &TourPuzzle, route: Route) -> Result<Route, Error> {
    replay_tour(puzzle, &route).map_err(|violation: TourViolation| Error::CheckerRejected(violation.to_string()))?;
    Ok(route)
}

/// SAT, at the proven fewest time steps `horizon`: tightens the number of moves until UNSAT.
/// Returns the best route and, if `keep`, the assumptions that demand its number of moves.
fn fewer_moves(
    puzzle: &TourPuzzle,
    oracle: &mut SatHorizon<TourEncoding>,
    horizon: usize,
    mut best: Route,
    keep: bool,
    emit: &mut dyn FnMut(Event),
) -> Result<(Route, Vec<Lit>), Error> {
    best = checked(puzzle, best)?;
    let Some((encoding, solver, switch)) = oracle.last() else {
        return Err(Error::Internal("fewer moves asked before a reachable horizon".into()));
    };
    let terms: Vec<(Lit, usize)> = encoding.move_literals(horizon).into_iter().map(|l| (l, 1)).collect();
    let mut bound = ObjectiveBound::new(BoundEncoding::Totalizer, &terms);
    let mut demand = |ub: usize, encoding: &mut TourEncoding, solver: &mut FedSolver| {
        bound.encode_ub(ub, solver.pending(), encoding.vars());
        let mut assumptions = bound.enforce_ub(ub);
        assumptions.extend(encoding.moves_colour_bounds(horizon, ub, solver.pending()));
        assumptions
    };
    while best.moves() > 0 {
        let ub = best.moves() - 1;
        emit(Event::Trying { horizon: ub, query: Query::Moves });
        let clock = Instant::now();
        let mut assumptions = vec![switch];
        assumptions.extend(demand(ub, encoding, solver));
        if solver.ask(&assumptions, (ub, Query::Moves), encoding.n_vars(), clock, emit)? == Answer::Unsat {
            break;
        }
        best = checked(puzzle, encoding.decode(horizon, |lit| solver.value(lit)))?;
    }
    let at_best = if keep { demand(best.moves(), encoding, solver) } else { Vec::new() };
    Ok((best, at_best))
}

/// SAT, at the optimum (`horizon` time steps, `at_best` demanding its moves): reports the best
/// route's choice of starting squares, then every other that reaches the optimum, each with a
/// route, until the UNSAT answer that shows none is left.
fn list_starts(
    puzzle: &TourPuzzle,
    oracle: &mut SatHorizon<TourEncoding>,
    horizon: usize,
    best: &Route,
    at_best: &[Lit],
    emit: &mut dyn FnMut(Event),
) -> Result<(), Error> {
    let Some((encoding, solver, switch)) = oracle.last() else {
        return Err(Error::Internal("starts listed before a reachable horizon".into()));
    };
    let mut route = checked(puzzle, best.clone())?;
    loop {
        // No later route starts where this one did.
        let starts = encoding.start_literals(&route.starts);
        let starts = starts.ok_or_else(|| Error::Internal("a route starts where no knight may".into()))?;
        solver.pending().add_clause(starts.iter().map(|&lit| !lit).collect());
        emit(Event::Alternative(Solution::Route(route)));
        emit(Event::Trying { horizon, query: Query::Starts });
        let clock = Instant::now();
        let mut assumptions = vec![switch];
        assumptions.extend_from_slice(at_best);
        if solver.ask(&assumptions, (horizon, Query::Starts), encoding.n_vars(), clock, emit)? == Answer::Unsat {
            return Ok(());
        }
        route = checked(puzzle, encoding.decode(horizon, |lit| solver.value(lit)))?;
    }
}

/// A lone knight, targets in a listed order: one shortest leg after another, each asked of
/// its own oracle.
fn by_legs<O: HorizonOracle<Solution = Route>>(
    puzzle: &TourPuzzle,
    max_horizon: usize,
    oracle_for: &impl Fn(&TourPuzzle) -> Result<O, Error>,
    emit: &mut dyn FnMut(Event),
) -> Result<Option<Route>, Error> {
    let KnightStart::At(start) = puzzle.knights[0] else {
        return Err(Error::Internal("legs need a knight with a fixed start".into()));
    };
    let mut route = Route { starts: vec![start], steps: Vec::new() };
    let mut from = start;
    for (i, &target) in puzzle.targets.iter().enumerate() {
        let leg = leg_puzzle(puzzle, i, from, target)?;
        let mut oracle = oracle_for(&leg)?;
        let Reached::At(_, found) = first_reachable(&mut oracle, 0..=max_horizon, Query::Leg, emit, nothing_between)?
        else {
            return Ok(None);
        };
        route.steps.extend(found.steps);
        from = target;
        emit(Event::Bound(route.value(puzzle.objective)));
    }
    Ok(Some(route))
}

/// Leg `i` of a lone knight's tour in a listed order: from `from` to the target `target`.
fn leg_puzzle(puzzle: &TourPuzzle, i: usize, from: Square, target: Square) -> Result<TourPuzzle, Error> {
    TourPuzzle::new(
        None,
        puzzle.board.clone(),
        puzzle.attackers.clone(),
        vec![KnightStart::At(from)],
        Some(vec![target]),
        VisitOrder::Any,
        TourObjective::Moves,
    )
    .map_err(|e| Error::Internal(format!("leg {} of the tour: {e}", i + 1)))
}

/// The most moves any target is away from the nearest knight start: no route is shorter.
fn distance_bound(puzzle: &TourPuzzle) -> usize {
    let starts: Vec<_> = puzzle.knights.iter().flat_map(|k| k.candidates().iter().copied()).collect();
    let distance = puzzle.distances_from(&starts);
    puzzle.targets.iter().filter_map(|t| distance[t.index()]).max().unwrap_or(0)
}

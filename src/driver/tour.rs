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

use std::time::Instant;

use knights_sat_encodings::check::{replay_tour, TourViolation};
use knights_sat_encodings::encode::bound::{BoundEncoding, ObjectiveBound};
use knights_sat_encodings::encode::tour::{TourEncoding, TourOptions};
use knights_sat_encodings::geometry::Square;
use knights_sat_encodings::puzzle::tour::{KnightStart, Route, TourObjective, TourPuzzle, VisitOrder};
use rustsat::instances::Cnf;
use rustsat::types::Lit;

use super::{Event, Knowledge, Outcome, Query, Solution, StepStats};
use crate::solver::{Answer, SatSolver, SolverError, SolverKind};
use crate::Error;

/// How to search for the shortest tour.
#[derive(Clone, Copy, Debug)]
pub struct TourSearch {
    /// The SAT backend.
    pub solver: SolverKind,
    /// Keep one solver across horizons (true) or rebuild the formula at each horizon.
    pub incremental: bool,
    /// The largest horizon (time steps; for a listed order, per leg) to try.
    pub max_horizon: usize,
    /// Encoding choices.
    pub encoding: TourOptions,
}

impl Default for TourSearch {
    fn default() -> Self {
        TourSearch {
            solver: SolverKind::default(),
            incremental: true,
            max_horizon: 1000,
            encoding: TourOptions::default(),
        }
    }
}

/// Finds a shortest tour (by the puzzle's objective), or proves there is none within
/// `max_horizon`. Every route goes through the rules checker before it is reported.
pub fn solve_tour(
    puzzle: &TourPuzzle,
    search: &TourSearch,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, Error> {
    let started = Instant::now();
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
    let found = if legs { by_legs(puzzle, search, &mut emit)? } else { by_horizon(puzzle, search, &mut emit)? };
    if let Some(route) = found {
        let route = checked(puzzle, route)?;
        emit(Event::Solution { value: route.value(puzzle.objective), solution: Solution::Route(route) });
        return Ok(knowledge.outcome(started.elapsed(), None));
    }
    Ok(knowledge.outcome(started.elapsed(), Some(search.max_horizon)))
}

/// Replays a route with the rules checker; a rejected route is a bug, never an answer.
fn checked(puzzle: &TourPuzzle, route: Route) -> Result<Route, Error> {
    replay_tour(puzzle, &route).map_err(|violation: TourViolation| Error::CheckerRejected(violation.to_string()))?;
    Ok(route)
}

/// Horizons from 0 (from a distance bound, growing geometrically, for `feasible`); then fewer
/// moves at the optimal horizon for `steps`.
fn by_horizon(puzzle: &TourPuzzle, search: &TourSearch, emit: &mut dyn FnMut(Event)) -> Result<Option<Route>, Error> {
    let feasible = puzzle.objective == TourObjective::Feasible;
    let mut horizon = if feasible { distance_bound(puzzle) } else { 0 };
    let mut formula: Option<Formula> = None;
    while horizon <= search.max_horizon {
        emit(Event::Trying { horizon, query: Query::Goal });
        let clock = Instant::now();
        let current = match formula.as_mut() {
            Some(f) if search.incremental => f,
            _ => formula.insert(Formula::new(puzzle, search)?),
        };
        current.extend_to(horizon)?;
        let switch = current.goal_switch(horizon)?;
        let answer = current.run(&[switch], horizon, Query::Goal, clock, emit)?;
        if answer == Answer::Sat {
            let route = current.route(horizon);
            if puzzle.objective == TourObjective::Steps && puzzle.knights.len() > 1 {
                return fewer_moves(puzzle, current, switch, horizon, route, emit).map(Some);
            }
            return Ok(Some(route));
        }
        current.add(&[!switch])?;
        horizon = if feasible { horizon + (horizon / 4).max(1) } else { horizon + 1 };
    }
    Ok(None)
}

/// At the proven fewest time steps, tightens the number of moves until UNSAT.
fn fewer_moves(
    puzzle: &TourPuzzle,
    formula: &mut Formula,
    switch: Lit,
    horizon: usize,
    mut best: Route,
    emit: &mut dyn FnMut(Event),
) -> Result<Route, Error> {
    best = checked(puzzle, best)?;
    let terms: Vec<(Lit, usize)> = formula.encoding.move_literals(horizon).into_iter().map(|l| (l, 1)).collect();
    let mut bound = ObjectiveBound::new(BoundEncoding::Totalizer, &terms);
    while best.moves() > 0 {
        let ub = best.moves() - 1;
        emit(Event::Trying { horizon: ub, query: Query::Moves });
        let clock = Instant::now();
        bound.encode_ub(ub, &mut formula.pending, formula.encoding.vars());
        formula.flush()?;
        let mut assumptions = vec![switch];
        assumptions.extend(bound.enforce_ub(ub));
        if formula.run(&assumptions, ub, Query::Moves, clock, emit)? == Answer::Unsat {
            break;
        }
        best = checked(puzzle, formula.route(horizon))?;
    }
    Ok(best)
}

/// A lone knight, targets in a listed order: one shortest leg after another.
fn by_legs(puzzle: &TourPuzzle, search: &TourSearch, emit: &mut dyn FnMut(Event)) -> Result<Option<Route>, Error> {
    let KnightStart::At(start) = puzzle.knights[0] else {
        return Err(Error::Internal("legs need a knight with a fixed start".into()));
    };
    let mut route = Route { starts: vec![start], steps: Vec::new() };
    let mut from = start;
    let mut proven = 0;
    for (i, &target) in puzzle.targets.iter().enumerate() {
        let leg = leg_puzzle(puzzle, i, from, target)?;
        let mut formula = Formula::new(&leg, search)?;
        let mut horizon = 0;
        let steps = loop {
            if horizon > search.max_horizon {
                return Ok(None);
            }
            emit(Event::Trying { horizon, query: Query::Leg });
            let clock = Instant::now();
            if !search.incremental {
                formula = Formula::new(&leg, search)?;
            }
            formula.extend_to(horizon)?;
            let switch = formula.goal_switch(horizon)?;
            if formula.run(&[switch], horizon, Query::Leg, clock, emit)? == Answer::Sat {
                break formula.route(horizon).steps;
            }
            formula.add(&[!switch])?;
            horizon += 1;
        };
        proven += steps.len();
        route.steps.extend(steps);
        from = target;
        emit(Event::Bound(proven));
    }
    Ok(Some(route))
}

/// Leg `i` of a lone knight's tour in a listed order: from `from` to the target `target`.
pub(super) fn leg_puzzle(puzzle: &TourPuzzle, i: usize, from: Square, target: Square) -> Result<TourPuzzle, Error> {
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
pub(super) fn distance_bound(puzzle: &TourPuzzle) -> usize {
    let starts: Vec<_> = puzzle.knights.iter().flat_map(|k| k.candidates().iter().copied()).collect();
    let distance = puzzle.distances_from(&starts);
    puzzle.targets.iter().filter_map(|t| distance[t.index()]).max().unwrap_or(0)
}

/// An encoding and the solver it feeds.
struct Formula {
    encoding: TourEncoding,
    solver: Box<dyn SatSolver>,
    pending: Cnf,
    clauses: usize,
}

impl Formula {
    fn new(puzzle: &TourPuzzle, search: &TourSearch) -> Result<Self, SolverError> {
        let mut pending = Cnf::new();
        let encoding = TourEncoding::new(puzzle, search.encoding, &mut pending);
        let mut formula = Formula { encoding, solver: search.solver.create()?, pending, clauses: 0 };
        formula.flush()?;
        Ok(formula)
    }

    fn extend_to(&mut self, horizon: usize) -> Result<(), SolverError> {
        while self.encoding.horizon() < horizon {
            self.encoding.extend(&mut self.pending);
        }
        self.flush()
    }

    fn goal_switch(&mut self, horizon: usize) -> Result<Lit, SolverError> {
        let switch = self.encoding.goal_switch(horizon, &mut self.pending);
        self.flush()?;
        Ok(switch)
    }

    fn add(&mut self, clause: &[Lit]) -> Result<(), SolverError> {
        self.clauses += 1;
        self.solver.add_clause(clause)
    }

    fn flush(&mut self) -> Result<(), SolverError> {
        for clause in std::mem::take(&mut self.pending).iter() {
            self.solver.add_clause(&clause[..])?;
            self.clauses += 1;
        }
        Ok(())
    }

    fn route(&self, horizon: usize) -> Route {
        self.encoding.decode(horizon, |lit| self.solver.value(lit))
    }

    /// Solves under `assumptions` and reports the call.
    fn run(
        &mut self,
        assumptions: &[Lit],
        horizon: usize,
        query: Query,
        clock: Instant,
        emit: &mut dyn FnMut(Event),
    ) -> Result<Answer, SolverError> {
        let before = self.solver.conflicts();
        let answer = self.solver.solve(assumptions)?;
        let conflicts = before.zip(self.solver.conflicts()).map(|(b, a)| a.saturating_sub(b));
        emit(Event::Step(StepStats {
            horizon,
            query,
            variables: self.encoding.n_vars(),
            clauses: self.clauses,
            conflicts,
            seconds: clock.elapsed().as_secs_f64(),
            result: answer,
        }));
        Ok(answer)
    }
}

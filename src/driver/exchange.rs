//! The horizon search for exchange puzzles.
//!
//! Horizons are tried in increasing order from 0, so the first SAT horizon is the optimum and
//! the UNSAT answer one below it is the proof. Incrementally, one solver instance serves every
//! horizon: each step appends a time layer and asks for the goal under an assumption literal,
//! and learnt clauses carry over. Without `incremental`, the formula is rebuilt at each horizon
//! so that the gain can be measured.
//!
//! Unreachable goals are recognised in three ways: a static obstruction (some pieces cannot
//! reach their goal squares even on an empty board); an inductive invariant that excludes the
//! goal, searched by IC3 ([`InvariantSearch`]) at horizons 1, 2, 4, … and at the limit; and a
//! completeness query at the same horizons: when no route of `h` moves visits `h + 1`
//! different positions, every reachable position is reachable in fewer than `h` moves, and none
//! of those was the goal.

use std::time::Instant;

use knights_sat_encodings::check::{replay_exchange, RuleViolation};
use knights_sat_encodings::encode::distinct::differ_from_earlier;
use knights_sat_encodings::encode::exchange::{ExchangeEncoding, ExchangeOptions};
use knights_sat_encodings::puzzle::ExchangePuzzle;
use rustsat::instances::Cnf;
use rustsat::types::Lit;

use super::invariant::{InvariantSearch, Reachability};
use super::{Event, Knowledge, Outcome, Query, Solution, StepStats};
use crate::solver::{Answer, SatSolver, SolverError, SolverKind};
use crate::Error;

/// How to search for the shortest solution of an exchange puzzle.
#[derive(Clone, Debug)]
pub struct ExchangeSearch {
    /// The SAT backend.
    pub solver: SolverKind,
    /// Keep one solver across horizons (true) or rebuild the formula at each horizon.
    pub incremental: bool,
    /// The largest number of moves to try.
    pub max_horizon: usize,
    /// Encoding choices.
    pub encoding: ExchangeOptions,
}

impl Default for ExchangeSearch {
    fn default() -> Self {
        ExchangeSearch {
            solver: SolverKind::default(),
            incremental: true,
            max_horizon: 1000,
            encoding: ExchangeOptions::default(),
        }
    }
}

/// Finds a shortest solution, or proves there is none (within `max_horizon` moves at least).
///
/// Every solver call is reported to `on_event` as it starts and ends. A solution is replayed by
/// the rules checker before it is reported; one that fails is an internal error.
pub fn solve_exchange(
    puzzle: &ExchangePuzzle,
    search: &ExchangeSearch,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, Error> {
    let started = Instant::now();
    let mut knowledge = Knowledge::default();
    let mut emit = |event: Event| {
        knowledge.observe(&event);
        on_event(&event);
    };
    if let Some(reason) = puzzle.obstruction() {
        emit(Event::Infeasible(reason));
        return Ok(knowledge.outcome(started.elapsed(), None));
    }
    let mut goal_formula: Option<Formula> = None;
    let mut completeness: Option<Formula> = None;
    let mut invariant: Option<InvariantSearch> = None;
    let mut reachable = false;
    for horizon in 0..=search.max_horizon {
        emit(Event::Trying { horizon, query: Query::Goal });
        let clock = Instant::now();
        let formula = match goal_formula.as_mut() {
            Some(formula) if search.incremental => formula,
            _ => goal_formula.insert(Formula::new(puzzle, search, false)?),
        };
        formula.extend_to(horizon)?;
        let switch = formula.goal_switch(horizon)?;
        let (answer, stats) = formula.solve(switch, search.incremental, horizon, Query::Goal, clock)?;
        emit(Event::Step(stats));
        if answer == Answer::Sat {
            let moves = formula.encoding.decode(horizon, |lit| formula.solver.value(lit));
            replay_exchange(puzzle, &moves)
                .map_err(|violation: RuleViolation| Error::CheckerRejected(violation.to_string()))?;
            emit(Event::Solution { value: moves.len(), solution: Solution::Moves(moves) });
            return Ok(knowledge.outcome(started.elapsed(), None));
        }
        if !reachable && horizon > 0 && (horizon.is_power_of_two() || horizon == search.max_horizon) {
            emit(Event::Trying { horizon, query: Query::Invariant });
            let clock = Instant::now();
            let ic3 = match invariant.as_mut() {
                Some(ic3) => ic3,
                None => invariant.insert(InvariantSearch::new(puzzle, search.solver, search.encoding)?),
            };
            let before = ic3.conflicts();
            let reach = ic3.advance_to(horizon)?;
            emit(Event::Step(StepStats {
                horizon,
                query: Query::Invariant,
                variables: ic3.variables(),
                clauses: ic3.clauses(),
                conflicts: ic3.conflicts().zip(before).map(|(a, b)| a.saturating_sub(b)),
                seconds: clock.elapsed().as_secs_f64(),
                result: if matches!(reach, Reachability::Unreachable { .. }) { Answer::Unsat } else { Answer::Sat },
            }));
            match reach {
                Reachability::Unreachable { frame, lemmas } => {
                    emit(Event::Infeasible(format!(
                        "an inductive invariant of {lemmas} clauses (IC3, frame {frame}) holds at the start, \
                         is kept by every move, and excludes the goal"
                    )));
                    return Ok(knowledge.outcome(started.elapsed(), None));
                }
                Reachability::Reachable => {
                    // IC3 met a route to the goal (maybe longer than the horizon): the goal is
                    // reachable, and only the horizon search remains to find the shortest route.
                    reachable = true;
                    continue;
                }
                Reachability::NotWithin(_) => {}
            }
            emit(Event::Trying { horizon, query: Query::Completeness });
            let clock = Instant::now();
            let formula = match completeness.as_mut() {
                Some(formula) if search.incremental => formula,
                _ => completeness.insert(Formula::new(puzzle, search, true)?),
            };
            formula.extend_to(horizon)?;
            let (answer, stats) = formula.solve_plain(horizon, clock)?;
            emit(Event::Step(stats));
            if answer == Answer::Unsat {
                emit(Event::Infeasible(format!(
                    "every reachable position is reachable in at most {} moves (no route of {horizon} moves \
                     visits {} different positions), and no sequence of at most {horizon} moves reaches the goal",
                    horizon - 1,
                    horizon + 1
                )));
                return Ok(knowledge.outcome(started.elapsed(), None));
            }
        }
    }
    Ok(knowledge.outcome(started.elapsed(), Some(search.max_horizon)))
}

/// An encoding and the solver it feeds.
struct Formula {
    encoding: ExchangeEncoding,
    solver: Box<dyn SatSolver>,
    pending: Cnf,
    clauses: usize,
    distinct: bool,
}

impl Formula {
    fn new(puzzle: &ExchangePuzzle, search: &ExchangeSearch, distinct: bool) -> Result<Self, SolverError> {
        let mut pending = Cnf::new();
        let encoding = ExchangeEncoding::new(puzzle, search.encoding, &mut pending);
        let mut formula = Formula { encoding, solver: search.solver.create()?, pending, clauses: 0, distinct };
        formula.flush()?;
        Ok(formula)
    }

    fn extend_to(&mut self, horizon: usize) -> Result<(), SolverError> {
        while self.encoding.horizon() < horizon {
            self.encoding.extend(&mut self.pending);
            if self.distinct {
                differ_from_earlier(&mut self.encoding, &mut self.pending);
            }
        }
        self.flush()
    }

    fn goal_switch(&mut self, horizon: usize) -> Result<Lit, SolverError> {
        let switch = self.encoding.goal_switch(horizon, &mut self.pending);
        self.flush()?;
        Ok(switch)
    }

    fn flush(&mut self) -> Result<(), SolverError> {
        for clause in std::mem::take(&mut self.pending).iter() {
            self.solver.add_clause(&clause[..])?;
            self.clauses += 1;
        }
        Ok(())
    }

    /// Asks for the goal at `horizon`: under the assumption `switch` when incremental (and
    /// then rules the switch out for good if UNSAT), or with the switch as a unit clause.
    fn solve(
        &mut self,
        switch: Lit,
        incremental: bool,
        horizon: usize,
        query: Query,
        clock: Instant,
    ) -> Result<(Answer, StepStats), SolverError> {
        let assumptions = if incremental {
            vec![switch]
        } else {
            self.solver.add_clause(&[switch])?;
            self.clauses += 1;
            vec![]
        };
        let result = self.run(&assumptions, horizon, query, clock)?;
        if incremental && result.0 == Answer::Unsat {
            self.solver.add_clause(&[!switch])?;
            self.clauses += 1;
        }
        Ok(result)
    }

    fn solve_plain(&mut self, horizon: usize, clock: Instant) -> Result<(Answer, StepStats), SolverError> {
        self.run(&[], horizon, Query::Completeness, clock)
    }

    fn run(
        &mut self,
        assumptions: &[Lit],
        horizon: usize,
        query: Query,
        clock: Instant,
    ) -> Result<(Answer, StepStats), SolverError> {
        let before = self.solver.conflicts();
        let answer = self.solver.solve(assumptions)?;
        let conflicts = match (before, self.solver.conflicts()) {
            (Some(b), Some(a)) => Some(a.saturating_sub(b)),
            _ => None,
        };
        let stats = StepStats {
            horizon,
            query,
            variables: self.encoding.n_vars(),
            clauses: self.clauses,
            conflicts,
            seconds: clock.elapsed().as_secs_f64(),
            result: answer,
        };
        Ok((answer, stats))
    }
}

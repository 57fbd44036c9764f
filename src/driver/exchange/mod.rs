//! The horizon search for exchange puzzles.
//!
//! Horizons are tried in increasing order from 0, so the first reachable horizon is the
//! optimum and the "unreachable" answer one below it is the proof (see [`super::horizon`]).
//! With SAT, one solver instance serves every horizon and learnt clauses carry over; with
//! HiGHS, each horizon is its own time-indexed model.
//!
//! Unreachable goals are recognised in three ways: a static obstruction (some pieces cannot
//! reach their goal squares even on an empty board); and, with SAT, between two horizons, an
//! inductive invariant that excludes the goal, searched by IC3 ([`InvariantSearch`]) at
//! horizons 1, 2, 4, … and at the limit, and a completeness query at the same horizons: when no
//! route of `h` moves visits `h + 1` different positions, every reachable position is reachable
//! in fewer than `h` moves, and none of those was the goal.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use knights_sat_encodings::check::{replay_exchange, RuleViolation};
use knights_sat_encodings::encode::distinct::DistinctPositions;
use knights_sat_encodings::encode::exchange::{full_step_size, ExchangeEncoding, ExchangeOptions};
use knights_sat_encodings::puzzle::{ExchangePuzzle, Move};

mod cube;
mod invariant;

pub use cube::solve_exchange_cube;
pub use invariant::{InvariantSearch, Reachability};

use super::horizon::{first_reachable, first_reachable_parallel, HorizonSearch, Reached, SatHorizon};
use super::{Event, Knowledge, Outcome, Query, Solution, StepStats};
use crate::solver::Answer;
use crate::Error;

/// How to search for the shortest solution of an exchange puzzle.
pub type ExchangeSearch = HorizonSearch<ExchangeOptions>;

/// Finds a shortest solution, or proves there is none (within `max_horizon` moves at least).
///
/// Every solver call is reported to `on_event` as it starts and ends. A solution is replayed by
/// the rules checker before it is reported; one that fails is an internal error.
pub fn solve_exchange(
    puzzle: &ExchangePuzzle,
    search: &ExchangeSearch,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, Error> {
    let options = search.encoding;
    let goal = |stop: Arc<AtomicBool>| {
        let build = move |cnf: &mut _| ExchangeEncoding::new(puzzle, options, cnf);
        Ok(SatHorizon::new(search.solver, search.incremental, build).stopped_by(stop))
    };
    let mut unreachable = UnreachableProofs {
        puzzle,
        search,
        invariant: None,
        completeness: SatHorizon::new(search.solver, search.incremental, |cnf| {
            DistinctPositions(ExchangeEncoding::new(puzzle, options, cnf))
        }),
        reachable: false,
    };
    let between = |horizon, emit: &mut dyn FnMut(Event)| unreachable.between(horizon, emit);
    shortest(puzzle, search.max_horizon, on_event, |horizons, emit| {
        if search.threads > 1 {
            first_reachable_parallel(search.threads, &goal, &horizons, Query::Goal, emit, between, None)
        } else {
            first_reachable(&mut goal(Arc::default())?, horizons, Query::Goal, emit, between)
        }
    })
}

/// The horizon search of an exchange on any backend: `ask` asks the horizons `0..=max_horizon`
/// in order (see [`first_reachable`]) and tells the first reachable one.
pub(super) fn shortest(
    puzzle: &ExchangePuzzle,
    max_horizon: usize,
    on_event: &mut dyn FnMut(&Event),
    ask: impl FnOnce(Vec<usize>, &mut dyn FnMut(Event)) -> Result<Reached<Vec<Move>>, Error>,
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
    match ask((0..=max_horizon).collect(), &mut emit)? {
        Reached::At(_, moves) => {
            let moves = checked(puzzle, moves)?;
            emit(Event::Solution { value: moves.len(), solution: Solution::Moves(moves) });
            Ok(knowledge.outcome(started.elapsed(), None))
        }
        Reached::Stopped => Ok(knowledge.outcome(started.elapsed(), None)),
        Reached::Exhausted => Ok(knowledge.outcome(started.elapsed(), Some(max_horizon))),
    }
}

/// Replays `moves` with the rules checker (which also demands the goal at the end): a rejected
/// solution is a bug, never an answer.
fn checked(puzzle: &ExchangePuzzle, moves: Vec<Move>) -> Result<Vec<Move>, Error> {
    replay_exchange(puzzle, &moves)
        .map_err(|violation: RuleViolation| Error::CheckerRejected(violation.to_string()))?;
    Ok(moves)
}

/// The SAT proofs that a goal is unreachable, tried between two horizons.
/// The most clauses one step over the whole board may take for the invariant and completeness
/// proofs to be tried (about a gigabyte of solver memory over a few frames).
const MAX_PROOF_STEP: usize = 2_000_000;

struct UnreachableProofs<'a> {
    puzzle: &'a ExchangePuzzle,
    search: &'a ExchangeSearch,
    invariant: Option<InvariantSearch>,
    completeness: SatHorizon<'a, DistinctPositions>,
    /// IC3 met a route to the goal: only the horizon search remains.
    reachable: bool,
}

impl UnreachableProofs<'_> {
    /// At horizons 1, 2, 4, … and the limit: an invariant, then the completeness query.
    fn between(&mut self, horizon: usize, emit: &mut dyn FnMut(Event)) -> Result<ControlFlow<()>, Error> {
        let max = self.search.max_horizon;
        if self.reachable || horizon == 0 || !(horizon.is_power_of_two() || horizon == max) {
            return Ok(ControlFlow::Continue(()));
        }
        // Both proofs encode moves over the whole board; where that alone would take gigabytes
        // (sliders on a large board), the horizon search goes on without them.
        if full_step_size(self.puzzle) > MAX_PROOF_STEP {
            return Ok(ControlFlow::Continue(()));
        }
        emit(Event::Trying { horizon, query: Query::Invariant });
        let clock = Instant::now();
        let ic3 = match self.invariant.as_mut() {
            Some(ic3) => ic3,
            None => self.invariant.insert(InvariantSearch::new(self.puzzle, self.search.solver, self.search.encoding)?),
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
            answered_by: None,
            thread: None,
        }));
        match reach {
            Reachability::Unreachable { frame, lemmas } => {
                emit(Event::Infeasible(format!(
                    "an inductive invariant of {lemmas} clauses (IC3, frame {frame}) holds at the start, \
                     is kept by every move, and excludes the goal"
                )));
                return Ok(ControlFlow::Break(()));
            }
            Reachability::Reachable => {
                // IC3 met a route to the goal (maybe longer than the horizon): the goal is
                // reachable, and only the horizon search remains to find the shortest route.
                self.reachable = true;
                return Ok(ControlFlow::Continue(()));
            }
            Reachability::NotWithin(_) => {}
        }
        if self.completeness.satisfiable_to(horizon, Query::Completeness, emit)? == Answer::Unsat {
            emit(Event::Infeasible(format!(
                "every reachable position is reachable in at most {} moves (no route of {horizon} moves \
                 visits {} different positions), and no sequence of at most {horizon} moves reaches the goal",
                horizon - 1,
                horizon + 1
            )));
            return Ok(ControlFlow::Break(()));
        }
        Ok(ControlFlow::Continue(()))
    }
}

#[cfg(test)]
mod tests {
    use knights_sat_encodings::puzzle;

    use super::*;
    use crate::solver::SolverKind;

    /// A rook alone on 3x1 has three positions: two moves may visit three different ones
    /// (a1-b1-c1), three moves cannot visit four; without the "all positions differ" clauses
    /// they could (a1-c1-b1-a1).
    #[test]
    fn the_completeness_query_counts_different_positions() {
        let text =
            "kind = \"exchange\"\nboard = \"3x1\"\n[[side]]\nname = \"w\"\nstart = [\"Ra1\"]\ngoal = [\"Rc1\"]\n";
        let puzzle = puzzle::parse(text, "rook.toml").unwrap().exchange().unwrap().clone();
        for solver in SolverKind::ALL {
            let options = ExchangeOptions::default();
            let build = |cnf: &mut _| DistinctPositions(ExchangeEncoding::new(&puzzle, options, cnf));
            let mut distinct = SatHorizon::new(solver, true, build);
            let mut ask = |horizon| distinct.satisfiable_to(horizon, Query::Completeness, &mut |_| {}).unwrap();
            assert_eq!(ask(2), Answer::Sat, "{solver}");
            assert_eq!(ask(3), Answer::Unsat, "{solver}");
            let build = |cnf: &mut _| ExchangeEncoding::new(&puzzle, options, cnf);
            let mut free = SatHorizon::new(solver, true, build);
            assert_eq!(free.satisfiable_to(3, Query::Completeness, &mut |_| {}).unwrap(), Answer::Sat, "{solver}");
        }
    }
}

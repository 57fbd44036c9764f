//! A portfolio: several CaDiCaL instances, each in another of CaDiCaL's configurations, get
//! every clause and race on every call, one thread each; the first to answer stops the others
//! and its answer, model and failed assumptions are the portfolio's.
//!
//! A stopped instance keeps its clauses and what it learnt, so each member goes on from where
//! it was at the next call. How hard one query is for one configuration varies by orders of
//! magnitude on these puzzles (the queen-d5 tour from any square: 1.9 s in the default
//! configuration, 0.4 s in `sat`), so the race costs a core per member and takes the best of
//! them at every call.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use rustsat::types::Lit;

use super::cadical::Cadical;
use super::{Answer, SatSolver, SolverError};

/// The configurations the members run, in the order members are added.
pub const CONFIGURATIONS: [&str; 4] = ["default", "sat", "unsat", "plain"];

/// The portfolio backend.
pub struct Portfolio {
    members: Vec<Cadical>,
    /// `stops[i]`: set to stop member `i`'s call.
    stops: Vec<Arc<AtomicBool>>,
    /// The member whose answer the last call returned.
    winner: usize,
}

impl Portfolio {
    /// A portfolio of `members` CaDiCaL instances (two to four: one per configuration).
    pub fn new(members: usize) -> Result<Portfolio, SolverError> {
        let count = members.clamp(2, CONFIGURATIONS.len());
        let stops: Vec<Arc<AtomicBool>> = (0..count).map(|_| Arc::default()).collect();
        let members = CONFIGURATIONS[..count]
            .iter()
            .zip(&stops)
            .map(|(config, stop)| Cadical::configured(config, Arc::clone(stop)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Portfolio { members, stops, winner: 0 })
    }
}

impl SatSolver for Portfolio {
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolverError> {
        for member in &mut self.members {
            member.add_clause(clause)?;
        }
        Ok(())
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        for stop in &self.stops {
            stop.store(false, Ordering::Relaxed);
        }
        let first = AtomicUsize::new(usize::MAX);
        let stops = &self.stops;
        let answers: Vec<Option<Answer>> = std::thread::scope(|scope| {
            let racers: Vec<_> = self
                .members
                .iter_mut()
                .enumerate()
                .map(|(i, member)| {
                    let first = &first;
                    scope.spawn(move || {
                        let answer = member.solve_or_stop(assumptions);
                        if answer.is_some()
                            && first.compare_exchange(usize::MAX, i, Ordering::AcqRel, Ordering::Acquire).is_ok()
                        {
                            for (j, stop) in stops.iter().enumerate() {
                                if j != i {
                                    stop.store(true, Ordering::Relaxed);
                                }
                            }
                        }
                        answer
                    })
                })
                .collect();
            racers.into_iter().map(|racer| racer.join().unwrap_or(None)).collect()
        });
        let winner = first.load(Ordering::Acquire);
        let answer = answers
            .get(winner)
            .copied()
            .flatten()
            .ok_or_else(|| SolverError { solver: "portfolio", message: "no member answered".to_string() })?;
        self.winner = winner;
        Ok(answer)
    }

    fn value(&self, lit: Lit) -> bool {
        self.members[self.winner].value(lit)
    }

    /// The conflicts of the members added up: the work the race cost.
    fn conflicts(&self) -> Option<u64> {
        self.members.iter().map(|m| m.conflicts()).sum()
    }

    fn failed_assumptions(&mut self) -> Vec<Lit> {
        self.members[self.winner].failed_assumptions()
    }

    fn answered_by(&self) -> Option<&'static str> {
        Some(CONFIGURATIONS[self.winner])
    }
}

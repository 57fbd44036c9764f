//! CaDiCaL, compiled from its C++ sources with the system's C++ compiler (the `cadical` crate;
//! no bindgen, so no libclang), always built.
//!
//! CaDiCaL answers `val` only while its last answer is SAT and `failed` only while it is UNSAT;
//! adding a clause ends either state. So the model and the failed assumptions are read out right
//! after each call and kept, and the trait's accessors work whatever the driver adds in between.
//! The crate's callbacks count learnt clauses, which stand for the conflicts the work table shows.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rustsat::types::Lit;

use super::{Answer, SatSolver, SolverError};

/// What CaDiCaL reports back during a call: it counts the clauses it learns (one per conflict,
/// units and all, of any length) and asks whether to stop.
#[derive(Default)]
struct Hooks {
    learnt: u64,
    stop: Arc<AtomicBool>,
}

impl cadical::Callbacks for Hooks {
    fn max_length(&self) -> i32 {
        // The length bound of the clauses passed to `learn`; their count is all that is kept.
        i32::MAX
    }

    fn learn(&mut self, _clause: &[i32]) {
        self.learnt += 1;
    }

    fn terminate(&mut self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// The CaDiCaL backend.
pub struct Cadical {
    solver: cadical::Solver<Hooks>,
    /// The value of each variable (by index) in the last model.
    model: Vec<bool>,
    /// The assumptions of the last call, as DIMACS literals.
    assumed: Vec<i32>,
    /// The assumptions CaDiCaL named as failed after the last UNSAT answer.
    failed: Vec<Lit>,
    /// Conflicts (learnt clauses) up to the end of the last call.
    conflicts: u64,
}

impl Cadical {
    /// A fresh solver in one of CaDiCaL's configurations (`default`, `sat`, `unsat`, `plain`),
    /// which gives up a call as soon as `stop` is set.
    pub fn configured(config: &str, stop: Arc<AtomicBool>) -> Result<Self, SolverError> {
        let mut solver = cadical::Solver::with_config(config)
            .map_err(|e| SolverError { solver: "cadical", message: format!("configuration `{config}`: {e:?}") })?;
        solver.set_callbacks(Some(Hooks { learnt: 0, stop }));
        Ok(Cadical { solver, model: Vec::new(), assumed: Vec::new(), failed: Vec::new(), conflicts: 0 })
    }

    /// Decides the clauses under `assumptions`, or `None` when the call was stopped.
    pub fn solve_or_stop(&mut self, assumptions: &[Lit]) -> Option<Answer> {
        self.assumed.clear();
        self.assumed.extend(assumptions.iter().map(|&l| dimacs(l)));
        self.failed.clear();
        let answer = self.solver.solve_with(self.assumed.iter().copied());
        self.conflicts = self.solver.get_callbacks().map_or(0, |hooks| hooks.learnt);
        match answer {
            Some(true) => {
                let vars = self.solver.max_variable().max(0) as usize;
                self.model.clear();
                self.model.extend((1..=vars).map(|v| self.solver.value(v as i32) == Some(true)));
                Some(Answer::Sat)
            }
            Some(false) => {
                let solver = &self.solver;
                self.failed = assumptions
                    .iter()
                    .zip(&self.assumed)
                    .filter(|&(_, &d)| solver.failed(d))
                    .map(|(&l, _)| l)
                    .collect();
                Some(Answer::Unsat)
            }
            None => None,
        }
    }
}

/// RustSAT's literal as a DIMACS integer (variables count from 1).
fn dimacs(lit: Lit) -> i32 {
    lit.to_ipasir()
}

impl SatSolver for Cadical {
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolverError> {
        self.solver.add_clause(clause.iter().map(|&l| dimacs(l)));
        Ok(())
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        self.solve_or_stop(assumptions).ok_or_else(|| SolverError {
            solver: "cadical",
            message: "the search stopped without an answer".to_string(),
        })
    }

    fn value(&self, lit: Lit) -> bool {
        self.model.get(lit.vidx()).copied().unwrap_or(false) != lit.is_neg()
    }

    fn conflicts(&self) -> Option<u64> {
        Some(self.conflicts)
    }

    fn failed_assumptions(&mut self) -> Vec<Lit> {
        self.failed.clone()
    }
}

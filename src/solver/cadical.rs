//! CaDiCaL through rustsat-cadical (cargo feature `cadical`).

use rustsat::solvers::{GetInternalStats, Solve, SolveIncremental, SolverResult};
use rustsat::types::{Clause, Lit, TernaryVal};

use super::{Answer, SatSolver, SolverError};

/// The CaDiCaL backend.
pub struct Cadical {
    solver: rustsat_cadical::CaDiCaL<'static, 'static>,
}

impl Cadical {
    /// A fresh solver with no clauses.
    pub fn new() -> Self {
        Cadical { solver: rustsat_cadical::CaDiCaL::default() }
    }
}

fn failed(e: impl std::fmt::Display) -> SolverError {
    SolverError { solver: "cadical", message: e.to_string() }
}

impl SatSolver for Cadical {
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolverError> {
        let clause: Clause = clause.iter().copied().collect();
        self.solver.add_clause(clause).map_err(failed)
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        match self.solver.solve_assumps(assumptions).map_err(failed)? {
            SolverResult::Sat => Ok(Answer::Sat),
            SolverResult::Unsat => Ok(Answer::Unsat),
            SolverResult::Interrupted => Err(failed("interrupted")),
        }
    }

    fn value(&self, lit: Lit) -> bool {
        matches!(self.solver.lit_val(lit), Ok(TernaryVal::True))
    }

    fn conflicts(&self) -> Option<u64> {
        Some(self.solver.conflicts() as u64)
    }

    fn failed_assumptions(&mut self) -> Vec<Lit> {
        // RustSAT's core is a clause of negated assumptions.
        self.solver.core().map(|core| core.into_iter().map(|l| !l).collect()).unwrap_or_default()
    }
}

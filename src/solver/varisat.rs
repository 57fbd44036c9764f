//! varisat, the embedded pure-Rust solver.
//!
//! varisat does not publish its conflict count (its proof output, the only window into its
//! search, rejects assumptions in DRAT and costs a self-check otherwise), so this backend
//! reports none.
//!
//! varisat's failed-assumption core is occasionally not a core at all (a subset of the
//! assumptions that is satisfiable on its own), so this backend checks a strict subset by
//! solving under it once more and falls back to all assumptions when the check fails.

use rustsat::types::Lit;
use varisat::ExtendFormula;

use super::{Answer, SatSolver, SolverError};

/// The varisat backend.
pub struct Varisat {
    solver: varisat::Solver<'static>,
    model: Vec<bool>,
    buffer: Vec<varisat::Lit>,
    /// The assumptions of the last call.
    assumed: Vec<varisat::Lit>,
}

impl Varisat {
    /// A fresh solver with no clauses.
    pub fn new() -> Self {
        Varisat { solver: varisat::Solver::new(), model: Vec::new(), buffer: Vec::new(), assumed: Vec::new() }
    }
}

fn convert(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_index(lit.vidx(), !lit.is_neg())
}

impl SatSolver for Varisat {
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolverError> {
        self.buffer.clear();
        self.buffer.extend(clause.iter().map(|&l| convert(l)));
        self.solver.add_clause(&self.buffer);
        Ok(())
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        self.assumed = assumptions.iter().map(|&l| convert(l)).collect();
        self.solver.assume(&self.assumed);
        let sat = self.solver.solve().map_err(|e| SolverError { solver: "varisat", message: e.to_string() })?;
        if !sat {
            return Ok(Answer::Unsat);
        }
        let model = self.solver.model().unwrap_or_default();
        self.model.clear();
        self.model.resize(model.len() + 1, false);
        for lit in model {
            if lit.index() >= self.model.len() {
                self.model.resize(lit.index() + 1, false);
            }
            self.model[lit.index()] = lit.is_positive();
        }
        Ok(Answer::Sat)
    }

    fn value(&self, lit: Lit) -> bool {
        let v = self.model.get(lit.vidx()).copied().unwrap_or(false);
        v != lit.is_neg()
    }

    fn conflicts(&self) -> Option<u64> {
        None
    }

    fn failed_assumptions(&mut self) -> Vec<Lit> {
        let mut core: Vec<varisat::Lit> = self.solver.failed_core().unwrap_or_default().to_vec();
        if core.len() < self.assumed.len() {
            self.solver.assume(&core);
            if self.solver.solve().unwrap_or(true) {
                core = self.assumed.clone();
            }
        }
        core.iter().map(|l| Lit::new(l.index() as u32, l.is_negative())).collect()
    }
}

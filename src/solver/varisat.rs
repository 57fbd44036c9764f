//! varisat, the embedded pure-Rust solver.
//!
//! varisat does not publish its conflict count, but it writes a proof in which every conflict
//! adds one learnt clause; the backend counts those additions in a proof sink that stores
//! nothing.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rustsat::types::Lit;
use varisat::{ExtendFormula, ProofFormat};

use super::{Answer, SatSolver, SolverError};

/// The varisat backend.
pub struct Varisat {
    solver: varisat::Solver<'static>,
    learnt: Arc<AtomicU64>,
    model: Vec<bool>,
    buffer: Vec<varisat::Lit>,
}

impl Varisat {
    /// A fresh solver with no clauses.
    pub fn new() -> Self {
        let mut solver = varisat::Solver::new();
        let learnt = Arc::new(AtomicU64::new(0));
        solver.write_proof(LearntCounter { learnt: learnt.clone(), line_start: true, deletion: false }, ProofFormat::Drat);
        Varisat { solver, learnt, model: Vec::new(), buffer: Vec::new() }
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
        let assumptions: Vec<varisat::Lit> = assumptions.iter().map(|&l| convert(l)).collect();
        self.solver.assume(&assumptions);
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
        Some(self.learnt.load(Ordering::Relaxed))
    }
}

/// A DRAT proof sink that counts added clauses (one per conflict) and keeps nothing.
struct LearntCounter {
    learnt: Arc<AtomicU64>,
    line_start: bool,
    deletion: bool,
}

impl Write for LearntCounter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        for &b in bytes {
            if self.line_start {
                self.deletion = b == b'd';
                self.line_start = false;
            }
            if b == b'\n' {
                if !self.deletion {
                    self.learnt.fetch_add(1, Ordering::Relaxed);
                }
                self.line_start = true;
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

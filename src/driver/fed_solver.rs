//! A SAT solver and the clauses waiting for it: what every SAT search holds, and the one place
//! that turns a solver call into a row of the work table.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use rustsat::instances::Cnf;
use rustsat::types::Lit;

use super::{Event, Query, StepStats};
use crate::solver::{Answer, SatSolver, SolverError, SolverKind};

/// A SAT solver, the clauses an encoding has written but the solver not yet received, and the
/// count of clauses and literals it has.
pub(super) struct FedSolver {
    solver: Box<dyn SatSolver>,
    pending: Cnf,
    clauses: usize,
    literals: usize,
}

impl FedSolver {
    /// A fresh solver of `kind` with nothing pending.
    pub fn new(kind: SolverKind) -> Result<FedSolver, SolverError> {
        Self::stoppable(kind, Arc::default())
    }

    /// A fresh solver of `kind` whose calls give up once `stop` is set (where the backend can).
    pub fn stoppable(kind: SolverKind, stop: Arc<AtomicBool>) -> Result<FedSolver, SolverError> {
        Ok(FedSolver { solver: kind.create_stoppable(stop)?, pending: Cnf::new(), clauses: 0, literals: 0 })
    }

    /// Where encodings write their clauses; they reach the solver at the next flush or call.
    pub fn pending(&mut self) -> &mut Cnf {
        &mut self.pending
    }

    /// Hands the pending clauses to the solver.
    pub fn flush(&mut self) -> Result<(), SolverError> {
        for clause in std::mem::take(&mut self.pending).iter() {
            self.solver.add_clause(&clause[..])?;
            self.clauses += 1;
            self.literals += clause.len();
        }
        Ok(())
    }

    /// The literals of every clause written so far, pending ones included: what the solver
    /// holds, or will once they are flushed.
    pub fn literals(&self) -> usize {
        self.literals + self.pending.iter().map(|clause| clause.len()).sum::<usize>()
    }

    /// Adds a clause for good, at once.
    pub fn add(&mut self, clause: &[Lit]) -> Result<(), SolverError> {
        self.clauses += 1;
        self.literals += clause.len();
        self.solver.add_clause(clause)
    }

    /// Flushes, then decides the clauses under `assumptions`, reporting the call as the work
    /// row of `query` at `horizon` over `variables` variables, timed from `clock`.
    pub fn ask(
        &mut self,
        assumptions: &[Lit],
        (horizon, query): (usize, Query),
        variables: u32,
        clock: Instant,
        emit: &mut dyn FnMut(Event),
    ) -> Result<Answer, SolverError> {
        self.flush()?;
        let before = self.solver.conflicts();
        let answer = self.solver.solve(assumptions)?;
        emit(Event::Step(StepStats {
            horizon,
            query,
            variables,
            clauses: self.clauses,
            conflicts: before.zip(self.solver.conflicts()).map(|(b, a)| a.saturating_sub(b)),
            seconds: clock.elapsed().as_secs_f64(),
            result: answer,
            answered_by: self.solver.answered_by(),
            thread: None,
        }));
        Ok(answer)
    }

    /// The value of a literal in the last model.
    pub fn value(&self, lit: Lit) -> bool {
        self.solver.value(lit)
    }

    /// After an UNSAT answer: assumptions that already contradict the clauses.
    pub fn failed_assumptions(&mut self) -> Vec<Lit> {
        self.solver.failed_assumptions()
    }
}

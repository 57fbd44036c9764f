//! The SAT backend of the horizon search: one solver across every horizon (or, to measure the
//! difference, a formula rebuilt at each), each horizon asked under its goal switch.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use knights_sat_encodings::encode::{HorizonEncoding, MAX_SWITCH_LITERALS};
use rustsat::instances::Cnf;
use rustsat::types::Lit;

use super::HorizonOracle;
use crate::driver::fed_solver::FedSolver;
use crate::driver::{Event, Query};
use crate::solver::{Answer, SolverKind};
use crate::Error;

/// A horizon encoding on a SAT solver. Each horizon is asked under its goal switch, whose
/// negation is added for good once the answer is no, so learnt clauses carry over.
pub(crate) struct SatHorizon<'a, E> {
    build: Box<dyn Fn(&mut Cnf) -> E + 'a>,
    solver: SolverKind,
    incremental: bool,
    formula: Option<(E, FedSolver)>,
    switch: Option<Lit>,
    stop: Arc<AtomicBool>,
}

impl<'a, E: HorizonEncoding> SatHorizon<'a, E> {
    /// An encoding made by `build` on a solver of kind `solver`; without `incremental`, both
    /// are made anew at every horizon.
    pub fn new(solver: SolverKind, incremental: bool, build: impl Fn(&mut Cnf) -> E + 'a) -> Self {
        SatHorizon { build: Box::new(build), solver, incremental, formula: None, switch: None, stop: Arc::default() }
    }

    /// The same, with calls that give up once `stop` is set (see [`SolverKind::create_stoppable`]).
    pub fn stopped_by(self, stop: Arc<AtomicBool>) -> Self {
        SatHorizon { stop, ..self }
    }

    /// The encoding and its solver, made on first use (and anew at each horizon when not
    /// incremental).
    fn formula(&mut self, fresh: bool) -> Result<&mut (E, FedSolver), Error> {
        if fresh || self.formula.is_none() {
            let mut solver = FedSolver::stoppable(self.solver, Arc::clone(&self.stop))?;
            let encoding = (self.build)(solver.pending());
            self.formula = Some((encoding, solver));
        }
        Ok(self.formula.as_mut().expect("made above"))
    }

    /// The encoding and solver of the last horizon asked, and the goal switch of the last
    /// reachable one: for stages that go on from there (a tour's fewer moves).
    pub fn last(&mut self) -> Option<(&mut E, &mut FedSolver, Lit)> {
        let switch = self.switch?;
        self.formula.as_mut().map(|(encoding, solver)| (encoding, solver, switch))
    }

    /// Grows the encoding to `horizon` and adds the literals `units` picks from it as unit
    /// clauses, for good: every later call searches only where they hold (a cube). `false`
    /// when `units` finds no literal for one of them (the cube holds nothing). Only for an
    /// incremental search, whose formula is never rebuilt.
    pub fn restrict(&mut self, horizon: usize, units: impl FnOnce(&E) -> Option<Vec<Lit>>) -> Result<bool, Error> {
        if !self.incremental {
            return Err(Error::Internal("a cube restricts an incremental search only".into()));
        }
        let (encoding, solver) = self.formula(false)?;
        grow(encoding, horizon, solver)?;
        let Some(lits) = units(encoding) else { return Ok(false) };
        for lit in lits {
            solver.pending().add_unit(lit);
        }
        Ok(true)
    }

    /// Asks whether the clauses up to `horizon` alone are satisfiable, as `query`.
    pub fn satisfiable_to(
        &mut self,
        horizon: usize,
        query: Query,
        emit: &mut dyn FnMut(Event),
    ) -> Result<Answer, Error> {
        emit(Event::Trying { horizon, query });
        let clock = Instant::now();
        let (encoding, solver) = self.formula(!self.incremental)?;
        grow(encoding, horizon, solver)?;
        Ok(solver.ask(&[], (horizon, query), encoding.n_vars(), clock, emit)?)
    }
}

impl<E: HorizonEncoding> HorizonOracle for SatHorizon<'_, E> {
    type Solution = E::Solution;

    fn reach(
        &mut self,
        horizon: usize,
        query: Query,
        emit: &mut dyn FnMut(Event),
    ) -> Result<Option<E::Solution>, Error> {
        emit(Event::Trying { horizon, query });
        let clock = Instant::now();
        let (encoding, solver) = self.formula(!self.incremental)?;
        grow(encoding, horizon, solver)?;
        if let Some(size) = encoding.goal_switch_too_big(horizon) {
            return Err(Error::Unsupported(format!(
                "the goal at horizon {horizon} would take about {size} literals, more than the \
                 {MAX_SWITCH_LITERALS} a query of this search may take (many targets on a large board; \
                 --no-distance-to-go leaves the largest part out)"
            )));
        }
        let switch = encoding.goal_switch(horizon, solver.pending());
        within_budget(solver, horizon)?;
        if solver.ask(&[switch], (horizon, query), encoding.n_vars(), clock, emit)? == Answer::Unsat {
            solver.add(&[!switch])?;
            return Ok(None);
        }
        let solution = encoding.decode(horizon, |lit| solver.value(lit));
        self.switch = Some(switch);
        Ok(Some(solution))
    }
}

/// The most clauses one time step of a search may add: a step past it (a piece that slides far
/// on a large board, tens of millions of clauses) would take gigabytes before the solver sees
/// it, and is refused before it is built.
pub const MAX_STEP_CLAUSES: usize = 5_000_000;

/// The most literals the formula of one search may hold, every horizon's clauses together
/// (about 1.5 GB with the solver's own structures): each step and goal is small, but a tour
/// that must touch thousands of targets grows one step at a time for thousands of steps, and
/// its count of untouched targets adds a totalizer per step.
pub const MAX_FORMULA_LITERALS: usize = 30_000_000;

/// Refuses to go on when the clauses written so far, before the solver receives those
/// pending, pass [`MAX_FORMULA_LITERALS`]: a step never makes the solver hold more.
fn within_budget(solver: &FedSolver, horizon: usize) -> Result<(), Error> {
    let literals = solver.literals();
    if literals > MAX_FORMULA_LITERALS {
        return Err(Error::StepTooLarge(format!(
            "the formula up to horizon {horizon} holds {literals} literals, more than the \
             {MAX_FORMULA_LITERALS} one search may hold (a route through many targets on a large board)"
        )));
    }
    Ok(())
}

/// Extends `encoding` to `horizon`, refusing any step that would pass [`MAX_STEP_CLAUSES`],
/// and a formula that would pass [`MAX_FORMULA_LITERALS`].
fn grow<E: HorizonEncoding>(encoding: &mut E, horizon: usize, solver: &mut FedSolver) -> Result<(), Error> {
    while encoding.horizon() < horizon {
        if let Some(size) = encoding.next_step_size().filter(|&size| size > MAX_STEP_CLAUSES) {
            return Err(Error::StepTooLarge(format!(
                "time step {} would add about {size} clauses, more than the {MAX_STEP_CLAUSES} a step of \
                 this search may take (pieces that slide far on a large board)",
                encoding.horizon() + 1
            )));
        }
        encoding.extend(solver.pending());
        within_budget(solver, encoding.horizon())?;
        // Handed over step by step, so that each check counts only the new step's clauses.
        solver.flush()?;
    }
    Ok(())
}

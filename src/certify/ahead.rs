//! A proof of optimality begun before the solution is known.
//!
//! In a model of at most `T` moves whose steps without a move come only after the last move,
//! "fewer than `T` moves" is the single literal "the last step makes no move". So the lower
//! bound can be proved first, while the search that will find a solution of `T` moves is still
//! running:
//!
//! 1. the model's rows as clauses (and the family's argument, if any), as in [`super::prove`];
//! 2. CaDiCaL's refutation under the assumption "the last step makes no move", each lemma by
//!    `rup` with hints ([`super::lrat::refute_under`]), ending with the unit "the last step
//!    makes a move";
//!
//! and once the solution comes ([`Begun::conclude`]):
//!
//! 3. `soli`: the solution, and with it the objective-improving constraint "at most `T - 1`
//!    moves";
//! 4. the empty clause by `rup`: the last step's move forces a move in every step before, `T`
//!    moves in all, and `conclusion BOUNDS T T`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use pigeons::{AbsConstraintId, Conclusion, ConstraintId, OutputGuarantee, Proof, VarLike};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::{Clause, Var};

use super::argument::Argument;
use super::derive::{self, Clauses};
use super::prove::{self, ProofFigures, Refuter};
use super::CertifyError;
use crate::encodings::linear::LinearModel;

/// A proof whose lower bound is written, waiting for the solution that meets it.
pub struct Begun<W: Write> {
    proof: Proof<W>,
    figures: ProofFigures,
    started: Instant,
}

/// Writes steps 1 and 2 for `model` into `writer`: `last_step` is the variable "the last step
/// makes a move"; [`CertifyError::Stopped`] once `stop` is set.
#[cfg(unix)]
pub fn begin<W: Write>(
    model: &LinearModel,
    last_step: usize,
    argument: Option<&Argument>,
    writer: W,
    stop: &AtomicBool,
) -> Result<Begun<W>, CertifyError> {
    let started = Instant::now();
    let rows: usize = model.constraints.iter().map(derive::row_count).sum();
    let mut proof = Proof::new(writer, rows, true)?;
    proof.comment(&model.title)?;
    proof.comment(&"first the lower bound, found while the search ran: the last step makes a move")?;
    let n = u32::try_from(model.variables.len()).map_err(|_| CertifyError::Internal("too many variables".into()))?;
    let mut vars = BasicVarManager::from_next_free(Var::new(n));
    let mut clauses = Clauses::default();
    let stopped = || if stop.load(Ordering::Relaxed) { Err(CertifyError::Stopped) } else { Ok(()) };
    let swaps = prove::swaps_before_rows(argument, &mut proof, &mut vars, &mut clauses)?;
    stopped()?;
    prove::rows_as_clauses(model, &mut clauses, &mut vars, &mut proof)?;
    stopped()?;
    let (formula, origins): (Vec<Clause>, Vec<Option<AbsConstraintId>>) = clauses.clauses.into_iter().unzip();
    proof.comment(&"the refutation by CaDiCaL under the assumption that the last step makes no move")?;
    let last = derive::var(last_step).pos_lit();
    let (_, refutation) = super::lrat::refute_under(&formula, &origins, !last, &mut proof, stop)?;
    let figures = ProofFigures {
        rows,
        clauses: formula.len(),
        variables: vars.n_used(),
        lemmas: refutation.lemmas,
        solve_seconds: refutation.seconds,
        refuter: Some(Refuter::Cadical),
        swaps,
        ahead: true,
        ..ProofFigures::default()
    };
    Ok(Begun { proof, figures, started })
}

impl<W: Write> Begun<W> {
    /// Steps 3 and 4 for `solution`, which must make as many moves as `model` has steps; the
    /// writer back and the proof's figures.
    pub fn conclude(mut self, model: &LinearModel, solution: &[bool]) -> Result<(W, ProofFigures), CertifyError> {
        let (objective, value, _) = prove::measure(model, solution)?;
        if usize::try_from(value).ok() != Some(objective.len()) {
            return Err(CertifyError::Internal(format!(
                "a solution of {value} moves for a model of {}",
                objective.len()
            )));
        }
        self.proof.comment(&format!("the solution below has objective value {value}"))?;
        self.proof.improve_solution((0..solution.len()).map(|i| derive::var(i).axiom(!solution[i])))?;
        // The unit sets the last step's move, the rows "no move after a step without one" the
        // others, and the improving constraint then has one move too many.
        let empty = self.proof.reverse_unit_prop(&Clause::new(), std::iter::empty::<ConstraintId>())?;
        let range = isize::try_from(value).map_err(|_| CertifyError::Internal("value out of range".into()))?;
        let conclusion = Conclusion::<Var>::Bounds { range: range..range + 1, lb_id: Some(empty.into()), ub_sol: None };
        let writer = self.proof.conclude(OutputGuarantee::None, &conclusion)?;
        let figures = ProofFigures { opb_value: value, seconds: self.started.elapsed().as_secs_f64(), ..self.figures };
        Ok((writer, figures))
    }
}

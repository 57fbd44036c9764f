//! The refutation by varisat, traced clause by clause: varisat checks its own proof as it
//! solves, and every clause it learns becomes a VeriPB `rup` step with hints — the clauses
//! that became unit, in order, and the one that became false — so that VeriPB propagates only
//! those instead of its whole database.
//!
//! varisat learns by conflict analysis and simplifies with units only (no variable
//! elimination, no blocked clauses), so every clause it adds follows by unit propagation.
//! Each clause given to varisat is named in hints by a constraint of VeriPB's database that
//! propagates at least as much: the row it is, the row it was derived from without a proof step
//! (units and pairwise clauses of "at most one" rows), or its own proof step. Clauses varisat
//! deletes are deleted from VeriPB's database when they were its lemmas.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use pigeons::{AbsConstraintId, ConstraintId, Proof, SubproofElement};
use rustsat::types::{Clause, Lit, Var};
use varisat::checker::{CheckedProofStep, CheckerData, ProofProcessor};
use varisat::{ExtendFormula, Solver};

use super::CertifyError;

/// What the refutation cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct Refutation {
    /// Clauses learned and logged.
    pub lemmas: usize,
    /// Seconds in the SAT solver, tracing included.
    pub seconds: f64,
}

/// A clause as a key: its literals as DIMACS numbers, sorted.
fn key(lits: impl Iterator<Item = (usize, bool)>) -> Vec<i64> {
    let mut key: Vec<i64> = lits.map(|(v, pos)| if pos { v as i64 + 1 } else { -(v as i64 + 1) }).collect();
    key.sort_unstable();
    key.dedup();
    key
}

/// Writes varisat's checked steps into the proof.
struct Tracer<'p, W: Write> {
    proof: &'p mut Proof<W>,
    /// The database constraint that stands for each input clause.
    inputs: HashMap<Vec<i64>, AbsConstraintId>,
    /// The database constraint of each varisat clause id, and whether it is a lemma of ours.
    ids: HashMap<u64, (AbsConstraintId, bool)>,
    lemmas: usize,
    empty: Option<AbsConstraintId>,
    /// Set when another refutation finished first: the next step stops varisat.
    stop: &'p AtomicBool,
}

impl<W: Write> Tracer<'_, W> {
    fn lits(step: &[varisat::Lit], data: CheckerData) -> Result<Clause, anyhow::Error> {
        step.iter()
            .map(|l| {
                let var = data
                    .user_from_proof_var(l.var())
                    .ok_or_else(|| anyhow::anyhow!("a clause over a variable of varisat's own"))?;
                let lit = Lit::positive(var.index() as u32);
                Ok(if l.is_positive() { lit } else { !lit })
            })
            .collect()
    }

    fn delete(&mut self, id: u64) -> Result<(), anyhow::Error> {
        if let Some((number, true)) = self.ids.remove(&id) {
            let none: [SubproofElement<Var, Clause>; 0] = [];
            self.proof.delete_ids([ConstraintId::from(number)], none)?;
        }
        Ok(())
    }
}

impl<W: Write> ProofProcessor for Tracer<'_, W> {
    fn process_step(&mut self, step: &CheckedProofStep, data: CheckerData) -> Result<(), anyhow::Error> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(anyhow::anyhow!("stopped"));
        }
        match step {
            CheckedProofStep::AddClause { id, clause } | CheckedProofStep::DuplicatedClause { id, clause, .. } => {
                let clause = Self::lits(clause, data)?;
                let k = key(clause.iter().map(|l| (l.var().idx(), l.is_pos())));
                if let Some(&number) = self.inputs.get(&k) {
                    self.ids.insert(*id, (number, false));
                }
            }
            CheckedProofStep::AtClause { id, clause, propagations, .. } => {
                let clause = Self::lits(clause, data)?;
                let hints: Option<Vec<ConstraintId>> =
                    propagations.iter().map(|p| self.ids.get(p).map(|&(n, _)| ConstraintId::from(n))).collect();
                let number = self.proof.reverse_unit_prop(&clause, hints.unwrap_or_default())?;
                self.lemmas += 1;
                if clause.is_empty() {
                    self.empty = Some(number);
                }
                self.ids.insert(*id, (number, true));
            }
            CheckedProofStep::DeleteClause { id, .. } | CheckedProofStep::DeleteAtClause { id, .. } => {
                self.delete(*id)?;
            }
            _ => {}
        }
        Ok(())
    }
}

/// Solves `clauses` with varisat and logs the refutation; `origins[i]` is the database
/// constraint that stands for `clauses[i]`. Returns the number of the empty clause; an error
/// if the clauses are satisfiable, and [`CertifyError::Stopped`] once `stop` is set.
pub fn refute<W: Write>(
    clauses: &[Clause],
    origins: &[Option<AbsConstraintId>],
    proof: &mut Proof<W>,
    stop: &AtomicBool,
) -> Result<(AbsConstraintId, Refutation), CertifyError> {
    let started = std::time::Instant::now();
    let inputs: HashMap<Vec<i64>, AbsConstraintId> = clauses
        .iter()
        .zip(origins)
        .filter_map(|(c, &n)| Some((key(c.iter().map(|l| (l.var().idx(), l.is_pos()))), n?)))
        .collect();
    let mut tracer = Tracer { proof, inputs, ids: HashMap::new(), lemmas: 0, empty: None, stop };
    let satisfiable = {
        let mut solver = Solver::new();
        solver.add_proof_processor(&mut tracer);
        for clause in clauses {
            let lits: Vec<varisat::Lit> =
                clause.iter().map(|l| varisat::Lit::from_index(l.var().idx(), l.is_pos())).collect();
            solver.add_clause(&lits);
        }
        let answer = match solver.solve() {
            Ok(answer) => answer,
            Err(_) if stop.load(Ordering::Relaxed) => return Err(CertifyError::Stopped),
            Err(e) => return Err(CertifyError::Internal(format!("varisat: {e}"))),
        };
        solver.close_proof().map_err(|e| CertifyError::Internal(format!("varisat: {e}")))?;
        answer
    };
    let (lemmas, empty) = (tracer.lemmas, tracer.empty);
    let refutation = Refutation { lemmas, seconds: started.elapsed().as_secs_f64() };
    conclude(proof, satisfiable, empty, refutation)
}

/// The end of a traced refutation: an error if the solver found the clauses satisfiable;
/// otherwise the number of the empty clause, derived by the trace (`empty`) or, when the
/// solver ended without one (a conflict at the root), by plain reverse unit propagation.
pub(super) fn conclude<W: Write>(
    proof: &mut Proof<W>,
    satisfiable: bool,
    empty: Option<AbsConstraintId>,
    refutation: Refutation,
) -> Result<(AbsConstraintId, Refutation), CertifyError> {
    if satisfiable {
        return Err(CertifyError::Internal(
            "the certified formula has a better solution than the one found: no proof of optimality".into(),
        ));
    }
    let empty = match empty {
        Some(id) => id,
        None => proof.reverse_unit_prop(&Clause::new(), std::iter::empty::<ConstraintId>())?,
    };
    Ok((empty, refutation))
}

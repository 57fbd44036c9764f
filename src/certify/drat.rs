//! The refutation by varisat, logged: varisat writes a DRAT proof of the clauses it was given,
//! and each added clause becomes a VeriPB `rup` step.
//!
//! varisat learns clauses by conflict analysis and simplifies with units only (no variable
//! elimination, no blocked clauses), so every clause it adds follows from the clauses before it
//! by unit propagation. Clauses it deletes are dropped from VeriPB's database too when they were
//! its own lemmas; the formula's clauses are kept, which only makes propagation stronger.

use std::collections::HashMap;
use std::io::Write;

use pigeons::{AbsConstraintId, ConstraintId, Proof};
use rustsat::types::{Clause, Lit, Var};
use varisat::{ExtendFormula, ProofFormat, Solver};

use super::CertifyError;

/// What the refutation cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct Refutation {
    /// Clauses learned and logged.
    pub lemmas: usize,
    /// Seconds in the SAT solver.
    pub seconds: f64,
}

/// Solves `clauses` with varisat and logs the refutation; returns the number of the empty
/// clause. An error if the clauses are satisfiable.
pub fn refute<W: Write>(
    clauses: &[Clause],
    proof: &mut Proof<W>,
) -> Result<(AbsConstraintId, Refutation), CertifyError> {
    let started = std::time::Instant::now();
    let mut drat: Vec<u8> = Vec::new();
    let satisfiable = {
        let mut solver = Solver::new();
        solver.write_proof(&mut drat, ProofFormat::Drat);
        for clause in clauses {
            let lits: Vec<varisat::Lit> =
                clause.iter().map(|l| varisat::Lit::from_index(l.var().idx(), l.is_pos())).collect();
            solver.add_clause(&lits);
        }
        let answer = solver.solve().map_err(|e| CertifyError::Internal(format!("varisat: {e}")))?;
        solver.close_proof().map_err(|e| CertifyError::Internal(format!("varisat: {e}")))?;
        answer
    };
    let seconds = started.elapsed().as_secs_f64();
    if satisfiable {
        return Err(CertifyError::Internal(
            "the certified formula has a better solution than the one found: no proof of optimality".into(),
        ));
    }
    let (lemmas, empty) = log_drat(&drat, proof)?;
    let empty = match empty {
        Some(id) => id,
        None => proof.reverse_unit_prop(&Clause::new(), std::iter::empty::<ConstraintId>())?,
    };
    Ok((empty, Refutation { lemmas, seconds }))
}

/// Writes the added clauses of a textual DRAT proof as `rup` steps and deletes lemmas that the
/// solver deleted; returns how many were added, and the number of the empty clause if the
/// solver derived it.
fn log_drat<W: Write>(drat: &[u8], proof: &mut Proof<W>) -> Result<(usize, Option<AbsConstraintId>), CertifyError> {
    let text = std::str::from_utf8(drat).map_err(|_| CertifyError::Internal("varisat's DRAT is not text".into()))?;
    let mut lemmas: HashMap<Vec<i64>, Vec<AbsConstraintId>> = HashMap::new();
    let mut added = 0;
    for line in text.lines() {
        let (delete, body) = match line.strip_prefix("d ") {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let mut key: Vec<i64> = Vec::new();
        for token in body.split_whitespace() {
            let n: i64 = token.parse().map_err(|_| CertifyError::Internal(format!("bad DRAT line `{line}`")))?;
            if n != 0 {
                key.push(n);
            }
        }
        key.sort_unstable();
        if delete {
            if let Some(ids) = lemmas.get_mut(&key) {
                if let Some(id) = ids.pop() {
                    let none: [pigeons::SubproofElement<Var, Clause>; 0] = [];
                    proof.delete_ids([ConstraintId::from(id)], none)?;
                }
            }
            continue;
        }
        let clause: Clause = key
            .iter()
            .map(|&n| {
                let lit = Lit::positive((n.unsigned_abs() - 1) as u32);
                if n < 0 {
                    !lit
                } else {
                    lit
                }
            })
            .collect();
        let id = proof.reverse_unit_prop(&clause, std::iter::empty::<ConstraintId>())?;
        added += 1;
        if key.is_empty() {
            return Ok((added, Some(id)));
        }
        lemmas.entry(key).or_default().push(id);
    }
    Ok((added, None))
}

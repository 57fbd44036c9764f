//! From the rows of a 0-1 linear model to the clauses the SAT solver is given, each one either a
//! row of the model itself or derived from one in the proof.
//!
//! A row with unit coefficients is a cardinality constraint `l1 + … + ln >= k` over literals
//! (negative coefficients become negated literals, as VeriPB normalises them). Then:
//! - `k <= 0`: nothing to say;
//! - `k = 1`: the row is a clause, already in VeriPB's database under the row's own number;
//! - `k = n`: every literal is a unit clause;
//! - `k = n - 1` ("at most one literal false"): one binary clause per pair.
//!
//!   These two need no proof steps: whenever such a clause propagates, unit propagation on the
//!   row itself propagates the same, so every clause the solver learns from them follows by
//!   reverse unit propagation from VeriPB's database as it is;
//! - otherwise: RustSAT's certified totalizer, whose clauses are derived from the row by the
//!   encoding itself.
//!
//! Rows with other coefficients are not derived here: [`CertifyError::Unsupported`].

use std::io::Write;

use pigeons::{AbsConstraintId, Proof};
use rustsat::encodings::card::cert::{BoundLower, BoundUpper};
use rustsat::encodings::card::Totalizer;
use rustsat::instances::ManageVars;
use rustsat::types::constraints::CardConstraint;
use rustsat::types::{Clause, Lit, Var};

use super::CertifyError;
use crate::encodings::linear::{Constraint, Relation};

/// Clauses for the solver, each with the number of a constraint in VeriPB's database that
/// propagates at least what the clause propagates, if known: the row it is or comes from, or
/// the proof line that derived it.
#[derive(Debug, Default)]
pub struct Clauses {
    /// The clauses with their numbers.
    pub clauses: Vec<(Clause, Option<AbsConstraintId>)>,
}

impl rustsat::encodings::CollectClauses for Clauses {
    fn n_clauses(&self) -> usize {
        self.clauses.len()
    }

    fn extend_clauses<T>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory>
    where
        T: IntoIterator<Item = Clause>,
    {
        self.clauses.extend(cl_iter.into_iter().map(|c| (c, None)));
        Ok(())
    }
}

impl rustsat::encodings::cert::CollectClauses for Clauses {
    fn extend_cert_clauses<T>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory>
    where
        T: IntoIterator<Item = (Clause, AbsConstraintId)>,
    {
        self.clauses.extend(cl_iter.into_iter().map(|(c, id)| (c, Some(id))));
        Ok(())
    }
}

/// A row as `sum of literals >= k`, or `None` if some coefficient is not 1 or -1.
pub fn cardinality(terms: &[(i64, usize)], relation: Relation, rhs: i64) -> Option<(Vec<Lit>, i64)> {
    // `>=` form: an at-most row is negated.
    let sign = if relation == Relation::AtMost { -1 } else { 1 };
    let mut bound = sign * rhs;
    let mut lits = Vec::with_capacity(terms.len());
    for &(coefficient, var) in terms {
        let lit = Lit::positive(u32::try_from(var).ok()?);
        match sign * coefficient {
            1 => lits.push(lit),
            -1 => {
                // -x = ~x - 1
                lits.push(!lit);
                bound += 1;
            }
            _ => return None,
        }
    }
    Some((lits, bound))
}

/// The `>=` halves of a row with their numbers in VeriPB's database: an equality is read as
/// its `>=` half (number `id`) and its `<=` half (`id + 1`).
pub fn halves(row: &Constraint, id: usize) -> Vec<(Relation, usize)> {
    match row.relation {
        Relation::Equal => vec![(Relation::AtLeast, id), (Relation::AtMost, id + 1)],
        relation => vec![(relation, id)],
    }
}

/// How many constraints VeriPB counts for `row`.
pub fn row_count(row: &Constraint) -> usize {
    if row.relation == Relation::Equal {
        2
    } else {
        1
    }
}

/// Adds the clauses of `row` (numbered from `id` in the database) to `out`, logging what must
/// be derived.
pub fn derive_row<W: Write>(
    row: &Constraint,
    id: usize,
    out: &mut Clauses,
    vars: &mut dyn ManageVars,
    proof: &mut Proof<W>,
) -> Result<(), CertifyError> {
    for (relation, number) in halves(row, id) {
        let Some((lits, k)) = cardinality(&row.terms, relation, row.rhs) else {
            return Err(CertifyError::Unsupported(format!(
                "row {} has a coefficient other than 1 or -1; only cardinality rows are derived",
                row.name
            )));
        };
        let number = AbsConstraintId::new(number);
        if k > lits.len() as i64 {
            return Err(CertifyError::Internal(format!("row {} cannot be satisfied", row.name)));
        }
        at_least(lits, k, number, out, vars, proof)?;
    }
    Ok(())
}

/// The variable of model index `index` (VeriPB's `x{index + 1}`).
pub fn var(index: usize) -> Var {
    Var::new(index as u32)
}

/// Adds the clauses of `sum of lits >= k` (the constraint numbered `id`, with `k <= n`, the
/// number of literals): nothing if `k <= 0`; the clause itself if `k = 1`; unit clauses if
/// `k = n` and pairwise clauses if `k = n - 1`, neither needing a proof step; otherwise the
/// certified totalizer, counting whichever side is smaller.
pub fn at_least<W: Write>(
    lits: Vec<Lit>,
    k: i64,
    id: AbsConstraintId,
    out: &mut Clauses,
    vars: &mut dyn ManageVars,
    proof: &mut Proof<W>,
) -> Result<(), CertifyError> {
    let n = lits.len() as i64;
    if k <= 0 {
        return Ok(());
    }
    if k == 1 {
        out.clauses.push((lits.into_iter().collect(), Some(id)));
    } else if k == n {
        out.clauses.extend(lits.into_iter().map(|lit| ([lit].into_iter().collect(), Some(id))));
    } else if k == n - 1 {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                out.clauses.push(([a, b].into_iter().collect(), Some(id)));
            }
        }
    } else {
        let encoded = if k <= n - k {
            match CardConstraint::new_lb(lits, k as usize) {
                CardConstraint::Lb(c) => {
                    Totalizer::encode_lb_constr_cert((c, id), out, vars, proof).map_err(|e| e.to_string())
                }
                _ => Err("not a lower bound".into()),
            }
        } else {
            let negated: Vec<Lit> = lits.into_iter().map(|l| !l).collect();
            match CardConstraint::new_ub(negated, (n - k) as usize) {
                CardConstraint::Ub(c) => {
                    Totalizer::encode_ub_constr_cert((c, id), out, vars, proof).map_err(|e| e.to_string())
                }
                _ => Err("not an upper bound".into()),
            }
        };
        encoded.map_err(|e| CertifyError::Internal(format!("certified totalizer: {e}")))?;
    }
    Ok(())
}

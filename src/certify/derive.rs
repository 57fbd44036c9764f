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
//! Rows with other coefficients are not derived here: [`CertifyError::Unsupported`]. The
//! objective-improving constraint may have any weights: [`weighted_at_most`] derives it through
//! RustSAT's certified generalized totalizer.

use std::io::Write;

use pigeons::{AbsConstraintId, OperationSequence, Proof, VarLike};
use rustsat::encodings::card::cert::{BoundLower, BoundUpper};
use rustsat::encodings::card::Totalizer;
use rustsat::encodings::pb::cert::BoundUpper as PbBoundUpper;
use rustsat::encodings::pb::GeneralizedTotalizer;
use rustsat::instances::ManageVars;
use rustsat::types::constraints::{CardConstraint, PbConstraint};
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

/// The most literals of a row "at most one literal false" that becomes pairwise clauses; a
/// longer one (a knight that may start on any square of a large board) goes to the certified
/// totalizer, whose clauses grow with its length rather than with its square.
pub const PAIRWISE_LIMIT: i64 = 64;

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
/// certified totalizer, counting whichever side is smaller (also for `k = n - 1` past
/// [`PAIRWISE_LIMIT`] literals).
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
    } else if k == n - 1 && n <= PAIRWISE_LIMIT {
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

/// Literals with positive weights.
type WeightedLits = Vec<(Lit, usize)>;

/// Adds the clauses of `sum of coefficient * variable <= rhs` (the constraint numbered `id`),
/// whatever its coefficients, through the certified generalized totalizer; negative
/// coefficients are read on negated literals, as VeriPB normalises them. Nothing is added when
/// the constraint holds whatever the values.
///
/// The clauses of the generalized totalizer go to the solver without the numbers of the proof
/// steps that derived them: those steps are not always as strong as the clauses in
/// propagation, so a lemma that uses them is checked by plain reverse unit propagation.
pub fn weighted_at_most<W: Write>(
    terms: &[(i64, usize)],
    rhs: i64,
    id: AbsConstraintId,
    out: &mut Clauses,
    vars: &mut dyn ManageVars,
    proof: &mut Proof<W>,
) -> Result<(), CertifyError> {
    let overflow = || CertifyError::Unsupported("the objective's weights are too large".into());
    // `sum of weight * literal <= room` with positive weights: -c x = c ~x - c.
    let mut room = rhs;
    let mut lits = Vec::with_capacity(terms.len());
    for &(coefficient, var) in terms {
        let lit = Lit::positive(u32::try_from(var).map_err(|_| overflow())?);
        match coefficient {
            0 => {}
            c if c > 0 => lits.push((lit, usize::try_from(c).map_err(|_| overflow())?)),
            c => {
                room = room.checked_sub(c).ok_or_else(overflow)?;
                lits.push((!lit, usize::try_from(-c).map_err(|_| overflow())?));
            }
        }
    }
    if room < 0 {
        return Err(CertifyError::Internal("the weighted bound cannot be met".into()));
    }
    // A literal weighing more than the room is false: its unit clause follows from the
    // constraint by propagation. Adding `weight * literal >= 0` to the constraint cancels its
    // term and leaves the room as it was, so the encoding only sees the others.
    let (heavy, light): (WeightedLits, WeightedLits) = lits.into_iter().partition(|&(_, w)| w as i64 > room);
    if heavy.is_empty() {
        return generalized_totalizer(light, room, id, out, vars, proof);
    }
    let mut cancel = OperationSequence::<Var>::from(id);
    for &(lit, weight) in &heavy {
        out.clauses.push(([!lit].into_iter().collect(), Some(id)));
        cancel += lit.var().axiom(lit.is_neg()) * weight;
    }
    if light.is_empty() {
        return Ok(());
    }
    let id = proof.operations(&cancel)?;
    generalized_totalizer(light, room, id, out, vars, proof)
}

/// The clauses of `sum of weight * literal <= room` (numbered `id`), every weight at most
/// `room`: weights with a common divisor are divided by it, in the proof too (VeriPB's
/// division rounds the room down); unit weights go to the certified totalizer, others to the
/// certified generalized totalizer.
fn generalized_totalizer<W: Write>(
    mut lits: WeightedLits,
    mut room: i64,
    mut id: AbsConstraintId,
    out: &mut Clauses,
    vars: &mut dyn ManageVars,
    proof: &mut Proof<W>,
) -> Result<(), CertifyError> {
    let overflow = || CertifyError::Unsupported("the objective's weights are too large".into());
    let divisor = lits.iter().fold(0, |g, &(_, w)| gcd(g, w));
    if divisor > 1 {
        id = proof.operations::<Var>(&(OperationSequence::from(id) / divisor))?;
        lits.iter_mut().for_each(|(_, w)| *w /= divisor);
        room = room.div_euclid(divisor as i64);
    }
    if lits.iter().all(|&(_, w)| w == 1) {
        // `sum of lits <= room` is `sum of negated lits >= n - room`.
        let k = lits.len() as i64 - room;
        return at_least(lits.into_iter().map(|(l, _)| !l).collect(), k, id, out, vars, proof);
    }
    let room = isize::try_from(room).map_err(|_| overflow())?;
    let PbConstraint::Ub(constraint) = PbConstraint::new_ub_unsigned(lits, room) else {
        return Err(CertifyError::Internal("not an upper bound".into()));
    };
    let first = out.clauses.len();
    GeneralizedTotalizer::encode_ub_constr_cert((constraint, id), out, vars, proof)
        .map_err(|e| CertifyError::Internal(format!("certified generalized totalizer: {e}")))?;
    for clause in &mut out.clauses[first..] {
        clause.1 = None;
    }
    Ok(())
}

/// The greatest common divisor.
fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

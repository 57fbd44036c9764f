//! The colour argument for a lone knight, as cutting planes in the proof.
//!
//! A knight changes colour at every jump. In the model with at most `T` moves
//! ([`crate::encodings::linear::tour_model_at_most`]) a knight that jumps in step `t` has
//! jumped in every step before, so once the colour of its start is known, it stands on the
//! start's colour when `t` is even and on the other one when `t` is odd. Refuting
//! `moves <= T - 1` then needs no search. For each colour `X` the knight may start on, every
//! step below is weakened by `W_X`, the literals "it starts on a square of the other colour"
//! (none when every start has colour `X`):
//!
//! 1. `~moved_T`: a jump in step `T` would mean `T` jumps (`rup`, from the objective bound);
//! 2. `~moved_t \/ ~at(s, t) \/ W_X` for every square `s` of the wrong colour for `t`, time by
//!    time (`rup`: the knight came from a square of the wrong colour for `t - 1`);
//! 3. a target touched at a time of the wrong colour was there one step earlier too (`rup`),
//!    so each target is touched at one of the times of its colour below `T`, the start's time
//!    0 included;
//! 4. the knight stands on one square at a time: when the targets of one colour outnumber the
//!    times of their colour in `0..T-1`, adding up the rows of step 3 and the "at most one
//!    square" halves of those times leaves only `W_X` to satisfy it, and `W_X` follows
//!    (`pol`, then `rup`);
//! 5. with both colours refuted, `W_0`, `W_1` and "the knight starts on one square" add up to
//!    `0 >= 1` (`pol`).
//!
//! The clauses of steps 1 to 4 also go to the SAT solver when the count does not decide.

use std::io::Write;

use pigeons::{AbsConstraintId, ConstraintId, OperationSequence, Proof};
use rustsat::types::{Clause, Lit, Var};

use super::derive::Clauses;
use super::CertifyError;

/// What the argument needs from the model of a lone knight's tour in any order.
#[derive(Clone, Debug)]
pub struct LoneKnight {
    /// `at[t][s]`: the knight on square `s` after step `t`, where the model has the variable.
    pub at: Vec<Vec<Option<usize>>>,
    /// moved[t - 1]: the knight jumps in step t.
    pub moved: Vec<usize>,
    /// Per square: its colour, 0 or 1.
    pub colour: Vec<usize>,
    /// The targets, as square indices.
    pub targets: Vec<usize>,
    /// `one_rows[t]`: the row "the knight stands on one square after step t" (the start's row
    /// at `t = 0`).
    pub one_rows: Vec<usize>,
}

fn lit(var: usize, positive: bool) -> Lit {
    let lit = Lit::positive(var as u32);
    if positive {
        lit
    } else {
        !lit
    }
}

fn rup<W: Write>(proof: &mut Proof<W>, lits: &[Lit], out: &mut Clauses) -> Result<AbsConstraintId, CertifyError> {
    let clause: Clause = lits.iter().copied().collect();
    let id = proof.reverse_unit_prop(&clause, std::iter::empty::<ConstraintId>())?;
    out.clauses.push((clause, Some(id)));
    Ok(id)
}

/// Writes the argument into the proof (`row_ids[i]`: the number of row `i`, its `<=` half
/// one more for an equality). Returns the number of `0 >= 1` when the count decides; adds the
/// derived clauses to `out` either way.
pub fn derive<W: Write>(
    arg: &LoneKnight,
    row_ids: &[usize],
    proof: &mut Proof<W>,
    out: &mut Clauses,
) -> Result<Option<AbsConstraintId>, CertifyError> {
    let cap = arg.moved.len();
    if cap == 0 {
        return Ok(None);
    }
    proof.comment(&"the colour argument: a knight changes colour at every jump")?;
    rup(proof, &[lit(arg.moved[cap - 1], false)], out)?;
    let starts: Vec<(usize, usize)> = arg.at[0].iter().enumerate().filter_map(|(s, var)| var.map(|v| (s, v))).collect();
    let mut refuted = Vec::new();
    for colour in [0, 1] {
        if !starts.iter().any(|&(s, _)| arg.colour[s] == colour) {
            continue;
        }
        // W: the knight starts on the other colour.
        let other: Vec<Lit> =
            starts.iter().filter(|&&(s, _)| arg.colour[s] != colour).map(|&(_, v)| lit(v, true)).collect();
        match start_colour(arg, colour, &other, row_ids, proof, out)? {
            Some(id) if other.is_empty() => return Ok(Some(id)),
            Some(id) => refuted.push(id),
            None => {}
        }
    }
    if refuted.len() < 2 {
        return Ok(None);
    }
    proof.comment(&"the knight starts on neither colour: adding up with its start row")?;
    let start_row = ConstraintId::from(AbsConstraintId::new(row_ids[arg.one_rows[0]] + 1));
    let sum = OperationSequence::<Var>::from(refuted[0]) + refuted[1] + start_row;
    proof.operations(&sum)?;
    let empty = proof.reverse_unit_prop(&Clause::new(), std::iter::empty::<ConstraintId>())?;
    Ok(Some(empty))
}

/// Steps 2 to 4 for a start of colour `colour`, each clause weakened by `other` (the starts of
/// the other colour): the clause `other` when the count decides.
fn start_colour<W: Write>(
    arg: &LoneKnight,
    colour: usize,
    other: &[Lit],
    row_ids: &[usize],
    proof: &mut Proof<W>,
    out: &mut Clauses,
) -> Result<Option<AbsConstraintId>, CertifyError> {
    let cap = arg.moved.len();
    if !other.is_empty() {
        proof.comment(&format!("the colour argument for a start of colour {colour}"))?;
    }
    let weakened = |lits: &[Lit]| -> Vec<Lit> { lits.iter().chain(other).copied().collect() };
    // The colour a square must have after t jumps: the start's when t is even.
    let right = |t: usize, s: usize| (arg.colour[s] == colour) == (t % 2 == 0);
    for t in 1..=cap {
        for (s, var) in arg.at[t].iter().enumerate() {
            if let Some(var) = *var {
                if !right(t, s) {
                    rup(proof, &weakened(&[lit(arg.moved[t - 1], false), lit(var, false)]), out)?;
                }
            }
        }
    }
    // Step 3 for every target; then the targets of each colour against the times of theirs.
    let mut touched = Vec::new();
    for &s in &arg.targets {
        for t in 1..=cap {
            let Some(here) = arg.at[t][s] else { continue };
            if t == cap || !right(t, s) {
                let mut lits = vec![lit(here, false)];
                lits.extend(arg.at[t - 1][s].map(|v| lit(v, true)));
                rup(proof, &weakened(&lits), out)?;
            }
        }
        let times: Vec<Lit> =
            (0..cap).filter(|&t| right(t, s)).filter_map(|t| arg.at[t][s]).map(|v| lit(v, true)).collect();
        touched.push((s, rup(proof, &weakened(&times), out)?));
    }
    for even in [true, false] {
        let class: Vec<AbsConstraintId> =
            touched.iter().filter(|(s, _)| right(0, *s) == even).map(|&(_, id)| id).collect();
        let times: Vec<usize> = (0..cap).filter(|&t| (t % 2 == 0) == even).collect();
        if class.len() <= times.len() {
            continue;
        }
        proof.comment(&format!(
            "{} targets of one colour, {} times of that colour below {cap}: adding up",
            class.len(),
            times.len()
        ))?;
        let mut sum = OperationSequence::<Var>::from(class[0]);
        for &id in &class[1..] {
            sum += id;
        }
        for &t in &times {
            // The `<=` half of the equality row "one square after step t".
            sum += ConstraintId::from(AbsConstraintId::new(row_ids[arg.one_rows[t]] + 1));
        }
        proof.operations(&sum)?;
        let clause: Clause = other.iter().copied().collect();
        let id = proof.reverse_unit_prop(&clause, std::iter::empty::<ConstraintId>())?;
        return Ok(Some(id));
    }
    Ok(None)
}

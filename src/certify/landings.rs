//! The colour count for several knights, as cutting planes in the proof: the landings on a
//! colour are too few for its targets.
//!
//! A knight changes colour at every jump, so from a start of colour `S` its landings on `S` are
//! at most half its jumps, and those on the other colour at most half plus one. A target that
//! no knight starts on is touched only by a knight landing on it. When the targets of a colour
//! `X` outnumber the landings on `X` that the moves below the best route allow, no better route
//! exists, whatever the search. Each knight `k` needs a start of known colour; the proof
//! defines, for every time `t`, fresh variables by `red` (each definition is redundant: the
//! variable is new, and the witness sets it):
//!
//! - `c[k][t]`: knight `k` stands on colour 1 after step `t` (`c <-> OR of at(k, s, t)`, `s` of
//!   colour 1), and by `rup` "not on colour 0 then", square by square;
//! - `land0[k][t]`, `land1[k][t]`: it jumps in step `t` onto colour 0, or onto colour 1
//!   (`jumped /\ not c`, `jumped /\ c`);
//! - `arrive[k][s][t]`: it lands on target `s` of colour `X` in step `t` (`at /\ land_X`).
//!
//! Then by `rup`: a jump changes colour and a wait keeps it (square by square first, since a
//! knight's moves join squares of two colours); a knight on target `s` at `t` has landed on it
//! by then (`not at(k, s, t) \/ arrive[k][s][1] \/ … \/ arrive[k][s][t]`, from the line for
//! `t - 1`); each target is landed on (from its row "touched"). And by `pol`:
//!
//! 1. per step, `land_X - (arrivals on X's targets) >= 0` (one square at a time: `n - 1` times
//!    "at most one arrival" plus the `n` arrivals' definitions, divided by `n`),
//!    `jumped - land0 - land1 >= 0`, and the colour's change
//!    `c[t-1] - c[t] + land1 - land0 >= 0` (for `X = 0`; its mirror for `X = 1`), these two the
//!    halved sum of three or four clauses;
//! 2. summed over the steps, the changes telescope to the start's colour and the last one:
//!    `jumps - 2 · landings on X >= -[S != X]` for each knight;
//! 3. with the objective-improving constraint (fewer moves; for the `steps` objective, each
//!    knight's jumps bounded by the counted steps), halved: the landings on `X` are at most
//!    `floor((best - 1 + ...) / 2)`; with the sum of the targets' lines, `0 >= 1`.
//!
//! The count is made before anything is written: when it does not decide, the proof is left
//! to the refutation, unchanged.

use std::io::Write;

use pigeons::{AbsConstraintId, ConstraintId, OperationSequence, Proof, VarLike};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::{Clause, Lit, Var};

use super::{derive, CertifyError};

/// What the count needs from the at-most model of several knights touching their targets in
/// any order.
#[derive(Clone, Debug)]
pub struct Landings {
    /// `at[k][t][s]`: knight `k` on square `s` after step `t`, where the model has the variable.
    pub at: Vec<Vec<Vec<Option<usize>>>>,
    /// `moved[k][t - 1]`: knight `k` jumps in step `t`.
    pub moved: Vec<Vec<usize>>,
    /// Per square: its colour, 0 or 1.
    pub colour: Vec<usize>,
    /// Per knight: the colour of every square it may start on.
    pub start_colour: Vec<usize>,
    /// The targets no knight may start on, as square indices.
    pub targets: Vec<usize>,
    /// `one_rows[k][t]`: the row "knight `k` on one square after step `t`".
    pub one_rows: Vec<Vec<usize>>,
    /// For the `steps` objective, `jump_rows[k][t - 1]`: the row "knight `k` jumps in step `t`
    /// only if the step counts"; `None` when the objective counts the moves.
    pub jump_rows: Option<Vec<Vec<usize>>>,
}

impl Landings {
    /// The colour whose targets outnumber the landings on it that routes of at most `bound`
    /// moves (time steps for the `steps` objective) allow, if there is one.
    pub fn deciding_colour(&self, bound: i64) -> Option<usize> {
        if bound < 0 {
            return None;
        }
        (0..2).find(|&x| {
            let targets = self.targets.iter().filter(|&&s| self.colour[s] == x).count() as i64;
            let other = |k: usize| i64::from(self.start_colour[k] != x);
            let most = match self.jump_rows {
                Some(_) => (0..self.moved.len()).map(|k| (bound + other(k)) / 2).sum::<i64>(),
                None => (bound + (0..self.moved.len()).map(other).sum::<i64>()) / 2,
            };
            targets > most
        })
    }
}

/// The literal of model variable `var`, negated or not.
fn lit(var: usize, negated: bool) -> Lit {
    derive::var(var).lit(negated)
}

/// A row of the model by its index: its number in VeriPB's database (the `>=` half of an
/// equality), and the `<=` half's.
fn row(row_ids: &[usize], index: usize) -> ConstraintId {
    ConstraintId::from(AbsConstraintId::new(row_ids[index]))
}

fn le_half(row_ids: &[usize], index: usize) -> ConstraintId {
    ConstraintId::from(AbsConstraintId::new(row_ids[index] + 1))
}

/// The proof's lines of the count, written into one proof.
struct Writer<'a, W: Write> {
    proof: &'a mut Proof<W>,
    vars: &'a mut BasicVarManager,
}

impl<W: Write> Writer<'_, W> {
    fn rup(&mut self, lits: &[Lit]) -> Result<ConstraintId, CertifyError> {
        let clause: Clause = lits.iter().copied().collect();
        Ok(self.proof.reverse_unit_prop(&clause, std::iter::empty::<ConstraintId>())?.into())
    }

    /// `var` defined by `red`: the clause, with `var` set to `value` as the witness.
    fn define(&mut self, lits: &[Lit], var: Var, value: bool) -> Result<ConstraintId, CertifyError> {
        let clause: Clause = lits.iter().copied().collect();
        Ok(self.proof.redundant(&clause, [var.substitute_fixed(value)], None)?.into())
    }

    fn fresh(&mut self) -> Result<Var, CertifyError> {
        Ok(self.vars.new_var())
    }

    fn pol(&mut self, sum: OperationSequence<Var>) -> Result<ConstraintId, CertifyError> {
        Ok(self.proof.operations(&sum)?.into())
    }
}

/// The defined variables and derived lines of one knight at one step.
struct Step {
    land: [Var; 2],
    /// `jumped - land0 - land1 >= 0`.
    jumps: ConstraintId,
    /// The colour's change: `c[t-1] - c[t] + land1 - land0 >= 0` for colour 0, the mirror
    /// for colour 1 (the one the count is of).
    change: ConstraintId,
}

/// One knight's lines: its steps, its colour after every step, and the unit of its start's
/// colour.
struct Knight {
    steps: Vec<Step>,
    on1: Vec<Var>,
    start: ConstraintId,
}

/// Writes the count for `colour` ([`Landings::deciding_colour`]) into the proof: `row_ids[i]`
/// is the number of row `i` (its `<=` half one more for an equality), `improving` the
/// objective-improving constraint, `bound` the value below the best route's. Returns the
/// number of the empty clause.
pub fn derive<W: Write>(
    arg: &Landings,
    colour: usize,
    (row_ids, improving, bound): (&[usize], AbsConstraintId, i64),
    proof: &mut Proof<W>,
    vars: &mut BasicVarManager,
) -> Result<AbsConstraintId, CertifyError> {
    let mut w = Writer { proof, vars };
    let targets: Vec<usize> = arg.targets.iter().copied().filter(|&s| arg.colour[s] == colour).collect();
    w.proof.comment(&format!(
        "the colour count: {} targets of colour {colour}, too many for the landings on it in {bound} or fewer",
        targets.len()
    ))?;
    let mut knights = Vec::with_capacity(arg.moved.len());
    for k in 0..arg.moved.len() {
        knights.push(knight(arg, k, colour, &mut w)?);
    }
    // Each target of the colour is landed on, and each knight lands on one square at a time:
    // `Σ land_X >= targets`.
    let mut count = OperationSequence::<Var>::empty();
    // arrivals[k][t]: (square, "on it", "a landing on the colour") of the arrivals defined.
    let mut arrivals: Vec<Vec<Vec<(usize, ConstraintId, ConstraintId)>>> =
        arg.at.iter().map(|layers| vec![Vec::new(); layers.len()]).collect();
    for &s in &targets {
        let mut landed = Vec::new();
        for (k, knight) in knights.iter().enumerate() {
            let mut so_far: Vec<Lit> = Vec::new();
            for (t, layer) in arg.at[k].iter().enumerate().skip(1) {
                let Some(here) = layer[s] else { continue };
                let land = knight.steps[t - 1].land[colour];
                let arrive = w.fresh()?;
                let on = w.define(&[!arrive.pos_lit(), lit(here, false)], arrive, false)?;
                let by = w.define(&[!arrive.pos_lit(), land.pos_lit()], arrive, false)?;
                w.define(&[arrive.pos_lit(), lit(here, true), !land.pos_lit()], arrive, true)?;
                so_far.push(arrive.pos_lit());
                // On the target now: landed on it in this step or before.
                let mut lits = vec![lit(here, true)];
                lits.extend(&so_far);
                w.rup(&lits)?;
                arrivals[k][t].push((s, on, by));
            }
            landed.extend(so_far);
        }
        count += w.rup(&landed)?;
    }
    for (k, per_step) in arrivals.iter().enumerate() {
        for (t, here) in per_step.iter().enumerate() {
            let n = here.len();
            if n == 1 {
                count += here[0].2;
            } else if n > 1 {
                // `-Σ arrive >= -1` from "one square", the other squares cancelled by their
                // axioms; then `land_X - Σ arrive >= 0`.
                let mut one = OperationSequence::<Var>::from(le_half(row_ids, arg.one_rows[k][t]));
                for &(_, on, _) in here {
                    one += on;
                }
                for (s, var) in arg.at[k][t].iter().enumerate() {
                    if let Some(var) = *var {
                        if !here.iter().any(|a| a.0 == s) {
                            one += Var::new(var as u32).axiom(false);
                        }
                    }
                }
                let mut line = one * (n - 1);
                for &(_, _, by) in here {
                    line += by;
                }
                count += w.pol(line / n)?;
            }
        }
    }
    let count = w.pol(count)?;
    // Per knight: `jumps - 2 · landings on X >= -[start colour != X]`, the changes of colour
    // telescoped, the start's colour and the last one's bounds cancelling what is left.
    let mut landings = OperationSequence::<Var>::empty();
    for (k, knight) in knights.iter().enumerate() {
        let mut line = OperationSequence::<Var>::empty();
        for step in &knight.steps {
            line += step.change;
            line += step.jumps;
        }
        let (first, last) = (knight.on1[0], knight.on1[knight.on1.len() - 1]);
        let start_on1 = arg.start_colour[k] == 1;
        // Colour 0 leaves `+c[0] - c[T]`, colour 1 `-c[0] + c[T]`.
        if (colour == 0) != start_on1 {
            line += knight.start;
        } else {
            line += first.axiom(colour == 0);
        }
        line += last.axiom(colour == 1);
        match &arg.jump_rows {
            // Time steps: each knight's jumps are at most the steps counted.
            Some(jump_rows) => {
                for &r in &jump_rows[k] {
                    line += row(row_ids, r);
                }
                line += improving;
                landings += w.pol(line / 2)?;
            }
            None => landings += w.pol(line)?,
        }
    }
    let total = match arg.jump_rows {
        Some(_) => landings + count,
        None => (landings + improving) / 2 + count,
    };
    w.pol(total)?;
    Ok(w.proof.reverse_unit_prop(&Clause::new(), std::iter::empty::<ConstraintId>())?)
}

/// The definitions and lines of knight `k` at every step, and the unit of its start's colour.
fn knight<W: Write>(arg: &Landings, k: usize, colour: usize, w: &mut Writer<W>) -> Result<Knight, CertifyError> {
    let at = &arg.at[k];
    let squares = |t: usize, x: usize| -> Vec<usize> {
        at[t].iter().enumerate().filter(|&(s, v)| v.is_some() && arg.colour[s] == x).map(|(_, v)| v.unwrap()).collect()
    };
    let mut on1 = Vec::with_capacity(at.len());
    for t in 0..at.len() {
        let c = w.fresh()?;
        let mut lits = vec![!c.pos_lit()];
        lits.extend(squares(t, 1).into_iter().map(|v| lit(v, false)));
        w.define(&lits, c, false)?;
        for v in squares(t, 1) {
            w.define(&[c.pos_lit(), lit(v, true)], c, true)?;
        }
        for v in squares(t, 0) {
            w.rup(&[!c.pos_lit(), lit(v, true)])?;
        }
        on1.push(c);
    }
    let start = if arg.start_colour[k] == 1 { w.rup(&[on1[0].pos_lit()])? } else { w.rup(&[!on1[0].pos_lit()])? };
    let mut steps = Vec::with_capacity(at.len() - 1);
    for t in 1..at.len() {
        let (c, was, m) = (on1[t].pos_lit(), on1[t - 1].pos_lit(), lit(arg.moved[k][t - 1], false));
        let (land0, land1) = (w.fresh()?, w.fresh()?);
        let (l0, l1) = (land0.pos_lit(), land1.pos_lit());
        let l0_moved = w.define(&[!l0, m], land0, false)?;
        let l0_colour = w.define(&[!l0, !c], land0, false)?;
        w.define(&[l0, !m, c], land0, true)?;
        let l1_moved = w.define(&[!l1, m], land1, false)?;
        let l1_colour = w.define(&[!l1, c], land1, false)?;
        w.define(&[l1, !m, !c], land1, true)?;
        // A jump changes colour and a wait keeps it: square by square, then for the knight.
        for v in squares(t, 0) {
            w.rup(&[lit(v, true), !m, was])?;
        }
        for v in squares(t, 1) {
            w.rup(&[lit(v, true), !m, !was])?;
        }
        w.rup(&[!m, c, was])?;
        w.rup(&[!m, !c, !was])?;
        w.rup(&[m, !c, was])?;
        w.rup(&[m, c, !was])?;
        let change = if colour == 0 {
            let a = w.rup(&[!c, was, l1])?;
            let b = w.rup(&[!l0, was, l1])?;
            w.pol((OperationSequence::from(a) + b + l0_colour) / 2)?
        } else {
            let a = w.rup(&[c, !was, l0])?;
            let b = w.rup(&[!l1, !was, l0])?;
            w.pol((OperationSequence::from(a) + b + l1_colour) / 2)?
        };
        let jumps = w.pol((OperationSequence::from(l0_colour) + l1_colour + l0_moved + l1_moved) / 2)?;
        steps.push(Step { land: [land0, land1], jumps, change });
    }
    Ok(Knight { steps, on1, start })
}

//! The distance argument for a lone knight touching its targets in a listed order, as unit
//! propagation steps in the proof.
//!
//! Let `d(a, b)` be the knight's distance over safe squares and `D_i` the length of the
//! shortest route that touches targets `0..=i` in order: `d(start, target 0)` plus the
//! distances between consecutive targets. No route of fewer than `D_{n-1}` moves touches
//! them all, and in the model with at most `T` moves ([`crate::encodings::linear::tour_model_at_most`])
//! that is proved without search, time by time. With `p_i(t)` the model's "targets `0..=i`
//! touched in order by time `t`" and `at(s, t)` "the knight on `s` at time `t`", and `e(t) = t`
//! before the last step (a knight moves at most once per step):
//!
//! 1. `~moved_T` (`rup`, from the objective bound: a jump in step `T` means `T` jumps), so the
//!    knight stands still in the last step and `e(T) = T - 1`;
//! 2. for each time `t` and target `i` in turn, while `D_i <= e(t)`: the clause
//!    `~p_i(t) \/ ~at(s, t)` for every square `s` with `D_i + d(target i, s) > e(t)` (`rup`:
//!    target `i` was touched before `t`, and every square the knight came from is too far, by
//!    the clauses of time `t - 1`; or `s` is target `i`, too far from target `i - 1`);
//! 3. at the first target with `D_i > e(t)`, the unit `~p_i(t)` (`rup`: the knight would stand
//!    on target `i` now, too far from target `i - 1`); the later targets follow by propagation;
//! 4. at `t = T` every target must be touched: the empty clause (`rup`).
//!
//! Each target takes at most one clause per square for each of the few times after it is
//! reached (as many as the knight's farthest distance from it), and each time one unit.

use std::io::Write;

use pigeons::{AbsConstraintId, ConstraintId, Proof};
use rustsat::types::{Clause, Lit};

use super::CertifyError;
use crate::encodings::linear::TourRows;

/// What the argument needs from the model of a lone knight's tour in a listed order.
#[derive(Clone, Debug)]
pub struct Waypoints {
    /// at[t][s]: the knight on square s after step t, where the model has the variable.
    pub at: Vec<Vec<Option<usize>>>,
    /// moved[t - 1]: the knight jumps in step t.
    pub moved: Vec<usize>,
    /// progress[t][i]: targets `0..=i` touched in order by time t.
    pub progress: Vec<Vec<usize>>,
    /// jumps[s]: the safe squares a knight's jump away from square s.
    pub jumps: Vec<Vec<usize>>,
    /// reach[i][s]: the knight's distance from target i to square s over safe squares.
    pub reach: Vec<Vec<Option<usize>>>,
    /// shortest[i]: the fewest moves that touch targets `0..=i` in order (`D_i`).
    pub shortest: Vec<usize>,
    /// targets[i]: the square of target i.
    pub targets: Vec<usize>,
    /// one_rows[t]: the row "the knight stands on one square after step t".
    pub one_rows: Vec<usize>,
    /// The rows of the moves and of the order, named in the hints.
    pub rows: TourRows,
}

impl Waypoints {
    /// The fewest moves that touch every target in order: the bound the argument proves.
    pub fn bound(&self) -> usize {
        self.shortest.last().copied().unwrap_or(0)
    }

    /// Whether [`derive`] decides the bound alone: the model's horizon is the argument's bound.
    pub fn decides(&self) -> bool {
        let cap = self.moved.len();
        cap > 0 && self.progress.len() == cap + 1 && !self.targets.is_empty() && self.bound() >= cap
    }
}

/// The proof steps of one time: the first target not yet touched in order, with its unit
/// `~p_i(t)`, and the clauses `~p_i(t) \/ ~at(s, t)` of the targets before it, by square.
struct Time {
    first: usize,
    unit: ConstraintId,
    clauses: Vec<Vec<Option<ConstraintId>>>,
}

/// Writes the argument into the proof (`row_ids[i]`: the number of row `i`, its `<=` half one
/// more for an equality); the number of the empty clause when it decides, that is when no
/// route of fewer than the model's `T` moves touches the targets in order.
pub fn derive<W: Write>(
    arg: &Waypoints,
    row_ids: &[usize],
    proof: &mut Proof<W>,
) -> Result<Option<AbsConstraintId>, CertifyError> {
    if !arg.decides() {
        return Ok(None);
    }
    let cap = arg.moved.len();
    let row = |r: usize| ConstraintId::from(AbsConstraintId::new(row_ids[r]));
    // The `<=` half of an equality row.
    let at_most = |r: usize| ConstraintId::from(AbsConstraintId::new(row_ids[r] + 1));
    let missing = |what: &str| CertifyError::Internal(format!("the distance argument finds no {what}"));
    let not_p = |t: usize, i: usize| !Lit::positive(arg.progress[t][i] as u32);
    proof.comment(&format!("the distance argument: touching the targets in order takes {} moves", arg.bound()))?;
    let still = ConstraintId::from(rup(proof, &[!Lit::positive(arg.moved[cap - 1] as u32)], Vec::new())?);
    let mut times: Vec<Time> = Vec::with_capacity(cap + 1);
    for t in 0..=cap {
        // The moves made by time t at most: none in the last step.
        let moves = t.min(cap - 1);
        let first = arg.shortest.iter().position(|&d| d > moves).ok_or_else(|| missing("target left to touch"))?;
        // Hints that make `p_i(t - 1)` false from the unit of time t - 1 (for i at or past its first).
        let earlier_unit = |i: usize| -> Vec<ConstraintId> {
            let Some(before) = t.checked_sub(1).map(|u| &times[u]) else { return Vec::new() };
            let mut hints = vec![before.unit];
            hints.extend((before.first + 1..=i).map(|j| row(arg.rows.order[t - 1][j - 1])));
            hints
        };
        let mut clauses = Vec::with_capacity(first);
        for i in 0..first {
            let target = arg.targets[i];
            let mut by_square = vec![None; arg.at[t].len()];
            for (s, var) in arg.at[t].iter().enumerate() {
                let Some(var) = var.filter(|_| s != target) else { continue };
                // A square the knight cannot reach from target i is as good as infinitely far.
                if arg.reach[i][s].is_some_and(|away| arg.shortest[i] + away <= moves) {
                    continue;
                }
                // Standing on s, not on target i: target i was touched by t - 1 ...
                let mut hints = vec![at_most(arg.one_rows[t]), row(arg.rows.touch[t][i])];
                if t > 0 {
                    let before = &times[t - 1];
                    if i >= before.first {
                        hints.extend(earlier_unit(i));
                    } else if t == cap {
                        // ... and the knight stood on s then too, too far from it.
                        hints.push(still);
                        let arrive = arg.rows.arrive[t - 1][0][s].ok_or_else(|| missing("arrival row"))?;
                        hints.push(row(arrive));
                        hints.extend(before.clauses[i][s]);
                    } else {
                        // ... and every square the knight came from is too far from it.
                        let from = arg.jumps[s].iter().chain(std::iter::once(&s));
                        hints.extend(from.filter_map(|&f| before.clauses[i].get(f).copied().flatten()));
                        let reach = arg.rows.reach[t - 1][0][s].ok_or_else(|| missing("reach row"))?;
                        hints.push(row(reach));
                    }
                }
                let on_s = !Lit::positive(var as u32);
                by_square[s] = Some(ConstraintId::from(rup(proof, &[not_p(t, i), on_s], hints)?));
            }
            clauses.push(by_square);
        }
        // The first target not touched: the knight would stand on it now, too far from the one before.
        let mut hints: Vec<ConstraintId> = Vec::new();
        if first > 0 {
            hints.push(row(arg.rows.order[t][first - 1]));
        }
        hints.extend(earlier_unit(first));
        hints.push(row(arg.rows.touch[t][first]));
        if first > 0 {
            hints.extend(clauses[first - 1][arg.targets[first]]);
        }
        let unit = ConstraintId::from(rup(proof, &[not_p(t, first)], hints)?);
        times.push(Time { first, unit, clauses });
    }
    let last = &times[cap];
    let all =
        arg.rows.all_touched.ok_or_else(|| CertifyError::Internal("a listed order without its last row".into()))?;
    let mut hints = vec![row(all)];
    hints.extend((last.first + 1..arg.targets.len()).rev().map(|j| row(arg.rows.order[cap][j - 1])));
    hints.push(last.unit);
    Ok(Some(rup(proof, &[], hints)?))
}

fn rup<W: Write>(
    proof: &mut Proof<W>,
    lits: &[Lit],
    hints: Vec<ConstraintId>,
) -> Result<AbsConstraintId, CertifyError> {
    let clause: Clause = lits.iter().copied().collect();
    Ok(proof.reverse_unit_prop(&clause, hints)?)
}

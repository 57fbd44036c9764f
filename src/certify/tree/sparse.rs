//! Fewer rows in a bound: a combination that the search logged is often far stronger than its
//! node needs, and every row it sums costs VeriPB an addition of the row's terms.
//!
//! A combination `Σ y·row + objective` is a constraint `Σ A_j·x_j >= B`. Under the decisions
//! of its node it is false when its largest possible left side, `M`, the sum of `A_j·x_j` over
//! the decided variables and of the positive `A_j` of the others, falls below `B`. Taking a
//! row out lowers `B` by `y·b` and moves `M` by what the row's terms change; the row may go
//! when `M < B` still holds. The rows are tried from the smallest multiplier up, once each.
//!
//! The search's cuts are rows too: a zero-half cut is computed as VeriPB derives it (the sum
//! of its rows and bounds, in normalized form, divided by two and rounded up).
//!
//! Only combinations that are false under their node's decisions alone are thinned: one that
//! propagates (reduced-cost or strong-branching fixings), or conflicts only once other steps
//! have fixed more, is kept as the search logged it. A thinned combination conflicts wherever
//! the logged one did, so the proof closes the same nodes; the renamed copies of replays
//! conflict under the renamed decisions, since a symmetry maps rows onto rows.

use super::group::RowKey;
use crate::driver::{Combination, CutOrigin};

/// The rows a combination may sum, in the search's numbering, and the objective-improving
/// constraint, each `Σ a·x >= b`.
pub(super) struct Rows<'a> {
    /// The model's `>=` rows, in VeriPB's numbering.
    pub model: &'a [RowKey],
    /// The cuts kept as rows after the model's (none if they could not be computed).
    pub cuts: Vec<RowKey>,
    /// The objective-improving constraint `-Σ cost·x >= 1 - value`.
    pub objective: RowKey,
}

impl Rows<'_> {
    fn get(&self, r: usize) -> Option<&RowKey> {
        match r.checked_sub(self.model.len()) {
            None => Some(&self.model[r]),
            Some(k) => self.cuts.get(k),
        }
    }
}

/// The kept cuts as rows: `kept` indexes `separated`, whose rows are numbered among `model`'s
/// and the cuts separated before each; `None` if an index is out of place.
pub(super) fn cut_rows(model: &[RowKey], separated: &[CutOrigin], kept: &[usize], n: usize) -> Option<Vec<RowKey>> {
    let mut cuts: Vec<RowKey> = Vec::with_capacity(separated.len());
    for (k, origin) in separated.iter().enumerate() {
        let mut sum = vec![0i64; n];
        let mut rhs = 0i64;
        for &r in &origin.rows {
            let (terms, b) = match r.checked_sub(model.len()) {
                None => &model[r],
                Some(earlier) if earlier < k => &cuts[earlier],
                Some(_) => return None,
            };
            for &(v, a) in terms {
                let slot = sum.get_mut(v)?;
                *slot = slot.checked_add(a)?;
            }
            rhs = rhs.checked_add(*b)?;
        }
        for &(v, upper) in &origin.bounds {
            // `~x >= 0` is `-x >= -1`; `x >= 0` adds nothing but the term.
            let slot = sum.get_mut(v)?;
            *slot = slot.checked_add(if upper { -1 } else { 1 })?;
            rhs = rhs.checked_sub(i64::from(upper))?;
        }
        // In normalized form a negative term `-a·x` is `a·~x` with `a` more on the right; each
        // coefficient and the right side are halved, rounding up, then read back.
        let negative = sum.iter().filter(|&&a| a < 0).try_fold(0i64, |t, &a| t.checked_sub(a))?;
        let mut degree = rhs.checked_add(negative)?;
        degree = div_ceil(degree, 2);
        let mut terms = Vec::new();
        for (v, &a) in sum.iter().enumerate() {
            if a > 0 {
                terms.push((v, div_ceil(a, 2)));
            } else if a < 0 {
                let half = div_ceil(a.checked_neg()?, 2);
                terms.push((v, -half));
                degree = degree.checked_sub(half)?;
            }
        }
        cuts.push((terms, degree));
    }
    kept.iter().map(|&k| cuts.get(k).cloned()).collect()
}

fn div_ceil(a: i64, b: i64) -> i64 {
    a.div_euclid(b) + i64::from(a.rem_euclid(b) != 0)
}

/// `combination` with the rows it can spare taken out (see the module's comment), and whether
/// it is false under its node's decisions alone; as it is if it sums a cut, or is not false
/// there.
pub(super) fn thinned(combination: &Combination, rows: &Rows, n: usize) -> (Combination, bool) {
    let unchanged = || (combination.clone(), false);
    let Some(summed) = combination.multipliers.iter().map(|&(r, _)| rows.get(r)).collect::<Option<Vec<_>>>() else {
        return unchanged();
    };
    let mut value: Vec<Option<bool>> = vec![None; n];
    for &(v, one) in &combination.path {
        if v >= n {
            return unchanged();
        }
        value[v] = Some(one);
    }
    // The sum, exactly: a tree read from a file may carry multipliers so large that it could
    // overflow, and is then left to the checker.
    let magnitude = |(terms, rhs): &RowKey, y: u64| -> Option<i128> {
        let size =
            terms.iter().try_fold(rhs.unsigned_abs() as i128, |t, &(_, c)| t.checked_add(c.unsigned_abs() as i128))?;
        size.checked_mul(i128::from(y))
    };
    let rows_size = summed.iter().zip(&combination.multipliers).map(|(row, &(_, y))| magnitude(row, y));
    let total =
        rows_size.chain([magnitude(&rows.objective, combination.objective)]).try_fold(0i128, |t, s| t.checked_add(s?));
    if total.is_none_or(|t| t > i128::MAX / 4) {
        return unchanged();
    }
    let mut a = vec![0i128; n];
    let mut b = 0i128;
    let mut add = |(terms, rhs): &RowKey, y: i128| {
        for &(v, c) in terms {
            a[v] += y * i128::from(c);
        }
        b += y * i128::from(*rhs);
    };
    for (row, &(_, y)) in summed.iter().zip(&combination.multipliers) {
        add(row, i128::from(y));
    }
    if combination.objective > 0 {
        add(&rows.objective, i128::from(combination.objective));
    }
    let most = |v: usize, a: i128| -> i128 {
        match value[v] {
            Some(true) => a,
            Some(false) => 0,
            None => a.max(0),
        }
    };
    let mut m: i128 = (0..n).map(|v| most(v, a[v])).sum();
    if m >= b {
        return unchanged();
    }
    let mut order: Vec<usize> = (0..combination.multipliers.len()).collect();
    order.sort_by_key(|&i| combination.multipliers[i].1);
    let mut kept = vec![true; combination.multipliers.len()];
    for i in order {
        let y = combination.multipliers[i].1;
        let (terms, rhs) = summed[i];
        let y = i128::from(y);
        let moved: i128 = terms.iter().map(|&(v, c)| most(v, a[v] - y * i128::from(c)) - most(v, a[v])).sum();
        if m + moved < b - y * i128::from(*rhs) {
            for &(v, c) in terms {
                a[v] -= y * i128::from(c);
            }
            m += moved;
            b -= y * i128::from(*rhs);
            kept[i] = false;
        }
    }
    let multipliers = combination.multipliers.iter().zip(&kept).filter(|t| *t.1).map(|t| *t.0).collect();
    (Combination { path: combination.path.clone(), multipliers, objective: combination.objective }, true)
}

#[cfg(test)]
mod tests {
    use super::{cut_rows, thinned, Combination, CutOrigin, Rows};

    /// Three squares, each pair of them covered (`x_a + x_b >= 1`), one row over all three,
    /// and the improving constraint of a solution of two pieces: `-x0 - x1 - x2 >= -1`.
    fn rows() -> (Vec<super::RowKey>, super::RowKey) {
        let pair = |a: usize, b: usize| (vec![(a, 1), (b, 1)], 1);
        let model = vec![pair(0, 1), pair(1, 2), pair(0, 2), (vec![(0, 1), (1, 1), (2, 1)], 1)];
        (model, (vec![(0, -1), (1, -1), (2, -1)], -1))
    }

    #[test]
    fn a_row_the_bound_can_spare_is_taken_out_and_the_others_stay() {
        let (model, objective) = rows();
        let rows = Rows { model: &model, cuts: Vec::new(), objective };
        // The three pairs at 4 and the objective at 8 sum to `0 >= 4`; the row over all three
        // at 1 adds `x0 + x1 + x2 >= 1`, which the bound does not need.
        let logged = Combination { path: vec![], multipliers: vec![(0, 4), (1, 4), (2, 4), (3, 1)], objective: 8 };
        let (thin, conflicting) = thinned(&logged, &rows, 3);
        assert!(conflicting);
        assert_eq!(thin.multipliers, vec![(0, 4), (1, 4), (2, 4)]);
        assert_eq!((thin.path, thin.objective), (logged.path, 8));
    }

    #[test]
    fn a_bound_that_is_not_false_under_its_decisions_is_kept_as_logged() {
        let (model, objective) = rows();
        let rows = Rows { model: &model, cuts: Vec::new(), objective };
        // Without the objective the pairs only say `2 x0 + 2 x1 + 2 x2 >= 3`: true with
        // nothing decided, false once x0 and x1 are empty (and then thinned).
        let logged = Combination { path: vec![], multipliers: vec![(0, 1), (1, 1), (2, 1), (3, 1)], objective: 0 };
        let (same, conflicting) = thinned(&logged, &rows, 3);
        assert!(!conflicting);
        assert_eq!(same.multipliers, logged.multipliers);
        let decided = Combination { path: vec![(0, false), (1, false)], ..logged.clone() };
        let (thin, conflicting) = thinned(&decided, &rows, 3);
        assert!(conflicting);
        assert!(thin.multipliers.len() < 4, "{:?}", thin.multipliers);
        // A combination that sums a row that does not exist is left to the checker.
        let cut = Combination { path: vec![(0, false), (1, false)], multipliers: vec![(4, 1), (0, 1)], objective: 0 };
        assert_eq!(thinned(&cut, &rows, 3), (cut.clone(), false));
        // So is one whose sum could overflow.
        let huge = Combination { path: vec![], multipliers: vec![(0, u64::MAX), (1, u64::MAX)], objective: u64::MAX };
        assert_eq!(thinned(&huge, &rows, 3), (huge.clone(), false));
    }

    #[test]
    fn a_zero_half_cut_is_the_halved_sum_rounded_up_as_veripb_divides_it() {
        // x0 + x1 <= 1, x0 + x2 >= 1, x1 + x2 >= 1: the sum is `2 x2 >= 1`, halved `x2 >= 1`.
        let at_most_one = (vec![(0, -1), (1, -1)], -1);
        let model =
            vec![at_most_one, (vec![(0, 1), (2, 1)], 1), (vec![(1, 1), (2, 1)], 1), (vec![(1, -1), (2, -1)], -1)];
        let first = CutOrigin { rows: [0, 1, 2], bounds: vec![] };
        // The first cut, x1 + x2 <= 1, x0 + x1 <= 1 and the bounds `~x0 >= 0`, `x1 >= 0`:
        // `-2 x0 - x1 >= -2`, normalized `2 ~x0 + ~x1 >= 1`, halved (rounding up)
        // `~x0 + ~x1 >= 1`, that is `-x0 - x1 >= -1`.
        let second = CutOrigin { rows: [4, 3, 0], bounds: vec![(0, true), (1, false)] };
        let cuts = cut_rows(&model, &[first, second], &[1, 0], 3).expect("both cuts");
        assert_eq!(cuts[1], (vec![(2, 1)], 1));
        assert_eq!(cuts[0], (vec![(0, -1), (1, -1)], -1));
        // A cut may not sum itself or a later one.
        let itself = CutOrigin { rows: [4, 1, 2], bounds: vec![] };
        assert_eq!(cut_rows(&model, &[itself], &[0], 3), None);
        // Cuts that sum the one before three times grow half again each, until they no
        // longer fit: no cut rows then, rather than an overflow.
        let mut growing = vec![CutOrigin { rows: [1, 1, 1], bounds: vec![] }];
        growing.extend((0..200).map(|k| CutOrigin { rows: [4 + k; 3], bounds: vec![] }));
        assert_eq!(cut_rows(&model, &growing, &[0], 3), None);
    }
}

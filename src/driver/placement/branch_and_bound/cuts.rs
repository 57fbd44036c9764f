//! Zero-half cuts at the root: rows that every placement satisfies but the relaxation's
//! solution does not, added to the program before the tree so that every node's bound is
//! the stronger for them.
//!
//! A cut here sums three covering rows `Σ x ≥ 1`, adds a bound `x_j ≥ 0` or `-x_j ≥ -1` for
//! each variable that the three rows count an odd number of times (so every coefficient is
//! even), halves the sum and rounds its right-hand side up: a Chvátal-Gomory step with
//! multipliers ½, the `pol` derivation a VeriPB proof can state. It is violated when the
//! three rows' slacks and the bounds' slacks sum to less than 1 at the relaxation's solution.
//!
//! Three stronger separations were tried and not kept (one run each, release build).
//!
//! - Zero-half cuts of any odd number of covering rows, found by Gaussian elimination over
//!   GF(2) once the triples run out (after Koster, Zymolka and Kutschka, 2009: the rows as
//!   vectors over the fractional variables, the dearest eliminated first). Root bounds of
//!   knight domination with triples alone and with both: 15x15 32.14 and 32.70, 18x18 45.51
//!   and 45.74, 19x19 50.00 and 50.22, 20x20 54.23 and 54.68 (Gurobi's root after its cuts:
//!   54.75). The trees did not shrink with them. One thread each, side by side: 14x14 166
//!   nodes against 350, 15x15 1,789 against 2,079 (1.12 s against 0.99 s), 16x16 3,073
//!   against 488 (2.25 s against 0.74 s), 17x17 81,192 against 69,531 (70.9 s against
//!   63.8 s); fewer cuts stay (17x17: 106 against 132), since the triples the last relaxation
//!   leaves slack are dropped. 17 cubes of one 18x18 split: 244,536 nodes against 266,017 with
//!   them among the root's cuts, 271,518 with them at the tops of cubes alone. VeriPB checked
//!   certificates with such cuts (knight domination 10x10 to 14x14).
//! - Gomory's fractional cuts from the rows of the tableau (the multipliers the fractional
//!   parts of a row of `B⁻¹`, rounded down to multiples of 1/4096, the cut computed exactly
//!   from them): knight domination 20x20 from 54.23 to 54.27 with 873 more rows over six more
//!   rounds, and not one of them had fewer than 60 terms.
//! - Triples that take earlier cuts as rows (rank 2): 20x20 to 54.26.

use std::collections::HashSet;

use super::problem::{Problem, MAX_BASIS_ROWS};
use super::tree_proof::CutOrigin;
use crate::solver::simplex::LpStatus;

/// Rounds of separation at the root.
const ROUNDS: usize = 4;
/// A cut is added when the relaxation's solution violates it by at least this much.
const MIN_VIOLATION: f64 = 0.05;
/// A row enters a triple when its slack is below this.
const TIGHT: f64 = 0.5;
/// A cut is kept when the last relaxation leaves it at most this slack. Measured on knight
/// domination 15x15, one thread: all 151 cuts 8,600 nodes in 30 s; the 59 tight ones 15,300
/// nodes in 19.5 s; none, 37,200 nodes in 36 s (the dense simplex pays for every row).
const KEPT_SLACK: f64 = 1e-6;
/// Rows longer than this (a queen's) are left out: their triples are many and weak.
pub(super) const LONGEST_ROW: usize = 16;

/// A cut `Σ a·x >= rhs`, with how it was derived.
struct Cut {
    terms: Vec<(i64, usize)>,
    rhs: i64,
    violation: f64,
    origin: CutOrigin,
}

/// The cuts a separation added: how each cut it kept on the way was derived (its rows
/// numbered in the program of its round: the model's rows, then the cuts kept before it),
/// and which of them the program keeps at the end, in order.
#[derive(Default)]
pub(super) struct Separation {
    pub origins: Vec<CutOrigin>,
    pub kept: Vec<usize>,
}

/// Adds rounds of zero-half cuts to `problem` (with no variable assigned yet), and keeps
/// those the last relaxation holds tight; returns how they were derived and which it kept.
pub(super) fn strengthen(problem: &mut Problem) -> Separation {
    let base = problem.clone();
    let most_per_round = problem.n() / 2;
    let mut seen = HashSet::new();
    let mut kept: Vec<Cut> = Vec::new();
    let mut x = Vec::new();
    for round in 0..=ROUNDS {
        let mut lp = problem.relaxation();
        if !matches!(lp.solve(f64::INFINITY), LpStatus::Optimal(_)) {
            // The cuts kept so far stay.
            let all = (0..kept.len()).collect();
            return Separation { origins: kept.into_iter().map(|cut| cut.origin).collect(), kept: all };
        }
        x = (0..problem.n()).map(|j| lp.value(j)).collect();
        if round == ROUNDS {
            break;
        }
        let mut cuts = zero_half(problem, &x);
        cuts.sort_by(|a, b| b.violation.total_cmp(&a.violation));
        let before = kept.len();
        for cut in cuts {
            if kept.len() - before == most_per_round || problem.rows.len() >= MAX_BASIS_ROWS {
                break;
            }
            if seen.insert((cut.terms.clone(), cut.rhs)) {
                problem.add_row(cut.terms.clone(), cut.rhs);
                kept.push(cut);
            }
        }
        if kept.len() == before {
            break;
        }
    }
    // Cuts the last relaxation leaves slack only make every node's program larger.
    *problem = base;
    let mut separation = Separation::default();
    for (i, cut) in kept.into_iter().enumerate() {
        let activity: f64 = cut.terms.iter().map(|&(a, v)| a as f64 * x[v]).sum();
        if activity - (cut.rhs as f64) < KEPT_SLACK {
            problem.add_row(cut.terms, cut.rhs);
            separation.kept.push(i);
        }
        separation.origins.push(cut.origin);
    }
    separation
}

/// Zero-half cuts that hold in the subtree where `fixed` holds: separated as at the root, on
/// the program with the fixed variables taken out ([`Problem::restricted`]). Rows over the
/// variables of `problem`, to add to it for that subtree only.
pub(super) fn for_subtree(problem: &Problem, fixed: &[(usize, bool)]) -> Vec<(Vec<(i64, usize)>, i64)> {
    let mut restricted = problem.restricted(fixed);
    let before = restricted.rows.len();
    strengthen(&mut restricted);
    restricted.rows.drain(before..).map(|row| (row.terms, row.rhs)).collect()
}

/// The violated zero-half cuts from triples of tight covering rows that overlap.
fn zero_half(problem: &Problem, x: &[f64]) -> Vec<Cut> {
    let slack: Vec<f64> = problem
        .rows
        .iter()
        .map(|row| row.terms.iter().map(|&(a, v)| a as f64 * x[v]).sum::<f64>() - row.rhs as f64)
        .collect();
    let usable = |r: usize| {
        let row = &problem.rows[r];
        row.covering && row.terms.len() <= LONGEST_ROW && slack[r] < TIGHT
    };
    // For each usable row, the usable rows after it that share a variable with it.
    let neighbours: Vec<Vec<usize>> = (0..problem.rows.len())
        .map(|r| {
            if !usable(r) {
                return Vec::new();
            }
            let mut out: Vec<usize> = problem.rows[r]
                .terms
                .iter()
                .flat_map(|&(_, v)| problem.columns[v].iter().map(|&(s, _)| s))
                .filter(|&s| s > r && usable(s))
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect();
    let mut cuts = Vec::new();
    let mut count = vec![0i64; problem.n()];
    let mut thirds = Vec::new();
    for r1 in 0..problem.rows.len() {
        for &r2 in &neighbours[r1] {
            if slack[r1] + slack[r2] >= 1.0 - 2.0 * MIN_VIOLATION {
                continue;
            }
            thirds.clear();
            thirds.extend(neighbours[r1].iter().chain(&neighbours[r2]).copied().filter(|&r3| r3 > r2));
            thirds.sort_unstable();
            thirds.dedup();
            for &r3 in &thirds {
                let base = slack[r1] + slack[r2] + slack[r3];
                if base >= 1.0 - 2.0 * MIN_VIOLATION {
                    continue;
                }
                if let Some(cut) = triple(problem, x, [r1, r2, r3], base, &mut count) {
                    cuts.push(cut);
                }
            }
        }
    }
    cuts
}

/// The zero-half cut of rows `rows` (covering rows), if the solution `x` violates it.
fn triple(problem: &Problem, x: &[f64], rows: [usize; 3], base: f64, count: &mut [i64]) -> Option<Cut> {
    let mut vars = Vec::new();
    for &r in &rows {
        for &(_, v) in &problem.rows[r].terms {
            if count[v] == 0 {
                vars.push(v);
            }
            count[v] += 1;
        }
    }
    // Each odd count is made even by a bound: `x ≥ 0` (slack x, coefficient up by one) or
    // `-x ≥ -1` (slack 1 - x, coefficient down by one, right-hand side down by one). The
    // right-hand side must stay odd, so the upper bounds are used an even number of times.
    let mut cost = base;
    let mut uppers: i64 = 0;
    let mut cheapest_flip = f64::INFINITY;
    let mut flip = None;
    let mut upper = Vec::new();
    for &v in &vars {
        if count[v] % 2 == 1 {
            let (low, high) = (x[v], 1.0 - x[v]);
            let use_upper = high < low;
            cost += low.min(high);
            if use_upper {
                uppers += 1;
            }
            upper.push((v, use_upper));
            if (low - high).abs() < cheapest_flip {
                cheapest_flip = (low - high).abs();
                flip = Some(upper.len() - 1);
            }
        }
    }
    if uppers % 2 == 1 {
        let i = flip?;
        upper[i].1 = !upper[i].1;
        uppers += if upper[i].1 { 1 } else { -1 };
        cost += cheapest_flip;
    }
    let violation = (1.0 - cost) / 2.0;
    let cut = (violation >= MIN_VIOLATION).then(|| {
        let mut terms: Vec<(i64, usize)> = vars
            .iter()
            .filter_map(|&v| {
                let bounded = upper.iter().find(|t| t.0 == v).map(|t| if t.1 { -1 } else { 1 });
                let coefficient = (count[v] + bounded.unwrap_or(0)) / 2;
                (coefficient > 0).then_some((coefficient, v))
            })
            .collect();
        terms.sort_unstable_by_key(|t| t.1);
        let origin = CutOrigin { rows, bounds: upper.clone() };
        Cut { terms, rhs: (3 - uppers + 1) / 2, violation, origin }
    });
    for &v in &vars {
        count[v] = 0;
    }
    cut
}

#[cfg(test)]
mod tests {
    use knights_sat_encodings::linear::placement_model;

    use super::super::tests::domination;
    use super::{for_subtree, Problem};

    /// The program of domination of a `n`x`n` board by `letter`.
    fn program(n: usize, letter: &str) -> Problem {
        Problem::new(&placement_model(&domination(n, letter)).unwrap().model)
    }

    /// Every cut separated for a subtree holds for every placement of the subtree, found by
    /// trying every value of the variables left free; and some subtrees do get cuts.
    #[test]
    fn cuts_of_a_subtree_hold_for_each_of_its_placements() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        };
        let mut with_cuts = 0;
        for (n, letter) in [(5, "N"), (6, "N"), (6, "K"), (5, "B")] {
            let problem = program(n, letter);
            let vars = problem.n();
            for _ in 0..10 {
                // A few pieces placed and the rest of the fixed variables emptied, 14 left free.
                let mut order: Vec<usize> = (0..vars).collect();
                for i in (1..vars).rev() {
                    order.swap(i, next(i + 1));
                }
                let placed = 1 + next(3);
                let fixed: Vec<(usize, bool)> = order[14..].iter().enumerate().map(|(i, &v)| (v, i < placed)).collect();
                let cuts = for_subtree(&problem, &fixed);
                with_cuts += usize::from(!cuts.is_empty());
                let free = &order[..14];
                let mut values = vec![false; vars];
                for &(v, one) in &fixed {
                    values[v] = one;
                }
                for bits in 0u32..1 << 14 {
                    for (i, &v) in free.iter().enumerate() {
                        values[v] = bits >> i & 1 == 1;
                    }
                    if !problem.satisfies(&values) {
                        continue;
                    }
                    for (terms, rhs) in &cuts {
                        let activity: i64 = terms.iter().filter(|t| values[t.1]).map(|t| t.0).sum();
                        assert!(activity >= *rhs, "{letter} {n}x{n}, fixed {fixed:?}: a cut {terms:?} >= {rhs} fails");
                    }
                }
            }
        }
        assert!(with_cuts > 0, "no subtree had a violated cut: the test checks nothing");
    }
}

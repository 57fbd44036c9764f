//! Tests of the dual simplex: small programs with known optima, and the inverse kept in step
//! with the basis through warm starts.

use super::*;

/// Set cover of {0,1,2} by {0,1}, {1,2}, {0,2} at cost 1 each: the relaxation takes each
/// set at one half, 1.5 in all.
#[test]
fn the_triangle_cover_relaxes_to_one_and_a_half() {
    let rows = vec![
        (vec![(0, 1.0), (2, 1.0)], RowKind::AtLeast, 1.0),
        (vec![(0, 1.0), (1, 1.0)], RowKind::AtLeast, 1.0),
        (vec![(1, 1.0), (2, 1.0)], RowKind::AtLeast, 1.0),
    ];
    let mut lp = Lp::new(&[1.0, 1.0, 1.0], &rows);
    match lp.solve(f64::INFINITY) {
        LpStatus::Optimal(v) => assert!((v - 1.5).abs() < 1e-9, "{v}"),
        other => panic!("{other:?}"),
    }
    // Fixing one set out forces the other two in.
    lp.set_bounds(0, 0.0, 0.0);
    match lp.solve(f64::INFINITY) {
        LpStatus::Optimal(v) => assert!((v - 2.0).abs() < 1e-9, "{v}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(lp.solve(1.5), LpStatus::Cutoff(_) | LpStatus::Optimal(_)));
    lp.set_bounds(1, 0.0, 0.0);
    assert_eq!(lp.solve(f64::INFINITY), LpStatus::Infeasible);
    lp.set_bounds(0, 0.0, 1.0);
    lp.set_bounds(1, 0.0, 1.0);
    match lp.solve(f64::INFINITY) {
        LpStatus::Optimal(v) => assert!((v - 1.5).abs() < 1e-9, "{v}"),
        other => panic!("{other:?}"),
    }
}

/// Maximising two variables under `x + y <= 1` and `x - y = 0`: both at one half.
#[test]
fn at_most_and_equal_rows() {
    let rows = vec![(vec![(0, 1.0), (1, 1.0)], RowKind::AtMost, 1.0), (vec![(0, 1.0), (1, -1.0)], RowKind::Equal, 0.0)];
    let mut lp = Lp::new(&[-1.0, -1.0], &rows);
    match lp.solve(f64::INFINITY) {
        LpStatus::Optimal(v) => assert!((v + 1.0).abs() < 1e-9, "{v}"),
        other => panic!("{other:?}"),
    }
    assert!((lp.value(0) - 0.5).abs() < 1e-9 && (lp.value(1) - 0.5).abs() < 1e-9);
}

/// The largest entry of `B · B⁻¹ - I`, with `B⁻¹` expanded from what is stored.
fn inverse_error(lp: &Lp) -> f64 {
    let (m, n) = (lp.m, lp.n);
    let mut worst = 0.0f64;
    for i in 0..m {
        let row = lp.inverse_row(i);
        for (k, &c) in lp.basis.iter().enumerate() {
            let product: f64 = if c < n { lp.columns[c].iter().map(|&(j, a)| row[j] * a).sum() } else { -row[c - n] };
            let expected = if k == i { 1.0 } else { 0.0 };
            worst = worst.max((product - expected).abs());
        }
    }
    worst
}

/// Covering rows over a 7x7 board of knight moves (each square covered by itself or a
/// knight's move away), solved again and again as variables are fixed and freed: the
/// stored inverse stays the basis's inverse, and the warm-started optimum is the optimum
/// a fresh program finds with the same bounds.
#[test]
fn the_stored_inverse_follows_the_basis_through_warm_starts() {
    let knight = |dr: i32, dc: i32| dr * dr + dc * dc == 5;
    follows_the_basis_through_warm_starts(knight, false);
}

/// The same with a queen's rows, whose basic slacks' rows are kept rather than derived.
#[test]
fn every_row_kept_follows_the_basis_through_warm_starts() {
    let queen = |dr: i32, dc: i32| (dr, dc) != (0, 0) && (dr == 0 || dc == 0 || dr.abs() == dc.abs());
    follows_the_basis_through_warm_starts(queen, true);
}

/// Covering rows over a 7x7 board of the moves `reaches`, solved again and again as
/// variables are fixed and freed (every row kept if `keep_all`, as the program decides).
fn follows_the_basis_through_warm_starts(reaches: impl Fn(i32, i32) -> bool, keep_all: bool) {
    let side = 7i32;
    let index = |r: i32, c: i32| (r * side + c) as usize;
    let mut rows = Vec::new();
    for r in 0..side {
        for c in 0..side {
            let mut terms = vec![(index(r, c), 1.0)];
            for (rr, cc) in (0..side).flat_map(|rr| (0..side).map(move |cc| (rr, cc))) {
                if reaches(rr - r, cc - c) {
                    terms.push((index(rr, cc), 1.0));
                }
            }
            rows.push((terms, RowKind::AtLeast, 1.0));
        }
    }
    // Two rows of another kind, so slacks of every sort come and go.
    rows.push(((0..7).map(|j| (j, 1.0)).collect(), RowKind::AtMost, 2.0));
    rows.push((vec![(10, 1.0), (38, -1.0)], RowKind::Equal, 0.0));
    let n = (side * side) as usize;
    let cost: Vec<f64> = (0..n).map(|j| 1.0 + (j % 5) as f64 * 0.01).collect();
    let mut lp = Lp::new(&cost, &rows);
    assert_eq!(lp.inverse.keeps_all(), keep_all);
    let mut bounds = vec![(0.0, 1.0); n];
    let mut state = 12345u64;
    for step in 0..60 {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let j = (state >> 33) as usize % n;
        bounds[j] = match (state >> 20) % 3 {
            0 => (0.0, 0.0),
            1 => (1.0, 1.0),
            _ => (0.0, 1.0),
        };
        lp.set_bounds(j, bounds[j].0, bounds[j].1);
        let warm = lp.solve(f64::INFINITY);
        assert!(inverse_error(&lp) < 1e-9, "step {step}: B·B⁻¹ is off by {}", inverse_error(&lp));
        let mut fresh = Lp::new(&cost, &rows);
        for (k, &(lower, upper)) in bounds.iter().enumerate() {
            fresh.set_bounds(k, lower, upper);
        }
        match (warm, fresh.solve(f64::INFINITY)) {
            (LpStatus::Optimal(a), LpStatus::Optimal(b)) => assert!((a - b).abs() < 1e-7, "step {step}: {a} {b}"),
            (LpStatus::Infeasible, LpStatus::Infeasible) => {}
            other => panic!("step {step}: {other:?}"),
        }
    }
    assert!(lp.pivots > 50, "only {} pivots", lp.pivots);
}

/// A saved basis taken up again, after the program moved elsewhere, gives back the optimum
/// without a pivot; one of another program is refused.
#[test]
fn a_saved_basis_brings_the_optimum_back_without_pivots() {
    let rows = vec![
        (vec![(0, 1.0), (2, 1.0)], RowKind::AtLeast, 1.0),
        (vec![(0, 1.0), (1, 1.0)], RowKind::AtLeast, 1.0),
        (vec![(1, 1.0), (2, 1.0), (3, 1.0)], RowKind::AtLeast, 1.0),
        (vec![(3, 1.0), (0, 1.0)], RowKind::AtLeast, 1.0),
    ];
    let mut lp = Lp::new(&[1.0, 1.0, 1.0, 2.0], &rows);
    lp.set_bounds(1, 0.0, 0.0);
    let LpStatus::Optimal(optimum) = lp.solve(f64::INFINITY) else { panic!("feasible") };
    let saved = lp.saved_basis();
    lp.set_bounds(1, 0.0, 1.0);
    lp.set_bounds(0, 0.0, 0.0);
    assert!(matches!(lp.solve(f64::INFINITY), LpStatus::Optimal(_)));
    lp.set_bounds(0, 0.0, 1.0);
    lp.set_bounds(1, 0.0, 0.0);
    assert!(lp.take_basis(&saved));
    assert!(inverse_error(&lp) < 1e-9);
    let before = lp.pivots;
    assert_eq!(lp.solve(f64::INFINITY), LpStatus::Optimal(optimum));
    assert_eq!(lp.pivots, before);
    let other = Lp::new(&[1.0, 1.0], &[(vec![(0, 1.0), (1, 1.0)], RowKind::AtLeast, 1.0)]);
    assert!(!lp.take_basis(&other.saved_basis()));
}

//! The classical formulas as a second ground truth, for boards n x n up to n = 10: rooks
//! dominate with n and kings with ceil(n/3)^2; n rooks, 2n - 2 bishops (n > 1), ceil(n/2)^2
//! kings, n queens (n >= 4), n^2/2 knights (even n >= 4) and (n^2 + 1)/2 knights (odd n >= 3)
//! are independent. Each optimum must be proven, not only found.
//!
//! Rook domination needs symmetry breaking: proving that n - 1 rooks leave a square uncovered
//! is a pigeonhole argument, exponential for the solver's resolution unless ranks and files
//! are ordered (`--symmetry`).

use knights_sat::driver::{solve_placement, PlacementSearch, Status, Strategy};
use knights_sat::encodings::geometry::{Board, PawnDirection, PieceKind};
use knights_sat::encodings::puzzle::placement::{KindRule, PlacementGoal, PlacementPuzzle};

fn optimum(n: usize, goal: PlacementGoal, kind: PieceKind, search: PlacementSearch) -> usize {
    let rule = KindRule { kind, min: 0, max: None, weight: 1 };
    let board = Board::new(n, n).unwrap();
    let puzzle = PlacementPuzzle::new(None, board, goal, vec![rule], PawnDirection::Up, vec![], vec![]).unwrap();
    let outcome = solve_placement(&puzzle, &search, &mut |_| {}).unwrap();
    assert_eq!(outcome.status, Status::Optimal, "{goal} of {kind}s on {n}x{n}");
    assert_eq!(outcome.value, Some(outcome.bound), "{goal} of {kind}s on {n}x{n}");
    outcome.value.unwrap()
}

fn check(goal: PlacementGoal, kind: PieceKind, sizes: impl Iterator<Item = usize>, formula: fn(usize) -> usize) {
    for n in sizes {
        let search = PlacementSearch { symmetry: kind == PieceKind::Rook, ..Default::default() };
        assert_eq!(optimum(n, goal, kind, search), formula(n), "{goal} of {kind}s on {n}x{n}");
    }
}

#[test]
fn rooks_dominate_with_n() {
    check(PlacementGoal::Domination, PieceKind::Rook, 1..=10, |n| n);
}

#[test]
fn kings_dominate_with_a_ninth_rounded_up() {
    check(PlacementGoal::Domination, PieceKind::King, 1..=10, |n| n.div_ceil(3).pow(2));
}

#[test]
fn independent_rooks_bishops_kings_and_queens() {
    use PlacementGoal::Independence;
    check(Independence, PieceKind::Rook, 1..=10, |n| n);
    check(Independence, PieceKind::Bishop, 2..=10, |n| 2 * n - 2);
    check(Independence, PieceKind::King, 1..=10, |n| n.div_ceil(2).pow(2));
    check(Independence, PieceKind::Queen, 4..=10, |n| n);
}

#[test]
fn independent_knights_cover_one_colour() {
    use PlacementGoal::Independence;
    check(Independence, PieceKind::Knight, (4..=10).step_by(2), |n| n * n / 2);
    check(Independence, PieceKind::Knight, (3..=9).step_by(2), |n| (n * n).div_ceil(2));
}

#[test]
fn the_bound_strategies_agree_on_middle_sizes() {
    // The slower strategies on a few boards each, so that a fault in one of them shows here too.
    for strategy in [Strategy::SatUnsat, Strategy::UnsatSat, Strategy::Binary] {
        let search = PlacementSearch { strategy, ..Default::default() };
        assert_eq!(optimum(6, PlacementGoal::Domination, PieceKind::King, search), 4, "{strategy}");
        assert_eq!(optimum(7, PlacementGoal::Independence, PieceKind::Bishop, search), 12, "{strategy}");
        assert_eq!(optimum(6, PlacementGoal::Independence, PieceKind::Knight, search), 18, "{strategy}");
        assert_eq!(optimum(6, PlacementGoal::Independence, PieceKind::Queen, search), 6, "{strategy}");
    }
}

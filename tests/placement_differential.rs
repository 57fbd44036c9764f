//! Placement optima from SAT against an exhaustive search written from the rules: every board
//! from 1x1 to 5x5, every single piece type, every goal; then random variants with removed
//! squares, count limits, weights, fixed pieces and empty squares. Every puzzle is solved by
//! several searches — each strategy and bound encoding in turn, with and without symmetry
//! breaking — and all must agree with the exhaustive search.

use knights_sat::driver::{solve_placement, PlacementSearch, Solution, Status, Strategy};
use knights_sat::encodings::check::check_placement;
use knights_sat::encodings::encode::bound::BoundEncoding;
use knights_sat::encodings::geometry::{Board, PawnDirection, PieceKind, Square};
use knights_sat::encodings::ground_truth::placement::optimal_placement;
use knights_sat::encodings::puzzle::placement::{KindRule, PlacementGoal, PlacementPuzzle};
use knights_sat::solver::SolverKind;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Two searches for the `i`-th puzzle: a bound strategy and encoding in turn, and the
/// core-guided one; symmetry breaking on for one of them, alternately.
fn searches(i: usize) -> [PlacementSearch; 2] {
    let solvers: Vec<SolverKind> = SolverKind::ALL.into_iter().filter(|s| s.is_available()).collect();
    let bounded = [Strategy::SatUnsat, Strategy::UnsatSat, Strategy::Binary];
    let symmetry = i % 2 == 0;
    [
        PlacementSearch {
            solver: solvers[i % solvers.len()],
            strategy: bounded[i % 3],
            encoding: BoundEncoding::ALL[(i / 3) % 4],
            symmetry,
            ..Default::default()
        },
        PlacementSearch {
            solver: solvers[(i + 1) % solvers.len()],
            strategy: Strategy::CoreGuided,
            symmetry: !symmetry,
            ..Default::default()
        },
    ]
}

fn agree(puzzle: &PlacementPuzzle, searches: &[PlacementSearch]) -> bool {
    let Ok(expected) = optimal_placement(puzzle, 20_000_000) else { return false };
    for search in searches {
        agree_once(puzzle, search, expected);
    }
    true
}

fn agree_once(puzzle: &PlacementPuzzle, search: &PlacementSearch, expected: Option<usize>) {
    let context = format!("{puzzle:?}\n{search:?}");
    let outcome = solve_placement(puzzle, search, &mut |_| {}).unwrap_or_else(|e| panic!("{context}: {e}"));
    match expected {
        Some(value) => {
            assert_eq!(outcome.status, Status::Optimal, "{context}");
            assert_eq!(outcome.value, Some(value), "{context}");
            let Some(Solution::Placement(placement)) = &outcome.solution else { panic!("a placement: {context}") };
            assert_eq!(check_placement(puzzle, placement), Ok(value), "{context}");
            assert_eq!(outcome.bound, value, "{context}");
        }
        None => assert_eq!(outcome.status, Status::Infeasible, "{context}"),
    }
}

fn single(n: usize, goal: PlacementGoal, kind: PieceKind) -> PlacementPuzzle {
    let rule = KindRule { kind, min: 0, max: None, weight: 1 };
    PlacementPuzzle::new(None, Board::new(n, n).unwrap(), goal, vec![rule], PawnDirection::Up, vec![], vec![]).unwrap()
}

#[test]
fn every_small_board_every_piece_every_goal() {
    let mut compared = 0;
    for n in 1..=5 {
        for kind in PieceKind::ALL {
            for goal in PlacementGoal::ALL {
                let puzzle = single(n, goal, kind);
                assert!(agree(&puzzle, &searches(compared)), "exhaustive search too large: {n} {kind} {goal}");
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 5 * 6 * 4);
}

#[test]
fn random_variants() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x706c_6163_6573);
    let (mut compared, mut skipped) = (0, 0);
    while compared < 150 {
        let board_side = |rng: &mut ChaCha8Rng| rng.random_range(1..=4);
        let (w, h) = (board_side(&mut rng), board_side(&mut rng));
        let mut board = Board::new(w, h).unwrap();
        if w * h > 4 && rng.random_bool(0.3) {
            board.remove(Square(rng.random_range(0..w * h) as u16));
        }
        let goal = PlacementGoal::ALL[rng.random_range(0..4)];
        let mut kinds: Vec<PieceKind> = Vec::new();
        for _ in 0..rng.random_range(1..=3) {
            let kind = PieceKind::ALL[rng.random_range(0..6)];
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        let rules: Vec<KindRule> = kinds
            .iter()
            .map(|&kind| {
                let min = if rng.random_bool(0.2) { 1 } else { 0 };
                let max = rng.random_bool(0.3).then(|| rng.random_range(min.max(1)..=3));
                KindRule { kind, min, max, weight: rng.random_range(1..=3) }
            })
            .collect();
        let squares: Vec<Square> = board.squares().collect();
        let mut empty = Vec::new();
        let mut fixed = Vec::new();
        if rng.random_bool(0.3) {
            empty.push(squares[rng.random_range(0..squares.len())]);
        }
        if rng.random_bool(0.3) {
            let square = squares[rng.random_range(0..squares.len())];
            if !empty.contains(&square) {
                fixed.push((square, kinds[0]));
            }
        }
        let pawns = if rng.random_bool(0.5) { PawnDirection::Up } else { PawnDirection::Down };
        let Ok(puzzle) = PlacementPuzzle::new(None, board, goal, rules, pawns, empty, fixed) else { continue };
        if agree(&puzzle, &searches(compared)) {
            compared += 1;
        } else {
            skipped += 1;
        }
    }
    assert!(skipped < 15, "{skipped} variants too large for the exhaustive search");
}

//! Placement optima from SAT against an exhaustive search written from the rules: every board
//! from 1x1 to 5x5, every single piece type, every goal; then random variants with removed
//! squares, count limits, weights, fixed pieces and empty squares; the same with sliders blocked
//! by placed pieces. Every puzzle is solved by several searches — each strategy and bound
//! encoding in turn, with and without symmetry breaking — and all must agree with the
//! exhaustive search.

mod common;

use common::random::random_placement;
use knights_sat::driver::{solve_placement, Ingredients, PlacementSearch, Solution, Status, Strategy};
use knights_sat::encodings::check::check_placement;
use knights_sat::encodings::encode::bound::BoundEncoding;
use knights_sat::encodings::geometry::{Board, PawnDirection, PieceKind};
use knights_sat::encodings::ground_truth::placement::optimal_placement;
use knights_sat::encodings::puzzle::placement::{KindRule, LineOfSight, PlacementGoal, PlacementPuzzle};
use knights_sat::solver::SolverKind;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Three searches for the `i`-th puzzle: a bound strategy and encoding in turn, the
/// core-guided one, and branch and bound with one of its ingredients switched off in turn;
/// symmetry breaking on for one of the SAT searches, alternately.
fn searches(i: usize) -> [PlacementSearch; 3] {
    let solvers: Vec<SolverKind> = SolverKind::ALL.to_vec();
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
        branch_and_bound(i),
    ]
}

/// Branch and bound with every ingredient, or with the `i % 6`-th one switched off; on one,
/// two or three threads in turn.
fn branch_and_bound(i: usize) -> PlacementSearch {
    let mut ingredients = Ingredients::default();
    match i % 6 {
        0 => {}
        1 => ingredients.reduced_costs = false,
        2 => ingredients.local_search = false,
        3 => ingredients.row_branching = false,
        4 => ingredients.cuts = false,
        _ => ingredients.symmetry = false,
    }
    PlacementSearch {
        strategy: Strategy::BranchAndBound,
        symmetry: ingredients.symmetry,
        ingredients,
        threads: 1 + i % 3,
        ..Default::default()
    }
}

/// Compares every search with the exhaustive optimum; returns that optimum (`Some(None)`: no
/// placement), or `None` when the puzzle is too large for the exhaustive search.
fn agree(puzzle: &PlacementPuzzle, searches: &[PlacementSearch]) -> Option<Option<usize>> {
    let Ok(expected) = optimal_placement(puzzle, 20_000_000) else { return None };
    for search in searches {
        agree_once(puzzle, search, expected);
    }
    #[cfg(feature = "mip")]
    if puzzle.line_of_sight == LineOfSight::EmptyBoard {
        mip_agrees(puzzle, expected);
    }
    Some(expected)
}

/// The covering and conflict model solved by HiGHS agrees with the exhaustive search.
#[cfg(feature = "mip")]
fn mip_agrees(puzzle: &PlacementPuzzle, expected: Option<usize>) {
    use knights_sat::driver::{solve_mip, MipSearch};
    let wrapped = knights_sat::encodings::puzzle::Puzzle::Placement(puzzle.clone());
    let outcome = solve_mip(&wrapped, &MipSearch::default(), &mut |_| {}).expect("the MIP search runs");
    let context = format!("MIP: {puzzle:?}");
    match expected {
        Some(value) => {
            assert_eq!(
                (outcome.status, outcome.value, outcome.bound),
                (Status::Optimal, Some(value), value),
                "{context}"
            );
            let Some(Solution::Placement(placement)) = &outcome.solution else { panic!("a placement: {context}") };
            assert_eq!(check_placement(puzzle, placement), Ok(value), "{context}");
        }
        None => assert_eq!(outcome.status, Status::Infeasible, "{context}"),
    }
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
                assert!(
                    agree(&puzzle, &searches(compared)).is_some(),
                    "exhaustive search too large: {n} {kind} {goal}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 5 * 6 * 4);
}

#[test]
fn every_small_board_every_slider_every_goal_with_blocked_lines() {
    let mut compared = 0;
    for n in 1..=5 {
        for kind in [PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen] {
            for goal in PlacementGoal::ALL {
                let puzzle = single(n, goal, kind).with_line_of_sight(LineOfSight::Blocked);
                assert!(
                    agree(&puzzle, &searches(compared)).is_some(),
                    "exhaustive search too large: {n} {kind} {goal} blocked"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 5 * 3 * 4);
}

/// Sliders blocked by pieces of another kind, which the lines of one kind never meet.
#[test]
fn two_kinds_with_blocked_lines() {
    use PieceKind::*;
    let mut compared = 0;
    for (w, h) in [(2, 2), (3, 3), (4, 3), (4, 4)] {
        for pair in [[Rook, Bishop], [Queen, Knight], [Bishop, Pawn], [Rook, King]] {
            for goal in [PlacementGoal::Domination, PlacementGoal::TotalDomination] {
                let rules = pair.map(|kind| KindRule { kind, min: 0, max: None, weight: 1 }).to_vec();
                let board = Board::new(w, h).unwrap();
                let puzzle = PlacementPuzzle::new(None, board, goal, rules, PawnDirection::Up, vec![], vec![])
                    .unwrap()
                    .with_line_of_sight(LineOfSight::Blocked);
                assert!(agree(&puzzle, &searches(compared)).is_some(), "exhaustive search too large: {puzzle:?}");
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 4 * 4 * 2);
}

#[test]
fn random_variants() {
    random_variants_of(0x706c_6163_6573, LineOfSight::EmptyBoard, 150);
}

#[test]
fn random_variants_with_blocked_lines() {
    random_variants_of(0x626c_6f63_6b65, LineOfSight::Blocked, 120);
}

/// Compares `count` random puzzles from `seed`, attacks measured under `line_of_sight`.
fn random_variants_of(seed: u64, line_of_sight: LineOfSight, count: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut compared, mut skipped, mut infeasible) = (0, 0, 0);
    while compared < count {
        let Some(puzzle) = random_placement(&mut rng) else { continue };
        let puzzle = puzzle.with_line_of_sight(line_of_sight);
        match agree(&puzzle, &searches(compared)) {
            Some(expected) => {
                compared += 1;
                infeasible += usize::from(expected.is_none());
            }
            None => skipped += 1,
        }
    }
    assert!(skipped < count / 10, "{skipped} variants too large for the exhaustive search");
    // Floors on both verdicts, so that neither leg of the comparison goes unexercised.
    assert!(infeasible * 2 < count, "{infeasible} of {count} variants infeasible: too few placements compared");
    assert!(infeasible * 60 >= count, "{infeasible} of {count} variants infeasible: refutations go untested");
}

/// Blocking only takes attacks away, so a placement that dominates with blocked lines dominates
/// on an empty board too, and the optimum can only grow; with rooks and bishops on 4x4 it does.
/// Independent placements never have a piece in another's line, so there the models agree.
#[test]
fn blocked_lines_change_domination_but_not_independence() {
    use PieceKind::*;
    let truth = |puzzle: &PlacementPuzzle| optimal_placement(puzzle, 20_000_000).expect("small enough");
    let both = |n: usize, goal: PlacementGoal, kinds: &[PieceKind]| {
        let rules = kinds.iter().map(|&kind| KindRule { kind, min: 0, max: None, weight: 1 }).collect();
        let puzzle =
            PlacementPuzzle::new(None, Board::new(n, n).unwrap(), goal, rules, PawnDirection::Up, vec![], vec![])
                .unwrap();
        let blocked = puzzle.clone().with_line_of_sight(LineOfSight::Blocked);
        for p in [&puzzle, &blocked] {
            assert!(agree(p, &searches(p.kinds.len())).is_some(), "exhaustive search too large: {p:?}");
        }
        (truth(&puzzle), truth(&blocked))
    };
    let (empty_board, blocked) = both(4, PlacementGoal::Domination, &[Rook, Bishop]);
    assert!(blocked > empty_board, "rooks and bishops on 4x4: {blocked:?} blocked, {empty_board:?} on an empty board");
    for goal in [PlacementGoal::Independence, PlacementGoal::IndependentDomination] {
        for kinds in [&[Queen][..], &[Rook, Bishop], &[Queen, Knight], &[Bishop, King, Pawn]] {
            let (empty_board, blocked) = both(5, goal, kinds);
            assert_eq!(empty_board, blocked, "{goal} with {kinds:?} on 5x5");
        }
    }
}

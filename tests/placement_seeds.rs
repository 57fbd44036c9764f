//! The published placement answers, each proven optimal: twelve knights dominate 8x8; eight
//! queens, fourteen bishops, 32 knights, 64 kings on 16x16 and 36 pieces of any kinds on 8x8 are
//! independent. The small ones are proven by every strategy.

use std::path::Path;

use knights_sat::driver::{solve_placement, PlacementSearch, Status, Strategy};
use knights_sat::encodings::puzzle;
use knights_sat::solver::Answer;

fn prove(file: &str, value: usize, strategy: Strategy) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(file);
    let puzzle = puzzle::load(&path).unwrap().placement().expect("a placement puzzle").clone();
    let search = PlacementSearch { strategy, ..Default::default() };
    let outcome = solve_placement(&puzzle, &search, &mut |_| {}).expect("the search runs");
    let context = format!("{file} by {strategy}");
    assert_eq!((outcome.status, outcome.value, outcome.bound), (Status::Optimal, Some(value), value), "{context}");
    if strategy.resolve(&puzzle) == Strategy::BranchAndBound {
        // The tree was searched to the end, and its last report proves the optimum.
        let last = outcome.search.last().expect("branch and bound reports its progress");
        assert_eq!((last.bound, last.incumbent), (Some(value), Some(value)), "{context}");
    } else if strategy.resolve(&puzzle) != Strategy::CoreGuided {
        // Some call demanded one better than the optimum and was refuted. (The core-guided
        // search may need no such call: one queen per rank already bounds eight queens.)
        let beyond = if puzzle.goal.minimises() { value - 1 } else { value + 1 };
        assert!(outcome.stats.iter().any(|s| s.horizon == beyond && s.result == Answer::Unsat), "{context}");
    }
}

/// Domination on the command line's boards, by the default search on `threads` threads.
fn dominate(n: usize, letter: &str, threads: usize) -> (Status, Option<usize>, usize) {
    let board = knights_sat::encodings::geometry::Board::new(n, n).unwrap();
    let puzzle = knights_sat::encodings::puzzle::placement::PlacementPuzzle::new(
        None,
        board,
        knights_sat::encodings::puzzle::placement::PlacementGoal::Domination,
        knights_sat::encodings::puzzle::placement::KindRule::parse_letters(letter).unwrap(),
        knights_sat::encodings::geometry::PawnDirection::Up,
        Vec::new(),
        Vec::new(),
    )
    .unwrap();
    let search = PlacementSearch { threads, ..Default::default() };
    let outcome = solve_placement(&puzzle, &search, &mut |_| {}).expect("the search runs");
    (outcome.status, outcome.value, outcome.bound)
}

/// Knight domination numbers from OEIS A006075 (n = 9 to 12: 14, 16, 21, 24), proved by the
/// default search (branch and bound), on one thread and on three.
#[test]
fn knight_domination_up_to_twelve_by_twelve() {
    for threads in [1, 3] {
        for (n, value) in [(9, 14), (10, 16), (11, 21), (12, 24)] {
            let context = format!("knights {n}x{n}, {threads} threads");
            assert_eq!(dominate(n, "N", threads), (Status::Optimal, Some(value), value), "{context}");
        }
    }
}

/// Queen domination numbers from OEIS A075458 (n = 8 to 12: 5, 5, 5, 5, 6), proved by the
/// default search.
#[test]
fn queen_domination_up_to_twelve_by_twelve() {
    for (n, value) in [(8, 5), (9, 5), (10, 5), (11, 5), (12, 6)] {
        assert_eq!(dominate(n, "Q", 2), (Status::Optimal, Some(value), value), "queens {n}x{n}");
    }
}

#[test]
fn twelve_knights_dominate_the_chessboard() {
    for strategy in Strategy::ALL {
        prove("knights-domination-8x8.toml", 12, strategy);
    }
}

#[test]
fn eight_queens() {
    for strategy in Strategy::ALL {
        prove("independence-queens-8x8.toml", 8, strategy);
    }
}

#[test]
fn fourteen_bishops() {
    for strategy in [Strategy::CoreGuided, Strategy::Binary, Strategy::UnsatSat] {
        prove("independence-bishops-8x8.toml", 14, strategy);
    }
}

#[test]
fn thirty_two_knights() {
    for strategy in Strategy::ALL {
        prove("independence-knights-8x8.toml", 32, strategy);
    }
}

#[test]
fn sixty_four_kings_on_sixteen_by_sixteen() {
    prove("independence-kings-16x16.toml", 64, Strategy::CoreGuided);
}

#[test]
fn thirty_six_pieces_of_any_kinds() {
    prove("independence-mixed-8x8.toml", 36, Strategy::CoreGuided);
}

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
    // Some call demanded one better than the optimum and was refuted.
    let beyond = if puzzle.goal.minimises() { value - 1 } else { value + 1 };
    assert!(outcome.stats.iter().any(|s| s.horizon == beyond && s.result == Answer::Unsat), "{context}");
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

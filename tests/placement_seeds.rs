//! The published placement answers that the count-bound search proves within seconds: twelve
//! knights dominate 8x8, eight queens and fourteen bishops are independent on 8x8.

use std::path::Path;

use knights_sat::driver::{solve_placement, PlacementSearch, Query, Status};
use knights_sat::encodings::puzzle;
use knights_sat::solver::Answer;

fn prove(file: &str, value: usize) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(file);
    let puzzle = puzzle::load(&path).unwrap().placement().expect("a placement puzzle").clone();
    let outcome = solve_placement(&puzzle, &PlacementSearch::default(), &mut |_| {}).expect("the search runs");
    assert_eq!((outcome.status, outcome.value, outcome.bound), (Status::Optimal, Some(value), value), "{file}");
    // The last call demanded one better than the optimum and was refuted.
    let last = outcome.stats.last().unwrap();
    let beyond = if puzzle.goal.minimises() { value - 1 } else { value + 1 };
    assert_eq!((last.query, last.horizon, last.result), (Query::Bound, beyond, Answer::Unsat), "{file}");
}

#[test]
fn twelve_knights_dominate_the_chessboard() {
    prove("knights-domination-8x8.toml", 12);
}

#[test]
fn eight_queens() {
    prove("independence-queens-8x8.toml", 8);
}

#[test]
fn fourteen_bishops() {
    prove("independence-bishops-8x8.toml", 14);
}

//! The published exchange answers, solved end to end through the library: Guarini's 3x3
//! puzzle (16 moves, as published in 1512 and in every write-up since) and its 3x4 widening
//! (16 moves, the seeds' answer), with every solver built in.

use std::path::Path;

use knights_sat::driver::{solve_exchange, ExchangeSearch, Outcome, Query, Solution, Status};
use knights_sat::encodings::check::replay_exchange;
use knights_sat::encodings::puzzle::{self, ExchangePuzzle};
use knights_sat::solver::{Answer, SolverKind};

fn load(name: &str) -> ExchangePuzzle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(name);
    puzzle::load(&path).expect("shipped puzzles parse").exchange().expect("an exchange puzzle").clone()
}

fn solve(puzzle: &ExchangePuzzle, solver: SolverKind, incremental: bool) -> Outcome {
    let search = ExchangeSearch { solver, incremental, ..ExchangeSearch::default() };
    solve_exchange(puzzle, &search, &mut |_| {}).expect("the search runs")
}

/// The optimum is `moves`, the solution replays, and the horizon one below was answered UNSAT.
fn assert_optimal(puzzle: &ExchangePuzzle, outcome: &Outcome, moves: usize) {
    assert_eq!(outcome.status, Status::Optimal);
    assert_eq!(outcome.value, Some(moves));
    assert_eq!(outcome.bound, moves);
    let Some(Solution::Moves(solution)) = &outcome.solution else { panic!("an optimal outcome carries its moves") };
    assert_eq!(solution.len(), moves);
    replay_exchange(puzzle, solution).expect("the solution obeys the rules");
    let below = outcome.stats.iter().find(|s| s.query == Query::Goal && s.horizon == moves - 1);
    assert_eq!(below.map(|s| s.result), Some(Answer::Unsat), "horizon {} must be refuted", moves - 1);
    let at = outcome.stats.iter().find(|s| s.query == Query::Goal && s.horizon == moves);
    assert_eq!(at.map(|s| s.result), Some(Answer::Sat));
}

fn solvers() -> Vec<SolverKind> {
    SolverKind::ALL.to_vec()
}

#[test]
fn guarini_3x3_takes_16_moves_and_15_are_impossible() {
    let puzzle = load("guarini.toml");
    for solver in solvers() {
        for incremental in [true, false] {
            assert_optimal(&puzzle, &solve(&puzzle, solver, incremental), 16);
        }
    }
}

#[test]
fn guarini_3x4_swap_takes_16_moves() {
    let puzzle = load("guarini-3x4.toml");
    for solver in solvers() {
        assert_optimal(&puzzle, &solve(&puzzle, solver, true), 16);
    }
}

#[test]
fn every_refinement_off_gives_the_same_optimum() {
    use knights_sat::encodings::encode::exchange::ExchangeOptions;
    let puzzle = load("guarini.toml");
    let plain =
        ExchangeOptions { forbid_undo: false, canonical_order: false, distance_sum: false, ..Default::default() };
    let search = ExchangeSearch { encoding: plain, ..ExchangeSearch::default() };
    let outcome = solve_exchange(&puzzle, &search, &mut |_| {}).expect("the search runs");
    assert_optimal(&puzzle, &outcome, 16);
}

//! The published tours, proven optimal: a knight from h8 touches every square a queen on d5
//! leaves safe in 46 moves, and in the Finegold order in 158; each Finegold leg is a shortest
//! path; and a two-knight, two-queen tour agrees with a search over joint positions.

use std::path::Path;

use knights_sat::driver::{solve_tour, Outcome, Query, Solution, Status, TourSearch};
use knights_sat::encodings::check::replay_tour;
use knights_sat::encodings::ground_truth::tour::optimal_tour;
use knights_sat::encodings::puzzle;
use knights_sat::encodings::puzzle::tour::{KnightStart, Route, TourObjective, TourPuzzle, VisitOrder};
use knights_sat::solver::Answer;

fn load(file: &str) -> TourPuzzle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(file);
    puzzle::load(&path).unwrap().tour().expect("a tour puzzle").clone()
}

fn solve(puzzle: &TourPuzzle) -> (Outcome, Route) {
    let outcome = solve_tour(puzzle, &TourSearch::default(), &mut |_| {}).expect("the search runs");
    let Some(Solution::Route(route)) = outcome.solution.clone() else { panic!("no route") };
    replay_tour(puzzle, &route).expect("the route is legal");
    (outcome, route)
}

#[test]
fn forty_six_moves_touch_every_safe_square() {
    let puzzle = load("queen-d5-tour.toml");
    assert_eq!(puzzle.targets.len(), 36);
    let (outcome, route) = solve(&puzzle);
    assert_eq!((outcome.status, outcome.value, route.moves()), (Status::Optimal, Some(46), 46));
    let refuted =
        |h: usize| outcome.stats.iter().any(|s| s.query == Query::Goal && s.horizon == h && s.result == Answer::Unsat);
    assert!(refuted(45), "45 moves proved impossible by the solver");
}

#[test]
fn the_finegold_order_takes_158_moves_leg_by_shortest_leg() {
    let puzzle = load("finegold.toml");
    let (outcome, route) = solve(&puzzle);
    assert_eq!((outcome.status, outcome.value, outcome.bound), (Status::Optimal, Some(158), 158));
    let replay = replay_tour(&puzzle, &route).unwrap();
    let mut from = puzzle.knights[0].candidates()[0];
    let mut before = 0;
    for (&target, &at) in puzzle.targets.iter().zip(&replay.touched_at) {
        // The shortest path from the previous target, by breadth-first search without SAT.
        let leg = TourPuzzle::new(
            None,
            puzzle.board.clone(),
            puzzle.attackers.clone(),
            vec![KnightStart::At(from)],
            Some(vec![target]),
            VisitOrder::Any,
            TourObjective::Moves,
        )
        .unwrap();
        let shortest = optimal_tour(&leg, 100_000).unwrap().expect("every leg is possible").moves;
        assert_eq!(at - before, shortest, "leg to {}", puzzle.board.name(target));
        let refuted = outcome.stats.iter().filter(|s| s.query == Query::Leg && s.result == Answer::Unsat).count();
        assert!(refuted > 0);
        (from, before) = (target, at);
    }
}

#[test]
fn two_knights_and_two_queens_agree_with_a_search_over_joint_positions() {
    let puzzle = load("two-knights-two-queens.toml");
    assert_eq!(puzzle.objective, TourObjective::Steps);
    let truth = optimal_tour(&puzzle, 50_000_000).expect("small enough").expect("a route exists");
    let (outcome, route) = solve(&puzzle);
    assert_eq!((outcome.status, outcome.value), (Status::Optimal, Some(truth.steps)));
    assert_eq!(route.moves(), truth.moves, "fewest moves in the fewest steps");
}

/// Two knights from h8 and a1 around the queen on d5, moving together. Both start on dark
/// targets, and 22 more of the 24 dark targets are left; a knight lands on dark at most every
/// other jump, so the two need at least 44 jumps. The fewer-moves stage states that count in
/// its clauses: the route found has 44 moves, and 43 are refuted by propagation, with no
/// conflict (a search of over a million conflicts without it).
#[test]
fn the_colour_count_refutes_fewer_moves_of_two_knights_without_search() {
    let board = knights_sat::encodings::geometry::Board::new(8, 8).unwrap();
    let square = |name: &str| board.parse_square(name).unwrap();
    let puzzle = TourPuzzle::new(
        None,
        board.clone(),
        vec![(knights_sat::encodings::geometry::PieceKind::Queen, square("d5"))],
        vec![KnightStart::At(square("h8")), KnightStart::At(square("a1"))],
        None,
        VisitOrder::Any,
        TourObjective::Steps,
    )
    .unwrap();
    let (outcome, route) = solve(&puzzle);
    assert_eq!(route.moves(), 44, "the count's bound is reached");
    let last = outcome.stats.iter().rev().find(|s| s.query == Query::Moves).expect("a fewer-moves call");
    assert_eq!((last.horizon, last.result, last.conflicts), (43, Answer::Unsat, Some(0)));
}

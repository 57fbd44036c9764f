//! The SAT optimum of a tour against an exhaustive search over (knight squares, touched set),
//! written independently of the SAT code (`ground_truth::tour`), on random small puzzles.

use knights_sat::driver::{solve_tour, Outcome, Solution, Status, TourSearch};
use knights_sat::encodings::check::replay_tour;
use knights_sat::encodings::encode::tour::TourOptions;
use knights_sat::encodings::encode::AtMostOne;
use knights_sat::encodings::geometry::{Board, PieceKind, Square};
use knights_sat::encodings::ground_truth::tour::{optimal_tour, TourOptimum};
use knights_sat::encodings::puzzle::tour::{KnightStart, TourObjective, TourPuzzle, VisitOrder};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const STATES: usize = 3_000_000;

/// The search settings for the `i`-th comparison: the encoding choices rotate, so that every
/// redundant family is tested both on and off, incrementally and not.
fn search(i: usize) -> TourSearch {
    TourSearch {
        incremental: i % 5 != 4,
        max_horizon: 60,
        encoding: TourOptions {
            at_most_one: [AtMostOne::Ladder, AtMostOne::Pairwise, AtMostOne::Commander][i % 3],
            distance_to_go: i % 4 != 1,
            count_to_go: i % 4 != 2,
            colour_count: i % 4 != 3,
            canonical_order: i % 3 != 2,
        },
        ..TourSearch::default()
    }
}

/// Solves `puzzle` and checks the outcome against the exhaustive optimum; every third puzzle
/// also through the MIP backend when it is built in.
fn agree(puzzle: &TourPuzzle, truth: Option<TourOptimum>, i: usize) {
    let outcome: Outcome = solve_tour(puzzle, &search(i), &mut |_| {}).expect("the search runs");
    check(puzzle, truth, &outcome, &format!("puzzle {i}: {puzzle:?}"));
    #[cfg(feature = "mip")]
    if i % 3 == 0 {
        use knights_sat::driver::{solve_mip, MipSearch};
        let search = MipSearch { max_horizon: 60, ..MipSearch::default() };
        let wrapped = knights_sat::encodings::puzzle::Puzzle::Tour(puzzle.clone());
        let outcome = solve_mip(&wrapped, &search, &mut |_| {}).unwrap_or_else(|e| panic!("{e}: {puzzle:?}"));
        check(puzzle, truth, &outcome, &format!("MIP, puzzle {i}: {puzzle:?}"));
    }
}

fn check(puzzle: &TourPuzzle, truth: Option<TourOptimum>, outcome: &Outcome, context: &str) {
    match truth {
        None => assert_eq!(outcome.status, Status::Infeasible, "{context}"),
        Some(optimum) => {
            let expected = match puzzle.objective {
                TourObjective::Steps => optimum.steps,
                _ => optimum.moves,
            };
            assert_eq!((outcome.status, outcome.value), (Status::Optimal, Some(expected)), "{context}");
            let Some(Solution::Route(route)) = &outcome.solution else { panic!("no route: {context}") };
            replay_tour(puzzle, route).expect("the route is legal");
            if puzzle.objective == TourObjective::Steps {
                assert_eq!(route.moves(), optimum.moves, "fewest moves among the fewest steps: {context}");
            }
        }
    }
}

/// A board up to 5x5 with up to two static pieces (mostly queens), `knights` knights (fixed,
/// or choosing among a few squares) and up to ten targets; `None` if the parts clash.
fn random_puzzle(rng: &mut ChaCha8Rng, knights: usize, objective: TourObjective) -> Option<TourPuzzle> {
    let (w, h) = (rng.random_range(3..=5), rng.random_range(3..=5));
    let board = Board::new(w, h).unwrap();
    let squares: Vec<Square> = board.squares().collect();
    let pick = |rng: &mut ChaCha8Rng| squares[rng.random_range(0..squares.len())];
    let mut attackers = Vec::new();
    for _ in 0..rng.random_range(0..=2) {
        let kind = if rng.random_bool(0.7) { PieceKind::Queen } else { PieceKind::ALL[rng.random_range(0..6)] };
        attackers.push((kind, pick(rng)));
    }
    let probe = TourPuzzle::new(
        None,
        board.clone(),
        attackers.clone(),
        vec![KnightStart::OneOf(vec![])],
        None,
        VisitOrder::Any,
        objective,
    )
    .ok()?;
    let safe = probe.safe_squares();
    let safe_pick = |rng: &mut ChaCha8Rng| safe[rng.random_range(0..safe.len())];
    let starts: Vec<KnightStart> = (0..knights)
        .map(|_| {
            if rng.random_bool(0.2) {
                KnightStart::OneOf((0..3).map(|_| safe_pick(rng)).collect())
            } else {
                KnightStart::At(safe_pick(rng))
            }
        })
        .collect();
    let order = if rng.random_bool(0.3) { VisitOrder::Listed } else { VisitOrder::Any };
    let targets: Option<Vec<Square>> = if rng.random_bool(0.2) && safe.len() <= 10 {
        None
    } else {
        let mut targets: Vec<Square> = (0..rng.random_range(1..=6)).map(|_| safe_pick(rng)).collect();
        targets.dedup();
        let mut seen = Vec::new();
        targets.retain(|t| {
            if seen.contains(t) {
                false
            } else {
                seen.push(*t);
                true
            }
        });
        Some(targets)
    };
    let order = if targets.is_none() { VisitOrder::Any } else { order };
    TourPuzzle::new(None, board, attackers, starts, targets, order, objective).ok()
}

/// Compares `count` random puzzles from `seed`.
fn compare(seed: u64, knights: usize, objective: TourObjective, count: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut compared, mut skipped, mut infeasible) = (0, 0, 0);
    while compared < count {
        let Some(puzzle) = random_puzzle(&mut rng, knights, objective) else { continue };
        let Ok(truth) = optimal_tour(&puzzle, STATES) else {
            skipped += 1;
            continue;
        };
        infeasible += usize::from(truth.is_none());
        agree(&puzzle, truth, compared);
        compared += 1;
    }
    assert!(skipped < count / 10, "{skipped} puzzles too large for the exhaustive search");
    assert!(infeasible < count / 2, "{infeasible} of {count} puzzles infeasible: the sample tests too little");
    assert!(infeasible * 60 >= count, "{infeasible} of {count} puzzles infeasible: refutations go untested");
}

#[test]
fn a_lone_knight_agrees_with_exhaustive_search() {
    compare(0x746f_7572, 1, TourObjective::Moves, 220);
}

#[test]
fn two_knights_moving_one_at_a_time_agree() {
    compare(0x6b6e_6967_6874, 2, TourObjective::Moves, 120);
}

#[test]
fn two_knights_moving_together_agree_on_steps_then_moves() {
    compare(0x7374_6570, 2, TourObjective::Steps, 120);
}

/// `feasible` claims nothing it has not proved: its route is legal and never shorter than the
/// optimum, and it is called optimal only when it is.
#[test]
fn feasibility_only_finds_legal_routes() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x6665_6173);
    let mut compared = 0;
    while compared < 60 {
        let Some(puzzle) = random_puzzle(&mut rng, 1 + compared % 2, TourObjective::Feasible) else { continue };
        let Ok(Some(truth)) = optimal_tour(&puzzle, STATES) else { continue };
        let outcome = solve_tour(&puzzle, &search(compared), &mut |_| {}).expect("the search runs");
        let Some(Solution::Route(route)) = &outcome.solution else { panic!("no route for {puzzle:?}") };
        replay_tour(&puzzle, route).expect("the route is legal");
        assert!(route.moves() >= truth.moves);
        if outcome.status == Status::Optimal {
            assert_eq!(route.moves(), truth.moves, "{puzzle:?}");
        }
        compared += 1;
    }
}

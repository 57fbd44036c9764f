//! The SAT optimum of a tour against an exhaustive search over (knight squares, touched set),
//! written independently of the SAT code (`ground_truth::tour`), on random small puzzles; and
//! the formula of a horizon against every route a depth-first search finds (`formula`).

use knights_sat::driver::{solve_tour, Outcome, Solution, Status, TourSearch};
use knights_sat::encodings::check::replay_tour;
use knights_sat::encodings::encode::tour::TourOptions;
use knights_sat::encodings::encode::AtMostOne;
use knights_sat::encodings::geometry::{Board, PieceKind, Square};
use knights_sat::encodings::ground_truth::tour::{optimal_tour, TourOptimum};
use knights_sat::encodings::puzzle::tour::{KnightStart, TourObjective, TourPuzzle, VisitOrder};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "../common/mod.rs"]
mod common;
mod formula;

const STATES: usize = 3_000_000;

/// The search settings for the `i`-th comparison: the encoding choices rotate, so that every
/// redundant family is tested both on and off, incrementally and not, and on every third
/// comparison two threads ask horizons at once.
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
        threads: 1 + usize::from(i % 3 == 1),
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
/// choosing among a few squares, or free to start on any safe square) and up to ten targets;
/// `None` if the parts clash.
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
        .map(|_| match rng.random_range(0..10) {
            0..2 => KnightStart::OneOf((0..3).map(|_| safe_pick(rng)).collect()),
            2 => KnightStart::OneOf(Vec::new()),
            _ => KnightStart::At(safe_pick(rng)),
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

/// Whether some knight may start on squares of both colours (the colour count then depends on
/// the start the solver chooses).
fn mixed_colours(puzzle: &TourPuzzle) -> bool {
    puzzle.knights.iter().any(|knight| {
        let colours: Vec<usize> =
            knight.candidates().iter().map(|&s| (puzzle.board.file(s) + puzzle.board.rank(s)) % 2).collect();
        colours.iter().any(|&c| c != colours[0])
    })
}

/// Compares `count` random puzzles from `seed`.
fn compare(seed: u64, knights: usize, objective: TourObjective, count: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut compared, mut skipped, mut infeasible, mut mixed) = (0, 0, 0, 0);
    while compared < count {
        let Some(puzzle) = random_puzzle(&mut rng, knights, objective) else { continue };
        let Ok(truth) = optimal_tour(&puzzle, STATES) else {
            skipped += 1;
            continue;
        };
        infeasible += usize::from(truth.is_none());
        mixed += usize::from(truth.is_some() && mixed_colours(&puzzle));
        agree(&puzzle, truth, compared);
        compared += 1;
    }
    assert!(skipped < count / 10, "{skipped} puzzles too large for the exhaustive search");
    assert!(mixed * 8 >= count, "only {mixed} of {count} solvable puzzles let a knight start on either colour");
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

#[test]
fn three_knights_agree_with_both_objectives() {
    compare(0x0074_6872_6565, 3, TourObjective::Steps, 30);
    compare(0x0074_6872_6566, 3, TourObjective::Moves, 30);
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

/// Every choice of starting squares whose own optimum equals the puzzle's, by the exhaustive
/// search on each choice with the starts fixed (interchangeable knights' choices sorted).
fn optimal_starts(puzzle: &TourPuzzle, optimum: TourOptimum) -> Option<Vec<Vec<Square>>> {
    let mut choices: Vec<Vec<Square>> = vec![Vec::new()];
    for knight in &puzzle.knights {
        let candidates = match knight.candidates() {
            [] => puzzle.safe_squares(),
            some => some.to_vec(),
        };
        let mut longer = Vec::new();
        for choice in &choices {
            for &s in candidates.iter().filter(|s| !choice.contains(s)) {
                longer.push([choice.clone(), vec![s]].concat());
            }
        }
        choices = longer;
    }
    let mut optimal = Vec::new();
    for mut choice in choices {
        let fixed = TourPuzzle::new(
            None,
            puzzle.board.clone(),
            puzzle.attackers.clone(),
            choice.iter().map(|&s| KnightStart::At(s)).collect(),
            Some(puzzle.targets.clone()),
            puzzle.order,
            puzzle.objective,
        )
        .ok()?;
        let reaches = match optimal_tour(&fixed, STATES).ok()? {
            Some(found) if puzzle.objective == TourObjective::Steps => found == optimum,
            Some(found) => found.moves == optimum.moves,
            None => false,
        };
        if reaches {
            // Knights with the same candidates are interchangeable: one order per set.
            for k in 1..choice.len() {
                if puzzle.knights[k] == puzzle.knights[k - 1] && choice[k] < choice[k - 1] {
                    choice.swap(k, k - 1);
                }
            }
            optimal.push(choice);
        }
    }
    optimal.sort();
    optimal.dedup();
    Some(optimal)
}

/// `--list-starts`: the starts listed are exactly the choices whose own optimum is the
/// puzzle's, for a lone knight and for two knights with either objective.
#[test]
fn the_listed_starts_are_every_optimal_choice() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7374_6172_7473);
    let (mut compared, mut several) = (0, 0);
    while compared < 60 {
        let knights = 1 + compared % 2;
        let objective = if compared % 4 == 3 { TourObjective::Steps } else { TourObjective::Moves };
        let Some(puzzle) = random_puzzle(&mut rng, knights, objective) else { continue };
        if puzzle.knights.iter().all(|k| k.candidates().len() == 1) || puzzle.order == VisitOrder::Listed {
            continue;
        }
        let Ok(Some(optimum)) = optimal_tour(&puzzle, STATES) else { continue };
        let Some(truth) = optimal_starts(&puzzle, optimum) else { continue };
        let search = TourSearch { list_starts: true, ..search(compared) };
        let outcome = solve_tour(&puzzle, &search, &mut |_| {}).expect("the search runs");
        check(&puzzle, Some(optimum), &outcome, &format!("puzzle {compared}: {puzzle:?}"));
        let mut listed: Vec<Vec<Square>> = outcome
            .alternatives
            .iter()
            .map(|s| match s {
                Solution::Route(route) => {
                    replay_tour(&puzzle, route).expect("every listed route is legal");
                    assert_eq!(route.value(puzzle.objective), outcome.value.unwrap(), "{puzzle:?}");
                    route.starts.clone()
                }
                other => panic!("not a route: {other:?}"),
            })
            .collect();
        listed.sort();
        assert_eq!(listed, truth, "puzzle {compared}: {puzzle:?}");
        several += usize::from(truth.len() > 1);
        compared += 1;
    }
    assert!(several >= 15, "only {several} puzzles had several optimal starts");
}

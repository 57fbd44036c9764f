//! Tours: certified at the optimum of a breadth-first (or Dijkstra) search, the distance and
//! colour arguments checked line by line.

use std::path::Path;

use knights_sat::certify::{check, tour_certified, Argument, Bounds, Refuter};
use knights_sat::driver::{solve_tour, Solution, Status, TourSearch};
use knights_sat::encodings::geometry::{Board, PieceKind, Square};
use knights_sat::encodings::ground_truth::tour::optimal_tour;
use knights_sat::encodings::puzzle::tour::{KnightStart, Route, TourObjective, TourPuzzle, VisitOrder};
use knights_sat::encodings::puzzle::Puzzle;
use knights_sat::solver::SolverKind;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::common::Scratch;
use super::{certify_and_check, refuter, work_dir, write_proof, SEED};

/// A tour shipped with the project (`relative` to the repository) and the driver's optimal
/// route for it.
fn shipped_tour(relative: &str) -> (TourPuzzle, Route) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    let Puzzle::Tour(puzzle) = knights_sat::encodings::puzzle::load(&path).unwrap() else { panic!("a tour") };
    let route = optimal_route(&puzzle, 0);
    (puzzle, route)
}

/// A random tour: one or two knights (fixed, among a few squares, or free to start anywhere)
/// on a small board with at most one queen, a few targets in any or the listed order.
fn random_tour(rng: &mut ChaCha8Rng, objective: TourObjective) -> Option<TourPuzzle> {
    let mut board = Board::new(rng.random_range(4..=5), rng.random_range(4..=5)).unwrap();
    if rng.random_bool(0.3) {
        board.remove(Square(rng.random_range(0..board.area()) as u16));
    }
    let squares: Vec<Square> = board.squares().collect();
    let pick = |rng: &mut ChaCha8Rng| squares[rng.random_range(0..squares.len())];
    let attackers = if rng.random_bool(0.5) { vec![(PieceKind::Queen, pick(rng))] } else { Vec::new() };
    let knights: Vec<KnightStart> = (0..rng.random_range(1..=2))
        .map(|_| match rng.random_range(0..4) {
            0 => KnightStart::OneOf(Vec::new()),
            1 => KnightStart::OneOf((0..3).map(|_| pick(rng)).collect()),
            _ => KnightStart::At(pick(rng)),
        })
        .collect();
    let mut targets: Vec<Square> = Vec::new();
    for _ in 0..rng.random_range(2..=5) {
        let square = pick(rng);
        if !targets.contains(&square) {
            targets.push(square);
        }
    }
    let order = if rng.random_bool(0.4) { VisitOrder::Listed } else { VisitOrder::Any };
    TourPuzzle::new(None, board, attackers, knights, Some(targets), order, objective).ok()
}

/// The driver's optimal route for `puzzle` (the `i`-th drawn).
fn optimal_route(puzzle: &TourPuzzle, i: usize) -> Route {
    let search = TourSearch { solver: SolverKind::Varisat, ..TourSearch::default() };
    let outcome = solve_tour(puzzle, &search, &mut |_| {}).unwrap();
    let (Status::Optimal, Some(Solution::Route(route))) = (outcome.status, outcome.solution) else {
        panic!("puzzle {i}: the driver found no optimum")
    };
    route
}

/// Certifies `route` optimal with value `value` on the certified model of `puzzle` (the route
/// model of a listed order for the fewest moves, else the at-most model) and checks that VeriPB
/// concludes exactly that value; the directory of the proof.
fn certify_route(puzzle: &TourPuzzle, route: &Route, value: usize, name: &str, refuter: Refuter) -> Scratch {
    let (model, assignment, colour) = tour_certified(puzzle, route, value).unwrap();
    if puzzle.objective == TourObjective::Steps {
        assert!(!matches!(colour, Some(Argument::Lone(_))), "a lone knight's argument counts moves");
    }
    let dir = work_dir(name);
    let bounds = certify_and_check(&model, &assignment, &dir, colour.as_ref(), refuter);
    let value = value as i64;
    assert_eq!(bounds, Bounds { lower: value, upper: value }, "{name}: {puzzle:?}");
    dir
}

#[test]
fn tours_certified_at_the_breadth_first_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 1);
    let (mut certified, mut with_holes, mut either_colour, mut by_distance) = (0, 0, 0, 0);
    let mut several_by_distance = 0;
    for i in 0..120 {
        let Some(puzzle) = random_tour(&mut rng, TourObjective::Moves) else { continue };
        let Ok(Some(optimum)) = optimal_tour(&puzzle, 200_000) else { continue };
        let route = optimal_route(&puzzle, i);
        assert_eq!(route.moves(), optimum.moves, "puzzle {i}");
        let name = format!("tour-{i}");
        let dir = certify_route(&puzzle, &route, optimum.moves, &name, refuter(i));
        let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
        let distance = proof.contains("the distance argument");
        let listed = puzzle.order == VisitOrder::Listed;
        assert_eq!(distance, listed && optimum.moves > 0, "puzzle {i}: {puzzle:?}");
        several_by_distance += usize::from(distance && puzzle.knights.len() > 1);
        by_distance += usize::from(distance);
        certified += 1;
        with_holes += usize::from(puzzle.board.removed_squares().next().is_some());
        let colours = |k: &KnightStart| {
            let starts = if k.candidates().is_empty() { puzzle.safe_squares() } else { k.candidates().to_vec() };
            starts.iter().map(|&s| (puzzle.board.file(s) + puzzle.board.rank(s)) % 2).collect::<Vec<_>>()
        };
        let lone = puzzle.knights.len() == 1 && puzzle.order == VisitOrder::Any;
        either_colour += usize::from(lone && colours(&puzzle.knights[0]).windows(2).any(|w| w[0] != w[1]));
    }
    assert!(certified >= 50, "only {certified} tours were certified");
    assert!(either_colour >= 5, "only {either_colour} lone knights could start on either colour");
    assert!(with_holes >= 3, "only {with_holes} boards with a removed square were certified");
    assert!(by_distance >= 10, "only {by_distance} tours in the listed order were certified by distances");
    assert!(several_by_distance >= 3, "only {several_by_distance} of them had several knights");
}

/// Finegold's order (158 moves), certified by the distance argument on the route model; then
/// the same argument with the nodes 100 moves or more from the finish claimed one move
/// farther than they are, which VeriPB rejects.
#[test]
fn the_distance_argument_is_checked_and_a_bound_claimed_too_high_is_rejected() {
    let (puzzle, route) = shipped_tour("puzzles/finegold.toml");
    assert_eq!(route.moves(), 158, "the published answer");
    let name = "distance-finegold";
    let dir = certify_route(&puzzle, &route, 158, name, Refuter::Varisat);
    let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
    assert!(proof.contains("the distance argument: every route through the legs takes 158 moves"));
    let (model, assignment, argument) = tour_certified(&puzzle, &route, 158).unwrap();
    let Some(Argument::Distances(mut argument)) = argument else { panic!("no distance argument") };
    for distance in argument.to_finish.iter_mut().filter(|d| **d >= 100) {
        *distance += 1;
    }
    assert_eq!(argument.bound(), 159);
    let spoiled = Argument::Distances(argument);
    let dir = work_dir("distance-too-far");
    let (opb, pbp) = write_proof(&model, &assignment, &dir, Some(&spoiled), Refuter::Varisat);
    let checked = check(&opb, &pbp);
    assert!(checked.is_err(), "accepted targets claimed one move farther: {checked:?}");
}

#[test]
fn tours_of_the_steps_objective_certified_at_the_dijkstra_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 3);
    let (mut certified, mut together) = (0, 0);
    for i in 0..40 {
        let Some(puzzle) = random_tour(&mut rng, TourObjective::Steps) else { continue };
        let Ok(Some(optimum)) = optimal_tour(&puzzle, 200_000) else { continue };
        let route = optimal_route(&puzzle, i);
        assert_eq!(route.time_steps(), optimum.steps, "puzzle {i}");
        certify_route(&puzzle, &route, optimum.steps, &format!("steps-{i}"), refuter(i));
        certified += 1;
        together += usize::from(route.steps.iter().any(|step| step.len() > 1));
    }
    assert!(
        certified >= 15 && together >= 3,
        "only {certified} tours certified, {together} with knights jumping together"
    );
}

/// Two or three knights from fixed starts on a 4x4 or 5x4 board, most targets of one colour:
/// the tours the colour count may decide.
fn random_crowded_tour(rng: &mut ChaCha8Rng, objective: TourObjective) -> Option<TourPuzzle> {
    // Three knights on 4x4, two on up to 5x4: small enough for the exhaustive search.
    let three = rng.random_bool(0.3);
    let board = Board::new(if three { 4 } else { rng.random_range(4..=5) }, 4).unwrap();
    let mut free: Vec<Square> = board.squares().collect();
    let colour = |s: Square| (board.file(s) + board.rank(s)) % 2;
    let mut knights = Vec::new();
    for _ in 0..if three { 3 } else { 2 } {
        knights.push(KnightStart::At(free.swap_remove(rng.random_range(0..free.len()))));
    }
    let crowded = rng.random_range(0..2);
    let mut targets: Vec<Square> = Vec::new();
    for square in free {
        let odds = if colour(square) == crowded { 0.6 } else { 0.1 };
        if rng.random_bool(odds) {
            targets.push(square);
        }
    }
    TourPuzzle::new(None, board, Vec::new(), knights, Some(targets), VisitOrder::Any, objective).ok()
}

#[test]
fn tours_of_several_knights_certified_by_the_colour_count_at_the_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 5);
    let (mut certified, mut counted) = ([0, 0], [0, 0]);
    for i in 0..50 {
        let objective = if i % 2 == 0 { TourObjective::Moves } else { TourObjective::Steps };
        let Some(puzzle) = random_crowded_tour(&mut rng, objective) else { continue };
        let Ok(Some(optimum)) = optimal_tour(&puzzle, 100_000) else { continue };
        let value = if objective == TourObjective::Moves { optimum.moves } else { optimum.steps };
        let route = optimal_route(&puzzle, i);
        let name = format!("crowded-{i}");
        let dir = certify_route(&puzzle, &route, value, &name, refuter(i));
        let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
        certified[i % 2] += 1;
        counted[i % 2] += usize::from(proof.contains("the colour count"));
    }
    // Each objective: certified often, and decided by the count in some but not all.
    for (objective, (&certified, &counted)) in ["moves", "steps"].iter().zip(certified.iter().zip(&counted)) {
        assert!(certified >= 15, "{objective}: only {certified} tours certified");
        assert!(counted >= 3 && counted < certified, "{objective}: {counted} of {certified} decided by the count");
    }
}

/// The colour count of two knights around a queen on d5 of 8x8 (22 time steps, their landings
/// on the colour of their starts too few in 21): checked, then rejected with the
/// objective-improving constraint left out of its last line, or with one step's colour
/// change not halved.
#[test]
fn the_colour_count_is_checked_line_by_line() {
    let (puzzle, route) = shipped_tour("puzzles/bench-tours/queen-d5-two-knights-steps.toml");
    assert_eq!(route.time_steps(), 22, "the suite's optimum");
    let name = "count-d5";
    let dir = certify_route(&puzzle, &route, 22, name, Refuter::Varisat);
    let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
    assert!(proof.contains("the colour count"), "not decided by the count");
    let spoiled = |change: &dyn Fn(&str) -> Option<String>| {
        let mut done = false;
        let text: String = proof
            .lines()
            .map(|line| match (done, change(line)) {
                (false, Some(new)) => {
                    done = true;
                    new
                }
                _ => line.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n";
        assert!(done, "nothing to spoil");
        std::fs::write(dir.join("proof.pbp"), text).unwrap();
        check(&dir.join("model.opb"), &dir.join("proof.pbp"))
    };
    // Each knight's line adds the objective-improving constraint (the first after the
    // model's `f` rows), then halves.
    let f: usize = proof.lines().nth(1).unwrap().trim_start_matches("f ").trim().parse().unwrap();
    let improving = format!(" {} + 2 d", f + 1);
    let without_objective = spoiled(&|line: &str| {
        let rest = line.strip_prefix("pol ")?.strip_suffix(improving.as_str())?;
        Some(format!("pol {rest} 2 d"))
    });
    assert!(without_objective.is_err(), "accepted without the objective: {without_objective:?}");
    let not_halved = spoiled(&|line: &str| line.strip_suffix(" + 2 d").map(|rest| format!("{rest} +")));
    assert!(not_halved.is_err(), "accepted a change of colour not halved: {not_halved:?}");
}

//! Certificates against breadth-first search: on random small exchanges and tours, the
//! certified models (at most `T` moves, moves minimised) have exactly the optimum that a search
//! sharing no code with them finds, and VeriPB checks the proof of it.
//!
//! For exchanges the solution certified is the breadth-first search's own, so neither the SAT
//! driver nor its encodings are involved; for tours it is the driver's, whose value the search
//! confirms. Placements with weights, limits, fixed pieces and empty squares go through the
//! whole of `certify` and `verify`, at the optimum of the exhaustive search, both through the
//! refutation of the certificate pipeline and from the branch-and-bound search's own tree.

mod common;

use std::path::Path;

use common::random::{random_exchange, random_placement};

use knights_sat::certify::{
    certify, certify_with, check, prove_optimal, prove_optimal_until, tour_certified, verify, Argument, Bounds,
    CanonicalOrder, CanonicalOrderUse, CertifyError, ProofCompression, ProofOptions, Refuter, Speculation,
};
use knights_sat::driver::{
    placement_has_tree, solve_placement, solve_tour, Event, Ingredients, PlacementSearch, Query, Solution, Status,
    StepStats, Strategy, TourSearch, TreeProof,
};
use knights_sat::encodings::geometry::{Board, PawnDirection, PieceKind, Square};
use knights_sat::encodings::ground_truth::exchange::shortest_route;
use knights_sat::encodings::ground_truth::placement::optimal_placement;
use knights_sat::encodings::ground_truth::tour::optimal_tour;
use knights_sat::encodings::linear::{exchange_model_at_most, write_opb, LinearModel};
use knights_sat::encodings::puzzle::placement::{KindRule, PlacementGoal, PlacementPuzzle};
use knights_sat::encodings::puzzle::tour::{KnightStart, Route, TourObjective, TourPuzzle, VisitOrder};
use knights_sat::encodings::puzzle::{to_toml, ExchangePuzzle, Puzzle};
use knights_sat::solver::SolverKind;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SEED: u64 = 0x0063_6572_7469_6679;

/// The refuter of the `i`-th puzzle of a test: CaDiCaL and varisat in turn, so that both
/// traces are checked.
fn refuter(i: usize) -> Refuter {
    if i % 2 == 0 {
        Refuter::Cadical
    } else {
        Refuter::Varisat
    }
}

/// Proves `assignment` optimal for `model` by `refuter` and checks the proof with VeriPB.
fn certify_and_check(
    model: &LinearModel,
    assignment: &[bool],
    dir: &Path,
    colour: Option<&Argument>,
    refuter: Refuter,
) -> Bounds {
    let (opb, pbp) = write_proof(model, assignment, dir, colour, refuter);
    check(&opb, &pbp).expect("VeriPB accepts the proof")
}

/// Writes `model.opb` and the proof that `assignment` is optimal for `model` into `dir`,
/// unchecked: their paths.
fn write_proof(
    model: &LinearModel,
    assignment: &[bool],
    dir: &Path,
    colour: Option<&Argument>,
    refuter: Refuter,
) -> (std::path::PathBuf, std::path::PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let (opb, pbp) = (dir.join("model.opb"), dir.join("proof.pbp"));
    let mut text = Vec::new();
    write_opb(model, &mut text).unwrap();
    std::fs::write(&opb, text).unwrap();
    let file = std::io::BufWriter::new(std::fs::File::create(&pbp).unwrap());
    prove_optimal(model, assignment, colour, refuter, file).expect("a proof is written");
    (opb, pbp)
}

/// A tour shipped with the project (`relative` to the repository) and the driver's optimal
/// route for it.
fn shipped_tour(relative: &str) -> (TourPuzzle, Route) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    let Puzzle::Tour(puzzle) = knights_sat::encodings::puzzle::load(&path).unwrap() else { panic!("a tour") };
    let route = optimal_route(&puzzle, 0);
    (puzzle, route)
}

fn work_dir(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("knights-sat-certify-diff-{}-{name}", std::process::id()))
}

#[test]
fn exchanges_certified_at_the_breadth_first_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let (mut certified, mut with_holes, mut swaps) = (0, 0, 0);
    for i in 0..40 {
        let puzzle = random_exchange(&mut rng);
        let Ok(Some(moves)) = shortest_route(&puzzle, 100_000) else { continue };
        if moves.len() > 12 {
            continue;
        }
        let cap = exchange_model_at_most(&puzzle, moves.len());
        let assignment = cap.assignment(&puzzle, &moves).unwrap();
        let bounds = certify_and_check(&cap.model, &assignment, &work_dir(&format!("exchange-{i}")), None, refuter(i));
        let value = moves.len() as i64;
        assert_eq!(bounds, Bounds { lower: value, upper: value }, "puzzle {i}: {puzzle:?}");
        // Every other puzzle again with the canonical order of moves stated by dominance, by
        // the other refuter.
        if i % 2 == 1 {
            let order = canonical_order(&puzzle, moves.len());
            swaps += order.swaps.len();
            let dir = work_dir(&format!("exchange-{i}-swaps"));
            let swapped = Some(&Argument::Swaps(order));
            let bounds = certify_and_check(&cap.model, &assignment, &dir, swapped, refuter(i + 1));
            assert_eq!(bounds, Bounds { lower: value, upper: value }, "puzzle {i} with swaps: {puzzle:?}");
        }
        certified += 1;
        with_holes += usize::from(puzzle.board.removed_squares().next().is_some());
    }
    assert!(certified >= 15, "only {certified} puzzles had a short enough optimum");
    assert!(with_holes >= 3, "only {with_holes} boards with a removed square were certified");
    assert!(swaps >= 100, "only {swaps} swaps of moves were stated by dominance");
}

/// The events of a horizon search that proves `0..optimum` unreachable and then asks about the
/// optimum, as a [`Speculation`] sees them.
fn horizon_events(optimum: usize) -> Vec<Event> {
    let mut events = Vec::new();
    for horizon in 0..optimum {
        events.push(Event::Trying { horizon, query: Query::Goal });
        events.push(Event::Step(StepStats::proved_unsat(horizon, Query::Goal)));
    }
    events.push(Event::Trying { horizon: optimum, query: Query::Goal });
    events
}

/// Certificates begun during the search: fed the events of a horizon search that ends at the
/// breadth-first optimum, the speculation proves the lower bound under the assumption "the last
/// step makes no move" before the solution is known, then finishes the proof with it; VeriPB
/// checks it, with and without the canonical order of moves.
#[test]
fn exchanges_certified_while_the_search_runs_at_the_breadth_first_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 7);
    let mut certified = 0;
    for i in 0..30 {
        let puzzle = random_exchange(&mut rng);
        let Ok(Some(moves)) = shortest_route(&puzzle, 100_000) else { continue };
        if moves.is_empty() || moves.len() > 12 {
            continue;
        }
        let value = moves.len();
        let cap = exchange_model_at_most(&puzzle, value);
        let assignment = cap.assignment(&puzzle, &moves).unwrap();
        let dir = work_dir(&format!("ahead-{i}"));
        let canonical_order = if i % 2 == 1 { CanonicalOrderUse::Always } else { CanonicalOrderUse::Never };
        let options = ProofOptions { compression: ProofCompression::None, canonical_order };
        let wrapped = Puzzle::Exchange(puzzle.clone());
        let speculation = Speculation::start(&wrapped, &dir, options).expect("exchanges are certified ahead");
        for event in horizon_events(value) {
            speculation.observe(&event);
        }
        let (stored, figures) = speculation
            .finish(Some((value, assignment)))
            .expect("the lane of the last unreachable horizon")
            .expect("its proof");
        assert!(figures.ahead, "puzzle {i}");
        let opb = dir.join("model.opb");
        let mut text = Vec::new();
        write_opb(&cap.model, &mut text).unwrap();
        std::fs::write(&opb, text).unwrap();
        let bounds = check(&opb, &stored.path).expect("VeriPB accepts the proof");
        let value = value as i64;
        assert_eq!(bounds, Bounds { lower: value, upper: value }, "puzzle {i}: {puzzle:?}");
        let lanes = std::fs::read_dir(&dir).unwrap().filter(|e| e.as_ref().unwrap().file_type().unwrap().is_dir());
        assert_eq!(lanes.count(), 0, "puzzle {i}: a lane's folder was left behind");
        certified += 1;
    }
    assert!(certified >= 10, "only {certified} puzzles had a short enough optimum");
}

/// The canonical order of `puzzle`'s moves in its model of at most `cap` moves.
fn canonical_order(puzzle: &ExchangePuzzle, cap: usize) -> CanonicalOrder {
    CanonicalOrder::of(puzzle, &exchange_model_at_most(puzzle, cap))
}

/// Guarini's puzzle with the canonical order of its moves: VeriPB checks every swap against
/// the rows it touches, the bits of the keys and the potential it lowers, so a witness that
/// leaves a square out or sets a bit wrong, or a potential that a swap raises, is rejected.
#[test]
fn a_swap_of_moves_is_checked_against_its_rows_and_the_potential() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/guarini.toml");
    let Puzzle::Exchange(puzzle) = knights_sat::encodings::puzzle::load(&path).unwrap() else { panic!("an exchange") };
    let moves = shortest_route(&puzzle, 100_000).unwrap().expect("a route");
    let cap = exchange_model_at_most(&puzzle, moves.len());
    let assignment = cap.assignment(&puzzle, &moves).unwrap();
    let order = canonical_order(&puzzle, moves.len());
    assert!(order.swaps.len() > 1000, "only {} swaps", order.swaps.len());
    let dir = work_dir("guarini-swaps");
    let bounds = certify_and_check(&cap.model, &assignment, &dir, Some(&Argument::Swaps(order)), Refuter::Cadical);
    assert_eq!(bounds, Bounds { lower: 16, upper: 16 });
    let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
    let opb = dir.join("model.opb");
    let rejected = |name: &str, text: String| {
        let pbp = dir.join(name);
        std::fs::write(&pbp, text).unwrap();
        assert!(check(&opb, &pbp).is_err(), "VeriPB accepted {name}");
    };
    // The last square of the first swap's witness left out (its eighth mapping, after the four
    // moves and three squares; the bits of the steps' keys follow): the swapped sequence breaks
    // a row.
    let first = proof.lines().find(|l| l.starts_with("dom ")).expect("a swap").to_string();
    let (clause, witness) = first.split_once(" ; ").expect("a witness");
    let mut mappings: Vec<&str> = witness.split(" x").collect();
    assert!(mappings.len() > 8, "{first}");
    mappings.remove(7);
    rejected("cut-witness.pbp", proof.replacen(&first, &format!("{clause} ; {}", mappings.join(" x")), 1));
    // The last bit of a step's key set wrong in the first swap's witness: the bit's definition
    // breaks.
    let flipped = match first.strip_suffix(" -> 0") {
        Some(rest) => format!("{rest} -> 1"),
        None => format!("{} -> 0", first.strip_suffix(" -> 1").expect("a constant")),
    };
    rejected("flipped-bit.pbp", proof.replacen(&first, &flipped, 1));
    // The potential negated: every swap raises it.
    let mut lines = proof.lines();
    lines.find(|l| l.trim() == "def").expect("the order's definition");
    let definition = lines.next().expect("the potential").to_string();
    let negated: String = definition
        .split(' ')
        .map(|w| match w.parse::<i64>() {
            Ok(c) if c != 0 => (-c).to_string(),
            _ => w.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    rejected("raised-potential.pbp", proof.replacen(&definition, &negated, 1));
}

/// Guarini's puzzle: CaDiCaL derives units while its input is still being added (the start
/// and goal are fixed by unit rows), so its lemmas and the inputs share numbers; both traces
/// must still name every input right, and VeriPB check the optimum 16.
#[test]
fn guarinis_exchange_is_refuted_by_either_solver_with_every_hint_named() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/guarini.toml");
    let Puzzle::Exchange(puzzle) = knights_sat::encodings::puzzle::load(&path).unwrap() else { panic!("an exchange") };
    let moves = shortest_route(&puzzle, 100_000).unwrap().expect("a route");
    assert_eq!(moves.len(), 16, "the published optimum");
    let cap = exchange_model_at_most(&puzzle, moves.len());
    let assignment = cap.assignment(&puzzle, &moves).unwrap();
    for refuter in [Refuter::Cadical, Refuter::Varisat] {
        let dir = work_dir(&format!("guarini-{refuter:?}"));
        let bounds = certify_and_check(&cap.model, &assignment, &dir, None, refuter);
        assert_eq!(bounds, Bounds { lower: 16, upper: 16 }, "{refuter:?}");
        let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
        let lemmas: Vec<&str> = proof.lines().filter(|l| l.starts_with("rup")).collect();
        assert!(lemmas.len() > 1000, "{refuter:?}: only {} lemmas", lemmas.len());
        let unhinted = lemmas.iter().filter(|l| !l.contains(" ; ") || l.trim_end().ends_with(';')).count();
        assert!(unhinted <= 1, "{refuter:?}: {unhinted} lemmas without hints");
    }
}

/// A refutation raced by another stops once the other has finished: with the flag set from
/// the start, neither solver writes its refutation, and both say they were stopped (the race
/// of `solve --certify` would otherwise wait for the loser, or keep a second proof).
#[test]
fn a_refutation_stops_once_its_rival_has_finished() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/guarini.toml");
    let Puzzle::Exchange(puzzle) = knights_sat::encodings::puzzle::load(&path).unwrap() else { panic!("an exchange") };
    let moves = shortest_route(&puzzle, 100_000).unwrap().expect("a route");
    let cap = exchange_model_at_most(&puzzle, moves.len());
    let assignment = cap.assignment(&puzzle, &moves).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(true);
    for refuter in [Refuter::Cadical, Refuter::Varisat] {
        let mut proof = Vec::new();
        let answer = prove_optimal_until(&cap.model, &assignment, None, refuter, &mut proof, &stop);
        assert!(matches!(answer, Err(CertifyError::Stopped)), "{refuter:?}: {answer:?}");
        let text = String::from_utf8(proof).unwrap();
        let lemmas = text.lines().filter(|l| l.starts_with("rup")).count();
        assert!(lemmas < 1000, "{refuter:?} went on for {lemmas} lemmas after it was stopped");
    }
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
/// concludes exactly that value.
fn certify_route(puzzle: &TourPuzzle, route: &Route, value: usize, name: &str, refuter: Refuter) {
    let (model, assignment, colour) = tour_certified(puzzle, route, value).unwrap();
    if puzzle.objective == TourObjective::Steps {
        assert!(!matches!(colour, Some(Argument::Lone(_))), "a lone knight's argument counts moves");
    }
    let bounds = certify_and_check(&model, &assignment, &work_dir(name), colour.as_ref(), refuter);
    let value = value as i64;
    assert_eq!(bounds, Bounds { lower: value, upper: value }, "{name}: {puzzle:?}");
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
        certify_route(&puzzle, &route, optimum.moves, &name, refuter(i));
        let proof = std::fs::read_to_string(work_dir(&name).join("proof.pbp")).unwrap();
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
    certify_route(&puzzle, &route, 158, name, Refuter::Varisat);
    let proof = std::fs::read_to_string(work_dir(name).join("proof.pbp")).unwrap();
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
        certify_route(&puzzle, &route, value, &name, refuter(i));
        let proof = std::fs::read_to_string(work_dir(&name).join("proof.pbp")).unwrap();
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
    certify_route(&puzzle, &route, 22, name, Refuter::Varisat);
    let dir = work_dir(name);
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

#[test]
fn weighted_placements_certified_at_the_exhaustive_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 2);
    let search = PlacementSearch { solver: SolverKind::Varisat, ..PlacementSearch::default() };
    let (mut certified, mut weighted) = (0, 0);
    for i in 0..150 {
        let Some(puzzle) = random_placement(&mut rng) else { continue };
        let Ok(Some(optimum)) = optimal_placement(&puzzle, 2_000_000) else { continue };
        let outcome = solve_placement(&puzzle, &search, &mut |_| {}).unwrap();
        let (Status::Optimal, Some(solution), Some(value)) = (outcome.status, outcome.solution, outcome.value) else {
            panic!("puzzle {i}: the driver found no optimum: {puzzle:?}")
        };
        assert_eq!(value, optimum, "puzzle {i}: {puzzle:?}");
        let dir = work_dir(&format!("placement-{i}"));
        let _ = std::fs::remove_dir_all(&dir);
        let puzzle = Puzzle::Placement(puzzle);
        certify(&puzzle, &to_toml(&puzzle), &solution, value, &dir, ProofCompression::None)
            .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"));
        let verification = verify(&dir).unwrap();
        assert!(verification.passed(), "puzzle {i}: {:?}: {puzzle:?}", verification.checks);
        certified += 1;
        weighted += usize::from(puzzle.placement().unwrap().kinds.iter().any(|r| r.weight > 1));
    }
    assert!(certified >= 80 && weighted >= 50, "only {certified} placements were certified, {weighted} weighted");
}

/// A random placement on a board of 5x5 to 7x7 (one kind, a square or two removed, any goal):
/// large enough that the branch-and-bound tree branches.
fn random_larger_placement(rng: &mut ChaCha8Rng) -> PlacementPuzzle {
    let side = rng.random_range(5..=7);
    let mut board = Board::new(side, side).unwrap();
    for _ in 0..rng.random_range(0..=2) {
        board.remove(Square(rng.random_range(0..board.area()) as u16));
    }
    let kind = [PieceKind::Knight, PieceKind::King, PieceKind::Queen, PieceKind::Bishop][rng.random_range(0..4)];
    let goal = PlacementGoal::ALL[rng.random_range(0..PlacementGoal::ALL.len())];
    let rule = KindRule { kind, min: 0, max: None, weight: 1 };
    PlacementPuzzle::new(None, board, goal, vec![rule], PawnDirection::Up, Vec::new(), Vec::new()).unwrap()
}

#[test]
fn placements_certified_from_the_branch_and_bound_tree_at_the_exhaustive_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 3);
    let (mut certified, mut branched, mut with_cuts, mut maximised) = (0, 0, 0, 0);
    let (mut replayed, mut skipped, mut by_red, mut needed, mut unwitnessed) = (0, 0, 0, 0, 0);
    for i in 0..160 {
        let puzzle = if i % 3 == 0 {
            let Some(puzzle) = random_placement(&mut rng) else { continue };
            puzzle
        } else {
            random_larger_placement(&mut rng)
        };
        if !placement_has_tree(&puzzle) {
            continue;
        }
        let Ok(Some(optimum)) = optimal_placement(&puzzle, 2_000_000) else { continue };
        // One thread or two, with every ingredient or with cuts or reduced costs off; the
        // symmetries on, so that orbital fixing is stated (by `red`, or by replays).
        let ingredients =
            Ingredients { certify: true, cuts: i % 3 != 1, reduced_costs: i % 3 != 2, ..Ingredients::default() };
        let search = PlacementSearch {
            strategy: Strategy::BranchAndBound,
            ingredients,
            threads: 1 + i % 2,
            ..Default::default()
        };
        let mut tree = None;
        let outcome = solve_placement(&puzzle, &search, &mut |event| {
            if let Event::TreeProof(logged) = event {
                tree = Some(logged.clone());
            }
        })
        .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"));
        let (Status::Optimal, Some(solution), Some(value)) = (outcome.status, outcome.solution, outcome.value) else {
            panic!("puzzle {i}: the search found no optimum: {puzzle:?}")
        };
        assert_eq!(value, optimum, "puzzle {i}: {puzzle:?}");
        let tree = tree.unwrap_or_else(|| panic!("puzzle {i}: a certified search logs its tree"));
        let dir = work_dir(&format!("tree-{i}"));
        let _ = std::fs::remove_dir_all(&dir);
        let wrapped = Puzzle::Placement(puzzle.clone());
        let certificate =
            certify_with(&wrapped, &to_toml(&wrapped), &solution, value, &dir, ProofCompression::None, Some(&tree))
                .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"));
        assert!(certificate.figures.from_search, "puzzle {i}");
        let verification = verify(&dir).unwrap();
        assert!(verification.passed(), "puzzle {i}: {:?}: {puzzle:?}", verification.checks);
        let proof_path = dir.join("proof.pbp");
        let proof = std::fs::read_to_string(&proof_path).unwrap();
        by_red += usize::from(proof.contains("\nred "));
        // The first orbital fixing by `red` that propagation alone does not give: written as
        // `rup`, without its symmetry, VeriPB refuses it. On a puzzle that maximises, a witness
        // that only empties the image square instead of mapping the board onto itself makes the
        // objective worse, and VeriPB refuses that too. (Where the clause follows by
        // propagation, any witness passes, rightly; and emptying a square can be a sound
        // witness where the piece there covers nothing the node's pieces do not.)
        let reds: Vec<&str> = proof.lines().filter(|line| line.starts_with("red ")).take(4).collect();
        for line in reds.into_iter().filter(|_| needed < 5 || unwitnessed < 5) {
            let (clause, _) = line.split_once(" ; ").unwrap();
            let rup = proof.replacen(line, &format!("rup{} ;", &clause[3..]), 1);
            std::fs::write(&proof_path, rup).unwrap();
            if verify(&dir).unwrap().passed() {
                continue;
            }
            needed += 1;
            if !puzzle.goal.minimises() {
                let image = clause.split(' ').rev().nth(2).unwrap().trim_start_matches('~');
                let tampered = proof.replacen(line, &format!("{clause} ; {image} -> 0"), 1);
                std::fs::write(&proof_path, tampered).unwrap();
                let verification = verify(&dir).unwrap();
                assert!(!verification.passed(), "puzzle {i}: a symmetry step with a wrong witness passed: {puzzle:?}");
                assert!(verification.checks[2].message.contains("VeriPB rejects"), "{:?}", verification.checks);
                unwitnessed += 1;
            }
            break;
        }
        let _ = std::fs::remove_dir_all(&dir);
        if !tree.orbits.is_empty() && skipped < 5 {
            // The same tree without the steps that state the orbital fixings: the images'
            // children are never closed, and VeriPB refuses. (Where propagation closes them
            // anyway — the node's bounds already empty the images — the proof passes, rightly;
            // the count below needs five refusals.)
            let skipping = TreeProof { orbits: Vec::new(), ..(*tree).clone() };
            certify_with(&wrapped, &to_toml(&wrapped), &solution, value, &dir, ProofCompression::None, Some(&skipping))
                .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"));
            let verification = verify(&dir).unwrap();
            if !verification.passed() {
                assert!(verification.checks[2].message.contains("VeriPB rejects"), "{:?}", verification.checks);
                skipped += 1;
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
        certified += 1;
        replayed += usize::from(!tree.orbits.is_empty());
        branched += usize::from(tree.combinations.iter().any(|c| !c.path.is_empty()));
        with_cuts += usize::from(!tree.kept.is_empty());
        maximised += usize::from(!puzzle.goal.minimises());
    }
    assert!(
        certified >= 100
            && branched >= 25
            && with_cuts >= 20
            && maximised >= 20
            && replayed >= 10
            && skipped == 5
            && by_red >= 5
            && needed >= 5
            && unwitnessed >= 3,
        "only {certified} certified, {branched} with a tree that branched, {with_cuts} with cuts, {maximised} \
         maximised, {replayed} with orbital fixing, {skipped} refused without it, {by_red} with orbital fixing \
         by red, {needed} refused without a red step's symmetry, {unwitnessed} with a wrong witness"
    );
}

/// A random independence puzzle of several kinds without count limits on a board of 4x4 to
/// 6x6: kinds that dominate others on a square, and groups of softs of which at most one holds.
fn random_mixed_independence(rng: &mut ChaCha8Rng) -> PlacementPuzzle {
    let side = rng.random_range(4..=6);
    let board = Board::new(side, rng.random_range(4..=side)).unwrap();
    let mut kinds: Vec<PieceKind> = Vec::new();
    for _ in 0..rng.random_range(2..=4) {
        let kind = PieceKind::ALL[rng.random_range(0..PieceKind::ALL.len())];
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let rules =
        kinds.iter().map(|&kind| KindRule { kind, min: 0, max: None, weight: rng.random_range(1..=2) }).collect();
    let pawns = if rng.random_bool(0.5) { PawnDirection::Up } else { PawnDirection::Down };
    PlacementPuzzle::new(None, board, PlacementGoal::Independence, rules, pawns, Vec::new(), Vec::new()).unwrap()
}

/// The certified core-guided search proves the exhaustive optimum as it runs, on small puzzles
/// of every goal (weights, count limits whose rows need totalizers of their own, empty and fixed
/// squares) and on larger independence puzzles
/// of several kinds; VeriPB accepts each proof, and refuses one whose final sum leaves out a
/// reason, whose conclusion claims one more than was proved, or that rules a kind out without
/// the trade that justifies it.
#[test]
fn placements_certified_by_the_core_guided_search_as_it_runs() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 4);
    let search = PlacementSearch { strategy: Strategy::CoreGuided, ..PlacementSearch::default() };
    let (mut certified, mut totalizers, mut groups, mut traded, mut covering) = (0, 0, 0, 0, 0);
    let (mut tampered, mut untraded, mut limited) = (0, 0, 0);
    for i in 0..140 {
        let puzzle = if i % 2 == 0 {
            let Some(puzzle) = random_placement(&mut rng) else { continue };
            puzzle
        } else {
            random_mixed_independence(&mut rng)
        };
        if !knights_sat::certify::core_guided::applies(&puzzle, &search) {
            continue;
        }
        let Ok(Some(optimum)) = optimal_placement(&puzzle, 2_000_000) else { continue };
        let dir = work_dir(&format!("core-guided-{i}"));
        let _ = std::fs::remove_dir_all(&dir);
        let wrapped = Puzzle::Placement(puzzle.clone());
        let certificate = knights_sat::certify::certify_core_guided(
            &wrapped,
            &to_toml(&wrapped),
            &dir,
            ProofCompression::None,
            &mut |_| {},
        )
        .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"));
        let Some(certificate) = certificate else {
            assert!(puzzle.goal.covers(), "puzzle {i}: no placement of an independence puzzle: {puzzle:?}");
            continue;
        };
        assert_eq!(certificate.value, optimum, "puzzle {i}: {puzzle:?}");
        let verification = verify(&dir).unwrap();
        assert!(verification.passed(), "puzzle {i}: {:?}: {puzzle:?}", verification.checks);
        let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
        certified += 1;
        totalizers += usize::from(proof.contains("a totalizer over a core"));
        groups += usize::from(proof.contains("softs of which at most one holds"));
        traded += usize::from(proof.contains("kinds an optimal placement never needs"));
        covering += usize::from(puzzle.goal.covers());
        limited += usize::from(puzzle.kinds.iter().any(|r| r.min > 1 || r.max.is_some_and(|m| m > 1)));
        // The final sum is the last `pol` line: without its last reason it proves one less.
        let lines: Vec<&str> = proof.lines().collect();
        let last = lines.iter().rposition(|l| l.starts_with("pol ")).unwrap();
        let terms: Vec<&str> = lines[last].split_whitespace().collect();
        if tampered < 6 && terms.len() > 2 {
            // Its last term: `id +`, or `id weight * +`.
            let cut = if terms[terms.len() - 2] == "*" { 4 } else { 2 };
            let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            edited[last] = terms[..terms.len() - cut].join(" ");
            std::fs::write(dir.join("proof.pbp"), edited.join("\n") + "\n").unwrap();
            let verification = verify(&dir).unwrap();
            assert!(!verification.passed(), "puzzle {i}: a sum without one reason passed: {puzzle:?}");
            // The conclusion claiming one more than the objective value logged.
            let at = lines.iter().position(|l| l.starts_with("conclusion BOUNDS")).unwrap();
            let numbers: Vec<&str> = lines[at].split_whitespace().collect();
            let lower: i64 = numbers[2].parse().unwrap();
            let mut claimed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            claimed[at] = lines[at].replacen(&format!("BOUNDS {lower}"), &format!("BOUNDS {}", lower + 1), 1);
            std::fs::write(dir.join("proof.pbp"), claimed.join("\n") + "\n").unwrap();
            let verification = verify(&dir).unwrap();
            assert!(!verification.passed(), "puzzle {i}: a bound one too high passed: {puzzle:?}");
            tampered += 1;
        }
        if untraded < 3 && proof.contains("kinds an optimal placement never needs") {
            // A kind ruled out without the trade that keeps the placement's value: the witness
            // only removes the piece, which loses its weight, and VeriPB refuses the step.
            let at = lines.iter().position(|l| l.starts_with("red 1 ~x") && l.ends_with("-> 1")).unwrap();
            let tokens: Vec<&str> = lines[at].split_whitespace().collect();
            let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            edited[at] = tokens[..tokens.len() - 3].join(" ");
            std::fs::write(dir.join("proof.pbp"), edited.join("\n") + "\n").unwrap();
            let verification = verify(&dir).unwrap();
            assert!(!verification.passed(), "puzzle {i}: a kind ruled out without its trade passed: {puzzle:?}");
            untraded += 1;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        certified >= 80
            && totalizers >= 40
            && groups >= 40
            && traded >= 20
            && covering >= 20
            && limited >= 10
            && tampered == 6
            && untraded == 3,
        "only {certified} certified, {totalizers} with a totalizer, {groups} with a group, {traded} with kinds \
         traded, {covering} covering, {limited} with count limits, {tampered} tampered, {untraded} without a trade"
    );
}

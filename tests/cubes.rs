//! Cube and conquer: the cubes of a split, each searched on its own, add up to the optimum
//! of an exhaustive search written from the rules (placements) or of a breadth-first search
//! over positions (exchanges); and a job directory written by `split` runs, resumes after a
//! lost cube and merges through the binary.

mod common;

use std::path::PathBuf;

use common::knights_sat;
use knights_sat::certify::{certify_with, verify, ProofCompression};
use knights_sat::cubes::{solve_path_cube, solve_position_cube, split_exchange, split_tour};
use knights_sat::driver::{placement_has_tree, solve_cube, split, Event, Ingredients, Solution};
use knights_sat::encodings::geometry::{Board, PawnDirection, Piece, PieceKind, Square};
use knights_sat::encodings::ground_truth::exchange::shortest_exchange;
use knights_sat::encodings::ground_truth::placement::optimal_placement;
use knights_sat::encodings::ground_truth::tour::optimal_tour;
use knights_sat::encodings::puzzle::placement::{KindRule, PlacementGoal, PlacementPuzzle};
use knights_sat::encodings::puzzle::tour::{KnightStart, TourObjective, TourPuzzle, VisitOrder};
use knights_sat::encodings::puzzle::{to_toml, ExchangePuzzle, Position, Puzzle, Side};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A placement on a board of 4 to 7 squares a side, perhaps with removed squares, of one or
/// two kinds that branch and bound takes.
fn random_puzzle(rng: &mut ChaCha8Rng) -> Option<PlacementPuzzle> {
    let (w, h) = (rng.random_range(4..=7), rng.random_range(4..=7));
    let mut board = Board::new(w, h).unwrap();
    for _ in 0..rng.random_range(0..=2) {
        board.remove(Square(rng.random_range(0..w * h) as u16));
    }
    let goal = PlacementGoal::ALL[rng.random_range(0..PlacementGoal::ALL.len())];
    let pool = [PieceKind::Knight, PieceKind::King, PieceKind::Queen, PieceKind::Bishop, PieceKind::Rook];
    let mut kinds = vec![pool[rng.random_range(0..pool.len())]];
    if w * h <= 25 && rng.random_bool(0.3) {
        let other = pool[rng.random_range(0..pool.len())];
        if other != kinds[0] {
            kinds.push(other);
        }
    }
    let rules =
        kinds.iter().map(|&kind| KindRule { kind, min: 0, max: None, weight: rng.random_range(1..=2) }).collect();
    PlacementPuzzle::new(None, board, goal, rules, PawnDirection::Up, Vec::new(), Vec::new()).ok()
}

/// The best value among the split's placements and every cube's, and the number of cubes
/// and of cubes that found a better placement than the split.
fn conquer(puzzle: &PlacementPuzzle, ingredients: Ingredients, wanted: usize) -> (Option<usize>, usize, usize) {
    let minimise = puzzle.goal.minimises();
    let better = |a: usize, b: Option<usize>| b.is_none_or(|b| if minimise { a < b } else { a > b });
    let mut best: Option<usize> = None;
    let keep = |event: Event, best: &mut Option<usize>| {
        if let Event::Solution { value, .. } = event {
            if better(value, *best) {
                *best = Some(value);
            }
        }
    };
    let cut = split(puzzle, ingredients, 1, wanted, &mut |e| keep(e, &mut best)).expect("the split runs");
    let from_split = best;
    let mut improved = 0;
    for cube in &cut.cubes {
        let mut found = None;
        solve_cube(puzzle, ingredients, 1, (cube, Some(&cut.cuts)), cut.incumbent_cost, &mut |e| keep(e, &mut found))
            .expect("the cube's search runs");
        if let Some(value) = found {
            improved += usize::from(better(value, from_split));
            if better(value, best) {
                best = Some(value);
            }
        }
    }
    (best, cut.cubes.len(), improved)
}

/// Random placements split into 2 to 32 cubes, with and without the local search (without
/// it the split's placement is often poor and the cubes must find better ones) and orbital
/// fixing: the best placement over the split and its cubes is the exhaustive optimum.
#[test]
fn the_cubes_of_random_placements_add_up_to_the_exhaustive_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let (mut compared, mut split_up, mut improved, mut infeasible) = (0, 0, 0, 0);
    for i in 0..1000 {
        let Some(puzzle) = random_puzzle(&mut rng) else { continue };
        if !placement_has_tree(&puzzle) {
            continue;
        }
        let Ok(expected) = optimal_placement(&puzzle, 5_000_000) else { continue };
        let ingredients =
            Ingredients { local_search: i % 2 == 0, symmetry: i % 3 != 0, cuts: i % 5 != 0, ..Ingredients::default() };
        let wanted = [2, 8, 32][i % 3];
        let (best, cubes, better) = conquer(&puzzle, ingredients, wanted);
        assert_eq!(best, expected, "puzzle {i} in {wanted} cubes, {ingredients:?}: {puzzle:?}");
        compared += 1;
        split_up += usize::from(cubes >= 2);
        improved += usize::from(better > 0);
        infeasible += usize::from(expected.is_none());
        if compared == 300 {
            break;
        }
    }
    eprintln!("{compared} compared, {split_up} split, {improved} improved by a cube, {infeasible} infeasible");
    assert!(compared >= 250, "only {compared} puzzles compared");
    assert!(split_up >= 40, "only {split_up} puzzles split into two cubes or more");
    assert!(improved >= 20, "only {improved} puzzles where a cube beat the split's placement");
    assert!(infeasible >= 1, "no infeasible puzzle among {compared}");
}

/// Random placements split with a certificate in mind: the split's tree and every cube's,
/// added up, are written as one proof, and VeriPB checks it at the exhaustive optimum.
#[test]
fn the_trees_of_a_certified_split_and_its_cubes_make_one_certificate() {
    let mut rng = ChaCha8Rng::seed_from_u64(1919);
    let (mut certified, mut split_up, mut with_orbits) = (0, 0, 0);
    for i in 0..400 {
        let Some(puzzle) = random_puzzle(&mut rng) else { continue };
        if !placement_has_tree(&puzzle) {
            continue;
        }
        let Ok(Some(expected)) = optimal_placement(&puzzle, 5_000_000) else { continue };
        let ingredients = Ingredients { certify: true, local_search: i % 2 == 0, ..Ingredients::default() };
        let minimise = puzzle.goal.minimises();
        let mut best: Option<(usize, Solution)> = None;
        let mut keep = |event: Event| {
            if let Event::Solution { value, solution } = event {
                if best.as_ref().is_none_or(|b| if minimise { value < b.0 } else { value > b.0 }) {
                    best = Some((value, solution));
                }
            }
        };
        let cut = split(&puzzle, ingredients, 1, [4, 16][i % 2], &mut |e| keep(e)).expect("the split runs");
        let mut tree = cut.tree.clone().expect("a certified split records its tree");
        for cube in &cut.cubes {
            let mut part = None;
            let cuts = Some(&cut.cuts[..]);
            solve_cube(&puzzle, ingredients, 1 + i % 2, (cube, cuts), cut.incumbent_cost, &mut |e| match e {
                Event::TreeProof(logged) => part = Some(logged),
                other => keep(other),
            })
            .expect("the cube's search runs");
            let part = part.expect("a certified cube records its tree");
            tree.combinations.extend(part.combinations.iter().cloned());
            tree.orbits.extend(part.orbits.iter().cloned());
            tree.leaves.extend(part.leaves.iter().cloned());
        }
        let (value, solution) = best.expect("an optimum");
        assert_eq!(value, expected, "puzzle {i}: {puzzle:?}");
        let dir = scratch(&format!("certified-{i}"));
        let wrapped = Puzzle::Placement(puzzle.clone());
        certify_with(&wrapped, &to_toml(&wrapped), &solution, value, &dir, ProofCompression::None, Some(&tree))
            .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"));
        let verification = verify(&dir).unwrap();
        assert!(verification.passed(), "puzzle {i}: {:?}: {puzzle:?}", verification.checks);
        std::fs::remove_dir_all(&dir).ok();
        certified += 1;
        split_up += usize::from(cut.cubes.len() >= 2);
        with_orbits += usize::from(!tree.orbits.is_empty());
        if certified == 60 {
            break;
        }
    }
    assert!(
        certified == 60 && split_up >= 15 && with_orbits >= 5,
        "{certified} certified, {split_up} split into two cubes or more, {with_orbits} with orbital fixing"
    );
}

/// An exchange on a board of 2 to 4 squares a side: one to four pieces of two sides, a goal
/// that is a random walk from the start (reachable) or a scatter (often not).
fn random_exchange(rng: &mut ChaCha8Rng) -> ExchangePuzzle {
    let (w, h) = (rng.random_range(2..=4), rng.random_range(2..=4));
    let board = Board::new(w, h).unwrap();
    let sides: Vec<Side> = ["white", "black"]
        .iter()
        .zip([PawnDirection::Up, PawnDirection::Down])
        .map(|(name, pawns)| Side { name: name.to_string(), pawns })
        .collect();
    let pool = [PieceKind::Knight, PieceKind::King, PieceKind::Rook, PieceKind::Bishop, PieceKind::Pawn];
    let count = rng.random_range(1..=4.min(w * h - 1));
    let pieces: Vec<Piece> = (0..count)
        .map(|_| Piece { side: rng.random_range(0..2), kind: pool[rng.random_range(0..pool.len())] })
        .collect();
    let scatter = |rng: &mut ChaCha8Rng| {
        let mut squares: Vec<Square> = board.squares().collect();
        let mut position = Position::empty(board.area());
        for &piece in &pieces {
            position.place(squares.swap_remove(rng.random_range(0..squares.len())), piece).unwrap();
        }
        position
    };
    let start = scatter(rng);
    let goal = scatter(rng);
    ExchangePuzzle::new(None, board.clone(), sides, start, goal).unwrap()
}

/// The shortest route of at most `horizon` moves as the split and its cubes find it: the
/// split's own answer below its depth, else the shortest of the cubes'. Also the number of
/// cubes.
fn conquer_exchange(puzzle: &ExchangePuzzle, wanted: usize, horizon: usize) -> (Option<usize>, usize) {
    let split = split_exchange(puzzle, wanted, horizon, &mut |_| {}).expect("the split runs");
    if split.below.value.is_some() || split.below.reason.is_some() {
        assert!(split.cubes.is_empty(), "a split that decided the puzzle writes no cube");
        return (split.below.value, 0);
    }
    let shortest = split
        .cubes
        .iter()
        .filter_map(|cube| {
            let position = cube.position(puzzle).expect("the cube names a position of the puzzle");
            let searched = solve_position_cube(puzzle, (split.depth, &position), horizon, &|_| true, &mut |_| {})
                .expect("the cube runs");
            if searched.found.is_none() {
                assert_eq!(searched.refuted_to, Some(horizon), "a cube with no route refutes every horizon");
            }
            searched.found.map(|moves| moves.len())
        })
        .min();
    (shortest, split.cubes.len())
}

#[test]
fn the_cubes_of_random_exchanges_add_up_to_the_breadth_first_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let (mut solved, mut unreachable, mut split_at_all) = (0, 0, 0);
    for i in 0..120 {
        let puzzle = random_exchange(&mut rng);
        let truth = shortest_exchange(&puzzle, 200_000).expect("small boards stay within the budget");
        // Up to the optimum the cubes find it; one move short of it they find nothing.
        let horizon = truth.unwrap_or(6).max(1);
        let wanted = rng.random_range(1..=12);
        let (found, cubes) = conquer_exchange(&puzzle, wanted, horizon);
        assert_eq!(found, truth, "instance {i}: {puzzle:?}");
        split_at_all += usize::from(cubes > 0);
        match truth {
            Some(optimum) if optimum > 1 => {
                assert_eq!(conquer_exchange(&puzzle, wanted, optimum - 1).0, None, "instance {i}: {puzzle:?}");
                solved += 1;
            }
            Some(_) => {}
            None => unreachable += 1,
        }
    }
    assert!(
        solved >= 20 && unreachable >= 10 && split_at_all >= 30,
        "{solved} solved, {unreachable} unreachable, {split_at_all} split"
    );
}

/// One or two knights on a board of 3 to 6 squares a side among up to two queens, each from a
/// square or from any, touching one to six targets in any order in the fewest moves or time
/// steps.
fn random_tour(rng: &mut ChaCha8Rng) -> Option<TourPuzzle> {
    let (w, h) = (rng.random_range(3..=6), rng.random_range(3..=6));
    let board = Board::new(w, h).unwrap();
    let area = w * h;
    let queens: Vec<(PieceKind, Square)> =
        (0..rng.random_range(0..=2)).map(|_| (PieceKind::Queen, Square(rng.random_range(0..area) as u16))).collect();
    let any = TourPuzzle::new(
        None,
        board.clone(),
        queens.clone(),
        vec![KnightStart::OneOf(Vec::new())],
        None,
        VisitOrder::Any,
        TourObjective::Moves,
    )
    .ok()?;
    let safe = any.safe_squares();
    let mut targets: Vec<Square> =
        (0..rng.random_range(1..=6)).map(|_| safe[rng.random_range(0..safe.len())]).collect();
    targets.sort();
    targets.dedup();
    let knights = if rng.random_bool(0.4) { 2 } else { 1 };
    let starts = (0..knights)
        .map(|_| {
            if rng.random_bool(0.3) {
                KnightStart::OneOf(Vec::new())
            } else {
                KnightStart::At(safe[rng.random_range(0..safe.len())])
            }
        })
        .collect();
    let objective = if rng.random_bool(0.4) { TourObjective::Steps } else { TourObjective::Moves };
    TourPuzzle::new(None, board, queens, starts, Some(targets), VisitOrder::Any, objective).ok()
}

/// Random tours of one or two knights, for the fewest moves or the fewest time steps (then
/// moves), split into cubes at random depths: the best route of the cubes (or of the split's
/// own search) has the optimum of the exhaustive search over the knights' joint positions.
#[test]
fn the_cubes_of_random_tours_add_up_to_the_exhaustive_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(46);
    let (mut compared, mut unreachable, mut split_at_all, mut several) = (0, 0, 0, 0);
    while compared < 120 {
        let Some(puzzle) = random_tour(&mut rng) else { continue };
        let steps = puzzle.objective == TourObjective::Steps;
        let key = |route: &knights_sat::encodings::puzzle::tour::Route| {
            if steps {
                (route.time_steps(), route.moves())
            } else {
                (route.moves(), route.moves())
            }
        };
        let truth = optimal_tour(&puzzle, 2_000_000).expect("small boards stay within the budget").map(|t| {
            if steps {
                (t.steps, t.moves)
            } else {
                (t.moves, t.moves)
            }
        });
        let horizon = truth.map_or(8, |t| t.0).max(1);
        let split = split_tour(&puzzle, rng.random_range(1..=20), horizon, &mut |_| {}).expect("the split runs");
        let found = if split.below.value.is_some() || split.below.reason.is_some() {
            assert!(split.cubes.is_empty());
            split.below.solution.as_ref().map(|s| match s {
                Solution::Route(route) => key(route),
                _ => panic!("a tour's solution is a route"),
            })
        } else {
            split_at_all += 1;
            split
                .cubes
                .iter()
                .filter_map(|cube| {
                    let path = cube.squares(&puzzle).expect("the cube is a path of the puzzle");
                    let searched =
                        solve_path_cube(&puzzle, &path, horizon, &|_| true, &mut |_| {}).expect("the cube runs");
                    searched.found.map(|route| key(&route))
                })
                .min()
        };
        assert_eq!(found, truth, "tour {compared}: {puzzle:?}");
        unreachable += usize::from(truth.is_none());
        several += usize::from(puzzle.knights.len() > 1 && split.below.value.is_none());
        compared += 1;
    }
    assert!(
        unreachable >= 3 && split_at_all >= 30 && several >= 15,
        "{unreachable} unreachable, {split_at_all} split, {several} of several knights"
    );
}

/// Guarini's exchange (16 moves, the published answer) through a job directory: split up to
/// 16 moves, every cube searched, the optimum merged; a lost result is named.
#[test]
fn an_exchange_is_split_into_positions_and_merged() {
    let dir = scratch("guarini");
    let path = dir.to_str().unwrap();
    let run = knights_sat(&["split", "puzzles/guarini.toml", "--out", path, "--cubes", "8", "--horizon", "16"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("8 cubes at depth 1"), "{}", run.stdout);
    let run = knights_sat(&["cube", path, "--all", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 8, "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 16 moves; 15 moves proved impossible"), "{}", run.stdout);
    // Every cube searched again, one after the other: a cube that skips the route another
    // announced must not leave the job without it once that other is searched again too.
    let all: Vec<String> = (0..8).map(|i| i.to_string()).collect();
    let mut again = vec!["cube", path, "--again", "--threads", "1"];
    again.extend(all.iter().map(String::as_str));
    assert_eq!(knights_sat(&again).code, 0);
    let run = knights_sat(&["merge", path]);
    assert!(run.stdout.contains("optimal: 16 moves; 15 moves proved impossible"), "{}{}", run.stdout, run.stderr);
    std::fs::remove_file(dir.join("results/cube-3.json")).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 4);
    assert!(run.stderr.contains("have no result: 3\n"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);

    // One move short of the optimum: no route in any cube, so none within 15 moves.
    let run = knights_sat(&["split", "puzzles/guarini.toml", "--out", path, "--cubes", "8", "--horizon", "15"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(knights_sat(&["cube", path, "--all"]).code, 0);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("infeasible"), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("knights-sat-cubes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Knight domination of 14x14 (32 knights, OEIS A006075) through a job directory: split,
/// some cubes searched, the merge names the missing ones, the rest searched, the optimum
/// merged; a lost result is named and searched again alone; a changed cube file is refused.
#[test]
fn a_job_directory_is_searched_in_parts_resumed_and_merged() {
    let dir = scratch("knights-14x14");
    let path = dir.to_str().unwrap();
    let run = knights_sat(&["split", "puzzles/bench-domination/knights-14x14.toml", "--out", path, "--cubes", "12"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let job: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("job.json")).unwrap()).unwrap();
    let cubes = job["cubes"].as_u64().unwrap() as usize;
    assert!(cubes >= 12, "asked for 12 cubes, got {cubes}");
    let script = std::fs::read_to_string(dir.join("run.sbatch")).unwrap();
    assert!(script.contains(&format!("#SBATCH --array=0-{}", cubes - 1)), "{script}");

    let run = knights_sat(&["cube", path, "0", "1", "2", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 4, "an incomplete merge is not an answer: {}", run.stdout);
    assert!(
        run.stderr.contains(&format!("{} of {cubes} cubes have no result: 3-{}", cubes - 3, cubes - 1)),
        "{}",
        run.stderr
    );
    // The cubes left bound the optimum by their least split bound, which cannot pass it.
    let split: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("cubes.json")).unwrap()).unwrap();
    let least = split.as_array().unwrap()[3..]
        .iter()
        .map(|cube| cube["bound"].as_f64().expect("a cube with a relaxation bound"))
        .fold(f64::INFINITY, f64::min);
    let best = job["incumbent_value"].as_u64().expect("the split's placement") as usize;
    let bound = ((least - 1e-6).ceil() as usize).min(best);
    assert!(bound <= 32, "a bound past the published optimum");
    let stated = format!("feasible: {best} pieces found; {} pieces proved impossible", bound - 1);
    assert!(run.stdout.contains(&stated), "expected \"{stated}\" in {}", run.stdout);
    let run = knights_sat(&["merge", path, "--missing"]);
    assert_eq!(run.stdout.trim(), format!("3-{}", cubes - 1));

    let run = knights_sat(&["cube", path, "--all", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), cubes - 3, "one line per cube searched: {}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 32 pieces; 31 pieces proved impossible"), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("{cubes} of {cubes} cubes searched")), "{}", run.stdout);
    assert_eq!(knights_sat(&["merge", path, "--missing"]).stdout.trim(), "");

    // A lost result: named, and searched again alone; a result that exists is not.
    std::fs::remove_file(dir.join("results/cube-5.json")).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 4);
    assert!(run.stderr.contains("have no result: 5\n"), "{}", run.stderr);
    let run = knights_sat(&["cube", path, "--all"]);
    assert!(run.stderr.starts_with("cube 5 of") && run.stderr.lines().count() == 1, "{}", run.stderr);
    let run = knights_sat(&["cube", path, "5"]);
    assert!(run.stderr.contains("(done before)"), "{}", run.stderr);
    assert_eq!(knights_sat(&["merge", path]).code, 0);
    let leftovers: Vec<_> = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with("cube-") || !name.ends_with(".json"))
        .collect();
    assert!(leftovers.is_empty(), "files left in results/: {leftovers:?}");

    // A cube past the last, and a changed cube file.
    let run = knights_sat(&["cube", path, &cubes.to_string()]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains(&format!("there is no cube {cubes}")), "{}", run.stderr);
    let text = std::fs::read_to_string(dir.join("cubes.json")).unwrap();
    std::fs::write(dir.join("cubes.json"), text.replacen("\"ones\":[", "\"ones\":[0,", 1)).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cubes.json") && run.stderr.contains("changed since the split"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The 46-move tour around the queen on d5 (the published optimum) through a job directory:
/// split into the paths of the first moves up to 46 moves, every cube searched (a cube stops
/// short once another found a route as short as its next horizon), the optimum merged.
#[test]
fn a_tour_is_split_into_paths_and_merged() {
    let dir = scratch("queen-d5");
    let path = dir.to_str().unwrap();
    let run = knights_sat(&["split", "puzzles/queen-d5-tour.toml", "--out", path, "--cubes", "24", "--horizon", "46"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = knights_sat(&["cube", path, "--all", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 46 moves; 45 moves proved impossible"), "{}", run.stdout);

    // A result that claims a refutation short of what the answer needs is not merged.
    let read = |id: usize| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("results/cube-{id}.json"))).unwrap()).unwrap()
    };
    let id = (0..24).find(|&id| read(id)["value"].is_null()).expect("most paths hold no 46-move route");
    let mut cube = read(id);
    cube["refuted_to"] = serde_json::json!(40);
    std::fs::write(dir.join(format!("results/cube-{id}.json")), cube.to_string()).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 4, "{}", run.stdout);
    assert!(run.stdout.contains(&format!("cube {id} failed: refuted up to 40 moves")), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// What cannot be split is refused with the reason, exit 2.
/// A certified job (knight domination 14x14, 32 knights, OEIS A006075): the merge writes one
/// certificate of the split's tree and the cubes' and checks it; a cube searched without its
/// tree is named, and a tree with a bound taken out does not verify.
#[test]
fn a_certified_job_merges_into_a_certificate_checked_at_once() {
    let dir = scratch("certified-knights-14x14");
    let path = dir.to_str().unwrap();
    let puzzle = "puzzles/bench-domination/knights-14x14.toml";
    let run = knights_sat(&["split", puzzle, "--out", path, "--cubes", "12", "--certify"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(dir.join("tree.json").is_file());
    let job: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("job.json")).unwrap()).unwrap();
    assert!(job["cubes"].as_u64().unwrap() >= 2, "{job}");
    let run = knights_sat(&["cube", path, "--all", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 32 pieces"), "{}", run.stdout);
    assert!(
        run.stdout.contains("certificate: ") && run.stdout.contains("the split's and the cubes' trees"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("ok   c. proof: VeriPB verified BOUNDS 32 <= obj <= 32"), "{}", run.stdout);
    assert!(run.stdout.contains("verified: 32 is optimal"), "{}", run.stdout);
    let run = knights_sat(&["verify", dir.join("certificate").to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stdout);

    // A cube's result without its tree (as an older knights-sat would write it).
    let result = dir.join("results").join("cube-0.json");
    let text = std::fs::read_to_string(&result).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json.as_object_mut().unwrap().remove("tree").expect("a certified cube's result holds its tree");
    std::fs::write(&result, json.to_string()).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("cube 0 was searched without its tree"), "{}", run.stderr);
    std::fs::write(&result, text).unwrap();

    // The split's tree with its bounds taken out: the proof no longer closes.
    let tree = dir.join("tree.json");
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&tree).unwrap()).unwrap();
    let bounds = json["combinations"].as_array_mut().unwrap();
    assert!(!bounds.is_empty());
    bounds.clear();
    std::fs::write(&tree, json.to_string()).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("FAIL c. proof: VeriPB rejects"), "{}", run.stdout);
    assert!(run.stderr.contains("does not verify"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// A certified exchange job (Guarini's, 16 moves, the published answer): every cube's search
/// writes the refutation of its cube, the merge adds the cover and checks the whole; a
/// certificate that claims less of a cube, or leaves one out, or whose cube's proof is
/// damaged, does not verify; a cube without its part is named.
#[test]
fn a_certified_exchange_job_merges_into_a_certificate_of_its_cubes() {
    let dir = scratch("certified-guarini");
    let path = dir.to_str().unwrap();
    let run =
        knights_sat(&["split", "puzzles/guarini.toml", "--out", path, "--cubes", "20", "--horizon", "16", "--certify"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let job: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("job.json")).unwrap()).unwrap();
    assert!(job["depth"].as_u64().unwrap() >= 2 && job["certify"] == true, "{job}");
    let cubes = job["cubes"].as_u64().unwrap() as usize;
    assert_eq!(knights_sat(&["cube", path, "--all", "--threads", "2"]).code, 0);
    assert!((0..cubes).all(|i| dir.join(format!("proofs/cube-{i}/model.opb")).is_file()));
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 16 moves"), "{}", run.stdout);
    assert!(
        run.stdout.contains("the cover (") && run.stdout.contains(&format!("and {cubes} cubes' refutations")),
        "{}",
        run.stdout
    );
    let proved = format!("VeriPB verified that the cover and {cubes} cubes hold no route of at most 15 moves");
    assert!(run.stdout.contains(&proved), "{}", run.stdout);
    assert!(run.stdout.contains("verified: 16 is optimal"), "{}", run.stdout);
    let certificate = dir.join("certificate");
    let verify = || knights_sat(&["verify", certificate.to_str().unwrap()]);
    assert_eq!(verify().code, 0, "{}", verify().stdout);

    // split.json claiming one move less of a cube than the value needs.
    let claims_path = certificate.join("split.json");
    let claims_text = std::fs::read_to_string(&claims_path).unwrap();
    let mut claims: serde_json::Value = serde_json::from_str(&claims_text).unwrap();
    claims["cubes"][1]["refuted"] = serde_json::json!(14);
    std::fs::write(&claims_path, claims.to_string()).unwrap();
    let run = verify();
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("FAIL b. model: cube 1: refutes routes of at most 14 moves, short of the 15"),
        "{}",
        run.stdout
    );
    // A horizon out of every puzzle's reach is refused before any model is built.
    claims["cubes"][1]["refuted"] = serde_json::json!(15);
    claims["horizon"] = serde_json::json!(1_000_000_000_000u64);
    std::fs::write(&claims_path, claims.to_string()).unwrap();
    let run = verify();
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL b. model: split.json: the horizon 1000000000000 is past"), "{}", run.stdout);
    claims["horizon"] = serde_json::json!(16);
    // A cube left out: the cover's model no longer matches.
    claims["cubes"][1]["refuted"] = serde_json::json!(15);
    claims["cubes"].as_array_mut().unwrap().pop();
    std::fs::write(&claims_path, claims.to_string()).unwrap();
    let run = verify();
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL b. model: the cover: model.opb differs"), "{}", run.stdout);
    std::fs::write(&claims_path, &claims_text).unwrap();
    // A cube's proof cut short of its conclusion.
    let proof = certificate.join("cubes/cube-0/proof.pbp");
    let text = std::fs::read_to_string(&proof).unwrap();
    std::fs::remove_file(&proof).unwrap();
    // Its header and its conclusion, without the refutation between.
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 10, "{text}");
    let kept: Vec<&str> = lines[..2].iter().chain(&lines[lines.len() - 3..]).copied().collect();
    std::fs::write(&proof, kept.join("\n") + "\n").unwrap();
    let run = verify();
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof: VeriPB rejects the proof of cube 0"), "{}", run.stdout);

    // A cube searched without its part (as a job split without --certify would).
    std::fs::remove_dir_all(dir.join("proofs/cube-2")).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("cube 2 was searched without its part of the certificate"), "{}", run.stderr);
    assert_eq!(knights_sat(&["cube", path, "2", "--again"]).code, 0);
    assert_eq!(knights_sat(&["merge", path]).code, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A certified tour job (the 46-move tour around the queen on d5, the published optimum): each
/// cube is the knight's square and the targets touched after the split's depth, and the
/// certificate checks; one that names a cube's targets otherwise does not.
#[test]
fn a_certified_tour_job_merges_into_a_certificate_of_its_cubes() {
    let dir = scratch("certified-queen-d5");
    let path = dir.to_str().unwrap();
    let args = ["split", "puzzles/queen-d5-tour.toml", "--out", path, "--cubes", "24", "--horizon", "46", "--certify"];
    assert_eq!(knights_sat(&args).code, 0);
    assert_eq!(knights_sat(&["cube", path, "--all", "--threads", "2"]).code, 0);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("hold no route of at most 45 moves"), "{}", run.stdout);
    assert!(run.stdout.contains("verified: 46 is optimal"), "{}", run.stdout);
    let claims_path = dir.join("certificate/split.json");
    let mut claims: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&claims_path).unwrap()).unwrap();
    let touched = claims["cubes"][0]["cube"]["reached"]["touched"].as_array_mut().unwrap();
    assert!(!touched.is_empty(), "{claims}");
    touched.pop();
    std::fs::write(&claims_path, claims.to_string()).unwrap();
    let run = knights_sat(&["verify", dir.join("certificate").to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    // The cover names the cube too, and comes first.
    assert!(run.stdout.contains("FAIL b. model: the cover: model.opb differs"), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(&dir);

    // Two knights for the fewest time steps, then moves (10 steps and 20 moves, checked against
    // the search over joint positions in `tests/tour_seeds.rs`): the fewest moves are stated
    // only when every cube asked 10 steps.
    let args = ["split", "puzzles/two-knights-two-queens.toml", "--out", path, "--cubes", "64", "--horizon", "10"];
    let run = knights_sat(&[&args[..], &["--certify"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(knights_sat(&["cube", path, "--all", "--threads", "2"]).code, 0);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 10 time steps; 9 time steps proved impossible"), "{}", run.stdout);
    let fewest = run.stdout.contains("moves in as many steps proved impossible");
    let moves = if fewest { "20 moves in 10 time steps; 19 moves" } else { "fewer moves not proved impossible" };
    assert!(run.stdout.contains(moves), "{}", run.stdout);
    assert!(run.stdout.contains("hold no route of at most 9 time steps"), "{}", run.stdout);
    assert!(run.stdout.contains("verified: 10 is optimal"), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn split_refuses_what_it_cannot_split() {
    let dir = scratch("refusals");
    let path = dir.to_str().unwrap();
    let feasible = std::env::temp_dir().join(format!("knights-sat-cubes-{}-feasible.toml", std::process::id()));
    let text = std::fs::read_to_string("puzzles/two-knights-two-queens.toml").unwrap();
    std::fs::write(&feasible, text.replace("objective = \"steps\"", "objective = \"feasible\"")).unwrap();
    let run = knights_sat(&["split", feasible.to_str().unwrap(), "--out", path, "--horizon", "30"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("not for the `feasible` objective"), "{}", run.stderr);
    std::fs::remove_file(&feasible).unwrap();
    let run = knights_sat(&["split", "puzzles/finegold.toml", "--out", path, "--horizon", "200"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("leg by leg"), "{}", run.stderr);
    let run = knights_sat(&["split", "puzzles/guarini.toml", "--out", path]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("give --horizon H"), "{}", run.stderr);
    let run = knights_sat(&["split", "puzzles/knights-domination-8x8.toml", "--out", path, "--horizon", "3"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--horizon is for exchanges and tours"), "{}", run.stderr);
    let run = knights_sat(&["split", "puzzles/knights-domination-8x8.toml", "--out", path, "--cubes", "1000000000"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--cubes 1000000000"), "{}", run.stderr);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("other"), "").unwrap();
    let run = knights_sat(&["split", "puzzles/knights-domination-8x8.toml", "--out", path]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("exists and is not empty"), "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("job.json"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

//! Cube and conquer: the cubes of a split, each searched on its own, add up to the optimum
//! of an exhaustive search written from the rules (placements) or of a breadth-first search
//! over positions (exchanges); and a job directory written by `split` runs, resumes after a
//! lost cube and merges through the binary (`jobs`; certified, `certified_jobs`), as text,
//! JSON and a picture (`merge_output`), its cubes starting from the split's pseudocosts
//! (`pseudocosts`).

mod certified_jobs;
#[path = "../common/mod.rs"]
mod common;
mod jobs;
mod merge_output;
mod pseudocosts;

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
        let cube = std::slice::from_ref(cube);
        solve_cube(
            puzzle,
            ingredients,
            1,
            (cube, Some(&cut.cuts)),
            (cut.incumbent_cost, Some(&cut.pseudocosts)),
            None,
            &mut |e| keep(e, &mut found),
        )
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
            let cube = std::slice::from_ref(cube);
            solve_cube(
                &puzzle,
                ingredients,
                1 + i % 2,
                (cube, cuts),
                (cut.incumbent_cost, Some(&cut.pseudocosts)),
                None,
                &mut |e| match e {
                    Event::TreeProof(logged) => part = Some(logged),
                    other => keep(other),
                },
            )
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

/// A fresh directory for one test, removed once the test passes.
fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new("cubes", name)
}

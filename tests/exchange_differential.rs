//! Differential test: on hundreds of random small exchange puzzles, the SAT driver's optimum
//! equals the optimum of a breadth-first search over positions (which shares no code with the
//! encodings), including on puzzles whose goal is unreachable; and the formula of a horizon
//! has one model for each route the encoding means to allow, no more and no fewer.

use knights_sat::driver::{solve_exchange, ExchangeSearch, Solution, Status};
use knights_sat::encodings::check::replay_exchange;
use knights_sat::encodings::encode::exchange::ExchangeOptions;
use knights_sat::encodings::encode::{AtMostOne, ExchangeEncoding, HorizonEncoding};
use knights_sat::encodings::geometry::{move_steps, Board, PawnDirection, Piece, PieceKind, Square};
use knights_sat::encodings::ground_truth::exchange::{positions_after, shortest_exchange, shortest_route};
use knights_sat::encodings::ground_truth::rules::{path, reach, Action};
use knights_sat::encodings::puzzle::{ExchangePuzzle, Position, Side};
use knights_sat::solver::SolverKind;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustsat::instances::Cnf;

mod common;

const INSTANCES: usize = 240;
const SEED: u64 = 0x006b_6e69_6768_7473;
const BFS_BUDGET: usize = 200_000;

/// A number from the environment, for longer runs than the default
/// (`KNIGHTS_SAT_INSTANCES=5000 KNIGHTS_SAT_SEED=7 cargo test --test exchange_differential`).
fn from_env(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| v.parse().unwrap_or_else(|_| panic!("{name}={v} is not a number")))
}

/// How the driver proved a goal unreachable, from the reason it gives.
fn proof_kind(reason: &str) -> &'static str {
    if reason.contains("inductive invariant") {
        "invariant"
    } else if reason.contains("every reachable position") {
        "completeness"
    } else if reason.contains("even on an empty board") {
        "obstruction"
    } else {
        "other"
    }
}

/// How the goal of a random puzzle is made.
#[derive(Clone, Copy, Debug)]
enum GoalKind {
    /// A random walk of legal moves from the start: always reachable.
    Walk,
    /// The same pieces placed at random: often unreachable.
    Scatter,
    /// Two sides with the same pieces exchange places.
    Swap,
}

fn random_kind(rng: &mut ChaCha8Rng) -> PieceKind {
    match rng.random_range(0..20) {
        0..=5 => PieceKind::Knight,
        6..=8 => PieceKind::Rook,
        9..=11 => PieceKind::Bishop,
        12..=13 => PieceKind::Queen,
        14..=17 => PieceKind::King,
        _ => PieceKind::Pawn,
    }
}

fn random_board(rng: &mut ChaCha8Rng) -> Board {
    loop {
        let (w, h) = (rng.random_range(1..=4), rng.random_range(1..=4));
        if w * h < 3 {
            continue;
        }
        let mut board = Board::new(w, h).unwrap();
        if w * h >= 6 && rng.random_bool(0.2) {
            board.remove(Square(rng.random_range(0..w * h) as u16));
        }
        return board;
    }
}

/// Places `pieces` on distinct random squares.
fn scatter(rng: &mut ChaCha8Rng, board: &Board, pieces: &[Piece]) -> Position {
    let mut squares: Vec<Square> = board.squares().collect();
    let mut position = Position::empty(board.area());
    for &piece in pieces {
        let square = squares.swap_remove(rng.random_range(0..squares.len()));
        position.place(square, piece).unwrap();
    }
    position
}

/// Plays up to `steps` random legal moves.
fn walk(rng: &mut ChaCha8Rng, puzzle_sides: &[Side], board: &Board, start: &Position, steps: usize) -> Position {
    let mut position = start.clone();
    for _ in 0..steps {
        let mut options = Vec::new();
        for (from, piece) in position.pieces() {
            for step in move_steps(board, piece.kind, from, puzzle_sides[piece.side].pawns) {
                let free = |s: &Square| position.get(*s).is_none();
                if free(&step.to) && step.between.iter().all(free) {
                    options.push((from, step.to, piece));
                }
            }
        }
        if options.is_empty() {
            break;
        }
        let (from, to, piece) = options[rng.random_range(0..options.len())];
        position.take(from);
        position.place(to, piece).unwrap();
    }
    position
}

fn random_puzzle(rng: &mut ChaCha8Rng) -> (ExchangePuzzle, GoalKind) {
    let board = random_board(rng);
    let usable = board.squares().count();
    let goal_kind = match rng.random_range(0..10) {
        0..=3 => GoalKind::Walk,
        4..=6 => GoalKind::Scatter,
        _ => GoalKind::Swap,
    };
    let n_sides = match goal_kind {
        GoalKind::Swap => 2,
        _ => rng.random_range(1..=3),
    };
    let sides: Vec<Side> = (0..n_sides)
        .map(|i| Side {
            name: format!("side{i}"),
            pawns: if i == 1 || (i == 2 && rng.random_bool(0.5)) { PawnDirection::Down } else { PawnDirection::Up },
        })
        .collect();
    let most = 6.min(usable - 1);
    let pieces: Vec<Piece> = match goal_kind {
        GoalKind::Swap => {
            let per_side = rng.random_range(1..=(most / 2).max(1));
            let kinds: Vec<PieceKind> = (0..per_side).map(|_| random_kind(rng)).collect();
            (0..2).flat_map(|side| kinds.iter().map(move |&kind| Piece { side, kind })).collect()
        }
        _ => (0..rng.random_range(1..=most))
            .map(|_| Piece { side: rng.random_range(0..n_sides), kind: random_kind(rng) })
            .collect(),
    };
    let start = scatter(rng, &board, &pieces);
    let goal = match goal_kind {
        GoalKind::Walk => {
            let steps = rng.random_range(1..=14);
            walk(rng, &sides, &board, &start, steps)
        }
        GoalKind::Scatter => scatter(rng, &board, &pieces),
        GoalKind::Swap => {
            let mut goal = Position::empty(board.area());
            for (square, piece) in start.pieces() {
                goal.place(square, Piece { side: 1 - piece.side, kind: piece.kind }).unwrap();
            }
            goal
        }
    };
    (ExchangePuzzle::new(None, board, sides, start, goal).expect("same pieces at start and goal"), goal_kind)
}

/// The search settings for instance `i`: every at-most-one encoding, incremental or not, the
/// refinements on or off, CaDiCaL on every third instance, and two threads (horizons asked
/// at once) on every fifth.
fn settings(i: usize) -> ExchangeSearch {
    let at_most_one = AtMostOne::from_name(AtMostOne::NAMES[i % AtMostOne::NAMES.len()]).unwrap();
    let refined = i % 7 != 3;
    let solver = if i % 3 == 0 { SolverKind::Cadical } else { SolverKind::Varisat };
    ExchangeSearch {
        solver,
        incremental: i % 4 != 1,
        encoding: ExchangeOptions {
            at_most_one,
            forbid_undo: refined,
            canonical_order: refined,
            distance_sum: refined,
        },
        threads: 1 + usize::from(i % 5 == 2),
        ..ExchangeSearch::default()
    }
}

/// Both MIP models of the puzzle agree with the breadth-first search: the time-indexed one on
/// feasible puzzles of up to 6 moves (it grows its horizon without a proof of infeasibility),
/// the network-flow one on puzzles of up to 2,000 positions. Counts each comparison in
/// `compared`, by model and verdict.
#[cfg(feature = "mip")]
fn mip_agrees(
    puzzle: &ExchangePuzzle,
    expected: Option<usize>,
    i: usize,
    compared: &mut std::collections::BTreeMap<String, usize>,
) {
    use knights_sat::driver::{solve_mip, MipSearch};
    use knights_sat::encodings::linear::flow_model;
    use knights_sat::solver::highs::Formulation;
    let wrapped = knights_sat::encodings::puzzle::Puzzle::Exchange(puzzle.clone());
    for formulation in Formulation::ALL {
        let skip = match formulation {
            // HiGHS needs seconds for a dozen horizons; the short ones test the model as well.
            Formulation::TimeIndexed => expected.is_none_or(|moves| moves > 6),
            Formulation::NetworkFlow => flow_model(puzzle, 2_000).is_err(),
        };
        if skip {
            continue;
        }
        let search = MipSearch { formulation, max_horizon: 60 };
        let clock = std::time::Instant::now();
        let outcome = solve_mip(&wrapped, &search, &mut |_| {}).expect("the MIP search runs");
        if std::env::var_os("KNIGHTS_SAT_TRACE").is_some() {
            eprintln!("{i}: MIP {formulation}, expected {expected:?}, {:.2}s", clock.elapsed().as_secs_f64());
        }
        let context = format!("instance {i}, MIP {formulation}:\n{puzzle:?}\noutcome {outcome:?}");
        match expected {
            Some(moves) => {
                assert_eq!(
                    (outcome.status, outcome.value, outcome.bound),
                    (Status::Optimal, Some(moves), moves),
                    "{context}"
                );
                let Some(Solution::Moves(solution)) = &outcome.solution else { panic!("moves: {context}") };
                replay_exchange(puzzle, solution).unwrap_or_else(|e| panic!("{e}: {context}"));
            }
            None => assert_eq!(outcome.status, Status::Infeasible, "{context}"),
        }
        let verdict = if expected.is_some() { "optimal" } else { "infeasible" };
        *compared.entry(format!("{formulation} {verdict}")).or_default() += 1;
    }
}

#[test]
fn sat_optimum_equals_breadth_first_search() {
    let instances = from_env("KNIGHTS_SAT_INSTANCES", INSTANCES as u64) as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(from_env("KNIGHTS_SAT_SEED", SEED));
    let (mut feasible, mut infeasible, mut skipped) = (0, 0, 0);
    let mut proofs = std::collections::BTreeMap::<&str, usize>::new();
    #[cfg(feature = "mip")]
    let mut mip_compared = std::collections::BTreeMap::new();
    let clock = std::time::Instant::now();
    let mut i = 0;
    while feasible + infeasible < instances {
        let (puzzle, goal_kind) = random_puzzle(&mut rng);
        let expected = match shortest_exchange(&puzzle, BFS_BUDGET) {
            Ok(expected) => expected,
            Err(_) => {
                skipped += 1;
                continue;
            }
        };
        let search = settings(i);
        i += 1;
        let clock = std::time::Instant::now();
        if std::env::var_os("KNIGHTS_SAT_TRACE").is_some() {
            eprintln!("start {i}: {goal_kind:?} {search:?} {puzzle:?}");
        }
        let outcome = solve_exchange(&puzzle, &search, &mut |_| {}).expect("the search runs");
        if std::env::var_os("KNIGHTS_SAT_TRACE").is_some() {
            eprintln!(
                "{i}: {goal_kind:?} {}x{} {} pieces expected {expected:?} {:.2}s",
                puzzle.board.width(),
                puzzle.board.height(),
                puzzle.piece_count(),
                clock.elapsed().as_secs_f64()
            );
        }
        let context = || format!("instance {i} ({goal_kind:?}, {search:?}):\n{puzzle:?}\noutcome {outcome:?}");
        #[cfg(feature = "mip")]
        if i % 4 == 0 {
            mip_agrees(&puzzle, expected, i, &mut mip_compared);
        }
        match expected {
            Some(moves) => {
                feasible += 1;
                assert_eq!(outcome.status, Status::Optimal, "{}", context());
                assert_eq!((outcome.value, outcome.bound), (Some(moves), moves), "{}", context());
                let Some(Solution::Moves(solution)) = &outcome.solution else { panic!("moves: {}", context()) };
                replay_exchange(&puzzle, solution).unwrap_or_else(|e| panic!("{e}: {}", context()));
                // The rules checker and the breadth-first search agree on what a legal move is.
                let route = shortest_route(&puzzle, BFS_BUDGET).expect("within budget").expect("a route");
                assert_eq!(route.len(), moves, "{}", context());
                replay_exchange(&puzzle, &route).unwrap_or_else(|e| panic!("BFS route {route:?}: {e}: {}", context()));
            }
            None => {
                infeasible += 1;
                assert_eq!(outcome.status, Status::Infeasible, "{}", context());
                assert_eq!(outcome.within, None, "infeasibility proved, not cut off: {}", context());
                assert!(outcome.solution.is_none());
                *proofs.entry(proof_kind(outcome.reason.as_deref().expect("a reason"))).or_default() += 1;
            }
        }
    }
    eprintln!(
        "compared {} puzzles in {:.1} s: {feasible} feasible, {infeasible} infeasible (proofs: {proofs:?}); \
         {skipped} too large for the search",
        feasible + infeasible,
        clock.elapsed().as_secs_f64()
    );
    assert!(
        feasible * 4 >= instances && infeasible * 6 >= instances,
        "both kinds are exercised: {feasible} feasible, {infeasible} infeasible"
    );
    assert!(skipped * 10 < instances, "few puzzles skipped: {skipped}");
    let by_search = infeasible - proofs.get("obstruction").copied().unwrap_or(0);
    assert!(
        by_search * 24 >= instances,
        "{by_search} goals proved unreachable by search, not by the static obstruction"
    );
    // A floor on the MIP leg, so that it cannot pass by comparing nothing: every model is
    // compared on solvable puzzles, the network-flow model on unsolvable ones too.
    #[cfg(feature = "mip")]
    {
        eprintln!("the MIP models compared: {mip_compared:?}");
        for leg in ["time-indexed optimal", "network-flow optimal", "network-flow infeasible"] {
            let count = mip_compared.get(leg).copied().unwrap_or(0);
            assert!(count * 40 >= instances, "the MIP leg compared {count} puzzles as {leg}: {mip_compared:?}");
        }
    }
}

/// A move as plain numbers (side, kind, from, to), to compare routes as sets.
type Step = (usize, char, usize, usize);

/// The squares a move depends on or changes: its origin, its destination and the squares it
/// passes over, from the rules oracle.
fn touched(puzzle: &ExchangePuzzle, step: Step) -> Vec<usize> {
    let kind = PieceKind::from_letter(step.1).expect("a piece letter");
    let pawns = puzzle.pawns(Piece { side: step.0, kind });
    let (from, to) = (Square(step.2 as u16), Square(step.3 as u16));
    let between = path(&puzzle.board, kind, Action::Move, from, to, pawns).expect("a legal move");
    [step.2, step.3].into_iter().chain(between.iter().map(|s| s.index())).collect()
}

/// Every route of exactly `moves` moves from the start to the goal, found by depth-first search
/// with the rules oracle (`None` past `limit` routes). `undo` drops routes in which a move is
/// undone at once; `canonical` drops routes in which two consecutive moves touch disjoint
/// squares and the second starts on a lower square (the order the encoding forbids).
fn routes(
    puzzle: &ExchangePuzzle,
    moves: usize,
    (undo, canonical): (bool, bool),
    limit: usize,
) -> Option<std::collections::BTreeSet<Vec<Step>>> {
    // Fewest moves from every reachable position to the goal, to prune the search.
    let mut successors: std::collections::HashMap<Position, Vec<(Step, Position)>> = Default::default();
    let mut queue = std::collections::VecDeque::from([puzzle.start.clone()]);
    successors.insert(puzzle.start.clone(), Vec::new());
    while let Some(position) = queue.pop_front() {
        let mut next = Vec::new();
        for (from, piece) in position.pieces() {
            for (to, between) in reach(&puzzle.board, piece.kind, Action::Move, from, puzzle.pawns(piece)) {
                if position.get(to).is_none() && between.iter().all(|s| position.get(*s).is_none()) {
                    let mut after = position.clone();
                    after.take(from);
                    after.place(to, piece).unwrap();
                    next.push(((piece.side, piece.kind.letter(), from.index(), to.index()), after));
                }
            }
        }
        for (_, after) in &next {
            if !successors.contains_key(after) {
                successors.insert(after.clone(), Vec::new());
                queue.push_back(after.clone());
            }
        }
        successors.insert(position, next);
    }
    let mut to_goal: std::collections::HashMap<&Position, usize> = [(&puzzle.goal, 0)].into();
    for distance in 1.. {
        let before = to_goal.len();
        for (position, next) in &successors {
            if !to_goal.contains_key(position) && next.iter().any(|(_, p)| to_goal.get(p) == Some(&(distance - 1))) {
                to_goal.insert(position, distance);
            }
        }
        if to_goal.len() == before {
            break;
        }
    }
    let mut found = std::collections::BTreeSet::new();
    let mut route = Vec::new();
    #[allow(clippy::too_many_arguments)]
    fn extend(
        puzzle: &ExchangePuzzle,
        successors: &std::collections::HashMap<Position, Vec<(Step, Position)>>,
        to_goal: &std::collections::HashMap<&Position, usize>,
        position: &Position,
        left: usize,
        rules: (bool, bool),
        route: &mut Vec<Step>,
        found: &mut std::collections::BTreeSet<Vec<Step>>,
    ) {
        if to_goal.get(position).is_none_or(|&d| d > left) {
            return;
        }
        if left == 0 {
            found.insert(route.clone());
            return;
        }
        for &(step, ref after) in &successors[position] {
            if let Some(&last) = route.last() {
                let undone = step.0 == last.0 && step.1 == last.1 && step.2 == last.3 && step.3 == last.2;
                let (a, b) = (touched(puzzle, last), touched(puzzle, step));
                let disjoint = !a.iter().any(|s| b.contains(s));
                if (rules.0 && undone) || (rules.1 && disjoint && step.2 < last.2) {
                    continue;
                }
            }
            route.push(step);
            extend(puzzle, successors, to_goal, after, left - 1, rules, route, found);
            route.pop();
        }
    }
    extend(puzzle, &successors, &to_goal, &puzzle.start, moves, (undo, canonical), &mut route, &mut found);
    (found.len() <= limit).then_some(found)
}

/// The routes that satisfy the encoding at exactly `moves` moves, one per model (models are
/// told apart by their positions); `None` past `limit`.
fn models(
    puzzle: &ExchangePuzzle,
    options: ExchangeOptions,
    moves: usize,
    limit: usize,
) -> Option<std::collections::BTreeSet<Vec<Step>>> {
    let mut cnf = Cnf::new();
    let encoding = ExchangeEncoding::new(puzzle, options, &mut cnf);
    common::formula::routes_of(encoding, cnf, moves, limit, |encoding, solver| {
        let route = encoding.decode(moves, |lit| solver.value(lit));
        assert_eq!(route.len(), moves, "one move per step: {route:?}");
        let steps = route.iter().map(|m| (m.piece.side, m.piece.kind.letter(), m.from.index(), m.to.index()));
        let mut positions = Vec::new();
        for t in 1..=moves {
            for g in 0..encoding.n_groups() {
                for c in 0..encoding.n_cells() {
                    positions.extend(encoding.occupancy(t, g, c).filter(|&lit| solver.value(lit)));
                }
            }
        }
        (steps.collect(), positions)
    })
}

/// The formula of a horizon has exactly one model for each route of that many moves that
/// never undoes a move at once and orders consecutive independent moves canonically (as far as
/// the options ask): not only the optimum but the whole set of routes, at the optimum and one
/// and two moves past it, against a depth-first search with the rules oracle. A weaker or a
/// stronger formula (a pruning rule dropped or misapplied, a frame axiom lost) shows here even
/// where the optimum does not move.
#[test]
fn the_formula_has_one_model_per_allowed_route() {
    const LIMIT: usize = 400;
    let mut rng = ChaCha8Rng::seed_from_u64(0x726f_7574_6573);
    let (mut compared, mut pruned_by_undo, mut pruned_by_order, mut non_empty) = (0, 0, 0, 0);
    while compared < 200 {
        let (puzzle, _) = random_puzzle(&mut rng);
        let Ok(Some(shortest)) = shortest_exchange(&puzzle, 3_000) else { continue };
        let moves = (shortest + rng.random_range(0..=2)).min(8);
        let options = ExchangeOptions {
            at_most_one: AtMostOne::from_name(AtMostOne::NAMES[rng.random_range(0..AtMostOne::NAMES.len())]).unwrap(),
            forbid_undo: rng.random_bool(0.7),
            canonical_order: rng.random_bool(0.7),
            distance_sum: rng.random_bool(0.7),
        };
        let rules = (options.forbid_undo, options.canonical_order);
        let Some(expected) = routes(&puzzle, moves, rules, LIMIT) else { continue };
        if options.forbid_undo
            && routes(&puzzle, moves, (false, options.canonical_order), usize::MAX) != Some(expected.clone())
        {
            pruned_by_undo += 1;
        }
        if options.canonical_order
            && routes(&puzzle, moves, (options.forbid_undo, false), usize::MAX) != Some(expected.clone())
        {
            pruned_by_order += 1;
        }
        let found = models(&puzzle, options, moves, LIMIT).expect("no more models than routes");
        assert_eq!(found, expected, "{moves} moves, {options:?}:\n{puzzle:?}");
        non_empty += usize::from(!expected.is_empty());
        compared += 1;
    }
    eprintln!(
        "{compared} formulas: {non_empty} with routes; undo pruned {pruned_by_undo}, order pruned {pruned_by_order}"
    );
    assert!(non_empty >= 100 && pruned_by_undo >= 20 && pruned_by_order >= 20, "too few cases that tell");
}

/// Fewest moves from `from` to a goal square of `piece`'s group on the empty board, by the
/// rules oracle (`None`: none is reachable).
fn to_nearest_goal(puzzle: &ExchangePuzzle, piece: Piece, from: Square) -> Option<usize> {
    let goals: Vec<usize> = puzzle.goal.pieces().filter(|p| p.1 == piece).map(|p| p.0.index()).collect();
    let mut distance = vec![None; puzzle.board.area()];
    distance[from.index()] = Some(0);
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(square) = queue.pop_front() {
        let d = distance[square.index()].unwrap();
        if goals.contains(&square.index()) {
            return Some(d);
        }
        for (to, _) in reach(&puzzle.board, piece.kind, Action::Move, square, puzzle.pawns(piece)) {
            if distance[to.index()].is_none() {
                distance[to.index()] = Some(d + 1);
                queue.push_back(to);
            }
        }
    }
    None
}

/// The distance sum is a redundant family: it removes no route (the formula test above), and
/// it must cut off by unit propagation alone a position from which each piece could reach a
/// goal square in the moves left but not all of them together; a position with one piece too
/// far is cut off with the sum or without it (by the goal switch's exclusions). Such positions, reached in
/// `t` moves on the way to a horizon of `T`, are looked for on random puzzles.
#[test]
fn the_distance_sum_cuts_off_hopeless_positions_by_propagation() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x6469_7374);
    let (mut by_sum, mut by_piece, mut puzzles) = (0, 0, 0);
    while puzzles < 60 {
        let (puzzle, _) = random_puzzle(&mut rng);
        let Ok(Some(shortest)) = shortest_exchange(&puzzle, 3_000) else { continue };
        if shortest < 2 {
            continue;
        }
        let horizon = (shortest + rng.random_range(0..=2)).min(8);
        let options = ExchangeOptions { distance_sum: rng.random_bool(0.7), ..ExchangeOptions::default() };
        let mut cnf = Cnf::new();
        let mut encoding = ExchangeEncoding::new(&puzzle, options, &mut cnf);
        for _ in 0..horizon {
            encoding.extend(&mut cnf);
        }
        let switch = encoding.goal_switch(horizon, &mut cnf);
        puzzles += 1;
        for t in 1..horizon {
            let left = horizon - t;
            let Ok(layer) = positions_after(&puzzle, t, 2_000) else { break };
            for position in layer.iter().take(40) {
                let distances: Option<Vec<usize>> =
                    position.pieces().map(|(square, piece)| to_nearest_goal(&puzzle, piece, square)).collect();
                let Some(distances) = distances else { continue };
                // One piece too far is cut off by the goal switch itself; all fitting alone but
                // not together, by the sum.
                let too_far = distances.iter().any(|&d| d > left);
                let sum_only = !too_far && distances.iter().sum::<usize>() > left;
                if !(too_far || sum_only && options.distance_sum) {
                    continue;
                }
                let mut assumptions = vec![switch];
                for (g, c) in encoding.cells_of(position) {
                    assumptions.push(encoding.occupancy(t, g, c).expect("a square reached in t moves has a literal"));
                }
                assert!(
                    common::formula::propagates_to_conflict(&cnf, &assumptions),
                    "distances {distances:?} with {left} moves left at time {t} of {horizon}, {options:?}, \
                     not cut off:\n{puzzle:?}\n{position:?}"
                );
                by_piece += usize::from(too_far);
                by_sum += usize::from(sum_only);
            }
        }
    }
    eprintln!("hopeless positions cut off by propagation in {puzzles} puzzles: {by_sum} by the sum alone, {by_piece} with a piece too far");
    assert!(
        by_sum >= 100 && by_piece >= 100,
        "too few positions that tell: {by_sum} by the sum, {by_piece} by a piece"
    );
}

/// The size a step is refused by is estimated before the step is built ([`HorizonEncoding::
/// next_step_size`], and `full_step_size` for the transition relation of the invariant search):
/// on random puzzles, each estimate of a step of 300 clauses or more is between a quarter and
/// twice the clauses the step then adds.
#[test]
fn the_step_size_estimates_are_close_to_the_clauses_built() {
    use knights_sat::encodings::encode::exchange::full_step_size;
    let mut rng = ChaCha8Rng::seed_from_u64(0x7369_7a65);
    let (mut ratios, mut full_ratios) = (Vec::new(), Vec::new());
    while ratios.len() < 300 || full_ratios.len() < 100 {
        let (puzzle, _) = random_puzzle(&mut rng);
        let mut cnf = Cnf::new();
        let mut encoding = ExchangeEncoding::new(&puzzle, ExchangeOptions::default(), &mut cnf);
        for _ in 0..rng.random_range(1..=6) {
            let estimate = encoding.next_step_size().expect("an estimate");
            let before = cnf.len();
            encoding.extend(&mut cnf);
            if cnf.len() - before >= 300 {
                ratios.push(estimate as f64 / (cnf.len() - before) as f64);
            }
        }
        let mut transition = Cnf::new();
        let mut free = ExchangeEncoding::transition(&puzzle, ExchangeOptions::default(), &mut transition);
        let before = transition.len();
        free.extend(&mut transition);
        if transition.len() - before >= 300 {
            full_ratios.push(full_step_size(&puzzle) as f64 / (transition.len() - before) as f64);
        }
    }
    // Measured: 0.42 to 1.12 for the next step, 0.74 to 1.42 for the full step.
    for (name, r) in [("next step", &ratios), ("full step", &full_ratios)] {
        let (lo, hi) = r.iter().fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        eprintln!("{name}: estimate / clauses from {lo:.2} to {hi:.2}");
        assert!(lo >= 0.25 && hi <= 2.0, "{name}: the estimate is off by more than a factor of two to four");
    }
}

//! The formula of a horizon against every route a depth-first search with the rules oracle
//! finds, and the redundant families against partial routes they declare hopeless.

use knights_sat::encodings::encode::tour::{TourEncoding, TourOptions};
use knights_sat::encodings::encode::{AtMostOne, HorizonEncoding};
use knights_sat::encodings::geometry::{Board, PawnDirection, PieceKind, Square};
use knights_sat::encodings::ground_truth::rules::{reach, safe_squares, Action};
use knights_sat::encodings::ground_truth::tour::optimal_tour;
use knights_sat::encodings::puzzle::tour::{KnightStart, TourObjective, TourPuzzle, VisitOrder};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustsat::instances::Cnf;
use rustsat::types::Lit;

use super::{common, random_puzzle};

/// Every knight's square at every time of a route.
type Squares = Vec<Vec<usize>>;

/// The safe squares of `puzzle` and the knight's jumps between them, by the rules oracle.
fn safe_jumps(puzzle: &TourPuzzle) -> (Vec<bool>, Vec<Vec<usize>>) {
    let board = &puzzle.board;
    let safe = safe_squares(board, &puzzle.attackers);
    let jumps = (0..board.area())
        .map(|s| {
            reach(board, PieceKind::Knight, Action::Move, Square(s as u16), PawnDirection::Up)
                .into_iter()
                .map(|(to, _)| to.index())
                .filter(|&to| safe[to] && safe[s])
                .collect()
        })
        .collect();
    (safe, jumps)
}

/// Every route of exactly `steps` time steps that touches the targets, found by depth-first
/// search with the rules oracle, with the choices the encoding makes for interchangeable
/// knights (identical candidate starts: in increasing order of square) and, with
/// `canonical`, for consecutive commuting jumps (a lower knight may follow a higher one only by
/// landing where it stood); `None` past `limit` routes. Several knights moving together may all
/// wait in a step, as the formula allows (such a step only wastes time).
fn routes(
    puzzle: &TourPuzzle,
    steps: usize,
    canonical: bool,
    limit: usize,
) -> Option<std::collections::BTreeSet<Squares>> {
    let (safe, jumps) = safe_jumps(puzzle);
    let n = puzzle.knights.len();
    let together = puzzle.objective == TourObjective::Steps;
    let canonical = canonical && n > 1 && !together && puzzle.order == VisitOrder::Any;
    let done = |route: &Squares| match puzzle.order {
        VisitOrder::Any => puzzle.targets.iter().all(|t| route.iter().any(|now| now.contains(&t.index()))),
        VisitOrder::Listed => {
            let mut next = 0;
            for now in route {
                while next < puzzle.targets.len() && now.contains(&puzzle.targets[next].index()) {
                    next += 1;
                }
            }
            next == puzzle.targets.len()
        }
    };
    // Every start: distinct safe candidates, interchangeable knights in increasing order.
    let mut starts: Vec<Vec<usize>> = vec![Vec::new()];
    for (k, knight) in puzzle.knights.iter().enumerate() {
        let ordered = k > 0 && puzzle.knights[k - 1] == *knight && knight.candidates().len() >= 2;
        starts = starts
            .into_iter()
            .flat_map(|start| {
                let free: Vec<usize> = knight
                    .candidates()
                    .iter()
                    .map(|s| s.index())
                    .filter(|&s| safe[s] && !start.contains(&s) && !(ordered && start[k - 1] >= s))
                    .collect();
                free.into_iter().map(move |s| [start.clone(), vec![s]].concat())
            })
            .collect();
    }
    // Each step: every knight stays or jumps (several knights), exactly one jumps (one at a
    // time), the lone knight always jumps; the knights end on distinct squares.
    let successors = |now: &Vec<usize>| -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = vec![Vec::new()];
        for &square in now {
            let options: Vec<usize> = std::iter::once(square).chain(jumps[square].iter().copied()).collect();
            out = out.into_iter().flat_map(|o| options.iter().map(move |&s| [o.clone(), vec![s]].concat())).collect();
        }
        out.retain(|after| {
            let moved = after.iter().zip(now).filter(|(a, b)| a != b).count();
            let distinct = after.iter().enumerate().all(|(i, s)| !after[..i].contains(s));
            distinct && if together && n > 1 { true } else { moved == 1 }
        });
        out
    };
    let mut found = std::collections::BTreeSet::new();
    let mut stack: Vec<Squares> = starts.into_iter().map(|s| vec![s]).collect();
    let mut budget = 200_000;
    while let Some(route) = stack.pop() {
        budget -= 1;
        if budget == 0 {
            return None;
        }
        // No route when more targets are untouched than the knights can step on in time.
        let untouched = puzzle.targets.iter().filter(|t| !route.iter().any(|now| now.contains(&t.index()))).count();
        if untouched > (steps + 1 - route.len()) * n {
            continue;
        }
        if route.len() == steps + 1 {
            if done(&route) {
                found.insert(route);
                if found.len() > limit {
                    return None;
                }
            }
            continue;
        }
        let now = route.last().unwrap();
        for after in successors(now) {
            if canonical && route.len() >= 2 {
                let before = &route[route.len() - 2];
                let b = (0..n).find(|&k| before[k] != now[k]).expect("one knight jumped");
                let a = (0..n).find(|&k| now[k] != after[k]).expect("one knight jumps");
                if a < b && after[a] != before[b] {
                    continue;
                }
            }
            stack.push([route.clone(), vec![after]].concat());
        }
    }
    Some(found)
}

/// The routes that satisfy the formula of `steps` time steps, one per model (told apart by the
/// knights' squares); `None` past `limit`.
fn models(
    puzzle: &TourPuzzle,
    options: TourOptions,
    steps: usize,
    limit: usize,
) -> Option<std::collections::BTreeSet<Squares>> {
    let mut cnf = Cnf::new();
    let encoding = TourEncoding::new(puzzle, options, &mut cnf);
    let squares: Vec<Square> = puzzle.board.squares().collect();
    common::formula::routes_of(encoding, cnf, steps, limit, |encoding, solver| {
        let (mut route, mut positions) = (Vec::new(), Vec::new());
        for t in 0..=steps {
            let mut now = Vec::new();
            for k in 0..puzzle.knights.len() {
                let on: Vec<(Square, Lit)> = squares
                    .iter()
                    .filter_map(|&s| encoding.position(t, k, s).map(|lit| (s, lit)))
                    .filter(|&(_, lit)| solver.value(lit))
                    .collect();
                assert_eq!(on.len(), 1, "knight {k} stands on one square at time {t}");
                now.push(on[0].0.index());
                positions.push(on[0].1);
            }
            route.push(now);
        }
        (route, positions)
    })
}

/// The formula of a horizon has exactly one model for each route of that many time steps
/// that touches the targets (with the encoding's order for interchangeable knights and, where
/// asked, for commuting jumps): the whole set of routes, at the optimum and up to two steps
/// past it, against a depth-first search with the rules oracle, for one, two and three knights
/// with each objective and order. The redundant families (distance, count and colour bounds)
/// must remove no route; a dropped or misapplied rule shows here even where the optimum does
/// not move.
#[test]
fn the_formula_has_one_model_per_route() {
    const LIMIT: usize = 300;
    let mut rng = ChaCha8Rng::seed_from_u64(0x6d6f_6465_6c73);
    let (mut compared, mut non_empty, mut sorted, mut together) = (0, 0, 0, 0);
    while compared < 150 {
        let knights = rng.random_range(1..=3);
        let objective = [TourObjective::Moves, TourObjective::Steps, TourObjective::Feasible][rng.random_range(0..3)];
        let Some(puzzle) = random_puzzle(&mut rng, knights, objective) else { continue };
        let Ok(Some(optimum)) = optimal_tour(&puzzle, 200_000) else { continue };
        let least = if objective == TourObjective::Steps { optimum.steps } else { optimum.moves };
        let steps = least + rng.random_range(0..=2);
        if steps > 9 {
            continue;
        }
        let options = TourOptions {
            at_most_one: [AtMostOne::Ladder, AtMostOne::Pairwise, AtMostOne::Commander][rng.random_range(0..3)],
            distance_to_go: rng.random_bool(0.7),
            count_to_go: rng.random_bool(0.7),
            colour_count: rng.random_bool(0.7),
            canonical_order: rng.random_bool(0.7),
        };
        let Some(expected) = routes(&puzzle, steps, options.canonical_order, LIMIT) else { continue };
        let found = models(&puzzle, options, steps, LIMIT).expect("no more models than routes");
        assert_eq!(found, expected, "{steps} steps, {options:?}:\n{puzzle:?}");
        non_empty += usize::from(!expected.is_empty());
        if options.canonical_order && routes(&puzzle, steps, false, usize::MAX) != Some(expected.clone()) {
            sorted += 1;
        }
        together += usize::from(knights > 1 && objective == TourObjective::Steps && !expected.is_empty());
        compared += 1;
    }
    eprintln!("{compared} formulas: {non_empty} with routes, {sorted} pruned by the order, {together} moving together");
    assert!(non_empty >= 100 && sorted >= 10 && together >= 10, "too few cases that tell");
}

/// Fewest jumps over safe squares from `from` to `to` (`None`: unreachable).
fn jumps_between(jumps: &[Vec<usize>], from: usize, to: usize) -> Option<usize> {
    let mut distance = vec![None; jumps.len()];
    distance[from] = Some(0);
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(square) = queue.pop_front() {
        let d = distance[square].unwrap();
        if square == to {
            return Some(d);
        }
        for &next in &jumps[square] {
            if distance[next].is_none() {
                distance[next] = Some(d + 1);
                queue.push_back(next);
            }
        }
    }
    None
}

/// The redundant families of a tour (distance to go, count to go, by colour or not) remove no
/// route (the formula test above) and must cut off by unit propagation alone a legal partial
/// route that they declare hopeless: an untouched target beyond every knight's reach in the
/// steps left; more untouched targets than the jumps left can touch; more of one colour than the
/// jumps left can land on. Partial routes are random walks on random puzzles (targets in any
/// order), and each must stand without the goal switch, so that the conflict is the families'.
/// (With the route fixed up to time `t`, a target out of reach is also found by propagating
/// through the later layers, so the count families are what this test tells apart: a count
/// bound turned off fails it; the distance family turned off does not.)
#[test]
fn the_redundant_families_cut_off_hopeless_partial_routes_by_propagation() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x686f_7065);
    let mut cut = [0usize; 3];
    let mut samples = 0;
    while samples < 2_000 {
        let knights = rng.random_range(1..=2);
        let objective = [TourObjective::Moves, TourObjective::Steps][rng.random_range(0..2)];
        let Some(puzzle) = random_puzzle(&mut rng, knights, objective) else { continue };
        if puzzle.order != VisitOrder::Any || puzzle.targets.len() < 2 {
            continue;
        }
        let (safe, jumps) = safe_jumps(&puzzle);
        let together = objective == TourObjective::Steps && knights > 1;
        let options = TourOptions {
            distance_to_go: rng.random_bool(0.7),
            count_to_go: rng.random_bool(0.7),
            colour_count: rng.random_bool(0.5),
            canonical_order: false,
            ..TourOptions::default()
        };
        let horizon = rng.random_range(2..=8);
        let mut cnf = Cnf::new();
        let mut encoding = TourEncoding::new(&puzzle, options, &mut cnf);
        for _ in 0..horizon {
            encoding.extend(&mut cnf);
        }
        let switch = encoding.goal_switch(horizon, &mut cnf);
        // A random start (interchangeable knights in increasing order) and walk.
        let mut now: Vec<usize> = Vec::new();
        for (k, knight) in puzzle.knights.iter().enumerate() {
            let free: Vec<usize> =
                knight.candidates().iter().map(|s| s.index()).filter(|&s| safe[s] && !now.contains(&s)).collect();
            if free.is_empty() {
                break;
            }
            let square = free[rng.random_range(0..free.len())];
            if k > 0 && puzzle.knights[k - 1] == *knight && knight.candidates().len() >= 2 && now[k - 1] > square {
                now.insert(k - 1, square);
            } else {
                now.push(square);
            }
        }
        if now.len() < knights {
            continue;
        }
        let t = rng.random_range(0..horizon);
        let mut route = vec![now.clone()];
        for _ in 0..t {
            let movers: Vec<usize> = if together {
                (0..knights).filter(|_| rng.random_bool(0.6)).collect()
            } else {
                vec![rng.random_range(0..knights)]
            };
            for k in movers {
                let free: Vec<usize> = jumps[now[k]].iter().copied().filter(|s| !now.contains(s)).collect();
                if !free.is_empty() {
                    now[k] = free[rng.random_range(0..free.len())];
                }
            }
            if !together && route.last() == Some(&now) {
                break;
            }
            route.push(now.clone());
        }
        // The route must go on to the horizon: some knight can jump (and jump back), or the
        // knights move together and may all wait.
        let stuck = (0..knights).all(|k| jumps[now[k]].iter().all(|s| now.contains(s)));
        if route.len() != t + 1 || (stuck && !together) {
            continue;
        }
        samples += 1;
        let mut prefix = Vec::new();
        for (time, squares) in route.iter().enumerate() {
            for (k, &square) in squares.iter().enumerate() {
                prefix.push(encoding.position(time, k, Square(square as u16)).expect("a square the knight reached"));
            }
        }
        assert!(!common::formula::propagates_to_conflict(&cnf, &prefix), "a legal partial route conflicts: {route:?}");
        // What the families know at time t.
        let left = horizon - t;
        let untouched: Vec<Square> =
            puzzle.targets.iter().copied().filter(|s| !route.iter().any(|now| now.contains(&s.index()))).collect();
        let colour = |s: usize| (s % puzzle.board.width() + s / puzzle.board.width()) % 2;
        let far = untouched.iter().any(|target| {
            now.iter().all(|&square| jumps_between(&jumps, square, target.index()).is_none_or(|d| d > left))
        });
        let per_step = if together { knights } else { 1 };
        let too_many = untouched.len() > left * per_step;
        let too_many_of_a_colour = (0..2).any(|class| {
            let of_class = untouched.iter().filter(|s| colour(s.index()) == class).count();
            let on_class = now.iter().filter(|&&s| colour(s) == class).count();
            match (knights, together) {
                // A lone knight lands on `class` at the times its colour is `class`.
                (1, _) => of_class > (t + 1..=horizon).filter(|s| (colour(route[0][0]) + s) % 2 == class).count(),
                (_, false) => 2 * of_class + on_class > left + knights,
                (_, true) if left % 2 == 0 => of_class > knights * left / 2,
                (_, true) => of_class + on_class > knights * (left + 1) / 2,
            }
        });
        let families = [
            options.distance_to_go && far,
            options.count_to_go && !options.colour_count && too_many,
            options.count_to_go && options.colour_count && too_many_of_a_colour,
        ];
        if families.iter().any(|&f| f) {
            let mut assumptions = prefix.clone();
            assumptions.push(switch);
            assert!(
                common::formula::propagates_to_conflict(&cnf, &assumptions),
                "{families:?} at time {t} of {horizon}, {options:?}, route {route:?}, not cut off:\n{puzzle:?}"
            );
            for (count, family) in cut.iter_mut().zip(families) {
                *count += usize::from(family);
            }
        }
    }
    eprintln!("{samples} partial routes; cut off by distance {}, count {}, colour count {}", cut[0], cut[1], cut[2]);
    assert!(cut.iter().all(|&c| c >= 30), "too few partial routes that a family alone declares hopeless: {cut:?}");
}

/// How the knights of a colour-count case move, which decides how many targets of a colour
/// they can touch.
#[derive(Clone, Copy, PartialEq)]
enum Moving {
    /// A lone knight: it lands on a colour at every other jump.
    Lone,
    /// Two knights moving together, for an even or odd number of steps.
    Together { odd: bool },
    /// Two knights, one jump a step.
    OneAtATime,
}

/// One case for the colour-count test below; `None` when the case tells nothing, otherwise
/// whether a lone knight's start colour was left open.
fn colour_count_case(rng: &mut ChaCha8Rng, moving: Moving) -> Option<bool> {
    let n = rng.random_range(6..=8);
    let board = Board::new(n, n).unwrap();
    let colour = |s: usize| (s % n + s / n) % 2;
    let knights = if moving == Moving::Lone { 1 } else { 2 };
    let mut starts: Vec<usize> = Vec::new();
    while starts.len() < knights {
        let s = rng.random_range(0..board.area());
        if !starts.contains(&s) {
            starts.push(s);
        }
    }
    let horizon = match moving {
        Moving::Together { odd } => 2 * rng.random_range(2..=4) + usize::from(odd),
        _ => rng.random_range(5..=8),
    };
    let class = rng.random_range(0..2);
    let on_class = starts.iter().filter(|&&s| colour(s) == class).count();
    // The most targets of the class the knights can touch, from the start to the horizon.
    let room = match moving {
        Moving::Lone => (1..=horizon).filter(|s| (colour(starts[0]) + s) % 2 == class).count(),
        Moving::Together { odd: false } => knights * horizon / 2,
        Moving::Together { odd: true } => knights * (horizon + 1) / 2 - on_class,
        Moving::OneAtATime => (horizon + knights - on_class) / 2,
    };
    let objective = if matches!(moving, Moving::Together { .. }) { TourObjective::Steps } else { TourObjective::Moves };
    let at = |s: usize| KnightStart::At(Square(s as u16));
    let probe = TourPuzzle::new(None, board.clone(), Vec::new(), vec![at(starts[0])], None, VisitOrder::Any, objective);
    let (_, jumps) = safe_jumps(&probe.unwrap());
    let within = |s: usize| starts.iter().any(|&k| jumps_between(&jumps, k, s).is_some_and(|d| d <= horizon));
    let mut candidates: Vec<usize> =
        (0..board.area()).filter(|&s| !starts.contains(&s) && colour(s) == class && within(s)).collect();
    if candidates.len() <= room {
        return None;
    }
    let targets: Vec<Square> =
        (0..=room).map(|_| Square(candidates.swap_remove(rng.random_range(0..candidates.len())) as u16)).collect();
    let either_colour = knights == 1 && rng.random_bool(0.5);
    let mut knight_starts: Vec<KnightStart> = starts.iter().map(|&s| at(s)).collect();
    if either_colour {
        let other = (0..board.area()).filter(|&s| colour(s) != colour(starts[0])).nth(rng.random_range(0..n));
        knight_starts[0] = KnightStart::OneOf(vec![Square(starts[0] as u16), Square(other.unwrap() as u16)]);
    }
    let puzzle = TourPuzzle::new(None, board, Vec::new(), knight_starts, Some(targets), VisitOrder::Any, objective);
    let puzzle = puzzle.unwrap();
    let refuted = |colour_count: bool| {
        let options = TourOptions { colour_count, canonical_order: false, ..TourOptions::default() };
        let mut cnf = Cnf::new();
        let mut encoding = TourEncoding::new(&puzzle, options, &mut cnf);
        for _ in 0..horizon {
            encoding.extend(&mut cnf);
        }
        let mut assumptions = vec![encoding.goal_switch(horizon, &mut cnf)];
        for (k, &s) in starts.iter().enumerate() {
            assumptions.push(encoding.position(0, k, Square(s as u16)).expect("a start square of time 0"));
        }
        common::formula::propagates_to_conflict(&cnf, &assumptions)
    };
    if refuted(false) {
        return None;
    }
    assert!(refuted(true), "{} targets of colour {class}, room for {room}, {horizon} steps:\n{puzzle:?}", room + 1);
    Some(either_colour)
}

/// The colour count where propagation cannot count by itself. On boards of 6x6 to 8x8, the
/// knights have just started — a lone knight from a known square or from one of two squares
/// of either colour; two knights moving together for an even or odd number of steps, or one
/// at a time — with one target more of a colour than they can touch before the horizon, each
/// within reach. With the colour count, propagation must refute it. The cases kept are those
/// that the plain count, in its place, leaves open: on small boards propagation through the
/// layers often finds such a conflict with no count at all, and tells nothing.
#[test]
fn the_colour_count_refutes_what_propagation_cannot_count() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x636f_6c6f_7572);
    let kinds = [Moving::Lone, Moving::Together { odd: false }, Moving::Together { odd: true }, Moving::OneAtATime];
    // Cases per kind (a lone knight of open colour apart), each at least 20.
    let mut cases = [0usize; 5];
    for _ in 0..2_000 {
        for (i, &moving) in kinds.iter().enumerate() {
            match colour_count_case(&mut rng, moving) {
                Some(true) => cases[4] += 1,
                Some(false) => cases[i] += 1,
                None => {}
            }
        }
        if cases.iter().all(|&c| c >= 20) {
            break;
        }
    }
    eprintln!(
        "refuted by the colour count alone: lone knight {} (known colour), {} (either); two together {} (even), \
         {} (odd); one at a time {}",
        cases[0], cases[4], cases[1], cases[2], cases[3]
    );
    assert!(cases.iter().all(|&c| c >= 20), "too few cases that only counting refutes: {cases:?}");
}

/// The size a goal switch is refused by is estimated before it is built
/// ([`HorizonEncoding::goal_switch_size`]) from the distance-to-go family, the part that grows
/// with the board, the knights and the horizon: on random tours with that family alone, each
/// estimate of a switch of 1,000 literals or more is between half and twice the literals the
/// switch then adds. (The count family's totalizers, built once per time and reused by later
/// switches, are not estimated: with several knights they measured up to five times the
/// estimate, on small boards where the whole switch stays small.)
#[test]
fn the_goal_switch_estimates_are_close_to_the_literals_built() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7377_6974_6368);
    let mut ratios = Vec::new();
    while ratios.len() < 200 {
        let knights = rng.random_range(1..=3);
        let objective = [TourObjective::Moves, TourObjective::Steps][rng.random_range(0..2)];
        let Some(puzzle) = random_puzzle(&mut rng, knights, objective) else { continue };
        let options = TourOptions { count_to_go: false, ..TourOptions::default() };
        let mut cnf = Cnf::new();
        let mut encoding = TourEncoding::new(&puzzle, options, &mut cnf);
        let horizon = rng.random_range(1..=10);
        for _ in 0..horizon {
            encoding.extend(&mut cnf);
        }
        let estimate = encoding.goal_switch_size(horizon).expect("an estimate");
        let before = cnf.len();
        encoding.goal_switch(horizon, &mut cnf);
        let literals: usize = cnf.iter().skip(before).map(|clause| clause.len()).sum();
        if literals >= 1_000 {
            ratios.push(estimate as f64 / literals as f64);
        }
    }
    let (lo, hi) = ratios.iter().fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    // Measured: 1.00 to 1.69.
    eprintln!("goal switch: estimate / literals from {lo:.2} to {hi:.2}");
    assert!(lo >= 0.5 && hi <= 2.0, "the estimate is off by more than a factor of two");
}

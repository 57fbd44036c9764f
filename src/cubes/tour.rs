//! A tour in cubes: the paths of the knights' first `depth` steps (a move of one knight each
//! for the `moves` objective; the knights jumping together, any of them, for `steps`). Every
//! route of at least `depth` steps begins with one of them; two paths that leave the knights on
//! the same squares having touched the same targets lead on alike, so one of each such set is
//! kept. Their searches, each for the shortest route that begins with its path, together with
//! the split's own search of the horizons below `depth`, answer what the horizon search
//! answers alone.

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::certify::split::RouteCube;
use crate::driver::{self, CubeSearch, Event, Outcome, TourSearch};
use crate::encodings::geometry::Square;
use crate::encodings::puzzle::tour::{Route, TourObjective, TourPuzzle, VisitOrder};
use crate::Error;

/// The most paths a depth may hold while the split looks for its depth.
const MAX_PATHS: usize = 1_000_000;

/// The knights' squares at one time.
pub type Squares = Vec<Square>;

/// One cube of a tour: the knights' squares at times 0, 1, …, the job's depth; at each time
/// one square per knight, joined by `+` (`h8` for a lone knight, `e2+c6` for two).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathCube {
    /// The squares, by name, time by time.
    pub path: Vec<String>,
}

impl PathCube {
    /// The cube of `path` (time by time, a square per knight) on the board of `puzzle`.
    pub fn of(path: &[Squares], puzzle: &TourPuzzle) -> PathCube {
        let name = |squares: &Squares| squares.iter().map(|&s| puzzle.board.name(s)).collect::<Vec<_>>().join("+");
        PathCube { path: path.iter().map(name).collect() }
    }

    /// The squares of this cube, time by time, checked against `puzzle`: the knights' starts,
    /// then steps of the puzzle's objective over safe squares, never two knights on a square.
    pub fn squares(&self, puzzle: &TourPuzzle) -> Result<Vec<Squares>, String> {
        let knights = puzzle.knights.len();
        let mut path = Vec::with_capacity(self.path.len());
        for (t, names) in self.path.iter().enumerate() {
            let squares = names
                .split('+')
                .map(|name| puzzle.board.parse_square(name).map_err(|e| format!("`{name}`: {e}")))
                .collect::<Result<Squares, String>>()?;
            if squares.len() != knights {
                return Err(format!("`{names}` names {} squares for {knights} knights", squares.len()));
            }
            if (1..knights).any(|k| squares[..k].contains(&squares[k])) {
                return Err(format!("`{names}` puts two knights on one square"));
            }
            if t == 0 {
                if let Some(k) = (0..knights).find(|&k| !puzzle.knights[k].candidates().contains(&squares[k])) {
                    return Err(format!("knight {} cannot start on {}", k + 1, puzzle.board.name(squares[k])));
                }
            } else if !is_step(puzzle, &path[t - 1], &squares) {
                return Err(format!("{} to {names} is not a step of the puzzle", self.path[t - 1]));
            }
            path.push(squares);
        }
        if path.is_empty() {
            return Err("the path is empty".into());
        }
        Ok(path)
    }

    /// The cube as a certificate names it: the knights' last squares and the targets the path
    /// touched (two paths alike in these lead on alike).
    pub fn route_cube(&self, puzzle: &TourPuzzle) -> Result<RouteCube, String> {
        let path = self.squares(puzzle)?;
        let last = path.last().expect("a path has a first time");
        let touched = puzzle.targets.iter().filter(|t| path.iter().any(|at| at.contains(t)));
        Ok(RouteCube::Reached {
            squares: last.iter().map(|&s| puzzle.board.name(s)).collect(),
            touched: touched.map(|&t| puzzle.board.name(t)).collect(),
        })
    }
}

/// Whether `after` follows `before` in one step of `puzzle`: one knight's move for the
/// `moves` objective, any knights' moves at once (at least one) for `steps`.
fn is_step(puzzle: &TourPuzzle, before: &Squares, after: &Squares) -> bool {
    let moved: Vec<usize> = (0..before.len()).filter(|&k| before[k] != after[k]).collect();
    let legal = moved.iter().all(|&k| puzzle.knight_moves(before[k]).contains(&after[k]));
    let count_fits = if puzzle.objective == TourObjective::Steps { !moved.is_empty() } else { moved.len() == 1 };
    legal && count_fits
}

/// Every step from `squares`: the knights' squares after it, never two on one square.
fn steps_from(puzzle: &TourPuzzle, squares: &Squares) -> Vec<Squares> {
    let moves: Vec<Vec<Square>> = squares.iter().map(|&s| puzzle.knight_moves(s)).collect();
    let free = |after: &Squares| (1..after.len()).all(|k| !after[..k].contains(&after[k]));
    let mut out = Vec::new();
    if puzzle.objective == TourObjective::Steps {
        // Each knight stays or jumps; not all stay.
        let mut partial: Vec<Squares> = vec![Vec::new()];
        for (k, &at) in squares.iter().enumerate() {
            partial = partial
                .into_iter()
                .flat_map(|p| {
                    std::iter::once(at).chain(moves[k].iter().copied()).map(move |s| [p.clone(), vec![s]].concat())
                })
                .collect();
        }
        out.extend(partial.into_iter().filter(|after| after != squares && free(after)));
    } else {
        for (k, targets) in moves.iter().enumerate() {
            for &to in targets {
                let mut after = squares.clone();
                after[k] = to;
                if free(&after) {
                    out.push(after);
                }
            }
        }
    }
    out
}

/// What the split of a tour found.
#[derive(Debug)]
pub struct TourSplit {
    /// The steps the cubes' paths take.
    pub depth: usize,
    /// The paths (none if the split decided the puzzle below `depth`).
    pub cubes: Vec<PathCube>,
    /// The split's own search of the horizons below `depth`.
    pub below: Outcome,
}

/// Whether `puzzle` can be split: targets in any order, for the fewest moves or time steps.
pub fn tour_splittable(puzzle: &TourPuzzle) -> Result<(), String> {
    if !matches!(puzzle.objective, TourObjective::Moves | TourObjective::Steps) {
        return Err(format!("a tour is split for an optimum, not for the `{}` objective", puzzle.objective.name()));
    }
    if puzzle.order != VisitOrder::Any {
        return Err("a tour in a listed order is solved leg by leg, each leg a small search: use `solve`".into());
    }
    Ok(())
}

/// Splits the horizon search of `puzzle` up to `max_horizon` steps: the least depth whose
/// paths number at least `wanted` (or, short of that, the first whose knights' squares and
/// touched targets repeat an earlier depth's, the deepest up to `max_horizon`, or the last
/// short of a million), after the horizons below that depth are searched here. The split's
/// solver calls go to `emit`.
pub fn split_tour(
    puzzle: &TourPuzzle,
    wanted: usize,
    max_horizon: usize,
    emit: &mut dyn FnMut(&Event),
) -> Result<TourSplit, Error> {
    tour_splittable(puzzle).map_err(Error::Unsupported)?;
    if max_horizon == 0 {
        return Err(Error::Unsupported("a horizon of 0 moves leaves nothing to split".into()));
    }
    let target_of: BTreeMap<Square, usize> = puzzle.targets.iter().enumerate().map(|(j, &t)| (t, j)).collect();
    let touch = |touched: &mut Vec<bool>, squares: &Squares| {
        for square in squares {
            if let Some(&j) = target_of.get(square) {
                touched[j] = true;
            }
        }
    };
    let too_many = || Error::Unsupported(format!("the paths of one step number more than {MAX_PATHS}"));
    // The paths of the current depth, one per knights' squares and touched targets.
    let mut paths: BTreeMap<(Squares, Vec<bool>), Vec<Squares>> = BTreeMap::new();
    for start in starts(puzzle, MAX_PATHS).ok_or_else(too_many)? {
        let mut touched = vec![false; puzzle.targets.len()];
        touch(&mut touched, &start);
        paths.insert((start.clone(), touched), vec![start]);
    }
    let mut depth = 0;
    // The squares and touched targets repeat once every pair has been met; deeper paths add
    // nothing.
    let mut seen: HashSet<Vec<(Squares, Vec<bool>)>> = HashSet::new();
    // At least one step, then on until there are enough paths.
    while depth < max_horizon
        && (depth == 0 || paths.len() < wanted)
        && !paths.is_empty()
        && seen.insert(paths.keys().cloned().collect())
    {
        let mut next = BTreeMap::new();
        for ((last, touched), path) in &paths {
            for after in steps_from(puzzle, last) {
                let mut touched = touched.clone();
                touch(&mut touched, &after);
                next.entry((after.clone(), touched)).or_insert_with(|| [path.clone(), vec![after]].concat());
            }
            if next.len() > MAX_PATHS {
                break;
            }
        }
        if next.len() > MAX_PATHS {
            break;
        }
        paths = next;
        depth += 1;
    }
    if depth == 0 {
        return Err(too_many());
    }
    let search = TourSearch { max_horizon: depth - 1, ..TourSearch::default() };
    let below = driver::solve_tour(puzzle, &search, emit)?;
    let decided = below.value.is_some() || below.reason.is_some();
    let cubes = if decided { Vec::new() } else { paths.values().map(|path| PathCube::of(path, puzzle)).collect() };
    Ok(TourSplit { depth, cubes, below })
}

/// The knights' possible starts, never two on one square; `None` past `most`.
fn starts(puzzle: &TourPuzzle, most: usize) -> Option<Vec<Squares>> {
    let mut partial: Vec<Squares> = vec![Vec::new()];
    for knight in &puzzle.knights {
        let mut next = Vec::new();
        for p in &partial {
            for &square in knight.candidates().iter().filter(|s| !p.contains(s)) {
                next.push([p.clone(), vec![square]].concat());
                if next.len() > most {
                    return None;
                }
            }
        }
        partial = next;
    }
    Some(partial)
}

/// Searches one cube: the shortest route of at most `max_horizon` steps that begins with
/// `path` (time by time, a square per knight), asking each horizon while `worth_asking` says so.
pub fn solve_path_cube(
    puzzle: &TourPuzzle,
    path: &[Squares],
    max_horizon: usize,
    worth_asking: &dyn Fn(usize) -> bool,
    emit: &mut dyn FnMut(&Event),
) -> Result<CubeSearch<Route>, Error> {
    let search = TourSearch { max_horizon, ..TourSearch::default() };
    driver::solve_tour_cube(puzzle, &search, path, worth_asking, emit)
}

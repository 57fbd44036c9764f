//! A lone knight's tour in cubes: the paths of its first `depth` moves. Every route of at
//! least `depth` moves begins with one of them; two paths that end on the same square having
//! touched the same targets lead on alike, so one of each such pair is kept. Their searches,
//! each for the shortest route that begins with its path, together with the split's own
//! search of the horizons below `depth`, answer what the horizon search answers alone.

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::certify::split::RouteCube;
use crate::driver::{self, CubeSearch, Event, Outcome, TourSearch};
use crate::encodings::geometry::Square;
use crate::encodings::puzzle::tour::{Route, TourObjective, TourPuzzle, VisitOrder};
use crate::Error;

/// The most paths a depth may hold while the split looks for its depth.
const MAX_PATHS: usize = 1_000_000;

/// One cube of a tour: the knight's squares at times 0, 1, …, the job's depth.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathCube {
    /// The squares, by name.
    pub path: Vec<String>,
}

impl PathCube {
    /// The squares of this cube, checked against `puzzle`: a start of the knight, then knight
    /// moves over safe squares.
    pub fn squares(&self, puzzle: &TourPuzzle) -> Result<Vec<Square>, String> {
        let squares = self
            .path
            .iter()
            .map(|name| puzzle.board.parse_square(name).map_err(|e| format!("`{name}`: {e}")))
            .collect::<Result<Vec<Square>, String>>()?;
        let Some(&first) = squares.first() else { return Err("the path is empty".into()) };
        if !puzzle.knights[0].candidates().contains(&first) {
            return Err(format!("the knight cannot start on {}", self.path[0]));
        }
        for (i, pair) in squares.windows(2).enumerate() {
            if !puzzle.knight_moves(pair[0]).contains(&pair[1]) {
                return Err(format!("{} to {} is not a move over safe squares", self.path[i], self.path[i + 1]));
            }
        }
        Ok(squares)
    }

    /// The cube as a certificate names it: the path's last square and the targets it touched
    /// (two paths alike in these lead on alike).
    pub fn route_cube(&self, puzzle: &TourPuzzle) -> Result<RouteCube, String> {
        let squares = self.squares(puzzle)?;
        let last = *squares.last().expect("a path has a first square");
        let touched = puzzle.targets.iter().filter(|t| squares.contains(t)).map(|&t| puzzle.board.name(t)).collect();
        Ok(RouteCube::Reached { square: puzzle.board.name(last), touched })
    }
}

/// What the split of a tour found.
#[derive(Debug)]
pub struct TourSplit {
    /// The moves the cubes' paths take.
    pub depth: usize,
    /// The paths (none if the split decided the puzzle below `depth`).
    pub cubes: Vec<PathCube>,
    /// The split's own search of the horizons below `depth`.
    pub below: Outcome,
}

/// Whether `puzzle` can be split: a lone knight, fewest moves, targets in any order.
pub fn tour_splittable(puzzle: &TourPuzzle) -> Result<(), String> {
    if puzzle.knights.len() != 1 {
        return Err("a tour is split for a lone knight; this one has several".into());
    }
    if puzzle.objective != TourObjective::Moves {
        return Err(format!("a tour is split for the `moves` objective, not `{}`", puzzle.objective.name()));
    }
    if puzzle.order != VisitOrder::Any {
        return Err("a tour in a listed order is solved leg by leg, each leg a small search: use `solve`".into());
    }
    Ok(())
}

/// Splits the horizon search of `puzzle` up to `max_horizon` moves: the least depth whose
/// paths number at least `wanted` (or, short of that, the first whose end squares and touched
/// targets repeat an earlier depth's, the deepest up to `max_horizon`, or the last short of a
/// million),
/// after the horizons below that depth are searched here. The split's solver calls go to
/// `emit`.
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
    let touch = |touched: &mut Vec<bool>, square: Square| {
        if let Some(&j) = target_of.get(&square) {
            touched[j] = true;
        }
    };
    // The paths of the current depth, one per last square and touched targets.
    let mut paths: BTreeMap<(Square, Vec<bool>), Vec<Square>> = BTreeMap::new();
    for &start in puzzle.knights[0].candidates() {
        let mut touched = vec![false; puzzle.targets.len()];
        touch(&mut touched, start);
        paths.insert((start, touched), vec![start]);
    }
    let mut depth = 0;
    // The end squares and touched targets repeat once every pair has been met; deeper paths
    // add nothing.
    let mut seen: HashSet<Vec<(Square, Vec<bool>)>> = HashSet::new();
    // At least one move, then on until there are enough paths.
    while depth < max_horizon
        && (depth == 0 || paths.len() < wanted)
        && !paths.is_empty()
        && seen.insert(paths.keys().cloned().collect())
    {
        let mut next = BTreeMap::new();
        for ((last, touched), path) in &paths {
            for to in puzzle.knight_moves(*last) {
                let mut touched = touched.clone();
                touch(&mut touched, to);
                next.entry((to, touched)).or_insert_with(|| path.iter().copied().chain([to]).collect());
            }
        }
        if next.len() > MAX_PATHS {
            break;
        }
        paths = next;
        depth += 1;
    }
    if depth == 0 {
        return Err(Error::Unsupported(format!("the paths of one move number more than {MAX_PATHS}")));
    }
    let search = TourSearch { max_horizon: depth - 1, ..TourSearch::default() };
    let below = driver::solve_tour(puzzle, &search, emit)?;
    let decided = below.value.is_some() || below.reason.is_some();
    let name = |path: &Vec<Square>| PathCube { path: path.iter().map(|&s| puzzle.board.name(s)).collect() };
    let cubes = if decided { Vec::new() } else { paths.values().map(name).collect() };
    Ok(TourSplit { depth, cubes, below })
}

/// Searches one cube: the shortest route of at most `max_horizon` moves that begins with
/// `path`, asking each horizon while `worth_asking` says so.
pub fn solve_path_cube(
    puzzle: &TourPuzzle,
    path: &[Square],
    max_horizon: usize,
    worth_asking: &dyn Fn(usize) -> bool,
    emit: &mut dyn FnMut(&Event),
) -> Result<CubeSearch<Route>, Error> {
    let search = TourSearch { max_horizon, ..TourSearch::default() };
    driver::solve_tour_cube(puzzle, &search, path, worth_asking, emit)
}

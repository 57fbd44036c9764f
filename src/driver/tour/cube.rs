//! One cube of a tour: the routes that begin with a given path of the knights. Every route of
//! at least `d` steps begins with one of the paths of `d` steps, so those paths, searched
//! apart, answer together what the horizon search answers alone.

use knights_sat_encodings::encode::tour::TourEncoding;
use knights_sat_encodings::geometry::Square;
use knights_sat_encodings::puzzle::tour::{Route, TourObjective, TourPuzzle};
use rustsat::types::Lit;

use super::super::horizon::{search_cube, CubeSearch, SatHorizon};
use super::{checked, fewer_moves, TourSearch};
use crate::driver::Event;
use crate::Error;

/// The shortest tour of at most `search.max_horizon` steps whose knight `k` stands on
/// `path[t][k]` at each time `t` of the path, if there is one. Horizons from the path's length
/// up are asked in turn, while `worth_asking` says so, on one solver whose formula holds the
/// path as unit clauses; with the `steps` objective and several knights, the route found then
/// has the fewest moves in the cube at its horizon. Every call is reported to `on_event`.
pub fn solve_tour_cube(
    puzzle: &TourPuzzle,
    search: &TourSearch,
    path: &[Vec<Square>],
    worth_asking: &dyn Fn(usize) -> bool,
    on_event: &mut dyn FnMut(&Event),
) -> Result<CubeSearch<Route>, Error> {
    let knights = puzzle.knights.len();
    if path.is_empty() || path.iter().any(|squares| squares.len() != knights) {
        return Err(Error::Internal("a tour's cube is a path of every knight from its start".into()));
    }
    let options = search.encoding;
    let mut oracle = SatHorizon::new(search.solver, true, |cnf| TourEncoding::new(puzzle, options, cnf));
    let mut emit = |event: Event| on_event(&event);
    let cube = |encoding: &TourEncoding| {
        let units = path.iter().enumerate().flat_map(|(t, squares)| {
            squares.iter().enumerate().map(move |(k, &square)| encoding.position(t, k, square))
        });
        units.collect::<Option<Vec<Lit>>>()
    };
    let searched = search_cube(&mut oracle, (path.len() - 1, search.max_horizon), cube, worth_asking, &mut emit)?;
    let fewer = puzzle.objective == TourObjective::Steps && knights > 1;
    let found = match searched.found {
        Some(route) if fewer => {
            let horizon = route.time_steps();
            Some(fewer_moves(puzzle, &mut oracle, horizon, route, false, &mut emit)?.0)
        }
        Some(route) => Some(checked(puzzle, route)?),
        None => None,
    };
    Ok(CubeSearch { found, ..searched })
}

//! One cube of a lone knight's tour: the routes that begin with a given path. Every route of
//! at least `d` moves begins with one of the paths of `d` moves, so those paths, searched
//! apart, answer together what the horizon search answers alone.

use knights_sat_encodings::encode::tour::TourEncoding;
use knights_sat_encodings::geometry::Square;
use knights_sat_encodings::puzzle::tour::{Route, TourPuzzle};
use rustsat::types::Lit;

use super::super::horizon::{search_cube, CubeSearch, SatHorizon};
use super::{checked, TourSearch};
use crate::driver::Event;
use crate::Error;

/// The shortest tour of at most `search.max_horizon` moves whose lone knight stands on
/// `path[t]` at each time `t` of the path, if there is one. Horizons from the path's length
/// up are asked in turn, while `worth_asking` says so, on one solver whose formula holds the
/// path as unit clauses; every call is reported to `on_event`.
pub fn solve_tour_cube(
    puzzle: &TourPuzzle,
    search: &TourSearch,
    path: &[Square],
    worth_asking: &dyn Fn(usize) -> bool,
    on_event: &mut dyn FnMut(&Event),
) -> Result<CubeSearch<Route>, Error> {
    if puzzle.knights.len() != 1 || path.is_empty() {
        return Err(Error::Internal("a tour's cube is a lone knight's path from its start".into()));
    }
    let options = search.encoding;
    let mut oracle = SatHorizon::new(search.solver, true, |cnf| TourEncoding::new(puzzle, options, cnf));
    let mut emit = |event: Event| on_event(&event);
    let cube = |encoding: &TourEncoding| {
        path.iter().enumerate().map(|(t, &square)| encoding.position(t, 0, square)).collect::<Option<Vec<Lit>>>()
    };
    let searched = search_cube(&mut oracle, (path.len() - 1, search.max_horizon), cube, worth_asking, &mut emit)?;
    let found = searched.found.map(|route| checked(puzzle, route)).transpose()?;
    Ok(CubeSearch { found, ..searched })
}

//! One cube of an exchange's horizon search: the routes that stand at a given position after
//! a given number of moves. Every route of at least that many moves passes through one of the
//! positions reachable in exactly that many, so those positions, searched apart (on other
//! cores or machines), answer together what the horizon search answers alone.

use knights_sat_encodings::encode::exchange::ExchangeEncoding;
use knights_sat_encodings::puzzle::{ExchangePuzzle, Move, Position};
use rustsat::types::Lit;

use super::super::horizon::{search_cube, CubeSearch, SatHorizon};
use super::{checked, ExchangeSearch};
use crate::driver::Event;
use crate::Error;

/// The shortest exchange of at most `search.max_horizon` moves that stands at `position`
/// after `after` moves, if there is one. Horizons `after` and up are asked in turn, while
/// `worth_asking` says so, on one solver whose formula holds the position at `after` as unit
/// clauses; every call is reported to `on_event`.
pub fn solve_exchange_cube(
    puzzle: &ExchangePuzzle,
    search: &ExchangeSearch,
    (after, position): (usize, &Position),
    worth_asking: &dyn Fn(usize) -> bool,
    on_event: &mut dyn FnMut(&Event),
) -> Result<CubeSearch<Vec<Move>>, Error> {
    let options = search.encoding;
    let mut oracle = SatHorizon::new(search.solver, true, |cnf| ExchangeEncoding::new(puzzle, options, cnf));
    let mut emit = |event: Event| on_event(&event);
    let cube = |encoding: &ExchangeEncoding| {
        let cells = encoding.cells_of(position);
        if cells.len() != puzzle.piece_count() {
            // A piece on a square the encoding leaves out: no route stands there.
            return None;
        }
        cells.into_iter().map(|(group, cell)| encoding.occupancy(after, group, cell)).collect::<Option<Vec<Lit>>>()
    };
    let searched = search_cube(&mut oracle, (after, search.max_horizon), cube, worth_asking, &mut emit)?;
    let found = searched.found.map(|moves| checked(puzzle, moves)).transpose()?;
    Ok(CubeSearch { found, ..searched })
}

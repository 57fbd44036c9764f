//! One cube of an exchange's horizon search: the routes that stand at a given position after
//! a given number of moves. Every route of at least that many moves passes through one of the
//! positions reachable in exactly that many, so those positions, searched apart (on other
//! cores or machines), answer together what the horizon search answers alone.

use knights_sat_encodings::encode::exchange::ExchangeEncoding;
use knights_sat_encodings::puzzle::{ExchangePuzzle, Move, Position};
use rustsat::types::Lit;

use super::super::horizon::{first_reachable, nothing_between, Reached, SatHorizon};
use super::{checked, ExchangeSearch};
use crate::driver::{Event, Query};
use crate::Error;

/// The shortest exchange of at most `search.max_horizon` moves that stands at `position`
/// after `after` moves: its moves, or `None` when there is none. Horizons `after` and up are
/// asked in turn on one solver whose formula holds the position at `after` as unit clauses;
/// every call is reported to `on_event`.
pub fn solve_exchange_cube(
    puzzle: &ExchangePuzzle,
    search: &ExchangeSearch,
    after: usize,
    position: &Position,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Option<Vec<Move>>, Error> {
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
    if !oracle.restrict(after, cube)? {
        return Ok(None);
    }
    match first_reachable(&mut oracle, after..=search.max_horizon, Query::Goal, &mut emit, nothing_between)? {
        Reached::At(_, moves) => Ok(Some(checked(puzzle, moves)?)),
        Reached::Stopped | Reached::Exhausted => Ok(None),
    }
}

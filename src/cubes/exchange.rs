//! An exchange in cubes: the positions it reaches in exactly `depth` moves. Every route of at
//! least `depth` moves stands on one of them after `depth` moves, so their searches, each for
//! the shortest route through its position, together with the split's own search of the
//! horizons below `depth`, answer what the horizon search answers alone.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::certify::split::{parse_position, RouteCube};
use crate::driver::{self, CubeSearch, Event, ExchangeSearch, Outcome};
use crate::encodings::geometry::Piece;
use crate::encodings::ground_truth::exchange::positions_after;
use crate::encodings::puzzle::{ExchangePuzzle, Move, Position};
use crate::Error;

/// The most positions a layer may hold while the split looks for its depth.
const MAX_LAYER: usize = 1_000_000;

/// One cube of an exchange: the position after the job's depth, a token per piece, its side's
/// index, a colon, its letter and its square (`1:Nb3`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionCube {
    /// The pieces, in the order of the board's squares.
    pub pieces: Vec<String>,
}

impl PositionCube {
    /// The cube of `position` on the board of `puzzle`.
    pub fn of(position: &Position, puzzle: &ExchangePuzzle) -> PositionCube {
        let token = |(square, piece): (_, Piece)| {
            format!("{}:{}{}", piece.side, piece.kind.letter(), puzzle.board.name(square))
        };
        PositionCube { pieces: position.pieces().map(token).collect() }
    }

    /// The position this cube names, checked against `puzzle`: every piece on a square of the
    /// board, one a square, and the pieces of the puzzle, no more and no fewer.
    pub fn position(&self, puzzle: &ExchangePuzzle) -> Result<Position, String> {
        parse_position(&self.pieces, puzzle)
    }

    /// The cube as a certificate names it.
    pub fn route_cube(&self) -> RouteCube {
        RouteCube::Position(self.pieces.clone())
    }
}

/// What the split of an exchange found.
#[derive(Debug)]
pub struct ExchangeSplit {
    /// The moves after which the cubes stand.
    pub depth: usize,
    /// The positions reachable in exactly `depth` moves (none if the split decided the
    /// puzzle below `depth`).
    pub cubes: Vec<PositionCube>,
    /// The split's own search of the horizons below `depth`.
    pub below: Outcome,
}

/// Splits the horizon search of `puzzle` up to `max_horizon` moves: the least depth whose
/// positions number at least `wanted` (or, short of that, the first whose positions repeat an
/// earlier depth's, the deepest up to `max_horizon`, or the last short of a million),
/// after the horizons below that depth are searched here. The split's solver calls go to
/// `emit`.
pub fn split_exchange(
    puzzle: &ExchangePuzzle,
    wanted: usize,
    max_horizon: usize,
    emit: &mut dyn FnMut(&Event),
) -> Result<ExchangeSplit, Error> {
    if max_horizon == 0 {
        return Err(Error::Unsupported("a horizon of 0 moves leaves nothing to split".into()));
    }
    let mut chosen: Option<(usize, Vec<Position>)> = None;
    // The layers repeat once every reachable position has been met; deeper ones add nothing.
    let mut seen = HashSet::new();
    for depth in 1..=max_horizon {
        let Ok(layer) = positions_after(puzzle, depth, MAX_LAYER) else { break };
        let (enough, empty, repeated) = (layer.len() >= wanted, layer.is_empty(), !seen.insert(layer.clone()));
        chosen = Some((depth, layer));
        if enough || empty || repeated {
            break;
        }
    }
    let Some((depth, layer)) = chosen else {
        return Err(Error::Unsupported(format!("the positions after one move number more than {MAX_LAYER}")));
    };
    let search = ExchangeSearch { max_horizon: depth - 1, ..ExchangeSearch::default() };
    let below = driver::solve_exchange(puzzle, &search, emit)?;
    let decided = below.value.is_some() || below.reason.is_some();
    let cubes = if decided { Vec::new() } else { layer.iter().map(|p| PositionCube::of(p, puzzle)).collect() };
    Ok(ExchangeSplit { depth, cubes, below })
}

/// Searches one cube: the shortest route of at most `max_horizon` moves that stands at
/// `position` after `depth` moves, asking each horizon while `worth_asking` says so.
pub fn solve_position_cube(
    puzzle: &ExchangePuzzle,
    (depth, position): (usize, &Position),
    max_horizon: usize,
    worth_asking: &dyn Fn(usize) -> bool,
    emit: &mut dyn FnMut(&Event),
) -> Result<CubeSearch<Vec<Move>>, Error> {
    let search = ExchangeSearch { max_horizon, ..ExchangeSearch::default() };
    driver::solve_exchange_cube(puzzle, &search, (depth, position), worth_asking, emit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encodings::puzzle::{self, Puzzle};

    fn guarini() -> ExchangePuzzle {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/guarini.toml")).unwrap();
        match puzzle::parse(&text, "guarini.toml").unwrap() {
            Puzzle::Exchange(p) => p,
            _ => panic!("guarini.toml is an exchange"),
        }
    }

    #[test]
    fn a_cube_names_its_position_and_nothing_else() {
        let p = guarini();
        let cube = PositionCube::of(&p.start, &p);
        assert_eq!(cube.position(&p).unwrap(), p.start);
        for bad in ["1:Na1", "0:Xa1", "a1", "9:Na1", "0:Nz9"] {
            let mut broken = cube.clone();
            broken.pieces[0] = bad.to_string();
            assert!(broken.position(&p).is_err(), "{bad} accepted");
        }
        let mut short = cube.clone();
        short.pieces.pop();
        assert!(short.position(&p).is_err());
    }
}

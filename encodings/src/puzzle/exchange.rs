//! Exchange puzzles: move pieces from a start position to a goal position, one piece a move,
//! each move onto an empty square, in the fewest moves (Guarini's knights, 1512, and its
//! generalisations to any board, sides and pieces).

use std::collections::BTreeMap;

use crate::geometry::{move_steps, Board, PawnDirection, Piece, Square};

/// A side (a colour) that owns pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// Name used in files, on the command line and in output (`white`, `black`, …).
    pub name: String,
    /// Direction in which this side's pawns move.
    pub pawns: PawnDirection,
}

/// Which piece stands on each square of a board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    squares: Vec<Option<Piece>>,
}

impl Position {
    /// An empty position for a board with `area` squares (see [`Board::area`]).
    pub fn empty(area: usize) -> Position {
        Position { squares: vec![None; area] }
    }

    /// Puts a piece on a square; if the square is taken, returns the piece already there.
    pub fn place(&mut self, square: Square, piece: Piece) -> Result<(), Piece> {
        match self.squares[square.index()] {
            Some(other) => Err(other),
            None => {
                self.squares[square.index()] = Some(piece);
                Ok(())
            }
        }
    }

    /// The piece on a square.
    pub fn get(&self, square: Square) -> Option<Piece> {
        self.squares[square.index()]
    }

    /// Removes and returns the piece on a square.
    pub fn take(&mut self, square: Square) -> Option<Piece> {
        self.squares[square.index()].take()
    }

    /// The goal of a two-sided swap: every piece of one side stands where a piece of the same
    /// kind of the other side stood (sides 0 and 1 exchanged).
    pub fn swap_sides(&self) -> Position {
        let mut swapped = self.clone();
        for (square, piece) in self.pieces() {
            swapped.take(square);
            swapped.place(square, Piece { side: 1 - piece.side, kind: piece.kind }).expect("square just emptied");
        }
        swapped
    }

    /// All pieces with their squares, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.squares.iter().enumerate().filter_map(|(i, p)| p.map(|p| (Square(i as u16), p)))
    }

    /// How many pieces of each side and kind the position holds.
    pub fn counts(&self) -> BTreeMap<Piece, usize> {
        let mut counts = BTreeMap::new();
        for (_, piece) in self.pieces() {
            *counts.entry(piece).or_insert(0) += 1;
        }
        counts
    }
}

/// One move: a piece goes from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The moving piece.
    pub piece: Piece,
    /// Where it stood.
    pub from: Square,
    /// Where it lands.
    pub to: Square,
}

impl Move {
    /// The move in long algebraic notation, e.g. `Na1-b3` (pawns have no letter: `a2-a3`).
    pub fn notation(&self, board: &Board) -> String {
        let letter = match self.piece.kind {
            crate::geometry::PieceKind::Pawn => String::new(),
            kind => kind.letter().to_string(),
        };
        format!("{letter}{}-{}", board.name(self.from), board.name(self.to))
    }
}

/// Start and goal hold different numbers of some piece.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{side} has {start} {kind}(s) at the start but {goal} in the goal")]
pub struct CountMismatch {
    /// Name of the side.
    pub side: String,
    /// Kind of piece.
    pub kind: crate::geometry::PieceKind,
    /// Count at the start.
    pub start: usize,
    /// Count in the goal.
    pub goal: usize,
}

/// An exchange puzzle: board, sides, start and goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExchangePuzzle {
    /// A human-readable name, if given.
    pub name: Option<String>,
    /// The board.
    pub board: Board,
    /// The sides, in the order of the file.
    pub sides: Vec<Side>,
    /// Where the pieces stand before the first move.
    pub start: Position,
    /// Where they must stand after the last move.
    pub goal: Position,
}

impl ExchangePuzzle {
    /// Builds a puzzle, checking that start and goal hold the same pieces.
    pub fn new(
        name: Option<String>,
        board: Board,
        sides: Vec<Side>,
        start: Position,
        goal: Position,
    ) -> Result<ExchangePuzzle, CountMismatch> {
        let (from, to) = (start.counts(), goal.counts());
        for piece in from.keys().chain(to.keys()) {
            let (s, g) = (from.get(piece).copied().unwrap_or(0), to.get(piece).copied().unwrap_or(0));
            if s != g {
                let side = sides[piece.side].name.clone();
                return Err(CountMismatch { side, kind: piece.kind, start: s, goal: g });
            }
        }
        Ok(ExchangePuzzle { name, board, sides, start, goal })
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> usize {
        self.start.pieces().count()
    }

    /// The distinct pieces (side and kind) of the puzzle; pieces of one group are
    /// interchangeable.
    pub fn groups(&self) -> Vec<Piece> {
        self.start.counts().into_keys().collect()
    }

    /// The direction in which a piece's pawns move.
    pub fn pawns(&self, piece: Piece) -> PawnDirection {
        self.sides[piece.side].pawns
    }

    /// A short human description of a piece, e.g. `white knight`.
    pub fn describe(&self, piece: Piece) -> String {
        format!("{} {}", self.sides[piece.side].name, piece.kind)
    }

    /// A reason, found without search, why the goal can never be reached: some group of pieces
    /// cannot be matched to its goal squares along the moves of its kind, even on an empty
    /// board. `None` means no such obstruction was found (the goal may still be unreachable).
    pub fn obstruction(&self) -> Option<String> {
        for group in self.groups() {
            let starts: Vec<Square> = self.start.pieces().filter(|p| p.1 == group).map(|p| p.0).collect();
            let goals: Vec<Square> = self.goal.pieces().filter(|p| p.1 == group).map(|p| p.0).collect();
            let reach: Vec<Vec<bool>> = starts.iter().map(|&s| self.reachable_from(group, s)).collect();
            let what = self.describe(group);
            if let Some(&lost) = goals.iter().find(|g| reach.iter().all(|r| !r[g.index()])) {
                return Some(format!(
                    "no {what} can ever reach {}: it is out of reach of every {what}'s start square, even on an empty board",
                    self.board.name(lost)
                ));
            }
            if !perfect_matching(&starts, &goals, &reach) {
                return Some(format!(
                    "the {what}s cannot all reach their goal squares: each goal square needs its own {what} that can reach it, even on an empty board"
                ));
            }
        }
        None
    }

    /// Squares a piece could reach from `from` on an otherwise empty board.
    fn reachable_from(&self, piece: Piece, from: Square) -> Vec<bool> {
        let mut seen = vec![false; self.board.area()];
        let mut stack = vec![from];
        seen[from.index()] = true;
        while let Some(square) = stack.pop() {
            for step in move_steps(&self.board, piece.kind, square, self.pawns(piece)) {
                if !seen[step.to.index()] {
                    seen[step.to.index()] = true;
                    stack.push(step.to);
                }
            }
        }
        seen
    }
}

/// Whether every goal square can be given its own start square that reaches it (Kuhn's
/// augmenting paths; groups are small).
fn perfect_matching(starts: &[Square], goals: &[Square], reach: &[Vec<bool>]) -> bool {
    fn augment(
        s: usize,
        goals: &[Square],
        reach: &[Vec<bool>],
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for (g, goal) in goals.iter().enumerate() {
            if reach[s][goal.index()] && !seen[g] {
                seen[g] = true;
                if owner[g].is_none_or(|o| augment(o, goals, reach, owner, seen)) {
                    owner[g] = Some(s);
                    return true;
                }
            }
        }
        false
    }
    let mut owner = vec![None; goals.len()];
    (0..starts.len()).all(|s| augment(s, goals, reach, &mut owner, &mut vec![false; goals.len()]))
}

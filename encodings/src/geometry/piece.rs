//! The six piece kinds, the sides that own pieces, and the direction pawns move in.

use std::fmt;

/// The kind of a chess piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PieceKind {
    /// Moves and attacks one square in any direction.
    King,
    /// Slides any distance along ranks, files and diagonals.
    Queen,
    /// Slides any distance along ranks and files.
    Rook,
    /// Slides any distance along diagonals.
    Bishop,
    /// Leaps two squares one way and one square across.
    Knight,
    /// Moves one square forward; attacks the two squares diagonally forward.
    Pawn,
}

impl PieceKind {
    /// All kinds, in the order `K Q R B N P`.
    pub const ALL: [PieceKind; 6] =
        [PieceKind::King, PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight, PieceKind::Pawn];

    /// The English letter of the kind: `K Q R B N P`.
    pub fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Queen => 'Q',
            PieceKind::Rook => 'R',
            PieceKind::Bishop => 'B',
            PieceKind::Knight => 'N',
            PieceKind::Pawn => 'P',
        }
    }

    /// The kind with the given letter (upper case).
    pub fn from_letter(letter: char) -> Option<PieceKind> {
        PieceKind::ALL.into_iter().find(|k| k.letter() == letter)
    }

    /// Whether the piece slides along lines and is blocked by pieces in the way.
    pub fn slides(self) -> bool {
        matches!(self, PieceKind::Queen | PieceKind::Rook | PieceKind::Bishop)
    }

    /// The English name of the kind, in lower case.
    pub fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Queen => "queen",
            PieceKind::Rook => "rook",
            PieceKind::Bishop => "bishop",
            PieceKind::Knight => "knight",
            PieceKind::Pawn => "pawn",
        }
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The way a side's pawns move: towards higher ranks (`Up`) or lower ranks (`Down`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PawnDirection {
    /// Towards rank 8 (white in chess).
    #[default]
    Up,
    /// Towards rank 1 (black in chess).
    Down,
}

crate::named_values!(PawnDirection { Up => "up", Down => "down" });

impl PawnDirection {
    /// The change of rank of one pawn step.
    pub fn delta(self) -> i64 {
        match self {
            PawnDirection::Up => 1,
            PawnDirection::Down => -1,
        }
    }
}

/// A piece: a kind owned by a side (an index into the puzzle's list of sides).
///
/// Pieces of one side and kind are interchangeable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// Index of the owning side.
    pub side: usize,
    /// Kind of the piece.
    pub kind: PieceKind,
}

//! Puzzle models, one module per family, and the TOML puzzle format that describes them.
//!
//! A model is plain data with its rules; it knows nothing about CNF. Files are parsed by
//! [`parse`] (or [`load`]), which reports every problem with the file, line, column and field.

mod context;
mod error;
pub mod exchange;
mod exchange_file;
mod file;
pub mod placement;
mod placement_file;
pub mod tour;
mod tour_file;
mod write;

use std::path::Path;

pub use context::parse_piece;
pub use error::PuzzleError;
pub use exchange::{ExchangePuzzle, Move, Position, Side};
pub use write::to_toml;

/// A puzzle of any family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Puzzle {
    /// Move pieces from a start position to a goal position in the fewest moves.
    Exchange(ExchangePuzzle),
    /// Place pieces to dominate a board with fewest, or independently with most.
    Placement(placement::PlacementPuzzle),
    /// Knights touring the squares that static attackers leave safe.
    Tour(tour::TourPuzzle),
}

impl Puzzle {
    /// The exchange puzzle, if this is one.
    pub fn exchange(&self) -> Option<&ExchangePuzzle> {
        match self {
            Puzzle::Exchange(p) => Some(p),
            _ => None,
        }
    }

    /// The placement puzzle, if this is one.
    pub fn placement(&self) -> Option<&placement::PlacementPuzzle> {
        match self {
            Puzzle::Placement(p) => Some(p),
            _ => None,
        }
    }

    /// The tour puzzle, if this is one.
    pub fn tour(&self) -> Option<&tour::TourPuzzle> {
        match self {
            Puzzle::Tour(p) => Some(p),
            _ => None,
        }
    }

    /// The puzzle's name, if the file gave one.
    pub fn name(&self) -> Option<&str> {
        match self {
            Puzzle::Exchange(p) => p.name.as_deref(),
            Puzzle::Placement(p) => p.name.as_deref(),
            Puzzle::Tour(p) => p.name.as_deref(),
        }
    }

    /// The family name as written in puzzle files (`kind = "…"`).
    pub fn kind(&self) -> &'static str {
        match self {
            Puzzle::Exchange(_) => "exchange",
            Puzzle::Placement(p) => p.goal.name(),
            Puzzle::Tour(_) => "tour",
        }
    }
}

/// Parses a puzzle from TOML text; `file` is the name used in error messages.
pub fn parse(text: &str, file: &str) -> Result<Puzzle, PuzzleError> {
    file::parse(text, file)
}

/// Reads and parses a puzzle file.
pub fn load(path: &Path) -> Result<Puzzle, PuzzleError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| PuzzleError::Io { file: file.clone(), source })?;
    parse(&text, &file)
}

//! Replays an exchange solution from the start position and confirms it ends in the goal.

use crate::geometry::move_steps;
use crate::puzzle::{ExchangePuzzle, Move, Position};

/// Why a claimed exchange solution breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleViolation {
    /// The moving piece is not on the origin square.
    #[error("move {index} ({notation}): no {piece} stands on the origin square")]
    NoSuchPiece {
        /// Move number from 1.
        index: usize,
        /// The move as written.
        notation: String,
        /// The piece that should have moved.
        piece: String,
    },
    /// The piece cannot go there: not its move, destination taken, or the way is blocked.
    #[error("move {index} ({notation}): illegal for a {piece}: {why}")]
    Illegal {
        /// Move number from 1.
        index: usize,
        /// The move as written.
        notation: String,
        /// The piece that moved.
        piece: String,
        /// What is wrong with it.
        why: String,
    },
    /// All moves are legal, but the last position is not the goal.
    #[error("after {moves} moves the position is not the goal")]
    GoalMissed {
        /// Length of the solution.
        moves: usize,
    },
}

/// Plays `moves` from the puzzle's start; returns every position (start first) if each move is
/// legal and the last position is the goal.
pub fn replay_exchange(puzzle: &ExchangePuzzle, moves: &[Move]) -> Result<Vec<Position>, RuleViolation> {
    let board = &puzzle.board;
    let mut position = puzzle.start.clone();
    let mut positions = vec![position.clone()];
    for (i, mv) in moves.iter().enumerate() {
        let index = i + 1;
        let notation = mv.notation(board);
        let piece = puzzle.describe(mv.piece);
        if position.get(mv.from) != Some(mv.piece) {
            return Err(RuleViolation::NoSuchPiece { index, notation, piece });
        }
        let illegal =
            |why: String| RuleViolation::Illegal { index, notation: notation.clone(), piece: piece.clone(), why };
        let step = move_steps(board, mv.piece.kind, mv.from, puzzle.pawns(mv.piece))
            .into_iter()
            .find(|s| s.to == mv.to)
            .ok_or_else(|| illegal("not a move of this piece".to_string()))?;
        if position.get(mv.to).is_some() {
            return Err(illegal(format!("{} is occupied", board.name(mv.to))));
        }
        if let Some(blocker) = step.between.iter().find(|s| position.get(**s).is_some()) {
            return Err(illegal(format!("the way is blocked on {}", board.name(*blocker))));
        }
        position.take(mv.from);
        position.place(mv.to, mv.piece).expect("destination checked empty");
        positions.push(position.clone());
    }
    if position != puzzle.goal {
        return Err(RuleViolation::GoalMissed { moves: moves.len() });
    }
    Ok(positions)
}

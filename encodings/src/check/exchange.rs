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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Piece, PieceKind};
    use crate::puzzle::{parse, Puzzle};

    /// Two white rooks on a1 and c1 swap with two black rooks on a3 and c3 of a 3x3 board.
    fn rooks() -> ExchangePuzzle {
        let text = "kind = \"exchange\"\nboard = \"3x3\"\nswap = true\n\
                    [[side]]\nname = \"white\"\nstart = [\"Ra1\", \"Rc1\"]\n\
                    [[side]]\nname = \"black\"\nstart = [\"Ra3\", \"Rc3\"]\n";
        match parse(text, "rooks.toml").unwrap() {
            Puzzle::Exchange(puzzle) => puzzle,
            other => panic!("not an exchange: {other:?}"),
        }
    }

    fn mv(puzzle: &ExchangePuzzle, side: usize, from: &str, to: &str) -> Move {
        let square = |name: &str| puzzle.board.parse_square(name).unwrap();
        Move { piece: Piece { side, kind: PieceKind::Rook }, from: square(from), to: square(to) }
    }

    /// A legal exchange replays to every position from the start to the goal, one a move.
    #[test]
    fn a_legal_exchange_replays_from_the_start_to_the_goal() {
        let puzzle = rooks();
        // Each rook around the board's edge, the white ones clockwise by way of the centre file.
        let moves = [
            mv(&puzzle, 0, "a1", "b1"),
            mv(&puzzle, 0, "b1", "b2"),
            mv(&puzzle, 1, "a3", "a1"),
            mv(&puzzle, 0, "b2", "b3"),
            mv(&puzzle, 0, "b3", "a3"),
            mv(&puzzle, 0, "c1", "b1"),
            mv(&puzzle, 0, "b1", "b2"),
            mv(&puzzle, 1, "c3", "c1"),
            mv(&puzzle, 0, "b2", "b3"),
            mv(&puzzle, 0, "b3", "c3"),
        ];
        let positions = replay_exchange(&puzzle, &moves).expect("a legal exchange");
        assert_eq!(positions.len(), moves.len() + 1);
        assert_eq!(positions[0], puzzle.start);
        assert_eq!(positions[moves.len()], puzzle.goal);
        let rook_on = |p: &Position, name: &str| p.get(puzzle.board.parse_square(name).unwrap()).is_some();
        assert!(rook_on(&positions[1], "b1") && !rook_on(&positions[1], "a1"), "the first move is played");
    }

    /// Each way to break the rules is named, with the move's number.
    #[test]
    fn every_broken_rule_is_refused_with_its_move() {
        let puzzle = rooks();
        let refused = |moves: &[Move]| replay_exchange(&puzzle, moves).expect_err("breaks a rule");
        assert!(matches!(refused(&[mv(&puzzle, 0, "b1", "b2")]), RuleViolation::NoSuchPiece { index: 1, .. }));
        assert!(matches!(refused(&[mv(&puzzle, 1, "a1", "a2")]), RuleViolation::NoSuchPiece { index: 1, .. }));
        let not_a_move = refused(&[mv(&puzzle, 0, "a1", "b2")]);
        assert!(matches!(&not_a_move, RuleViolation::Illegal { index: 1, why, .. } if why.contains("not a move")));
        let occupied = refused(&[mv(&puzzle, 0, "a1", "a2"), mv(&puzzle, 0, "c1", "c3")]);
        assert!(matches!(&occupied, RuleViolation::Illegal { index: 2, why, .. } if why.contains("occupied")));
        let blocked = refused(&[mv(&puzzle, 0, "a1", "b1"), mv(&puzzle, 0, "c1", "a1")]);
        assert!(matches!(&blocked, RuleViolation::Illegal { index: 2, why, .. } if why.contains("blocked on b1")));
        assert_eq!(refused(&[mv(&puzzle, 0, "a1", "a2")]), RuleViolation::GoalMissed { moves: 1 });
        assert_eq!(refused(&[]), RuleViolation::GoalMissed { moves: 0 });
    }
}

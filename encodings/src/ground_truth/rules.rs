//! The chess rules derived a second time, apart from [`crate::geometry`], for the ground truths.
//!
//! `geometry` walks offset tables outwards from a square. Here every pair of squares is judged
//! on its own, by a predicate on the difference of their coordinates — a knight's differ by one
//! and two, a bishop's by equal amounts — and a slider's path is the list of squares strictly
//! between the two, checked one by one. The ground truths take their moves and attacks from
//! here, so a differential test compares two derivations of the rules, not one with itself.

use crate::geometry::{Board, PawnDirection, PieceKind, Square};

/// What a piece does from its square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Moving onto an empty square without capturing (a pawn steps straight forward).
    Move,
    /// Attacking a square (a pawn attacks diagonally forward).
    Attack,
}

/// One square a piece reaches, with the squares strictly between that must be empty.
pub type Reach = (Square, Vec<Square>);

/// The squares strictly between `from` and `to` that must be empty for a piece of `kind` on
/// `from` to reach `to` by `action`; `None` when the rules never let it: either square is
/// removed, `to` is not on a line or leap of the piece, or a removed square lies in the way.
pub fn path(
    board: &Board,
    kind: PieceKind,
    action: Action,
    from: Square,
    to: Square,
    pawns: PawnDirection,
) -> Option<Vec<Square>> {
    if from == to || board.is_removed(from) || board.is_removed(to) {
        return None;
    }
    let width = board.width() as i64;
    let (from_x, from_y) = (from.index() as i64 % width, from.index() as i64 / width);
    let (dx, dy) = (to.index() as i64 % width - from_x, to.index() as i64 / width - from_y);
    let forward = match pawns {
        PawnDirection::Up => 1,
        PawnDirection::Down => -1,
    };
    let straight = (dx == 0) != (dy == 0);
    let diagonal = dx.abs() == dy.abs();
    let lawful = match (kind, action) {
        (PieceKind::King, _) => dx.abs() <= 1 && dy.abs() <= 1,
        (PieceKind::Knight, _) => dx.abs() * dy.abs() == 2,
        (PieceKind::Pawn, Action::Move) => dx == 0 && dy == forward,
        (PieceKind::Pawn, Action::Attack) => dx.abs() == 1 && dy == forward,
        (PieceKind::Rook, _) => straight,
        (PieceKind::Bishop, _) => diagonal,
        (PieceKind::Queen, _) => straight || diagonal,
    };
    if !lawful {
        return None;
    }
    if !kind.slides() {
        return Some(Vec::new());
    }
    // Along a line one coordinate is constant or both change by the distance.
    let distance = dx.abs().max(dy.abs());
    let (unit_x, unit_y) = (dx / distance, dy / distance);
    let mut between = Vec::new();
    for k in 1..distance {
        let square = Square(((from_y + unit_y * k) * width + from_x + unit_x * k) as u16);
        if board.is_removed(square) {
            return None;
        }
        between.push(square);
    }
    Some(between)
}

/// Every square a piece of `kind` on `from` reaches by `action`, in board order, each with the
/// squares that must be empty on the way.
pub fn reach(board: &Board, kind: PieceKind, action: Action, from: Square, pawns: PawnDirection) -> Vec<Reach> {
    (0..board.area())
        .map(|i| Square(i as u16))
        .filter_map(|to| path(board, kind, action, from, to, pawns).map(|between| (to, between)))
        .collect()
}

/// For every square, whether a knight may stand on it among the static `attackers`: it is on
/// the board, no attacker stands there, and none attacks it (lines are blocked by the other
/// attackers; pawns attack up the board).
pub fn safe_squares(board: &Board, attackers: &[(PieceKind, Square)]) -> Vec<bool> {
    let occupied = |s: Square| attackers.iter().any(|&(_, a)| a == s);
    (0..board.area())
        .map(|i| Square(i as u16))
        .map(|square| {
            !board.is_removed(square)
                && !occupied(square)
                && !attackers.iter().any(|&(kind, from)| {
                    path(board, kind, Action::Attack, from, square, PawnDirection::Up)
                        .is_some_and(|between| !between.into_iter().any(occupied))
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(board: &Board, kind: PieceKind, action: Action, from: &str) -> usize {
        reach(board, kind, action, board.parse_square(from).unwrap(), PawnDirection::Up).len()
    }

    #[test]
    fn counts_on_the_empty_chessboard() {
        let board = Board::new(8, 8).unwrap();
        // From d4: a queen sees 27 squares, a knight 8, a king 8; from a1 a bishop sees 7.
        assert_eq!(count(&board, PieceKind::Queen, Action::Attack, "d4"), 27);
        assert_eq!(count(&board, PieceKind::Knight, Action::Move, "d4"), 8);
        assert_eq!(count(&board, PieceKind::King, Action::Move, "d4"), 8);
        assert_eq!(count(&board, PieceKind::Bishop, Action::Move, "a1"), 7);
        assert_eq!(count(&board, PieceKind::Pawn, Action::Move, "e2"), 1);
        assert_eq!(count(&board, PieceKind::Pawn, Action::Attack, "a2"), 1);
    }

    #[test]
    fn a_removed_square_stops_a_rook_but_not_a_knight() {
        let mut board = Board::new(3, 3).unwrap();
        board.remove(board.parse_square("b1").unwrap());
        assert_eq!(count(&board, PieceKind::Rook, Action::Move, "a1"), 2);
        assert_eq!(count(&board, PieceKind::Knight, Action::Move, "a1"), 2);
    }

    #[test]
    fn a_queen_on_d5_leaves_thirty_six_safe_squares() {
        let board = Board::new(8, 8).unwrap();
        let safe = safe_squares(&board, &[(PieceKind::Queen, board.parse_square("d5").unwrap())]);
        assert_eq!(safe.iter().filter(|&&s| s).count(), 36);
    }
}

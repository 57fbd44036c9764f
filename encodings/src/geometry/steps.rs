//! The squares a piece can move to or attack from a square, with the squares in between that
//! must be empty for a sliding piece.

use super::{Board, PawnDirection, PieceKind, Square};

/// One geometric step of a piece: its destination and the squares it passes over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Where the piece lands (or which square it attacks).
    pub to: Square,
    /// Squares strictly between origin and destination; all must be empty for the step to be
    /// possible. Empty for kings, knights and pawns.
    pub between: Vec<Square>,
}

const KNIGHT: [(i64, i64); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING: [(i64, i64); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
/// The four directions along files and ranks, as steps of (file, rank): rooks and queens slide
/// along them.
pub const ORTHOGONAL: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
/// The four diagonal directions, as steps of (file, rank): bishops and queens slide along them.
pub const DIAGONAL: [(i64, i64); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// The steps a piece of `kind` may take from `from` when moving without capturing.
///
/// Pawns step one square forward; every other piece moves as it attacks. Removed squares can
/// neither be landed on nor slid over (a knight leaps over them).
pub fn move_steps(board: &Board, kind: PieceKind, from: Square, pawns: PawnDirection) -> Vec<Step> {
    match kind {
        PieceKind::Pawn => leaps(board, from, &[(0, pawns.delta())]),
        _ => attack_steps(board, kind, from, pawns),
    }
}

/// The squares a piece of `kind` on `from` attacks, each with the squares that must be empty
/// between them (for sliding pieces).
pub fn attack_steps(board: &Board, kind: PieceKind, from: Square, pawns: PawnDirection) -> Vec<Step> {
    match kind {
        PieceKind::King => leaps(board, from, &KING),
        PieceKind::Knight => leaps(board, from, &KNIGHT),
        PieceKind::Pawn => leaps(board, from, &[(-1, pawns.delta()), (1, pawns.delta())]),
        PieceKind::Rook => slides(board, from, &ORTHOGONAL),
        PieceKind::Bishop => slides(board, from, &DIAGONAL),
        PieceKind::Queen => {
            let mut steps = slides(board, from, &ORTHOGONAL);
            steps.extend(slides(board, from, &DIAGONAL));
            steps
        }
    }
}

fn leaps(board: &Board, from: Square, deltas: &[(i64, i64)]) -> Vec<Step> {
    let (file, rank) = (board.file(from) as i64, board.rank(from) as i64);
    deltas
        .iter()
        .filter_map(|&(df, dr)| board.square(file + df, rank + dr))
        .map(|to| Step { to, between: Vec::new() })
        .collect()
}

fn slides(board: &Board, from: Square, directions: &[(i64, i64)]) -> Vec<Step> {
    let (file, rank) = (board.file(from) as i64, board.rank(from) as i64);
    let mut steps = Vec::new();
    for &(df, dr) in directions {
        let mut between = Vec::new();
        let mut distance = 1;
        while let Some(to) = board.square(file + df * distance, rank + dr * distance) {
            steps.push(Step { to, between: between.clone() });
            between.push(to);
            distance += 1;
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(board: &Board, kind: PieceKind, from: &str) -> Vec<String> {
        let from = board.parse_square(from).unwrap();
        let mut names: Vec<_> =
            move_steps(board, kind, from, PawnDirection::Up).iter().map(|s| board.name(s.to)).collect();
        names.sort();
        names
    }

    #[test]
    fn knight_centre_of_three_by_three_is_dead() {
        let board = Board::new(3, 3).unwrap();
        assert!(targets(&board, PieceKind::Knight, "b2").is_empty());
        assert_eq!(targets(&board, PieceKind::Knight, "a1"), ["b3", "c2"]);
    }

    #[test]
    fn counts_on_the_empty_board() {
        let board = Board::new(8, 8).unwrap();
        assert_eq!(targets(&board, PieceKind::Queen, "d4").len(), 27);
        assert_eq!(targets(&board, PieceKind::Rook, "a1").len(), 14);
        assert_eq!(targets(&board, PieceKind::Bishop, "a1").len(), 7);
        assert_eq!(targets(&board, PieceKind::King, "a1").len(), 3);
        assert_eq!(targets(&board, PieceKind::Pawn, "e2"), ["e3"]);
    }

    #[test]
    fn slides_stop_at_removed_squares_and_list_what_they_pass() {
        let mut board = Board::new(4, 1).unwrap();
        board.remove(board.parse_square("c1").unwrap());
        assert_eq!(targets(&board, PieceKind::Rook, "a1"), ["b1"]);
        let board = Board::new(4, 1).unwrap();
        let steps = move_steps(&board, PieceKind::Rook, Square(0), PawnDirection::Up);
        assert_eq!(steps[2].between, vec![Square(1), Square(2)]);
    }
}

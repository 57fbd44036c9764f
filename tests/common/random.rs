//! Random puzzles for the differential tests.

use knights_sat::encodings::geometry::Piece;
use knights_sat::encodings::geometry::{Board, PawnDirection, PieceKind, Square};
use knights_sat::encodings::puzzle::placement::{KindRule, PlacementGoal, PlacementPuzzle};
use knights_sat::encodings::puzzle::{ExchangePuzzle, Position, Side};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A puzzle on a board up to 4x4, perhaps with a removed square, one to three kinds with
/// limits and weights, a fixed piece and a square kept empty; `None` if its parts clash.
pub fn random_placement(rng: &mut ChaCha8Rng) -> Option<PlacementPuzzle> {
    let board_side = |rng: &mut ChaCha8Rng| rng.random_range(1..=4);
    let (w, h) = (board_side(rng), board_side(rng));
    let mut board = Board::new(w, h).unwrap();
    if w * h > 4 && rng.random_bool(0.3) {
        board.remove(Square(rng.random_range(0..w * h) as u16));
    }
    let goal = PlacementGoal::ALL[rng.random_range(0..4)];
    let mut kinds: Vec<PieceKind> = Vec::new();
    for _ in 0..rng.random_range(1..=3) {
        let kind = PieceKind::ALL[rng.random_range(0..6)];
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let rules: Vec<KindRule> = kinds
        .iter()
        .map(|&kind| {
            let min = if rng.random_bool(0.2) { 1 } else { 0 };
            let max = rng.random_bool(0.3).then(|| rng.random_range(min.max(1)..=3));
            KindRule { kind, min, max, weight: rng.random_range(1..=3) }
        })
        .collect();
    let squares: Vec<Square> = board.squares().collect();
    let mut empty = Vec::new();
    let mut fixed = Vec::new();
    if rng.random_bool(0.3) {
        empty.push(squares[rng.random_range(0..squares.len())]);
    }
    if rng.random_bool(0.3) {
        let square = squares[rng.random_range(0..squares.len())];
        if !empty.contains(&square) {
            fixed.push((square, kinds[0]));
        }
    }
    let pawns = if rng.random_bool(0.5) { PawnDirection::Up } else { PawnDirection::Down };
    PlacementPuzzle::new(None, board, goal, rules, pawns, empty, fixed).ok()
}

/// A random exchange: one or two pieces a side on a small board, the goal another placement of
/// the same pieces.
pub fn random_exchange(rng: &mut ChaCha8Rng) -> ExchangePuzzle {
    let mut board = Board::new(rng.random_range(3..=4), 3).unwrap();
    if rng.random_bool(0.3) {
        board.remove(Square(rng.random_range(0..board.area()) as u16));
    }
    let kinds = [PieceKind::Knight, PieceKind::Rook, PieceKind::Bishop, PieceKind::King, PieceKind::Queen];
    let mut squares: Vec<Square> = board.squares().collect();
    let pieces: Vec<Piece> = (0..rng.random_range(2..=3))
        .map(|i| Piece { side: i % 2, kind: kinds[rng.random_range(0..kinds.len())] })
        .collect();
    let mut place = |rng: &mut ChaCha8Rng| {
        let mut position = Position::empty(board.area());
        for &piece in &pieces {
            let i = rng.random_range(0..squares.len());
            position.place(squares[i], piece).unwrap();
            squares.swap_remove(i);
        }
        squares = board.squares().collect();
        position
    };
    let (start, goal) = (place(rng), place(rng));
    let side = |name: &str| Side { name: name.into(), pawns: PawnDirection::Up };
    ExchangePuzzle::new(None, board.clone(), vec![side("white"), side("black")], start, goal).unwrap()
}

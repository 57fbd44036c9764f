//! The two derivations of the chess rules agree: the offset tables and ray walks of `geometry`
//! (used by the encoders, checkers and linear models) and the pairwise predicates of
//! `ground_truth::rules` (used by the ground truths), on every piece, pawn direction, board shape
//! up to 9x9 and square, with and without removed squares.

use knights_sat::encodings::geometry::{attack_steps, move_steps, Board, PawnDirection, PieceKind, Square};
use knights_sat::encodings::ground_truth::rules::{reach, Action, Reach};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The boards of one shape: full, and with about a fifth and about half of the squares removed
/// at random.
fn boards(width: usize, height: usize, rng: &mut ChaCha8Rng) -> Vec<Board> {
    let mut boards = vec![Board::new(width, height).unwrap()];
    for share in [0.2, 0.5] {
        let mut board = Board::new(width, height).unwrap();
        for i in 0..width * height {
            if rng.random_bool(share) {
                board.remove(Square(i as u16));
            }
        }
        boards.push(board);
    }
    boards
}

#[test]
fn geometry_and_the_independent_rules_agree_up_to_nine_by_nine() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut compared = 0;
    let mut reached = 0;
    for width in 1..=9 {
        for height in 1..=9 {
            for board in boards(width, height, &mut rng) {
                for kind in PieceKind::ALL {
                    let directions: &[PawnDirection] = if kind == PieceKind::Pawn {
                        &[PawnDirection::Up, PawnDirection::Down]
                    } else {
                        &[PawnDirection::Up]
                    };
                    for &pawns in directions {
                        for from in board.squares() {
                            for action in [Action::Move, Action::Attack] {
                                let steps = match action {
                                    Action::Move => move_steps(&board, kind, from, pawns),
                                    Action::Attack => attack_steps(&board, kind, from, pawns),
                                };
                                let mut geometry: Vec<Reach> = steps.into_iter().map(|s| (s.to, s.between)).collect();
                                geometry.sort();
                                let oracle = reach(&board, kind, action, from, pawns);
                                assert_eq!(
                                    geometry,
                                    oracle,
                                    "{kind} {action:?} from {} on {width}x{height} without {:?}",
                                    board.name(from),
                                    board.removed_squares().map(|s| board.name(s)).collect::<Vec<_>>()
                                );
                                compared += 1;
                                reached += oracle.len();
                            }
                        }
                    }
                }
            }
        }
    }
    // A floor, so that the loops cannot silently compare nothing: 81 shapes, 3 boards each.
    assert!(compared > 60_000 && reached > 250_000, "{compared} squares compared, {reached} moves");
}

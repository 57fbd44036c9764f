//! Chess geometry: rectangular boards with optional holes, squares named as in chess, the six
//! piece kinds and the squares they move to or attack.
//!
//! Nothing here knows about SAT; the encodings, the rules checker and the ground-truth searches
//! all build on these definitions.

mod board;
mod piece;
mod steps;

pub use board::{Board, GeometryError, Square, MAX_SIDE};
pub use piece::{PawnDirection, Piece, PieceKind};
pub use steps::{attack_steps, move_steps, Step, DIAGONAL, ORTHOGONAL};

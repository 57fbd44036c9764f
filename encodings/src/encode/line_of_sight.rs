//! Cover by sliding pieces when placed pieces block their lines.
//!
//! One chain of auxiliary variables per direction `d` of the eight: `S(u, d)` says "looking from
//! `u` (inclusive) in direction `d`, the first occupied square holds a piece that slides along
//! this line" — a queen on any line, a rook on ranks and files, a bishop on diagonals. Such a
//! piece attacks back towards `-d`, so a square `t` is covered along `d` exactly when the chain
//! can make `S(t + d, d)` true. Only the implications out of `S` are needed, since nothing but
//! the cover clauses, where `S` occurs positively, refers to it:
//!
//! * `S(u, d) → (a slider along d on u) ∨ S(u + d, d)`, where `S` of a removed square or a
//!   square off the board is false (removed squares stop sliders);
//! * `S(u, d) → ¬x[u][j]` for every kind `j` that does not slide along `d`: the square is either
//!   empty or holds one of the sliders (this binary clause says the same as
//!   `S(u, d) → (a slider on u) ∨ ¬x[u][j]`, given at most one piece per square).
//!
//! Following a true `S` along `d` passes only empty squares until it meets a slider, which then
//! attacks `t` with nothing in between; conversely, for an attack that exists, setting `S` true
//! from `t + d` up to the attacker satisfies every clause. A square that can hold no piece at all
//! shares the variable of the next square; a square with no slider variable and nothing beyond
//! it gets none.

use rustsat::encodings::CollectClauses;

use super::add;
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::Lit;

use crate::geometry::{Board, PieceKind, Square, DIAGONAL, ORTHOGONAL};

/// Builds the chains for the kinds `kinds` with placement variables `x[s][k]` and returns, per
/// square, the literals `S(t + d, d)` of which one must hold for a slider to attack it.
pub(super) fn slider_cover<C: CollectClauses>(
    board: &Board,
    kinds: &[PieceKind],
    x: &[Vec<Option<Lit>>],
    vars: &mut BasicVarManager,
    clauses: &mut C,
) -> Vec<Vec<Lit>> {
    let n = board.area();
    let mut cover: Vec<Vec<Lit>> = vec![Vec::new(); n];
    let directions = ORTHOGONAL.iter().map(|&d| (d, true)).chain(DIAGONAL.iter().map(|&d| (d, false)));
    for ((df, dr), orthogonal) in directions {
        let slides = |kind: PieceKind| match kind {
            PieceKind::Queen => true,
            PieceKind::Rook => orthogonal,
            PieceKind::Bishop => !orthogonal,
            _ => false,
        };
        if !kinds.iter().any(|&k| slides(k)) {
            continue;
        }
        let next = |u: usize| {
            let square = Square(u as u16);
            board.square(board.file(square) as i64 + df, board.rank(square) as i64 + dr)
        };
        // A step along d changes the index by the same amount everywhere; decide the square
        // further along first.
        let forward = dr * board.width() as i64 + df > 0;
        let order: Vec<usize> = if forward { (0..n).rev().collect() } else { (0..n).collect() };
        let mut chain: Vec<Option<Lit>> = vec![None; n];
        for u in order {
            if board.is_removed(Square(u as u16)) {
                continue;
            }
            let beyond = next(u).and_then(|v| chain[v.index()]);
            let sliders: Vec<Lit> =
                kinds.iter().zip(&x[u]).filter(|(k, _)| slides(**k)).filter_map(|(_, l)| *l).collect();
            let others: Vec<Lit> =
                kinds.iter().zip(&x[u]).filter(|(k, _)| !slides(**k)).filter_map(|(_, l)| *l).collect();
            chain[u] = match (sliders.is_empty(), others.is_empty(), beyond) {
                // Never holds a piece: the same as seen from the next square.
                (true, true, beyond) => beyond,
                // Never holds a slider along d, and no slider can be seen beyond: false.
                (true, false, None) => None,
                _ => {
                    let s = vars.new_lit();
                    add(clauses, std::iter::once(!s).chain(sliders).chain(beyond));
                    for other in others {
                        add(clauses, [!s, !other]);
                    }
                    Some(s)
                }
            };
        }
        for t in board.squares() {
            if let Some(s) = next(t.index()).and_then(|v| chain[v.index()]) {
                cover[t.index()].push(s);
            }
        }
    }
    cover
}

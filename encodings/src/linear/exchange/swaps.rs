//! Two moves in consecutive steps that touch disjoint squares (origin, destination and the
//! squares passed over) can be made in either order with the same result. A sequence is
//! *canonical* when every such pair comes with the first move starting on the lower square;
//! every sequence sorts into a canonical one of the same length by swapping pairs.
//!
//! The sorting is stated for a proof by a potential: a move's *key* is the number of the square
//! it starts on, and the move of step `t` of a horizon of `T` steps adds `(T + 1 - t)` times its
//! key. Swapping a pair out of canonical order lowers the potential by the difference of the two
//! keys, so no sorting runs for ever, and a proof may rule every such pair out by dominance,
//! with the swap as its witness.

use std::collections::VecDeque;

use super::ExchangeModel;
use crate::geometry::Square;
use crate::puzzle::{ExchangePuzzle, Position};

/// Two independent moves in consecutive steps, in the order that a canonical sequence never
/// takes, and what changes when they are swapped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSwap {
    /// The earlier step, counted from 0 (the step from time `step` to `step + 1`).
    pub step: usize,
    /// The move variable of the earlier step.
    pub first: usize,
    /// The move variable of the later step.
    pub second: usize,
    /// The keys of the two moves: the first's is the larger.
    pub keys: (usize, usize),
    /// The values the swapped sequence gives the variables that change: the four move
    /// variables of the two steps and the four occupancy variables between them.
    pub witness: Vec<(usize, bool)>,
}

impl ExchangeModel {
    /// Every step's move variables with their keys (the square each move starts on), step by
    /// step from the first.
    pub fn move_keys(&self) -> Vec<Vec<(usize, usize)>> {
        self.moves.iter().map(|moves| moves.iter().map(|(var, m)| (*var, m.from.index())).collect()).collect()
    }

    /// Every pair of independent moves in consecutive steps whose first move starts on a higher
    /// square than the second: the pairs that no canonical sequence makes. Only moves that some
    /// sequence of `puzzle` can make at their step count: a piece's origin within reach of its
    /// start, and its destination within reach of its goal in the steps left, on an empty board.
    pub fn canonical_swaps(&self, puzzle: &ExchangePuzzle) -> Vec<MoveSwap> {
        let last = self.moves.len();
        let from_start = self.reach(&puzzle.start, false);
        let to_goal = self.reach(&puzzle.goal, true);
        let group = |piece| self.groups.iter().position(|&g| g == piece);
        // Whether move `m` can be made in step `t`.
        let possible = |t: usize, m: &crate::puzzle::Move| {
            let Some(g) = group(m.piece) else { return false };
            from_start[g][m.from.index()].is_some_and(|d| d < t)
                && to_goal[g][m.to.index()].is_some_and(|d| d <= last - t)
        };
        let mut swaps = Vec::new();
        for step in 0..self.moves.len().saturating_sub(1) {
            // Moves of step `step + 1`, then `step + 2`; the same moves in the same order.
            let (now, next) = (&self.moves[step], &self.moves[step + 1]);
            // Occupancy after the earlier move, before the later one.
            let between = &self.x[step + 1];
            for (a, (first_now, first)) in now.iter().enumerate() {
                for (b, (second_now, second)) in now.iter().enumerate() {
                    if first.from.index() <= second.from.index()
                        || !self.independent(step, a, b)
                        || !possible(step + 1, first)
                        || !possible(step + 2, second)
                    {
                        continue;
                    }
                    let (Some(&(first_next, _)), Some(&(second_next, _))) = (next.get(a), next.get(b)) else {
                        continue;
                    };
                    let group = |piece| self.groups.iter().position(|&g| g == piece);
                    let (Some(ga), Some(gb)) = (group(first.piece), group(second.piece)) else { continue };
                    let cell = |g: usize, s: Square| between[g][s.index()];
                    let cells = [
                        (cell(ga, first.from), true),
                        (cell(ga, first.to), false),
                        (cell(gb, second.from), false),
                        (cell(gb, second.to), true),
                    ];
                    let mut witness = vec![(*first_now, false), (*second_now, true), (first_next, true)];
                    witness.push((second_next, false));
                    for (var, value) in cells {
                        let Some(var) = var else { continue };
                        witness.push((var, value));
                    }
                    let keys = (first.from.index(), second.from.index());
                    swaps.push(MoveSwap { step, first: *first_now, second: second_next, keys, witness });
                }
            }
        }
        swaps
    }

    /// For each group (as [`ExchangePuzzle::groups`] lists them), the fewest moves between each
    /// square and `position`'s squares of the group on an empty board: to them when
    /// `backward`, from them otherwise.
    pub fn reach(&self, position: &Position, backward: bool) -> Vec<Vec<Option<usize>>> {
        let area = self.x.first().and_then(|layer| layer.first()).map_or(0, Vec::len);
        let steps = self.moves.first().map_or(&[][..], Vec::as_slice);
        (0..self.groups.len())
            .map(|g| {
                let mut distance = vec![None; area];
                let mut queue = VecDeque::new();
                for (square, _) in position.pieces().filter(|p| p.1 == self.groups[g]) {
                    distance[square.index()] = Some(0);
                    queue.push_back(square.index());
                }
                while let Some(s) = queue.pop_front() {
                    let d: Option<usize> = distance[s];
                    for (_, m) in steps.iter().filter(|(_, m)| m.piece == self.groups[g]) {
                        let (here, there) = if backward { (m.to, m.from) } else { (m.from, m.to) };
                        if here.index() == s && distance[there.index()].is_none() {
                            distance[there.index()] = d.map(|d| d + 1);
                            queue.push_back(there.index());
                        }
                    }
                }
                distance
            })
            .collect()
    }

    /// Whether moves `a` and `b` of step `step + 1` touch disjoint squares.
    fn independent(&self, step: usize, a: usize, b: usize) -> bool {
        let touched = |i: usize| {
            let m = &self.moves[step][i].1;
            [m.from, m.to].into_iter().chain(self.between[step][i].iter().copied())
        };
        touched(a).all(|s| touched(b).all(|r| r != s))
    }
}

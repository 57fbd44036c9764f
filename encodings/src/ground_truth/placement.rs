//! Exhaustive search for the optimum of a placement puzzle, written from the rules alone.
//!
//! Squares are decided in index order — empty, or one of the allowed kinds — with two prunings
//! that never lose an optimum: a square whose every possible attacker and itself have been
//! decided without covering it ends the branch (domination), and so does a partial value that
//! can no longer beat the best found.

use crate::geometry::{attack_steps, PieceKind, Square};
use crate::puzzle::placement::{PlacementGoal, PlacementPuzzle};

use super::exchange::SearchLimit;

/// The optimal value (`None`: no placement satisfies the rules), visiting at most `max_nodes`
/// nodes of the search tree.
pub fn optimal_placement(puzzle: &PlacementPuzzle, max_nodes: usize) -> Result<Option<usize>, SearchLimit> {
    let board = &puzzle.board;
    let n = board.area();
    let kinds: Vec<PieceKind> = puzzle.kinds.iter().map(|r| r.kind).collect();
    // attacks[k][s]: squares attacked by kind k on s.
    let attacks: Vec<Vec<Vec<usize>>> = kinds
        .iter()
        .map(|&k| {
            (0..n)
                .map(|s| {
                    let square = Square(s as u16);
                    if board.is_removed(square) {
                        return Vec::new();
                    }
                    attack_steps(board, k, square, puzzle.pawns).into_iter().map(|st| st.to.index()).collect()
                })
                .collect()
        })
        .collect();
    // The last square (in index order) whose decision can still cover square t.
    let total = puzzle.goal == PlacementGoal::TotalDomination;
    let mut deadline: Vec<usize> = (0..n).map(|t| if total { 0 } else { t }).collect();
    for per_kind in &attacks {
        for (s, targets) in per_kind.iter().enumerate() {
            for &t in targets {
                deadline[t] = deadline[t].max(s);
            }
        }
    }
    let mut by_deadline = vec![Vec::new(); n];
    for t in 0..n {
        if !board.is_removed(Square(t as u16)) && puzzle.goal.covers() {
            by_deadline[deadline[t]].push(t);
        }
    }
    let mut search = Search {
        puzzle,
        kinds,
        attacks,
        by_deadline,
        on: vec![None; n],
        attackers: vec![0; n],
        counts: vec![0; puzzle.kinds.len()],
        value: 0,
        best: None,
        nodes: 0,
        max_nodes,
    };
    search.visit(0)?;
    Ok(search.best)
}

struct Search<'a> {
    puzzle: &'a PlacementPuzzle,
    kinds: Vec<PieceKind>,
    attacks: Vec<Vec<Vec<usize>>>,
    by_deadline: Vec<Vec<usize>>,
    on: Vec<Option<usize>>,
    attackers: Vec<usize>,
    counts: Vec<usize>,
    value: usize,
    best: Option<usize>,
    nodes: usize,
    max_nodes: usize,
}

impl Search<'_> {
    fn visit(&mut self, s: usize) -> Result<(), SearchLimit> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(SearchLimit { positions: self.max_nodes });
        }
        let minimise = self.puzzle.goal.minimises();
        if minimise && self.best.is_some_and(|b| self.value >= b) {
            return Ok(());
        }
        let n = self.on.len();
        if s == n {
            let counts_ok = self.puzzle.kinds.iter().zip(&self.counts).all(|(r, &c)| c >= r.min);
            if counts_ok {
                let better = match self.best {
                    None => true,
                    Some(b) => (minimise && self.value < b) || (!minimise && self.value > b),
                };
                if better {
                    self.best = Some(self.value);
                }
            }
            return Ok(());
        }
        if !minimise {
            let top = self.puzzle.kinds.iter().map(|r| r.weight).max().unwrap_or(1);
            if self.best.is_some_and(|b| self.value + top * (n - s) <= b) {
                return Ok(());
            }
        }
        let square = Square(s as u16);
        let board = &self.puzzle.board;
        let usable = !board.is_removed(square) && !self.puzzle.empty.contains(&square);
        let fixed = self.puzzle.fixed.iter().find(|f| f.0 == square).map(|f| f.1);
        for choice in std::iter::once(None).chain((0..self.kinds.len()).map(Some)) {
            match choice {
                None if fixed.is_some() => continue,
                Some(k) if !usable || fixed.is_some_and(|f| f != self.kinds[k]) => continue,
                Some(k) if self.puzzle.kinds[k].max.is_some_and(|m| self.counts[k] >= m) => continue,
                Some(k) if self.puzzle.goal.independent() && self.conflicts(s, k) => continue,
                _ => {}
            }
            self.apply(s, choice, true);
            if self.covered_until(s) {
                self.visit(s + 1)?;
            }
            self.apply(s, choice, false);
        }
        Ok(())
    }

    /// Whether a piece of kind `k` on `s` and an earlier piece attack each other.
    fn conflicts(&self, s: usize, k: usize) -> bool {
        self.attacks[k][s].iter().any(|&t| self.on[t].is_some())
            || self.on.iter().enumerate().any(|(t, on)| on.is_some_and(|j| self.attacks[j][t].contains(&s)))
    }

    fn apply(&mut self, s: usize, choice: Option<usize>, place: bool) {
        let Some(k) = choice else { return };
        let weight = self.puzzle.kinds[k].weight;
        if place {
            self.on[s] = Some(k);
            self.counts[k] += 1;
            self.value += weight;
        } else {
            self.on[s] = None;
            self.counts[k] -= 1;
            self.value -= weight;
        }
        for i in 0..self.attacks[k][s].len() {
            let t = self.attacks[k][s][i];
            if place {
                self.attackers[t] += 1;
            } else {
                self.attackers[t] -= 1;
            }
        }
    }

    /// Whether every square that no later decision can cover is covered.
    fn covered_until(&self, s: usize) -> bool {
        let total = self.puzzle.goal == PlacementGoal::TotalDomination;
        self.by_deadline[s].iter().all(|&t| self.attackers[t] > 0 || (!total && self.on[t].is_some()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Board, PawnDirection};
    use crate::puzzle::placement::KindRule;

    fn puzzle(n: usize, goal: PlacementGoal, kind: PieceKind) -> PlacementPuzzle {
        let rule = KindRule { kind, min: 0, max: None, weight: 1 };
        PlacementPuzzle::new(None, Board::new(n, n).unwrap(), goal, vec![rule], PawnDirection::Up, vec![], vec![])
            .unwrap()
    }

    #[test]
    fn classical_values_on_small_boards() {
        use PieceKind::*;
        use PlacementGoal::*;
        for n in 1..=5 {
            let best = |goal, kind| optimal_placement(&puzzle(n, goal, kind), 50_000_000).unwrap();
            assert_eq!(best(Independence, Rook), Some(n), "rooks {n}");
            assert_eq!(best(Domination, Rook), Some(n), "rook domination {n}");
            assert_eq!(best(Independence, King), Some(n.div_ceil(2).pow(2)), "kings {n}");
            assert_eq!(best(Domination, King), Some(n.div_ceil(3).pow(2)), "king domination {n}");
            if n > 1 {
                assert_eq!(best(Independence, Bishop), Some(2 * n - 2), "bishops {n}");
            }
            if n >= 4 {
                assert_eq!(best(Independence, Queen), Some(n), "queens {n}");
            }
            if n >= 3 {
                // n^2/2 for even n, (n^2+1)/2 for odd n.
                let knights = (n * n).div_ceil(2);
                assert_eq!(best(Independence, Knight), Some(knights), "knights {n}");
            }
        }
    }
}

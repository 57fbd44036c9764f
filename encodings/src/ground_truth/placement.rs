//! Exhaustive search for the optimum of a placement puzzle, written from the rules alone.
//!
//! Squares are decided in index order — empty, or one of the allowed kinds — with two prunings
//! that never lose an optimum: a square whose cover no later decision can change, left
//! uncovered, ends the branch (domination), and so does a partial value that can no longer beat
//! the best found.
//!
//! Along a line, square indices change by the same amount at every step, so the squares a
//! slider passes over on its way to a target lie strictly between the two in index order. When
//! placed pieces block sliders, whether one decided piece attacks another is therefore settled
//! as soon as both are decided, and whether a square is covered as soon as it, every square
//! that could attack it and everything in between are decided.

use crate::geometry::{PieceKind, Square};
use crate::puzzle::placement::{LineOfSight, PlacementGoal, PlacementPuzzle};

use super::exchange::SearchLimit;
use super::rules::{reach, Action};

/// One attack a piece could make: the target square and the squares that must be empty for it
/// (none on an empty board).
type Line = (usize, Vec<usize>);

/// The optimal value (`None`: no placement satisfies the rules), visiting at most `max_nodes`
/// nodes of the search tree.
pub fn optimal_placement(puzzle: &PlacementPuzzle, max_nodes: usize) -> Result<Option<usize>, SearchLimit> {
    let board = &puzzle.board;
    let n = board.area();
    let blocked = puzzle.line_of_sight == LineOfSight::Blocked;
    let kinds: Vec<PieceKind> = puzzle.kinds.iter().map(|r| r.kind).collect();
    // attacks[k][s]: the attacks of kind k on s.
    let attacks: Vec<Vec<Vec<Line>>> = kinds
        .iter()
        .map(|&k| {
            (0..n)
                .map(|s| {
                    reach(board, k, Action::Attack, Square(s as u16), puzzle.pawns)
                        .into_iter()
                        .map(|(to, between)| {
                            let between =
                                if blocked { between.iter().map(|b| b.index()).collect() } else { Vec::new() };
                            (to.index(), between)
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    // attackers[t]: every (square, kind, squares in between) that could attack t.
    let mut attackers: Vec<Vec<(usize, usize, Vec<usize>)>> = vec![Vec::new(); n];
    for (k, per_square) in attacks.iter().enumerate() {
        for (s, lines) in per_square.iter().enumerate() {
            for (t, between) in lines {
                attackers[*t].push((s, k, between.clone()));
            }
        }
    }
    // The last square (in index order) whose decision can still change whether square t is
    // covered: t itself (it may be occupied, or, when blocked, lie beyond the squares between it
    // and its attackers), and every possible attacker.
    let total = puzzle.goal == PlacementGoal::TotalDomination;
    let mut by_deadline = vec![Vec::new(); n];
    for (t, lines) in attackers.iter().enumerate() {
        if board.is_removed(Square(t as u16)) || !puzzle.goal.covers() {
            continue;
        }
        let own = if total && !blocked { 0 } else { t };
        let deadline = lines.iter().map(|l| l.0).fold(own, usize::max);
        by_deadline[deadline].push(t);
    }
    let mut search = Search {
        puzzle,
        kinds,
        attacks,
        attackers,
        by_deadline,
        on: vec![None; n],
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
    attacks: Vec<Vec<Vec<Line>>>,
    attackers: Vec<Vec<(usize, usize, Vec<usize>)>>,
    by_deadline: Vec<Vec<usize>>,
    on: Vec<Option<usize>>,
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

    /// Whether nothing stands on the squares of `between`.
    fn clear(&self, between: &[usize]) -> bool {
        between.iter().all(|&b| self.on[b].is_none())
    }

    /// Whether a piece of kind `k` on `s` and an earlier piece attack each other. Everything
    /// between two decided squares is decided, so the answer is final.
    fn conflicts(&self, s: usize, k: usize) -> bool {
        self.attacks[k][s].iter().any(|(t, between)| self.on[*t].is_some() && self.clear(between))
            || self.attackers[s].iter().any(|(t, j, between)| self.on[*t] == Some(*j) && self.clear(between))
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
    }

    /// Whether every square whose cover no later decision can change is covered.
    fn covered_until(&self, s: usize) -> bool {
        let total = self.puzzle.goal == PlacementGoal::TotalDomination;
        self.by_deadline[s].iter().all(|&t| {
            (!total && self.on[t].is_some())
                || self.attackers[t].iter().any(|(a, k, between)| self.on[*a] == Some(*k) && self.clear(between))
        })
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

    /// Rooks and knights on a 5x1 board with a knight fixed on c1, where knights attack nothing.
    /// Through the knight, a rook on a1 dominates; stopped by it, rooks are needed on both
    /// sides. For total domination, a1 and b1 (and d1 and e1) must attack each other when
    /// blocked. Every rook attacks the knight, so independence places knights only.
    #[test]
    fn a_fixed_piece_in_the_line_on_one_rank() {
        use LineOfSight::*;
        use PieceKind::*;
        use PlacementGoal::*;
        let best = |goal, line_of_sight| {
            let kinds = [Rook, Knight].map(|kind| KindRule { kind, min: 0, max: None, weight: 1 }).to_vec();
            let board = Board::new(5, 1).unwrap();
            let fixed = vec![(Square(2), Knight)];
            let puzzle = PlacementPuzzle::new(None, board, goal, kinds, PawnDirection::Up, vec![], fixed).unwrap();
            optimal_placement(&puzzle.with_line_of_sight(line_of_sight), 1_000_000).unwrap()
        };
        assert_eq!(best(Domination, EmptyBoard), Some(2));
        assert_eq!(best(Domination, Blocked), Some(3));
        assert_eq!(best(TotalDomination, EmptyBoard), Some(3));
        assert_eq!(best(TotalDomination, Blocked), Some(5));
        assert_eq!(best(Independence, EmptyBoard), Some(5));
        assert_eq!(best(Independence, Blocked), Some(5));
    }
}

//! Exhaustive search for the optimum of a tour puzzle.
//!
//! Written from the rules alone — a knight jumps onto a safe square, no two knights share a
//! square after a step, a target counts when a knight stands on it — with no CNF and no code of
//! the rules checker, so that it can judge both. A state is every knight's square (knights stay
//! numbered, since their candidate starts may differ) and the progress through the targets; the
//! search is Dijkstra's over `(time steps, moves)` in lexicographic order, which for one knight
//! per step is breadth-first search by moves.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use crate::geometry::{PawnDirection, PieceKind, Square};
use crate::puzzle::tour::{TourPuzzle, VisitOrder};

use super::exchange::SearchLimit;
use super::rules::{reach, safe_squares, Action};

/// The optimum of a tour found by exhaustive search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TourOptimum {
    /// Time steps of an optimal route.
    pub steps: usize,
    /// Jumps of an optimal route.
    pub moves: usize,
}

/// Fewest moves (for [`TourObjective::Moves`] and [`TourObjective::Feasible`] one knight moves
/// per step, so `steps == moves`) or, for [`TourObjective::Steps`], fewest time steps and then
/// fewest moves; `None` when no route touches every target. Visits at most `max_states` states
/// (starting states included).
///
/// A puzzle with more than 64 targets in [`VisitOrder::Any`] is beyond this search and gives
/// `Err(SearchLimit { positions: 0 })`.
///
/// [`TourObjective::Moves`]: crate::puzzle::tour::TourObjective::Moves
/// [`TourObjective::Feasible`]: crate::puzzle::tour::TourObjective::Feasible
/// [`TourObjective::Steps`]: crate::puzzle::tour::TourObjective::Steps
pub fn optimal_tour(puzzle: &TourPuzzle, max_states: usize) -> Result<Option<TourOptimum>, SearchLimit> {
    if puzzle.order == VisitOrder::Any && puzzle.targets.len() > 64 {
        return Err(SearchLimit { positions: 0 });
    }
    let rules = Rules::new(puzzle);
    let mut search = Search { best: HashMap::new(), queue: BinaryHeap::new(), max_states };
    let mut squares = Vec::with_capacity(puzzle.knights.len());
    rules.for_each_start(&mut squares, &mut |start| {
        let progress = rules.advance(start, 0);
        search.offer((start.into(), progress), (0, 0))
    })?;
    while let Some(Reverse((cost, state))) = search.queue.pop() {
        if search.best[&state] < cost {
            continue;
        }
        if rules.done(state.1) {
            return Ok(Some(TourOptimum { steps: cost.0, moves: cost.1 }));
        }
        let mut successors = Vec::new();
        if rules.parallel {
            rules.parallel_steps(&state.0, &mut Vec::new(), &mut |after, jumps| successors.push((after, jumps)));
        } else {
            for (k, &from) in state.0.iter().enumerate() {
                for &to in &rules.moves[from.index()] {
                    if !state.0.contains(&to) {
                        let mut after: Box<[Square]> = state.0.clone();
                        after[k] = to;
                        successors.push((after, 1));
                    }
                }
            }
        }
        for (after, jumps) in successors {
            let progress = rules.advance(&after, state.1);
            search.offer((after, progress), (cost.0 + 1, cost.1 + jumps))?;
        }
    }
    Ok(None)
}

/// Every knight's square, by knight, and the progress: the mask of touched targets for
/// [`VisitOrder::Any`], the number of targets touched in order for [`VisitOrder::Listed`].
type State = (Box<[Square]>, u64);

/// Time steps and moves, compared in that order.
type Cost = (usize, usize);

/// The best known cost of every state seen and the queue of states to expand.
struct Search {
    best: HashMap<State, Cost>,
    queue: BinaryHeap<Reverse<(Cost, State)>>,
    max_states: usize,
}

impl Search {
    /// Records that `state` can be reached at `cost`, queueing it when that is an improvement.
    fn offer(&mut self, state: State, cost: Cost) -> Result<(), SearchLimit> {
        match self.best.get(&state) {
            Some(&known) if known <= cost => return Ok(()),
            Some(_) => {}
            None if self.best.len() >= self.max_states => return Err(SearchLimit { positions: self.max_states }),
            None => {}
        }
        self.best.insert(state.clone(), cost);
        self.queue.push(Reverse((cost, state)));
        Ok(())
    }
}

/// The puzzle's rules, worked out once.
struct Rules<'a> {
    puzzle: &'a TourPuzzle,
    /// `safe[s]`: whether a knight may stand on square `s`.
    safe: Vec<bool>,
    /// `moves[s]`: the safe squares a knight on square `s` may jump to.
    moves: Vec<Vec<Square>>,
    /// `target[s]`: the position of square `s` in the list of targets.
    target: Vec<Option<usize>>,
    /// Whether any subset of knights moves at each step.
    parallel: bool,
}

impl<'a> Rules<'a> {
    fn new(puzzle: &'a TourPuzzle) -> Rules<'a> {
        let board = &puzzle.board;
        // Safety and jumps come from the rules derived apart from the puzzle's own danger map.
        let safe = safe_squares(board, &puzzle.attackers);
        let moves = (0..board.area())
            .map(|i| {
                let from = Square(i as u16);
                if !safe[i] {
                    return Vec::new();
                }
                reach(board, PieceKind::Knight, Action::Move, from, PawnDirection::Up)
                    .into_iter()
                    .map(|(to, _)| to)
                    .filter(|to| safe[to.index()])
                    .collect()
            })
            .collect();
        let mut target = vec![None; board.area()];
        for (i, t) in puzzle.targets.iter().enumerate() {
            target[t.index()] = Some(i);
        }
        Rules { puzzle, safe, moves, target, parallel: puzzle.objective.parallel() }
    }

    /// Calls `f` with every choice of distinct starting squares among the knights' candidates.
    fn for_each_start(
        &self,
        squares: &mut Vec<Square>,
        f: &mut impl FnMut(&[Square]) -> Result<(), SearchLimit>,
    ) -> Result<(), SearchLimit> {
        let Some(start) = self.puzzle.knights.get(squares.len()) else { return f(squares) };
        for &square in start.candidates() {
            if self.safe[square.index()] && !squares.contains(&square) {
                squares.push(square);
                self.for_each_start(squares, f)?;
                squares.pop();
            }
        }
        Ok(())
    }

    /// Calls `f` with every position one time step of a parallel puzzle leads to from `before`
    /// and the number of jumps: each knight stays or jumps, at least one jumps, and the knights
    /// end on distinct squares.
    fn parallel_steps(&self, before: &[Square], after: &mut Vec<Square>, f: &mut impl FnMut(Box<[Square]>, usize)) {
        let k = after.len();
        if k == before.len() {
            let jumps = before.iter().zip(after.iter()).filter(|(b, a)| b != a).count();
            let distinct = after.iter().enumerate().all(|(i, s)| !after[..i].contains(s));
            if jumps > 0 && distinct {
                f(after.as_slice().into(), jumps);
            }
            return;
        }
        for to in std::iter::once(before[k]).chain(self.moves[before[k].index()].iter().copied()) {
            after.push(to);
            self.parallel_steps(before, after, f);
            after.pop();
        }
    }

    /// The progress after the knights stand on `squares`, from `progress` before.
    fn advance(&self, squares: &[Square], progress: u64) -> u64 {
        match self.puzzle.order {
            VisitOrder::Any => {
                squares.iter().filter_map(|s| self.target[s.index()]).fold(progress, |mask, i| mask | 1 << i)
            }
            VisitOrder::Listed => {
                let targets = &self.puzzle.targets;
                let mut next = progress as usize;
                while next < targets.len() && squares.contains(&targets[next]) {
                    next += 1;
                }
                next as u64
            }
        }
    }

    /// Whether every target has been touched.
    fn done(&self, progress: u64) -> bool {
        let n = self.puzzle.targets.len();
        match self.puzzle.order {
            VisitOrder::Any => progress == ((1u128 << n) - 1) as u64,
            VisitOrder::Listed => progress as usize == n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Board;
    use crate::puzzle::tour::{KnightStart, TourObjective};

    // On 3x3 the knight's squares form one ring: a1-b3-c1-a2-c3-b1-a3-c2-a1; b2 is isolated.

    fn tour(
        size: (usize, usize),
        knights: &[&[&str]],
        targets: Option<&[&str]>,
        order: VisitOrder,
        objective: TourObjective,
    ) -> TourPuzzle {
        let board = Board::new(size.0, size.1).unwrap();
        let sq = |name: &str| board.parse_square(name).unwrap();
        let knights = knights
            .iter()
            .map(|c| match c {
                [one] => KnightStart::At(sq(one)),
                many => KnightStart::OneOf(many.iter().map(|n| sq(n)).collect()),
            })
            .collect();
        let targets = targets.map(|t| t.iter().map(|n| sq(n)).collect());
        TourPuzzle::new(None, board, Vec::new(), knights, targets, order, objective).unwrap()
    }

    fn solve(puzzle: &TourPuzzle) -> Option<(usize, usize)> {
        optimal_tour(puzzle, 100_000).unwrap().map(|o| (o.steps, o.moves))
    }

    use TourObjective::{Feasible, Moves, Steps};
    use VisitOrder::{Any, Listed};

    #[test]
    fn one_knight_on_three_by_three() {
        // c2 and b3 are both neighbours of a1 on the ring: a1-c2-a1-b3.
        assert_eq!(solve(&tour((3, 3), &[&["a1"]], Some(&["c2", "b3"]), Any, Moves)), Some((3, 3)));
        assert_eq!(solve(&tour((3, 3), &[&["a1"]], Some(&["c2", "b3"]), Listed, Feasible)), Some((3, 3)));
        // b3 then c1 along the ring; a target under the start counts at once.
        assert_eq!(solve(&tour((3, 3), &[&["a1"]], Some(&["c1", "b3", "a1"]), Any, Moves)), Some((2, 2)));
        assert_eq!(solve(&tour((3, 3), &[&["a1"]], Some(&["a1"]), Listed, Moves)), Some((0, 0)));
        // Every safe square but b2 is unreachable: no route.
        assert_eq!(solve(&tour((3, 3), &[&["a1"]], Some(&["c2", "b2"]), Any, Moves)), None);
        assert_eq!(solve(&tour((3, 3), &[&["a1"]], None, Any, Moves)), None);
        // Without b2, the whole ring: seven moves one way round.
        let ring = ["a1", "b3", "c1", "a2", "c3", "b1", "a3", "c2"];
        assert_eq!(solve(&tour((3, 3), &[&["c3"]], Some(&ring), Any, Moves)), Some((7, 7)));
    }

    #[test]
    fn the_listed_order_can_force_a_longer_route() {
        // Any order: a1-b3-c1 touches both. Listed: b3 counts only after c1, so c1-b3 once more.
        assert_eq!(solve(&tour((3, 3), &[&["a1"]], Some(&["c1", "b3"]), Any, Moves)), Some((2, 2)));
        assert_eq!(solve(&tour((3, 3), &[&["a1"]], Some(&["c1", "b3"]), Listed, Moves)), Some((3, 3)));
        // A target touched before its turn does not count: a1 is left at time 0, then revisited.
        assert_eq!(solve(&tour((3, 3), &[&["a1"]], Some(&["c2", "a1"]), Listed, Moves)), Some((2, 2)));
    }

    #[test]
    fn parallel_moves_halve_the_steps() {
        // a1-b3-c1 and c3-b1-a3 at once: two steps of two jumps, four moves one at a time.
        let targets = Some(&["c1", "a3"][..]);
        assert_eq!(solve(&tour((3, 3), &[&["a1"], &["c3"]], targets, Any, Moves)), Some((4, 4)));
        assert_eq!(solve(&tour((3, 3), &[&["a1"], &["c3"]], targets, Any, Steps)), Some((2, 4)));
        // Among the routes of fewest steps, fewest moves: the knight on c3 stays.
        assert_eq!(solve(&tour((3, 3), &[&["a1"], &["c3"]], Some(&["b3"]), Any, Steps)), Some((1, 1)));
    }

    #[test]
    fn a_knight_may_land_where_another_leaves() {
        // a2 then c1, in that order. The knight on b3 runs b3-c1-a2 while the one on a1 follows
        // one square behind, so both count after two steps. One at a time, the knight from b3
        // comes back: b3-c1-a2-c1.
        let targets = Some(&["a2", "c1"][..]);
        assert_eq!(solve(&tour((3, 3), &[&["a1"], &["b3"]], targets, Listed, Steps)), Some((2, 4)));
        assert_eq!(solve(&tour((3, 3), &[&["a1"], &["b3"]], targets, Listed, Moves)), Some((3, 3)));
    }

    #[test]
    fn free_starts_choose_the_best_square() {
        // From c3: a2 next door. From a1: a1-b3-c1-a2-c3.
        let targets = Some(&["a2", "c3"][..]);
        assert_eq!(solve(&tour((3, 3), &[&["a1"]], targets, Any, Moves)), Some((4, 4)));
        assert_eq!(solve(&tour((3, 3), &[&["a1", "c3"]], targets, Any, Moves)), Some((1, 1)));
        // Starting on c3 and a2 touches two targets; a2-c1 touches the third.
        let both = &[&["a1", "c3"][..], &["c3", "a2"][..]];
        assert_eq!(solve(&tour((3, 3), both, Some(&["a2", "c3", "c1"]), Any, Moves)), Some((1, 1)));
    }

    #[test]
    fn the_budget_is_enforced() {
        let ring = ["a1", "b3", "c1", "a2", "c3", "b1", "a3", "c2"];
        let puzzle = tour((3, 3), &[&["a1"], &["c3"]], Some(&ring), Any, Steps);
        assert_eq!(optimal_tour(&puzzle, 10), Err(SearchLimit { positions: 10 }));
        assert!(optimal_tour(&puzzle, 100_000).unwrap().is_some());
        // Seventy-two targets in any order do not fit the search.
        let wide = tour((9, 8), &[&["a1"]], None, Any, Moves);
        assert_eq!(optimal_tour(&wide, 100_000), Err(SearchLimit { positions: 0 }));
    }
}

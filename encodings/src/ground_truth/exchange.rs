//! Breadth-first search over the positions of an exchange puzzle.
//!
//! Written from the rules alone — a piece moves along its geometric steps onto an empty square,
//! over empty squares — with no CNF and no code of the rules checker, so that it can judge both.

use std::collections::{BTreeSet, HashSet};

use crate::geometry::{Piece, Square};
use crate::puzzle::{ExchangePuzzle, Move, Position};

use super::rules::{reach, Action, Reach};

/// The search saw more positions than it was allowed to.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("breadth-first search stopped after {positions} positions")]
pub struct SearchLimit {
    /// The budget that was exceeded.
    pub positions: usize,
}

/// What a complete breadth-first search from the start position found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exploration {
    /// Fewest moves from start to goal, or `None` if the goal is unreachable.
    pub shortest: Option<usize>,
    /// Positions reachable from the start (the start included).
    pub positions: usize,
    /// Legal moves between reachable positions.
    pub moves: usize,
    /// Fewest moves needed to reach the farthest reachable position.
    pub eccentricity: usize,
}

/// Fewest moves from start to goal (`None`: unreachable), exploring at most `max_positions`.
pub fn shortest_exchange(puzzle: &ExchangePuzzle, max_positions: usize) -> Result<Option<usize>, SearchLimit> {
    explore(puzzle, max_positions).map(|e| e.shortest)
}

/// Explores every position reachable from the start, up to `max_positions` of them.
pub fn explore(puzzle: &ExchangePuzzle, max_positions: usize) -> Result<Exploration, SearchLimit> {
    let rules = Rules::new(puzzle);
    let (start, goal) = (rules.state(&puzzle.start), rules.state(&puzzle.goal));
    let mut seen: HashSet<State> = HashSet::from([start.clone()]);
    let mut frontier = vec![start.clone()];
    let mut shortest = (start == goal).then_some(0);
    let (mut moves, mut level) = (0, 0);
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for state in &frontier {
            let mut over_budget = false;
            rules.for_each_successor(state, |_, successor| {
                moves += 1;
                if over_budget || seen.contains(&successor) {
                    return;
                }
                if seen.len() >= max_positions {
                    over_budget = true;
                    return;
                }
                if shortest.is_none() && successor == goal {
                    shortest = Some(level + 1);
                }
                seen.insert(successor.clone());
                next.push(successor);
            });
            if over_budget {
                return Err(SearchLimit { positions: max_positions });
            }
        }
        if !next.is_empty() {
            level += 1;
        }
        frontier = next;
    }
    Ok(Exploration { shortest, positions: seen.len(), moves, eccentricity: level })
}

/// One shortest sequence of moves from start to goal (`None`: unreachable), exploring at most
/// `max_positions` positions. The search stops as soon as the goal is taken from the queue, so
/// it may succeed where [`explore`] runs out of budget.
pub fn shortest_route(puzzle: &ExchangePuzzle, max_positions: usize) -> Result<Option<Vec<Move>>, SearchLimit> {
    let rules = Rules::new(puzzle);
    let (start, goal) = (rules.state(&puzzle.start), rules.state(&puzzle.goal));
    // Positions in the order they were found, each with the index of the position and the move
    // it was found from.
    let mut found: Vec<(State, Option<(usize, Move)>)> = vec![(start.clone(), None)];
    let mut seen: HashSet<State> = HashSet::from([start]);
    let mut next = 0;
    while next < found.len() {
        if found[next].0 == goal {
            let mut route = Vec::new();
            let mut at = next;
            while let Some((parent, mv)) = found[at].1 {
                route.push(mv);
                at = parent;
            }
            route.reverse();
            return Ok(Some(route));
        }
        let mut successors = Vec::new();
        rules.for_each_successor(&found[next].0, |mv, successor| successors.push((mv, successor)));
        for (mv, successor) in successors {
            if seen.contains(&successor) {
                continue;
            }
            if seen.len() >= max_positions {
                return Err(SearchLimit { positions: max_positions });
            }
            seen.insert(successor.clone());
            found.push((successor, Some((next, mv))));
        }
        next += 1;
    }
    Ok(None)
}

/// Every position reachable from the start in exactly `moves` moves, in a fixed order (by
/// their bytes), or the limit if a layer on the way holds more than `max_positions`. Every
/// route of at least `moves` moves passes through one of them: the cubes of a horizon search.
pub fn positions_after(
    puzzle: &ExchangePuzzle,
    moves: usize,
    max_positions: usize,
) -> Result<Vec<Position>, SearchLimit> {
    let rules = Rules::new(puzzle);
    let mut layer: BTreeSet<State> = BTreeSet::from([rules.state(&puzzle.start)]);
    for _ in 0..moves {
        let mut next = BTreeSet::new();
        for state in &layer {
            rules.for_each_successor(state, |_, successor| {
                next.insert(successor);
            });
            if next.len() > max_positions {
                return Err(SearchLimit { positions: max_positions });
            }
        }
        layer = next;
    }
    Ok(layer.iter().map(|state| rules.position(state)).collect())
}

/// A position, one byte per square of the board's rectangle: 0 for an empty square, `1 + g`
/// for a piece of group `g` (pieces of one group are interchangeable, so this is all there is
/// to know).
type State = Box<[u8]>;

/// The moves of a puzzle's pieces, worked out once for every group and square.
struct Rules {
    /// The groups (side and kind) of the puzzle's pieces.
    groups: Vec<Piece>,
    /// `steps[g][s]`: the squares a piece of group `g` on square `s` moves to, each with the
    /// squares it passes over.
    steps: Vec<Vec<Vec<Reach>>>,
}

impl Rules {
    fn new(puzzle: &ExchangePuzzle) -> Rules {
        let groups = puzzle.groups();
        assert!(groups.len() < usize::from(u8::MAX), "at most 254 groups of pieces");
        let board = &puzzle.board;
        let steps = groups
            .iter()
            .map(|&piece| {
                (0..board.area())
                    .map(|i| reach(board, piece.kind, Action::Move, Square(i as u16), puzzle.pawns(piece)))
                    .collect()
            })
            .collect();
        Rules { groups, steps }
    }

    fn state(&self, position: &Position) -> State {
        let mut state = vec![0; self.steps.first().map_or(0, Vec::len)];
        for (square, piece) in position.pieces() {
            let g = self.groups.iter().position(|&p| p == piece).expect("start and goal hold the same groups");
            state[square.index()] = g as u8 + 1;
        }
        state.into_boxed_slice()
    }

    fn position(&self, state: &[u8]) -> Position {
        let mut position = Position::empty(state.len());
        for (square, &code) in state.iter().enumerate() {
            if let Some(g) = usize::from(code).checked_sub(1) {
                // Each square holds one code, so a square is never taken twice.
                let _ = position.place(Square(square as u16), self.groups[g]);
            }
        }
        position
    }

    /// Calls `f` with every legal move from `state` and the position it leads to: one piece
    /// steps onto an empty square, over empty squares only.
    fn for_each_successor(&self, state: &[u8], mut f: impl FnMut(Move, State)) {
        for (from, &code) in state.iter().enumerate() {
            let Some(g) = usize::from(code).checked_sub(1) else { continue };
            for (to, between) in &self.steps[g][from] {
                if state[to.index()] == 0 && between.iter().all(|s| state[s.index()] == 0) {
                    let mut after: State = state.into();
                    after[from] = 0;
                    after[to.index()] = code;
                    f(Move { piece: self.groups[g], from: Square(from as u16), to: *to }, after);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Board, PawnDirection, PieceKind};
    use crate::puzzle::Side;

    fn sides(n: usize) -> Vec<Side> {
        (0..n).map(|i| Side { name: format!("side{i}"), pawns: PawnDirection::Up }).collect()
    }

    /// A puzzle from `(side, kind, start, goal)` pieces on a `w`x`h` board.
    fn puzzle(w: usize, h: usize, pieces: &[(usize, PieceKind, &str, &str)]) -> ExchangePuzzle {
        let board = Board::new(w, h).unwrap();
        let mut start = Position::empty(board.area());
        let mut goal = Position::empty(board.area());
        for &(side, kind, from, to) in pieces {
            start.place(board.parse_square(from).unwrap(), Piece { side, kind }).unwrap();
            goal.place(board.parse_square(to).unwrap(), Piece { side, kind }).unwrap();
        }
        let n = pieces.iter().map(|p| p.0 + 1).max().unwrap_or(1);
        ExchangePuzzle::new(None, board, sides(n), start, goal).unwrap()
    }

    use PieceKind::{Bishop, Knight, Rook};

    #[test]
    fn guarini_takes_16_moves_and_the_state_graph_has_420_positions() {
        let p = puzzle(
            3,
            3,
            &[(0, Knight, "a1", "a3"), (0, Knight, "c1", "c3"), (1, Knight, "a3", "a1"), (1, Knight, "c3", "c1")],
        );
        let reachable = explore(&p, 10_000).unwrap();
        assert_eq!(reachable.shortest, Some(16));
        // The knights live on the ring a1-b3-c1-a2-c3-b1-a3-c2 and keep their cyclic order:
        // colours paired (WWBB) from the start, alternating (WBWB) in the other component.
        let alternating = puzzle(
            3,
            3,
            &[(0, Knight, "a1", "a1"), (1, Knight, "b3", "b3"), (0, Knight, "c1", "c1"), (1, Knight, "a2", "a2")],
        );
        let other = explore(&alternating, 10_000).unwrap();
        // Together: the seeds' network-flow model of every placement, 420 positions, 1,920 moves.
        assert_eq!((reachable.positions + other.positions, reachable.moves + other.moves), (420, 1920));
    }

    #[test]
    fn the_layers_of_exact_move_counts_cover_every_reachable_position() {
        let p = puzzle(
            3,
            3,
            &[(0, Knight, "a1", "a3"), (0, Knight, "c1", "c3"), (1, Knight, "a3", "a1"), (1, Knight, "c3", "c1")],
        );
        let reachable = explore(&p, 10_000).unwrap();
        assert_eq!(positions_after(&p, 0, 10).unwrap(), vec![p.start.clone()]);
        // Four knights with two moves each from the corners: a1-b3, a1-c2, c1-a2, c1-b3, …
        let first = positions_after(&p, 1, 100).unwrap();
        assert_eq!(first.len(), 8);
        let mut all = HashSet::new();
        for moves in 0..=reachable.eccentricity + 1 {
            let layer = positions_after(&p, moves, 10_000).unwrap();
            assert!(layer.windows(2).all(|w| w[0] != w[1]), "no position twice in a layer");
            all.extend(layer);
        }
        assert_eq!(all.len(), reachable.positions);
        assert_eq!(positions_after(&p, 3, 5), Err(SearchLimit { positions: 5 }));
    }

    #[test]
    fn start_equal_to_goal_takes_no_move() {
        let p = puzzle(2, 2, &[(0, Rook, "a1", "a1")]);
        assert_eq!(shortest_exchange(&p, 100), Ok(Some(0)));
    }

    #[test]
    fn a_rook_goes_round_a_blocker() {
        // a1 to a3 on 2x3, with a knight of another side on a2 that can never move.
        let p = puzzle(2, 3, &[(0, Rook, "a1", "a3"), (1, Knight, "a2", "a2")]);
        // The knight has no move on a board two files wide; the rook goes round it by b1 and b3.
        assert_eq!(shortest_exchange(&p, 1000), Ok(Some(3)));
    }

    #[test]
    fn pieces_that_cannot_pass_are_infeasible() {
        let p = puzzle(3, 1, &[(0, Rook, "a1", "c1"), (1, Rook, "c1", "a1")]);
        assert_eq!(shortest_exchange(&p, 100), Ok(None));
        let p = puzzle(2, 2, &[(0, Bishop, "a1", "b1")]);
        assert_eq!(shortest_exchange(&p, 100), Ok(None));
    }

    /// Plays a route from the start, checking only that each move takes a piece that stands
    /// on its origin to an empty square; returns the last position.
    fn play(p: &ExchangePuzzle, route: &[Move]) -> Position {
        let mut position = p.start.clone();
        for mv in route {
            assert_eq!(position.take(mv.from), Some(mv.piece), "{mv:?}");
            position.place(mv.to, mv.piece).unwrap_or_else(|_| panic!("{mv:?} lands on a piece"));
        }
        position
    }

    #[test]
    fn routes_are_shortest_and_end_in_the_goal() {
        let guarini = puzzle(
            3,
            3,
            &[(0, Knight, "a1", "a3"), (0, Knight, "c1", "c3"), (1, Knight, "a3", "a1"), (1, Knight, "c3", "c1")],
        );
        let route = shortest_route(&guarini, 10_000).unwrap().unwrap();
        assert_eq!(route.len(), 16);
        assert_eq!(play(&guarini, &route), guarini.goal);

        let blocked = puzzle(2, 3, &[(0, Rook, "a1", "a3"), (1, Knight, "a2", "a2")]);
        let route = shortest_route(&blocked, 1000).unwrap().unwrap();
        let notation: Vec<String> = route.iter().map(|m| m.notation(&blocked.board)).collect();
        assert_eq!(notation, ["Ra1-b1", "Rb1-b3", "Rb3-a3"]);

        let same = puzzle(2, 2, &[(0, Rook, "a1", "a1")]);
        assert_eq!(shortest_route(&same, 1), Ok(Some(Vec::new())));
        let stuck = puzzle(3, 1, &[(0, Rook, "a1", "c1"), (1, Rook, "c1", "a1")]);
        assert_eq!(shortest_route(&stuck, 100), Ok(None));
        assert_eq!(shortest_route(&guarini, 100), Err(SearchLimit { positions: 100 }));
    }

    #[test]
    fn the_budget_is_enforced() {
        let p = puzzle(
            3,
            3,
            &[(0, Knight, "a1", "a3"), (0, Knight, "c1", "c3"), (1, Knight, "a3", "a1"), (1, Knight, "c3", "c1")],
        );
        assert_eq!(shortest_exchange(&p, 100), Err(SearchLimit { positions: 100 }));
    }
}

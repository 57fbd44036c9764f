//! The network-flow model of an exchange: a shortest path over positions, as in the MIP
//! write-ups. Every position of the pieces is a node — each piece on a square where a piece of
//! its group can stand: a start square of the group, or one a move of its kind reaches — and
//! every legal move between two of them an arc with a 0-1 variable `a{i}_{move}`; one unit of flow leaves the start and
//! reaches the goal (`flow_p{i}`: out minus in is 1 at the start, -1 at the goal, 0 elsewhere),
//! and the objective minimises the arcs used, which is the number of moves.
//!
//! The constraint matrix is a node-arc incidence matrix, so the LP relaxation already has an
//! integral optimum: a MIP solver proves the optimum at its root. The price is the size: the
//! model lists every position, reachable or not (as the write-ups do: Guarini's puzzle has 420
//! positions on its eight live squares, of which 280 are reachable), so it is only for puzzles
//! with few of them.

use std::collections::HashMap;

use super::{LinearModel, Relation, Sense, Unsupported};
use crate::geometry::{move_steps, Piece, Square};
use crate::puzzle::{ExchangePuzzle, Move, Position};

/// One arc: a legal move from one reachable position to another.
#[derive(Clone, Copy, Debug)]
struct Arc {
    from: usize,
    to: usize,
    var: usize,
    step: Move,
}

/// The network-flow model of an exchange and the graph of positions behind it.
#[derive(Clone, Debug)]
pub struct FlowModel {
    /// The model.
    pub model: LinearModel,
    /// The positions (the nodes).
    pub positions: usize,
    /// The legal moves between them (the arcs, one variable each).
    pub moves: usize,
    arcs: Vec<Arc>,
    start: usize,
}

impl FlowModel {
    /// The moves along the path that `values` (one per variable) send the flow: from the start,
    /// follow an unused arc with flow until no arc leaves (the goal, for a feasible flow).
    pub fn moves(&self, values: &[bool]) -> Vec<Move> {
        let mut unused: Vec<&Arc> = self.arcs.iter().filter(|a| values[a.var]).collect();
        let (mut node, mut path) = (self.start, Vec::new());
        while let Some(i) = unused.iter().position(|a| a.from == node) {
            let arc = unused.swap_remove(i);
            path.push(arc.step);
            node = arc.to;
        }
        path
    }
}

/// The most squares all listed positions may hold together (each takes 16 bytes): a position
/// stores every square, so large boards list fewer positions (half a million on 8x8, 8,192 on
/// 64x64).
pub const MAX_FLOW_SQUARES: usize = 32 << 20;

/// The most moves (arcs, each a variable) the network-flow model may have.
pub const MAX_FLOW_ARCS: usize = 4_000_000;

/// The network-flow model of `puzzle`, or why it is not built: it would list more than
/// `max_positions` positions (fewer on boards larger than 8x8, see [`MAX_FLOW_SQUARES`]) or
/// more than [`MAX_FLOW_ARCS`] moves.
pub fn flow_model(puzzle: &ExchangePuzzle, max_positions: usize) -> Result<FlowModel, Unsupported> {
    let board = &puzzle.board;
    let max_positions = max_positions.min(MAX_FLOW_SQUARES / board.area());
    let nodes = positions(puzzle, max_positions).ok_or_else(|| {
        Unsupported(format!(
            "the network-flow model lists every position of the pieces, and this puzzle has more than \
             {max_positions}; use the time-indexed model"
        ))
    })?;
    let index: HashMap<&Position, usize> = nodes.iter().enumerate().map(|(i, p)| (p, i)).collect();
    let mut edges: Vec<(usize, usize, Move)> = Vec::new();
    for (i, position) in nodes.iter().enumerate() {
        for (from, piece) in position.pieces() {
            for step in move_steps(board, piece.kind, from, puzzle.pawns(piece)) {
                let free = |s: &Square| position.get(*s).is_none();
                if !free(&step.to) || !step.between.iter().all(free) {
                    continue;
                }
                let mut after = position.clone();
                after.take(from);
                after.place(step.to, piece).expect("the square is empty");
                let to = *index.get(&after).expect("a square a move reaches is one a piece can stand on");
                edges.push((i, to, Move { piece, from, to: step.to }));
                if edges.len() > MAX_FLOW_ARCS {
                    return Err(Unsupported(format!(
                        "the network-flow model has an arc for every move between positions, and this \
                         puzzle has more than {MAX_FLOW_ARCS}; use the time-indexed model"
                    )));
                }
            }
        }
    }
    let name = puzzle.name.as_deref().unwrap_or("exchange");
    let mut model = LinearModel {
        title: format!(
            "{name}: exchange of {} pieces on {}x{} as a shortest path over {} positions and {} moves",
            puzzle.piece_count(),
            board.width(),
            board.height(),
            nodes.len(),
            edges.len()
        ),
        ..LinearModel::default()
    };
    let arcs: Vec<Arc> = edges
        .into_iter()
        .map(|(from, to, step)| {
            let label = format!("a{from}_{}{}{}", step.piece.kind.letter(), board.name(step.from), board.name(step.to));
            Arc { from, to, var: model.variable(label), step }
        })
        .collect();
    let goal = index.get(&puzzle.goal).copied();
    let start = index[&puzzle.start];
    let mut rows: Vec<Vec<(i64, usize)>> = vec![Vec::new(); nodes.len()];
    for arc in &arcs {
        rows[arc.from].push((1, arc.var));
        rows[arc.to].push((-1, arc.var));
    }
    for (i, terms) in rows.into_iter().enumerate() {
        // With the goal unreachable, the start's row alone asks for flow that cannot arrive.
        let supply = i64::from(i == start) - i64::from(goal == Some(i));
        model.constrain(format!("flow_p{i}"), terms, Relation::Equal, supply);
    }
    model.objective = Some((Sense::Minimise, arcs.iter().map(|a| (1, a.var)).collect()));
    Ok(FlowModel { model, positions: nodes.len(), moves: arcs.len(), arcs, start })
}

/// Every position with the puzzle's pieces, each group's pieces on squares where one of them
/// can stand: a start square of the group, or a square a move of its kind reaches. `None` if
/// there are more than `max` of them.
fn positions(puzzle: &ExchangePuzzle, max: usize) -> Option<Vec<Position>> {
    let board = &puzzle.board;
    let counts = puzzle.start.counts();
    let groups: Vec<_> = counts.keys().copied().collect();
    let live: Vec<Vec<Square>> = groups
        .iter()
        .map(|&group| {
            let mut reached = vec![false; board.area()];
            for from in board.squares() {
                for step in move_steps(board, group.kind, from, puzzle.pawns(group)) {
                    reached[step.to.index()] = true;
                }
            }
            for (square, piece) in puzzle.start.pieces() {
                reached[square.index()] |= piece == group;
            }
            board.squares().filter(|s| reached[s.index()]).collect()
        })
        .collect();
    let mut enumeration = Enumeration {
        pieces: groups.iter().map(|g| counts[g]).collect(),
        groups,
        live,
        position: Position::empty(board.area()),
        found: Vec::new(),
        max,
    };
    enumeration.place(0, 0, 0).then_some(enumeration.found)
}

/// The positions of [`positions`], built square by square.
struct Enumeration {
    groups: Vec<Piece>,
    /// How many pieces each group has.
    pieces: Vec<usize>,
    /// The squares where each group's pieces can stand.
    live: Vec<Vec<Square>>,
    position: Position,
    found: Vec<Position>,
    max: usize,
}

impl Enumeration {
    /// Places the rest of the pieces: `placed` of group `g` stand already, the next one on a
    /// live square from `live[g][first..]`. False once more than `max` positions are found.
    fn place(&mut self, g: usize, placed: usize, first: usize) -> bool {
        if g == self.groups.len() {
            if self.found.len() >= self.max {
                return false;
            }
            self.found.push(self.position.clone());
            return true;
        }
        if placed == self.pieces[g] {
            return self.place(g + 1, 0, 0);
        }
        for i in first..self.live[g].len() {
            let square = self.live[g][i];
            if self.position.get(square).is_some() {
                continue;
            }
            self.position.place(square, self.groups[g]).expect("the square is empty");
            let more = self.place(g, placed + 1, i + 1);
            self.position.take(square);
            if !more {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::replay_exchange;
    use crate::linear::satisfying;

    fn parse(text: &str) -> ExchangePuzzle {
        crate::puzzle::parse(text, "test.toml").unwrap().exchange().unwrap().clone()
    }

    #[test]
    fn a_knight_from_a1_to_c1_takes_the_path_of_two_jumps() {
        // On 3x3 the knight's squares form a cycle of eight: a1-b3-c1-a2-c3-b1-a3-c2-a1.
        let puzzle = parse(
            "kind = \"exchange\"\nboard = \"3x3\"\n[[side]]\nname = \"white\"\nstart = [\"Na1\"]\ngoal = [\"Nc1\"]\n",
        );
        let flow = flow_model(&puzzle, 100).unwrap();
        assert_eq!((flow.positions, flow.moves), (8, 16));
        let all = satisfying(&flow.model);
        let best = all.iter().min_by_key(|v| flow.model.objective_value(v)).expect("a path exists");
        assert_eq!(flow.model.objective_value(best), Some(2));
        let moves = flow.moves(best);
        assert_eq!(moves.len(), 2);
        let positions = replay_exchange(&puzzle, &moves).expect("legal moves");
        assert_eq!(positions.last(), Some(&puzzle.goal));
    }

    #[test]
    fn an_unreachable_goal_makes_the_model_infeasible() {
        // Two kings on a 1x2 board cannot move at all.
        let puzzle = parse(
            "kind = \"exchange\"\nboard = \"2x1\"\nswap = true\n[[side]]\nname = \"white\"\nstart = [\"Ka1\"]\n\
             [[side]]\nname = \"black\"\nstart = [\"Kb1\"]\n",
        );
        let flow = flow_model(&puzzle, 100).unwrap();
        assert_eq!((flow.positions, flow.moves), (2, 0));
        assert!(satisfying(&flow.model).is_empty());
    }

    #[test]
    fn too_many_positions_are_refused() {
        let puzzle = parse("kind = \"exchange\"\nboard = \"4x4\"\n[[side]]\nname = \"white\"\nstart = [\"Ra1\", \"Rb1\"]\ngoal = [\"Rc4\", \"Rd4\"]\n");
        let error = flow_model(&puzzle, 10).unwrap_err();
        assert!(error.0.contains("more than 10"), "{error}");
    }
}

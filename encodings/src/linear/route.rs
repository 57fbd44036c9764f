//! The route model of a lone knight touching its targets in a listed order, for the fewest
//! moves: a shortest path through the legs of the route, with no time index.
//!
//! A *node* is a leg and a square: `(l, s)` says the knight stands on `s` having touched the
//! first `l` targets in order. A jump from `s` to `t` in leg `l` leads to `(l + 1, t)` when `t`
//! is target `l`, to `(l, t)` otherwise; the route ends at the *finish*, the last target
//! reached in the last leg. `leg{l}_{s}_{t}` is such a jump, used or not, and the model asks
//! one unit of flow from the start to the finish:
//!
//! - `flow_leg{l}_{s}`: jumps out of a node minus jumps into it equal one at the start and
//!   zero elsewhere (with several candidate starts, `start_{s}` the start chosen, and the row
//!   `start`: exactly one is);
//! - `finish`: one jump arrives at the finish (or the knight starts there);
//! - the objective: the number of jumps.
//!
//! Every route of `m` moves that touches the targets in order walks through the nodes; with
//! its loops cut out it is a solution of at most `m` jumps. Every solution is a path from the
//! start to the finish, which is such a route, and perhaps loops besides, which only add
//! jumps. So the model's optimum is the puzzle's, in a few thousand variables where the
//! time-indexed model ([`super::tour_model_at_most`]) takes one per square and time.
//!
//! Only the nodes the knight can reach from a start are in the model.

use std::collections::VecDeque;

use super::{LinearModel, Relation, Sense};
use crate::check::replay_tour;
use crate::geometry::Square;
use crate::puzzle::tour::{Route, TourObjective, TourPuzzle, VisitOrder};

/// A node of the route model: the knight on `square` having touched the first `leg` targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteNode {
    /// Targets touched in order.
    pub leg: usize,
    /// The knight's square (an index).
    pub square: usize,
    /// The row `flow_leg{leg}_{square}` (none for the finish).
    pub row: Option<usize>,
}

/// A jump of the route model: from node `from` to node `to` (indices into the nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteJump {
    /// The node jumped from.
    pub from: usize,
    /// The node jumped to.
    pub to: usize,
    /// Its variable.
    pub var: usize,
}

/// A start the model may choose: its node and, with several candidates, its variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteStart {
    /// The node the knight starts on.
    pub node: usize,
    /// `start_{square}` (none when the start is fixed).
    pub var: Option<usize>,
}

/// The route model of a puzzle and where its nodes, jumps and rows are.
#[derive(Clone, Debug)]
pub struct RouteModel {
    /// The model.
    pub model: LinearModel,
    /// The nodes the knight can reach.
    pub nodes: Vec<RouteNode>,
    /// The jumps between them.
    pub jumps: Vec<RouteJump>,
    /// The starts.
    pub starts: Vec<RouteStart>,
    /// The finish's node.
    pub finish: usize,
    /// The row `start` "one start is chosen" (several candidates only).
    pub start_row: Option<usize>,
    /// node_of[leg][square].
    node_of: Vec<Vec<Option<usize>>>,
}

impl RouteModel {
    /// The node of `square` in `leg`, if the knight can reach it.
    pub fn node(&self, leg: usize, square: usize) -> Option<usize> {
        self.node_of.get(leg)?.get(square).copied().flatten()
    }

    /// The values that `route` gives the model's variables: its start and its jumps; why not,
    /// when it breaks the rules, misses a target or comes back to a node (a route with a loop
    /// is never the shortest).
    pub fn assignment(&self, puzzle: &TourPuzzle, route: &Route) -> Result<Vec<bool>, String> {
        replay_tour(puzzle, route).map_err(|e| format!("the route breaks the rules: {e}"))?;
        let start = route.starts.first().ok_or("a route without a start")?.index();
        let mut values = vec![false; self.model.variables.len()];
        let mut node = self.node(first_leg(puzzle, start), start).ok_or("a start outside the model")?;
        let chosen = self.starts.iter().find(|s| s.node == node).ok_or("a start that is not a candidate")?;
        if let Some(var) = chosen.var {
            values[var] = true;
        }
        let mut seen = vec![false; self.nodes.len()];
        seen[node] = true;
        for jump in route.jumps() {
            let edge = self
                .jumps
                .iter()
                .find(|j| j.from == node && self.nodes[j.to].square == jump.to.index())
                .ok_or("a jump outside the model")?;
            node = edge.to;
            if std::mem::replace(&mut seen[node], true) {
                return Err("the route comes back to where it stood in the same leg".into());
            }
            values[edge.var] = true;
        }
        if node != self.finish {
            return Err("the route does not end on the last target once the others are touched".into());
        }
        Ok(values)
    }
}

/// The leg a knight starting on `square` is in: past the first target if it starts on it.
fn first_leg(puzzle: &TourPuzzle, square: usize) -> usize {
    usize::from(puzzle.targets.first().is_some_and(|t| t.index() == square))
}

/// The route model of `puzzle`: a lone knight touching at least one target in the listed
/// order for the fewest moves; `None` for any other tour.
pub fn route_model(puzzle: &TourPuzzle) -> Option<RouteModel> {
    let [knight] = puzzle.knights.as_slice() else { return None };
    let n = puzzle.targets.len();
    if puzzle.order != VisitOrder::Listed || puzzle.objective != TourObjective::Moves || n == 0 {
        return None;
    }
    let board = &puzzle.board;
    let area = board.area();
    let names: Vec<String> = (0..area).map(|s| board.name(Square(s as u16))).collect();
    let moves: Vec<Vec<usize>> =
        (0..area).map(|s| puzzle.knight_moves(Square(s as u16)).iter().map(|m| m.index()).collect()).collect();
    let targets: Vec<usize> = puzzle.targets.iter().map(|t| t.index()).collect();
    // The nodes the knight reaches, breadth first from the starts.
    let mut node_of = vec![vec![None; area]; n + 1];
    let mut nodes: Vec<RouteNode> = Vec::new();
    let mut queue = VecDeque::new();
    let mut add = |leg: usize, square: usize, nodes: &mut Vec<RouteNode>, queue: &mut VecDeque<usize>| {
        let slot: &mut Option<usize> = &mut node_of[leg][square];
        if slot.is_none() {
            *slot = Some(nodes.len());
            queue.push_back(nodes.len());
            nodes.push(RouteNode { leg, square, row: None });
        }
        slot.expect("just set")
    };
    // Each candidate once, in the order given.
    let mut listed = vec![false; area];
    let candidates: Vec<usize> =
        knight.candidates().iter().map(|s| s.index()).filter(|&s| !std::mem::replace(&mut listed[s], true)).collect();
    let start_nodes: Vec<usize> =
        candidates.iter().map(|&s| add(first_leg(puzzle, s), s, &mut nodes, &mut queue)).collect();
    let mut arcs: Vec<(usize, usize)> = Vec::new();
    while let Some(from) = queue.pop_front() {
        let RouteNode { leg, square, .. } = nodes[from];
        if leg == n {
            continue;
        }
        for &to in &moves[square] {
            let next = if to == targets[leg] { leg + 1 } else { leg };
            let head = add(next, to, &mut nodes, &mut queue);
            arcs.push((from, head));
        }
    }
    let finish = node_of[n][targets[n - 1]]?;
    let name = puzzle.name.as_deref().unwrap_or("tour");
    let title = format!(
        "{name}: {n} targets (listed order) by a lone knight on {}x{}, as a shortest route through the legs, moves minimised",
        board.width(),
        board.height()
    );
    let mut model = LinearModel { title, ..LinearModel::default() };
    let starts: Vec<RouteStart> = start_nodes
        .iter()
        .zip(&candidates)
        .map(|(&node, &s)| RouteStart {
            node,
            var: (candidates.len() > 1).then(|| model.variable(format!("start_{}", names[s]))),
        })
        .collect();
    let jumps: Vec<RouteJump> = arcs
        .iter()
        .map(|&(from, to)| {
            let (leg, a, b) = (nodes[from].leg, names[nodes[from].square].as_str(), names[nodes[to].square].as_str());
            RouteJump { from, to, var: model.variable(format!("leg{leg}_{a}_{b}")) }
        })
        .collect();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for jump in &jumps {
        out[jump.from].push(jump.var);
        into[jump.to].push(jump.var);
    }
    let start_row = (candidates.len() > 1).then(|| {
        let terms = starts.iter().filter_map(|s| s.var).map(|v| (1, v)).collect();
        model.constrain("start", terms, Relation::Equal, 1);
        model.constraints.len() - 1
    });
    for (i, node) in nodes.iter_mut().enumerate() {
        if i == finish {
            continue;
        }
        let mut terms: Vec<(i64, usize)> = out[i].iter().map(|&v| (1, v)).collect();
        terms.extend(into[i].iter().map(|&v| (-1, v)));
        let start = starts.iter().find(|s| s.node == i);
        let supply = match start.map(|s| s.var) {
            Some(Some(var)) => {
                terms.push((-1, var));
                0
            }
            Some(None) => 1,
            None => 0,
        };
        node.row = Some(model.constraints.len());
        model.constrain(format!("flow_leg{}_{}", node.leg, names[node.square]), terms, Relation::Equal, supply);
    }
    let mut terms: Vec<(i64, usize)> = into[finish].iter().map(|&v| (1, v)).collect();
    let fixed_at_finish = starts.iter().any(|s| s.node == finish && s.var.is_none());
    terms.extend(starts.iter().filter(|s| s.node == finish).filter_map(|s| s.var).map(|v| (1, v)));
    model.constrain("finish", terms, Relation::Equal, i64::from(!fixed_at_finish));
    model.objective = Some((Sense::Minimise, jumps.iter().map(|j| (1, j.var)).collect()));
    Some(RouteModel { model, nodes, jumps, starts, finish, start_row, node_of })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Board;
    use crate::ground_truth::tour::optimal_tour;
    use crate::puzzle::tour::{Jump, KnightStart};

    fn puzzle(board: &str, start: &str, targets: &[&str]) -> TourPuzzle {
        let board = Board::parse_size(board).unwrap();
        let knight = KnightStart::parse(&board, start).unwrap();
        let targets = targets.iter().map(|t| board.parse_square(t).unwrap()).collect();
        let (listed, moves) = (VisitOrder::Listed, TourObjective::Moves);
        TourPuzzle::new(None, board, Vec::new(), vec![knight], Some(targets), listed, moves).unwrap()
    }

    /// The least objective of any solution, by Dijkstra over the model's nodes with the
    /// model's own jumps: the model alone, not the puzzle's distances.
    fn model_optimum(route: &RouteModel) -> Option<usize> {
        let mut best = vec![None; route.nodes.len()];
        let mut queue: VecDeque<usize> = route.starts.iter().map(|s| s.node).collect();
        for &s in &queue {
            best[s] = Some(0);
        }
        while let Some(node) = queue.pop_front() {
            for jump in route.jumps.iter().filter(|j| j.from == node) {
                if best[jump.to].is_none() {
                    best[jump.to] = best[node].map(|d: usize| d + 1);
                    queue.push_back(jump.to);
                }
            }
        }
        best[route.finish]
    }

    #[test]
    fn the_model_optimum_is_the_breadth_first_optimum() {
        for (board, start, targets) in [
            ("4x4", "a1", &["d4", "b1", "c3"][..]),
            ("5x5", "a1|e5", &["c3", "a5", "e1"][..]),
            ("3x4", "b2", &["b2", "a1", "c4"][..]),
            ("5x4", "any", &["a1", "e4"][..]),
        ] {
            let p = puzzle(board, start, targets);
            let truth = optimal_tour(&p, 1_000_000).unwrap().map(|o| o.moves);
            let model = route_model(&p).unwrap();
            assert_eq!(model_optimum(&model), truth, "{board} {start} {targets:?}");
        }
    }

    #[test]
    fn a_candidate_listed_twice_is_one_start() {
        let mut p = puzzle("4x4", "a1|d4", &["b3", "c2"]);
        let board = &p.board;
        let (a1, d4) = (board.parse_square("a1").unwrap(), board.parse_square("d4").unwrap());
        p.knights = vec![KnightStart::OneOf(vec![a1, d4, a1])];
        let model = route_model(&p).unwrap();
        assert_eq!(model.starts.len(), 2);
        let truth = optimal_tour(&p, 1_000_000).unwrap().map(|o| o.moves);
        assert_eq!(model_optimum(&model), truth);
    }

    #[test]
    fn a_route_is_a_solution_with_its_number_of_moves() {
        let p = puzzle("4x4", "a1", &["c2", "a3"]);
        let board = &p.board;
        let sq = |name: &str| board.parse_square(name).unwrap();
        let jump = |a: &str, b: &str| vec![Jump { knight: 0, from: sq(a), to: sq(b) }];
        let route = Route { starts: vec![sq("a1")], steps: vec![jump("a1", "c2"), jump("c2", "a3")] };
        let model = route_model(&p).unwrap();
        let values = model.assignment(&p, &route).unwrap();
        assert!(model.model.satisfied_by(&values));
        assert_eq!(model.model.objective_value(&values), Some(2));
        let short = Route { starts: vec![sq("a1")], steps: vec![jump("a1", "c2")] };
        assert!(model.assignment(&p, &short).is_err(), "a route that misses a target");
    }

    #[test]
    fn other_tours_have_no_route_model() {
        let mut p = puzzle("4x4", "a1", &["c2"]);
        p.order = VisitOrder::Any;
        assert!(route_model(&p).is_none());
        p.order = VisitOrder::Listed;
        p.objective = TourObjective::Steps;
        assert!(route_model(&p).is_none());
    }
}

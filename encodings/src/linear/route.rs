//! The route model of knights touching their targets in a listed order, for the fewest moves:
//! a shortest path through the positions of the route, with no time index.
//!
//! A *node* is a leg and the knights' squares: `(l, s_1, …, s_k)` says the knights stand on
//! `s_1, …, s_k` and the first `l` targets have been touched in order. A jump of one knight to
//! a free safe square leads to the node of the new squares, past every target that a knight
//! now stands on in turn (target `l`, then `l + 1`, …); the route ends at a *finish*, any node
//! past the last target. Each jump between nodes is a variable (`leg{l}_{t}` for a lone
//! knight jumping from `s` onto `t`, written `leg{l}_{s}_{t}`; with several knights
//! `leg{l}_{s_1}_…_{s_k}_k{i}_{t}`), and the model asks one unit of flow from the start to a
//! finish:
//!
//! - `flow_leg{l}_{squares}`: jumps out of a node minus jumps into it equal one at the start
//!   and zero elsewhere (with several candidate starts, `start_{squares}` the start chosen,
//!   and the row `start`: exactly one is);
//! - `finish`: one jump arrives at a finish (or the knights start at one);
//! - the objective: the number of jumps.
//!
//! Every route of `m` moves that touches the targets in order walks through the nodes; with
//! its loops cut out it is a solution of at most `m` jumps. Every solution is a path from a
//! start to a finish, which is such a route, and perhaps loops besides, which only add jumps.
//! So the model's optimum is the puzzle's. For a lone knight it has a few thousand variables
//! where the time-indexed model ([`super::tour_model_at_most`]) takes one per square and time;
//! several knights multiply the nodes, so past [`MAX_ROUTE_JUMPS`] jumps there is no route
//! model.
//!
//! Only the nodes the knights can reach from a start are in the model.

use std::collections::{HashMap, VecDeque};

use super::{LinearModel, Relation, Sense};
use crate::check::replay_tour;
use crate::geometry::Square;
use crate::puzzle::tour::{Route, TourObjective, TourPuzzle, VisitOrder};

/// The most jumps a route model may have; a puzzle that needs more has none.
pub const MAX_ROUTE_JUMPS: usize = 1_000_000;

/// A node of the route model: the knights on their squares (see [`RouteModel::squares`])
/// having touched the first `leg` targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteNode {
    /// Targets touched in order.
    pub leg: usize,
    /// The node's row `flow` (none for a finish).
    pub row: Option<usize>,
}

/// A jump of the route model: from node `from` to node `to` (indices into the nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteJump {
    /// The node jumped from.
    pub from: usize,
    /// The node jumped to.
    pub to: usize,
    /// The knight that jumps.
    pub knight: usize,
    /// Its variable.
    pub var: usize,
}

/// A start the model may choose: its node and, with several candidates, its variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteStart {
    /// The node the knights start on.
    pub node: usize,
    /// `start_{squares}` (none when the start is fixed).
    pub var: Option<usize>,
}

/// The route model of a puzzle and where its nodes, jumps and rows are.
#[derive(Clone, Debug)]
pub struct RouteModel {
    /// The model.
    pub model: LinearModel,
    /// The nodes the knights can reach.
    pub nodes: Vec<RouteNode>,
    /// The jumps between them.
    pub jumps: Vec<RouteJump>,
    /// The starts.
    pub starts: Vec<RouteStart>,
    /// The row `start` "one start is chosen" (several candidates only).
    pub start_row: Option<usize>,
    /// The number of knights.
    knights: usize,
    /// The knights' squares of each node, `knights` entries per node.
    squares: Vec<u16>,
    /// `out[v]`: the jumps out of node `v` (indices into the jumps).
    out: Vec<Vec<usize>>,
}

impl RouteModel {
    /// The knights' squares at node `node`, by knight.
    pub fn squares(&self, node: usize) -> &[u16] {
        &self.squares[node * self.knights..(node + 1) * self.knights]
    }

    /// The values that `route` gives the model's variables: its start and its jumps; why not,
    /// when it breaks the rules, misses a target or comes back to a node (a route with a loop
    /// is never the shortest).
    pub fn assignment(&self, puzzle: &TourPuzzle, route: &Route) -> Result<Vec<bool>, String> {
        replay_tour(puzzle, route).map_err(|e| format!("the route breaks the rules: {e}"))?;
        let mut squares: Vec<u16> = route.starts.iter().map(|s| s.0).collect();
        let start = self.starts.iter().find(|s| self.squares(s.node) == squares.as_slice());
        let start = start.ok_or("a start that is not a candidate")?;
        let mut values = vec![false; self.model.variables.len()];
        if let Some(var) = start.var {
            values[var] = true;
        }
        let mut node = start.node;
        let mut seen = vec![false; self.nodes.len()];
        seen[node] = true;
        for jump in route.jumps() {
            squares[jump.knight] = jump.to.0;
            let edge = self.out[node]
                .iter()
                .map(|&j| &self.jumps[j])
                .find(|j| self.squares(j.to) == squares.as_slice())
                .ok_or("a jump outside the model")?;
            node = edge.to;
            if std::mem::replace(&mut seen[node], true) {
                return Err("the route comes back to a position it stood in, in the same leg".into());
            }
            values[edge.var] = true;
        }
        if self.nodes[node].row.is_some() {
            return Err("the route does not end once every target is touched in order".into());
        }
        Ok(values)
    }
}

/// The leg reached from `leg` with the knights on `squares`: past every target they stand on,
/// in turn.
fn advance(targets: &[u16], mut leg: usize, squares: &[u16]) -> usize {
    while leg < targets.len() && squares.contains(&targets[leg]) {
        leg += 1;
    }
    leg
}

/// The nodes found so far, breadth first.
#[derive(Default)]
struct Reach {
    index: HashMap<Vec<u16>, usize>,
    nodes: Vec<RouteNode>,
    squares: Vec<u16>,
    queue: VecDeque<usize>,
    /// The key looked up last: the leg, then the squares.
    key: Vec<u16>,
}

impl Reach {
    /// The node of the knights on `at` in `leg`, queued if new.
    fn node(&mut self, leg: usize, at: &[u16]) -> usize {
        self.key.clear();
        self.key.push(leg as u16);
        self.key.extend_from_slice(at);
        if let Some(&node) = self.index.get(self.key.as_slice()) {
            return node;
        }
        let node = self.nodes.len();
        self.index.insert(self.key.clone(), node);
        self.queue.push_back(node);
        self.nodes.push(RouteNode { leg, row: None });
        self.squares.extend_from_slice(at);
        node
    }
}

/// The route model of `puzzle`: knights touching at least one target in the listed order for
/// the fewest moves, within [`MAX_ROUTE_JUMPS`]; `None` for any other tour.
pub fn route_model(puzzle: &TourPuzzle) -> Option<RouteModel> {
    let n = puzzle.targets.len();
    if puzzle.order != VisitOrder::Listed || puzzle.objective != TourObjective::Moves || n == 0 {
        return None;
    }
    let board = &puzzle.board;
    let area = board.area();
    let knights = puzzle.knights.len();
    let names: Vec<String> = (0..area).map(|s| board.name(Square(s as u16))).collect();
    let moves: Vec<Vec<u16>> =
        (0..area).map(|s| puzzle.knight_moves(Square(s as u16)).iter().map(|m| m.0).collect()).collect();
    let targets: Vec<u16> = puzzle.targets.iter().map(|t| t.0).collect();
    // Each knight's candidates once, in the order given; the starts, every choice on distinct
    // squares.
    let mut choices: Vec<Vec<u16>> = vec![Vec::new()];
    for knight in &puzzle.knights {
        let mut listed = vec![false; area];
        let own: Vec<u16> = knight
            .candidates()
            .iter()
            .map(|s| s.0)
            .filter(|&s| !std::mem::replace(&mut listed[s as usize], true))
            .collect();
        if choices.len().saturating_mul(own.len()) > MAX_ROUTE_JUMPS {
            return None;
        }
        choices = choices
            .iter()
            .flat_map(|so_far| {
                own.iter().filter(|s| !so_far.contains(s)).map(move |&s| [so_far.as_slice(), &[s]].concat())
            })
            .collect();
    }
    // The nodes the knights reach, breadth first from the starts.
    let mut reach = Reach::default();
    let start_nodes: Vec<usize> = choices.iter().map(|at| reach.node(advance(&targets, 0, at), at)).collect();
    let mut arcs: Vec<(usize, usize, usize)> = Vec::new();
    let (mut here, mut next): (Vec<u16>, Vec<u16>) = (Vec::new(), Vec::new());
    while let Some(from) = reach.queue.pop_front() {
        let leg = reach.nodes[from].leg;
        if leg == n {
            continue;
        }
        here.clear();
        here.extend_from_slice(&reach.squares[from * knights..(from + 1) * knights]);
        for k in 0..knights {
            for &to in &moves[here[k] as usize] {
                if here.contains(&to) {
                    continue;
                }
                next.clone_from(&here);
                next[k] = to;
                arcs.push((from, reach.node(advance(&targets, leg, &next), &next), k));
            }
        }
        if arcs.len() > MAX_ROUTE_JUMPS {
            return None;
        }
    }
    let Reach { mut nodes, squares, .. } = reach;
    let name = puzzle.name.as_deref().unwrap_or("tour");
    let by = if knights == 1 { "a lone knight".to_string() } else { format!("{knights} knights") };
    let title = format!(
        "{name}: {n} targets (listed order) by {by} on {}x{}, as a shortest route through the legs, moves minimised",
        board.width(),
        board.height()
    );
    let mut model = LinearModel { title, ..LinearModel::default() };
    // `{prefix}{s_1}_…_{s_k}` for the knights' squares at `node`.
    let position = |prefix: &str, node: usize| -> String {
        let mut name = String::with_capacity(prefix.len() + 4 * knights);
        name.push_str(prefix);
        for (i, &s) in squares[node * knights..(node + 1) * knights].iter().enumerate() {
            if i > 0 {
                name.push('_');
            }
            name.push_str(&names[s as usize]);
        }
        name
    };
    let several = choices.len() > 1;
    let starts: Vec<RouteStart> = start_nodes
        .iter()
        .map(|&node| RouteStart { node, var: several.then(|| model.variable(position("start_", node))) })
        .collect();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut jumps: Vec<RouteJump> = Vec::with_capacity(arcs.len());
    for &(from, to, knight) in &arcs {
        let landing = &names[squares[to * knights + knight] as usize];
        let leg = nodes[from].leg;
        let mut name = position(&format!("leg{leg}_"), from);
        if knights > 1 {
            name.push_str(&format!("_k{}", knight + 1));
        }
        name.push('_');
        name.push_str(landing);
        out[from].push(jumps.len());
        into[to].push(jumps.len());
        jumps.push(RouteJump { from, to, knight, var: model.variable(name) });
    }
    let start_row = several.then(|| {
        let terms = starts.iter().filter_map(|s| s.var).map(|v| (1, v)).collect();
        model.constrain("start", terms, Relation::Equal, 1);
        model.constraints.len() - 1
    });
    let mut start_of: Vec<Option<RouteStart>> = vec![None; nodes.len()];
    for start in &starts {
        start_of[start.node] = Some(*start);
    }
    let mut finish: Vec<(i64, usize)> = Vec::new();
    let mut starts_finished = false;
    for (i, node) in nodes.iter_mut().enumerate() {
        let supply = start_of[i].map(|s| s.var);
        if node.leg == n {
            finish.extend(into[i].iter().map(|&j| (1, jumps[j].var)));
            match supply {
                Some(Some(var)) => finish.push((1, var)),
                Some(None) => starts_finished = true,
                None => {}
            }
            continue;
        }
        let mut terms: Vec<(i64, usize)> = out[i].iter().map(|&j| (1, jumps[j].var)).collect();
        terms.extend(into[i].iter().map(|&j| (-1, jumps[j].var)));
        let rhs = match supply {
            Some(Some(var)) => {
                terms.push((-1, var));
                0
            }
            Some(None) => 1,
            None => 0,
        };
        node.row = Some(model.constraints.len());
        model.constrain(position(&format!("flow_leg{}_", node.leg), i), terms, Relation::Equal, rhs);
    }
    model.constrain("finish", finish, Relation::Equal, i64::from(!starts_finished));
    model.objective = Some((Sense::Minimise, jumps.iter().map(|j| (1, j.var)).collect()));
    Some(RouteModel { model, nodes, jumps, starts, start_row, knights, squares, out })
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
        let mut best: Vec<Option<usize>> = vec![None; route.nodes.len()];
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
        (0..route.nodes.len()).filter(|&v| route.nodes[v].row.is_none()).filter_map(|v| best[v]).min()
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
        // Two knights, one of them starting on the first target, the other on the third.
        for (board, starts, targets) in
            [("4x4", ["a1", "d4"], &["a1", "c2", "d4", "b3"][..]), ("5x5", ["any", "c3"], &["a1", "e5", "c3"][..])]
        {
            let mut p = puzzle(board, starts[0], targets);
            p.knights.push(KnightStart::parse(&p.board, starts[1]).unwrap());
            let p =
                TourPuzzle::new(None, p.board, Vec::new(), p.knights, Some(p.targets), p.order, p.objective).unwrap();
            let truth = optimal_tour(&p, 1_000_000).unwrap().map(|o| o.moves);
            let model = route_model(&p).unwrap();
            assert_eq!(model_optimum(&model), truth, "{board} {starts:?} {targets:?}");
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
        p.objective = TourObjective::Moves;
        p.targets.clear();
        assert!(route_model(&p).is_none(), "no target to touch");
    }

    #[test]
    fn too_many_starts_have_no_route_model() {
        // Four knights anywhere on 8x8: 64 * 63 * 62 * 61 starts, past the limit.
        let p = puzzle("8x8", "any", &["a1", "h8"]);
        let knights = vec![KnightStart::OneOf(Vec::new()); 4];
        let p = TourPuzzle::new(None, p.board, Vec::new(), knights, Some(p.targets), p.order, p.objective).unwrap();
        assert!(route_model(&p).is_none());
    }
}

//! The time-indexed encoding of exchange puzzles.
//!
//! Variables: `x[t][g][c]` — a piece of group `g` (side and kind) stands on cell `c` after `t`
//! moves; `m[t][g][a→b]` — move `t` takes a piece of group `g` from `a` to `b`.
//!
//! Constraints for each step `t` (from time `t-1` to `t`):
//! * at most one group per cell (RustSAT at-most-one encoding);
//! * exactly one move (a clause plus a RustSAT at-most-one encoding);
//! * a move needs its piece on the origin, an empty destination and empty squares between,
//!   and leaves the origin empty and the destination taken;
//! * frame axioms: a cell changes for a group only through a move of that group;
//! * a move is never undone at once (never part of a shortest solution; sound for every query
//!   the driver asks, which all look for shortest or loop-free sequences);
//! * two consecutive moves that touch disjoint squares (origin, destination and the squares
//!   between) commute, so only one order is allowed: the one whose first move starts on the
//!   lower cell. Every sequence can be sorted into that canonical order by swapping adjacent
//!   independent moves, which keeps its length, its end position and — for shortest sequences —
//!   the distinctness of its positions, so no answer changes; the solver is spared every
//!   reordering of the same moves.
//!
//! Variables that can never be true are not created: a group's piece can stand on a cell at
//! time `t` only if the cell is at most `t` moves from one of the group's start squares on an
//! empty board. The goal is attached to a time by an assumption literal ([`goal_switch`]), so
//! one solver instance serves every horizon: layers are appended as the horizon grows.
//!
//! [`goal_switch`]: ExchangeEncoding::goal_switch

use std::collections::VecDeque;

use rustsat::encodings::card::{BoundBoth, Totalizer};
use rustsat::encodings::pb::Encode as _;
use rustsat::encodings::pb::{BoundUpper, BoundUpperIncremental, GeneralizedTotalizer};
use rustsat::encodings::CollectClauses;

use super::add;
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::constraints::CardConstraint;
use rustsat::types::Lit;

use super::horizon::HorizonEncoding;
use super::AtMostOne;
use crate::geometry::{move_steps, Piece, Square};
use crate::puzzle::{ExchangePuzzle, Move, Position};

/// Choices that change the formula but never the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExchangeOptions {
    /// Encoding of "exactly one move per step" and "one piece per cell".
    pub at_most_one: AtMostOne,
    /// Forbid a move followed at once by its reverse.
    pub forbid_undo: bool,
    /// Allow only one order of two consecutive independent moves.
    pub canonical_order: bool,
    /// Under the goal switch, bound the sum over all pieces of their distances to the nearest
    /// goal square by the number of moves left (a pseudo-Boolean constraint per time step).
    pub distance_sum: bool,
}

impl Default for ExchangeOptions {
    fn default() -> Self {
        ExchangeOptions {
            at_most_one: AtMostOne::default(),
            forbid_undo: true,
            canonical_order: true,
            distance_sum: true,
        }
    }
}

/// A geometric move of one group between two cells.
#[derive(Clone, Debug)]
struct Hop {
    to: usize,
    between: Vec<usize>,
}

/// The move variable of one step.
#[derive(Clone, Debug)]
struct MoveVar {
    group: usize,
    from: usize,
    to: usize,
    between: Vec<usize>,
    lit: Lit,
}

impl MoveVar {
    /// The cells the move depends on or changes.
    fn touched(&self) -> impl Iterator<Item = usize> + '_ {
        [self.from, self.to].into_iter().chain(self.between.iter().copied())
    }
}

/// The incremental time-indexed encoding of one exchange puzzle.
#[derive(Debug)]
pub struct ExchangeEncoding {
    puzzle: ExchangePuzzle,
    options: ExchangeOptions,
    groups: Vec<Piece>,
    squares: Vec<Square>,
    hops: Vec<Vec<Vec<Hop>>>,
    distance: Vec<Vec<Option<usize>>>,
    to_goal: Vec<Vec<Option<usize>>>,
    occupancy: Vec<Vec<Option<Lit>>>,
    distance_sums: Vec<Option<GeneralizedTotalizer>>,
    moves: Vec<Vec<MoveVar>>,
    vars: BasicVarManager,
    /// Every layer holds every cell a group can ever reach (the transition relation).
    free: bool,
}

impl ExchangeEncoding {
    /// Starts the encoding of `puzzle` at horizon 0, writing the start position into `clauses`.
    pub fn new<C: CollectClauses>(puzzle: &ExchangePuzzle, options: ExchangeOptions, clauses: &mut C) -> Self {
        let mut encoding = Self::unconstrained(puzzle, options, false);
        let layer = encoding.new_layer(0);
        for lit in layer.iter().flatten() {
            add(clauses, [*lit]);
        }
        encoding.occupancy.push(layer);
        encoding
    }

    /// The transition relation of `puzzle`: time 0 is any position with the puzzle's pieces on
    /// squares they can reach from the start (one piece per square, each group's count kept),
    /// and [`extend`](Self::extend) adds one move or none to time 1. This is the formula that
    /// invariant-finding searches reason over.
    pub fn transition<C: CollectClauses>(puzzle: &ExchangePuzzle, options: ExchangeOptions, clauses: &mut C) -> Self {
        let options = ExchangeOptions { forbid_undo: false, canonical_order: false, distance_sum: false, ..options };
        let mut encoding = Self::unconstrained(puzzle, options, true);
        let layer = encoding.new_layer(0);
        let n_cells = encoding.squares.len();
        for c in 0..n_cells {
            let lits: Vec<Lit> = (0..encoding.groups.len()).filter_map(|g| layer[g * n_cells + c]).collect();
            encoding.options.at_most_one.encode(&lits, clauses, &mut encoding.vars);
        }
        let counts = puzzle.start.counts();
        for (g, group) in encoding.groups.iter().enumerate() {
            let lits: Vec<Lit> = layer[g * n_cells..(g + 1) * n_cells].iter().flatten().copied().collect();
            let constraint = CardConstraint::new_eq(lits, counts[group]);
            Totalizer::encode_constr(constraint, clauses, &mut encoding.vars)
                .expect("every group fits on the squares it starts from");
        }
        encoding.occupancy.push(layer);
        encoding
    }

    /// The `(group, cell)` pairs that a position occupies, in this encoding's numbering.
    pub fn cells_of(&self, position: &Position) -> Vec<(usize, usize)> {
        position
            .pieces()
            .filter_map(|(square, piece)| {
                let g = self.groups.iter().position(|&p| p == piece)?;
                let c = self.squares.iter().position(|&s| s == square)?;
                Some((g, c))
            })
            .collect()
    }

    fn unconstrained(puzzle: &ExchangePuzzle, options: ExchangeOptions, free: bool) -> Self {
        let board = &puzzle.board;
        let squares: Vec<Square> = board.squares().collect();
        let mut cell_of = vec![usize::MAX; board.area()];
        for (cell, square) in squares.iter().enumerate() {
            cell_of[square.index()] = cell;
        }
        let groups = puzzle.groups();
        let hops: Vec<Vec<Vec<Hop>>> = groups
            .iter()
            .map(|&piece| {
                squares
                    .iter()
                    .map(|&from| {
                        move_steps(board, piece.kind, from, puzzle.pawns(piece))
                            .into_iter()
                            .map(|step| Hop {
                                to: cell_of[step.to.index()],
                                between: step.between.iter().map(|s| cell_of[s.index()]).collect(),
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let distance = groups
            .iter()
            .enumerate()
            .map(|(g, &piece)| {
                let starts = puzzle.start.pieces().filter(|p| p.1 == piece).map(|p| cell_of[p.0.index()]);
                distances(&hops[g], starts)
            })
            .collect();
        let to_goal = groups
            .iter()
            .enumerate()
            .map(|(g, &piece)| {
                let goals = puzzle.goal.pieces().filter(|p| p.1 == piece).map(|p| cell_of[p.0.index()]);
                distances(&reversed(&hops[g]), goals)
            })
            .collect();
        ExchangeEncoding {
            puzzle: puzzle.clone(),
            options,
            groups,
            squares,
            hops,
            distance,
            to_goal,
            occupancy: Vec::new(),
            distance_sums: Vec::new(),
            moves: Vec::new(),
            vars: BasicVarManager::default(),
            free,
        }
    }

    /// The puzzle being encoded.
    pub fn puzzle(&self) -> &ExchangePuzzle {
        &self.puzzle
    }

    /// The number of groups (interchangeable sets of pieces).
    pub fn n_groups(&self) -> usize {
        self.groups.len()
    }

    /// The number of usable cells of the board.
    pub fn n_cells(&self) -> usize {
        self.squares.len()
    }

    /// The variable "a piece of group `group` stands on cell `cell` after `time` moves", or
    /// `None` where that is impossible (the literal is false).
    pub fn occupancy(&self, time: usize, group: usize, cell: usize) -> Option<Lit> {
        self.occupancy[time][group * self.squares.len() + cell]
    }

    /// A fresh literal from the encoding's numbering, for constraints layered on top of it.
    pub fn new_lit(&mut self) -> Lit {
        self.vars.new_lit()
    }

    /// Forbids `earlier` followed by `later` when the two moves touch disjoint cells and the
    /// later one starts on a lower cell: then the swapped order is the canonical one.
    ///
    /// Compactly, with auxiliaries over `later` (exactly one of its moves is true):
    /// `below[a]` — its move starts on a cell below `a`; `touch[c]` — its move touches `c`.
    /// Each earlier move `m` from `a` adds `m ∧ below[a] → ∨ touch[c]` over the cells `m` touches.
    fn order_independent<C: CollectClauses>(&mut self, earlier: &[MoveVar], later: &[MoveVar], clauses: &mut C) {
        let n_cells = self.squares.len();
        let mut starting = vec![Vec::new(); n_cells];
        let mut touching = vec![Vec::new(); n_cells];
        for m in later {
            starting[m.from].push(m.lit);
            for c in m.touched() {
                touching[c].push(m.lit);
            }
        }
        let touch: Vec<Option<Lit>> = touching.iter().map(|lits| self.define_or(lits, clauses)).collect();
        let mut below: Vec<Option<Lit>> = Vec::with_capacity(n_cells + 1);
        below.push(None);
        for lits in &starting {
            let mut parts = lits.clone();
            parts.extend(below.last().copied().flatten());
            let next = self.define_or(&parts, clauses);
            below.push(next);
        }
        for m in earlier {
            let Some(lower) = below[m.from] else { continue };
            let mut clause = vec![!m.lit, !lower];
            clause.extend(m.touched().filter_map(|c| touch[c]));
            add(clauses, clause);
        }
    }

    /// A literal equivalent to the disjunction of `lits` (`None` if empty, i.e. false).
    fn define_or<C: CollectClauses>(&mut self, lits: &[Lit], clauses: &mut C) -> Option<Lit> {
        match lits {
            [] => None,
            [single] => Some(*single),
            _ => {
                let or = self.vars.new_lit();
                for &lit in lits {
                    add(clauses, [!lit, or]);
                }
                add(clauses, std::iter::once(!or).chain(lits.iter().copied()));
                Some(or)
            }
        }
    }

    /// Literals that force "the pieces' distances to their nearest goal squares at time `t`
    /// add up to at most `bound`". Each move changes that sum by at most one and it is zero in
    /// the goal, so it never exceeds the number of moves left.
    fn distance_sum_at_most<C: CollectClauses>(&mut self, t: usize, bound: usize, clauses: &mut C) -> Vec<Lit> {
        while self.distance_sums.len() <= t {
            let layer = self.distance_sums.len();
            let n_cells = self.squares.len();
            let terms: Vec<(Lit, usize)> = (0..self.groups.len())
                .flat_map(|g| (0..n_cells).map(move |c| (g, c)))
                .filter_map(|(g, c)| {
                    let lit = self.occupancy(layer, g, c)?;
                    // Cells without a way to the goal are excluded by unit clauses already.
                    let d = self.to_goal[g][c]?;
                    (d > 0).then_some((lit, d))
                })
                .collect();
            self.distance_sums.push((!terms.is_empty()).then(|| terms.into_iter().collect()));
        }
        let Some(sum) = self.distance_sums[t].as_mut() else { return Vec::new() };
        if bound >= sum.weight_sum() {
            return Vec::new();
        }
        sum.encode_ub_change(bound..=bound, clauses, &mut self.vars).expect("clause collector out of memory");
        sum.enforce_ub(bound).unwrap_or_default()
    }

    /// Creates the occupancy variables of time `t` for the cells each group can reach by then
    /// (or ever, in the transition relation).
    fn new_layer(&mut self, t: usize) -> Vec<Option<Lit>> {
        let mut layer = Vec::with_capacity(self.groups.len() * self.squares.len());
        for g in 0..self.groups.len() {
            for c in 0..self.squares.len() {
                let reachable = self.distance[g][c].is_some_and(|d| self.free || d <= t);
                layer.push(reachable.then(|| self.vars.new_lit()));
            }
        }
        layer
    }
}

/// About how many clauses (or linear terms) one time step of an exchange takes when every
/// square is in play, as in a transition relation over the whole board: for each move, its
/// share of the move and frame constraints and one constraint per square it lands on or passes
/// over, holding every group's occupancy there. Counted from the moves alone, without building
/// anything: sliders on a large board make this many millions.
pub fn full_step_size(puzzle: &ExchangePuzzle) -> usize {
    let groups = puzzle.groups();
    let mut size = 0usize;
    for &group in &groups {
        for from in puzzle.board.squares() {
            for step in move_steps(&puzzle.board, group.kind, from, puzzle.pawns(group)) {
                size = size.saturating_add(4 + (1 + step.between.len()) * (1 + groups.len()));
            }
        }
    }
    size
}

impl HorizonEncoding for ExchangeEncoding {
    type Solution = Vec<Move>;

    /// Counted as in [`full_step_size`], over the moves from the cells a piece may stand on at
    /// the last time step encoded.
    fn next_step_size(&self) -> Option<usize> {
        let last = self.occupancy.last()?;
        let n_cells = self.squares.len();
        let groups = self.groups.len();
        let mut size = 0usize;
        for (g, hops) in self.hops.iter().enumerate() {
            for (a, from) in hops.iter().enumerate() {
                if last[g * n_cells + a].is_some() {
                    for hop in from {
                        size = size.saturating_add(4 + (1 + hop.between.len()) * (1 + groups));
                    }
                }
            }
        }
        Some(size)
    }

    /// The number of moves encoded so far.
    fn horizon(&self) -> usize {
        self.occupancy.len() - 1
    }

    /// The number of variables used so far.
    fn n_vars(&self) -> u32 {
        self.vars.n_used()
    }

    /// Appends one more move to the encoding (horizon `h` becomes `h + 1`).
    fn extend<C: CollectClauses>(&mut self, clauses: &mut C) {
        let t = self.occupancy.len();
        let next = self.new_layer(t);
        let n_cells = self.squares.len();
        let before = &self.occupancy[t - 1];
        let x = |layer: &Vec<Option<Lit>>, g: usize, c: usize| layer[g * n_cells + c];

        // One piece per cell.
        for c in 0..n_cells {
            let lits: Vec<Lit> = (0..self.groups.len()).filter_map(|g| x(&next, g, c)).collect();
            self.options.at_most_one.encode(&lits, clauses, &mut self.vars);
        }

        // Move variables and what each move requires and causes.
        let mut moves = Vec::new();
        let mut outgoing = vec![Vec::new(); self.groups.len() * n_cells];
        let mut incoming = vec![Vec::new(); self.groups.len() * n_cells];
        for g in 0..self.groups.len() {
            for a in 0..n_cells {
                let Some(here) = x(before, g, a) else { continue };
                for hop in &self.hops[g][a] {
                    let m = self.vars.new_lit();
                    add(clauses, [!m, here]);
                    add(clauses, [!m, !x(&next, g, a).expect("a reachable cell stays reachable")]);
                    add(clauses, [!m, x(&next, g, hop.to).expect("one move from a reachable cell")]);
                    for &cell in std::iter::once(&hop.to).chain(&hop.between) {
                        for h in 0..self.groups.len() {
                            if let Some(other) = x(before, h, cell) {
                                add(clauses, [!m, !other]);
                            }
                        }
                    }
                    outgoing[g * n_cells + a].push(m);
                    incoming[g * n_cells + hop.to].push(m);
                    moves.push(MoveVar { group: g, from: a, to: hop.to, between: hop.between.clone(), lit: m });
                }
            }
        }

        // Exactly one move per step; at most one in the transition relation, where a position
        // may also stay as it is (so that positions without a legal move keep a successor).
        let lits: Vec<Lit> = moves.iter().map(|m| m.lit).collect();
        if !self.free {
            add(clauses, lits.iter().copied());
        }
        self.options.at_most_one.encode(&lits, clauses, &mut self.vars);

        // Frame axioms: a cell changes for a group only through a move of that group.
        for g in 0..self.groups.len() {
            for c in 0..n_cells {
                let (old, new) = (x(before, g, c), x(&next, g, c));
                if let (Some(old), Some(new)) = (old, new) {
                    add(clauses, [!old, new].into_iter().chain(outgoing[g * n_cells + c].iter().copied()));
                }
                if let Some(new) = new {
                    let mut clause: Vec<Lit> = old.into_iter().collect();
                    clause.push(!new);
                    clause.extend(incoming[g * n_cells + c].iter().copied());
                    add(clauses, clause);
                }
            }
        }

        // A move is never undone by the next one.
        if self.options.forbid_undo {
            if let Some(previous) = self.moves.last() {
                for m in &moves {
                    for p in previous.iter().filter(|p| p.group == m.group && p.from == m.to && p.to == m.from) {
                        add(clauses, [!p.lit, !m.lit]);
                    }
                }
            }
        }

        if self.options.canonical_order {
            if let Some(previous) = self.moves.last() {
                let previous = previous.clone();
                self.order_independent(&previous, &moves, clauses);
            }
        }

        self.occupancy.push(next);
        self.moves.push(moves);
    }

    /// A fresh literal that, when true, forces the goal position after exactly `time` moves.
    ///
    /// The driver assumes it to ask "is the goal reachable in `time` moves?" and later adds its
    /// negation once the answer is no. The switch also rules out, at every earlier time `t`,
    /// the cells from which a group's piece could not reach any of its goal squares in the
    /// `time - t` moves left, even on an empty board.
    fn goal_switch<C: CollectClauses>(&mut self, time: usize, clauses: &mut C) -> Lit {
        let switch = self.vars.new_lit();
        for t in 0..time {
            for g in 0..self.groups.len() {
                for c in 0..self.squares.len() {
                    let Some(lit) = self.occupancy(t, g, c) else { continue };
                    if self.to_goal[g][c].is_none_or(|d| d > time - t) {
                        add(clauses, [!switch, !lit]);
                    }
                }
            }
            if self.options.distance_sum {
                for lit in self.distance_sum_at_most(t, time - t, clauses) {
                    add(clauses, [!switch, lit]);
                }
            }
        }
        let cells = self.cells_of(&self.puzzle.goal);
        for (g, c) in cells {
            match self.occupancy(time, g, c) {
                Some(lit) => add(clauses, [!switch, lit]),
                None => add(clauses, [!switch]),
            }
        }
        switch
    }

    /// Reads the moves `1..=horizon` out of a satisfying assignment.
    fn decode(&self, horizon: usize, value: impl Fn(Lit) -> bool) -> Vec<Move> {
        self.moves[..horizon]
            .iter()
            .filter_map(|step| step.iter().find(|m| value(m.lit)))
            .map(|m| Move { piece: self.groups[m.group], from: self.squares[m.from], to: self.squares[m.to] })
            .collect()
    }
}

/// The hops of every cell turned around: `to` becomes the origin.
fn reversed(hops: &[Vec<Hop>]) -> Vec<Vec<Hop>> {
    let mut back = vec![Vec::new(); hops.len()];
    for (from, out) in hops.iter().enumerate() {
        for hop in out {
            back[hop.to].push(Hop { to: from, between: hop.between.clone() });
        }
    }
    back
}

/// Fewest moves from any of `starts` to each cell, on an empty board.
fn distances(hops: &[Vec<Hop>], starts: impl Iterator<Item = usize>) -> Vec<Option<usize>> {
    let mut distance = vec![None; hops.len()];
    let mut queue = VecDeque::new();
    for s in starts {
        distance[s] = Some(0);
        queue.push_back(s);
    }
    while let Some(cell) = queue.pop_front() {
        let d = distance[cell].expect("queued cells have a distance");
        for hop in &hops[cell] {
            if distance[hop.to].is_none() {
                distance[hop.to] = Some(d + 1);
                queue.push_back(hop.to);
            }
        }
    }
    distance
}

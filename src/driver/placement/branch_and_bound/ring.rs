//! The ring cut: one row that carries into the relaxation the integrality of the covering rows
//! near the board's edge, where the relaxation of a domination puzzle loses most of its bound.
//!
//! The ring is a set of covering rows (the squares within [`DEPTH`] of the edge) and `A` the
//! variables they contain. Its bound is the linear program over the convex hull of the ring's
//! 0-1 covers together with every other row — the Dantzig-Wolfe bound of the ring — and it is
//! computed by column generation: a master program whose columns are covers of the ring
//! ([`master_bound`]), priced by an exact dynamic program over the ring ([`RingCover`]).
//! From the other rows' multipliers `y` at the end, `α_u = c_u - Σ y_i a_iu` for each `u` in
//! `A`, and the row `Σ α_u x_u ≥ min over the ring's covers of α·x` holds for every placement,
//! since every placement covers the ring. It is scaled to integers and its right-hand side is
//! computed exactly over them, so it holds whatever the rounding; with it, the relaxation's
//! bound is the ring's (knight domination 12x12: 21.42 without it, 24 with it, the optimum).
//!
//! The row is no Chvátal-Gomory step, so a certified search goes without it. It is off by
//! default (`--ring-cut` asks for it): knight domination 17x17 has the root bound 43 with it
//! against 41, but the tree below it is the larger, and the proof took 200 s against 56 s
//! (one run each); a single row is one face of the ring's hull, which the first branchings
//! leave behind. The loss is in the reliability branching: branching on the most fractional
//! variable instead, the tree with the cut closed 41% of its share in 300 s, against 36%
//! without it. Scoring by the weighted sum of the gains instead of their product, the cut's
//! 17x17 took 118.7 s, against 35.9 s without it, and its 18x18 was not proved in 2,400 s.
//!
//! Deeper down, the ring's bound keeps its lead, but a row of it still does not pay. On
//! cubes of one split of knight domination 19x19 (each cube's program with its fixed
//! variables taken out, no zero-half cuts; release build), the ring's bound against the
//! plain relaxation's and the split's (which has the root's zero-half cuts): the lowest cube
//! 53.16 against 50.99 and 51.68 (column generation 6.4 s); two more near 51.8, 53.09 and
//! 53.46 (3.5 and 7.5 s); cubes at 54.54 and 55.17, 55.92 and 55.77 (about 2 s each).
//! Tried once as a cut of each cube's own, beside its zero-half cuts (one thread per cube,
//! the two builds side by side, one run): three cubes of knight domination 18x18 took
//! 177,146 nodes instead of 44,712, 159,912 instead of 9,784 and 31,002 instead of 5,738; the
//! lowest cube of 19x19, 857,860 nodes in 1,033 s without it, was still open after 2,050 s
//! with it. A bound that high at a cube's top is not the ring's bound at its nodes: the
//! single face is left behind as before, and the dense row costs every pivot. Two causes
//! ruled out, on knight domination 17x17 with the root's ring cut (one thread, one run each;
//! 163,040 nodes in 185 s, against 69,531 in 61 s without it): measurements of strong
//! branching allowed 100 pivots instead of 40 (225,168 nodes), and every row of the simplex
//! scaled to a largest coefficient of 1 (158,076 nodes).
//!
//! Nor does the ring's bound pay as a test at the nodes, with no row added. At each node
//! whose bound lay within 1 of the cutoff, the node's own multipliers of the rows outside the
//! ring were kept and the ring's covers priced exactly under its fixings (the sweep dropping
//! every partial cover already dearer than the cutoff allows): a Lagrangian bound at least the
//! relaxation's, which closes the node when it passes the cutoff. Knight domination 17x17 on
//! one thread (one run each): of 16,590 nodes tested, 109 closed (0.7%), 34,797 nodes in
//! 104 s against 35,509 in 47.8 s without it, about 3.4 ms a test. Multipliers that are
//! optimal for the relaxation nearly always leave a cover of the ring among the variables of
//! reduced cost 0; the ring's bound needs multipliers of its own, which column generation
//! takes seconds to find.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use knights_sat_encodings::linear::{Constraint, LinearModel, PlacementModel, Relation, Sense};
use knights_sat_encodings::puzzle::placement::PlacementPuzzle;

use super::problem::Problem;
use crate::solver::simplex::LpStatus;

/// The squares within this many ranks or files of the edge form the ring.
pub(super) const DEPTH: usize = 2;
/// The integer scale of the cut's coefficients.
const SCALE: f64 = 4096.0;
/// The most partial covers the dynamic program keeps at one step; past it there is no cut.
const MOST_STATES: usize = 1 << 18;
/// The most rows open at once in the dynamic program (one bit each).
const MOST_OPEN: usize = 63;
/// Rounds of column generation at most.
const MOST_ROUNDS: usize = 400;
/// Column generation stops once its bound is this close to the master's value.
const GAP: f64 = 1e-3;

/// The ring's covering problem: its rows over local variables, in the order the dynamic
/// program takes the variables.
pub(super) struct RingCover {
    /// The program's variable of each local one, in the sweep's order.
    vars: Vec<usize>,
    /// Each ring row's local variables.
    rows: Vec<Vec<usize>>,
    /// For each local variable, the rows it is in.
    rows_of: Vec<Vec<usize>>,
    /// For each local variable, the rows it is the first of and the last of.
    opens: Vec<Vec<usize>>,
    closes: Vec<Vec<usize>>,
}

impl RingCover {
    /// The covering problem of `rows` (covering rows of `problem`), its variables swept in the
    /// order of `key` (the angle of each variable's square around the board's centre).
    pub fn new(problem: &Problem, rows: &[usize], key: &dyn Fn(usize) -> f64) -> RingCover {
        let mut vars: Vec<usize> = rows.iter().flat_map(|&r| problem.rows[r].terms.iter().map(|t| t.1)).collect();
        vars.sort_unstable();
        vars.dedup();
        vars.sort_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
        let local: HashMap<usize, usize> = vars.iter().enumerate().map(|(i, &v)| (v, i)).collect();
        let rows: Vec<Vec<usize>> =
            rows.iter().map(|&r| problem.rows[r].terms.iter().map(|t| local[&t.1]).collect()).collect();
        let mut rows_of = vec![Vec::new(); vars.len()];
        let mut opens = vec![Vec::new(); vars.len()];
        let mut closes = vec![Vec::new(); vars.len()];
        for (r, row) in rows.iter().enumerate() {
            for &v in row {
                rows_of[v].push(r);
            }
            opens[*row.iter().min().expect("a covering row has a variable")].push(r);
            closes[*row.iter().max().expect("a covering row has a variable")].push(r);
        }
        RingCover { vars, rows, rows_of, opens, closes }
    }

    /// The program's variables of the ring.
    pub fn vars(&self) -> &[usize] {
        &self.vars
    }

    /// The least cost of a cover of the ring under `cost` (one per local variable), with the
    /// local variables of one cheapest cover; `None` when the program grows too large.
    ///
    /// The variables are swept in order; a state is the set of open rows (some variable
    /// swept, some not) already covered, with the least cost of reaching it; a row closes at
    /// its last variable, and a state that leaves it uncovered ends there.
    pub fn cheapest(&self, cost: &[i64]) -> Option<(i64, Vec<usize>)> {
        // Variables that cost nothing or less are taken: no cover is cheaper without them.
        let taken: Vec<bool> = cost.iter().map(|&c| c <= 0).collect();
        let base: i64 = cost.iter().filter(|&&c| c <= 0).sum();
        let done: Vec<bool> = self.rows.iter().map(|row| row.iter().any(|&v| taken[v])).collect();
        // The slot of each open row in the state's bits.
        let mut slot = vec![usize::MAX; self.rows.len()];
        let mut free: Vec<usize> = (0..MOST_OPEN).rev().collect();
        // The states of the last step: (covered open rows, cost), and for every step each
        // state's parent in the step before and whether the step took its variable.
        let mut states: Vec<(u64, i64)> = vec![(0, 0)];
        let mut trail: Vec<Vec<(u32, bool)>> = Vec::with_capacity(self.vars.len());
        let mut index: HashMap<u64, u32, Fast> = HashMap::default();
        for v in 0..self.vars.len() {
            for &r in &self.opens[v] {
                if !done[r] {
                    slot[r] = free.pop()?;
                }
            }
            let bits = self.rows_of[v].iter().filter(|&&r| slot[r] != usize::MAX).fold(0u64, |b, &r| b | 1 << slot[r]);
            let closing =
                self.closes[v].iter().filter(|&&r| slot[r] != usize::MAX).fold(0u64, |b, &r| b | 1 << slot[r]);
            let mut next: Vec<(u64, i64)> = Vec::with_capacity(states.len() * 2);
            let mut parents: Vec<(u32, bool)> = Vec::with_capacity(states.len() * 2);
            index.clear();
            for (at, &(mask, value)) in states.iter().enumerate() {
                for take in [false, true] {
                    if taken[v] && !take {
                        continue;
                    }
                    let (m, c) = match (take, taken[v]) {
                        (false, _) => (mask, value),
                        (true, true) => (mask | bits, value),
                        (true, false) => (mask | bits, value + cost[v]),
                    };
                    if m & closing != closing {
                        continue;
                    }
                    let m = m & !closing;
                    match index.get(&m) {
                        Some(&i) if next[i as usize].1 <= c => {}
                        Some(&i) => {
                            next[i as usize].1 = c;
                            parents[i as usize] = (at as u32, take);
                        }
                        None => {
                            index.insert(m, next.len() as u32);
                            next.push((m, c));
                            parents.push((at as u32, take));
                        }
                    }
                }
            }
            if next.len() > MOST_STATES {
                return None;
            }
            for &r in &self.closes[v] {
                if slot[r] != usize::MAX {
                    free.push(slot[r]);
                    slot[r] = usize::MAX;
                }
            }
            trail.push(parents);
            states = next;
        }
        let (mut at, &(_, value)) = states.iter().enumerate().min_by_key(|(_, s)| s.1)?;
        let mut chosen = Vec::new();
        for (v, parents) in trail.iter().enumerate().rev() {
            let (parent, take) = parents[at];
            if take {
                chosen.push(v);
            }
            at = parent as usize;
        }
        chosen.reverse();
        Some((value + base, chosen))
    }
}

/// A hasher for the states' bit sets (a multiply and a shift; the keys are no adversary's).
#[derive(Default, Clone, Copy)]
struct Fast;

impl std::hash::BuildHasher for Fast {
    type Hasher = FastHasher;
    fn build_hasher(&self) -> FastHasher {
        FastHasher(0)
    }
}

/// The hasher [`Fast`] builds.
struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, key: u64) {
        let h = (self.0 ^ key).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }
}

/// The rows of `problem` (built from `model`) that cover the squares within [`DEPTH`] of the
/// edge of `puzzle`'s board, and for each variable the angle of its square around the board's
/// centre (the dynamic program's order).
pub(super) fn ring_of(puzzle: &PlacementPuzzle, model: &PlacementModel) -> (Vec<usize>, Vec<f64>) {
    let board = &puzzle.board;
    let (w, h) = (board.width(), board.height());
    let mut ring = Vec::new();
    let mut row = 0;
    for constraint in &model.model.constraints {
        let square = constraint.name.strip_prefix("cover_").and_then(|name| board.parse_square(name).ok());
        if let Some(square) = square {
            let (f, r) = (board.file(square), board.rank(square));
            if f.min(r).min(w - 1 - f).min(h - 1 - r) < DEPTH && constraint.relation == Relation::AtLeast {
                ring.push(row);
            }
        }
        row += if constraint.relation == Relation::Equal { 2 } else { 1 };
    }
    let angle = (0..model.model.variables.len())
        .map(|v| match model.square_of(v) {
            Some(square) => {
                let x = board.file(square) as f64 - (w as f64 - 1.0) / 2.0;
                let y = board.rank(square) as f64 - (h as f64 - 1.0) / 2.0;
                y.atan2(x)
            }
            None => 0.0,
        })
        .collect();
    (ring, angle)
}

/// The ring cut of `problem` (every row a covering row, every cost nonnegative), or `None`
/// when it would not raise the relaxation's bound, the ring is too wide for the dynamic
/// program, or `time` runs out first.
pub(super) fn ring_cut(
    problem: &Problem,
    ring: &[usize],
    key: &dyn Fn(usize) -> f64,
    time: Duration,
) -> Option<(Vec<(i64, usize)>, i64)> {
    if ring.is_empty() || problem.rows.iter().any(|row| !row.covering) || problem.cost.iter().any(|&c| c < 0) {
        return None;
    }
    let cover = RingCover::new(problem, ring, key);
    let (_, y) = master_bound(problem, ring, &cover, Instant::now() + time)?;
    let alpha = reduced(problem, ring, &cover, &y);
    let scaled: Vec<i64> = alpha.iter().map(|&a| (a * SCALE).round() as i64).collect();
    let (rhs, _) = cover.cheapest(&scaled)?;
    let mut terms: Vec<(i64, usize)> =
        scaled.iter().zip(cover.vars()).filter(|t| *t.0 != 0).map(|(&a, &v)| (a, v)).collect();
    let g = terms.iter().fold(rhs.abs(), |g, t| gcd(g, t.0.abs())).max(1);
    for t in &mut terms {
        t.0 /= g;
    }
    terms.sort_unstable_by_key(|t| t.1);
    Some((terms, rhs / g))
}

/// `α_u = c_u - Σ_i y_i a_iu` over the rows outside the ring, for each ring variable.
fn reduced(problem: &Problem, ring: &[usize], cover: &RingCover, y: &[f64]) -> Vec<f64> {
    let in_ring = membership(problem.rows.len(), ring);
    cover
        .vars()
        .iter()
        .map(|&u| {
            let dual: f64 = problem.columns[u].iter().filter(|t| !in_ring[t.0]).map(|&(i, a)| y[i] * a as f64).sum();
            problem.cost[u] as f64 - dual
        })
        .collect()
}

/// Column generation for the ring's bound: the best Lagrangian bound found, with the
/// multipliers of the rows outside the ring (indexed by the program's rows) that gave it.
fn master_bound(problem: &Problem, ring: &[usize], cover: &RingCover, deadline: Instant) -> Option<(f64, Vec<f64>)> {
    let in_ring = membership(problem.rows.len(), ring);
    let mut in_a = vec![false; problem.n()];
    for &v in cover.vars() {
        in_a[v] = true;
    }
    let outside: Vec<usize> = (0..problem.n()).filter(|&v| !in_a[v]).collect();
    let others: Vec<usize> = (0..problem.rows.len()).filter(|&r| !in_ring[r]).collect();
    // The first column takes every ring variable.
    let mut columns: Vec<Vec<usize>> = vec![cover.vars().to_vec()];
    let mut best: Option<(f64, Vec<f64>)> = None;
    for _ in 0..MOST_ROUNDS {
        if Instant::now() > deadline {
            break;
        }
        let master = master_program(problem, &others, &outside, &columns);
        let mut lp = master.relaxation();
        let LpStatus::Optimal(value) = lp.solve(f64::INFINITY) else { break };
        let duals = lp.duals();
        let mut y = vec![0.0; problem.rows.len()];
        for (k, &r) in others.iter().enumerate() {
            y[r] = duals[k].max(0.0);
        }
        let mu = duals[others.len()].max(0.0);
        let alpha = reduced(problem, ring, cover, &y);
        let scaled: Vec<i64> = alpha.iter().map(|&a| (a * SCALE).round() as i64).collect();
        let (cheapest, chosen) = cover.cheapest(&scaled)?;
        let cheapest = cheapest as f64 / SCALE;
        let rest: f64 = outside
            .iter()
            .map(|&u| {
                let d: f64 = problem.columns[u].iter().map(|&(i, a)| y[i] * a as f64).sum();
                (problem.cost[u] as f64 - d).min(0.0)
            })
            .sum();
        let bound = others.iter().map(|&r| y[r] * problem.rows[r].rhs as f64).sum::<f64>() + cheapest + rest;
        if best.as_ref().is_none_or(|b| bound > b.0) {
            best = Some((bound, y));
        }
        if cheapest - mu > -GAP / 2.0 || value - best.as_ref().map_or(f64::NEG_INFINITY, |b| b.0) < GAP {
            break;
        }
        let column: Vec<usize> = chosen.iter().map(|&l| cover.vars()[l]).collect();
        if columns.contains(&column) {
            break;
        }
        columns.push(column);
    }
    best
}

/// The master program: the variables outside the ring, then one per column (a cover of the
/// ring, its variables substituted into the rows outside the ring), and a row that the
/// columns' weights sum to at least 1.
fn master_program(problem: &Problem, others: &[usize], outside: &[usize], columns: &[Vec<usize>]) -> Problem {
    let mut model = LinearModel::default();
    let mut index = vec![usize::MAX; problem.n()];
    for &u in outside {
        index[u] = model.variable(format!("x{u}"));
    }
    let mut objective: Vec<(i64, usize)> = outside.iter().map(|&u| (problem.cost[u], index[u])).collect();
    let lambdas: Vec<usize> = (0..columns.len()).map(|k| model.variable(format!("l{k}"))).collect();
    let mut in_column = vec![vec![false; problem.n()]; columns.len()];
    for (k, column) in columns.iter().enumerate() {
        for &u in column {
            in_column[k][u] = true;
        }
        objective.push((column.iter().map(|&u| problem.cost[u]).sum(), lambdas[k]));
    }
    for &r in others {
        let row = &problem.rows[r];
        let mut terms: Vec<(i64, usize)> =
            row.terms.iter().filter(|t| index[t.1] != usize::MAX).map(|&(a, u)| (a, index[u])).collect();
        for (k, &l) in lambdas.iter().enumerate() {
            let a: i64 = row.terms.iter().filter(|t| in_column[k][t.1]).map(|t| t.0).sum();
            if a != 0 {
                terms.push((a, l));
            }
        }
        model.constraints.push(Constraint { name: format!("r{r}"), terms, relation: Relation::AtLeast, rhs: row.rhs });
    }
    let convexity = lambdas.iter().map(|&l| (1, l)).collect();
    model.constraints.push(Constraint { name: "one".into(), terms: convexity, relation: Relation::AtLeast, rhs: 1 });
    model.objective = Some((Sense::Minimise, objective));
    Problem::new(&model)
}

fn membership(n: usize, members: &[usize]) -> Vec<bool> {
    let mut out = vec![false; n];
    for &m in members {
        out[m] = true;
    }
    out
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use knights_sat_encodings::linear::{placement_model, PlacementModel};
    use knights_sat_encodings::puzzle::placement::PlacementPuzzle;

    use super::super::tests;
    use super::{ring_cut, ring_of, Problem, RingCover};

    fn domination(n: usize, letter: &str) -> (PlacementPuzzle, PlacementModel) {
        let puzzle = tests::domination(n, letter);
        let model = placement_model(&puzzle).unwrap();
        (puzzle, model)
    }

    /// The least cost of a cover of `rows` by a depth-first search: every variable of
    /// nonpositive cost is in some cheapest cover, and then the first uncovered row is
    /// covered by each of its variables in turn, the ones before it left out.
    fn search(rows: &[Vec<usize>], cost: &[i64]) -> i64 {
        fn go(rows: &[Vec<usize>], cost: &[i64], state: &mut Vec<i8>, spent: i64, best: &mut i64) {
            if spent >= *best {
                return;
            }
            let Some(row) = rows.iter().find(|row| row.iter().all(|&v| state[v] != 1)) else {
                *best = spent;
                return;
            };
            let open: Vec<usize> = row.iter().copied().filter(|&v| state[v] == -1).collect();
            let mut undo = Vec::new();
            for v in open {
                state[v] = 1;
                go(rows, cost, state, spent + cost[v], best);
                state[v] = 0;
                undo.push(v);
            }
            for v in undo {
                state[v] = -1;
            }
        }
        let mut state: Vec<i8> = cost.iter().map(|&c| if c <= 0 { 1 } else { -1 }).collect();
        let spent = cost.iter().filter(|&&c| c <= 0).sum();
        let mut best = i64::MAX;
        go(rows, cost, &mut state, spent, &mut best);
        best
    }

    /// On the rings of small boards under random costs (some negative), the dynamic program's
    /// least cost is the search's, and the cover it names covers the ring at that cost.
    #[test]
    fn the_cheapest_cover_of_a_ring_is_the_searchs() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % below
        };
        for (n, letter) in [(5, "N"), (6, "N"), (7, "N"), (5, "K"), (6, "K")] {
            let (puzzle, model) = domination(n, letter);
            let problem = Problem::new(&model.model);
            let (ring, angle) = ring_of(&puzzle, &model);
            let cover = RingCover::new(&problem, &ring, &|v| angle[v]);
            for _ in 0..20 {
                let cost: Vec<i64> = cover.vars().iter().map(|_| next(16) as i64 - 2).collect();
                let (value, chosen) = cover.cheapest(&cost).expect("a small ring fits the program");
                assert_eq!(value, search(&cover.rows, &cost), "{letter} {n}x{n}, costs {cost:?}");
                let mut taken: Vec<bool> = cost.iter().map(|&c| c <= 0).collect();
                for &v in &chosen {
                    taken[v] = true;
                }
                assert!(cover.rows.iter().all(|row| row.iter().any(|&v| taken[v])), "{letter} {n}x{n}: not a cover");
                let paid: i64 = taken.iter().zip(&cost).filter(|t| *t.0).map(|t| t.1).sum();
                assert_eq!(paid, value, "{letter} {n}x{n}: the cover named costs {paid}, not {value}");
            }
        }
    }

    /// Knight domination 11x11 (21 knights, OEIS A006075): the ring cut lifts the root bound
    /// above the relaxation's and leaves it at most the optimum.
    #[test]
    fn the_ring_cut_lifts_the_root_bound_below_the_optimum() {
        let (puzzle, model) = domination(11, "N");
        let mut problem = Problem::new(&model.model);
        let plain = super::super::prepare::root(&problem).1.unwrap();
        let (ring, angle) = ring_of(&puzzle, &model);
        let (terms, rhs) = ring_cut(&problem, &ring, &|v| angle[v], std::time::Duration::from_secs(600)).unwrap();
        problem.add_row(terms, rhs);
        let lifted = super::super::prepare::root(&problem).1.unwrap();
        assert!(lifted > plain + 0.5, "the relaxation's bound {plain:.4}, with the ring cut {lifted:.4}");
        assert!(lifted <= 21.0 + 1e-9, "the ring cut's bound {lifted:.4} passes the optimum 21");
    }
}

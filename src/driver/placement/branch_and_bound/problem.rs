//! The 0-1 program the branch-and-bound search works on: the placement's linear model with its
//! objective turned into a cost to minimise, every row as `a·x >= b` over integers, the
//! partial assignment with its trail, bound propagation over the rows, and the Lagrangian
//! bound that turns any row multipliers into a bound that holds exactly.
//!
//! Leaving out, at the nodes without symmetry, each free variable whose uncovered rows another
//! free variable covers too (a dominated column: some best placement of the node leaves it
//! empty) was tried and not kept. Side by side, one thread each, one run: knight domination
//! 17x17 took 62,922 nodes in 62.9 s against 69,531 in 64.7 s, but 17 cubes of an 18x18 split
//! 263,587 nodes in 284.0 s against 266,017 in 267.9 s. A knight's square shares at most a
//! few rows with another's, so a column is dominated only once nearly all its rows are
//! covered, where the relaxation seldom wants it anyway.
//!
//! Two more propagations were tried and not kept; both left knight domination's trees as they
//! were (one thread, one run each):
//! - *every piece is needed*: some least placement gives each piece a square that it alone
//!   occupies or attacks, so a placed piece whose squares all have another piece closes the
//!   node, and a free variable that would cover all of a piece's own squares is 0. On 15x15
//!   (1,296 nodes either way) each of 1,546 checks of a placed piece found 3 squares of its own
//!   or more, and nothing was fixed; on 17x17, of 32,821 checks, 22 found a piece 2 squares
//!   and 2 variables were fixed. The tree places few pieces before its bound closes it, far too
//!   sparse for them to crowd each other.
//! - *nogoods from bound conflicts*, as a SAT solver learns clauses: at each node closed by its
//!   bound, the fixings that the bound needs (the others dropped, the smallest reduced-cost
//!   losses first, while the bound stays past the cutoff), kept as a clause with two watched
//!   literals. On 15x15, 637 nogoods (13 fixings each on average, of a trail of 85) fixed
//!   nothing; on 17x17, 14,742 (19 of 107) fixed 3 variables and closed 3 nodes. A nogood
//!   mostly holds reduced-cost fixings of its own node, which no other node repeats.

use knights_sat_encodings::linear::{LinearModel, Relation, Sense};

use crate::solver::simplex::{Lp, RowKind};

/// The most rows the linear program may have: the simplex keeps a dense basis inverse of rows
/// squared (6,000 rows: 288 MB per thread). Independence puzzles with a conflict row per
/// attacking pair pass it on 8x8 (36 mixed pieces: 18,236 rows); domination by one kind up to
/// 64x64 stays below it before its cuts, and the cuts stop there.
pub const MAX_BASIS_ROWS: usize = 6_000;

/// One row `Σ a·x >= b` with integer coefficients.
#[derive(Clone, Debug)]
pub(super) struct Row {
    pub terms: Vec<(i64, usize)>,
    pub rhs: i64,
    /// The largest `|a|` of the row.
    max_abs: i64,
    /// A covering row: every coefficient 1 and `b = 1` (some variable of it must be 1).
    pub covering: bool,
}

/// A variable's value in the partial assignment.
pub(super) const FREE: i8 = -1;

/// The program with a partial assignment.
#[derive(Clone)]
pub(super) struct Problem {
    /// Cost of each variable (the objective, negated when it is maximised).
    pub cost: Vec<i64>,
    /// Whether the model maximises (the cost is the value negated).
    pub maximise: bool,
    /// The greatest common divisor of the costs: improving solutions cost at least this less.
    pub step: i64,
    pub rows: Vec<Row>,
    /// For each variable, `(row, coefficient)`.
    pub columns: Vec<Vec<(usize, i64)>>,
    /// `FREE`, 0 or 1.
    pub value: Vec<i8>,
    /// Variables in the order they were assigned.
    pub trail: Vec<usize>,
    /// Each row's largest possible activity under the assignment.
    max_activity: Vec<i64>,
    /// Rows to propagate.
    queue: Vec<usize>,
    queued: Vec<bool>,
}

impl Problem {
    /// The program of a linear model with an objective.
    pub fn new(model: &LinearModel) -> Problem {
        let n = model.variables.len();
        let (sense, objective) = model.objective.clone().unwrap_or((Sense::Minimise, Vec::new()));
        let maximise = sense == Sense::Maximise;
        let mut cost = vec![0i64; n];
        for (c, v) in objective {
            cost[v] += if maximise { -c } else { c };
        }
        let step = cost.iter().fold(0i64, |g, &c| gcd(g, c.abs())).max(1);
        let mut rows = Vec::new();
        for constraint in &model.constraints {
            let terms = constraint.terms.clone();
            let negated = || terms.iter().map(|&(a, v)| (-a, v)).collect::<Vec<_>>();
            match constraint.relation {
                Relation::AtLeast => rows.push(Row::new(terms.clone(), constraint.rhs)),
                Relation::AtMost => rows.push(Row::new(negated(), -constraint.rhs)),
                Relation::Equal => {
                    rows.push(Row::new(terms.clone(), constraint.rhs));
                    rows.push(Row::new(negated(), -constraint.rhs));
                }
            }
        }
        let mut columns = vec![Vec::new(); n];
        for (r, row) in rows.iter().enumerate() {
            for &(a, v) in &row.terms {
                columns[v].push((r, a));
            }
        }
        let max_activity = rows.iter().map(|row| row.terms.iter().map(|t| t.0.max(0)).sum()).collect();
        let m = rows.len();
        Problem {
            cost,
            maximise,
            step,
            rows,
            columns,
            value: vec![FREE; n],
            trail: Vec::new(),
            max_activity,
            queue: (0..m).collect(),
            queued: vec![true; m],
        }
    }

    /// Adds the row `Σ a·x >= rhs` (a cut), before any variable is assigned.
    pub fn add_row(&mut self, terms: Vec<(i64, usize)>, rhs: i64) {
        debug_assert!(self.trail.is_empty());
        let r = self.rows.len();
        for &(a, v) in &terms {
            self.columns[v].push((r, a));
        }
        self.max_activity.push(terms.iter().map(|t| t.0.max(0)).sum());
        self.queue.push(r);
        self.queued.push(true);
        self.rows.push(Row::new(terms, rhs));
    }

    /// The program of the subtree where `fixed` holds: each fixed variable taken out of the
    /// rows (its value moved to the right-hand side), the rows it satisfies left out.
    pub fn restricted(&self, fixed: &[(usize, bool)]) -> Problem {
        let mut value = vec![FREE; self.n()];
        for &(v, one) in fixed {
            value[v] = i8::from(one);
        }
        let mut out = Problem {
            cost: self.cost.clone(),
            maximise: self.maximise,
            step: self.step,
            rows: Vec::new(),
            columns: vec![Vec::new(); self.n()],
            value: vec![FREE; self.n()],
            trail: Vec::new(),
            max_activity: Vec::new(),
            queue: Vec::new(),
            queued: Vec::new(),
        };
        for row in &self.rows {
            let rhs = row.rhs - row.terms.iter().filter(|t| value[t.1] == 1).map(|t| t.0).sum::<i64>();
            let terms: Vec<(i64, usize)> = row.terms.iter().copied().filter(|t| value[t.1] == FREE).collect();
            if rhs > 0 || terms.iter().any(|t| t.0 < 0) {
                out.add_row(terms, rhs);
            }
        }
        out
    }

    /// Number of variables.
    pub fn n(&self) -> usize {
        self.cost.len()
    }

    /// The linear relaxation of the program.
    pub fn relaxation(&self) -> Lp {
        let cost: Vec<f64> = self.cost.iter().map(|&c| c as f64).collect();
        let rows: Vec<_> = self
            .rows
            .iter()
            .map(|row| (row.terms.iter().map(|&(a, v)| (v, a as f64)).collect(), RowKind::AtLeast, row.rhs as f64))
            .collect();
        Lp::new(&cost, &rows)
    }

    /// Assigns `var` (free) and keeps the LP's bounds in step.
    pub fn assign(&mut self, var: usize, one: bool, lp: &mut Lp) {
        debug_assert_eq!(self.value[var], FREE);
        self.value[var] = i8::from(one);
        self.trail.push(var);
        let v = if one { 1.0 } else { 0.0 };
        lp.set_bounds(var, v, v);
        for &(r, a) in &self.columns[var] {
            self.max_activity[r] += a * i64::from(one) - a.max(0);
            if !self.queued[r] {
                self.queued[r] = true;
                self.queue.push(r);
            }
        }
    }

    /// Undoes assignments back to trail length `mark`.
    pub fn undo(&mut self, mark: usize, lp: &mut Lp) {
        for &var in &self.trail[mark..] {
            lp.set_bounds(var, 0.0, 1.0);
        }
        self.forget(mark);
    }

    /// Undoes assignments back to trail length `mark`, leaving the relaxation's bounds as they
    /// are (for a caller that takes back a saved relaxation).
    pub fn forget(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let var = self.trail.pop().expect("the trail is longer than the mark");
            let one = self.value[var] == 1;
            self.value[var] = FREE;
            for &(r, a) in &self.columns[var] {
                self.max_activity[r] -= a * i64::from(one) - a.max(0);
            }
        }
        for r in self.queue.drain(..) {
            self.queued[r] = false;
        }
    }

    /// Propagates the rows: fixes every variable a row forces. `false` on a row that can no
    /// longer hold.
    pub fn propagate(&mut self, lp: &mut Lp) -> bool {
        while let Some(r) = self.queue.pop() {
            self.queued[r] = false;
            let slack = self.max_activity[r] - self.rows[r].rhs;
            if slack < 0 {
                for r in self.queue.drain(..) {
                    self.queued[r] = false;
                }
                return false;
            }
            if slack >= self.rows[r].max_abs {
                continue;
            }
            for i in 0..self.rows[r].terms.len() {
                let (a, v) = self.rows[r].terms[i];
                if self.value[v] == FREE && a.abs() > slack {
                    self.assign(v, a > 0, lp);
                }
            }
        }
        true
    }

    /// The cost of the assignment of every variable.
    pub fn cost_of(&self, values: &[bool]) -> i64 {
        self.cost.iter().zip(values).filter(|t| *t.1).map(|t| t.0).sum()
    }

    /// Whether `values` satisfies every row.
    pub fn satisfies(&self, values: &[bool]) -> bool {
        self.rows.iter().all(|row| row.terms.iter().filter(|t| values[t.1]).map(|t| t.0).sum::<i64>() >= row.rhs)
    }

    /// The Lagrangian bound of multipliers `y` (one per row, clamped at 0) under the current
    /// assignment: `y·b + Σ_j min over x_j of (c_j - y·A_j) x_j`. It holds for any nonnegative
    /// `y`, so rounding in the simplex cannot make it wrong. Also returns the reduced costs.
    pub fn lagrangian(&self, y: &[f64]) -> (f64, Vec<f64>) {
        self.lagrangian_with(y, None)
    }

    /// The Lagrangian bound of multipliers `y` with every cost taken as 0: positive when the
    /// combination of rows cannot hold under the assignment (a Farkas proof).
    pub fn infeasibility(&self, y: &[f64]) -> f64 {
        let mut bound: f64 = self.rows.iter().zip(y).map(|(row, &yi)| yi.max(0.0) * row.rhs as f64).sum();
        for (j, column) in self.columns.iter().enumerate() {
            let r = -column.iter().map(|&(i, a)| y[i].max(0.0) * a as f64).sum::<f64>();
            bound += match self.value[j] {
                FREE => r.min(0.0),
                1 => r,
                _ => 0.0,
            };
        }
        bound
    }

    /// [`Problem::lagrangian`] with variable `fixed.0` (free) taken as fixed to `fixed.1`.
    pub fn lagrangian_with(&self, y: &[f64], fixed: Option<(usize, bool)>) -> (f64, Vec<f64>) {
        let mut bound: f64 = self.rows.iter().zip(y).map(|(row, &yi)| yi.max(0.0) * row.rhs as f64).sum();
        let mut reduced = vec![0.0; self.n()];
        for (j, column) in self.columns.iter().enumerate() {
            let r = self.cost[j] as f64 - column.iter().map(|&(i, a)| y[i].max(0.0) * a as f64).sum::<f64>();
            reduced[j] = r;
            let value = match fixed {
                Some((v, one)) if v == j => i8::from(one),
                _ => self.value[j],
            };
            bound += match value {
                FREE => r.min(0.0),
                1 => r,
                _ => 0.0,
            };
        }
        (bound, reduced)
    }
}

impl Row {
    fn new(terms: Vec<(i64, usize)>, rhs: i64) -> Row {
        let max_abs = terms.iter().map(|t| t.0.abs()).max().unwrap_or(0);
        let covering = rhs == 1 && terms.iter().all(|t| t.0 == 1);
        Row { terms, rhs, max_abs, covering }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

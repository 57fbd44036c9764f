//! A dual simplex for the linear relaxations of 0-1 programs, in pure Rust.
//!
//! The branch-and-bound search of placements solves one linear program per node, each a
//! small change of the last: a variable's bounds tightened on the way down and loosened on the
//! way back. The dual simplex suits that: every basis it visits is dual feasible, so after a
//! bound change it starts from the last basis, each of its iterations raises a valid lower
//! bound, and it can stop as soon as that bound passes a cutoff.
//!
//! Rows are `a·x >= b` (an `a·x <= b` row is stored negated) or `a·x = b`, with a slack per
//! row: `a·x - s = b`, `s >= 0` (`s = 0` for an equality). The inverse of the basis, `B⁻¹`, is
//! kept dense over the columns of the tight rows and the rows of the basic structurals
//! ([`inverse`]: the other columns are unit vectors, the other rows combinations of the kept
//! ones), the rows sparse; a pivot computes the one tableau row and column it needs from them,
//! and updates `B⁻¹` and the squared norms of its rows (the dual steepest-edge weights) in one
//! pass. `B⁻¹` is rebuilt from the basis every [`REFACTOR_EVERY`] pivots so rounding errors do
//! not pile up. Around the inverse, a pivot visits only what can change: the ratio test and
//! the reduced costs run over a list of the nonbasic columns, a basic slack's derived entries
//! over its row's basic terms ([`basic_terms`]), the leaving row over each row's basic bounds,
//! and the objective follows the pivots instead of being summed again (knight domination
//! 18x18, cubes on one thread: the same trees, about 1.2 times faster). The pass that moves
//! the basic values lists the rows it leaves outside their bounds, and the next leaving row
//! is chosen among those alone (knight domination 19x19, one cube on one thread, two runs
//! beside the build before: the same 24,425 nodes in 18.7 and 18.9 s against 20.6 and 20.4 s).
//!
//! Two textbook refinements were tried and not kept (knights on one thread, one run each; queens on
//! two threads, three runs each). A ratio test that flips boxed columns to their other bound
//! instead of letting them enter (the bound flipping of most dual simplex codes) took knight
//! domination 17x17 33.4 pivots per relaxation against 31.0, and 70.9 s against 66.0: a covering
//! relaxation's values sit far below 1, so a flip rarely fits in the leaving row's infeasibility.
//! Costs perturbed by a relative 1e-7 to 2e-7, against the ties of unit costs, took 17x17 57.5 s
//! against 64.9 s (63,848 nodes against 69,531), eight cubes of 19x19 306 s against 318 s at the
//! same time per node, and queen domination 14x14 5.2 s against 5.0 s: within the noise of this
//! machine, so the costs stay as given.
//!
//! Nothing here is trusted for a proof: a caller takes the row multipliers ([`Lp::duals`]) and
//! recomputes the bound they imply from the exact rows (a Lagrangian bound, valid for any
//! nonnegative multipliers), which is also the cutting-plane combination a proof can state.

/// The longest mean row (in terms) whose basic slacks' rows of `B⁻¹` are derived rather than
/// kept: a knight's covering row has at most 9 terms, a queen's about four times the side.
/// Measured: queen domination 14x14 took 8.3 s deriving them, 5.2 s keeping them.
const LONGEST_DERIVED_ROWS: usize = 16;

/// Whether the inverse keeps every row ([`LONGEST_DERIVED_ROWS`]).
fn keeps_all_rows(rows: &[Vec<(usize, f64)>]) -> bool {
    let terms: usize = rows.iter().map(Vec::len).sum();
    terms > LONGEST_DERIVED_ROWS * rows.len().max(1)
}

/// How a row's left-hand side relates to its right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// `a·x >= b`.
    AtLeast,
    /// `a·x <= b`.
    AtMost,
    /// `a·x = b`.
    Equal,
}

/// One row: `(terms as (column, coefficient), relation, right-hand side)`.
pub type LpRow = (Vec<(usize, f64)>, RowKind, f64);

/// The answer of one solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LpStatus {
    /// An optimal basis; the value is the optimum.
    Optimal(f64),
    /// The dual objective passed the cutoff: every point costs more than it.
    Cutoff(f64),
    /// No point satisfies the rows and bounds.
    Infeasible,
}

mod basic_terms;
mod inverse;
mod kernels;
mod pivot;
mod saved_basis;

use basic_terms::BasicTerms;
use inverse::Inverse;
pub use saved_basis::SavedBasis;

/// Pivots between two rebuilds of `B⁻¹` from the basis (a pivot whose element disagrees
/// between its row and its column rebuilds it sooner). Each copy of a relaxation counts on
/// from the count of the one it copies, so a search's siblings and probes can each rebuild
/// the same old inverse again. Knight domination 20x20, cubes of one split on one thread,
/// side by side (one run): with 3,000, 8,489 rebuilds and 161 s in a cube of 66,489 nodes,
/// 3,278 and 77.3 s in one of 26,581; with 10,000, 36 and 144 s, 14 and 66.1 s (the same
/// trees within 0.3%). 17 cubes of 18x18, whose paths seldom reach 3,000 pivots: the same
/// 64,568 nodes and 45 rebuilds, 88.4 s against 88.7 s.
const REFACTOR_EVERY: usize = 10_000;
/// Entries smaller than this are zero for pivoting.
const PIVOT_TOL: f64 = 1e-9;
/// Primal infeasibility tolerated.
const PRIMAL_TOL: f64 = 1e-7;
/// Dual infeasibility tolerated (the Harris ratio test's slack).
const DUAL_TOL: f64 = 1e-9;
/// How far the pivot element computed from the row and from the column may disagree before
/// `B⁻¹` is rebuilt.
const DRIFT_TOL: f64 = 1e-7;

/// A linear program over variables in `[0, 1]` (bounds changeable) with a warm-started dual
/// simplex.
#[derive(Clone, Debug)]
pub struct Lp {
    m: usize,
    n: usize,
    /// The rows, signed so that each reads `≥` or `=`: `(column, coefficient)`.
    rows: Vec<Vec<(usize, f64)>>,
    /// The same coefficients by column: `(row, coefficient)`.
    columns: Vec<Vec<(usize, f64)>>,
    b: Vec<f64>,
    /// Costs of all `n + m` columns (slacks cost nothing).
    cost: Vec<f64>,
    lower: Vec<f64>,
    upper: Vec<f64>,
    /// `B⁻¹`.
    inverse: Inverse,
    /// Value of the basic variable of each row.
    beta: Vec<f64>,
    /// Bounds of the basic variable of each row: `(lower, upper)`.
    basic_bounds: Vec<(f64, f64)>,
    /// Reduced cost of every column.
    d: Vec<f64>,
    basis: Vec<usize>,
    /// Row of a basic column, `usize::MAX` for a nonbasic one.
    row_of: Vec<usize>,
    /// Nonbasic columns: whether at the upper bound.
    at_upper: Vec<bool>,
    /// The nonbasic columns, in no particular order, and where each is in that list
    /// (`usize::MAX` for a basic one).
    nonbasic: Vec<usize>,
    nonbasic_at: Vec<usize>,
    /// Squared norm of each row of `B⁻¹`: the dual steepest-edge weights that pick the
    /// leaving row.
    norms: Vec<f64>,
    /// Scratch: the pivot row of the tableau, over all `n + m` columns.
    pivot_row: Vec<f64>,
    /// Scratch: the entering column of the tableau, over the `m` rows.
    pivot_column: Vec<f64>,
    /// Scratch: the columns the ratio test may take, with their tableau entries.
    eligible: Vec<(usize, f64)>,
    /// The rows whose basic value lies outside its bounds, in order, while a solve runs: listed
    /// at its start and after a rebuild, and again by each pivot's pass over the basic values.
    infeasible: Vec<usize>,
    /// Scratch: a row of `B⁻¹` derived for a basic slack (its stored part).
    derived: Vec<f64>,
    /// Scratch: each kept row's product with the pivot row, in a pivot.
    dots: Vec<f64>,
    /// Each row's terms on basic structurals (kept only when not every row of `B⁻¹` is).
    basic_terms: BasicTerms,
    /// Scratch: a column's terms in tight rows, by stored position.
    stored_terms: Vec<(usize, f64)>,
    since_refactor: usize,
    /// The row whose basic variable could not be brought within its bounds, when the last
    /// solve found the program infeasible.
    infeasible_row: Option<usize>,
    /// Pivots since the program was built.
    pub pivots: u64,
}

impl Lp {
    /// A program minimising `cost · x` over `x ∈ [0, 1]^n` subject to `rows`, each
    /// `(terms, kind, rhs)`.
    pub fn new(cost: &[f64], rows: &[LpRow]) -> Lp {
        let n = cost.len();
        let m = rows.len();
        let w = n + m;
        let mut signed = Vec::with_capacity(m);
        let mut columns = vec![Vec::new(); n];
        let mut b = vec![0.0; m];
        let mut lower = vec![0.0; w];
        let mut upper = vec![1.0; w];
        for (i, (terms, kind, rhs)) in rows.iter().enumerate() {
            let sign = if *kind == RowKind::AtMost { -1.0 } else { 1.0 };
            let mut dense: Vec<(usize, f64)> = Vec::with_capacity(terms.len());
            for &(j, coef) in terms {
                match dense.iter_mut().find(|t| t.0 == j) {
                    Some(t) => t.1 += sign * coef,
                    None => dense.push((j, sign * coef)),
                }
            }
            dense.retain(|t| t.1 != 0.0);
            for &(j, coef) in &dense {
                columns[j].push((i, coef));
            }
            signed.push(dense);
            b[i] = sign * rhs;
            upper[n + i] = if *kind == RowKind::Equal { 0.0 } else { f64::INFINITY };
            lower[n + i] = 0.0;
        }
        let mut full_cost = cost.to_vec();
        full_cost.resize(w, 0.0);
        let keep_all = keeps_all_rows(&signed);
        let basic_terms = BasicTerms::new(&signed, n);
        let mut lp = Lp {
            m,
            n,
            rows: signed,
            columns,
            b,
            cost: full_cost,
            lower,
            upper,
            inverse: Inverse::new(m, n, keep_all),
            beta: vec![0.0; m],
            basic_bounds: vec![(0.0, 0.0); m],
            d: vec![0.0; w],
            basis: Vec::new(),
            row_of: Vec::new(),
            at_upper: vec![false; w],
            nonbasic: Vec::new(),
            nonbasic_at: Vec::new(),
            norms: vec![1.0; m],
            pivot_row: vec![0.0; w],
            pivot_column: vec![0.0; m],
            eligible: Vec::new(),
            infeasible: Vec::new(),
            derived: Vec::new(),
            dots: vec![0.0; m],
            basic_terms,
            stored_terms: Vec::new(),
            since_refactor: 0,
            infeasible_row: None,
            pivots: 0,
        };
        lp.set_slack_basis();
        lp.refactor();
        lp
    }

    /// Every slack basic, every structural nonbasic: the basis of a program just built.
    fn set_slack_basis(&mut self) {
        let (n, w) = (self.n, self.width());
        self.basis = (n..w).collect();
        self.row_of = (0..w).map(|c| if c >= n { c - n } else { usize::MAX }).collect();
        self.nonbasic = (0..n).collect();
        self.nonbasic_at = (0..w).map(|c| if c < n { c } else { usize::MAX }).collect();
    }

    /// Structural variables.
    pub fn n_vars(&self) -> usize {
        self.n
    }

    fn width(&self) -> usize {
        self.n + self.m
    }

    fn is_basic(&self, col: usize) -> bool {
        self.row_of[col] != usize::MAX
    }

    /// The value of a nonbasic column.
    fn nonbasic_value(&self, col: usize) -> f64 {
        if self.at_upper[col] {
            self.upper[col]
        } else {
            self.lower[col]
        }
    }

    /// Sets the bounds of structural variable `j` (both in `[0, 1]`).
    pub fn set_bounds(&mut self, j: usize, lower: f64, upper: f64) {
        debug_assert!(j < self.n && lower <= upper);
        if self.is_basic(j) {
            self.lower[j] = lower;
            self.upper[j] = upper;
            self.basic_bounds[self.row_of[j]] = (lower, upper);
            return;
        }
        let old = self.nonbasic_value(j);
        self.lower[j] = lower;
        self.upper[j] = upper;
        // A nonbasic variable sits at the bound its reduced cost asks for.
        self.at_upper[j] = self.d[j] < 0.0 && upper > lower;
        let delta = self.nonbasic_value(j) - old;
        if delta != 0.0 {
            self.compute_column(j);
            for (beta, &t) in self.beta.iter_mut().zip(&self.pivot_column) {
                *beta -= t * delta;
            }
        }
    }

    /// Column `col` of the tableau, `B⁻¹` times the column of `[A | -I]`, into `pivot_column`.
    fn compute_column(&mut self, col: usize) {
        let n = self.n;
        let out = &mut self.pivot_column;
        out.iter_mut().for_each(|v| *v = 0.0);
        // `B⁻¹ e_j`: the stored column of a tight row, `-e_p` for a row whose slack is basic in
        // basis row `p`.
        let keeps_all = self.inverse.keeps_all();
        let terms: &[(usize, f64)] = if col < n { &self.columns[col] } else { &[(col - n, -1.0)] };
        if keeps_all {
            for &(j, a) in terms {
                match self.inverse.position(j) {
                    Some(q) => {
                        for (i, o) in out.iter_mut().enumerate() {
                            *o += self.inverse.entry(i, q) * a;
                        }
                    }
                    None => out[self.row_of[n + j]] -= a,
                }
            }
            return;
        }
        // Only the structurals' rows are kept, and no slack's unit entry falls in them.
        let stored = &mut self.stored_terms;
        stored.clear();
        for &(j, a) in terms {
            match self.inverse.position(j) {
                Some(q) => stored.push((q, a)),
                None => out[self.row_of[n + j]] -= a,
            }
        }
        for &i in self.inverse.kept_rows() {
            let row = self.inverse.row(i);
            let mut sum = 0.0;
            for &(q, a) in stored.iter() {
                sum += row[q] * a;
            }
            out[i] = sum;
        }
        // A basic slack's row of `B⁻¹` is `A_jS` times the structurals' rows: so is its entry.
        for (i, &c) in self.basis.iter().enumerate() {
            if c >= n && !self.inverse.kept(i) {
                let terms = self.basic_terms.row(c - n);
                out[i] += terms.iter().map(|t| t.coef * out[t.basis_row as usize]).sum::<f64>();
            }
        }
    }

    /// The stored part of row `i` of `B⁻¹` into `derived` (kept, or derived for a basic
    /// slack).
    fn derive_row(&mut self, i: usize) {
        let c = self.basis[i];
        let slack_row = (c >= self.n).then(|| self.basic_terms.row(c - self.n));
        self.inverse.derive_row(i, slack_row, &mut self.derived);
    }

    /// Row `r` of the tableau, row `r` of `B⁻¹` times `[A | -I]`, into `pivot_row` (and the
    /// stored part of row `r` of `B⁻¹` into `derived`).
    fn compute_row(&mut self, r: usize) {
        self.derive_row(r);
        let n = self.n;
        let out = &mut self.pivot_row;
        out.iter_mut().for_each(|v| *v = 0.0);
        let mut add = |j: usize, f: f64| {
            out[n + j] = -f;
            for &(c, a) in &self.rows[j] {
                out[c] += f * a;
            }
        };
        for (&j, &f) in self.inverse.tight().iter().zip(&self.derived) {
            if f != 0.0 {
                add(j, f);
            }
        }
        if self.basis[r] >= n {
            add(self.basis[r] - n, -1.0);
        }
    }

    /// Rebuilds `B⁻¹`, the basic values and the reduced costs from the basis.
    fn refactor(&mut self) {
        let (m, n, w) = (self.m, self.n, self.width());
        self.since_refactor = 0;
        if !self.inverse.rebuild(&self.basis, n, &self.rows, &self.columns) {
            // A singular basis (rounding gone wrong): start again from the slack basis.
            self.set_slack_basis();
            for c in 0..n {
                self.at_upper[c] = self.cost[c] < 0.0;
            }
            return self.refactor();
        }
        if !self.inverse.keeps_all() {
            self.basic_terms.rebuild(&self.basis, n, &self.rows);
        }
        for (bounds, &c) in self.basic_bounds.iter_mut().zip(&self.basis) {
            *bounds = (self.lower[c], self.upper[c]);
        }
        // Row multipliers y = c_B B⁻¹ (slacks cost nothing, so only the stored parts of the
        // structurals' rows count), reduced costs d = c - y [A | -I].
        let mut stored = vec![0.0; self.inverse.tight().len()];
        for (i, &c) in self.basis.iter().enumerate() {
            let cb = self.cost[c];
            if cb != 0.0 {
                kernels::subtract_multiple(&mut stored, self.inverse.row(i), -cb);
            }
        }
        let mut y = vec![0.0; m];
        for (&j, &v) in self.inverse.tight().iter().zip(&stored) {
            y[j] = v;
        }
        for j in 0..n {
            self.d[j] = self.cost[j] - self.columns[j].iter().map(|&(i, a)| y[i] * a).sum::<f64>();
        }
        self.d[n..n + m].copy_from_slice(&y);
        for &c in &self.basis {
            self.d[c] = 0.0;
        }
        // Nonbasic columns at the bound their reduced costs ask for.
        for c in 0..w {
            if !self.is_basic(c) {
                self.at_upper[c] = self.d[c] < 0.0 && self.upper[c].is_finite() && self.upper[c] > self.lower[c];
            }
        }
        // Basic values: β = B⁻¹ (b - N z_N).
        let mut rhs = self.b.clone();
        for c in (0..w).filter(|&c| !self.is_basic(c)) {
            let v = self.nonbasic_value(c);
            if v != 0.0 {
                if c < n {
                    for &(i, a) in &self.columns[c] {
                        rhs[i] -= a * v;
                    }
                } else {
                    rhs[c - n] += v;
                }
            }
        }
        for i in 0..m {
            self.derive_row(i);
            let row = &self.derived;
            let mut value: f64 = row.iter().zip(self.inverse.tight()).map(|(f, &j)| f * rhs[j]).sum();
            let mut norm = kernels::squared_norm(row);
            if self.basis[i] >= n {
                value -= rhs[self.basis[i] - n];
                norm += 1.0;
            }
            self.beta[i] = value;
            self.norms[i] = norm.max(1e-12);
        }
        self.find_infeasible();
    }

    /// The objective at the current basis (a lower bound while the basis is dual feasible).
    pub fn objective(&self) -> f64 {
        let mut value = 0.0;
        for (i, &c) in self.basis.iter().enumerate() {
            value += self.cost[c] * self.beta[i];
        }
        for c in 0..self.n {
            if !self.is_basic(c) {
                value += self.cost[c] * self.nonbasic_value(c);
            }
        }
        value
    }

    /// Runs the dual simplex until the basis is optimal, the program is infeasible, or the
    /// dual objective exceeds `cutoff`.
    pub fn solve(&mut self, cutoff: f64) -> LpStatus {
        self.solve_within(cutoff, usize::MAX)
    }

    /// [`Lp::solve`], stopped after `max_pivots` pivots: then `Optimal` holds the objective
    /// of the basis reached, a lower bound on the optimum (every basis the dual simplex visits
    /// is dual feasible), not the optimum itself.
    pub fn solve_within(&mut self, cutoff: f64, max_pivots: usize) -> LpStatus {
        let mut iterations = 0usize;
        let mut pivots = 0usize;
        self.infeasible_row = None;
        // The objective follows the pivots (each adds its step times the entering reduced
        // cost), and is computed again after a rebuild and for the answer.
        let mut objective = self.objective();
        self.find_infeasible();
        loop {
            if pivots >= max_pivots {
                return LpStatus::Optimal(self.objective());
            }
            if self.since_refactor >= REFACTOR_EVERY {
                self.refactor();
                objective = self.objective();
            }
            if objective > cutoff {
                return LpStatus::Cutoff(objective);
            }
            let Some(r) = self.leaving_row() else { return LpStatus::Optimal(self.objective()) };
            let leaving = self.basis[r];
            let to_lower = self.beta[r] < self.lower[leaving];
            self.compute_row(r);
            let Some(q) = self.entering_column(to_lower) else {
                self.infeasible_row = Some(r);
                return LpStatus::Infeasible;
            };
            self.compute_column(q);
            let (from_row, from_column) = (self.pivot_row[q], self.pivot_column[r]);
            if (from_row - from_column).abs() > DRIFT_TOL * (1.0 + from_row.abs()) {
                // Rounding has drifted `B⁻¹` away from the basis: rebuild it and choose again.
                if self.since_refactor == 0 {
                    // Fresh and still inconsistent: stop here. The caller's bound comes from
                    // the multipliers, recomputed exactly, so it stays valid, only weaker.
                    return LpStatus::Optimal(self.objective());
                }
                self.refactor();
                objective = self.objective();
                continue;
            }
            let target = if to_lower { self.lower[leaving] } else { self.upper[leaving] };
            objective += self.pivot(r, q, target, to_lower);
            iterations += 1;
            pivots += 1;
            if iterations > 50 * (self.m + self.n) + 1000 {
                // Cycling or rounding trouble: rebuild and go on from a fresh inverse.
                self.refactor();
                objective = self.objective();
                iterations = 0;
            }
        }
    }

    /// Takes the bounds, basis and inverse of `other`, a copy of this program (same rows),
    /// reusing this one's memory.
    pub fn copy_state_from(&mut self, other: &Lp) {
        debug_assert!(self.m == other.m && self.n == other.n);
        self.lower.copy_from_slice(&other.lower);
        self.upper.copy_from_slice(&other.upper);
        self.inverse.copy_from(&other.inverse);
        self.beta.copy_from_slice(&other.beta);
        self.basic_bounds.copy_from_slice(&other.basic_bounds);
        self.d.copy_from_slice(&other.d);
        self.basis.copy_from_slice(&other.basis);
        self.row_of.copy_from_slice(&other.row_of);
        self.nonbasic.copy_from_slice(&other.nonbasic);
        self.basic_terms.copy_from(&other.basic_terms);
        self.nonbasic_at.copy_from_slice(&other.nonbasic_at);
        self.at_upper.copy_from_slice(&other.at_upper);
        self.norms.copy_from_slice(&other.norms);
        self.since_refactor = other.since_refactor;
    }

    /// The value of structural variable `j` at the current basis.
    pub fn value(&self, j: usize) -> f64 {
        match self.row_of[j] {
            usize::MAX => self.nonbasic_value(j),
            r => self.beta[r],
        }
    }

    /// After a solve that found the program infeasible, the row of `B⁻¹` that proves it: up to
    /// its sign, row multipliers whose combination no point within the bounds satisfies (a
    /// Farkas proof, to be checked exactly by the caller).
    pub fn farkas_ray(&self) -> Option<Vec<f64>> {
        self.infeasible_row.map(|r| self.inverse_row(r))
    }

    /// Row `r` of `B⁻¹`, every entry: its stored part, and `-1` in the column of the row whose
    /// slack is basic in row `r`, if one is.
    fn inverse_row(&self, r: usize) -> Vec<f64> {
        let mut row = vec![0.0; self.m];
        let c = self.basis[r];
        let slack_row = (c >= self.n).then(|| self.basic_terms.row(c - self.n));
        let mut stored = Vec::new();
        self.inverse.derive_row(r, slack_row, &mut stored);
        for (&j, &f) in self.inverse.tight().iter().zip(&stored) {
            row[j] = f;
        }
        if self.basis[r] >= self.n {
            row[self.basis[r] - self.n] = -1.0;
        }
        row
    }

    /// The row multipliers of the current basis (`y ≥ 0` for inequality rows, in the sense
    /// the row was given: an at-most row's multiplier applies to the row negated).
    pub fn duals(&self) -> Vec<f64> {
        (0..self.m).map(|i| self.d[self.n + i]).collect()
    }
}

#[cfg(test)]
mod tests;

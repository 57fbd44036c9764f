//! One pivot of the dual simplex: the leaving row by dual steepest edge, the entering column
//! by the Harris ratio test, and the update of the basis, its inverse, the basic values, the
//! reduced costs and the weights.

use super::{kernels, Lp, DUAL_TOL, PIVOT_TOL, PRIMAL_TOL};

impl Lp {
    /// Lists the rows whose basic variable lies outside its bounds, in order, for
    /// [`Lp::leaving_row`]: a full pass, after the basic values were set anew.
    pub(super) fn find_infeasible(&mut self) {
        self.infeasible.clear();
        for (i, (&v, &(lower, upper))) in self.beta.iter().zip(&self.basic_bounds).enumerate() {
            if (lower - v).max(v - upper) > PRIMAL_TOL {
                self.infeasible.push(i);
            }
        }
    }

    /// The row whose basic variable violates its bound the most per steepest-edge weight,
    /// among the rows [`Lp::find_infeasible`] or the last pivot listed (all of them).
    pub(super) fn leaving_row(&self) -> Option<usize> {
        let mut leave = None;
        let mut worst = 0.0;
        for &i in &self.infeasible {
            let (v, (lower, upper), norm) = (self.beta[i], self.basic_bounds[i], self.norms[i]);
            let viol = (lower - v).max(v - upper);
            if viol > PRIMAL_TOL && viol * viol > worst * norm {
                worst = viol * viol / norm;
                leave = Some(i);
            }
        }
        leave
    }

    /// The entering column for the pivot row in `pivot_row`, by the Harris ratio test (the
    /// largest pivot among the nearly tightest ratios); `None` if no column can enter, which
    /// proves the program infeasible.
    pub(super) fn entering_column(&mut self, to_lower: bool) -> Option<usize> {
        self.eligible.clear();
        let mut bound = f64::INFINITY;
        for &c in &self.nonbasic {
            let alpha = self.pivot_row[c];
            if alpha.abs() <= PIVOT_TOL || self.lower[c] == self.upper[c] {
                continue;
            }
            let up = self.at_upper[c];
            // The column must move the leaving value toward its bound.
            let ok = if to_lower {
                (alpha < -PIVOT_TOL && !up) || (alpha > PIVOT_TOL && up)
            } else {
                (alpha > PIVOT_TOL && !up) || (alpha < -PIVOT_TOL && up)
            };
            if ok {
                bound = bound.min((self.d[c].abs() + DUAL_TOL) / alpha.abs());
                self.eligible.push((c, alpha.abs()));
            }
        }
        // The largest pivot; of equal ones, the first column.
        let mut enter: Option<usize> = None;
        let mut best = 0.0;
        for &(c, alpha) in &self.eligible {
            if self.d[c].abs() / alpha <= bound && (alpha > best || (alpha == best && enter.is_some_and(|e| c < e))) {
                best = alpha;
                enter = Some(c);
            }
        }
        enter
    }

    /// Column `q` enters in row `r` (its tableau row and column computed); the leaving
    /// variable becomes nonbasic at `target`. Returns the change of the objective.
    pub(super) fn pivot(&mut self, r: usize, q: usize, target: f64, to_lower: bool) -> f64 {
        let (m, n) = (self.m, self.n);
        let leaving = self.basis[r];
        let alpha = self.pivot_column[r];
        let delta = (self.beta[r] - target) / alpha;
        let gain = delta * self.d[q];
        let entering_value = self.nonbasic_value(q) + delta;
        // The basic values move, and the rows left outside their bounds are listed in the same
        // pass (without branches: an index is written, and counted only if its row is).
        self.infeasible.resize(m, 0);
        let mut count = 0;
        let rows = self.beta.iter_mut().zip(&self.pivot_column).zip(&self.basic_bounds).enumerate();
        for (i, ((beta, &t), &(lower, upper))) in rows {
            let v = *beta - t * delta;
            *beta = v;
            self.infeasible[count] = i;
            count += usize::from((lower - v).max(v - upper) > PRIMAL_TOL);
        }
        self.infeasible.truncate(count);
        // Row `r` holds the entering variable from now on.
        self.beta[r] = entering_value;
        let at = self.infeasible.partition_point(|&i| i < r);
        let listed = self.infeasible.get(at) == Some(&r);
        let outside = (self.lower[q] - entering_value).max(entering_value - self.upper[q]) > PRIMAL_TOL;
        if listed && !outside {
            self.infeasible.remove(at);
        } else if outside && !listed {
            self.infeasible.insert(at, r);
        }
        // A leaving slack's row turns tight: its unit column is stored from now on. Row r of
        // B⁻¹ is then scaled and eliminated from the other rows, their norms in the pass (a
        // row whose basic variable is a slack counts its unit entry).
        //
        // Only the structurals' rows are kept (a basic slack's row is a combination of them,
        // which follows them through the pivot): a leaving slack's row, in `derived` from
        // `compute_row`, is kept from now on, with its exact norm; an entering slack's row is
        // no longer kept once its norm is taken.
        if leaving >= n {
            self.inverse.keep_row(r, &self.derived);
            self.norms[r] = (kernels::squared_norm(&self.derived) + 1.0).max(1e-12);
            self.inverse.store_unit_column(leaving - n, r);
        }
        let basis = &self.basis;
        let slack = |i: usize| i != r && basis[i] >= n;
        self.inverse.eliminate(r, alpha, (&self.pivot_column, slack), &mut self.norms, &mut self.dots);
        // A basic slack's row `ρ_i` becomes `ρ_i - (α_i/α) ρ_r`: its squared norm is
        // `w_i - 2 (α_i/α) ρ_i·ρ_r + (α_i/α)² w_r`, with `ρ_i·ρ_r` the combination `A_jS` of
        // the structurals' products with `ρ_r` (their unit entries never meet), and at least
        // 1 for its unit entry.
        let w_r = self.dots[r];
        // Row r holds a slack only when it is leaving: then no slack row names it. With every
        // row kept there is no derived row to update.
        let derived_rows = if self.inverse.keeps_all() { 0 } else { m };
        for i in 0..derived_rows {
            let c = self.basis[i];
            let t = self.pivot_column[i];
            if i == r || c < n || t == 0.0 || self.inverse.kept(i) {
                continue;
            }
            let terms = self.basic_terms.row(c - n);
            let product: f64 = terms.iter().map(|t| t.coef * self.dots[t.basis_row as usize]).sum();
            let g = t / alpha;
            self.norms[i] = (self.norms[i] - 2.0 * g * product + g * g * w_r).max(1.0);
        }
        // An entering slack's column is the unit vector e_r again (up to rounding): no
        // longer stored, and counted in row r's norm as its unit entry.
        if q >= n {
            self.inverse.drop_column(q - n);
            self.norms[r] = (kernels::squared_norm(self.inverse.row(r)) + 1.0).max(1e-12);
            self.inverse.forget_row(r);
        }
        let inv = 1.0 / alpha;
        // Reduced costs: d -= (d_q / α) · (row r of the tableau).
        let f = self.d[q] * inv;
        if f != 0.0 {
            for &c in &self.nonbasic {
                let t = self.pivot_row[c];
                if t != 0.0 {
                    self.d[c] -= f * t;
                }
            }
        }
        self.d[q] = 0.0;
        self.d[leaving] = -f;
        self.basis[r] = q;
        self.row_of[q] = r;
        self.row_of[leaving] = usize::MAX;
        self.basic_bounds[r] = (self.lower[q], self.upper[q]);
        if !self.inverse.keeps_all() {
            if leaving < n {
                self.basic_terms.leave(leaving);
            }
            if q < n {
                self.basic_terms.enter(q, r, &self.rows);
            }
        }
        let at = self.nonbasic_at[q];
        self.nonbasic[at] = leaving;
        self.nonbasic_at[leaving] = at;
        self.nonbasic_at[q] = usize::MAX;
        self.at_upper[leaving] = !to_lower;
        self.since_refactor += 1;
        self.pivots += 1;
        gain
    }
}

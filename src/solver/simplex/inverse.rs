//! The inverse of a simplex basis of `[A | -I]`, kept only by its columns that are not unit
//! vectors.
//!
//! When the slack of row `j` is basic, in basis row `p`, column `j` of `B⁻¹` is exactly `-e_p`
//! (because `B e_p = -e_j`). So only the rows whose slack is nonbasic — the tight rows, as many
//! as there are basic structural columns — have columns worth storing. On a domination board
//! that is about two rows in five (knights 18x18: some 160 of 411), and every pivot, copy and
//! rebuild works on those columns alone:
//!
//! - row `i` of `B⁻¹` is its stored part ([`Inverse::row`], one entry per tight row, in the
//!   order of [`Inverse::tight`]) plus, when the basic variable of row `i` is the slack of row
//!   `j`, the entry `-1` in column `j`;
//! - a rebuild inverts only the `k × k` block of the tight rows and the basic structurals,
//!   `A_TS`: the structurals' rows of `B⁻¹` are `A_TS⁻¹`, a basic slack's row `j` is
//!   `A_jS · A_TS⁻¹` (plus its unit entry).
//!
//! Only the structurals' `k` rows are kept, so the inverse is `k × k`, not `m × k`. A basic
//! slack's row stays that combination of them through every pivot, and is derived when it is
//! needed ([`Inverse::derive_row`]: the pivot row, a Farkas ray) from row `j`'s few terms.
//! Its entry of a tableau column is derived the same way, and its squared norm (its dual
//! steepest-edge weight) is updated from the kept rows' products with the pivot row, which
//! the pivot's pass over them computes ([`Inverse::eliminate`]). Knight domination 18x18,
//! one thread, 10 s: 423,510 pivots instead of 312,450 when every row was kept, the same
//! pivots per relaxation.

use super::basic_terms::BasicTerm;
use super::kernels;

/// `B⁻¹`, stored by the columns of the tight rows and the rows of the basic structurals.
#[derive(Clone, Debug)]
pub(super) struct Inverse {
    m: usize,
    /// Entries per stored row: the most tight rows there can be at once.
    stride: usize,
    /// Row-major, `m × stride`; the first `tight.len()` entries of each row are used.
    data: Vec<f64>,
    /// The rows whose slack is nonbasic, in the order of the stored columns.
    tight: Vec<usize>,
    /// The stored column of each row, `usize::MAX` for a row whose slack is basic.
    position: Vec<usize>,
    /// Whether row `i` of `B⁻¹` is kept in `data`: the rows of basic structurals are; a basic
    /// slack's row is a combination of them ([`Inverse::derive_row`]) and is not, unless
    /// `keep_all`.
    kept: Vec<bool>,
    /// The kept rows, in no particular order, and where each is in that list (`usize::MAX`
    /// for a row not kept).
    kept_rows: Vec<usize>,
    kept_at: Vec<usize>,
    /// Scratch: the pivot row, in an elimination.
    scratch: Vec<f64>,
    /// Every row kept: for rows so long (a queen's) that deriving a slack's row would cost
    /// more than keeping it.
    keep_all: bool,
}

impl Inverse {
    /// The inverse of the slack basis (`B = -I`) of `m` rows over `n` structural columns:
    /// nothing stored.
    pub(super) fn new(m: usize, n: usize, keep_all: bool) -> Inverse {
        // At most `min(m, n)` structurals are basic; one more while a pivot trades two slacks.
        let stride = m.min(n + 1).max(1);
        Inverse {
            m,
            stride,
            data: vec![0.0; m * stride],
            tight: Vec::new(),
            position: vec![usize::MAX; m],
            kept: vec![false; m],
            kept_rows: Vec::new(),
            kept_at: vec![usize::MAX; m],
            scratch: Vec::new(),
            keep_all,
        }
    }

    /// Marks row `i` kept or not, in the flags and in the list.
    fn set_kept(&mut self, i: usize, kept: bool) {
        if self.kept[i] == kept {
            return;
        }
        self.kept[i] = kept;
        if kept {
            self.kept_at[i] = self.kept_rows.len();
            self.kept_rows.push(i);
        } else {
            let at = self.kept_at[i];
            self.kept_rows.swap_remove(at);
            if let Some(&moved) = self.kept_rows.get(at) {
                self.kept_at[moved] = at;
            }
            self.kept_at[i] = usize::MAX;
        }
    }

    /// The kept rows, in no particular order.
    pub(super) fn kept_rows(&self) -> &[usize] {
        &self.kept_rows
    }

    /// The rows whose slack is nonbasic, in the order of the stored entries of a row.
    pub(super) fn tight(&self) -> &[usize] {
        &self.tight
    }

    /// The stored entries of row `i` of `B⁻¹`, one per [`Inverse::tight`] row; `i` must be
    /// [`Inverse::kept`].
    pub(super) fn row(&self, i: usize) -> &[f64] {
        debug_assert!(self.kept[i]);
        &self.data[i * self.stride..i * self.stride + self.tight.len()]
    }

    /// Whether row `i` is kept (its basic variable is a structural, or it is being pivoted).
    pub(super) fn kept(&self, i: usize) -> bool {
        self.kept[i]
    }

    /// Whether every row is kept (none is derived).
    pub(super) fn keeps_all(&self) -> bool {
        self.keep_all
    }

    /// The stored part of row `i` of `B⁻¹` into `out` (resized to the tight rows): the kept
    /// row, or for a basic slack of row `j` the combination `A_jS · A_TS⁻¹` of the kept rows,
    /// `slack_row` being row `j`'s terms on basic structurals.
    pub(super) fn derive_row(&self, i: usize, slack_row: Option<&[BasicTerm]>, out: &mut Vec<f64>) {
        let k = self.tight.len();
        out.clear();
        if self.kept[i] {
            out.extend_from_slice(self.row(i));
            return;
        }
        out.resize(k, 0.0);
        for t in slack_row.expect("a row that is not kept is a basic slack's") {
            kernels::subtract_multiple(out, self.row(t.basis_row as usize), -t.coef);
        }
    }

    /// Keeps row `i` from now on, with the entries `values` (its slack leaves the basis).
    pub(super) fn keep_row(&mut self, i: usize, values: &[f64]) {
        self.data[i * self.stride..i * self.stride + values.len()].copy_from_slice(values);
        self.set_kept(i, true);
    }

    /// Stops keeping row `i` (a slack entered the basis in it), unless every row is kept.
    pub(super) fn forget_row(&mut self, i: usize) {
        self.set_kept(i, self.keep_all);
    }

    /// Where row `j`'s column is stored, `None` when its slack is basic (the column is then
    /// `-e_p`, `p` the basis row of the slack).
    pub(super) fn position(&self, j: usize) -> Option<usize> {
        Some(self.position[j]).filter(|&q| q != usize::MAX)
    }

    /// Entry `q` of the stored part of row `i`.
    pub(super) fn entry(&self, i: usize, q: usize) -> f64 {
        self.data[i * self.stride + q]
    }

    /// Back to the slack basis.
    pub(super) fn reset(&mut self) {
        for &j in &self.tight {
            self.position[j] = usize::MAX;
        }
        self.tight.clear();
    }

    /// Rebuilds the inverse of `basis` (column `c < n` is structural `c` with coefficients
    /// `columns[c]` as `(row, a)`; column `n + j` is the slack of row `j`, whose terms are
    /// `rows[j]` as `(column, a)`). `false` when the basis is singular; the inverse is then
    /// unusable until rebuilt.
    pub(super) fn rebuild(
        &mut self,
        basis: &[usize],
        n: usize,
        rows: &[Vec<(usize, f64)>],
        columns: &[Vec<(usize, f64)>],
    ) -> bool {
        self.reset();
        let mut slack_basic = vec![false; self.m];
        // The basis rows of the structurals, in order, and each one's index among them.
        let mut structural_rows = Vec::new();
        let mut index_of = vec![usize::MAX; n];
        for (i, &c) in basis.iter().enumerate() {
            if c < n {
                index_of[c] = structural_rows.len();
                structural_rows.push(i);
            } else {
                slack_basic[c - n] = true;
            }
        }
        for j in (0..self.m).filter(|&j| !slack_basic[j]) {
            self.position[j] = self.tight.len();
            self.tight.push(j);
        }
        let k = self.tight.len();
        if k != structural_rows.len() || k > self.stride {
            return false;
        }
        // A_TS: row a is tight row a, column b the b-th basic structural.
        let mut block = vec![0.0; k * k];
        for (b, &i) in structural_rows.iter().enumerate() {
            for &(j, a) in &columns[basis[i]] {
                if let Some(q) = self.position(j) {
                    block[q * k + b] = a;
                }
            }
        }
        let Some(block_inverse) = invert(&mut block, k) else { return false };
        // Rows of the structurals: A_TS⁻¹. The basic slacks' rows are derived when asked for.
        for i in 0..self.m {
            self.set_kept(i, false);
        }
        for (b, &i) in structural_rows.iter().enumerate() {
            self.data[i * self.stride..i * self.stride + k].copy_from_slice(&block_inverse[b * k..(b + 1) * k]);
            self.set_kept(i, true);
        }
        if self.keep_all {
            // Rows of the basic slacks: A_jS · A_TS⁻¹.
            let stride = self.stride;
            for (i, &c) in basis.iter().enumerate() {
                if c >= n {
                    let out = &mut self.data[i * stride..i * stride + k];
                    out.iter_mut().for_each(|v| *v = 0.0);
                    for &(col, a) in &rows[c - n] {
                        let b = index_of[col];
                        if b != usize::MAX {
                            kernels::subtract_multiple(out, &block_inverse[b * k..(b + 1) * k], -a);
                        }
                    }
                    self.set_kept(i, true);
                }
            }
        }
        true
    }

    /// Row `j`'s slack leaves the basis from basis row `r`: its column, `-e_r`, is stored from
    /// now on.
    pub(super) fn store_unit_column(&mut self, j: usize, r: usize) {
        let q = self.tight.len();
        debug_assert!(q < self.stride && self.position[j] == usize::MAX);
        for &i in &self.kept_rows {
            self.data[i * self.stride + q] = 0.0;
        }
        self.data[r * self.stride + q] = -1.0;
        self.position[j] = q;
        self.tight.push(j);
    }

    /// Row `j`'s slack has entered the basis: its column is a unit vector again and is no
    /// longer stored (the last stored column takes its place).
    pub(super) fn drop_column(&mut self, j: usize) {
        let q = self.position[j];
        debug_assert!(q != usize::MAX);
        let last = self.tight.len() - 1;
        if q != last {
            for &i in &self.kept_rows {
                self.data[i * self.stride + q] = self.data[i * self.stride + last];
            }
            self.position[self.tight[last]] = q;
        }
        self.tight.swap_remove(q);
        self.position[j] = usize::MAX;
    }

    /// The elimination of a pivot on row `r` (kept): row `r` divided by `alpha`, then
    /// `column[i]` times it subtracted from every other kept row `i`. `norms[i]` becomes the
    /// squared norm of each kept row changed, plus 1 where `slack(i)` (a basic slack's row,
    /// kept when every row is, has a unit entry), and `norms[r]` that of row `r`. `dots[i]`,
    /// for every kept row, becomes its product with row `r` before the pivot (`norms[r]` for
    /// `r` itself), from which the caller updates the norms of the rows not kept
    /// (combinations of kept rows).
    #[inline]
    pub(super) fn eliminate(
        &mut self,
        r: usize,
        alpha: f64,
        (column, slack): (&[f64], impl Fn(usize) -> bool),
        norms: &mut [f64],
        dots: &mut [f64],
    ) {
        let (stride, k) = (self.stride, self.tight.len());
        dots[r] = norms[r];
        let inv = 1.0 / alpha;
        let pivot_row = &mut self.data[r * stride..r * stride + k];
        pivot_row.iter_mut().for_each(|v| *v *= inv);
        norms[r] = kernels::squared_norm(pivot_row).max(1e-12);
        self.scratch.clear();
        self.scratch.extend_from_slice(pivot_row);
        let pivot_row = &self.scratch[..];
        for &i in &self.kept_rows {
            if i == r {
                continue;
            }
            let other = &mut self.data[i * stride..i * stride + k];
            let f = column[i];
            if self.keep_all {
                // No products needed: every row is updated itself.
                if f != 0.0 {
                    let norm = kernels::subtract_multiple_norm(other, pivot_row, f);
                    norms[i] = (norm + if slack(i) { 1.0 } else { 0.0 }).max(1e-12);
                }
            } else if f == 0.0 {
                // Products with the scaled row, scaled back.
                dots[i] = kernels::dot(other, pivot_row) * alpha;
            } else {
                let (dot, norm) = kernels::dot_subtract_multiple_norm(other, pivot_row, f);
                dots[i] = dot * alpha;
                norms[i] = norm.max(1e-12);
            }
        }
    }

    /// Takes `other`'s inverse, reusing this one's memory (both of the same program).
    pub(super) fn copy_from(&mut self, other: &Inverse) {
        debug_assert!(self.m == other.m && self.stride == other.stride);
        let k = other.tight.len();
        let rows = self.data.chunks_exact_mut(self.stride).zip(other.data.chunks_exact(other.stride));
        for ((to, from), _) in rows.zip(&other.kept).filter(|t| *t.1) {
            to[..k].copy_from_slice(&from[..k]);
        }
        self.tight.clone_from(&other.tight);
        self.position.copy_from_slice(&other.position);
        self.kept.copy_from_slice(&other.kept);
        self.kept_rows.clone_from(&other.kept_rows);
        self.kept_at.copy_from_slice(&other.kept_at);
    }
}

/// Inverts the `m × m` matrix `a` (destroyed) by Gauss-Jordan elimination with partial
/// pivoting; `None` if it is singular.
fn invert(a: &mut [f64], m: usize) -> Option<Vec<f64>> {
    let mut inv = vec![0.0; m * m];
    for i in 0..m {
        inv[i * m + i] = 1.0;
    }
    for col in 0..m {
        let p = (col..m).max_by(|&x, &y| a[x * m + col].abs().total_cmp(&a[y * m + col].abs()))?;
        if a[p * m + col].abs() < 1e-11 {
            return None;
        }
        if p != col {
            for k in 0..m {
                a.swap(p * m + k, col * m + k);
                inv.swap(p * m + k, col * m + k);
            }
        }
        let f = 1.0 / a[col * m + col];
        for k in 0..m {
            a[col * m + k] *= f;
            inv[col * m + k] *= f;
        }
        for i in 0..m {
            let g = a[i * m + col];
            if i != col && g != 0.0 {
                let (pivot, target) = pivot_and_target(a, m, col, i);
                kernels::subtract_multiple(target, pivot, g);
                let (pivot, target) = pivot_and_target(&mut inv, m, col, i);
                kernels::subtract_multiple(target, pivot, g);
            }
        }
    }
    Some(inv)
}

/// Rows `pivot` and `target` (different) of the row-major matrix `a` of rows of `m` entries,
/// the first to read and the second to change.
fn pivot_and_target(a: &mut [f64], m: usize, pivot: usize, target: usize) -> (&[f64], &mut [f64]) {
    if target < pivot {
        let (top, bottom) = a.split_at_mut(pivot * m);
        (&bottom[..m], &mut top[target * m..(target + 1) * m])
    } else {
        let (top, bottom) = a.split_at_mut(target * m);
        (&top[pivot * m..(pivot + 1) * m], &mut bottom[..m])
    }
}

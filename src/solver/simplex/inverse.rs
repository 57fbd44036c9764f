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

use super::kernels;

/// `B⁻¹`, stored by the columns of the tight rows.
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
}

impl Inverse {
    /// The inverse of the slack basis (`B = -I`) of `m` rows over `n` structural columns:
    /// nothing stored.
    pub(super) fn new(m: usize, n: usize) -> Inverse {
        // At most `min(m, n)` structurals are basic; one more while a pivot trades two slacks.
        let stride = m.min(n + 1).max(1);
        Inverse { m, stride, data: vec![0.0; m * stride], tight: Vec::new(), position: vec![usize::MAX; m] }
    }

    /// The rows whose slack is nonbasic, in the order of the stored entries of a row.
    pub(super) fn tight(&self) -> &[usize] {
        &self.tight
    }

    /// The stored entries of row `i` of `B⁻¹`, one per [`Inverse::tight`] row.
    pub(super) fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.stride..i * self.stride + self.tight.len()]
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
        // Rows of the structurals: A_TS⁻¹.
        for (b, &i) in structural_rows.iter().enumerate() {
            self.data[i * self.stride..i * self.stride + k].copy_from_slice(&block_inverse[b * k..(b + 1) * k]);
        }
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
            }
        }
        true
    }

    /// Row `j`'s slack leaves the basis from basis row `r`: its column, `-e_r`, is stored from
    /// now on.
    pub(super) fn store_unit_column(&mut self, j: usize, r: usize) {
        let q = self.tight.len();
        debug_assert!(q < self.stride && self.position[j] == usize::MAX);
        for i in 0..self.m {
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
            for i in 0..self.m {
                self.data[i * self.stride + q] = self.data[i * self.stride + last];
            }
            self.position[self.tight[last]] = q;
        }
        self.tight.swap_remove(q);
        self.position[j] = usize::MAX;
    }

    /// The elimination of a pivot on row `r`: row `r` divided by `alpha`, then `column[i]`
    /// times it subtracted from every other row `i`. `norms[i]` becomes the squared norm of
    /// the stored part of row `i` plus `unit(i)` (1 for a row with a unit entry), for every
    /// row changed.
    pub(super) fn eliminate(
        &mut self,
        r: usize,
        alpha: f64,
        column: &[f64],
        norms: &mut [f64],
        unit: impl Fn(usize) -> f64,
    ) {
        let (stride, k) = (self.stride, self.tight.len());
        let (before, rest) = self.data.split_at_mut(r * stride);
        let (pivot_row, after) = rest.split_at_mut(stride);
        let pivot_row = &mut pivot_row[..k];
        let inv = 1.0 / alpha;
        pivot_row.iter_mut().for_each(|v| *v *= inv);
        norms[r] = (kernels::squared_norm(pivot_row) + unit(r)).max(1e-12);
        for (x, other) in before.chunks_exact_mut(stride).chain(after.chunks_exact_mut(stride)).enumerate() {
            let i = if x < r { x } else { x + 1 };
            let f = column[i];
            if f != 0.0 {
                norms[i] = (kernels::subtract_multiple_norm(&mut other[..k], pivot_row, f) + unit(i)).max(1e-12);
            }
        }
    }

    /// Takes `other`'s inverse, reusing this one's memory (both of the same program).
    pub(super) fn copy_from(&mut self, other: &Inverse) {
        debug_assert!(self.m == other.m && self.stride == other.stride);
        let k = other.tight.len();
        for (to, from) in self.data.chunks_exact_mut(self.stride).zip(other.data.chunks_exact(other.stride)) {
            to[..k].copy_from_slice(&from[..k]);
        }
        self.tight.clone_from(&other.tight);
        self.position.copy_from_slice(&other.position);
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

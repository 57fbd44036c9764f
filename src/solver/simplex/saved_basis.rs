//! A basis saved as one bit per column, to take up again later: a node that waits in a queue
//! keeps the basis its relaxation ended at, and the thread that takes it rebuilds `B⁻¹` from
//! that basis instead of pivoting to it from whatever basis it has.

use super::Lp;

/// Which columns (structurals, then slacks) were basic, a bit each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedBasis {
    width: usize,
    bits: Box<[u64]>,
}

impl Lp {
    /// The current basis, to take up again with [`Lp::take_basis`].
    pub fn saved_basis(&self) -> SavedBasis {
        let width = self.width();
        let mut bits = vec![0u64; width.div_ceil(64)].into_boxed_slice();
        for &c in &self.basis {
            bits[c / 64] |= 1 << (c % 64);
        }
        SavedBasis { width, bits }
    }

    /// Takes up `saved` (saved from a program with the same rows, at any bounds) and rebuilds
    /// `B⁻¹`, the basic values and the reduced costs from it; each nonbasic column goes to
    /// the bound its reduced cost asks for. `false`, with nothing changed, when `saved` is not
    /// a basis of this program (another count of columns or of basic ones). A basis that
    /// rounding finds singular gives way to the slack basis, as in any rebuild.
    pub fn take_basis(&mut self, saved: &SavedBasis) -> bool {
        let width = self.width();
        let basic = |c: usize| saved.bits[c / 64] >> (c % 64) & 1 == 1;
        if saved.width != width || saved.bits.iter().map(|word| word.count_ones() as usize).sum::<usize>() != self.m {
            return false;
        }
        self.basis.clear();
        self.nonbasic.clear();
        for c in 0..width {
            if basic(c) {
                self.row_of[c] = self.basis.len();
                self.nonbasic_at[c] = usize::MAX;
                self.basis.push(c);
            } else {
                self.row_of[c] = usize::MAX;
                self.nonbasic_at[c] = self.nonbasic.len();
                self.nonbasic.push(c);
            }
        }
        self.refactor();
        true
    }
}

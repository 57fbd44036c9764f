//! Each row's terms on the basic structural columns, by the basis rows those columns sit in.
//!
//! A basic slack's row of `B⁻¹`, its entry of a tableau column and its steepest-edge product
//! are combinations over its row's terms of the basic structurals' values ([`super::inverse`]).
//! The nonbasic terms add nothing, and on a domination board about half of a row's terms are
//! nonbasic; so each row keeps its basic terms apart, in the row's own order (the sums come
//! out the same to the last bit as over the whole row), each with the basis row to read. A
//! pivot moves one structural in or out, which touches the few rows of its column.

/// One term of a row on a basic structural column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct BasicTerm {
    /// The term's index in its row.
    index: u32,
    /// The basis row of the term's column.
    pub basis_row: u32,
    /// The coefficient.
    pub coef: f64,
}

/// The basic terms of every row.
#[derive(Clone, Debug)]
pub(super) struct BasicTerms {
    /// Per structural column, its rows and its index in each: `(row, index)`.
    slots: Vec<Vec<(usize, u32)>>,
    /// Per row, its terms on basic structurals, in the row's order.
    terms: Vec<Vec<BasicTerm>>,
}

impl BasicTerms {
    /// No basic structural yet, for `rows` (each `(column, coefficient)`) over `n` columns.
    pub(super) fn new(rows: &[Vec<(usize, f64)>], n: usize) -> BasicTerms {
        let mut slots = vec![Vec::new(); n];
        for (j, row) in rows.iter().enumerate() {
            for (index, &(c, _)) in row.iter().enumerate() {
                slots[c].push((j, index as u32));
            }
        }
        BasicTerms { slots, terms: vec![Vec::new(); rows.len()] }
    }

    /// The basic terms of row `j`.
    pub(super) fn row(&self, j: usize) -> &[BasicTerm] {
        &self.terms[j]
    }

    /// The terms of `basis` (column `c < n` is structural `c`).
    pub(super) fn rebuild(&mut self, basis: &[usize], n: usize, rows: &[Vec<(usize, f64)>]) {
        self.terms.iter_mut().for_each(Vec::clear);
        for (r, &c) in basis.iter().enumerate().filter(|t| *t.1 < n) {
            for &(j, index) in &self.slots[c] {
                let coef = rows[j][index as usize].1;
                self.terms[j].push(BasicTerm { index, basis_row: r as u32, coef });
            }
        }
        self.terms.iter_mut().for_each(|row| row.sort_unstable_by_key(|t| t.index));
    }

    /// Structural `c` enters the basis in basis row `r`.
    pub(super) fn enter(&mut self, c: usize, r: usize, rows: &[Vec<(usize, f64)>]) {
        for &(j, index) in &self.slots[c] {
            let row = &mut self.terms[j];
            let at = row.partition_point(|t| t.index < index);
            row.insert(at, BasicTerm { index, basis_row: r as u32, coef: rows[j][index as usize].1 });
        }
    }

    /// Structural `c` leaves the basis.
    pub(super) fn leave(&mut self, c: usize) {
        for &(j, index) in &self.slots[c] {
            let row = &mut self.terms[j];
            if let Ok(at) = row.binary_search_by_key(&index, |t| t.index) {
                row.remove(at);
            }
        }
    }

    /// Takes `other`'s terms (of the same rows), reusing this one's memory.
    pub(super) fn copy_from(&mut self, other: &BasicTerms) {
        for (to, from) in self.terms.iter_mut().zip(&other.terms) {
            to.clone_from(from);
        }
    }
}

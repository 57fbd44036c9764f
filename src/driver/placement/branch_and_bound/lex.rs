//! Lexicographic reduction in the order of the branching decisions (van Doornmalen and
//! Hojny's unified framework for symmetry handling, 2024).
//!
//! At a node whose branching decisions on the path from the root, in order, are
//! `v_1 = a_1, …, v_k = a_k`, every symmetry `σ` of the board asks
//! `(x_{v_1}, …, x_{v_k}) ≥lex (x_{σ(v_1)}, …, x_{σ(v_k)})`. The order grows with the path, so
//! of every family of symmetric placements one stays in the tree, whatever the branching
//! chose. Orbital fixing is the case where the earlier positions are equal because `σ` maps
//! the decisions onto themselves; the reduction also acts where no symmetry of the board keeps
//! the decisions in place, which is where the large trees of knight domination spend their
//! nodes: once their images are placed, a later decision `x_v = 0` empties `σ(v)` as well.
//!
//! The order is the path as the tree records it, the squares that orbital fixing emptied
//! included: emptying `o = h(c)` after the child "a piece on `c`" is a branching on `o` whose
//! other child lexicographic reduction closes itself (`h` keeps the earlier decisions in
//! place, and maps `x_c = 0` against `x_o = 1`), so both reductions act on one tree with one
//! order. The cubes of a split carry their paths, so a cube is reduced in the order of the
//! tree above it.

use super::problem::FREE;

/// What the constraints say of a node.
#[derive(Debug, PartialEq)]
pub(super) enum Verdict {
    /// Every constraint can still hold, and none forces a value.
    Holds,
    /// Some constraint cannot hold: no placement of the node is kept.
    Violated,
    /// These values are forced (each to 0).
    Fix(Vec<usize>),
}

/// The constraints of the maps `perms` over the decisions `order` under the assignment
/// `value` (every decision assigned).
pub(super) fn propagate(order: &[(usize, bool)], perms: &[Vec<usize>], value: &[i8]) -> Verdict {
    let mut fixes = Vec::new();
    for perm in perms {
        match scan(order, perm, value) {
            Scan::Violated => return Verdict::Violated,
            Scan::Fix(w) => fixes.push(w),
            Scan::Open => {}
        }
    }
    if fixes.is_empty() {
        Verdict::Holds
    } else {
        Verdict::Fix(fixes)
    }
}

enum Scan {
    Violated,
    /// The image must be 0.
    Fix(usize),
    /// Satisfied, or not decided yet.
    Open,
}

/// One constraint: the first position that is not equal on both sides decides it.
fn scan(order: &[(usize, bool)], perm: &[usize], value: &[i8]) -> Scan {
    for (i, &(v, _)) in order.iter().enumerate() {
        let w = perm[v];
        let (a, b) = (value[v], value[w]);
        if a == b {
            continue;
        }
        if b != FREE {
            return if a > b { Scan::Open } else { Scan::Violated };
        }
        // `b` is free: with `a = 0` it must be 0; with `a = 1` it must be 0 if equality here
        // leads to a violation further on.
        if a == 0 || violated_after(&order[i + 1..], perm, value) {
            return Scan::Fix(w);
        }
        return Scan::Open;
    }
    Scan::Open
}

/// Whether the constraint is violated on `order` before a strict gain, with every free
/// image whose decision is 0 taken as 0 (what the constraint would force).
fn violated_after(order: &[(usize, bool)], perm: &[usize], value: &[i8]) -> bool {
    for &(v, _) in order {
        let (a, b) = (value[v], value[perm[v]]);
        if a == b || (b == FREE && a == 0) {
            continue;
        }
        return b != FREE && a < b;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_decision_empties_its_image_once_the_earlier_positions_agree() {
        // Variables 0..4; the map swaps 0 with 1 and 2 with 3.
        let perm = vec![vec![1, 0, 3, 2]];
        let order = [(0, true), (2, false)];
        // x1 placed: the first position agrees, so x2 = 0 asks x3 = 0.
        assert_eq!(propagate(&order, &perm, &[1, 1, 0, FREE]), Verdict::Fix(vec![3]));
        // x1 empty: the first position is a strict gain, nothing more is asked.
        assert_eq!(propagate(&order, &perm, &[1, 0, 0, FREE]), Verdict::Holds);
        // x3 placed as well: violated.
        assert_eq!(propagate(&order, &perm, &[1, 1, 0, 1]), Verdict::Violated);
    }

    #[test]
    fn a_placed_decision_with_a_free_image_looks_ahead() {
        let perm = vec![vec![1, 0, 3, 2]];
        let order = [(0, true), (2, false)];
        // x1 free: if it were placed, x2 = 0 against x3 = 1 would violate, so x1 = 0.
        assert_eq!(propagate(&order, &perm, &[1, FREE, 0, 1]), Verdict::Fix(vec![1]));
        assert_eq!(propagate(&order, &perm, &[1, FREE, 0, 0]), Verdict::Holds);
        // Variables 0..6, the map swapping 0/1, 2/3 and 4/5: if x1 were placed, x3 would have
        // to be 0 and then x4 = 0 against x5 = 1 would violate.
        let perm = vec![vec![1, 0, 3, 2, 5, 4]];
        let order = [(0, true), (2, false), (4, false)];
        assert_eq!(propagate(&order, &perm, &[1, FREE, 0, FREE, 0, 1]), Verdict::Fix(vec![1]));
        assert_eq!(propagate(&order, &perm, &[1, FREE, 0, FREE, 0, 0]), Verdict::Holds);
    }
}

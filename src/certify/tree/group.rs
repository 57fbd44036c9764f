//! The board symmetries a search used, acting on the model's variables and on its rows, so
//! that a subtree's proof can be restated for its image under a symmetry.

use std::collections::HashMap;

use crate::certify::CertifyError;
use crate::encodings::linear::{LinearModel, Relation};

/// A row as a key: its terms sorted by variable, and its right-hand side.
pub(super) type RowKey = (Vec<(usize, i64)>, i64);

/// A group of permutations of the variables, element 0 the identity, with each element's
/// action on the model's `>=` rows.
pub(super) struct Group {
    /// Each element as the image of every variable.
    pub perms: Vec<Vec<usize>>,
    /// Each element as the image of every row.
    pub rows: Vec<Vec<usize>>,
    /// `compose[a][b]`: the element that applies `b`, then `a`.
    compose: Vec<Vec<usize>>,
}

impl Group {
    /// The group of `symmetries` (the identity left out) on `model`; an error if one of them
    /// does not map the model's rows onto its rows, or the set is not closed.
    pub fn new(model: &LinearModel, symmetries: &[Vec<usize>]) -> Result<Group, CertifyError> {
        let n = model.variables.len();
        let identity: Vec<usize> = (0..n).collect();
        let mut perms = vec![identity];
        perms.extend(symmetries.iter().filter(|p| p.len() == n && p.iter().all(|&v| v < n)).cloned());
        if perms.len() != symmetries.len() + 1 {
            return Err(internal("a symmetry that is not a permutation of the variables"));
        }
        let rows = ge_rows(model);
        let index: HashMap<&RowKey, usize> = rows.iter().enumerate().map(|(r, key)| (key, r)).collect();
        let mut actions = Vec::with_capacity(perms.len());
        for perm in &perms {
            let mut action = Vec::with_capacity(rows.len());
            for (terms, rhs) in &rows {
                let mut image: Vec<(usize, i64)> = terms.iter().map(|&(v, a)| (perm[v], a)).collect();
                image.sort_unstable();
                let key = (image, *rhs);
                action
                    .push(*index.get(&key).ok_or_else(|| internal("a symmetry that does not map the rows onto rows"))?);
            }
            actions.push(action);
        }
        let position: HashMap<&Vec<usize>, usize> = perms.iter().enumerate().map(|(g, p)| (p, g)).collect();
        let mut compose = vec![vec![0; perms.len()]; perms.len()];
        for (a, pa) in perms.iter().enumerate() {
            for (b, pb) in perms.iter().enumerate() {
                let composed: Vec<usize> = pb.iter().map(|&v| pa[v]).collect();
                compose[a][b] = *position.get(&composed).ok_or_else(|| internal("symmetries that are not a group"))?;
            }
        }
        Ok(Group { perms, rows: actions, compose })
    }

    /// The element that applies `b`, then `a`.
    pub fn compose(&self, a: usize, b: usize) -> usize {
        self.compose[a][b]
    }
}

fn internal(what: &str) -> CertifyError {
    CertifyError::Internal(format!("the search's tree proof: {what}"))
}

/// The model's rows as the search reads them, each `Σ a·x >= b` (an equality as its two
/// halves), in VeriPB's numbering.
pub(super) fn ge_rows(model: &LinearModel) -> Vec<RowKey> {
    let mut rows = Vec::new();
    for constraint in &model.constraints {
        let key = |sign: i64| {
            let mut terms: Vec<(usize, i64)> = constraint.terms.iter().map(|&(a, v)| (v, sign * a)).collect();
            terms.sort_unstable();
            (terms, sign * constraint.rhs)
        };
        match constraint.relation {
            Relation::AtLeast => rows.push(key(1)),
            Relation::AtMost => rows.push(key(-1)),
            Relation::Equal => {
                rows.push(key(1));
                rows.push(key(-1));
            }
        }
    }
    rows
}

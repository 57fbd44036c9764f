//! The board symmetries as permutations of the model's variables, and orbital branching on
//! them (Ostrowski, Linderoth, Rossi and Smriglio, 2011).
//!
//! At a node whose branching decisions are mapped onto themselves by a subgroup `H` of the
//! symmetries, the placements below the node are mapped onto each other by `H`. Once the
//! child "`x_c = 1`" has been searched, every improving placement with a piece on the orbit of
//! `c` under `H` has an image with a piece on `c`, already searched; so the remaining children
//! may set the whole orbit to 0. The group of each node is recomputed from its decisions, so
//! the fixings that only bound arguments justify (reduced costs) never enter it.

use knights_sat_encodings::encode::symmetry::puzzle_symmetries;
use knights_sat_encodings::geometry::Square;
use knights_sat_encodings::puzzle::placement::{Placement, PlacementPuzzle};

/// A group of permutations of the variables (the identity left out).
pub(super) struct Symmetries {
    perms: Vec<Vec<usize>>,
}

impl Symmetries {
    /// The rotations and reflections of the board that map `puzzle` onto itself, acting on
    /// the variables of its linear model (`pieces`: the placement each variable stands for).
    /// Empty if they do not form a group on the variables.
    pub fn of(puzzle: &PlacementPuzzle, n: usize, piece_of: impl Fn(usize) -> Placement) -> Symmetries {
        let area = puzzle.board.area();
        let kinds = &puzzle.kinds;
        let mut var_of = vec![usize::MAX; area * kinds.len()];
        for v in 0..n {
            for (square, kind) in piece_of(v) {
                let k = kinds.iter().position(|r| r.kind == kind).expect("a model variable is of a listed kind");
                var_of[square.index() * kinds.len() + k] = v;
            }
        }
        let mut perms = Vec::new();
        // The exchanges of neighbouring ranks or files that rook puzzles allow generate far
        // more than a handful of maps; only the board's rotations and reflections are used.
        'maps: for symmetry in puzzle_symmetries(puzzle).into_iter().filter(|s| !s.name.starts_with("swap")) {
            let mut perm = vec![usize::MAX; n];
            for (v, image) in perm.iter_mut().enumerate() {
                let placement = piece_of(v);
                let &[(square, kind)] = placement.as_slice() else { continue 'maps };
                let k = kinds.iter().position(|r| r.kind == kind).expect("a model variable is of a listed kind");
                let to: Square = symmetry.map[square.index()];
                *image = var_of[to.index() * kinds.len() + k];
                if *image == usize::MAX {
                    continue 'maps;
                }
            }
            perms.push(perm);
        }
        let group = Symmetries { perms };
        if group.is_closed() {
            group
        } else {
            Symmetries { perms: Vec::new() }
        }
    }

    /// No symmetry at all.
    pub fn of_nothing() -> Symmetries {
        Symmetries { perms: Vec::new() }
    }

    fn is_closed(&self) -> bool {
        let identity = |p: &[usize]| p.iter().enumerate().all(|(i, &v)| i == v);
        self.perms.iter().all(|p| {
            self.perms.iter().all(|q| {
                let composed: Vec<usize> = q.iter().map(|&v| p[v]).collect();
                identity(&composed) || self.perms.contains(&composed)
            })
        })
    }

    /// The members of the group (by index) that map the sets `ones` and `zeros` (membership
    /// flags, lists given for speed) onto themselves.
    pub fn stabiliser(&self, ones: &[usize], zeros: &[usize], is_one: &[bool], is_zero: &[bool]) -> Vec<usize> {
        (0..self.perms.len())
            .filter(|&g| {
                let p = &self.perms[g];
                ones.iter().all(|&v| is_one[p[v]]) && zeros.iter().all(|&v| is_zero[p[v]])
            })
            .collect()
    }

    /// The orbit of `var` under the members `subgroup` (which form a group).
    pub fn orbit(&self, var: usize, subgroup: &[usize]) -> Vec<usize> {
        let mut orbit = vec![var];
        for &g in subgroup {
            let image = self.perms[g][var];
            if !orbit.contains(&image) {
                orbit.push(image);
            }
        }
        orbit
    }

    /// The maps other than the identity, each as the image of every variable.
    pub fn perms(&self) -> &[Vec<usize>] {
        &self.perms
    }

    /// Number of maps other than the identity.
    pub fn len(&self) -> usize {
        self.perms.len()
    }
}

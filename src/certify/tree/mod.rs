//! The certificate of a branch-and-bound search, written from what the search itself used.
//!
//! Every bound the search of [`crate::driver::placement::branch_and_bound`] relies on is a
//! nonnegative combination of rows: the row multipliers of a relaxation, scaled to integers,
//! plus the objective-improving constraint. Written as a VeriPB `pol` step, such a combination
//! is a constraint that, under the decisions of the node where it was used, is false (the node
//! is pruned) or propagates what reduced costs or strong branching fixed there. The tree then
//! closes by reverse unit propagation, from the leaves up:
//!
//! 1. `soli`: the best placement is logged, which adds `objective <= value - 1` (tightened to
//!    `value - step` when every cost is a multiple of `step`, by a division);
//! 2. a depth-first walk of the decision tree: at each node its combinations (`pol`), then its
//!    children that place a piece, then the images of those children under the symmetries the
//!    search used to empty their orbits, then its other children, then the clause "not all of
//!    this node's decisions" by `rup`, after which the children's clauses and the node's
//!    combinations are deleted. A zero-half cut (the halved sum of three rows and some bounds,
//!    `pol … 2 d`) is derived where a combination first uses it;
//! 3. at the root that clause is empty: `conclusion BOUNDS value value`.
//!
//! Orbital fixing is stated by replaying: once the child placing `c` at a node is closed, and
//! a symmetry `σ` maps the node's decisions onto themselves and `c` onto `o`, the walk of that
//! child is written again with every variable, row and cut renamed by `σ`, which closes the
//! child placing `o`. The replay costs proof lines, not search: the proof is about as long as
//! that of a search without symmetries, while the search pays only for one child of each orbit.
//!
//! Nothing here trusts the search: a wrong multiplier, a missing node, a symmetry that is not
//! one or a bound the rows do not imply leaves a `rup` step that VeriPB refuses.

mod group;
mod lines;

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::time::Instant;

use group::Group;
use lines::{Lines, Term};

use super::prove::{measure, ProofFigures};
use super::CertifyError;
use crate::driver::{Decision, TreeProof};
use crate::encodings::linear::LinearModel;

/// A node of the decision tree: its combinations and its children by decision.
#[derive(Default)]
struct Node {
    combinations: Vec<usize>,
    orbits: Vec<usize>,
    children: Vec<(Decision, usize)>,
}

impl Node {
    /// The node reached from `nodes[0]` by `path`, made if missing.
    fn reach(nodes: &mut Vec<Node>, path: &[Decision]) -> usize {
        let mut at = 0;
        for &decision in path {
            at = match nodes[at].children.iter().find(|c| c.0 == decision) {
                Some(&(_, child)) => child,
                None => {
                    nodes.push(Node::default());
                    let child = nodes.len() - 1;
                    nodes[at].children.push((decision, child));
                    child
                }
            };
        }
        at
    }
}

/// Writes the proof that `solution` is optimal for `model` from the search's `tree`.
pub fn prove_tree<W: Write>(
    model: &LinearModel,
    solution: &[bool],
    tree: &TreeProof,
    writer: W,
) -> Result<ProofFigures, CertifyError> {
    let started = Instant::now();
    let (_, value, rows) = measure(model, solution)?;
    if rows != tree.model_rows {
        return Err(CertifyError::Internal(format!(
            "the search numbered {} rows, the model has {rows}",
            tree.model_rows
        )));
    }
    let mut proof = Lines::new(writer, rows)?;
    // Sums in balanced groups whose rows together hold about half the model's variables.
    let terms: usize = model.constraints.iter().map(|c| c.terms.len()).sum();
    let average = terms.div_ceil(model.constraints.len().max(1)).max(1);
    proof.group_sums(model.variables.len() / (2 * average));
    proof.comment(&model.title)?;
    proof.comment(&format!("the solution below has objective value {value}; the proof is the search's tree"))?;
    let improving = proof.solution(solution)?;
    let step = u64::try_from(tree.step).ok().filter(|&s| s >= 1).ok_or_else(|| internal("the cost step"))?;
    let bound = if step > 1 {
        proof.comment(&format!("every cost is a multiple of {step}: a better solution costs {step} less"))?;
        proof.pol(&[Term::Scaled(improving, 1)], step, step)?
    } else {
        improving
    };
    // A tree read from a file may name anything: every variable must be one of the model's.
    let n = model.variables.len();
    let paths = tree.combinations.iter().map(|c| &c.path).chain(tree.orbits.iter().map(|o| &o.path));
    let vars = paths.chain(&tree.leaves).flatten().map(|d| d.0);
    let vars =
        vars.chain(tree.orbits.iter().flat_map(|o| std::iter::once(o.candidate).chain(o.images.iter().copied())));
    let vars = vars.chain(tree.separated.iter().flat_map(|c| c.bounds.iter().map(|b| b.0)));
    if let Some(v) = vars.into_iter().find(|&v| v >= n) {
        return Err(internal(&format!("variable {v} named, but the model has {n}")));
    }
    let group = Group::new(model, &tree.symmetries)?;
    let mut nodes = vec![Node::default()];
    for (index, combination) in tree.combinations.iter().enumerate() {
        let at = Node::reach(&mut nodes, &combination.path);
        nodes[at].combinations.push(index);
    }
    for (index, fixing) in tree.orbits.iter().enumerate() {
        let at = Node::reach(&mut nodes, &fixing.path);
        nodes[at].orbits.push(index);
    }
    for leaf in &tree.leaves {
        Node::reach(&mut nodes, leaf);
    }
    proof.comment("the tree, depth first: each node's bounds, its children, then its decisions refuted")?;
    let mut walk = Walk {
        tree,
        group: &group,
        nodes: &nodes,
        rows,
        cuts: HashMap::new(),
        bound,
        proof: &mut proof,
        path: Vec::new(),
        stack: Vec::new(),
        steps: 0,
    };
    let empty = walk.close(0, 0)?;
    let steps = walk.steps;
    let mut writer = proof.conclude(value, empty)?;
    writer.flush()?;
    Ok(ProofFigures {
        opb_value: value,
        rows,
        clauses: 0,
        variables: model.variables.len() as u32,
        lemmas: steps,
        solve_seconds: 0.0,
        seconds: started.elapsed().as_secs_f64(),
        from_search: true,
        cores: None,
    })
}

fn internal(what: &str) -> CertifyError {
    CertifyError::Internal(format!("the search's tree proof: {what}"))
}

/// The literals that refute `path`'s decisions: (variable, negated), the negation of a
/// piece placed, or of a square emptied.
fn negated(path: &[Decision]) -> impl Iterator<Item = (usize, bool)> + '_ {
    path.iter().copied()
}

/// The depth-first walk that closes the tree, under a symmetry of the model (element 0, the
/// identity, except in a replay).
struct Walk<'a, W: Write> {
    tree: &'a TreeProof,
    group: &'a Group,
    nodes: &'a [Node],
    /// Rows of the model.
    rows: usize,
    /// The cuts derived so far, by symmetry and index in `tree.separated`.
    cuts: HashMap<(usize, usize), u64>,
    bound: u64,
    proof: &'a mut Lines<W>,
    /// The decisions down to the node being closed, unrenamed.
    path: Vec<Decision>,
    /// The nodes on the path.
    stack: Vec<usize>,
    steps: usize,
}

impl<W: Write> Walk<'_, W> {
    /// Derives, under symmetry `g`, the clause refuting the decisions of node `at` (the path
    /// so far); its number.
    fn close(&mut self, at: usize, g: usize) -> Result<u64, CertifyError> {
        let nodes = self.nodes;
        self.stack.push(at);
        let mut derived = Vec::new();
        for &c in &nodes[at].combinations {
            derived.push(self.combine(c, g)?);
        }
        // The children that place a piece first: the orbits emptied after them rest on them.
        for placing in [true, false] {
            for &(decision, child) in nodes[at].children.iter().filter(|c| c.0 .1 == placing) {
                self.path.push(decision);
                derived.push(self.close(child, g)?);
                self.path.pop();
            }
            if placing {
                for &o in &nodes[at].orbits {
                    self.replay(at, o, g, &mut derived)?;
                }
            }
        }
        let id = self.refute_path(g)?;
        if !derived.is_empty() {
            self.proof.delete(derived.into_iter())?;
        }
        self.stack.pop();
        Ok(id)
    }

    /// The clause refuting the path, renamed by `g`, by reverse unit propagation.
    fn refute_path(&mut self, g: usize) -> Result<u64, CertifyError> {
        let perm = &self.group.perms[g];
        self.steps += 1;
        Ok(self.proof.rup(negated(&self.path).map(|(v, negated)| (perm[v], negated)))?)
    }

    /// The clauses "not all of node `at`'s decisions, and not `image`" for the images of
    /// orbital fixing `o`, under `g`: the child placing the candidate, closed again under a
    /// symmetry that maps the node's decisions onto themselves and the candidate onto `image`.
    fn replay(&mut self, at: usize, o: usize, g: usize, derived: &mut Vec<u64>) -> Result<(), CertifyError> {
        let fixing = &self.tree.orbits[o];
        let decided: HashSet<Decision> = fixing.path.iter().copied().collect();
        let child = self.nodes[at].children.iter().find(|c| c.0 == (fixing.candidate, true)).map(|c| c.1);
        for &image in &fixing.images {
            let sigma = (1..self.group.perms.len())
                .find(|&s| {
                    let perm = &self.group.perms[s];
                    perm[fixing.candidate] == image
                        && fixing.path.iter().all(|&(v, one)| decided.contains(&(perm[v], one)))
                })
                .ok_or_else(|| internal("an orbital fixing with no symmetry to justify it"))?;
            let renamed = self.group.compose(g, sigma);
            // The bounds of the node and of its ancestors, renamed: the replayed child's steps
            // propagate them.
            let mut ancestors = Vec::new();
            for depth in 0..self.stack.len() {
                for &c in &self.nodes[self.stack[depth]].combinations {
                    ancestors.push(self.combine(c, renamed)?);
                }
            }
            self.path.push((fixing.candidate, true));
            let closed = match child {
                Some(child) => self.close(child, renamed)?,
                None => self.refute_path(renamed)?,
            };
            self.path.pop();
            if !ancestors.is_empty() {
                self.proof.delete(ancestors.into_iter())?;
            }
            derived.push(closed);
        }
        Ok(())
    }

    /// The number of row `r` (the model's, then the kept cuts) renamed by `g`.
    fn row(&mut self, r: usize, g: usize) -> Result<u64, CertifyError> {
        match r.checked_sub(self.rows) {
            None => Ok(self.group.rows[g][r] as u64 + 1),
            Some(k) => {
                let cut =
                    *self.tree.kept.get(k).ok_or_else(|| internal("a multiplier of a row that does not exist"))?;
                self.cut(cut, g)
            }
        }
    }

    /// The number of separated cut `k` renamed by `g`, derived at its first use.
    fn cut(&mut self, k: usize, g: usize) -> Result<u64, CertifyError> {
        if let Some(&id) = self.cuts.get(&(g, k)) {
            return Ok(id);
        }
        let origin = self.tree.separated.get(k).ok_or_else(|| internal("a kept cut that was never separated"))?;
        let mut terms = Vec::with_capacity(origin.rows.len() + origin.bounds.len());
        for &r in &origin.rows {
            // The rows of a cut's round: the model's, then the cuts separated before it.
            let id = match r.checked_sub(self.rows) {
                None => self.group.rows[g][r] as u64 + 1,
                Some(earlier) if earlier < k => self.cut(earlier, g)?,
                Some(_) => return Err(internal("a cut sums a later cut")),
            };
            terms.push(Term::Scaled(id, 1));
        }
        let perm = &self.group.perms[g];
        for &(v, upper) in &origin.bounds {
            // `x >= 0`, or `~x >= 0` (that is, `-x >= -1`).
            terms.push(Term::Axiom(perm[v], upper));
        }
        let id = self.proof.pol(&terms, 2, 1)?;
        self.cuts.insert((g, k), id);
        Ok(id)
    }

    /// The `pol` step of combination `c`, renamed by `g`.
    fn combine(&mut self, c: usize, g: usize) -> Result<u64, CertifyError> {
        let tree = self.tree;
        let combination = &tree.combinations[c];
        let mut terms = Vec::with_capacity(combination.multipliers.len() + 1);
        for &(row, multiplier) in &combination.multipliers {
            terms.push(Term::Scaled(self.row(row, g)?, multiplier));
        }
        if combination.objective > 0 {
            terms.push(Term::Scaled(self.bound, combination.objective));
        }
        if terms.is_empty() {
            return Err(internal("a combination of nothing"));
        }
        self.steps += 1;
        Ok(self.proof.pol(&terms, 1, 1)?)
    }
}

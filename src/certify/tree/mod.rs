//! The certificate of a branch-and-bound search, written from what the search itself used.
//!
//! Every bound the branch-and-bound search of placements (`driver::placement::branch_and_bound`)
//! relies on is a nonnegative combination of rows: the row multipliers of a relaxation, scaled to integers,
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
//! Orbital fixing is stated by `red` where it can be: once the child placing `c` at a node
//! is closed, and a symmetry `σ` maps the node's decisions onto themselves and an image `o` of
//! `c` onto `c` (or onto an image already stated), the clause "not the decisions, or not `o`"
//! is redundant with `σ` as its witness, one line. The proof runs in VeriPB's strengthening-to-
//! core mode, so such a step's proof goals are the images of the core alone: the model's rows
//! (mapped onto rows) and the clauses of earlier `red` steps, which the walk keeps implied
//! ([`Walk::fix_orbits`] says how). Elsewhere — below the placing child of a node that fixes by
//! `red`, inside a replay, or where no symmetry fits — orbital fixing is stated by replaying:
//! the walk of the candidate's child is written again with every variable, row and cut renamed
//! by `σ`, which closes the child placing `o`. A replay costs proof lines, not search, and
//! [`plan`] orders each node's images so that as few are replayed as can be (one in an orbit
//! of eight, none in one of four). Replays within replays often come back to a node under a
//! symmetry it was closed under before; a first walk that writes nothing finds those, and
//! the proof keeps their clauses instead of writing the subtree again.
//!
//! Nothing here trusts the search: a wrong multiplier, a missing node, a symmetry that is not
//! one or a bound the rows do not imply leaves a `rup` step that VeriPB refuses.

mod group;
mod lines;
mod plan;
mod sparse;

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::time::Instant;

use group::Group;
use lines::{Lines, Term};
use plan::Step;

use super::prove::{measure, ProofFigures};
use super::CertifyError;
use crate::driver::{Combination, Decision, TreeProof};
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
    let (objective, value, rows) = measure(model, solution)?;
    if rows != tree.model_rows {
        return Err(CertifyError::Internal(format!(
            "the search numbered {} rows, the model has {rows}",
            tree.model_rows
        )));
    }
    let mut proof = Lines::new(writer, rows)?;
    // `red` steps (orbital fixing) add to the core, and only the core's images are their
    // proof goals: the model is symmetric, the derived bounds need not be.
    proof.strengthening_to_core(true)?;
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
    // Each bound with the rows its node can spare taken out (with a cost step, the improving
    // constraint is divided: left as logged).
    let (combinations, conflicting): (Vec<Combination>, Vec<bool>) = if step == 1 {
        let negated = objective.iter().map(|&(c, v)| (v, -c)).collect();
        let model_rows = group::ge_rows(model);
        let cuts = sparse::cut_rows(&model_rows, &tree.separated, &tree.kept, n).unwrap_or_default();
        let rows = sparse::Rows { model: &model_rows, cuts, objective: (negated, 1 - value) };
        tree.combinations.iter().map(|c| sparse::thinned(c, &rows, n)).unzip()
    } else {
        (tree.combinations.clone(), vec![false; tree.combinations.len()])
    };
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
    // A first walk, writing nothing, finds the subtrees that are closed again under the same
    // symmetry (replays within replays); the second keeps their clauses instead.
    let mut counting = Lines::counting(rows);
    let mut first = Walk::new(
        tree,
        (&combinations, &conflicting),
        &group,
        &nodes,
        rows,
        bound,
        &mut counting,
        Reuse::Find(HashSet::new()),
    );
    first.close(0, 0)?;
    let Reuse::Find(again) = first.reuse else { unreachable!("the first walk finds") };
    let mut walk =
        Walk::new(tree, (&combinations, &conflicting), &group, &nodes, rows, bound, &mut proof, Reuse::Keep(again));
    let empty = walk.close(0, 0)?;
    let (steps, reused) = (walk.steps, walk.reused);
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
        reused,
        refuter: None,
        decided_by: None,
        swaps: 0,
        ahead: false,
        horizons: None,
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
    /// The tree's bounds, as the proof states them.
    combinations: &'a [Combination],
    /// Whether each bound is false under its node's decisions alone.
    conflicting: &'a [bool],
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
    /// How many replays the walk is inside: orbital fixing is stated by `red` only outside.
    replaying: usize,
    /// How many nodes that fix orbits by `red` the walk is inside a placing child of.
    under_red: usize,
    /// The clauses refuting a node's decisions renamed by a symmetry, by node and symmetry,
    /// that are kept for when the walk comes to them again.
    closed: HashMap<(usize, usize), u64>,
    reuse: Reuse,
    /// How many times a kept clause was taken.
    reused: usize,
}

/// Which clauses of the walk are kept to be used again.
enum Reuse {
    /// Every one, collecting those that the walk comes to again.
    Find(HashSet<(usize, usize)>),
    /// Those of these nodes and symmetries; the others are deleted once their parent closes.
    Keep(HashSet<(usize, usize)>),
}

impl<'a, W: Write> Walk<'a, W> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        tree: &'a TreeProof,
        (combinations, conflicting): (&'a [Combination], &'a [bool]),
        group: &'a Group,
        nodes: &'a [Node],
        rows: usize,
        bound: u64,
        proof: &'a mut Lines<W>,
        reuse: Reuse,
    ) -> Self {
        Walk {
            tree,
            combinations,
            conflicting,
            group,
            nodes,
            rows,
            cuts: HashMap::new(),
            bound,
            proof,
            path: Vec::new(),
            stack: Vec::new(),
            steps: 0,
            replaying: 0,
            under_red: 0,
            closed: HashMap::new(),
            reuse,
            reused: 0,
        }
    }

    /// Whether the clause of node `at` under `g` is kept once written.
    fn kept(&self, at: usize, g: usize) -> bool {
        match &self.reuse {
            Reuse::Find(_) => true,
            Reuse::Keep(again) => again.contains(&(at, g)),
        }
    }
}

impl<W: Write> Walk<'_, W> {
    /// Derives, under symmetry `g`, the clause refuting the decisions of node `at` (the path
    /// so far); its number.
    fn close(&mut self, at: usize, g: usize) -> Result<u64, CertifyError> {
        if let Some(&id) = self.closed.get(&(at, g)) {
            if let Reuse::Find(again) = &mut self.reuse {
                again.insert((at, g));
            }
            self.reused += 1;
            return Ok(id);
        }
        let nodes = self.nodes;
        self.stack.push(at);
        let mut derived = Vec::new();
        // What closes the node by propagating a few constraints, when that is known: a bound
        // false under its decisions alone, or the two children on one variable.
        let mut hints = Vec::new();
        for &c in &nodes[at].combinations {
            let id = self.combine(c, g)?;
            if hints.is_empty() && self.conflicting[c] {
                hints.push(id);
            }
            derived.push(id);
        }
        let mut children = Vec::new();
        // Orbital fixing by `red` here, outside replays and outside the placing children of
        // every node that fixes by `red` (see `fix_orbits`).
        let by_red = g == 0 && self.replaying == 0 && self.under_red == 0 && !nodes[at].orbits.is_empty();
        // The children that place a piece first: the orbits emptied after them rest on them.
        for placing in [true, false] {
            self.under_red += usize::from(placing && by_red);
            for &(decision, child) in nodes[at].children.iter().filter(|c| c.0 .1 == placing) {
                self.path.push(decision);
                let closed = self.close(child, g);
                self.path.pop();
                let closed = closed?;
                children.push((decision, closed));
                if !self.kept(child, g) {
                    derived.push(closed);
                }
            }
            self.under_red -= usize::from(placing && by_red);
            if placing && !nodes[at].orbits.is_empty() {
                if by_red {
                    self.fix_orbits(at, &mut derived)?;
                } else {
                    for &o in &nodes[at].orbits {
                        let fixing = &self.tree.orbits[o];
                        for &image in &fixing.images {
                            self.replay(at, o, image, g, &mut derived)?;
                        }
                    }
                }
            }
        }
        if hints.is_empty() {
            let pair = children.iter().find_map(|&((v, one), id)| {
                let other = children.iter().find(|c| c.0 == (v, !one))?;
                one.then_some([id, other.1])
            });
            hints.extend(pair.into_iter().flatten());
        }
        let id = self.refute_path(g, &hints)?;
        if self.kept(at, g) {
            self.closed.insert((at, g), id);
        }
        if !derived.is_empty() {
            self.proof.delete(derived.into_iter())?;
        }
        self.stack.pop();
        Ok(id)
    }

    /// The clause refuting the path, renamed by `g`, by reverse unit propagation (over
    /// `hints` alone if there are any).
    fn refute_path(&mut self, g: usize, hints: &[u64]) -> Result<u64, CertifyError> {
        let perm = &self.group.perms[g];
        self.steps += 1;
        Ok(self.proof.rup(negated(&self.path).map(|(v, negated)| (perm[v], negated)), hints)?)
    }

    /// The clauses "not all of node `at`'s decisions, and not `o`" for every image `o` of the
    /// orbital fixings of node `at`, outside any replay.
    ///
    /// Where it can, each is one `red` step whose witness is a symmetry `σ` that maps the
    /// node's decisions onto themselves: the clause's image under `σ` must be one already
    /// derived ("not the candidate", or an image done before), and so must the image of every
    /// clause this node added to the core by `red` before it. Clauses that other nodes added
    /// to the core need nothing more: when `σ` keeps this node's decisions, the image of such
    /// a clause is satisfied by them: an ancestor's images are among this node's
    /// emptied squares, and a node closed earlier lies below a child that placed a piece where
    /// this node has none. That fails for a node below this one's placing child (the piece is
    /// the candidate, whose image is not emptied here), so no node there fixes by `red`. An
    /// image no such symmetry reaches is stated by replaying the candidate's child, and then
    /// serves as an image done for the `red` steps after it; [`plan::plan`] orders the images
    /// so that there are as few replays as can be.
    fn fix_orbits(&mut self, at: usize, derived: &mut Vec<u64>) -> Result<(), CertifyError> {
        let node = &self.nodes[at];
        let path = self.tree.orbits[node.orbits[0]].path.clone();
        let keeps = self.keeping(&path);
        let perms = &self.group.perms;
        // "Not the decisions, and not v" is derived (or in the core) for each v of `done`;
        // `core` holds those added to the core by `red`.
        let mut done: HashSet<usize> = HashSet::new();
        let mut core: Vec<usize> = Vec::new();
        for &o in &node.orbits {
            let fixing = &self.tree.orbits[o];
            if fixing.path != path {
                return Err(internal("two orbital fixings of one node with different decisions"));
            }
            let has_child = node.children.iter().any(|c| c.0 == (fixing.candidate, true));
            if !has_child {
                // The candidate's child was closed by propagation alone: its clause is not
                // written, so every image is replayed (by propagation too).
                for &image in &fixing.images {
                    self.replay(at, o, image, 0, derived)?;
                }
                continue;
            }
            done.insert(fixing.candidate);
            let mut left: Vec<usize> = fixing.images.iter().copied().filter(|v| !done.contains(v)).collect();
            left.sort_unstable();
            left.dedup();
            for step in plan::plan(&left, &done, &core, &keeps, perms) {
                match step {
                    Step::Red { image, witness } => {
                        let perm = &perms[witness];
                        let clause = negated(&path).chain(std::iter::once((image, true)));
                        let witness = (0..perm.len()).filter(|&v| perm[v] != v).map(|v| (v, perm[v]));
                        self.steps += 1;
                        self.proof.red(clause, witness)?;
                        done.insert(image);
                        core.push(image);
                    }
                    Step::Replay { image } => {
                        self.replay(at, o, image, 0, derived)?;
                        done.insert(image);
                    }
                }
            }
        }
        Ok(())
    }

    /// The symmetries other than the identity that map the decisions of `path` onto
    /// themselves.
    fn keeping(&self, path: &[Decision]) -> Vec<usize> {
        let decided: HashSet<Decision> = path.iter().copied().collect();
        let perms = &self.group.perms;
        (1..perms.len()).filter(|&s| path.iter().all(|&(v, one)| decided.contains(&(perms[s][v], one)))).collect()
    }

    /// The clause "not all of node `at`'s decisions, and not `image`" for an image of orbital
    /// fixing `o`, under `g`: the child placing the candidate, closed again under a symmetry
    /// that maps the node's decisions onto themselves and the candidate onto `image`.
    fn replay(
        &mut self,
        at: usize,
        o: usize,
        image: usize,
        g: usize,
        derived: &mut Vec<u64>,
    ) -> Result<(), CertifyError> {
        let fixing = &self.tree.orbits[o];
        let child = self.nodes[at].children.iter().find(|c| c.0 == (fixing.candidate, true)).map(|c| c.1);
        let sigma = self
            .keeping(&fixing.path)
            .into_iter()
            .find(|&s| self.group.perms[s][fixing.candidate] == image)
            .ok_or_else(|| internal("an orbital fixing with no symmetry to justify it"))?;
        let renamed = self.group.compose(g, sigma);
        if let Some(child) = child.filter(|&child| self.closed.contains_key(&(child, renamed))) {
            // Closed before under this symmetry, and kept.
            return self.close(child, renamed).map(drop);
        }
        // The bounds of the node and of its ancestors, renamed: the replayed child's steps
        // propagate them.
        let mut ancestors = Vec::new();
        for depth in 0..self.stack.len() {
            for &c in &self.nodes[self.stack[depth]].combinations {
                ancestors.push(self.combine(c, renamed)?);
            }
        }
        self.path.push((fixing.candidate, true));
        self.replaying += 1;
        let closed = match child {
            Some(child) => self.close(child, renamed),
            None => self.refute_path(renamed, &[]),
        };
        self.replaying -= 1;
        let closed = closed?;
        self.path.pop();
        if !ancestors.is_empty() {
            self.proof.delete(ancestors.into_iter())?;
        }
        if !child.is_some_and(|child| self.kept(child, renamed)) {
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
        let combination = &self.combinations[c];
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

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
//! 2. the zero-half cuts, each the halved sum of three rows and some bounds (`pol … 2 d`);
//! 3. a depth-first walk of the decision tree: at each node its combinations (`pol`), then its
//!    children, then the clause "not all of this node's decisions" by `rup`, after which the
//!    children's clauses and the node's combinations are deleted;
//! 4. at the root that clause is empty: `conclusion BOUNDS value value`.
//!
//! Nothing here trusts the search: a wrong multiplier, a missing node or a bound the rows do
//! not imply leaves a `rup` step that VeriPB refuses.

use std::io::Write;
use std::time::Instant;

use pigeons::{
    AbsConstraintId, Conclusion, ConstraintId, OperationSequence, OutputGuarantee, Proof, SubproofElement, VarLike,
};
use rustsat::types::{Clause, Lit, Var};

use super::derive;
use super::prove::{opb_objective, ProofFigures};
use super::CertifyError;
use crate::encodings::linear::LinearModel;

/// A decision on the path from the root: a variable and the value it was given.
pub type Decision = (usize, bool);

/// One bound the search used at a node: `Σ multiplier · row + objective · (cost <= best -
/// step)`, with the rows numbered as the search numbers them (the model's `>=` rows in the
/// order VeriPB numbers them, then the cuts).
#[derive(Clone, Debug, Default)]
pub struct Combination {
    /// The decisions of the node, in the order they were taken.
    pub path: Vec<Decision>,
    /// `(row, multiplier)`, every multiplier positive.
    pub multipliers: Vec<(usize, u64)>,
    /// The multiplier of the objective-improving constraint (0: the rows alone conflict).
    pub objective: u64,
}

/// A zero-half cut: the halved sum of three rows (numbered among the model's rows and the
/// cuts before it), with a bound added for each variable the three count an odd number of times.
#[derive(Clone, Debug, Default)]
pub struct CutOrigin {
    /// The three rows.
    pub rows: [usize; 3],
    /// The bounds added: `(variable, upper)`, `-x >= -1` if `upper`, else `x >= 0`.
    pub bounds: Vec<(usize, bool)>,
}

/// What a branch-and-bound search logged for its certificate.
#[derive(Clone, Debug, Default)]
pub struct TreeProof {
    /// Rows of the model, as the search numbers them (an equality counts twice).
    pub model_rows: usize,
    /// Every cut separated, in order; later cuts may sum earlier ones.
    pub separated: Vec<CutOrigin>,
    /// The rows after the model's: indices into `separated`.
    pub kept: Vec<usize>,
    /// The greatest common divisor of the costs.
    pub step: i64,
    /// Every bound used, in any order.
    pub combinations: Vec<Combination>,
}

/// A node of the decision tree: its combinations and its children by decision.
#[derive(Default)]
struct Node {
    combinations: Vec<usize>,
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
    if solution.len() != model.variables.len() || !model.satisfied_by(solution) {
        return Err(CertifyError::Internal("the solution does not satisfy the model".into()));
    }
    let objective = opb_objective(model)?;
    let value: i64 = objective.iter().filter(|t| solution[t.1]).map(|t| t.0).sum();
    let rows: usize = model.constraints.iter().map(derive::row_count).sum();
    if rows != tree.model_rows {
        return Err(CertifyError::Internal(format!(
            "the search numbered {} rows, the model has {rows}",
            tree.model_rows
        )));
    }
    let mut proof = Proof::new(writer, rows, true)?;
    proof.comment(&model.title)?;
    proof.comment(&format!("the solution below has objective value {value}; the proof is the search's tree"))?;
    let improving = proof.improve_solution((0..solution.len()).map(|i| derive::var(i).axiom(!solution[i])))?;
    let step = usize::try_from(tree.step).ok().filter(|&s| s >= 1).ok_or_else(|| internal("the cost step"))?;
    let bound = if step > 1 {
        proof.comment(&format!("every cost is a multiple of {step}: a better solution costs {step} less"))?;
        proof.operations::<Var>(&((OperationSequence::from(improving) / step) * step))?
    } else {
        improving
    };
    let mut ids: Vec<AbsConstraintId> = (1..=rows).map(AbsConstraintId::new).collect();
    proof.comment(&"the zero-half cuts: three rows and some bounds, halved")?;
    let separated = derive_cuts(&tree.separated, &ids, &mut proof)?;
    for &k in &tree.kept {
        ids.push(*separated.get(k).ok_or_else(|| internal("a kept cut that was never separated"))?);
    }
    let mut nodes = vec![Node::default()];
    for (index, combination) in tree.combinations.iter().enumerate() {
        let at = Node::reach(&mut nodes, &combination.path);
        nodes[at].combinations.push(index);
    }
    proof.comment(&"the tree, depth first: each node's bounds, its children, then its decisions refuted")?;
    let mut walk = Walk { tree, ids: &ids, bound, proof: &mut proof, path: Vec::new(), steps: 0 };
    let empty = walk.close(&nodes, 0)?;
    let steps = walk.steps;
    let range = isize::try_from(value).map_err(|_| internal("value out of range"))?;
    let conclusion = Conclusion::<Var>::Bounds { range: range..range + 1, lb_id: Some(empty.into()), ub_sol: None };
    let mut writer = proof.conclude(OutputGuarantee::None, &conclusion)?;
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
    })
}

fn internal(what: &str) -> CertifyError {
    CertifyError::Internal(format!("the search's tree proof: {what}"))
}

/// Derives the separated cuts in order; their numbers.
fn derive_cuts<W: Write>(
    cuts: &[CutOrigin],
    rows: &[AbsConstraintId],
    proof: &mut Proof<W>,
) -> Result<Vec<AbsConstraintId>, CertifyError> {
    let mut ids: Vec<AbsConstraintId> = Vec::with_capacity(cuts.len());
    for cut in cuts {
        let id = |r: usize| -> Result<AbsConstraintId, CertifyError> {
            match r.checked_sub(rows.len()) {
                None => Ok(rows[r]),
                Some(k) => ids.get(k).copied().ok_or_else(|| internal("a cut sums a later cut")),
            }
        };
        let mut sum = OperationSequence::<Var>::from(id(cut.rows[0])?);
        sum += id(cut.rows[1])?;
        sum += id(cut.rows[2])?;
        for &(v, upper) in &cut.bounds {
            // `x >= 0`, or `~x >= 0` (that is, `-x >= -1`).
            sum += derive::var(v).axiom(upper);
        }
        ids.push(proof.operations(&(sum / 2))?);
    }
    Ok(ids)
}

/// The literals that refute `path`'s decisions.
fn negated(path: &[Decision]) -> impl Iterator<Item = Lit> + '_ {
    path.iter().map(|&(v, one)| {
        let lit = Lit::positive(v as u32);
        if one {
            !lit
        } else {
            lit
        }
    })
}

/// The depth-first walk that closes the tree.
struct Walk<'a, W: Write> {
    tree: &'a TreeProof,
    ids: &'a [AbsConstraintId],
    bound: AbsConstraintId,
    proof: &'a mut Proof<W>,
    path: Vec<Decision>,
    steps: usize,
}

impl<W: Write> Walk<'_, W> {
    /// Derives the clause refuting the decisions of node `at` (the path so far); its number.
    fn close(&mut self, nodes: &[Node], at: usize) -> Result<AbsConstraintId, CertifyError> {
        let mut derived = Vec::new();
        for &c in &nodes[at].combinations {
            derived.push(self.combine(&self.tree.combinations[c])?);
        }
        for &(decision, child) in &nodes[at].children {
            self.path.push(decision);
            derived.push(self.close(nodes, child)?);
            self.path.pop();
        }
        let clause: Clause = negated(&self.path).collect();
        let id = self.proof.reverse_unit_prop(&clause, std::iter::empty::<ConstraintId>())?;
        self.steps += 1;
        if !derived.is_empty() {
            let none: [SubproofElement<Var, Clause>; 0] = [];
            self.proof.delete_ids(derived.into_iter().map(ConstraintId::from), none)?;
        }
        Ok(id)
    }

    /// The `pol` step of one combination.
    fn combine(&mut self, combination: &Combination) -> Result<AbsConstraintId, CertifyError> {
        let mut sum = OperationSequence::<Var>::empty();
        for &(row, multiplier) in &combination.multipliers {
            let id = *self.ids.get(row).ok_or_else(|| internal("a multiplier of a row that does not exist"))?;
            let term = OperationSequence::<Var>::from(id) * multiplier as usize;
            sum = if sum.is_empty() { term } else { sum + term };
        }
        if combination.objective > 0 {
            let term = OperationSequence::<Var>::from(self.bound) * combination.objective as usize;
            sum = if sum.is_empty() { term } else { sum + term };
        }
        if sum.is_empty() {
            return Err(internal("a combination of nothing"));
        }
        self.steps += 1;
        Ok(self.proof.operations(&sum)?)
    }
}

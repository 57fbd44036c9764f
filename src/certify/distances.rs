//! The distance argument for knights touching their targets in a listed order, on the route
//! model ([`crate::encodings::linear::route_model`]), as one cutting-planes step.
//!
//! Let `π(v)` be the fewest jumps from node `v` to a finish, by breadth-first search
//! backwards over the model's own jumps (a node that cannot reach the finish takes the largest
//! `π` of the others), and `D` the least `π` of a start. Every jump `u -> v` has
//! `π(u) <= π(v) + 1`. Then, in one `pol`:
//!
//! 1. `π(v)` times the `>=` half of each node's row `flow` (jumps out minus jumps in, minus the
//!    start's variable, at least the node's supply) telescopes to
//!    `Σ_j (π(from_j) - π(to_j)) x_j - Σ_s π(s) start_s >= π(fixed start)`;
//! 2. with several candidate starts, `D` times the row `start` and `(π(s) - D) start_s >= 0`
//!    turn the starts' part into `D`;
//! 3. `(1 - π(from_j) + π(to_j)) x_j >= 0` for each jump leaves `Σ_j x_j >= D`;
//! 4. the objective-improving constraint `Σ_j x_j <= D - 1` makes it `0 >= 1`, the
//!    conclusion's contradiction.
//!
//! The sums are added as a balanced tree, so that VeriPB's merges stay near linear. `verify`
//! checks the step without knowing how `π` was found: a wrong distance leaves a jump with a
//! negative coefficient, which no literal axiom can cancel.

use std::collections::VecDeque;
use std::io::Write;

use pigeons::{AbsConstraintId, ConstraintId, OperationSequence, Proof, VarLike};
use rustsat::types::Var;

use super::CertifyError;
use crate::encodings::linear::RouteModel;

/// What the argument needs from the route model.
#[derive(Clone, Debug)]
pub struct Distances {
    /// `to_finish[v]`: `π(v)`, the fewest jumps from node `v` to a finish.
    pub to_finish: Vec<usize>,
    /// `rows[v]`: node `v`'s row `flow` (none for a finish).
    pub rows: Vec<Option<usize>>,
    /// The jumps: from, to and variable.
    pub jumps: Vec<(usize, usize, usize)>,
    /// The starts: node and, with several candidates, variable.
    pub starts: Vec<(usize, Option<usize>)>,
    /// The row "one start is chosen" (several candidates only).
    pub start_row: Option<usize>,
}

impl Distances {
    /// The argument on `route`; `None` when no start reaches a finish.
    pub fn of(route: &RouteModel) -> Option<Distances> {
        let n = route.nodes.len();
        let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
        for jump in &route.jumps {
            into[jump.to].push(jump.from);
        }
        // The finishes are the nodes without a row.
        let mut queue: VecDeque<usize> = (0..n).filter(|&v| route.nodes[v].row.is_none()).collect();
        let mut found: Vec<Option<usize>> = vec![None; n];
        for &v in &queue {
            found[v] = Some(0);
        }
        while let Some(v) = queue.pop_front() {
            let next = found[v].map(|d| d + 1);
            for &u in &into[v] {
                if found[u].is_none() {
                    found[u] = next;
                    queue.push_back(u);
                }
            }
        }
        route.starts.iter().find_map(|s| found[s.node])?;
        let far = found.iter().flatten().copied().max().unwrap_or(0);
        Some(Distances {
            to_finish: found.iter().map(|d| d.unwrap_or(far)).collect(),
            rows: route.nodes.iter().map(|node| node.row).collect(),
            jumps: route.jumps.iter().map(|j| (j.from, j.to, j.var)).collect(),
            starts: route.starts.iter().map(|s| (s.node, s.var)).collect(),
            start_row: route.start_row,
        })
    }

    /// The fewest moves of a route from the best start: the bound the argument proves.
    pub fn bound(&self) -> usize {
        self.starts.iter().map(|&(node, _)| self.to_finish[node]).min().unwrap_or(0)
    }
}

/// Writes the argument into the proof (`row_ids[i]`: the number of row `i`'s `>=` half),
/// against `improving`, the objective-improving constraint "at most `bound` jumps"; the number
/// of the contradiction `0 >= 1`.
pub fn derive<W: Write>(
    arg: &Distances,
    row_ids: &[usize],
    (improving, bound): (AbsConstraintId, i64),
    proof: &mut Proof<W>,
) -> Result<AbsConstraintId, CertifyError> {
    let shortest = bound + 1;
    if (arg.bound() as i64) < shortest {
        return Err(CertifyError::Internal(format!(
            "the distance argument proves {} moves, not {shortest}: the route is not the shortest",
            arg.bound()
        )));
    }
    let row = |r: usize| OperationSequence::<Var>::from(ConstraintId::from(AbsConstraintId::new(row_ids[r])));
    proof.comment(&format!(
        "the distance argument: every route through the legs takes {shortest} moves (one step, distances to the finish as multipliers)"
    ))?;
    let mut rows: Vec<OperationSequence<Var>> = Vec::new();
    for (v, &r) in arg.rows.iter().enumerate() {
        if let (Some(r), pi) = (r, arg.to_finish[v]) {
            rows.push(row(r) * pi);
        }
    }
    if let Some(r) = arg.start_row {
        rows.push(row(r) * shortest as usize);
    }
    let mut sum = balanced(rows);
    let mut axiom = |var: usize, times: usize| {
        if times > 0 {
            sum += OperationSequence::<Var>::from(Var::new(var as u32).axiom(false)) * times;
        }
    };
    for &(node, var) in &arg.starts {
        if let Some(var) = var {
            axiom(var, arg.to_finish[node].saturating_sub(shortest as usize));
        }
    }
    for &(from, to, var) in &arg.jumps {
        axiom(var, (1 + arg.to_finish[to]).saturating_sub(arg.to_finish[from]));
    }
    sum += ConstraintId::from(improving);
    // `0 >= 1` itself: VeriPB takes a contradiction as the conclusion's bound, with no `rup`
    // (which would propagate the whole database first).
    Ok(proof.operations(&sum)?)
}

/// The sum of `terms` as a balanced tree of additions.
fn balanced(mut terms: Vec<OperationSequence<Var>>) -> OperationSequence<Var> {
    match terms.len() {
        0 => OperationSequence::empty(),
        1 => terms.pop().expect("one term"),
        n => {
            let right = terms.split_off(n / 2);
            balanced(terms) + balanced(right)
        }
    }
}

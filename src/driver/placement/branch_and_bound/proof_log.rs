//! What the search writes down for its certificate ([`crate::certify::prove_tree`]): every
//! bound it acts on, as the node's decisions and the integer multipliers of the rows.
//!
//! When the search is certified, the simplex's row multipliers are rounded down to multiples
//! of 2⁻²⁰ before the Lagrangian bound is computed from them. The bound, the pruning and the
//! reduced-cost fixings then follow from exactly the multipliers logged (times 2²⁰, integers),
//! and the floating-point sums that decide them are exact: every term is a multiple of 2⁻²⁰
//! far below 2³³.

use std::sync::Mutex;

use super::problem::Problem;
use super::tree_proof::{Combination, Decision, OrbitFixing};
use crate::solver::simplex::Lp;
use crate::Error;

/// The multipliers are multiples of `1 / SCALE`.
pub(super) const SCALE: f64 = (1u64 << 20) as f64;

/// The combinations a certified search used, from every thread.
#[derive(Default)]
pub(super) struct ProofLog {
    combinations: Mutex<Vec<Combination>>,
    orbits: Mutex<Vec<OrbitFixing>>,
    leaves: Mutex<Vec<Vec<Decision>>>,
}

impl ProofLog {
    /// Records that the bound of multipliers `y` (already [`quantise`]d) was used at the node
    /// reached by `path`, with the objective-improving constraint if `with_objective`.
    pub fn record(&self, path: &[Decision], y: &[f64], with_objective: bool) {
        let multipliers = y
            .iter()
            .enumerate()
            .filter(|t| *t.1 > 0.0)
            .map(|(row, &v)| (row, (v * SCALE) as u64))
            .filter(|t| t.1 > 0)
            .collect();
        let objective = if with_objective { SCALE as u64 } else { 0 };
        let combination = Combination { path: path.to_vec(), multipliers, objective };
        self.combinations.lock().unwrap_or_else(|e| e.into_inner()).push(combination);
    }

    /// Records that after the child placing `candidate` at the node reached by `path`, the
    /// other members of its orbit, `images`, were emptied.
    pub fn orbit(&self, path: &[Decision], candidate: usize, images: &[usize]) {
        if images.is_empty() {
            return;
        }
        let fixing = OrbitFixing { path: path.to_vec(), candidate, images: images.to_vec() };
        self.orbits.lock().unwrap_or_else(|e| e.into_inner()).push(fixing);
    }

    /// Records that the node reached by `path` was closed by propagating the rows: the
    /// proof refutes it by propagation too, but needs it as a node of the tree.
    pub fn leaf(&self, path: &[Decision]) {
        self.leaves.lock().unwrap_or_else(|e| e.into_inner()).push(path.to_vec());
    }

    /// Every combination, orbital fixing and leaf recorded.
    pub fn take(&self) -> (Vec<Combination>, Vec<OrbitFixing>, Vec<Vec<Decision>>) {
        (taken(&self.combinations), taken(&self.orbits), taken(&self.leaves))
    }
}
/// The relaxation's row multipliers: rounded as a proof states them when the search is
/// certified (`log`).
pub(super) fn duals(log: Option<&ProofLog>, lp: &Lp) -> Vec<f64> {
    let duals = lp.duals();
    if log.is_some() {
        quantise(&duals)
    } else {
        duals
    }
}

/// The bound of multipliers `y` with variable `j` set to `one` at the node reached by `path`
/// (strong branching's probe); when certified, rounded first, and recorded if it passes
/// `cutoff`: at this node it then fixes the variable.
pub(super) fn probe_bound(
    log: Option<&ProofLog>,
    path: &[Decision],
    problem: &Problem,
    (y, j, one): (&[f64], usize, bool),
    cutoff: f64,
) -> f64 {
    let Some(log) = log else { return problem.lagrangian_with(y, Some((j, one))).0 };
    let y = quantise(y);
    let bound = problem.lagrangian_with(&y, Some((j, one))).0;
    if bound > cutoff {
        log.record(path, &y, true);
    }
    bound
}

impl ProofLog {
    /// Records the Farkas combination of the infeasible relaxation `lp` at the node reached
    /// by `path`, checked exactly first; an error if it does not hold after rounding.
    pub fn refute_infeasible(&self, path: &[Decision], problem: &Problem, lp: &Lp) -> Result<(), Error> {
        let y = proven_infeasible(problem, lp)?;
        self.record(path, &y, false);
        Ok(())
    }
}

/// The Farkas combination of the relaxation `lp` that its simplex found infeasible, checked
/// exactly: a node is pruned as infeasible only when these multipliers prove it, certified or
/// not, so a rounding error in the simplex can never prune a subtree that holds a placement.
/// An error if they do not (the search stops and says so rather than answer wrongly).
pub(super) fn proven_infeasible(problem: &Problem, lp: &Lp) -> Result<Vec<f64>, Error> {
    let ray = lp.farkas_ray().unwrap_or_default();
    farkas(problem, &ray).ok_or_else(|| {
        Error::Internal(
            "branch and bound: the relaxation is infeasible, but its Farkas proof does not hold after rounding".into(),
        )
    })
}

/// The list behind `list`, leaving it empty.
fn taken<T>(list: &Mutex<Vec<T>>) -> Vec<T> {
    std::mem::take(&mut *list.lock().unwrap_or_else(|e| e.into_inner()))
}

/// `y` rounded down to multiples of `1 / SCALE`, negative values to 0.
pub(super) fn quantise(y: &[f64]) -> Vec<f64> {
    y.iter().map(|&v| if v > 0.0 { (v * SCALE).floor() / SCALE } else { 0.0 }).collect()
}

/// Multipliers that prove the rows infeasible under the current assignment (a Farkas
/// combination), from the simplex's proof of infeasibility `ray`: either sign of it, scaled so
/// that its largest entry is 1 before rounding; `None` if neither sign proves it after rounding.
pub(super) fn farkas(problem: &Problem, ray: &[f64]) -> Option<Vec<f64>> {
    let largest = ray.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if largest == 0.0 || !largest.is_finite() {
        return None;
    }
    [1.0, -1.0].into_iter().find_map(|sign| {
        let y = quantise(&ray.iter().map(|v| sign * v / largest).collect::<Vec<_>>());
        (problem.infeasibility(&y) > 0.0).then_some(y)
    })
}

#[cfg(test)]
mod tests {
    use knights_sat_encodings::linear::{LinearModel, Relation, Sense};

    use super::{farkas, quantise, Problem, SCALE};
    use crate::solver::simplex::LpStatus;

    /// Three variables, every pair of them holding a piece and at most one piece in all: no
    /// row alone forces a value, but the relaxation needs at least 3/2 pieces.
    fn pairs_and_one() -> LinearModel {
        let mut model = LinearModel::default();
        let x: Vec<usize> = (0..3).map(|i| model.variable(format!("x{i}"))).collect();
        for (a, b) in [(0, 1), (1, 2), (0, 2)] {
            model.constrain("pair", vec![(1, x[a]), (1, x[b])], Relation::AtLeast, 1);
        }
        model.constrain("one", x.iter().map(|&v| (1, v)).collect(), Relation::AtMost, 1);
        model.objective = Some((Sense::Minimise, x.iter().map(|&v| (1, v)).collect()));
        model
    }

    #[test]
    fn an_infeasible_relaxation_gets_a_farkas_combination_that_holds_exactly() {
        let mut problem = Problem::new(&pairs_and_one());
        let mut lp = problem.relaxation();
        assert!(problem.propagate(&mut lp), "no row alone forces a value");
        assert_eq!(lp.solve(f64::INFINITY), LpStatus::Infeasible);
        let y = farkas(&problem, &lp.farkas_ray().expect("the row that proved it")).expect("a Farkas combination");
        assert!(problem.infeasibility(&y) > 0.0);
        assert!(y.iter().all(|&v| v >= 0.0 && (v * SCALE).fract() == 0.0), "{y:?}");
        // Without the last row the program is feasible, and no multipliers prove otherwise.
        let mut model = pairs_and_one();
        model.constraints.pop();
        let problem = Problem::new(&model);
        assert!(farkas(&problem, &[1.0, 1.0, 1.0]).is_none());
        assert!(farkas(&problem, &[0.0, 0.0, 0.0]).is_none());
    }

    #[test]
    fn multipliers_are_rounded_down_to_the_scale_and_negative_ones_to_zero() {
        let y = quantise(&[0.5, -0.25, 1.0 / 3.0, 2.0]);
        assert_eq!(y[0], 0.5);
        assert_eq!(y[1], 0.0);
        assert!(y[2] <= 1.0 / 3.0 && 1.0 / 3.0 - y[2] < 1.0 / SCALE);
        assert_eq!((y[2] * SCALE).fract(), 0.0);
        assert_eq!(y[3], 2.0);
    }
}

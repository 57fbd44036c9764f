//! The MIP backend: the puzzles' 0-1 linear models (see
//! [`knights_sat_encodings::linear`]) solved by HiGHS, so that SAT and MIP can be compared on
//! exactly the same puzzle. HiGHS is built only with the cargo feature `mip`; without it,
//! [`Formulation`] still parses, and asking for the backend says how to build it.

use std::str::FromStr;

#[cfg(feature = "mip")]
pub use highs_backend::{solve_lp_file, solve_model, MipAnswer, MipStatus};

/// Which 0-1 linear model of a puzzle the MIP backend solves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Formulation {
    /// Time-indexed models for exchanges and tours (one per horizon, from 0 upward), and the
    /// covering and conflict model for placements.
    #[default]
    TimeIndexed,
    /// Exchanges only: a shortest path over every reachable position (one model, whose LP
    /// relaxation is already integral).
    NetworkFlow,
}

knights_sat_encodings::named_values!(Formulation { TimeIndexed => "time-indexed", NetworkFlow => "network-flow" });

impl FromStr for Formulation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Formulation::from_name(s)
            .ok_or_else(|| format!("unknown MIP model `{s}`; choose one of {}", Formulation::NAMES.join(", ")))
    }
}

/// Whether this build includes HiGHS.
pub fn is_available() -> bool {
    cfg!(feature = "mip")
}

/// The MIP solver's name on the command line, beside the SAT solvers'.
pub const NAME: &str = "highs";

/// What to say when the MIP backend is asked for but not built.
pub const NOT_BUILT: &str =
    "this build has no MIP backend: rebuild with `--features mip` (HiGHS; needs cmake and libclang-dev)";

#[cfg(feature = "mip")]
mod highs_backend {
    use std::ffi::CString;
    use std::path::Path;
    use std::time::{Duration, Instant};

    use highs::{HighsModelStatus, Model, RowProblem, Sense as HighsSense, SolvedModel};
    use knights_sat_encodings::linear::{LinearModel, Relation, Sense};

    use crate::solver::SolverError;

    /// How a MIP solve ended.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum MipStatus {
        /// An optimal solution (or, without an objective, a feasible one).
        Optimal,
        /// No 0-1 assignment satisfies the constraints.
        Infeasible,
        /// The time limit came first.
        TimeLimit,
        /// Anything else HiGHS reported.
        Other(String),
    }

    /// The result of one HiGHS run.
    #[derive(Clone, Debug)]
    pub struct MipAnswer {
        /// How it ended.
        pub status: MipStatus,
        /// The 0-1 values of the variables, when a solution was found.
        pub values: Option<Vec<bool>>,
        /// The objective value of that solution.
        pub objective: Option<i64>,
        /// Branch-and-bound nodes explored.
        pub nodes: Option<u64>,
        /// Wall-clock seconds of the run.
        pub seconds: f64,
    }

    fn failed(message: impl Into<String>) -> SolverError {
        SolverError { solver: super::NAME, message: message.into() }
    }

    /// Solves `model` with every variable 0-1 and integer, within `time_limit` if given.
    pub fn solve_model(model: &LinearModel, time_limit: Option<Duration>) -> Result<MipAnswer, SolverError> {
        let clock = Instant::now();
        if model.variables.is_empty() {
            // Nothing to decide: HiGHS would call the model empty whether its rows hold or not.
            let (status, values) = match model.satisfied_by(&[]) {
                true => (MipStatus::Optimal, Some(Vec::new())),
                false => (MipStatus::Infeasible, None),
            };
            let objective = values.as_ref().and_then(|v| model.objective_value(v));
            return Ok(MipAnswer { status, values, objective, nodes: Some(0), seconds: clock.elapsed().as_secs_f64() });
        }
        // HiGHS's presolve now and then ends in a solve error on these models (seen: a two-knight
        // tour whose presolved solution broke a row); such a model is solved again without it.
        let solved = match attempt(model, time_limit, true) {
            Ok(solved) => solved,
            Err(_) => attempt(model, time_limit, false)?,
        };
        let status = status(solved.status());
        let has_solution = matches!(status, MipStatus::Optimal | MipStatus::TimeLimit)
            && solved.primal_solution_status() == highs::HighsSolutionStatus::Feasible;
        let values: Option<Vec<bool>> =
            has_solution.then(|| solved.get_solution().columns().iter().map(|&x| x > 0.5).collect());
        let objective = values.as_ref().and_then(|v| model.objective_value(v));
        let mut nodes: i64 = -1;
        // SAFETY: HiGHS's own pointer, alive with `solved`; the name is NUL-terminated and the
        // value an int64 as HiGHS declares `mip_node_count`.
        let read =
            unsafe { highs_sys::Highs_getInt64InfoValue(solved.as_ptr(), c"mip_node_count".as_ptr(), &mut nodes) };
        let nodes = (read != highs_sys::STATUS_ERROR).then_some(nodes).and_then(|n| u64::try_from(n).ok());
        Ok(MipAnswer { status, values, objective, nodes, seconds: clock.elapsed().as_secs_f64() })
    }

    /// One HiGHS run on `model`, with or without presolve.
    fn attempt(model: &LinearModel, time_limit: Option<Duration>, presolve: bool) -> Result<SolvedModel, SolverError> {
        let mut problem = RowProblem::default();
        let mut cost = vec![0.0; model.variables.len()];
        let sense = match &model.objective {
            Some((sense, terms)) => {
                for &(c, v) in terms {
                    cost[v] += c as f64;
                }
                *sense
            }
            None => Sense::Minimise,
        };
        let columns: Vec<_> = cost.iter().map(|&c| problem.add_integer_column(c, 0..=1)).collect();
        for constraint in &model.constraints {
            let terms: Vec<_> = constraint.terms.iter().map(|&(c, v)| (columns[v], c as f64)).collect();
            let rhs = constraint.rhs as f64;
            match constraint.relation {
                Relation::AtLeast => problem.add_row(rhs.., &terms),
                Relation::AtMost => problem.add_row(..=rhs, &terms),
                Relation::Equal => problem.add_row(rhs..=rhs, &terms),
            }
        }
        let sense = if sense == Sense::Maximise { HighsSense::Maximise } else { HighsSense::Minimise };
        let mut highs = problem.try_optimise(sense).map_err(|e| failed(format!("the model was refused: {e:?}")))?;
        run(&mut highs, time_limit)?;
        if !presolve {
            highs.try_set_option("presolve", "off").map_err(|e| failed(format!("presolve: {e:?}")))?;
        }
        highs.try_solve().map_err(|e| failed(format!("the solve failed: {e:?}")))
    }

    /// Reads an LP (or MPS) file into HiGHS and solves it: the status and the optimal objective
    /// value. For checking an exported file with the solver a MIP user would run on it.
    pub fn solve_lp_file(path: &Path) -> Result<(MipStatus, Option<f64>), SolverError> {
        let name = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| failed(format!("{}: the path holds a NUL byte", path.display())))?;
        let mut highs = RowProblem::default().optimise(HighsSense::Minimise);
        // SAFETY: the pointer is HiGHS's own, alive for as long as `highs`, and `name` is a
        // NUL-terminated string that outlives the call.
        let read = unsafe { highs_sys::Highs_readModel(highs.as_mut_ptr(), name.as_ptr()) };
        if read == highs_sys::STATUS_ERROR {
            return Err(failed(format!("{}: HiGHS could not read the model", path.display())));
        }
        run(&mut highs, None)?;
        let solved = highs.try_solve().map_err(|e| failed(format!("the solve failed: {e:?}")))?;
        let status = status(solved.status());
        let objective = (status == MipStatus::Optimal).then(|| solved.objective_value());
        Ok((status, objective))
    }

    fn run(highs: &mut Model, time_limit: Option<Duration>) -> Result<(), SolverError> {
        highs.make_quiet();
        if let Some(limit) = time_limit {
            highs
                .try_set_option("time_limit", limit.as_secs_f64())
                .map_err(|e| failed(format!("time_limit: {e:?}")))?;
        }
        Ok(())
    }

    fn status(status: HighsModelStatus) -> MipStatus {
        match status {
            HighsModelStatus::Optimal => MipStatus::Optimal,
            HighsModelStatus::Infeasible => MipStatus::Infeasible,
            HighsModelStatus::ReachedTimeLimit => MipStatus::TimeLimit,
            other => MipStatus::Other(format!("{other:?}")),
        }
    }
}

//! The MIP backend of the horizon search: HiGHS on the time-indexed linear model of each
//! horizon, a model it calls infeasible being the proof, as an UNSAT answer is for SAT.

use std::time::Instant;

use knights_sat_encodings::linear::{ExchangeModel, LinearModel, TourModel};
use knights_sat_encodings::puzzle::tour::Route;
use knights_sat_encodings::puzzle::Move;

use super::HorizonOracle;
use crate::driver::{Event, Query, StepStats};
use crate::solver::highs::{solve_model, MipStatus};
use crate::solver::{Answer, SolverError};
use crate::Error;

/// A linear model of one horizon and how to read its solution.
pub(crate) trait TimeIndexedModel {
    /// What a solution decodes to.
    type Solution;
    /// The model.
    fn model(&self) -> &LinearModel;
    /// The solution of the 0-1 values of the model's variables.
    fn solution(&self, values: &[bool]) -> Self::Solution;
}

impl TimeIndexedModel for ExchangeModel {
    type Solution = Vec<Move>;

    fn model(&self) -> &LinearModel {
        &self.model
    }

    fn solution(&self, values: &[bool]) -> Vec<Move> {
        self.moves(values)
    }
}

impl TimeIndexedModel for TourModel {
    type Solution = Route;

    fn model(&self) -> &LinearModel {
        &self.model
    }

    fn solution(&self, values: &[bool]) -> Route {
        self.route(values)
    }
}

/// HiGHS on the model that `model_at` builds for each horizon.
pub(crate) struct MipHorizon<'a, M> {
    model_at: Box<dyn Fn(usize) -> Result<M, Error> + 'a>,
}

impl<'a, M: TimeIndexedModel> MipHorizon<'a, M> {
    /// Asks HiGHS the models of `model_at` (which refuses a model too big to build).
    pub fn new(model_at: impl Fn(usize) -> Result<M, Error> + 'a) -> Self {
        MipHorizon { model_at: Box::new(model_at) }
    }
}

impl<M: TimeIndexedModel> HorizonOracle for MipHorizon<'_, M> {
    type Solution = M::Solution;

    fn reach(
        &mut self,
        horizon: usize,
        query: Query,
        emit: &mut dyn FnMut(Event),
    ) -> Result<Option<M::Solution>, Error> {
        let modelled = (self.model_at)(horizon)?;
        Ok(ask_highs(modelled.model(), horizon, query, emit)?.map(|values| modelled.solution(&values)))
    }
}

/// Solves one model with HiGHS and reports it as a call asking `query` at `horizon`: the
/// values of an optimal solution, or `None` when the model is infeasible.
pub(crate) fn ask_highs(
    model: &LinearModel,
    horizon: usize,
    query: Query,
    emit: &mut dyn FnMut(Event),
) -> Result<Option<Vec<bool>>, Error> {
    emit(Event::Trying { horizon, query });
    let clock = Instant::now();
    let answer = solve_model(model, None)?;
    let result = match answer.status {
        MipStatus::Optimal => Answer::Sat,
        MipStatus::Infeasible => Answer::Unsat,
        other => return Err(highs_error(format!("HiGHS ended with {other:?}"))),
    };
    emit(Event::Step(StepStats {
        horizon,
        query,
        variables: model.variables.len() as u32,
        clauses: model.constraints.len(),
        conflicts: None,
        seconds: clock.elapsed().as_secs_f64(),
        result,
        answered_by: None,
        thread: None,
    }));
    match (result, answer.values) {
        (Answer::Sat, Some(values)) => Ok(Some(values)),
        (Answer::Sat, None) => Err(highs_error("HiGHS reported an optimum without a solution")),
        (Answer::Unsat, _) => Ok(None),
    }
}

/// An error of the HiGHS backend.
pub(crate) fn highs_error(why: impl Into<String>) -> Error {
    Error::Solver(SolverError { solver: crate::solver::highs::NAME, message: why.into() })
}

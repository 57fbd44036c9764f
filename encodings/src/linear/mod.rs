//! Puzzles as 0-1 linear models — the formulations a MIP user knows — and their OPB and LP
//! forms, so that any pseudo-Boolean or MIP solver can be run on exactly the puzzle.
//!
//! A model is plain data: named 0-1 variables, linear constraints over them and an optional
//! linear objective. In OPB the variables are `x1, x2, …` in the model's order (the names a
//! VeriPB proof uses), with a comment line naming each one; in LP they keep their names.

mod exchange;
mod flow;
mod limits;
mod placement;
mod route;
mod tour;
mod write;

use std::fmt;

pub use exchange::{exchange_model, exchange_model_at_most, exchange_model_for, ExchangeModel, MoveSwap};
pub use flow::{flow_model, FlowModel};
pub use limits::{check_model_size, FLOW_POSITIONS, MAX_EXPORT_TERMS};
pub use placement::{placement_model, PlacementModel};
pub use route::{route_model, RouteJump, RouteModel, RouteNode, RouteStart};
pub use tour::{tour_model, tour_model_at_most, tour_model_for, tour_model_terms, TourModel, TourRows};
pub use write::{push_decimal, write_lp, write_opb};

/// How the left-hand side relates to the right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// `lhs >= rhs`.
    AtLeast,
    /// `lhs <= rhs`.
    AtMost,
    /// `lhs = rhs`.
    Equal,
}

/// One linear constraint: `sum of coefficient * variable` related to `rhs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// What the constraint says, e.g. `cover_d5` (LP row names; OPB comments).
    pub name: String,
    /// Coefficients and variable indices.
    pub terms: Vec<(i64, usize)>,
    /// The relation.
    pub relation: Relation,
    /// The right-hand side.
    pub rhs: i64,
}

/// Whether the objective is minimised or maximised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    /// Smaller is better.
    Minimise,
    /// Larger is better.
    Maximise,
}

/// A 0-1 linear model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinearModel {
    /// A line on what the model is, written as a comment.
    pub title: String,
    /// Variable names (letters, digits and `_`), by index.
    pub variables: Vec<String>,
    /// The constraints.
    pub constraints: Vec<Constraint>,
    /// The objective, if any.
    pub objective: Option<(Sense, Vec<(i64, usize)>)>,
}

impl LinearModel {
    /// Adds a variable and returns its index.
    pub fn variable(&mut self, name: impl Into<String>) -> usize {
        self.variables.push(name.into());
        self.variables.len() - 1
    }

    /// Adds a constraint.
    pub fn constrain(&mut self, name: impl Into<String>, terms: Vec<(i64, usize)>, relation: Relation, rhs: i64) {
        self.constraints.push(Constraint { name: name.into(), terms, relation, rhs });
    }

    /// Whether `values` (one per variable) satisfies every constraint.
    pub fn satisfied_by(&self, values: &[bool]) -> bool {
        self.constraints.iter().all(|c| {
            let lhs: i64 = c.terms.iter().filter(|t| values[t.1]).map(|t| t.0).sum();
            match c.relation {
                Relation::AtLeast => lhs >= c.rhs,
                Relation::AtMost => lhs <= c.rhs,
                Relation::Equal => lhs == c.rhs,
            }
        })
    }

    /// The objective's value under `values`, if there is an objective.
    pub fn objective_value(&self, values: &[bool]) -> Option<i64> {
        self.objective.as_ref().map(|(_, terms)| terms.iter().filter(|t| values[t.1]).map(|t| t.0).sum())
    }
}

/// Why a puzzle has no linear model here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unsupported(pub String);

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::AtLeast => ">=",
            Relation::AtMost => "<=",
            Relation::Equal => "=",
        })
    }
}

/// How many moves a time-indexed model (exchange or tour) makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Horizon {
    /// Exactly this many steps.
    Exactly(usize),
    /// At most this many moves, their number minimised.
    AtMost(usize),
}

/// Every assignment that satisfies `model`, by enumeration (at most 24 variables).
#[cfg(test)]
fn satisfying(model: &LinearModel) -> Vec<Vec<bool>> {
    let n = model.variables.len();
    assert!(n <= 24, "{n} variables are too many to enumerate");
    (0u32..1 << n)
        .map(|bits| (0..n).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|values| model.satisfied_by(values))
        .collect()
}

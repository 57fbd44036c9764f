//! The verdict line shared by every family's text answer, and the words it counts in.

use crate::driver::{Outcome, Status};

/// Columns the diagrams may fill.
pub(super) const WIDTH: usize = 100;

/// The words for the objective of a puzzle: what is counted and in which direction.
pub(super) struct Units {
    /// One of them (`move`, `piece`).
    pub one: &'static str,
    /// Several (`moves`, `pieces`).
    pub many: &'static str,
    /// Whether more is better.
    pub maximise: bool,
}

impl Units {
    pub(super) fn count(&self, n: usize) -> String {
        format!("{n} {}", if n == 1 { self.one } else { self.many })
    }
}

pub(super) const MOVES: Units = Units { one: "move", many: "moves", maximise: false };

/// One line: the status, the value, the bound, and why the search ended.
pub(super) fn verdict(outcome: &Outcome, stopped: Option<&str>, units: &Units) -> String {
    let impossible = match (units.maximise, outcome.bound) {
        (false, 0) | (true, usize::MAX) => None,
        (false, b) => Some(b - 1),
        (true, b) => Some(b + 1),
    };
    let proved = impossible.map(|n| format!("{} proved impossible", units.count(n))).unwrap_or_default();
    let mut line = match (outcome.status, outcome.value) {
        (Status::Optimal, Some(v)) => {
            let proof = if proved.is_empty() { "nothing better exists".to_string() } else { proved };
            format!("optimal: {}; {proof}", units.count(v))
        }
        (Status::Feasible, Some(v)) => format!("feasible: {} found; {}", units.count(v), or_nothing(&proved)),
        (Status::Infeasible, _) => match (&outcome.reason, outcome.within) {
            (Some(reason), _) => format!("infeasible: {reason}"),
            (None, Some(h)) => format!(
                "infeasible within {}: no solution has {h} {} or fewer (a longer horizon searches further)",
                units.count(h),
                units.many
            ),
            (None, None) => "infeasible".to_string(),
        },
        _ => format!("unknown: no solution found; {}", or_nothing(&proved)),
    };
    if let Some(why) = stopped {
        line.push_str(&format!(" ({why})"));
    }
    line
}

fn or_nothing(proved: &str) -> String {
    if proved.is_empty() {
        "no bound proved yet".to_string()
    } else {
        proved.to_string()
    }
}

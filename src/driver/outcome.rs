//! What a search has learnt: solver-call statistics, the best solution and the proven bound.

use std::time::Duration;

use knights_sat_encodings::puzzle::placement::Placement;
use knights_sat_encodings::puzzle::tour::Route;
use knights_sat_encodings::puzzle::Move;
use serde::Serialize;

use crate::solver::Answer;

/// What one solver call asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Query {
    /// "Is the goal reachable in exactly `horizon` moves?"
    Goal,
    /// "Is there a route of `horizon` moves through pairwise different positions?" An UNSAT
    /// answer proves that every reachable position is reachable in fewer moves.
    Completeness,
    /// "Can the goal be reached at all?", asked by property-directed reachability (IC3) up to
    /// `horizon` frames. UNSAT: an inductive invariant excludes the goal. SAT: none found yet.
    Invariant,
    /// "Is there a placement whose objective value is `horizon` or better?" (placements: the
    /// `horizon` field holds the value demanded; 0 with no demand on the first call).
    Bound,
    /// "Can the knight reach the next target of a listed order in `horizon` moves?" (tours
    /// solved leg by leg; each leg is proved shortest on its own).
    Leg,
    /// "Is there a route with at most `horizon` moves in the proven fewest time steps?" (tours
    /// with the `steps` objective: the second, lexicographic stage).
    Moves,
    /// "Which solution is best?": one model solved with its objective by the MIP backend. An
    /// optimal answer proves its value; `horizon` is 0.
    Optimise,
    /// "Do other starting squares reach the optimum of `horizon` time steps?" (tours, when
    /// every optimal choice of starts is asked for; UNSAT: the list is complete).
    Starts,
}

/// A solution of any family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// An exchange: the moves in order.
    Moves(Vec<Move>),
    /// A placement: the pieces and their squares.
    Placement(Placement),
    /// A tour: the knights' starts and their jumps per time step.
    Route(Route),
}

/// The statistics of one solver call.
#[derive(Clone, Debug, Serialize)]
pub struct StepStats {
    /// The number of moves asked about.
    pub horizon: usize,
    /// What was asked.
    pub query: Query,
    /// Variables in the formula.
    pub variables: u32,
    /// Clauses in the formula.
    pub clauses: usize,
    /// Conflicts of this call, if the solver tells.
    pub conflicts: Option<u64>,
    /// Wall-clock seconds of encoding and solving.
    pub seconds: f64,
    /// The answer.
    pub result: Answer,
    /// A portfolio of solvers: the member that answered first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<&'static str>,
    /// Several horizons at once: the thread (from 1) that made this call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<usize>,
}

impl StepStats {
    /// A call that answered `query` about `horizon` unsatisfiable, with no figures: what a
    /// search states that it proved without a call of its own (cubes merged, a test).
    pub fn proved_unsat(horizon: usize, query: Query) -> Self {
        StepStats {
            horizon,
            query,
            variables: 0,
            clauses: 0,
            conflicts: None,
            seconds: 0.0,
            result: Answer::Unsat,
            answered_by: None,
            thread: None,
        }
    }

    /// A call of a certified search that asked whether the goal is reachable in `horizon`
    /// moves (`reachable`), on a formula of `variables` and `clauses`, in `seconds`.
    pub fn goal(horizon: usize, (variables, clauses): (u32, usize), seconds: f64, reachable: bool) -> Self {
        StepStats {
            variables,
            clauses,
            seconds,
            result: if reachable { Answer::Sat } else { Answer::Unsat },
            ..StepStats::proved_unsat(horizon, Query::Goal)
        }
    }
}

/// The progress of a branch-and-bound search, reported while it runs and when it ends.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SearchStats {
    /// Wall-clock seconds since the search started.
    pub seconds: f64,
    /// Nodes of the tree searched.
    pub nodes: u64,
    /// Linear relaxations solved.
    pub lp_solves: u64,
    /// Simplex pivots.
    pub pivots: u64,
    /// Variables fixed because their reduced cost crossed the bound.
    pub fixed_by_reduced_cost: u64,
    /// Variables emptied by orbital fixing.
    pub orbit_fixings: u64,
    /// Variables emptied by lexicographic reduction.
    pub lex_fixings: u64,
    /// Subtrees one thread handed to another.
    pub subtrees_shared: u64,
    /// Nodes queued to be searched once every node of a lower level is (a search that
    /// goes a level at a time, so that its proven bound rises early).
    pub deferred: u64,
    /// Subtrees not yet searched to the end: queued, or being searched by a thread. After a
    /// search starts again from its open nodes, this counts down to zero, and says how far a
    /// long search has come.
    pub open_subtrees: u64,
    /// The share of the tree closed, from 0 to 1: the root's share is 1, each branching
    /// divides its node's share equally among its children, and a node closed (pruned,
    /// infeasible, or left without children) adds its share. It reaches 1 when the search
    /// ends; on the way it says how far the search has come, though not in proportion to time,
    /// since subtrees of equal share may differ greatly in size.
    pub done: f64,
    /// Variables measured by strong branching.
    pub strong_branchings: u64,
    /// Variables fixed because strong branching cut off their other side.
    pub fixed_by_strong_branching: u64,
    /// Nodes searched by each thread (empty on one thread).
    pub thread_nodes: Vec<u64>,
    /// Board symmetries used (the identity left out).
    pub symmetries: usize,
    /// Cuts added to the relaxation at the root.
    pub cuts: usize,
    /// Cuts the cubes of a large tree separated at their tops, each holding only in its cube.
    pub subtree_cuts: u64,
    /// The proven bound on the objective, once there is one.
    pub bound: Option<usize>,
    /// The objective of the best placement found.
    pub incumbent: Option<usize>,
    /// While a pass searches the tree again from the root to split it into cubes, the depth it
    /// splits at; `done` is then that pass's closed share (`None` otherwise).
    pub split_depth: Option<usize>,
}

/// Something a running search reports.
#[derive(Clone, Debug)]
pub enum Event {
    /// A solver call starts.
    Trying {
        /// The horizon asked about.
        horizon: usize,
        /// What is asked.
        query: Query,
    },
    /// A solver call ended.
    Step(StepStats),
    /// A branch-and-bound search reports its progress.
    Search(SearchStats),
    /// A solution was found and passed the rules checker; `value` is its objective value.
    Solution {
        /// Moves, or the objective value of a placement.
        value: usize,
        /// The solution.
        solution: Solution,
    },
    /// A bound on the objective was proved: nothing better than `0` exists (a lower bound when
    /// minimising, an upper bound when maximising).
    Bound(usize),
    /// Another solution as good as the optimum, found when every optimal choice was asked for
    /// (a tour's starting squares); it passed the rules checker.
    Alternative(Solution),
    /// The goal was proved unreachable, with the reason.
    Infeasible(String),
    /// A certified branch-and-bound search ended: what its certificate is written from.
    TreeProof(std::sync::Arc<super::TreeProof>),
}

/// The status of a search, as in the JSON output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A solution and a matching lower bound.
    Optimal,
    /// A solution, not (yet) proved optimal.
    Feasible,
    /// No solution exists (or none within the searched horizon: see `within`).
    Infeasible,
    /// Nothing found and nothing proved beyond the bound.
    Unknown,
}

/// The result of a search.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// How the search ended.
    pub status: Status,
    /// Moves (or objective value) of the best solution found.
    pub value: Option<usize>,
    /// The best proven bound: no solution has fewer moves (or, for a maximised objective, a
    /// higher value).
    pub bound: usize,
    /// For `infeasible` from a bounded search: no solution has at most this many moves.
    pub within: Option<usize>,
    /// Why the puzzle is infeasible, when it was proved.
    pub reason: Option<String>,
    /// The best solution.
    #[serde(skip)]
    pub solution: Option<Solution>,
    /// One entry per solver call.
    pub stats: Vec<StepStats>,
    /// The progress of a branch-and-bound search over time (empty for the other searches).
    pub search: Vec<SearchStats>,
    /// Every optimal solution the search was asked to list, one per choice (a tour's starting
    /// squares), the best solution's choice first; empty unless asked.
    #[serde(skip)]
    pub alternatives: Vec<Solution>,
    /// Wall-clock seconds of the whole search.
    pub seconds: f64,
}

/// Folds [`Event`]s into what is known so far.
#[derive(Clone, Debug)]
pub struct Knowledge {
    maximise: bool,
    solution: Option<(usize, Solution)>,
    bound: Option<usize>,
    infeasible: Option<String>,
    stats: Vec<StepStats>,
    search: Vec<SearchStats>,
    alternatives: Vec<Solution>,
}

impl Default for Knowledge {
    fn default() -> Self {
        Knowledge::minimising()
    }
}

impl Knowledge {
    /// Knowledge of a search that minimises (moves, pieces).
    pub fn minimising() -> Self {
        Knowledge {
            maximise: false,
            solution: None,
            bound: None,
            infeasible: None,
            stats: Vec::new(),
            search: Vec::new(),
            alternatives: Vec::new(),
        }
    }

    /// Knowledge of a search that maximises (independent pieces).
    pub fn maximising() -> Self {
        Knowledge { maximise: true, ..Knowledge::minimising() }
    }

    fn better(&self, a: usize, b: usize) -> bool {
        if self.maximise {
            a > b
        } else {
            a < b
        }
    }

    /// Takes one event into account.
    pub fn observe(&mut self, event: &Event) {
        match event {
            Event::Trying { .. } => {}
            Event::Step(step) => {
                if step.query == Query::Goal && step.result == Answer::Unsat {
                    // Horizons are tried in increasing order from 0, so an UNSAT goal at `h`
                    // means no solution has `h` or fewer moves.
                    self.bound = Some(self.bound.map_or(step.horizon + 1, |b| b.max(step.horizon + 1)));
                }
                self.stats.push(step.clone());
            }
            Event::Solution { value, solution } => {
                if self.solution.as_ref().is_none_or(|best| self.better(*value, best.0)) {
                    self.solution = Some((*value, solution.clone()));
                }
            }
            Event::Bound(bound) => {
                // Bounds only ever tighten; a search may report a weaker one again.
                let tighter = match self.bound {
                    Some(old) if self.maximise => old.min(*bound),
                    Some(old) => old.max(*bound),
                    None => *bound,
                };
                self.bound = Some(tighter);
            }
            Event::Infeasible(reason) => self.infeasible = Some(reason.clone()),
            Event::Search(progress) => self.search.push(progress.clone()),
            Event::Alternative(solution) => self.alternatives.push(solution.clone()),
            // A certificate's material, for whoever writes the certificate.
            Event::TreeProof(_) => {}
        }
    }

    /// The outcome if the search stopped now. `exhausted` is `Some(h)` when the search ended
    /// because it reached its horizon limit `h` without a solution.
    pub fn outcome(&self, elapsed: Duration, exhausted: Option<usize>) -> Outcome {
        let value = self.solution.as_ref().map(|s| s.0);
        let proved = |v: usize| self.bound.is_some_and(|b| if self.maximise { v >= b } else { v <= b });
        let status = match (value, &self.infeasible, exhausted) {
            (Some(v), _, _) if proved(v) || (!self.maximise && v == 0) => Status::Optimal,
            (Some(_), _, _) => Status::Feasible,
            (None, Some(_), _) | (None, None, Some(_)) => Status::Infeasible,
            (None, None, None) => Status::Unknown,
        };
        let within = if status == Status::Infeasible && self.infeasible.is_none() { exhausted } else { None };
        Outcome {
            status,
            value,
            bound: match (value, self.bound) {
                (Some(v), _) if status == Status::Optimal => v,
                (_, Some(b)) => b,
                (_, None) if self.maximise => usize::MAX,
                _ => 0,
            },
            within,
            reason: self.infeasible.clone(),
            solution: self.solution.as_ref().map(|s| s.1.clone()),
            stats: self.stats.clone(),
            search: self.search.clone(),
            alternatives: self.alternatives.clone(),
            seconds: elapsed.as_secs_f64(),
        }
    }
}

//! What a horizon search needs of a time-indexed encoding: one more time step at a time, a
//! literal that asks for the goal at a horizon, and the solution read out of a model.
//!
//! Exchanges and tours implement it; the driver's horizon search runs over any of them on one
//! incremental solver, and `export` writes the formula of any horizon the same way.

use rustsat::encodings::CollectClauses;
use rustsat::types::Lit;

/// The most literals a search or an export lets the goal of one horizon add (a tour's
/// distance-to-go clauses: one per target and earlier time, each over every cell): about
/// 200 MB before a solver sees them.
pub const MAX_SWITCH_LITERALS: usize = 50_000_000;

/// An encoding that grows one time step at a time, for a solver that keeps every clause.
pub trait HorizonEncoding {
    /// What a model reaching the goal decodes to (an exchange's moves, a tour's route).
    type Solution;

    /// The number of time steps encoded so far.
    fn horizon(&self) -> usize;

    /// The number of variables used so far.
    fn n_vars(&self) -> u32;

    /// Appends one more time step (horizon `h` becomes `h + 1`).
    fn extend<C: CollectClauses>(&mut self, clauses: &mut C);

    /// A fresh literal that, when true, demands the goal at `horizon` (at most the horizon
    /// encoded so far). The search assumes it, and adds its negation once the answer is no.
    fn goal_switch<C: CollectClauses>(&mut self, horizon: usize, clauses: &mut C) -> Lit;

    /// Reads the solution out of a model in which the goal switch of `horizon` holds.
    fn decode(&self, horizon: usize, value: impl Fn(Lit) -> bool) -> Self::Solution;

    /// About how many clauses the next time step will add, told before it is built, so that a
    /// search can refuse a step too large to hold in memory; `None` when the encoding cannot
    /// tell (its steps stay small).
    fn next_step_size(&self) -> Option<usize> {
        None
    }

    /// About how many literals (an upper bound) the goal switch of `horizon` will add, told
    /// before it is built; `None` when the encoding cannot tell (its switches stay small).
    fn goal_switch_size(&self, _horizon: usize) -> Option<usize> {
        None
    }

    /// The size of the goal switch of `horizon`, if it passes [`MAX_SWITCH_LITERALS`]: a search
    /// or an export refuses it before building it.
    fn goal_switch_too_big(&self, horizon: usize) -> Option<usize> {
        self.goal_switch_size(horizon).filter(|&size| size > MAX_SWITCH_LITERALS)
    }
}

//! "All positions differ" constraints over an exchange encoding, for completeness checks.
//!
//! If no sequence of `T` moves from the start visits `T + 1` pairwise different positions,
//! then every reachable position is reachable in fewer than `T` moves (a shortest route never
//! repeats a position). Together with "the goal is not reachable in `0..T` moves" this proves
//! that the goal is not reachable at all: the bounded-model-checking argument known as the
//! recurrence diameter.

use rustsat::encodings::CollectClauses;
use rustsat::types::Lit;

use super::{add, ExchangeEncoding, HorizonEncoding};
use crate::puzzle::Move;

/// An exchange encoding whose positions all differ: each time step it adds also says that the
/// new position is none of the earlier ones.
#[derive(Debug)]
pub struct DistinctPositions(pub ExchangeEncoding);

impl HorizonEncoding for DistinctPositions {
    type Solution = Vec<Move>;

    fn horizon(&self) -> usize {
        self.0.horizon()
    }

    fn n_vars(&self) -> u32 {
        self.0.n_vars()
    }

    fn extend<C: CollectClauses>(&mut self, clauses: &mut C) {
        self.0.extend(clauses);
        differ_from_earlier(&mut self.0, clauses);
    }

    fn goal_switch<C: CollectClauses>(&mut self, horizon: usize, clauses: &mut C) -> Lit {
        self.0.goal_switch(horizon, clauses)
    }

    fn decode(&self, horizon: usize, value: impl Fn(Lit) -> bool) -> Vec<Move> {
        self.0.decode(horizon, value)
    }
}

/// Adds "the position after the last encoded move differs from every earlier position".
fn differ_from_earlier<C: CollectClauses>(encoding: &mut ExchangeEncoding, clauses: &mut C) {
    let last = encoding.horizon();
    for earlier in 0..last {
        // Positions hold the same number of pieces of each group, so they differ exactly when
        // some group has a piece on a cell in the last position but not in the earlier one.
        let mut witnesses = Vec::new();
        for g in 0..encoding.n_groups() {
            for c in 0..encoding.n_cells() {
                let Some(now) = encoding.occupancy(last, g, c) else { continue };
                match encoding.occupancy(earlier, g, c) {
                    None => witnesses.push(now),
                    Some(then) => {
                        let differs = encoding.new_lit();
                        add(clauses, [!differs, now]);
                        add(clauses, [!differs, !then]);
                        witnesses.push(differs);
                    }
                }
            }
        }
        add(clauses, witnesses);
    }
}

//! "All positions differ" constraints over an exchange encoding, for completeness checks.
//!
//! If no sequence of `T` moves from the start visits `T + 1` pairwise different positions,
//! then every reachable position is reachable in fewer than `T` moves (a shortest route never
//! repeats a position). Together with "the goal is not reachable in `0..T` moves" this proves
//! that the goal is not reachable at all: the bounded-model-checking argument known as the
//! recurrence diameter.

use rustsat::encodings::CollectClauses;

use super::{add, ExchangeEncoding};

/// Adds "the position after the last encoded move differs from every earlier position".
///
/// Call it after each [`ExchangeEncoding::extend`] on an encoding used for completeness checks.
pub fn differ_from_earlier<C: CollectClauses>(encoding: &mut ExchangeEncoding, clauses: &mut C) {
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

//! CNF encodings of the puzzle models, built for incremental solving.
//!
//! An encoding owns its variable numbering and writes clauses into any RustSAT
//! [`CollectClauses`], so it never depends on a solver. The
//! driver moves the clauses to whichever solver it runs and switches goals on and off with
//! assumption literals.

pub mod bound;
pub mod distinct;
pub mod exchange;
pub mod horizon;
mod line_of_sight;
pub mod placement;
pub mod symmetry;
pub mod tour;
mod tour_clause;

use rustsat::encodings::am1::{self, Encode as _};
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};

pub use exchange::ExchangeEncoding;
pub use horizon::{HorizonEncoding, MAX_SWITCH_LITERALS};

/// Which of RustSAT's at-most-one encodings to use for "at most one" constraints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AtMostOne {
    /// One binary clause per pair; no auxiliary variables.
    Pairwise,
    /// A ladder (sequential) encoding; linear size.
    #[default]
    Ladder,
    /// The bimander encoding of Nguyen and Mai; few auxiliary variables.
    Bimander,
    /// The commander encoding of Klieber and Kwon.
    Commander,
    /// The binary (bitwise) encoding.
    Bitwise,
}

crate::named_values!(AtMostOne {
    Pairwise => "pairwise",
    Ladder => "ladder",
    Bimander => "bimander",
    Commander => "commander",
    Bitwise => "bitwise",
});

impl AtMostOne {
    /// Encodes "at most one of `lits` is true" into `clauses`.
    pub fn encode<C: CollectClauses>(self, lits: &[Lit], clauses: &mut C, vars: &mut dyn ManageVars) {
        if lits.len() < 2 {
            return;
        }
        let lits = lits.to_vec();
        let result = match self {
            AtMostOne::Pairwise => am1::Pairwise::from(lits).encode(clauses, vars),
            AtMostOne::Ladder => am1::Ladder::from(lits).encode(clauses, vars),
            AtMostOne::Bimander => am1::Bimander::<4>::from(lits).encode(clauses, vars),
            AtMostOne::Commander => am1::Commander::<4>::from(lits).encode(clauses, vars),
            AtMostOne::Bitwise => am1::Bitwise::from(lits).encode(clauses, vars),
        };
        // Collecting into memory (a `Cnf`) cannot fail short of an allocation failure, which Rust
        // treats as fatal anyway.
        result.expect("clause collector out of memory");
    }
}

/// Adds the clause of `lits` to `clauses`.
pub(crate) fn add<C: CollectClauses>(clauses: &mut C, lits: impl IntoIterator<Item = Lit>) {
    let clause: Clause = lits.into_iter().collect();
    // Collecting into memory cannot fail short of an allocation failure.
    clauses.add_clause(clause).expect("clause collector out of memory");
}

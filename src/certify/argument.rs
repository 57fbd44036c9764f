//! What a family knows about its puzzles that the proof states before any refutation: an
//! argument that may decide the bound alone, or constraints that spare the refuter work.

use super::colour::LoneKnight;
use super::distances::Distances;
use super::landings::Landings;
use super::swaps::CanonicalOrder;

/// An argument a family adds to its certificate's proof.
#[derive(Clone, Debug)]
pub enum Argument {
    /// A lone knight touching its targets in any order: its colour at every step
    /// ([`super::colour`]).
    Lone(LoneKnight),
    /// Several knights from starts of known colours: their landings on each colour
    /// ([`super::landings`]).
    Landings(Landings),
    /// An exchange's independent moves in one order ([`super::swaps`]).
    Swaps(CanonicalOrder),
    /// A lone knight touching its targets in a listed order, on the route model: the
    /// distances to the finish ([`super::distances`]).
    Distances(Box<Distances>),
}

impl Argument {
    /// Whether the argument surely decides the bound alone, known before the proof is written:
    /// then no refutation follows, and the rows need not become clauses for one.
    pub fn decides_alone(&self) -> bool {
        match self {
            Argument::Distances(_) => true,
            Argument::Lone(_) | Argument::Landings(_) | Argument::Swaps(_) => false,
        }
    }

    /// What the answer calls the argument when it decides the bound alone.
    pub fn name(&self) -> &'static str {
        match self {
            Argument::Lone(_) => "the colour argument",
            Argument::Landings(_) => "the colour count",
            Argument::Swaps(_) => "the canonical order",
            Argument::Distances(_) => "the distance argument",
        }
    }
}

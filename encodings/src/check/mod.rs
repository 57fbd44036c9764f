//! The independent rules checker: replays a claimed solution move by move, or recomputes every
//! attack of a claimed placement, with the rules of the game and nothing else, no SAT. A
//! solution it rejects is never reported as an answer.

mod exchange;
mod placement;
mod tour;

pub use exchange::{replay_exchange, RuleViolation};
pub use placement::{check_placement, PlacementViolation};
pub use tour::{replay_tour, TourReplay, TourViolation};

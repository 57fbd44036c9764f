//! The independent rules checker: replays a claimed solution move by move with the rules of the
//! game and nothing else, no SAT. A solution it rejects is never reported as an answer.

mod exchange;

pub use exchange::{replay_exchange, RuleViolation};

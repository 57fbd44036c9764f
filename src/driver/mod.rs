//! The search strategies: they grow a horizon (or tighten a bound) over an encoding, ask a
//! solver, and turn the last UNSAT answer into a proof of optimality.
//!
//! A driver reports every solver call as an [`Event`] while it runs, and the same events fold
//! into the final [`Outcome`] through [`Knowledge`]; a caller that stops a search early (on a
//! timeout, Ctrl-C or SIGTERM) folds the events it has seen and reports what is known at that moment.

mod dispatch;
mod exchange;
mod fed_solver;
mod horizon;
#[cfg(feature = "mip")]
mod mip;
mod outcome;
mod placement;
mod tour;

pub use dispatch::solve;
#[cfg(feature = "mip")]
pub use dispatch::solve_mip;
pub use exchange::{solve_exchange, solve_exchange_cube, ExchangeSearch, InvariantSearch, Reachability};
pub use horizon::{CubeSearch, HorizonSearch, MAX_HORIZON};
#[cfg(feature = "mip")]
pub use mip::{solve_exchange_mip, solve_placement_mip, solve_tour_mip, MipSearch};
pub use outcome::{Event, Knowledge, Outcome, Query, SearchStats, Solution, Status, StepStats};
pub use placement::branch_and_bound::{
    solve_cube, split, supports as placement_has_tree, Branching, Combination, Cube, Cut, CutOrigin, Decision,
    Ingredients, OrbitFixing, PlacementCubeSearch, PseudocostTable, Split, TreeProof, PSEUDOCOSTS_REFUSED,
};
pub use placement::core_guided::{run as run_core_guided, CoreOracle, Counted};
pub use placement::{default_threads, solve_placement, PlacementSearch, Strategy};
pub use tour::{solve_tour, solve_tour_cube, TourSearch};

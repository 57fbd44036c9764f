//! Output: the outcome of a search as text for people ([`text()`]) or as one JSON object for
//! programs ([`json()`]; its fields are documented in the README).

mod bench;
mod diagram;
mod exchange;
mod json;
mod json_parts;
mod placement;
mod svg;
mod text;
mod tour;
mod verdict;

use knights_sat_encodings::puzzle::Puzzle;

use crate::driver::{Outcome, PlacementSearch};
use crate::solver::highs::Formulation;
use crate::solver::SolverKind;

pub use bench::{csv as bench_csv, markdown as bench_markdown, BenchRow, CertifiedRun};
pub use diagram::{board_diagram, piece_glyph, side_by_side};
pub use exchange::exchange_text;
pub use json::{json, json_with_job};
pub use json_parts::{JsonJump, JsonMove, JsonPlaced, JsonPuzzleFacts, JsonSolution};
pub use placement::placement_text;
pub use svg::{bench_chart, exchange_svg, placement_svg, tour_svg};
pub use text::{percent, text};
pub use tour::tour_text;

/// Everything an answer reports: the puzzle, how it was searched, and what was found.
#[derive(Clone, Copy, Debug)]
pub struct Report<'a> {
    /// The puzzle.
    pub puzzle: &'a Puzzle,
    /// Where the puzzle came from (a file path, or "command line").
    pub source: &'a str,
    /// The SAT backend used.
    pub solver: SolverKind,
    /// `Some` when HiGHS solved the puzzle's linear model instead, with the model's name.
    pub mip: Option<Formulation>,
    /// Whether one solver served every horizon.
    pub incremental: bool,
    /// Placements: how the bound was tightened.
    pub placement: Option<PlacementSearch>,
    /// The result of the search.
    pub outcome: &'a Outcome,
    /// Why the search stopped early (a timeout, Ctrl-C or SIGTERM), if it did.
    pub stopped: Option<&'a str>,
}

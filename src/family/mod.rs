//! One seam per puzzle family: everything knights-sat does with a family's puzzles — solve
//! them, draw and write their answers, certify them, export their formulas, benchmark them —
//! is a method of [`Family`], implemented once per family in this folder.
//!
//! [`of`] is the one place that lists the families: the rest of the crate asks it for a
//! puzzle's family and never matches on [`Puzzle`] itself. Adding a family is a module here
//! with its `impl Family`, a variant of [`Puzzle`] (and of [`Solution`]), and one arm in [`of`].

mod exchange;
mod placement;
mod tour;

use std::io::{self, Write};

use knights_sat_encodings::encode::AtMostOne;
use knights_sat_encodings::geometry::{Board, Square};
use knights_sat_encodings::linear::LinearModel;
use knights_sat_encodings::puzzle::Puzzle;

use crate::certify::{Argument, CanonicalOrder, CertifyError};
#[cfg(feature = "mip")]
use crate::driver::MipSearch;
use crate::driver::{Event, ExchangeSearch, Outcome, PlacementSearch, Solution, TourSearch};
use crate::export::parts::{ExportError, Formula, Question};
use crate::render::{JsonPuzzleFacts, JsonSolution, Report};
use crate::solver::SolverKind;
use crate::Error;

/// How the SAT searches are set up; each family reads its own part.
#[derive(Clone, Copy, Debug, Default)]
pub struct Searches {
    /// Exchanges: solver, incrementality, horizon limit and encoding choices.
    pub exchange: ExchangeSearch,
    /// Placements: the strategy and its ingredients.
    pub placement: PlacementSearch,
    /// Tours: solver, incrementality, horizon limit and redundant constraints.
    pub tour: TourSearch,
}

/// One way to run a puzzle in `bench`: a label and the `solve` flags that select it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchRun {
    /// The label in tables and charts, e.g. `cadical core-guided`.
    pub label: String,
    /// The flags.
    pub flags: Vec<String>,
}

impl BenchRun {
    /// A run labelled `label` with `flags`.
    pub fn new(label: impl Into<String>, flags: &[&str]) -> BenchRun {
        BenchRun { label: label.into(), flags: flags.iter().map(|f| f.to_string()).collect() }
    }
}

/// Everything knights-sat does with the puzzles of one family.
pub trait Family {
    // What the puzzle is.

    /// The board.
    fn board(&self) -> &Board;
    /// Whether the objective is maximised (more is better).
    fn maximises(&self) -> bool {
        false
    }
    /// What the progress display counts while it searches: `move` or `time step`.
    fn step_unit(&self) -> &'static str {
        "move"
    }

    // Solving.

    /// Solves the puzzle with the SAT searches (or the search `searches` selects), reporting
    /// every solver call to `on_event`.
    fn solve(&self, searches: &Searches, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error>;
    /// Solves the puzzle's 0-1 linear model with HiGHS.
    #[cfg(feature = "mip")]
    fn solve_mip(&self, search: &MipSearch, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error>;
    /// Whether `--mip-model network-flow` applies.
    fn has_flow_model(&self) -> bool {
        false
    }
    /// Whether `--list-starts` applies (pieces that may choose where to start).
    fn lists_starts(&self) -> bool {
        false
    }

    // Answers.

    /// Writes the title, the verdict and the solution as text (the work tables follow).
    fn write_text(&self, report: &Report, out: &mut dyn Write) -> io::Result<()>;
    /// The solution as an SVG picture (`attacks`: hatch attacked squares where that applies).
    fn svg(&self, solution: &Solution, attacks: bool) -> Option<String>;
    /// The solution as JSON.
    fn json_solution(&self, solution: &Solution) -> Option<JsonSolution>;
    /// The family's fields of the JSON `puzzle` object.
    fn json_facts(&self) -> JsonPuzzleFacts;

    // Formulas.

    /// The CNF formula of `question`, as `solve` gives it to the solver.
    fn formula(&self, question: Question, at_most_one: AtMostOne) -> Result<Formula, ExportError>;
    /// The 0-1 linear model of `question` (of the whole puzzle if `None`).
    fn linear_model(&self, question: Option<Question>) -> Result<LinearModel, ExportError>;
    /// The terms of the time-indexed linear model at `horizon`, told before it is built (0
    /// for a model without a horizon).
    fn time_indexed_terms(&self, _horizon: usize) -> usize {
        0
    }

    // Certificates.

    /// The model a certificate of objective value `value` states.
    fn certified_model(&self, value: usize) -> Result<LinearModel, CertifyError>;
    /// The certified model at `value`, the values `solution` gives its variables, and the
    /// colour argument where the proof uses one.
    fn certified_assignment(
        &self,
        solution: &Solution,
        value: usize,
    ) -> Result<(LinearModel, Vec<bool>, Option<Argument>), CertifyError>;
    /// The canonical order of independent moves that a certificate's proof at `value` may
    /// state by dominance (`solve --certify-canonical-order`), for a family that has one.
    fn canonical_order(&self, _value: usize) -> Option<CanonicalOrder> {
        None
    }
    /// The certified model at `value` and its variable "the last step makes a move", for a
    /// family whose certificate can prove its lower bound before the solution is known: in its
    /// model "fewer than `value`" is that variable false ([`crate::certify::Speculation`]).
    fn bound_ahead(&self, _value: usize) -> Option<(LinearModel, usize)> {
        None
    }
    /// The largest value a certificate may state, and what bounds it.
    fn value_limit(&self) -> (usize, &'static str);
    /// The lines of `solution.txt` after its value line.
    fn solution_lines(&self, solution: &Solution) -> Vec<String>;
    /// Reads the lines of `solution.txt` after its value line; each error names its line
    /// (`at` adds the line number).
    fn read_solution(&self, lines: &[(usize, &str)]) -> Result<Solution, String>;
    /// Replays `solution` with the rules checker: its value and the unit it is counted in
    /// (`" moves"`, or `""` for a placement's value).
    fn replay(&self, solution: &Solution) -> Result<(usize, &'static str), String>;

    // Benchmarks.

    /// The runs `bench` makes of the puzzle with the given SAT solvers, and with HiGHS if
    /// `mip`.
    fn bench_runs(&self, solvers: &[SolverKind], mip: bool) -> Vec<BenchRun>;
}

/// The family of `puzzle`: the one place that lists the families.
pub fn of(puzzle: &Puzzle) -> &dyn Family {
    match puzzle {
        Puzzle::Exchange(p) => p,
        Puzzle::Placement(p) => p,
        Puzzle::Tour(p) => p,
    }
}

/// The runs every move puzzle gets: each SAT solver incremental and rebuilt.
fn horizon_bench_runs(solvers: &[SolverKind]) -> Vec<BenchRun> {
    let mut runs = Vec::new();
    for solver in solvers {
        let name = solver.name();
        runs.push(BenchRun::new(format!("{name} incremental"), &["--solver", name, "--incremental"]));
        runs.push(BenchRun::new(format!("{name} rebuilt"), &["--solver", name, "--no-incremental"]));
    }
    runs
}

/// The error of a solution of another family than the puzzle's.
fn wrong_family() -> String {
    "the solution is not of the puzzle's family".to_string()
}

/// `solution line N: why`.
fn at_line(number: usize, why: impl std::fmt::Display) -> String {
    format!("solution line {number}: {why}")
}

/// A line of `solution.txt` split at its first space: the word that says what it holds, and
/// the rest.
fn solution_word(number: usize, line: &str) -> Result<(&str, &str), String> {
    line.split_once(' ').ok_or_else(|| at_line(number, format!("cannot read `{line}`")))
}

/// The error of a line whose word the family does not write.
fn foreign_line(number: usize, word: &str, kind: &str) -> String {
    at_line(number, format!("`{word}` lines do not belong in the solution of a {kind}"))
}

/// `a1-b3` as two squares.
fn squares(board: &Board, text: &str) -> Result<(Square, Square), String> {
    let (from, to) = text.split_once('-').ok_or_else(|| format!("`{text}` is not of the form a1-b3"))?;
    let square = |s: &str| board.parse_square(s).map_err(|e| e.to_string());
    Ok((square(from)?, square(to)?))
}

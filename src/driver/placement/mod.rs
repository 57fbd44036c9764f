//! The count-bound search for placement puzzles, on one solver instance.
//!
//! The objective becomes a *cost* to minimise — the objective itself, or for independence the
//! weight left off the board — over literals of the encoding. Four strategies tighten it:
//! three ask "is there a placement of cost at most `b`?" through a RustSAT bound encoding whose
//! output literals are set by assumptions ([`bounds`]); the fourth grows a lower bound from
//! unsatisfiable cores ([`core_guided`]). Each ends on an UNSAT answer that proves the last
//! placement optimal, and every placement passes the independent rules checker before it is
//! reported.

mod bounds;
pub mod branch_and_bound;
mod core_guided;
mod session;

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use knights_sat_encodings::encode::bound::BoundEncoding;
use knights_sat_encodings::encode::AtMostOne;
use knights_sat_encodings::geometry::PieceKind;
use knights_sat_encodings::puzzle::placement::PlacementPuzzle;

use super::{Event, Knowledge, Outcome};
use crate::solver::SolverKind;
use crate::Error;
use session::Session;

/// How the cost bound is tightened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// From any placement downward: after each placement, demand a cheaper one.
    SatUnsat,
    /// From a lower bound upward: demand cost `lb`, `lb + 1`, … until a placement exists.
    UnsatSat,
    /// Bisect between the proven lower bound and the best placement's cost.
    Binary,
    /// Raise a lower bound from unsatisfiable cores over the pieces' literals (OLL, with
    /// totalizers over the cores, as in RC2), until the assumed costs are satisfiable.
    CoreGuided,
    /// Branch and bound over the linear relaxation, with reduced-cost and orbital fixing and a
    /// local search for a first placement ([`branch_and_bound`]); no SAT solver. Puzzles whose
    /// placed pieces block lines have no linear model and take the core-guided search.
    BranchAndBound,
    /// Branch and bound for the goals that cover the board (where the relaxation is strong)
    /// without rooks, core-guided otherwise (independence's pairwise conflict rows relax to one
    /// half each).
    #[default]
    Auto,
}

impl Strategy {
    /// Every strategy, in the order of [`Strategy::NAMES`].
    pub const ALL: [Strategy; 6] = [
        Strategy::SatUnsat,
        Strategy::UnsatSat,
        Strategy::Binary,
        Strategy::CoreGuided,
        Strategy::BranchAndBound,
        Strategy::Auto,
    ];

    /// Names accepted on the command line.
    pub const NAMES: [&'static str; 6] =
        ["sat-unsat", "unsat-sat", "binary", "core-guided", "branch-and-bound", "auto"];

    /// The strategy `auto` stands for on `puzzle` (any other strategy stands for itself).
    pub fn resolve(self, puzzle: &PlacementPuzzle) -> Strategy {
        match self {
            // Rooks relax weakly (n/2 against n on an empty board) and their rank and file
            // exchanges are symmetries only the SAT encoding breaks.
            Strategy::Auto if puzzle.goal.covers() && !puzzle.kinds.iter().any(|r| r.kind == PieceKind::Rook) => {
                Strategy::BranchAndBound
            }
            Strategy::Auto => Strategy::CoreGuided,
            other => other,
        }
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        Self::NAMES[Self::ALL.iter().position(|&s| s == self).expect("every strategy is listed")]
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Self::ALL[i])
            .ok_or_else(|| format!("unknown strategy `{s}`; choose one of {}", Self::NAMES.join(", ")))
    }
}

/// How to search for an optimal placement.
#[derive(Clone, Copy, Debug)]
pub struct PlacementSearch {
    /// The SAT backend.
    pub solver: SolverKind,
    /// Encoding of "at most one piece per square".
    pub at_most_one: AtMostOne,
    /// How the bound is tightened.
    pub strategy: Strategy,
    /// The encoding of the cost bound (for every strategy but the core-guided one, which
    /// relaxes its cores with totalizers).
    pub encoding: BoundEncoding,
    /// Add lex-leader constraints for the board symmetries that map the puzzle onto itself
    /// (branch and bound: orbital fixing under them).
    pub symmetry: bool,
    /// What the branch-and-bound search may use.
    pub ingredients: branch_and_bound::Ingredients,
    /// Threads of the branch-and-bound search (the SAT strategies run on one).
    pub threads: usize,
    /// Independence, SAT strategies: leave out the kinds an optimal placement never needs on a
    /// square (those that attack a superset of another kind's squares from there).
    pub dominance: bool,
}

impl Default for PlacementSearch {
    /// `auto` (branch and bound for covering goals, core-guided for independence), with CaDiCaL
    /// and symmetry breaking for the SAT strategies.
    fn default() -> Self {
        PlacementSearch {
            solver: SolverKind::default(),
            at_most_one: AtMostOne::default(),
            strategy: Strategy::default(),
            encoding: BoundEncoding::default(),
            symmetry: true,
            ingredients: branch_and_bound::Ingredients::default(),
            threads: default_threads(),
            dominance: true,
        }
    }
}

/// The threads a search uses unless told otherwise: one per core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Finds an optimal placement and proves it optimal.
///
/// Every solver call is reported to `on_event`; its statistics carry, in `horizon`, the
/// objective value the call demanded (query [`super::Query::Bound`]).
pub fn solve_placement(
    puzzle: &PlacementPuzzle,
    search: &PlacementSearch,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, Error> {
    let started = Instant::now();
    let mut knowledge = if puzzle.goal.minimises() { Knowledge::minimising() } else { Knowledge::maximising() };
    let mut emit = |event: Event| {
        knowledge.observe(&event);
        on_event(&event);
    };
    let strategy = search.strategy.resolve(puzzle);
    if strategy == Strategy::BranchAndBound && branch_and_bound::supports(puzzle) {
        let ingredients = branch_and_bound::Ingredients { symmetry: search.symmetry, ..search.ingredients };
        branch_and_bound::solve(puzzle, ingredients, search.threads, &mut emit)?;
        return Ok(knowledge.outcome(started.elapsed(), None));
    }
    let mut session = Session::new(puzzle, search, &mut emit)?;
    match strategy {
        Strategy::SatUnsat => bounds::sat_unsat(&mut session, search.encoding)?,
        Strategy::UnsatSat => bounds::unsat_sat(&mut session, search.encoding)?,
        Strategy::Binary => bounds::binary(&mut session, search.encoding)?,
        Strategy::CoreGuided | Strategy::BranchAndBound | Strategy::Auto => core_guided::solve(&mut session)?,
    }
    drop(session);
    Ok(knowledge.outcome(started.elapsed(), None))
}

//! How a placement search is set up: the strategy that tightens the bound, and everything else
//! the searches read.

use std::str::FromStr;

use knights_sat_encodings::encode::bound::BoundEncoding;
use knights_sat_encodings::encode::AtMostOne;
use knights_sat_encodings::geometry::PieceKind;
use knights_sat_encodings::puzzle::placement::PlacementPuzzle;

use super::branch_and_bound;
use crate::solver::SolverKind;

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

knights_sat_encodings::named_values!(Strategy {
    SatUnsat => "sat-unsat",
    UnsatSat => "unsat-sat",
    Binary => "binary",
    CoreGuided => "core-guided",
    BranchAndBound => "branch-and-bound",
    Auto => "auto",
});

impl Strategy {
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
}

impl FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_name(s).ok_or_else(|| format!("unknown strategy `{s}`; choose one of {}", Self::NAMES.join(", ")))
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

//! The count-bound search for placement puzzles (SAT-UNSAT): solve, then demand a strictly
//! better objective through a RustSAT generalized totalizer over the placement variables, its
//! output literals set by assumptions on the one solver instance, until the demand is UNSAT.
//! The last UNSAT answer proves the last placement optimal.

use std::time::Instant;

use knights_sat_encodings::check::check_placement;
use knights_sat_encodings::encode::placement::PlacementEncoding;
use knights_sat_encodings::encode::AtMostOne;
use knights_sat_encodings::puzzle::placement::{Placement, PlacementPuzzle};
use rustsat::encodings::pb::{BoundUpper, BoundUpperIncremental, GeneralizedTotalizer};
use rustsat::instances::Cnf;
use rustsat::types::Lit;

use super::Status;
use crate::solver::{Answer, SolverKind};
use crate::Error;

/// How to search for an optimal placement.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlacementSearch {
    /// The SAT backend.
    pub solver: SolverKind,
    /// Encoding of "at most one piece per square".
    pub at_most_one: AtMostOne,
}

/// One solver call of a placement search.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BoundStep {
    /// The objective value demanded (`None`: the rules alone).
    pub demand: Option<usize>,
    /// Variables in the formula.
    pub variables: u32,
    /// Clauses in the formula.
    pub clauses: usize,
    /// Wall-clock seconds of encoding and solving.
    pub seconds: f64,
    /// The answer.
    pub result: Answer,
}

/// The result of a placement search.
#[derive(Clone, Debug)]
pub struct PlacementOutcome {
    /// `Optimal` or `Infeasible` (the rules admit no placement).
    pub status: Status,
    /// The objective value of the best placement.
    pub value: Option<usize>,
    /// The best placement, checked by the rules checker.
    pub solution: Option<Placement>,
    /// One entry per solver call.
    pub steps: Vec<BoundStep>,
}

/// Finds an optimal placement and proves it optimal.
pub fn solve_placement(puzzle: &PlacementPuzzle, search: &PlacementSearch) -> Result<PlacementOutcome, Error> {
    let mut cnf = Cnf::new();
    let mut encoding = PlacementEncoding::new(puzzle, search.at_most_one, &mut cnf);
    let minimise = puzzle.goal.minimises();
    // The cost to minimise: the objective itself, or, when maximising, the weight left out.
    let terms: Vec<(Lit, usize)> =
        encoding.objective().into_iter().map(|(lit, w)| if minimise { (lit, w) } else { (!lit, w) }).collect();
    let total: usize = terms.iter().map(|t| t.1).sum();
    let mut cost: GeneralizedTotalizer = terms.into_iter().collect();
    let mut solver = search.solver.create()?;
    let mut clauses = 0;
    let mut steps = Vec::new();
    let mut best: Option<(usize, Placement)> = None;
    let mut demand: Option<usize> = None;
    loop {
        let clock = Instant::now();
        let mut assumptions = Vec::new();
        if let Some(ub) = demand {
            cost.encode_ub_change(ub..=ub, &mut cnf, encoding.vars()).expect("clause collector out of memory");
            assumptions = cost.enforce_ub(ub).unwrap_or_default();
        }
        for clause in std::mem::take(&mut cnf).iter() {
            solver.add_clause(&clause[..])?;
            clauses += 1;
        }
        let answer = solver.solve(&assumptions)?;
        let value_demanded = demand.map(|ub| if minimise { ub } else { total - ub });
        steps.push(BoundStep {
            demand: value_demanded,
            variables: encoding.n_vars(),
            clauses,
            seconds: clock.elapsed().as_secs_f64(),
            result: answer,
        });
        if answer == Answer::Unsat {
            break;
        }
        let placement = encoding.decode(|lit| solver.value(lit));
        let value = check_placement(puzzle, &placement).map_err(|v| Error::CheckerRejected(v.to_string()))?;
        let spent = if minimise { value } else { total - value };
        best = Some((value, placement));
        if spent == 0 {
            break;
        }
        demand = Some(spent - 1);
    }
    let status = if best.is_some() { Status::Optimal } else { Status::Infeasible };
    let (value, solution) = match best {
        Some((v, p)) => (Some(v), Some(p)),
        None => (None, None),
    };
    Ok(PlacementOutcome { status, value, solution, steps })
}

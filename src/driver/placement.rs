//! The count-bound search for placement puzzles (SAT-UNSAT): solve, then demand a strictly
//! better objective through a RustSAT generalized totalizer over the placement variables, its
//! output literals set by assumptions on the one solver instance, until the demand is UNSAT.
//! The last UNSAT answer proves the last placement optimal.

use std::time::Instant;

use knights_sat_encodings::check::check_placement;
use knights_sat_encodings::encode::placement::PlacementEncoding;
use knights_sat_encodings::encode::AtMostOne;
use knights_sat_encodings::puzzle::placement::PlacementPuzzle;
use rustsat::encodings::pb::{BoundUpper, BoundUpperIncremental, GeneralizedTotalizer};
use rustsat::instances::Cnf;
use rustsat::types::Lit;

use super::{Event, Knowledge, Outcome, Query, Solution, StepStats};
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

/// Finds an optimal placement and proves it optimal.
///
/// Every solver call is reported to `on_event`: its statistics carry the objective value
/// demanded in `horizon` (query [`Query::Bound`]; 0 for the first call, which demands nothing).
pub fn solve_placement(
    puzzle: &PlacementPuzzle,
    search: &PlacementSearch,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, Error> {
    let started = Instant::now();
    let minimise = puzzle.goal.minimises();
    let mut knowledge = if minimise { Knowledge::minimising() } else { Knowledge::maximising() };
    let mut emit = |event: Event| {
        knowledge.observe(&event);
        on_event(&event);
    };
    let mut cnf = Cnf::new();
    let mut encoding = PlacementEncoding::new(puzzle, search.at_most_one, &mut cnf);
    // The cost to minimise: the objective itself, or, when maximising, the weight left out.
    let terms: Vec<(Lit, usize)> =
        encoding.objective().into_iter().map(|(lit, w)| if minimise { (lit, w) } else { (!lit, w) }).collect();
    let total: usize = terms.iter().map(|t| t.1).sum();
    let value_of = |cost: usize| if minimise { cost } else { total - cost };
    let mut cost: GeneralizedTotalizer = terms.into_iter().collect();
    let mut solver = search.solver.create()?;
    let mut clauses = 0;
    let mut demand: Option<usize> = None;
    loop {
        let asked = demand.map_or(0, value_of);
        emit(Event::Trying { horizon: asked, query: Query::Bound });
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
        let before = solver.conflicts();
        let answer = solver.solve(&assumptions)?;
        emit(Event::Step(StepStats {
            horizon: asked,
            query: Query::Bound,
            variables: encoding.n_vars(),
            clauses,
            conflicts: solver.conflicts().zip(before).map(|(a, b)| a.saturating_sub(b)),
            seconds: clock.elapsed().as_secs_f64(),
            result: answer,
        }));
        match (answer, demand) {
            (Answer::Unsat, None) => {
                emit(Event::Infeasible("no placement satisfies the rules".to_string()));
                break;
            }
            (Answer::Unsat, Some(ub)) => {
                // Nothing with cost `ub` or less: the value is beyond `value_of(ub)`.
                emit(Event::Bound(if minimise { ub + 1 } else { value_of(ub) - 1 }));
                break;
            }
            (Answer::Sat, _) => {
                let placement = encoding.decode(|lit| solver.value(lit));
                let value = check_placement(puzzle, &placement).map_err(|v| Error::CheckerRejected(v.to_string()))?;
                emit(Event::Solution { value, solution: Solution::Placement(placement) });
                let spent = if minimise { value } else { total - value };
                if spent == 0 {
                    emit(Event::Bound(value));
                    break;
                }
                demand = Some(spent - 1);
            }
        }
    }
    Ok(knowledge.outcome(started.elapsed(), None))
}

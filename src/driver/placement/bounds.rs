//! The strategies that ask "a placement of cost at most `b`?" through a bound encoding: they
//! differ only in which `b` they ask next.
//!
//! Each keeps the cost of the best placement found (an upper bound) and the cost proven
//! unavoidable (a lower bound, raised by every UNSAT answer) and stops when they meet, so
//! optimality always rests on an UNSAT answer of the solver: "cost at most optimum - 1".

use knights_sat_encodings::encode::bound::{BoundEncoding, ObjectiveBound};

use super::session::Session;
use crate::solver::Answer;
use crate::Error;

/// Where the next question goes, given the proven lower bound, the best cost found and the
/// counting bound computed without the solver.
type Next = fn(proven: usize, best: usize, hint: usize) -> usize;

/// SAT-UNSAT: demand one less than the best placement found, until that is impossible.
pub(super) fn sat_unsat(session: &mut Session, encoding: BoundEncoding) -> Result<(), Error> {
    tighten(session, encoding, |_, best, _| best - 1)
}

/// UNSAT-SAT: demand the lowest cost not yet refuted, starting from the counting bound.
pub(super) fn unsat_sat(session: &mut Session, encoding: BoundEncoding) -> Result<(), Error> {
    tighten(session, encoding, |proven, best, hint| proven.max(hint.min(best - 1)))
}

/// Binary search between the lowest cost not yet refuted and the best placement found.
pub(super) fn binary(session: &mut Session, encoding: BoundEncoding) -> Result<(), Error> {
    tighten(session, encoding, |proven, best, hint| {
        let low = proven.max(hint.min(best - 1));
        low + (best - 1 - low) / 2
    })
}

fn tighten(session: &mut Session, encoding: BoundEncoding, next: Next) -> Result<(), Error> {
    if session.solve(None, &[])? == Answer::Unsat {
        session.prove_infeasible();
        return Ok(());
    }
    let mut best = session.record_solution()?;
    let hint = session.cost_lower_bound();
    if let Some(why) = encoding.refusal(&session.costs) {
        return Err(Error::Unsupported(format!("{why}; `--encoding gte`, `dpw` or `adder` take any weights")));
    }
    let mut bound = ObjectiveBound::new(encoding, &session.costs);
    let mut proven = 0;
    while proven < best {
        let asked = next(proven, best, hint);
        debug_assert!((proven..best).contains(&asked));
        let (cnf, vars) = session.parts();
        bound.encode_ub(asked, cnf, vars);
        let assumptions = bound.enforce_ub(asked);
        match session.solve(Some(asked), &assumptions)? {
            Answer::Sat => {
                let cost = session.record_solution()?;
                if cost > asked {
                    return Err(Error::Internal(format!(
                        "the {} bound let through a placement of cost {cost} when at most {asked} was demanded",
                        encoding
                    )));
                }
                best = cost;
            }
            Answer::Unsat => {
                proven = asked + 1;
                session.prove_at_least(proven);
            }
        }
    }
    if best == 0 {
        // Nothing costs less than nothing.
        session.prove_at_least(0);
    }
    Ok(())
}

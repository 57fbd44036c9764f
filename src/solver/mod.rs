//! SAT solvers behind one small trait, so that the driver never depends on a particular solver.
//!
//! Literals are RustSAT's [`Lit`], the currency of the encodings. Each backend is one file:
//! [`varisat`] is pure Rust, [`cadical`] is compiled from C++ by the system's compiler; both
//! are always built. The linear-programming solvers sit beside them: [`highs`] (the MIP
//! backend, cargo feature `mip`) and [`simplex`] (the dual simplex of the placement search,
//! pure Rust).

mod cadical;
pub mod highs;
mod portfolio;
pub mod simplex;
mod varisat;

use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rustsat::types::Lit;

/// The answer of one solver call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    /// A model satisfies the formula and the assumptions.
    Sat,
    /// No model satisfies the formula under the assumptions.
    Unsat,
}

/// A solver that failed (not an UNSAT answer: an error inside the solver).
#[derive(Debug, thiserror::Error)]
#[error("{solver}: {message}")]
pub struct SolverError {
    /// Which backend failed.
    pub solver: &'static str,
    /// What it reported.
    pub message: String,
}

/// An incremental SAT solver: clauses are only ever added, and each call may assume literals.
pub trait SatSolver {
    /// Adds a clause for good.
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolverError>;
    /// Decides the clauses added so far under `assumptions`.
    fn solve(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError>;
    /// The value of a literal in the last model (only after [`Answer::Sat`]).
    fn value(&self, lit: Lit) -> bool;
    /// Conflicts since the solver was created, where the backend can tell.
    fn conflicts(&self) -> Option<u64>;
    /// After [`Answer::Unsat`]: assumptions of the last call that already contradict the
    /// formula (possibly all of them, never one that was not assumed).
    fn failed_assumptions(&mut self) -> Vec<Lit>;
    /// A portfolio: the member that answered the last call (its configuration).
    fn answered_by(&self) -> Option<&'static str> {
        None
    }
}

/// The SAT backends knights-sat can run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SolverKind {
    /// varisat: pure Rust; the solver whose proofs the certificates trace.
    Varisat,
    /// CaDiCaL, compiled from C++ with the crate `cadical`: the fastest, the default.
    #[default]
    Cadical,
    /// One CaDiCaL per core (two to four), each in another configuration, racing on every
    /// call ([`portfolio`]).
    Portfolio,
}

knights_sat_encodings::named_values!(SolverKind {
    Cadical => "cadical",
    Varisat => "varisat",
    Portfolio => "portfolio",
});

impl SolverKind {
    /// A fresh solver of this kind.
    pub fn create(self) -> Result<Box<dyn SatSolver>, SolverError> {
        self.create_stoppable(Arc::default())
    }

    /// A fresh solver of this kind whose calls give up, with an error, once `stop` is set.
    /// CaDiCaL stops; varisat and the portfolio (which stops its own members) answer the call
    /// in full.
    pub fn create_stoppable(self, stop: Arc<AtomicBool>) -> Result<Box<dyn SatSolver>, SolverError> {
        match self {
            SolverKind::Varisat => Ok(Box::new(varisat::Varisat::new())),
            SolverKind::Cadical => Ok(Box::new(cadical::Cadical::configured("default", stop)?)),
            SolverKind::Portfolio => {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                Ok(Box::new(portfolio::Portfolio::new(cores)?))
            }
        }
    }
}

impl FromStr for SolverKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SolverKind::from_name(s)
            .ok_or_else(|| format!("unknown solver `{s}`; choose one of {}", SolverKind::NAMES.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_backend_answers_under_assumptions_and_names_failed_ones() {
        for kind in SolverKind::ALL {
            let mut solver = kind.create().unwrap();
            let (a, b, c) = (Lit::positive(0), Lit::positive(1), Lit::positive(2));
            solver.add_clause(&[!a, !b]).unwrap();
            solver.add_clause(&[a, c]).unwrap();
            assert_eq!(solver.solve(&[a]).unwrap(), Answer::Sat, "{kind}");
            assert!(solver.value(a) && !solver.value(b), "{kind}");
            assert_eq!(solver.solve(&[c, a, b]).unwrap(), Answer::Unsat, "{kind}");
            let failed = solver.failed_assumptions();
            assert!(failed.contains(&a) && failed.contains(&b), "{kind}: {failed:?}");
            assert!(failed.iter().all(|l| [a, b, c].contains(l)), "{kind}: only assumptions: {failed:?}");
            assert_eq!(solver.solve(&[]).unwrap(), Answer::Sat, "{kind}: assumptions are not kept");
        }
    }

    /// Random 3-CNF over a few variables, many assumption sets: every failed-assumption set
    /// must itself be unsatisfiable, or core-guided bounds and invariants would be unsound.
    #[test]
    fn failed_assumptions_are_always_cores() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut checked = 0;
        for kind in SolverKind::ALL {
            for _ in 0..200 {
                let mut solver = kind.create().unwrap();
                let lit = |v: u64, neg: u64| Lit::new(v as u32, neg == 1);
                for _ in 0..16 {
                    let clause: Vec<Lit> = (0..3).map(|_| lit(next(12), next(2))).collect();
                    solver.add_clause(&clause).unwrap();
                }
                for round in 0..20 {
                    // Clauses keep arriving between calls, units among them.
                    let width = 1 + round % 3;
                    let clause: Vec<Lit> = (0..width).map(|_| lit(next(12), next(2))).collect();
                    solver.add_clause(&clause).unwrap();
                    let assumptions: Vec<Lit> = (0..6).map(|_| lit(next(12), next(2))).collect();
                    if solver.solve(&assumptions).unwrap() == Answer::Unsat {
                        let core = solver.failed_assumptions();
                        assert!(core.iter().all(|l| assumptions.contains(l)), "{kind}");
                        assert_eq!(solver.solve(&core).unwrap(), Answer::Unsat, "{kind}: {core:?} of {assumptions:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 50, "too few unsatisfiable calls to tell: {checked}");
    }
}

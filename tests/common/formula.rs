//! The models of a horizon formula, enumerated: the routes it allows, one per model.

use std::collections::{BTreeSet, HashMap};

use knights_sat::encodings::encode::HorizonEncoding;
use knights_sat::solver::{Answer, SatSolver, SolverKind};
use rustsat::instances::Cnf;
use rustsat::types::{Lit, Var};

/// Extends `encoding` (whose first clauses are in `cnf`) to `steps` steps, asks for the goal at
/// `steps`, and reads every model with `read`, which gives the route and the literals that tell
/// it apart (the model's route is then blocked by their negations); `None` past `limit`
/// routes. A route read twice fails the test: the blocking literals did not tell it apart.
pub fn routes_of<E: HorizonEncoding, R: Ord + std::fmt::Debug>(
    mut encoding: E,
    mut cnf: Cnf,
    steps: usize,
    limit: usize,
    read: impl Fn(&E, &dyn SatSolver) -> (R, Vec<Lit>),
) -> Option<BTreeSet<R>> {
    for _ in 0..steps {
        encoding.extend(&mut cnf);
    }
    let switch = encoding.goal_switch(steps, &mut cnf);
    let mut solver = SolverKind::Varisat.create().unwrap();
    for clause in cnf.iter() {
        solver.add_clause(&clause.iter().copied().collect::<Vec<_>>()).unwrap();
    }
    let mut found = BTreeSet::new();
    while solver.solve(&[switch]).unwrap() == Answer::Sat {
        let (route, true_lits) = read(&encoding, solver.as_ref());
        let block: Vec<Lit> = true_lits.iter().map(|&lit| !lit).collect();
        assert!(!found.contains(&route), "a route found twice: {route:?}");
        found.insert(route);
        if found.len() > limit {
            return None;
        }
        solver.add_clause(&block).unwrap();
    }
    Some(found)
}

/// What unit propagation alone derives from `assumptions` in `cnf`: the value of every variable
/// it sets, or `None` if it runs into a conflict.
pub fn propagate(cnf: &Cnf, assumptions: &[Lit]) -> Option<HashMap<Var, bool>> {
    let mut value: HashMap<Var, bool> = HashMap::new();
    let lit_value = |value: &HashMap<Var, bool>, lit: Lit| value.get(&lit.var()).map(|&v| v != lit.is_neg());
    for &lit in assumptions {
        match lit_value(&value, lit) {
            Some(false) => return None,
            Some(true) => {}
            None => {
                value.insert(lit.var(), lit.is_pos());
            }
        }
    }
    loop {
        let mut changed = false;
        for clause in cnf.iter() {
            let mut open = None;
            let mut open_count = 0;
            let mut satisfied = false;
            for &lit in clause.iter() {
                match lit_value(&value, lit) {
                    Some(true) => {
                        satisfied = true;
                        break;
                    }
                    Some(false) => {}
                    None => {
                        open_count += 1;
                        open = Some(lit);
                    }
                }
            }
            if satisfied {
                continue;
            }
            match (open_count, open) {
                (0, _) => return None,
                (1, Some(lit)) => {
                    value.insert(lit.var(), lit.is_pos());
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return Some(value);
        }
    }
}

/// Whether unit propagation alone, from `assumptions`, runs `cnf` into a conflict: how a
/// redundant family of clauses is meant to cut a hopeless partial route off at once.
pub fn propagates_to_conflict(cnf: &Cnf, assumptions: &[Lit]) -> bool {
    propagate(cnf, assumptions).is_none()
}

//! Every objective-bound encoding imposes exactly the bound asked for: with the literals fixed
//! by assumptions, the formula is satisfiable precisely when their weighted sum is within it.

use knights_sat::encodings::encode::bound::{BoundEncoding, ObjectiveBound};
use knights_sat::solver::{Answer, SolverKind};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::Lit;

#[test]
fn every_encoding_bounds_exactly_under_assumptions() {
    let weights = [3usize, 1, 2, 2, 5];
    let total: usize = weights.iter().sum();
    for encoding in BoundEncoding::ALL {
        let mut vars = BasicVarManager::default();
        let lits: Vec<Lit> = weights.iter().map(|_| vars.new_lit()).collect();
        let terms: Vec<(Lit, usize)> = lits.iter().copied().zip(weights).collect();
        let mut bound = ObjectiveBound::new(encoding, &terms);
        let mut solver = SolverKind::Varisat.create().unwrap();
        // Bounds in a scrambled order, as a binary search would ask them.
        for ub in [7, 12, 3, 0, 9, 1, 14, 5, 2, 8, 4, 6, 10, 11, 13] {
            let mut cnf = Cnf::new();
            bound.encode_ub(ub, &mut cnf, &mut vars);
            for clause in cnf.iter() {
                solver.add_clause(&clause[..]).unwrap();
            }
            let assumed = bound.enforce_ub(ub);
            for mask in 0u32..1 << weights.len() {
                let sum: usize = (0..weights.len()).filter(|i| mask >> i & 1 == 1).map(|i| weights[i]).sum();
                let mut assumptions: Vec<Lit> =
                    (0..weights.len()).map(|i| if mask >> i & 1 == 1 { lits[i] } else { !lits[i] }).collect();
                assumptions.extend(&assumed);
                let expected = if sum <= ub { Answer::Sat } else { Answer::Unsat };
                assert_eq!(
                    solver.solve(&assumptions).unwrap(),
                    expected,
                    "{encoding}: sum {sum} of {total}, bound {ub}"
                );
            }
        }
    }
}

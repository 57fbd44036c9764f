//! An exported DIMACS file, read back by RustSAT's parser and solved from scratch, answers as
//! the search does: SAT at the optimum, UNSAT one step better.

mod common;

use std::io::BufReader;
use std::path::Path;

use common::knights_sat;
use knights_sat::encodings::encode::AtMostOne;
use knights_sat::encodings::puzzle;
use knights_sat::export::{formula, write_dimacs, Question};
use knights_sat::solver::{Answer, SolverKind};
use rustsat::instances::SatInstance;

/// Exports `question` about the shipped `file`, parses the text back and solves it.
fn answer(file: &str, question: Question) -> Answer {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(file);
    let puzzle = puzzle::load(&path).unwrap();
    let formula = formula(&puzzle, question, AtMostOne::default()).unwrap();
    let mut text = Vec::new();
    write_dimacs(&formula, file, &mut text).unwrap();
    let instance: SatInstance = SatInstance::from_dimacs(&mut BufReader::new(text.as_slice())).expect("DIMACS parses");
    let (cnf, _) = instance.into_cnf();
    assert_eq!(cnf.len(), formula.cnf.len(), "every clause read back");
    let mut solver = SolverKind::Varisat.create().unwrap();
    for clause in cnf.iter() {
        solver.add_clause(&clause[..]).unwrap();
    }
    solver.solve(&[]).unwrap()
}

#[test]
fn move_puzzles_at_their_optimal_horizon_and_one_below() {
    assert_eq!(answer("guarini.toml", Question::Horizon(15)), Answer::Unsat);
    assert_eq!(answer("guarini.toml", Question::Horizon(16)), Answer::Sat);
    assert_eq!(answer("queen-d5-tour.toml", Question::Horizon(45)), Answer::Unsat);
    assert_eq!(answer("queen-d5-tour.toml", Question::Horizon(46)), Answer::Sat);
    assert_eq!(answer("two-knights-two-queens.toml", Question::Horizon(9)), Answer::Unsat);
    assert_eq!(answer("two-knights-two-queens.toml", Question::Horizon(10)), Answer::Sat);
}

#[test]
fn placements_at_their_optimum_and_one_better() {
    assert_eq!(answer("knights-domination-8x8.toml", Question::Bound(11)), Answer::Unsat);
    assert_eq!(answer("knights-domination-8x8.toml", Question::Bound(12)), Answer::Sat);
    assert_eq!(answer("independence-queens-8x8.toml", Question::Bound(8)), Answer::Sat);
    assert_eq!(answer("independence-queens-8x8.toml", Question::Bound(9)), Answer::Unsat);
    assert_eq!(answer("independence-queens-8x8.toml", Question::Bound(65)), Answer::Unsat);
}

#[test]
fn the_command_writes_dimacs_and_rejects_a_question_of_the_wrong_family() {
    let run = knights_sat(&["export", "puzzles/guarini.toml", "--horizon", "16"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("c knights-sat export of puzzles/guarini.toml"), "{}", run.stdout);
    assert!(run.stdout.lines().any(|l| l.starts_with("p cnf ")), "a DIMACS header");
    let run = knights_sat(&["export", "puzzles/guarini.toml", "--bound", "3"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("exported at a horizon or bound given by `--horizon`"), "{}", run.stderr);
}

//! An exported DIMACS file, read back by RustSAT's parser and solved from scratch, answers as
//! the search does: SAT at the optimum, UNSAT one step better.

mod common;

use std::io::BufReader;
use std::path::Path;

use common::knights_sat;
use knights_sat::encodings::encode::AtMostOne;
use knights_sat::encodings::linear::write_opb;
use knights_sat::encodings::linear::LinearModel;
use knights_sat::encodings::puzzle;
use knights_sat::export::{formula, linear_model, write_dimacs, Question};
use knights_sat::solver::{Answer, SolverKind};
use rustsat::instances::{Cnf, SatInstance};

/// Exports `question` about the shipped `file`, parses the text back and solves it.
fn answer(file: &str, question: Question) -> Answer {
    let puzzle = shipped(file);
    let formula = formula(&puzzle, question, AtMostOne::default()).unwrap();
    let mut text = Vec::new();
    write_dimacs(&formula, file, &mut text).unwrap();
    let instance: SatInstance = SatInstance::from_dimacs(&mut BufReader::new(text.as_slice())).expect("DIMACS parses");
    let (cnf, _) = instance.into_cnf();
    assert_eq!(cnf.len(), formula.cnf.len(), "every clause read back");
    // The header states what follows: no variable past its count, exactly its clauses.
    let text = String::from_utf8(text).unwrap();
    let header: Vec<usize> = text
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .expect("a DIMACS header")
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let largest = cnf.iter().flat_map(|clause| clause.iter()).map(|l| l.var().idx() + 1).max().unwrap_or(0);
    assert!(largest <= header[0], "{file}: variable {largest} past the header's {}", header[0]);
    assert_eq!(header[1], cnf.len(), "{file}: the header's clause count");
    solve_cnf(&cnf)
}

/// The shipped puzzle `file`.
fn shipped(file: &str) -> puzzle::Puzzle {
    puzzle::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(file)).unwrap()
}

/// Writes `model` as OPB, reads it back with RustSAT (which encodes the pseudo-Boolean
/// constraints itself) and solves it from scratch.
fn solve_opb(model: &LinearModel) -> Answer {
    let mut text = Vec::new();
    write_opb(model, &mut text).unwrap();
    let options = rustsat::instances::fio::opb::Options::default();
    let instance: SatInstance =
        SatInstance::from_opb(&mut BufReader::new(text.as_slice()), options).expect("OPB parses");
    solve_cnf(&instance.into_cnf().0)
}

/// Solves `cnf` from scratch with varisat.
fn solve_cnf(cnf: &Cnf) -> Answer {
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

/// A step too large to hold is refused before it is built: a queen on 64x64 adds about 54
/// million clauses at its third step, which took 1.9 GB and 90 s before the allocation failed
/// and the process aborted (found by the fuzz campaign, seed 27).
#[test]
fn a_formula_too_large_to_write_is_refused_before_its_step_is_built() {
    let dir = common::Scratch::new("export", "too-large");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("queen-64x64.toml");
    let text = "kind = \"exchange\"\nboard = \"64x64\"\nremoved = [\"d1\"]\n\n[[side]]\nname = \"s0\"\n\
                start = [\"Qf6\", \"Kg2\"]\ngoal = [\"Qg8\", \"Kf1\"]\n";
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();
    let run = knights_sat(&["export", path, "--horizon", "3", "-o", dir.join("out.cnf").to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("a horizon of 3 needs about"), "{}", run.stderr);
    assert!(run.stderr.contains("more than the 10000000 an export writes"), "{}", run.stderr);
    // One step is small enough, and is written.
    let run = knights_sat(&["export", path, "--horizon", "1", "-o", dir.join("out.cnf").to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// Solves the OPB form of `question` about `puzzle`, read back by RustSAT (which encodes its
/// pseudo-Boolean constraints itself): the covering and conflict model, checked without the
/// project's CNF encoding.
fn opb_answer(puzzle: &puzzle::Puzzle, bound: usize) -> Answer {
    let model = linear_model(puzzle, Some(Question::Bound(bound))).unwrap();
    solve_opb(&model)
}

#[test]
fn the_linear_placement_model_has_the_exhaustive_optimum() {
    use knights_sat::encodings::geometry::{Board, PawnDirection};
    use knights_sat::encodings::ground_truth::placement::optimal_placement;
    use knights_sat::encodings::puzzle::placement::{KindRule, PlacementGoal, PlacementPuzzle};
    for n in 2..=4 {
        for goal in PlacementGoal::ALL {
            for letters in ["N", "Q", "K", "RB", "PN"] {
                let kinds = KindRule::parse_letters(letters).unwrap();
                let board = Board::new(n, n).unwrap();
                let p = PlacementPuzzle::new(None, board, goal, kinds, PawnDirection::Up, vec![], vec![]).unwrap();
                let Some(optimum) = optimal_placement(&p, 10_000_000).unwrap() else { continue };
                let puzzle = puzzle::Puzzle::Placement(p);
                let context = format!("{n}x{n} {goal} {letters}");
                assert_eq!(opb_answer(&puzzle, optimum), Answer::Sat, "{context}");
                let better = if goal.minimises() { optimum.checked_sub(1) } else { Some(optimum + 1) };
                if let Some(better) = better {
                    assert_eq!(opb_answer(&puzzle, better), Answer::Unsat, "{context}: {better}");
                }
            }
        }
    }
}

#[test]
fn the_command_writes_opb_and_lp() {
    let run = knights_sat(&["export", "puzzles/knights-domination-8x8.toml", "--format", "opb"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("* #variable= 64 #constraint= 64"), "{}", &run.stdout[..200]);
    assert!(run.stdout.contains("* x1 = N_a1") && run.stdout.contains("min: +1 x1 "), "names and objective");
    let run = knights_sat(&["export", "puzzles/independence-queens-8x8.toml", "--format", "lp", "--bound", "8"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for part in ["Maximize", "Subject To", " bound: ", ">= 8", "Binary", "End"] {
        assert!(run.stdout.contains(part), "{part} in the LP file");
    }
    let run = knights_sat(&["export", "puzzles/guarini.toml"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("give `--horizon T` or `--bound K`"), "{}", run.stderr);
}

/// Solves the OPB form of the time-indexed model of `file` at `horizon`, read back by RustSAT.
fn opb_horizon_answer(file: &str, horizon: usize) -> Answer {
    let puzzle = shipped(file);
    let model = linear_model(&puzzle, Some(Question::Horizon(horizon))).unwrap();
    solve_opb(&model)
}

#[test]
fn the_time_indexed_linear_models_have_the_published_horizons() {
    assert_eq!(opb_horizon_answer("guarini.toml", 16), Answer::Sat);
    assert_eq!(opb_horizon_answer("guarini.toml", 15), Answer::Unsat);
    assert_eq!(opb_horizon_answer("finegold.toml", 5), Answer::Unsat);
    assert_eq!(opb_horizon_answer("two-knights-two-queens.toml", 10), Answer::Sat);
    assert_eq!(opb_horizon_answer("two-knights-two-queens.toml", 9), Answer::Unsat);
}

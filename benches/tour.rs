//! Time to prove the shipped tours optimal, incremental or not, with each redundant family of
//! the encoding switched off in turn:
//!
//! ```text
//! cargo bench --bench tour
//! ```
//!
//! Each run is the `knights-sat` binary with `--json --timeout`. Environment:
//! `KNIGHTS_SAT_BENCH_TIMEOUT` (seconds per run, default 60), `KNIGHTS_SAT_BENCH_SOLVER`
//! (default `cadical`), `KNIGHTS_SAT_BENCH_CONFIGS` (a comma-separated subset of the
//! configuration names in the first column). Every answer is compared with the published (or
//! exhaustively searched) optimum; a mismatch is printed as `WRONG`.

mod common;

const TWO_KNIGHTS: [&str; 9] =
    ["tour", "--board", "7x7", "--attackers", "Qa1,Qg7", "--knights", "e2,c6", "--objective", "moves"];

/// The tours: a label, the puzzle (a file, or inline flags) and the optimum.
const TOURS: [(&str, &[&str], usize); 4] = [
    ("queen d5, any order (46)", &["puzzles/queen-d5-tour.toml"], 46),
    ("Finegold (158)", &["puzzles/finegold.toml"], 158),
    ("2 knights, 2 queens, steps (10)", &["puzzles/two-knights-two-queens.toml"], 10),
    ("2 knights, 2 queens, moves (20)", &TWO_KNIGHTS, 20),
];

const CONFIGURATIONS: [(&str, &[&str]); 8] = [
    ("default", &[]),
    ("not incremental", &["--no-incremental"]),
    ("no colour count", &["--no-colour-count"]),
    ("no count to go", &["--no-count-to-go"]),
    ("no distance to go", &["--no-distance-to-go"]),
    ("none of the three", &["--no-colour-count", "--no-count-to-go", "--no-distance-to-go"]),
    ("no canonical order", &["--no-canonical-order"]),
    ("pairwise at-most-one", &["--at-most-one", "pairwise"]),
];

fn main() {
    let (timeout, solver, only) = (common::timeout(), common::solver(), common::only_configs());
    println!("\ntours ({solver}, seconds to prove optimality, limit {timeout} s)\n");
    let header: Vec<&str> = TOURS.iter().map(|t| t.0).collect();
    println!("| configuration | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(header.len()));
    for (name, flags) in CONFIGURATIONS {
        if only.as_ref().is_some_and(|o| !o.iter().any(|c| c == name)) {
            continue;
        }
        let cells: Vec<String> = TOURS
            .iter()
            .map(|&(_, puzzle, optimum)| {
                let args: Vec<String> = flags.iter().chain(puzzle).map(|s| s.to_string()).collect();
                common::timed_cell(&args, optimum).0
            })
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
    }
}

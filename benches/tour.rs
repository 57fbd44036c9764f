//! Time to prove the shipped tours and the tour suite (`puzzles/bench-tours/`) optimal,
//! incremental or not, with each redundant family of the encoding switched off in turn:
//!
//! ```text
//! cargo bench --bench tour
//! ```
//!
//! Each run is the `knights-sat` binary with `--json --timeout`. Environment:
//! `KNIGHTS_SAT_BENCH_TIMEOUT` (seconds per run, default 60), `KNIGHTS_SAT_BENCH_SOLVER`
//! (default `cadical`), `KNIGHTS_SAT_BENCH_CONFIGS` (a comma-separated subset of the
//! configuration names in the header row). An answer is compared with the published (or
//! exhaustively searched) optimum where there is one, and printed as `WRONG` if it differs;
//! the suite's other tours show the seconds and, in brackets, the optimum proved (or past the
//! limit, the best value found and the bound).

mod common;

const TWO_KNIGHTS: [&str; 9] =
    ["tour", "--board", "7x7", "--attackers", "Qa1,Qg7", "--knights", "e2,c6", "--objective", "moves"];

/// The tours: a label, the puzzle (a file, or inline flags) and the optimum where it is known
/// apart from knights-sat.
const TOURS: [(&str, &[&str], Option<usize>); 14] = [
    ("queen d5, from h8 (46)", &["puzzles/bench-tours/queen-d5-h8.toml"], Some(46)),
    ("queen d5, any start", &["puzzles/bench-tours/queen-d5-any.toml"], None),
    ("queen d5, 2 knights, steps", &["puzzles/bench-tours/queen-d5-two-knights-steps.toml"], None),
    ("queen d5, 2 knights, moves", &["puzzles/bench-tours/queen-d5-two-knights-moves.toml"], None),
    ("queen d5, 3 knights, steps", &["puzzles/bench-tours/queen-d5-three-knights-steps.toml"], None),
    ("queen d5, 3 knights, moves", &["puzzles/bench-tours/queen-d5-three-knights-moves.toml"], None),
    ("Finegold (158)", &["puzzles/finegold.toml"], Some(158)),
    ("Finegold, 2 knights", &["puzzles/bench-tours/finegold-two-knights.toml"], None),
    ("2 knights, 2 queens, steps (10)", &["puzzles/two-knights-two-queens.toml"], Some(10)),
    ("2 knights, 2 queens, moves (20)", &TWO_KNIGHTS, Some(20)),
    ("queen b2, 7x7, any start", &["puzzles/bench-tours/queen-b2-7x7-any.toml"], None),
    ("queen e5, 9x9, from b1", &["puzzles/bench-tours/queen-e5-9x9-b1.toml"], None),
    ("queen e5, 9x9, any start", &["puzzles/bench-tours/queen-e5-9x9-any.toml"], None),
    ("queen e5, 10x10, any start", &["puzzles/bench-tours/queen-e5-10x10-any.toml"], None),
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
    let configurations: Vec<(&str, &[&str])> = CONFIGURATIONS
        .into_iter()
        .filter(|(name, _)| only.as_ref().is_none_or(|o| o.iter().any(|c| c == name)))
        .collect();
    let header: Vec<&str> = configurations.iter().map(|c| c.0).collect();
    println!("| tour | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(header.len()));
    for (label, puzzle, optimum) in TOURS {
        let cells: Vec<String> = configurations
            .iter()
            .map(|(_, flags)| {
                let args: Vec<String> = flags.iter().chain(puzzle).map(|s| s.to_string()).collect();
                match optimum {
                    Some(optimum) => common::timed_cell(&args, optimum).0,
                    None => common::timed_value_cell(&args),
                }
            })
            .collect();
        println!("| {label} | {} |", cells.join(" | "));
    }
}

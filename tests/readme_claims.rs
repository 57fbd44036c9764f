//! Claims the README makes of the command line, each run as a user would: every `--at-most-one`
//! encoding, the tour switches, an early stop that still answers, `--certify` refusing what it
//! cannot certify, 64x64 boards, `export -o` and the default benchmark suite (`bench --solvers
//! highs` is tested with the HiGHS backend's other tests).
//! Expected optima are the published ones (Guarini: 16 moves; the queen-d5 tour: 46).

mod common;

use common::{bench_rows, knights_sat, Scratch};
use serde_json::Value;

fn json(args: &[&str]) -> (i32, Value) {
    let run = knights_sat(args);
    let value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", run.stdout));
    (run.code, value)
}

#[test]
fn every_at_most_one_encoding_solves_guarini() {
    for encoding in ["pairwise", "ladder", "bimander", "commander", "bitwise"] {
        let (code, v) = json(&["solve", "puzzles/guarini.toml", "--json", "--at-most-one", encoding]);
        assert_eq!((code, v["status"].as_str(), v["value"].as_u64()), (0, Some("optimal"), Some(16)), "{encoding}");
    }
}

/// The queen-d5 tour with one of its redundant constraints switched off still takes 46 moves
/// (a test each, so that the three long solves run side by side).
fn tour_switch_keeps_the_forty_six_moves(switch: &str) {
    let (code, v) = json(&["solve", "puzzles/queen-d5-tour.toml", "--json", switch]);
    assert_eq!((code, v["status"].as_str(), v["value"].as_u64()), (0, Some("optimal"), Some(46)), "{switch}");
}

#[test]
fn the_tour_without_distance_to_go_keeps_the_forty_six_moves() {
    tour_switch_keeps_the_forty_six_moves("--no-distance-to-go");
}

#[test]
fn the_tour_without_count_to_go_keeps_the_forty_six_moves() {
    tour_switch_keeps_the_forty_six_moves("--no-count-to-go");
}

#[test]
fn the_tour_without_colour_count_keeps_the_forty_six_moves() {
    tour_switch_keeps_the_forty_six_moves("--no-colour-count");
}

/// Stopped before its proof, a search that has found an answer prints it as `feasible` and exits
/// 0; one that has not exits 4. Knight domination on 20x20 is not proved within a minute, so
/// longer and longer limits reach the first case whatever the speed of the machine, and every run
/// on the way must be one of the two.
#[test]
fn an_early_stop_with_an_answer_exits_zero_as_feasible() {
    for seconds in ["1", "2", "4", "8", "16", "32"] {
        let args = ["solve", "--json", "--timeout", seconds, "domination", "--board", "20x20", "--pieces", "N"];
        let (code, v) = json(&args);
        assert!(v["stopped"].as_str().is_some_and(|s| s.contains("time limit")), "{v}");
        if code == 4 {
            assert_eq!((v["status"].as_str(), v["value"].as_u64()), (Some("unknown"), None), "{v}");
            continue;
        }
        assert_eq!((code, v["status"].as_str()), (0, Some("feasible")), "{v}");
        let value = v["value"].as_u64().expect("a value");
        assert_eq!(v["solution"]["pieces"].as_array().expect("pieces").len() as u64, value);
        assert!(value >= v["bound"].as_u64().expect("a bound") && value < 400, "{v}");
        let text = knights_sat(&["solve", "--timeout", seconds, "domination", "--board", "20x20", "--pieces", "N"]);
        if text.code == 0 {
            assert!(text.stdout.starts_with("feasible:") || text.stdout.contains("\nfeasible:"), "{}", text.stdout);
        }
        return;
    }
    panic!("no placement found in 32 seconds");
}

/// A board whose relaxation alone takes longer than the limit (knight domination 48x48: 2,304
/// rows; a release build that solved it first had no placement after 10 s, on one thread or
/// two) still ends `feasible`: the local search's first placement does not wait for it.
#[test]
fn a_large_board_stopped_early_has_a_placement() {
    for threads in ["1", "2"] {
        let args = [
            "solve",
            "--json",
            "--timeout",
            "10",
            "--threads",
            threads,
            "domination",
            "--board",
            "48x48",
            "--pieces",
            "N",
        ];
        let (code, v) = json(&args);
        assert_eq!((code, v["status"].as_str()), (0, Some("feasible")), "{threads} threads: {v}");
        let value = v["value"].as_u64().expect("a value");
        assert_eq!(v["solution"]["pieces"].as_array().expect("pieces").len() as u64, value);
        assert!(value < 48 * 48, "better than a piece on every square: {value}");
    }
}

#[test]
fn certify_refuses_what_it_cannot_certify_after_printing_the_answer() {
    // Blocked lines have no linear model: refused, exit 1, after the answer.
    let dir = Scratch::new("claims", "certificate");
    let args = ["solve", "--certify", dir.to_str().unwrap(), "domination", "--board", "4x4", "--pieces", "RB"];
    let run = knights_sat(&[&args[..], &["--attacks", "blocked"]].concat());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("optimal:"), "the answer first: {}", run.stdout);
    assert!(run.stderr.contains("cannot certify"), "{}", run.stderr);
    assert!(!dir.exists(), "no partial certificate");
    // A tour asked only to be feasible proves no optimum: nothing to certify, the answer's exit code.
    let args = ["solve", "--certify", dir.to_str().unwrap(), "tour", "--board", "5x5", "--knights", "a1"];
    let run = knights_sat(&[&args[..], &["--targets", "b3,c5", "--objective", "feasible"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("feasible: 2 moves"), "{}", run.stdout);
    assert!(run.stderr.contains("no certificate written"), "{}", run.stderr);
    assert!(!dir.exists(), "no certificate");
}

#[test]
fn sixty_four_by_sixty_four_boards_solve() {
    // A rook from a1 to the far corner: two moves (file 64 is `bl`).
    let (code, v) =
        json(&["solve", "--json", "exchange", "--board", "64x64", "--white", "Ra1", "--goal-white", "Rbl64"]);
    assert_eq!((code, v["value"].as_u64()), (0, Some(2)), "{v}");
    // A knight touching two squares in order: each is one jump on.
    let args =
        ["solve", "--json", "tour", "--board", "64x64", "--knights", "a1", "--targets", "b3,c5", "--order", "listed"];
    let (code, v) = json(&args);
    assert_eq!((code, v["value"].as_u64()), (0, Some(2)), "{v}");
    let run = knights_sat(&["solve", "exchange", "--board", "65x64", "--white", "Ra1", "--goal-white", "Rb1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn export_to_a_file_writes_what_stdout_gets() {
    for format in ["dimacs", "opb", "lp"] {
        let dir = Scratch::new("claims", &format!("export-{format}"));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("guarini.{format}"));
        let args = ["export", "puzzles/guarini.toml", "--format", format, "--horizon", "16"];
        let to_stdout = knights_sat(&args);
        assert_eq!(to_stdout.code, 0, "{}", to_stdout.stderr);
        let mut to_file = args.to_vec();
        to_file.extend(["-o", path.to_str().unwrap()]);
        let run = knights_sat(&to_file);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stdout.is_empty(), "nothing on stdout with -o: {}", run.stdout);
        let written = std::fs::read_to_string(&path).expect("the file is written");
        assert!(written.len() > 1000 && written == to_stdout.stdout, "{format}: the file holds the export");
    }
}

#[test]
fn the_default_benchmark_suite_runs_every_puzzle_to_an_optimum() {
    let out = Scratch::new("claims", "bench");
    let run = knights_sat(&["bench", "--solvers", "varisat", "--timeout", "120", "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows = bench_rows(&run.stdout);
    let suite: Vec<String> = std::fs::read_dir("puzzles/bench")
        .expect("the suite")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| format!("puzzles/bench/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    assert!(suite.len() >= 5, "{suite:?}");
    for puzzle in &suite {
        let runs: Vec<_> = rows.iter().filter(|((p, _), _)| p == puzzle).map(|(_, r)| r).collect();
        assert!(runs.len() >= 2, "{puzzle}: every strategy that fits: {}", run.stdout);
        assert!(runs.iter().all(|(status, value)| status == "optimal" && value == &runs[0].1), "{puzzle}: {runs:?}");
    }
    let csv = std::fs::read_to_string(out.join("results.csv")).expect("results.csv");
    assert_eq!(csv.lines().count(), rows.len() + 1, "a header and a line per run");
}

//! The `solve` command as a user runs it: text and JSON output, inline puzzles, horizon limits,
//! infeasible puzzles, timeouts and exit codes.

mod common;

use common::{knights_sat, puzzle_file, Scratch};
use serde_json::Value;

/// Knights swapped on 4x4: with the encoding's refinements off, far beyond a fraction of a second.
const SLOW_KNIGHTS: &str = "kind = \"exchange\"\nboard = \"4x4\"\nswap = true\n\
         [[side]]\nname = \"white\"\nstart = [\"Na1\", \"Nb1\", \"Nc1\", \"Nd1\"]\n\
         [[side]]\nname = \"black\"\nstart = [\"Na4\", \"Nb4\", \"Nc4\", \"Nd4\"]\n";

/// Checks that a search stopped early reports as its bound what its refutations proved: one
/// more than the largest goal horizon answered UNSAT before the stop (nothing, or 0, when none
/// was). However far the search got, the two must agree.
fn bound_matches_the_refutations(v: &Value) {
    let refuted = v["stats"]
        .as_array()
        .expect("stats")
        .iter()
        .filter(|s| s["query"] == "goal" && s["result"] == "unsat")
        .map(|s| s["horizon"].as_u64().expect("a horizon"))
        .max();
    assert_eq!(v["bound"].as_u64().unwrap_or(0), refuted.map_or(0, |h| h + 1), "{v}");
}

fn json(args: &[&str]) -> (i32, Value) {
    let run = knights_sat(args);
    let value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", run.stdout));
    (run.code, value)
}

#[test]
fn text_output_shows_optimum_proof_moves_diagrams_and_work() {
    let run = knights_sat(&["solve", "--incremental", "puzzles/guarini.toml"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("optimal: 16 moves; 15 moves proved impossible"), "{out}");
    assert!(out.contains("  1. N"), "moves in algebraic notation: {out}");
    assert!(out.contains("16. N"), "{out}");
    assert!(out.contains("3 n . n"), "the start diagram: {out}");
    assert!(out.contains("horizon  query"), "the work table: {out}");
    assert!(out.lines().any(|l| l.trim_start().starts_with("15  goal") && l.ends_with("UNSAT")), "{out}");
    assert!(run.stderr.is_empty(), "no display on a pipe, nor a line within a minute: {}", run.stderr);
}

#[test]
fn json_output_has_the_documented_fields() {
    let (code, v) = json(&["solve", "--json", "puzzles/guarini.toml"]);
    assert_eq!(code, 0);
    assert_eq!(v["status"], "optimal");
    assert_eq!(v["value"], 16);
    assert_eq!(v["bound"], 16);
    assert_eq!(v["solver"], "cadical");
    assert_eq!(v["incremental"], true);
    assert_eq!(v["puzzle"]["board"], "3x3");
    let moves = v["solution"]["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 16);
    assert_eq!(moves[0]["piece"], "knight");
    assert!(moves[0]["notation"].as_str().unwrap().starts_with('N'));
    let stats = v["stats"].as_array().expect("stats");
    let last = stats.last().unwrap();
    assert_eq!((last["horizon"].as_u64(), last["result"].as_str()), (Some(16), Some("sat")));
    for field in ["variables", "clauses", "conflicts", "seconds", "query"] {
        assert!(last.get(field).is_some(), "stats entries carry `{field}`");
    }
}

#[test]
fn inline_puzzle_equals_the_file() {
    let (code, v) =
        json(&["solve", "exchange", "--board", "3x3", "--white", "Na1,Nc1", "--black", "Na3,Nc3", "--swap", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["value"], 16);
    let (code, v) = json(&[
        "solve",
        "--json",
        "--no-incremental",
        "exchange",
        "--board",
        "3x3",
        "--white",
        "Na1,Nc1",
        "--black",
        "Na3,Nc3",
        "--goal-white",
        "Na3,Nc3",
        "--goal-black",
        "Na1,Nc1",
    ]);
    assert_eq!(code, 0);
    assert_eq!((v["value"].as_u64(), v["incremental"].as_bool()), (Some(16), Some(false)));
}

#[test]
fn horizon_limit_reports_infeasible_within() {
    let run = knights_sat(&["solve", "--max-horizon", "5", "puzzles/guarini.toml"]);
    assert_eq!(run.code, 3);
    assert!(run.stdout.contains("infeasible within 5 moves"), "{}", run.stdout);
    let (code, v) = json(&["solve", "--max-horizon", "5", "--json", "puzzles/guarini.toml"]);
    assert_eq!(code, 3);
    assert_eq!(
        (v["status"].as_str(), v["within"].as_u64(), v["bound"].as_u64()),
        (Some("infeasible"), Some(5), Some(6))
    );
}

#[test]
fn unreachable_goals_are_proved_infeasible() {
    // A bishop never changes the colour of its square.
    let (code, v) = json(&["solve", "--json", "exchange", "--board", "2x2", "--white", "Ba1", "--goal-white", "Bb1"]);
    assert_eq!(code, 3);
    assert_eq!((v["status"].as_str(), v["within"].as_u64()), (Some("infeasible"), None));
    // Two rooks on one rank cannot pass each other: no static obstruction, the search proves it.
    let (code, v) =
        json(&["solve", "--json", "exchange", "--board", "3x1", "--white", "Ra1", "--black", "Rc1", "--swap"]);
    assert_eq!(code, 3);
    assert_eq!((v["status"].as_str(), v["within"].as_u64()), (Some("infeasible"), None));
    assert!(v["reason"].as_str().unwrap().contains("invariant"), "{v}");
}

#[test]
fn timeout_reports_what_is_known() {
    // Knights swapped on 4x4 with the encoding's refinements off: far beyond a fraction of a second.
    let file = puzzle_file("slow.toml", SLOW_KNIGHTS);
    let path = file.to_str().unwrap();
    let (code, v) = json(&["solve", path, "--json", "--timeout", "0.5", "--no-distance-sum", "--no-canonical-order"]);
    assert_eq!(code, 4, "{v}");
    assert_eq!(v["status"], "unknown");
    assert!(v["stopped"].as_str().unwrap().contains("time limit"));
    bound_matches_the_refutations(&v);
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_the_search_and_reports_what_is_known() {
    stopped_by(libc::SIGINT, "stopped by Ctrl-C");
}

/// SIGTERM, as `timeout`, `kill` and Slurm at a job's time limit send it, stops the search as
/// Ctrl-C does: the report still comes.
#[cfg(target_os = "linux")]
#[test]
fn sigterm_stops_the_search_and_reports_what_is_known() {
    stopped_by(libc::SIGTERM, "stopped by SIGTERM");
}

/// Sends `signal` to a slow search once the binary catches it, and checks the report.
#[cfg(target_os = "linux")]
fn stopped_by(signal: libc::c_int, stopped: &str) {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let file = puzzle_file(&format!("stopped-by-{signal}.toml"), SLOW_KNIGHTS);
    let mut command = Command::new(env!("CARGO_BIN_EXE_knights-sat"));
    command
        .args(["solve", file.to_str().unwrap(), "--json", "--no-distance-sum", "--no-canonical-order"])
        .stdout(Stdio::piped());
    // The binary leaves an ignored signal ignored, as `nohup` expects, and a test started in
    // the background of a shell inherits SIGINT ignored: give the child the default disposition.
    // SAFETY: `signal` is async-signal-safe, and nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(move || {
            libc::signal(signal, libc::SIG_DFL);
            Ok(())
        });
    }
    let child = command.spawn().expect("the binary starts");
    // Signal once the binary catches it (its handler is in place before the search starts).
    common::signal_once_caught(child.id(), signal);
    let output = child.wait_with_output().expect("the binary ends");
    assert_eq!(output.status.code(), Some(4));
    let v: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!((v["status"].as_str(), v["stopped"].as_str()), (Some("unknown"), Some(stopped)));
    bound_matches_the_refutations(&v);
}

#[test]
fn unknown_solver_and_bad_flags_are_usage_errors() {
    let run = knights_sat(&["solve", "--solver", "minisat", "puzzles/guarini.toml"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unknown solver `minisat`"), "{}", run.stderr);
    let run = knights_sat(&["solve", "--at-most-one", "magic", "puzzles/guarini.toml"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("ladder"), "{}", run.stderr);
    let run = knights_sat(&["solve", "--timeout", "-1", "puzzles/guarini.toml"]);
    assert_eq!(run.code, 2);
    let run = knights_sat(&["solve", "--strategy", "greedy", "puzzles/guarini.toml"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unknown strategy `greedy`") && run.stderr.contains("core-guided"), "{}", run.stderr);
    let run = knights_sat(&["solve", "--encoding", "sorter", "puzzles/guarini.toml"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unknown bound encoding `sorter`") && run.stderr.contains("dpw"), "{}", run.stderr);
    for threads in ["0", "1025"] {
        let run = knights_sat(&["solve", "--threads", threads, "puzzles/knights-domination-8x8.toml"]);
        assert_eq!(run.code, 2, "--threads {threads}");
        assert!(run.stderr.contains("between 1 and 1024 threads"), "{}", run.stderr);
    }
}

/// Several threads report each thread's share of the tree in the work table.
#[test]
fn several_threads_show_their_share() {
    let (code, v) = json(&["solve", "--threads", "3", "--json", "domination", "--board", "11x11", "--pieces", "N"]);
    assert_eq!((code, v["value"].as_u64(), v["status"].as_str()), (0, Some(21), Some("optimal")));
    let last = v["progress"].as_array().and_then(|rows| rows.last()).expect("the tree reports its work");
    let shares = last["thread_nodes"].as_array().expect("one count per thread");
    let total: u64 = shares.iter().filter_map(|n| n.as_u64()).sum();
    assert_eq!((shares.len(), Some(total)), (3, last["nodes"].as_u64()));
}

#[test]
fn every_sat_solver_gives_the_same_optimum() {
    for solver in ["cadical", "varisat", "portfolio"] {
        let (code, v) = json(&["solve", "--solver", solver, "--json", "puzzles/guarini.toml"]);
        assert_eq!(code, 0);
        assert_eq!((v["value"].as_u64(), v["solver"].as_str()), (Some(16), Some(solver)));
    }
    let (_, v) = json(&["solve", "--solver", "cadical", "--json", "puzzles/guarini.toml"]);
    let conflicts: Vec<u64> =
        v["stats"].as_array().unwrap().iter().filter_map(|row| row["conflicts"].as_u64()).collect();
    assert!(conflicts.last().is_some_and(|&n| n > 0), "CaDiCaL reports its conflicts: {conflicts:?}");
    // The portfolio names the member that answered each call.
    let (_, v) = json(&["solve", "--solver", "portfolio", "--json", "puzzles/queen-d5-tour.toml"]);
    assert_eq!(v["value"].as_u64(), Some(46));
    let members: Vec<&str> =
        v["stats"].as_array().unwrap().iter().filter_map(|row| row["answered_by"].as_str()).collect();
    assert_eq!(members.len(), v["stats"].as_array().unwrap().len(), "every call answered by a member");
    assert!(members.iter().all(|m| ["default", "sat", "unsat", "plain"].contains(m)), "{members:?}");
}

#[test]
fn placements_inline() {
    // Knight domination numbers (OEIS A006075): 8 on 6x6.
    let (code, v) = json(&["solve", "domination", "--board", "6x6", "--pieces", "N", "--json"]);
    assert_eq!(code, 0);
    assert_eq!((v["status"].as_str(), v["value"].as_u64(), v["bound"].as_u64()), (Some("optimal"), Some(8), Some(8)));
    assert_eq!(v["puzzle"]["objective"], "minimise");
    assert_eq!((v["search"]["strategy"].as_str(), v["search"]["symmetry"].as_bool()), (Some("auto"), Some(true)));
    // The default search on a domination goal is branch and bound, which reports its progress.
    let last = v["progress"].as_array().and_then(|rows| rows.last()).expect("branch-and-bound progress rows");
    assert_eq!((last["bound"].as_u64(), last["incumbent"].as_u64()), (Some(8), Some(8)));
    assert!(last["nodes"].as_u64().is_some_and(|n| n >= 1), "{last}");
    assert_eq!(v["solution"]["pieces"].as_array().map(Vec::len), Some(8));
    let (code, v) = json(&["solve", "independence", "--board", "8x8", "--pieces", "Q", "--json"]);
    assert_eq!((code, v["value"].as_u64()), (0, Some(8)));
    let run = knights_sat(&["solve", "domination", "--board", "8x8", "--pieces", "N"]);
    assert!(run.stdout.contains("optimal: 12 pieces; 11 pieces proved impossible"), "{}", run.stdout);
    // Every strategy and encoding, with and without symmetry breaking, from the command line.
    for flags in [
        ["--strategy", "sat-unsat", "--encoding", "totalizer", "--no-symmetry"],
        ["--strategy", "unsat-sat", "--encoding", "dpw", "--symmetry"],
        ["--strategy", "binary", "--encoding", "adder", "--no-symmetry"],
        ["--strategy", "core-guided", "--encoding", "gte", "--symmetry"],
        ["--strategy", "branch-and-bound", "--encoding", "gte", "--no-reduced-costs"],
        ["--strategy", "branch-and-bound", "--encoding", "gte", "--no-local-search"],
        ["--strategy", "branch-and-bound", "--encoding", "gte", "--no-row-branching"],
        ["--strategy", "branch-and-bound", "--encoding", "gte", "--no-cuts"],
        ["--strategy", "branch-and-bound", "--encoding", "gte", "--levels"],
    ] {
        let mut args = vec!["solve", "--json", "domination", "--board", "6x6", "--pieces", "N"];
        args.extend(flags);
        let (code, v) = json(&args);
        assert_eq!((code, v["status"].as_str(), v["value"].as_u64()), (0, Some("optimal"), Some(8)), "{flags:?}");
        assert_eq!(
            (v["search"]["strategy"].as_str(), v["search"]["encoding"].as_str()),
            (Some(flags[1]), Some(flags[3]))
        );
    }
    let run = knights_sat(&["solve", "independence", "--board", "4x4", "--pieces", "NX"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--pieces"), "{}", run.stderr);
}

#[test]
fn placements_with_blocked_lines() {
    // Rooks and bishops dominating 4x4: 3 on an empty board, 4 when placed pieces block lines
    // (both found by the exhaustive search in tests/placement_differential.rs).
    let inline = ["solve", "domination", "--board", "4x4", "--pieces", "RB", "--json"];
    let (code, v) = json(&inline);
    assert_eq!((code, v["value"].as_u64(), v["puzzle"]["attacks"].as_str()), (0, Some(3), Some("empty-board")));
    let (code, v) = json(&[&inline[..], &["--attacks", "blocked"]].concat());
    assert_eq!((code, v["value"].as_u64(), v["puzzle"]["attacks"].as_str()), (0, Some(4), Some("blocked")));
    let path =
        puzzle_file("blocked.toml", "kind = \"domination\"\nboard = \"4x4\"\npieces = \"RB\"\nattacks = \"blocked\"\n");
    let run = knights_sat(&["solve", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("with RB, sliders blocked by placed pieces"), "{}", run.stdout);
    assert!(run.stdout.contains("optimal: 4 pieces; 3 pieces proved impossible"), "{}", run.stdout);
}

#[test]
fn tours_print_the_route_and_the_board_of_first_visits() {
    let run = knights_sat(&["solve", "--incremental", "puzzles/queen-d5-tour.toml"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("optimal: 46 moves; 45 moves proved impossible"), "{out}");
    assert!(out.contains("  1. Nh8-"), "moves in algebraic notation: {out}");
    assert!(out.contains("5  x  x  x  Q  x  x  x  x"), "the queen's rank on the board: {out}");
    let run = knights_sat(&["solve", "puzzles/finegold.toml"]);
    assert!(run.stdout.contains("optimal: 158 moves; 157 moves proved impossible"), "{}", run.stdout);
    assert!(run.stdout.contains("Legs (target: moves from the previous one)"), "{}", run.stdout);
}

#[test]
fn tours_in_json_and_inline() {
    let (code, v) = json(&[
        "solve",
        "--json",
        "tour",
        "--board",
        "7x7",
        "--attackers",
        "Qa1,Qg7",
        "--knights",
        "e2,c6",
        "--objective",
        "steps",
    ]);
    assert_eq!(code, 0);
    assert_eq!((v["puzzle"]["kind"].as_str(), v["puzzle"]["objective"].as_str()), (Some("tour"), Some("steps")));
    assert_eq!((v["status"].as_str(), v["value"].as_u64()), (Some("optimal"), Some(10)));
    let solution = &v["solution"];
    assert_eq!((solution["time_steps"].as_u64(), solution["moves"].as_u64()), (Some(10), Some(20)));
    assert_eq!(solution["starts"], serde_json::json!(["e2", "c6"]));
    let jumps: usize = solution["steps"].as_array().unwrap().iter().map(|s| s.as_array().unwrap().len()).sum();
    assert_eq!(jumps, 20);
    assert!(v["stats"].as_array().unwrap().iter().any(|s| s["query"] == "moves" && s["result"] == "unsat"));
}

#[test]
fn tours_are_drawn_as_svg_on_request() {
    let dir = Scratch::new("cli", "tour");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tour.svg");
    let run = knights_sat(&["solve", "puzzles/two-knights-two-queens.toml", "--svg", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let svg = std::fs::read_to_string(&path).expect("the picture is written");
    let document = roxmltree::Document::parse(&svg).expect("the picture is XML");
    let jumps = document.descendants().filter(|n| n.attribute("class") == Some("jump")).count();
    assert_eq!(jumps, 20, "one arrow per move");
    std::fs::remove_file(&path).ok();
    let run = knights_sat(&["solve", "puzzles/guarini.toml", "--svg", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let svg = std::fs::read_to_string(&path).expect("the picture is written");
    let document = roxmltree::Document::parse(&svg).expect("the picture is XML");
    assert_eq!(document.descendants().filter(|n| n.attribute("class") == Some("frame")).count(), 17);
    let run = knights_sat(&[
        "solve",
        "puzzles/knights-domination-8x8.toml",
        "--svg",
        path.to_str().unwrap(),
        "--svg-attacks",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let svg = std::fs::read_to_string(&path).expect("the picture is written");
    let document = roxmltree::Document::parse(&svg).expect("the picture is XML");
    assert_eq!(document.descendants().filter(|n| n.attribute("class") == Some("piece")).count(), 12);
}

#[test]
fn an_output_file_that_cannot_be_written_is_refused_before_the_work() {
    let missing = Scratch::new("cli", "no-dir");
    let path = missing.join("x.svg");
    let run = knights_sat(&["solve", "puzzles/knights-domination-8x8.toml", "--svg", path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains(&format!("the directory {} does not exist", missing.display())), "{}", run.stderr);
    assert!(!run.stdout.contains("optimal"), "no search ran: {}", run.stdout);
    let dir = std::env::temp_dir();
    let run = knights_sat(&["solve", "puzzles/knights-domination-8x8.toml", "--svg", dir.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("is a directory"), "{}", run.stderr);
    let run = knights_sat(&["merge", "no-such-job", "--svg", path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--svg"), "the picture is refused first: {}", run.stderr);
    let cnf = missing.join("x.cnf");
    let run = knights_sat(&["export", "puzzles/guarini.toml", "--horizon", "3", "--output", cnf.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--output"), "{}", run.stderr);
}

#[test]
fn bench_runs_a_suite_and_writes_table_csv_and_chart() {
    let out = Scratch::new("cli", "bench");
    let run = knights_sat(&[
        "bench",
        "puzzles/bench/exchange-rooks-3x3.toml",
        "--solvers",
        "varisat",
        "--timeout",
        "30",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("| puzzles/bench/exchange-rooks-3x3.toml | varisat incremental | optimal | 8 | 8 |"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("varisat rebuilt | optimal | 8 |"), "{}", run.stdout);
    // Its stderr is a pipe, not a terminal: a line per run as it ends.
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stderr);
    assert!(lines[0].starts_with("[1/2] puzzles/bench/exchange-rooks-3x3.toml (varisat incremental): optimal 8 in "));
    assert!(lines[1].starts_with("[2/2] puzzles/bench/exchange-rooks-3x3.toml (varisat rebuilt): optimal 8 in "));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "a header and two runs: {csv}");
    let chart = std::fs::read_to_string(out.join("chart.svg")).unwrap();
    let document = roxmltree::Document::parse(&chart).expect("the chart is XML");
    assert_eq!(document.descendants().filter(|n| n.attribute("class") == Some("bar")).count(), 2);
}

#[test]
fn bench_certify_adds_the_certificate_columns() {
    let out = Scratch::new("cli", "bench-certify");
    let run = knights_sat(&[
        "bench",
        "puzzles/bench-domination/knights-8x8.toml",
        "--solvers",
        "varisat",
        "--timeout",
        "30",
        "--certify",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("| --certify s | verify s | proof MiB | proof from |"), "{}", run.stdout);
    let rows: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("| puzzles/")).collect();
    assert!(rows.len() >= 2, "{}", run.stdout);
    // Every strategy proves 12; branch and bound's certificate is its own tree, the SAT
    // strategies' a refutation.
    for row in &rows {
        let cells: Vec<&str> = row.split(" | ").map(str::trim).collect();
        assert_eq!(cells[2..4], ["optimal", "12"], "{row}");
        assert!(cells[8].parse::<f64>().is_ok() && cells[9].parse::<f64>().is_ok(), "{row}");
    }
    assert!(rows.iter().any(|r| r.ends_with("| search |")), "{}", run.stdout);
    assert!(
        rows.iter().any(|r| r.ends_with("| refutation by varisat |") || r.ends_with("| refutation by cadical |")),
        "{}",
        run.stdout
    );
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.lines().next().unwrap().ends_with(",certify_seconds,verify_seconds,proof_mib,proof_from"), "{csv}");
}

/// `--list-starts`: every optimal choice of starts in the text answer and under `alternatives`
/// in JSON. A queen on b2 of 6x6 lies on the diagonal a1-f6, so the board's reflection in it
/// maps the puzzle onto itself and the optimal starts come in mirrored pairs.
#[test]
fn the_optimal_starts_are_listed_in_mirrored_pairs() {
    let args = ["solve", "tour", "--board", "6x6", "--attackers", "Qb2", "--knights", "any", "--list-starts"];
    let run = knights_sat(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = run.stdout.lines().find(|l| l.starts_with("Optimal starts")).expect("the starts line");
    let (_, listed) = line.split_once(": ").expect("a list");
    let starts: Vec<&str> = listed.split(", ").collect();
    assert!(!starts.is_empty());
    let mirror = |s: &str| {
        let (file, rank) = (s.as_bytes()[0] - b'a', s[1..].parse::<u8>().unwrap() - 1);
        format!("{}{}", (b'a' + rank) as char, file + 1)
    };
    for start in &starts {
        assert!(starts.contains(&mirror(start).as_str()), "{start} listed without its mirror: {line}");
    }
    let (code, v) = json(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0);
    let alternatives = v["alternatives"].as_array().expect("the alternatives");
    assert_eq!(alternatives.len(), starts.len());
    assert!(alternatives.iter().all(|a| a["moves"] == v["value"]), "each reaches the optimum");
}

/// Where stderr is not a terminal (here a pipe), the progress is a plain line every
/// `--progress-every` seconds with the branch and bound's figures (before them, the best
/// placement found); `--progress-every 0` and `--quiet` write none, and an interval that is
/// no number of seconds is refused.
#[test]
fn a_log_gets_a_line_of_progress_now_and_then() {
    let board = ["domination", "--board", "20x20", "--pieces", "N"];
    let progress_lines = |flags: &[&str], seconds: &str| -> Vec<String> {
        let run = knights_sat(&[&["solve", "--timeout", seconds], flags, &board[..]].concat());
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stderr.lines().filter(|l| l.contains("branch and bound:")).map(String::from).collect()
    };
    // Longer and longer runs until one has a line: a slow machine may spend its first seconds
    // before the tree.
    let (seconds, lines) = ["2", "4", "8", "16"]
        .into_iter()
        .map(|seconds| (seconds, progress_lines(&["--progress-every", "0.25"], seconds)))
        .find(|(_, lines)| !lines.is_empty())
        .expect("a line of progress within 16 s");
    for line in &lines {
        assert!(line.starts_with("[00:00:"), "the time elapsed first: {line}");
        assert!(line.contains(" nodes, bound ") && line.contains(" of the tree closed, "), "{line}");
    }
    assert_eq!(progress_lines(&["--progress-every", "0"], seconds), Vec::<String>::new());
    assert_eq!(progress_lines(&["--progress-every", "0.25", "--quiet"], seconds), Vec::<String>::new());
    // Before the tree's figures (a split of 20x20 spends its first seconds on the local
    // search), a line tells the best placement found, not a stage it is past.
    let out = Scratch::new("cli", "progress");
    let puzzle = "puzzles/bench-domination/knights-20x20.toml";
    let run =
        knights_sat(&["split", puzzle, "--out", out.to_str().unwrap(), "--cubes", "2", "--progress-every", "0.25"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let first = run.stderr.lines().find(|l| l.starts_with("[00:")).expect("a line of progress");
    assert!(first.contains("best "), "the first line names the best placement: {first}");
    for bad in ["-1", "nan", "inf", "1e9"] {
        let flag = format!("--progress-every={bad}");
        let run = knights_sat(&[&["solve", flag.as_str()], &board[..]].concat());
        assert_eq!(run.code, 2, "{bad}: {}", run.stderr);
        assert!(
            run.stderr.contains("--progress-every") && run.stderr.contains("number of seconds"),
            "{bad}: {}",
            run.stderr
        );
    }
}

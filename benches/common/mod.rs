//! Running the release `knights-sat` binary for the benchmarks that time whole searches.

#![allow(dead_code)]

use std::process::Command;
use std::time::Instant;

/// Seconds per run: `KNIGHTS_SAT_BENCH_TIMEOUT`, default 60.
pub fn timeout() -> f64 {
    std::env::var("KNIGHTS_SAT_BENCH_TIMEOUT").ok().and_then(|t| t.parse().ok()).unwrap_or(60.0)
}

/// The SAT solver: `KNIGHTS_SAT_BENCH_SOLVER`, default `cadical`.
pub fn solver() -> String {
    std::env::var("KNIGHTS_SAT_BENCH_SOLVER").unwrap_or_else(|_| "cadical".to_string())
}

/// The configurations to run, if `KNIGHTS_SAT_BENCH_CONFIGS` names a comma-separated subset.
pub fn only_configs() -> Option<Vec<String>> {
    std::env::var("KNIGHTS_SAT_BENCH_CONFIGS").ok().map(|c| c.split(',').map(|s| s.trim().to_string()).collect())
}

/// Solves with `args` under the time limit and formats the cell: the seconds to prove the
/// optimum `expected`, `WRONG` for another optimum, or `> limit`. Returns the cell and whether
/// the run proved an optimum in time.
pub fn timed_cell(args: &[String], expected: usize) -> (String, bool) {
    let timeout = timeout();
    let (stdout, seconds) = timed_solve(args);
    let json = String::from_utf8_lossy(&stdout);
    let optimal = json.contains("\"status\": \"optimal\"");
    let value_ok = json.contains(&format!("\"value\": {expected},"));
    match (optimal, value_ok) {
        (true, true) => (format!("{seconds:.2}"), true),
        (true, false) => ("WRONG".to_string(), true),
        (false, _) => (format!("> {timeout:.0}"), false),
    }
}

/// Solves with `args` under the time limit and formats the cell for a puzzle with no published
/// optimum: the seconds and the value proved optimal, or `> limit` with the best value found
/// and the bound proved.
pub fn timed_value_cell(args: &[String]) -> String {
    let timeout = timeout();
    let (stdout, seconds) = timed_solve(args);
    let json: serde_json::Value = serde_json::from_slice(&stdout).unwrap_or_default();
    let value = json["value"].as_u64().map_or("-".to_string(), |v| v.to_string());
    match json["status"].as_str() {
        Some("optimal") => format!("{seconds:.2} ({value})"),
        _ => format!("> {timeout:.0} ({value}, bound {})", json["bound"]),
    }
}

/// Runs `solve --json` with `args` under the time limit: its standard output and the seconds
/// it took.
fn timed_solve(args: &[String]) -> (Vec<u8>, f64) {
    let clock = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_knights-sat"))
        .args(["solve", "--json", "--quiet", "--solver", &solver(), "--timeout", &timeout().to_string()])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the knights-sat binary runs");
    (output.stdout, clock.elapsed().as_secs_f64())
}

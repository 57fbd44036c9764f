//! The runs of `knights-sat bench`: the puzzle files of a suite, and one run of a puzzle as a
//! separate `knights-sat solve --json --timeout` process, so that a run that passes its limit
//! is stopped for good and runs never share a solver or memory. Which runs a puzzle gets is its
//! family's choice ([`knights_sat::family::Family::bench_runs`]).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use knights_sat::encodings::puzzle::PuzzleError;
use knights_sat::family::BenchRun;
use knights_sat::render::BenchRow;

/// The puzzle files of a suite: the `.toml` files of a directory in name order, or one file.
pub fn suite_files(suite: &Path) -> Result<Vec<PathBuf>, PuzzleError> {
    let io = |source| PuzzleError::Io { file: suite.display().to_string(), source };
    if suite.is_file() {
        return Ok(vec![suite.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(suite)
        .map_err(io)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    Ok(files)
}

/// Runs `binary solve` on `file` with `config` and `timeout` seconds.
pub fn run(binary: &Path, file: &Path, config: &BenchRun, timeout: f64) -> BenchRow {
    let clock = Instant::now();
    let output = Command::new(binary)
        .args(["solve", "--json", "--quiet", "--timeout", &timeout.to_string()])
        .args(&config.flags)
        .arg(file)
        .output();
    let seconds = clock.elapsed().as_secs_f64();
    let mut row = BenchRow {
        puzzle: file.display().to_string(),
        configuration: config.label.clone(),
        status: "error".to_string(),
        value: None,
        bound: None,
        seconds,
        variables: 0,
        clauses: 0,
    };
    let Ok(output) = output else { return row };
    let Ok(json) = serde_json::from_slice::<serde_json::Value>(&output.stdout) else { return row };
    row.status = json["status"].as_str().unwrap_or("error").to_string();
    row.value = json["value"].as_u64();
    row.bound = json["bound"].as_u64();
    if let Some(stats) = json["stats"].as_array() {
        row.variables = stats.iter().filter_map(|s| s["variables"].as_u64()).max().unwrap_or(0);
        row.clauses = stats.iter().filter_map(|s| s["clauses"].as_u64()).max().unwrap_or(0);
    }
    row
}

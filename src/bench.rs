//! `knights-sat bench`: a suite of puzzles solved under every backend and strategy that fits
//! each, with a time limit per run, as a table (Markdown, CSV) and a chart (SVG).
//!
//! Every run is a separate `knights-sat solve --json --timeout` process, so a run that passes
//! its limit is stopped for good and runs never share a solver or memory.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use knights_sat_encodings::puzzle::placement::LineOfSight;
use knights_sat_encodings::puzzle::{Puzzle, PuzzleError};
use serde::Serialize;

use crate::solver::SolverKind;

/// One way to solve a puzzle: a label and the `solve` flags that select it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Configuration {
    /// The label in tables and charts, e.g. `cadical core-guided`.
    pub label: String,
    /// The flags.
    pub flags: Vec<String>,
}

/// The result of one run.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    /// The puzzle file.
    pub puzzle: String,
    /// The configuration's label.
    pub configuration: String,
    /// `optimal`, `feasible`, `infeasible`, `unknown`, or `error` when the run failed.
    pub status: String,
    /// The best value found.
    pub value: Option<u64>,
    /// The proven bound.
    pub bound: Option<u64>,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
    /// The most variables of any solver call.
    pub variables: u64,
    /// The most clauses of any solver call.
    pub clauses: u64,
}

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

/// The configurations that fit `puzzle` with the given SAT solvers: each solver incremental
/// and not for move puzzles, each placement strategy for placements; with `mip`, HiGHS on the
/// time-indexed (or covering and conflict) model, and on the network-flow model of exchanges.
pub fn configurations(puzzle: &Puzzle, solvers: &[SolverKind], mip: bool) -> Vec<Configuration> {
    let mut configs = Vec::new();
    let config =
        |label: String, flags: &[&str]| Configuration { label, flags: flags.iter().map(|f| f.to_string()).collect() };
    for solver in solvers {
        let variants: Vec<(&str, &str, &str)> = match puzzle {
            Puzzle::Placement(_) => {
                ["core-guided", "sat-unsat", "unsat-sat", "binary"].into_iter().map(|s| (s, "--strategy", s)).collect()
            }
            Puzzle::Exchange(_) | Puzzle::Tour(_) => {
                vec![("incremental", "--incremental", ""), ("rebuilt", "--no-incremental", "")]
            }
        };
        for (name, flag, value) in variants {
            let mut flags = vec!["--solver", solver.name(), flag];
            flags.extend((!value.is_empty()).then_some(value));
            configs.push(config(format!("{} {name}", solver.name()), &flags));
        }
    }
    if let Puzzle::Placement(p) = puzzle {
        if p.goal.covers() && p.line_of_sight != LineOfSight::Blocked {
            // No SAT solver: one configuration whatever the solvers (independence relaxes
            // too weakly for it to be worth a run).
            configs.push(config("branch-and-bound".into(), &["--strategy", "branch-and-bound"]));
        }
    }
    if mip {
        let linear = match puzzle {
            Puzzle::Placement(p) => p.line_of_sight != LineOfSight::Blocked,
            Puzzle::Exchange(_) | Puzzle::Tour(_) => true,
        };
        if linear {
            configs.push(config("highs time-indexed".into(), &["--backend", "mip"]));
        }
        if matches!(puzzle, Puzzle::Exchange(_)) {
            configs.push(config("highs network-flow".into(), &["--backend", "mip", "--mip-model", "network-flow"]));
        }
    }
    configs
}

/// Runs `binary solve` on `file` with `config` and `timeout` seconds.
pub fn run(binary: &Path, file: &Path, config: &Configuration, timeout: f64) -> BenchRow {
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

/// The rows as a Markdown table.
pub fn markdown(rows: &[BenchRow], timeout: f64) -> String {
    let mut out = format!(
        "| puzzle | configuration | status | value | bound | seconds (limit {timeout}) | variables | clauses |\n\
         |---|---|---|---|---|---|---|---|\n"
    );
    for r in rows {
        out += &format!("| {} |\n", r.fields("-", 2, |s| s.to_string()).join(" | "));
    }
    out
}

/// The rows as CSV with a header line.
pub fn csv(rows: &[BenchRow]) -> String {
    let mut out = "puzzle,configuration,status,value,bound,seconds,variables,clauses\n".to_string();
    for r in rows {
        out += &format!("{}\n", r.fields("", 3, |s| format!("\"{}\"", s.replace('"', "\"\""))).join(","));
    }
    out
}

impl BenchRow {
    /// The row's eight fields: names through `quote`, a missing number as `missing`, seconds
    /// with `decimals` decimals.
    fn fields(&self, missing: &str, decimals: usize, quote: impl Fn(&str) -> String) -> [String; 8] {
        let number = |n: Option<u64>| n.map_or(missing.to_string(), |n| n.to_string());
        [
            quote(&self.puzzle),
            quote(&self.configuration),
            self.status.clone(),
            number(self.value),
            number(self.bound),
            format!("{:.*}", decimals, self.seconds),
            self.variables.to_string(),
            self.clauses.to_string(),
        ]
    }
}

//! `knights-sat bench`: runs the suite with progress on stderr, prints the Markdown table and
//! writes the table, CSV and chart on request.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use knights_sat::encodings::puzzle;
use knights_sat::family;
use knights_sat::render::{bench_chart, bench_csv, bench_markdown, BenchRow};
use knights_sat::solver::{highs, SolverKind};

use super::args::BenchArgs;
use super::progress;
use super::{CliError, Exit};

mod runs;

use runs::{certify, run as run_one, suite_files};

/// Runs the suite and returns the exit code.
pub fn run(args: BenchArgs) -> Result<Exit, CliError> {
    super::settings::timeout(args.timeout)?;
    let (solvers, mip) = if args.solvers.is_empty() {
        // The portfolio races CaDiCaL against itself: asked for by name, not run by default.
        let sat = vec![SolverKind::Cadical, SolverKind::Varisat];
        (sat, highs::is_available())
    } else {
        let (mut kinds, mut mip) = (Vec::new(), false);
        for name in &args.solvers {
            if name == highs::NAME {
                if !highs::is_available() {
                    return Err(CliError::Usage(highs::NOT_BUILT.into()));
                }
                mip = true;
                continue;
            }
            let kind: SolverKind = name.parse().map_err(CliError::Usage)?;
            kind.create().map_err(|e| CliError::Usage(e.to_string()))?;
            kinds.push(kind);
        }
        (kinds, mip)
    };
    let files = suite_files(&args.suite)?;
    if files.is_empty() {
        return Err(CliError::Usage(format!("{}: no puzzle files (*.toml) in the suite", args.suite.display())));
    }
    let mut runs = Vec::new();
    for file in &files {
        let puzzle = puzzle::load(file)?;
        for config in family::of(&puzzle).bench_runs(&solvers, mip) {
            runs.push((file.clone(), config));
        }
    }
    let binary = std::env::current_exe()?;
    let bar = ProgressBar::with_draw_target(Some(runs.len() as u64), progress::target(!args.quiet));
    let style = ProgressStyle::with_template("{bar:30} {pos}/{len} runs, {elapsed} — {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(200));
    // Where the bar cannot be drawn (a log file), a line per run as it ends.
    let log_lines = progress::writes_lines(!args.quiet);
    let mut rows: Vec<BenchRow> = Vec::new();
    let work = std::env::temp_dir().join(format!("knights-sat-bench-{}", std::process::id()));
    for (file, config) in &runs {
        bar.set_message(format!("{} ({})", file.display(), config.label));
        let mut row = run_one(&binary, file, config, args.timeout);
        if args.certify {
            // Only an optimum has a certificate.
            row.certificate = Some(if row.status == "optimal" {
                certify(&binary, file, config, args.timeout, &work)
            } else {
                Default::default()
            });
        }
        if log_lines {
            eprintln!("[{}/{}] {}", rows.len() + 1, runs.len(), run_line(&row));
        }
        rows.push(row);
        bar.inc(1);
    }
    let _ = std::fs::remove_dir_all(&work);
    bar.finish_and_clear();
    let table = bench_markdown(&rows, args.timeout);
    print!("{table}");
    if let Some(dir) = &args.out {
        let write = |name: &str, text: String| {
            let path = dir.join(name);
            std::fs::write(&path, text)
                .map_err(|e| CliError::Output(std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))))
        };
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Output(std::io::Error::new(e.kind(), format!("{}: {e}", dir.display()))))?;
        write("results.md", table)?;
        write("results.csv", bench_csv(&rows))?;
        write("chart.svg", bench_chart(&rows, args.timeout))?;
    }
    Ok(Exit::Solved)
}

/// A run's line in a log: the puzzle, the configuration, how it ended and its seconds.
fn run_line(row: &BenchRow) -> String {
    let value = row.value.map(|v| format!(" {v}")).unwrap_or_default();
    let bound = match (row.status.as_str(), row.bound) {
        ("optimal", _) | (_, None) => String::new(),
        (_, Some(bound)) => format!(", bound {bound}"),
    };
    format!("{} ({}): {}{value}{bound} in {:.2} s", row.puzzle, row.configuration, row.status, row.seconds)
}

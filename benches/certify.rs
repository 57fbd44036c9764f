//! The cost of certificates: solve time with and without `--certify`, the proof's size, and
//! the time `verify` takes, for knight domination on n x n boards (n = 8..12) and Guarini:
//!
//! ```text
//! cargo bench --bench certify
//! KNIGHTS_SAT_BENCH_SOLVER=cadical cargo bench --bench certify --features cadical
//! ```
//!
//! Each run is the release `knights-sat` binary. The search uses `KNIGHTS_SAT_BENCH_SOLVER`
//! (default `cadical`; `varisat` without the feature); the certificate's refutation is always
//! varisat's, traced step by step. `KNIGHTS_SAT_BENCH_TIMEOUT` (seconds per run, default 60) stops a
//! run, which is then shown as `> limit`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `knights-sat` with `args`; the seconds it took, or `None` past `limit` or on failure.
fn timed(args: &[&str], limit: f64) -> Option<f64> {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_knights-sat"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the knights-sat binary runs");
    loop {
        if let Some(status) = child.try_wait().expect("waiting for knights-sat") {
            return status.success().then(|| started.elapsed().as_secs_f64());
        }
        if started.elapsed().as_secs_f64() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn cell(seconds: Option<f64>, limit: f64) -> String {
    seconds.map_or(format!("> {limit:.0}"), |s| format!("{s:.2}"))
}

/// A puzzle file for knight domination on an n x n board.
fn domination(dir: &Path, n: usize) -> PathBuf {
    let path = dir.join(format!("knights-domination-{n}x{n}.toml"));
    let text = format!("kind = \"domination\"\nname = \"knights {n}x{n}\"\nboard = \"{n}x{n}\"\npieces = \"N\"\n");
    std::fs::write(&path, text).expect("a puzzle file");
    path
}

fn main() {
    let (limit, solver) = (common::timeout(), common::solver());
    let work = std::env::temp_dir().join(format!("knights-sat-bench-certify-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a work directory");
    let mut puzzles: Vec<(String, PathBuf)> =
        (8..=12).map(|n| (format!("knight domination {n}x{n}"), domination(&work, n))).collect();
    puzzles.push(("Guarini (16)".into(), PathBuf::from("puzzles/guarini.toml")));
    println!("\ncertificates (search: {solver}; limit {limit} s per run)\n");
    println!("| puzzle | solve s | solve --certify s | overhead s | proof lines | proof MiB | verify s |");
    println!("|---|---|---|---|---|---|---|");
    for (label, path) in puzzles {
        let puzzle = path.to_str().expect("a UTF-8 path");
        let dir = work.join(label.replace([' ', '(', ')'], "_"));
        let _ = std::fs::remove_dir_all(&dir);
        let target = dir.to_str().expect("a UTF-8 path");
        let plain = timed(&["solve", "--quiet", "--solver", &solver, puzzle], limit);
        let certified = timed(&["solve", "--quiet", "--solver", &solver, puzzle, "--certify", target], limit);
        let proof = std::fs::read(dir.join("proof.pbp")).ok().filter(|_| certified.is_some());
        let (lines, mib) = proof.as_ref().map_or(("-".into(), "-".into()), |p| {
            let lines = p.iter().filter(|&&b| b == b'\n').count();
            (lines.to_string(), format!("{:.2}", p.len() as f64 / (1024.0 * 1024.0)))
        });
        let verify = proof.as_ref().map(|_| timed(&["verify", target], limit));
        let overhead = match (plain, certified) {
            (Some(p), Some(c)) => format!("{:.2}", c - p),
            _ => "-".into(),
        };
        println!(
            "| {label} | {} | {} | {overhead} | {lines} | {mib} | {} |",
            cell(plain, limit),
            cell(certified, limit),
            verify.map_or("-".into(), |v| cell(v, limit))
        );
    }
    let _ = std::fs::remove_dir_all(&work);
}

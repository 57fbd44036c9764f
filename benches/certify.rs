//! The cost of certificates: solve time with and without `--certify`, the proof's size as text
//! and gzipped, and the time `verify` takes on each, for the domination bench suite (knights on
//! n x n boards, n = 8..16, queens n = 8..14: proofs from the branch-and-bound search's tree)
//! and Guarini (a refutation of its own):
//!
//! ```text
//! cargo bench --bench certify
//! KNIGHTS_SAT_BENCH_SOLVER=cadical cargo bench --bench certify
//! ```
//!
//! Each run is the release `knights-sat` binary. The search uses `KNIGHTS_SAT_BENCH_SOLVER`
//! (default `cadical`) where it is a SAT search; a refutation is always varisat's, traced step
//! by step. `KNIGHTS_SAT_BENCH_TIMEOUT` (seconds per run, default 60) stops a
//! run, which is then shown as `> limit`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use knights_sat::certify::{PROOF, PROOF_GZ};

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

/// The text proof of the certificate in `dir`.
fn work_proof(dir: &str) -> PathBuf {
    Path::new(dir).join(PROOF)
}

/// The domination bench suite's file for `kind` (`knights`, `queens`) on an n x n board.
fn domination(kind: &str, n: usize) -> PathBuf {
    PathBuf::from(format!("puzzles/bench-domination/{kind}-{n}x{n}.toml"))
}

fn main() {
    let (limit, solver) = (common::timeout(), common::solver());
    let work = std::env::temp_dir().join(format!("knights-sat-bench-certify-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a work directory");
    let mut puzzles: Vec<(String, PathBuf)> =
        (8..=16).map(|n| (format!("knight domination {n}x{n}"), domination("knights", n))).collect();
    puzzles.extend((8..=14).map(|n| (format!("queen domination {n}x{n}"), domination("queens", n))));
    puzzles.push(("Guarini (16)".into(), PathBuf::from("puzzles/guarini.toml")));
    println!("\ncertificates (search: {solver}; limit {limit} s per run)\n");
    println!(
        "| puzzle | solve s | --certify s (text) | --certify s (gzip) | proof lines | text MiB | gzip MiB | verify s (text) | verify s (gzip) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (label, path) in puzzles {
        let puzzle = path.to_str().expect("a UTF-8 path");
        let plain = timed(&["solve", "--quiet", "--solver", &solver, puzzle], limit);
        let mut cells = Vec::new();
        let mut proofs = Vec::new();
        for compression in ["none", "gzip"] {
            let dir = work.join(format!("{}-{compression}", label.replace([' ', '(', ')'], "_")));
            let _ = std::fs::remove_dir_all(&dir);
            let target = dir.to_str().expect("a UTF-8 path").to_string();
            let args = ["solve", "--quiet", "--solver", &solver, puzzle, "--certify", &target];
            let certified = timed(&[&args[..], &["--proof-compression", compression]].concat(), limit);
            cells.push(cell(certified, limit));
            let name = if compression == "gzip" { PROOF_GZ } else { PROOF };
            proofs.push((certified.and_then(|_| std::fs::metadata(dir.join(name)).ok()), target));
        }
        let text = proofs[0].0.as_ref().and_then(|_| std::fs::read(work_proof(&proofs[0].1)).ok());
        let lines = text.as_ref().map_or("-".into(), |t| t.iter().filter(|&&b| b == b'\n').count().to_string());
        let mib = |bytes: Option<u64>| bytes.map_or("-".into(), |b| format!("{:.2}", b as f64 / (1024.0 * 1024.0)));
        let verify = |(meta, dir): &(Option<std::fs::Metadata>, String)| {
            meta.as_ref().map_or("-".into(), |_| cell(timed(&["verify", dir], limit), limit))
        };
        println!(
            "| {label} | {} | {} | {} | {lines} | {} | {} | {} | {} |",
            cell(plain, limit),
            cells[0],
            cells[1],
            mib(proofs[0].0.as_ref().map(|m| m.len())),
            mib(proofs[1].0.as_ref().map(|m| m.len())),
            verify(&proofs[0]),
            verify(&proofs[1]),
        );
    }
    let _ = std::fs::remove_dir_all(&work);
}

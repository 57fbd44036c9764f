//! The runs of `knights-sat bench`: the puzzle files of a suite, and one run of a puzzle as a
//! separate `knights-sat solve --json --timeout` process, so that a run that passes its limit
//! is stopped for good and runs never share a solver or memory. Which runs a puzzle gets is its
//! family's choice ([`knights_sat::family::Family::bench_runs`]).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use knights_sat::certify::{PROOF, PROOF_GZ};
use knights_sat::encodings::puzzle::PuzzleError;
use knights_sat::family::BenchRun;
use knights_sat::render::{BenchRow, CertifiedRun};

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
        certificate: None,
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

/// Runs `binary solve --certify` on `file` with `config` into a fresh directory under `work`,
/// then `binary verify` on what it wrote; each stopped after `timeout` seconds.
pub fn certify(binary: &Path, file: &Path, config: &BenchRun, timeout: f64, work: &Path) -> CertifiedRun {
    let dir = work.join("certificate");
    let _ = std::fs::remove_dir_all(&dir);
    let mut solve = Command::new(binary);
    solve.args(["solve", "--quiet", "--timeout", &timeout.to_string()]).args(&config.flags).arg(file);
    solve.arg("--certify").arg(&dir);
    let mut run = CertifiedRun::default();
    let Some((seconds, stdout)) = timed(&mut solve, timeout) else { return run };
    let proof = [PROOF, PROOF_GZ].iter().map(|name| dir.join(name)).find(|p| p.is_file());
    let Some(proof) = proof else { return run };
    run.seconds = Some(seconds);
    run.from_search = stdout.contains("the search's tree") || stdout.contains("the search's own trace");
    run.decided_by = stdout.split("decided by the ").nth(1).and_then(|rest| rest.split(',').next()).map(String::from);
    run.refuter = stdout.split(" lemmas by ").nth(1).and_then(|rest| rest.split([',', ' ']).next()).map(String::from);
    run.proof_bytes = std::fs::metadata(&proof).ok().map(|m| m.len());
    let mut verify = Command::new(binary);
    verify.arg("verify").arg(&dir);
    run.verify_seconds = timed(&mut verify, timeout).map(|(seconds, _)| seconds);
    let _ = std::fs::remove_dir_all(&dir);
    run
}

/// Runs `command`; its seconds and standard output if it succeeded within `limit` seconds
/// (it is killed past the limit, with a second's grace for its own time limit to act).
fn timed(command: &mut Command, limit: f64) -> Option<(f64, String)> {
    let started = Instant::now();
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().ok()?;
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().ok()? {
            break Some(status);
        }
        if started.elapsed().as_secs_f64() > limit + 1.0 {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let seconds = started.elapsed().as_secs_f64();
    let text = reader.join().unwrap_or_default();
    status.filter(|s| s.success()).map(|_| (seconds, text))
}

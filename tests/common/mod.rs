//! Running the `knights-sat` binary from integration tests.

#![allow(dead_code)]

pub mod formula;
pub mod random;

use std::path::PathBuf;
use std::process::{Command, Output};

/// What a run of the binary produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `knights-sat` with `args` from the workspace root.
pub fn knights_sat(args: &[&str]) -> Run {
    let output: Output = Command::new(env!("CARGO_BIN_EXE_knights-sat"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    Run {
        code: output.status.code().expect("the binary exits, not killed by a signal"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Writes `text` to a fresh file named `name` in a per-process temporary directory.
pub fn puzzle_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("knights-sat-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temp file");
    path
}

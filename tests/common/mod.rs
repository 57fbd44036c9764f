//! Running the `knights-sat` binary from integration tests.

#![allow(dead_code)]

pub mod formula;
pub mod random;

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// Writes `text` to a fresh file named `name`, in a [`Scratch`] directory of its own that goes
/// with it (unless its test is failing). Dereferences to the file's path.
pub fn puzzle_file(name: &str, text: &str) -> PuzzleFile {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = Scratch::new("tests", &format!("{}-{name}", NEXT.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temp file");
    PuzzleFile { path, _dir: dir }
}

/// A file written by [`puzzle_file`], removed with its directory when dropped.
pub struct PuzzleFile {
    path: PathBuf,
    _dir: Scratch,
}

impl Deref for PuzzleFile {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for PuzzleFile {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

/// A directory of one test under the temporary directory, `knights-sat-{kind}-{pid}-{name}`:
/// emptied when made, and removed once its test is done with it, unless the test is failing
/// (then it stays, to be looked at). Dereferences to its path; whoever writes into it creates
/// it.
pub struct Scratch(PathBuf);

impl Scratch {
    /// The directory `name` of this process's tests of `kind`, with nothing in it.
    pub fn new(kind: &str, name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("knights-sat-{kind}-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Scratch(dir)
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<OsStr> for Scratch {
    fn as_ref(&self) -> &OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Sends `signal` to the running child `pid` once it catches it (its handler is in place),
/// read off /proc rather than guessed from a delay: no race on a loaded machine.
#[cfg(target_os = "linux")]
pub fn signal_once_caught(pid: u32, signal: libc::c_int) {
    let status = format!("/proc/{pid}/status");
    let catches = || {
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let mask = text.lines().find_map(|l| l.strip_prefix("SigCgt:")).map(str::trim).unwrap_or("0");
        u64::from_str_radix(mask, 16).is_ok_and(|m| m & (1 << (signal - 1)) != 0)
    };
    let waited = std::time::Instant::now();
    while !catches() {
        assert!(waited.elapsed().as_secs() < 120, "the binary never caught signal {signal}");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    // SAFETY: sends a signal to a child that has not been reaped, so its pid is still its own.
    assert_eq!(unsafe { libc::kill(pid as libc::pid_t, signal) }, 0);
}

/// The rows of a `bench` table: (puzzle, configuration) to (status, value).
pub fn bench_rows(table: &str) -> BTreeMap<(String, String), (String, String)> {
    table
        .lines()
        .filter(|l| l.starts_with("| puzzles/"))
        .map(|l| {
            let cells: Vec<String> = l.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect();
            ((cells[0].clone(), cells[1].clone()), (cells[2].clone(), cells[3].clone()))
        })
        .collect()
}

//! Stopping `cube` from outside: SIGINT and SIGTERM (which Slurm sends at a task's time limit),
//! or a time limit, set one flag that the cubes' searches watch; a second signal ends the
//! process at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Set by the first signal, or when the time is up.
static STOP: AtomicBool = AtomicBool::new(false);

/// How often the flag handed to the searches is brought in step with [`STOP`].
pub(super) const POLL: Duration = Duration::from_millis(50);

/// The exit code of a process ended by a second signal (as a shell reports SIGINT).
const SECOND_SIGNAL: i32 = 130;

/// Starts watching for SIGINT and SIGTERM and, with `time_limit`, the clock; returns the flag
/// they set. A signal that the process inherited ignored (as `nohup` and background jobs of a
/// shell leave SIGINT) stays ignored.
pub fn on_signal_or_time(time_limit: Option<Duration>) -> Arc<AtomicBool> {
    catch_signals();
    let flag = Arc::new(AtomicBool::new(false));
    let watched = Arc::clone(&flag);
    let deadline = time_limit.map(|limit| std::time::Instant::now() + limit);
    // Detached: the process ends with the cubes, whether or not anything stopped them.
    std::thread::spawn(move || loop {
        if deadline.is_some_and(|deadline| std::time::Instant::now() >= deadline) {
            STOP.store(true, Ordering::SeqCst);
        }
        if STOP.load(Ordering::SeqCst) {
            watched.store(true, Ordering::SeqCst);
            return;
        }
        std::thread::sleep(POLL);
    });
    flag
}

#[cfg(unix)]
fn catch_signals() {
    extern "C" fn on_signal(_: libc::c_int) {
        // Only async-signal-safe calls here: an atomic swap and `_exit`.
        if STOP.swap(true, Ordering::SeqCst) {
            // SAFETY: `_exit` is async-signal-safe and ends the process without unwinding.
            unsafe { libc::_exit(SECOND_SIGNAL) }
        }
    }
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: plain `sigaction` calls on zero-initialised structures; the handler above
        // touches nothing but an atomic.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(not(unix))]
fn catch_signals() {
    // Ctrl-C alone, where there are no Unix signals.
    let _ = ctrlc::try_set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(SECOND_SIGNAL);
        }
    });
}

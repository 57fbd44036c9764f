//! Stopping `solve` and `cube` from outside: SIGINT (Ctrl-C) and SIGTERM (which Slurm sends at
//! a task's time limit, and `kill` and `timeout` by default), or for `cube` a time limit, set
//! one flag that the searches watch; a second signal ends the process at once.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Set by the first signal, or when the time is up.
static STOP: AtomicBool = AtomicBool::new(false);

/// The number of the first signal caught, or 0 while none has come.
static CAUGHT: AtomicI32 = AtomicI32::new(0);

/// A signal that asks the process to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// SIGINT: Ctrl-C at a terminal.
    Interrupt,
    /// SIGTERM: `kill`, `timeout`, or Slurm at a task's time limit.
    Terminate,
}

impl Signal {
    /// How a report names what stopped the search.
    pub fn stopped_by(self) -> &'static str {
        match self {
            Signal::Interrupt => "stopped by Ctrl-C",
            Signal::Terminate => "stopped by SIGTERM",
        }
    }

    /// The first signal caught, if one has come.
    fn caught() -> Option<Signal> {
        match CAUGHT.load(Ordering::SeqCst) {
            0 => None,
            #[cfg(unix)]
            n if n == libc::SIGTERM => Some(Signal::Terminate),
            _ => Some(Signal::Interrupt),
        }
    }
}

/// Starts watching for SIGINT and SIGTERM; the first one calls `stop` (on a thread of its own)
/// with the signal. A signal that the process inherited ignored stays ignored.
pub fn on_signal(stop: impl FnOnce(Signal) + Send + 'static) {
    catch_signals();
    // Detached: the process ends whether or not a signal came.
    std::thread::spawn(move || loop {
        if let Some(signal) = Signal::caught() {
            stop(signal);
            return;
        }
        std::thread::sleep(POLL);
    });
}

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
    extern "C" fn on_signal(signal: libc::c_int) {
        // Only async-signal-safe calls here: atomic stores and swaps, and `_exit`.
        let _ = CAUGHT.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
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
        let _ = CAUGHT.compare_exchange(0, 2, Ordering::SeqCst, Ordering::SeqCst);
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(SECOND_SIGNAL);
        }
    });
}

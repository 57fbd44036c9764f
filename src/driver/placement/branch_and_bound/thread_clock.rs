//! The processor time of the calling thread: a clock that stands still while the thread waits
//! for a core, so that a search timed by it does the same work on a loaded machine as on an
//! idle one.

use std::time::Duration;

/// Reads the calling thread's processor time; [`ThreadClock::now`] is only comparable with
/// readings taken on the same thread.
#[derive(Clone, Copy, Debug)]
pub(super) struct ThreadClock {
    #[cfg(not(unix))]
    started: std::time::Instant,
}

impl ThreadClock {
    /// A clock for the calling thread.
    pub fn new() -> ThreadClock {
        ThreadClock {
            #[cfg(not(unix))]
            started: std::time::Instant::now(),
        }
    }

    /// The processor time the calling thread has used so far (where the platform has no such
    /// clock, the time since [`ThreadClock::new`]).
    #[cfg(unix)]
    pub fn now(&self) -> Duration {
        let mut spec = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `spec` is a valid timespec for the call to fill in.
        let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut spec) };
        if status != 0 {
            return Duration::ZERO;
        }
        Duration::new(spec.tv_sec.max(0) as u64, spec.tv_nsec.clamp(0, 999_999_999) as u32)
    }

    /// The time since [`ThreadClock::new`]: this platform has no clock of a thread's own.
    #[cfg(not(unix))]
    pub fn now(&self) -> Duration {
        self.started.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::ThreadClock;
    use std::time::Duration;

    #[test]
    fn the_clock_runs_while_the_thread_works_and_not_while_it_sleeps() {
        let clock = ThreadClock::new();
        let start = clock.now();
        let mut x = 1u64;
        while clock.now().saturating_sub(start) < Duration::from_millis(5) {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
        }
        let worked = clock.now();
        std::thread::sleep(Duration::from_millis(50));
        let slept = clock.now().saturating_sub(worked);
        #[cfg(unix)]
        assert!(slept < Duration::from_millis(20), "the clock ran {slept:?} while the thread slept");
        #[cfg(not(unix))]
        assert!(slept >= Duration::from_millis(50));
    }
}

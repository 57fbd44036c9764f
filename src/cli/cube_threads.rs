//! The threads of `cube` over several cubes: each searches one cube at a time, and once no
//! cube is left to start, a thread whose cube is done joins one still running, so that no
//! core waits on the last cubes of a job.
//!
//! A cube's search cannot take a thread mid-way; it stops at its next nodes instead, keeps
//! them as a stop from outside does (its open nodes and pseudocosts, in its record of a
//! stopped search), and its next search goes on from them on one thread more. Only a
//! placement's cubes of a job that is not certified keep their nodes; the others run to their
//! end on the thread that took them.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::stop::POLL;

/// The cubes being searched, and the threads whose cubes are done.
pub(super) struct CubeThreads {
    running: Mutex<Vec<Running>>,
    /// Threads handed to a running cube and not yet taken up by its next search.
    spare: AtomicUsize,
    /// The stop from outside (a signal, the time limit).
    stop: Arc<AtomicBool>,
    /// Whether the cubes keep their open nodes when stopped, and so can change threads.
    keeps: bool,
    /// Threads still searching cubes.
    busy: AtomicUsize,
}

/// A cube being searched.
struct Running {
    threads: usize,
    since: Instant,
    /// Stops its search: the stop from outside, or another thread handed to it.
    flag: Arc<AtomicBool>,
}

impl CubeThreads {
    /// For `threads` threads; `keeps`: the cubes keep their open nodes when stopped.
    pub fn new(threads: usize, stop: Arc<AtomicBool>, keeps: bool) -> CubeThreads {
        CubeThreads {
            running: Mutex::new(Vec::new()),
            spare: AtomicUsize::new(0),
            stop,
            keeps,
            busy: AtomicUsize::new(threads),
        }
    }

    /// Whether the searches were stopped from outside.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// The flag that stops a search of a cube on `threads` threads, until [`CubeThreads::end`].
    pub fn start(&self, threads: usize) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(self.stopped()));
        self.lock().push(Running { threads, since: Instant::now(), flag: Arc::clone(&flag) });
        flag
    }

    /// The search stopped by `flag` has ended.
    pub fn end(&self, flag: &Arc<AtomicBool>) {
        self.lock().retain(|running| !Arc::ptr_eq(&running.flag, flag));
    }

    /// The threads handed to a cube whose search was stopped for them: its next search takes them.
    pub fn take_spare(&self) -> usize {
        self.spare.swap(0, Ordering::SeqCst)
    }

    /// A thread's part in the searches: when it ends (however: a panic included), the thread
    /// is handed over ([`CubeThreads::hand_over`]).
    pub fn worker(&self) -> Worker<'_> {
        Worker(self)
    }

    /// The calling thread has no cube left: it goes to the running cube with the fewest
    /// threads (of those, the one running longest), whose search stops to go on with it.
    fn hand_over(&self) {
        self.busy.fetch_sub(1, Ordering::SeqCst);
        if !self.keeps || self.stopped() {
            return;
        }
        let running = self.lock();
        let chosen = running
            .iter()
            .filter(|r| !r.flag.load(Ordering::SeqCst))
            .min_by_key(|r| (r.threads, r.since))
            .or_else(|| running.first());
        if let Some(cube) = chosen {
            self.spare.fetch_add(1, Ordering::SeqCst);
            cube.flag.store(true, Ordering::SeqCst);
        }
    }

    /// Passes a stop from outside on to every search, until every thread is done.
    pub fn watch_stop(&self) {
        while self.busy.load(Ordering::SeqCst) > 0 {
            if self.stopped() {
                self.lock().iter().for_each(|r| r.flag.store(true, Ordering::SeqCst));
            }
            std::thread::sleep(POLL);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Running>> {
        self.running.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A thread searching cubes ([`CubeThreads::worker`]).
pub(super) struct Worker<'a>(&'a CubeThreads);

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        self.0.hand_over();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_without_a_cube_goes_to_the_cube_with_the_fewest_threads() {
        let threads = CubeThreads::new(3, Arc::new(AtomicBool::new(false)), true);
        let (two, one) = (threads.start(2), threads.start(1));
        threads.hand_over();
        assert!(one.load(Ordering::SeqCst) && !two.load(Ordering::SeqCst));
        assert_eq!(threads.take_spare(), 1);
        threads.end(&one);
        threads.hand_over();
        assert!(two.load(Ordering::SeqCst));
        assert_eq!(threads.take_spare(), 1);
        threads.end(&two);
        // No cube left running: the thread is idle, not spare.
        threads.hand_over();
        assert_eq!(threads.take_spare(), 0);
    }

    #[test]
    fn cubes_that_cannot_keep_their_nodes_are_never_stopped_for_a_thread() {
        let threads = CubeThreads::new(2, Arc::new(AtomicBool::new(false)), false);
        let flag = threads.start(1);
        threads.hand_over();
        assert!(!flag.load(Ordering::SeqCst));
        assert_eq!(threads.take_spare(), 0);
    }

    #[test]
    fn a_stop_from_outside_reaches_every_search() {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = CubeThreads::new(1, Arc::clone(&stop), true);
        let flag = threads.start(1);
        stop.store(true, Ordering::SeqCst);
        std::thread::scope(|scope| {
            scope.spawn(|| threads.watch_stop());
            while !flag.load(Ordering::SeqCst) {
                std::thread::yield_now();
            }
            threads.end(&flag);
            threads.hand_over();
        });
        assert!(threads.start(1).load(Ordering::SeqCst), "a search started after the stop is stopped at once");
    }
}

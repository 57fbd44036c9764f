//! What the threads of the branch and bound share: the best placement's cost, the queue of
//! subtrees waiting for a thread, and each thread's least open bound, from which the proven
//! bound of the whole search follows.
//!
//! A subtree travels as the branching decisions that lead to it from the root ([`Task`]); the
//! thread that takes it replays them on its own copy of the program. A busy thread gives away
//! the rest of its shallowest branching (the candidates not yet tried, at the node with the
//! orbits of those already tried emptied) when another thread waits with nothing to do, so the
//! threads stay busy without splitting the tree up front, and the tree keeps the shape it has
//! on one thread.
//!
//! A search started again from its open nodes can go a level of the bound at a time
//! ([`Pool::defers`], [`super::Ingredients::levels`]): a thread queues each node whose bound
//! rounds up above both the proven bound and its task's, and the queue hands out the lowest
//! level first ([`queue`]), so the proven bound rises as soon as the nodes below it are
//! searched instead of when the subtree of lowest bound is searched whole. Nearly all of a
//! proof lies in its last level: in cube 93 of a knight domination 20x20 split (bound 57.46,
//! cutoff 61; one thread), 92,199 of its 95,854 nodes were children of nodes whose bound lay
//! between 60 and 61, 3,460 between 59 and 60, 188 between 58 and 59; in cube 45 of an 18x18
//! split (cutoff 51), 39,875 of 41,358 between 50 and 51. So the levels below the last cost a
//! few percent of the nodes, and a long search stopped early reports a bound that says how
//! close it came. A node that waits keeps the basis its relaxation ended at ([`Task::basis`]).
//! But the proof takes longer: knight domination 18x18 on one thread, side by side, before the
//! saved bases, was proved depth first in 1,749 s (1.08 million nodes, 59.3 million pivots),
//! and a level at a time had not finished after 1,800 s (bound 51, 4,351 subtrees open, 60.8
//! million pivots); with them, on two threads, a level at a time took 748 s against 675 s
//! depth first, and on one thread, side by side, 1,516 s (1.43 million nodes, 67.0 million
//! pivots; the bound 51 after 124 s) against 1,348 s (1.08 million nodes, 59.3 million pivots;
//! 49 after 744 s). Neither the nodes that waited (26,506) nor the cuts of cubes' own (755
//! against 1,090 separated) account for the extra nodes: without those cuts (`--no-cube-cuts`,
//! side by side again), depth first proved it in 1,781 s (1.41 million nodes), and a level at
//! a time had 3,056 subtrees open after 1,800 s and 1.69 million nodes. 20x20 on two threads
//! reached the bound 60 after 10.3 minutes, where depth first reached 57 after 34. So it is
//! asked for (`--levels`), not the default. A first version that started a waiting node's
//! count of nodes afresh lost the strong branching of its cube's top levels
//! ([`Task::within`]): 17x17 (two threads) took 24.2 to 35.0 s (five runs) against 22.2 to
//! 29.6 s depth first (six runs), and 21.9 and 23.6 s once it kept them.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use queue::{Queued, Waiting};

mod queue;

use crate::driver::{Event, SearchStats};
use crate::solver::simplex::SavedBasis;

/// A subtree: the node reached from the root by placing `ones` and emptying `zeros` (the
/// branching decisions, which the symmetry group of the node fixes), with the values that
/// propagation and reduced costs had fixed on the way (`fixed`, which the bound arguments
/// justify and the symmetries need not respect).
#[derive(Clone, Debug, Default)]
pub(super) struct Task {
    pub ones: Vec<usize>,
    pub zeros: Vec<usize>,
    /// The decisions in the order they were taken (the certificate's tree).
    pub path: Vec<super::tree_proof::Decision>,
    pub fixed: Fixings,
    /// The rest of a branching to finish at the node, if any (else the node is searched).
    pub rest: Option<Branching>,
    /// A lower bound on the cost of every placement in the subtree.
    pub bound: f64,
    /// The subtree's share of the tree: the root's is 1, and each branching divides its
    /// node's share equally among its children ([`SearchStats::done`]).
    pub share: f64,
    /// The branchings from the root to the node (for the rest of a branching, to the node
    /// that branched): a split's passes, which start from the root, keep the nodes at their
    /// depth whichever thread reaches them. A cube read back counts from itself.
    pub depth: usize,
    /// Cuts that hold in the subtree, separated for an ancestor of its node, which its search
    /// adds to the program.
    pub cuts: Option<Arc<CutSet>>,
    /// Set for a node queued until its level's turn ([`Pool::defers`]) alone, which takes its
    /// ancestor's cuts and separates none of its own: where it lies in the task it was first
    /// deferred from (the branchings from that task's node to it), and the count of the nodes
    /// searched in that task and every node deferred from it. Strong branching measures the
    /// first levels of a large task ([`super::strong::TOP`]) as if the node were still part
    /// of it.
    pub within: Option<(usize, Arc<AtomicU64>)>,
    /// For a node that waits for its level, the basis its relaxation ended at: the thread
    /// that takes the node rebuilds its inverse from it, instead of pivoting there from the
    /// basis of another node.
    pub basis: Option<SavedBasis>,
}

/// Variables with their values, four bytes each (against sixteen for a pair): a search a
/// level at a time keeps hundreds of thousands of tasks waiting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Fixings(Vec<u32>);

impl Fixings {
    /// Each variable with its value (`true`: placed), in order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, bool)> + '_ {
        self.0.iter().map(|&packed| ((packed >> 1) as usize, packed & 1 == 1))
    }
}

impl FromIterator<(usize, bool)> for Fixings {
    fn from_iter<I: IntoIterator<Item = (usize, bool)>>(fixings: I) -> Fixings {
        // A program has at most a few pieces per square of a board of at most 64x64
        // (`MAX_SIDE`), far fewer than 2^31 variables.
        Fixings(fixings.into_iter().map(|(v, one)| (v as u32) << 1 | u32::from(one)).collect())
    }
}

/// Cuts separated for one subtree ([`super::cuts::for_subtree`]): rows over the program's
/// variables that hold in it and below it.
#[derive(Debug)]
pub(super) struct CutSet {
    /// Unique within a search (never 0), so that a thread can tell the set it has loaded.
    pub id: u64,
    pub rows: Vec<(Vec<(i64, usize)>, i64)>,
}

impl Waiting for Task {
    fn cuts(&self) -> u64 {
        self.cuts.as_ref().map_or(0, |cuts| cuts.id)
    }
}

impl Task {
    /// The root of the tree, of bound `bound`.
    pub fn root(bound: f64) -> Task {
        Task { bound, share: 1.0, ..Task::default() }
    }
}

/// A k-way branching: child `i` places candidate `i` after the orbits of the earlier
/// candidates under `subgroup` (members of the symmetry group that fix the node's decisions)
/// were emptied; a `single` (fractional) candidate has a second child that empties its orbit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Branching {
    /// The candidates (those not yet tried, in the rest of a branching), in order.
    pub candidates: Vec<usize>,
    /// A fractional variable's branching, not a covering row's.
    pub single: bool,
    /// The board symmetries, by index, that fix the node's decisions.
    pub subgroup: Vec<usize>,
}

/// A message from a thread to the caller's thread, which reports to the caller.
pub(super) enum Message {
    /// An event to pass on.
    Event(Event),
    /// A thread's statistics so far.
    Stats(usize, SearchStats),
    /// The cuts are in: the tree may start ([`super::prepare::prepare_beside`]).
    Ready,
}

/// The queue and the open bounds, changed together under one lock.
struct Queue {
    tasks: Queued<Task>,
    /// Threads searching a task.
    busy: usize,
    /// Threads waiting for a task.
    waiting: usize,
    /// Each thread's least open bound (infinite when it has no task).
    open: Vec<f64>,
    /// The proven bound last reported, as a cost.
    reported: Option<i64>,
}

/// The state the threads share.
pub(super) struct Pool {
    queue: Mutex<Queue>,
    wake: Condvar,
    /// The best placement's cost (`i64::MAX` before the first).
    best: AtomicI64,
    /// Some thread waits for work: busy threads give some away.
    hungry: AtomicBool,
    /// A thread failed: every thread stops.
    stopped: AtomicBool,
    /// Serialises the reports of placements, so that their costs fall in the order sent.
    offering: Mutex<()>,
    /// The greatest common divisor of the costs.
    step: i64,
    maximise: bool,
    /// Give subtrees away at every node, even with no thread waiting (to test the hand-over).
    eager: bool,
    /// Threads search each level in turn ([`Pool::defers`]).
    levels: bool,
    /// The proven bound last reported, as a cost (`i64::MIN` before the first).
    proven: AtomicI64,
    /// The last id given to a set of cuts.
    cut_sets: AtomicU64,
    /// Nodes searched by every thread together, and the most they may search.
    nodes: AtomicU64,
    budget: u64,
    /// The search stopped because it passed its budget.
    over: AtomicBool,
    /// Once set, each thread hands its open nodes back to the queue and stops
    /// ([`Pool::suspended`]).
    suspend: Option<Arc<AtomicBool>>,
    /// The same once the threads searched this many nodes together (to test suspensions).
    suspend_after: u64,
}

impl Pool {
    /// A pool for `threads` threads with `root` as the only task; an `eager` one has its
    /// threads give subtrees away at every node.
    pub fn new(threads: usize, root: Task, step: i64, maximise: bool, eager: bool) -> Pool {
        Pool::with_tasks(threads, vec![root], step, maximise, eager)
    }

    /// A pool for `threads` threads with `tasks` queued (the open nodes of a tree cut at some
    /// depth, which together cover it).
    pub fn with_tasks(threads: usize, tasks: Vec<Task>, step: i64, maximise: bool, eager: bool) -> Pool {
        Pool {
            queue: Mutex::new(Queue {
                tasks: tasks.into_iter().map(|task| (level(task.bound, step), task)).collect(),
                busy: 0,
                waiting: 0,
                open: vec![f64::INFINITY; threads],
                reported: None,
            }),
            wake: Condvar::new(),
            best: AtomicI64::new(i64::MAX),
            hungry: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            offering: Mutex::new(()),
            step,
            maximise,
            eager,
            levels: false,
            proven: AtomicI64::new(i64::MIN),
            cut_sets: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
            budget: u64::MAX,
            over: AtomicBool::new(false),
            suspend: None,
            suspend_after: u64::MAX,
        }
    }

    /// The pool, whose threads hand their open nodes back to the queue and stop once `flag`
    /// is set: the search can go on later from [`Pool::remaining`].
    pub fn with_suspension(mut self, flag: Arc<AtomicBool>) -> Pool {
        self.suspend = Some(flag);
        self
    }

    /// The pool, suspended once its threads searched `nodes` nodes together.
    #[cfg(test)]
    pub fn suspended_after(mut self, nodes: u64) -> Pool {
        self.suspend_after = nodes;
        self
    }

    /// The pool, whose threads search the tree a level at a time ([`Pool::defers`]), if
    /// `levels`.
    pub fn with_levels(mut self, levels: bool) -> Pool {
        self.levels = levels;
        self
    }

    /// Whether a thread searching a task of bound `task` should queue a node of bound
    /// `bound` instead of searching it now: when searching each level in turn, the nodes
    /// of a level above both the proven bound's and the task's wait until every node below
    /// them is searched, so that the proven bound rises as early as it can.
    pub fn defers(&self, bound: f64, task: f64) -> bool {
        if !self.levels {
            return false;
        }
        let proven = self.proven.load(Ordering::Relaxed);
        proven != i64::MIN && level(bound, self.step) > proven.max(level(task, self.step))
    }

    /// A new id for a set of cuts.
    pub fn cut_set_id(&self) -> u64 {
        self.cut_sets.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Whether the search is being suspended: each thread gives its open nodes back.
    pub fn suspended(&self) -> bool {
        self.suspend.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed))
            || self.nodes.load(Ordering::Relaxed) >= self.suspend_after
    }

    /// The subtrees still queued: after a suspended search, every node it left open.
    pub fn remaining(&self) -> Vec<Task> {
        self.lock().tasks.take_all()
    }

    /// The pool, stopping every thread once they searched `nodes` nodes together.
    pub fn with_budget(mut self, nodes: u64) -> Pool {
        self.budget = nodes;
        self
    }

    /// Counts a node; past the budget, stops the search and says so.
    pub fn count_node(&self) -> bool {
        if self.nodes.fetch_add(1, Ordering::Relaxed) < self.budget {
            return true;
        }
        self.over.store(true, Ordering::Relaxed);
        self.stop();
        false
    }

    /// Whether the search stopped because it passed its budget.
    pub fn over_budget(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        // A thread that panicked holding the lock left the queue consistent (every change
        // under it is a single step), so the poison is ignored.
        self.queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether the costs are maximised.
    pub fn maximise(&self) -> bool {
        self.maximise
    }

    /// The best placement's cost so far.
    pub fn best(&self) -> Option<i64> {
        let best = self.best.load(Ordering::Acquire);
        (best != i64::MAX).then_some(best)
    }

    /// Subtrees not yet searched to the end: queued, or taken by a thread that has not
    /// finished it.
    pub fn open_subtrees(&self) -> u64 {
        let queue = self.lock();
        (queue.tasks.len() + queue.busy) as u64
    }

    /// Whether a thread waits for work.
    pub fn hungry(&self) -> bool {
        self.eager || self.hungry.load(Ordering::Relaxed)
    }

    /// Whether the search was stopped.
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Stops every thread (after a failure).
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        let _queue = self.lock();
        self.wake.notify_all();
    }

    /// Records a placement of cost `cost` if it is the best so far; `report` (called under
    /// the lock, so reports arrive in order) sends it.
    pub fn improve(&self, cost: i64, report: impl FnOnce() -> Result<(), crate::Error>) -> Result<bool, crate::Error> {
        let _order = self.offering.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if self.best().is_some_and(|best| best <= cost) {
            return Ok(false);
        }
        report()?;
        self.best.store(cost, Ordering::Release);
        Ok(true)
    }

    /// Gives the next task to thread `me`, whose program holds the cuts of id `cuts` (0 for
    /// none), waiting while other threads may still give some away; `None` once every thread
    /// is idle and the queue is empty (or the search stopped).
    pub fn take(&self, me: usize, cuts: u64) -> Option<Task> {
        let mut queue = self.lock();
        loop {
            if self.stopped() {
                return None;
            }
            if self.suspended() {
                self.wake.notify_all();
                return None;
            }
            // The task of the least level first: it holds the proven bound down.
            if let Some(task) = queue.tasks.pop(cuts) {
                queue.busy += 1;
                queue.open[me] = task.bound;
                self.hungry.store(queue.waiting > queue.tasks.len(), Ordering::Relaxed);
                return Some(task);
            }
            if queue.busy == 0 {
                self.hungry.store(false, Ordering::Relaxed);
                self.wake.notify_all();
                return None;
            }
            queue.waiting += 1;
            self.hungry.store(true, Ordering::Relaxed);
            // Woken by a task given or the last busy thread; the timeout lets a suspension
            // set from outside be seen.
            queue = match self.wake.wait_timeout(queue, SUSPENSION_POLL) {
                Ok((queue, _)) => queue,
                Err(poisoned) => poisoned.into_inner().0,
            };
            queue.waiting -= 1;
        }
    }

    /// Thread `me` hands a subtree to the waiting threads.
    pub fn give(&self, task: Task) {
        let mut queue = self.lock();
        queue.tasks.push(level(task.bound, self.step), task);
        self.hungry.store(queue.waiting > queue.tasks.len(), Ordering::Relaxed);
        self.wake.notify_one();
    }

    /// Thread `me` has searched its task to the end.
    pub fn done(&self, me: usize, events: &Sender<Message>) {
        let mut queue = self.lock();
        queue.busy -= 1;
        queue.open[me] = f64::INFINITY;
        self.report_bound(&mut queue, events);
        if queue.busy == 0 && queue.tasks.is_empty() {
            self.wake.notify_all();
        }
    }

    /// Thread `me`'s least open bound changed to `bound`; reports the proven bound if it rose.
    pub fn publish(&self, me: usize, bound: f64, events: &Sender<Message>) {
        let mut queue = self.lock();
        queue.open[me] = bound;
        self.report_bound(&mut queue, events);
    }

    /// Every placement not yet ruled out lies in a queued task or below a thread's open
    /// node, so the least of their bounds is proven (and the best cost, once nothing is open).
    fn report_bound(&self, queue: &mut Queue, events: &Sender<Message>) {
        // A stopped search leaves nodes unsearched that no open bound stands for.
        if self.stopped() {
            return;
        }
        let least = queue.open.iter().copied().fold(queue.tasks.least(), f64::min);
        let best = self.best();
        let proven = match best {
            // An open node without a relaxation bound proves nothing yet.
            _ if least == f64::NEG_INFINITY || least.is_nan() => None,
            _ if least == f64::INFINITY && queue.busy == 0 => best,
            _ if least == f64::INFINITY => None,
            Some(best) => Some(((least - 1e-6).ceil() as i64).min(best)),
            None => Some((least - 1e-6).ceil() as i64),
        };
        let Some(cost) = proven.map(|c| round_up(c, self.step)) else { return };
        if queue.reported.is_none_or(|old| cost > old) {
            queue.reported = Some(cost);
            self.proven.store(cost, Ordering::Relaxed);
            let _ = events.send(Message::Event(Event::Bound(value_of(cost, self.maximise))));
        }
    }
}

/// How often a thread waiting for a task looks whether the search is being suspended.
const SUSPENSION_POLL: Duration = Duration::from_millis(100);

/// The value of a placement of cost `cost`.
pub(super) fn value_of(cost: i64, maximise: bool) -> usize {
    (if maximise { -cost } else { cost }).max(0) as usize
}

/// The least multiple of `step` at or above `cost`.
pub(super) fn round_up(cost: i64, step: i64) -> i64 {
    cost.div_euclid(step) * step + if cost.rem_euclid(step) == 0 { 0 } else { step }
}

/// The least cost a placement can have under the proven (fractional) lower bound `bound`: the
/// target of a local search.
pub(super) fn round_up_bound(bound: f64, step: i64) -> i64 {
    round_up((bound - 1e-6).ceil() as i64, step)
}

/// The level of a task of bound `bound`: the least cost, a multiple of `step`, not below it
/// (`i64::MIN` without a bound yet).
fn level(bound: f64, step: i64) -> i64 {
    if bound.is_nan() || bound < -9.0e18 {
        i64::MIN
    } else if bound > 9.0e18 {
        i64::MAX
    } else {
        round_up_bound(bound, step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn fixings_give_back_each_variable_with_its_value_in_order() {
        let given = [(7, true), (0, false), (0, true), ((1 << 30) + 3, false), ((1 << 31) - 1, true)];
        let fixings: Fixings = given.into_iter().collect();
        assert_eq!(fixings.iter().collect::<Vec<_>>(), given);
        assert_eq!(Fixings::default().iter().count(), 0);
    }

    fn bounds(events: &std::sync::mpsc::Receiver<Message>) -> Vec<usize> {
        events
            .try_iter()
            .filter_map(|m| match m {
                Message::Event(Event::Bound(b)) => Some(b),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_task_without_a_relaxation_bound_proves_nothing() {
        let (send, events) = channel();
        let pool = Pool::new(1, Task { bound: f64::NEG_INFINITY, ..Task::default() }, 3, false, false);
        let task = pool.take(0, 0).expect("the root task");
        pool.publish(0, task.bound, &send);
        assert_eq!(bounds(&events), Vec::<usize>::new());
        pool.publish(0, 7.5, &send);
        assert_eq!(bounds(&events), vec![9], "7.5 rounds up to the next multiple of the step");
    }

    /// A pool searching a level at a time defers the nodes above both the proven bound's level
    /// and the task's, and nothing before a bound is proven or when it is not asked to.
    #[test]
    fn nodes_above_the_working_level_wait() {
        let (send, _events) = channel();
        let pool = Pool::new(1, Task { bound: 6.5, ..Task::default() }, 1, false, false).with_levels(true);
        assert!(!pool.defers(9.0, 6.5), "nothing is proven yet");
        let task = pool.take(0, 0).expect("the root task");
        pool.publish(0, task.bound, &send);
        assert!(pool.defers(7.5, 6.5), "level 8 above the proven 7");
        assert!(!pool.defers(7.0, 6.5), "level 7, the proven bound's");
        assert!(!pool.defers(7.5, 7.2), "level 8, the task's own");
        assert!(pool.defers(8.01, 7.2));
        let depth_first = Pool::new(1, Task { bound: 6.5, ..Task::default() }, 1, false, false);
        depth_first.take(0, 0).expect("the root task");
        depth_first.publish(0, 6.5, &send);
        assert!(!depth_first.defers(9.0, 6.5));
    }

    #[test]
    fn a_subtree_stays_open_until_its_thread_has_searched_it() {
        let (send, _events) = channel();
        let tasks = vec![Task { bound: 1.0, ..Task::default() }, Task { bound: 2.0, ..Task::default() }];
        let pool = Pool::with_tasks(2, tasks, 1, false, false);
        assert_eq!(pool.open_subtrees(), 2);
        let first = pool.take(0, 0).expect("a queued task");
        assert_eq!(first.bound, 1.0, "the least bound first");
        assert_eq!(pool.open_subtrees(), 2, "a task being searched is still open");
        pool.give(Task { bound: 1.5, ..Task::default() });
        assert_eq!(pool.open_subtrees(), 3);
        pool.done(0, &send);
        assert_eq!(pool.open_subtrees(), 2);
        for _ in 0..2 {
            pool.take(1, 0).expect("a queued task");
            pool.done(1, &send);
        }
        assert_eq!(pool.open_subtrees(), 0);
    }
}

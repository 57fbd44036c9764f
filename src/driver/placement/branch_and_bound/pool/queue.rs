//! The subtrees waiting for a thread, by level: the least cost a placement of the subtree can
//! have (its bound rounded up to a multiple of the step). The lowest level goes first, since
//! it holds the proven bound down; within a level, the subtrees that need the cuts the taking
//! thread has loaded go first, the last given first, so that a thread goes on near where it
//! was (its relaxation warm, its cuts in place).

use std::collections::BTreeMap;

/// What waits in the queue: a subtree that needs some cuts.
pub(super) trait Waiting {
    /// The id of the cuts its search adds to the program, 0 for none.
    fn cuts(&self) -> u64;
}

/// The queued tasks.
#[derive(Debug)]
pub(super) struct Queued<Task> {
    /// Level, then the id of the cuts a task needs (0 for none), then the tasks in the order
    /// given.
    levels: BTreeMap<i64, BTreeMap<u64, Vec<Task>>>,
    len: usize,
}

impl<Task: Waiting> Queued<Task> {
    /// An empty queue.
    pub fn new() -> Queued<Task> {
        Queued { levels: BTreeMap::new(), len: 0 }
    }

    /// How many tasks are queued.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no task is queued.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Queues `task`, of level `level` (`i64::MIN` for a task without a bound yet).
    pub fn push(&mut self, level: i64, task: Task) {
        let cuts = task.cuts();
        self.levels.entry(level).or_default().entry(cuts).or_default().push(task);
        self.len += 1;
    }

    /// Takes a task of the lowest level: one that needs the cuts `cuts` (an id, 0 for none)
    /// if there is one, the last given first.
    pub fn pop(&mut self, cuts: u64) -> Option<Task> {
        let (&level, by_cuts) = self.levels.iter_mut().next()?;
        let key = if by_cuts.contains_key(&cuts) { cuts } else { *by_cuts.keys().next()? };
        let tasks = by_cuts.get_mut(&key)?;
        let task = tasks.pop()?;
        if tasks.is_empty() {
            by_cuts.remove(&key);
            if by_cuts.is_empty() {
                self.levels.remove(&level);
            }
        }
        self.len -= 1;
        Some(task)
    }

    /// The least bound that every queued task has: its lowest level (infinite when empty,
    /// minus infinity when a task has no relaxation bound yet).
    pub fn least(&self) -> f64 {
        match self.levels.keys().next() {
            None => f64::INFINITY,
            Some(&i64::MIN) => f64::NEG_INFINITY,
            Some(&level) => level as f64,
        }
    }

    /// Every queued task, emptying the queue.
    pub fn take_all(&mut self) -> Vec<Task> {
        self.len = 0;
        std::mem::take(&mut self.levels).into_values().flat_map(BTreeMap::into_values).flatten().collect()
    }
}

impl<Task: Waiting> FromIterator<(i64, Task)> for Queued<Task> {
    /// A queue of tasks, each given with its level.
    fn from_iter<I: IntoIterator<Item = (i64, Task)>>(tasks: I) -> Queued<Task> {
        let mut queued = Queued::new();
        for (level, task) in tasks {
            queued.push(level, task);
        }
        queued
    }
}

#[cfg(test)]
mod tests {
    use super::super::level;
    use super::{Queued, Waiting};

    /// A task of bound `bound` needing the cuts `cuts`, told apart by `depth`.
    struct Task {
        bound: f64,
        cuts: u64,
        depth: usize,
    }

    impl Waiting for Task {
        fn cuts(&self) -> u64 {
            self.cuts
        }
    }

    /// A queue of `tasks`, each with its level: its bound rounded up to a multiple of `step`.
    fn queue(tasks: Vec<Task>, step: i64) -> Queued<Task> {
        tasks.into_iter().map(|task| (level(task.bound, step), task)).collect()
    }

    fn task(bound: f64, cuts: u64, depth: usize) -> Task {
        Task { bound, cuts, depth }
    }

    /// The lowest level goes first whatever the order given; within a level, the tasks of the
    /// cuts asked for, then the last given; the least bound is the lowest level.
    #[test]
    fn the_lowest_level_goes_first_and_then_the_cuts_loaded() {
        let mut queued = queue(vec![task(9.5, 0, 1), task(8.2, 7, 2), task(8.9, 3, 3), task(7.1, 3, 4)], 1);
        queued.push(level(8.5, 1), task(8.5, 7, 5));
        assert_eq!((queued.len(), queued.least()), (5, 8.0));
        let order: Vec<usize> = std::iter::from_fn(|| queued.pop(7)).map(|t| t.depth).collect();
        assert_eq!(order, [4, 5, 2, 3, 1], "8 (task 4), then 9 with cuts 7 last given first, then the rest");
        assert!(queued.is_empty());
        assert_eq!(queued.least(), f64::INFINITY);
    }

    /// A task without a relaxation bound holds the least bound at minus infinity; levels are
    /// multiples of the step; every task comes back out.
    #[test]
    fn levels_round_up_to_the_step_and_no_task_is_lost() {
        let mut queued = queue(vec![task(4.2, 0, 1), task(f64::NEG_INFINITY, 0, 2), task(6.0, 0, 3)], 3);
        assert_eq!(queued.least(), f64::NEG_INFINITY);
        assert_eq!(queued.pop(0).map(|t| t.depth), Some(2));
        assert_eq!(queued.least(), 6.0, "4.2 and 6.0 both round up to 6");
        let mut rest: Vec<usize> = queued.take_all().iter().map(|t| t.depth).collect();
        rest.sort_unstable();
        assert_eq!((rest, queued.len(), queued.pop(0).is_none()), (vec![1, 3], 0, true));
    }
}

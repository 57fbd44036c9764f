//! How a worker shares its tree: the rest of its shallowest branching given to the pool when
//! another thread waits, and every open node handed back when the search is suspended.

use super::{Frame, Worker};
use crate::driver::placement::branch_and_bound::pool::{Branching, Task};

impl Worker<'_> {
    /// Hands the remaining children of the shallowest branching to the pool: the node with
    /// the orbit of the candidate being searched emptied as well.
    pub(super) fn give_away(&mut self) {
        let Some(level) = self.frames.iter().position(Frame::has_more) else { return };
        // The rest of a branching starts at the node that branched; a single candidate's
        // second child is a node of its own, one deeper.
        let depth = self.task_depth + level + usize::from(self.frames[level].branching.single);
        let frame = &mut self.frames[level];
        let mut zeros = self.decided_zero[..frame.zeros].to_vec();
        let orbit = self.cx.symmetries.orbit(frame.branching.candidates[frame.child], &frame.branching.subgroup);
        let mut path = self.path[..frame.path].to_vec();
        if let Some(log) = self.cx.log {
            log.orbit(&path, orbit[0], &orbit[1..]);
        }
        path.extend(orbit.iter().map(|&o| (o, false)));
        zeros.extend(orbit);
        frame.given = true;
        self.stats.subtrees_shared += 1;
        let value = &self.problem.value;
        let fixed = self.problem.trail[..frame.trail].iter().map(|&v| (v, value[v] == 1)).collect();
        let rest = (!frame.branching.single).then(|| Branching {
            candidates: frame.branching.candidates[frame.child + 1..].to_vec(),
            single: false,
            subgroup: frame.branching.subgroup.clone(),
        });
        let task = Task {
            ones: self.decided_one[..frame.ones].to_vec(),
            zeros,
            path,
            fixed,
            rest,
            bound: frame.bound,
            share: frame.share_from(frame.child + 1),
            depth,
            ..Task::default()
        };
        self.cx.pool.give(task);
    }

    /// A suspended search: gives the rest of every branching on the path and the current
    /// node, not yet solved, back to the pool, which then holds every node left open.
    pub(super) fn hand_back(&mut self) {
        while self.frames.iter().any(Frame::has_more) {
            self.give_away();
        }
        let bound = self.frames.last().map_or(self.task_bound, |frame| frame.bound);
        let here = self.here(bound);
        self.cx.pool.give(here);
        self.frames.iter_mut().for_each(|frame| frame.given = true);
    }

    /// The current node as a task: its decisions and everything fixed on the way to it.
    pub(super) fn here(&self, bound: f64) -> Task {
        let value = &self.problem.value;
        Task {
            ones: self.decided_one.clone(),
            zeros: self.decided_zero.clone(),
            path: self.path.clone(),
            fixed: self.problem.trail.iter().map(|&v| (v, value[v] == 1)).collect(),
            rest: None,
            bound,
            share: self.share,
            depth: self.task_depth + self.frames.len(),
            ..Task::default()
        }
    }
}

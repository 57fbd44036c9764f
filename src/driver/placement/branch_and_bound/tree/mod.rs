//! One thread's depth-first search of the tree, on its own copy of the program and of the
//! relaxation: it takes subtrees from the [`Pool`], searches them, and gives away the rest of
//! its shallowest branching when another thread waits.
//!
//! Tried and not kept: remembering the row multipliers of the last 32 nodes closed by their
//! bound and trying them at each new node before its relaxation (their Lagrangian bound holds
//! at any node: it closes the node or fixes variables by its reduced costs, as conflict
//! analysis reuses the reasons of earlier conflicts). The reasons are deep, and seldom hold
//! again: a cube of knight domination 20x20 closed 7 of its 3,527 nodes that way and fixed
//! 294 variables (against 68,429 fixed by the node's own reduced costs), with 512 remembered
//! as few; 17 cubes of an 18x18 split, one thread each, side by side (one run): 65,563 nodes
//! in 96.4 s against 64,568 in 91.5 s. Nor did rebuilding the inverse at a branching whose
//! copies (probes, children) would rebuild it soon: more rebuilds, not fewer (within 1,000
//! pivots, three cubes of 18x18: 159 against 6; within 300, two of 20x20: 502 against 327),
//! and the 17 cubes took 94.5 s against 90.9 s (1,000).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use knights_sat_encodings::check::check_placement;
use knights_sat_encodings::linear::PlacementModel;
use knights_sat_encodings::puzzle::placement::PlacementPuzzle;

use super::ingredients::{Ingredients, REPORT_EVERY};
use super::lex;
use super::orbits::Symmetries;
use super::pool::{value_of, Branching, CutSet, Message, Pool, Task};
use super::problem::{Problem, FREE};
use super::proof_log::{self, ProofLog};
use super::strong::Pseudocosts;
use super::tree_proof::Decision;
use crate::driver::{Event, SearchStats, Solution};
use crate::solver::simplex::{Lp, LpStatus};
use crate::Error;

mod branching;
mod sharing;
mod subtree_cuts;

/// A value this close to 0 or 1 counts as integral.
const INTEGRAL_TOL: f64 = 1e-6;

/// What every thread reads.
pub(super) struct Context<'a> {
    pub puzzle: &'a PlacementPuzzle,
    pub model: &'a PlacementModel,
    pub symmetries: &'a Symmetries,
    pub ingredients: Ingredients,
    pub pool: &'a Pool,
    pub pseudocosts: &'a Pseudocosts,
    /// Splitting the tree into cubes instead of searching it.
    pub split: Option<&'a SplitAt>,
    /// The tasks are cubes of a tree known to be large: once a cube has searched this many
    /// nodes, the first levels below it measure every candidate ([`super::strong::TOP`]).
    pub top_after: Option<u64>,
    /// Where a certified search records its bounds.
    pub log: Option<&'a ProofLog>,
    /// Whether and when tasks separate zero-half cuts of their own.
    pub subtree_cuts: Option<SubtreeCuts>,
}

/// When the tasks of a large tree separate zero-half cuts of their own, which hold only in
/// their subtrees ([`cuts::for_subtree`](super::cuts::for_subtree)).
#[derive(Clone, Copy, Debug)]
pub(super) struct SubtreeCuts {
    /// A task whose bound lies at least this far below the cutoff separates them.
    pub gap: f64,
    /// A task hands the rest of its shallowest branching to the pool after every this many
    /// of its nodes: that rest is searched as a task of its own, with cuts separated for it.
    pub hand_over_every: u64,
}

/// A split of the tree into cubes: the nodes reached after `depth` branchings are kept as
/// tasks, not searched; every other node is searched (and pruned) as usual.
pub(super) struct SplitAt {
    pub depth: usize,
    pub cubes: Mutex<Vec<Task>>,
}

/// A branching in progress: its candidates, the child being searched, and what a thread
/// that takes over the remaining children needs.
struct Frame {
    branching: Branching,
    /// The candidate whose child is being searched.
    child: usize,
    /// The second child of a single candidate is being searched.
    in_last_child: bool,
    /// Decisions of the node: the first `ones` placed, the first `zeros` emptied; and the
    /// first `trail` values of the trail (all three before the current child).
    ones: usize,
    zeros: usize,
    trail: usize,
    /// The length of the path (before the current child).
    path: usize,
    /// The node's bound.
    bound: f64,
    /// Each child's share of the tree ([`Task::share`]).
    share: f64,
    /// The remaining children were given to another thread.
    given: bool,
}

impl Frame {
    fn has_more(&self) -> bool {
        !self.given && !self.in_last_child && self.child + 1 < self.children()
    }

    /// The number of children: one per candidate, and a second for a single candidate.
    fn children(&self) -> usize {
        self.branching.candidates.len() + usize::from(self.branching.single)
    }

    /// The share of the tree of the children from `child` on.
    fn share_from(&self, child: usize) -> f64 {
        self.share * (self.children() - child) as f64
    }
}

/// One thread's search.
pub(super) struct Worker<'a> {
    me: usize,
    cx: &'a Context<'a>,
    problem: Problem,
    lp: Lp,
    /// Scratch copy of the relaxation for strong branching.
    probe: Option<Lp>,
    /// The program and relaxation without the cuts of a subtree, while they are loaded.
    without_subtree_cuts: Option<(Problem, Lp)>,
    /// The cuts of a subtree in the program, kept from task to task while the tasks need them.
    loaded_cuts: Option<Arc<CutSet>>,
    /// The relaxation as each branching on the path solved it, with the trail length then:
    /// every child after the first starts from it, not from where its sibling's subtree ended.
    saved: Vec<(Lp, usize)>,
    /// Decisions on the path from the root, for the node's symmetry group.
    decided_one: Vec<usize>,
    decided_zero: Vec<usize>,
    is_one: Vec<bool>,
    is_zero: Vec<bool>,
    /// Every decision from the root, in order (the proof's tree).
    path: Vec<Decision>,
    frames: Vec<Frame>,
    /// The bound of each node on the path whose children are still being searched.
    open_bounds: Vec<f64>,
    /// The share of the tree ([`Task::share`]) of the node about to be searched.
    share: f64,
    /// The bound of the task being searched, and the least open bound last published.
    task_bound: f64,
    published: f64,
    /// The branchings from the root to the task's node ([`Task::depth`]).
    task_depth: usize,
    stats: SearchStats,
    /// The nodes searched before the task in progress.
    task_nodes: u64,
    /// Where the task lies in the task it was first deferred from, with the count of that
    /// task's nodes ([`Task::within`]); a task not deferred counts its own.
    within: (usize, Arc<AtomicU64>),
    /// The task's nodes after which it hands its shallowest branching on.
    next_hand_over: u64,
    last_report: Instant,
    events: Sender<Message>,
}

impl<'a> Worker<'a> {
    /// Thread `me`, with the program and the relaxation at the root.
    pub fn new(me: usize, cx: &'a Context<'a>, problem: Problem, lp: Lp, events: Sender<Message>) -> Worker<'a> {
        let n = problem.n();
        Worker {
            me,
            cx,
            problem,
            lp,
            probe: None,
            without_subtree_cuts: None,
            loaded_cuts: None,
            saved: Vec::new(),
            decided_one: Vec::new(),
            decided_zero: Vec::new(),
            is_one: vec![false; n],
            is_zero: vec![false; n],
            path: Vec::new(),
            frames: Vec::new(),
            open_bounds: Vec::new(),
            share: 0.0,
            task_bound: f64::NEG_INFINITY,
            published: f64::NEG_INFINITY,
            task_depth: 0,
            stats: SearchStats { symmetries: cx.symmetries.len(), ..SearchStats::default() },
            task_nodes: 0,
            within: (0, Arc::new(AtomicU64::new(0))),
            next_hand_over: 0,
            last_report: Instant::now(),
            events,
        }
    }

    /// Searches tasks until none is left; stops every thread if one fails.
    pub fn run(mut self) -> Result<(), Error> {
        let pool = self.cx.pool;
        let stop_on_panic = StopOnPanic(pool);
        while let Some(task) = pool.take(self.me, self.loaded_cuts.as_ref().map_or(0, |cuts| cuts.id)) {
            let result = self.search(task);
            pool.done(self.me, &self.events);
            if let Err(error) = result {
                pool.stop();
                return Err(error);
            }
        }
        drop(stop_on_panic);
        self.send_stats();
        Ok(())
    }

    /// Searches one subtree: replays its decisions, then the tree below.
    fn search(&mut self, task: Task) -> Result<(), Error> {
        self.task_bound = task.bound;
        self.task_depth = task.depth;
        self.share = task.share;
        self.task_nodes = self.stats.nodes;
        self.within = task.within.clone().unwrap_or_else(|| (0, Arc::new(AtomicU64::new(0))));
        self.next_hand_over = self.cx.subtree_cuts.map_or(u64::MAX, |cuts| cuts.hand_over_every);
        self.published = task.bound;
        // The task's bound counts from now (the root's is the first proven bound).
        self.cx.pool.publish(self.me, task.bound, &self.events);
        self.path.clone_from(&task.path);
        self.load_cuts(&task);
        for (v, one) in task.fixed.iter() {
            self.problem.assign(v, one, &mut self.lp);
        }
        let mut feasible = true;
        for (vars, one) in [(&task.ones, true), (&task.zeros, false)] {
            for &v in vars {
                match self.problem.value[v] {
                    FREE => self.problem.assign(v, one, &mut self.lp),
                    value => feasible &= (value == 1) == one,
                }
                if one {
                    self.decided_one.push(v);
                    self.is_one[v] = true;
                } else {
                    self.decided_zero.push(v);
                    self.is_zero[v] = true;
                }
            }
        }
        // A node that waited for its level starts from the basis it ended at, rebuilt (knight
        // domination 20x20: about 5 ms, where pivoting there from the last node's basis took
        // about 410 pivots and 20 ms).
        if let Some(basis) = &task.basis {
            self.lp.take_basis(basis);
        }
        let result = match task.rest {
            _ if !feasible || !self.problem.propagate(&mut self.lp) => {
                self.log_leaf();
                self.closed(task.share);
                Ok(())
            }
            None => self.node(),
            Some(rest) => {
                // The donor's branching goes on where it stopped: solving the node again and
                // choosing a new row measured far worse than finishing the row.
                self.open_bounds.push(task.bound);
                let result = self.branch_over(rest, task.bound);
                self.open_bounds.pop();
                result
            }
        };
        for &v in &self.decided_one {
            self.is_one[v] = false;
        }
        for &v in &self.decided_zero {
            self.is_zero[v] = false;
        }
        self.decided_one.clear();
        self.decided_zero.clear();
        self.path.clear();
        self.frames.clear();
        self.open_bounds.clear();
        self.problem.undo(0, &mut self.lp);
        result
    }

    /// The branchings from the top of the task in progress (or of the task it was deferred
    /// from) to the node, and the nodes searched in it so far.
    pub(super) fn within_task(&self) -> (usize, u64) {
        (self.within.0 + self.frames.len(), self.within.1.load(Ordering::Relaxed))
    }

    /// Replaces the relaxation (of another set of rows) by `lp`, keeping the pivot counts;
    /// returns the one replaced.
    fn take_relaxation(&mut self, mut lp: Lp) -> Lp {
        lp.pivots = self.lp.pivots;
        if let Some(probe) = &mut self.probe {
            let pivots = probe.pivots;
            *probe = lp.clone();
            probe.pivots = pivots;
        }
        self.saved.clear();
        std::mem::replace(&mut self.lp, lp)
    }

    /// The cost a node must be able to beat: the best placement's less one step.
    fn cutoff(&self) -> f64 {
        self.cx.pool.best().map_or(f64::INFINITY, |c| (c - self.problem.step) as f64 + 1e-6)
    }

    /// Offers a complete assignment: checked by the rules checker and reported if better.
    fn offer(&mut self, values: &[bool]) -> Result<(), Error> {
        if !self.problem.satisfies(values) {
            return Ok(());
        }
        let cost = self.problem.cost_of(values);
        let cx = self.cx;
        let events = &self.events;
        let improved = cx.pool.improve(cost, || {
            let placement = cx.model.placement(values);
            let value = check_placement(cx.puzzle, &placement)?;
            let _ = events.send(Message::Event(Event::Solution { value, solution: Solution::Placement(placement) }));
            Ok(())
        })?;
        if improved {
            self.stats.incumbent = Some(value_of(cost, self.problem.maximise));
            self.report(true);
        }
        Ok(())
    }

    /// Publishes the least open bound when it changed, and sends the statistics when due.
    fn report(&mut self, now: bool) {
        let least = self.open_bounds.iter().copied().reduce(f64::min).unwrap_or(self.task_bound);
        if least != self.published {
            self.published = least;
            self.cx.pool.publish(self.me, least, &self.events);
        }
        if now || self.last_report.elapsed() >= REPORT_EVERY {
            self.send_stats();
        }
    }

    fn send_stats(&mut self) {
        self.last_report = Instant::now();
        self.stats.pivots = self.lp.pivots + self.probe.as_ref().map_or(0, |p| p.pivots);
        let _ = self.events.send(Message::Stats(self.me, self.stats.clone()));
    }

    /// Counts a node or nodes closed, of `share` of the tree together.
    fn closed(&mut self, share: f64) {
        self.stats.done += share;
    }

    /// Searches the current node (already propagated).
    fn node(&mut self) -> Result<(), Error> {
        if self.cx.pool.suspended() {
            self.hand_back();
            return Ok(());
        }
        if self.cx.pool.stopped() {
            return Ok(());
        }
        if !self.cx.pool.count_node() {
            return Ok(());
        }
        if self.cx.pool.hungry() {
            self.give_away();
        } else if let Some(cuts) =
            self.cx.subtree_cuts.filter(|_| self.stats.nodes - self.task_nodes >= self.next_hand_over)
        {
            self.next_hand_over += cuts.hand_over_every;
            self.give_away();
        }
        self.stats.nodes += 1;
        self.within.1.fetch_add(1, Ordering::Relaxed);
        if !self.propagate_lex() {
            self.closed(self.share);
            return Ok(());
        }
        let mut rounds = 0;
        let (bound, duals) = loop {
            let cutoff = self.cutoff();
            self.stats.lp_solves += 1;
            let status = self.lp.solve(cutoff);
            if status == LpStatus::Infeasible {
                return self.refute_infeasible();
            }
            let duals = self.duals();
            let (bound, reduced) = self.problem.lagrangian(&duals);
            if bound > cutoff {
                self.log(&duals, true);
                self.closed(self.share);
                return Ok(());
            }
            if let LpStatus::Cutoff(_) = status {
                // The simplex's own objective passed the cutoff but its exact bound did not:
                // finish the relaxation instead of trusting rounding.
                if let LpStatus::Infeasible = self.lp.solve(f64::INFINITY) {
                    return self.refute_infeasible();
                }
            }
            rounds += 1;
            if !self.cx.ingredients.reduced_costs || cutoff == f64::INFINITY || rounds > 3 {
                break (bound, duals);
            }
            let before = self.problem.trail.len();
            for (j, &r) in reduced.iter().enumerate() {
                if self.problem.value[j] == FREE && bound + r.abs() > cutoff {
                    // The other value would cost more than the cutoff allows.
                    self.problem.assign(j, r < 0.0, &mut self.lp);
                    self.stats.fixed_by_reduced_cost += 1;
                }
            }
            if self.problem.trail.len() > before {
                self.log(&duals, true);
            }
            if !self.problem.propagate(&mut self.lp) {
                self.closed(self.share);
                return Ok(());
            }
            if self.problem.trail.len() == before {
                break (bound, duals);
            }
        };
        if let Some(values) = self.integral() {
            if self.problem.satisfies(&values) {
                self.offer(&values)?;
                // The relaxation's optimum is this placement: the exact bound now passes the
                // new cutoff, unless rounding says otherwise, and then the node is searched.
                if bound > self.cutoff() {
                    self.log(&duals, true);
                    self.closed(self.share);
                    return Ok(());
                }
            }
        }
        // A node above the level being searched waits for its level's turn, with the cuts it
        // was bounded with (the task's own node never waits: it was taken at its turn).
        if !self.frames.is_empty() && self.cx.pool.defers(bound, self.task_bound) {
            let mut later = self.here(bound);
            later.cuts.clone_from(&self.loaded_cuts);
            later.within = Some((self.within.0 + self.frames.len(), self.within.1.clone()));
            later.basis = Some(self.lp.saved_basis());
            self.cx.pool.give(later);
            self.stats.deferred += 1;
            return Ok(());
        }
        if let Some(split) = self.cx.split.filter(|split| self.task_depth + self.frames.len() >= split.depth) {
            let cube = self.here(bound);
            split.cubes.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(cube);
            return Ok(());
        }
        self.open_bounds.push(bound);
        self.report(false);
        let result = self.branch(bound);
        self.open_bounds.pop();
        result
    }

    /// Lexicographic reduction ([`lex`]) to a fixpoint with the rows' propagation, when it is
    /// used; `false` if it closes the node.
    pub(super) fn propagate_lex(&mut self) -> bool {
        if !self.cx.ingredients.lex_reduction {
            return true;
        }
        loop {
            match lex::propagate(&self.path, self.cx.symmetries.perms(), &self.problem.value) {
                lex::Verdict::Holds => return true,
                lex::Verdict::Violated => return false,
                lex::Verdict::Fix(vars) => {
                    for v in vars {
                        match self.problem.value[v] {
                            FREE => {
                                self.problem.assign(v, false, &mut self.lp);
                                self.stats.lex_fixings += 1;
                            }
                            1 => return false,
                            _ => {}
                        }
                    }
                    if !self.problem.propagate(&mut self.lp) {
                        return false;
                    }
                }
            }
        }
    }

    /// The relaxation's row multipliers: rounded to what a proof states when it is certified.
    fn duals(&self) -> Vec<f64> {
        proof_log::duals(self.cx.log, &self.lp)
    }

    /// Records, when certified, that the bound of `y` was used at this node.
    fn log(&self, y: &[f64], with_objective: bool) {
        if let Some(log) = self.cx.log {
            log.record(&self.path, y, with_objective);
        }
    }

    /// Records, when certified, that this node was closed by propagation alone.
    fn log_leaf(&self) {
        if let Some(log) = self.cx.log {
            log.leaf(&self.path);
        }
    }

    /// The relaxation is infeasible: the node is closed once the simplex's Farkas proof is
    /// checked exactly, and when certified that proof is recorded.
    fn refute_infeasible(&mut self) -> Result<(), Error> {
        self.closed(self.share);
        match self.cx.log {
            Some(log) => log.refute_infeasible(&self.path, &self.problem, &self.lp),
            None => proof_log::proven_infeasible(&self.problem, &self.lp).map(drop),
        }
    }

    /// The relaxation's solution, if it is integral on every free variable.
    fn integral(&self) -> Option<Vec<bool>> {
        (0..self.problem.n())
            .map(|j| match self.problem.value[j] {
                FREE => {
                    let v = self.lp.value(j);
                    if v < INTEGRAL_TOL {
                        Some(false)
                    } else if v > 1.0 - INTEGRAL_TOL {
                        Some(true)
                    } else {
                        None
                    }
                }
                v => Some(v == 1),
            })
            .collect()
    }
}

/// Stops the other threads if this one panics, so that none waits for it for ever.
struct StopOnPanic<'a>(&'a Pool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

//! A local search for good placements before the tree: rows weighted by how long they stay
//! violated, as in the weighting local searches for set covering (NuSC and its kin).
//!
//! From a greedy start, each time every row holds the placement is recorded and a
//! cost-lowering flip (taking a piece off, or for a maximised objective putting one on) makes it
//! infeasible again; while rows are violated, a flip from a random violated row that repairs
//! the most weighted violation is made (recently flipped variables wait their turn), a
//! cost-lowering flip keeps the cost below the best, and every violated row gains weight. It
//! only ever returns assignments that satisfy every row.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

use super::problem::Problem;
use super::thread_clock::ThreadClock;

/// The seed of the search's first local search.
pub(super) const FIRST_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// The target of a local search that knows no bound (yet): no cost reaches it.
pub(super) const NO_TARGET: i64 = i64::MIN;

/// The target that ends a local search at its next check, with or without a placement.
pub(super) const STOP: i64 = i64::MAX;

/// Flips a variable must wait before it is flipped again.
const TABU: u64 = 2;
/// Rounds without a better placement after which the search gives up.
const IDLE_ROUNDS: u64 = 5_000_000;

struct State<'a> {
    problem: &'a Problem,
    x: Vec<bool>,
    activity: Vec<i64>,
    weight: Vec<i64>,
    violated: Vec<usize>,
    /// Position of each row in `violated`, `usize::MAX` if it holds.
    position: Vec<usize>,
    flipped_at: Vec<u64>,
    step: u64,
    cost: i64,
    rng: u64,
}

/// The best assignment found within `time` (its random choices drawn from `seed`), or for as
/// long as `more` is set, if any satisfies every row. The search stops early at cost `target`
/// (a proven bound: nothing cheaper exists; [`NO_TARGET`] until one is known, as another
/// thread may set it meanwhile), and, once `more` is clear, when a quarter of its time has
/// passed since its last improvement. Its time is its thread's processor time
/// ([`ThreadClock`]): on a loaded machine it searches as far as on an idle one. Knight
/// domination 16x16 beside a busy loop, on the wall clock: 5 runs of 7 stopped at 42 (optimum
/// 40), and the tree then took 9 to 13 s to find 40 and prove it, instead of 0.4 s.
pub(super) fn improve(
    problem: &Problem,
    (time, seed): (Duration, u64),
    target: &AtomicI64,
    more: &AtomicBool,
    on_better: &mut dyn FnMut(&[bool]),
) -> Option<Vec<bool>> {
    let n = problem.n();
    let m = problem.rows.len();
    let mut state = State {
        problem,
        x: vec![false; n],
        activity: vec![0; m],
        weight: vec![1; m],
        violated: Vec::new(),
        position: vec![usize::MAX; m],
        flipped_at: vec![0; n],
        step: TABU + 1,
        cost: 0,
        // The generator (a xorshift) must not start at zero.
        rng: seed.max(1),
    };
    for r in 0..m {
        state.refresh(r);
    }
    state.greedy();
    let clock = ThreadClock::new();
    let started = clock.now();
    let mut best: Option<(i64, Vec<bool>)> = None;
    let mut idle = 0u64;
    let mut rounds = 0u64;
    let mut improved = started;
    let patience = time / 4;
    // Time runs on while `more` is set (the cuts are still being separated on the other core).
    let running = |improved: Duration| {
        more.load(Ordering::Relaxed) || {
            let now = clock.now();
            now.saturating_sub(started) < time && now.saturating_sub(improved) < patience
        }
    };
    // The best cost found may meet a target that was set after it was found.
    let reached = |best: &Option<(i64, Vec<bool>)>| {
        let target = target.load(Ordering::Relaxed);
        target == STOP || best.as_ref().is_some_and(|b| b.0 <= target)
    };
    while idle < IDLE_ROUNDS && (rounds % 64 != 0 || (running(improved) && !reached(&best))) {
        rounds += 1;
        idle += 1;
        if state.violated.is_empty() {
            if best.as_ref().is_none_or(|b| state.cost < b.0) {
                best = Some((state.cost, state.x.clone()));
                on_better(&state.x);
                idle = 0;
                improved = clock.now();
                if state.cost <= target.load(Ordering::Relaxed) {
                    break;
                }
            }
            if !state.lower_cost(usize::MAX) {
                break;
            }
            continue;
        }
        let pick = state.random(state.violated.len());
        let r = state.violated[pick];
        let salt = state.step.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let repair = state.problem.rows[r]
            .terms
            .iter()
            .filter(|&&(a, v)| (a > 0) != state.x[v] && state.flipped_at[v] + TABU < state.step)
            .map(|&(_, v)| v)
            .max_by_key(|&v| (state.score(v), (v as u64 ^ salt).wrapping_mul(0xff51_afd7_ed55_8ccd) >> 40));
        if let Some(v) = repair {
            state.flip(v);
            if best.as_ref().is_some_and(|b| state.cost >= b.0) {
                state.lower_cost(v);
            }
        }
        for &r in &state.violated {
            state.weight[r] += 1;
        }
    }
    best.map(|b| b.1)
}

impl State<'_> {
    fn random(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n.max(1) as u64) as usize
    }

    /// How much weighted violation flipping `v` repairs (negative: how much it adds).
    fn score(&self, v: usize) -> i64 {
        let sign = if self.x[v] { -1 } else { 1 };
        self.problem.columns[v]
            .iter()
            .map(|&(r, a)| {
                let rhs = self.problem.rows[r].rhs;
                let before = (rhs - self.activity[r]).max(0);
                let after = (rhs - self.activity[r] - sign * a).max(0);
                self.weight[r] * (before - after)
            })
            .sum()
    }

    fn flip(&mut self, v: usize) {
        let sign = if self.x[v] { -1 } else { 1 };
        self.x[v] = !self.x[v];
        self.cost += sign * self.problem.cost[v];
        self.step += 1;
        self.flipped_at[v] = self.step;
        for i in 0..self.problem.columns[v].len() {
            let (r, a) = self.problem.columns[v][i];
            self.activity[r] += sign * a;
            self.refresh(r);
        }
    }

    /// Keeps the list of violated rows in step with row `r`'s activity.
    fn refresh(&mut self, r: usize) {
        let violated = self.activity[r] < self.problem.rows[r].rhs;
        let listed = self.position[r] != usize::MAX;
        if violated && !listed {
            self.position[r] = self.violated.len();
            self.violated.push(r);
        } else if !violated && listed {
            let at = self.position[r];
            let last = *self.violated.last().expect("a listed row is in the list");
            self.violated.swap_remove(at);
            if last != r {
                self.position[last] = at;
            }
            self.position[r] = usize::MAX;
        }
    }

    /// Makes the cost-lowering flip that breaks the least (not `except`); `false` if none.
    fn lower_cost(&mut self, except: usize) -> bool {
        let problem = self.problem;
        let choice = (0..problem.n())
            .filter(|&v| v != except && (problem.cost[v] > 0) == self.x[v] && problem.cost[v] != 0)
            .filter(|&v| self.flipped_at[v] + TABU < self.step)
            .max_by_key(|&v| (self.score(v), problem.cost[v].abs()));
        match choice {
            Some(v) => {
                self.flip(v);
                true
            }
            None => false,
        }
    }

    /// Flips the variable that repairs most weighted violation per unit of cost, while any does.
    fn greedy(&mut self) {
        while !self.violated.is_empty() {
            let problem = self.problem;
            let choice =
                (0..problem.n()).filter(|&v| !self.x[v]).map(|v| (v, self.score(v))).filter(|&(_, s)| s > 0).max_by(
                    |a, b| {
                        let per = |(v, s): (usize, i64)| s as f64 / problem.cost[v].max(1) as f64;
                        per(*a).total_cmp(&per(*b))
                    },
                );
            match choice {
                Some((v, _)) => self.flip(v),
                None => return,
            }
        }
    }
}

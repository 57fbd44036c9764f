//! Reliability branching: which fractional variable to branch on when the covering rows are
//! short.
//!
//! A variable's score is a weighted sum of the bound gains of its two children (emptied,
//! placed), the smaller gain counting five times the larger, so a variable that moves both
//! sides beats one that moves one side a lot. (The product of the gains, the score before it,
//! took knight domination 18x18 4.1 million nodes on two threads, against 3.0 million, one run
//! each on different days; 17x17 61.3 and 41.8 s, against 35.9 and 35.6 s; with the ring cut,
//! 17x17 was not proved in 300 s, against 118.7 s. On 19x19 the two are even: 16 cubes of one
//! split, one thread each, side by side, 628,647 nodes with the product against 603,317.)
//! A gain is measured by strong branching — the relaxation solved again on a copy with the variable
//! fixed — until the variable's pseudocost (the mean gain per unit of change measured so far) is
//! reliable, and estimated from the pseudocost after that. The threads share the pseudocosts, and a
//! measurement counts for the variable's whole orbit under the board symmetries, so few variables
//! are measured more than once in a search. A measured side whose exact bound (the Lagrangian of
//! the measurement's multipliers) passes the cutoff fixes the variable to its other side. A
//! variable that a symmetry of the node keeps in place scores more ([`SYMMETRY_BONUS`]): the child
//! that places it keeps that symmetry for orbital fixing, where any other child of the root of a
//! knight domination keeps none.
//!
//! Measured on knight domination (two threads, one run each): the most fractional variable
//! took 6,497 nodes on 15x15 (6.2 s); strong branching on the 16 most fractional at every node
//! 1,593 nodes, but 17.6 s. Measuring until reliable, each measurement at most 40 pivots and
//! the measurements at most 1.5 pivots per pivot of the nodes: 15x15 in 2.7 s (2,954 nodes),
//! 16x16 in 1.1 s instead of 5.1 s, while 12x12 to 14x14, whose trees have a few hundred nodes
//! at most, stay within 0.05 s of their times without it. Without the budget, measuring at the
//! root alone cost 13x13 (7 nodes) 0.08 s.
//!
//! In a large tree that trust does not pay: a pseudocost is a mean over the whole tree, and
//! the top of a big subtree deserves a measured choice. So a cube of a tree known to be large
//! (a cube of `split`, or of a search started again from its open nodes) that has searched
//! [`TOP_AFTER`] nodes measures every candidate in its first [`TOP_LEVELS`] levels ([`TOP`]:
//! each side at most 15 pivots, until 4 in a row did not beat the best). Knight domination
//! 18x18, cubes of one split two at a time on one thread each (one run): a sample of 16 cubes
//! in 122 core-seconds instead of 204 (113,214 nodes instead of 318,953), and the two
//! heaviest cubes in 120 instead of 519 (123,288 nodes instead of 682,530). Measuring from a
//! cube's first node instead cost 17x17, whose cubes are small, 54 to 59 s instead of 37 to
//! 38 s; waiting for 1,000 nodes, 37 s.
//!
//! Measuring more buys fewer nodes, but not time. Knight domination 18x18, 17 cubes of one
//! split (every seventh), one thread each, two settings side by side (one run each): as
//! here, 266,017 nodes in 262 and 282 s (two runs); 20 levels measured, 127,289 nodes in
//! 466 s; 20 levels at 5 pivots a side, 193,011 in 344 s; 20 levels stopping after 2 in a
//! row, 150,916 in 381 s; 15 levels at 8 pivots, 184,824 in 345 s; 8 levels, 317,868 in
//! 262 s. Below the top, trusting a pseudocost after 4 measurements instead of 1 (the
//! budget stops them first) took 271,610 nodes in 283 s. The budget of the levels below:
//! 3 pivots per pivot of the nodes instead of 1.5, 255,066 nodes in 244 to 247 s (three
//! runs; 249.5 s as here in the run beside the third), 6 in 253 s, 0.75 in 286 s: within the
//! noise, so it stays.
//!
//! On knight domination 20x20, whose cubes are larger, the settings of the top were measured
//! again (`split --cubes 116`, 208 cubes; one thread a cube, two cubes at a time, one run
//! each). Four cubes of bounds 56.25 to 57.21 took 315,379 nodes in 620 s as here; 40
//! pivots a side at the top 205,673 nodes in 500 s (25 pivots: 512 s; 100: 593 s); 14 levels
//! 220,313 nodes in 799 s; measuring from a cube's first node 408,389 in 781 s; hand-overs
//! every 5,000 nodes 614 s; a budget of 3 below the top 634 s. The 40 pivots did not hold
//! up: eleven more cubes of the same sample took 1,141 s with them against 940 s (one cube
//! 285 s against 117 s), and 16 cubes of an 18x18 split 108 s against 75 and 79 s; 40 pivots
//! only from a task's 5,000th node on, 625 s on the four cubes and 92 s on the 16. A cube's
//! tree changes by a third either way with any change of its choices, so four cubes are too
//! few to tell such settings apart.
//!
//! Tried and not kept: measuring the emptying side with the images that lexicographic
//! reduction empties in that child (under the symmetries whose images of the decisions still
//! agree), so that a variable whose emptying child empties more scores more. Knight
//! domination 17x17, one thread, side by side (one run): 60,526 nodes in 55.6 s against
//! 29,513 in 23.0 s (it passed the 30,000 nodes of the restart from open nodes, and orbital
//! fixing emptied 132 squares against 427: its choices kept fewer symmetries); six cubes of
//! an 18x18 split took 103,077 nodes in 104 s with it against 103,213 in 103 s, five of them
//! the same nodes, so that deep the measurement changes next to nothing.
//!
//! Nor kept: starting the two children of a variable measured at its node from the
//! relaxations of its measurement (kept aside, by swapping buffers, whenever a measured
//! variable became the best) instead of from the node's. The measurements stop after a few
//! pivots, so little is saved: 17 cubes of an 18x18 split, one thread each, side by side (one
//! run, beside other work), 2.59 million pivots in the nodes' relaxations against 2.76
//! million, 3.72 million in all against 3.85, 63,564 nodes against 64,568, and 224 s against
//! 213 s.
//!
//! Nor kept: scoring a variable by the size of the tree that its two gains would grow if
//! every branching below gained the same, until the gains pass the gap between the node's
//! bound and the cutoff (after Le Bodic and Nemhauser's abstract model of branching: the
//! sequences of gains within the gap counted exactly while they are few, the growth rate of
//! the tree otherwise), the smallest tree chosen. Near the cutoff it prefers a variable whose
//! larger gain nearly closes its child, where the weighted sum looks mostly at the smaller.
//! Knight domination 18x18, 16 cubes of one split (`split --cubes 32`: 55 cubes at depth 6;
//! `cube --sample 16`, two at a time), two runs of each, in turn: 326,304 and 326,288 nodes in
//! 354 and 388 core-seconds against 343,179 and 344,397 in 423 and 469. But knight domination
//! 20x20, 13 cubes of one split (`split --cubes 116`: 126 cubes at depth 7; bounds 57.09 to
//! 58.25), the two rules side by side on one thread each: 661,326 nodes in 1,342 s against
//! 599,268 in 1,243 s (cube 93: 124,805 against 93,327; cube 85: 125,970 against 77,449).
//! In the top levels alone, where every candidate is measured, the 18x18 sample took 337,793
//! nodes in 402 s against 343,097 in 406 s (side by side, one thread each): the gain above
//! lies in the levels below, where the 20x20 cubes lost.

use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::orbits::Symmetries;
use crate::solver::simplex::{Lp, LpStatus};

/// Measurements per side after which a variable's pseudocost replaces strong branching.
const RELIABLE: u32 = 1;
/// Gains are clamped to this range in a score, so that an infeasible side does not dwarf every
/// finite score.
const GAIN_RANGE: (f64, f64) = (1e-6, 1e6);
/// The weight of the smaller of a variable's two gains in its score; the larger has the rest.
const SMALLER_GAIN_WEIGHT: f64 = 5.0 / 6.0;
/// A variable whose placement some symmetry of the node keeps in place has its score
/// multiplied by this, so that the child that places it keeps symmetries for orbital fixing.
const SYMMETRY_BONUS: f64 = 1.5;
/// In a cube of a large tree that has searched [`TOP_AFTER`] nodes, the first this many levels
/// of branching below the cube's root measure every candidate ([`TOP`]); the levels below,
/// and every level before, trust the pseudocosts once they are reliable ([`BELOW`]).
pub(super) const TOP_LEVELS: usize = 10;
/// Nodes a cube searches before its top levels measure every candidate: a small cube does
/// not pay for them.
pub(super) const TOP_AFTER: u64 = 1_000;

/// How much a node may spend on strong branching.
#[derive(Clone, Copy, Debug)]
pub(super) struct Effort {
    /// A reliable pseudocost replaces the measurement.
    trust_pseudocosts: bool,
    /// The thread measures only while its measurements took at most this many pivots per
    /// pivot of its nodes' relaxations, so a small tree is not outweighed by them.
    budget: Option<f64>,
    /// Strong branching stops after this many measured variables in a row did not beat the
    /// best.
    lookahead: usize,
    /// Pivots a measurement may take: past them its basis's objective is the gain (a lower
    /// bound on the child's).
    probe_pivots: usize,
}

/// Near the top of a task: every candidate is measured, briefly.
pub(super) const TOP: Effort = Effort { trust_pseudocosts: false, budget: None, lookahead: 4, probe_pivots: 15 };
/// Below: reliability branching within a budget.
pub(super) const BELOW: Effort = Effort { trust_pseudocosts: true, budget: Some(1.5), lookahead: 32, probe_pivots: 40 };

/// The gains per unit measured for each variable and side, shared by the threads.
pub(super) struct Pseudocosts {
    table: Mutex<PseudocostTable>,
    /// Each variable's orbit under the board symmetries: a measurement counts for all of them.
    orbits: Vec<Vec<usize>>,
}

/// What branching measured of each variable: handed from a split to its cubes (a job's
/// `pseudocosts.json`), so that their searches start from it instead of measuring again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PseudocostTable {
    /// Per variable, per side (emptied, placed): the sum of gains per unit, and their count.
    pub sides: Vec<[(f64, u32); 2]>,
    /// Per side, over every variable: the sum and the count (at least one: the prior).
    pub all: [(f64, u32); 2],
}

impl Pseudocosts {
    /// No measurement yet for any of `n` variables; `symmetries` map each variable to others
    /// whose gains are taken to be alike.
    pub fn new(n: usize, symmetries: &Symmetries) -> Pseudocosts {
        let group: Vec<usize> = (0..symmetries.len()).collect();
        Pseudocosts {
            table: Mutex::new(PseudocostTable { sides: vec![[(0.0, 0); 2]; n], all: [(1.0, 1); 2] }),
            orbits: (0..n).map(|j| symmetries.orbit(j, &group)).collect(),
        }
    }

    /// What was measured so far.
    pub fn table(&self) -> PseudocostTable {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Starts from `from` (another search's measurements of the same program) instead of
    /// nothing; refused, with why, unless it has one entry per variable, finite sums that are
    /// not negative, and at least one count per side over every variable.
    pub fn seed(&self, from: &PseudocostTable) -> Result<(), String> {
        let n = self.orbits.len();
        if from.sides.len() != n {
            return Err(format!("{} entries, where the program has {n} variables", from.sides.len()));
        }
        let sound = |(sum, _): (f64, u32)| sum.is_finite() && sum >= 0.0;
        if !from.sides.iter().flatten().chain(&from.all).all(|&entry| sound(entry)) {
            return Err("a sum that is negative or not finite".into());
        }
        if from.all.iter().any(|&(_, count)| count == 0) {
            return Err("a side with no count over every variable".into());
        }
        *self.table.lock().unwrap_or_else(|e| e.into_inner()) = from.clone();
        Ok(())
    }

    fn record(&self, j: usize, side: usize, per_unit: f64) {
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let PseudocostTable { sides, all } = &mut *table;
        // Counts carried from file to file (a cube stopped again and again) stop at the top.
        all[side].0 += per_unit;
        all[side].1 = all[side].1.saturating_add(1);
        for &image in &self.orbits[j] {
            sides[image][side].0 += per_unit;
            sides[image][side].1 = sides[image][side].1.saturating_add(1);
        }
    }
}

impl PseudocostTable {
    /// The gains per unit of `j` (the mean over every variable for a side never measured),
    /// and whether both sides are measured often enough.
    fn estimate(&self, j: usize) -> ([f64; 2], bool) {
        let mean = |(sum, count): (f64, u32)| sum / f64::from(count);
        let sides = self.sides[j];
        let per_unit = [0, 1].map(|side| mean(if sides[side].1 > 0 { sides[side] } else { self.all[side] }));
        (per_unit, sides[0].1.min(sides[1].1) >= RELIABLE)
    }
}

/// What strong branching decided at a node.
pub(super) struct Choice {
    /// The variable to branch on.
    pub var: usize,
    /// Variables whose one side the exact bound of its measurement cut off: `(variable, the
    /// other side)`, for the node to fix before it branches.
    pub fixings: Vec<(usize, bool)>,
    /// Both sides of a variable were cut off: the node holds nothing better.
    pub pruned: bool,
    /// Variables measured.
    pub measured: u64,
}

/// Chooses the variable to branch on among `fractional` (free variables whose relaxation
/// values are fractional), at a node of bound `bound` whose relaxation `lp` is solved; `probe`
/// is a scratch copy of the relaxation. `exact_bound(y, var, side)` is the exact bound of
/// multipliers `y` with `var` fixed to `side`: a side whose exact bound passes `cutoff` is
/// cut off, and the other side is fixed. `effort` says how much the node may measure.
pub(super) fn choose(
    lp: &Lp,
    probe: &mut Option<Lp>,
    fractional: &[usize],
    (bound, cutoff): (f64, f64),
    (pseudocosts, effort): (&Pseudocosts, Effort),
    keeps_symmetry: impl Fn(usize) -> bool,
    exact_bound: impl Fn(&[f64], usize, bool) -> f64,
) -> Choice {
    let bonus = |j: usize| if keeps_symmetry(j) { SYMMETRY_BONUS } else { 1.0 };
    // Each candidate's change to either side: to 0 and to 1.
    let units = |j: usize| [lp.value(j), 1.0 - lp.value(j)];
    // Scores from the pseudocosts; the unreliable ones are only an order to measure in.
    let mut best = (f64::NEG_INFINITY, fractional[0]);
    let mut unreliable = Vec::new();
    {
        let table = pseudocosts.table.lock().unwrap_or_else(|e| e.into_inner());
        for &j in fractional {
            let (per_unit, reliable) = table.estimate(j);
            let u = units(j);
            let estimate = score([u[0] * per_unit[0], u[1] * per_unit[1]]) * bonus(j);
            if reliable && effort.trust_pseudocosts {
                if estimate > best.0 {
                    best = (estimate, j);
                }
            } else {
                unreliable.push((estimate, j, u));
            }
        }
    }
    unreliable.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut choice = Choice { var: best.1, fixings: Vec::new(), pruned: false, measured: 0 };
    let mut since_better = 0;
    for &(_, j, u) in &unreliable {
        let probe = probe.get_or_insert_with(|| {
            let mut fresh = lp.clone();
            fresh.pivots = 0;
            fresh
        });
        if effort.budget.is_some_and(|budget| probe.pivots as f64 > budget * lp.pivots as f64) {
            break;
        }
        choice.measured += 1;
        let mut cut_off = [false; 2];
        let gains = [0, 1].map(|side| {
            probe.copy_state_from(lp);
            let v = side as f64;
            probe.set_bounds(j, v, v);
            let status = probe.solve_within(cutoff, effort.probe_pivots);
            cut_off[side] = matches!(status, LpStatus::Cutoff(_) | LpStatus::Infeasible)
                && exact_bound(&probe.duals(), j, side == 1) > cutoff;
            match status {
                LpStatus::Infeasible => f64::INFINITY,
                LpStatus::Cutoff(o) | LpStatus::Optimal(o) => (o - bound).max(0.0),
            }
        });
        for side in 0..2 {
            if gains[side].is_finite() {
                pseudocosts.record(j, side, gains[side] / u[side]);
            }
        }
        match cut_off {
            [true, true] => {
                choice.pruned = true;
                return choice;
            }
            [true, false] => choice.fixings.push((j, true)),
            [false, true] => choice.fixings.push((j, false)),
            [false, false] => {}
        }
        let measured_score = score(gains) * bonus(j);
        if measured_score > best.0 {
            best = (measured_score, j);
            since_better = 0;
        } else {
            since_better += 1;
            if since_better >= effort.lookahead {
                break;
            }
        }
    }
    choice.var = best.1;
    choice
}

/// The weighted sum of the two children's gains, each clamped ([`SMALLER_GAIN_WEIGHT`]).
fn score(gains: [f64; 2]) -> f64 {
    let [a, b] = gains.map(|g| g.clamp(GAIN_RANGE.0, GAIN_RANGE.1));
    a.min(b) * SMALLER_GAIN_WEIGHT + a.max(b) * (1.0 - SMALLER_GAIN_WEIGHT)
}

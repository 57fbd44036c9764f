//! Branch and bound over the linear relaxation: the placement search that brings the bounds
//! a MIP solver lives on into knights-sat, in pure Rust.
//!
//! Each node solves the relaxation of the placement's 0-1 model with the warm-started dual
//! simplex of [`crate::solver::simplex`], then:
//! - **prunes** when the Lagrangian bound of the simplex's row multipliers, recomputed exactly
//!   from the rows (a nonnegative combination of rows: a cutting-plane derivation), leaves no
//!   room for a placement cheaper than the best one found;
//! - **fixes by reduced costs** every variable whose other value would cross that bound;
//! - **propagates** the rows over integers (a covering row with one candidate left places it);
//! - **branches** on the covering row with the fewest candidates, one child per candidate in
//!   an order taken from the relaxation's values, with orbital fixing under the board symmetries
//!   ([`orbits`]); without covering rows, on the most fractional variable.
//!
//! Before the tree, a local search ([`local_search`]) finds a good placement, so the
//! tree mostly proves; every placement passes the rules checker before it is reported, and the
//! proven bound (the least bound over the open nodes) is reported as it rises, so a search
//! stopped early still answers with its best placement and its bound.

mod local_search;
mod orbits;
mod problem;

use std::time::{Duration, Instant};

use knights_sat_encodings::check::check_placement;
use knights_sat_encodings::linear::{placement_model, PlacementModel};
use knights_sat_encodings::puzzle::placement::PlacementPuzzle;

use crate::driver::{Event, SearchStats, Solution};
use crate::solver::simplex::{Lp, LpStatus};
use crate::Error;
use orbits::Symmetries;
use problem::{Problem, FREE};

/// A value this close to 0 or 1 counts as integral.
const INTEGRAL_TOL: f64 = 1e-6;
/// A covering row with at most this many free candidates is short (see `candidates`).
const SHORT_ROW: usize = 12;
/// How often the search reports its progress.
const REPORT_EVERY: Duration = Duration::from_millis(500);

/// What the search may use; each ingredient can be switched off to measure it.
#[derive(Clone, Copy, Debug)]
pub struct Ingredients {
    /// Orbital fixing under the board symmetries.
    pub symmetry: bool,
    /// Fixing variables by their reduced costs.
    pub reduced_costs: bool,
    /// The local search for a first placement.
    pub local_search: bool,
    /// Branching on covering rows (otherwise on fractional variables only).
    pub row_branching: bool,
}

impl Default for Ingredients {
    fn default() -> Self {
        Ingredients { symmetry: true, reduced_costs: true, local_search: true, row_branching: true }
    }
}

/// Whether the branch-and-bound search can take `puzzle` (its linear model exists).
pub fn supports(puzzle: &PlacementPuzzle) -> bool {
    placement_model(puzzle).is_ok()
}

struct Search<'a> {
    puzzle: &'a PlacementPuzzle,
    model: PlacementModel,
    problem: Problem,
    lp: Lp,
    symmetries: Symmetries,
    ingredients: Ingredients,
    /// The cheapest placement found, as its cost.
    incumbent: Option<i64>,
    /// Decisions on the path from the root, for the node's symmetry group.
    decided_one: Vec<usize>,
    decided_zero: Vec<usize>,
    is_one: Vec<bool>,
    is_zero: Vec<bool>,
    /// The bound of each node on the path whose children are still being searched.
    open_bounds: Vec<f64>,
    reported_bound: Option<i64>,
    /// The tree has been searched to the end.
    finished: bool,
    stats: SearchStats,
    started: Instant,
    last_report: Instant,
    emit: &'a mut dyn FnMut(Event),
}

/// Finds an optimal placement by branch and bound and proves it optimal.
pub(super) fn solve(
    puzzle: &PlacementPuzzle,
    ingredients: Ingredients,
    emit: &mut dyn FnMut(Event),
) -> Result<(), Error> {
    let model = placement_model(puzzle).map_err(|e| Error::Internal(format!("branch and bound: {e}")))?;
    let problem = Problem::new(&model.model);
    let n = problem.n();
    let symmetries = if ingredients.symmetry {
        Symmetries::of(puzzle, n, |v| {
            let mut one = vec![false; n];
            one[v] = true;
            model.placement(&one)
        })
    } else {
        Symmetries::of_nothing()
    };
    let lp = problem.relaxation();
    let started = Instant::now();
    let mut search = Search {
        puzzle,
        model,
        problem,
        lp,
        symmetries,
        ingredients,
        incumbent: None,
        decided_one: Vec::new(),
        decided_zero: Vec::new(),
        is_one: vec![false; n],
        is_zero: vec![false; n],
        open_bounds: Vec::new(),
        reported_bound: None,
        finished: false,
        stats: SearchStats::default(),
        started,
        last_report: started,
        emit,
    };
    search.stats.symmetries = search.symmetries.len();
    if ingredients.local_search {
        // The root relaxation first: a placement at its bound needs no further search.
        let target = match search.lp.solve(f64::INFINITY) {
            LpStatus::Optimal(_) => {
                let (bound, _) = search.problem.lagrangian(&search.lp.duals());
                Some(round_up((bound - 1e-6).ceil() as i64, search.problem.step))
            }
            _ => None,
        };
        let time = Duration::from_millis(local_search_ms(n));
        if let Some(values) = local_search::improve(&search.problem, time, target) {
            search.offer(&values)?;
        }
    }
    if search.problem.propagate(&mut search.lp) {
        search.node()?;
    }
    search.finish()
}

/// The local search's time before the tree: longer for larger boards, where it pays most.
fn local_search_ms(n: usize) -> u64 {
    (n as u64 * 2).clamp(20, 1000)
}

impl Search<'_> {
    /// The cost a node must be able to beat: the incumbent's less one step.
    fn cutoff(&self) -> f64 {
        self.incumbent.map_or(f64::INFINITY, |c| (c - self.problem.step) as f64 + 1e-6)
    }

    /// Offers a complete assignment: checked by the rules checker and reported if better.
    fn offer(&mut self, values: &[bool]) -> Result<(), Error> {
        if !self.problem.satisfies(values) {
            return Ok(());
        }
        let cost = self.problem.cost_of(values);
        if self.incumbent.is_some_and(|best| best <= cost) {
            return Ok(());
        }
        let placement = self.model.placement(values);
        let value = check_placement(self.puzzle, &placement).map_err(|why| Error::CheckerRejected(why.to_string()))?;
        self.incumbent = Some(cost);
        self.stats.incumbent = Some(value);
        (self.emit)(Event::Solution { value, solution: Solution::Placement(placement) });
        self.report(true);
        Ok(())
    }

    /// The value of a placement of cost `cost`.
    fn value_of(&self, cost: i64) -> usize {
        (if self.problem.maximise { -cost } else { cost }).max(0) as usize
    }

    /// Reports the proven bound if it rose, and the progress row when it is due (or `now`).
    fn report(&mut self, now: bool) {
        let least_open = self.open_bounds.iter().copied().fold(f64::INFINITY, f64::min);
        // Every placement not yet ruled out lies below an open node; with none open the
        // search is over only once `finished` says so.
        let proven = match self.incumbent {
            Some(best) if self.finished => Some(best),
            _ if least_open == f64::INFINITY => None,
            Some(best) => Some(((least_open - 1e-6).ceil() as i64).min(best)),
            None => Some((least_open - 1e-6).ceil() as i64),
        };
        if let Some(cost) = proven {
            let cost = round_up(cost, self.problem.step);
            if self.reported_bound.is_none_or(|old| cost > old) {
                self.reported_bound = Some(cost);
                let value = self.value_of(cost);
                self.stats.bound = Some(value);
                (self.emit)(Event::Bound(value));
            }
        }
        if now || self.last_report.elapsed() >= REPORT_EVERY {
            self.last_report = Instant::now();
            self.stats.seconds = self.started.elapsed().as_secs_f64();
            self.stats.pivots = self.lp.pivots;
            (self.emit)(Event::Search(self.stats.clone()));
        }
    }

    fn finish(mut self) -> Result<(), Error> {
        self.open_bounds.clear();
        self.finished = true;
        match self.incumbent {
            Some(_) => self.report(true),
            None => {
                self.report(true);
                (self.emit)(Event::Infeasible("no placement satisfies the rules".to_string()));
            }
        }
        Ok(())
    }

    /// Searches the current node (already propagated).
    fn node(&mut self) -> Result<(), Error> {
        self.stats.nodes += 1;
        let mut rounds = 0;
        let bound = loop {
            let cutoff = self.cutoff();
            self.stats.lp_solves += 1;
            let status = self.lp.solve(cutoff);
            if status == LpStatus::Infeasible {
                return Ok(());
            }
            let (bound, reduced) = self.problem.lagrangian(&self.lp.duals());
            if bound > cutoff {
                return Ok(());
            }
            if let LpStatus::Cutoff(_) = status {
                // The simplex's own objective passed the cutoff but its exact bound did not:
                // finish the relaxation instead of trusting rounding.
                if let LpStatus::Infeasible = self.lp.solve(f64::INFINITY) {
                    return Ok(());
                }
            }
            rounds += 1;
            if !self.ingredients.reduced_costs || self.incumbent.is_none() || rounds > 3 {
                break bound;
            }
            let before = self.problem.trail.len();
            for (j, &r) in reduced.iter().enumerate() {
                if self.problem.value[j] == FREE && bound + r.abs() > cutoff {
                    // The other value would cost more than the cutoff allows.
                    self.problem.assign(j, r < 0.0, &mut self.lp);
                    self.stats.fixed_by_reduced_cost += 1;
                }
            }
            if !self.problem.propagate(&mut self.lp) {
                return Ok(());
            }
            if self.problem.trail.len() == before {
                break bound;
            }
        };
        if let Some(values) = self.integral() {
            if self.problem.satisfies(&values) {
                self.offer(&values)?;
                // The relaxation's optimum is this placement: the exact bound now passes the
                // new cutoff, unless rounding says otherwise, and then the node is searched.
                if bound > self.cutoff() {
                    return Ok(());
                }
            }
        }
        self.report(false);
        self.open_bounds.push(bound);
        let result = self.branch();
        self.open_bounds.pop();
        result
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

    /// The candidates to branch on, in the order of the children, and whether they form a
    /// covering row: the free variables of the covering row with the fewest of them, or the
    /// most fractional variable.
    fn candidates(&self) -> (Vec<usize>, bool) {
        let value = &self.problem.value;
        if self.ingredients.row_branching {
            let mut best: Option<(usize, f64, usize)> = None;
            for (r, row) in self.problem.rows.iter().enumerate().filter(|(_, row)| row.covering) {
                if row.terms.iter().any(|t| value[t.1] == 1) {
                    continue;
                }
                let free = row.terms.iter().filter(|t| value[t.1] == FREE).count();
                let mass: f64 = row.terms.iter().map(|t| self.lp.value(t.1)).sum();
                if best.is_none_or(|(f, m, _)| (free, mass) < (f, m)) {
                    best = Some((free, mass, r));
                }
            }
            if let Some((_, _, r)) = best {
                let mut vars: Vec<usize> =
                    self.problem.rows[r].terms.iter().map(|t| t.1).filter(|&v| value[v] == FREE).collect();
                // Measured: with a short row, the candidates the relaxation likes least go
                // first (placing one raises the bound most, so its child is pruned soon, and
                // excluding it in the later children costs the relaxation little); with a long
                // row (a queen's), the one it likes most.
                vars.sort_by(|&a, &b| self.lp.value(a).total_cmp(&self.lp.value(b)));
                if vars.len() > SHORT_ROW {
                    vars.reverse();
                }
                return (vars, true);
            }
        }
        let fractional = (0..self.problem.n())
            .filter(|&j| value[j] == FREE)
            .max_by(|&a, &b| frac(self.lp.value(a)).total_cmp(&frac(self.lp.value(b))));
        (fractional.into_iter().collect(), false)
    }

    /// Branches: child `i` places candidate `i` after the earlier candidates' orbits were
    /// emptied. With a single (fractional) candidate, the last child empties its orbit.
    fn branch(&mut self) -> Result<(), Error> {
        let (candidates, covering) = self.candidates();
        if candidates.is_empty() {
            // Every variable is fixed and the relaxation was not integral: rounding trouble.
            let values: Vec<bool> = self.problem.value.iter().map(|&v| v == 1).collect();
            return self.offer(&values);
        }
        let subgroup = self.symmetries.stabiliser(&self.decided_one, &self.decided_zero, &self.is_one, &self.is_zero);
        let single = candidates.len() == 1 && !covering;
        let start = self.problem.trail.len();
        let zeros_before = self.decided_zero.len();
        let mut feasible = true;
        for &c in &candidates {
            if !feasible {
                break;
            }
            if self.problem.value[c] != FREE {
                continue;
            }
            let mark = self.problem.trail.len();
            self.problem.assign(c, true, &mut self.lp);
            self.decided_one.push(c);
            self.is_one[c] = true;
            if self.problem.propagate(&mut self.lp) {
                self.node()?;
            }
            self.is_one[c] = false;
            self.decided_one.pop();
            self.problem.undo(mark, &mut self.lp);
            // The remaining children: no piece on the orbit of `c`.
            let orbit = self.symmetries.orbit(c, &subgroup);
            self.stats.orbit_fixings += orbit.len() as u64 - 1;
            for &o in &orbit {
                if self.problem.value[o] == FREE {
                    self.problem.assign(o, false, &mut self.lp);
                    self.decided_zero.push(o);
                    self.is_zero[o] = true;
                }
            }
            feasible = self.problem.propagate(&mut self.lp);
            if single && feasible {
                self.node()?;
            }
        }
        for &o in &self.decided_zero[zeros_before..] {
            self.is_zero[o] = false;
        }
        self.decided_zero.truncate(zeros_before);
        self.problem.undo(start, &mut self.lp);
        Ok(())
    }
}

fn frac(v: f64) -> f64 {
    0.5 - (v - 0.5).abs()
}

/// The least multiple of `step` at or above `cost`.
fn round_up(cost: i64, step: i64) -> i64 {
    cost.div_euclid(step) * step + if cost.rem_euclid(step) == 0 { 0 } else { step }
}

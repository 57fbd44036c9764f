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
//!   ([`orbits`]); where covering rows are short or absent, on a fractional variable chosen by
//!   reliability branching ([`strong`]);
//! - **reduces by symmetry** in the order of its decisions ([`lex`]): a decision that
//!   empties a square empties its image under every symmetry that agrees with the earlier
//!   decisions, whether or not a symmetry keeps them in place.
//!
//! Before the tree, zero-half cuts ([`cuts`]) strengthen the relaxation, and a local search ([`local_search`]) finds a good placement, so the
//! tree mostly proves; every placement passes the rules checker before it is reported, and the
//! proven bound (the least bound over the open nodes) is reported as it rises, so a search
//! stopped early still answers with its best placement and its bound.
//!
//! Several threads search the tree together ([`tree`]): each on its own copy of the program
//! and the relaxation, sharing the best placement and handing subtrees to idle threads
//! through a [`pool`].

mod cubes;
mod cuts;
mod ingredients;
mod lex;
mod local_search;
mod orbits;
mod pool;
mod problem;
mod proof_log;
mod ring;
mod strong;
mod tree;
mod tree_proof;

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use knights_sat_encodings::check::check_placement;
use knights_sat_encodings::linear::{placement_model, PlacementModel};
use knights_sat_encodings::puzzle::placement::PlacementPuzzle;

use crate::driver::{Event, SearchStats, Solution};
use crate::solver::simplex::{Lp, LpStatus};
use crate::Error;
pub use cubes::{solve_cube, split, Cube, Cut, PlacementCubeSearch, Split, PSEUDOCOSTS_REFUSED};
pub use ingredients::Ingredients;
use ingredients::REPORT_EVERY;
use orbits::Symmetries;
pub use pool::Branching;
use pool::{round_up_bound, Message, Pool, Task};
use problem::{Problem, MAX_BASIS_ROWS};
use proof_log::ProofLog;
pub use strong::PseudocostTable;
use tree::{Context, SplitAt, SubtreeCuts, Worker};
pub use tree_proof::{Combination, CutOrigin, Decision, OrbitFixing, TreeProof};

/// The longest the ring cut's column generation may take at the root.
const RING_TIME: Duration = Duration::from_secs(30);

/// Whether the branch-and-bound search can take `puzzle` (its linear model exists).
pub fn supports(puzzle: &PlacementPuzzle) -> bool {
    placement_model(puzzle).is_ok()
}

/// Finds an optimal placement by branch and bound on `threads` threads and proves it optimal.
pub(super) fn solve(
    puzzle: &PlacementPuzzle,
    ingredients: Ingredients,
    threads: usize,
    emit: &mut dyn FnMut(Event),
) -> Result<(), Error> {
    search(puzzle, ingredients, threads, Pace::DEFAULT, emit)
}

/// [`solve`] at the given pace.
fn search(
    puzzle: &PlacementPuzzle,
    ingredients: Ingredients,
    threads: usize,
    pace: Pace,
    emit: &mut dyn FnMut(Event),
) -> Result<(), Error> {
    let started = Instant::now();
    let threads = threads.max(1);
    let prepared = prepare(puzzle, ingredients, threads, true, None, emit)?;
    let problem = &prepared.problem;
    let mut merged = Merged::new(threads, started, prepared.symmetries.len(), prepared.cuts);
    let mut best = None;
    if let Some((cost, value)) = prepared.found {
        best = Some(cost);
        merged.incumbent = Some(value);
        emit(Event::Search(merged.total()));
    }
    let root = vec![Task::root(prepared.root_bound)];
    let mut pool = Pool::with_tasks(threads, root, problem.step, problem.maximise, pace.eager);
    // Trees that branch on covering rows (queens, rooks) measured no better for the split.
    if prepared.ingredients.cubes && !prepared.ingredients.row_branching {
        pool = pool.with_budget(pace.restart_nodes);
    }
    if let Some(cost) = best {
        pool.improve(cost, || Ok(()))?;
    }
    run_tree(puzzle, &prepared, &pool, (None, None), &mut merged, emit)?;
    if !pool.over_budget() {
        if pool.best().is_none() {
            emit(Event::Infeasible("no placement satisfies the rules".to_string()));
        }
        if let (Some(tree), false) = (prepared.tree_proof(), pool.stopped()) {
            emit(Event::TreeProof(std::sync::Arc::new(tree)));
        }
        return Ok(());
    }
    // Past the budget: the search starts again from the tree's open nodes at a shallow depth,
    // best bound first; what it found and proved so far stands.
    let open = cubes::open_nodes(puzzle, &prepared, (pool.best(), threads), CUBES, started, emit)?;
    merged.restart(open.stats.nodes, &open.tasks);
    merged.incumbent = open.best.map(|cost| pool::value_of(cost, problem.maximise));
    if open.tasks.is_empty() {
        cubes::report_closed(open.best, problem.maximise, emit);
        emit(Event::Search(merged.total()));
        return Ok(());
    }
    let pool = Pool::with_tasks(threads, open.tasks, problem.step, problem.maximise, pace.eager);
    if let Some(cost) = open.best {
        pool.improve(cost, || Ok(()))?;
    }
    run_tree(puzzle, &prepared, &pool, (None, Some(pace)), &mut merged, emit)?;
    if pool.best().is_none() {
        emit(Event::Infeasible("no placement satisfies the rules".to_string()));
    }
    Ok(())
}

/// What every search of the tree starts from: the linear model, the program strengthened by
/// cuts, its relaxation solved at the root, the board symmetries, and the local search's
/// placement (its cost and value; already reported).
struct Prepared {
    model: PlacementModel,
    problem: Problem,
    lp: Lp,
    root_bound: f64,
    symmetries: Symmetries,
    ingredients: Ingredients,
    cuts: usize,
    /// How the cuts were derived (none when they were given).
    separation: cuts::Separation,
    /// The rows of the model before the cuts.
    model_rows: usize,
    found: Option<(i64, usize)>,
    /// Where a certified search records its bounds.
    log: Option<ProofLog>,
    /// What branching measured so far, kept through every tree searched with this
    /// preparation: a split's passes, a search and its start again from its open nodes.
    pseudocosts: strong::Pseudocosts,
}

impl Prepared {
    /// What a certified search logged so far, with the program's cuts and symmetries (taken:
    /// the log starts again empty); `None` if the search is not certified.
    fn tree_proof(&self) -> Option<TreeProof> {
        let (combinations, orbits, leaves) = self.log.as_ref()?.take();
        Some(TreeProof {
            model_rows: self.model_rows,
            separated: self.separation.origins.clone(),
            kept: self.separation.kept.clone(),
            step: self.problem.step,
            combinations,
            symmetries: self.symmetries.perms().to_vec(),
            orbits,
            leaves,
        })
    }
}

/// Builds the program of `puzzle`, separates its cuts (or adds `given` ones, separated
/// before) and, if `look` (and the ingredients allow it), runs the local search for a first
/// placement meanwhile.
fn prepare(
    puzzle: &PlacementPuzzle,
    ingredients: Ingredients,
    threads: usize,
    look: bool,
    given: Option<&[Cut]>,
    emit: &mut dyn FnMut(Event),
) -> Result<Prepared, Error> {
    let model = placement_model(puzzle).map_err(|e| Error::Internal(format!("branch and bound: {e}")))?;
    let base = Problem::new(&model.model);
    if base.rows.len() > MAX_BASIS_ROWS {
        let gigabytes = (base.rows.len() as f64).powi(2) * 8.0 / 1e9;
        return Err(Error::Unsupported(format!(
            "branch and bound keeps a dense basis of its {} rows ({gigabytes:.1} GB per thread), more than \
             the {MAX_BASIS_ROWS} rows it takes; use --strategy core-guided",
            base.rows.len()
        )));
    }
    let n = base.n();
    let model_rows = base.rows.len();
    if let Some(v) = given.into_iter().flatten().flat_map(|cut| &cut.terms).map(|t| t.1).find(|&v| v >= n) {
        return Err(Error::Unsupported(format!("a cut names variable {v}, but the puzzle has {n}")));
    }
    let ingredients = Ingredients {
        row_branching: ingredients.row_branching && branches_on_rows(&base),
        local_search: ingredients.local_search && look,
        // A certificate states the tree as searched from the root: without a restart from
        // open nodes, and with the root's cuts only.
        cubes: ingredients.cubes && !ingredients.certify,
        subtree_cuts: ingredients.subtree_cuts && ingredients.cuts && !ingredients.certify,
        lex_reduction: ingredients.lex_reduction && ingredients.symmetry && !ingredients.certify,
        ..ingredients
    };
    let symmetries = if ingredients.symmetry {
        Symmetries::of(puzzle, n, |v| {
            let mut one = vec![false; n];
            one[v] = true;
            model.placement(&one)
        })
    } else {
        Symmetries::of_nothing()
    };
    // The local search aims at the bound of the plain relaxation, which is solved, and the
    // cuts separated, meanwhile on a second core when the search may use more than one. On
    // one core the bound comes first, unless the program is so large that its relaxation would
    // hold back the first placement (knight domination 40x40: more than 5 s).
    let target = AtomicI64::new(local_search::NO_TARGET);
    let step = base.step;
    let aim_at = |bound: Option<f64>| {
        if let Some(bound) = bound {
            target.fetch_max(round_up_bound(bound, step), Ordering::Relaxed);
        }
    };
    let aim = |problem: &Problem| aim_at(root(problem).1);
    let time = Duration::from_millis(local_search_ms(n));
    // The local search goes on while the cuts are separated: on a loaded machine its own
    // time alone (on 16x16 512 ms, given up 128 ms after its last improvement) measured too
    // short to find the optimum.
    let cutting = AtomicBool::new(false);
    // Every placement the local search improves to is reported at once, so that a search
    // stopped early has an answer from the first milliseconds on.
    let mut reported: Option<usize> = None;
    let mut rejected: Option<Error> = None;
    let mut report = |values: &[bool]| {
        if rejected.is_some() || !base.satisfies(values) {
            return;
        }
        let placement = model.placement(values);
        match check_placement(puzzle, &placement) {
            Ok(value) => {
                reported = Some(value);
                emit(Event::Solution { value, solution: Solution::Placement(placement) });
            }
            Err(why) => rejected = Some(why.into()),
        }
    };
    let mut local = |problem: &Problem| {
        ingredients
            .local_search
            .then(|| local_search::improve(problem, (time, local_search::FIRST_SEED), &target, &cutting, &mut report))
            .flatten()
    };
    let strengthen = |mut problem: Problem| {
        let separation = match given {
            Some(cuts) => {
                for cut in cuts {
                    problem.add_row(cut.terms.clone(), cut.rhs);
                }
                cuts::Separation::default()
            }
            None if ingredients.cuts => {
                let ring_cut = (ingredients.ring_cut && !ingredients.certify)
                    .then(|| {
                        let (ring, angle) = ring::ring_of(puzzle, &model);
                        ring::ring_cut(&problem, &ring, &|v: usize| angle[v], RING_TIME)
                    })
                    .flatten();
                let separation = cuts::strengthen(&mut problem);
                if let Some((terms, rhs)) = ring_cut {
                    problem.add_row(terms, rhs);
                }
                separation
            }
            None => cuts::Separation::default(),
        };
        // The root relaxation, cuts included: its bound is the first proven one, and a
        // placement at it needs no further search.
        let root = root(&problem);
        (problem, separation, root)
    };
    let ((problem, separation, (lp, root_bound)), found) =
        if threads > 1 && ingredients.cuts && ingredients.local_search {
            std::thread::scope(|scope| {
                cutting.store(true, Ordering::Relaxed);
                let cuts = scope.spawn(|| {
                    // Cleared however the separation ends, a panic included.
                    let _done = ClearOnDrop(&cutting);
                    aim(&base);
                    let (problem, separation, (lp, bound)) = strengthen(base.clone());
                    // The bound with the cuts becomes the local search's aim before it is told
                    // that the cuts are done: a placement at that bound needs no more search.
                    // Knight domination 10x10, whose bound with the cuts is its optimum (16):
                    // 0.020 s against 0.053 s, when the search went on for its patience after.
                    aim_at(bound);
                    (problem, separation, (lp, bound))
                });
                let found = local(&base);
                (cuts.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), found)
            })
        } else {
            if base.rows.len() <= FIRST_BOUND_ROWS {
                aim(&base);
            }
            let found = local(&base);
            (strengthen(base.clone()), found)
        };
    if let Some(error) = rejected {
        return Err(error);
    }
    let root_bound = root_bound.unwrap_or(f64::NEG_INFINITY);
    let found = match found.filter(|values| problem.satisfies(values)) {
        Some(values) => {
            let placement = model.placement(&values);
            let value = check_placement(puzzle, &placement)?;
            if reported != Some(value) {
                emit(Event::Solution { value, solution: Solution::Placement(placement) });
            }
            Some((problem.cost_of(&values), value))
        }
        None => None,
    };
    let cuts = problem.rows.len() - model_rows;
    let log = ingredients.certify.then(ProofLog::default);
    let pseudocosts = strong::Pseudocosts::new(problem.n(), &symmetries);
    Ok(Prepared {
        model,
        problem,
        lp,
        root_bound,
        symmetries,
        ingredients,
        cuts,
        separation,
        model_rows,
        found,
        log,
        pseudocosts,
    })
}

/// Searches the tasks of `pool` on its threads (one per open bound of the pool), passing on
/// their events; with `split`, nodes at its depth are kept as cubes instead of searched. With
/// `top_after`, the tasks are cubes of a tree known to be large (split, or started again from
/// its open nodes), and once a cube has searched that many nodes, the first levels below it
/// measure every candidate ([`strong::TOP`]).
fn run_tree(
    puzzle: &PlacementPuzzle,
    prepared: &Prepared,
    pool: &Pool,
    (split, cubes): (Option<&SplitAt>, Option<Pace>),
    merged: &mut Merged,
    emit: &mut dyn FnMut(Event),
) -> Result<(), Error> {
    let threads = merged.threads.len();
    let cx = Context {
        puzzle,
        model: &prepared.model,
        symmetries: &prepared.symmetries,
        ingredients: prepared.ingredients,
        pool,
        pseudocosts: &prepared.pseudocosts,
        split,
        top_after: cubes.map(|pace| pace.top_after).filter(|_| prepared.ingredients.strong_at_top),
        log: prepared.log.as_ref(),
        subtree_cuts: cubes
            .filter(|_| split.is_none() && prepared.ingredients.subtree_cuts)
            .map(|pace| pace.subtree_cuts),
    };
    let (sender, receiver) = mpsc::channel();
    let results: Vec<Result<(), Error>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|me| {
                let worker = Worker::new(me, &cx, prepared.problem.clone(), prepared.lp.clone(), sender.clone());
                std::thread::Builder::new()
                    .name(format!("branch-and-bound-{me}"))
                    .spawn_scoped(scope, move || worker.run())
            })
            .collect();
        drop(sender);
        for message in receiver {
            match message {
                Message::Event(event) => {
                    merged.observe(&event);
                    let solution = matches!(event, Event::Solution { .. });
                    emit(event);
                    if solution {
                        emit(Event::Search(merged.total_with(pool)));
                    }
                }
                Message::Stats(me, stats) => {
                    merged.threads[me] = stats;
                    if merged.last_report.elapsed() >= REPORT_EVERY {
                        emit(Event::Search(merged.total_with(pool)));
                    }
                }
            }
        }
        workers
            .into_iter()
            .map(|spawned| match spawned {
                Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(e) => Err(Error::Internal(format!("branch and bound: cannot start a thread: {e}"))),
            })
            .collect()
    });
    results.into_iter().collect::<Result<(), Error>>()?;
    emit(Event::Search(merged.total_with(pool)));
    Ok(())
}

/// The open nodes a search that ran past [`RESTART_NODES`] starts again from
/// ([`Ingredients::cubes`]): measured on knight domination 17x17 (two threads), the search
/// from 305 nodes at depth 9 proved 46 in 100 s, where the search from the root had 41 after
/// 240 s.
const CUBES: usize = 256;

/// The nodes a search from the root that branches on variables may take before it starts
/// again from its open nodes at a shallow depth: more than knight domination 16x16 takes whole
/// (3,195), for which the split measured slower (two threads: 2.9 s against 0.7 s). Searches
/// that branch on covering rows do not start again: queen domination 14x14 took 11.0 s with
/// the restart against 5.7 s without.
const RESTART_NODES: u64 = 30_000;

/// A task separates cuts of its own ([`cuts::for_subtree`]) when its bound lies at
/// least this far below the cutoff: its tree must climb that far, and is large enough to pay
/// for the separation. Measured on cubes of knight domination 19x19 (one thread each; with
/// cuts against without): bound 51.6, 498 s against 822 s; about 53, 78 s against 90 s;
/// about 53.5, 18 s against 16 s; about 54, 5 s against 4 s. Knight domination 17x17 (two
/// threads), whose cubes are small: 31 s with this gap (no cube so far below), 34 s with
/// 1.5, 51 s with cuts in every cube, 31.5 s with none.
const SUBTREE_CUTS_GAP: f64 = 3.0;

/// Where cubes separate cuts of their own ([`SUBTREE_CUTS_GAP`]), a task hands the rest of its
/// shallowest branching to the pool after every this many of its nodes: that rest is then
/// searched as a task of its own, with cuts separated for it, deeper down and so stronger.
/// Measured on the heaviest cube
/// of knight domination 19x19 (one thread, one run each): 335,228 nodes in 473 s, against
/// 398,451 in 535 s with cuts at its top only (and 833,106 in 822 s without any). Every
/// 5,000 nodes instead, six cubes of an 18x18 split side by side (one thread each, one run):
/// 96.3 s against 98.5 s, the heaviest two 43.0 and 21.9 s against 38.4 and 30.8 s, so either
/// may win cube by cube and the total is within the noise.
const HAND_OVER_EVERY: u64 = 20_000;

/// How a search paces its work (the tests quicken it).
#[derive(Clone, Copy, Debug)]
struct Pace {
    /// Threads give subtrees away at every node, not only to an idle thread.
    eager: bool,
    /// Nodes after which a search that branches on variables starts again from its open nodes.
    restart_nodes: u64,
    /// Nodes a cube searches before its top levels measure every candidate.
    top_after: u64,
    /// When cubes separate cuts of their own.
    subtree_cuts: SubtreeCuts,
}

impl Pace {
    const DEFAULT: Pace = Pace {
        eager: false,
        restart_nodes: RESTART_NODES,
        top_after: strong::TOP_AFTER,
        subtree_cuts: SubtreeCuts { gap: SUBTREE_CUTS_GAP, hand_over_every: HAND_OVER_EVERY },
    };
}

/// Clears its flag when dropped.
struct ClearOnDrop<'a>(&'a AtomicBool);

impl Drop for ClearOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// The statistics of all threads together, as the caller sees them.
struct Merged {
    threads: Vec<SearchStats>,
    started: Instant,
    last_report: Instant,
    symmetries: usize,
    cuts: usize,
    bound: Option<usize>,
    incumbent: Option<usize>,
    /// Nodes searched before the threads started (by the passes that split the tree).
    before: u64,
    /// The pool's open subtrees when last asked.
    open_subtrees: u64,
    /// The share of the tree closed before the threads started: what the passes that split
    /// the tree closed.
    done_before: f64,
}

impl Merged {
    fn new(threads: usize, started: Instant, symmetries: usize, cuts: usize) -> Merged {
        Merged {
            threads: vec![SearchStats::default(); threads],
            started,
            last_report: started,
            symmetries,
            cuts,
            bound: None,
            incumbent: None,
            before: 0,
            open_subtrees: 0,
            done_before: 0.0,
        }
    }

    fn observe(&mut self, event: &Event) {
        match *event {
            Event::Bound(value) => self.bound = Some(value),
            Event::Solution { value, .. } => self.incumbent = Some(value),
            _ => {}
        }
    }

    /// The nodes searched so far.
    fn nodes(&self) -> u64 {
        self.before + self.threads.iter().map(|s| s.nodes).sum::<u64>()
    }

    /// The threads start again (their counts from zero) on `open` subtrees, after `passes`
    /// nodes of splitting. The subtrees the stopped search left open are closed or among them.
    fn restart(&mut self, passes: u64, open: &[Task]) {
        self.before = self.nodes() + passes;
        self.open_subtrees = open.len() as u64;
        self.done_before = 1.0 - open.iter().map(|task| task.share).sum::<f64>();
        for thread in &mut self.threads {
            *thread = SearchStats::default();
        }
    }

    /// [`Merged::total`] with the subtrees `pool` still has open.
    fn total_with(&mut self, pool: &Pool) -> SearchStats {
        self.open_subtrees = pool.open_subtrees();
        self.total()
    }

    /// The sums over the threads, with each thread's nodes.
    fn total(&mut self) -> SearchStats {
        self.last_report = Instant::now();
        let sum = |f: fn(&SearchStats) -> u64| self.threads.iter().map(f).sum();
        SearchStats {
            seconds: self.started.elapsed().as_secs_f64(),
            nodes: self.before + sum(|s| s.nodes),
            lp_solves: sum(|s| s.lp_solves),
            pivots: sum(|s| s.pivots),
            fixed_by_reduced_cost: sum(|s| s.fixed_by_reduced_cost),
            orbit_fixings: sum(|s| s.orbit_fixings),
            lex_fixings: sum(|s| s.lex_fixings),
            subtrees_shared: sum(|s| s.subtrees_shared),
            open_subtrees: self.open_subtrees,
            done: self.done_before + self.threads.iter().map(|s| s.done).sum::<f64>(),
            strong_branchings: sum(|s| s.strong_branchings),
            fixed_by_strong_branching: sum(|s| s.fixed_by_strong_branching),
            subtree_cuts: sum(|s| s.subtree_cuts),
            thread_nodes: if self.threads.len() > 1 {
                self.threads.iter().map(|s| s.nodes).collect()
            } else {
                Vec::new()
            },
            symmetries: self.symmetries,
            cuts: self.cuts,
            bound: self.bound,
            incumbent: self.incumbent,
        }
    }
}

/// The relaxation of `problem` solved, and its bound (none unless the simplex ends optimal).
fn root(problem: &Problem) -> (Lp, Option<f64>) {
    let mut lp = problem.relaxation();
    let bound = match lp.solve(f64::INFINITY) {
        LpStatus::Optimal(_) => Some(problem.lagrangian(&lp.duals()).0),
        _ => None,
    };
    (lp, bound)
}

/// Whether the tree branches on covering rows: when they are long, as a queen's or a rook's
/// are (more than [`cuts::LONGEST_ROW`] candidates on average). Short rows, as a knight's or a
/// king's, make the relaxation strong, and a branching on the most fractional variable then
/// keeps the tree smaller. Measured (two threads, cuts at the root): knight domination 15x15,
/// 6,745 nodes (6.3 s) on variables against 15,207 (11.1 s) on rows, and 16x16 3,195 (5.1 s)
/// against 10,341 (12.6 s); queen domination 14x14, 24,749 nodes (12.7 s) on variables against
/// 38,546 (10.4 s) on rows.
fn branches_on_rows(problem: &Problem) -> bool {
    let (rows, terms) = problem
        .rows
        .iter()
        .filter(|row| row.covering)
        .fold((0, 0), |(rows, terms), row| (rows + 1, terms + row.terms.len()));
    rows > 0 && terms > cuts::LONGEST_ROW * rows
}

/// On one core, the most rows whose relaxation is solved before the local search starts (so
/// that it can stop at the bound): knight domination 32x32 has 1,024.
const FIRST_BOUND_ROWS: usize = 1_024;

/// The local search's time before the tree: longer for larger boards, where it pays most.
fn local_search_ms(n: usize) -> u64 {
    (n as u64 * 2).clamp(20, 1000)
}

#[cfg(test)]
mod tests;

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
//! through a [`pool`]. Asked to, a long search, once started again from its open nodes, goes a
//! level of the bound at a time through that pool, so that its proven bound rises early.

mod cubes;
mod cuts;
mod ingredients;
mod lex;
mod local_search;
mod orbits;
mod pool;
mod prepare;
mod problem;
mod proof_log;
mod ring;
mod strong;
mod thread_clock;
mod tree;
mod tree_proof;

use std::sync::mpsc;
use std::time::Instant;

use knights_sat_encodings::linear::placement_model;
use knights_sat_encodings::puzzle::placement::PlacementPuzzle;

use crate::driver::{Event, SearchStats};
use crate::Error;
pub use cubes::{solve_cube, split, Cube, PlacementCubeSearch, Split, PSEUDOCOSTS_REFUSED};
pub use ingredients::Ingredients;
use ingredients::REPORT_EVERY;
pub use pool::Branching;
use pool::{Message, Pool, Task};
pub use prepare::Cut;
use prepare::{prepare, prepare_beside, prepare_from, wait_for, LocalSearch, Lookout, Prepared, Setup};
pub use strong::PseudocostTable;
use tree::{Context, SplitAt, SubtreeCuts, Worker};
pub use tree_proof::{Combination, CutOrigin, Decision, OrbitFixing, TreeProof};

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
    let setup = Setup::new(puzzle, ingredients, true, None)?;
    let (step, maximise) = (setup.base.step, setup.base.maximise);
    let mut pool = Pool::with_tasks(threads, Vec::new(), step, maximise, pace.eager);
    // Trees that branch on covering rows (queens, rooks) measured no better for the split.
    if setup.ingredients.cubes && !setup.ingredients.row_branching {
        pool = pool.with_budget(pace.restart_nodes);
    }
    let lookout = Lookout::new();
    std::thread::scope(|scope| {
        let (prepared, beside) = if setup.starts_beside(threads) {
            let (sender, receiver) = mpsc::channel();
            let prepared = prepare_beside(scope, puzzle, setup, (&lookout, &pool), (&sender, &receiver), emit);
            let (prepared, local) = prepared.inspect_err(|_| lookout.stop())?;
            (prepared, Some(Beside { channel: (sender, receiver), local, lookout: &lookout }))
        } else {
            (prepare_from(puzzle, setup, threads, None, emit)?, None)
        };
        let mut merged = Merged::new(threads, started, prepared.symmetries.len(), prepared.cuts);
        if let Some((cost, _)) = prepared.found {
            pool.improve(cost, || Ok(()))?;
        }
        if let Some(cost) = pool.best() {
            merged.incumbent = Some(pool::value_of(cost, maximise));
            emit(Event::Search(merged.total()));
        }
        pool.give(Task::root(prepared.root_bound));
        run_tree_beside(puzzle, &prepared, &pool, (None, None), &mut merged, beside, emit)?;
        search_on(puzzle, &prepared, (&pool, threads, pace), (started, &mut merged), emit)
    })
}

/// The rest of [`search`] once its first tree is searched: done, or past its budget, when it
/// starts again from the tree's open nodes at a shallow depth, best bound first; what it found
/// and proved so far stands.
fn search_on(
    puzzle: &PlacementPuzzle,
    prepared: &Prepared,
    (pool, threads, pace): (&Pool, usize, Pace),
    (started, merged): (Instant, &mut Merged),
    emit: &mut dyn FnMut(Event),
) -> Result<(), Error> {
    let problem = &prepared.problem;
    if !pool.over_budget() {
        if pool.best().is_none() {
            emit(Event::Infeasible("no placement satisfies the rules".to_string()));
        }
        if let (Some(tree), false) = (prepared.tree_proof(), pool.stopped()) {
            emit(Event::TreeProof(std::sync::Arc::new(tree)));
        }
        return Ok(());
    }
    let so_far = merged.total_with(pool);
    // The tree started again: its pool, which the local search's tries beside the passes
    // already improve.
    let later = Pool::with_tasks(threads, Vec::new(), problem.step, problem.maximise, pace.eager)
        .with_levels(prepared.ingredients.levels);
    if let Some(cost) = pool.best() {
        later.improve(cost, || Ok(()))?;
    }
    let lookout = cubes::tries_lookout(prepared);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let mut reports = cubes::TriesReports::new(&receiver);
        let (open, tries) = cubes::passes_beside_tries(
            scope,
            puzzle,
            (prepared, threads, CUBES),
            (&later, &lookout, sender.clone()),
            (started, &so_far),
            &mut reports,
            emit,
        )?;
        merged.restart(&open.stats, &open.tasks);
        merged.incumbent = later.best().map(|cost| pool::value_of(cost, problem.maximise));
        if open.tasks.is_empty() {
            lookout.stop();
            tries.map_or(Ok(()), wait_for)?;
            reports.pass_on(&later, emit);
            cubes::report_closed(later.best(), problem.maximise, emit);
            emit(Event::Search(merged.total()));
            return Ok(());
        }
        for task in open.tasks {
            later.give(task);
        }
        // The tries' thread joins the tree once they are done.
        let beside = tries.map(|local| Beside { channel: (sender, receiver), local, lookout: &lookout });
        run_tree_beside(puzzle, prepared, &later, (None, Some(pace)), merged, beside, emit)?;
        if later.best().is_none() {
            emit(Event::Infeasible("no placement satisfies the rules".to_string()));
        }
        Ok(())
    })
}

/// The local search still running when a tree starts ([`prepare_beside`]): the channel its
/// placements are reported on, its thread, and how to stop it.
struct Beside<'scope, 'a> {
    channel: (mpsc::Sender<Message>, mpsc::Receiver<Message>),
    local: LocalSearch<'scope>,
    lookout: &'a Lookout,
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
    at: (Option<&SplitAt>, Option<Pace>),
    merged: &mut Merged,
    emit: &mut dyn FnMut(Event),
) -> Result<(), Error> {
    run_tree_beside(puzzle, prepared, pool, at, merged, None, emit)
}

/// [`run_tree`] with the local search still running `beside` it, if any: the last thread
/// joins the tree once the local search is done, and the local search stops once the tree is.
fn run_tree_beside(
    puzzle: &PlacementPuzzle,
    prepared: &Prepared,
    pool: &Pool,
    (split, cubes): (Option<&SplitAt>, Option<Pace>),
    merged: &mut Merged,
    beside: Option<Beside<'_, '_>>,
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
    let (sender, receiver, mut local, lookout) = match beside {
        Some(Beside { channel: (sender, receiver), local, lookout }) => (sender, receiver, Some(local), Some(lookout)),
        None => {
            let (sender, receiver) = mpsc::channel();
            (sender, receiver, None, None)
        }
    };
    let results: Vec<Result<(), Error>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|me| {
                let worker = Worker::new(me, &cx, prepared.problem.clone(), prepared.lp.clone(), sender.clone());
                let late = if me + 1 == threads { local.take() } else { None };
                std::thread::Builder::new().name(format!("branch-and-bound-{me}")).spawn_scoped(scope, move || {
                    if let Some(local) = late {
                        // A placement the rules checker rejected stops the search.
                        if let Err(error) = wait_for(local) {
                            pool.stop();
                            return Err(error);
                        }
                    }
                    let searched = worker.run();
                    if let Some(lookout) = lookout {
                        lookout.stop();
                    }
                    searched
                })
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
                Message::Ready => {}
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
/// again from its open nodes at a shallow depth: more than knight domination 15x15 and 16x16
/// take whole (1,248 to 1,732 and 394, two threads), for which the split measured slower (16x16
/// when it took 3,195: 2.9 s against 0.7 s). Knight domination 17x17 (two threads, three runs
/// each): 19.6 to 23.8 s and 28,771 to 32,094 nodes, against 29.1 to 35.6 s and 55,353 to
/// 58,102 with 30,000 (the cubes take about 25,000 nodes either way: the first tree's were
/// lost); 18x18 (one run): 1.15 million nodes and 63.6 million pivots in 746 s, where 30,000
/// had taken 1.19 million and 65 million in 674 s on another day. Searches that branch on
/// covering rows do not start again: queen domination 14x14 took 11.0 s with the restart
/// against 5.7 s without.
const RESTART_NODES: u64 = 5_000;

/// A task separates cuts of its own ([`cuts::for_subtree`]) when its bound lies at
/// least this far below the cutoff: its tree must climb that far, and is large enough to pay
/// for the separation. Measured on cubes of knight domination 19x19 (one thread each; with
/// cuts against without): bound 51.6, 498 s against 822 s; about 53, 78 s against 90 s;
/// about 53.5, 18 s against 16 s; about 54, 5 s against 4 s. Knight domination 17x17 (two
/// threads), whose cubes are small: 31 s with this gap (no cube so far below), 34 s with
/// 1.5, 51 s with cuts in every cube, 31.5 s with none. Knight domination 20x20, four cubes
/// of one split (`--cubes 116`, cubes 93, 85, 15 and 101; one thread each, side by side, one
/// run): with 2.0, so that more of the tasks handed over separate cuts too, 293,527 nodes in
/// 716 s against 313,613 in 734 s. Fewer nodes in each cube, but the time within the noise.
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

/// The statistics of all threads together, as the caller sees them.
struct Merged {
    threads: Vec<SearchStats>,
    started: Instant,
    last_report: Instant,
    symmetries: usize,
    cuts: usize,
    bound: Option<usize>,
    incumbent: Option<usize>,
    /// The work of the searches before the threads started (a tree stopped at its budget, the
    /// passes that split it), which the totals add to the threads' own.
    before: SearchStats,
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
            before: SearchStats::default(),
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

    /// The threads start again (their counts from zero) on `open` subtrees, after the work
    /// `so_far` (of the stopped search and the passes that split it). The subtrees the stopped
    /// search left open are closed or among them.
    fn restart(&mut self, so_far: &SearchStats, open: &[Task]) {
        self.before = so_far.clone();
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
        let sum = |f: fn(&SearchStats) -> u64| f(&self.before) + self.threads.iter().map(f).sum::<u64>();
        SearchStats {
            seconds: self.started.elapsed().as_secs_f64(),
            nodes: sum(|s| s.nodes),
            lp_solves: sum(|s| s.lp_solves),
            pivots: sum(|s| s.pivots),
            fixed_by_reduced_cost: sum(|s| s.fixed_by_reduced_cost),
            orbit_fixings: sum(|s| s.orbit_fixings),
            lex_fixings: sum(|s| s.lex_fixings),
            subtrees_shared: sum(|s| s.subtrees_shared),
            deferred: sum(|s| s.deferred),
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
            split_depth: None,
        }
    }
}

#[cfg(test)]
mod tests;

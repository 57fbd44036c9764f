//! Cube and conquer over the branch-and-bound tree: [`split`] searches the tree down to a
//! depth and keeps the nodes it reaches there as cubes; [`solve_cube`] searches one cube's
//! subtree, anywhere, later, on any number of threads.
//!
//! The cubes and the nodes the split pruned are the leaves of one tree, so together they
//! cover every placement the tree's search would have covered (orbital fixing included: a
//! cube's decisions carry the orbits its earlier siblings emptied). A cube is searched for
//! placements cheaper than the best one known when the tree was split, so its fixings by
//! reduced costs, proved against that placement, stay valid. Once every cube is searched, the
//! best placement found by the split or by any cube is optimal.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::Scope;
use std::time::{Duration, Instant};

use knights_sat_encodings::puzzle::placement::PlacementPuzzle;
use serde::{Deserialize, Serialize};

use super::local_search;
use super::pool::{round_up_bound, Branching, Message, Pool, Task};
use super::prepare::{spawn_local_search, wait_for, Cut, LocalSearch, Lookout};
use super::strong::PseudocostTable;
use super::tree::SplitAt;
use super::tree_proof::{Decision, TreeProof};
use super::{prepare, run_tree, Ingredients, Merged, Prepared};
use crate::driver::{Event, SearchStats};
use crate::Error;

/// The deepest split tried: each level at most doubles the cubes of a fractional branching.
const MAX_DEPTH: usize = 30;
/// How many times the first local search's time the tries of the local search for a tree known
/// to be large may run (and wait for an improvement: a quarter of it). Knight domination 20x20
/// (optimum 62): at 4 times, two tries stopped at 63, stuck there from their first 50 ms for
/// their 0.8 s of patience; at 16 times, 5 of 8 tries (seeds) reached 62, after up to 2.1 s
/// (on 2026-12-07 2 of 8, after 1.35 s, the seed the tries now use, and 2.46 s).
const LONGER: u32 = 16;

/// One cube: a node of the tree, as the decisions that lead to it from the root. Variables
/// are the columns of the puzzle's linear model (`linear::placement_model`), which numbers
/// them the same way every time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cube {
    /// Pieces placed by branching.
    pub ones: Vec<usize>,
    /// Pieces left off by branching (a candidate's orbit, once its child was searched).
    pub zeros: Vec<usize>,
    /// Every variable fixed on the way, by branching, propagation or reduced costs: placed.
    pub fixed_ones: Vec<usize>,
    /// The same: left off.
    pub fixed_zeros: Vec<usize>,
    /// The node's relaxation bound on the cost of its placements, if it had one.
    pub bound: Option<f64>,
    /// The decisions in the order they were taken, for a certificate of the tree (empty in a
    /// split that was not certified).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<Decision>,
    /// The node's share of the tree ([`SearchStats::done`]): the cubes' shares and those of
    /// the nodes the split closed sum to 1 (absent from the cubes of older splits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<f64>,
    /// The children of a branching at the node still to search, where a suspended search left
    /// it (a split's cubes have none: each is searched from its node).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest: Option<Branching>,
}

impl Cube {
    fn of(task: Task) -> Cube {
        let (fixed_ones, fixed_zeros): (Vec<(usize, bool)>, Vec<_>) = task.fixed.iter().partition(|f| f.1);
        Cube {
            path: task.path,
            ones: task.ones,
            zeros: task.zeros,
            fixed_ones: fixed_ones.into_iter().map(|f| f.0).collect(),
            fixed_zeros: fixed_zeros.into_iter().map(|f| f.0).collect(),
            bound: task.bound.is_finite().then_some(task.bound),
            share: Some(task.share),
            rest: task.rest,
        }
    }

    /// The cube as a task, if every variable is one of `n` and every symmetry one of
    /// `symmetries`.
    fn task(&self, n: usize, symmetries: usize) -> Result<Task, Error> {
        let no_rest = Vec::new();
        let candidates = self.rest.as_ref().map_or(&no_rest, |rest| &rest.candidates);
        let vars = [&self.ones, &self.zeros, &self.fixed_ones, &self.fixed_zeros, candidates];
        if let Some(v) = vars.iter().flat_map(|list| list.iter()).find(|&&v| v >= n) {
            return Err(Error::Unsupported(format!("the cube names variable {v}, but the puzzle has {n}")));
        }
        if self.rest.as_ref().is_some_and(|rest| rest.candidates.is_empty()) {
            return Err(Error::Unsupported("the cube's rest of a branching has no candidate".into()));
        }
        if let Some(g) = self.rest.iter().flat_map(|rest| &rest.subgroup).find(|&&g| g >= symmetries) {
            return Err(Error::Unsupported(format!("the cube names symmetry {g}, but the puzzle has {symmetries}")));
        }
        let fixed = self.fixed_ones.iter().map(|&v| (v, true)).chain(self.fixed_zeros.iter().map(|&v| (v, false)));
        Ok(Task {
            ones: self.ones.clone(),
            zeros: self.zeros.clone(),
            path: self.path.clone(),
            fixed: fixed.collect(),
            rest: self.rest.clone(),
            bound: self.bound.unwrap_or(f64::NEG_INFINITY),
            // The cube's search reports how far it has come through the cube's own tree.
            share: 1.0,
            depth: 0,
            ..Task::default()
        })
    }
}

/// A tree split into cubes.
#[derive(Clone, Debug)]
pub struct Split {
    /// The open nodes at the split's depth; none if the split searched the whole tree.
    pub cubes: Vec<Cube>,
    /// The branchings from the root to each cube.
    pub depth: usize,
    /// The cuts at the root.
    pub cuts: Vec<Cut>,
    /// The best placement's cost when the split ended (`None`: none found).
    pub incumbent_cost: Option<i64>,
    /// The statistics of the split's last pass.
    pub stats: SearchStats,
    /// A certified split: its tree down to the cubes, the cubes' trees left to add.
    pub tree: Option<TreeProof>,
    /// What its branching measured, for the cubes' searches to start from.
    pub pseudocosts: PseudocostTable,
}

/// Splits the tree of `puzzle` into about `wanted` cubes ([`open_nodes`]). The placements
/// it finds are reported as they improve; a proven bound is reported only if no cube is left
/// (the split then solved the puzzle).
pub fn split(
    puzzle: &PlacementPuzzle,
    ingredients: Ingredients,
    threads: usize,
    wanted: usize,
    emit: &mut dyn FnMut(Event),
) -> Result<Split, Error> {
    let started = Instant::now();
    let prepared = prepare(puzzle, ingredients, threads.max(1), true, None, emit)?;
    let problem = &prepared.problem;
    let found = prepared.found.map(|found| found.0);
    let open =
        open_nodes(puzzle, &prepared, (found, threads.max(1)), wanted, (started, &SearchStats::default()), emit)?;
    if open.tasks.is_empty() {
        report_closed(open.best, problem.maximise, emit);
    }
    let cuts =
        problem.rows[prepared.model_rows..].iter().map(|row| Cut { terms: row.terms.clone(), rhs: row.rhs }).collect();
    let tree = prepared.tree_proof();
    Ok(Split {
        tree,
        pseudocosts: prepared.pseudocosts.table(),
        cubes: open.tasks.into_iter().map(Cube::of).collect(),
        depth: open.depth,
        cuts,
        incumbent_cost: open.best,
        stats: open.stats,
    })
}

/// The open nodes of a tree cut at some depth.
pub(super) struct OpenNodes {
    /// The nodes, as tasks; none if the tree closed above the depth.
    pub tasks: Vec<Task>,
    /// The depth: branchings from the root.
    pub depth: usize,
    /// The best placement's cost after the passes.
    pub best: Option<i64>,
    /// The work so far: what was searched before the passes, and the passes.
    pub stats: SearchStats,
}

/// Searches the tree of `prepared`, a tree known to be large, to depth 1, 2, … ([`passes`]) and
/// keeps the open nodes there, while the local search tries again for a better placement than
/// `best` ([`spawn_tries`], on a thread of its own); the tries' end is waited for, so that the
/// best cost returned is the one the cubes search against.
pub(super) fn open_nodes(
    puzzle: &PlacementPuzzle,
    prepared: &Prepared,
    (best, threads): (Option<i64>, usize),
    wanted: usize,
    (started, before): (Instant, &SearchStats),
    emit: &mut dyn FnMut(Event),
) -> Result<OpenNodes, Error> {
    let problem = &prepared.problem;
    let keeper = Pool::with_tasks(threads, Vec::new(), problem.step, problem.maximise, false);
    if let Some(cost) = best {
        keeper.improve(cost, || Ok(()))?;
    }
    let lookout = tries_lookout(prepared);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let mut reports = TriesReports::new(&receiver);
        let (mut open, tries) = passes_beside_tries(
            scope,
            puzzle,
            (prepared, threads, wanted),
            (&keeper, &lookout, sender),
            (started, before),
            &mut reports,
            emit,
        )?;
        tries.map_or(Ok(()), wait_for)?;
        reports.pass_on(&keeper, emit);
        open.best = keeper.best();
        Ok(open)
    })
}

/// [`passes`] with the local search's tries ([`spawn_tries`]) on a thread of their own in
/// `scope`, their placements going into `keeper` and reported on `events`, which `reports`
/// passes on between passes: the open nodes (about `wanted`), and the tries' thread if it runs
/// on. A failed pass stops the tries.
pub(super) fn passes_beside_tries<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    puzzle: &'env PlacementPuzzle,
    (prepared, threads, wanted): (&'env Prepared, usize, usize),
    (keeper, lookout, events): (&'env Pool, &'env Lookout, Sender<Message>),
    (started, before): (Instant, &SearchStats),
    reports: &mut TriesReports,
    emit: &mut dyn FnMut(Event),
) -> Result<(OpenNodes, Option<LocalSearch<'scope>>), Error> {
    let tries = spawn_tries(scope, puzzle, (prepared, threads), (keeper, lookout), events)?;
    let open = passes(puzzle, prepared, (keeper, threads), wanted, (started, before), reports, emit)
        .inspect_err(|_| lookout.stop())?;
    Ok((open, tries))
}

/// Searches the tree of `prepared` to depth 1, 2, … (a pass each, from the root, on
/// `threads`, pruning against the best cost in `keeper`, which also receives the best cost
/// each pass finds; knight domination 17x17 on two threads: about 2 s where one thread took
/// 3 s), and keeps the open nodes at the first depth that has at least `wanted` of them, or
/// whose count grew less than a fifth over the depth before (a narrow tree, which deeper passes
/// would mostly search whole), or where the tree closes. Between passes it passes on what the
/// local search's tries `reports`. Its progress counts on from `before`, the work before it,
/// and names the depth each pass splits at.
fn passes(
    puzzle: &PlacementPuzzle,
    prepared: &Prepared,
    (keeper, threads): (&Pool, usize),
    wanted: usize,
    (started, before): (Instant, &SearchStats),
    reports: &mut TriesReports,
    emit: &mut dyn FnMut(Event),
) -> Result<OpenNodes, Error> {
    let problem = &prepared.problem;
    let mut so_far = before.clone();
    let mut cubes_before = 0;
    for depth in 1..=MAX_DEPTH {
        let pool = Pool::new(threads, Task::root(prepared.root_bound), problem.step, problem.maximise, false);
        reports.pass_on(keeper, emit);
        if let Some(cost) = keeper.best() {
            pool.improve(cost, || Ok(()))?;
        }
        let at = SplitAt { depth, cubes: Mutex::new(Vec::new()) };
        if let Some(log) = &prepared.log {
            // Each pass searches from the root again: only the last one's tree is kept.
            log.take();
        }
        let mut merged = Merged::new(threads, started, prepared.symmetries.len(), prepared.cuts);
        merged.before = so_far.clone();
        merged.incumbent = keeper.best().map(|cost| super::pool::value_of(cost, problem.maximise));
        // The pool counts a kept node as searched: its bounds prove nothing here, and the
        // pass's progress reports the bound proved before it, with the counts of the work so
        // far and the share the pass closed.
        let split_depth = Some(depth);
        run_tree(puzzle, prepared, &pool, (Some(&at), None), &mut merged, &mut |event| match event {
            Event::Bound(_) | Event::Infeasible(_) => {}
            Event::Search(stats) => emit(Event::Search(SearchStats { bound: before.bound, split_depth, ..stats })),
            event => {
                reports.observe(&event);
                emit(event)
            }
        })?;
        so_far = SearchStats { bound: before.bound, done: before.done, ..merged.total() };
        if let Some(cost) = pool.best() {
            keeper.improve(cost, || Ok(()))?;
        }
        reports.pass_on(keeper, emit);
        let mut tasks = at.cubes.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
        // In the order of their decisions, whichever thread reached them first.
        tasks.sort_by(|a, b| a.path.cmp(&b.path));
        let stalled = depth > 2 && tasks.len() * 5 < cubes_before * 6;
        if tasks.len() >= wanted || tasks.is_empty() || stalled || depth == MAX_DEPTH {
            return Ok(OpenNodes { tasks, depth, best: keeper.best(), stats: so_far });
        }
        cubes_before = tasks.len();
    }
    unreachable!("the last depth returns")
}

/// What the local search's tries ([`spawn_tries`]) stop at: the root's bound.
pub(super) fn tries_lookout(prepared: &Prepared) -> Lookout {
    if prepared.root_bound.is_finite() {
        Lookout::aiming_at(prepared.root_bound, prepared.problem.step)
    } else {
        Lookout::new()
    }
}

/// Tries the local search again for a tree known to be large, where a better placement
/// prunes many nodes: on a thread of its own in `scope`, beside the search, for [`LONGER`]
/// times the first search's time, from a seed of its own, until it reaches its aim or
/// `lookout` stops it; each placement it improves to goes into `keeper` and is reported on
/// `events`. Knight domination 19x19 (optimum 57): the first search, a quarter of its time
/// without improvement after 58, may stop there; given more time, the search reached 57 after
/// 36 to 290 ms from each of four seeds. A search on one thread (`threads`) keeps to it: the
/// tries end before this returns. `None` where no thread runs on: the tries ended, or there
/// is nothing to try for; an error is a placement the rules checker rejected.
fn spawn_tries<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    puzzle: &'env PlacementPuzzle,
    (prepared, threads): (&'env Prepared, usize),
    (keeper, lookout): (&'env Pool, &'env Lookout),
    events: Sender<Message>,
) -> Result<Option<LocalSearch<'scope>>, Error> {
    let problem = &prepared.problem;
    if !prepared.ingredients.local_search || !prepared.root_bound.is_finite() {
        return Ok(None);
    }
    let target = round_up_bound(prepared.root_bound, problem.step);
    if keeper.best().is_some_and(|cost| cost <= target) {
        return Ok(None);
    }
    let time = Duration::from_millis(super::prepare::local_search_ms(problem.n())) * LONGER;
    let seed = local_search::FIRST_SEED.wrapping_add(0xbf58_476d_1ce4_e5b9);
    let searched = (problem.clone(), prepared.model.clone());
    let tries = spawn_local_search(scope, puzzle, searched, (time, seed), (lookout, keeper), events);
    if threads > 1 {
        return Ok(Some(tries));
    }
    wait_for(tries)?;
    Ok(None)
}

/// The placements the tries ([`spawn_tries`]) report while the passes run, each on its own
/// thread: passed on between passes, each only if it is still the best and not reported yet,
/// so that the placements reported keep improving.
pub(super) struct TriesReports<'a> {
    receiver: &'a Receiver<Message>,
    /// The value of the last placement reported.
    last: Option<usize>,
}

impl<'a> TriesReports<'a> {
    /// The reports that arrive on `receiver`.
    pub fn new(receiver: &'a Receiver<Message>) -> TriesReports<'a> {
        TriesReports { receiver, last: None }
    }

    /// `event` was reported by other means.
    pub fn observe(&mut self, event: &Event) {
        if let Event::Solution { value, .. } = event {
            self.last = Some(*value);
        }
    }

    /// Passes on the reports that arrived, those of a placement as good as the best in
    /// `keeper` (and not reported yet).
    pub fn pass_on(&mut self, keeper: &Pool, emit: &mut dyn FnMut(Event)) {
        let best = keeper.best().map(|cost| super::pool::value_of(cost, keeper.maximise()));
        while let Ok(message) = self.receiver.try_recv() {
            let Message::Event(event) = message else { continue };
            if let Event::Solution { value, .. } = event {
                if Some(value) != best || self.last == Some(value) {
                    continue;
                }
            }
            self.observe(&event);
            emit(event);
        }
    }
}

/// Reports what a tree searched whole proved: the best placement optimal, or none at all.
pub(super) fn report_closed(best: Option<i64>, maximise: bool, emit: &mut dyn FnMut(Event)) {
    match best {
        Some(cost) => emit(Event::Bound(super::pool::value_of(cost, maximise))),
        None => emit(Event::Infeasible("no placement satisfies the rules".to_string())),
    }
}

/// What [`solve_cube`] did.
#[derive(Clone, Debug)]
pub struct PlacementCubeSearch {
    /// The search's work.
    pub stats: SearchStats,
    /// The nodes a suspended search left open, from which it can go on later (a subtree
    /// each); empty once the cube is searched to the end.
    pub open: Vec<Cube>,
    /// The best cost known at the end: the one given, or a cheaper placement's found.
    pub incumbent_cost: Option<i64>,
    /// What its branching measured, the measurements it started from included: for a
    /// suspended search to go on from.
    pub pseudocosts: PseudocostTable,
}

/// Searches the subtree of `cube` on `threads` threads for placements cheaper than
/// `incumbent_cost` (the best cost known when the tree was split; `None`: none), with the
/// split's `cuts` (`None`: separated again). The placements it finds are reported as they
/// improve; the search's bounds, which hold only inside the cube, are not.
///
/// `cube` may be several subtrees: the open nodes a suspended search of one cube left. Once
/// `suspend` is set, the search stops at its next nodes and returns those it left open; a
/// certified search cannot go on later, so it is refused a suspension. Branching starts from
/// `pseudocosts` (the split's, or a suspended search's) when given.
pub fn solve_cube(
    puzzle: &PlacementPuzzle,
    ingredients: Ingredients,
    threads: usize,
    (cube, cuts): (&[Cube], Option<&[Cut]>),
    (incumbent_cost, pseudocosts): (Option<i64>, Option<&PseudocostTable>),
    suspend: Option<Arc<AtomicBool>>,
    emit: &mut dyn FnMut(Event),
) -> Result<PlacementCubeSearch, Error> {
    if ingredients.certify && (suspend.is_some() || cube.len() != 1) {
        return Err(Error::Unsupported("a certified cube is searched whole, in one run".into()));
    }
    let suspensions = |pool: Pool| match &suspend {
        Some(flag) => pool.with_suspension(Arc::clone(flag)),
        None => pool,
    };
    search_cube(puzzle, ingredients, threads, (cube, cuts), (incumbent_cost, pseudocosts), &suspensions, emit)
}

/// How [`solve_cube`]'s refusal of the pseudocosts it was given begins (an
/// [`Error::Unsupported`]), so that a caller can name the file they came from.
pub const PSEUDOCOSTS_REFUSED: &str = "pseudocosts refused: ";

/// [`solve_cube`] with its pool as `configure` leaves it (how it is suspended).
pub(super) fn search_cube(
    puzzle: &PlacementPuzzle,
    ingredients: Ingredients,
    threads: usize,
    (cube, cuts): (&[Cube], Option<&[Cut]>),
    (incumbent_cost, pseudocosts): (Option<i64>, Option<&PseudocostTable>),
    configure: &dyn Fn(Pool) -> Pool,
    emit: &mut dyn FnMut(Event),
) -> Result<PlacementCubeSearch, Error> {
    let started = Instant::now();
    let threads = threads.max(1);
    let prepared = prepare(puzzle, ingredients, threads, false, cuts, emit)?;
    if let Some(table) = pseudocosts {
        prepared.pseudocosts.seed(table).map_err(|why| Error::Unsupported(format!("{PSEUDOCOSTS_REFUSED}{why}")))?;
    }
    let problem = &prepared.problem;
    // The cube's search reports how far it has come through its own subtrees.
    let share_of = |c: &Cube| c.share.filter(|s| *s > 0.0).unwrap_or(1.0);
    let total: f64 = cube.iter().map(share_of).sum();
    let tasks = cube
        .iter()
        .map(|c| {
            let share = share_of(c) / total;
            c.task(problem.n(), prepared.symmetries.len()).map(|task| Task { share, ..task })
        })
        .collect::<Result<Vec<Task>, Error>>()?;
    let pool = configure(Pool::with_tasks(threads, tasks, problem.step, problem.maximise, false));
    if let Some(cost) = incumbent_cost {
        pool.improve(cost, || Ok(()))?;
    }
    let mut merged = Merged::new(threads, started, prepared.symmetries.len(), prepared.cuts);
    run_tree(puzzle, &prepared, &pool, (None, Some(super::Pace::DEFAULT)), &mut merged, &mut |event| {
        if !matches!(event, Event::Bound(_) | Event::Infeasible(_)) {
            emit(event);
        }
    })?;
    if let (Some(tree), false) = (prepared.tree_proof(), pool.stopped()) {
        // The cube's part of the tree: its bounds and orbital fixings, the split's cuts.
        emit(Event::TreeProof(std::sync::Arc::new(tree)));
    }
    let open = pool.remaining().into_iter().map(Cube::of).collect();
    Ok(PlacementCubeSearch {
        stats: merged.total(),
        open,
        incumbent_cost: pool.best(),
        pseudocosts: prepared.pseudocosts.table(),
    })
}

//! What every search of the tree starts from ([`Prepared`]): the program, its cuts and the
//! relaxation at the root, the board symmetries, and a first placement from the local search.
//!
//! The local search runs while the cuts are separated on a second core. A search from the
//! root on two threads or more does not wait for it once the cuts are in ([`prepare_beside`]):
//! the tree starts on the other threads, the local search goes on, its placements reaching the
//! tree through the pool as they are found, and its thread joins the tree when it is done (or
//! stops it when the tree is). Knight domination 13x13 found its optimum 1.3 ms in, the cuts
//! took 49 ms and the tree 16 ms, but the tree waited another 38 ms for the local search's
//! patience; knight domination 16x16 needs that patience, for it reaches 41 and 40 about 90
//! and 110 ms in, when the cuts may already be in.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use knights_sat_encodings::check::check_placement;
use knights_sat_encodings::linear::{placement_model, PlacementModel};
use knights_sat_encodings::puzzle::placement::PlacementPuzzle;

use super::cuts;
use super::ingredients::Ingredients;
use super::orbits::Symmetries;
use super::pool::{round_up_bound, Message, Pool};
use super::problem::{Problem, MAX_BASIS_ROWS};
use super::proof_log::ProofLog;
use super::tree_proof::TreeProof;
use super::{local_search, ring, strong};
use crate::driver::{Event, Solution};
use crate::solver::simplex::{Lp, LpStatus};
use crate::Error;

/// The longest the ring cut's column generation may take at the root.
const RING_TIME: Duration = Duration::from_secs(30);

/// On one core, the most rows whose relaxation is solved before the local search starts (so
/// that it can stop at the bound): knight domination 32x32 has 1,024.
const FIRST_BOUND_ROWS: usize = 1_024;

/// The local search's time before the tree: longer for larger boards, where it pays most.
pub(super) fn local_search_ms(n: usize) -> u64 {
    (n as u64 * 2).clamp(20, 1000)
}

/// A cut the split added to the relaxation at the root, `Σ a·x >= rhs` over the model's
/// columns: the cubes' searches add the same cuts instead of separating them again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cut {
    /// The terms `(a, x)`.
    pub terms: Vec<(i64, usize)>,
    /// The right-hand side.
    pub rhs: i64,
}

/// What every search of the tree starts from: the linear model, the program strengthened by
/// cuts, its relaxation solved at the root, the board symmetries, and the local search's
/// placement (its cost and value; already reported).
pub(super) struct Prepared {
    pub model: PlacementModel,
    pub problem: Problem,
    pub lp: Lp,
    pub root_bound: f64,
    pub symmetries: Symmetries,
    pub ingredients: Ingredients,
    pub cuts: usize,
    /// How the cuts were derived (none when they were given).
    pub separation: cuts::Separation,
    /// The rows of the model before the cuts.
    pub model_rows: usize,
    /// The local search's placement, when it ended before the tree started.
    pub found: Option<(i64, usize)>,
    /// Where a certified search records its bounds.
    pub log: Option<ProofLog>,
    /// What branching measured so far, kept through every tree searched with this
    /// preparation: a split's passes, a search and its start again from its open nodes.
    pub pseudocosts: strong::Pseudocosts,
}

impl Prepared {
    /// What a certified search logged so far, with the program's cuts and symmetries (taken:
    /// the log starts again empty); `None` if the search is not certified.
    pub fn tree_proof(&self) -> Option<TreeProof> {
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

/// The program of a puzzle before its cuts: the model, the 0-1 program, the ingredients that
/// apply to it, and the board symmetries.
pub(super) struct Setup {
    pub model: PlacementModel,
    pub base: Problem,
    pub ingredients: Ingredients,
    pub symmetries: Symmetries,
}

impl Setup {
    /// Builds the program of `puzzle` (refusing one whose basis would not fit), with the
    /// `ingredients` that apply to it (the local search only if `look`); `given` cuts must
    /// name its variables.
    pub fn new(
        puzzle: &PlacementPuzzle,
        ingredients: Ingredients,
        look: bool,
        given: Option<&[Cut]>,
    ) -> Result<Setup, Error> {
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
        Ok(Setup { model, base, ingredients, symmetries })
    }

    /// Whether the tree may start before the local search ends ([`prepare_beside`]): on two
    /// threads or more, with the cuts separated beside the local search, and not for a
    /// certificate, which states the tree as searched with the placement known at its start.
    pub fn starts_beside(&self, threads: usize) -> bool {
        let ingredients = self.ingredients;
        threads > 1 && ingredients.cuts && ingredients.local_search && !ingredients.certify
    }

    /// The local search's time.
    fn local_time(&self) -> Duration {
        Duration::from_millis(local_search_ms(self.base.n()))
    }

    /// Adds the cuts to `problem` (`given` ones, or separated now) and solves the relaxation
    /// at the root.
    fn strengthen(
        &self,
        puzzle: &PlacementPuzzle,
        given: Option<&[Cut]>,
        mut problem: Problem,
    ) -> (Problem, cuts::Separation, (Lp, Option<f64>)) {
        let separation = match given {
            Some(cuts) => {
                for cut in cuts {
                    problem.add_row(cut.terms.clone(), cut.rhs);
                }
                cuts::Separation::default()
            }
            None if self.ingredients.cuts => {
                let ring_cut = (self.ingredients.ring_cut && !self.ingredients.certify)
                    .then(|| {
                        let (ring, angle) = ring::ring_of(puzzle, &self.model);
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
    }

    /// The preparation, from the program with its cuts and the local search's placement.
    fn finish(
        self,
        strengthened: (Problem, cuts::Separation, (Lp, Option<f64>)),
        found: Option<(i64, usize)>,
    ) -> Prepared {
        let (problem, separation, (lp, root_bound)) = strengthened;
        let model_rows = self.base.rows.len();
        let cuts = problem.rows.len() - model_rows;
        let log = self.ingredients.certify.then(ProofLog::default);
        let pseudocosts = strong::Pseudocosts::new(problem.n(), &self.symmetries);
        Prepared {
            model: self.model,
            problem,
            lp,
            root_bound: root_bound.unwrap_or(f64::NEG_INFINITY),
            symmetries: self.symmetries,
            ingredients: self.ingredients,
            cuts,
            separation,
            model_rows,
            found,
            log,
            pseudocosts,
        }
    }
}

/// What the local search aims at: the proven bound so far, as a cost it may stop at.
fn aim_at(target: &AtomicI64, bound: Option<f64>, step: i64) {
    if let Some(bound) = bound {
        target.fetch_max(round_up_bound(bound, step), Ordering::Relaxed);
    }
}

/// Builds the program of `puzzle`, separates its cuts (or adds `given` ones, separated
/// before) and, if `look` (and the ingredients allow it), runs the local search for a first
/// placement meanwhile.
pub(super) fn prepare(
    puzzle: &PlacementPuzzle,
    ingredients: Ingredients,
    threads: usize,
    look: bool,
    given: Option<&[Cut]>,
    emit: &mut dyn FnMut(Event),
) -> Result<Prepared, Error> {
    prepare_from(puzzle, Setup::new(puzzle, ingredients, look, given)?, threads, given, emit)
}

/// [`prepare`] from the program: the local search and the cuts side by side on two threads or
/// more, one after the other on one.
pub(super) fn prepare_from(
    puzzle: &PlacementPuzzle,
    setup: Setup,
    threads: usize,
    given: Option<&[Cut]>,
    emit: &mut dyn FnMut(Event),
) -> Result<Prepared, Error> {
    let base = &setup.base;
    // The local search aims at the bound of the plain relaxation, which is solved, and the
    // cuts separated, meanwhile on a second core when the search may use more than one. On
    // one core the bound comes first, unless the program is so large that its relaxation would
    // hold back the first placement (knight domination 40x40: more than 5 s).
    let target = AtomicI64::new(local_search::NO_TARGET);
    let step = base.step;
    let time = setup.local_time();
    // The local search goes on while the cuts are separated: on a loaded machine its own
    // time alone (on 16x16 512 ms, given up 128 ms after its last improvement) measured too
    // short to find the optimum.
    let cutting = AtomicBool::new(false);
    // Every placement the local search improves to is reported at once, so that a search
    // stopped early has an answer from the first milliseconds on.
    let mut reported: Option<usize> = None;
    let model = &setup.model;
    let mut checker = Checker { puzzle, problem: base, model, rejected: None };
    let mut report = |values: &[bool]| {
        if let Some((value, solution)) = checker.check(values) {
            reported = Some(value);
            emit(Event::Solution { value, solution });
        }
    };
    let look = setup.ingredients.local_search;
    let mut local = |problem: &Problem| {
        look.then(|| local_search::improve(problem, (time, local_search::FIRST_SEED), &target, &cutting, &mut report))
            .flatten()
    };
    let ((problem, separation, (lp, root_bound)), found) = if threads > 1 && setup.ingredients.cuts && look {
        std::thread::scope(|scope| {
            cutting.store(true, Ordering::Relaxed);
            let cuts = scope.spawn(|| {
                // Cleared however the separation ends, a panic included.
                let _done = ClearOnDrop(&cutting);
                aim_at(&target, root(base).1, step);
                let (problem, separation, (lp, bound)) = setup.strengthen(puzzle, given, base.clone());
                // The bound with the cuts becomes the local search's aim before it is told
                // that the cuts are done: a placement at that bound needs no more search.
                // Knight domination 10x10, whose bound with the cuts is its optimum (16):
                // 0.020 s against 0.053 s, when the search went on for its patience after.
                aim_at(&target, bound, step);
                (problem, separation, (lp, bound))
            });
            let found = local(base);
            (cuts.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), found)
        })
    } else {
        if base.rows.len() <= FIRST_BOUND_ROWS {
            aim_at(&target, root(base).1, step);
        }
        let found = local(base);
        (setup.strengthen(puzzle, given, base.clone()), found)
    };
    if let Some(error) = checker.rejected {
        return Err(error);
    }
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
    let strengthened = (problem, separation, (lp, root_bound));
    Ok(setup.finish(strengthened, found))
}

/// The local search of [`prepare_beside`], on a thread of its own: [`Lookout::stop`] ends it.
pub(super) struct Lookout {
    target: AtomicI64,
    cutting: AtomicBool,
}

impl Lookout {
    /// A local search not yet started.
    pub fn new() -> Lookout {
        Lookout { target: AtomicI64::new(local_search::NO_TARGET), cutting: AtomicBool::new(false) }
    }

    /// A local search not yet started, which stops once it reaches `bound` (a proven
    /// bound, on costs in steps of `step`).
    pub fn aiming_at(bound: f64, step: i64) -> Lookout {
        let lookout = Lookout::new();
        aim_at(&lookout.target, Some(bound), step);
        lookout
    }

    /// Ends the local search (the tree is done, or stopped): it returns at its next check.
    pub fn stop(&self) {
        self.target.store(local_search::STOP, Ordering::Relaxed);
    }
}

/// The local search's thread: its placements went to the pool as it found them; an error is
/// a placement the rules checker rejected.
pub(super) type LocalSearch<'scope> = ScopedJoinHandle<'scope, Result<(), Error>>;

/// Waits for the local search's thread to end, and passes on its panic, if any.
pub(super) fn wait_for(local: LocalSearch) -> Result<(), Error> {
    local.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// [`prepare`] for a search from the root that starts its tree before the local search ends
/// ([`Setup::starts_beside`]): the local search runs in `scope`, on a thread of its own, and
/// puts each placement it improves to into `pool` and reports it on `events`; the cuts are
/// separated on another, while this thread passes the events on to `emit` until they are in.
/// Returns the preparation (without a placement: the pool has it) and the local search's
/// thread, still running.
pub(super) fn prepare_beside<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    puzzle: &'env PlacementPuzzle,
    setup: Setup,
    (lookout, pool): (&'env Lookout, &'env Pool),
    (events, receiver): (&Sender<Message>, &Receiver<Message>),
    emit: &mut dyn FnMut(Event),
) -> Result<(Prepared, LocalSearch<'scope>), Error> {
    let step = setup.base.step;
    lookout.cutting.store(true, Ordering::Relaxed);
    let local = spawn_local_search(
        scope,
        puzzle,
        (setup.base.clone(), setup.model.clone()),
        (setup.local_time(), local_search::FIRST_SEED),
        (lookout, pool),
        events.clone(),
    );
    let strengthened = std::thread::scope(|inner| {
        let cuts = inner.spawn(|| {
            // However the separation ends, a panic included, the local search and this thread
            // are told.
            let _done = (ClearOnDrop(&lookout.cutting), Ready(events.clone()));
            aim_at(&lookout.target, root(&setup.base).1, step);
            let strengthened = setup.strengthen(puzzle, None, setup.base.clone());
            aim_at(&lookout.target, strengthened.2 .1, step);
            strengthened
        });
        for message in receiver {
            match message {
                Message::Event(event) => emit(event),
                Message::Ready => break,
                Message::Stats(..) => {}
            }
        }
        cuts.join()
    });
    match strengthened {
        Ok(strengthened) => Ok((setup.finish(strengthened, None), local)),
        Err(panic) => {
            lookout.stop();
            std::panic::resume_unwind(panic)
        }
    }
}

/// Runs the local search for `time` (from `seed`) in `scope`, on a thread of its own, until
/// `lookout` stops it or it reaches its target: each placement it improves to goes into
/// `pool`, and is reported on `events` if the pool had none as good.
pub(super) fn spawn_local_search<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    puzzle: &'env PlacementPuzzle,
    (problem, model): (Problem, PlacementModel),
    (time, seed): (Duration, u64),
    (lookout, pool): (&'env Lookout, &'env Pool),
    events: Sender<Message>,
) -> LocalSearch<'scope> {
    scope.spawn(move || -> Result<(), Error> {
        let mut checker = Checker { puzzle, problem: &problem, model: &model, rejected: None };
        let mut report = |values: &[bool]| {
            if let Some((value, solution)) = checker.check(values) {
                let _ = pool.improve(problem.cost_of(values), || {
                    let _ = events.send(Message::Event(Event::Solution { value, solution }));
                    Ok(())
                });
            }
        };
        local_search::improve(&problem, (time, seed), &lookout.target, &lookout.cutting, &mut report);
        checker.rejected.map_or(Ok(()), Err)
    })
}

/// Whether the tree branches on covering rows: when they are long, as a queen's or a rook's
/// are (more than [`cuts::LONGEST_ROW`] candidates on average). Short rows, as a knight's or a
/// king's, make the relaxation strong, and a branching on the most fractional variable then
/// keeps the tree smaller. Measured (two threads, cuts at the root): knight domination 15x15,
/// 6,745 nodes (6.3 s) on variables against 15,207 (11.1 s) on rows, and 16x16 3,195 (5.1 s)
/// against 10,341 (12.6 s); queen domination 14x14, 24,749 nodes (12.7 s) on variables against
/// 38,546 (10.4 s) on rows.
pub(super) fn branches_on_rows(problem: &Problem) -> bool {
    let (rows, terms) = problem
        .rows
        .iter()
        .filter(|row| row.covering)
        .fold((0, 0), |(rows, terms), row| (rows + 1, terms + row.terms.len()));
    rows > 0 && terms > cuts::LONGEST_ROW * rows
}

/// The relaxation of `problem` solved, and its bound (none unless the simplex ends optimal).
pub(super) fn root(problem: &Problem) -> (Lp, Option<f64>) {
    let mut lp = problem.relaxation();
    let bound = match lp.solve(f64::INFINITY) {
        LpStatus::Optimal(_) => Some(problem.lagrangian(&lp.duals()).0),
        _ => None,
    };
    (lp, bound)
}

/// The local search's placements on their way out: each must satisfy the program's rows and
/// pass the rules checker; the first the checker rejects (a bug) is kept, and ends the reports.
struct Checker<'a> {
    puzzle: &'a PlacementPuzzle,
    problem: &'a Problem,
    model: &'a PlacementModel,
    rejected: Option<Error>,
}

impl Checker<'_> {
    /// The value and the placement of `values`, if they are to be reported.
    fn check(&mut self, values: &[bool]) -> Option<(usize, Solution)> {
        if self.rejected.is_some() || !self.problem.satisfies(values) {
            return None;
        }
        let placement = self.model.placement(values);
        match check_placement(self.puzzle, &placement) {
            Ok(value) => Some((value, Solution::Placement(placement))),
            Err(why) => {
                self.rejected = Some(why.into());
                None
            }
        }
    }
}

/// Clears its flag when dropped.
struct ClearOnDrop<'a>(&'a AtomicBool);

impl Drop for ClearOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// Says [`Message::Ready`] when dropped.
struct Ready(Sender<Message>);

impl Drop for Ready {
    fn drop(&mut self) {
        let _ = self.0.send(Message::Ready);
    }
}

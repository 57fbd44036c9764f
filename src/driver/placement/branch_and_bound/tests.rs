//! Tests of the branch-and-bound search against the published optima: with each ingredient
//! switched off, with subtrees handed over at every node, and started again from its open
//! nodes as cubes; and the count of open subtrees after a restart.

use knights_sat_encodings::geometry::{Board, PawnDirection};
use knights_sat_encodings::puzzle::placement::{KindRule, PlacementGoal, PlacementPuzzle};

use super::cubes::search_cube;
use super::{search, Cube, Ingredients, Merged, Pace, Pool, SubtreeCuts, Task};
use crate::driver::{Event, SearchStats};

/// Domination of the `n`x`n` board by the kinds of `letters`.
pub(super) fn domination(n: usize, letters: &str) -> PlacementPuzzle {
    PlacementPuzzle::new(
        None,
        Board::new(n, n).unwrap(),
        PlacementGoal::Domination,
        KindRule::parse_letters(letters).unwrap(),
        PawnDirection::Up,
        Vec::new(),
        Vec::new(),
    )
    .unwrap()
}

/// The cube of the whole tree: nothing fixed, no bound, no share.
fn whole_tree() -> Cube {
    Cube {
        ones: vec![],
        zeros: vec![],
        fixed_ones: vec![],
        fixed_zeros: vec![],
        bound: None,
        path: vec![],
        share: None,
        rest: None,
    }
}

/// A search stopped at its budget with subtrees open, whose passes from the root then
/// close the tree, reports none open: the count is the restart's, not the stopped one's.
#[test]
fn a_restart_counts_its_own_open_subtrees() {
    let stopped = Pool::with_tasks(1, vec![Task::default(), Task::default()], 1, false, false);
    let mut merged = Merged::new(1, std::time::Instant::now(), 0, 0);
    assert_eq!(merged.total_with(&stopped).open_subtrees, 2);
    merged.restart(&SearchStats { nodes: 5, ..SearchStats::default() }, &[]);
    assert_eq!(merged.total().open_subtrees, 0);
}

/// The value, the last proven bound and the last progress report of an eager search of
/// domination of a `n`x`n` board by `letter`.
fn eager(n: usize, letter: &str, threads: usize) -> (Option<usize>, Option<usize>, SearchStats) {
    // Without cuts and strong branching, so that every board here has a tree to hand over.
    let ingredients = Ingredients { cuts: false, strong_branching: false, ..Ingredients::default() };
    run(n, letter, ingredients, threads, Pace { eager: true, ..Pace::DEFAULT })
}

/// The value, the last proven bound and the last progress report of a search of
/// domination of a `n`x`n` board by `letter`.
fn run(
    n: usize,
    letter: &str,
    ingredients: Ingredients,
    threads: usize,
    pace: Pace,
) -> (Option<usize>, Option<usize>, SearchStats) {
    let puzzle = domination(n, letter);
    let (mut best, mut bound, mut last) = (None, None, SearchStats::default());
    search(&puzzle, ingredients, threads, pace, &mut |event| match event {
        Event::Solution { value, .. } => {
            // Each placement reported is better than the one before, whichever thread found it.
            assert!(best.is_none_or(|before| value < before), "{letter} {n}x{n}: {value} pieces after {best:?}");
            best = Some(value);
        }
        Event::Bound(value) => bound = Some(value),
        Event::Search(stats) => {
            // The progress never reports a bound it later takes back.
            let highest = last.bound.max(stats.bound.or(last.bound));
            assert!(
                stats.bound.is_none_or(|now| Some(now) >= highest),
                "{letter} {n}x{n}: bound {:?} after {highest:?}",
                stats.bound
            );
            // The counts of the work only grow, through the passes that split a tree and the
            // search started again from its open nodes too.
            let counts = |s: &SearchStats| [s.nodes, s.lp_solves, s.pivots, s.fixed_by_reduced_cost];
            let (before, now) = (counts(&last), counts(&stats));
            assert!(before.iter().zip(&now).all(|(b, n)| n >= b), "{letter} {n}x{n}: counts {now:?} after {before:?}");
            last = SearchStats { bound: highest, ..stats };
        }
        _ => {}
    })
    .unwrap();
    (best, bound, last)
}

/// The last report of a finished search: no subtree left open, and the shares of the
/// closed nodes summing to the whole tree (a node counted twice, or missed, shows here).
fn assert_finished(last: &SearchStats, context: &str) {
    assert_eq!(last.open_subtrees, 0, "{context}: a finished search left subtrees open");
    assert!((last.done - 1.0).abs() < 1e-9, "{context}: the closed nodes' shares sum to {}, not 1", last.done);
}

/// Subtrees handed over at every node still prove the published optima (OEIS A006075,
/// A075458), on one thread (the queue in bound order) and on three.
#[test]
fn subtrees_handed_over_at_every_node_keep_the_optimum() {
    for threads in [1, 3] {
        for (n, letter, value) in
            [(10, "N", 16), (11, "N", 21), (12, "N", 24), (10, "Q", 5), (11, "Q", 5), (12, "Q", 6)]
        {
            let (best, bound, last) = eager(n, letter, threads);
            let context = format!("{letter} {n}x{n} on {threads} threads");
            assert_eq!((best, bound), (Some(value), Some(value)), "{context}");
            assert!(last.subtrees_shared > 0, "{context}: no subtree was handed over");
            assert_finished(&last, &context);
        }
    }
}

/// Each ingredient switched off still proves the published optima: without the local
/// search the tree alone finds the placement, so a child it skips shows as a wrong value.
#[test]
fn every_ingredient_switched_off_keeps_the_optimum() {
    let all = Ingredients::default();
    let without = [
        ("symmetry", Ingredients { symmetry: false, ..all }),
        ("reduced costs", Ingredients { reduced_costs: false, ..all }),
        ("local search", Ingredients { local_search: false, ..all }),
        ("row branching", Ingredients { row_branching: false, ..all }),
        ("cuts", Ingredients { cuts: false, ..all }),
        ("strong branching", Ingredients { strong_branching: false, ..all }),
        ("strong branching at the top", Ingredients { strong_at_top: false, ..all }),
        ("cubes", Ingredients { cubes: false, ..all }),
        ("cuts at the tops of cubes", Ingredients { subtree_cuts: false, ..all }),
        ("lexicographic reduction", Ingredients { lex_reduction: false, ..all }),
        ("local search and symmetry", Ingredients { local_search: false, symmetry: false, ..all }),
        // Not switched off but on: the ring cut is off by default.
        ("nothing, and with the ring cut on", Ingredients { ring_cut: true, ..all }),
    ];
    for (name, ingredients) in without {
        for threads in [1, 2] {
            for (n, letter, value) in [(8, "N", 12), (10, "N", 16), (11, "N", 21), (10, "Q", 5), (11, "Q", 5)] {
                let (best, bound, last) = run(n, letter, ingredients, threads, Pace::DEFAULT);
                let context = format!("{letter} {n}x{n} without {name} on {threads} threads");
                assert_eq!((best, bound), (Some(value), Some(value)), "{context}");
                assert_finished(&last, &context);
            }
        }
    }
}

/// A search started again from its open nodes after a few nodes proves the published
/// optima, found again or by the first search: with and without the local search (without
/// it, the first search's placement is often not the optimum), on one thread and on two;
/// depth first, and a level of the bound at a time, where some nodes wait for their level.
#[test]
fn a_search_started_again_from_its_open_nodes_keeps_the_optimum() {
    let all = Ingredients { strong_branching: false, ..Ingredients::default() };
    let (_, deferred) = restarts_keep_the_optimum(all, QUICK_RESTART);
    assert_eq!(deferred, 0, "depth first alone, a node waited for its level");
    // Without the root's cuts, so that the bounds have more than one level to climb.
    let (_, deferred) = restarts_keep_the_optimum(Ingredients { levels: true, cuts: false, ..all }, QUICK_RESTART);
    assert!(deferred > 0, "no node waited for its level: the levels were not tested");
}

/// The same with cubes that measure every candidate at their top from their first node
/// (their strong branching fixes variables and prunes nodes).
#[test]
fn cubes_that_measure_every_candidate_at_their_top_keep_the_optimum() {
    restarts_keep_the_optimum(Ingredients::default(), Pace { top_after: 0, ..QUICK_RESTART });
}

/// The same with every cube separating cuts of its own at its top, whatever its bound
/// (on these boards no cube lies far enough below the cutoff for the default), and
/// handing the rest of its shallowest branching on after every 3 nodes.
#[test]
fn cubes_with_cuts_of_their_own_keep_the_optimum() {
    let subtree_cuts = SubtreeCuts { gap: 0.0, hand_over_every: 3 };
    let (cuts, _) = restarts_keep_the_optimum(Ingredients::default(), Pace { subtree_cuts, ..QUICK_RESTART });
    assert!(cuts > 0, "no cube separated a cut: nothing was tested");
}

/// Lexicographic reduction empties squares that orbital fixing leaves alone, and the tree
/// alone (no local search) still finds the published optima: a placement it cut off wrongly
/// shows as a wrong value. From the root and started again from open nodes (whose cubes
/// carry long paths of decisions), on one thread and on two.
#[test]
fn lexicographic_reduction_fixes_squares_and_keeps_the_optimum() {
    let ingredients = Ingredients { local_search: false, ..Ingredients::default() };
    let mut fixed = 0;
    for pace in [Pace::DEFAULT, QUICK_RESTART] {
        for threads in [1, 2] {
            for (n, letter, value) in [(10, "N", 16), (11, "N", 21), (12, "N", 24), (13, "N", 28), (8, "K", 9)] {
                let (best, bound, last) = run(n, letter, ingredients, threads, pace);
                let context = format!("{letter} {n}x{n} on {threads} threads, {pace:?}");
                assert_eq!((best, bound), (Some(value), Some(value)), "{context}");
                assert_finished(&last, &context);
                fixed += last.lex_fixings;
            }
        }
    }
    assert!(fixed > 0, "lexicographic reduction fixed nothing: nothing was tested");
}

/// Searches at `pace` with `all` and without the local search, on one thread and on two,
/// prove the published optima; returns the cuts their cubes separated and the nodes that
/// waited for their level.
fn restarts_keep_the_optimum(all: Ingredients, pace: Pace) -> (u64, u64) {
    let (mut subtree_cuts, mut deferred) = (0, 0);
    for ingredients in [all, Ingredients { local_search: false, ..all }] {
        for threads in [1, 2] {
            for (n, letter, value) in [(8, "N", 12), (10, "N", 16), (11, "N", 21), (12, "N", 24), (8, "K", 9)] {
                let (best, bound, last) = run(n, letter, ingredients, threads, pace);
                let context = format!("{letter} {n}x{n} on {threads} threads, {ingredients:?}");
                assert_eq!((best, bound), (Some(value), Some(value)), "{context}");
                assert_finished(&last, &context);
                subtree_cuts += last.subtree_cuts;
                deferred += last.deferred;
            }
        }
    }
    (subtree_cuts, deferred)
}

/// A split's passes on several threads keep exactly the nodes at their depth, whichever
/// thread reaches them: without symmetries every branching on a variable adds one decision
/// to the path (a piece placed, or the square emptied), so a node handed to another thread
/// and counted a level too shallow (or deep) shows as a cube with a path of another length.
#[test]
fn a_split_on_several_threads_keeps_the_nodes_at_its_depth() {
    let ingredients = Ingredients { symmetry: false, cuts: false, strong_branching: false, ..Ingredients::default() };
    for (n, wanted) in [(11, 40), (12, 100)] {
        let puzzle = domination(n, "N");
        for threads in [1, 3] {
            let context = format!("knights {n}x{n} on {threads} threads");
            let started = std::time::Instant::now();
            let prepared = super::prepare(&puzzle, ingredients, threads, true, None, &mut |_| {}).unwrap();
            let found = prepared.found.map(|found| found.0);
            let open = super::cubes::open_nodes(
                &puzzle,
                &prepared,
                (found, threads),
                wanted,
                (started, &SearchStats::default()),
                &mut |_| {},
            )
            .unwrap();
            assert!(!open.tasks.is_empty(), "{context}: the passes closed the tree");
            for task in &open.tasks {
                assert_eq!(task.path.len(), open.depth, "{context}: a cube off its depth, {:?}", task.path);
                assert_eq!(task.depth, open.depth, "{context}");
            }
            if threads > 1 {
                assert!(open.stats.subtrees_shared > 0, "{context}: no subtree was handed over");
            }
        }
    }
}

/// A search started again from its open nodes reports each pass that splits its tree, with
/// the depth it splits at, one depth after another, and then the search from the open nodes;
/// [`run`] checks on the same searches that the counts of the work only grow throughout.
#[test]
fn the_passes_that_split_a_tree_report_their_depth() {
    for threads in [1, 2] {
        let mut depths = Vec::new();
        let ingredients = Ingredients { strong_branching: false, ..Ingredients::default() };
        search(&domination(12, "N"), ingredients, threads, QUICK_RESTART, &mut |event| {
            if let Event::Search(stats) = event {
                depths.push(stats.split_depth);
            }
        })
        .unwrap();
        let passes: Vec<usize> = depths.iter().flatten().copied().collect();
        assert!(!passes.is_empty(), "{threads} threads: no pass reported: {depths:?}");
        assert!(passes.windows(2).all(|w| w[0] <= w[1]), "{threads} threads: depths {passes:?}");
        assert_eq!(depths.last(), Some(&None), "{threads} threads: the search from the open nodes reported nothing");
    }
}

/// A search that starts again from its open nodes after 10 nodes.
const QUICK_RESTART: Pace = Pace { restart_nodes: 10, ..Pace::DEFAULT };

/// A search suspended again and again, each time after a few nodes, and taken up from the
/// nodes it left open, still proves the published optima (OEIS A006075, A075458) with no
/// placement given at the start: every suspension leaves open exactly the share of the tree
/// it has not closed (a subtree lost or counted twice shows here), and the last one none.
/// Queens branch on covering rows, so their open nodes carry the rest of a branching.
#[test]
fn a_suspended_search_goes_on_from_its_open_nodes() {
    let root = whole_tree();
    let ingredients = Ingredients { local_search: false, ..Ingredients::default() };
    for threads in [1, 2] {
        for (n, letter, value, every) in [(12, "N", 24, 10), (13, "N", 28, 40), (11, "Q", 5, 20)] {
            let puzzle = domination(n, letter);
            let context = format!("{letter} {n}x{n} on {threads} threads");
            let (mut open, mut best, mut runs, mut rests) = (vec![root.clone()], None, 0, 0);
            // Each run goes on from what the one before measured, as a resumed cube does.
            let mut pseudocosts = None;
            while !open.is_empty() {
                runs += 1;
                assert!(runs < 1_000, "{context}: the search does not end");
                let mut found = None;
                let searched = search_cube(
                    &puzzle,
                    ingredients,
                    threads,
                    (&open, None),
                    (best, pseudocosts.as_ref()),
                    &|pool| pool.suspended_after(every),
                    &mut |event| {
                        if let Event::Solution { value, .. } = event {
                            found = Some(value);
                        }
                    },
                )
                .unwrap();
                let left: f64 = searched.open.iter().map(|cube| cube.share.unwrap()).sum();
                assert!(
                    (searched.stats.done + left - 1.0).abs() < 1e-9,
                    "{context}, run {runs}: closed {} and left open {left}",
                    searched.stats.done
                );
                rests += searched.open.iter().filter(|cube| cube.rest.is_some()).count();
                if let Some(value) = found {
                    assert_eq!(searched.incumbent_cost, Some(value as i64), "{context}");
                }
                best = searched.incumbent_cost;
                open = searched.open;
                pseudocosts = Some(searched.pseudocosts);
            }
            assert_eq!(best, Some(value as i64), "{context}");
            assert!(runs > 2, "{context}: {runs} runs suspended nothing");
            if letter == "Q" {
                assert!(rests > 0, "{context}: no covering row's branching was left part way");
            }
        }
    }
}

/// Pseudocosts handed to a cube's search that cannot be this program's are refused, with a
/// reason that begins with [`super::PSEUDOCOSTS_REFUSED`]: the wrong number of variables, a
/// sum that is not finite, a side with no count over every variable.
#[test]
fn pseudocosts_of_another_program_are_refused() {
    let puzzle = domination(6, "N");
    let root = whole_tree();
    let good = super::PseudocostTable { sides: vec![[(0.5, 1); 2]; 36], all: [(1.0, 1); 2] };
    let mut nan = good.clone();
    nan.sides[3][1].0 = f64::NAN;
    let wrong = [
        super::PseudocostTable { sides: vec![[(0.5, 1); 2]; 35], ..good.clone() },
        nan,
        super::PseudocostTable { all: [(1.0, 1), (0.0, 0)], ..good.clone() },
    ];
    let search = |table: &super::PseudocostTable, best: &mut Option<usize>| {
        let ingredients = Ingredients::default();
        search_cube(
            &puzzle,
            ingredients,
            1,
            (std::slice::from_ref(&root), None),
            (None, Some(table)),
            &|p| p,
            &mut |e| {
                if let Event::Solution { value, .. } = e {
                    *best = Some(value);
                }
            },
        )
    };
    for table in &wrong {
        match search(table, &mut None) {
            Err(crate::Error::Unsupported(why)) => assert!(why.starts_with(super::PSEUDOCOSTS_REFUSED), "{why}"),
            other => panic!("pseudocosts {table:?} were taken: {:?}", other.map(|s| s.stats.nodes)),
        }
    }
    // Knight domination of 6x6 needs 8 knights (OEIS A006075); the table comes back.
    let mut best = None;
    let searched = search(&good, &mut best).expect("pseudocosts of this program are taken");
    assert_eq!(best, Some(8));
    assert_eq!(searched.pseudocosts.sides.len(), 36);
}

/// The placements the local search's tries report while the passes run reach the caller
/// only while they are the best known and not reported yet: a report overtaken by a better
/// placement of a pass, or one a pass reported too, is dropped, so the reports keep improving.
#[test]
fn the_tries_reports_pass_on_only_placements_still_the_best() {
    use super::cubes::TriesReports;
    use super::pool::Message;
    use crate::driver::Solution;

    let placement = |value| Event::Solution { value, solution: Solution::Placement(Vec::new()) };
    let keeper = Pool::with_tasks(1, Vec::new(), 1, false, false);
    let (sender, receiver) = std::sync::mpsc::channel();
    let mut reports = TriesReports::new(&receiver);
    let mut passed = Vec::new();
    let mut pass_on = |reports: &mut TriesReports, keeper: &Pool| {
        reports.pass_on(keeper, &mut |event| {
            if let Event::Solution { value, .. } = event {
                passed.push(value);
            }
        })
    };
    // The tries improve to 50, then 48, before the pass ends: only 48 is still the best.
    for value in [50, 48] {
        keeper.improve(value as i64, || Ok(())).unwrap();
        sender.send(Message::Event(placement(value))).unwrap();
    }
    pass_on(&mut reports, &keeper);
    // The tries find 47 while a pass finds 46 and reports it itself: 47 is overtaken.
    keeper.improve(47, || Ok(())).unwrap();
    sender.send(Message::Event(placement(47))).unwrap();
    reports.observe(&placement(46));
    keeper.improve(46, || Ok(())).unwrap();
    pass_on(&mut reports, &keeper);
    // The tries find 45, and a pass finds 45 too and reports it: reported once.
    keeper.improve(45, || Ok(())).unwrap();
    sender.send(Message::Event(placement(45))).unwrap();
    reports.observe(&placement(45));
    pass_on(&mut reports, &keeper);
    // The tries find 44 alone.
    keeper.improve(44, || Ok(())).unwrap();
    sender.send(Message::Event(placement(44))).unwrap();
    pass_on(&mut reports, &keeper);
    assert_eq!(passed, [48, 44]);
}

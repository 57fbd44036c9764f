//! Placements: certified at the optimum of the exhaustive search, through the refutation of
//! the certificate pipeline, from the branch-and-bound search's tree, and by the core-guided
//! search as it runs.

use knights_sat::certify::{certify, certify_with, verify, ProofCompression};
use knights_sat::driver::{
    placement_has_tree, solve_placement, Event, Ingredients, PlacementSearch, Status, Strategy, TreeProof,
};
use knights_sat::encodings::geometry::{Board, PawnDirection, PieceKind, Square};
use knights_sat::encodings::ground_truth::placement::optimal_placement;
use knights_sat::encodings::puzzle::placement::{KindRule, PlacementGoal, PlacementPuzzle};
use knights_sat::encodings::puzzle::{to_toml, Puzzle};
use knights_sat::solver::SolverKind;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::common::random::random_placement;
use super::{work_dir, SEED};

#[test]
fn weighted_placements_certified_at_the_exhaustive_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 2);
    let search = PlacementSearch { solver: SolverKind::Varisat, ..PlacementSearch::default() };
    let (mut certified, mut weighted) = (0, 0);
    for i in 0..150 {
        let Some(puzzle) = random_placement(&mut rng) else { continue };
        let Ok(Some(optimum)) = optimal_placement(&puzzle, 2_000_000) else { continue };
        let outcome = solve_placement(&puzzle, &search, &mut |_| {}).unwrap();
        let (Status::Optimal, Some(solution), Some(value)) = (outcome.status, outcome.solution, outcome.value) else {
            panic!("puzzle {i}: the driver found no optimum: {puzzle:?}")
        };
        assert_eq!(value, optimum, "puzzle {i}: {puzzle:?}");
        let dir = work_dir(&format!("placement-{i}"));
        let puzzle = Puzzle::Placement(puzzle);
        certify(&puzzle, &to_toml(&puzzle), &solution, value, &dir, ProofCompression::None)
            .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"));
        let verification = verify(&dir).unwrap();
        assert!(verification.passed(), "puzzle {i}: {:?}: {puzzle:?}", verification.checks);
        certified += 1;
        weighted += usize::from(puzzle.placement().unwrap().kinds.iter().any(|r| r.weight > 1));
    }
    assert!(certified >= 80 && weighted >= 50, "only {certified} placements were certified, {weighted} weighted");
}

/// A random placement on a board of 5x5 to 7x7 (one kind, a square or two removed, any goal):
/// large enough that the branch-and-bound tree branches.
fn random_larger_placement(rng: &mut ChaCha8Rng) -> PlacementPuzzle {
    let side = rng.random_range(5..=7);
    let mut board = Board::new(side, side).unwrap();
    for _ in 0..rng.random_range(0..=2) {
        board.remove(Square(rng.random_range(0..board.area()) as u16));
    }
    let kind = [PieceKind::Knight, PieceKind::King, PieceKind::Queen, PieceKind::Bishop][rng.random_range(0..4)];
    let goal = PlacementGoal::ALL[rng.random_range(0..PlacementGoal::ALL.len())];
    let rule = KindRule { kind, min: 0, max: None, weight: 1 };
    PlacementPuzzle::new(None, board, goal, vec![rule], PawnDirection::Up, Vec::new(), Vec::new()).unwrap()
}

#[test]
fn placements_certified_from_the_branch_and_bound_tree_at_the_exhaustive_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 3);
    let (mut certified, mut branched, mut with_cuts, mut maximised) = (0, 0, 0, 0);
    let (mut replayed, mut skipped, mut by_red, mut needed, mut unwitnessed) = (0, 0, 0, 0, 0);
    for i in 0..160 {
        let puzzle = if i % 3 == 0 {
            let Some(puzzle) = random_placement(&mut rng) else { continue };
            puzzle
        } else {
            random_larger_placement(&mut rng)
        };
        if !placement_has_tree(&puzzle) {
            continue;
        }
        let Ok(Some(optimum)) = optimal_placement(&puzzle, 2_000_000) else { continue };
        // One thread or two, with every ingredient or with cuts or reduced costs off; the
        // symmetries on, so that orbital fixing is stated (by `red`, or by replays).
        let ingredients =
            Ingredients { certify: true, cuts: i % 3 != 1, reduced_costs: i % 3 != 2, ..Ingredients::default() };
        let search = PlacementSearch {
            strategy: Strategy::BranchAndBound,
            ingredients,
            threads: 1 + i % 2,
            ..Default::default()
        };
        let mut tree = None;
        let outcome = solve_placement(&puzzle, &search, &mut |event| {
            if let Event::TreeProof(logged) = event {
                tree = Some(logged.clone());
            }
        })
        .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"));
        let (Status::Optimal, Some(solution), Some(value)) = (outcome.status, outcome.solution, outcome.value) else {
            panic!("puzzle {i}: the search found no optimum: {puzzle:?}")
        };
        assert_eq!(value, optimum, "puzzle {i}: {puzzle:?}");
        let tree = tree.unwrap_or_else(|| panic!("puzzle {i}: a certified search logs its tree"));
        let dir = work_dir(&format!("tree-{i}"));
        let wrapped = Puzzle::Placement(puzzle.clone());
        let certificate =
            certify_with(&wrapped, &to_toml(&wrapped), &solution, value, &dir, ProofCompression::None, Some(&tree))
                .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"));
        assert!(certificate.figures.from_search, "puzzle {i}");
        let verification = verify(&dir).unwrap();
        assert!(verification.passed(), "puzzle {i}: {:?}: {puzzle:?}", verification.checks);
        let proof_path = dir.join("proof.pbp");
        let proof = std::fs::read_to_string(&proof_path).unwrap();
        by_red += usize::from(proof.contains("\nred "));
        // The first orbital fixing by `red` that propagation alone does not give: written as
        // `rup`, without its symmetry, VeriPB refuses it. On a puzzle that maximises, a witness
        // that only empties the image square instead of mapping the board onto itself makes the
        // objective worse, and VeriPB refuses that too. (Where the clause follows by
        // propagation, any witness passes, rightly; and emptying a square can be a sound
        // witness where the piece there covers nothing the node's pieces do not.)
        let reds: Vec<&str> = proof.lines().filter(|line| line.starts_with("red ")).take(4).collect();
        for line in reds.into_iter().filter(|_| needed < 5 || unwitnessed < 5) {
            let (clause, _) = line.split_once(" ; ").unwrap();
            let rup = proof.replacen(line, &format!("rup{} ;", &clause[3..]), 1);
            std::fs::write(&proof_path, rup).unwrap();
            if verify(&dir).unwrap().passed() {
                continue;
            }
            needed += 1;
            if !puzzle.goal.minimises() {
                let image = clause.split(' ').rev().nth(2).unwrap().trim_start_matches('~');
                let tampered = proof.replacen(line, &format!("{clause} ; {image} -> 0"), 1);
                std::fs::write(&proof_path, tampered).unwrap();
                let verification = verify(&dir).unwrap();
                assert!(!verification.passed(), "puzzle {i}: a symmetry step with a wrong witness passed: {puzzle:?}");
                assert!(verification.checks[2].message.contains("VeriPB rejects"), "{:?}", verification.checks);
                unwitnessed += 1;
            }
            break;
        }
        let _ = std::fs::remove_dir_all(&dir);
        if !tree.orbits.is_empty() && skipped < 5 {
            // The same tree without the steps that state the orbital fixings: the images'
            // children are never closed, and VeriPB refuses. (Where propagation closes them
            // anyway — the node's bounds already empty the images — the proof passes, rightly;
            // the count below needs five refusals.)
            let skipping = TreeProof { orbits: Vec::new(), ..(*tree).clone() };
            certify_with(&wrapped, &to_toml(&wrapped), &solution, value, &dir, ProofCompression::None, Some(&skipping))
                .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"));
            let verification = verify(&dir).unwrap();
            if !verification.passed() {
                assert!(verification.checks[2].message.contains("VeriPB rejects"), "{:?}", verification.checks);
                skipped += 1;
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
        certified += 1;
        replayed += usize::from(!tree.orbits.is_empty());
        branched += usize::from(tree.combinations.iter().any(|c| !c.path.is_empty()));
        with_cuts += usize::from(!tree.kept.is_empty());
        maximised += usize::from(!puzzle.goal.minimises());
    }
    assert!(
        certified >= 100
            && branched >= 25
            && with_cuts >= 20
            && maximised >= 20
            && replayed >= 10
            && skipped == 5
            && by_red >= 5
            && needed >= 5
            && unwitnessed >= 3,
        "only {certified} certified, {branched} with a tree that branched, {with_cuts} with cuts, {maximised} \
         maximised, {replayed} with orbital fixing, {skipped} refused without it, {by_red} with orbital fixing \
         by red, {needed} refused without a red step's symmetry, {unwitnessed} with a wrong witness"
    );
}

/// A random independence puzzle of several kinds without count limits on a board of 4x4 to
/// 6x6: kinds that dominate others on a square, and groups of softs of which at most one holds.
fn random_mixed_independence(rng: &mut ChaCha8Rng) -> PlacementPuzzle {
    let side = rng.random_range(4..=6);
    let board = Board::new(side, rng.random_range(4..=side)).unwrap();
    let mut kinds: Vec<PieceKind> = Vec::new();
    for _ in 0..rng.random_range(2..=4) {
        let kind = PieceKind::ALL[rng.random_range(0..PieceKind::ALL.len())];
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let rules =
        kinds.iter().map(|&kind| KindRule { kind, min: 0, max: None, weight: rng.random_range(1..=2) }).collect();
    let pawns = if rng.random_bool(0.5) { PawnDirection::Up } else { PawnDirection::Down };
    PlacementPuzzle::new(None, board, PlacementGoal::Independence, rules, pawns, Vec::new(), Vec::new()).unwrap()
}

/// The certified core-guided search proves the exhaustive optimum as it runs, on small puzzles
/// of every goal (weights, count limits whose rows need totalizers of their own, empty and fixed
/// squares) and on larger independence puzzles
/// of several kinds; VeriPB accepts each proof, and refuses one whose final sum leaves out a
/// reason, whose conclusion claims one more than was proved, or that rules a kind out without
/// the trade that justifies it.
#[test]
fn placements_certified_by_the_core_guided_search_as_it_runs() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 4);
    let search = PlacementSearch { strategy: Strategy::CoreGuided, ..PlacementSearch::default() };
    let (mut certified, mut totalizers, mut groups, mut traded, mut covering) = (0, 0, 0, 0, 0);
    let (mut tampered, mut untraded, mut limited) = (0, 0, 0);
    for i in 0..140 {
        let puzzle = if i % 2 == 0 {
            let Some(puzzle) = random_placement(&mut rng) else { continue };
            puzzle
        } else {
            random_mixed_independence(&mut rng)
        };
        if !knights_sat::certify::core_guided::applies(&puzzle, &search) {
            continue;
        }
        let Ok(Some(optimum)) = optimal_placement(&puzzle, 2_000_000) else { continue };
        let dir = work_dir(&format!("core-guided-{i}"));
        let wrapped = Puzzle::Placement(puzzle.clone());
        let certificate = knights_sat::certify::certify_core_guided(
            &wrapped,
            &to_toml(&wrapped),
            &dir,
            ProofCompression::None,
            &mut |_| {},
        )
        .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"));
        let Some(certificate) = certificate else {
            assert!(puzzle.goal.covers(), "puzzle {i}: no placement of an independence puzzle: {puzzle:?}");
            continue;
        };
        assert_eq!(certificate.value, optimum, "puzzle {i}: {puzzle:?}");
        let verification = verify(&dir).unwrap();
        assert!(verification.passed(), "puzzle {i}: {:?}: {puzzle:?}", verification.checks);
        let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
        certified += 1;
        totalizers += usize::from(proof.contains("a totalizer over a core"));
        groups += usize::from(proof.contains("softs of which at most one holds"));
        traded += usize::from(proof.contains("kinds an optimal placement never needs"));
        covering += usize::from(puzzle.goal.covers());
        limited += usize::from(puzzle.kinds.iter().any(|r| r.min > 1 || r.max.is_some_and(|m| m > 1)));
        // The final sum is the last `pol` line: without its last reason it proves one less.
        let lines: Vec<&str> = proof.lines().collect();
        let last = lines.iter().rposition(|l| l.starts_with("pol ")).unwrap();
        let terms: Vec<&str> = lines[last].split_whitespace().collect();
        if tampered < 6 && terms.len() > 2 {
            // Its last term: `id +`, or `id weight * +`.
            let cut = if terms[terms.len() - 2] == "*" { 4 } else { 2 };
            let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            edited[last] = terms[..terms.len() - cut].join(" ");
            std::fs::write(dir.join("proof.pbp"), edited.join("\n") + "\n").unwrap();
            let verification = verify(&dir).unwrap();
            assert!(!verification.passed(), "puzzle {i}: a sum without one reason passed: {puzzle:?}");
            // The conclusion claiming one more than the objective value logged.
            let at = lines.iter().position(|l| l.starts_with("conclusion BOUNDS")).unwrap();
            let numbers: Vec<&str> = lines[at].split_whitespace().collect();
            let lower: i64 = numbers[2].parse().unwrap();
            let mut claimed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            claimed[at] = lines[at].replacen(&format!("BOUNDS {lower}"), &format!("BOUNDS {}", lower + 1), 1);
            std::fs::write(dir.join("proof.pbp"), claimed.join("\n") + "\n").unwrap();
            let verification = verify(&dir).unwrap();
            assert!(!verification.passed(), "puzzle {i}: a bound one too high passed: {puzzle:?}");
            tampered += 1;
        }
        if untraded < 3 && proof.contains("kinds an optimal placement never needs") {
            // A kind ruled out without the trade that keeps the placement's value: the witness
            // only removes the piece, which loses its weight, and VeriPB refuses the step.
            let at = lines.iter().position(|l| l.starts_with("red 1 ~x") && l.ends_with("-> 1")).unwrap();
            let tokens: Vec<&str> = lines[at].split_whitespace().collect();
            let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            edited[at] = tokens[..tokens.len() - 3].join(" ");
            std::fs::write(dir.join("proof.pbp"), edited.join("\n") + "\n").unwrap();
            let verification = verify(&dir).unwrap();
            assert!(!verification.passed(), "puzzle {i}: a kind ruled out without its trade passed: {puzzle:?}");
            untraded += 1;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        certified >= 80
            && totalizers >= 40
            && groups >= 40
            && traded >= 20
            && covering >= 20
            && limited >= 10
            && tampered == 6
            && untraded == 3,
        "only {certified} certified, {totalizers} with a totalizer, {groups} with a group, {traded} with kinds \
         traded, {covering} covering, {limited} with count limits, {tampered} tampered, {untraded} without a trade"
    );
}

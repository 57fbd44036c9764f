//! Certificates against breadth-first search: on random small exchanges and tours, the
//! certified models (at most `T` moves, moves minimised) have exactly the optimum that a search
//! sharing no code with them finds, and VeriPB checks the proof of it.
//!
//! For exchanges the solution certified is the breadth-first search's own, so neither the SAT
//! driver nor its encodings are involved; for tours it is the driver's, whose value the search
//! confirms. Placements with weights, limits, fixed pieces and empty squares go through the
//! whole of `certify` and `verify`, at the optimum of the exhaustive search, both through the
//! refutation of the certificate pipeline and from the branch-and-bound search's own tree.
//! The exchanges are here, the tours in `tours`, the placements in `placements`.

#[path = "../common/mod.rs"]
mod common;
mod placements;
mod tours;

use std::path::Path;

use common::random::random_exchange;
use common::Scratch;

use knights_sat::certify::{
    check, prove_optimal, prove_optimal_until, Argument, Bounds, CanonicalOrder, CanonicalOrderUse, CertifyError,
    ProofCompression, ProofOptions, Refuter, Speculation,
};
use knights_sat::driver::{Event, Query, StepStats};
use knights_sat::encodings::ground_truth::exchange::shortest_route;
use knights_sat::encodings::linear::{exchange_model_at_most, write_opb, LinearModel};
use knights_sat::encodings::puzzle::{ExchangePuzzle, Puzzle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const SEED: u64 = 0x0063_6572_7469_6679;

/// The refuter of the `i`-th puzzle of a test: CaDiCaL and varisat in turn, so that both
/// traces are checked.
fn refuter(i: usize) -> Refuter {
    if i % 2 == 0 {
        Refuter::Cadical
    } else {
        Refuter::Varisat
    }
}

/// Proves `assignment` optimal for `model` by `refuter` and checks the proof with VeriPB.
fn certify_and_check(
    model: &LinearModel,
    assignment: &[bool],
    dir: &Path,
    colour: Option<&Argument>,
    refuter: Refuter,
) -> Bounds {
    let (opb, pbp) = write_proof(model, assignment, dir, colour, refuter);
    check(&opb, &pbp).expect("VeriPB accepts the proof")
}

/// Writes `model.opb` and the proof that `assignment` is optimal for `model` into `dir`,
/// unchecked: their paths.
fn write_proof(
    model: &LinearModel,
    assignment: &[bool],
    dir: &Path,
    colour: Option<&Argument>,
    refuter: Refuter,
) -> (std::path::PathBuf, std::path::PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let (opb, pbp) = (dir.join("model.opb"), dir.join("proof.pbp"));
    let mut text = Vec::new();
    write_opb(model, &mut text).unwrap();
    std::fs::write(&opb, text).unwrap();
    let file = std::io::BufWriter::new(std::fs::File::create(&pbp).unwrap());
    prove_optimal(model, assignment, colour, refuter, file).expect("a proof is written");
    (opb, pbp)
}

/// A directory for one proof, removed when the test is done with it.
fn work_dir(name: &str) -> Scratch {
    Scratch::new("certify-diff", name)
}

#[test]
fn exchanges_certified_at_the_breadth_first_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let (mut certified, mut with_holes, mut swaps) = (0, 0, 0);
    for i in 0..40 {
        let puzzle = random_exchange(&mut rng);
        let Ok(Some(moves)) = shortest_route(&puzzle, 100_000) else { continue };
        if moves.len() > 12 {
            continue;
        }
        let cap = exchange_model_at_most(&puzzle, moves.len());
        let assignment = cap.assignment(&puzzle, &moves).unwrap();
        let bounds = certify_and_check(&cap.model, &assignment, &work_dir(&format!("exchange-{i}")), None, refuter(i));
        let value = moves.len() as i64;
        assert_eq!(bounds, Bounds { lower: value, upper: value }, "puzzle {i}: {puzzle:?}");
        // Every other puzzle again with the canonical order of moves stated by dominance, by
        // the other refuter.
        if i % 2 == 1 {
            let order = canonical_order(&puzzle, moves.len());
            swaps += order.swaps.len();
            let dir = work_dir(&format!("exchange-{i}-swaps"));
            let swapped = Some(&Argument::Swaps(order));
            let bounds = certify_and_check(&cap.model, &assignment, &dir, swapped, refuter(i + 1));
            assert_eq!(bounds, Bounds { lower: value, upper: value }, "puzzle {i} with swaps: {puzzle:?}");
        }
        certified += 1;
        with_holes += usize::from(puzzle.board.removed_squares().next().is_some());
    }
    assert!(certified >= 15, "only {certified} puzzles had a short enough optimum");
    assert!(with_holes >= 3, "only {with_holes} boards with a removed square were certified");
    assert!(swaps >= 100, "only {swaps} swaps of moves were stated by dominance");
}

/// The events of a horizon search that proves `0..optimum` unreachable and then asks about the
/// optimum, as a [`Speculation`] sees them.
fn horizon_events(optimum: usize) -> Vec<Event> {
    let mut events = Vec::new();
    for horizon in 0..optimum {
        events.push(Event::Trying { horizon, query: Query::Goal });
        events.push(Event::Step(StepStats::proved_unsat(horizon, Query::Goal)));
    }
    events.push(Event::Trying { horizon: optimum, query: Query::Goal });
    events
}

/// Certificates begun during the search: fed the events of a horizon search that ends at the
/// breadth-first optimum, the speculation proves the lower bound under the assumption "the last
/// step makes no move" before the solution is known, then finishes the proof with it; VeriPB
/// checks it, with and without the canonical order of moves.
#[test]
fn exchanges_certified_while_the_search_runs_at_the_breadth_first_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 7);
    let mut certified = 0;
    for i in 0..30 {
        let puzzle = random_exchange(&mut rng);
        let Ok(Some(moves)) = shortest_route(&puzzle, 100_000) else { continue };
        if moves.is_empty() || moves.len() > 12 {
            continue;
        }
        let value = moves.len();
        let cap = exchange_model_at_most(&puzzle, value);
        let assignment = cap.assignment(&puzzle, &moves).unwrap();
        let dir = work_dir(&format!("ahead-{i}"));
        let canonical_order = if i % 2 == 1 { CanonicalOrderUse::Always } else { CanonicalOrderUse::Never };
        let options = ProofOptions { compression: ProofCompression::None, canonical_order };
        let wrapped = Puzzle::Exchange(puzzle.clone());
        let speculation = Speculation::start(&wrapped, &dir, options).expect("exchanges are certified ahead");
        for event in horizon_events(value) {
            speculation.observe(&event);
        }
        let (stored, figures) = speculation
            .finish(Some((value, assignment)))
            .expect("the lane of the last unreachable horizon")
            .expect("its proof");
        assert!(figures.ahead, "puzzle {i}");
        let opb = dir.join("model.opb");
        let mut text = Vec::new();
        write_opb(&cap.model, &mut text).unwrap();
        std::fs::write(&opb, text).unwrap();
        let bounds = check(&opb, &stored.path).expect("VeriPB accepts the proof");
        let value = value as i64;
        assert_eq!(bounds, Bounds { lower: value, upper: value }, "puzzle {i}: {puzzle:?}");
        let lanes = std::fs::read_dir(&dir).unwrap().filter(|e| e.as_ref().unwrap().file_type().unwrap().is_dir());
        assert_eq!(lanes.count(), 0, "puzzle {i}: a lane's folder was left behind");
        certified += 1;
    }
    assert!(certified >= 10, "only {certified} puzzles had a short enough optimum");
}

/// The canonical order of `puzzle`'s moves in its model of at most `cap` moves.
fn canonical_order(puzzle: &ExchangePuzzle, cap: usize) -> CanonicalOrder {
    CanonicalOrder::of(puzzle, &exchange_model_at_most(puzzle, cap))
}

/// Guarini's puzzle with the canonical order of its moves: VeriPB checks every swap against
/// the rows it touches, the bits of the keys and the potential it lowers, so a witness that
/// leaves a square out or sets a bit wrong, or a potential that a swap raises, is rejected.
#[test]
fn a_swap_of_moves_is_checked_against_its_rows_and_the_potential() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/guarini.toml");
    let Puzzle::Exchange(puzzle) = knights_sat::encodings::puzzle::load(&path).unwrap() else { panic!("an exchange") };
    let moves = shortest_route(&puzzle, 100_000).unwrap().expect("a route");
    let cap = exchange_model_at_most(&puzzle, moves.len());
    let assignment = cap.assignment(&puzzle, &moves).unwrap();
    let order = canonical_order(&puzzle, moves.len());
    assert!(order.swaps.len() > 1000, "only {} swaps", order.swaps.len());
    let dir = work_dir("guarini-swaps");
    let bounds = certify_and_check(&cap.model, &assignment, &dir, Some(&Argument::Swaps(order)), Refuter::Cadical);
    assert_eq!(bounds, Bounds { lower: 16, upper: 16 });
    let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
    let opb = dir.join("model.opb");
    let rejected = |name: &str, text: String| {
        let pbp = dir.join(name);
        std::fs::write(&pbp, text).unwrap();
        assert!(check(&opb, &pbp).is_err(), "VeriPB accepted {name}");
    };
    // The last square of the first swap's witness left out (its eighth mapping, after the four
    // moves and three squares; the bits of the steps' keys follow): the swapped sequence breaks
    // a row.
    let first = proof.lines().find(|l| l.starts_with("dom ")).expect("a swap").to_string();
    let (clause, witness) = first.split_once(" ; ").expect("a witness");
    let mut mappings: Vec<&str> = witness.split(" x").collect();
    assert!(mappings.len() > 8, "{first}");
    mappings.remove(7);
    rejected("cut-witness.pbp", proof.replacen(&first, &format!("{clause} ; {}", mappings.join(" x")), 1));
    // The last bit of a step's key set wrong in the first swap's witness: the bit's definition
    // breaks.
    let flipped = match first.strip_suffix(" -> 0") {
        Some(rest) => format!("{rest} -> 1"),
        None => format!("{} -> 0", first.strip_suffix(" -> 1").expect("a constant")),
    };
    rejected("flipped-bit.pbp", proof.replacen(&first, &flipped, 1));
    // The potential negated: every swap raises it.
    let mut lines = proof.lines();
    lines.find(|l| l.trim() == "def").expect("the order's definition");
    let definition = lines.next().expect("the potential").to_string();
    let negated: String = definition
        .split(' ')
        .map(|w| match w.parse::<i64>() {
            Ok(c) if c != 0 => (-c).to_string(),
            _ => w.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    rejected("raised-potential.pbp", proof.replacen(&definition, &negated, 1));
}

/// Guarini's puzzle: CaDiCaL derives units while its input is still being added (the start
/// and goal are fixed by unit rows), so its lemmas and the inputs share numbers; both traces
/// must still name every input right, and VeriPB check the optimum 16.
#[test]
fn guarinis_exchange_is_refuted_by_either_solver_with_every_hint_named() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/guarini.toml");
    let Puzzle::Exchange(puzzle) = knights_sat::encodings::puzzle::load(&path).unwrap() else { panic!("an exchange") };
    let moves = shortest_route(&puzzle, 100_000).unwrap().expect("a route");
    assert_eq!(moves.len(), 16, "the published optimum");
    let cap = exchange_model_at_most(&puzzle, moves.len());
    let assignment = cap.assignment(&puzzle, &moves).unwrap();
    for refuter in [Refuter::Cadical, Refuter::Varisat] {
        let dir = work_dir(&format!("guarini-{refuter:?}"));
        let bounds = certify_and_check(&cap.model, &assignment, &dir, None, refuter);
        assert_eq!(bounds, Bounds { lower: 16, upper: 16 }, "{refuter:?}");
        let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
        let lemmas: Vec<&str> = proof.lines().filter(|l| l.starts_with("rup")).collect();
        assert!(lemmas.len() > 1000, "{refuter:?}: only {} lemmas", lemmas.len());
        let unhinted = lemmas.iter().filter(|l| !l.contains(" ; ") || l.trim_end().ends_with(';')).count();
        assert!(unhinted <= 1, "{refuter:?}: {unhinted} lemmas without hints");
    }
}

/// A refutation raced by another stops once the other has finished: with the flag set from
/// the start, neither solver writes its refutation, and both say they were stopped (the race
/// of `solve --certify` would otherwise wait for the loser, or keep a second proof).
#[test]
fn a_refutation_stops_once_its_rival_has_finished() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/guarini.toml");
    let Puzzle::Exchange(puzzle) = knights_sat::encodings::puzzle::load(&path).unwrap() else { panic!("an exchange") };
    let moves = shortest_route(&puzzle, 100_000).unwrap().expect("a route");
    let cap = exchange_model_at_most(&puzzle, moves.len());
    let assignment = cap.assignment(&puzzle, &moves).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(true);
    for refuter in [Refuter::Cadical, Refuter::Varisat] {
        let mut proof = Vec::new();
        let answer = prove_optimal_until(&cap.model, &assignment, None, refuter, &mut proof, &stop);
        assert!(matches!(answer, Err(CertifyError::Stopped)), "{refuter:?}: {answer:?}");
        let text = String::from_utf8(proof).unwrap();
        let lemmas = text.lines().filter(|l| l.starts_with("rup")).count();
        assert!(lemmas < 1000, "{refuter:?} went on for {lemmas} lemmas after it was stopped");
    }
}

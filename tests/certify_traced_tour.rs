//! The certified horizon search of a lone knight's tour from any square: on random small
//! boards its certificate states the optimum that a breadth-first search sharing no code with
//! it finds, and VeriPB checks it, whether the colour argument decides or the search's own
//! trace does. A proof with one clause of the search stated without the step it holds from,
//! or with a conclusion one move too high, is rejected.

mod common;

use common::Scratch;
use knights_sat::certify::traced_tour::{applies, colour_bound};
use knights_sat::certify::{certify_traced_tour, tour_cap_model, verify, ProofCompression};
use knights_sat::encodings::geometry::{Board, PieceKind, Square};
use knights_sat::encodings::ground_truth::tour::optimal_tour;
use knights_sat::encodings::puzzle::tour::{KnightStart, TourObjective, TourPuzzle, VisitOrder};
use knights_sat::encodings::puzzle::{to_toml, Puzzle};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A directory for one certificate, removed when the test is done with it.
fn work_dir(name: &str) -> Scratch {
    Scratch::new("traced-tour", name)
}

/// A lone knight free to start anywhere on a board of 4 to 6 squares a side, perhaps with a
/// square removed and a queen, touching 2 to 7 targets in any order.
fn random_tour(rng: &mut ChaCha8Rng) -> Option<TourPuzzle> {
    let mut board = Board::new(rng.random_range(4..=6), rng.random_range(4..=6)).unwrap();
    if rng.random_bool(0.3) {
        board.remove(Square(rng.random_range(0..board.area()) as u16));
    }
    let squares: Vec<Square> = board.squares().collect();
    let pick = |rng: &mut ChaCha8Rng| squares[rng.random_range(0..squares.len())];
    let attackers = if rng.random_bool(0.6) { vec![(PieceKind::Queen, pick(rng))] } else { Vec::new() };
    let mut targets: Vec<Square> = Vec::new();
    for _ in 0..rng.random_range(2..=7) {
        let square = pick(rng);
        if !targets.contains(&square) {
            targets.push(square);
        }
    }
    let knights = vec![KnightStart::OneOf(Vec::new())];
    TourPuzzle::new(None, board, attackers, knights, Some(targets), VisitOrder::Any, TourObjective::Moves).ok()
}

#[test]
fn tours_from_any_square_certified_by_their_search_at_the_breadth_first_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7472_6163_6564);
    let (mut certified, mut by_trace, mut by_colour, mut tampered) = (0, 0, 0, 0);
    for i in 0..150 {
        let Some(puzzle) = random_tour(&mut rng) else { continue };
        if !applies(&puzzle) {
            continue;
        }
        let Ok(Some(optimum)) = optimal_tour(&puzzle, 500_000) else { continue };
        assert!(colour_bound(&puzzle) <= optimum.moves, "puzzle {i}: the colour bound passes the optimum: {puzzle:?}");
        let dir = work_dir(&format!("tour-{i}"));
        let wrapped = Puzzle::Tour(puzzle.clone());
        let certificate =
            certify_traced_tour(&wrapped, &to_toml(&wrapped), 200, &dir, ProofCompression::None, &mut |_| {})
                .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {puzzle:?}"))
                .unwrap_or_else(|| panic!("puzzle {i}: no route: {puzzle:?}"));
        assert_eq!(certificate.value, optimum.moves, "puzzle {i}: {puzzle:?}");
        let verification = verify(&dir).unwrap();
        assert!(verification.passed(), "puzzle {i}: {:?}: {puzzle:?}", verification.checks);
        certified += 1;
        let figures = certificate.figures;
        assert!(figures.horizons.is_some() != figures.decided_by.is_some(), "puzzle {i}: {figures:?}");
        if figures.horizons.is_none() {
            by_colour += 1;
            continue;
        }
        by_trace += 1;
        if tampered >= 5 || optimum.moves < 2 {
            continue;
        }
        tampered += 1;
        let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
        // A clause of the search's step `t` holds once the knight has jumped in step `t`: the
        // first one stated without `~moved_t` is no longer implied.
        let model = tour_cap_model(&puzzle, optimum.moves).unwrap();
        let moved: Vec<String> = model.moved_of(0).iter().map(|v| format!(" 1 ~x{} ", v + 1)).collect();
        let first = proof.find("* the search's clauses of time 1\n").expect("the clauses of step 1");
        let (at, term) = proof[first..]
            .lines()
            .scan(first, |offset, line| {
                let start = *offset;
                *offset += line.len() + 1;
                Some((start, line))
            })
            .filter(|(_, line)| line.starts_with("rup "))
            .find_map(|(start, line)| moved.iter().find(|m| line.contains(m.as_str())).map(|m| (start, m.clone())))
            .expect("a clause weakened by a step");
        let line_end = at + proof[at..].find('\n').unwrap();
        let spoiled_line = proof[at..line_end].replacen(&term, " ", 1);
        let spoiled = format!("{}{}{}", &proof[..at], spoiled_line, &proof[line_end..]);
        std::fs::write(dir.join("proof.pbp"), &spoiled).unwrap();
        let verification = verify(&dir).unwrap();
        assert!(!verification.passed(), "puzzle {i}: a clause without its step passed: {puzzle:?}");
        // The conclusion one move higher than the proof shows.
        let value = optimum.moves;
        let conclusion = proof.lines().find(|l| l.starts_with("conclusion BOUNDS")).unwrap().to_string();
        let higher = conclusion.replacen(&format!("BOUNDS {value} "), &format!("BOUNDS {} ", value + 1), 1);
        std::fs::write(dir.join("proof.pbp"), proof.replace(&conclusion, &higher)).unwrap();
        let verification = verify(&dir).unwrap();
        assert!(!verification.passed(), "puzzle {i}: a bound one too high passed: {puzzle:?}");
    }
    assert!(certified >= 40, "only {certified} tours were certified");
    assert!(by_trace >= 10, "only {by_trace} tours were certified by the search's trace");
    assert!(by_colour >= 5, "only {by_colour} tours were certified by the colour argument");
    assert_eq!(tampered, 5, "only {tampered} proofs were spoiled");
}

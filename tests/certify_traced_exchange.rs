//! The horizon search of an exchange that certifies itself: on random small exchanges its
//! certificate states the optimum that a breadth-first search sharing no code with it finds,
//! with the canonical order of moves stated and without it, and VeriPB checks every one. A
//! model too short for the optimum leaves no certificate, and `solve` then hands the puzzle
//! to the plain search.

mod common;

use common::random::random_exchange;
use common::{knights_sat, Scratch};
use knights_sat::certify::traced_exchange::first_horizon;
use knights_sat::certify::{certify_traced_exchange, stated_horizon, verify, ProofCompression};
use knights_sat::encodings::geometry::PieceKind;
use knights_sat::encodings::ground_truth::exchange::shortest_route;
use knights_sat::encodings::puzzle::{to_toml, Puzzle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A directory for one certificate, removed when the test is done with it.
fn work_dir(name: &str) -> Scratch {
    Scratch::new("traced-exchange", name)
}

#[test]
fn exchanges_certify_themselves_at_the_breadth_first_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7472_6163_6564);
    let (mut certified, mut ordered, mut too_short) = (0, 0, 0);
    for i in 0..60 {
        let exchange = random_exchange(&mut rng);
        let Ok(Some(moves)) = shortest_route(&exchange, 100_000) else { continue };
        if moves.len() > 12 {
            continue;
        }
        let optimum = moves.len();
        // The order among leapers only: a slider's moves make tens of thousands of swaps on
        // these boards, each a dominance step that VeriPB checks in about a millisecond.
        let leapers = exchange.start.pieces().all(|(_, p)| matches!(p.kind, PieceKind::Knight | PieceKind::King));
        let order = i % 2 == 1 && leapers;
        // For some, a model one move too short.
        let short = i % 5 == 0 && optimum > 0;
        let horizon = if short { optimum - 1 } else { first_horizon(&exchange).max(optimum) };
        let puzzle = Puzzle::Exchange(exchange.clone());
        let dir = work_dir(&format!("exchange-{i}"));
        let how = (ProofCompression::None, order);
        let certificate = certify_traced_exchange(&puzzle, &to_toml(&puzzle), horizon, &dir, how, &mut |_| {})
            .unwrap_or_else(|e| panic!("puzzle {i}: {e}: {exchange:?}"));
        if short {
            assert!(certificate.is_none(), "puzzle {i}: certified within {horizon} moves: {exchange:?}");
            assert!(!dir.join("proof.pbp").exists(), "puzzle {i}: a proof left behind");
            too_short += 1;
            continue;
        }
        let certificate = certificate.unwrap_or_else(|| panic!("puzzle {i}: no certificate: {exchange:?}"));
        assert_eq!(certificate.value, optimum, "puzzle {i}: {exchange:?}");
        let verification = verify(&dir).unwrap();
        assert!(verification.passed(), "puzzle {i}: {:?}", verification.checks);
        let text = std::fs::read_to_string(dir.join("solution.txt")).unwrap();
        assert_eq!(stated_horizon(&text).unwrap(), Some(horizon), "puzzle {i}");
        certified += 1;
        ordered += usize::from(order);
    }
    assert!(certified >= 15 && ordered >= 2, "{certified} certified, {ordered} with the order");
    assert!(too_short >= 3, "{too_short} models too short");
}

/// Guarini's 16 moves do not fit in a search capped at 10: the certified search finds nothing,
/// the plain search takes over, and no certificate is written; an exchange that no sequence
/// solves is proved so by the plain search's invariants.
#[test]
fn a_search_without_an_answer_is_handed_to_the_plain_search() {
    let dir = work_dir("capped");
    let args = ["solve", "--quiet", "puzzles/guarini.toml", "--max-horizon", "10", "--certify", dir.to_str().unwrap()];
    let run = knights_sat(&args);
    assert!(run.stderr.contains("no certificate written"), "{}{}", run.stdout, run.stderr);
    assert!(!dir.join("proof.pbp").exists(), "a proof left behind");
    let path = common::puzzle_file(
        "traced-rooks-cannot-pass.toml",
        "kind = \"exchange\"\nboard = \"3x1\"\nswap = true\n[[side]]\nname = \"white\"\nstart = [\"Ra1\"]\n\
         [[side]]\nname = \"black\"\nstart = [\"Rc1\"]\n",
    );
    let dir = work_dir("impossible");
    let run = knights_sat(&["solve", "--quiet", path.to_str().unwrap(), "--certify", dir.to_str().unwrap()]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("infeasible"), "{}", run.stdout);
    assert!(run.stderr.contains("no certificate written"), "{}", run.stderr);
}

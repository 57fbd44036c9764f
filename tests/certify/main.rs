//! Certificates of optimality: `solve --certify DIR` writes one, `verify DIR` checks it, and
//! any tampering with the model, the proof or the solution is caught and named (`tampering`).

#[path = "../common/mod.rs"]
mod common;
mod tampering;

use std::path::Path;

use common::{knights_sat, puzzle_file, Scratch};

/// A fresh, empty directory for one certificate, removed when the test is done with it.
fn fresh_dir(name: &str) -> Scratch {
    Scratch::new("certify", name)
}

/// Solves `puzzle` with `--certify` into a fresh directory and returns it.
fn certify(puzzle: &str, name: &str) -> Scratch {
    let dir = fresh_dir(name);
    let run = knights_sat(&["solve", "--quiet", puzzle, "--certify", dir.to_str().unwrap()]);
    assert_eq!(run.code, 0, "solve --certify failed: {}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("certificate: "), "{}", run.stdout);
    dir
}

/// Runs `verify` on `dir`.
fn verify(dir: &Path) -> common::Run {
    knights_sat(&["verify", dir.to_str().unwrap()])
}

/// Copies a certificate so that one test may spoil the copy.
fn copy(dir: &Path, name: &str) -> Scratch {
    let to = fresh_dir(name);
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
    to
}

/// Rewrites one file of a certificate.
fn edit(dir: &Path, file: &str, change: impl FnOnce(String) -> String) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let changed = change(text.clone());
    assert_ne!(changed, text, "the edit changed nothing");
    std::fs::write(path, changed).unwrap();
}

/// Rewrites each line of `file` in `dir` by `change`; fails if nothing changed.
fn edit_lines(dir: &Path, file: &str, change: impl Fn(&str) -> String) {
    edit(dir, file, |t| t.lines().map(change).collect::<Vec<_>>().join("\n") + "\n");
}

const DOMINATION_5X5: &str = "kind = \"domination\"\nname = \"knights 5x5\"\nboard = \"5x5\"\npieces = \"N\"\n";

/// Verifies a certificate and checks that every part passed and the value is `value`.
fn assert_verified(dir: &Path, value: &str, bounds: &str) {
    let run = verify(dir);
    assert_eq!(run.code, 0, "verify failed:\n{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(&format!("optimal value {value}")), "{}", run.stdout);
    assert!(run.stdout.contains("ok   a. solution: replayed by the rules checker"), "{}", run.stdout);
    assert!(run.stdout.contains("ok   b. model: model.opb is the model the puzzle generates"), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("ok   c. proof: VeriPB verified BOUNDS {bounds}")), "{}", run.stdout);
}

#[test]
fn knight_domination_8x8_is_certified_12() {
    let dir = certify("puzzles/knights-domination-8x8.toml", "domination8");
    for file in ["puzzle.toml", "model.opb", "solution.txt", "proof.pbp"] {
        assert!(dir.join(file).is_file(), "{file} missing");
    }
    assert_verified(&dir, "12", "12 <= obj <= 12");
}

#[test]
fn eight_queens_are_certified_with_the_negated_objective() {
    let dir = certify("puzzles/independence-queens-8x8.toml", "queens8");
    assert_verified(&dir, "8", "-8 <= obj <= -8");
}

#[test]
fn an_exchange_is_certified_over_every_horizon_at_once() {
    // A rook from a1 to c3 round a bishop on b2 (which cannot reach a white square): 2 moves.
    let text =
        "kind = \"exchange\"\nboard = \"3x3\"\n[[side]]\nname = \"white\"\nstart = [\"Ra1\"]\ngoal = [\"Rc3\"]\n\
                [[side]]\nname = \"black\"\nstart = [\"Bb2\"]\ngoal = [\"Bb2\"]\n";
    let path = puzzle_file("certify-rook.toml", text);
    let dir = certify(path.to_str().unwrap(), "rook");
    assert_verified(&dir, "2", "2 <= obj <= 2");
}

/// With two cores varisat and CaDiCaL race for the proof (one core: varisat alone): the
/// winner's proof is the certificate's, named in the answer, and the loser's folder is gone.
/// (Two horizons at once leave no core to begin the certificate during the search; a board of
/// more than nine squares is not left to the search that certifies itself.)
#[test]
fn the_winning_refuter_is_named_and_nothing_of_the_race_is_left() {
    let dir = fresh_dir("race");
    let path = puzzle_file("certify-knights-4x3.toml", KNIGHTS_4X3);
    let args = ["solve", "--quiet", path.to_str().unwrap(), "--threads", "2", "--certify", dir.to_str().unwrap()];
    let run = knights_sat(&args);
    assert_eq!(run.code, 0, "solve --certify failed: {}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(" lemmas by varisat") || run.stdout.contains(" lemmas by cadical"), "{}", run.stdout);
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["model.opb", "proof.pbp", "puzzle.toml", "solution.txt"]);
    assert_verified(&dir, "10", "10 <= obj <= 10");
}

/// Guarini's knights on a 4x3 board: two white knights on a1 and d1 change places with two
/// black ones on a3 and d3.
const KNIGHTS_4X3: &str = "kind = \"exchange\"\nboard = \"4x3\"\nswap = true\n[[side]]\nname = \"white\"\n\
    start = [\"Na1\", \"Nd1\"]\n[[side]]\nname = \"black\"\nstart = [\"Na3\", \"Nd3\"]\n";

/// An exchange's certificate on a board of more than nine squares is begun while the search
/// runs: its lower bound is refuted on the core the horizon search leaves free, finished with
/// the solution, and nothing of the lanes is left.
#[test]
fn an_exchange_certificate_is_begun_during_the_search() {
    let dir = fresh_dir("ahead");
    let run = knights_sat(&["solve", "--quiet", "puzzles/guarini-3x4.toml", "--certify", dir.to_str().unwrap()]);
    assert_eq!(run.code, 0, "solve --certify failed: {}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(" lemmas by cadical during the search"), "{}", run.stdout);
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["model.opb", "proof.pbp", "puzzle.toml", "solution.txt"]);
    assert_verified(&dir, "16", "16 <= obj <= 16");
    let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
    assert!(proof.contains("* first the lower bound"), "the proof does not begin with the bound");
}

#[test]
fn a_tour_is_certified() {
    let text = "kind = \"tour\"\nboard = \"4x4\"\nknights = [\"a1\"]\n";
    let path = puzzle_file("certify-tour.toml", text);
    let dir = certify(path.to_str().unwrap(), "tour");
    assert_verified(&dir, "16", "16 <= obj <= 16");
}

#[test]
fn the_queen_d5_tour_is_certified_by_the_colour_argument() {
    let dir = certify("puzzles/queen-d5-tour.toml", "queen-d5");
    assert_verified(&dir, "46", "46 <= obj <= 46");
    let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
    assert!(proof.contains("the colour argument"));
}

/// Two knights from h8 and a1, jumping together: 22 time steps, since their landings on the
/// colour they start on (22 targets of it besides their starts) are at most ten each in 21.
#[test]
fn two_knights_around_d5_are_certified_by_the_colour_count() {
    let dir = fresh_dir("two-knights-d5");
    let run = knights_sat(&[
        "solve",
        "--quiet",
        "puzzles/bench-tours/queen-d5-two-knights-steps.toml",
        "--certify",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("decided by the colour count"), "{}", run.stdout);
    assert_verified(&dir, "22", "22 <= obj <= 22");
    let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
    assert!(proof.contains("the colour count: 22 targets of colour 0"), "{}", &proof[..proof.len().min(2000)]);
}

/// A free start: the colour argument once for each colour of the start, then the two added up
/// with the start row. Without the second colour's case the proof falls short.
#[test]
fn the_queen_d5_tour_from_any_square_is_certified_start_colour_by_start_colour() {
    let dir = fresh_dir("queen-d5-any");
    let run = knights_sat(&[
        "solve",
        "--quiet",
        "tour",
        "--board",
        "8x8",
        "--attackers",
        "Qd5",
        "--knights",
        "any",
        "--certify",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_verified(&dir, "46", "46 <= obj <= 46");
    let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
    for case in ["for a start of colour 0", "for a start of colour 1", "starts on neither colour"] {
        assert!(proof.contains(case), "no `{case}` in the proof");
    }
    // Cut the proof after the first colour's case: the second is missing, and the final sum
    // with the start row no longer closes the proof.
    let cut = copy(&dir, "queen-d5-any-cut");
    edit(&cut, "proof.pbp", |t| {
        let first = t.find("* the colour argument for a start of colour 1").expect("the second case");
        let conclusion = t.find("output NONE").expect("the conclusion");
        format!("{}{}", &t[..first], &t[conclusion..])
    });
    let run = verify(&cut);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof"), "{}", run.stdout);
}

#[test]
fn a_tour_in_a_listed_order_is_certified() {
    let text = "kind = \"tour\"\nboard = \"5x5\"\nknights = [\"a1\"]\norder = \"listed\"\n\
                targets = [\"a1\", \"e5\", \"a5\", \"e1\", \"c3\"]\n";
    let path = puzzle_file("certify-listed.toml", text);
    let dir = certify(path.to_str().unwrap(), "listed");
    assert_verified(&dir, "14", "14 <= obj <= 14");
}

/// A knight that may start on any of 4,096 squares: its "exactly one start" row became one
/// clause per pair, 8.4 million of them, and the certificate ran out of memory under the 2 GiB
/// cap of the fuzz tests. Long "at most one" rows now go to the certified totalizer.
#[test]
fn a_knight_starting_anywhere_on_64x64_is_certified_in_few_clauses() {
    let text = "kind = \"tour\"\nboard = \"64x64\"\nknights = [\"d1\", \"any\"]\n\
                targets = [\"h6\", \"c8\"]\norder = \"listed\"\n";
    let path = puzzle_file("certify-any-64.toml", text);
    let dir = fresh_dir("any-64");
    let run = knights_sat(&["solve", "--quiet", path.to_str().unwrap(), "--certify", dir.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let line = run.stdout.lines().find(|l| l.starts_with("certificate: ")).expect("the certificate line");
    let clauses: usize = line
        .split(" clauses")
        .next()
        .and_then(|before| before.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the clause count: {}", run.stdout));
    assert!(clauses < 1_000_000, "{clauses} clauses: {}", run.stdout);
    assert_verified(&dir, "3", "3 <= obj <= 3");
}

#[test]
fn a_weighted_placement_is_certified_at_the_exhaustive_optimum() {
    use knights_sat::encodings::ground_truth::placement::optimal_placement;
    // Queens weigh 3 and knights 2 on 4x4: the cheapest cover mixes them.
    let text = "kind = \"domination\"\nboard = \"4x4\"\npieces = \"QN\"\n\
                limits.Q = { weight = 3 }\nlimits.N = { weight = 2 }\n";
    let path = puzzle_file("certify-weighted.toml", text);
    let puzzle = knights_sat::encodings::puzzle::load(&path).unwrap();
    let optimum = optimal_placement(puzzle.placement().unwrap(), 50_000_000).unwrap().unwrap();
    let dir = certify(path.to_str().unwrap(), "weighted");
    assert_verified(&dir, &optimum.to_string(), &format!("{optimum} <= obj <= {optimum}"));
    let model = std::fs::read_to_string(dir.join("model.opb")).unwrap();
    assert!(model.contains("+3 x1 +2 x2"), "{}", model.lines().find(|l| l.starts_with("min:")).unwrap_or_default());
}

#[test]
fn a_tour_of_time_steps_is_certified() {
    use knights_sat::encodings::ground_truth::tour::optimal_tour;
    let path = "puzzles/two-knights-two-queens.toml";
    let puzzle = knights_sat::encodings::puzzle::load(std::path::Path::new(path)).unwrap();
    let optimum = optimal_tour(puzzle.tour().unwrap(), 5_000_000).unwrap().unwrap();
    let dir = certify(path, "steps");
    let steps = optimum.steps;
    assert_verified(&dir, &steps.to_string(), &format!("{steps} <= obj <= {steps}"));
    assert!(verify(&dir).stdout.contains(&format!("value {steps} time steps")));
}

#[test]
fn a_puzzle_given_by_flags_is_certified_with_the_puzzle_written_out() {
    let dir = fresh_dir("inline");
    let run = knights_sat(&[
        "solve",
        "--quiet",
        "--certify",
        dir.to_str().unwrap(),
        "domination",
        "--board",
        "5x5",
        "--pieces",
        "N",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let puzzle = std::fs::read_to_string(dir.join("puzzle.toml")).unwrap();
    assert!(puzzle.starts_with("kind = \"domination\"\n") && puzzle.contains("board = \"5x5\""), "{puzzle}");
    assert_verified(&dir, "5", "5 <= obj <= 5");
}

#[test]
fn a_certificate_of_the_search_tree_is_checked_bound_by_bound() {
    let dir = fresh_dir("tree");
    let run = knights_sat(&[
        "solve",
        "--quiet",
        "domination",
        "--board",
        "8x8",
        "--pieces",
        "Q",
        "--threads",
        "2",
        "--certify",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("the search's tree, "), "{}", run.stdout);
    assert_verified(&dir, "5", "5 <= obj <= 5");
    let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
    let bounds = proof.lines().filter(|l| l.starts_with("pol ")).count();
    assert!(bounds >= 10, "a tree of {bounds} bounds");

    // Every bound without the objective-improving constraint (the rows alone): the nodes
    // pruned by the best placement's cost no longer follow.
    // `soli` adds the first constraint after the model's `f` rows.
    let f: usize = proof.lines().nth(1).unwrap().trim_start_matches("f ").trim().parse().unwrap();
    let improving = f + 1;
    let dir2 = copy(&dir, "tree-no-objective");
    let suffix = format!(" {improving} 1048576 * +");
    edit_lines(&dir2, "proof.pbp", |line| match line.strip_suffix(&suffix) {
        Some(rest) if line.starts_with("pol ") => rest.to_string(),
        _ => line.to_string(),
    });
    assert_ne!(std::fs::read_to_string(dir2.join("proof.pbp")).unwrap(), proof, "the objective was in the bounds");
    let run = verify(&dir2);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof: VeriPB rejects proof.pbp"), "{}", run.stdout);

    // A node closed from its two children names both as hints: with one of them left out,
    // propagating the other and the node's decisions no longer conflicts.
    let pairs: Vec<usize> = proof
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            line.starts_with("rup ") && line.rsplit(';').next().unwrap().split_whitespace().count() == 2
        })
        .map(|(i, _)| i)
        .collect();
    assert!(!pairs.is_empty(), "no node closed from its children by hints");
    let dir3 = copy(&dir, "tree-one-hint");
    edit(&dir3, "proof.pbp", |t| {
        let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
        let line = &mut lines[pairs[pairs.len() / 2]];
        *line = line.rsplit_once(' ').unwrap().0.to_string();
        lines.join("\n") + "\n"
    });
    let run = verify(&dir3);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof: VeriPB rejects proof.pbp"), "{}", run.stdout);
}

#[test]
fn a_subtree_met_again_under_the_same_symmetry_is_closed_once() {
    // Knight total domination 11x11 on one thread: replays within replays come back to nodes
    // under symmetries they were closed under, and the proof takes those clauses again.
    let dir = fresh_dir("tree-reused");
    let run = knights_sat(&[
        "solve",
        "--quiet",
        "total-domination",
        "--board",
        "11x11",
        "--pieces",
        "N",
        "--threads",
        "1",
        "--certify",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let reused: usize = run
        .stdout
        .split(" subtrees used again")
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no subtree used again: {}", run.stdout));
    assert!(reused > 0, "{}", run.stdout);
    let value = run
        .stdout
        .split("optimal: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("{}", run.stdout))
        .to_string();
    assert_verified(&dir, &value, &format!("{value} <= obj <= {value}"));
}

/// On a board of nine squares the horizon search certifies itself: it runs on the certified
/// model of at most `T` moves, whose horizon `solution.txt` states, and a horizon that does
/// not fit or that names another model is refused.
#[test]
fn guarinis_exchange_certifies_itself_as_it_runs() {
    let dir = fresh_dir("guarini-traced");
    let run = knights_sat(&["solve", "--quiet", "puzzles/guarini.toml", "--certify", dir.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("the search's own trace, 16 horizons refuted"), "{}", run.stdout);
    assert_verified(&dir, "16", "16 <= obj <= 16");
    let solution = std::fs::read_to_string(dir.join("solution.txt")).unwrap();
    let horizon: usize = solution.lines().nth(2).and_then(|l| l.strip_prefix("horizon ")).unwrap().parse().unwrap();
    assert!(horizon >= 16, "{solution}");
    let model = std::fs::read_to_string(dir.join("model.opb")).unwrap();
    assert!(model.contains(&format!("in at most {horizon} moves")), "the model is not the stated horizon's");

    // A horizon below the value is refused before anything is checked.
    let below = copy(&dir, "guarini-traced-below");
    edit(&below, "solution.txt", |t| t.replacen(&format!("horizon {horizon}"), "horizon 15", 1));
    let run = verify(&below);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("horizon 15 is out of range"), "{}", run.stderr);
    // Another horizon names another model, which model.opb is not.
    let other = copy(&dir, "guarini-traced-other");
    edit(&other, "solution.txt", |t| t.replacen(&format!("horizon {horizon}"), &format!("horizon {}", horizon + 1), 1));
    let run = verify(&other);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL b. model"), "{}", run.stdout);
    // A refuted horizon's unit dropped: the rest no longer follows.
    let dropped = copy(&dir, "guarini-traced-unit");
    edit(&dropped, "proof.pbp", |t| {
        let moved = model.lines().find(|l| l.ends_with("= moved_t9")).unwrap();
        let var = moved.trim_start_matches("* ").split(' ').next().unwrap().to_string();
        let unit = format!("rup 1 {var} >= 1 ;");
        assert!(t.contains(&unit), "no unit {unit}");
        t.replacen(&format!("{unit}\n"), "", 1)
    });
    let run = verify(&dropped);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof"), "{}", run.stdout);
    // A bound one too high, in the conclusion and the solution, is rejected.
    let higher = copy(&dir, "guarini-traced-higher");
    edit(&higher, "proof.pbp", |t| t.replacen("conclusion BOUNDS 16 :", "conclusion BOUNDS 17 :", 1));
    let run = verify(&higher);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof"), "{}", run.stdout);
}

#[test]
fn guarinis_exchange_is_certified_with_its_moves_in_canonical_order() {
    let dir = fresh_dir("guarini-canonical");
    let run = knights_sat(&[
        "solve",
        "--quiet",
        "puzzles/guarini.toml",
        "--certify",
        dir.to_str().unwrap(),
        "--certify-canonical-order",
        "always",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("swaps of moves ruled out by dominance"), "{}", run.stdout);
    assert_verified(&dir, "16", "16 <= obj <= 16");
    let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
    assert!(proof.lines().any(|l| l.starts_with("load_order potential")), "no order loaded");
    // Without `--certify`, the flag is refused.
    let run = knights_sat(&["solve", "--quiet", "puzzles/guarini.toml", "--certify-canonical-order", "always"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    // A value it does not know is named.
    let dir = fresh_dir("guarini-canonical-bad");
    let args =
        ["solve", "puzzles/guarini.toml", "--certify", dir.to_str().unwrap(), "--certify-canonical-order", "often"];
    let run = knights_sat(&args);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("`--certify-canonical-order often`: give auto, always or never"), "{}", run.stderr);
}

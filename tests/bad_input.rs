//! Malformed and impossible puzzles: one clear message naming the file, line and field, exit
//! code 2, and never a panic.

mod common;

use common::{knights_sat, puzzle_file};

const SIDES: &str = "[[side]]\nname = \"white\"\nstart = [\"Na1\", \"Nc1\"]\n\n[[side]]\nname = \"black\"\nstart = [\"Na3\", \"Nc3\"]\n";

/// Runs `solve` on `text` and checks the message names `file:line` and `field`.
fn rejects(name: &str, text: &str, line: usize, field: &str, says: &str) {
    let path = puzzle_file(name, text);
    let run = knights_sat(&["solve", path.to_str().unwrap()]);
    let message = run.stderr.trim();
    assert_eq!(run.code, 2, "{name}: exit code; stderr: {message}");
    assert!(!message.contains("panicked"), "{name}: {message}");
    assert!(run.stdout.is_empty(), "{name}: nothing on stdout: {}", run.stdout);
    assert_eq!(message.lines().count(), 1, "{name}: one line: {message}");
    let location = format!("{}:{line}:", path.display());
    assert!(message.contains(&location), "{name}: expected `{location}` in: {message}");
    assert!(message.contains(field), "{name}: expected field `{field}` in: {message}");
    assert!(message.contains(says), "{name}: expected `{says}` in: {message}");
}

#[test]
fn unknown_piece() {
    let text = format!("kind = \"exchange\"\nboard = \"3x3\"\nswap = true\n\n{}", SIDES.replace("\"Nc1\"", "\"Xc1\""));
    rejects("unknown-piece.toml", &text, 7, "side[0].start[1]", "Xc1");
}

#[test]
fn square_off_the_board() {
    let text = format!("kind = \"exchange\"\nboard = \"3x3\"\nswap = true\n\n{}", SIDES.replace("\"Na3\"", "\"Nd3\""));
    rejects("off-board.toml", &text, 11, "side[1].start[0]", "off the 3x3 board");
}

#[test]
fn two_pieces_on_one_square() {
    let text = format!("kind = \"exchange\"\nboard = \"3x3\"\nswap = true\n\n{}", SIDES.replace("\"Na3\"", "\"Na1\""));
    rejects("two-on-one.toml", &text, 11, "side[1].start[0]", "two pieces on a1");
}

#[test]
fn start_and_goal_with_different_counts() {
    let text = "kind = \"exchange\"\nboard = \"3x3\"\n\n[[side]]\nname = \"white\"\nstart = [\"Na1\", \"Nc1\"]\n\
                goal = [\"Na3\"]\n";
    rejects("count.toml", text, 7, "side[0].goal", "2 knight(s) at the start but 1 in the goal");
}

#[test]
fn unknown_field() {
    let text = format!("kind = \"exchange\"\nboard = \"3x3\"\nswap = true\ncolour = \"red\"\n\n{SIDES}");
    rejects("unknown-field.toml", &text, 4, "colour", "unknown field");
}

#[test]
fn unknown_field_in_a_side() {
    let text = format!(
        "kind = \"exchange\"\nboard = \"3x3\"\nswap = true\n\n{}",
        SIDES.replace("name = \"black\"", "name = \"black\"\nteam = 2")
    );
    rejects("unknown-side-field.toml", &text, 11, "team", "unknown field");
}

#[test]
fn bad_board_size_kind_and_syntax() {
    rejects("size.toml", &format!("kind = \"exchange\"\nboard = \"3by3\"\nswap = true\n{SIDES}"), 2, "board", "3by3");
    rejects("huge.toml", &format!("kind = \"exchange\"\nboard = \"0x3\"\nswap = true\n{SIDES}"), 2, "board", "0x3");
    rejects("kind.toml", &format!("kind = \"exchnage\"\nboard = \"3x3\"\n{SIDES}"), 1, "kind", "exchnage");
    rejects("syntax.toml", "kind = \"exchange\"\nboard = 3x3\n", 2, "board", "");
    rejects(
        "pawns.toml",
        &format!(
            "kind = \"exchange\"\nboard = \"3x3\"\nswap = true\n{}",
            SIDES.replace("name = \"white\"", "name = \"white\"\npawns = \"sideways\"")
        ),
        6,
        "side[0].pawns",
        "sideways",
    );
}

#[test]
fn missing_file_and_not_utf8() {
    let run = knights_sat(&["solve", "no/such/puzzle.toml"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no/such/puzzle.toml") && run.stderr.contains("cannot read"), "{}", run.stderr);
    let path = puzzle_file("binary.toml", "");
    std::fs::write(&path, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let run = knights_sat(&["solve", path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"));
}

#[test]
fn bad_inline_puzzles_name_the_flag() {
    for (args, flag) in [
        (vec!["--board", "3x3", "--white", "Na9", "--swap"], "--white"),
        (vec!["--board", "3x3", "--white", "Na1", "--black", "Na1", "--swap"], "--black"),
        (vec!["--board", "3x3", "--white", "Qa1", "--goal-white", "Qa2,Qb2"], "--goal"),
        (vec!["--board", "3x", "--white", "Na1", "--swap"], "--board"),
    ] {
        let run = knights_sat(&[&["solve", "exchange"][..], &args].concat());
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("command line") && run.stderr.contains(flag), "{args:?}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"));
    }
}

#[test]
fn bad_placement_files() {
    rejects("letter.toml", "kind = \"domination\"\nboard = \"4x4\"\npieces = \"NX\"\n", 3, "pieces", "X");
    rejects(
        "field.toml",
        "kind = \"independence\"\nboard = \"4x4\"\npieces = \"N\"\ncolour = 1\n",
        4,
        "colour",
        "unknown field",
    );
    rejects(
        "limits.toml",
        "kind = \"domination\"\nboard = \"4x4\"\npieces = \"N\"\n[limits]\nB = { max = 2 }\n",
        5,
        "limits.B",
        "not one of the pieces",
    );
    rejects(
        "fixed.toml",
        "kind = \"domination\"\nboard = \"4x4\"\npieces = \"N\"\nfixed = [\"Ne9\"]\n",
        4,
        "fixed[0]",
        "off the 4x4 board",
    );
    rejects(
        "attacks.toml",
        "kind = \"domination\"\nboard = \"4x4\"\npieces = \"Q\"\nattacks = \"through\"\n",
        4,
        "attacks",
        "`blocked` (placed pieces stop sliders), not `through`",
    );
}

#[test]
fn bad_inline_placements_name_the_flag() {
    for (args, flag) in [
        (vec!["--board", "4x4", "--pieces", "Q", "--attacks", "through"], "--attacks"),
        (vec!["--board", "4x4", "--pieces", "P", "--pawns", "sideways"], "--pawns"),
    ] {
        let run = knights_sat(&[&["solve", "domination"][..], &args].concat());
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("command line") && run.stderr.contains(flag), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(args[5]), "{args:?}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"));
    }
}

const TOUR: &str = "kind = \"tour\"\nboard = \"8x8\"\nattackers = [\"Qd5\"]\nknights = [\"h8\"]\n";

#[test]
fn tours_name_the_field_at_fault() {
    rejects(
        "tour-unsafe-start.toml",
        &TOUR.replace("\"h8\"", "\"g8\""),
        4,
        "knights[0]",
        "attacked by the queen on d5",
    );
    let shared = TOUR.replace("[\"h8\"]", "[\"h8\", \"a1\", \"h8\"]");
    rejects("tour-shared-start.toml", &shared, 4, "knights[2]", "knights 1 and 3 both start on h8");
    let target = format!("{TOUR}targets = [\"h8\", \"d1\"]\n");
    rejects("tour-unsafe-target.toml", &target, 5, "targets[1]", "d1 can never be touched");
    let repeated = format!("{TOUR}targets = [\"h8\", \"f8\", \"h8\"]\n");
    rejects("tour-repeated-target.toml", &repeated, 5, "targets[2]", "listed twice");
    rejects("tour-bad-attacker.toml", &TOUR.replace("Qd5", "Xd5"), 3, "attackers[0]", "unknown piece letter");
    rejects("tour-moving-queen.toml", &TOUR.replace("\"h8\"", "\"Qh8\""), 4, "knights[0]", "knights are the only");
    let order = format!("{TOUR}order = \"sideways\"\n");
    rejects("tour-bad-order.toml", &order, 5, "order", "`any` or `listed`");
    let unlisted = format!("{TOUR}order = \"listed\"\n");
    rejects("tour-listed-without-targets.toml", &unlisted, 5, "order", "needs a `targets` list");
    let objective = format!("{TOUR}objective = \"fastest\"\n");
    rejects("tour-bad-objective.toml", &objective, 5, "objective", "`moves`, `steps` or `feasible`");
    rejects("tour-no-knights.toml", &TOUR.replace("[\"h8\"]", "[]"), 4, "knights", "at least one knight");
}

#[test]
fn an_unreachable_tour_is_infeasible_not_an_error() {
    let path =
        puzzle_file("tour-walled.toml", "kind = \"tour\"\nboard = \"3x3\"\nknights = [\"a1\"]\ntargets = [\"b2\"]\n");
    let run = knights_sat(&["solve", path.to_str().unwrap()]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stdout.contains("no knight can ever reach the target b2"), "{}", run.stdout);
}

/// Runs the binary with `args` and checks that it refuses them at once: exit 2, no panic, and
/// a message that says `says`.
fn refuses(args: &[&str], says: &str) {
    let run = knights_sat(args);
    assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
    assert!(run.stdout.is_empty(), "{args:?}: nothing on stdout: {}", run.stdout);
    assert!(run.stderr.contains(says), "{args:?}: expected `{says}` in: {}", run.stderr);
}

#[test]
fn listing_starts_is_refused_where_there_are_none_to_list() {
    refuses(&["solve", "puzzles/guarini.toml", "--list-starts"], "--list-starts is for tours");
    refuses(&["solve", "puzzles/knights-domination-8x8.toml", "--list-starts"], "kind `domination`");
    #[cfg(feature = "mip")]
    refuses(&["solve", "puzzles/queen-d5-tour.toml", "--list-starts", "--backend", "mip"], "not HiGHS");
}

#[test]
fn numbers_out_of_range_are_refused_before_any_work() {
    refuses(&["solve", "puzzles/guarini.toml", "--timeout", "1e20"], "--timeout 100000000000000000000");
    refuses(&["solve", "puzzles/guarini.toml", "--timeout=-1"], "positive number of seconds");
    refuses(&["bench", "--timeout", "1e20"], "at most 31536000");
    refuses(&["solve", "puzzles/guarini.toml", "--max-horizon", "100000000"], "--max-horizon 100000000");
    refuses(&["export", "puzzles/guarini.toml", "--horizon", "100000000"], "--horizon 100000000");
    refuses(&["solve", "domination", "--board", "1x1", "--removed", "a1", "--pieces", "N"], "every square");
    refuses(&["solve", "domination", "--board", "65x65", "--pieces", "N"], "--board");
}

#[test]
fn a_legal_horizon_too_big_to_write_is_refused_before_it_is_built() {
    let exchange = puzzle_file(
        "exchange-8x8.toml",
        "kind = \"exchange\"\nboard = \"8x8\"\nswap = true\n\n[[side]]\nname = \"white\"\n\
         start = [\"Na1\", \"Nb1\"]\n\n[[side]]\nname = \"black\"\nstart = [\"Na8\", \"Nb8\"]\n",
    );
    refuses(&["export", exchange.to_str().unwrap(), "--horizon", "100000"], "clauses");
    // Found by tests/fuzz.rs: on 64x64, sliders make the linear models of an exchange gigabytes
    // large (a horizon of 1 already), and listing its positions for the network-flow model too.
    let wide = puzzle_file(
        "exchange-64x64.toml",
        "kind = \"exchange\"\nboard = \"64x64\"\n\n[[side]]\nname = \"white\"\n\
         start = [\"Ra1\", \"Nb1\", \"Kc1\"]\ngoal = [\"Rbl64\", \"Nbk64\", \"Kbj64\"]\n",
    );
    let wide = wide.to_str().unwrap();
    refuses(&["export", wide, "--format", "lp", "--horizon", "1"], "terms in the linear model");
    refuses(&["export", wide, "--format", "opb"], "network-flow model");
    // Solved, the rook reaches the whole board in two moves, and the third step alone would take
    // tens of millions of clauses: refused before it is built, not after gigabytes. The horizons
    // refuted before it stay proved: the search stops as at a time limit, with its bound.
    let run = knights_sat(&["solve", wide, "--quiet"]);
    assert_eq!(run.code, 4, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("proved impossible"), "the bound so far: {}", run.stdout);
    assert!(run.stdout.contains("a step of this search may take"), "{}", run.stdout);
    let run = knights_sat(&["solve", wide, "--quiet", "--json"]);
    assert_eq!(run.code, 4);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    assert_eq!(json["status"], "unknown");
    assert!(json["bound"].as_u64().is_some_and(|b| b >= 2), "{}", run.stdout);
    assert!(json["stopped"].as_str().is_some_and(|s| s.contains("a step of this search may take")), "{}", run.stdout);
    // The MIP backend's time-indexed model is sized before it is built, as an export's is.
    if cfg!(feature = "mip") {
        refuses(&["solve", wide, "--backend", "mip", "--quiet"], "HiGHS is given");
    }
    // Found by tests/fuzz.rs: a free start on 64x64 touches 4,096 targets, and the goal of
    // horizon 33 alone (a distance-to-go clause per target and time, each over every cell)
    // would take billions of literals; refused before it is built, by export and by solve.
    let free = puzzle_file("tour-64x64.toml", "kind = \"tour\"\nboard = \"64x64\"\nknights = [\"any\"]\n");
    refuses(&["export", free.to_str().unwrap(), "--horizon", "33"], "literals");
    // Found by tests/fuzz.rs: branch and bound on 36 mixed pieces would keep a dense basis of
    // 18,236 conflict rows, 2.7 GB per thread; refused with the strategy that takes it named.
    refuses(&["solve", "puzzles/independence-mixed-8x8.toml", "--strategy", "branch-and-bound"], "core-guided");
}

/// Every step small, the whole too large: a knight that must touch all 4,096 squares of 64x64
/// grows its formula one step at a time (with `--no-distance-to-go`, no goal is refused), and
/// the count of untouched targets adds a totalizer per step. Before this limit the solver ran
/// out of memory and aborted near horizon 130; now the search stops with the horizons it
/// refuted, as at a time limit.
#[test]
fn a_formula_grown_past_its_limit_stops_the_search_with_its_bound() {
    let run = knights_sat(&["solve", "tour", "--board", "64x64", "--knights", "a1", "--no-distance-to-go", "--quiet"]);
    assert_eq!(run.code, 4, "{}{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(run.stdout.contains("moves proved impossible"), "the bound so far: {}", run.stdout);
    assert!(run.stdout.contains("one search may hold"), "{}", run.stdout);
}

#[test]
fn weights_too_large_and_bounds_too_big_for_the_totalizer_are_refused() {
    let heavy = puzzle_file(
        "heavy.toml",
        "kind = \"domination\"\nboard = \"8x8\"\npieces = \"N\"\n[limits]\nN = { weight = 100000000 }\n",
    );
    refuses(&["solve", heavy.to_str().unwrap(), "--strategy", "sat-unsat"], "too large");
    // Legal weights whose totalizer would count millions of inputs: refused, with the encodings
    // that take them named.
    let weighty = puzzle_file(
        "weighty.toml",
        "kind = \"domination\"\nboard = \"8x8\"\npieces = \"N\"\n[limits]\nN = { weight = 100000 }\n",
    );
    let weighty = weighty.to_str().unwrap();
    refuses(&["solve", weighty, "--strategy", "sat-unsat"], "--encoding gte");
    refuses(&["export", weighty, "--bound", "3"], "totalizer");
    // The same weights under an encoding that takes them are solved (12 knights of weight 100000).
    let run = knights_sat(&["solve", weighty, "--strategy", "sat-unsat", "--encoding", "gte", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\"value\": 1200000") || run.stdout.contains("\"value\":1200000"), "{}", run.stdout);
}

#[test]
fn verify_refuses_a_stated_value_out_of_range_before_building_its_model() {
    let dir = common::Scratch::new("tests", "huge-value");
    std::fs::create_dir_all(&dir).unwrap();
    let puzzle = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/guarini.toml")).unwrap();
    std::fs::write(dir.join("puzzle.toml"), puzzle).unwrap();
    std::fs::write(dir.join("model.opb"), "").unwrap();
    std::fs::write(dir.join("proof.pbp"), "").unwrap();
    for value in ["100000000", "18446744073709551615"] {
        std::fs::write(dir.join("solution.txt"), format!("knights-sat solution\nvalue {value}\n")).unwrap();
        refuses(&["verify", dir.to_str().unwrap()], "out of range");
    }
}

#[test]
fn a_proof_number_past_sixty_four_bits_fails_the_check_without_a_panic() {
    // Found by tests/fuzz.rs: VeriPB panics on such a number; `verify` names the line instead.
    let dir = common::Scratch::new("tests", "big-number");
    let run =
        knights_sat(&["solve", "puzzles/knights-domination-8x8.toml", "--quiet", "--certify", dir.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let proof = std::fs::read_to_string(dir.join("proof.pbp")).unwrap();
    let mut lines: Vec<String> = proof.lines().map(String::from).collect();
    let at = lines.iter().position(|l| l.starts_with("pol ")).expect("a pol step");
    let rest = lines[at].split_once(' ').unwrap().1.split_once(' ').unwrap().1.to_string();
    lines[at] = format!("pol 18446744073709551616 {rest}");
    std::fs::write(dir.join("proof.pbp"), lines.join("\n") + "\n").unwrap();
    let run = knights_sat(&["verify", dir.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(
        run.stdout.contains(&format!("malformed input at {}:{}", dir.join("proof.pbp").display(), at + 1)),
        "{}",
        run.stdout
    );
}

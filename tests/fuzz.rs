//! Fuzzing on stable Rust: property tests feed the puzzle parser and the binary generated puzzle
//! files — well-formed, mutated and random bytes — with random flag combinations, and demand a
//! documented exit code (0, 2, 3 or 4; `verify` also 1, a failed part), never a panic, an abort
//! or more memory than a cap.
//!
//! CI runs a few dozen cases of each property, always the same ones. A longer campaign raises
//! the count and draws other cases, e.g.
//! `KNIGHTS_SAT_FUZZ_CASES=2000 KNIGHTS_SAT_FUZZ_SEED=7 cargo test --release --test fuzz`; a failure is shrunk by
//! proptest to a small input, which then belongs in `tests/bad_input.rs`. With
//! `KNIGHTS_SAT_FUZZ_LOG=1` every run of the binary prints a `fuzz-run` line (command, exit code,
//! first line of its message) for the campaign's tally.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::Scratch;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};

/// The address space a run of the binary may use (2 GiB): a runaway allocation aborts it, which
/// the property reports.
const MEMORY_CAP: u64 = 2 << 30;
/// The time limit given to every `solve`.
const SOLVE_SECONDS: &str = "1";
/// A run still going after this long is a runaway (every run asked for at most seconds).
const RUNAWAY: Duration = Duration::from_secs(120);

/// Cases per property: `KNIGHTS_SAT_FUZZ_CASES`, or `default`. The cases come from a fixed seed,
/// so that CI runs the same ones every time; `KNIGHTS_SAT_FUZZ_SEED=N` draws others (a campaign
/// gives a new seed each run).
fn config(default: u32) -> Config {
    let number = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let cases = number("KNIGHTS_SAT_FUZZ_CASES").map_or(default, |n| n.min(u64::from(u32::MAX)) as u32);
    let seed = number("KNIGHTS_SAT_FUZZ_SEED").unwrap_or(0x6675_7a7a);
    Config { cases, failure_persistence: None, rng_seed: RngSeed::Fixed(seed), ..Config::default() }
}

/// A fresh directory for one case's files, made now and removed when the case ends (a failing
/// case is reported with its input, from which the files are made again).
fn scratch(name: &str) -> Scratch {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = Scratch::new("fuzz", &format!("{}-{name}", NEXT.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// What one run of the binary ended with.
struct Ended {
    code: Option<i32>,
    stderr: String,
}

/// Runs the binary under the memory cap and waits for it, killing it as a runaway after
/// [`RUNAWAY`].
fn run(args: &[String]) -> Ended {
    let mut command = Command::new(env!("CARGO_BIN_EXE_knights-sat"));
    command.args(args).current_dir(env!("CARGO_MANIFEST_DIR")).stdout(Stdio::null()).stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: `setrlimit` is async-signal-safe, and nothing else runs between fork and exec.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit { rlim_cur: MEMORY_CAP, rlim_max: MEMORY_CAP };
                libc::setrlimit(libc::RLIMIT_AS, &limit);
                Ok(())
            });
        }
    }
    let mut child = command.spawn().expect("the binary starts");
    let stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if started.elapsed() > RUNAWAY {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stderr = reader.join().unwrap_or_default();
    Ended { code: status.and_then(|s| s.code()), stderr }
}

/// Checks that a run ended on its own with one of `allowed` exit codes and no panic.
fn documented(args: &[String], ended: &Ended, allowed: &[i32]) -> Result<(), TestCaseError> {
    let context = || format!("knights-sat {}\nstderr: {}", args.join(" "), ended.stderr);
    if std::env::var_os("KNIGHTS_SAT_FUZZ_LOG").is_some() {
        // One line per run, for a campaign's tally: the command, the exit code, the message.
        let message = ended.stderr.lines().next().unwrap_or("");
        eprintln!("fuzz-run {} {:?} {message}", args[0], ended.code);
    }
    prop_assert!(ended.code.is_some(), "killed (signal, abort or runaway): {}", context());
    prop_assert!(allowed.contains(&ended.code.unwrap_or(-1)), "exit code {:?}: {}", ended.code, context());
    prop_assert!(!ended.stderr.contains("panicked"), "a panic: {}", context());
    Ok(())
}

/// The name of file `f` and rank `r` (both from 0), as in `a1`.
fn name(f: usize, r: usize) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// A square of a `w`x`h` board; one in twenty is off the board or malformed.
fn square(w: usize, h: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        19 => (0..w, 0..h).prop_map(|(f, r)| name(f, r)),
        1 => prop_oneof![Just("z9".to_string()), Just("a0".to_string()), Just(name(w, 0)), Just("a99".to_string())],
    ]
}

/// A kind letter; one in twenty is none (a pawn) or a wrong one.
fn letter() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        19 => proptest::sample::select(&["K", "Q", "R", "B", "N", "P"][..]),
        1 => proptest::sample::select(&["", "X"][..]),
    ]
}

/// A TOML list of strings.
fn list(items: Vec<String>) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("{i:?}")).collect();
    format!("[{}]", quoted.join(", "))
}

/// A board (files, ranks and its size as written), mostly small enough to solve in a second;
/// one in fifteen is at or past the limits or malformed.
fn board() -> impl Strategy<Value = (usize, usize, String)> {
    prop_oneof![
        14 => (1..=5usize, 1..=5usize).prop_map(|(w, h)| (w, h, format!("{w}x{h}"))),
        1 => prop_oneof![
            Just((8, 8, "64x64".to_string())),
            Just((8, 8, "65x3".to_string())),
            Just((4, 4, "0x4".to_string())),
            Just((3, 3, "3 by 3".to_string())),
        ],
    ]
}

/// `n` distinct squares of a `w`x`h` board, in random order.
fn distinct_squares(w: usize, h: usize, n: std::ops::Range<usize>) -> impl Strategy<Value = Vec<String>> {
    let all: Vec<String> = (0..w * h).map(|i| name(i % w, i / w)).collect();
    let most = all.len();
    Just(all).prop_shuffle().prop_flat_map(move |all| {
        let n = n.start.min(most)..n.end.min(most + 1).max(n.start.min(most) + 1);
        proptest::sample::subsequence(all, n).prop_shuffle()
    })
}

/// An exchange puzzle file, mostly well formed: one to three sides whose goals hold the same
/// pieces as their starts (or `swap`), on distinct squares.
fn exchange() -> impl Strategy<Value = String> {
    board()
        .prop_flat_map(|(w, h, size)| {
            let pieces = proptest::collection::vec((letter(), 0..3usize), 1..7);
            let starts = distinct_squares(w, h, 2..7);
            let goals = distinct_squares(w, h, 2..7);
            (Just(size), pieces, starts, goals, any::<bool>(), proptest::collection::vec(square(w, h), 0..2))
        })
        .prop_map(|(size, mut pieces, starts, goals, swap, removed)| {
            if swap {
                // The two sides swap, so they hold the same pieces: the odd ones copy the even ones.
                for i in (1..pieces.len()).step_by(2) {
                    pieces[i].0 = pieces[i - 1].0;
                }
                let pairs = (pieces.len().min(starts.len()) / 2 * 2).max(2);
                pieces.truncate(pairs);
            }
            let mut text = format!("kind = \"exchange\"\nboard = \"{size}\"\nremoved = {}\n", list(removed));
            let sides = if swap { 2 } else { 1 + pieces.iter().map(|p| p.1).max().unwrap_or(0) };
            if swap {
                text.push_str("swap = true\n");
            }
            for side in 0..sides {
                let mine = || {
                    pieces
                        .iter()
                        .zip(starts.iter().zip(&goals))
                        .enumerate()
                        .filter(|(i, (p, _))| (if swap { i % 2 } else { p.1 }) == side)
                };
                let start: Vec<String> = mine().map(|(_, ((l, _), (s, _)))| format!("{l}{s}")).collect();
                let goal: Vec<String> = mine().map(|(_, ((l, _), (_, g)))| format!("{l}{g}")).collect();
                text.push_str(&format!("\n[[side]]\nname = \"s{side}\"\nstart = {}\n", list(start)));
                if !swap {
                    text.push_str(&format!("goal = {}\n", list(goal)));
                }
            }
            text
        })
}

/// A placement puzzle file, mostly well formed, with limits and weights sometimes far too big.
fn placement() -> impl Strategy<Value = String> {
    let goal =
        proptest::sample::select(&["domination", "independence", "total-domination", "independent-domination"][..]);
    let letters = prop_oneof![
        19 => proptest::sample::subsequence(vec!['K', 'Q', 'R', 'B', 'N', 'P'], 1..4)
            .prop_map(|kinds| kinds.into_iter().collect::<String>()),
        1 => "[KQRBNPX]{0,3}".prop_map(String::from),
    ];
    let number = prop_oneof![12 => 0..5u64, 1 => Just(100_000u64), 1 => Just(100_001), 1 => Just(i64::MAX as u64)];
    let limit = (
        letter(),
        proptest::option::of(number.clone()),
        proptest::option::of(number.clone()),
        proptest::option::of(number),
    );
    (board(), goal, letters, proptest::collection::vec(limit, 0..3), any::<(bool, bool)>())
        .prop_flat_map(|((w, h, size), goal, letters, limits, (blocked, down))| {
            let fixed = proptest::collection::vec((letter(), square(w, h)).prop_map(|(l, s)| format!("{l}{s}")), 0..2);
            (Just((size, goal, letters, limits, blocked, down)), proptest::collection::vec(square(w, h), 0..2), fixed)
        })
        .prop_map(|((size, goal, letters, limits, blocked, down), empty, fixed)| {
            let mut text = format!("kind = \"{goal}\"\nboard = \"{size}\"\npieces = \"{letters}\"\n");
            text.push_str(&format!("empty = {}\nfixed = {}\n", list(empty), list(fixed)));
            if blocked {
                text.push_str("attacks = \"blocked\"\n");
            }
            if down {
                text.push_str("pawns = \"down\"\n");
            }
            let mut seen = Vec::new();
            for (letter, min, max, weight) in limits {
                if seen.contains(&letter) || letter.is_empty() {
                    continue;
                }
                if seen.is_empty() {
                    text.push_str("\n[limits]\n");
                }
                let fields: Vec<String> = [("min", min), ("max", max), ("weight", weight)]
                    .into_iter()
                    .filter_map(|(key, value)| value.map(|v| format!("{key} = {v}")))
                    .collect();
                text.push_str(&format!("{letter} = {{ {} }}\n", fields.join(", ")));
                seen.push(letter);
            }
            text
        })
}

/// A tour puzzle file, mostly well formed.
fn tour() -> impl Strategy<Value = String> {
    board().prop_flat_map(|(w, h, size)| {
        let knight = prop_oneof![
            3 => square(w, h),
            1 => Just("any".to_string()),
            1 => (square(w, h), square(w, h)).prop_map(|(a, b)| format!("{a}|{b}")),
        ];
        let attacker = (letter(), square(w, h)).prop_map(|(l, s)| format!("{l}{s}"));
        let order = prop_oneof![9 => Just("any"), 9 => Just("listed"), 1 => Just("sideways")];
        let objective = proptest::sample::select(&["moves", "steps", "feasible"][..]);
        (
            Just(size),
            proptest::collection::vec(attacker, 0..3),
            proptest::collection::vec(knight, 1..3),
            proptest::option::of(distinct_squares(w, h, 1..5)),
            order,
            objective,
        )
            .prop_map(|(size, attackers, knights, targets, order, objective)| {
                let mut text = format!("kind = \"tour\"\nboard = \"{size}\"\nattackers = {}\n", list(attackers));
                text.push_str(&format!("knights = {}\nobjective = \"{objective}\"\n", list(knights)));
                if let Some(targets) = targets {
                    text.push_str(&format!("targets = {}\norder = \"{order}\"\n", list(targets)));
                }
                text
            })
    })
}

/// A puzzle file of any family.
fn puzzle_text() -> impl Strategy<Value = String> {
    prop_oneof![exchange(), placement(), tour()]
}

/// Tokens a mutation splices in: numbers at and past the limits, TOML syntax, odd names.
const TOKENS: &[&str] = &[
    "-1",
    "0",
    "1e20",
    "18446744073709551616",
    "100000",
    "99999999",
    "NaN",
    "\"",
    "[",
    "]",
    "{",
    "}",
    "=",
    "\n",
    "[[side]]",
    "kind = \"tour\"",
    "Qz9",
    "a0",
    "64x64",
    "\u{e9}",
    "#",
    ",",
    "true",
    "\"any\"",
];

/// A shipped puzzle file or a generated one, with a few random edits: a range cut out, a token
/// spliced in, a line repeated.
fn mutated() -> impl Strategy<Value = String> {
    let shipped: Vec<String> = ["guarini.toml", "queen-d5-tour.toml", "independence-mixed-8x8.toml", "finegold.toml"]
        .iter()
        .map(|f| {
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(f)).expect("shipped")
        })
        .collect();
    let base = prop_oneof![proptest::sample::select(shipped), puzzle_text()];
    (base, edits()).prop_map(|(text, edits)| edited(text, &edits))
}

/// One edit: what (cut, splice a token, repeat a line), where, how long, which token.
type Edit = (usize, proptest::sample::Index, usize, &'static str);

/// One to three random edits.
fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = (0..3usize, any::<proptest::sample::Index>(), 0..12usize, proptest::sample::select(TOKENS));
    proptest::collection::vec(edit, 1..4)
}

/// `text` with `edits` applied.
fn edited(mut text: String, edits: &[Edit]) -> String {
    for &(what, at, length, token) in edits {
        let mut at = at.index(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + length).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        match what {
            0 => text.replace_range(at..end, ""),
            1 => text.insert_str(at, token),
            _ => {
                let line = text[at..].lines().next().unwrap_or("").to_string();
                text.insert_str(at, &format!("{line}\n"));
            }
        }
    }
    text
}

/// Flags added to a `solve`: each sometimes, with good and bad values.
fn solve_flags() -> impl Strategy<Value = Vec<String>> {
    let one = prop_oneof![
        Just(vec!["--no-incremental".to_string()]),
        prop_oneof![
            Just("auto"),
            Just("branch-and-bound"),
            Just("sat-unsat"),
            Just("unsat-sat"),
            Just("binary"),
            Just("core-guided"),
            Just("magic")
        ]
        .prop_map(|s| vec!["--strategy".into(), s.into()]),
        prop_oneof![Just("totalizer"), Just("gte"), Just("dpw"), Just("adder"), Just("unary")]
            .prop_map(|s| vec!["--encoding".into(), s.into()]),
        prop_oneof![Just("pairwise"), Just("ladder"), Just("bimander"), Just("commander"), Just("bitwise"), Just("x")]
            .prop_map(|s| vec!["--at-most-one".into(), s.into()]),
        prop_oneof![Just("0"), Just("3"), Just("100000"), Just("100001"), Just("-2")]
            .prop_map(|s| vec!["--max-horizon".into(), s.into()]),
        prop_oneof![Just("0"), Just("1"), Just("2"), Just("9999999999")]
            .prop_map(|s| vec!["--threads".into(), s.into()]),
        prop_oneof![Just("0"), Just("0.001"), Just("-1"), Just("nan"), Just("1e30")]
            .prop_map(|s| vec![format!("--progress-every={s}")]),
        Just(vec!["--no-symmetry".to_string()]),
        Just(vec!["--no-cuts".to_string()]),
        Just(vec!["--no-local-search".to_string()]),
        Just(vec!["--no-row-branching".to_string()]),
        Just(vec!["--no-reduced-costs".to_string()]),
        Just(vec!["--no-dominance".to_string()]),
        Just(vec!["--no-canonical-order".to_string()]),
        Just(vec!["--no-distance-sum".to_string()]),
        Just(vec!["--no-distance-to-go".to_string()]),
        Just(vec!["--no-count-to-go".to_string()]),
        Just(vec!["--no-colour-count".to_string()]),
        Just(vec!["--list-starts".to_string()]),
        Just(vec!["--json".to_string()]),
        Just(vec!["--certify".to_string(), CERTIFY_HERE.to_string()]),
        prop_oneof![
            Just(["--backend", "mip"]),
            Just(["--solver", "cadical"]),
            Just(["--solver", "varisat"]),
            Just(["--solver", "portfolio"])
        ]
        .prop_map(|pair| pair.map(String::from).to_vec()),
    ];
    proptest::collection::vec(one, 0..4).prop_map(|flags| flags.concat())
}

/// Stands in the flags for the directory `--certify` writes into.
const CERTIFY_HERE: &str = "<certificate>";

/// Solves `text` from a file with `flags`, capped at a second, and checks how it ended; a
/// certificate written must then pass `verify`.
fn solve(text: &str, flags: &[String]) -> Result<(), TestCaseError> {
    let files = scratch("solve");
    let (path, dir) = (files.join("puzzle.toml"), files.join("certificate"));
    std::fs::write(&path, text).expect("temp file");
    let mut args: Vec<String> = vec!["solve".into(), path.display().to_string(), "--quiet".into()];
    args.extend(["--timeout".into(), SOLVE_SECONDS.into()]);
    args.extend(flags.iter().map(|f| if f == CERTIFY_HERE { dir.display().to_string() } else { f.clone() }));
    let ended = run(&args);
    // A model the certificates do not take is refused after the answer, with exit 1.
    let refused = ended.code == Some(1) && ended.stderr.contains("cannot certify");
    let certifying = flags.iter().any(|f| f == "--certify");
    documented(&args, &ended, if certifying && refused { &[1] } else { &[0, 2, 3, 4] })?;
    if ended.code == Some(0) && dir.join("model.opb").is_file() {
        let verify = vec!["verify".to_string(), dir.display().to_string()];
        let checked = run(&verify);
        if std::env::var_os("KNIGHTS_SAT_FUZZ_LOG").is_some() {
            eprintln!("fuzz-certified {:?}", checked.code);
        }
        prop_assert_eq!(
            checked.code,
            Some(0),
            "{:?} wrote a certificate that {:?} refused: {}",
            args,
            verify,
            checked.stderr
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(400))]

    /// The parser takes any text: a puzzle or an error, never a panic.
    #[test]
    fn the_parser_takes_any_text(text in prop_oneof![puzzle_text(), mutated(), ".{0,200}"]) {
        let _ = knights_sat::encodings::puzzle::parse(&text, "fuzz.toml");
    }

    /// Random bytes, not even UTF-8, as a puzzle file: exit 2 with a message, never a panic.
    #[test]
    fn random_bytes_are_refused(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let files = scratch("bytes");
        let path = files.join("bytes.toml");
        std::fs::write(&path, &bytes).expect("temp file");
        let args = vec!["solve".to_string(), path.display().to_string(), "--quiet".into()];
        let ended = run(&args);
        documented(&args, &ended, &[0, 2, 3, 4])?;
    }
}

proptest! {
    #![proptest_config(config(24))]

    /// Generated puzzles, solved with random flags.
    #[test]
    fn generated_puzzles_solve_or_are_refused(text in puzzle_text(), flags in solve_flags()) {
        solve(&text, &flags)?;
    }

    /// Shipped and generated puzzles with random edits, solved with random flags.
    #[test]
    fn mutated_puzzles_solve_or_are_refused(text in mutated(), flags in solve_flags()) {
        solve(&text, &flags)?;
    }

    /// Generated puzzles exported in every format, at a horizon or a bound.
    #[test]
    fn generated_puzzles_export_or_are_refused(
        text in puzzle_text(),
        format in prop_oneof![Just("dimacs"), Just("opb"), Just("lp")],
        at in prop_oneof![
            1 => Just(vec![]),
            6 => (0..40usize).prop_map(|t| vec!["--horizon".to_string(), t.to_string()]),
            3 => (0..40usize).prop_map(|k| vec!["--bound".to_string(), k.to_string()]),
        ],
    ) {
        let files = scratch("export");
        let path = files.join("export.toml");
        std::fs::write(&path, &text).expect("temp file");
        let mut args = vec!["export".to_string(), path.display().to_string(), "--format".into(), format.into()];
        args.extend(at);
        args.extend(["-o".to_string(), files.join("export.out").display().to_string()]);
        let ended = run(&args);
        documented(&args, &ended, &[0, 2])?;
    }
}

/// A certificate with one file edited: `verify` passes it (0), fails a part (1) or refuses it
/// as malformed (2), and never panics. The cases edit copies of one certificate of the 8x8
/// knight domination puzzle, written first.
#[test]
fn edited_certificates_are_judged() {
    let original = scratch("certificate");
    let args: Vec<String> = ["solve", "puzzles/knights-domination-8x8.toml", "--quiet", "--certify"]
        .iter()
        .map(|a| a.to_string())
        .chain([original.display().to_string()])
        .collect();
    let ended = run(&args);
    assert_eq!(ended.code, Some(0), "the certificate is written: {}", ended.stderr);
    let mut names: Vec<_> =
        std::fs::read_dir(&original).expect("certificate").map(|e| e.expect("entry").file_name()).collect();
    names.sort();
    let judged = TestRunner::new(config(16)).run(&(0..4usize, edits()), |(file, edits)| {
        let copy = scratch("edited");
        for name in &names {
            std::fs::copy(original.join(name), copy.join(name)).expect("copy");
        }
        let name = &names[file % names.len()];
        let text = std::fs::read_to_string(copy.join(name)).expect("a text file");
        std::fs::write(copy.join(name), edited(text, &edits)).expect("edit");
        let args = vec!["verify".to_string(), copy.display().to_string()];
        let ended = run(&args);
        documented(&args, &ended, &[0, 1, 2])
    });
    if let Err(failure) = judged {
        panic!("{failure}");
    }
}

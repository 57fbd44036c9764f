//! Job directories: a split written by `split` runs through the binary, resumes after a lost
//! cube and merges, for placements, exchanges and tours (certified: `certified_jobs`).

use super::common::{knights_sat, Scratch};
use super::scratch;

/// Guarini's exchange split into 8 cubes up to 16 moves, in the scratch directory `name`.
fn split_guarini(name: &str) -> Scratch {
    let dir = scratch(name);
    let path = dir.to_str().unwrap();
    let run = knights_sat(&["split", "puzzles/guarini.toml", "--out", path, "--cubes", "8", "--horizon", "16"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("8 cubes at depth 1"), "{}", run.stdout);
    dir
}

/// Knight domination of 14x14 split into at least 12 cubes, in the scratch directory `name`.
pub(super) fn split_knights_14x14(name: &str) -> Scratch {
    split_knights("14x14", name, "12")
}

/// Knight domination of `board` split into at least `cubes` cubes, in the scratch directory
/// `name`.
fn split_knights(board: &str, name: &str, cubes: &str) -> Scratch {
    let dir = scratch(name);
    let path = dir.to_str().unwrap();
    let puzzle = format!("puzzles/bench-domination/knights-{board}.toml");
    let run = knights_sat(&["split", &puzzle, "--out", path, "--cubes", cubes]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    dir
}

/// Guarini's exchange (16 moves, the published answer) through a job directory: split up to
/// 16 moves, every cube searched, the optimum merged; a lost result is named.
#[test]
fn an_exchange_is_split_into_positions_and_merged() {
    let dir = split_guarini("guarini");
    let path = dir.to_str().unwrap();
    // An exchange's cubes keep nothing when stopped: their script and `cube` say so.
    let script = std::fs::read_to_string(dir.join("run.sbatch")).unwrap();
    assert!(!script.contains("open.json"), "{script}");
    let run = knights_sat(&["cube", path, "0", "--time-limit", "5"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--time-limit: only a placement's cubes"), "{}", run.stderr);
    let run = knights_sat(&["cube", path, "--all", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 8, "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 16 moves; 15 moves proved impossible"), "{}", run.stdout);
    // Every cube searched again, one after the other: a cube that skips the route another
    // announced must not leave the job without it once that other is searched again too.
    let all: Vec<String> = (0..8).map(|i| i.to_string()).collect();
    let mut again = vec!["cube", path, "--again", "--threads", "1"];
    again.extend(all.iter().map(String::as_str));
    assert_eq!(knights_sat(&again).code, 0);
    let run = knights_sat(&["merge", path]);
    assert!(run.stdout.contains("optimal: 16 moves; 15 moves proved impossible"), "{}{}", run.stdout, run.stderr);
    std::fs::remove_file(dir.join("results/cube-3.json")).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 4);
    assert!(run.stderr.contains("have no result: 3\n"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);

    // One move short of the optimum: no route in any cube, so none within 15 moves.
    let run = knights_sat(&["split", "puzzles/guarini.toml", "--out", path, "--cubes", "8", "--horizon", "15"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(knights_sat(&["cube", path, "--all"]).code, 0);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("infeasible"), "{}", run.stdout);
}

/// A reader of `cube`'s lines that goes away after the first: the cubes are searched all the
/// same, and the run ends well (Guarini's exchange, 16 moves, the published answer).
#[test]
fn cubes_are_searched_when_no_one_reads_their_lines() {
    use std::io::BufRead as _;
    let dir = split_guarini("guarini-unread");
    let path = dir.to_str().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_knights-sat"))
        .args(["cube", path, "--all", "--threads", "2"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with("cube "), "{first}");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 16 moves; 15 moves proved impossible"), "{}", run.stdout);
}

/// SIGTERM, as Slurm sends at a task's time limit, stops `cube --all` with exit 4: no cube
/// starts after it, a cube it stops keeps its open nodes, and the next run finishes the job
/// (knight domination 14x14, 32 knights, OEIS A006075). The signal is sent once the binary
/// catches it, read off /proc rather than guessed from a delay.
#[cfg(target_os = "linux")]
#[test]
fn sigterm_stops_the_cubes_and_the_next_run_goes_on() {
    let dir = split_knights_14x14("knights-14x14-sigterm");
    let path = dir.to_str().unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_knights-sat"))
        .args(["cube", path, "--all", "--threads", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    super::common::signal_once_caught(child.id(), libc::SIGTERM);
    let output = child.wait_with_output().expect("the binary ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(4), "{stderr}");
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 4, "the signal stopped no cube: {stderr}");
    let kept = stderr.lines().filter(|l| l.contains("open nodes kept") || l.contains("open node kept")).count();
    let open = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".open.json"))
        .count();
    assert_eq!(kept, open, "each cube stopped part way says so and keeps its nodes: {stderr}");

    let run = knights_sat(&["cube", path, "--all"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert!(run.stdout.contains("optimal: 32 pieces; 31 pieces proved impossible"), "{}", run.stdout);
}

/// Knight domination of 14x14 (32 knights, OEIS A006075) through a job directory: split,
/// some cubes searched, the merge names the missing ones, the rest searched, the optimum
/// merged; a stopped cube goes on from its open nodes; a lost result is named and searched
/// again alone; a changed cube file is refused.
#[test]
fn a_job_directory_is_searched_in_parts_resumed_and_merged() {
    let dir = split_knights_14x14("knights-14x14");
    let path = dir.to_str().unwrap();
    let job: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("job.json")).unwrap()).unwrap();
    let cubes = job["cubes"].as_u64().unwrap() as usize;
    // Fewer than asked for where the tree narrows (the count grows less than a fifth a level);
    // the steps below need four.
    assert!(cubes >= 4, "asked for 12 cubes, got {cubes}");
    let script = std::fs::read_to_string(dir.join("run.sbatch")).unwrap();
    assert!(script.contains(&format!("#SBATCH --array=0-{}", cubes - 1)), "{script}");
    assert!(script.contains("SIGTERM") && script.contains("results/cube-N.open.json"), "{script}");

    // Stopped at once (as by SIGTERM at a time limit), a cube keeps the nodes it left open,
    // and its next search goes on from them.
    let run = knights_sat(&["cube", path, "0", "--time-limit", "0"]);
    assert_eq!(run.code, 4, "a stopped cube is no result: {}", run.stderr);
    assert!(run.stderr.contains("cube 0 of") && run.stderr.contains("open node"), "{}", run.stderr);
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results/cube-0.open.json")).unwrap()).unwrap();
    assert!(!kept["open"].as_array().unwrap().is_empty(), "{kept}");
    assert!(!dir.join("results/cube-0.json").exists());
    let run = knights_sat(&["merge", path]);
    assert!(run.stderr.contains("1 of them stopped part way") && run.stderr.contains(": 0;"), "{}", run.stderr);
    // Open nodes that name a square the puzzle lacks: the file is named, not searched.
    let kept_text = std::fs::read_to_string(dir.join("results/cube-0.open.json")).unwrap();
    let mut wrong: serde_json::Value = serde_json::from_str(&kept_text).unwrap();
    wrong["open"][0]["ones"].as_array_mut().unwrap().push(99999.into());
    std::fs::write(dir.join("results/cube-0.open.json"), wrong.to_string()).unwrap();
    let run = knights_sat(&["cube", path, "0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("cube-0.open.json") && run.stderr.contains("variable 99999"), "{}", run.stderr);
    std::fs::write(dir.join("results/cube-0.open.json"), kept_text).unwrap();
    let run = knights_sat(&["cube", path, "0", "--time-limit=-1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--time-limit -1"), "{}", run.stderr);

    let run = knights_sat(&["cube", path, "0", "1", "2", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!dir.join("results/cube-0.open.json").exists(), "a cube searched to the end keeps no open nodes");
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 4, "an incomplete merge is not an answer: {}", run.stdout);
    assert!(!run.stderr.contains("stopped part way"), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("{} of {cubes} cubes have no result: 3-{}", cubes - 3, cubes - 1)),
        "{}",
        run.stderr
    );
    // The cubes left bound the optimum by their least split bound, which cannot pass it.
    let split: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("cubes.json")).unwrap()).unwrap();
    let least = split.as_array().unwrap()[3..]
        .iter()
        .map(|cube| cube["bound"].as_f64().expect("a cube with a relaxation bound"))
        .fold(f64::INFINITY, f64::min);
    let best = job["incumbent_value"].as_u64().expect("the split's placement") as usize;
    let bound = ((least - 1e-6).ceil() as usize).min(best);
    assert!(bound <= 32, "a bound past the published optimum");
    let stated = format!("feasible: {best} pieces found; {} pieces proved impossible", bound - 1);
    assert!(run.stdout.contains(&stated), "expected \"{stated}\" in {}", run.stdout);
    // Each cube states its share of the tree; those left open keep the merge short of 100%.
    let shares: Vec<f64> = split.as_array().unwrap().iter().map(|cube| cube["share"].as_f64().unwrap()).collect();
    assert!(shares.iter().all(|&s| s > 0.0 && s <= 1.0), "{shares:?}");
    assert!(shares.iter().sum::<f64>() <= 1.0 + 1e-9, "the cubes' shares pass the whole tree: {shares:?}");
    let line = run.stdout.lines().find(|l| l.contains("the tree closed: ")).expect("the share closed");
    assert!(!line.contains(" 100% "), "three cubes searched close the whole tree: {line}");
    let run = knights_sat(&["merge", path, "--missing"]);
    assert_eq!(run.stdout.trim(), format!("3-{}", cubes - 1));

    let run = knights_sat(&["cube", path, "--all", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A cube that went on with the thread of another says so on a line of its own.
    let searched = run.stderr.lines().filter(|l| !l.contains("on more threads")).count();
    assert_eq!(searched, cubes - 3, "one line per cube searched: {}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 32 pieces; 31 pieces proved impossible"), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("{cubes} of {cubes} cubes searched")), "{}", run.stdout);
    assert!(run.stdout.contains("the tree closed: 100% by share"), "{}", run.stdout);
    assert_eq!(knights_sat(&["merge", path, "--missing"]).stdout.trim(), "");

    // A lost result: named, and searched again alone; a result that exists is not.
    std::fs::remove_file(dir.join("results/cube-5.json")).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 4);
    assert!(run.stderr.contains("have no result: 5\n"), "{}", run.stderr);
    let run = knights_sat(&["cube", path, "--all"]);
    assert!(run.stderr.starts_with("cube 5 of") && run.stderr.lines().count() == 1, "{}", run.stderr);
    let run = knights_sat(&["cube", path, "5"]);
    assert!(run.stderr.contains("(done before)"), "{}", run.stderr);
    assert_eq!(knights_sat(&["merge", path]).code, 0);
    let leftovers: Vec<_> = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with("cube-") || !name.ends_with(".json"))
        .collect();
    assert!(leftovers.is_empty(), "files left in results/: {leftovers:?}");

    // A cube past the last, and a changed cube file.
    let run = knights_sat(&["cube", path, &cubes.to_string()]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains(&format!("there is no cube {cubes}")), "{}", run.stderr);
    let text = std::fs::read_to_string(dir.join("cubes.json")).unwrap();
    std::fs::write(dir.join("cubes.json"), text.replacen("\"ones\":[", "\"ones\":[0,", 1)).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cubes.json") && run.stderr.contains("changed since the split"), "{}", run.stderr);
}

/// A thread with no cube left joins a cube still running: knight domination 15x15 (36
/// knights, OEIS A006075), its heaviest and its lightest cube searched again on two threads,
/// the heaviest goes on from its open nodes on both once the lightest is done, and the job
/// still merges to the optimum. (Tried up to three times: a machine that holds the light
/// cube's thread back long enough may let the heavy one end first.)
#[test]
fn a_thread_with_no_cube_left_joins_a_cube_still_running() {
    let dir = split_knights("15x15", "knights-15x15-join", "8");
    let path = dir.to_str().unwrap();
    let run = knights_sat(&["cube", path, "--all", "--threads", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("on more threads"), "one thread has none to hand over: {}", run.stderr);
    let nodes: Vec<(u64, usize)> = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|entry| {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            let result: serde_json::Value = serde_json::from_str(&text).unwrap();
            (result["nodes"].as_u64().unwrap(), result["cube"].as_u64().unwrap() as usize)
        })
        .collect();
    let (heavy, light) = (nodes.iter().max().unwrap(), nodes.iter().min().unwrap());
    assert!(heavy.0 >= 10 * light.0.max(1), "no cube much heavier than another: {nodes:?}");
    let (heavy, light) = (heavy.1.to_string(), light.1.to_string());
    let joined = format!("cube {heavy} of {}: goes on from", nodes.len());
    let mut went_on = false;
    for _ in 0..3 {
        let run = knights_sat(&["cube", path, &heavy, &light, "--again", "--threads", "2"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let run_merged = knights_sat(&["merge", path]);
        assert!(run_merged.stdout.contains("optimal: 36 pieces; 35 pieces proved impossible"), "{}", run_merged.stdout);
        if run.stderr.contains(&joined) {
            assert!(run.stderr.contains(&format!("cube {heavy} of {}: searched in", nodes.len())), "{}", run.stderr);
            went_on = true;
            break;
        }
    }
    assert!(went_on, "the heavy cube never went on with the light cube's thread");
    // A cube named twice is searched once.
    let run = knights_sat(&["cube", path, &heavy, &heavy, "--again", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.lines().filter(|l| l.contains(" searched in ")).count(), 1, "{}", run.stderr);
}

/// A sample of a job's cubes (knight domination 14x14, 32 knights, OEIS A006075): `cube
/// --sample 3` searches one cube from each third of the cubes ordered by split bound, the
/// merge projects the time of the cubes left from them, `--all` searches the rest lowest bound
/// first, and a sample larger than the cubes left searches them all.
#[test]
fn a_sample_spread_over_the_bounds_projects_the_time_of_the_cubes_left() {
    let dir = split_knights_14x14("knights-14x14-sample");
    let path = dir.to_str().unwrap();
    let split: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("cubes.json")).unwrap()).unwrap();
    let bounds: Vec<f64> = split.as_array().unwrap().iter().map(|cube| cube["bound"].as_f64().unwrap()).collect();
    let cubes = bounds.len();
    let mut order: Vec<usize> = (0..cubes).collect();
    order.sort_by(|&a, &b| bounds[a].total_cmp(&bounds[b]).then(a.cmp(&b)));

    let run = knights_sat(&["cube", path, "--sample", "0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--sample 0"), "{}", run.stderr);
    assert_eq!(knights_sat(&["cube", path, "--sample", "3", "--all"]).code, 2);

    let run = knights_sat(&["cube", path, "--sample", "3", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let searched: Vec<usize> = (0..cubes).filter(|id| dir.join(format!("results/cube-{id}.json")).exists()).collect();
    assert_eq!(searched.len(), 3, "{}", run.stderr);
    // One cube from each third of the bound order.
    let mut ranks: Vec<usize> = searched.iter().map(|id| order.iter().position(|o| o == id).unwrap()).collect();
    ranks.sort_unstable();
    for (third, rank) in ranks.iter().enumerate() {
        assert!(third * cubes / 3 <= *rank && *rank < (third + 1) * cubes / 3, "ranks {ranks:?} of {cubes}");
    }
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 4, "{}", run.stdout);
    let line = run.stdout.lines().find(|l| l.contains("the cubes left: about")).expect("a projection");
    assert!(line.contains("3 searched"), "{line}");

    // The rest, one at a time: lowest split bound first.
    let run = knights_sat(&["cube", path, "--all", "--threads", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let ids: Vec<usize> = run
        .stderr
        .lines()
        .map(|line| line.strip_prefix("cube ").and_then(|l| l.split(' ').next()).unwrap().parse().unwrap())
        .collect();
    let left: Vec<usize> = order.iter().copied().filter(|id| !searched.contains(id)).collect();
    assert_eq!(ids, left, "the cubes left in the order of their bounds {bounds:?}");
    // Two results lost: a sample larger than the cubes left searches them all.
    std::fs::remove_file(dir.join(format!("results/cube-{}.json", left[0]))).unwrap();
    std::fs::remove_file(dir.join(format!("results/cube-{}.json", left[1]))).unwrap();
    let run = knights_sat(&["cube", path, "--sample", "1000", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.lines().filter(|l| l.contains(" searched in ")).count(), 2, "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 32 pieces; 31 pieces proved impossible"), "{}", run.stdout);
    assert!(!run.stdout.contains("the cubes left"), "{}", run.stdout);
    for asked in ["--sample 2", "--all"] {
        let mut args = vec!["cube", path];
        args.extend(asked.split(' '));
        let run = knights_sat(&args);
        assert_eq!(run.code, 0, "{asked}: {}", run.stderr);
        assert!(run.stderr.contains("every cube of"), "{asked}: {}", run.stderr);
    }
}

/// The 46-move tour around the queen on d5 (the published optimum) through a job directory:
/// split into the paths of the first moves up to 46 moves, every cube searched (a cube stops
/// short once another found a route as short as its next horizon), the optimum merged.
#[test]
fn a_tour_is_split_into_paths_and_merged() {
    let dir = scratch("queen-d5");
    let path = dir.to_str().unwrap();
    let run = knights_sat(&["split", "puzzles/queen-d5-tour.toml", "--out", path, "--cubes", "24", "--horizon", "46"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = knights_sat(&["cube", path, "--all", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 46 moves; 45 moves proved impossible"), "{}", run.stdout);

    // A result that claims a refutation short of what the answer needs is not merged.
    let read = |id: usize| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("results/cube-{id}.json"))).unwrap()).unwrap()
    };
    let id = (0..24).find(|&id| read(id)["value"].is_null()).expect("most paths hold no 46-move route");
    let mut cube = read(id);
    cube["refuted_to"] = serde_json::json!(40);
    std::fs::write(dir.join(format!("results/cube-{id}.json")), cube.to_string()).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 4, "{}", run.stdout);
    assert!(run.stdout.contains(&format!("cube {id} failed: refuted up to 40 moves")), "{}", run.stdout);
}

/// What cannot be split is refused with the reason, exit 2.
#[test]
fn split_refuses_what_it_cannot_split() {
    let dir = scratch("refusals");
    let path = dir.to_str().unwrap();
    let elsewhere = scratch("refusals-puzzle");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let feasible = elsewhere.join("feasible.toml");
    let text = std::fs::read_to_string("puzzles/two-knights-two-queens.toml").unwrap();
    std::fs::write(&feasible, text.replace("objective = \"steps\"", "objective = \"feasible\"")).unwrap();
    let run = knights_sat(&["split", feasible.to_str().unwrap(), "--out", path, "--horizon", "30"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("not for the `feasible` objective"), "{}", run.stderr);
    let run = knights_sat(&["split", "puzzles/finegold.toml", "--out", path, "--horizon", "200"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("leg by leg"), "{}", run.stderr);
    let run = knights_sat(&["split", "puzzles/guarini.toml", "--out", path]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("give --horizon H"), "{}", run.stderr);
    let run = knights_sat(&["split", "puzzles/knights-domination-8x8.toml", "--out", path, "--horizon", "3"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--horizon is for exchanges and tours"), "{}", run.stderr);
    let run = knights_sat(&["split", "puzzles/knights-domination-8x8.toml", "--out", path, "--cubes", "1000000000"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--cubes 1000000000"), "{}", run.stderr);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("other"), "").unwrap();
    let run = knights_sat(&["split", "puzzles/knights-domination-8x8.toml", "--out", path]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("exists and is not empty"), "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("job.json"), "{}", run.stderr);
}

/// Knight domination 8x8 (12, the published optimum) is decided by its split alone: the job
/// has no cube, its script runs no array but the merge, and a cube asked for is refused with
/// where the answer is.
#[test]
fn a_split_that_decides_the_puzzle_leaves_nothing_to_search() {
    let dir = scratch("decided");
    let path = dir.to_str().unwrap();
    let run = knights_sat(&["split", "puzzles/knights-domination-8x8.toml", "--out", path, "--cubes", "8"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("decided the puzzle by itself"), "{}", run.stdout);
    let script = std::fs::read_to_string(dir.join("run.sbatch")).unwrap();
    let runs: Vec<&str> = script.lines().filter(|line| line.starts_with("exec ")).collect();
    assert!(!script.contains("--array") && runs.len() == 1 && runs[0].ends_with(&format!(" merge {path}")), "{script}");
    let run = knights_sat(&["cube", path, "0"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("decided the puzzle by itself") && run.stderr.contains("merge"), "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("optimal: 12"), "{}", run.stdout);
}

/// A job directory moved after its split (copied to a cluster, renamed): its first merge points
/// `run.sbatch` at where it is now, and says so once.
#[test]
fn a_moved_job_directory_gets_its_script_pointed_at_where_it_is() {
    let (before, after) = (scratch("before-moving"), scratch("after-moving"));
    let run = knights_sat(&["split", "puzzles/guarini.toml", "--out", before.to_str().unwrap(), "--horizon", "16"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::rename(&before, &after).unwrap();
    let (before, path) = (before.to_str().unwrap(), after.to_str().unwrap());
    let run = knights_sat(&["merge", path, "--missing"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains(&format!("the job was at {before} when split")), "{}", run.stderr);
    let script = std::fs::read_to_string(after.join("run.sbatch")).unwrap();
    assert!(!script.contains(before), "{script}");
    assert!(script.contains(&format!("--output={path}/logs/")), "{script}");
    assert!(script.contains(&format!(" cube {path} \"$SLURM_ARRAY_TASK_ID\"")), "{script}");
    let run = knights_sat(&["merge", path, "--missing"]);
    assert!(!run.stderr.contains("when split"), "said once: {}", run.stderr);
    // A job without its script merges as before.
    std::fs::remove_file(after.join("run.sbatch")).unwrap();
    let run = knights_sat(&["merge", path, "--missing"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
}

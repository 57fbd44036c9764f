//! What `merge` gives programs and people besides its text: one JSON object with the job's
//! figures, and a picture of the best solution.

use serde_json::Value;

use super::common::knights_sat;
use super::scratch;

/// Whether `squares` (names such as `c3`) occupy or attack, by knight moves, every square of
/// an `n`x`n` board: the rules of domination, checked apart from the search.
fn knights_dominate(squares: &[String], n: i32) -> bool {
    let placed: Vec<(i32, i32)> = squares
        .iter()
        .map(|s| {
            let file = s.as_bytes()[0] as i32 - b'a' as i32;
            let rank: i32 = s[1..].parse().expect("a rank");
            (file, rank - 1)
        })
        .collect();
    let jumps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    (0..n).all(|x| {
        (0..n).all(|y| {
            placed
                .iter()
                .any(|&(px, py)| (px, py) == (x, y) || jumps.iter().any(|&(dx, dy)| (px + dx, py + dy) == (x, y)))
        })
    })
}

/// Knight domination 14x14 (32 knights, OEIS A006075) as a certified job: `merge --json` is
/// one object on stdout, the answer as `solve --json` gives it plus the job's figures, part
/// way (the cubes left listed, the bound stated) and at the end (optimal, the figures adding
/// up to the cubes' results, the certificate named, its lines on stderr); `--svg` draws the
/// placement; `--missing` takes neither.
#[test]
fn merge_gives_one_json_object_and_a_picture() {
    let dir = scratch("merge-json-knights-14x14");
    let path = dir.to_str().unwrap();
    let run = knights_sat(&[
        "split",
        "puzzles/bench-domination/knights-14x14.toml",
        "--out",
        path,
        "--cubes",
        "12",
        "--certify",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let job: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("job.json")).unwrap()).unwrap();
    let cubes = job["cubes"].as_u64().unwrap() as usize;
    // Fewer than asked for where the tree narrows (the count grows less than a fifth a level);
    // the steps below need four.
    assert!(cubes >= 4, "asked for 12 cubes, got {cubes}");

    assert_eq!(knights_sat(&["cube", path, "0", "1", "2", "--threads", "2"]).code, 0);
    let run = knights_sat(&["merge", path, "--json"]);
    assert_eq!(run.code, 4, "{}{}", run.stdout, run.stderr);
    let answer: Value = serde_json::from_str(&run.stdout).expect("one JSON object on stdout");
    assert_eq!(answer["status"], "feasible", "{answer}");
    assert_eq!(answer["stopped"], "some cubes have no result", "{answer}");
    assert_eq!(answer["job"]["searched"], 3, "{answer}");
    assert_eq!(answer["job"]["cubes"], cubes, "{answer}");
    let missing: Vec<u64> = answer["job"]["missing"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(missing, (3..cubes as u64).collect::<Vec<_>>());
    assert!(answer["job"]["closed"].as_f64().unwrap() < 1.0, "{answer}");
    assert!(answer["job"]["left_seconds"].as_f64().is_some(), "{answer}");
    assert!(answer["job"]["certificate"].is_null(), "{answer}");
    assert!(answer["bound"].as_u64().unwrap() <= 32, "a bound past the published optimum: {answer}");
    assert!(run.stderr.contains(&format!("{} of {cubes} cubes have no result", cubes - 3)), "{}", run.stderr);
    assert!(answer["job"]["foreign"].as_array().unwrap().is_empty(), "{answer}");

    // A result copied in from another job is not counted, and the merge names it; the search
    // of every cube left replaces it.
    let mut copied: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results/cube-0.json")).unwrap()).unwrap();
    copied["job"] = Value::from("another-job");
    copied["cube"] = Value::from(3);
    std::fs::write(dir.join("results/cube-3.json"), copied.to_string()).unwrap();
    let run = knights_sat(&["merge", path, "--json"]);
    assert_eq!(run.code, 4, "{}{}", run.stdout, run.stderr);
    let answer: Value = serde_json::from_str(&run.stdout).expect("one JSON object on stdout");
    assert_eq!(answer["job"]["searched"], 3, "{answer}");
    assert_eq!(answer["job"]["foreign"], serde_json::json!([3]), "{answer}");
    assert!(
        run.stderr.contains("a result of another job (or of another cube), not counted, in 1 of them: 3"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("cube-3.json"), "{}", run.stderr);

    assert_eq!(knights_sat(&["cube", path, "--all", "--threads", "2"]).code, 0);
    let picture = dir.join("placement.svg");
    let run = knights_sat(&["merge", path, "--json", "--svg", picture.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let answer: Value = serde_json::from_str(&run.stdout).expect("one JSON object on stdout");
    assert_eq!(answer["status"], "optimal", "{answer}");
    assert_eq!(answer["value"], 32, "{answer}");
    assert_eq!(answer["bound"], 32, "{answer}");
    assert_eq!(answer["puzzle"]["board"], "14x14", "{answer}");
    let squares: Vec<String> = answer["solution"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["square"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(squares.len(), 32);
    assert!(knights_dominate(&squares, 14), "the merged placement leaves a square free: {squares:?}");
    // The figures add up to the cubes' own results.
    let (mut seconds, mut nodes) = (0.0, 0);
    for cube in 0..cubes {
        let text = std::fs::read_to_string(dir.join(format!("results/cube-{cube}.json"))).unwrap();
        let result: Value = serde_json::from_str(&text).unwrap();
        seconds += result["seconds"].as_f64().unwrap();
        nodes += result["nodes"].as_u64().unwrap();
    }
    let figures = &answer["job"];
    assert_eq!(figures["searched"], cubes, "{figures}");
    assert!(figures["missing"].as_array().unwrap().is_empty(), "{figures}");
    assert!((figures["seconds"].as_f64().unwrap() - seconds).abs() < 1e-6, "{figures} against {seconds} s");
    assert_eq!(figures["work"], nodes, "{figures}");
    assert!(figures["longest"]["seconds"].as_f64().unwrap() <= seconds, "{figures}");
    assert!((figures["closed"].as_f64().unwrap() - 1.0).abs() < 1e-9, "{figures}");
    assert!(figures["certificate"].as_str().unwrap().ends_with("certificate"), "{figures}");
    assert!(run.stderr.contains("verified: 32 is optimal"), "{}", run.stderr);
    let svg = std::fs::read_to_string(&picture).expect("the picture is written");
    assert_eq!(svg.matches("class=\"piece\"").count(), 32, "one piece drawn per knight");

    let run = knights_sat(&["merge", path, "--missing", "--json"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("'--missing' cannot be used with '--json'"), "{}", run.stderr);
}

//! What a placement split's branching measured goes to its cubes (`pseudocosts.json`), and a
//! stopped cube keeps what its own search measured for the next one.

use serde_json::Value;

use super::common::knights_sat;
use super::jobs::split_knights_14x14;

/// Knight domination 14x14 (32 knights, OEIS A006075): the split writes one pair of
/// measurements per variable (196 squares); a stopped cube keeps its own; a table of another
/// program is refused naming its file; with every cube searched the merge proves 32.
#[test]
fn a_split_hands_its_pseudocosts_to_its_cubes() {
    let dir = split_knights_14x14("pseudocosts-knights-14x14");
    let path = dir.to_str().unwrap();
    let file = dir.join("pseudocosts.json");
    let text = std::fs::read_to_string(&file).expect("the split writes its pseudocosts");
    let table: Value = serde_json::from_str(&text).unwrap();
    let sides = table["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 196, "one entry per square");
    assert!(sides.iter().any(|side| side[0][1].as_u64().unwrap() > 0), "the split measured nothing: {table}");

    let run = knights_sat(&["cube", path, "0", "--time-limit", "0"]);
    assert_eq!(run.code, 4, "{}", run.stderr);
    let kept: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results/cube-0.open.json")).unwrap()).unwrap();
    assert_eq!(kept["pseudocosts"]["sides"].as_array().map(Vec::len), Some(196), "{kept}");

    let mut wrong = table.clone();
    wrong["sides"].as_array_mut().unwrap().truncate(3);
    std::fs::write(&file, wrong.to_string()).unwrap();
    let run = knights_sat(&["cube", path, "1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("pseudocosts.json")
            && run.stderr.contains("refused: 3 entries, where the program has 196 variables"),
        "{}",
        run.stderr
    );
    std::fs::write(&file, "{\"sides\": [").unwrap();
    let run = knights_sat(&["cube", path, "1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("pseudocosts.json"), "{}", run.stderr);
    std::fs::write(&file, &text).unwrap();

    let run = knights_sat(&["cube", path, "--all", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 32 pieces; 31 pieces proved impossible"), "{}", run.stdout);
}

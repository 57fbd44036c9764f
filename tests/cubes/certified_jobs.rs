//! Certified job directories: the merge of a split's tree and its cubes' writes one certificate
//! of the whole and checks it, for placements, exchanges and tours; a certificate that claims
//! more than its parts prove does not verify.

use super::common::knights_sat;
use super::scratch;

/// A certified job (knight domination 14x14, 32 knights, OEIS A006075): the merge writes one
/// certificate of the split's tree and the cubes' and checks it; a cube searched without its
/// tree is named, and a tree with a bound taken out does not verify.
#[test]
fn a_certified_job_merges_into_a_certificate_checked_at_once() {
    let dir = scratch("certified-knights-14x14");
    let path = dir.to_str().unwrap();
    let puzzle = "puzzles/bench-domination/knights-14x14.toml";
    let run = knights_sat(&["split", puzzle, "--out", path, "--cubes", "12", "--certify"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(dir.join("tree.json").is_file());
    let job: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("job.json")).unwrap()).unwrap();
    assert!(job["cubes"].as_u64().unwrap() >= 2, "{job}");
    let run = knights_sat(&["cube", path, "--all", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 32 pieces"), "{}", run.stdout);
    assert!(
        run.stdout.contains("certificate: ") && run.stdout.contains("the split's and the cubes' trees"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("ok   c. proof: VeriPB verified BOUNDS 32 <= obj <= 32"), "{}", run.stdout);
    assert!(run.stdout.contains("verified: 32 is optimal"), "{}", run.stdout);
    let run = knights_sat(&["verify", dir.join("certificate").to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stdout);

    // A cube's result without its tree (as an older knights-sat would write it).
    let result = dir.join("results").join("cube-0.json");
    let text = std::fs::read_to_string(&result).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json.as_object_mut().unwrap().remove("tree").expect("a certified cube's result holds its tree");
    std::fs::write(&result, json.to_string()).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("cube 0 was searched without its tree"), "{}", run.stderr);
    std::fs::write(&result, text).unwrap();

    // The split's tree with its bounds taken out: the proof no longer closes.
    let tree = dir.join("tree.json");
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&tree).unwrap()).unwrap();
    let bounds = json["combinations"].as_array_mut().unwrap();
    assert!(!bounds.is_empty());
    bounds.clear();
    std::fs::write(&tree, json.to_string()).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("FAIL c. proof: VeriPB rejects"), "{}", run.stdout);
    assert!(run.stderr.contains("does not verify"), "{}", run.stderr);
}

/// A certified exchange job (Guarini's, 16 moves, the published answer): every cube's search
/// writes the refutation of its cube, the merge adds the cover and checks the whole; a
/// certificate that claims less of a cube, or leaves one out, or whose cube's proof is
/// damaged, does not verify; a cube without its part is named.
#[test]
fn a_certified_exchange_job_merges_into_a_certificate_of_its_cubes() {
    let dir = scratch("certified-guarini");
    let path = dir.to_str().unwrap();
    let run =
        knights_sat(&["split", "puzzles/guarini.toml", "--out", path, "--cubes", "20", "--horizon", "16", "--certify"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let job: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("job.json")).unwrap()).unwrap();
    assert!(job["depth"].as_u64().unwrap() >= 2 && job["certify"] == true, "{job}");
    let cubes = job["cubes"].as_u64().unwrap() as usize;
    assert_eq!(knights_sat(&["cube", path, "--all", "--threads", "2"]).code, 0);
    assert!((0..cubes).all(|i| dir.join(format!("proofs/cube-{i}/model.opb")).is_file()));
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 16 moves"), "{}", run.stdout);
    assert!(
        run.stdout.contains("the cover (") && run.stdout.contains(&format!("and {cubes} cubes' refutations")),
        "{}",
        run.stdout
    );
    let proved = format!("VeriPB verified that the cover and {cubes} cubes hold no route of at most 15 moves");
    assert!(run.stdout.contains(&proved), "{}", run.stdout);
    assert!(run.stdout.contains("verified: 16 is optimal"), "{}", run.stdout);
    let certificate = dir.join("certificate");
    let verify = || knights_sat(&["verify", certificate.to_str().unwrap()]);
    assert_eq!(verify().code, 0, "{}", verify().stdout);

    // split.json claiming one move less of a cube than the value needs.
    let claims_path = certificate.join("split.json");
    let claims_text = std::fs::read_to_string(&claims_path).unwrap();
    let mut claims: serde_json::Value = serde_json::from_str(&claims_text).unwrap();
    claims["cubes"][1]["refuted"] = serde_json::json!(14);
    std::fs::write(&claims_path, claims.to_string()).unwrap();
    let run = verify();
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("FAIL b. model: cube 1: refutes routes of at most 14 moves, short of the 15"),
        "{}",
        run.stdout
    );
    // A horizon out of every puzzle's reach is refused before any model is built.
    claims["cubes"][1]["refuted"] = serde_json::json!(15);
    claims["horizon"] = serde_json::json!(1_000_000_000_000u64);
    std::fs::write(&claims_path, claims.to_string()).unwrap();
    let run = verify();
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL b. model: split.json: the horizon 1000000000000 is past"), "{}", run.stdout);
    claims["horizon"] = serde_json::json!(16);
    // A cube left out: the cover's model no longer matches.
    claims["cubes"][1]["refuted"] = serde_json::json!(15);
    claims["cubes"].as_array_mut().unwrap().pop();
    std::fs::write(&claims_path, claims.to_string()).unwrap();
    let run = verify();
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL b. model: the cover: model.opb differs"), "{}", run.stdout);
    std::fs::write(&claims_path, &claims_text).unwrap();
    // A cube's proof cut short of its conclusion.
    let proof = certificate.join("cubes/cube-0/proof.pbp");
    let text = std::fs::read_to_string(&proof).unwrap();
    std::fs::remove_file(&proof).unwrap();
    // Its header and its conclusion, without the refutation between.
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 10, "{text}");
    let kept: Vec<&str> = lines[..2].iter().chain(&lines[lines.len() - 3..]).copied().collect();
    std::fs::write(&proof, kept.join("\n") + "\n").unwrap();
    let run = verify();
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof: VeriPB rejects the proof of cube 0"), "{}", run.stdout);

    // A cube searched without its part (as a job split without --certify would).
    std::fs::remove_dir_all(dir.join("proofs/cube-2")).unwrap();
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("cube 2 was searched without its part of the certificate"), "{}", run.stderr);
    assert_eq!(knights_sat(&["cube", path, "2", "--again"]).code, 0);
    assert_eq!(knights_sat(&["merge", path]).code, 0);
}

/// A certified tour job (the 46-move tour around the queen on d5, the published optimum): each
/// cube is the knight's square and the targets touched after the split's depth, and the
/// certificate checks; one that names a cube's targets otherwise does not.
#[test]
fn a_certified_tour_job_merges_into_a_certificate_of_its_cubes() {
    let dir = scratch("certified-queen-d5");
    let path = dir.to_str().unwrap();
    let args = ["split", "puzzles/queen-d5-tour.toml", "--out", path, "--cubes", "24", "--horizon", "46", "--certify"];
    assert_eq!(knights_sat(&args).code, 0);
    assert_eq!(knights_sat(&["cube", path, "--all", "--threads", "2"]).code, 0);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("hold no route of at most 45 moves"), "{}", run.stdout);
    assert!(run.stdout.contains("verified: 46 is optimal"), "{}", run.stdout);
    let claims_path = dir.join("certificate/split.json");
    let mut claims: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&claims_path).unwrap()).unwrap();
    let touched = claims["cubes"][0]["cube"]["reached"]["touched"].as_array_mut().unwrap();
    assert!(!touched.is_empty(), "{claims}");
    touched.pop();
    std::fs::write(&claims_path, claims.to_string()).unwrap();
    let run = knights_sat(&["verify", dir.join("certificate").to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    // The cover names the cube too, and comes first.
    assert!(run.stdout.contains("FAIL b. model: the cover: model.opb differs"), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(&dir);

    // Two knights for the fewest time steps, then moves (10 steps and 20 moves, checked against
    // the search over joint positions in `tests/tour_seeds.rs`): the fewest moves are stated
    // only when every cube asked 10 steps.
    let args = ["split", "puzzles/two-knights-two-queens.toml", "--out", path, "--cubes", "64", "--horizon", "10"];
    let run = knights_sat(&[&args[..], &["--certify"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(knights_sat(&["cube", path, "--all", "--threads", "2"]).code, 0);
    let run = knights_sat(&["merge", path]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal: 10 time steps; 9 time steps proved impossible"), "{}", run.stdout);
    let fewest = run.stdout.contains("moves in as many steps proved impossible");
    let moves = if fewest { "20 moves in 10 time steps; 19 moves" } else { "fewer moves not proved impossible" };
    assert!(run.stdout.contains(moves), "{}", run.stdout);
    assert!(run.stdout.contains("hold no route of at most 9 time steps"), "{}", run.stdout);
    assert!(run.stdout.contains("verified: 10 is optimal"), "{}", run.stdout);
}

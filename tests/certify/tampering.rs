//! Tampering and bad input: a certificate changed in any part (model, proof, solution, a
//! gzipped proof too), a directory missing or malformed, and a compression asked for where it
//! does not apply are refused, and what is wrong is named.

use std::path::Path;

use super::common::{knights_sat, puzzle_file};
use super::{assert_verified, certify, copy, edit, edit_lines, fresh_dir, verify, DOMINATION_5X5};

#[test]
fn tampering_with_any_part_is_caught_and_named() {
    let path = puzzle_file("certify-domination-5x5.toml", DOMINATION_5X5);
    let good = certify(path.to_str().unwrap(), "tamper");
    assert_verified(&good, "5", "5 <= obj <= 5");

    // b: a bound changed in model.opb (a cover row asks for two attackers).
    let dir = copy(&good, "tamper-model");
    edit(&dir, "model.opb", |t| t.replacen(">= 1;", ">= 2;", 1));
    let run = verify(&dir);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL b. model: model.opb differs from the generated model at line"), "{}", run.stdout);
    assert!(run.stderr.contains("the model"), "{}", run.stderr);

    // c: a proof line deleted (the empty clause that ends the refutation).
    let dir = copy(&good, "tamper-proof-deleted");
    edit(&dir, "proof.pbp", |t| {
        let empty = t.lines().find(|l| l.starts_with("rup  >= 1 ;")).expect("the empty clause").to_string();
        t.replacen(&format!("{empty}\n"), "", 1)
    });
    let run = verify(&dir);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("ok   a. solution"), "{}", run.stdout);
    assert!(run.stdout.contains("ok   b. model"), "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof: VeriPB rejects proof.pbp"), "{}", run.stdout);

    // c: a proof line altered (the logged solution has one more knight, on a1 or off it).
    let dir = copy(&good, "tamper-proof-altered");
    edit_lines(&dir, "proof.pbp", |line| match line.strip_prefix("soli ") {
        Some(rest) if rest.contains("~x1 ") => format!("soli {}", rest.replacen("~x1 ", "x1 ", 1)),
        Some(rest) => format!("soli {}", rest.replacen("x1 ", "~x1 ", 1)),
        None => line.to_string(),
    });
    let run = verify(&dir);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof"), "{}", run.stdout);

    // c: the conclusion claims a better value.
    let dir = copy(&good, "tamper-conclusion");
    edit_lines(&dir, "proof.pbp", |line| match line.strip_prefix("conclusion BOUNDS 5 ") {
        Some(rest) => {
            let mut words: Vec<&str> = rest.split_whitespace().collect();
            if let Some(last) = words.last_mut() {
                *last = "4";
            }
            format!("conclusion BOUNDS 4 {}", words.join(" "))
        }
        None => line.to_string(),
    });
    let run = verify(&dir);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof"), "{}", run.stdout);

    // c: a proof that assumes its lower bound instead of deriving it.
    let dir = copy(&good, "tamper-assumption");
    edit(&dir, "proof.pbp", |t| {
        let soli = t.lines().find(|l| l.starts_with("soli ")).unwrap();
        let id = t.lines().nth(1).unwrap().trim_start_matches("f ").trim().parse::<usize>().unwrap() + 2;
        format!(
            "pseudo-Boolean proof version 2.0\nf {}\n{soli}\na >= 1 ;\noutput NONE\nconclusion BOUNDS 5 : {id} 5\nend pseudo-Boolean proof\n",
            id - 2
        )
    });
    let run = verify(&dir);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("FAIL c. proof: VeriPB rejects proof.pbp: the proof uses unchecked assumptions"),
        "{}",
        run.stdout
    );

    // a: one piece moved (onto the square of another).
    let dir = copy(&good, "tamper-solution");
    edit(&dir, "solution.txt", |t| {
        let pieces: Vec<&str> = t.lines().filter(|l| l.starts_with("piece ")).collect();
        t.replacen(pieces[0], pieces[1], 1)
    });
    let run = verify(&dir);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL a. solution: the rules checker rejects it"), "{}", run.stdout);
    assert!(run.stdout.contains("ok   c. proof"), "{}", run.stdout);
}

/// Reads a gzip file as text.
fn gunzip(path: &Path) -> String {
    use std::io::Read;
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()).read_to_string(&mut text).unwrap();
    text
}

/// Writes text as a gzip file.
fn gzip(path: &Path, text: &str) {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(std::fs::File::create(path).unwrap(), flate2::Compression::fast());
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap();
}

#[test]
fn a_gzipped_proof_is_streamed_through_the_checker_and_tampering_inside_it_is_caught() {
    let path = puzzle_file("certify-gzip-5x5.toml", DOMINATION_5X5);
    let dir = fresh_dir("gzip");
    let run = knights_sat(&[
        "solve",
        "--quiet",
        path.to_str().unwrap(),
        "--certify",
        dir.to_str().unwrap(),
        "--proof-compression",
        "gzip",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("gzipped"), "{}", run.stdout);
    assert!(dir.join("proof.pbp.gz").is_file() && !dir.join("proof.pbp").exists());
    let text = gunzip(&dir.join("proof.pbp.gz"));
    assert!(text.starts_with("pseudo-Boolean proof version 2.0\n"), "{text}");
    assert_verified(&dir, "5", "5 <= obj <= 5");

    // The empty clause deleted inside the compressed proof.
    let spoiled = copy(&dir, "gzip-deleted");
    let empty = text.lines().find(|l| l.starts_with("rup  >= 1 ;")).expect("the empty clause");
    gzip(&spoiled.join("proof.pbp.gz"), &text.replacen(&format!("{empty}\n"), "", 1));
    let run = verify(&spoiled);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof: VeriPB rejects proof.pbp.gz"), "{}", run.stdout);

    // A compressed proof cut short: the read error is named, not taken for the end.
    let cut = copy(&dir, "gzip-cut");
    let bytes = std::fs::read(cut.join("proof.pbp.gz")).unwrap();
    std::fs::write(cut.join("proof.pbp.gz"), &bytes[..bytes.len() / 2]).unwrap();
    let run = verify(&cut);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("FAIL c. proof: VeriPB rejects proof.pbp.gz: cannot read"), "{}", run.stdout);

    // Two proofs side by side: which one is the certificate's is not guessed.
    let both = copy(&dir, "gzip-both");
    std::fs::write(both.join("proof.pbp"), &text).unwrap();
    let run = verify(&both);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("holds both proof.pbp and proof.pbp.gz"), "{}", run.stderr);

    // Certifying again as text replaces the compressed proof.
    let run = knights_sat(&["solve", "--quiet", path.to_str().unwrap(), "--certify", dir.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(dir.join("proof.pbp").is_file() && !dir.join("proof.pbp.gz").exists());
    assert_verified(&dir, "5", "5 <= obj <= 5");
}

#[test]
fn proof_compression_is_checked_and_needs_certify() {
    let run = knights_sat(&["solve", "--quiet", "puzzles/knights-domination-8x8.toml", "--proof-compression", "gzip"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--certify"), "{}", run.stderr);
    let dir = fresh_dir("bad-compression");
    let run = knights_sat(&[
        "solve",
        "--quiet",
        "puzzles/knights-domination-8x8.toml",
        "--certify",
        dir.to_str().unwrap(),
        "--proof-compression",
        "zip",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("unknown proof compression `zip`; expected one of auto, none, gzip"), "{}", run.stderr);
}

#[test]
fn a_missing_or_malformed_directory_is_bad_input() {
    let missing = fresh_dir("missing");
    let run = verify(&missing);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not a certificate") && run.stderr.contains("is not a directory"), "{}", run.stderr);

    let empty = fresh_dir("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let run = verify(&empty);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("has no puzzle.toml"), "{}", run.stderr);

    for (file, text, says) in [
        ("puzzle.toml", "kind = \"nonsense\"\n", "puzzle.toml"),
        ("solution.txt", "a list of knights\n", "solution.txt does not start with"),
    ] {
        let dir = fresh_dir(&format!("malformed-{file}"));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["puzzle.toml", "model.opb", "solution.txt", "proof.pbp"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        std::fs::write(dir.join("puzzle.toml"), DOMINATION_5X5).unwrap();
        std::fs::write(dir.join("solution.txt"), "knights-sat solution\nvalue 5\n").unwrap();
        std::fs::write(dir.join(file), text).unwrap();
        let run = verify(&dir);
        assert_eq!(run.code, 2, "{file}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{file}: {}", run.stderr);
    }
}

//! `knights-sat verify DIR`: checks a certificate and prints one line per part.

use std::path::Path;

use knights_sat::certify::{verify, Verification, VerifyError};

use super::{CliError, Exit};

/// Checks the certificate in `dir`; exit 0 when every part passes, 1 when one fails, 2 when
/// the directory is not a certificate.
pub fn run(dir: &Path) -> Result<Exit, CliError> {
    let verification =
        verify(dir).map_err(|VerifyError::Malformed(m)| CliError::Usage(format!("not a certificate: {m}")))?;
    println!("certificate {} states the optimal value {}", dir.display(), verification.value);
    for line in check_lines(&verification) {
        println!("{line}");
    }
    if verification.passed() {
        println!("verified: {} is optimal", verification.value);
        Ok(Exit::Solved)
    } else {
        let failed: Vec<String> =
            verification.checks.iter().filter(|c| !c.passed).map(|c| c.part.to_string()).collect();
        eprintln!("knights-sat: the certificate is rejected: the {} check failed", failed.join(" and "));
        Ok(Exit::Internal)
    }
}

/// One line per part of `verification`: `ok   a. solution: …` or `FAIL c. proof: …`.
pub fn check_lines(verification: &Verification) -> Vec<String> {
    ["a", "b", "c"]
        .iter()
        .zip(&verification.checks)
        .map(|(letter, check)| {
            let verdict = if check.passed { "ok  " } else { "FAIL" };
            format!("{verdict} {letter}. {}: {}", check.part, check.message)
        })
        .collect()
}

//! VeriPB, in-process: checks a proof against an OPB model and reports what it concluded.
//!
//! The proof, text or gzip, is streamed through VeriPB's rules line by line. It must be in
//! VeriPB's line-based format 2.0 (as pigeons writes it), so that its `conclusion` line, the
//! one rule that the checker accepted as the conclusion, can be read back: `BOUNDS lower
//! upper`, with the lower bound derived and the upper bound witnessed by a logged solution.
//! Proofs that use unchecked assumptions are rejected.

use std::cell::Cell;
use std::io::BufRead;
use std::path::Path;

use logos::Logos;
use veripb::args::Args;
use veripb::prelude::{Context, RuleToken, Verifier};
use veripb::rules::line_to_rule;

use super::proof_file;

/// The first line of every proof this checker accepts.
const HEADER: &str = "pseudo-Boolean proof version 2.0";

/// What a checked proof concluded about the objective (as OPB minimises it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// No solution has a smaller objective value.
    pub lower: i64,
    /// A solution with this value was logged.
    pub upper: i64,
}

/// Checks `proof` (text, or gzip-compressed) against `model` with VeriPB; the bounds it
/// concluded, or why it failed.
///
/// The proof is read as a stream, one line at a time, so that its size is bounded by the disk
/// rather than by memory.
pub fn check(model: &Path, proof: &Path) -> Result<Bounds, String> {
    conclusion(&checked_conclusions(model, proof)?)
}

/// Checks `proof` against `model` with VeriPB as [`check`] does, and that it concludes that
/// the model has no solution at all (`conclusion UNSAT`).
pub fn check_unsat(model: &Path, proof: &Path) -> Result<(), String> {
    let conclusions = checked_conclusions(model, proof)?;
    let [line] = &conclusions[..] else {
        return Err(format!("the proof has {} conclusion lines, not one", conclusions.len()));
    };
    match line.split_whitespace().nth(1) {
        Some("UNSAT") => Ok(()),
        _ => Err(format!("the proof concludes `{line}`, not that the model has no solution")),
    }
}

/// The `conclusion` lines of `proof`, once VeriPB has checked it against `model`.
fn checked_conclusions(model: &Path, proof: &Path) -> Result<Vec<String>, String> {
    let reader = proof_file::open(proof).map_err(|e| format!("cannot read {}: {e}", proof.display()))?;
    let proof_name = proof.display().to_string();
    let (model, proof) = (model.to_path_buf(), proof.to_path_buf());
    let run = move || -> Result<Vec<String>, String> {
        let (formula, variables, _labels) =
            veripb_parser::opb_parser::parse_opb_from_file(&model).map_err(|e| format!("model.opb: {e}"))?;
        let args = Args {
            formula: model,
            derivation: proof.clone(),
            print_verification_result: false,
            show_warnings: false,
            ..Args::default()
        };
        let context = Context::new(args, variables);
        let mut verifier = Verifier::new(context, formula).map_err(|e| e.to_string())?;
        verifier.initialize().map_err(|e| format!("{e:#}"))?;
        let conclusions = verify_lines(&mut verifier, reader, &proof)?;
        if verifier.context.assumption_used {
            return Err("the proof uses unchecked assumptions".into());
        }
        if !verifier.context.has_conclusion {
            return Err("the proof has no conclusion".into());
        }
        Ok(conclusions)
    };
    match quietly(run) {
        Ok(Ok(conclusions)) => Ok(conclusions),
        Ok(Err(e)) => Err(e.lines().map(str::trim).collect::<Vec<_>>().join(" ")),
        Err(()) => Err(format!("VeriPB stopped on malformed input at {}:{}", proof_name, LINE.with(Cell::get))),
    }
}

thread_local! {
    /// Whether a panic on this thread is caught and reported by [`quietly`], not printed.
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// The proof line being checked on this thread, for the report of a panic.
    static LINE: Cell<usize> = const { Cell::new(0) };
}

/// Runs `f`, turning a panic into `Err(())` without the panic message on stderr: VeriPB panics
/// on some malformed proofs (a number past 64 bits), which is a failed check, not a crash.
/// Panics on other threads still print as usual.
fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, ()> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    result.map_err(|_| ())
}

/// How many lines of the proof travel together from the reading thread to the checker.
const BATCH: usize = 1024;

/// The lines of `reader`, read (and decompressed) ahead on a thread of their own, so that
/// VeriPB's checking does not wait for them; a read error ends them.
fn read_ahead(reader: Box<dyn BufRead + Send>) -> impl Iterator<Item = std::io::Result<String>> {
    let (send, receive) = std::sync::mpsc::sync_channel::<Vec<std::io::Result<String>>>(64);
    std::thread::spawn(move || {
        let mut batch = Vec::with_capacity(BATCH);
        for line in reader.lines() {
            let failed = line.is_err();
            batch.push(line);
            if batch.len() < BATCH && !failed {
                continue;
            }
            // A read error is the batch's last line: the checker reports it there.
            if send.send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH))).is_err() || failed {
                return;
            }
        }
        let _ = send.send(batch);
    });
    receive.into_iter().flatten()
}

/// Feeds the proof to `verifier` line by line, as VeriPB's own file loop does, but from any
/// reader and failing on a read error instead of stopping short; the `conclusion` lines seen.
fn verify_lines(verifier: &mut Verifier, reader: Box<dyn BufRead + Send>, path: &Path) -> Result<Vec<String>, String> {
    let mut conclusions = Vec::new();
    let mut read = 0;
    for (index, line) in read_ahead(reader).enumerate() {
        read += 1;
        let number = index + 1;
        LINE.with(|l| l.set(number));
        let line = line.map_err(|e| format!("cannot read {} at line {number}: {e}", path.display()))?;
        if index == 0 && line.trim() != HEADER {
            return Err(format!("the proof does not start with `{HEADER}`"));
        }
        if line.split_whitespace().next() == Some("conclusion") {
            conclusions.push(line.clone());
        }
        let rule = line_to_rule(RuleToken::lexer(&line), &mut verifier.context)
            .map_err(|e| format!("parsing error at {}:{number}: {e}", path.display()))?;
        verifier.execute_rule(index, rule).map_err(|e| format!("{e:#}"))?;
    }
    if read == 0 {
        return Err("the proof is empty".into());
    }
    if !verifier.context.has_end_proof {
        return Err("the proof does not end with `end pseudo-Boolean proof`".into());
    }
    Ok(conclusions)
}

/// The bounds of the proof's single `conclusion BOUNDS` line.
fn conclusion(lines: &[String]) -> Result<Bounds, String> {
    let [line] = lines else {
        return Err(format!("the proof has {} conclusion lines, not one", lines.len()));
    };
    // conclusion BOUNDS lower [: id] upper [: assignment]
    let mut words = line.split_whitespace().skip(1);
    if words.next() != Some("BOUNDS") {
        return Err(format!("the proof concludes `{line}`, not bounds on the objective"));
    }
    let number = |word: Option<&str>| -> Result<i64, String> {
        word.and_then(|w| w.parse().ok()).ok_or_else(|| format!("cannot read the bounds of `{line}`"))
    };
    let lower = number(words.next())?;
    let mut next = words.next();
    if next == Some(":") {
        words.next();
        next = words.next();
    }
    let upper = number(next)?;
    Ok(Bounds { lower, upper })
}

//! `knights-sat solve`: runs the search on a worker thread, shows progress, stops it on
//! `--timeout`, Ctrl-C or SIGTERM, and prints what is known.
//!
//! The worker reports every solver call as an event; the main thread folds the events into
//! [`Knowledge`], so that whenever the search is stopped it can report the best solution found
//! and the best bound proved up to that moment.

use std::io::Write;
use std::path::Path;
use std::sync::mpsc;
use std::time::Instant;

use knights_sat::certify::{CanonicalOrderUse, Certificate, CertifyError, ProofOptions, Speculation};
use knights_sat::driver::TreeProof;
use knights_sat::driver::{Event, Knowledge, Outcome, Solution, Status};
use knights_sat::encodings::puzzle::Puzzle;
use knights_sat::family::{self, Searches};
use knights_sat::render::{self, Report};
use knights_sat::solver::highs::Formulation;

use super::progress::Progress;
use super::settings::SolveSettings;
use super::stop::Signal;
use super::{CliError, Exit};

/// The certificate a certified search wrote, if it wrote one, or why writing it failed.
type Written = Result<Option<Certificate>, CertifyError>;

/// What the worker thread and the signal watch tell the main thread.
enum Message {
    Event(Event),
    /// The certified core-guided search ended: its certificate, if it wrote one.
    Certified(Written),
    /// The certified search of an exchange found no sequence within its model and handed the
    /// puzzle to the plain search: the certificate is written after it, if it finds an optimum.
    HandedOver,
    Finished(Result<Outcome, knights_sat::Error>),
    /// SIGINT or SIGTERM came.
    Stopped(Signal),
}

/// Why a search ended early.
#[derive(Clone)]
enum Stop {
    Timeout,
    Signal(Signal),
    /// The search refused its next step (too large to build) after it had learnt something.
    Refused(String),
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    match (panic.downcast_ref::<&str>(), panic.downcast_ref::<String>()) {
        (Some(s), _) => s.to_string(),
        (_, Some(s)) => s.clone(),
        _ => "unknown panic".to_string(),
    }
}

/// The MIP backend's search (HiGHS), where it is built in.
#[cfg(feature = "mip")]
fn with_mip(
    puzzle: &Puzzle,
    formulation: Formulation,
    max_horizon: usize,
    report: &mut dyn FnMut(&Event),
) -> Result<Outcome, knights_sat::Error> {
    let search = knights_sat::driver::MipSearch { formulation, max_horizon };
    knights_sat::driver::solve_mip(puzzle, &search, report)
}

/// Without HiGHS the settings refuse `--backend mip`; this only names the missing feature.
#[cfg(not(feature = "mip"))]
fn with_mip(_: &Puzzle, _: Formulation, _: usize, _: &mut dyn FnMut(&Event)) -> Result<Outcome, knights_sat::Error> {
    let message = knights_sat::solver::highs::NOT_BUILT.to_string();
    Err(knights_sat::Error::Solver(knights_sat::solver::SolverError { solver: "highs", message }))
}

/// Solves the puzzle and prints the outcome; returns the exit code.
pub fn run(settings: SolveSettings) -> Result<Exit, CliError> {
    let (sender, receiver) = mpsc::channel();
    let interrupt = sender.clone();
    // A second signal ends the process at once.
    super::stop::on_signal(move |signal| {
        let _ = interrupt.send(Message::Stopped(signal));
    });
    let started = Instant::now();
    let certified_search = match &settings.certify {
        Some(dir) if settings.mip.is_none() && certifies_as_it_runs(&settings) => {
            Some((dir.clone(), puzzle_text(&settings)?))
        }
        _ => None,
    };
    let mut as_it_runs = certified_search.is_some();
    let speculation = speculation(&settings, as_it_runs);
    let worker = {
        let puzzle = settings.puzzle.clone();
        let searches = Searches { exchange: settings.search, placement: settings.placement, tour: settings.tour };
        let mip = settings.mip;
        let proof = proof_options(&settings);
        std::thread::Builder::new().name("search".into()).spawn(move || {
            let events = sender.clone();
            let mut report = |event: &Event| {
                let _ = events.send(Message::Event(event.clone()));
            };
            let search = || match (mip, &certified_search) {
                (Some(formulation), _) => with_mip(&puzzle, formulation, searches.exchange.max_horizon, &mut report),
                (None, Some((dir, text))) => {
                    let max_horizon = match &puzzle {
                        Puzzle::Exchange(_) => searches.exchange.max_horizon,
                        _ => searches.tour.max_horizon,
                    };
                    let certify_in = (dir.as_path(), max_horizon);
                    let (outcome, certificate) = certified(&puzzle, text, certify_in, proof, &mut report);
                    match certificate {
                        Some(Ok(None)) if matches!(puzzle, Puzzle::Exchange(_)) => {
                            let _ = sender.send(Message::HandedOver);
                            knights_sat::driver::solve(&puzzle, &searches, &mut report)
                        }
                        Some(certificate) => {
                            let _ = sender.send(Message::Certified(certificate));
                            outcome
                        }
                        None => outcome,
                    }
                }
                (None, None) => knights_sat::driver::solve(&puzzle, &searches, &mut report),
            };
            // A panic in a solver must end the command with an internal error, not leave the
            // main thread waiting for a message that never comes.
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(search))
                .unwrap_or_else(|panic| Err(knights_sat::Error::Panicked(panic_message(panic.as_ref()))));
            let _ = sender.send(Message::Finished(result));
        })?
    };
    let family = family::of(&settings.puzzle);
    let progress = Progress::new(settings.progress.only_if(!settings.json), family.step_unit());
    let mut knowledge = if family.maximises() { Knowledge::maximising() } else { Knowledge::minimising() };
    let mut tree_proof = None;
    let mut certificate = None;
    let (outcome, stop) = loop {
        let message = match settings.timeout {
            Some(limit) => match limit.checked_sub(started.elapsed()) {
                Some(left) => receiver.recv_timeout(left).ok(),
                None => None,
            },
            None => receiver.recv().ok(),
        };
        match message {
            Some(Message::Event(Event::TreeProof(tree))) => tree_proof = Some(tree),
            Some(Message::Certified(written)) => certificate = Some(written),
            Some(Message::HandedOver) => as_it_runs = false,
            Some(Message::Event(event)) => {
                if let Some(speculation) = &speculation {
                    speculation.observe(&event);
                }
                progress.observe(&event);
                knowledge.observe(&event);
            }
            Some(Message::Finished(Err(knights_sat::Error::StepTooLarge(why)))) => {
                // A step too large to build, refused after the search proved a bound or found a
                // solution: that knowledge is the answer so far, as after a time limit.
                let so_far = knowledge.outcome(started.elapsed(), None);
                let nothing = if family.maximises() { Knowledge::maximising() } else { Knowledge::minimising() };
                if so_far.bound == nothing.outcome(started.elapsed(), None).bound && so_far.value.is_none() {
                    return Err(CliError::Search(knights_sat::Error::StepTooLarge(why)));
                }
                break (so_far, Some(Stop::Refused(why)));
            }
            Some(Message::Finished(result)) => break (result?, None),
            Some(Message::Stopped(signal)) => {
                break (knowledge.outcome(started.elapsed(), None), Some(Stop::Signal(signal)))
            }
            None => break (knowledge.outcome(started.elapsed(), None), Some(Stop::Timeout)),
        }
    };
    progress.finish();
    let stopped = stop.as_ref().map(|s| match s {
        Stop::Timeout => {
            format!("stopped after the time limit of {:.1} s", settings.timeout.unwrap_or_default().as_secs_f64())
        }
        Stop::Signal(signal) => signal.stopped_by().to_string(),
        Stop::Refused(why) => format!("stopped: the chosen model cannot take the next step: {why}"),
    });
    let report = Report {
        puzzle: &settings.puzzle,
        source: &settings.source,
        solver: settings.search.solver,
        mip: settings.mip,
        incremental: settings.search.incremental,
        placement: settings.puzzle.placement().map(|_| settings.placement),
        outcome: &outcome,
        stopped: stopped.as_deref(),
    };
    let mut out = std::io::stdout().lock();
    if settings.json {
        render::json(&report, &mut out)?;
    } else {
        render::text(&report, &mut out)?;
    }
    out.flush()?;
    if let Some(path) = &settings.svg {
        draw(&settings.puzzle, outcome.solution.as_ref(), path, settings.svg_attacks)?;
    }
    if let Some(dir) = &settings.certify {
        match certificate {
            Some(Ok(Some(certificate))) if outcome.status == Status::Optimal => announce(&settings, &certificate),
            Some(Err(e)) => return Err(e.into()),
            Some(_) => {
                eprintln!("knights-sat: no certificate written to {}: the search proved no optimum", dir.display())
            }
            None if as_it_runs => {
                // Stopped while the search was writing its proof: what it wrote proves nothing.
                for name in [knights_sat::certify::PROOF, knights_sat::certify::PROOF_GZ] {
                    let _ = std::fs::remove_file(dir.join(name));
                }
                let _ = std::fs::remove_dir(dir);
                eprintln!("knights-sat: no certificate written to {}: the search proved no optimum", dir.display())
            }
            None => write_certificate(&settings, &outcome, tree_proof.as_deref(), dir, speculation)?,
        }
    }
    if matches!(stop, None | Some(Stop::Refused(_))) {
        // The worker has finished; joining it only collects the thread.
        let _ = worker.join();
    }
    Ok(match outcome.status {
        Status::Optimal | Status::Feasible => Exit::Solved,
        Status::Infeasible => Exit::Infeasible,
        Status::Unknown => Exit::Unknown,
    })
}

/// A size in bytes, in KiB or MiB.
fn size(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    } else {
        format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
    }
}

/// Writes the certificate of an optimal outcome into `dir` and says so (on stderr with
/// `--json`, so that standard output stays one JSON object).
fn write_certificate(
    settings: &SolveSettings,
    outcome: &Outcome,
    tree: Option<&TreeProof>,
    dir: &std::path::Path,
    speculation: Option<Speculation>,
) -> Result<(), CliError> {
    let (Status::Optimal, Some(solution), Some(value)) = (outcome.status, &outcome.solution, outcome.value) else {
        if let Some(speculation) = speculation {
            speculation.finish(None);
        }
        eprintln!("knights-sat: no certificate written to {}: the search proved no optimum", dir.display());
        return Ok(());
    };
    let text = puzzle_text(settings)?;
    let display = Progress::step(
        settings.progress.only_if(!settings.json),
        format!("writing the certificate: proving that no solution beats {value}"),
    );
    // The proof begun during the search, finished with the solution, if a lane proved the bound.
    let begun =
        speculation.and_then(|speculation| match family::of(&settings.puzzle).certified_assignment(solution, value) {
            Ok((_, assignment, _)) => speculation.finish(Some((value, assignment))),
            Err(_) => speculation.finish(None),
        });
    let certificate = match begun {
        Some(Ok(finished)) => {
            knights_sat::certify::certify_begun(&settings.puzzle, &text, solution, value, dir, finished)
        }
        _ => knights_sat::certify::certify_with(
            &settings.puzzle,
            &text,
            solution,
            value,
            dir,
            proof_options(settings),
            tree,
        ),
    };
    display.finish();
    let certificate = certificate?;
    announce(settings, &certificate);
    Ok(())
}

/// How the certificate's proof is written, as the settings say.
fn proof_options(settings: &SolveSettings) -> ProofOptions {
    ProofOptions { compression: settings.proof_compression, canonical_order: settings.certify_canonical_order }
}

/// A certificate begun while the search runs, where the puzzle's family allows one
/// ([`Speculation`]): with `--certify`, the SAT backend and a horizon search on one thread,
/// which leaves a core to it.
fn speculation(settings: &SolveSettings, certified_as_it_runs: bool) -> Option<Speculation> {
    let dir = settings.certify.as_ref()?;
    if certified_as_it_runs || settings.mip.is_some() || settings.search.threads > 1 {
        return None;
    }
    Speculation::start(&settings.puzzle, dir, proof_options(settings))
}

/// The puzzle as the certificate copies it: a puzzle file as it is, comments and all; a puzzle
/// given by flags written out.
fn puzzle_text(settings: &SolveSettings) -> Result<String, CliError> {
    Ok(match &settings.file {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| CliError::Output(std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))))?,
        None => knights_sat::encodings::puzzle::to_toml(&settings.puzzle),
    })
}

/// Whether the search itself writes the certificate as it runs (the core-guided search of a
/// placement, [`knights_sat::certify::core_guided`]; the horizon search of a lone knight's tour
/// from any square, [`knights_sat::certify::traced_tour`]).
#[cfg(unix)]
fn certifies_as_it_runs(settings: &SolveSettings) -> bool {
    match &settings.puzzle {
        Puzzle::Exchange(exchange) => {
            let auto = settings.certify_canonical_order == CanonicalOrderUse::Auto;
            knights_sat::certify::traced_exchange::applies(exchange, auto)
        }
        Puzzle::Tour(tour) => knights_sat::certify::traced_tour::applies(tour),
        puzzle => {
            puzzle.placement().is_some_and(|p| knights_sat::certify::core_guided::applies(p, &settings.placement))
        }
    }
}

#[cfg(not(unix))]
fn certifies_as_it_runs(_: &SolveSettings) -> bool {
    false
}

/// The certified core-guided search: its outcome, and the certificate it wrote (`None` when
/// the search itself failed).
#[cfg(unix)]
fn certified(
    puzzle: &Puzzle,
    text: &str,
    (dir, max_horizon): (&std::path::Path, usize),
    proof: ProofOptions,
    report: &mut dyn FnMut(&Event),
) -> (Result<Outcome, knights_sat::Error>, Option<Written>) {
    let compression = proof.compression;
    let started = Instant::now();
    let mut knowledge = if family::of(puzzle).maximises() { Knowledge::maximising() } else { Knowledge::minimising() };
    let mut observe = |event| {
        knowledge.observe(&event);
        report(&event);
    };
    let written = match puzzle {
        Puzzle::Exchange(exchange) => {
            let how = (compression, proof.canonical_order == CanonicalOrderUse::Always);
            let horizon = knights_sat::certify::traced_exchange::first_horizon(exchange).min(max_horizon);
            knights_sat::certify::certify_traced_exchange(puzzle, text, horizon, dir, how, &mut observe)
        }
        Puzzle::Tour(_) => {
            knights_sat::certify::certify_traced_tour(puzzle, text, max_horizon, dir, compression, &mut observe)
        }
        _ => knights_sat::certify::certify_core_guided(puzzle, text, dir, compression, &mut observe),
    };
    match written {
        Err(CertifyError::Search(e)) => (Err(e), None),
        written => (Ok(knowledge.outcome(started.elapsed(), None)), Some(written)),
    }
}

#[cfg(not(unix))]
fn certified(
    _: &Puzzle,
    _: &str,
    _: (&std::path::Path, usize),
    _: ProofOptions,
    _: &mut dyn FnMut(&Event),
) -> (Result<Outcome, knights_sat::Error>, Option<Written>) {
    (Err(knights_sat::Error::Internal("no certified search on this system".into())), None)
}

/// Says where the certificate went and what its proof holds (on stderr with `--json`, so that
/// standard output stays one JSON object).
fn announce(settings: &SolveSettings, certificate: &Certificate) {
    let dir = &certificate.dir;
    let (figures, proof) = (certificate.figures, &certificate.proof);
    let compressed = if proof.stored_bytes == proof.text_bytes {
        String::new()
    } else {
        format!(", {} gzipped", size(proof.stored_bytes))
    };
    let what = match (figures.from_search, figures.cores) {
        (false, _) if let Some(argument) = figures.decided_by => {
            format!("{} rows, decided by {argument}", figures.rows)
        }
        (true, Some(cores)) => format!("the search's own trace, {cores} cores, {} lemmas", figures.lemmas),
        (true, None) if let Some(horizons) = figures.horizons => {
            let swaps = match figures.swaps {
                0 => String::new(),
                n => format!(", {n} swaps of moves ruled out by dominance"),
            };
            format!("the search's own trace, {horizons} horizons refuted{swaps}, {} lemmas", figures.lemmas)
        }
        (true, None) if figures.reused > 0 => {
            format!("the search's tree, {} steps, {} subtrees used again", figures.lemmas, figures.reused)
        }
        (true, None) => format!("the search's tree, {} steps", figures.lemmas),
        (false, _) => {
            let swaps = match figures.swaps {
                0 => String::new(),
                n => format!(", {n} swaps of moves ruled out by dominance"),
            };
            let during = if figures.ahead { " during the search" } else { "" };
            match figures.refuter {
                Some(refuter) => {
                    format!(
                        "{} clauses{swaps}, {} lemmas by {}{during}",
                        figures.clauses,
                        figures.lemmas,
                        refuter.name()
                    )
                }
                None => format!("{} clauses{swaps}, {} lemmas", figures.clauses, figures.lemmas),
            }
        }
    };
    let line = format!(
        "certificate: {} ({} variables, {what}, proof {} lines, {}{compressed}, {:.2} s); check it with `knights-sat verify {}`",
        dir.display(),
        certificate.model_variables,
        proof.lines,
        size(proof.text_bytes),
        figures.seconds,
        dir.display()
    );
    if settings.json {
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
}

/// Draws `solution` as an SVG picture into `path` (`--svg`); with none, says so and writes
/// nothing.
pub(super) fn draw(puzzle: &Puzzle, solution: Option<&Solution>, path: &Path, attacks: bool) -> Result<(), CliError> {
    match solution.and_then(|s| family::of(puzzle).svg(s, attacks)) {
        Some(svg) => std::fs::write(path, svg)
            .map_err(|e| CliError::Output(std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))),
        None => {
            eprintln!("knights-sat: no solution to draw; {} not written", path.display());
            Ok(())
        }
    }
}

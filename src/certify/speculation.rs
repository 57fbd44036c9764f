//! Certificates begun while the horizon search runs, on the core it leaves free.
//!
//! The horizon search of an exchange asks "a solution in `h` moves?" for `h = 1, 2, …` on one
//! core. Its certificate at the optimum `v` is a proof of "no solution in `v - 1` moves or
//! fewer" and the solution ([`super::ahead`]), and the first part needs no solution: it can be
//! written while the search still runs. One lane at a time refutes "at most `k` moves" in the
//! model of at most `k + 1`, chosen from what the search has told so far:
//!
//! - the horizon `p` last proved unreachable, if no lane has refuted it yet: that lane is the
//!   certificate if `p + 1` turns out solvable, and it cannot fail;
//! - otherwise the horizon the search is asking about: a bet that it is the last unreachable
//!   one, the hardest as a rule. It is a second proof of what the search is proving, begun
//!   with it.
//!
//! A lane states the canonical order of moves (`--certify-canonical-order`, [`CanonicalOrderUse`])
//! if asked to always, or by default once the search has spent [`HARD_HORIZON_SECONDS`] on a
//! horizon. Lanes below the last unreachable horizon are dropped. When the search ends optimal at `v`,
//! the lane of `v - 1` is finished with the solution and its proof moved into the certificate;
//! without one the certificate is written as before, after the search.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;

use super::argument::Argument;
use super::directory::{CanonicalOrderUse, ProofOptions, HARD_HORIZON_SECONDS};
use super::proof_file::{ProofCompression, ProofWriter, StoredProof};
use super::prove::ProofFigures;
use super::CertifyError;
use crate::driver::{Event, Query};
use crate::encodings::puzzle::Puzzle;
use crate::family;
use crate::solver::Answer;

/// What the lanes and the search tell the manager.
enum Message {
    /// The search asks about this horizon.
    Searching(usize),
    /// The search proved this horizon unreachable, in so many seconds.
    Refuted(usize, f64),
    /// The lane of this horizon has written its lower bound (`true`) or failed (`false`).
    Begun(usize, bool),
    /// The search ended: its optimum and the solution as values of the certified model's
    /// variables, or nothing to certify.
    Ended(Option<(usize, Vec<bool>)>),
}

/// What a lane gives back: its finished proof, or why there is none.
type Finished = Result<(StoredProof, ProofFigures), CertifyError>;

/// A lane refuting "at most `k` moves".
struct Lane {
    stop: Arc<AtomicBool>,
    finish: mpsc::Sender<Option<Vec<bool>>>,
    handle: JoinHandle<Finished>,
    begun: bool,
}

impl Lane {
    /// Stops the lane; its thread removes its folder and ends on its own, to be joined with
    /// [`join_all`] when the speculation ends.
    fn drop_lane(self, dropped: &mut Vec<JoinHandle<Finished>>) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.finish.send(None);
        dropped.push(self.handle);
    }
}

/// Waits for the threads of dropped lanes.
fn join_all(dropped: Vec<JoinHandle<Finished>>) {
    for handle in dropped {
        let _ = handle.join();
    }
}

/// Certificates begun during a search: [`Speculation::observe`] every event of the search,
/// then [`Speculation::finish`].
pub struct Speculation {
    messages: mpsc::Sender<Message>,
    manager: JoinHandle<Option<Finished>>,
}

impl Speculation {
    /// Starts the manager for `puzzle`'s certificate in `dir`, if its family's certificate can
    /// prove its bound ahead ([`family::Family::bound_ahead`]) and CaDiCaL's trace can be read
    /// (Unix).
    pub fn start(puzzle: &Puzzle, dir: &Path, options: ProofOptions) -> Option<Speculation> {
        if !cfg!(unix) || family::of(puzzle).bound_ahead(1).is_none() {
            return None;
        }
        let (messages, inbox) = mpsc::channel();
        let manager = {
            let (puzzle, dir, lanes) = (puzzle.clone(), dir.to_path_buf(), messages.clone());
            std::thread::Builder::new()
                .name("certify-ahead".into())
                .spawn(move || manage(&puzzle, &dir, options, &inbox, &lanes))
                .ok()?
        };
        Some(Speculation { messages, manager })
    }

    /// Tells the manager what the search did.
    pub fn observe(&self, event: &Event) {
        let message = match event {
            Event::Trying { horizon, query: Query::Goal } => Message::Searching(*horizon),
            Event::Step(step) if step.query == Query::Goal && step.result == Answer::Unsat => {
                Message::Refuted(step.horizon, step.seconds)
            }
            _ => return,
        };
        let _ = self.messages.send(message);
    }

    /// Ends the speculation: with the optimum `value` and the solution as values of the
    /// certified model's variables, the proof of the lane that refuted `value - 1`, if there is
    /// one; with `None`, every lane is dropped.
    pub fn finish(self, optimum: Option<(usize, Vec<bool>)>) -> Option<Finished> {
        let _ = self.messages.send(Message::Ended(optimum));
        self.manager.join().ok().flatten()
    }
}

/// The manager's loop.
fn manage(
    puzzle: &Puzzle,
    dir: &Path,
    options: ProofOptions,
    inbox: &mpsc::Receiver<Message>,
    outbox: &mpsc::Sender<Message>,
) -> Option<Finished> {
    let mut lanes: BTreeMap<usize, Lane> = BTreeMap::new();
    let mut dropped = Vec::new();
    let (mut proven, mut searching): (Option<usize>, Option<usize>) = (None, None);
    // Whether lanes state the canonical order: `auto` turns it on once a horizon was hard.
    let mut order = options.canonical_order == CanonicalOrderUse::Always;
    loop {
        let Ok(message) = inbox.recv() else {
            lanes.into_values().for_each(|lane| lane.drop_lane(&mut dropped));
            join_all(dropped);
            return None;
        };
        match message {
            Message::Searching(h) => searching = searching.max(Some(h)),
            Message::Refuted(h, seconds) => {
                proven = proven.max(Some(h));
                order |= options.canonical_order == CanonicalOrderUse::Auto && seconds >= HARD_HORIZON_SECONDS;
            }
            Message::Begun(k, written) => {
                if written {
                    if let Some(lane) = lanes.get_mut(&k) {
                        lane.begun = true;
                    }
                } else if let Some(lane) = lanes.remove(&k) {
                    lane.drop_lane(&mut dropped);
                }
            }
            Message::Ended(optimum) => {
                let wanted = optimum.as_ref().and_then(|(value, _)| value.checked_sub(1));
                let mut finished = None;
                for (k, lane) in std::mem::take(&mut lanes) {
                    match &optimum {
                        Some((_, solution)) if Some(k) == wanted => {
                            let _ = lane.finish.send(Some(solution.clone()));
                            finished = lane.handle.join().ok();
                        }
                        _ => lane.drop_lane(&mut dropped),
                    }
                }
                join_all(dropped);
                return finished;
            }
        }
        if let Some(p) = proven {
            let below: Vec<usize> = lanes.range(..p).map(|(&k, _)| k).collect();
            for k in below {
                if let Some(lane) = lanes.remove(&k) {
                    lane.drop_lane(&mut dropped);
                }
            }
        }
        if lanes.values().all(|lane| lane.begun) {
            let target = match proven {
                Some(p) if !lanes.contains_key(&p) => Some(p),
                _ => searching.filter(|&h| Some(h) > proven && !lanes.contains_key(&h)),
            };
            if let Some(k) = target {
                if let Some(lane) = spawn_lane(puzzle, dir, (options.compression, order), k, outbox) {
                    lanes.insert(k, lane);
                }
            }
        }
    }
}

/// Starts the lane refuting "at most `k` moves".
fn spawn_lane(
    puzzle: &Puzzle,
    dir: &Path,
    options: (ProofCompression, bool),
    k: usize,
    outbox: &mpsc::Sender<Message>,
) -> Option<Lane> {
    let stop = Arc::new(AtomicBool::new(false));
    let (finish, finishing) = mpsc::channel();
    let (puzzle, folder, outbox, flag) =
        (puzzle.clone(), dir.join(format!(".proof-ahead-{}", k + 1)), outbox.clone(), stop.clone());
    let handle = std::thread::Builder::new()
        .name(format!("certify-ahead-{k}"))
        .spawn(move || {
            let finished = run_lane(&puzzle, &folder, options, k, &flag, &outbox, &finishing);
            let _ = std::fs::remove_dir_all(&folder);
            finished
        })
        .ok()?;
    Some(Lane { stop, finish, handle, begun: false })
}

/// [`super::ahead::begin`], where CaDiCaL's trace can be read.
fn begin<W: Write>(
    model: &crate::encodings::linear::LinearModel,
    last: usize,
    argument: Option<&Argument>,
    writer: W,
    stop: &AtomicBool,
) -> Result<super::ahead::Begun<W>, CertifyError> {
    #[cfg(unix)]
    return super::ahead::begin(model, last, argument, writer, stop);
    #[cfg(not(unix))]
    {
        let _ = (model, last, argument, writer, stop);
        Err(CertifyError::Unsupported("CaDiCaL's proof trace needs Unix".into()))
    }
}

/// One lane: the lower bound `k + 1` written into `folder`, then, if the solution comes, the
/// proof finished and moved out of `folder` (into its parent, the certificate).
fn run_lane(
    puzzle: &Puzzle,
    folder: &PathBuf,
    (compression, order): (ProofCompression, bool),
    k: usize,
    stop: &AtomicBool,
    outbox: &mpsc::Sender<Message>,
    finishing: &mpsc::Receiver<Option<Vec<bool>>>,
) -> Finished {
    let family = family::of(puzzle);
    let value = k + 1;
    let Some((model, last)) = family.bound_ahead(value) else {
        let _ = outbox.send(Message::Begun(k, false));
        return Err(CertifyError::Unsupported("no bound ahead".into()));
    };
    let stopped = || stop.load(Ordering::Relaxed);
    let argument = match order && !stopped() {
        true => family.canonical_order(value).map(Argument::Swaps),
        false => None,
    };
    if stopped() {
        let _ = outbox.send(Message::Begun(k, false));
        return Err(CertifyError::Stopped);
    }
    let mut file = match std::fs::create_dir_all(folder).and_then(|()| ProofWriter::create(folder, compression)) {
        Ok(file) => file,
        Err(e) => {
            let _ = outbox.send(Message::Begun(k, false));
            return Err(e.into());
        }
    };
    let begun = match begin(&model, last, argument.as_ref(), file.writer(), stop) {
        Ok(begun) => begun,
        Err(e) => {
            let _ = outbox.send(Message::Begun(k, false));
            return Err(e);
        }
    };
    let _ = outbox.send(Message::Begun(k, true));
    let Ok(Some(solution)) = finishing.recv() else { return Err(CertifyError::Stopped) };
    let (writer, figures) = begun.conclude(&model, &solution)?;
    writer.flush()?;
    let parent = folder.parent().ok_or_else(|| CertifyError::Internal("a lane outside the certificate".into()))?;
    super::proof_file::remove_proofs(parent)?;
    let stored = file.finish()?.move_into(parent)?;
    Ok((stored, figures))
}

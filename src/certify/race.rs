//! Two refuters race for a certificate's proof: varisat and CaDiCaL (traced in LRAT) each
//! write a whole proof of their own, in a folder of their own inside the certificate's; the
//! first to finish is moved into place and stops the other.
//!
//! Neither solver refutes every model faster. On the at-most model of a lone knight around a
//! queen on b2 of a 7x7 board (32 moves), varisat had not finished after 200 s where CaDiCaL's
//! proof took 22 s alone (33 s racing); on Finegold's listed order varisat took 0.9 s and
//! CaDiCaL 3.7 s. Racing costs a second core for as long as the winner takes, and never waits
//! for the loser. On one core the race would halve both, so there varisat refutes alone.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use super::proof_file::{self, ProofCompression, ProofWriter, StoredProof};
use super::prove::{self, ProofFigures, Refuter};
use super::{Argument, CertifyError};
use crate::encodings::linear::LinearModel;

/// The racers, in the order their folders are named.
#[cfg(unix)]
const RACERS: [Refuter; 2] = [Refuter::Varisat, Refuter::Cadical];
/// Without Unix, CaDiCaL's trace has no pipe: varisat alone.
#[cfg(not(unix))]
const RACERS: [Refuter; 1] = [Refuter::Varisat];

/// The folder inside the certificate where `refuter` writes its proof.
fn lane(dir: &Path, refuter: Refuter) -> PathBuf {
    dir.join(match refuter {
        Refuter::Varisat => ".proof-varisat",
        Refuter::Cadical => ".proof-cadical",
    })
}

/// Writes the proof that `solution` is optimal for `model` into the certificate `dir`, stored
/// as `compression` says: by the first of the refuters to finish, on `threads` threads (one
/// racer for each, at most all of them); its file and figures.
pub(super) fn prove_optimal(
    model: &LinearModel,
    solution: &[bool],
    colour: Option<&Argument>,
    dir: &Path,
    compression: ProofCompression,
    threads: usize,
) -> Result<(StoredProof, ProofFigures), CertifyError> {
    // An argument that decides alone leaves nothing to race for.
    let threads = if colour.is_some_and(Argument::decides_alone) { 1 } else { threads };
    let racers = &RACERS[..threads.clamp(1, RACERS.len())];
    if let [refuter] = racers {
        return run(model, solution, colour, *refuter, dir, compression, &AtomicBool::new(false));
    }
    proof_file::remove_proofs(dir)?;
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    let outcome = std::thread::scope(|scope| {
        for &refuter in racers {
            let (sender, stop) = (sender.clone(), &stop);
            scope.spawn(move || {
                let result = run(model, solution, colour, refuter, &lane(dir, refuter), compression, stop);
                if result.is_ok() {
                    stop.store(true, Ordering::Relaxed);
                }
                // The receiver waits for every racer, so the send cannot fail.
                let _ = sender.send(result);
            });
        }
        drop(sender);
        let mut winner = None;
        let mut failure = None;
        for result in receiver {
            match result {
                Ok(proof) if winner.is_none() => winner = Some(proof),
                Ok(_) | Err(CertifyError::Stopped) => {}
                Err(e) => failure = failure.or(Some(e)),
            }
        }
        winner.ok_or_else(|| failure.unwrap_or_else(|| CertifyError::Internal("no refuter finished".into())))
    });
    let moved = outcome.and_then(|(stored, figures)| Ok((stored.move_into(dir)?, figures)));
    for &refuter in racers {
        match std::fs::remove_dir_all(lane(dir, refuter)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound && moved.is_ok() => return Err(e.into()),
            _ => {}
        }
    }
    moved
}

/// One racer: its proof written into the folder `lane`, until `stop` is set.
fn run(
    model: &LinearModel,
    solution: &[bool],
    colour: Option<&Argument>,
    refuter: Refuter,
    lane: &Path,
    compression: ProofCompression,
    stop: &AtomicBool,
) -> Result<(StoredProof, ProofFigures), CertifyError> {
    std::fs::create_dir_all(lane)?;
    let mut proof = ProofWriter::create(lane, compression)?;
    match prove::prove_optimal_until(model, solution, colour, refuter, proof.writer(), stop) {
        Ok(figures) => Ok((proof.finish()?, figures)),
        Err(e) => {
            proof.discard();
            Err(e)
        }
    }
}

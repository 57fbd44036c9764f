//! The refutation by CaDiCaL, traced in LRAT and written as VeriPB `rup` steps with hints.
//!
//! CaDiCaL 1.9.5 (compiled by the `cadical` crate, whose static library carries CaDiCaL's own C
//! interface, `ccadical.h`) writes an LRAT proof when its `lrat` option is set: every clause it
//! adds, by conflict analysis or by any of its inprocessing (variable elimination and
//! vivification included), comes with the clauses that, in order, became unit and then false
//! under its negation. The proof goes through a pipe: CaDiCaL solves on a thread of its own and
//! writes, this thread reads each line and writes it into the VeriPB proof at once, so that
//! neither side holds the whole trace.
//!
//! Input clauses are numbered by CaDiCaL from 1 in the order they are added, with lemmas found
//! during the adding taking numbers in between; `origins` names the VeriPB constraint that
//! stands for each input. Each LRAT lemma becomes `rup clause : hints`,
//! and each LRAT deletion of a lemma deletes its VeriPB constraint. A hint VeriPB cannot name
//! (an input without an origin, a negative RAT hint) drops the hints of that step: VeriPB then
//! propagates over its whole database, which is slower but checks the same clause.

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd};

use pigeons::{AbsConstraintId, ConstraintId, Proof, SubproofElement};
use rustsat::types::{Clause, Lit, Var};

use super::trace::Refutation;
use super::CertifyError;

// CaDiCaL's C interface (cadical/src/ccadical.h), from the static library `libccadical` that
// the `cadical` crate builds and links.
extern "C" {
    fn ccadical_init() -> *mut c_void;
    fn ccadical_release(solver: *mut c_void);
    fn ccadical_set_option(solver: *mut c_void, name: *const c_char, value: c_int);
    fn ccadical_trace_proof(solver: *mut c_void, file: *mut libc::FILE, name: *const c_char) -> c_int;
    fn ccadical_close_proof(solver: *mut c_void);
    fn ccadical_add(solver: *mut c_void, lit: c_int);
    fn ccadical_solve(solver: *mut c_void) -> c_int;
}

// Keeps the `cadical` crate, and with it the static library, in the link.
#[allow(unused_imports)]
use cadical as _;

/// Solves `clauses` with CaDiCaL, writing its LRAT trace into the pipe `write_end`; the
/// answer, as CaDiCaL gives it (10 satisfiable, 20 unsatisfiable).
fn solve_traced(clauses: &[Clause], write_end: OwnedFd) -> Result<c_int, String> {
    let literal = |l: &Lit| -> Result<c_int, String> {
        let number = c_int::try_from(l.var().idx() + 1).map_err(|_| "a variable past CaDiCaL's range".to_string())?;
        Ok(if l.is_pos() { number } else { -number })
    };
    let numbers: Vec<Vec<c_int>> =
        clauses.iter().map(|clause| clause.iter().map(literal).collect()).collect::<Result<_, _>>()?;
    let fd = write_end.into_raw_fd();
    // SAFETY: `fd` is an open pipe end that this function now owns; the mode is a C string.
    let file = unsafe { libc::fdopen(fd, c"w".as_ptr()) };
    if file.is_null() {
        // SAFETY: fdopen failed, so the descriptor is still ours to close.
        unsafe { libc::close(fd) };
        return Err("cannot open the proof pipe".into());
    }
    // SAFETY: the solver is created, used and released on this thread only; every option is
    // set, and the trace connected, before the first clause, as CaDiCaL requires; the file
    // stays open until the trace is closed, and is closed only after.
    unsafe {
        let solver = ccadical_init();
        ccadical_set_option(solver, c"lrat".as_ptr(), 1);
        ccadical_set_option(solver, c"binary".as_ptr(), 0);
        ccadical_trace_proof(solver, file, c"refutation".as_ptr());
        for clause in &numbers {
            for &lit in clause {
                ccadical_add(solver, lit);
            }
            ccadical_add(solver, 0);
        }
        let answer = ccadical_solve(solver);
        ccadical_close_proof(solver);
        ccadical_release(solver);
        libc::fclose(file);
        Ok(answer)
    }
}

/// Writes each LRAT line into the VeriPB proof.
struct Translator<'p, W: Write> {
    proof: &'p mut Proof<W>,
    origins: &'p [Option<AbsConstraintId>],
    /// The VeriPB constraint of each LRAT lemma not deleted.
    lemmas: HashMap<u64, AbsConstraintId>,
    /// The number of every LRAT lemma so far, deleted or not, in increasing order.
    numbered: Vec<u64>,
    count: usize,
    empty: Option<AbsConstraintId>,
}

impl<W: Write> Translator<'_, W> {
    /// The VeriPB constraint of LRAT clause `id`, if it can be named.
    ///
    /// Input clauses and lemmas share one count: a clause CaDiCaL derives while the input is
    /// still being added (a unit found at once, an input shortened by one) takes the next
    /// number, and the next input the one after. So input `k` (from 0) is the number that is
    /// the `k`-th not taken by a lemma, and every lemma below it has been read before it.
    fn constraint(&self, id: i64) -> Option<ConstraintId> {
        let id = u64::try_from(id).ok()?;
        if let Some(&number) = self.lemmas.get(&id) {
            return Some(number.into());
        }
        let below = self.numbered.partition_point(|&n| n < id);
        if self.numbered.get(below) == Some(&id) {
            return None; // a deleted lemma: named by nothing any more
        }
        let index = usize::try_from(id).ok()?.checked_sub(1 + below)?;
        self.origins.get(index).copied().flatten().map(ConstraintId::from)
    }

    fn line(&mut self, line: &str) -> Result<(), String> {
        let mut tokens = line.split_ascii_whitespace();
        let Some(first) = tokens.next() else { return Ok(()) };
        let bad = || format!("CaDiCaL's LRAT line cannot be read: {line}");
        let id: u64 = first.parse().map_err(|_| bad())?;
        let rest: Vec<&str> = tokens.collect();
        if rest.first() == Some(&"d") {
            for token in &rest[1..] {
                let deleted: u64 = token.parse().map_err(|_| bad())?;
                if deleted == 0 {
                    break;
                }
                if let Some(number) = self.lemmas.remove(&deleted) {
                    let none: [SubproofElement<Var, Clause>; 0] = [];
                    self.proof.delete_ids([ConstraintId::from(number)], none).map_err(|e| e.to_string())?;
                }
            }
            return Ok(());
        }
        let numbers: Vec<i64> = rest.iter().map(|t| t.parse().map_err(|_| bad())).collect::<Result<_, _>>()?;
        let split = numbers.iter().position(|&n| n == 0).ok_or_else(bad)?;
        let (lits, hints) = (&numbers[..split], &numbers[split + 1..]);
        let clause: Clause = lits
            .iter()
            .map(|&n| {
                let var = Var::new(u32::try_from(n.unsigned_abs() - 1).map_err(|_| bad())?);
                Ok(if n > 0 { var.pos_lit() } else { var.neg_lit() })
            })
            .collect::<Result<_, String>>()?;
        let hints = hints.iter().take_while(|&&h| h != 0);
        let hints: Option<Vec<ConstraintId>> = hints.map(|&h| self.constraint(h)).collect();
        let number = self.proof.reverse_unit_prop(&clause, hints.unwrap_or_default()).map_err(|e| e.to_string())?;
        self.count += 1;
        if clause.is_empty() {
            self.empty = Some(number);
        }
        self.lemmas.insert(id, number);
        // Lemmas come in increasing numbers; one out of order (numbered before it was written)
        // is still counted where it belongs.
        match self.numbered.last() {
            Some(&last) if last >= id => {
                let at = self.numbered.partition_point(|&n| n < id);
                if self.numbered.get(at) == Some(&id) {
                    return Err(format!("CaDiCaL numbered two lemmas {id}"));
                }
                self.numbered.insert(at, id);
            }
            _ => self.numbered.push(id),
        }
        Ok(())
    }
}

/// [`super::trace::refute`], by CaDiCaL: the refutation of `clauses` logged into `proof`,
/// each input named by its origin.
pub fn refute<W: Write>(
    clauses: &[Clause],
    origins: &[Option<AbsConstraintId>],
    proof: &mut Proof<W>,
) -> Result<(AbsConstraintId, Refutation), CertifyError> {
    let started = std::time::Instant::now();
    let mut fds = [0 as c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe() writes.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err(CertifyError::Io(std::io::Error::last_os_error()));
    }
    // SAFETY: both descriptors were just opened by pipe() and are owned from here on.
    let (read_end, write_end) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let mut translator =
        Translator { proof, origins, lemmas: HashMap::new(), numbered: Vec::new(), count: 0, empty: None };
    let (answer, written) = std::thread::scope(|scope| {
        let solver = scope.spawn(move || solve_traced(clauses, write_end));
        // Every line is read even after a failure, so that the solver never blocks on the pipe.
        let mut written: Result<(), String> = Ok(());
        for line in BufReader::new(std::fs::File::from(read_end)).lines() {
            match line {
                Ok(line) if written.is_ok() => written = translator.line(&line),
                Ok(_) => {}
                Err(e) => {
                    written = written.and(Err(e.to_string()));
                }
            }
        }
        let answer = solver.join().unwrap_or_else(|_| Err("the CaDiCaL thread panicked".into()));
        (answer, written)
    });
    let seconds = started.elapsed().as_secs_f64();
    let answer = answer.map_err(|e| CertifyError::Internal(format!("CaDiCaL: {e}")))?;
    written.map_err(|e| CertifyError::Internal(format!("translating CaDiCaL's proof: {e}")))?;
    if answer != 10 && answer != 20 {
        return Err(CertifyError::Internal(format!("CaDiCaL answered {answer}, not a refutation")));
    }
    let (lemmas, empty) = (translator.count, translator.empty);
    super::trace::conclude(proof, answer == 10, empty, Refutation { lemmas, seconds })
}

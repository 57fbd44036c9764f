//! The refutation by CaDiCaL, traced in LRAT and written as VeriPB `rup` steps with hints.
//!
//! CaDiCaL 1.9.5 (compiled by the `cadical` crate, whose static library carries CaDiCaL's own C
//! interface, `ccadical.h`) writes an LRAT proof when its `lrat` option is set: every clause it
//! adds, by conflict analysis or by any of its inprocessing (variable elimination and
//! vivification included), comes with the clauses that, in order, became unit and then false
//! under its negation. For a refutation ([`refute`]) the proof goes through a pipe: CaDiCaL
//! solves on a thread of its own and writes, this thread reads each line and writes it into
//! the VeriPB proof at once, so that neither side holds the whole trace. For a search of many
//! calls under assumptions ([`Traced`], the certified core-guided search) it goes through a
//! file, read after each call.
//!
//! Input clauses are numbered by CaDiCaL from 1 in the order they are added, with lemmas found
//! during the adding taking numbers in between; `origins` names the VeriPB constraint that
//! stands for each input. Each LRAT lemma becomes `rup clause : hints`,
//! and each LRAT deletion of a lemma deletes its VeriPB constraint. A hint VeriPB cannot name
//! (an input without an origin, a negative RAT hint) drops the hints of that step: VeriPB then
//! propagates over its whole database, which is slower but checks the same clause.

use std::ffi::{c_char, c_int, c_void};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};

use pigeons::{AbsConstraintId, ConstraintId, Proof, SubproofElement};
use rustc_hash::FxHashMap as HashMap;
use rustsat::types::{Clause, Lit, Var};

use super::trace::Refutation;
use super::CertifyError;

// CaDiCaL's C interface (cadical/src/ccadical.h), from the static library `libccadical` that
// the `cadical` crate builds and links.
extern "C" {
    pub(super) fn ccadical_init() -> *mut c_void;
    pub(super) fn ccadical_release(solver: *mut c_void);
    pub(super) fn ccadical_set_option(solver: *mut c_void, name: *const c_char, value: c_int);
    pub(super) fn ccadical_trace_proof(solver: *mut c_void, file: *mut libc::FILE, name: *const c_char) -> c_int;
    pub(super) fn ccadical_close_proof(solver: *mut c_void);
    pub(super) fn ccadical_add(solver: *mut c_void, lit: c_int);
    pub(super) fn ccadical_solve(solver: *mut c_void) -> c_int;
    pub(super) fn ccadical_assume(solver: *mut c_void, lit: c_int);
    pub(super) fn ccadical_val(solver: *mut c_void, lit: c_int) -> c_int;
    pub(super) fn ccadical_failed(solver: *mut c_void, lit: c_int) -> c_int;
    pub(super) fn ccadical_set_terminate(
        solver: *mut c_void,
        state: *mut c_void,
        terminate: extern "C" fn(*mut c_void) -> c_int,
    );
}

/// CaDiCaL's termination callback: whether the flag `state` points to is set.
extern "C" fn stop_requested(state: *mut c_void) -> c_int {
    // SAFETY: `state` is the address of the `AtomicBool` given to `solve_traced`, which
    // outlives the solver that calls this.
    let stop = unsafe { &*(state as *const AtomicBool) };
    c_int::from(stop.load(Ordering::Relaxed))
}

// Keeps the `cadical` crate, and with it the static library, in the link.
#[allow(unused_imports)]
use cadical as _;

/// Solves `clauses` with CaDiCaL, writing its LRAT trace into the pipe `write_end`; the
/// answer, as CaDiCaL gives it (10 satisfiable, 20 unsatisfiable, 0 stopped by `stop`).
fn solve_traced(clauses: &[Clause], assumed: &[Lit], write_end: OwnedFd, stop: &AtomicBool) -> Result<c_int, String> {
    let literal = |l: &Lit| -> Result<c_int, String> {
        let number = c_int::try_from(l.var().idx() + 1).map_err(|_| "a variable past CaDiCaL's range".to_string())?;
        Ok(if l.is_pos() { number } else { -number })
    };
    let numbers: Vec<Vec<c_int>> =
        clauses.iter().map(|clause| clause.iter().map(literal).collect()).collect::<Result<_, _>>()?;
    let assumed: Vec<c_int> = assumed.iter().map(literal).collect::<Result<_, _>>()?;
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
    // stays open until the trace is closed, and is closed only after; `stop` outlives the
    // solver, which is released before this function returns.
    unsafe {
        let solver = ccadical_init();
        ccadical_set_option(solver, c"lrat".as_ptr(), 1);
        ccadical_set_option(solver, c"binary".as_ptr(), 0);
        ccadical_trace_proof(solver, file, c"refutation".as_ptr());
        ccadical_set_terminate(solver, stop as *const AtomicBool as *mut c_void, stop_requested);
        for clause in &numbers {
            for &lit in clause {
                ccadical_add(solver, lit);
            }
            ccadical_add(solver, 0);
        }
        for &lit in &assumed {
            ccadical_assume(solver, lit);
        }
        let answer = ccadical_solve(solver);
        ccadical_close_proof(solver);
        ccadical_release(solver);
        libc::fclose(file);
        Ok(answer)
    }
}

/// Writes each LRAT line into the VeriPB proof.
#[derive(Default)]
pub(super) struct Translator {
    /// The VeriPB constraint that stands for each input clause, in the order they were given.
    pub origins: Vec<Option<AbsConstraintId>>,
    /// The VeriPB constraint of each LRAT lemma not deleted.
    lemmas: HashMap<u64, AbsConstraintId>,
    /// The number of every LRAT lemma so far, deleted or not, in increasing order.
    numbered: Vec<u64>,
    /// Lemmas written.
    pub count: usize,
    /// The empty clause, once derived.
    pub empty: Option<AbsConstraintId>,
    /// The certified search of a tour: how its clauses are renamed and weakened.
    pub weakening: Option<Weakening>,
}

/// How the clauses of a certified horizon search stand in the proof ([`super::traced_tour`]):
/// the solver's variables are renamed into the proof's, and a clause that holds once the
/// knight has jumped in every step up to `ℓ` (its level; 0 for one that always holds) is
/// stated with the literal `~moved_ℓ`. A lemma takes the highest level among its hints, and
/// its hints start with the rows that carry `moved_ℓ` down to the lowest level among them.
#[derive(Default)]
pub(super) struct Weakening {
    /// The proof's literal for each of the solver's variables.
    pub rename: Vec<Option<Lit>>,
    /// The level of each input, in order (as [`Translator::origins`]).
    pub levels: Vec<usize>,
    /// `moved[ℓ - 1]`: the knight jumps in step `ℓ`.
    pub moved: Vec<Lit>,
    /// `after[ℓ - 2]`: the row "it jumps in step `ℓ` only if it jumped in step `ℓ - 1`".
    pub after: Vec<AbsConstraintId>,
    /// The highest level of any input so far: a lemma whose hints cannot all be named takes it.
    pub ceiling: usize,
    /// The level of each lemma not deleted.
    lemma_levels: HashMap<u64, usize>,
}

impl Weakening {
    /// The proof's literal for the solver's literal `lit`.
    fn renamed(&self, lit: Lit) -> Option<Lit> {
        let proof = (*self.rename.get(lit.var().idx())?)?;
        Some(if lit.is_pos() { proof } else { !proof })
    }
}

impl Translator {
    /// A translator of a certified search's trace, renamed and weakened by `weakening`.
    pub fn weakened(weakening: Weakening) -> Translator {
        Translator { weakening: Some(weakening), ..Translator::default() }
    }

    /// The VeriPB constraint of LRAT clause `id`, if it can be named.
    ///
    /// Input clauses and lemmas share one count: a clause CaDiCaL derives while the input is
    /// still being added (a unit found at once, an input shortened by one) takes the next
    /// number, and the next input the one after. So input `k` (from 0) is the number that is
    /// the `k`-th not taken by a lemma, and every lemma below it has been read before it.
    fn constraint(&self, id: i64) -> Option<(ConstraintId, usize)> {
        let id = u64::try_from(id).ok()?;
        let weakening = self.weakening.as_ref();
        if let Some(&number) = self.lemmas.get(&id) {
            let level = weakening.and_then(|w| w.lemma_levels.get(&id).copied()).unwrap_or(0);
            return Some((number.into(), level));
        }
        let below = self.numbered.partition_point(|&n| n < id);
        if self.numbered.get(below) == Some(&id) {
            return None; // a deleted lemma: named by nothing any more
        }
        let index = usize::try_from(id).ok()?.checked_sub(1 + below)?;
        let level = weakening.and_then(|w| w.levels.get(index).copied()).unwrap_or(0);
        self.origins.get(index).copied().flatten().map(|number| (ConstraintId::from(number), level))
    }

    /// Accounts for the number CaDiCaL gives, untraced, to the clause of the failed assumptions
    /// after a call unsatisfiable under assumptions, once that call's trace is read: the next
    /// number after every input and lemma so far.
    pub fn skip_untraced(&mut self) {
        let next = (self.origins.len() + self.numbered.len() + 1) as u64;
        self.numbered.push(next);
    }

    /// Writes one LRAT line into `proof`.
    pub fn line<W: Write>(&mut self, proof: &mut Proof<W>, line: &str) -> Result<(), String> {
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
                if let Some(w) = &mut self.weakening {
                    w.lemma_levels.remove(&deleted);
                }
                if let Some(number) = self.lemmas.remove(&deleted) {
                    let none: [SubproofElement<Var, Clause>; 0] = [];
                    proof.delete_ids([ConstraintId::from(number)], none).map_err(|e| e.to_string())?;
                }
            }
            return Ok(());
        }
        let numbers: Vec<i64> = rest.iter().map(|t| t.parse().map_err(|_| bad())).collect::<Result<_, _>>()?;
        let split = numbers.iter().position(|&n| n == 0).ok_or_else(bad)?;
        let (lits, hints) = (&numbers[..split], &numbers[split + 1..]);
        let mut clause: Clause = lits
            .iter()
            .map(|&n| {
                let var = Var::new(u32::try_from(n.unsigned_abs() - 1).map_err(|_| bad())?);
                let lit = if n > 0 { var.pos_lit() } else { var.neg_lit() };
                match &self.weakening {
                    Some(w) => {
                        w.renamed(lit).ok_or_else(|| format!("a lemma over a variable the proof does not name: {line}"))
                    }
                    None => Ok(lit),
                }
            })
            .collect::<Result<_, String>>()?;
        let hints = hints.iter().take_while(|&&h| h != 0);
        let hints: Option<Vec<(ConstraintId, usize)>> = hints.map(|&h| self.constraint(h)).collect();
        let (hints, level) = match (&self.weakening, hints) {
            (None, hints) => (hints.unwrap_or_default().into_iter().map(|(id, _)| id).collect(), 0),
            (Some(w), None) => (Vec::new(), w.ceiling),
            (Some(w), Some(hints)) => {
                let level = hints.iter().map(|h| h.1).max().unwrap_or(0);
                let lowest = hints.iter().map(|h| h.1).filter(|&l| l > 0).min().unwrap_or(level);
                let carried = (lowest + 1..=level).rev().map(|l| ConstraintId::from(w.after[l - 2]));
                (carried.chain(hints.into_iter().map(|(id, _)| id)).collect::<Vec<_>>(), level)
            }
        };
        if let (Some(w), true) = (&self.weakening, level > 0) {
            clause.add(!w.moved[level - 1]);
        }
        let number = proof.reverse_unit_prop(&clause, hints).map_err(|e| e.to_string())?;
        self.count += 1;
        if clause.is_empty() {
            self.empty = Some(number);
        }
        self.lemmas.insert(id, number);
        if let Some(w) = &mut self.weakening {
            w.lemma_levels.insert(id, level);
        }
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
/// each input named by its origin; [`CertifyError::Stopped`] once `stop` is set.
pub fn refute<W: Write>(
    clauses: &[Clause],
    origins: &[Option<AbsConstraintId>],
    proof: &mut Proof<W>,
    stop: &AtomicBool,
) -> Result<(AbsConstraintId, Refutation), CertifyError> {
    let (answer, translator, seconds) = traced(clauses, origins, &[], proof, stop)?;
    let (lemmas, empty) = (translator.count, translator.empty);
    super::trace::conclude(proof, answer == 10, empty, Refutation { lemmas, seconds })
}

/// [`refute`] under the assumption `assumed`, logged into `proof`: CaDiCaL takes an assumption
/// as a decision, so every lemma follows from `clauses` alone; once it answers unsatisfiable,
/// the clause `~assumed` follows by unit propagation over what it has derived, and is written
/// by `rup` without hints. Its number; [`CertifyError::Internal`] if `clauses` are satisfiable
/// under the assumption.
pub fn refute_under<W: Write>(
    clauses: &[Clause],
    origins: &[Option<AbsConstraintId>],
    assumed: Lit,
    proof: &mut Proof<W>,
    stop: &AtomicBool,
) -> Result<(AbsConstraintId, Refutation), CertifyError> {
    let (answer, translator, seconds) = traced(clauses, origins, &[assumed], proof, stop)?;
    if answer == 10 {
        return Err(CertifyError::Internal("the clauses are satisfiable under the assumption".into()));
    }
    let negation: Clause = [!assumed].into_iter().collect();
    let id = match translator.empty {
        Some(empty) => proof.reverse_unit_prop(&negation, [ConstraintId::from(empty)])?,
        None => proof.reverse_unit_prop(&negation, std::iter::empty::<ConstraintId>())?,
    };
    Ok((id, Refutation { lemmas: translator.count, seconds }))
}

/// CaDiCaL on `clauses` under `assumed`, its LRAT trace read through a pipe and written into
/// `proof` as it comes: its answer (10 or 20), the translation's state and the seconds taken.
fn traced<W: Write>(
    clauses: &[Clause],
    origins: &[Option<AbsConstraintId>],
    assumed: &[Lit],
    proof: &mut Proof<W>,
    stop: &AtomicBool,
) -> Result<(c_int, Translator, f64), CertifyError> {
    let started = std::time::Instant::now();
    let mut fds = [0 as c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe() writes.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err(CertifyError::Io(std::io::Error::last_os_error()));
    }
    // SAFETY: both descriptors were just opened by pipe() and are owned from here on.
    let (read_end, write_end) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let mut translator = Translator { origins: origins.to_vec(), ..Translator::default() };
    let (answer, written) = std::thread::scope(|scope| {
        let solver = scope.spawn(move || solve_traced(clauses, assumed, write_end, stop));
        // Every line is read even after a failure, so that the solver never blocks on the pipe.
        let mut written: Result<(), String> = Ok(());
        for line in BufReader::new(std::fs::File::from(read_end)).lines() {
            match line {
                Ok(line) if written.is_ok() => written = translator.line(proof, &line),
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
    if answer == 0 && stop.load(Ordering::Relaxed) {
        return Err(CertifyError::Stopped);
    }
    written.map_err(|e| CertifyError::Internal(format!("translating CaDiCaL's proof: {e}")))?;
    if answer != 10 && answer != 20 {
        return Err(CertifyError::Internal(format!("CaDiCaL answered {answer}, not a refutation")));
    }
    Ok((answer, translator, seconds))
}

/// CaDiCaL solving incrementally under assumptions, with its LRAT trace written into a file
/// that is read, and translated into the VeriPB proof, after every call ([`Traced::drain`]).
///
/// Besides lemmas and inputs, CaDiCaL numbers one clause it never traces after each call that
/// is unsatisfiable under assumptions (the clause of the failed assumptions), which
/// [`Translator::skip_untraced`] accounts for. Variable elimination is off: in incremental use
/// CaDiCaL restores the clauses of an eliminated variable when it comes back, with numbers the
/// translation would read as new inputs'.
pub(super) struct Traced {
    solver: *mut c_void,
    file: *mut libc::FILE,
    trace: BufReader<std::fs::File>,
    partial: String,
    /// Bytes of the trace read so far.
    read: u64,
}

/// Distinguishes the trace files of one process.
static TRACES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A literal as CaDiCaL numbers it.
pub(super) fn number(lit: Lit) -> Result<c_int, CertifyError> {
    let n = c_int::try_from(lit.var().idx() + 1)
        .map_err(|_| CertifyError::Internal("a variable past CaDiCaL's range".into()))?;
    Ok(if lit.is_pos() { n } else { -n })
}

impl Traced {
    /// A solver whose trace goes to a new file in the temporary directory (removed at once:
    /// the two handles keep it until the solver is dropped).
    pub fn new() -> Result<Traced, CertifyError> {
        use std::os::unix::ffi::OsStrExt;
        let serial = TRACES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("knights-sat-lrat-{}-{serial}", std::process::id()));
        let name = std::ffi::CString::new(path.as_os_str().as_bytes())
            .map_err(|_| CertifyError::Internal("a temporary path with a NUL byte".into()))?;
        // SAFETY: both arguments are C strings.
        let file = unsafe { libc::fopen(name.as_ptr(), c"w".as_ptr()) };
        if file.is_null() {
            return Err(CertifyError::Io(std::io::Error::last_os_error()));
        }
        let trace = match std::fs::File::open(&path) {
            Ok(trace) => trace,
            Err(e) => {
                // SAFETY: `file` was opened above and is closed once.
                unsafe { libc::fclose(file) };
                return Err(CertifyError::Io(e));
            }
        };
        let _ = std::fs::remove_file(&path);
        // SAFETY: `file` is open, and stays open until the solver is dropped.
        let solver = unsafe { incremental_traced(file) };
        Ok(Traced { solver, file, trace: BufReader::new(trace), partial: String::new(), read: 0 })
    }

    /// Adds a clause for good.
    pub fn add(&mut self, clause: &[Lit]) -> Result<(), CertifyError> {
        add_clause(self.solver, clause)
    }

    /// Solves under `assumptions`: whether the clauses are satisfiable.
    pub fn solve(&mut self, assumptions: &[Lit]) -> Result<bool, CertifyError> {
        let numbers: Vec<c_int> = assumptions.iter().map(|&l| number(l)).collect::<Result<_, _>>()?;
        // SAFETY: the solver is alive until drop.
        let answer = unsafe {
            for n in numbers {
                ccadical_assume(self.solver, n);
            }
            ccadical_solve(self.solver)
        };
        answered(answer)
    }

    /// The value of `lit` in the last model.
    pub fn value(&self, lit: Lit) -> bool {
        value(self.solver, lit)
    }

    /// After an unsatisfiable call: whether the assumption `lit` failed.
    pub fn failed(&self, lit: Lit) -> bool {
        // SAFETY: as above; `lit` was assumed in the last call.
        number(lit).is_ok_and(|n| unsafe { ccadical_failed(self.solver, n) } != 0)
    }

    /// Reads what CaDiCaL has traced since the last call and writes it into `proof`.
    pub fn drain<W: Write>(&mut self, translator: &mut Translator, proof: &mut Proof<W>) -> Result<(), CertifyError> {
        // SAFETY: the file is open until drop; no other thread writes to it.
        if unsafe { libc::fflush(self.file) } != 0 {
            return Err(CertifyError::Io(std::io::Error::last_os_error()));
        }
        loop {
            let read = self.trace.read_line(&mut self.partial)?;
            self.read += read as u64;
            if read == 0 || !self.partial.ends_with('\n') {
                return Ok(());
            }
            let line = std::mem::take(&mut self.partial);
            translator
                .line(proof, line.trim_end())
                .map_err(|e| CertifyError::Internal(format!("translating CaDiCaL's proof: {e}")))?;
        }
    }
}

impl Traced {
    /// How many bytes CaDiCaL has traced so far: where the trace of the last call ends.
    pub fn position(&mut self) -> Result<u64, CertifyError> {
        // SAFETY: the file is open until drop; no other thread writes to it.
        let position = unsafe {
            if libc::fflush(self.file) != 0 {
                return Err(CertifyError::Io(std::io::Error::last_os_error()));
            }
            libc::ftell(self.file)
        };
        u64::try_from(position).map_err(|_| CertifyError::Io(std::io::Error::last_os_error()))
    }

    /// [`Traced::drain`], up to the byte `end` of the trace (a [`Traced::position`]) and not
    /// beyond: the lines of the calls before it, translated long after they ran.
    pub fn drain_to<W: Write>(
        &mut self,
        end: u64,
        translator: &mut Translator,
        proof: &mut Proof<W>,
    ) -> Result<(), CertifyError> {
        // SAFETY: the file is open until drop; no other thread writes to it.
        if unsafe { libc::fflush(self.file) } != 0 {
            return Err(CertifyError::Io(std::io::Error::last_os_error()));
        }
        while self.read < end {
            let read = self.trace.read_line(&mut self.partial)?;
            self.read += read as u64;
            if read == 0 || !self.partial.ends_with('\n') {
                return Err(CertifyError::Internal("CaDiCaL's trace ends within a call".into()));
            }
            let line = std::mem::take(&mut self.partial);
            translator
                .line(proof, line.trim_end())
                .map_err(|e| CertifyError::Internal(format!("translating CaDiCaL's proof: {e}")))?;
        }
        Ok(())
    }
}

impl Drop for Traced {
    fn drop(&mut self) {
        // SAFETY: the solver and the file are released once, here.
        unsafe { release(self.solver, self.file) };
    }
}

/// A CaDiCaL solver for incremental use, its LRAT trace written as text into `file`, variable
/// elimination off (see [`Traced`]).
///
/// # Safety
/// `file` must be open, and stay open until the solver is released ([`release`]).
pub(super) unsafe fn incremental_traced(file: *mut libc::FILE) -> *mut c_void {
    // SAFETY: the options are set, and the trace connected, before the first clause, as
    // CaDiCaL requires.
    unsafe {
        let solver = ccadical_init();
        ccadical_set_option(solver, c"lrat".as_ptr(), 1);
        ccadical_set_option(solver, c"binary".as_ptr(), 0);
        ccadical_set_option(solver, c"elim".as_ptr(), 0);
        ccadical_trace_proof(solver, file, c"search".as_ptr());
        solver
    }
}

/// Closes the trace of `solver`, releases it, then closes its trace's `file`.
///
/// # Safety
/// Both come from [`incremental_traced`], and neither is used again.
pub(super) unsafe fn release(solver: *mut c_void, file: *mut libc::FILE) {
    // SAFETY: as the caller promises; the trace is closed before its file.
    unsafe {
        ccadical_close_proof(solver);
        ccadical_release(solver);
        libc::fclose(file);
    }
}

/// A call's answer as CaDiCaL gives it (10 satisfiable, 20 unsatisfiable): whether the clauses
/// are satisfiable.
pub(super) fn answered(answer: c_int) -> Result<bool, CertifyError> {
    match answer {
        10 => Ok(true),
        20 => Ok(false),
        other => Err(CertifyError::Internal(format!("CaDiCaL answered {other}"))),
    }
}

/// Adds `clause` to `solver` for good.
pub(super) fn add_clause(solver: *mut c_void, clause: &[Lit]) -> Result<(), CertifyError> {
    let numbers: Vec<c_int> = clause.iter().map(|&l| number(l)).collect::<Result<_, _>>()?;
    for n in numbers {
        // SAFETY: the solver is alive as long as its owner, which runs no call meanwhile.
        unsafe { ccadical_add(solver, n) };
    }
    // SAFETY: as above.
    unsafe { ccadical_add(solver, 0) };
    Ok(())
}

/// The value of `lit` in the last model of `solver`.
pub(super) fn value(solver: *mut c_void, lit: Lit) -> bool {
    // SAFETY: the solver is alive as long as its owner; a literal of a variable it has not
    // seen is answered, not refused.
    number(lit).is_ok_and(|n| unsafe { ccadical_val(solver, n) } > 0)
}

//! CaDiCaL solving incrementally under assumptions, its LRAT trace streamed through a pipe and
//! written into the VeriPB proof while it solves: each call runs on a thread of its own, this
//! thread translates the trace as it comes, and a line the call's thread writes into the
//! trace once the solver returns marks the call's end. A reader thread empties the pipe all
//! the time, for CaDiCaL traces while clauses are added too (inputs it shortens), and a full
//! pipe would stop the thread that adds them. On two cores the translation
//! then costs the search almost nothing (Guarini's exchange: 0.09 s of 0.42 s when the trace
//! was read after each call).
//!
//! The numbering of inputs and lemmas is [`super::lrat::Translator`]'s; as with
//! [`super::lrat::Traced`], a call unsatisfiable under assumptions numbers one clause it never
//! traces ([`Translator::skip_untraced`]), and variable elimination is off.

use std::ffi::{c_int, c_void};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd};

use pigeons::Proof;
use rustsat::types::Lit;

use super::lrat::{self, ccadical_solve, number, Translator};
use super::CertifyError;

/// The line that ends the trace of each call (LRAT has no such line; it never reaches the
/// translation).
const END_OF_CALL: &str = "c end of call";

/// A CaDiCaL solver whose trace is translated while it solves.
pub(super) struct Streamed {
    solver: *mut c_void,
    file: *mut libc::FILE,
    lines: std::sync::mpsc::Receiver<std::io::Result<String>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

/// The solver and its trace's file, handed to the thread of one call.
struct Handles(*mut c_void, *mut libc::FILE);

// SAFETY: the solver and the file are used by one thread at a time: the call's thread while it
// runs, this one before and after (it joins the call's thread before touching them again).
unsafe impl Send for Handles {}

impl Streamed {
    /// A solver whose trace goes into a pipe.
    pub fn new() -> Result<Streamed, CertifyError> {
        let mut fds = [0 as c_int; 2];
        // SAFETY: `fds` has room for the two descriptors pipe() writes.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return Err(CertifyError::Io(std::io::Error::last_os_error()));
        }
        // SAFETY: both descriptors were just opened by pipe() and are owned from here on.
        let (read_end, write_end) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        let fd = write_end.into_raw_fd();
        // SAFETY: `fd` is an open pipe end that the file now owns; the mode is a C string.
        let file = unsafe { libc::fdopen(fd, c"w".as_ptr()) };
        if file.is_null() {
            // SAFETY: fdopen failed, so the descriptor is still ours to close.
            unsafe { libc::close(fd) };
            return Err(CertifyError::Io(std::io::Error::last_os_error()));
        }
        // SAFETY: `file` is open, and stays open until the solver is dropped.
        let solver = unsafe { lrat::incremental_traced(file) };
        let trace = BufReader::with_capacity(1 << 16, std::fs::File::from(read_end));
        let (sender, lines) = std::sync::mpsc::channel();
        // Ends when the pipe closes, once the solver is dropped.
        let reader = std::thread::Builder::new().name("lrat-reader".into()).spawn(move || {
            for line in trace.lines() {
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        let reader = match reader {
            Ok(reader) => reader,
            Err(e) => {
                // SAFETY: the solver and the file were made above and are released once.
                unsafe { lrat::release(solver, file) };
                return Err(CertifyError::Io(e));
            }
        };
        Ok(Streamed { solver, file, lines, reader: Some(reader) })
    }

    /// Adds a clause for good.
    pub fn add(&mut self, clause: &[Lit]) -> Result<(), CertifyError> {
        lrat::add_clause(self.solver, clause)
    }

    /// Solves under `assumptions`, writing the call's trace into `proof` through `translator`
    /// as it comes: whether the clauses are satisfiable.
    pub fn solve<W: Write>(
        &mut self,
        assumptions: &[Lit],
        translator: &mut Translator,
        proof: &mut Proof<W>,
    ) -> Result<bool, CertifyError> {
        let numbers: Vec<c_int> = assumptions.iter().map(|&l| number(l)).collect::<Result<_, _>>()?;
        let handles = Handles(self.solver, self.file);
        let lines = &self.lines;
        let (answer, read) = std::thread::scope(|scope| {
            let call = scope.spawn(move || {
                let handles = handles;
                // SAFETY: this thread alone uses the solver and the file until it is joined.
                unsafe {
                    for n in numbers {
                        super::lrat::ccadical_assume(handles.0, n);
                    }
                    let answer = ccadical_solve(handles.0);
                    let end = std::ffi::CString::new(format!("{END_OF_CALL}\n")).expect("no NUL byte");
                    libc::fputs(end.as_ptr(), handles.1);
                    libc::fflush(handles.1);
                    answer
                }
            });
            let mut read: Result<(), String> = Ok(());
            loop {
                match lines.recv() {
                    Err(_) => {
                        read = read.and(Err("the trace ended within a call".into()));
                        break;
                    }
                    Ok(Ok(line)) if line == END_OF_CALL => break,
                    Ok(Ok(line)) if read.is_ok() => read = translator.line(proof, &line),
                    Ok(Ok(_)) => {}
                    Ok(Err(e)) => read = read.and(Err(e.to_string())),
                }
            }
            (call.join(), read)
        });
        let answer = answer.map_err(|_| CertifyError::Internal("the CaDiCaL thread panicked".into()))?;
        read.map_err(|e| CertifyError::Internal(format!("translating CaDiCaL's proof: {e}")))?;
        lrat::answered(answer)
    }

    /// The value of `lit` in the last model.
    pub fn value(&self, lit: Lit) -> bool {
        lrat::value(self.solver, lit)
    }
}

impl Drop for Streamed {
    fn drop(&mut self) {
        // SAFETY: the solver and the file are released once, here.
        unsafe { lrat::release(self.solver, self.file) };
        // The pipe is closed: the reader ends at once.
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

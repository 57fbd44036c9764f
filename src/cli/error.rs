//! Errors the command reports, and the exit codes they map to.

use std::process::ExitCode;

use knights_sat::cubes::JobError;
use knights_sat::encodings::puzzle::PuzzleError;

/// Exit codes of `knights-sat` (see the README).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 0: an optimal or feasible solution was found.
    Solved = 0,
    /// 1: internal error (a solver failure, or a solution the rules checker rejected); for
    /// `verify`, a part of the certificate failed.
    Internal = 1,
    /// 2: bad input: the puzzle or the command line, or a model that cannot take the puzzle.
    BadInput = 2,
    /// 3: the puzzle is infeasible (proved, or within the horizon limit).
    Infeasible = 3,
    /// 4: stopped (timeout, Ctrl-C or SIGTERM) before anything was found.
    Unknown = 4,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

/// An error that ends the command.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The puzzle file or inline puzzle is malformed or impossible.
    #[error("{0}")]
    Puzzle(#[from] PuzzleError),
    /// A flag value or combination that cannot work.
    #[error("{0}")]
    Usage(String),
    /// The search failed.
    #[error("{0}")]
    Search(#[from] knights_sat::Error),
    /// Writing a certificate failed.
    #[error("{0}")]
    Certify(#[from] knights_sat::certify::CertifyError),
    /// A job directory of cubes could not be written, read or searched.
    #[error("{0}")]
    Job(#[from] knights_sat::cubes::JobError),
    /// Writing the output failed.
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
}

impl CliError {
    /// The exit code for this error.
    pub fn exit_code(&self) -> Exit {
        match self {
            CliError::Puzzle(_)
            | CliError::Usage(_)
            | CliError::Search(knights_sat::Error::Unsupported(_) | knights_sat::Error::StepTooLarge(_)) => {
                Exit::BadInput
            }
            CliError::Job(JobError::Search(knights_sat::Error::Unsupported(_))) => Exit::BadInput,
            CliError::Job(JobError::Search(_)) => Exit::Internal,
            CliError::Job(_) => Exit::BadInput,
            CliError::Search(_) | CliError::Output(_) | CliError::Certify(_) => Exit::Internal,
        }
    }

    /// Whether the output pipe was closed (e.g. `| head`), which is not an error.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

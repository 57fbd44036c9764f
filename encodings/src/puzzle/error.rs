//! Errors in puzzle descriptions, located by file, line, column and field.

use std::fmt;

/// A puzzle that could not be read or does not make sense.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleError {
    /// The file could not be read.
    #[error("{file}: cannot read the puzzle: {source}")]
    Io {
        /// The file as named by the user.
        file: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The description is malformed or impossible.
    #[error("{0}")]
    Invalid(Located),
}

/// Where in a puzzle description a problem lies, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The file (or `command line` for inline puzzles).
    pub file: String,
    /// Line from 1, or 0 when the problem has no single place (e.g. a command-line flag).
    pub line: usize,
    /// Column from 1 (0 when `line` is 0).
    pub column: usize,
    /// The field, as a path such as `side[1].start`.
    pub field: String,
    /// What is wrong, and what would be accepted instead.
    pub message: String,
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        } else {
            write!(f, "{}: ", self.file)?;
        }
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        f.write_str(&self.message)
    }
}

impl PuzzleError {
    /// A problem at a byte offset of the text of `file`.
    pub(crate) fn at(file: &str, text: &str, offset: usize, field: &str, message: impl Into<String>) -> Self {
        let before = &text[..offset.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        PuzzleError::Invalid(Located {
            file: file.to_string(),
            line,
            column,
            field: field.to_string(),
            message: message.into(),
        })
    }

    /// A problem with no place in a file (e.g. an inline puzzle on the command line).
    pub fn unlocated(file: &str, field: &str, message: impl Into<String>) -> Self {
        PuzzleError::Invalid(Located {
            file: file.to_string(),
            line: 0,
            column: 0,
            field: field.to_string(),
            message: message.into(),
        })
    }

    /// The location and message, for an invalid puzzle.
    pub fn located(&self) -> Option<&Located> {
        match self {
            PuzzleError::Invalid(l) => Some(l),
            PuzzleError::Io { .. } => None,
        }
    }
}

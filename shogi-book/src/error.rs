//! The one error type of the crate: what went wrong and where (file, line or byte offset).

use std::fmt;

/// Where in a book file a problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// The file as a whole (its size, its header, an I/O failure).
    File,
    /// A line of a text book (from 1), with the column (from 1) when one field is at fault.
    Line {
        /// Line number, from 1.
        line: u64,
        /// Column number (bytes, from 1), when known.
        col: Option<u64>,
    },
    /// A byte offset in a binary book (the start of the record at fault).
    Byte(u64),
}

/// A problem in a book: the file's name, where in it, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// The file's name as the user gave it.
    pub file: String,
    /// Where in the file.
    pub location: Location,
    /// What is wrong, one line.
    pub message: String,
}

impl BookError {
    /// An error at `location` of `file`.
    pub fn new(file: &str, location: Location, message: impl Into<String>) -> BookError {
        BookError {
            file: file.to_string(),
            location,
            message: message.into(),
        }
    }

    /// An error about the file as a whole.
    pub fn file(file: &str, message: impl Into<String>) -> BookError {
        BookError::new(file, Location::File, message)
    }

    /// An error at a line (and column) of a text book.
    pub fn line(file: &str, line: u64, col: Option<u64>, message: impl Into<String>) -> BookError {
        BookError::new(file, Location::Line { line, col }, message)
    }

    /// An I/O error on `file`.
    pub fn io(file: &str, e: &std::io::Error) -> BookError {
        BookError::file(file, e.to_string())
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::File => write!(f, "{}: {}", self.file, self.message),
            Location::Line { line, col: None } => {
                write!(f, "{}:{line}: {}", self.file, self.message)
            }
            Location::Line { line, col: Some(c) } => {
                write!(f, "{}:{line}:{c}: {}", self.file, self.message)
            }
            Location::Byte(b) => write!(f, "{}: byte {b}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for BookError {}

//! Errors: always naming the file they are about.

use std::fmt;
use std::path::Path;

/// A database or input error: the file it is about and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbError {
    /// The file (the database, or an input path).
    pub path: String,
    /// What went wrong.
    pub message: String,
}

impl DbError {
    /// An error about `path`.
    pub fn new(path: impl AsRef<Path>, message: impl Into<String>) -> DbError {
        DbError {
            path: path.as_ref().display().to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for DbError {}

//! Why an analysis could not run: [`AnalysisError`], naming the [`Parameter`] at fault so that
//! each front end words it in its own terms (a flag on the command line, a keyword in Python).

use shogi_usi::EngineError;
use std::fmt;
use std::path::PathBuf;

/// A setting of [`crate::Settings`] (or of its [`crate::EngineSettings`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parameter {
    /// The search limit (nodes, depth, movetime or byoyomi).
    Limit,
    /// An engine option (`NAME=VALUE`).
    Option,
    /// The number of principal variations.
    Multipv,
    /// The number of engines.
    Jobs,
    /// The time allowed for `usiok` and `readyok`.
    StartTimeout,
    /// The time allowed past the limit for a `bestmove`.
    SearchTimeout,
    /// The logistic's scale of the win rate.
    Sigmoid,
    /// The four loss thresholds of the classes.
    Thresholds,
    /// The folder of annotated copies.
    AnnotateDir,
}

/// Why an analysis could not run (nothing was searched, or the cache could not be used).
#[derive(Debug)]
pub enum AnalysisError {
    /// A setting out of its range.
    Setting {
        /// Which setting.
        parameter: Parameter,
        /// What is wrong with it, without the setting's name (`must be at least 1`).
        message: String,
    },
    /// The engine could not be started or set up (an unknown option, a refused value, a
    /// MultiPV it does not have…): the engine layer's typed error, whose kind says which.
    Engine {
        /// The engine program.
        program: PathBuf,
        /// What went wrong.
        error: EngineError,
    },
    /// The cache file cannot be used (not ours, damaged, unreadable).
    Cache(String),
    /// An annotated copy or its graph would replace one of the inputs.
    Overwrite {
        /// The file that would be written.
        path: PathBuf,
        /// The input it would replace.
        input: String,
    },
}

impl AnalysisError {
    /// A [`AnalysisError::Setting`].
    pub fn setting(parameter: Parameter, message: impl Into<String>) -> AnalysisError {
        AnalysisError::Setting {
            parameter,
            message: message.into(),
        }
    }
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Setting { parameter, message } => write!(f, "{parameter:?}: {message}"),
            AnalysisError::Engine { program, error } => {
                write!(f, "cannot start the engine {}: {error}", program.display())
            }
            AnalysisError::Cache(m) => f.write_str(m),
            AnalysisError::Overwrite { path, input } => write!(
                f,
                "writing {} would overwrite the input {input}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for AnalysisError {}

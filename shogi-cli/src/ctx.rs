//! What every command is handed and returns: the streams and options ([`Ctx`], [`Options`]),
//! a failure with its exit code ([`Failure`]), and [`emit`] for stdout. A leaf module.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// A per-record hook: called with the input's name and the record's number (from 1).
pub type RecordHook = Arc<dyn Fn(&str, usize) + Send + Sync>;

/// Settings the binary takes from its environment; tests leave them at their defaults.
#[derive(Clone, Default)]
pub struct Options {
    /// Draw progress bars on the process's real stderr (the binary sets this when stderr is a
    /// terminal; they never go to the `stderr` given to [`run_with`]).
    pub progress: bool,
    /// Called with the input's name and the record's number (from 1) before each record of a
    /// batch command is handled, inside the isolation of that input: a test installs one that
    /// panics to check that an internal failure is reported and the batch goes on.
    #[doc(hidden)]
    pub on_record: Option<RecordHook>,
    /// Standard output is a terminal (the binary sets this): binary training data is then
    /// refused.
    pub stdout_terminal: bool,
    /// `shogi match` appends each move's timings here (`SHOGI_MATCH_TRACE`, read by the
    /// binary; [`shogi_match::runner::write_trace`]).
    pub match_trace: Option<std::path::PathBuf>,
}

/// What a command reads and writes: the streams given to [`crate::run_with`] and its options.
pub(crate) struct Ctx<'a> {
    /// Standard input, locked by whichever thread reads `-`.
    pub stdin: Mutex<&'a mut (dyn BufRead + Send)>,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
    pub options: &'a Options,
}

/// A failure that ends the command: a message for stderr and the exit code.
#[derive(Debug)]
pub(crate) struct Failure {
    /// Exit code (1: something checked failed, 2: usage, input or I/O error).
    pub code: u8,
    /// One-line message (empty: the command already said everything).
    pub message: String,
}

impl Failure {
    /// A usage, input or I/O error (exit 2).
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: 2,
            message: message.into(),
        }
    }

    /// An exit code with nothing more to say.
    pub fn silent(code: u8) -> Failure {
        Failure {
            code,
            message: String::new(),
        }
    }
}

/// Writes `text` to `out` and flushes it; a closed pipe is not an error worth reporting.
pub(crate) fn emit(out: &mut dyn Write, text: &str) -> Result<(), Failure> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::usage(format!("error: cannot write stdout: {e}"))),
    }
}

//! One input's failure never stops a batch: a panic while reading or handling one input is
//! caught, its message kept from the terminal, and reported as an internal error of that
//! record; the batch goes on and its exit code says something failed.
//!
//! The training writers run their per-input work through [`isolated`] (shogi-batch's guard,
//! which the other batch commands use directly) and report a [`Panic`] with
//! [`Panic::error_line`]. This needs `panic = "unwind"` (the release profile sets it).

/// An internal failure caught by [`isolated`].
#[derive(Debug)]
pub struct Panic {
    /// The panic's message and where it was raised (for the bug report).
    pub message: String,
}

impl Panic {
    /// The message reported for the record that failed.
    pub const REPORT: &'static str = "internal error while reading this record (please report)";

    /// `path:line:col: error: internal error while reading this record (please report)`.
    pub fn error_line(path: &str, line: u32, column: u32) -> String {
        format!("{path}:{line}:{column}: error: {}", Panic::REPORT)
    }

    /// The panic's own message, as a note for stderr.
    pub fn note(&self, path: &str) -> String {
        format!("{path}: note: the internal error was: {}", self.message)
    }
}

/// Runs `work`, catching a panic (through shogi-batch's guard, whose hook keeps the message
/// off the terminal). Whatever `work` changed before it panicked stays changed: callers only
/// append to their reports.
pub fn isolated<T>(work: impl FnOnce() -> T) -> Result<T, Panic> {
    shogi_batch::isolated(work).map_err(|message| Panic { message })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_and_work_before_it_stays() {
        let mut seen = Vec::new();
        let r = isolated(|| {
            seen.push(1);
            if seen.len() == 1 {
                panic!("boom {}", 7);
            }
            seen.push(2);
        });
        let p = r.expect_err("the panic is caught");
        assert!(p.message.starts_with("boom 7 ("), "{}", p.message);
        assert_eq!(seen, [1]);
        assert_eq!(isolated(|| 5).ok(), Some(5));
        assert_eq!(
            Panic::error_line("a.kif", 1, 1),
            "a.kif:1:1: error: internal error while reading this record (please report)"
        );
    }
}

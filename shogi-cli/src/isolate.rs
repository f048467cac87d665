//! One input's failure never stops a batch: a panic while reading or handling one input is
//! caught, its message kept from the terminal, and reported as an internal error of that
//! record; the batch goes on and its exit code says something failed.
//!
//! Every batch command runs its per-input work through [`isolated`] and reports a [`Panic`]
//! with [`Panic::error_line`]. This needs `panic = "unwind"` (the release profile sets it).

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, PanicHookInfo, catch_unwind};
use std::sync::Once;

thread_local! {
    /// How many [`isolated`] calls this thread is inside.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// The message of the last panic caught on this thread inside [`isolated`].
    static LAST: Cell<Option<String>> = const { Cell::new(None) };
}

/// Installs (once per process) a panic hook that keeps quiet about panics inside [`isolated`],
/// saving their message for the report, and hands every other panic to the hook it replaces.
pub fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info: &PanicHookInfo<'_>| {
            if DEPTH.with(Cell::get) > 0 {
                LAST.with(|m| m.set(Some(describe(info))));
            } else {
                previous(info);
            }
        }));
    });
}

fn describe(info: &PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string());
    match info.location() {
        Some(l) => format!("{message} ({}:{}:{})", l.file(), l.line(), l.column()),
        None => message,
    }
}

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

/// Runs `work`, catching a panic. Whatever `work` changed before it panicked stays changed
/// (the caller keeps what an input gave before failing), hence the `AssertUnwindSafe`: callers
/// only append to their reports.
pub fn isolated<T>(work: impl FnOnce() -> T) -> Result<T, Panic> {
    install_hook();
    DEPTH.with(|d| d.set(d.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(work));
    DEPTH.with(|d| d.set(d.get() - 1));
    result.map_err(|_| Panic {
        message: LAST
            .with(Cell::take)
            .unwrap_or_else(|| "(no message)".to_string()),
    })
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

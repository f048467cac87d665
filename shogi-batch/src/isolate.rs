//! The panic guard: a panic inside one game's reading or work is caught and becomes that
//! game's error; its message is kept from the terminal (a hook, installed once, stays quiet
//! inside [`isolated`] and hands every other panic to the hook it replaced).
//!
//! This needs `panic = "unwind"` in the profile that builds the program.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, PanicHookInfo, catch_unwind};
use std::sync::Once;

thread_local! {
    /// How many [`isolated`] calls this thread is inside.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// The message of the last panic caught on this thread inside [`isolated`].
    static LAST: Cell<Option<String>> = const { Cell::new(None) };
}

/// Installs, once per process, the hook that keeps panics inside [`isolated`] quiet.
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

/// Runs `work`, catching a panic: `Err` holds the panic's message and where it was raised.
/// Whatever `work` changed before it panicked stays changed.
pub fn isolated<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    DEPTH.with(|d| d.set(d.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(work));
    DEPTH.with(|d| d.set(d.get() - 1));
    result.map_err(|p| {
        LAST.with(Cell::take).unwrap_or_else(|| {
            p.downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".to_string())
        })
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_becomes_its_message() {
        let mut seen = Vec::new();
        let r = super::isolated(|| {
            seen.push(1);
            panic!("boom {}", 7);
        });
        let m: String = r.unwrap_err();
        assert!(m.starts_with("boom 7 ("), "{m}");
        assert_eq!(seen, [1]);
        assert_eq!(super::isolated(|| 5), Ok(5));
    }
}

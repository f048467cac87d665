//! The one progress bar: drawn on the process's stderr when [`crate::Options::progress`] says it
//! is a terminal, and only once the work has lasted a second.

use indicatif::{ProgressBar, ProgressStyle};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A progress bar that appears after a second of work (never when disabled).
pub struct Progress {
    label: String,
    unit: &'static str,
    start: Instant,
    enabled: bool,
    done: AtomicU64,
    bar: OnceLock<ProgressBar>,
}

impl Progress {
    /// A bar labelled `label` counting `unit`s; nothing is drawn unless `enabled`.
    pub fn new(enabled: bool, label: &str, unit: &'static str) -> Progress {
        Progress {
            label: label.to_string(),
            unit,
            start: Instant::now(),
            enabled,
            done: AtomicU64::new(0),
            bar: OnceLock::new(),
        }
    }

    /// Whether anything may be drawn.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// `done` of `total` units are done.
    pub fn set(&self, done: u64, total: u64) {
        if !self.enabled || self.start.elapsed() < Duration::from_secs(1) {
            return;
        }
        let bar = self.bar.get_or_init(|| {
            let template = format!(
                "{{prefix}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {}, {{per_sec}}, eta {{eta}}",
                self.unit
            );
            let style =
                ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar());
            let b = ProgressBar::new(total).with_style(style);
            b.set_prefix(self.label.clone());
            b
        });
        bar.set_length(total);
        bar.set_position(done);
    }

    /// One more unit of `total` is done.
    pub fn inc(&self, total: u64) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.set(done, total);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(b) = self.bar.get() {
            b.finish_and_clear();
        }
    }
}

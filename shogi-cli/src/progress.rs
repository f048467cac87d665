//! The one progress bar: drawn on the process's stderr when [`crate::ctx::Options::progress`] says it
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
    /// Games done, for the batch commands' message (games and games per second).
    games: AtomicU64,
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
            games: AtomicU64::new(0),
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
                "{{prefix}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {}, {{per_sec}}, eta {{eta}} {{msg}}",
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

    /// `n` more games are done (shown as games and games per second next to the bar).
    pub fn add_games(&self, n: u64) {
        if !self.enabled {
            return;
        }
        let games = self.games.fetch_add(n, Ordering::Relaxed) + n;
        if let Some(bar) = self.bar.get() {
            let secs = self.start.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!("{games} games, {:.0} games/s", games as f64 / secs));
        }
    }

    /// Shows `text` next to the bar (when it is drawn).
    pub fn message(&self, text: &str) {
        if let Some(bar) = self.bar.get() {
            bar.set_message(text.to_string());
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(b) = self.bar.get() {
            b.finish_and_clear();
        }
    }
}

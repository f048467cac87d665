//! The engine layer's typed errors, each carrying the engine's last output lines.

use crate::protocol::{EngineLine, parse_line};
use shogi_core::{PlayError, UsiMoveError};
use std::fmt;
use std::time::Duration;

/// Which pipe an output line came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// The engine's standard output (the protocol).
    Stdout,
    /// The engine's standard error.
    Stderr,
}

/// One line of the engine's output, kept for error reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputLine {
    /// Where it came from.
    pub stream: Stream,
    /// The text (lossily decoded, truncated when very long).
    pub text: String,
}

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineErrorKind {
    /// The program could not be started (missing, not executable, …).
    Spawn(String),
    /// No expected answer within the time: `waiting_for` names it (`usiok`, `readyok`,
    /// `bestmove`, `checkmate`).
    Timeout {
        /// The answer awaited.
        waiting_for: &'static str,
        /// How long we waited.
        after: Duration,
    },
    /// The engine closed its output or exited (a crash); `status` is its exit status if known.
    Crashed {
        /// The answer awaited when it died.
        waiting_for: &'static str,
        /// The exit status (`exit status: 134`, `signal: 11`), when it could be read.
        status: Option<String>,
    },
    /// Writing a command failed: the engine's input pipe is closed.
    PipeClosed(String),
    /// The engine answered something that breaks the protocol (e.g. a `bestmove` that is not a
    /// move, `usiok` never preceded by a usable option list, `readyok` missing).
    Protocol(String),
    /// The engine's `bestmove` (or `checkmate` line) is not a legal move in the position.
    IllegalMove {
        /// The move as the engine wrote it.
        text: String,
        /// Why it is not legal, and the position.
        reason: String,
        /// Why it is not legal, typed: the rule as shogi-core decided it (what a referee
        /// records, without judging the text again).
        why: Illegality,
    },
    /// `setoption` with a name the engine did not offer.
    UnknownOption {
        /// The name asked for.
        name: String,
        /// What the engine offers (`Name (type range, default)` each).
        available: Vec<String>,
    },
    /// `setoption` with a value the option does not accept.
    BadOptionValue {
        /// The option.
        name: String,
        /// The value asked for.
        value: String,
        /// Why not (with the allowed values).
        reason: String,
    },
    /// The engine cannot do what was asked (e.g. play Mini Shogi, MultiPV).
    Unsupported(String),
    /// The caller's request is invalid (an illegal move in the given line, `infinite` without
    /// `stop`, a search while another runs).
    InvalidRequest(String),
    /// The engine was already found dead or unusable by an earlier error; restart it.
    Dead(String),
}

/// Why a move an engine wrote is not legal where it wrote it, as shogi-core decided it: the
/// engine layer's one check of an engine's move, kept typed for whoever judges the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegality {
    /// The text is not a USI move at all.
    NotUsi(UsiMoveError),
    /// A USI move the rules forbid in the position (nifu, a pawn-drop mate, the king left in
    /// check, a piece that does not move so, …).
    Rule(PlayError),
}

impl fmt::Display for Illegality {
    /// shogi-core's words: `bad USI move at byte 3: too short …`, `two unpromoted pawns on
    /// one file (nifu)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegality::NotUsi(e) => e.fmt(f),
            Illegality::Rule(e) => e.fmt(f),
        }
    }
}

/// An engine error: what happened, and (boxed, to keep `Result`s small) which engine, the
/// last lines it wrote (stdout and stderr) and the last command we sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    /// What went wrong.
    pub kind: EngineErrorKind,
    /// Where: the engine and its last words.
    pub context: Box<ErrorContext>,
}

/// The engine an error is about and what it last said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorContext {
    /// The engine: its `id name`, or the program path before `id name` was read.
    pub engine: String,
    /// The engine's last output lines, oldest first.
    pub last_lines: Vec<OutputLine>,
    /// The last command written to the engine, if any.
    pub last_command: Option<String>,
}

impl EngineError {
    /// The engine: its `id name`, or the program path before `id name` was read.
    pub fn engine(&self) -> &str {
        &self.context.engine
    }

    /// The engine's last output lines (stdout and stderr), oldest first.
    pub fn last_lines(&self) -> &[OutputLine] {
        &self.context.last_lines
    }

    /// The last command written to the engine, if any.
    pub fn last_command(&self) -> Option<&str> {
        self.context.last_command.as_deref()
    }

    /// The engine's last `info` line on its standard output (as the protocol parser reads
    /// lines), e.g. what a hung engine had said about its search by then.
    pub fn last_info(&self) -> Option<&OutputLine> {
        self.context.last_lines.iter().rev().find(|l| {
            l.stream == Stream::Stdout && matches!(parse_line(&l.text), EngineLine::Info(_))
        })
    }

    /// Whether the process must be restarted before it can be used again (crash, hang, closed
    /// pipe, broken protocol); `false` for errors that leave the engine usable (an option
    /// refused, an illegal request, an illegal move answered in time).
    pub fn needs_restart(&self) -> bool {
        matches!(
            self.kind,
            EngineErrorKind::Timeout { .. }
                | EngineErrorKind::Crashed { .. }
                | EngineErrorKind::PipeClosed(_)
                | EngineErrorKind::Protocol(_)
                | EngineErrorKind::Spawn(_)
                | EngineErrorKind::Dead(_)
        )
    }
}

impl fmt::Display for EngineErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineErrorKind::Spawn(e) => write!(f, "cannot start: {e}"),
            EngineErrorKind::Timeout { waiting_for, after } => {
                write!(
                    f,
                    "no `{waiting_for}` within {:.1} s (engine hangs)",
                    after.as_secs_f64()
                )
            }
            EngineErrorKind::Crashed {
                waiting_for,
                status,
            } => {
                write!(f, "engine exited while we waited for `{waiting_for}`")?;
                if let Some(s) = status {
                    write!(f, " ({s})")?;
                }
                Ok(())
            }
            EngineErrorKind::PipeClosed(e) => write!(f, "cannot write to the engine: {e}"),
            EngineErrorKind::Protocol(e) => write!(f, "protocol error: {e}"),
            EngineErrorKind::IllegalMove { text, reason, .. } => {
                write!(f, "illegal move `{text}` from the engine: {reason}")
            }
            EngineErrorKind::UnknownOption { name, available } => write!(
                f,
                "the engine has no option `{name}`; it has: {}",
                if available.is_empty() {
                    "none".to_owned()
                } else {
                    available.join(", ")
                }
            ),
            EngineErrorKind::BadOptionValue {
                name,
                value,
                reason,
            } => write!(f, "option `{name}` cannot be `{value}`: {reason}"),
            EngineErrorKind::Unsupported(e) => write!(f, "not supported by the engine: {e}"),
            EngineErrorKind::InvalidRequest(e) => write!(f, "invalid request: {e}"),
            EngineErrorKind::Dead(e) => write!(f, "engine unusable after an earlier error: {e}"),
        }
    }
}

impl fmt::Display for EngineError {
    /// `engine NAME: what happened`, then the last command and the last lines, one per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine {}: {}", self.context.engine, self.kind)?;
        if let Some(c) = &self.context.last_command {
            write!(f, "\n  last command: {c}")?;
        }
        if !self.context.last_lines.is_empty() {
            write!(f, "\n  last lines:")?;
            for l in &self.context.last_lines {
                let tag = match l.stream {
                    Stream::Stdout => "out",
                    Stream::Stderr => "err",
                };
                write!(f, "\n    {tag}| {}", l.text)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for EngineError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_info_is_the_protocol_s_last_info_line() {
        let line = |stream, text: &str| OutputLine {
            stream,
            text: text.into(),
        };
        let mut e = EngineError {
            kind: EngineErrorKind::Dead("test".into()),
            context: Box::new(ErrorContext {
                engine: "fake".into(),
                last_lines: vec![
                    line(Stream::Stdout, "info depth 1 score cp 10 pv 7g7f"),
                    line(Stream::Stdout, "  info depth 2 nodes 300"),
                    // Not info lines: a longer word, and standard error.
                    line(Stream::Stdout, "infostring"),
                    line(Stream::Stderr, "info from stderr"),
                    line(Stream::Stdout, "bestmove 7g7f"),
                ],
                last_command: None,
            }),
        };
        let last = e.last_info().map(|l| l.text.as_str());
        assert_eq!(last, Some("  info depth 2 nodes 300"));
        e.context.last_lines.drain(..2);
        assert_eq!(e.last_info(), None);
    }
}

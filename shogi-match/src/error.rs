//! Why a match cannot start or go on: [`MatchError`], naming the [`Parameter`] at fault so that
//! each front end words it in its own terms (a flag on the command line, a keyword in Python).
//! A leaf module: the rest of the crate builds these, nothing here knows a setting's range.

use crate::openings::OpeningError;
use shogi_usi::{EngineError, EngineErrorKind};
use std::fmt;
use std::path::PathBuf;

/// A setting of a match ([`crate::settings::Request`], [`crate::settings::Settings`]) or of its
/// record output ([`crate::output::Output`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parameter {
    /// The engines (`NAME=PATH[,option=value...]` each).
    Engine,
    /// Who plays whom (head to head, gauntlet, round robin).
    Pairing,
    /// Games per pairing.
    Games,
    /// Games at once.
    Jobs,
    /// Main time.
    Time,
    /// Byoyomi.
    Byoyomi,
    /// Fischer increment.
    Inc,
    /// Time per move.
    Movetime,
    /// Nodes per move.
    Nodes,
    /// Allowance beyond a side's time.
    TimeMargin,
    /// The hang timeout of a move without a clock.
    MoveTimeout,
    /// The openings file.
    Openings,
    /// The book the openings are walked through (its plies and pick included).
    Book,
    /// The score threshold and moves of resign adjudication.
    Resign,
    /// The score threshold and moves of draw adjudication.
    Draw,
    /// The declaration rule (27 or 24).
    Declaration,
    /// The SPRT bounds and error rates.
    Sprt,
    /// The SPRT model.
    SprtModel,
    /// One multi-game record file.
    Out,
    /// A folder of one record file per game.
    OutDir,
    /// The record formats.
    OutFormat,
    /// Continuing a match from the records written.
    Resume,
}

impl Parameter {
    /// A neutral name (`movetime`, `time margin`), used by [`MatchError`]'s `Display`; front
    /// ends use [`MatchError::describe`] with their own words instead.
    pub fn name(self) -> &'static str {
        match self {
            Parameter::Engine => "engine",
            Parameter::Pairing => "pairing",
            Parameter::Games => "games",
            Parameter::Jobs => "jobs",
            Parameter::Time => "time",
            Parameter::Byoyomi => "byoyomi",
            Parameter::Inc => "inc",
            Parameter::Movetime => "movetime",
            Parameter::Nodes => "nodes",
            Parameter::TimeMargin => "time margin",
            Parameter::MoveTimeout => "move timeout",
            Parameter::Openings => "openings",
            Parameter::Book => "book",
            Parameter::Resign => "resign",
            Parameter::Draw => "draw",
            Parameter::Declaration => "declaration",
            Parameter::Sprt => "sprt",
            Parameter::SprtModel => "sprt model",
            Parameter::Out => "out",
            Parameter::OutDir => "out dir",
            Parameter::OutFormat => "out format",
            Parameter::Resume => "resume",
        }
    }
}

/// Why a match cannot start, or why it stopped.
#[derive(Debug)]
pub enum MatchError {
    /// A setting out of its range or not of its form.
    Setting {
        /// Which setting.
        parameter: Parameter,
        /// What is wrong, without the setting's name (`0: nothing to play`).
        message: String,
    },
    /// Settings given together that exclude each other.
    Conflict {
        /// The setting that excludes the others.
        parameter: Parameter,
        /// The settings it excludes (one: they exclude each other).
        with: Vec<Parameter>,
        /// Why, when it helps (`USI sends one or the other`).
        why: Option<&'static str>,
    },
    /// A setting given without one it needs.
    Needs {
        /// The setting given.
        parameter: Parameter,
        /// The setting it needs.
        needs: Parameter,
    },
    /// None of several settings of which one is needed (the time control).
    Missing {
        /// What is missing (`time control`).
        what: &'static str,
        /// The settings that would give it.
        one_of: Vec<Parameter>,
    },
    /// An openings file that cannot be used, located.
    Openings(OpeningError),
    /// An engine that cannot play: it cannot be started, does not speak USI, refuses an
    /// option or the time control. The engine layer's typed error says which.
    Engine {
        /// The engine's name in the match.
        name: String,
        /// Its program.
        program: PathBuf,
        /// What went wrong (boxed: the error stays small on the settings' paths).
        error: Box<EngineError>,
    },
    /// The record output exists and `resume` was not asked for: nothing was overwritten.
    OutputExists {
        /// [`Parameter::Out`] or [`Parameter::OutDir`].
        parameter: Parameter,
        /// The file or folder.
        path: PathBuf,
        /// In a folder, the first game file found there.
        game: Option<PathBuf>,
    },
    /// A record already written cannot be resumed from (unreadable, or not a game of this
    /// match), located.
    Resume {
        /// The record file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// A record could not be written (or its folder made).
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
}

/// `a`, `a and b`, `a, b and c`.
fn list(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

impl MatchError {
    /// A [`MatchError::Setting`].
    pub fn setting(parameter: Parameter, message: impl Into<String>) -> MatchError {
        MatchError::Setting {
            parameter,
            message: message.into(),
        }
    }

    /// The settings the error is about, first the one at fault (empty for engines, openings
    /// and writing).
    pub fn parameters(&self) -> Vec<Parameter> {
        match self {
            MatchError::Setting { parameter, .. } | MatchError::OutputExists { parameter, .. } => {
                vec![*parameter]
            }
            MatchError::Conflict {
                parameter, with, ..
            } => std::iter::once(*parameter)
                .chain(with.iter().copied())
                .collect(),
            MatchError::Needs { parameter, needs } => vec![*parameter, *needs],
            MatchError::Missing { one_of, .. } => one_of.clone(),
            MatchError::Openings(_) => vec![Parameter::Openings],
            MatchError::Resume { .. } => vec![Parameter::Resume],
            MatchError::Engine { .. } | MatchError::Write { .. } => Vec::new(),
        }
    }

    /// The error as a sentence, each setting named by `word` (the CLI gives its flags, Python
    /// its keywords). Settings come first (`--movetime 0 cannot be met…`).
    pub fn describe(&self, word: &dyn Fn(Parameter) -> String) -> String {
        match self {
            MatchError::Setting { parameter, message } => {
                format!("{} {message}", word(*parameter))
            }
            MatchError::Conflict {
                parameter,
                with,
                why,
            } => {
                let others: Vec<String> = with.iter().map(|p| word(*p)).collect();
                let mut s = if others.len() == 1 {
                    format!("{} and {} exclude each other", word(*parameter), others[0])
                } else {
                    format!("{} excludes {}", word(*parameter), list(&others))
                };
                if let Some(why) = why {
                    s.push_str(&format!(" ({why})"));
                }
                s
            }
            MatchError::Needs { parameter, needs } => {
                format!("{} needs {}", word(*parameter), word(*needs))
            }
            MatchError::Missing { what, one_of } => {
                let words: Vec<String> = one_of.iter().map(|p| word(*p)).collect();
                let mut options = list(&words);
                if words.len() > 1 {
                    // `list` writes one " and ", before the last.
                    options = options.replacen(" and ", " or ", 1);
                }
                format!("no {what}: give {options}")
            }
            MatchError::Openings(e) => e.to_string(),
            MatchError::Engine {
                name,
                program,
                error,
            } => format!(
                "engine {name} ({}) {}",
                program.display(),
                engine_problem(error)
            ),
            MatchError::OutputExists {
                parameter,
                path,
                game,
            } => {
                let what = match game {
                    None => "exists".to_string(),
                    Some(g) => format!("holds games of a match ({})", g.display()),
                };
                format!(
                    "{} {} {what}: {} continues that match, or choose another (nothing was overwritten)",
                    word(*parameter),
                    path.display(),
                    word(Parameter::Resume)
                )
            }
            MatchError::Resume { path, message } => format!("{}: {message}", path.display()),
            MatchError::Write { path, error } => format!("{}: {error}", path.display()),
        }
    }
}

/// What an engine's start error means for a match (`is not a USI engine: …`).
fn engine_problem(e: &EngineError) -> String {
    match &e.kind {
        EngineErrorKind::Timeout {
            waiting_for: "usiok",
            after,
        } => format!(
            "is not a USI engine: no `usiok` within {} s",
            after.as_secs()
        ),
        // A program that exits at once may do so before or while `usi` is written: either
        // way it ended the handshake, which is what the user needs to know.
        EngineErrorKind::Crashed {
            waiting_for,
            status,
        } => format!(
            "is not a USI engine: it exited during the handshake, waiting for {waiting_for} ({})",
            status.as_deref().unwrap_or("exit status unknown")
        ),
        EngineErrorKind::PipeClosed(why) => {
            format!("is not a USI engine: it closed its input during the handshake ({why})")
        }
        EngineErrorKind::Spawn(why) => format!("cannot be started: {why}"),
        k => format!("cannot be used: {k}"),
    }
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&|p| p.name().to_string()))
    }
}

impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MatchError::Engine { error, .. } => Some(&**error),
            MatchError::Openings(e) => Some(e),
            MatchError::Write { error, .. } => Some(error),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_name_settings_in_the_callers_words() {
        let flag = |p: Parameter| format!("--{}", p.name().replace(' ', "-"));
        let e = MatchError::Conflict {
            parameter: Parameter::Movetime,
            with: vec![Parameter::Nodes],
            why: None,
        };
        assert_eq!(
            e.describe(&flag),
            "--movetime and --nodes exclude each other"
        );
        assert_eq!(e.to_string(), "movetime and nodes exclude each other");
        let e = MatchError::Conflict {
            parameter: Parameter::Movetime,
            with: vec![Parameter::Time, Parameter::Byoyomi, Parameter::Inc],
            why: None,
        };
        assert_eq!(
            e.describe(&flag),
            "--movetime excludes --time, --byoyomi and --inc"
        );
        let e = MatchError::Missing {
            what: "time control",
            one_of: vec![Parameter::Byoyomi, Parameter::Time, Parameter::Nodes],
        };
        assert_eq!(
            e.describe(&flag),
            "no time control: give --byoyomi, --time or --nodes"
        );
        assert_eq!(e.parameters()[2], Parameter::Nodes);
        let e = MatchError::Needs {
            parameter: Parameter::Inc,
            needs: Parameter::Time,
        };
        assert_eq!(
            e.describe(&|p| format!("{}=", p.name())),
            "inc= needs time="
        );
    }
}

//! What a match is asked to be ([`Request`], as a front end receives it) and what it is
//! ([`Settings`], checked): every rule about which settings go together, their ranges and
//! their defaults is here, once, for the CLI and Python alike. Errors name a [`Parameter`].

use crate::book::BookRequest;
use crate::clock::TimeControl;
use crate::error::{MatchError, Parameter};
use crate::openings::{Opening, OpeningError, order, read_openings};
use crate::referee::{Adjudication, Rules};
use crate::stats::{Sprt, SprtModel};
use serde::Serialize;
use shogi_core::{ImpasseRule, Variant};
use std::path::PathBuf;

/// Games per pairing when none is given: 2 (one pair), or 20,000 with an SPRT (which stops
/// the match at its decision, usually long before).
pub const DEFAULT_GAMES: u32 = 2;
/// Games per pairing with an SPRT when none is given.
pub const DEFAULT_SPRT_GAMES: u32 = 20_000;
/// The most games played at once.
pub const MAX_JOBS: usize = 256;

/// One engine of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in results and records (unique in the match).
    pub name: String,
    /// The program.
    pub path: PathBuf,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// `setoption`s sent at start, checked against the options the engine offers.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Reads `NAME=PATH[,option=value...]`; `arg=X` (repeatable) passes X on the engine's
    /// command line instead of setting an option.
    ///
    /// ```
    /// let e = shogi_match::settings::EngineSpec::parse("fs=/usr/games/fairy-stockfish,Hash=64,arg=-v")?;
    /// assert_eq!(e.name, "fs");
    /// assert_eq!(e.options, [("Hash".to_string(), "64".to_string())]);
    /// assert_eq!(e.args, ["-v"]);
    /// # Ok::<(), shogi_match::MatchError>(())
    /// ```
    pub fn parse(text: &str) -> Result<EngineSpec, MatchError> {
        let bad = |why: String| MatchError::setting(Parameter::Engine, format!("{text:?}: {why}"));
        let Some((name, rest)) = text.split_once('=') else {
            return Err(bad("write NAME=PATH[,option=value...]".into()));
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(bad("the name is empty".into()));
        }
        let mut parts = rest.split(',');
        let path = parts.next().unwrap_or("").trim();
        if path.is_empty() {
            return Err(bad("the path is empty".into()));
        }
        let mut spec = EngineSpec {
            name: name.to_string(),
            path: PathBuf::from(path),
            args: Vec::new(),
            options: Vec::new(),
        };
        for p in parts {
            let Some((k, v)) = p.split_once('=') else {
                return Err(bad(format!(
                    "option {p:?} has no value (write option=value)"
                )));
            };
            let k = k.trim();
            if k.is_empty() {
                return Err(bad("an option name is empty".into()));
            }
            if k == "arg" {
                spec.args.push(v.to_string());
            } else {
                spec.options.push((k.to_string(), v.trim().to_string()));
            }
        }
        Ok(spec)
    }
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pairing {
    /// Exactly two engines.
    #[default]
    HeadToHead,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every pair of engines.
    RoundRobin,
}

/// Everything a match needs, checked by [`Settings::validate`] (which [`Request::settings`],
/// [`crate::runner::check`] and [`crate::runner::run`] call).
#[derive(Clone, Debug)]
pub struct Settings {
    /// The engines.
    pub engines: Vec<EngineSpec>,
    /// Who plays whom.
    pub pairing: Pairing,
    /// Games per pairing.
    pub games: u32,
    /// Games at once.
    pub jobs: usize,
    /// The time control.
    pub time_control: TimeControl,
    /// Allowance beyond a side's time before it loses on time, ms.
    pub time_margin_ms: u64,
    /// With `--nodes`: how long a move may take before the engine is called hung, ms.
    pub move_timeout_ms: u64,
    /// Start the engines under `SCHED_BATCH` ([`shogi_usi::StartOptions::batch`]), so that an
    /// engine woken by `go` does not preempt the referee while it writes.
    pub batch: bool,
    /// The rules.
    pub rules: Rules,
    /// The variant.
    pub variant: Variant,
    /// The openings (at least one).
    pub openings: Vec<Opening>,
    /// The order of the openings (indices into `openings`).
    pub order: Vec<usize>,
    /// The SPRT, head to head only.
    pub sprt: Option<Sprt>,
    /// The event name written in records.
    pub event: String,
}

impl Settings {
    /// Checks what does not need the engines: their number for the pairing and unique names,
    /// games and jobs in range, openings of the variant, the time control, adjudication, the
    /// SPRT's engines.
    pub fn validate(&self) -> Result<(), MatchError> {
        let bad = |p: Parameter, m: String| Err(MatchError::setting(p, m));
        let n = self.engines.len();
        let given = |n: usize| format!("{n} {} given", if n == 1 { "engine" } else { "engines" });
        match self.pairing {
            Pairing::HeadToHead if n != 2 => {
                return bad(
                    Parameter::Engine,
                    format!("{}: a head-to-head match needs exactly 2", given(n)),
                );
            }
            _ if n < 2 => {
                return bad(
                    Parameter::Engine,
                    format!("{}: a match needs at least 2", given(n)),
                );
            }
            _ => {}
        }
        for (i, e) in self.engines.iter().enumerate() {
            if self.engines[..i].iter().any(|o| o.name == e.name) {
                return bad(
                    Parameter::Engine,
                    format!(
                        "{:?}: two engines are named {:?}: names must differ",
                        e.name, e.name
                    ),
                );
            }
        }
        if self.games == 0 {
            return bad(Parameter::Games, "0: nothing to play".into());
        }
        if self.jobs == 0 || self.jobs > MAX_JOBS {
            return bad(
                Parameter::Jobs,
                format!("{}: give 1 to {MAX_JOBS}", self.jobs),
            );
        }
        self.time_control.validate()?;
        if self.move_timeout_ms == 0 {
            return bad(Parameter::MoveTimeout, "0: give at least 1 ms".into());
        }
        if self.openings.is_empty() {
            return bad(Parameter::Openings, "no opening".into());
        }
        if let Some(o) = self
            .openings
            .iter()
            .find(|o| o.start.variant() != self.variant)
        {
            return bad(
                Parameter::Openings,
                format!(
                    "{}: the opening is {} but the match is {}",
                    o.source,
                    o.start.variant().name(),
                    self.variant.name()
                ),
            );
        }
        if self.order.is_empty() || self.order.iter().any(|&i| i >= self.openings.len()) {
            return bad(
                Parameter::Openings,
                "the order names an opening that is not there".into(),
            );
        }
        for (p, adj) in [
            (Parameter::Resign, self.rules.resign),
            (Parameter::Draw, self.rules.draw),
        ] {
            if adj.is_some_and(|a| a.moves == 0 || a.score < 0) {
                return bad(p, "needs a score >= 0 and at least 1 move".into());
            }
        }
        if self.sprt.is_some() && n != 2 {
            return bad(Parameter::Sprt, "needs exactly two engines".into());
        }
        Ok(())
    }

    /// Replaces the openings (e.g. lines from a book) and plays them in the order `seed`
    /// gives, as [`Request::settings`] does for the openings it reads.
    pub fn set_openings(&mut self, openings: Vec<Opening>, seed: Option<u64>) {
        self.order = order(openings.len(), seed);
        self.openings = openings;
    }
}

/// A match as a front end receives it: each setting as given, unchecked. [`Request::new`]
/// holds the defaults; [`Request::settings`] checks everything and gives the [`Settings`].
///
/// ```
/// use shogi_match::{MatchError, Parameter, settings::Request};
///
/// let mut r = Request::new(vec!["a=/bin/a".into(), "b=/bin/b".into()]);
/// r.movetime = Some(100);
/// r.nodes = Some(1000);
/// let e = r.settings().unwrap_err();
/// assert_eq!(e.parameters(), [Parameter::Movetime, Parameter::Nodes]);
/// assert_eq!(e.describe(&|p| format!("{}=", p.name())), "movetime= and nodes= exclude each other");
/// r.nodes = None;
/// let s = r.settings()?;
/// assert_eq!(s.games, 2);
/// # Ok::<(), MatchError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The engines, `NAME=PATH[,option=value...]` each.
    pub engines: Vec<String>,
    /// Who plays whom.
    pub pairing: Pairing,
    /// Games per pairing ([`DEFAULT_GAMES`], or [`DEFAULT_SPRT_GAMES`] with an SPRT).
    pub games: Option<u32>,
    /// Games at once (1 to [`MAX_JOBS`]).
    pub jobs: usize,
    /// Main time, ms.
    pub time: Option<u64>,
    /// Byoyomi, ms.
    pub byoyomi: Option<u64>,
    /// Fischer increment, ms.
    pub inc: Option<u64>,
    /// Time per move, ms.
    pub movetime: Option<u64>,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Allowance beyond a side's time, ms.
    pub time_margin_ms: u64,
    /// Hang timeout of a move without a clock, ms.
    pub move_timeout_ms: u64,
    /// Engines under `SCHED_BATCH`.
    pub batch: bool,
    /// The variant.
    pub variant: Variant,
    /// An openings file (SFEN or USI lines, or records); `None`: the variant's start.
    pub openings: Option<PathBuf>,
    /// Only the first K moves of each opening.
    pub opening_plies: Option<usize>,
    /// A book the openings are walked through (standard shogi only).
    pub book: Option<BookRequest>,
    /// Shuffle the openings with this seed.
    pub seed: Option<u64>,
    /// Draw after this many plies (0: no limit).
    pub max_plies: u32,
    /// The declaration rule: 27 or 24.
    pub declaration: u32,
    /// Resign adjudication: (score, moves).
    pub resign: Option<(i32, u32)>,
    /// Draw adjudication: (score, moves).
    pub draw: Option<(i32, u32)>,
    /// SPRT: elo0, elo1 and optionally alpha, beta.
    pub sprt: Option<Vec<f64>>,
    /// The SPRT model's name (`normalized` when not given).
    pub sprt_model: Option<String>,
    /// The event name written in records.
    pub event: String,
}

impl Request {
    /// A request with the defaults of `shogi match` (no time control yet).
    pub fn new(engines: Vec<String>) -> Request {
        Request {
            engines,
            pairing: Pairing::HeadToHead,
            games: None,
            jobs: 1,
            time: None,
            byoyomi: None,
            inc: None,
            movetime: None,
            nodes: None,
            time_margin_ms: 100,
            move_timeout_ms: 60_000,
            batch: true,
            variant: Variant::Standard,
            openings: None,
            opening_plies: None,
            book: None,
            seed: None,
            max_plies: 320,
            declaration: 27,
            resign: None,
            draw: None,
            sprt: None,
            sprt_model: None,
            event: "shogi match".into(),
        }
    }

    /// The checked settings (the openings file read), or the first setting at fault.
    pub fn settings(&self) -> Result<Settings, MatchError> {
        let engines = self
            .engines
            .iter()
            .map(|e| EngineSpec::parse(e))
            .collect::<Result<Vec<_>, _>>()?;
        let time_control =
            TimeControl::from_parts(self.time, self.byoyomi, self.inc, self.movetime, self.nodes)?;
        let sprt = self.sprt()?;
        let declaration = match self.declaration {
            27 => ImpasseRule::Points27,
            24 => ImpasseRule::Points24,
            d => {
                return Err(MatchError::setting(
                    Parameter::Declaration,
                    format!("{d}: 27 or 24"),
                ));
            }
        };
        let openings = match &self.openings {
            None => vec![Opening::startpos(self.variant)],
            Some(p) => {
                let name = p.display().to_string();
                let bytes = std::fs::read(p).map_err(|e| {
                    MatchError::Openings(OpeningError {
                        path: name.clone(),
                        line: 0,
                        column: 0,
                        message: e.to_string(),
                    })
                })?;
                read_openings(&name, &bytes, self.variant, self.opening_plies)
                    .map_err(MatchError::Openings)?
            }
        };
        let games = self.games.unwrap_or(if sprt.is_some() {
            DEFAULT_SPRT_GAMES
        } else {
            DEFAULT_GAMES
        });
        let openings = match &self.book {
            None => openings,
            Some(book) => {
                let from_file = self.openings.is_some();
                book.walk(openings, from_file, games, self.seed, self.variant)?
            }
        };
        let adj = |a: Option<(i32, u32)>| a.map(|(score, moves)| Adjudication { score, moves });
        let settings = Settings {
            order: order(openings.len(), self.seed),
            engines,
            pairing: self.pairing,
            games,
            jobs: self.jobs,
            time_control,
            time_margin_ms: self.time_margin_ms,
            move_timeout_ms: self.move_timeout_ms,
            batch: self.batch,
            rules: Rules {
                max_plies: self.max_plies,
                declaration,
                resign: adj(self.resign),
                draw: adj(self.draw),
            },
            variant: self.variant,
            openings,
            sprt,
            event: self.event.clone(),
        };
        settings.validate()?;
        Ok(settings)
    }

    fn sprt(&self) -> Result<Option<Sprt>, MatchError> {
        let model = match &self.sprt_model {
            None => SprtModel::default(),
            Some(_) if self.sprt.is_none() => {
                return Err(MatchError::Needs {
                    parameter: Parameter::SprtModel,
                    needs: Parameter::Sprt,
                });
            }
            Some(name) => name.parse()?,
        };
        let Some(v) = &self.sprt else {
            return Ok(None);
        };
        let sprt = match v[..] {
            [e0, e1] => Sprt::new(e0, e1, 0.05, 0.05),
            [e0, e1, a, b] => Sprt::new(e0, e1, a, b),
            _ => None,
        };
        match sprt {
            Some(s) => Ok(Some(s.with_model(model))),
            None => Err(MatchError::setting(
                Parameter::Sprt,
                format!(
                    "{v:?}: give elo0, elo1[, alpha, beta] with elo0 < elo1 and 0 < alpha, beta < 1"
                ),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> Request {
        let mut r = Request::new(vec!["a=/bin/a".into(), "b=/bin/b".into()]);
        r.byoyomi = Some(100);
        r
    }

    #[test]
    fn games_default_to_one_pair_or_to_the_sprt_budget() {
        assert_eq!(request().settings().unwrap().games, DEFAULT_GAMES);
        let mut r = request();
        r.sprt = Some(vec![0.0, 5.0]);
        let s = r.settings().unwrap();
        assert_eq!(s.games, DEFAULT_SPRT_GAMES);
        assert_eq!(s.sprt.unwrap().model, SprtModel::Normalized);
        r.games = Some(10);
        assert_eq!(r.settings().unwrap().games, 10);
    }

    #[test]
    fn each_bad_setting_names_its_parameter() {
        type Change = fn(&mut Request);
        let cases: Vec<(Change, Parameter)> = vec![
            (|r| r.engines.truncate(1), Parameter::Engine),
            (|r| r.engines[1] = "a=/bin/b".into(), Parameter::Engine),
            (|r| r.engines[1] = "b".into(), Parameter::Engine),
            (|r| r.games = Some(0), Parameter::Games),
            (|r| r.jobs = 0, Parameter::Jobs),
            (|r| r.jobs = 257, Parameter::Jobs),
            (|r| r.movetime = Some(10), Parameter::Movetime),
            (|r| r.inc = Some(10), Parameter::Byoyomi),
            (|r| r.byoyomi = Some(0), Parameter::Byoyomi),
            (|r| r.declaration = 26, Parameter::Declaration),
            (|r| r.resign = Some((-1, 3)), Parameter::Resign),
            (|r| r.draw = Some((10, 0)), Parameter::Draw),
            (|r| r.sprt = Some(vec![5.0, 0.0]), Parameter::Sprt),
            (|r| r.sprt = Some(vec![0.0]), Parameter::Sprt),
            (
                |r| r.sprt_model = Some("normalized".into()),
                Parameter::SprtModel,
            ),
            (
                |r| {
                    r.sprt = Some(vec![0.0, 5.0]);
                    r.sprt_model = Some("gsprt".into());
                },
                Parameter::SprtModel,
            ),
            (
                |r| {
                    r.sprt = Some(vec![0.0, 5.0]);
                    r.pairing = Pairing::Gauntlet;
                    r.engines.push("c=/bin/c".into());
                },
                Parameter::Sprt,
            ),
            (|r| r.move_timeout_ms = 0, Parameter::MoveTimeout),
            (
                |r| r.openings = Some("/no/such/openings".into()),
                Parameter::Openings,
            ),
        ];
        for (i, (change, want)) in cases.into_iter().enumerate() {
            let mut r = request();
            change(&mut r);
            let e = r.settings().unwrap_err();
            assert_eq!(e.parameters().first(), Some(&want), "case {i}: {e}");
        }
    }

    #[test]
    fn openings_of_another_variant_are_refused() {
        let mut s = request().settings().unwrap();
        s.set_openings(vec![Opening::startpos(Variant::Mini)], None);
        let e = s.validate().unwrap_err();
        assert_eq!(e.parameters(), [Parameter::Openings]);
        assert!(e.to_string().contains("the opening is"), "{e}");
    }
}

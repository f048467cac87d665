//! The engine pool: how the match starts its engines (timeouts, options, the variant, the
//! declaration rule), the check of every engine before the first game, and each worker's idle
//! processes, reused from game to game (`usinewgame` + `isready` before each game).

use crate::clock::Clock;
use crate::error::MatchError;
use crate::settings::{EngineSpec, Settings};
use shogi_usi::{Engine, EngineError, EngineErrorKind, ErrorContext, StartOptions, Timeouts};
use std::time::Duration;

/// How long an engine may take to answer `usi` with `usiok`.
const USIOK_SECS: u64 = 30;

fn start_options(settings: &Settings, spec: &EngineSpec) -> StartOptions {
    StartOptions {
        timeouts: Timeouts {
            // gpsusi needs 1-2 s to `usiok` and as long again to the first `readyok` on an idle
            // machine, five times that on a loaded one.
            usiok: Duration::from_secs(USIOK_SECS),
            readyok: Duration::from_secs(60),
            search_margin: Duration::from_millis(settings.time_margin_ms),
            search_unbounded: Duration::from_millis(settings.move_timeout_ms),
            ..Timeouts::default()
        },
        options: spec.options.clone(),
        impasse_rule: settings.rules.declaration,
        variant: settings.variant,
        batch: settings.batch,
        ..StartOptions::default()
    }
}

/// Starts an engine with its options (the engine layer sends `USI_Hash`/`USI_Ponder` even to
/// an engine that does not list them, as GUIs do).
fn start_engine(settings: &Settings, spec: &EngineSpec) -> Result<Engine, shogi_usi::EngineError> {
    Engine::start(&spec.path, &spec.args, start_options(settings, spec))
}

/// Checks the settings ([`Settings::validate`]) and every engine before the first game: each
/// program starts and speaks USI (`usiok`), accepts its options and the variant, and can play
/// the time control ([`Engine::check_limit`]: gpsusi aborts on some). Returns the engines'
/// `id name`s.
pub fn check(settings: &Settings) -> Result<Vec<String>, MatchError> {
    settings.validate()?;
    let mut names = Vec::new();
    for spec in &settings.engines {
        let failed = |error: EngineError| MatchError::Engine {
            name: spec.name.clone(),
            program: spec.path.clone(),
            error: Box::new(error),
        };
        if !spec.path.is_file() {
            return Err(failed(EngineError {
                kind: EngineErrorKind::Spawn("it does not exist or is not a file".into()),
                context: Box::new(ErrorContext {
                    engine: spec.path.display().to_string(),
                    last_lines: Vec::new(),
                    last_command: None,
                }),
            }));
        }
        let engine = start_engine(settings, spec).map_err(failed)?;
        let id = engine.name();
        let first_move = Clock::new(
            settings.time_control,
            settings.time_margin_ms,
            settings.move_timeout_ms,
        )
        .limit();
        let playable = engine.check_limit(&first_move);
        engine.quit();
        playable.map_err(failed)?;
        names.push(id);
    }
    Ok(names)
}

/// A worker's engines: idle processes per engine index.
pub(crate) struct Stable {
    pub(crate) idle: Vec<Vec<Engine>>,
}

impl Stable {
    /// An engine of index `i` ready for a new game, or why there is none.
    pub(crate) fn take(&mut self, settings: &Settings, i: usize) -> Result<Engine, String> {
        let spec = &settings.engines[i];
        if let Some(mut e) = self.idle[i].pop() {
            if e.new_game().is_ok() {
                return Ok(e);
            }
            if e.restart().is_ok() && e.new_game().is_ok() {
                return Ok(e);
            }
        }
        let mut e = start_engine(settings, spec).map_err(|e| format!("cannot start: {e}"))?;
        e.new_game().map_err(|e| format!("usinewgame: {e}"))?;
        Ok(e)
    }
}

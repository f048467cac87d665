//! One game between two engines: positions and `go` written, answers judged
//! ([`crate::adjudication`]), the clock kept, our overhead per move measured, the result told
//! to the engines, and the record built.

use crate::adjudication::{judge_engine_error, judge_search};
use crate::clock::Clock;
use crate::record::{self, GameInfo, Notes};
use crate::referee::{Outcome, Referee, Termination};
use crate::schedule::GameSpec;
use crate::settings::Settings;
use serde::Serialize;
use shogi_core::{Color, Move};
use shogi_kif::{HeaderKey, Record};
use shogi_usi::Engine;
use std::time::{Instant, SystemTime};

/// The header key that numbers a game of the match (`$MATCH_GAME:12` in CSA), so that
/// `--resume` knows which games are written.
pub const GAME_KEY: &str = "$MATCH_GAME";

/// A finished game.
#[derive(Clone, Debug)]
pub struct Finished {
    /// Which game.
    pub spec: GameSpec,
    /// Its record (without the engines' evaluations and the ending's reason:
    /// [`crate::record::write`] adds `notes` in the form of the format written).
    pub record: Record,
    /// The engines' evaluations and why the game ended.
    pub notes: Notes,
    /// How it ended.
    pub outcome: Outcome,
    /// Our overhead per move: from reading a `bestmove` to having written the next `go`, µs.
    pub overheads_us: Vec<u64>,
    /// The same overheads split into their steps, one per move measured.
    pub overhead_steps: Vec<OverheadSteps>,
}

/// One move's referee overhead split into its steps, µs (the sum is the move's overhead).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OverheadSteps {
    /// The ply whose `go` ended the measurement (1 = the first move of the game).
    pub ply: usize,
    /// From the reader thread's reading `bestmove` to `wait` returning on the game thread: the
    /// channel hand-off (a thread wake-up) and the checking of the search's last lines.
    pub handoff_us: u64,
    /// From there to calling `start_search`: the clock, the referee's judgement of the move,
    /// the next `go`'s fields.
    pub referee_us: u64,
    /// `start_search`: the move list checked, `position … moves …` and `go` written.
    pub write_us: u64,
}

impl OverheadSteps {
    /// The whole overhead, µs.
    pub fn total_us(&self) -> u64 {
        self.handoff_us + self.referee_us + self.write_us
    }
}

/// Plays one game between two engines (either may have failed to start).
// About 110 lines: one loop, a move an iteration (restart a stale engine, write the search,
// judge its answer); the judging is in `judge_search` and `judge_engine_error`.
pub(crate) fn play(
    settings: &Settings,
    spec: &GameSpec,
    black: &mut Result<Engine, String>,
    white: &mut Result<Engine, String>,
) -> Finished {
    let opening = &settings.openings[spec.opening];
    let started_at = SystemTime::now();
    let mut referee = match Referee::new(opening.start.clone(), &opening.moves, settings.rules) {
        Ok(r) => r,
        // Openings are checked when read; this cannot fail for them.
        Err(_) => Referee::new(opening.start.clone(), &[], settings.rules)
            .unwrap_or_else(|_| unreachable_referee(settings)),
    };
    let mut clock = Clock::new(
        settings.time_control,
        settings.time_margin_ms,
        settings.move_timeout_ms,
    );
    let mut overheads = Vec::new();
    let mut steps = Vec::new();
    // When the last `bestmove` was read by the reader thread, and when `wait` returned it.
    let mut last_read: Option<(Instant, Instant)> = None;
    // Remarks for the record's next move.
    let mut pending_notes: Vec<String> = Vec::new();
    let start = referee.game().start().clone();
    while referee.outcome().is_none() {
        let side = referee.side_to_move();
        let slot = if side == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let engine = match slot {
            Ok(e) => e,
            Err(detail) => {
                referee.fail(Termination::EngineFailure {
                    detail: detail.clone(),
                });
                break;
            }
        };
        let moves: Vec<Move> = referee.game().moves().to_vec();
        // gpsusi answers no `position … moves …` that does not continue its last one (the
        // first search of a new game): restart it now, off its clock (the clock starts when
        // `go` is written) and out of our overhead samples.
        if let Some(why) = engine.stale(&start, &moves) {
            if let Err(e) = engine.restart_if_stale(&start, &moves) {
                *slot = Err(format!("restart failed: {e}"));
                continue;
            }
            let name = &settings.engines[if side == Color::Black {
                spec.black
            } else {
                spec.white
            }]
            .name;
            pending_notes.push(format!(
                "{name} was restarted before this move: {why}; the restart's time is not on its clock"
            ));
            last_read = None;
        }
        let limit = clock.limit();
        let calling = Instant::now();
        let begun = engine.start_search(&start, &moves, &limit);
        if let (Some((read, returned)), Ok(())) = (last_read.take(), &begun) {
            let us = |a: Instant, b: Instant| b.saturating_duration_since(a).as_micros() as u64;
            let step = OverheadSteps {
                ply: moves.len() + 1,
                handoff_us: us(read, returned),
                referee_us: us(returned, calling),
                write_us: us(calling, Instant::now()),
            };
            overheads.push(step.total_us());
            steps.push(step);
        }
        let searched = match begun {
            Ok(()) => engine.wait(),
            Err(e) => Err(e),
        };
        match searched {
            Ok(search) => {
                last_read = Some((search.bestmove_read_at, Instant::now()));
                let notes = std::mem::take(&mut pending_notes);
                if !judge_search(&mut referee, &mut clock, side, &search, notes) {
                    break;
                }
            }
            Err(e) => {
                judge_engine_error(&mut referee, &clock, side, &e);
                if e.needs_restart() {
                    if let Err(r) = engine.restart() {
                        *slot = Err(format!("restart failed: {r}"));
                    }
                }
            }
        }
    }
    let outcome = referee
        .outcome()
        .cloned()
        .unwrap_or_else(|| referee.fail(Termination::Resign).clone());
    tell_result(black, white, &outcome);
    let record = game_record(settings, spec, &referee, &outcome, started_at);
    let notes = Notes::of(&referee, &outcome);
    Finished {
        spec: *spec,
        record,
        notes,
        outcome,
        overheads_us: overheads,
        overhead_steps: steps,
    }
}

/// Tells both engines (those still running) the game's result; one that cannot take it is
/// restarted for its next game.
fn tell_result(
    black: &mut Result<Engine, String>,
    white: &mut Result<Engine, String>,
    outcome: &Outcome,
) {
    for (slot, color) in [(&mut *black, Color::Black), (&mut *white, Color::White)] {
        if let Ok(e) = slot {
            let word = match outcome.winner {
                None => shogi_usi::GameResult::Draw,
                Some(c) if c == color => shogi_usi::GameResult::Win,
                Some(_) => shogi_usi::GameResult::Lose,
            };
            if e.gameover(word).is_err() {
                let _ = e.restart();
            }
        }
    }
}

/// The game's record, with its number in the match as a header entry.
fn game_record(
    settings: &Settings,
    spec: &GameSpec,
    referee: &Referee,
    outcome: &Outcome,
    started_at: SystemTime,
) -> Record {
    let info = GameInfo {
        black: settings.engines[spec.black].name.clone(),
        white: settings.engines[spec.white].name.clone(),
        event: settings.event.clone(),
        time_control: Some(settings.time_control),
        start_time: Some(started_at),
        end_time: Some(SystemTime::now()),
        opening_source: Some(settings.openings[spec.opening].source.clone()),
    };
    let mut rec = record::build(referee, outcome, &info);
    rec.header.push(
        HeaderKey::Other(GAME_KEY.into()),
        (spec.index + 1).to_string(),
    );
    rec
}

fn unreachable_referee(settings: &Settings) -> Referee {
    // The start position of the variant always has moves.
    match Referee::new(
        shogi_core::Position::startpos(settings.variant),
        &[],
        settings.rules,
    ) {
        Ok(r) => r,
        Err(e) => panic!("the start position is playable: {e}"),
    }
}

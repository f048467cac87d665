//! Adjudication of each engine answer: the time charged to the clock (lost on time past it),
//! the engine layer's judged answer (a checked move, a resignation, a judged declaration, an
//! illegal move with its typed reason) handed to the referee as it is, and an engine's
//! failure (hang, crash) turned into the game's end.

use crate::clock::Clock;
use crate::referee::{Answer, MoveInfo, Referee, Termination};
use shogi_core::Color;
use shogi_usi::{EngineError, EngineErrorKind};

/// Judges a finished search of `side`'s engine: its time goes on the clock (over the limit:
/// lost on time, and false is returned), its answer to the referee with the move's time,
/// evaluation, PV and `notes`.
pub(crate) fn judge_search(
    referee: &mut Referee,
    clock: &mut Clock,
    side: Color,
    search: &shogi_usi::Search,
    notes: Vec<String>,
) -> bool {
    let ms = search.elapsed.as_millis() as u64;
    if let Err(f) = clock.spend(side, ms) {
        referee.fail(Termination::TimeUp {
            elapsed_ms: f.elapsed_ms,
            allowed_ms: f.allowed_ms,
            no_answer: false,
            last_info: None,
        });
        return false;
    }
    // The engine layer checked the answer on the position it was asked, the referee's.
    debug_assert!(search.position == *referee.position());
    let answer = Answer::from(search.bestmove);
    let best = search.best_line();
    let info = MoveInfo {
        time_ms: ms,
        eval: search.score().map(|s| s.relative()),
        pv: best.map_or_else(Vec::new, |l| l.pv.clone()),
        depth: best.and_then(|l| l.depth),
        nodes: best.and_then(|l| l.nodes),
        notes,
    };
    referee.answer(&answer, info);
    true
}

/// Judges a failed search of `side`'s engine: an illegal move goes to the referee as the
/// engine's answer (the mover loses), a timeout waiting for `bestmove` loses on time, anything
/// else ends the game as the engine's failure, with its last line.
pub(crate) fn judge_engine_error(
    referee: &mut Referee,
    clock: &Clock,
    side: Color,
    e: &EngineError,
) {
    match &e.kind {
        EngineErrorKind::IllegalMove { text, why, .. } => {
            let answer = Answer::Illegal {
                text: text.clone(),
                why: why.clone(),
            };
            referee.answer(&answer, MoveInfo::default());
        }
        EngineErrorKind::Timeout {
            waiting_for: "bestmove",
            after,
        } => {
            referee.fail(Termination::TimeUp {
                elapsed_ms: after.as_millis() as u64,
                allowed_ms: clock.allowed(side),
                no_answer: true,
                last_info: e.last_info().map(|l| l.text.clone()),
            });
        }
        _ => {
            let mut detail = e.kind.to_string();
            if let Some(l) = e.last_lines().last() {
                detail.push_str(&format!("; last line: {}", l.text));
            }
            referee.fail(Termination::EngineFailure { detail });
        }
    }
}

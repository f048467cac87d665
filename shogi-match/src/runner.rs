//! The scheduler: games between USI engines ([`shogi_usi::Engine`]) on worker threads, each
//! game refereed by [`Referee`] on our rules with our [`Clock`], the results tallied as they
//! come (W-L-D per engine and per colour, Elo, LOS, the pentanomial view of game pairs, SPRT).
//!
//! Every worker keeps its own engine processes and reuses them from game to game
//! (`usinewgame` + `isready` before each game, `gameover` after it). An engine that crashes,
//! hangs (no `bestmove` by its time plus the margin) or breaks the protocol loses the game it
//! is playing (the record says why) and is restarted; the match goes on. Engines that cannot
//! even be restarted lose their games until a restart works.
//!
//! Pairings: head to head (two engines), gauntlet (the first against each other one), round
//! robin (every pair). Each pairing plays `games` games: game 2k and 2k+1 share an opening with
//! colours swapped (a pair). With `sprt`, the match stops when the test decides (head to head
//! only); games already running finish and are counted.
//!
//! The parts, as fastchess splits them: [`crate::schedule`] (who plays whom),
//! [`crate::pool`] (engines started, checked and reused), [`crate::game`] (one game),
//! [`crate::adjudication`] (each answer judged), [`crate::tally`] (results and summary).

pub use crate::game::{Finished, GAME_KEY, OverheadSteps};
pub use crate::pool::check;
pub use crate::schedule::{GameSpec, pairings, schedule};
pub use crate::tally::{
    Done, EngineSummary, EngineTally, PairSummary, PairTally, SprtSummary, Summary, Tally,
};

use crate::error::MatchError;
use crate::game::play;
use crate::pool::Stable;
use crate::settings::Settings;
use crate::stats::Decision;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Plays the match: every game of [`schedule`] not in `done`, `settings.jobs` at once.
/// `on_game` is called on this thread as each game ends (write its record there); an error
/// from it stops the match (games running finish) and is returned.
pub fn run(
    settings: &Settings,
    done: &[Done],
    mut on_game: impl FnMut(&Finished, &Tally) -> Result<(), MatchError>,
) -> Result<(Tally, bool), MatchError> {
    settings.validate()?;
    let all = schedule(settings);
    let mut tally = Tally::new(settings);
    for d in done {
        if let Some(spec) = all.get(d.index) {
            tally.add(spec, d.winner, "resumed");
        }
    }
    let skip: std::collections::HashSet<usize> = done.iter().map(|d| d.index).collect();
    let queue: Vec<GameSpec> = all
        .into_iter()
        .filter(|g| !skip.contains(&g.index))
        .collect();
    let stop = AtomicBool::new(false);
    let mut stopped_by_sprt = false;
    if let Some(s) = &settings.sprt {
        if tally.sprt(s).1 != Decision::Continue {
            return Ok((tally, true));
        }
    }
    let next = AtomicUsize::new(0);
    let mut failure = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Finished>();
        for _ in 0..settings.jobs.max(1).min(queue.len().max(1)) {
            let tx = tx.clone();
            let (queue, next, stop) = (&queue, &next, &stop);
            scope.spawn(move || worker(settings, queue, next, stop, tx));
        }
        drop(tx);
        for f in rx {
            tally.add(&f.spec, f.outcome.winner, f.outcome.termination.kind());
            tally.overheads_us.extend(&f.overheads_us);
            if failure.is_none() {
                if let Err(e) = on_game(&f, &tally) {
                    failure = Some(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
            if let Some(s) = &settings.sprt {
                if !stopped_by_sprt && tally.sprt(s).1 != Decision::Continue {
                    stopped_by_sprt = true;
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok((tally, stopped_by_sprt)),
    }
}

/// Writes the per-move timings of a finished game ([`OverheadSteps`]) to `w`, one JSON object
/// a line with the game's number: a debugging aid for the referee's speed, written by the
/// caller (the CLI when `SHOGI_MATCH_TRACE` names a file), never by the library itself.
pub fn write_trace(w: &mut dyn std::io::Write, f: &Finished) -> std::io::Result<()> {
    for s in &f.overhead_steps {
        let line = serde_json::json!({
            "game": f.spec.index + 1,
            "ply": s.ply,
            "total_us": s.total_us(),
            "handoff_us": s.handoff_us,
            "referee_us": s.referee_us,
            "write_us": s.write_us,
        });
        writeln!(w, "{line}")?;
    }
    Ok(())
}

fn worker(
    settings: &Settings,
    queue: &[GameSpec],
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: mpsc::Sender<Finished>,
) {
    let mut stable = Stable {
        idle: settings.engines.iter().map(|_| Vec::new()).collect(),
    };
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let i = next.fetch_add(1, Ordering::SeqCst);
        let Some(spec) = queue.get(i) else { break };
        let mut black = stable.take(settings, spec.black);
        let mut white = stable.take(settings, spec.white);
        let finished = play(settings, spec, &mut black, &mut white);
        for (slot, idx) in [(black, spec.black), (white, spec.white)] {
            if let Ok(e) = slot {
                stable.idle[idx].push(e);
            }
        }
        if tx.send(finished).is_err() {
            break;
        }
    }
    for e in stable.idle.into_iter().flatten() {
        e.quit();
    }
}

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

use crate::clock::Clock;
use crate::error::MatchError;
use crate::record::{self, GameInfo, Notes};
use crate::referee::{Answer, MoveInfo, Outcome, Referee, Termination};
use crate::settings::{EngineSpec, Pairing, Settings};
use crate::stats::{Decision, EloSample, Figure, Pentanomial, Sprt, Trinomial};
use serde::Serialize;
use shogi_core::{Color, Move};
use shogi_kif::{HeaderKey, Record};
use shogi_usi::{
    BestMove, Engine, EngineError, EngineErrorKind, ErrorContext, StartOptions, Timeouts,
};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

/// The header key that numbers a game of the match (`$MATCH_GAME:12` in CSA), so that
/// `--resume` knows which games are written.
pub const GAME_KEY: &str = "$MATCH_GAME";

/// How long an engine may take to answer `usi` with `usiok`.
const USIOK_SECS: u64 = 30;

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Its number in the match, from 0.
    pub index: usize,
    /// The pairing it belongs to (index into [`Tally::pairings`]).
    pub pairing: usize,
    /// Its pair (the two games of one opening with colours swapped), unique in the match.
    pub pair: usize,
    /// Sente's engine.
    pub black: usize,
    /// Gote's engine.
    pub white: usize,
    /// The opening (index into [`Settings::openings`]).
    pub opening: usize,
}

/// The pairings of a match: (first, second) engine indices.
pub fn pairings(settings: &Settings) -> Vec<(usize, usize)> {
    let n = settings.engines.len();
    match settings.pairing {
        Pairing::HeadToHead => vec![(0, 1)],
        Pairing::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Pairing::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

/// Every game of the match, in order.
pub fn schedule(settings: &Settings) -> Vec<GameSpec> {
    let mut out = Vec::new();
    let n = settings.order.len().max(1);
    let mut pair_base = 0;
    for (p, &(a, b)) in pairings(settings).iter().enumerate() {
        for g in 0..settings.games as usize {
            let (black, white) = if g % 2 == 0 { (a, b) } else { (b, a) };
            out.push(GameSpec {
                index: out.len(),
                pairing: p,
                pair: pair_base + g / 2,
                black,
                white,
                opening: settings.order.get((g / 2) % n).copied().unwrap_or(0),
            });
        }
        pair_base += (settings.games as usize).div_ceil(2);
    }
    out
}

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
            error,
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

/// A game already played (read back by `--resume`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Done {
    /// Which game.
    pub index: usize,
    /// Its winner (`None`: draw).
    pub winner: Option<Color>,
}

/// Results per engine.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EngineTally {
    /// The engine's name.
    pub name: String,
    /// As sente.
    pub as_black: Trinomial,
    /// As gote.
    pub as_white: Trinomial,
}

impl EngineTally {
    /// Both colours.
    pub fn total(&self) -> Trinomial {
        Trinomial {
            wins: self.as_black.wins + self.as_white.wins,
            losses: self.as_black.losses + self.as_white.losses,
            draws: self.as_black.draws + self.as_white.draws,
        }
    }
}

/// Results of one pairing, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairTally {
    /// The first engine.
    pub a: usize,
    /// The second engine.
    pub b: usize,
    /// Games.
    pub games: Trinomial,
    /// Complete pairs.
    pub pairs: Pentanomial,
    /// Pairs with one game in: pair id → the first engine's half points.
    pending: HashMap<usize, u8>,
}

/// The running results of a match.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Per engine.
    pub engines: Vec<EngineTally>,
    /// Per pairing.
    pub pairings: Vec<PairTally>,
    /// How games ended: termination kind → count.
    pub terminations: BTreeMap<String, u64>,
    /// Overheads per move, µs.
    pub overheads_us: Vec<u64>,
    /// Games counted.
    pub games: u64,
}

fn termination_kind(t: &Termination) -> String {
    serde_json::to_value(t)
        .ok()
        .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

impl Tally {
    /// An empty tally for `settings`.
    pub fn new(settings: &Settings) -> Tally {
        Tally {
            engines: settings
                .engines
                .iter()
                .map(|e| EngineTally {
                    name: e.name.clone(),
                    ..EngineTally::default()
                })
                .collect(),
            pairings: pairings(settings)
                .into_iter()
                .map(|(a, b)| PairTally {
                    a,
                    b,
                    ..PairTally::default()
                })
                .collect(),
            ..Tally::default()
        }
    }

    /// Counts a game.
    pub fn add(&mut self, spec: &GameSpec, winner: Option<Color>, kind: &str) {
        self.games += 1;
        *self.terminations.entry(kind.to_string()).or_default() += 1;
        let add = |t: &mut Trinomial, won: Option<bool>| match won {
            Some(true) => t.wins += 1,
            Some(false) => t.losses += 1,
            None => t.draws += 1,
        };
        let black_won = winner.map(|c| c == Color::Black);
        add(&mut self.engines[spec.black].as_black, black_won);
        add(
            &mut self.engines[spec.white].as_white,
            black_won.map(|b| !b),
        );
        let Some(p) = self.pairings.get_mut(spec.pairing) else {
            return;
        };
        let a_black = spec.black == p.a;
        let a_won = black_won.map(|b| b == a_black);
        add(&mut p.games, a_won);
        let half = match a_won {
            Some(true) => 2,
            Some(false) => 0,
            None => 1,
        };
        match p.pending.remove(&spec.pair) {
            Some(first) => p.pairs.add_pair(first, half),
            None => {
                p.pending.insert(spec.pair, half);
            }
        }
    }

    /// The SPRT's log-likelihood ratio and decision over the first pairing, under the test's
    /// model: the complete pairs (pentanomial) where the model can use them, the games
    /// (trinomial) otherwise.
    pub fn sprt(&self, sprt: &Sprt) -> (f64, Decision) {
        let llr = self
            .pairings
            .first()
            .map_or(0.0, |p| sprt.llr(&p.games, Some(&p.pairs)));
        (llr, sprt.decide(llr))
    }

    /// The summary (what `--format json` prints).
    pub fn summary(&self, settings: &Settings, stopped_by_sprt: bool) -> Summary {
        let mut sorted = self.overheads_us.clone();
        sorted.sort_unstable();
        let pct = |q: f64| -> Option<u64> {
            if sorted.is_empty() {
                return None;
            }
            let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
            sorted.get(i).copied()
        };
        Summary {
            games: self.games,
            engines: self
                .engines
                .iter()
                .map(|e| {
                    let t = e.total();
                    EngineSummary {
                        name: e.name.clone(),
                        games: t.games(),
                        wins: t.wins,
                        losses: t.losses,
                        draws: t.draws,
                        score: t.score(),
                        as_black: e.as_black,
                        as_white: e.as_white,
                    }
                })
                .collect(),
            pairings: self
                .pairings
                .iter()
                .map(|p| {
                    let t = p.games;
                    let (lo, hi) = t.elo_interval();
                    PairSummary {
                        first: self.engines[p.a].name.clone(),
                        second: self.engines[p.b].name.clone(),
                        games: t.games(),
                        wins: t.wins,
                        losses: t.losses,
                        draws: t.draws,
                        score: t.score(),
                        elo: Figure(t.elo()),
                        elo_low: Figure(lo),
                        elo_high: Figure(hi),
                        elo_margin: Figure(t.elo_margin()),
                        los: t.los(),
                        draw_rate: t.draw_rate(),
                        normalized_elo: Figure(t.normalized_elo()),
                        normalized_elo_margin: Figure(t.normalized_elo_margin()),
                        pairs: p.pairs.pairs(),
                        pentanomial: p.pairs.counts,
                        pair_elo: Figure(p.pairs.elo()),
                        pair_elo_margin: Figure(p.pairs.elo_margin()),
                    }
                })
                .collect(),
            sprt: settings.sprt.map(|s| {
                let (llr, decision) = self.sprt(&s);
                SprtSummary {
                    elo0: s.elo0,
                    elo1: s.elo1,
                    alpha: s.alpha,
                    beta: s.beta,
                    model: s.model.describe(true),
                    llr,
                    lower_bound: s.lower_bound(),
                    upper_bound: s.upper_bound(),
                    decision,
                }
            }),
            stopped_by_sprt,
            terminations: self.terminations.clone(),
            overhead_us_median: pct(0.5),
            overhead_us_p99: pct(0.99),
            overhead_us_p999: pct(0.999),
            overhead_us_max: sorted.last().copied(),
            overhead_samples: sorted.len(),
        }
    }
}

/// One engine's results.
#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    /// Name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Won.
    pub wins: u64,
    /// Lost.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// Score per game.
    pub score: f64,
    /// As sente.
    pub as_black: Trinomial,
    /// As gote.
    pub as_white: Trinomial,
}

/// One pairing's results, the first engine's view.
#[derive(Clone, Debug, Serialize)]
pub struct PairSummary {
    /// First engine.
    pub first: String,
    /// Second engine.
    pub second: String,
    /// Games.
    pub games: u64,
    /// First's wins.
    pub wins: u64,
    /// First's losses.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// First's score.
    pub score: f64,
    /// Elo difference (±∞ after a perfect score: `"inf"`/`"-inf"` in JSON).
    pub elo: Figure,
    /// 95 % interval, low end.
    pub elo_low: Figure,
    /// 95 % interval, high end.
    pub elo_high: Figure,
    /// Half the interval (`nan` when an end is infinite and the other too).
    pub elo_margin: Figure,
    /// Likelihood of superiority (fastchess's formula).
    pub los: f64,
    /// Share of draws.
    pub draw_rate: f64,
    /// Normalized Elo (`nan` without variance at an even score: all draws).
    pub normalized_elo: Figure,
    /// Its 95 % margin.
    pub normalized_elo_margin: Figure,
    /// Complete pairs.
    pub pairs: u64,
    /// Pairs by score: LL, LD, WL+DD, WD, WW.
    pub pentanomial: [u64; 5],
    /// Elo over pairs.
    pub pair_elo: Figure,
    /// Its margin.
    pub pair_elo_margin: Figure,
}

/// The SPRT state.
#[derive(Clone, Debug, Serialize)]
pub struct SprtSummary {
    /// H0, normalized Elo.
    pub elo0: f64,
    /// H1, normalized Elo.
    pub elo1: f64,
    /// Alpha.
    pub alpha: f64,
    /// Beta.
    pub beta: f64,
    /// The model.
    pub model: &'static str,
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound.
    pub lower_bound: f64,
    /// Upper bound.
    pub upper_bound: f64,
    /// The decision.
    pub decision: Decision,
}

/// The match's results.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Games counted.
    pub games: u64,
    /// Per engine.
    pub engines: Vec<EngineSummary>,
    /// Per pairing.
    pub pairings: Vec<PairSummary>,
    /// The SPRT, when asked for.
    pub sprt: Option<SprtSummary>,
    /// Whether the SPRT ended the match.
    pub stopped_by_sprt: bool,
    /// How games ended.
    pub terminations: BTreeMap<String, u64>,
    /// Median overhead per move (bestmove read → next go written), µs.
    pub overhead_us_median: Option<u64>,
    /// Its 99th percentile.
    pub overhead_us_p99: Option<u64>,
    /// Its 99.9th percentile.
    pub overhead_us_p999: Option<u64>,
    /// The largest.
    pub overhead_us_max: Option<u64>,
    /// Moves measured.
    pub overhead_samples: usize,
}

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
            tally.add(
                &f.spec,
                f.outcome.winner,
                &termination_kind(&f.outcome.termination),
            );
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

/// A worker's engines: idle processes per engine index.
struct Stable {
    idle: Vec<Vec<Engine>>,
}

impl Stable {
    /// An engine of index `i` ready for a new game, or why there is none.
    fn take(&mut self, settings: &Settings, i: usize) -> Result<Engine, String> {
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

/// Plays one game between two engines (either may have failed to start).
// About 110 lines: one loop, a move an iteration (restart a stale engine, write the search,
// judge its answer); the judging is in `judge_search` and `judge_engine_error`.
fn play(
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
                if judge_engine_error(&mut referee, &clock, side, &e) {
                    continue;
                }
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

/// Judges a finished search of `side`'s engine: its time goes on the clock (over the limit:
/// lost on time, and false is returned), its answer to the referee with the move's time,
/// evaluation, PV and `notes`.
fn judge_search(
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
    let answer = match search.bestmove {
        BestMove::Move(m) => Answer::Move(m.to_usi()),
        BestMove::Resign => Answer::Resign,
        BestMove::Win(_) => Answer::Win,
    };
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
/// engine's answer (true when the referee lets the game go on: the caller asks again), a
/// timeout waiting for `bestmove` loses on time, anything else ends the game as the engine's
/// failure, with its last line.
fn judge_engine_error(referee: &mut Referee, clock: &Clock, side: Color, e: &EngineError) -> bool {
    match &e.kind {
        EngineErrorKind::IllegalMove { text, .. } => {
            // Our referee judges it (and names the rule) the same way.
            let info = MoveInfo::default();
            if referee.answer(&Answer::Move(text.clone()), info).is_none() {
                return true;
            }
        }
        EngineErrorKind::Timeout {
            waiting_for: "bestmove",
            after,
        } => {
            let last_info = e
                .last_lines()
                .iter()
                .rev()
                .find(|l| l.text.starts_with("info"))
                .map(|l| l.text.clone());
            referee.fail(Termination::TimeUp {
                elapsed_ms: after.as_millis() as u64,
                allowed_ms: clock.allowed(side),
                no_answer: true,
                last_info,
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
    false
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

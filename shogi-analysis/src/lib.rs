//! Batch analysis of game records with a USI engine, as a library: `shogi analyze` and
//! Python's `shogitk.analyze` are front ends of [`run`].
//!
//! An analysis reads the selected games of its inputs, gathers their distinct searches (a
//! position, or in [`AnalyzeMode::Game`] a position with the game's moves before it), takes
//! what the cache holds, searches the rest on a pool of engines (each search from a fresh
//! engine state, so a result depends on the position, the engine, its options and the limit
//! alone), and hands the per-ply table to an [`Observer`] game by game in input order, as soon
//! as a game's positions are all known. Each row is a typed [`PlyRow`]; the summaries are
//! [`SummaryRow`]s; what went wrong is an [`AnalysisError`] (nothing could run) or a
//! [`Message`] (a game or a position failed, the rest went on).
//!
//! ```no_run
//! use shogi_analysis::{Collect, EngineSettings, Settings, run};
//! use shogi_batch::{Reading, expand};
//! use shogi_usi::Limit;
//!
//! let inputs = expand(&["games"]).expect("a folder of records");
//! let settings = Settings {
//!     engine: Some(EngineSettings::new("/usr/games/fairy-stockfish", Limit::nodes(10_000))),
//!     ..Settings::default()
//! };
//! let mut rows = Collect::default();
//! let report = run(&settings, &inputs, &Reading::default(), &mut rows).expect("started");
//! for row in &rows.rows {
//!     println!("{} {:?} {:?} {:?}", row.path, row.ply, row.mv, row.class);
//! }
//! println!("{} games, {} searched", report.games, report.searched);
//! ```

mod annotate;
pub mod cache;
pub mod classify;
mod engines;
mod error;
pub mod graph;
mod read;
pub mod result;
mod rows;
mod slots;

pub use annotate::{canonical_inputs, overwrites, svg_path};
pub use classify::{Class, Classifier};
pub use error::{AnalysisError, Parameter};
pub use result::PosResult;
pub use rows::{COLUMNS, PlyRow, SUMMARY_COLUMNS, SummaryRow};
pub use slots::AnalyzeMode;

use annotate::Annotator;
use engines::{plan_searches, refuse_mini, search_positions, start_engines};
use read::{GameIn, read_games};
use rows::{GameRows, Summaries};
use shogi_batch::{DedupMode, Input, Reading, Selection};
use shogi_kif::notation::Notation;
use shogi_usi::Limit;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The engine of an analysis and how it searches.
#[derive(Clone, Debug)]
pub struct EngineSettings {
    /// The engine program.
    pub program: PathBuf,
    /// Arguments given to the program.
    pub args: Vec<String>,
    /// USI options, `(name, value)` (a button with an empty value). `UCI_Variant` is refused:
    /// each position's variant decides it.
    pub options: Vec<(String, String)>,
    /// The engine's `Threads` (1 by default).
    pub threads: u32,
    /// The limit of each search.
    pub limit: Limit,
    /// How long `usiok` and `readyok` may take (the engine layer's default when `None`).
    pub start_timeout: Option<Duration>,
    /// How long past the limit a `bestmove` may take (the engine layer's default when `None`).
    pub search_timeout: Option<Duration>,
}

impl EngineSettings {
    /// `program` with no arguments or options, one thread, searching to `limit`.
    pub fn new(program: impl Into<PathBuf>, limit: Limit) -> EngineSettings {
        EngineSettings {
            program: program.into(),
            args: Vec::new(),
            options: Vec::new(),
            threads: 1,
            limit,
            start_timeout: None,
            search_timeout: None,
        }
    }
}

/// What to analyse and how.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The engine; `None` with [`Settings::from_comments`] (or to list the games' moves with
    /// no evaluation).
    pub engine: Option<EngineSettings>,
    /// Principal variations asked of the engine (at least 1).
    pub multipv: u32,
    /// How positions are sent.
    pub mode: AnalyzeMode,
    /// Engines run at once, and reading threads (at least 1).
    pub jobs: usize,
    /// The cache file (SQLite), made when missing. With no engine (and not
    /// [`Settings::from_comments`]) the results are read from it alone: its one
    /// configuration of this multipv and mode (a merged cache: [`cache::merge_caches`]);
    /// a position it does not hold is a failed position.
    pub cache: Option<PathBuf>,
    /// Take the evaluations from the records' comments instead of an engine.
    pub from_comments: bool,
    /// Win rates, losses and classes.
    pub classifier: Classifier,
    /// The notation of the `move` and `best` columns.
    pub notation: Notation,
    /// Write each game's annotated copy (and graph) into this folder.
    pub annotate_dir: Option<PathBuf>,
    /// The graphs' vertical axis (centipawns clamped to ±2000 by default).
    pub graph: graph::View,
    /// Make the summaries ([`Report::summaries`]).
    pub summary: bool,
    /// Which games to analyse.
    pub selection: Selection,
    /// Leave out copies of a game.
    pub dedup: Option<DedupMode>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            engine: None,
            multipv: 1,
            mode: AnalyzeMode::Position,
            jobs: 1,
            cache: None,
            from_comments: false,
            classifier: Classifier::default(),
            notation: Notation::Japanese,
            annotate_dir: None,
            graph: graph::View::Centipawns { range: 2000 },
            summary: false,
            selection: Selection::default(),
            dedup: None,
        }
    }
}

impl Settings {
    /// Checks every setting's range (what [`run`] checks before it reads anything).
    pub fn check(&self) -> Result<(), AnalysisError> {
        use AnalysisError as E;
        self.classifier.check()?;
        if self.multipv == 0 {
            return Err(E::setting(Parameter::Multipv, "must be at least 1"));
        }
        if self.jobs == 0 {
            return Err(E::setting(Parameter::Jobs, "must be at least 1"));
        }
        if let Some(e) = &self.engine {
            if e.options
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("UCI_Variant"))
            {
                return Err(E::setting(
                    Parameter::Option,
                    "UCI_Variant: the variant follows each position (a Mini Shogi position is \
                     searched by a process playing Mini Shogi alone); leave it out",
                ));
            }
            let l = &e.limit;
            if l.nodes.is_none() && l.depth.is_none() && l.movetime.is_none() && l.byoyomi.is_none()
            {
                return Err(E::setting(
                    Parameter::Limit,
                    "give one: nodes, depth, movetime or byoyomi",
                ));
            }
            for (t, p) in [
                (e.start_timeout, Parameter::StartTimeout),
                (e.search_timeout, Parameter::SearchTimeout),
            ] {
                if t.is_some_and(|t| t.is_zero()) {
                    return Err(E::setting(p, "must be a positive number of seconds"));
                }
            }
        }
        Ok(())
    }
}

/// A message for the user beside the table: an error of part of the work (the rest went on)
/// or a note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// Something failed (an engine, the cache, an annotated copy, a Mini Shogi game refused).
    Error(String),
    /// Something worth knowing (what the cache file holds that is not used…).
    Note(String),
}

/// The stages an [`Observer`] sees progress of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading the inputs (counted in inputs).
    Reading,
    /// Searching positions (counted in searches).
    Searching,
}

/// Where an analysis's results go, as they come.
pub trait Observer {
    /// One row of the per-ply table, in input order; breaking stops the analysis (the
    /// searches under way finish, nothing more is searched).
    fn row(&mut self, row: &PlyRow) -> ControlFlow<()>;
    /// A message (by default dropped).
    fn message(&mut self, message: Message) {
        let _ = message;
    }
    /// `done` of `total` units of `stage` are done (by default ignored).
    fn progress(&mut self, stage: Stage, done: u64, total: u64) {
        let _ = (stage, done, total);
    }
    /// `stage` is over (by default ignored).
    fn stage_done(&mut self, stage: Stage) {
        let _ = stage;
    }
}

/// An [`Observer`] that keeps every row and message.
#[derive(Default, Debug)]
pub struct Collect {
    /// The rows, in order.
    pub rows: Vec<PlyRow>,
    /// The messages, in order.
    pub messages: Vec<Message>,
}

impl Observer for Collect {
    fn row(&mut self, row: &PlyRow) -> ControlFlow<()> {
        self.rows.push(row.clone());
        ControlFlow::Continue(())
    }

    fn message(&mut self, message: Message) {
        self.messages.push(message);
    }
}

/// What an analysis did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Inputs read.
    pub files: usize,
    /// Games analysed (selected, without the copies left out).
    pub games: usize,
    /// Positions in them.
    pub positions: usize,
    /// Games with a failure (unreadable, a position without a result…).
    pub failed_games: u64,
    /// Distinct searches.
    pub distinct: usize,
    /// Searches run.
    pub searched: u64,
    /// Results taken from the cache.
    pub from_cache: u64,
    /// Searches that failed.
    pub failed_positions: usize,
    /// The cache's rows and the most times one position was searched.
    pub cache_counts: Option<(u64, u64)>,
    /// An input could not be read.
    pub io_failed: bool,
    /// Annotated copies or graphs not written, and why.
    pub annotate_errors: Vec<String>,
    /// The first error writing the cache.
    pub cache_error: Option<String>,
    /// The engine's `id name` (empty without an engine).
    pub engine: String,
    /// The summaries ([`Settings::summary`]): each game's two sides in input order, then each
    /// player by name.
    pub summaries: Vec<SummaryRow>,
    /// Wall time.
    pub elapsed: Duration,
}

impl Report {
    /// Whether something failed that the caller should report as a failure: a game, an
    /// annotated copy or the cache.
    pub fn failed(&self) -> bool {
        self.failed_games > 0 || !self.annotate_errors.is_empty() || self.cache_error.is_some()
    }
}

/// The games waiting for their positions' results, given to the observer in input order as
/// soon as the next one is complete.
struct Ready<'a> {
    games: Vec<GameIn>,
    /// Each game's slots (see [`slots::distinct`]).
    game_slots: Vec<Vec<usize>>,
    /// The next game to write.
    next: usize,
    from_comments: bool,
    writer: GameRows<'a>,
}

impl Ready<'_> {
    /// Gives every game, from the next one on, whose positions all have a result.
    fn write(&mut self, results: &[Option<PosResult>], observer: &mut dyn Observer) {
        while self.next < self.games.len() && !self.writer.stopped {
            let s = &self.game_slots[self.next];
            let g = &mut self.games[self.next];
            let per: Vec<Option<&PosResult>> = if self.from_comments {
                g.from_comments.iter().map(Option::as_ref).collect()
            } else if s.iter().all(|&i| results[i].is_some()) {
                s.iter().map(|&i| results[i].as_ref()).collect()
            } else {
                return;
            };
            self.writer.game(g, &per, observer);
            // The game's record is no longer needed.
            g.record = None;
            self.next += 1;
        }
    }
}

/// Analyses the games of `inputs` (already expanded and sharded), read as `reading` says:
/// reads them, gathers their distinct searches, starts the engines (and the cache), searches
/// what the cache lacks, and gives each game's rows to `observer` as soon as all of its
/// positions have a result.
///
/// An `Err` means nothing was searched (a setting out of range, the engine could not start,
/// the cache cannot be used, an annotated copy would replace an input); failures of single
/// games, positions or copies are in the rows, the [`Message`]s and the [`Report`].
pub fn run(
    settings: &Settings,
    inputs: &[Input],
    reading: &Reading<'_>,
    observer: &mut dyn Observer,
) -> Result<Report, AnalysisError> {
    let started = Instant::now();
    settings.check()?;
    let read_pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs)
        .build()
        .map_err(|e| AnalysisError::setting(Parameter::Jobs, format!("cannot start: {e}")))?;
    let input_set = canonical_inputs(inputs);
    if let Some(dir) = &settings.annotate_dir {
        annotate::check_annotate_dir(dir, inputs, &input_set)?;
    }
    let (mut games, io_failed) = read_games(settings, inputs, reading, &read_pool, observer);
    let (slots, game_slots) = slots::distinct(&games, settings.from_comments, settings.mode);
    let mut results: Vec<Option<PosResult>> = vec![None; slots.len()];
    let engine = settings.engine.as_ref().filter(|_| !settings.from_comments);
    let mut engines = match engine {
        Some(e) => Some(start_engines(settings, e, &games, slots.len())?),
        None => None,
    };
    for note in engines.iter().flat_map(|e| &e.cache_notes) {
        observer.message(Message::Note(
            note.strip_prefix("note: ").unwrap_or(note).to_string(),
        ));
    }
    let mini_refused = engines.as_ref().and_then(|e| e.mini_refused.clone());
    if let Some(msg) = &mini_refused {
        refuse_mini(&mut games, msg, observer);
    }
    let cache = engines.as_ref().and_then(|e| e.cache.as_ref());
    let (todo, from_cache) = plan_searches(
        &games,
        &game_slots,
        &slots,
        &mut results,
        mini_refused.as_deref(),
        cache,
    )?;

    let (mut engine_name, mut from_cache) = (
        engines
            .as_ref()
            .map_or_else(String::new, |e| e.name.clone()),
        from_cache,
    );
    // No engine, a cache: the table from the cache alone (a merged cluster run's).
    if let (None, false, Some(path)) = (&engines, settings.from_comments, &settings.cache) {
        (engine_name, from_cache) =
            engines::results_from_cache(path, settings, &slots, &mut results)?;
    }
    let writer = GameRows {
        classifier: &settings.classifier,
        notation: settings.notation,
        engine: engine_name.clone(),
        annotator: settings.annotate_dir.as_deref().map(|dir| Annotator {
            dir,
            classifier: &settings.classifier,
            engine: &engine_name,
            inputs: &input_set,
            view: settings.graph,
        }),
        summaries: settings.summary.then(Summaries::default),
        failed_games: 0,
        annotate_errors: Vec::new(),
        stopped: false,
    };
    let mut ready = Ready {
        games,
        game_slots,
        next: 0,
        from_comments: settings.from_comments,
        writer,
    };
    ready.write(&results, observer);

    let searched = match (engines.as_mut(), engine) {
        (Some(e), Some(es)) => {
            let searched = search_positions(
                e,
                &es.limit,
                &todo,
                &slots,
                &mut results,
                |results, done, total| {
                    observer.progress(Stage::Searching, done, total);
                    ready.write(results, observer);
                    if ready.writer.stopped {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            );
            observer.stage_done(Stage::Searching);
            searched
        }
        _ => engines::Searched::default(),
    };
    ready.write(&results, observer);
    let Ready { games, writer, .. } = ready;
    let cache = engines.as_ref().and_then(|e| e.cache.as_ref());
    let cache_counts = cache.and_then(|c| c.counts().ok());
    if let Some(n) = cache.map(cache::Cache::unreadable).filter(|&n| n > 0) {
        observer.message(Message::Note(format!(
            "{n} cached result(s) could not be read and were searched again"
        )));
    }
    if let Some(e) = engines {
        for e in e.pool.into_engines() {
            e.quit();
        }
    }
    for e in &searched.engine_errors {
        observer.message(Message::Error(e.clone()));
    }
    let summaries = writer
        .summaries
        .map(|s| s.games.into_iter().chain(s.players.into_values()).collect())
        .unwrap_or_default();
    Ok(Report {
        files: inputs.len(),
        games: games.len(),
        positions: games.iter().map(|g| g.positions.len()).sum(),
        failed_games: writer.failed_games,
        distinct: slots.len(),
        searched: searched.count,
        from_cache,
        failed_positions: results
            .iter()
            .filter(|r| r.as_ref().is_some_and(|r| r.error.is_some()))
            .count(),
        cache_counts,
        io_failed,
        annotate_errors: writer.annotate_errors,
        cache_error: searched.cache_error,
        engine: engine_name.clone(),
        summaries,
        elapsed: started.elapsed(),
    })
}

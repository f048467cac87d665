//! `shogi analyze`: a USI engine's judgement of every move of every game the selection keeps,
//! as a per-ply table (CSV or JSON lines), a summary per game, side and player, annotated
//! records and evaluation graphs; or the same table from the evaluations records already
//! carry (`--from-comments`, no engine).
//!
//! The analysis itself is the library shogi-analysis ([`shogi_analysis::run`]); this module
//! turns the command line into its [`Settings`], writes its typed rows as CSV or JSON lines,
//! draws the progress bars, and words its errors and messages with the command's flags.

use crate::args::{InputArgs, NotationArg};
use crate::batch::{SelectArgs, ShardArgs};
use crate::ctx::{Ctx, Failure};
use crate::progress::Progress;
use shogi_analysis::graph::View;
use shogi_analysis::{
    AnalysisError, AnalyzeMode, Classifier, EngineSettings, Message, Observer, Parameter, PlyRow,
    Report, Settings, Stage,
};
use shogi_kif::notation::Notation;
use shogi_usi::{EngineErrorKind, Limit};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

pub use shogi_analysis::{COLUMNS, SUMMARY_COLUMNS};

/// Output formats of `shogi analyze`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AnalyzeFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// `--mode`: how positions are sent to the engine ([`AnalyzeMode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ModeArg {
    /// Each position alone (`position sfen …`): a result depends on the position only.
    Position,
    /// Each position with the game's moves before it: the engine sees repetitions.
    Game,
}

impl From<ModeArg> for AnalyzeMode {
    fn from(m: ModeArg) -> AnalyzeMode {
        match m {
            ModeArg::Position => AnalyzeMode::Position,
            ModeArg::Game => AnalyzeMode::Game,
        }
    }
}

/// `--graph`: the graphs' vertical axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GraphArg {
    /// Centipawns, clamped to ±2000.
    Cp,
    /// Sente's win probability.
    Win,
}

/// Arguments of `shogi analyze`.
#[derive(clap::Args)]
#[command(
    after_help = "Columns (see the README): path, game, ply, side, move_usi, move, best_usi, best, \
best_cp, best_mate, played_cp, played_mate (the mover's view), best_cp_sente, best_mate_sente, \
played_cp_sente, played_mate_sente (sente's view), win_before, win_after, loss, class, pv, depth, nodes, \
engine, error. Mate columns hold signed plies: 5 = mates in 5, -4 = mated in 4, -0 = mated now, \
+0 = has mated, + / - = mate at an unknown distance.\n\
Exit status: 0 when every game was analysed, 1 when any game or position could not be, 2 on usage \
or I/O errors (a missing engine, an engine that does not start, a refused option).\n\n\
Examples:\n  shogi analyze samples/game.kif --engine /usr/games/fairy-stockfish --nodes 1000 -o moves.csv\n  \
shogi analyze samples/ --engine /usr/games/fairy-stockfish --nodes 1000 --jobs 2 --cache analysis.sqlite --annotate-dir annotated/\n  \
shogi analyze samples/game.kif --engine /usr/games/fairy-stockfish --nodes 1000 --summary\n  shogi analyze samples/ --from-comments\n  \
shogi analyze samples/game.kif --engine /usr/games/fairy-stockfish --nodes 1000 --cache w1.sqlite -o w1.csv && \
shogi analyze --merge-cache w1.sqlite -o merged.sqlite && shogi analyze samples/game.kif --cache merged.sqlite"
)]
pub struct AnalyzeArgs {
    /// Files or directories (walked recursively); `-` reads stdin.
    #[arg(required_unless_present = "merge_cache")]
    pub paths: Vec<String>,
    #[command(flatten)]
    pub input: InputArgs,
    /// The USI engine program (without it, --cache alone gives the results: a merged cache's).
    #[arg(long, value_name = "PATH", required_unless_present_any = ["from_comments", "cache", "merge_cache"])]
    pub engine: Option<PathBuf>,
    /// Merge these caches (each worker's of a cluster run) into the new file given by -o, and
    /// nothing else: they must hold results of one engine configuration, and a position in
    /// several must have the same result in each. Then `--cache MERGED` without --engine gives
    /// the table.
    #[arg(long, value_name = "CACHE", num_args = 1.., requires = "output",
          conflicts_with_all = ["engine", "from_comments", "cache"])]
    pub merge_cache: Vec<PathBuf>,
    /// An argument for the engine program (repeatable).
    #[arg(long = "engine-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub engine_args: Vec<String>,
    /// How long one search may take before the engine is called hung, restarted and the
    /// position tried once more: seconds beyond the limit's own time (--movetime, --byoyomi),
    /// or in all for --nodes and --depth (default 120).
    #[arg(long, value_name = "SECS")]
    pub search_timeout: Option<f64>,
    /// How long the engine may take to start (`usiok`, then `readyok`), in seconds (default
    /// 10 and 30).
    #[arg(long, value_name = "SECS")]
    pub start_timeout: Option<f64>,
    /// An engine option, checked against the ones it offers (repeatable): `--option Hash=64`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The engine's `Threads` (when it offers the option; default 1, for reproducible results).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: u32,
    /// Search each position to N nodes (`go nodes`).
    #[arg(long, value_name = "N", group = "limit")]
    pub nodes: Option<u64>,
    /// Search each position to depth N (`go depth`).
    #[arg(long, value_name = "N", group = "limit")]
    pub depth: Option<u32>,
    /// Search each position for MS milliseconds (`go movetime`).
    #[arg(long, value_name = "MS", group = "limit")]
    pub movetime: Option<u64>,
    /// Search each position with a byoyomi of MS milliseconds and no main time
    /// (`go btime 0 wtime 0 byoyomi MS`: the one limit gpsusi accepts).
    #[arg(long, value_name = "MS", group = "limit")]
    pub byoyomi: Option<u64>,
    /// How positions are sent: `position`, each alone (a result depends on the position
    /// only, and a position met in several games is searched once), or `game`, each with the
    /// game's moves before it as ShogiHome sends them, so the engine sees repetitions (a
    /// result then depends on the game up to that position; a shared prefix is searched once).
    /// Each search starts from a fresh engine state either way.
    #[arg(long, value_enum, default_value_t = ModeArg::Position)]
    pub mode: ModeArg,
    /// Lines searched per position (`MultiPV`); the table shows the best, JSON lines all.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub multipv: u32,
    /// Engines run in parallel (one process each; default 1). Reading uses as many threads.
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// The cache (SQLite): results are stored as they arrive and reused by later runs with the
    /// same engine, options and limit.
    #[arg(long, value_name = "FILE")]
    pub cache: Option<PathBuf>,
    /// Print one row per game and side, and per player, instead of the per-ply table.
    #[arg(long)]
    pub summary: bool,
    /// Write each record again into DIR (same path below it, same format) with the engine's
    /// judgement as comments, and an SVG evaluation graph beside it (NAME.svg: `game.kif.svg`).
    #[arg(long, value_name = "DIR")]
    pub annotate_dir: Option<PathBuf>,
    /// The vertical axis of the graphs beside annotated copies: `cp` (centipawns, clamped to
    /// ±2000) or `win` (sente's win probability by --sigmoid). Mistakes and blunders are marked
    /// either way.
    #[arg(long, value_enum, default_value_t = GraphArg::Cp)]
    pub graph: GraphArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AnalyzeFormat::Csv)]
    pub format: AnalyzeFormat,
    /// Write to this file instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The notation of the `move` and `best` columns.
    #[arg(long, value_enum, default_value_t = NotationArg::Japanese)]
    pub notation: NotationArg,
    /// No engine: the table from the evaluations the records carry (ShogiHome `#評価値`/`*評価値`
    /// comments, Floodgate `'**` comments).
    #[arg(long, conflicts_with_all = ["engine", "cache", "nodes", "depth", "movetime", "byoyomi"])]
    pub from_comments: bool,
    /// The logistic's scale in centipawns: win% = 100 / (1 + exp(-cp / C)).
    #[arg(long, value_name = "C", default_value_t = 600.0)]
    pub sigmoid: f64,
    /// A mate counts as this many centipawns for win% and graphs.
    #[arg(long, value_name = "CP", default_value_t = shogi_usi::Score::MATE_CP)]
    pub mate_cp: i32,
    /// Loss of win% (points) from which a move is an inaccuracy (緩手).
    #[arg(long, value_name = "PCT", default_value_t = 5.0)]
    pub inaccuracy: f64,
    /// Loss from which a move is dubious (疑問手).
    #[arg(long, value_name = "PCT", default_value_t = 10.0)]
    pub dubious: f64,
    /// Loss from which a move is a mistake (悪手).
    #[arg(long, value_name = "PCT", default_value_t = 20.0)]
    pub mistake: f64,
    /// Loss from which a move is a blunder (大悪手).
    #[arg(long, value_name = "PCT", default_value_t = 50.0)]
    pub blunder: f64,
    #[command(flatten)]
    pub shard: ShardArgs,
    #[command(flatten)]
    pub select: SelectArgs,
}

/// The limit of the command line (`None` when none was given: [`Settings::check`] says so).
fn limit(args: &AnalyzeArgs) -> Limit {
    let mut l = Limit::default();
    if let Some(n) = args.nodes {
        l.nodes = Some(n);
    } else if let Some(d) = args.depth {
        l.depth = Some(d);
    } else if let Some(ms) = args.movetime {
        l.movetime = Some(Duration::from_millis(ms));
    } else if let Some(ms) = args.byoyomi {
        l.btime = Some(Duration::ZERO);
        l.wtime = Some(Duration::ZERO);
        l.byoyomi = Some(Duration::from_millis(ms));
    }
    l
}

/// `NAME=VALUE` pairs (a button takes `NAME` alone).
fn options(args: &AnalyzeArgs) -> Vec<(String, String)> {
    args.options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((n, v)) => (n.trim().to_string(), v.trim().to_string()),
            None => (o.trim().to_string(), String::new()),
        })
        .collect()
}

/// Seconds of a timeout flag, checked (a duration cannot be negative or NaN).
fn seconds(t: Option<f64>, flag: &str) -> Result<Option<Duration>, Failure> {
    match t {
        None => Ok(None),
        Some(t) if t.is_finite() && t > 0.0 => Ok(Some(Duration::from_secs_f64(t))),
        Some(_) => Err(Failure::usage(format!(
            "error: {flag} must be a positive number of seconds"
        ))),
    }
}

/// The library's settings of the command line.
fn settings(args: &AnalyzeArgs) -> Result<Settings, Failure> {
    let engine = match &args.engine {
        Some(program) if !args.from_comments => Some(EngineSettings {
            program: program.clone(),
            args: args.engine_args.clone(),
            options: options(args),
            threads: args.threads,
            limit: limit(args),
            start_timeout: seconds(args.start_timeout, "--start-timeout")?,
            search_timeout: seconds(args.search_timeout, "--search-timeout")?,
        }),
        _ => None,
    };
    Ok(Settings {
        engine,
        multipv: args.multipv,
        mode: args.mode.into(),
        jobs: args.jobs.unwrap_or(1),
        cache: args.cache.clone(),
        from_comments: args.from_comments,
        classifier: Classifier {
            coefficient: args.sigmoid,
            mate_cp: args.mate_cp,
            thresholds: [args.inaccuracy, args.dubious, args.mistake, args.blunder],
        },
        notation: Notation::from(args.notation),
        annotate_dir: args.annotate_dir.clone(),
        graph: match args.graph {
            GraphArg::Cp => View::Centipawns { range: 2000 },
            GraphArg::Win => View::WinRate {
                coefficient: args.sigmoid,
            },
        },
        summary: args.summary,
        selection: args.select.selection()?,
        dedup: args.select.dedup()?,
    })
}

/// The library's error in the command line's words (exit 2).
fn failure(e: AnalysisError, args: &AnalyzeArgs) -> Failure {
    let flag = |p: Parameter| match p {
        Parameter::Limit => "a limit",
        Parameter::Option => "--option",
        Parameter::Multipv => "--multipv",
        Parameter::Jobs => "--jobs",
        Parameter::StartTimeout => "--start-timeout",
        Parameter::SearchTimeout => "--search-timeout",
        Parameter::Sigmoid => "--sigmoid",
        Parameter::Thresholds => "--inaccuracy < --dubious < --mistake < --blunder",
        Parameter::AnnotateDir => "--annotate-dir",
    };
    Failure::usage(match e {
        AnalysisError::Setting {
            parameter: Parameter::Limit,
            ..
        } => "error: give a limit: --nodes N, --depth N, --movetime MS or --byoyomi MS".into(),
        AnalysisError::Setting { parameter, message } => {
            format!("error: {} {message}", flag(parameter))
        }
        AnalysisError::Engine { program, error }
            if matches!(error.kind, EngineErrorKind::Unsupported(_)) && args.multipv > 1 =>
        {
            format!("error: --multipv: {} ({error})", program.display())
        }
        AnalysisError::Engine { program, error } => {
            format!(
                "error: cannot start the engine {}: {error}",
                program.display()
            )
        }
        AnalysisError::Cache(m) => format!("error: {m}"),
        AnalysisError::Overwrite { path, input } => format!(
            "error: --annotate-dir {}: writing {} would overwrite the input {input}",
            args.annotate_dir
                .as_deref()
                .unwrap_or(std::path::Path::new(""))
                .display(),
            path.display()
        ),
    })
}

/// Where the rows go: CSV or JSON lines, the messages on stderr, the progress bars.
struct Sink<'a> {
    csv: Option<csv::Writer<Box<dyn Write + 'a>>>,
    out: Option<Box<dyn Write + 'a>>,
    summary: bool,
    error: Option<std::io::Error>,
    stderr: &'a mut dyn Write,
    reading: Progress,
    searching: Progress,
}

impl<'a> Sink<'a> {
    fn new(
        out: Box<dyn Write + 'a>,
        format: AnalyzeFormat,
        summary: bool,
        stderr: &'a mut dyn Write,
        progress: bool,
    ) -> Sink<'a> {
        let (csv, out) = match format {
            AnalyzeFormat::Csv => (Some(csv::Writer::from_writer(out)), None),
            AnalyzeFormat::Jsonl => (None, Some(out)),
        };
        Sink {
            csv,
            out,
            summary,
            error: None,
            stderr,
            reading: Progress::new(progress, "reading", "files"),
            searching: Progress::new(progress, "analyze", "positions"),
        }
    }

    fn put<T: serde::Serialize>(&mut self, row: &T) {
        if self.error.is_some() {
            return;
        }
        let r = match (&mut self.csv, &mut self.out) {
            (Some(w), _) => w.serialize(row).map_err(std::io::Error::other),
            (None, Some(w)) => serde_json::to_writer(&mut *w, row)
                .map_err(std::io::Error::other)
                .and_then(|()| w.write_all(b"\n")),
            (None, None) => Ok(()),
        };
        if let Err(e) = r {
            self.error = Some(e);
        }
    }

    /// Writes the summaries (with `--summary`) and flushes.
    fn finish(mut self, report: &Report) -> Result<(), Failure> {
        if self.summary {
            for row in &report.summaries {
                self.put(row);
            }
        }
        let flushed = match (&mut self.csv, &mut self.out) {
            (Some(w), _) => w.flush(),
            (None, Some(w)) => w.flush(),
            (None, None) => Ok(()),
        };
        if let Err(e) = flushed {
            self.error.get_or_insert(e);
        }
        match self.error {
            Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::usage(format!(
                "error: cannot write the output: {e}"
            ))),
            _ => Ok(()),
        }
    }
}

impl Observer for Sink<'_> {
    fn row(&mut self, row: &PlyRow) -> ControlFlow<()> {
        if !self.summary {
            self.put(row);
        }
        if self.error.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn message(&mut self, message: Message) {
        let _ = match message {
            Message::Error(m) => writeln!(self.stderr, "error: {m}"),
            Message::Note(m) => writeln!(self.stderr, "note: {m}"),
        };
    }

    fn progress(&mut self, stage: Stage, done: u64, total: u64) {
        match stage {
            Stage::Reading => self.reading.set(done, total),
            Stage::Searching => self.searching.set(done, total),
        }
    }

    fn stage_done(&mut self, stage: Stage) {
        match stage {
            Stage::Reading => self.reading.finish(),
            Stage::Searching => self.searching.finish(),
        }
    }
}

/// Runs `shogi analyze`: the library's analysis with the command line's settings, rows
/// written as they come, then the errors and the closing line on stderr.
pub fn run(args: &AnalyzeArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    if !args.merge_cache.is_empty() {
        return merge(args, ctx);
    }
    let settings = settings(args)?;
    settings.check().map_err(|e| failure(e, args))?;
    let inputs = crate::inputs::expand(&args.paths)?;
    let inputs = args.shard.apply(inputs)?;
    if let Some(path) = &args.output {
        if shogi_analysis::overwrites(path, &shogi_analysis::canonical_inputs(&inputs)) {
            return Err(Failure::usage(format!(
                "error: -o {}: that is one of the inputs",
                path.display()
            )));
        }
    }
    let reading = crate::inputs::reading(&args.input, true, &ctx.stdin);
    let out = crate::inputs::output(args.output.as_deref(), &mut *ctx.stdout)?;
    let mut sink = Sink::new(
        out,
        args.format,
        args.summary,
        &mut *ctx.stderr,
        ctx.options.progress,
    );
    let report = shogi_analysis::run(&settings, &inputs, &reading, &mut sink)
        .map_err(|e| failure(e, args))?;
    let written = sink.finish(&report);
    for e in &report.annotate_errors {
        let _ = writeln!(ctx.stderr, "error: {e}");
    }
    if let Some(e) = &report.cache_error {
        let _ = writeln!(ctx.stderr, "error: {e}");
    }
    written?;
    closing_line(&report, args.from_comments, ctx.stderr);
    // 2 when an input could not be read, 1 when a game, an annotated copy or the cache failed.
    crate::driver::status(report.io_failed, report.failed())
}

/// `--merge-cache A B … -o MERGED`: the caches merged into a new file.
fn merge(args: &AnalyzeArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let Some(output) = &args.output else {
        return Err(Failure::usage(
            "error: --merge-cache needs -o MERGED".to_string(),
        ));
    };
    if !args.paths.is_empty() {
        return Err(Failure::usage(format!(
            "error: --merge-cache takes caches only; {} is not merged (give the records to a later `--cache {}` run)",
            args.paths[0],
            output.display()
        )));
    }
    let merged = shogi_analysis::cache::merge_caches(&args.merge_cache, output)
        .map_err(|e| Failure::usage(format!("error: --merge-cache: {e}")))?;
    let _ = writeln!(
        ctx.stderr,
        "merged {} cache(s) into {}: {} results read, {} distinct positions (engine {}, {})",
        args.merge_cache.len(),
        output.display(),
        merged.read,
        merged.positions,
        merged.key.engine,
        merged.key.limit
    );
    Ok(())
}

/// The closing line on stderr.
fn closing_line(r: &Report, from_comments: bool, stderr: &mut dyn Write) {
    let (files, n, positions, searched) = (r.files, r.games, r.positions, r.searched);
    let secs = r.elapsed.as_secs_f64();
    let analysed = n as u64 - r.failed_games;
    let _ = if from_comments {
        writeln!(
            stderr,
            "read {n} game(s) in {files} file(s) from their comments: {analysed} complete, {} with a failure ({positions} positions, {secs:.2}s)",
            r.failed_games
        )
    } else {
        writeln!(
            stderr,
            "analysed {n} game(s) in {files} file(s): {analysed} complete, {} with a failure; {} distinct positions: {searched} searched, {} from the cache, {} failed ({secs:.2}s, {:.1} searches/s){}",
            r.failed_games,
            r.distinct,
            r.from_cache,
            r.failed_positions,
            searched as f64 / secs.max(1e-9),
            r.cache_counts.map_or(String::new(), |(rows, most)| format!(
                "; cache: {rows} results, each searched at most {most} time(s)"
            ))
        )
    };
}

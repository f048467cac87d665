//! `shogi analyze`: a USI engine's judgement of every move of every game the selection keeps,
//! as a per-ply table (CSV or JSON lines), a summary per game, side and player, annotated
//! records and evaluation graphs; or the same table from the evaluations records already
//! carry (`--from-comments`, no engine).
//!
//! The work: read every game (shogi-batch, in parallel, in input order), list the positions of
//! each main line, take those the cache knows, search the others once each (a shared opening
//! is searched once) on a pool of engines (shogi-usi, results in input order), store each
//! result as it arrives, and write each game's rows as soon as all its positions are known.

pub mod cache;
pub mod classify;
pub mod graph;
pub mod result;
mod rows;
mod slots;

use crate::args::{InputArgs, NotationArg};
use crate::batch::{SelectArgs, ShardArgs};
use crate::ctx::{Ctx, Failure};
use crate::pool::jobs_pool;
use crate::progress::Progress;
use cache::{Cache, CacheKey, program_build};
use classify::Classifier;
use result::PosResult;
use rows::{GameRows, Sink};
use shogi_batch::{DedupMode, Event, GameRow, Input, InputRecord, Selection};
use shogi_core::{Move, Position, Variant};
use shogi_kif::Record;
use shogi_kif::notation::Notation;
use shogi_usi::{BestMove, Engine, EngineError, Limit, OptionKind, Pool, Score, StartOptions};
pub use slots::AnalyzeMode;
use slots::Slot;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The columns of the per-ply table, in order (the CSV header).
pub const COLUMNS: &[&str] = &[
    "path",
    "game",
    "ply",
    "side",
    "move_usi",
    "move",
    "best_usi",
    "best",
    "best_cp",
    "best_mate",
    "played_cp",
    "played_mate",
    "best_cp_sente",
    "best_mate_sente",
    "played_cp_sente",
    "played_mate_sente",
    "win_before",
    "win_after",
    "loss",
    "class",
    "pv",
    "depth",
    "nodes",
    "engine",
    "error",
];

/// The columns of `--summary`, in order.
pub const SUMMARY_COLUMNS: &[&str] = &[
    "scope",
    "path",
    "game",
    "side",
    "player",
    "games",
    "moves",
    "judged",
    "average_loss",
    "best",
    "good",
    "inaccuracy",
    "dubious",
    "mistake",
    "blunder",
    "max_loss",
    "max_loss_ply",
];

/// Output formats of `shogi analyze`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AnalyzeFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON object per line.
    Jsonl,
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
shogi analyze samples/game.kif --engine /usr/games/fairy-stockfish --nodes 1000 --summary\n  shogi analyze samples/ --from-comments"
)]
pub struct AnalyzeArgs {
    /// Files or directories (walked recursively); `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<String>,
    #[command(flatten)]
    pub input: InputArgs,
    /// The USI engine program.
    #[arg(long, value_name = "PATH", required_unless_present = "from_comments")]
    pub engine: Option<PathBuf>,
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
    #[arg(long, value_enum, default_value_t = AnalyzeMode::Position)]
    pub mode: AnalyzeMode,
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
    #[arg(long, value_name = "CP", default_value_t = Score::MATE_CP)]
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

/// One game as read, with what the analysis needs.
#[derive(Default)]
pub(crate) struct GameIn {
    pub path: String,
    pub rel: PathBuf,
    pub index: u32,
    pub format: Option<shogi_kif::Format>,
    pub encoding: Option<shogi_kif::Encoding>,
    /// The positions of the main line (start first), up to a read error or foul.
    pub positions: Vec<Position>,
    /// The moves between them.
    pub moves: Vec<Move>,
    /// Why the game (or its rest) could not be read, and from which ply.
    pub error: Option<(Option<u32>, String)>,
    /// The players (sente, gote).
    pub players: [Option<String>; 2],
    /// The record, for annotation.
    pub record: Option<Record>,
    /// Results read from the comments (`--from-comments`), per position.
    pub from_comments: Vec<Option<PosResult>>,
}

/// What a reading worker hands back.
struct Read {
    game: GameIn,
    keep: bool,
    key: u64,
    line: Option<String>,
    io: bool,
}

/// The game's positions, moves and (with `comments`) the evaluations its comments carry.
fn game_in(input: &Input, game: InputRecord, keep_record: bool, comments: bool) -> GameIn {
    let mut g = GameIn {
        path: input.name.clone(),
        rel: input.rel.clone(),
        index: game.index,
        format: game.format,
        encoding: game.encoding,
        positions: Vec::new(),
        moves: Vec::new(),
        error: game.error.as_ref().map(|e| {
            (
                e.ply,
                e.to_string().lines().next().unwrap_or("").to_string(),
            )
        }),
        players: [None, None],
        record: None,
        from_comments: Vec::new(),
    };
    let Some(record) = game.record else {
        return g;
    };
    g.players = [
        record.header.black().map(str::to_string),
        record.header.white().map(str::to_string),
    ];
    let mut pos = record.start_position().clone();
    g.positions.push(pos.clone());
    for node in record.main_line() {
        if node.foul.is_some() || pos.play(node.mv).is_err() {
            break;
        }
        g.moves.push(node.mv);
        g.positions.push(pos.clone());
    }
    if comments {
        let mut per: Vec<Option<PosResult>> = vec![None; g.positions.len()];
        for e in shogi_kif::eval::evaluations(&record) {
            let k = e.ply as usize;
            let Some(p) = g.positions.get(k) else {
                continue;
            };
            per[k] = Some(PosResult {
                best: e.pv_usi.first().cloned(),
                score: e
                    .score
                    .map(|s| s.to_view(shogi_core::Color::Black, p.side_to_move())),
                pv: e.pv_usi.clone(),
                depth: e.depth,
                nodes: e.nodes,
                others: Vec::new(),
                warning: e.engine.map(|n| format!("engine={n}")),
                error: None,
            });
        }
        g.from_comments = per;
    }
    if keep_record {
        g.record = Some(record);
    }
    g
}

fn read_one(
    input: &Input,
    game: InputRecord,
    selection: &Selection,
    dedup: Option<DedupMode>,
    keep_record: bool,
    comments: bool,
) -> Read {
    let io = game
        .error
        .as_ref()
        .is_some_and(|e| e.kind == shogi_kif::ErrorKind::Io);
    let mut row = GameRow::new(&input.name, &game);
    if let Some(rules) = selection.tag_rules() {
        row.set_tags(&game, rules, false);
    }
    let keep = selection.matches(&row, |want| game.reached(want));
    let (key, line) = match &game.record {
        Some(rec) if keep && dedup.is_some() => (
            shogi_batch::game_key(rec),
            (dedup == Some(DedupMode::Prefix)).then(|| shogi_batch::line_text(rec)),
        ),
        _ => (0, None),
    };
    let game = if keep {
        game_in(input, game, keep_record, comments)
    } else {
        // Not kept: nothing of it is needed.
        GameIn::default()
    };
    Read {
        game,
        keep,
        key,
        line,
        io,
    }
}

/// The limit of the command line.
fn limit(args: &AnalyzeArgs) -> Result<Limit, Failure> {
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
    } else {
        return Err(Failure::usage(
            "error: give a limit: --nodes N, --depth N, --movetime MS or --byoyomi MS",
        ));
    }
    Ok(l)
}

/// `NAME=VALUE` pairs (a button takes `NAME` alone).
///
/// `UCI_Variant` is refused: each position's variant decides it, in a process that plays
/// that variant alone ([`shogi_usi::Engine::set_variant`]).
fn options(args: &AnalyzeArgs) -> Result<Vec<(String, String)>, Failure> {
    let pairs: Vec<(String, String)> = args
        .options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((n, v)) => (n.trim().to_string(), v.trim().to_string()),
            None => (o.trim().to_string(), String::new()),
        })
        .collect();
    if pairs
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("UCI_Variant"))
    {
        return Err(Failure::usage(
            "error: --option UCI_Variant: the variant follows each position (a Mini Shogi \
             position is searched by a process playing Mini Shogi alone); leave it out",
        ));
    }
    Ok(pairs)
}

/// Every option the engine offered at its default, overridden by those set and marked `(set)`:
/// the option part of the cache key (buttons left out). An option set to its default value is
/// not the same as one left alone: fairy-stockfish 11.1 searches differently once
/// `UCI_Variant` has been set, even to its default.
fn option_key(engine: &Engine) -> String {
    let applied: HashMap<String, Option<String>> = engine
        .applied_options()
        .iter()
        .map(|(n, v)| (n.to_ascii_lowercase(), v.clone()))
        .collect();
    let mut lines: Vec<String> = engine
        .options()
        .iter()
        .filter(|o| !matches!(o.kind, OptionKind::Button))
        .map(|o| {
            let default = match &o.kind {
                OptionKind::Check { default } => default.map(|b| b.to_string()),
                OptionKind::Spin { default, .. } => default.map(|v| v.to_string()),
                OptionKind::Combo { default, .. }
                | OptionKind::String { default }
                | OptionKind::Filename { default } => default.clone(),
                OptionKind::Button => None,
            };
            match applied.get(&o.name.to_ascii_lowercase()) {
                Some(set) => format!("{}={} (set)", o.name, set.clone().unwrap_or_default()),
                None => format!("{}={}", o.name, default.unwrap_or_default()),
            }
        })
        .collect();
    // Options set without being offered (none today, but a key must not miss them).
    for (n, v) in engine.applied_options() {
        if !engine
            .options()
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(n))
        {
            lines.push(format!("{n}={} (set)", v.clone().unwrap_or_default()));
        }
    }
    lines.sort();
    lines.join("\n")
}

/// Whether the engine can play Mini Shogi (a `UCI_Variant` combo offering `minishogi`).
fn plays_mini(engine: &Engine) -> bool {
    engine.options().iter().any(|o| {
        o.name.eq_ignore_ascii_case("UCI_Variant")
            && matches!(&o.kind, OptionKind::Combo { vars, .. } if vars.iter().any(|v| v == "minishogi"))
    })
}

/// The first line of an engine error (the table's error column); the whole text goes to
/// stderr.
fn short(e: &EngineError) -> String {
    e.to_string().lines().next().unwrap_or("").to_string()
}

/// One search, as a result (the engine gives itself a fresh state first: the pool's engines
/// are started with [`StartOptions::fresh_state`]).
fn analyse(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    limit: &Limit,
) -> (PosResult, Option<String>) {
    match engine.search_with_retry(start, moves, limit) {
        Ok(s) => {
            let best = match s.bestmove {
                BestMove::Move(m) => m.to_usi(),
                BestMove::Resign => "resign".into(),
                BestMove::Win(_) => "win".into(),
            };
            let line = s.best_line();
            let mut warnings: Vec<String> = Vec::new();
            if let Some(first) = &s.retried {
                warnings.push(format!("restarted after: {}", short(first)));
            }
            if let Some(cut) = line.and_then(|l| l.pv_cut.as_ref()) {
                warnings.push(format!(
                    "pv cut at move {} ({}): {}",
                    cut.index + 1,
                    cut.text,
                    cut.reason
                ));
            }
            let others = s
                .lines
                .iter()
                .skip(1)
                .map(|l| {
                    (
                        l.score.map(|p| p.relative()),
                        l.pv.iter().map(|m| m.to_usi()).collect(),
                    )
                })
                .collect();
            let r = PosResult {
                best: Some(best),
                score: s.score().map(|p| p.relative()),
                pv: line
                    .map(|l| l.pv.iter().map(|m| m.to_usi()).collect())
                    .unwrap_or_default(),
                depth: line.and_then(|l| l.depth),
                nodes: s.nodes.or_else(|| line.and_then(|l| l.nodes)),
                others,
                warning: (!warnings.is_empty()).then(|| warnings.join("; ")),
                error: None,
            };
            (r, None)
        }
        Err(e) => (
            PosResult {
                error: Some(short(&e)),
                ..PosResult::default()
            },
            Some(e.to_string()),
        ),
    }
}

/// Where the annotated copy of a game goes, and its format.
fn annotated_path(dir: &Path, g: &GameIn) -> (PathBuf, shogi_kif::Format) {
    use shogi_kif::Format;
    let format = match g.format {
        Some(f @ (Format::Kif | Format::Ki2 | Format::Csa | Format::Jkf)) => f,
        _ => Format::Kif,
    };
    let mut p = dir.join(&g.rel);
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into());
    let ext = p
        .extension()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|e| shogi_kif::Format::from_extension(e) == Some(format))
        .unwrap_or_else(|| format.name().to_string());
    let name = if g.index > 1 {
        format!("{stem}-{}.{ext}", g.index)
    } else {
        format!("{stem}.{ext}")
    };
    p.set_file_name(name);
    (p, format)
}

/// The graph beside an annotated record: its name with `.svg` added (`game.kif.svg`), so
/// that `game.kif` and `game.csa` get a graph each.
pub(crate) fn svg_path(record: &Path) -> PathBuf {
    let mut s = record.as_os_str().to_os_string();
    s.push(".svg");
    PathBuf::from(s)
}

/// The canonical paths of the inputs (to refuse overwriting one).
fn canonical_inputs(inputs: &[Input]) -> HashSet<PathBuf> {
    inputs
        .iter()
        .filter_map(|i| i.path.as_ref())
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect()
}

/// Whether writing `out` would replace one of `inputs`.
fn overwrites(out: &Path, inputs: &HashSet<PathBuf>) -> bool {
    if let Ok(c) = std::fs::canonicalize(out) {
        return inputs.contains(&c);
    }
    // Not there yet: compare through the folder.
    match (out.parent(), out.file_name()) {
        (Some(parent), Some(name)) => {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            std::fs::canonicalize(parent).is_ok_and(|p| inputs.contains(&p.join(name)))
        }
        _ => false,
    }
}

/// Runs `shogi analyze`: read the games, gather their distinct positions, start the engines
/// (and the cache), search what the cache lacks, and write each game as soon as all of its
/// positions have a result.
// About 120 lines on purpose: the pipeline's steps in order, each one call, sharing the
// games, the slots and the results; the state the search callback writes with is `Ready`.
pub fn run(args: &AnalyzeArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let started = Instant::now();
    let classifier = checked_classifier(args)?;
    let limit = (!args.from_comments).then(|| limit(args)).transpose()?;
    let selection = args.select.selection()?;
    let dedup = args.select.dedup()?;
    let inputs = crate::inputs::expand(&args.paths)?;
    let inputs = args.shard.apply(inputs)?;
    let jobs = args.jobs.unwrap_or(1);
    let read_pool = jobs_pool(Some(jobs))?;
    let input_set = canonical_inputs(&inputs);
    check_outputs(args, &inputs, &input_set)?;

    let (mut games, io_failed) = read_games(args, ctx, &inputs, &read_pool, &selection, dedup);
    let (slots, game_slots) = slots::distinct(&games, args.from_comments, args.mode);
    let mut results: Vec<Option<PosResult>> = vec![None; slots.len()];
    let mut engines = match (&args.engine, &limit) {
        (Some(path), Some(limit)) => {
            Some(start_engines(args, path, limit, &games, jobs, slots.len())?)
        }
        _ => None,
    };
    for note in engines.iter().flat_map(|e| &e.cache_notes) {
        let _ = writeln!(ctx.stderr, "{note}");
    }
    let mini_refused = engines.as_ref().and_then(|e| e.mini_refused.clone());
    if let Some(msg) = &mini_refused {
        refuse_mini(&mut games, msg, ctx.stderr);
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

    // Output, game by game as their positions complete.
    let out = crate::inputs::output(args.output.as_deref(), &mut *ctx.stdout)?;
    let sink = Sink::new(out, args.format, args.summary);
    let writer = GameRows {
        classifier,
        notation: Notation::from(args.notation),
        engine: engines
            .as_ref()
            .map_or_else(String::new, |e| e.name.clone()),
        annotate: args.annotate_dir.clone(),
        inputs: input_set,
        failed_games: 0,
        annotate_errors: Vec::new(),
    };
    let mut ready = Ready {
        games,
        game_slots,
        next: 0,
        from_comments: args.from_comments,
        sink,
        writer,
    };
    ready.write(&results);

    let searched = match (engines.as_mut(), &limit) {
        (Some(e), Some(limit)) => {
            let jobs = Search {
                limit,
                todo: &todo,
                slots: &slots,
                progress: ctx.options.progress,
            };
            search_positions(e, &jobs, &mut results, |results| {
                ready.write(results);
                if ready.sink.failed() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
        }
        _ => Searched::default(),
    };
    ready.write(&results);
    let Ready {
        games,
        sink,
        writer,
        ..
    } = ready;
    let searches_max = engines
        .as_ref()
        .and_then(|e| e.cache.as_ref())
        .and_then(|c| c.counts().ok());
    if let Some(n) = engines
        .as_ref()
        .and_then(|e| e.cache.as_ref())
        .map(Cache::unreadable)
        .filter(|&n| n > 0)
    {
        let _ = writeln!(
            ctx.stderr,
            "note: {n} cached result(s) could not be read and were searched again"
        );
    }
    if let Some(e) = engines {
        for e in e.pool.into_engines() {
            e.quit();
        }
    }
    let write_result = sink.finish();
    let errors = searched.engine_errors.iter().map(|e| e.to_string());
    let errors = errors.chain(writer.annotate_errors.iter().map(|e| format!("error: {e}")));
    let errors = errors.chain(searched.cache_error.iter().map(|e| format!("error: {e}")));
    for e in errors {
        let _ = writeln!(ctx.stderr, "{e}");
    }
    write_result?;
    let tally = Tally {
        files: inputs.len(),
        games: &games,
        failed_games: writer.failed_games,
        distinct: slots.len(),
        searched: searched.count,
        from_cache,
        failed_positions: results
            .iter()
            .filter(|r| r.as_ref().is_some_and(|r| r.error.is_some()))
            .count(),
        searches_max,
        secs: started.elapsed().as_secs_f64(),
    };
    report(&tally, args.from_comments, ctx.stderr);
    let failed = writer.failed_games > 0
        || !writer.annotate_errors.is_empty()
        || searched.cache_error.is_some();
    // 2 when an input could not be read, 1 when a game, an annotated copy or the cache failed.
    crate::driver::status(io_failed, failed)
}

/// The classifier of the command line, checked, with the other counts that must be positive.
fn checked_classifier(args: &AnalyzeArgs) -> Result<Classifier, Failure> {
    let classifier = Classifier {
        coefficient: args.sigmoid,
        mate_cp: args.mate_cp,
        thresholds: [args.inaccuracy, args.dubious, args.mistake, args.blunder],
    };
    classifier
        .check()
        .map_err(|e| Failure::usage(format!("error: {e}")))?;
    if args.multipv == 0 {
        return Err(Failure::usage("error: --multipv must be at least 1"));
    }
    if args.jobs == Some(0) {
        return Err(Failure::usage("error: --jobs must be at least 1"));
    }
    Ok(classifier)
}

/// Refuses outputs that would overwrite an input: an annotated copy (or its graph) in
/// `--annotate-dir`, or `-o`.
fn check_outputs(
    args: &AnalyzeArgs,
    inputs: &[Input],
    input_set: &HashSet<PathBuf>,
) -> Result<(), Failure> {
    if let Some(dir) = &args.annotate_dir {
        for i in inputs {
            let probe = GameIn {
                rel: i.rel.clone(),
                index: 1,
                format: i.path.as_deref().and_then(shogi_kif::Format::from_path),
                ..GameIn::default()
            };
            let (p, _) = annotated_path(dir, &probe);
            if overwrites(&p, input_set) || overwrites(&svg_path(&p), input_set) {
                return Err(Failure::usage(format!(
                    "error: --annotate-dir {}: writing {} would overwrite the input {}",
                    dir.display(),
                    p.display(),
                    i.name
                )));
            }
        }
    }
    if let Some(path) = &args.output {
        if overwrites(path, input_set) {
            return Err(Failure::usage(format!(
                "error: -o {}: that is one of the inputs",
                path.display()
            )));
        }
    }
    Ok(())
}

/// Reads every selected game in input order, without the copies `--dedup` drops; and whether
/// an input could not be read.
fn read_games(
    args: &AnalyzeArgs,
    ctx: &Ctx,
    inputs: &[Input],
    read_pool: &rayon::ThreadPool,
    selection: &Selection,
    dedup: Option<DedupMode>,
) -> (Vec<GameIn>, bool) {
    let reading = crate::inputs::reading(&args.input, true, &ctx.stdin);
    let keep_record = args.annotate_dir.is_some();
    let mut games: Vec<GameIn> = Vec::new();
    let mut io_failed = false;
    let mut exact = shogi_batch::Dedup::new();
    let mut held_lines: Vec<String> = Vec::new();
    let progress_read = Progress::new(ctx.options.progress, "reading", "files");
    let total_inputs = inputs.len() as u64;
    let _ = shogi_batch::run(
        inputs,
        &reading,
        read_pool,
        |input, game| {
            read_one(
                input,
                game,
                selection,
                dedup,
                keep_record,
                args.from_comments,
            )
        },
        |_, event| {
            match event {
                Event::InputDone => progress_read.inc(total_inputs),
                Event::Game(r) => {
                    io_failed |= r.io;
                    if !r.keep {
                        return ControlFlow::Continue(());
                    }
                    match dedup {
                        Some(DedupMode::Exact)
                            if r.game.record.is_some() || !r.game.positions.is_empty() =>
                        {
                            let id = format!("{}#{}", r.game.path, r.game.index);
                            if r.game.error.is_none() && exact.check(r.key, &id).is_some() {
                                return ControlFlow::Continue(());
                            }
                        }
                        Some(DedupMode::Prefix) => {
                            held_lines.push(r.line.unwrap_or_else(|| {
                                format!("\u{0}{}#{}", r.game.path, r.game.index)
                            }));
                        }
                        _ => {}
                    }
                    games.push(r.game);
                }
            }
            ControlFlow::Continue(())
        },
    );
    progress_read.finish();
    if dedup == Some(DedupMode::Prefix) {
        let dups = shogi_batch::duplicates(&held_lines, DedupMode::Prefix);
        games = games
            .into_iter()
            .zip(dups)
            .filter(|(_, d)| d.is_none())
            .map(|(g, _)| g)
            .collect();
    }
    (games, io_failed)
}

/// The started engines and what was learnt from the first: its name, why it cannot play Mini
/// Shogi, and the cache opened for it with the notes on what the file holds that is not used.
struct Engines {
    pool: Pool,
    name: String,
    mini_refused: Option<String>,
    cache: Option<Cache>,
    cache_notes: Vec<String>,
}

/// Starts `min(jobs, positions)` engines from `path` with the command line's options and
/// timeouts (in Mini Shogi when every game is Mini Shogi), and opens the cache.
fn start_engines(
    args: &AnalyzeArgs,
    path: &Path,
    limit: &Limit,
    games: &[GameIn],
    jobs: usize,
    positions: usize,
) -> Result<Engines, Failure> {
    let mut start = StartOptions {
        options: options(args)?,
        threads: Some(args.threads),
        fresh_state: true,
        ..StartOptions::default()
    };
    let seconds = |t: f64, flag: &str| -> Result<Duration, Failure> {
        if t.is_finite() && t > 0.0 {
            Ok(Duration::from_secs_f64(t))
        } else {
            Err(Failure::usage(format!(
                "error: {flag} must be a positive number of seconds"
            )))
        }
    };
    if let Some(t) = args.start_timeout {
        let t = seconds(t, "--start-timeout")?;
        start.timeouts.usiok = t;
        start.timeouts.readyok = t;
    }
    if let Some(t) = args.search_timeout {
        let t = seconds(t, "--search-timeout")?;
        start.timeouts.search_unbounded = t;
        start.timeouts.search_margin = t;
    }
    if games.iter().all(|g| {
        g.positions
            .first()
            .is_none_or(|p| p.variant() == Variant::Mini)
    }) && games.iter().any(|g| !g.positions.is_empty())
    {
        start.variant = Variant::Mini;
    }
    let mut pool = Pool::start(jobs.min(positions.max(1)), path, &args.engine_args, &start)
        .map_err(|e| {
            Failure::usage(format!(
                "error: cannot start the engine {}: {e}",
                path.display()
            ))
        })?;
    if args.multipv > 1 {
        for e in pool.engines_mut() {
            e.set_multipv(args.multipv)
                .map_err(|e| Failure::usage(format!("error: --multipv: {e}")))?;
        }
    }
    let first = &pool.engines()[0];
    let name = first.name();
    let mini_refused = (!plays_mini(first)).then(|| {
        format!(
            "the engine {name} cannot play Mini Shogi (it offers no UCI_Variant option with minishogi)"
        )
    });
    let (cache, cache_notes) = match &args.cache {
        Some(file) => {
            let key = CacheKey {
                engine: name.clone(),
                build: program_build(path),
                options: option_key(first),
                limit: format!(
                    "{} multipv {} fresh {} mode {}",
                    limit.go_command(false),
                    args.multipv,
                    first.fresh_state(),
                    args.mode.name()
                ),
            };
            let (cache, notes) =
                Cache::open(file, &key).map_err(|e| Failure::usage(format!("error: {e}")))?;
            (Some(cache), notes)
        }
        None => (None, Vec::new()),
    };
    Ok(Engines {
        pool,
        name,
        mini_refused,
        cache,
        cache_notes,
    })
}

/// Whether game `g` is refused (a Mini Shogi game for an engine that cannot play it).
fn refused(g: &GameIn, mini_refused: Option<&str>) -> bool {
    mini_refused.is_some()
        && g.positions
            .first()
            .is_some_and(|p| p.variant() == Variant::Mini)
}

/// Marks every Mini Shogi game with the refusal `msg`, and says how many on stderr.
fn refuse_mini(games: &mut [GameIn], msg: &str, stderr: &mut dyn Write) {
    let mut count = 0;
    for g in games.iter_mut() {
        if refused(g, Some(msg)) {
            g.error = Some((None, msg.to_string()));
            count += 1;
        }
    }
    if count > 0 {
        let _ = writeln!(
            stderr,
            "error: {msg}: {count} Mini Shogi game(s) not analysed"
        );
    }
}

/// The slots to search: those of the games still to analyse that the cache does not hold
/// (the cache's results are put into `results`, and how many); a slot no game needs (all its
/// games refused) gets the refusal, so that its games complete.
fn plan_searches(
    games: &[GameIn],
    game_slots: &[Vec<usize>],
    slots: &[Slot],
    results: &mut [Option<PosResult>],
    mini_refused: Option<&str>,
    cache: Option<&Cache>,
) -> Result<(Vec<usize>, u64), Failure> {
    let mut needed = vec![false; slots.len()];
    for (g, s) in games.iter().zip(game_slots) {
        if !refused(g, mini_refused) {
            for &i in s {
                needed[i] = true;
            }
        }
    }
    let mut from_cache = 0u64;
    if let Some(c) = cache {
        for (i, slot) in slots.iter().enumerate() {
            if needed[i] {
                if let Some(r) = c
                    .get(&slot.key)
                    .map_err(|e| Failure::usage(format!("error: {e}")))?
                {
                    results[i] = Some(r);
                    from_cache += 1;
                }
            }
        }
    }
    let mut todo: Vec<usize> = (0..slots.len())
        .filter(|&i| needed[i] && results[i].is_none())
        .collect();
    // Standard positions first, then Mini Shogi: a worker's engine restarts once when the
    // variant changes (a process plays one variant), not at every switch.
    todo.sort_by_key(|&i| slots[i].position.variant() == Variant::Mini);
    for (i, n) in needed.iter().enumerate() {
        if !n {
            results[i] = Some(PosResult {
                error: mini_refused.map(str::to_string),
                ..PosResult::default()
            });
        }
    }
    Ok((todo, from_cache))
}

/// The games waiting for their positions' results, written in input order as soon as the
/// next one is complete.
struct Ready<'o> {
    games: Vec<GameIn>,
    /// Each game's slots (see [`distinct_positions`]).
    game_slots: Vec<Vec<usize>>,
    /// The next game to write.
    next: usize,
    from_comments: bool,
    sink: Sink<'o>,
    writer: GameRows,
}

impl Ready<'_> {
    /// Writes every game, from the next one on, whose positions all have a result.
    fn write(&mut self, results: &[Option<PosResult>]) {
        while self.next < self.games.len() {
            let s = &self.game_slots[self.next];
            let g = &mut self.games[self.next];
            let per: Vec<Option<&PosResult>> = if self.from_comments {
                g.from_comments.iter().map(Option::as_ref).collect()
            } else if s.iter().all(|&i| results[i].is_some()) {
                s.iter().map(|&i| results[i].as_ref()).collect()
            } else {
                return;
            };
            self.writer.game(g, &per, &mut self.sink);
            // The game's record is no longer needed.
            g.record = None;
            self.next += 1;
        }
    }
}

/// The searches to run: the limit, the slots to search (`todo`) among `slots`, and whether
/// to draw a progress bar.
struct Search<'a> {
    limit: &'a Limit,
    todo: &'a [usize],
    slots: &'a [Slot],
    progress: bool,
}

/// What the searches did: how many ran, the first engine failures in full, and the first
/// error writing the cache.
#[derive(Default)]
struct Searched {
    count: u64,
    engine_errors: Vec<String>,
    cache_error: Option<String>,
}

/// Searches the slots of `jobs` on the engine pool, each result into `results` (and the
/// cache); `after_each` is called with the results after each one and stops the searches by
/// breaking.
fn search_positions(
    e: &mut Engines,
    jobs: &Search,
    results: &mut [Option<PosResult>],
    mut after_each: impl FnMut(&[Option<PosResult>]) -> ControlFlow<()>,
) -> Searched {
    let total = jobs.todo.len() as u64;
    let progress = Progress::new(jobs.progress, "analyze", "positions");
    let mut done = Searched::default();
    let cache = e.cache.as_ref();
    let limit = jobs.limit;
    let _ = e.pool.run(
        jobs.todo.iter().map(|&i| (i, &jobs.slots[i])),
        |engine, (i, slot)| {
            let (start, moves) = slot.sent();
            let (r, full) = analyse(engine, start, moves, limit);
            (i, r, full)
        },
        |_, (i, r, full)| {
            done.count += 1;
            if let Some(full) = full {
                if done.engine_errors.len() < 5 {
                    done.engine_errors.push(full);
                }
            }
            if let Some(c) = cache {
                if let Err(e) = c.put(&jobs.slots[i].key, &r) {
                    done.cache_error.get_or_insert(e);
                }
            }
            results[i] = Some(r);
            progress.set(done.count, total);
            after_each(results)
        },
    );
    progress.finish();
    done
}

/// What the closing line of `shogi analyze` counts.
struct Tally<'a> {
    files: usize,
    games: &'a [GameIn],
    failed_games: u64,
    distinct: usize,
    searched: u64,
    from_cache: u64,
    failed_positions: usize,
    searches_max: Option<(u64, u64)>,
    secs: f64,
}

/// The closing line on stderr.
fn report(t: &Tally, from_comments: bool, stderr: &mut dyn Write) {
    let positions: usize = t.games.iter().map(|g| g.positions.len()).sum();
    let (files, n, secs, searched) = (t.files, t.games.len(), t.secs, t.searched);
    let analysed = n as u64 - t.failed_games;
    let _ = if from_comments {
        writeln!(
            stderr,
            "read {n} game(s) in {files} file(s) from their comments: {analysed} complete, {} with a failure ({positions} positions, {secs:.2}s)",
            t.failed_games
        )
    } else {
        writeln!(
            stderr,
            "analysed {n} game(s) in {files} file(s): {analysed} complete, {} with a failure; {} distinct positions: {searched} searched, {} from the cache, {} failed ({secs:.2}s, {:.1} searches/s){}",
            t.failed_games,
            t.distinct,
            t.from_cache,
            t.failed_positions,
            searched as f64 / secs.max(1e-9),
            t.searches_max.map_or(String::new(), |(rows, most)| format!(
                "; cache: {rows} results, each searched at most {most} time(s)"
            ))
        )
    };
}

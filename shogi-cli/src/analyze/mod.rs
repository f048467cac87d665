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

use crate::batch::{SelectArgs, ShardArgs};
use crate::cli::{InputArgs, NotationArg};
use crate::pool::jobs_pool;
use crate::progress::Progress;
use crate::{Ctx, Failure};
use cache::Cache;
use classify::Classifier;
use result::PosResult;
use rows::{GameRows, Sink};
use shogi_batch::{DedupMode, Event, GameRow, Input, InputRecord, Selection};
use shogi_core::{Move, Position, Variant};
use shogi_kif::Record;
use shogi_kif::notation::Notation;
use shogi_usi::{BestMove, Engine, EngineError, Limit, OptionKind, Pool, Score, StartOptions};
use std::collections::{HashMap, HashSet};
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
    #[arg(long, value_name = "CP", default_value_t = 30000)]
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

fn sente_to_relative(s: shogi_kif::eval::Score, turn: shogi_core::Color) -> Score {
    let sente = match s {
        shogi_kif::eval::Score::Cp(v) => Score::Cp(v),
        shogi_kif::eval::Score::Mate { winner, plies } => {
            let win = winner == shogi_core::Color::Black;
            match plies {
                Some(n) => {
                    let n = i32::try_from(n).unwrap_or(i32::MAX).max(1);
                    Score::Mate {
                        plies: if win { n } else { -n },
                    }
                }
                None => Score::MateUnknown { winning: win },
            }
        }
    };
    if turn == shogi_core::Color::Black {
        sente
    } else {
        sente.flip()
    }
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
                score: e.score.map(|s| sente_to_relative(s, p.side_to_move())),
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
    let row = GameRow::new(&input.name, &game);
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
fn options(args: &AnalyzeArgs) -> Vec<(String, String)> {
    args.options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((n, v)) => (n.trim().to_string(), v.trim().to_string()),
            None => (o.trim().to_string(), String::new()),
        })
        .collect()
}

/// Every option the engine offered at its default, overridden by those set: the option part
/// of the cache key (buttons left out).
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
            let value = applied
                .get(&o.name.to_ascii_lowercase())
                .cloned()
                .flatten()
                .or(default)
                .unwrap_or_default();
            format!("{}={value}", o.name)
        })
        .collect();
    // Options set without being offered (none today, but a key must not miss them).
    for (n, v) in engine.applied_options() {
        if !engine
            .options()
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(n))
        {
            lines.push(format!("{n}={}", v.clone().unwrap_or_default()));
        }
    }
    lines.sort();
    lines.join("\n")
}

/// The `Threads` value to set again before every search, when the engine offers `Threads`.
///
/// `usinewgame` does not give fairy-stockfish 11.1 a fresh state: it clears the hash and the
/// histories, but not the per-thread pawn and material tables, whose cached entries change
/// later evaluations (measured: 100 of 101 positions of two corpus games equal to a fresh
/// process after `usinewgame` alone, 101 of 101 when `Threads` is set again first, which
/// makes the engine build its search threads anew). gpsusi (`Thread`, saved as its default
/// when set) is left alone.
fn reset_threads(engine: &Engine, threads: u32) -> Option<String> {
    engine
        .options()
        .iter()
        .any(|o| o.name == "Threads")
        .then(|| threads.to_string())
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

/// One search, as a result. `threads`: the `Threads` value to set again before it (see
/// [`reset_threads`]).
fn analyse(
    engine: &mut Engine,
    pos: &Position,
    limit: &Limit,
    threads: Option<&str>,
) -> (PosResult, Option<String>) {
    if let Some(t) = threads {
        // An error here leaves the engine dead or refused: the search reports it.
        let _ = engine.set_option("Threads", t);
    }
    match engine.search_with_retry(pos, &[], limit) {
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

/// Runs `shogi analyze`.
pub fn run(args: &AnalyzeArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let started = Instant::now();
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
    let limit = if args.from_comments {
        None
    } else {
        Some(limit(args)?)
    };
    let selection = args.select.selection()?;
    let dedup = args.select.dedup()?;
    let inputs = crate::inputs::expand(&args.paths)?;
    let inputs = args.shard.apply(inputs)?;
    let jobs = args.jobs.unwrap_or(1);
    let read_pool = jobs_pool(Some(jobs))?;
    let input_set = canonical_inputs(&inputs);
    if let Some(dir) = &args.annotate_dir {
        for i in &inputs {
            let probe = GameIn {
                rel: i.rel.clone(),
                index: 1,
                format: i.path.as_deref().and_then(shogi_kif::Format::from_path),
                ..GameIn::default()
            };
            let (p, _) = annotated_path(dir, &probe);
            if overwrites(&p, &input_set) || overwrites(&svg_path(&p), &input_set) {
                return Err(Failure::usage(format!(
                    "error: --annotate-dir {}: writing {} would overwrite the input {}",
                    dir.display(),
                    p.display(),
                    i.name
                )));
            }
        }
    }
    if let (Some(path), true) = (&args.output, args.output.is_some()) {
        if overwrites(path, &input_set) {
            return Err(Failure::usage(format!(
                "error: -o {}: that is one of the inputs",
                path.display()
            )));
        }
    }

    // 1. Read every game.
    let reading = crate::inputs::reading(&args.input, true, &ctx.stdin);
    let keep_record = args.annotate_dir.is_some();
    let mut games: Vec<GameIn> = Vec::new();
    let mut io_failed = false;
    let mut exact = shogi_batch::Dedup::new();
    let mut held_lines: Vec<String> = Vec::new();
    let progress_read = Progress::new(ctx.options.progress, "reading", "files");
    let total_inputs = inputs.len() as u64;
    let _ = shogi_batch::run(
        &inputs,
        &reading,
        &read_pool,
        |input, game| {
            read_one(
                input,
                game,
                &selection,
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

    // 2. The positions: one slot per distinct position.
    let mut slot_of: HashMap<String, usize> = HashMap::new();
    let mut slots: Vec<(String, Position)> = Vec::new();
    let mut game_slots: Vec<Vec<usize>> = Vec::with_capacity(games.len());
    for g in &games {
        let mut v = Vec::with_capacity(g.positions.len());
        if !args.from_comments {
            for p in &g.positions {
                let sfen = p.to_sfen();
                let n = slots.len();
                let s = *slot_of.entry(sfen.clone()).or_insert(n);
                if s == n {
                    slots.push((sfen, p.clone()));
                }
                v.push(s);
            }
        }
        game_slots.push(v);
    }
    let mut results: Vec<Option<PosResult>> = vec![None; slots.len()];

    // 3. The engines, the cache.
    let mut pool = None;
    let mut engine_name = String::new();
    let mut cache = None;
    let mut mini_refused = None;
    let mut threads_reset = None;
    if let (Some(path), Some(limit)) = (&args.engine, &limit) {
        let mut start = StartOptions {
            options: options(args),
            threads: Some(args.threads),
            fresh_state: true,
            ..StartOptions::default()
        };
        if let Some(t) = args.start_timeout {
            if !(t.is_finite() && t > 0.0) {
                return Err(Failure::usage(
                    "error: --start-timeout must be a positive number of seconds",
                ));
            }
            start.timeouts.usiok = Duration::from_secs_f64(t);
            start.timeouts.readyok = Duration::from_secs_f64(t);
        }
        if let Some(t) = args.search_timeout {
            if !(t.is_finite() && t > 0.0) {
                return Err(Failure::usage(
                    "error: --search-timeout must be a positive number of seconds",
                ));
            }
            let t = Duration::from_secs_f64(t);
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
        let engines = jobs.min(slots.len().max(1));
        let mut p = Pool::start(engines, path, &args.engine_args, &start).map_err(|e| {
            Failure::usage(format!(
                "error: cannot start the engine {}: {e}",
                path.display()
            ))
        })?;
        if args.multipv > 1 {
            for e in p.engines_mut() {
                e.set_multipv(args.multipv)
                    .map_err(|e| Failure::usage(format!("error: --multipv: {e}")))?;
            }
        }
        let first = &p.engines()[0];
        engine_name = first.name();
        threads_reset = reset_threads(first, args.threads);
        if !plays_mini(first) {
            mini_refused = Some(format!(
                "the engine {engine_name} cannot play Mini Shogi (it offers no UCI_Variant option with minishogi)"
            ));
        }
        if let Some(file) = &args.cache {
            let lim = format!(
                "{} multipv {} fresh-state threads-reset",
                limit.go_command(false),
                args.multipv
            );
            cache = Some(
                Cache::open(file, &engine_name, &option_key(first), &lim)
                    .map_err(|e| Failure::usage(format!("error: {e}")))?,
            );
        }
        pool = Some(p);
    }
    if let Some(msg) = &mini_refused {
        let mut refused = 0;
        for g in &mut games {
            if g.positions
                .first()
                .is_some_and(|p| p.variant() == Variant::Mini)
            {
                g.error = Some((None, msg.clone()));
                refused += 1;
            }
        }
        if refused > 0 {
            let _ = writeln!(
                ctx.stderr,
                "error: {msg}: {refused} Mini Shogi game(s) not analysed"
            );
        }
    }
    // The slots to search: those of games still to analyse, not in the cache.
    let mut needed = vec![false; slots.len()];
    for (g, s) in games.iter().zip(&game_slots) {
        let refused = mini_refused.is_some()
            && g.positions
                .first()
                .is_some_and(|p| p.variant() == Variant::Mini);
        if !refused {
            for &i in s {
                needed[i] = true;
            }
        }
    }
    let mut from_cache = 0u64;
    if let Some(c) = &cache {
        for (i, (sfen, _)) in slots.iter().enumerate() {
            if needed[i] {
                if let Some(r) = c
                    .get(sfen)
                    .map_err(|e| Failure::usage(format!("error: {e}")))?
                {
                    results[i] = Some(r);
                    from_cache += 1;
                }
            }
        }
    }
    let todo: Vec<usize> = (0..slots.len())
        .filter(|&i| needed[i] && results[i].is_none())
        .collect();
    // A slot no game needs (refused) is filled with the refusal, so games complete.
    for (i, n) in needed.iter().enumerate() {
        if !n {
            results[i] = Some(PosResult {
                error: mini_refused.clone(),
                ..PosResult::default()
            });
        }
    }

    // 4. Output.
    let notation = Notation::from(args.notation);
    let out = crate::inputs::output(args.output.as_deref(), &mut *ctx.stdout)?;
    let mut sink = Sink::new(out, args.format, args.summary);
    let mut writer = GameRows {
        classifier,
        notation,
        engine: engine_name.clone(),
        annotate: args.annotate_dir.clone(),
        inputs: input_set,
        failed_games: 0,
        annotate_errors: Vec::new(),
    };
    let mut next_game = 0usize;
    let flush = |next_game: &mut usize,
                 results: &[Option<PosResult>],
                 games: &mut Vec<GameIn>,
                 sink: &mut Sink,
                 writer: &mut GameRows| {
        while *next_game < games.len() {
            let s = &game_slots[*next_game];
            let g = &mut games[*next_game];
            let per: Vec<Option<&PosResult>> = if args.from_comments {
                g.from_comments.iter().map(Option::as_ref).collect()
            } else if s.iter().all(|&i| results[i].is_some()) {
                s.iter().map(|&i| results[i].as_ref()).collect()
            } else {
                return;
            };
            writer.game(g, &per, sink);
            // The game's record is no longer needed.
            g.record = None;
            *next_game += 1;
        }
    };
    flush(&mut next_game, &results, &mut games, &mut sink, &mut writer);

    let total = todo.len() as u64;
    let progress = Progress::new(ctx.options.progress, "analyze", "positions");
    let mut searched = 0u64;
    let mut engine_errors: Vec<String> = Vec::new();
    let mut cache_error = None;
    if let (Some(pool), Some(limit)) = (pool.as_mut(), &limit) {
        let jobs_iter = todo.iter().map(|&i| (i, slots[i].1.clone()));
        let _ = pool.run(
            jobs_iter,
            |engine, (i, pos)| {
                let (r, full) = analyse(engine, &pos, limit, threads_reset.as_deref());
                (i, r, full)
            },
            |_, (i, r, full)| {
                searched += 1;
                if let Some(full) = full {
                    if engine_errors.len() < 5 {
                        engine_errors.push(full);
                    }
                }
                if let Some(c) = &cache {
                    if let Err(e) = c.put(&slots[i].0, &r) {
                        cache_error.get_or_insert(e);
                    }
                }
                results[i] = Some(r);
                progress.set(searched, total);
                flush(&mut next_game, &results, &mut games, &mut sink, &mut writer);
                if sink.failed() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
    }
    progress.finish();
    flush(&mut next_game, &results, &mut games, &mut sink, &mut writer);
    let searches_max = cache.as_ref().and_then(|c| c.counts().ok());
    if let Some(p) = pool {
        for e in p.into_engines() {
            e.quit();
        }
    }
    let write_result = sink.finish();
    for e in &engine_errors {
        let _ = writeln!(ctx.stderr, "{e}");
    }
    for e in &writer.annotate_errors {
        let _ = writeln!(ctx.stderr, "error: {e}");
    }
    if let Some(e) = &cache_error {
        let _ = writeln!(ctx.stderr, "error: {e}");
    }
    write_result?;
    let secs = started.elapsed().as_secs_f64();
    let positions: usize = games.iter().map(|g| g.positions.len()).sum();
    let files = inputs.len();
    let n = games.len();
    let analysed = n as u64 - writer.failed_games;
    let _ = if args.from_comments {
        writeln!(
            ctx.stderr,
            "read {n} game(s) in {files} file(s) from their comments: {analysed} complete, {} with a failure ({positions} positions, {secs:.2}s)",
            writer.failed_games
        )
    } else {
        writeln!(
            ctx.stderr,
            "analysed {n} game(s) in {files} file(s): {analysed} complete, {} with a failure; {} distinct positions: {searched} searched, {from_cache} from the cache, {} failed ({secs:.2}s, {:.1} searches/s){}",
            writer.failed_games,
            slots.len(),
            results
                .iter()
                .filter(|r| r.as_ref().is_some_and(|r| r.error.is_some()))
                .count(),
            searched as f64 / secs.max(1e-9),
            searches_max.map_or(String::new(), |(rows, most)| format!(
                "; cache: {rows} results, each searched at most {most} time(s)"
            ))
        )
    };
    if io_failed {
        Err(Failure::silent(2))
    } else if writer.failed_games > 0 || !writer.annotate_errors.is_empty() || cache_error.is_some()
    {
        Err(Failure::silent(1))
    } else {
        Ok(())
    }
}

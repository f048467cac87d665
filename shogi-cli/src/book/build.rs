//! `shogi book build` (a book from game records, the selection of `stats` applying) and
//! `shogi book backup` (peta_shock's back-up).

use super::files::{BookFormat, book_failure, book_writer};
use super::roots;
use super::sources;
use crate::args::InputArgs;
use crate::batch::SelectArgs;
use crate::ctx::{Ctx, Failure};
use crate::driver::{Batch, Handler, Plan, selected};
use shogi_batch::Input;
use shogi_book::{BuildOptions, Builder, WriteOptions};
use shogi_core::{Move, Position};
use shogi_train::GameResult;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Arguments of `shogi book build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Record files or folders (`-` for stdin).
    #[arg(required_unless_present_any = ["db", "analysis"])]
    pub paths: Vec<String>,
    /// Games from this game database (`shogi index`) too; the selection filters apply to its
    /// rows (players, ratings, dates, ending, winner, plies, and the openings, castles and
    /// classes the database stored).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Values and depths from this analysis cache (`shogi analyze --cache`): alone, the book
    /// of the engine's lines in every position searched; with games, each move's value from
    /// the engine's line for it, else from the engine's best line after it (negated).
    #[arg(long, value_name = "FILE")]
    pub analysis: Option<PathBuf>,
    /// The book to write (format by extension: `.ybb`, `.bin`, else text).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Positions up to this move number (the start position is 1).
    #[arg(long, default_value_t = 32)]
    pub max_ply: u32,
    /// Positions reached by at least this many games.
    #[arg(long, default_value_t = 1)]
    pub min_games: u32,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub select: SelectArgs,
    /// Worker threads for reading (default: all cores).
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// MiB of positions counted in memory; beyond it sorted runs go to temporary files and
    /// are merged at the end (the book is the same). Every format is written as the runs
    /// merge: .ybb and book.bin sort by their own keys on disk too, with half of the bound.
    /// With --analysis the engine's book takes half of the counting's share (all of it
    /// alone) and goes to disk beyond it. Reading the inputs is not counted in it.
    #[arg(long, value_name = "MIB", default_value_t = 512)]
    pub memory: usize,
    /// Folder for the temporary runs (default: the output's folder).
    #[arg(long, value_name = "DIR")]
    pub temp_dir: Option<PathBuf>,
}

/// Arguments of `shogi book backup`.
#[derive(clap::Args)]
pub struct BackupArgs {
    /// The book to back up.
    pub input: PathBuf,
    /// The book to write (written to a temporary file, then renamed).
    pub output: PathBuf,
    /// Accept an unsorted text book (sorted on disk first, within --memory).
    #[arg(long)]
    pub sort: bool,
    /// MiB for sorting an unsorted text book (--sort), a `.ybb` or `book.bin` input (written
    /// as a sorted text book on disk first) and for writing a `.ybb` or `book.bin` (sorted by
    /// their keys on disk beyond it). The back-up itself holds no SFEN: about 72 bytes per
    /// position and 8 per move, a text book read from disk three times.
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    pub memory: usize,
}

/// One game as the builder wants it, made on a worker.
struct Game {
    line: Option<(Position, Vec<Move>, Option<GameResult>)>,
    unreadable: bool,
}

struct Collect<'a> {
    builder: &'a mut Builder,
    unreadable: u64,
    left_out: u64,
}

impl Handler<Game> for Collect<'_> {
    fn game(&mut self, _: &Input, g: Game) -> ControlFlow<()> {
        self.unreadable += u64::from(g.unreadable);
        match g.line {
            Some((start, moves, result)) => {
                self.builder.add_game(&start, &moves, result);
            }
            None => self.left_out += u64::from(!g.unreadable),
        }
        ControlFlow::Continue(())
    }

    fn input_done(&mut self, _: &Input) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

pub fn build(args: &BuildArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let selection = args.select.selection()?;
    if args.db.is_some() && args.select.dedup.is_some() {
        return Err(Failure::usage(
            "error: --dedup: not with --db (every game of the database counts)",
        ));
    }
    let start = std::time::Instant::now();
    let format = BookFormat::of_output(&args.output);
    let from_games = !args.paths.is_empty() || args.db.is_some();
    let memory = args.memory.saturating_mul(1 << 20);
    // A binary book sorts its positions by its own key: half the bound counts the games, the
    // other half sorts the book (a text book is written in the order the counts come out).
    let (count_memory, write_memory) = match format {
        BookFormat::Db => (memory, memory),
        _ => (memory / 2, memory - memory / 2),
    };
    // The engine's book is held beside the counts (it values them as they are written): with
    // games it takes half of the counting's share, alone all of it.
    let (count_memory, eval_memory) = match (from_games, args.analysis.is_some()) {
        (true, true) => (count_memory / 2, count_memory - count_memory / 2),
        (false, _) => (0, count_memory),
        (true, false) => (count_memory, 0),
    };
    let options = WriteOptions {
        depth: true,
        memory: write_memory,
        temp_dir: Some(temp_dir(args)),
    };
    let mut summary = Vec::new();
    let builder = match from_games {
        true => {
            let (builder, read) = count_games(args, &selection, ctx, count_memory)?;
            summary.push(read);
            Some(builder)
        }
        false => None,
    };
    let evals = match &args.analysis {
        Some(cache) => {
            let (evals, read) =
                sources::analysis_book(cache, args.max_ply, eval_memory, &temp_dir(args))
                    .map_err(|e| Failure::usage(format!("error: {e}")))?;
            summary.push(format!(
                "{}: {} result(s), {} not used, {} unreadable",
                cache.display(),
                read.results,
                read.unused,
                read.unreadable
            ));
            Some(evals)
        }
        None => None,
    };
    let mut writer = book_writer(&args.output, format, &[], &options)?;
    let has_evals = evals.is_some();
    match (builder, evals) {
        (Some(builder), mut evals) => {
            let mut report = shogi_book::EvalReport::default();
            builder
                .finish_into(|key, mut entry| {
                    if let Some(evals) = &mut evals {
                        let get = |k: &str| evals.get(k);
                        shogi_book::evaluate_entry(&key, &mut entry, get, &mut report)?;
                    }
                    writer.push(&key, &entry)
                })
                .map_err(|e| book_failure(&e))?;
            if has_evals {
                summary.push(format!(
                    "moves valued by the engine's line for them {}, by its line after them {}, not valued (results kept) {}",
                    report.from_position, report.from_child, report.kept
                ));
            }
        }
        (None, Some(mut evals)) => {
            evals
                .for_each(|key, entry| writer.push(key, entry))
                .map_err(|e| book_failure(&e))?;
        }
        (None, None) => {}
    }
    let (positions, moves) = writer.written();
    write_notes(ctx, writer.finish(&[]).map_err(|e| book_failure(&e))?);
    let _ = writeln!(
        ctx.stderr,
        "{}: {positions} positions, {moves} moves in {:.2}s",
        summary.join("; "),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn write_notes(ctx: &mut Ctx, notes: Vec<String>) {
    for n in notes {
        let _ = writeln!(ctx.stderr, "{n}");
    }
}

/// The folder of the temporary runs: `--temp-dir`, else the output's folder.
fn temp_dir(args: &BuildArgs) -> PathBuf {
    args.temp_dir
        .clone()
        .or_else(|| args.output.parent().map(Path::to_path_buf))
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Counts the games of the records and the database in a builder holding about `memory`
/// bytes; returns it and what was read, in words.
fn count_games(
    args: &BuildArgs,
    selection: &shogi_batch::Selection,
    ctx: &mut Ctx,
    memory: usize,
) -> Result<(Builder, String), Failure> {
    let options = BuildOptions {
        max_ply: args.max_ply,
        min_games: args.min_games,
    };
    let mut builder = Builder::spilling(options, memory, &temp_dir(args));
    let mut parts = Vec::new();
    if !args.paths.is_empty() {
        parts.push(from_records(args, selection, &mut builder, ctx)?);
    }
    if let Some(db) = &args.db {
        let read = sources::add_db_games(&mut builder, db, selection)
            .map_err(|e| Failure::usage(format!("error: {e}")))?;
        parts.push(format!(
            "{}: {} game(s) ({} left out by the selection, {} unreadable)",
            db.display(),
            read.games,
            read.left_out,
            read.unreadable
        ));
    }
    let (games, skipped, runs) = (builder.games(), builder.skipped(), builder.runs());
    parts.push(format!("{games} counted, {skipped} not standard shogi"));
    if runs > 0 {
        parts.push(format!("{runs} sorted run(s) on disk"));
    }
    Ok((builder, parts.join("; ")))
}

/// Adds the games of the record files to `builder`; returns what was read, in words.
fn from_records(
    args: &BuildArgs,
    selection: &shogi_batch::Selection,
    builder: &mut Builder,
    ctx: &mut Ctx,
) -> Result<String, Failure> {
    let plan = Plan::new(&args.paths, &args.input, args.jobs, "book build");
    let batch = Batch::new(&plan, &ctx.stdin, ctx.options)?;
    let before = builder.games() + builder.skipped();
    let mut collect = Collect {
        builder,
        unreadable: 0,
        left_out: 0,
    };
    batch.run(
        |input, game| {
            let Some(record) = game.record.as_ref() else {
                return Game {
                    line: None,
                    unreadable: true,
                };
            };
            if !selected(selection, &input.name, &game, None) {
                return Game {
                    line: None,
                    unreadable: false,
                };
            }
            let moves: Vec<Move> = record.main_line().map(|n| n.mv).collect();
            let result = shogi_train::game_result(record);
            Game {
                line: Some((record.start_position().clone(), moves, result)),
                unreadable: false,
            }
        },
        &mut collect,
    );
    Ok(format!(
        "records: {} game(s) ({} left out by the selection, {} unreadable)",
        collect.builder.games() + collect.builder.skipped() - before,
        collect.left_out,
        collect.unreadable
    ))
}

pub fn backup(args: &BackupArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let start = std::time::Instant::now();
    let memory = args.memory.saturating_mul(1 << 20);
    let sort = args.sort.then(|| shogi_book::SortOptions {
        memory,
        ..shogi_book::SortOptions::default()
    });
    let options = WriteOptions {
        depth: true,
        memory,
        temp_dir: None,
    };
    let (report, notes) = shogi_book::backup_file(
        &args.input,
        sort.as_ref(),
        &roots(&[])?,
        &args.output,
        &options,
    )
    .map_err(|e| book_failure(&e))?;
    for n in notes {
        let _ = writeln!(ctx.stderr, "{n}");
    }
    if report.unreadable > 0 {
        let _ = writeln!(
            ctx.stderr,
            "{}: warning: {} position(s) are no standard shogi position and were left out",
            args.input.display(),
            report.unreadable
        );
    }
    let _ = writeln!(
        ctx.stderr,
        "{} nodes ({} acyclic, {} on perpetual-check loops), {} converged moves, {} sweeps, {:.2}s",
        report.nodes,
        report.acyclic,
        report.check_loop,
        report.converged_moves,
        report.sweeps,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

//! `shogi book build` (a book from game records, the selection of `stats` applying) and
//! `shogi book backup` (peta_shock's back-up).

use super::files::{BookFormat, read_book, write_book};
use super::roots;
use super::sources;
use crate::args::InputArgs;
use crate::batch::SelectArgs;
use crate::ctx::{Ctx, Failure};
use crate::driver::{Batch, Handler, Plan, selected};
use shogi_batch::Input;
use shogi_book::{BuildOptions, Builder};
use shogi_core::{Move, Position};
use shogi_train::GameResult;
use std::ops::ControlFlow;
use std::path::PathBuf;

/// Arguments of `shogi book build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Record files or folders (`-` for stdin).
    #[arg(required_unless_present_any = ["db", "analysis"])]
    pub paths: Vec<String>,
    /// Games from this game database (`shogi index`) too; the selection filters apply to its
    /// rows (players, ratings, dates, ending, winner, plies; not the tag filters).
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
}

/// Arguments of `shogi book backup`.
#[derive(clap::Args)]
pub struct BackupArgs {
    /// The book to back up.
    pub input: PathBuf,
    /// The book to write (written to a temporary file, then renamed).
    pub output: PathBuf,
    /// Accept an unsorted text book.
    #[arg(long)]
    pub sort: bool,
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
    let options = BuildOptions {
        max_ply: args.max_ply,
        min_games: args.min_games,
    };
    let start = std::time::Instant::now();
    let games = (!args.paths.is_empty() || args.db.is_some()).then(|| Builder::new(options));
    let (mut book, mut summary) = match games {
        Some(mut builder) => {
            let mut parts = Vec::new();
            if !args.paths.is_empty() {
                parts.push(from_records(args, &selection, &mut builder, ctx)?);
            }
            if let Some(db) = &args.db {
                let read = sources::add_db_games(&mut builder, db, &selection)
                    .map_err(|e| Failure::usage(format!("error: {e}")))?;
                parts.push(format!(
                    "{}: {} game(s) ({} left out by the selection, {} unreadable)",
                    db.display(),
                    read.games,
                    read.left_out,
                    read.unreadable
                ));
            }
            let (games, skipped) = (builder.games(), builder.skipped());
            parts.push(format!("{games} counted, {skipped} not standard shogi"));
            (builder.finish(), parts.join("; "))
        }
        None => (shogi_book::Book::new(), String::new()),
    };
    if let Some(cache) = &args.analysis {
        let (evals, read) = sources::analysis_book(cache, args.max_ply)
            .map_err(|e| Failure::usage(format!("error: {e}")))?;
        let mut text = format!(
            "{}: {} result(s), {} not used, {} unreadable",
            cache.display(),
            read.results,
            read.unused,
            read.unreadable
        );
        if args.paths.is_empty() && args.db.is_none() {
            book = evals;
        } else {
            let r = shogi_book::apply_evaluations(&mut book, &evals);
            text.push_str(&format!(
                "; moves valued by the engine's line for them {}, by its line after them {}, not valued (results kept) {}",
                r.from_position, r.from_child, r.kept
            ));
        }
        summary = if summary.is_empty() {
            text
        } else {
            format!("{summary}; {text}")
        };
    }
    let notes = write_book(
        &args.output,
        BookFormat::of_output(&args.output),
        &book,
        true,
    )?;
    for n in notes {
        let _ = writeln!(ctx.stderr, "{n}");
    }
    let _ = writeln!(
        ctx.stderr,
        "{summary}: {} positions, {} moves in {:.2}s",
        book.len(),
        book.move_count(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
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
    let format = BookFormat::of_input(&args.input)?;
    let (book, notes) = read_book(&args.input, format, args.sort, &roots(&[])?)?;
    for n in notes {
        let _ = writeln!(ctx.stderr, "{n}");
    }
    let start = std::time::Instant::now();
    let (out, report) = shogi_book::backup(&book);
    let to = BookFormat::of_output(&args.output);
    for n in write_book(&args.output, to, &out, true)? {
        let _ = writeln!(ctx.stderr, "{n}");
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

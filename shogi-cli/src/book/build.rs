//! `shogi book build` (a book from game records, the selection of `stats` applying) and
//! `shogi book backup` (peta_shock's back-up).

use super::files::{BookFormat, read_book, write_book};
use super::roots;
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
    #[arg(required = true)]
    pub paths: Vec<String>,
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

struct Collect {
    builder: Builder,
    unreadable: u64,
    left_out: u64,
}

impl Handler<Game> for Collect {
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
    let plan = Plan::new(&args.paths, &args.input, args.jobs, "book build");
    let batch = Batch::new(&plan, &ctx.stdin, ctx.options)?;
    let options = BuildOptions {
        max_ply: args.max_ply,
        min_games: args.min_games,
    };
    let mut collect = Collect {
        builder: Builder::new(options),
        unreadable: 0,
        left_out: 0,
    };
    let start = std::time::Instant::now();
    batch.run(
        |input, game| {
            let Some(record) = game.record.as_ref() else {
                return Game {
                    line: None,
                    unreadable: true,
                };
            };
            if !selected(&selection, &input.name, &game, None) {
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
    let Collect {
        builder,
        unreadable,
        left_out,
    } = collect;
    let (games, skipped) = (builder.games(), builder.skipped());
    let book = builder.finish();
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
        "{games} game(s) counted ({left_out} left out by the selection, {unreadable} unreadable, {skipped} not standard shogi): {} positions, {} moves in {:.2}s",
        book.len(),
        book.move_count(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
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

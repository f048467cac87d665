//! `shogi index`, `shogi find`, `shogi explore`: the game database (see the shogi-db crate).

mod output;
mod target;

use crate::args::NotationArg;
use crate::batch::SelectArgs;
use crate::ctx::{Ctx, Failure};
use crate::progress::Progress;
use output::{FoundWriter, write_explore, write_found, write_openings};
use shogi_db::{Db, DbError, IndexOptions};
use std::ops::ControlFlow;
use std::path::PathBuf;
use target::target;

fn fail(e: DbError) -> Failure {
    Failure::usage(format!("error: {e}"))
}

fn out_err(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Failure::silent(0)
    } else {
        Failure::usage(format!("error: cannot write stdout: {e}"))
    }
}

/// Arguments of `shogi index`.
#[derive(clap::Args)]
#[command(
    after_help = "The database (SQLite) has the tables files, games (the columns of \
`shogi stats`, plus the main line in USI) and positions (key, game_id, ply, move); see the README. \
Running it again reads only new and changed files and removes the games of files gone from the \
given folders. An interrupted run leaves the previous database as it was.\n\
Exit status: 0 when the database was written (games with errors are indexed up to the error and \
marked valid = 0), 2 on usage, input or database errors.\n\n\
Examples:\n  shogi index samples/ --db games.sqlite\n  shogi index samples/game.kif samples/mini.kif --db games.sqlite --jobs 2"
)]
pub struct IndexArgs {
    /// Files or directories (walked recursively for record files).
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// The database file (created when it does not exist).
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Do not recognise the games' openings and castles (faster; the database then refuses
    /// --opening, --castle, --class and explore --by opening).
    #[arg(long)]
    pub no_tags: bool,
    #[command(flatten)]
    pub input: crate::args::InputArgs,
}

/// `shogi index`.
pub fn index(args: &IndexArgs, ctx: &mut Ctx<'_>) -> Result<(), Failure> {
    let options = IndexOptions {
        jobs: args.jobs,
        skip_tags: args.no_tags,
        read: shogi_kif::ReadOptions {
            format: args.input.from,
            encoding: args.input.encoding.map(shogi_kif::Encoding::from),
            ..shogi_kif::ReadOptions::default()
        },
        ..IndexOptions::default()
    };
    let bar = Progress::new(ctx.options.progress, "index", "files");
    let mut games = 0;
    let mut report = |p: shogi_db::IndexProgress| {
        bar.set(p.files_done, p.files_total);
        bar.add_games(p.games - games);
        games = p.games;
        if p.stage != "reading" {
            bar.message(match p.stage {
                "positions" => "sorting and writing the positions",
                _ => "building the indexes",
            });
        }
    };
    let result = shogi_db::index_with(&args.paths, &args.db, &options, &mut report);
    bar.finish();
    let r = result.map_err(fail)?;
    let size = std::fs::metadata(&args.db).map_or(0, |m| m.len());
    let text = format!(
        "{}: {} {} file{} read, {} unchanged, {} removed; {} game{} added ({} invalid), {} removed; {} positions; {:.1} MB\n",
        args.db.display(),
        if r.created { "created;" } else { "updated;" },
        r.files_read,
        if r.files_read == 1 { "" } else { "s" },
        r.files_unchanged,
        r.files_removed,
        r.games_added,
        if r.games_added == 1 { "" } else { "s" },
        r.games_invalid,
        r.games_removed,
        r.positions_added,
        size as f64 / 1e6
    );
    crate::ctx::emit(ctx.stdout, &text)
}

/// Output formats of `shogi find`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FindFormat {
    /// One line per occurrence and a count.
    Text,
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// Output formats of `shogi explore`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExploreFormat {
    /// A table.
    Text,
    /// One object with a `moves` array.
    Json,
    /// One row per move with a header row.
    Csv,
}

/// The position and where to look, shared by `find` and `explore`.
#[derive(clap::Args)]
pub struct Where {
    /// The position: an SFEN (quoted; the move number may be left out), `startpos`,
    /// `startpos moves 7g7f ...`, or a record file (its final position, or see --ply).
    #[arg(value_name = "POSITION")]
    pub target: String,
    /// Without --db: the record files or directories to scan.
    pub paths: Vec<String>,
    /// The game database to search (see `shogi index`).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// With a record file as the position: the position after N moves of its main line.
    #[arg(long, value_name = "N")]
    pub ply: Option<u32>,
    /// Worker threads when scanning (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub select: SelectArgs,
}

impl Where {
    /// The explorer table: counted from the database, or from the hits of a scan.
    fn explored(&self, top: usize) -> Result<(shogi_core::Position, shogi_db::Explore), Failure> {
        if let Some(db) = self.db.as_ref().filter(|_| self.paths.is_empty()) {
            if self.select.dedup.is_none() {
                let target = target(&self.target, self.ply).map_err(fail)?;
                let selection = self.select.selection_at(Some(target.side_to_move()))?;
                let table = Db::open(db)
                    .and_then(|db| db.explore_top(&target, &selection, top))
                    .map_err(fail)?;
                return Ok((target, table));
            }
        }
        let (target, found) = self.found(None)?;
        let table = shogi_db::explore_hits_top(&target, &found, top);
        Ok((target, table))
    }

    /// The selection and the position, after the checks every search makes.
    fn search(&self) -> Result<(shogi_batch::Selection, shogi_core::Position), Failure> {
        if self.select.dedup.is_some() {
            return Err(Failure::usage(
                "error: --dedup: not for find or explore (every game counts)",
            ));
        }
        let target = target(&self.target, self.ply).map_err(fail)?;
        let selection = self.select.selection_at(Some(target.side_to_move()))?;
        match &self.db {
            Some(_) if !self.paths.is_empty() => Err(Failure::usage(format!(
                "error: {}: with --db the database is searched; give record paths without --db to scan them",
                self.paths[0]
            ))),
            None if self.paths.is_empty() => Err(Failure::usage(
                "error: give --db FILE, or record files or directories to scan",
            )),
            _ => Ok((selection, target)),
        }
    }

    fn found(
        &self,
        limit: Option<usize>,
    ) -> Result<(shogi_core::Position, shogi_db::Found), Failure> {
        let (selection, target) = self.search()?;
        let found = match &self.db {
            Some(db) => Db::open(db)
                .and_then(|db| db.find(&target, &selection, limit))
                .map_err(fail)?,
            None => {
                shogi_db::scan(&self.paths, &target, &selection, limit, self.jobs).map_err(fail)?
            }
        };
        Ok((target, found))
    }
}

/// Arguments of `shogi find`.
#[derive(clap::Args)]
#[command(
    after_help = "Lists every occurrence (game and ply) of the exact position: board, \
hands and side to move. Keys only pick candidates; every hit is checked against the position. \
Without --db the given records are read and replayed instead (same output).\n\
CSV columns: path, game, ply, next_move (USI, empty at the end of the line), winner, ending, \
sente, gote, sente_rating, gote_rating, start, plies, valid.\n\
Exit status: 0 (also when nothing is found), 2 on usage, input or database errors.\n\n\
Examples:\n  shogi index samples/ --db games.sqlite\n  shogi find startpos --db games.sqlite --limit 10\n  \
shogi find 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2' --db games.sqlite --format csv\n  \
shogi find samples/game.kif --ply 10 samples/\n  shogi find startpos --db games.sqlite --player sente --winner gote"
)]
pub struct FindArgs {
    #[command(flatten)]
    pub at: Where,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FindFormat::Text)]
    pub format: FindFormat,
    /// Print at most N occurrences (the count says how many there are).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
}

/// `shogi find`.
pub fn find(args: &FindArgs, ctx: &mut Ctx<'_>) -> Result<(), Failure> {
    let format = args.format;
    let Some(db) = &args.at.db else {
        let (_, found) = args.at.found(args.limit)?;
        write_found(&found, format, ctx.stdout).map_err(out_err)?;
        return ctx.stdout.flush().map_err(out_err);
    };
    // From a database the hits are printed as they are read, not collected first.
    let (selection, target) = args.at.search()?;
    let mut w = FoundWriter::new(format, ctx.stdout).map_err(out_err)?;
    // Opened after the CSV header is written, as before the handle existed.
    let db = Db::open(db).map_err(fail)?;
    let mut failed = None;
    let counts = db
        .find_each(&target, &selection, args.limit, &mut |h| match w.hit(h) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
        })
        .map_err(fail)?;
    if let Some(e) = failed {
        return Err(out_err(e));
    }
    w.finish(counts).map_err(out_err)?;
    ctx.stdout.flush().map_err(out_err)
}

/// Arguments of `shogi explore`.
#[derive(clap::Args)]
#[command(
    after_help = "Every move played from the position: games, sente wins, gote wins, \
draws, the win rate of the side that played it, the players' average rating where known, and \
the most recent game. A game counts once per move it played from the position.\n\
Exit status: 0, 2 on usage, input or database errors.\n\n\
Examples:\n  shogi index samples/ --db games.sqlite\n  shogi explore startpos --db games.sqlite\n  \
shogi explore 'startpos moves 7g7f' --db games.sqlite --format json\n  shogi explore startpos samples/\n  \
shogi explore startpos --db games.sqlite --notation japanese"
)]
pub struct ExploreArgs {
    #[command(flatten)]
    pub at: Where,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExploreFormat::Text)]
    pub format: ExploreFormat,
    /// How moves are named (JSON and CSV keep `usi` and add `move` in this notation).
    #[arg(long, value_enum, default_value_t = NotationArg::Usi)]
    pub notation: NotationArg,
    /// Mark the moves this book (YaneuraOu text, .ybb or Apery's book.bin) has for the
    /// position, with its value, depth and count (looked up without the move number, and
    /// flipped, as YaneuraOu's IgnoreBookPly and FlippedBook).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// One line per move played from the position (move), or per main 戦型 of the games
    /// that pass through it (opening: games, sente wins, draws, gote wins; with --db).
    #[arg(long, value_enum, default_value_t = ExploreBy::Move)]
    pub by: ExploreBy,
    /// Up to N top games per move: the highest-rated (mean of both players' ratings, then
    /// the latest), with path and game number to open them (0: none). Up to 5 come from the
    /// counts kept at index time; more read every game through the position.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub top: usize,
}

/// What `shogi explore` counts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExploreBy {
    /// The moves played from the position.
    Move,
    /// The main 戦型 of the games through it (as `stats --summary opening` names them).
    Opening,
}

/// `shogi explore`.
pub fn explore(args: &ExploreArgs, ctx: &mut Ctx<'_>) -> Result<(), Failure> {
    if args.by == ExploreBy::Opening {
        return explore_openings(args, ctx);
    }
    let (target, mut table) = args.at.explored(args.top)?;
    shogi_db::name_moves(&mut table, &target, args.notation.into());
    let marks = match &args.book {
        Some(path) => Some(crate::book::book_marks(path, &target)?),
        None => None,
    };
    let out = &mut *ctx.stdout;
    write_explore(&table, marks.as_ref(), args.top, args.format, out).map_err(out_err)?;
    ctx.stdout.flush().map_err(out_err)
}

/// `shogi explore --by opening`.
fn explore_openings(args: &ExploreArgs, ctx: &mut Ctx<'_>) -> Result<(), Failure> {
    let Some(db) = &args.at.db else {
        return Err(Failure::usage(
            "error: --by opening: needs --db (the games' tags are stored by `shogi index`)",
        ));
    };
    if args.book.is_some() {
        return Err(Failure::usage(
            "error: --book: marks moves, not openings (not with --by opening)",
        ));
    }
    let (selection, target) = args.at.search()?;
    let table = Db::open(db)
        .and_then(|db| db.explore_openings(&target, &selection))
        .map_err(fail)?;
    write_openings(&table, args.format, ctx.stdout).map_err(out_err)?;
    ctx.stdout.flush().map_err(out_err)
}

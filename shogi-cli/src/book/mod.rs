//! `shogi book`: opening books (YaneuraOu's text and `.ybb`, Apery's `book.bin`) probed,
//! converted, checked, merged, built from records and backed up (peta_shock). The book model
//! and formats are shogi-book's; this module holds the flags and the printing.

mod build;
pub(crate) mod files;
mod inspect;
mod openings;
mod sources;

use crate::args::{NotationArg, parse_position};
use crate::ctx::{Ctx, Failure};
use files::{BookFormat, book_failure, book_writer};
pub use openings::MatchBookArgs;
use shogi_book::{
    AperyWalk, Duplicates, SortOptions, TextStream, WriteOptions, sort_books, write_unordered,
};
use shogi_core::{Position, Variant};
use std::path::PathBuf;

/// Arguments of `shogi book`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  shogi book build samples -o book.db --max-ply 16\n  shogi book probe book.db startpos\n  shogi book convert book.db book.ybb\n  shogi book check book.db"
)]
pub struct BookArgs {
    /// What to do with books.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The subcommands of `shogi book`.
#[derive(clap::Subcommand)]
pub enum BookCommand {
    /// The book's moves for a position: value, depth, count and share, in notation.
    #[command(
        after_help = "Examples:\n  shogi book build samples -o book.db --max-ply 16\n  shogi book probe book.db startpos --notation japanese\n  shogi book probe book.db 'startpos moves 7g7f' --ignore-ply"
    )]
    Probe(inspect::ProbeArgs),
    /// Convert between YaneuraOu's text book (.db), .ybb and Apery's book.bin (by extension,
    /// or --to).
    #[command(
        after_help = "Examples:\n  shogi book build samples -o book.db --max-ply 16\n  shogi book convert book.db book.ybb\n  shogi book convert book.db book.bin\n  shogi book convert book.ybb back.db\n  shogi book convert book.db sorted.db --sort --memory 64"
    )]
    Convert(ConvertArgs),
    /// Positions, moves, and the histograms of depths and plies.
    #[command(
        after_help = "Examples:\n  shogi book build samples -o book.db --max-ply 16\n  shogi book stats book.db"
    )]
    Stats(inspect::StatsArgs),
    /// Check books: sort order, illegal moves, repeated positions, bad lines (all located).
    #[command(
        after_help = "Examples:\n  shogi book build samples -o book.db --max-ply 16\n  shogi book check book.db book.db"
    )]
    Check(inspect::CheckArgs),
    /// Merge text books into one sorted book (YaneuraOu's merge rule for repeated positions),
    /// in bounded memory.
    #[command(
        after_help = "Examples:\n  shogi book build samples -o book.db --max-ply 16\n  shogi book build samples -o short.db --max-ply 6\n  shogi book merge book.db short.db -o merged.db\n  shogi book merge book.db short.db -o counted.db --add-counts"
    )]
    Merge(MergeArgs),
    /// Build a book from game records: every position up to --max-ply reached by at least
    /// --min-games games, each move with its count and a value from its results.
    #[command(
        after_help = "Examples:\n  shogi book build samples -o book.db --max-ply 16 --min-games 2\n  shogi book build samples -o sente.db --winner sente\n  shogi book build samples -o book.bin --max-ply 8"
    )]
    Build(Box<build::BuildArgs>),
    /// Back values up over the book graph as YaneuraOu's `makebook peta_shock` does.
    #[command(
        after_help = "Examples:\n  shogi book build samples -o book.db --max-ply 16\n  shogi book backup book.db peta.db"
    )]
    Backup(build::BackupArgs),
    /// Apery's book key of positions (SFEN arguments, or `-`: one SFEN per line of stdin).
    #[command(
        after_help = "Examples:\n  shogi book key startpos\n  shogi book key 'startpos moves 7g7f'"
    )]
    Key(inspect::KeyArgs),
}

/// Arguments of `shogi book convert`.
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// The book to read (format from its content: .ybb's magic, `.bin` for Apery, else text).
    pub input: PathBuf,
    /// The book to write (written to a temporary file, then renamed).
    pub output: PathBuf,
    /// The input's format, instead of detecting it.
    #[arg(long, value_enum)]
    pub from: Option<BookFormat>,
    /// The output's format, instead of its extension (`.ybb`, `.bin`, else text).
    #[arg(long, value_enum)]
    pub to: Option<BookFormat>,
    /// Sort an unsorted text book (otherwise the first position out of order is an error);
    /// text to text is then sorted in bounded memory (--memory).
    #[arg(long)]
    pub sort: bool,
    /// Write .ybb without depths (flags 0).
    #[arg(long)]
    pub no_depth: bool,
    /// Memory for sorting, in MiB: an unsorted text book with --sort, the sort of a .ybb or
    /// book.bin written, and a text book written from a .ybb or book.bin (their positions
    /// do not come in its order).
    #[arg(long, default_value_t = 256)]
    pub memory: usize,
    /// Where an Apery book is walked from (an SFEN or startpos; repeat for several).
    #[arg(long, value_name = "POSITION")]
    pub root: Vec<String>,
}

/// Arguments of `shogi book merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// Text books, in order of preference for YaneuraOu's merge rule's last tie-break.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The merged book (written to a temporary file, then renamed).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Add the counts of positions found in several books instead of choosing one (books built
    /// from different games).
    #[arg(long)]
    pub add_counts: bool,
    /// Memory for sorting, in MiB.
    #[arg(long, default_value_t = 256)]
    pub memory: usize,
}

/// Runs `shogi book`.
pub fn run(args: &BookArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    match &args.command {
        BookCommand::Probe(a) => inspect::probe(a, ctx),
        BookCommand::Convert(a) => convert(a, ctx),
        BookCommand::Stats(a) => inspect::stats(a, ctx),
        BookCommand::Check(a) => inspect::check(a, ctx),
        BookCommand::Merge(a) => merge(a, ctx),
        BookCommand::Build(a) => build::build(a, ctx),
        BookCommand::Backup(a) => build::backup(a, ctx),
        BookCommand::Key(a) => inspect::key(a, ctx),
    }
}

/// The root positions of an Apery walk (default: the start position).
fn roots(texts: &[String]) -> Result<Vec<Position>, Failure> {
    if texts.is_empty() {
        return Ok(vec![Position::startpos(Variant::Standard)]);
    }
    texts.iter().map(|t| parse_position(t, None)).collect()
}

fn convert(args: &ConvertArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let from = match args.from {
        Some(f) => f,
        None => BookFormat::of_input(&args.input)?,
    };
    let to = args
        .to
        .unwrap_or_else(|| BookFormat::of_output(&args.output));
    if from == BookFormat::Db && to == BookFormat::Db && args.sort {
        let options = SortOptions {
            memory: args.memory << 20,
            temp_dir: None,
            duplicates: Duplicates::SmallestPly,
        };
        return sort_on_disk(
            std::slice::from_ref(&args.input),
            &args.output,
            &options,
            ctx,
        );
    }
    if from == BookFormat::Db {
        return convert_text(args, to, ctx);
    }
    if from == BookFormat::Ybb {
        return convert_ybb(args, to, ctx);
    }
    convert_apery(args, to, ctx)
}

/// An Apery book converted without reading it whole: walked from the roots (its records
/// searched on disk), the positions written as they come and sorted on disk (--memory), so
/// the output is the one the whole book gave (see [`shogi_book::write_unordered`]).
fn convert_apery(args: &ConvertArgs, to: BookFormat, ctx: &mut Ctx) -> Result<(), Failure> {
    let options = WriteOptions {
        depth: !args.no_depth,
        memory: args.memory << 20,
        temp_dir: None,
    };
    let roots = roots(&args.root)?;
    let mut walk = AperyWalk::open(&args.input, &roots).map_err(|e| book_failure(&e))?;
    let written = write_unordered(&args.output, to.lib(), &[], &options, |push| {
        for item in walk.by_ref() {
            let (key, entry) = item?;
            push(&key, &entry)?;
        }
        Ok(())
    })
    .map_err(|e| book_failure(&e))?;
    if let Some(n) = walk.note().map_err(|e| book_failure(&e))? {
        let _ = writeln!(ctx.stderr, "{n}");
    }
    for n in &written.notes {
        let _ = writeln!(ctx.stderr, "{n}");
    }
    let (positions, moves) = (written.positions, written.moves);
    let _ = writeln!(ctx.stderr, "wrote {positions} positions, {moves} moves");
    Ok(())
}

/// A text book converted one position at a time (bounded memory at any size): read as it
/// stands, or sorted on disk first with --sort; `.ybb` and `book.bin` written through their
/// sorts on disk (--memory).
fn convert_text(args: &ConvertArgs, to: BookFormat, ctx: &mut Ctx) -> Result<(), Failure> {
    let memory = args.memory << 20;
    let sort = args.sort.then_some(SortOptions {
        memory,
        temp_dir: None,
        duplicates: Duplicates::SmallestPly,
    });
    let mut stream = TextStream::open(&args.input, sort.as_ref()).map_err(|e| book_failure(&e))?;
    let options = WriteOptions {
        depth: !args.no_depth,
        memory,
        temp_dir: None,
    };
    let mut writer = None;
    while let Some(item) = stream.next() {
        let (key, entry) = item.map_err(|e| book_failure(&e))?;
        let w = match &mut writer {
            Some(w) => w,
            None => writer.insert(book_writer(&args.output, to, stream.header(), &options)?),
        };
        w.push(&key, &entry).map_err(|e| book_failure(&e))?;
    }
    let writer = match writer {
        Some(w) => w,
        None => book_writer(&args.output, to, stream.header(), &options)?,
    };
    let (trailing, warnings) = stream.finish();
    for w in &warnings {
        let _ = writeln!(ctx.stderr, "{w} (warning)");
    }
    let (positions, moves) = writer.written();
    for n in writer.finish(&trailing).map_err(|e| book_failure(&e))? {
        let _ = writeln!(ctx.stderr, "{n}");
    }
    let _ = writeln!(ctx.stderr, "wrote {positions} positions, {moves} moves");
    Ok(())
}

/// A `.ybb` converted one position at a time: to a binary book through its sort on disk; to
/// a text book (which wants key order, not the index's) written unsorted beside the output,
/// then sorted on disk (--memory).
fn convert_ybb(args: &ConvertArgs, to: BookFormat, ctx: &mut Ctx) -> Result<(), Failure> {
    let memory = args.memory << 20;
    let stream = shogi_book::YbbStream::open(&args.input).map_err(|e| book_failure(&e))?;
    let options = WriteOptions {
        depth: !args.no_depth,
        memory,
        temp_dir: None,
    };
    if to != BookFormat::Db {
        let mut writer = book_writer(&args.output, to, &[], &options)?;
        for item in stream {
            let (key, entry) = item.map_err(|e| book_failure(&e))?;
            writer.push(&key, &entry).map_err(|e| book_failure(&e))?;
        }
        let (positions, moves) = writer.written();
        for n in writer.finish(&[]).map_err(|e| book_failure(&e))? {
            let _ = writeln!(ctx.stderr, "{n}");
        }
        let _ = writeln!(ctx.stderr, "wrote {positions} positions, {moves} moves");
        return Ok(());
    }
    let written = write_unordered(&args.output, to.lib(), &[], &options, |push| {
        for item in stream {
            let (key, entry) = item?;
            push(&key, &entry)?;
        }
        Ok(())
    })
    .map_err(|e| book_failure(&e))?;
    say_sorted(&written.sort, ctx);
    Ok(())
}

fn merge(args: &MergeArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    for input in &args.inputs {
        if BookFormat::of_input(input)? != BookFormat::Db {
            return Err(Failure::usage(format!(
                "error: {}: merge reads text books; convert it first (shogi book convert)",
                input.display()
            )));
        }
    }
    let options = SortOptions {
        memory: args.memory << 20,
        temp_dir: None,
        duplicates: if args.add_counts {
            Duplicates::AddCounts
        } else {
            Duplicates::Merge
        },
    };
    sort_on_disk(&args.inputs, &args.output, &options, ctx)
}

/// Sorts (and merges) text books on disk and says what it did.
fn sort_on_disk(
    inputs: &[PathBuf],
    output: &std::path::Path,
    options: &SortOptions,
    ctx: &mut Ctx,
) -> Result<(), Failure> {
    let report = sort_books(inputs, output, options).map_err(|e| files::book_failure(&e))?;
    say_sorted(&report, ctx);
    Ok(())
}

/// What a sort on disk did, on stderr.
fn say_sorted(report: &shogi_book::SortReport, ctx: &mut Ctx) {
    for w in &report.warnings {
        let _ = writeln!(ctx.stderr, "{w} (warning)");
    }
    let _ = writeln!(
        ctx.stderr,
        "wrote {} positions ({} read, {} sorted runs)",
        report.written, report.read, report.runs
    );
}

/// The moves `book` (a file of any of the three formats) has for `pos`, by USI: what
/// `shogi explore --book` marks (see [`shogi_book::MarkBook`]).
pub fn book_marks(
    path: &std::path::Path,
    pos: &Position,
) -> Result<std::collections::HashMap<String, shogi_book::BookMove>, Failure> {
    let moves = shogi_book::MarkBook::open(path)
        .and_then(|b| b.moves(pos))
        .map_err(|e| files::book_failure(&e))?;
    Ok(moves.into_iter().map(|m| (m.mv.to_usi(), m)).collect())
}

/// The notation argument's text of a move.
fn move_in(pos: &Position, m: shogi_core::Move, notation: NotationArg) -> String {
    use shogi_kif::notation::{Notation, move_text};
    let n = Notation::from(notation);
    if n == Notation::Usi {
        m.to_usi()
    } else {
        move_text(pos, m, None, n)
    }
}

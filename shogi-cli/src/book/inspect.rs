//! `shogi book probe`, `stats`, `check` and `key`: reading books and saying what is in them.

use super::files::{BookFormat, book_failure, walk_apery};
use super::{move_in, roots};
use crate::args::{NotationArg, parse_position};
use crate::ctx::{Ctx, Failure, emit};
use shogi_book::{
    AperyBook, BookError, BookMove, Entry, Lookup, SortOptions, TextReader, TextStream, apery_key,
    find_in_text_file, find_in_ybb_file, probe_with,
};
use shogi_core::Position;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::BufReader;
use std::path::PathBuf;

/// Arguments of `shogi book probe`.
#[derive(clap::Args)]
pub struct ProbeArgs {
    /// The book (text, .ybb or Apery's book.bin). It is searched on disk, never read whole: a
    /// text book as YaneuraOu's BookOnTheFly does (it must be sorted: `shogi book check`),
    /// the index of a .ybb and the key-sorted records of a book.bin by binary search.
    pub book: PathBuf,
    /// The position: startpos, an SFEN, or either followed by `moves …`.
    #[arg(default_value = "startpos")]
    pub position: String,
    /// Match the position whatever its move number (YaneuraOu's IgnoreBookPly).
    #[arg(long)]
    pub ignore_ply: bool,
    /// Do not look up the flipped position on a miss (YaneuraOu's FlippedBook=false).
    #[arg(long)]
    pub no_flip: bool,
    /// How moves are written.
    #[arg(long, value_enum, default_value_t = NotationArg::Usi)]
    pub notation: NotationArg,
}

/// Arguments of `shogi book stats`.
#[derive(clap::Args)]
pub struct StatsArgs {
    /// The book.
    pub book: PathBuf,
    /// Accept an unsorted text book.
    #[arg(long)]
    pub sort: bool,
    /// Where an Apery book is walked from (repeatable; default startpos).
    #[arg(long, value_name = "POSITION")]
    pub root: Vec<String>,
}

/// Arguments of `shogi book check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The books.
    #[arg(required = true)]
    pub books: Vec<PathBuf>,
    /// Memory for finding repeated positions in an unsorted text book (sorted on disk beyond
    /// it), in MiB.
    #[arg(long, default_value_t = 256)]
    pub memory: usize,
    /// Where an Apery book is walked from (repeatable; default startpos).
    #[arg(long, value_name = "POSITION")]
    pub root: Vec<String>,
}

/// Arguments of `shogi book key`.
#[derive(clap::Args)]
pub struct KeyArgs {
    /// Positions (SFEN, startpos, `… moves …`), or `-` to read one per line from stdin.
    #[arg(required = true)]
    pub positions: Vec<String>,
}

pub fn probe(args: &ProbeArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let pos = parse_position(&args.position, None)?;
    let format = BookFormat::of_input(&args.book)?;
    let moves: Option<Vec<BookMove>> = if format == BookFormat::Apery {
        // A binary search of the records on disk (they are sorted by key).
        let moves = AperyBook::probe_file(&args.book, &pos).map_err(|e| book_failure(&e))?;
        (!moves.is_empty()).then_some(moves)
    } else {
        let lookup = Lookup {
            ignore_ply: args.ignore_ply,
            flipped: !args.no_flip,
        };
        // A binary search over the file, as YaneuraOu's BookOnTheFly: a text book must be
        // sorted; a .ybb index is.
        let found = if format == BookFormat::Db {
            probe_with(&pos, lookup, |key| {
                find_in_text_file(&args.book, key).map(|r| r.map(|r| r.entry))
            })
        } else {
            probe_with(&pos, lookup, |key| find_in_ybb_file(&args.book, key))
        }
        .map_err(|e| book_failure(&e))?;
        found.map(|e| e.moves)
    };
    let Some(moves) = moves else {
        let _ = writeln!(ctx.stderr, "{}: not in the book", pos.to_sfen());
        return Err(Failure::silent(1));
    };
    let total: u64 = moves.iter().map(|m| m.count).sum();
    let mut out = String::from("move\tnotation\tvalue\tdepth\tcount\tshare\tponder\n");
    for m in &moves {
        let share = if total > 0 {
            format!("{:.2}%", m.count as f64 * 100.0 / total as f64)
        } else {
            "-".into()
        };
        let ponder = m.ponder.map_or("none".to_string(), |p| p.to_usi());
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{share}\t{ponder}",
            m.mv.to_usi(),
            move_in(&pos, m.mv, args.notation),
            m.value,
            m.depth,
            m.count
        );
    }
    emit(ctx.stdout, &out)
}

pub fn stats(args: &StatsArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let format = BookFormat::of_input(&args.book)?;
    let mut tally = Tally::default();
    if format == BookFormat::Db {
        // One position at a time (an unsorted book sorted on disk first): any size.
        let sort = args.sort.then(SortOptions::default);
        let mut stream =
            TextStream::open(&args.book, sort.as_ref()).map_err(|e| book_failure(&e))?;
        for item in stream.by_ref() {
            tally.add(&item.map_err(|e| book_failure(&e))?.1);
        }
        for w in stream.finish().1 {
            let _ = writeln!(ctx.stderr, "{w} (warning)");
        }
    } else if format == BookFormat::Ybb {
        // Its index in order, the moves beside: any size.
        let stream = shogi_book::YbbStream::open(&args.book).map_err(|e| book_failure(&e))?;
        for item in stream {
            tally.add(&item.map_err(|e| book_failure(&e))?.1);
        }
    } else {
        // Walked from the roots, its records searched on disk: any size.
        let notes = walk_apery(&args.book, &roots(&args.root)?, |_, e| {
            tally.add(&e);
            Ok(())
        })?;
        for n in notes {
            let _ = writeln!(ctx.stderr, "{n}");
        }
    }
    emit(ctx.stdout, &tally.text())
}

/// What `book stats` counts, a position at a time.
#[derive(Default)]
struct Tally {
    positions: u64,
    moves: u64,
    empty: u64,
    most: usize,
    depths: BTreeMap<i32, u64>,
    plies: BTreeMap<Option<u32>, u64>,
}

impl Tally {
    fn add(&mut self, e: &Entry) {
        self.positions += 1;
        self.moves += e.moves.len() as u64;
        self.empty += u64::from(e.moves.is_empty());
        self.most = self.most.max(e.moves.len());
        *self.plies.entry(e.ply).or_default() += 1;
        for m in &e.moves {
            *self.depths.entry(m.depth).or_default() += 1;
        }
    }

    /// The text of `book stats`: totals, then `depth D: N moves` and `ply P: N positions`
    /// lines.
    fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "positions\t{}", self.positions);
        let _ = writeln!(out, "moves\t{}", self.moves);
        let _ = writeln!(out, "positions without moves\t{}", self.empty);
        let _ = writeln!(out, "most moves in a position\t{}", self.most);
        for (d, n) in &self.depths {
            let _ = writeln!(out, "depth {d}\t{n}");
        }
        for (p, n) in &self.plies {
            match p {
                Some(p) => {
                    let _ = writeln!(out, "ply {p}\t{n}");
                }
                None => {
                    let _ = writeln!(out, "ply none\t{n}");
                }
            }
        }
        out
    }
}

/// Problems printed per book before the rest are only counted.
const SHOWN: usize = 50;

/// A book's problems as `check` reports them: the first [`SHOWN`] kept, the rest counted.
#[derive(Default)]
struct Problems {
    shown: Vec<String>,
    more: u64,
    errors: u64,
}

impl Problems {
    fn push(&mut self, problem: String, warning: bool) {
        self.errors += u64::from(!warning);
        if self.shown.len() < SHOWN {
            self.shown.push(problem);
        } else {
            self.more += 1;
        }
    }

    /// Adds `other`'s problems (errors all) after these.
    fn append(&mut self, other: Problems) {
        self.errors += other.errors - other.shown.len() as u64;
        self.more += other.more;
        for p in other.shown {
            self.push(p, false);
        }
    }
}

/// The problems of a `.ybb` book read position by position (its first problem ends it, as
/// reading it whole does).
fn check_ybb(path: &std::path::Path, ctx: &mut Ctx) -> Problems {
    let mut problems = Problems::default();
    let (mut positions, mut moves) = (0u64, 0u64);
    let stream = match shogi_book::YbbStream::open(path) {
        Ok(s) => s,
        Err(e) => {
            problems.push(book_failure(&e).message, false);
            return problems;
        }
    };
    for item in stream {
        match item {
            Ok((_, entry)) => {
                positions += 1;
                moves += entry.moves.len() as u64;
            }
            Err(e) => {
                problems.push(book_failure(&e).message, false);
                return problems;
            }
        }
    }
    let _ = writeln!(
        ctx.stderr,
        "{}: {positions} positions, {moves} moves",
        path.display()
    );
    problems
}

pub fn check(args: &CheckArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let mut bad = false;
    for path in &args.books {
        let format = BookFormat::of_input(path)?;
        let problems = if format == BookFormat::Db {
            check_text(path, args.memory << 20)?
        } else if format == BookFormat::Ybb {
            check_ybb(path, ctx)
        } else {
            let mut problems = Problems::default();
            let (mut positions, mut moves) = (0u64, 0u64);
            let walked = walk_apery(path, &roots(&args.root)?, |_, e| {
                positions += 1;
                moves += e.moves.len() as u64;
                Ok(())
            });
            match walked {
                Ok(notes) => {
                    let _ = writeln!(
                        ctx.stderr,
                        "{}: {positions} positions, {moves} moves",
                        path.display(),
                    );
                    for n in notes {
                        let warning = n.ends_with("(warning)");
                        problems.push(n, warning);
                    }
                }
                Err(f) => problems.push(f.message, false),
            }
            problems
        };
        bad |= problems.errors > 0;
        let mut out = String::new();
        for p in &problems.shown {
            let _ = writeln!(out, "{p}");
        }
        if problems.more > 0 {
            let _ = writeln!(out, "{}: ... and {} more", path.display(), problems.more);
        }
        emit(ctx.stdout, &out)?;
        let _ = writeln!(
            ctx.stderr,
            "{}: {} error(s)",
            path.display(),
            problems.errors
        );
    }
    if bad { Err(Failure::silent(1)) } else { Ok(()) }
}

/// Every problem of a text book: bad lines, illegal moves, order and repeated positions, in
/// bounded memory. In a sorted book the plies of a position are next to each other, so a
/// repeat is the position before; once a position is out of order, the repeats are found
/// again by sorting the keys on disk (within `memory` bytes) and listed after the rest.
fn check_text(path: &PathBuf, memory: usize) -> Result<Problems, Failure> {
    let name = path.display().to_string();
    let file =
        std::fs::File::open(path).map_err(|e| Failure::usage(format!("error: {name}: {e}")))?;
    let mut reader = TextReader::new(BufReader::with_capacity(1 << 16, file), &name);
    let mut problems = Problems::default();
    let mut repeats = Problems::default();
    let mut unsorted = false;
    // The last position: its SFEN, key, line, and the line where its key first came.
    let mut last: Option<(String, String, u64, u64)> = None;
    let repeat = |key: &str, line: u64, first: u64| {
        let m = format!("repeated position `{key}` (also at line {first})");
        BookError::line(&name, line, Some(6), m).to_string()
    };
    for rec in reader.by_ref() {
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("{e}"), false);
                continue;
            }
        };
        if let Some((sfen, key, line, first)) = &last {
            if *key == rec.key {
                let first = *first;
                repeats.push(repeat(key, rec.line, first), false);
                last = Some((rec.sfen, rec.key, rec.line, first));
                continue;
            }
            if sfen.as_str() > rec.sfen.as_str() {
                unsorted = true;
                let m = format!(
                    "out of order: `sfen {}` comes after `sfen {sfen}` (line {line}); YaneuraOu's on-disk search needs byte order",
                    rec.sfen
                );
                problems.push(
                    BookError::line(&name, rec.line, Some(6), m).to_string(),
                    false,
                );
            }
        }
        last = Some((rec.sfen, rec.key, rec.line, rec.line));
    }
    if unsorted {
        repeats = Problems::default();
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        shogi_book::repeated_positions(path, memory, dir, |key, line, first| {
            repeats.push(repeat(key, line, first), false);
        })
        .map_err(|e| book_failure(&e))?;
    }
    problems.append(repeats);
    for w in reader.warnings() {
        problems.push(format!("{w} (warning)"), true);
    }
    Ok(problems)
}

pub fn key(args: &KeyArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let mut texts: Vec<String> = Vec::new();
    for p in &args.positions {
        if p == "-" {
            let mut stdin = ctx.stdin.lock().unwrap_or_else(|e| e.into_inner());
            let mut line = String::new();
            loop {
                line.clear();
                let n = stdin
                    .read_line(&mut line)
                    .map_err(|e| Failure::usage(format!("error: stdin: {e}")))?;
                if n == 0 {
                    break;
                }
                if !line.trim().is_empty() {
                    texts.push(line.trim().to_string());
                }
            }
        } else {
            texts.push(p.clone());
        }
    }
    let mut out = String::new();
    for t in &texts {
        let pos: Position = parse_position(t, None)?;
        let _ = writeln!(out, "{:016x}", apery_key(&pos));
    }
    let _ = ctx.stdout.flush();
    emit(ctx.stdout, &out)
}

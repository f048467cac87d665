//! Book files: the format of a path (its content, then its extension), reading any of the
//! three formats into a [`Book`], and writing through a temporary file renamed into place.

use crate::ctx::Failure;
use shogi_book::{
    AperyBook, Book, BookError, ReadOptions, YBB_MAGIC, read_text, write_apery, write_text,
    write_ybb,
};
use shogi_core::Position;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The three book formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BookFormat {
    /// YaneuraOu's text book (`#YANEURAOU-DB2016 1.00`, `.db`).
    Db,
    /// YaneuraOu's binary book (`.ybb`).
    Ybb,
    /// Apery's `book.bin`.
    Apery,
}

impl BookFormat {
    /// The format of a path to write, by its extension (`.ybb`, `.bin`, else text).
    pub fn of_output(path: &Path) -> BookFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some("ybb") => BookFormat::Ybb,
            Some("bin") => BookFormat::Apery,
            _ => BookFormat::Db,
        }
    }

    /// The format of a file to read: `.ybb`'s magic, then the extension `.bin`, else text.
    pub fn of_input(path: &Path) -> Result<BookFormat, Failure> {
        let mut head = [0u8; 16];
        let n = File::open(path)
            .and_then(|mut f| f.read(&mut head))
            .map_err(|e| Failure::usage(format!("error: {}: {e}", path.display())))?;
        Ok(if n == 16 && &head == YBB_MAGIC {
            BookFormat::Ybb
        } else if path.extension().is_some_and(|e| e == "bin") {
            BookFormat::Apery
        } else {
            BookFormat::Db
        })
    }
}

/// A book error as the command reports it (exit 2).
pub fn book_failure(e: &BookError) -> Failure {
    Failure::usage(format!("error: {e}"))
}

/// Reads a whole book of any format. Apery books are walked from `roots` (their keys are
/// hashes: only positions reached through book moves can be listed); the returned note says
/// how many records were not reached. Warnings of text books are returned as lines.
pub fn read_book(
    path: &Path,
    format: BookFormat,
    sort: bool,
    roots: &[Position],
) -> Result<(Book, Vec<String>), Failure> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| Failure::usage(format!("error: {name}: {e}")))?;
    let input = BufReader::with_capacity(1 << 16, file);
    match format {
        BookFormat::Db => {
            let (book, warnings) =
                read_text(input, &name, ReadOptions { sort }).map_err(|e| book_failure(&e))?;
            Ok((
                book,
                warnings.iter().map(|w| format!("{w} (warning)")).collect(),
            ))
        }
        BookFormat::Ybb => Ok((
            shogi_book::read_ybb(input, &name).map_err(|e| book_failure(&e))?,
            Vec::new(),
        )),
        BookFormat::Apery => {
            let apery = AperyBook::read(input, &name).map_err(|e| book_failure(&e))?;
            let (book, unreached) = apery
                .to_book(roots)
                .map_err(|e| Failure::usage(format!("error: {name}: {e}")))?;
            let mut notes = Vec::new();
            if unreached > 0 {
                notes.push(format!(
                    "{name}: note: {unreached} of {} records are not reached from the root position(s) through book moves and are not listed",
                    apery.records.len()
                ));
            }
            Ok((book, notes))
        }
    }
}

/// The temporary path beside `path` that a write goes to before the rename.
pub fn temp_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or("book".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Writes `path` through a temporary file renamed into place: on any failure the file at
/// `path` (if any) is untouched and the temporary file removed.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> Result<(), String>,
) -> Result<(), Failure> {
    let tmp = temp_beside(path);
    let fail = |m: String| Failure::usage(format!("error: {}: {m}", path.display()));
    let result = (|| {
        let file = File::create(&tmp).map_err(|e| e.to_string())?;
        let mut w = BufWriter::with_capacity(1 << 16, file);
        write(&mut w)?;
        w.flush().map_err(|e| e.to_string())?;
        drop(w);
        std::fs::rename(&tmp, path).map_err(|e| e.to_string())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(fail)
}

/// Writes a book in `format`; returns what the format could not keep, one line each.
pub fn write_book(
    path: &Path,
    format: BookFormat,
    book: &Book,
    depth: bool,
) -> Result<Vec<String>, Failure> {
    let name = path.display();
    let mut notes = Vec::new();
    write_atomically(path, |w| {
        match format {
            BookFormat::Db => write_text(book, w).map_err(|e| e.to_string())?,
            BookFormat::Ybb => {
                let l = write_ybb(book, depth, w)?;
                for (n, what) in [
                    (
                        l.counts,
                        "move counts (the format has none: readers take 1)",
                    ),
                    (l.ponders, "ponder moves"),
                    (l.comments, "comment lines"),
                    (l.plies, "positions without a ply (written as ply 0)"),
                ] {
                    if n > 0 {
                        notes.push(format!(
                            "{name}: warning: .ybb cannot hold {what}: {n} not kept"
                        ));
                    }
                }
            }
            BookFormat::Apery => {
                let l = write_apery(book, w)?;
                if l.capped_counts > 0 {
                    notes.push(format!(
                        "{name}: warning: {} counts above 65535 written as 65535",
                        l.capped_counts
                    ));
                }
                if l.key_collisions > 0 {
                    notes.push(format!("{name}: warning: {} positions share their Apery key with another (they differ only in the hand of the side not to move): their moves are under one key", l.key_collisions));
                }
                if l.ponders_depths_comments > 0 {
                    notes.push(format!("{name}: warning: book.bin cannot hold ponders, depths or comments: {} not kept", l.ponders_depths_comments));
                }
            }
        }
        Ok(())
    })?;
    Ok(notes)
}

/// A book file of any of the three formats read whole, for library users (Python): the
/// format from its content and extension, an Apery book walked from the start position.
/// Returns the book and what the reader noted; an error is the message `shogi` prints.
pub fn open_any(path: &Path) -> Result<(Book, Vec<String>), String> {
    let start = Position::startpos(shogi_core::Variant::Standard);
    let format = BookFormat::of_input(path).map_err(|f| f.message)?;
    read_book(path, format, false, std::slice::from_ref(&start)).map_err(|f| f.message)
}

/// A book read once to mark an explorer's moves (`shogi explore --book`, `shogi serve
/// --book`, `shogitk.serve(book=...)`), then looked up per position: Apery's by its key, the
/// others without the move number and flipped on a miss (YaneuraOu's IgnoreBookPly and
/// FlippedBook).
pub enum MarkBook {
    /// Apery's `book.bin` (its keys are hashes: probed directly, not walked) and its name.
    Apery(AperyBook, String),
    /// A YaneuraOu text or `.ybb` book.
    Book(Book),
}

impl std::fmt::Debug for MarkBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MarkBook::Apery(a, name) => write!(f, "{name} ({} records)", a.records.len()),
            MarkBook::Book(b) => write!(f, "book of {} positions", b.len()),
        }
    }
}

impl MarkBook {
    /// Reads the book at `path`, its format from its content and extension; an error is the
    /// message `shogi` prints.
    pub fn open(path: &Path) -> Result<MarkBook, String> {
        let format = BookFormat::of_input(path).map_err(|f| f.message)?;
        if format != BookFormat::Apery {
            let (book, _) = read_book(path, format, false, &[]).map_err(|f| f.message)?;
            return Ok(MarkBook::Book(book));
        }
        let name = path.display().to_string();
        let file = File::open(path).map_err(|e| format!("error: {name}: {e}"))?;
        let apery =
            AperyBook::read(BufReader::new(file), &name).map_err(|e| book_failure(&e).message)?;
        Ok(MarkBook::Apery(apery, name))
    }

    /// The book's moves of `pos`, in the book's order (none when it lacks the position).
    pub fn moves(&self, pos: &Position) -> Result<Vec<shogi_book::BookMove>, String> {
        match self {
            MarkBook::Apery(apery, name) => {
                apery.probe(pos).map_err(|e| format!("error: {name}: {e}"))
            }
            MarkBook::Book(book) => {
                let lookup = shogi_book::Lookup {
                    ignore_ply: true,
                    flipped: true,
                };
                Ok(book.probe(pos, lookup).map(|e| e.moves).unwrap_or_default())
            }
        }
    }
}

/// Writes `book` in the format of `path`'s extension (`.ybb`, `.bin`, else text) through a
/// temporary file renamed into place; returns what the format could not keep.
pub fn save_any(path: &Path, book: &Book) -> Result<Vec<String>, String> {
    write_book(path, BookFormat::of_output(path), book, true).map_err(|f| f.message)
}

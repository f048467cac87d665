//! Book files as the command names them: the `--from`/`--to` words of the three formats, and
//! shogi-book's reading and writing with its errors as the command reports them (exit 2).

use crate::ctx::Failure;
use shogi_book::{BookError, Entry, WriteOptions};
use shogi_core::Position;
use std::path::Path;

/// The three book formats, as `--from`/`--to` name them.
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
    /// The library's format.
    pub fn lib(self) -> shogi_book::BookFormat {
        match self {
            BookFormat::Db => shogi_book::BookFormat::Db,
            BookFormat::Ybb => shogi_book::BookFormat::Ybb,
            BookFormat::Apery => shogi_book::BookFormat::Apery,
        }
    }

    fn of(f: shogi_book::BookFormat) -> BookFormat {
        match f {
            shogi_book::BookFormat::Db => BookFormat::Db,
            shogi_book::BookFormat::Ybb => BookFormat::Ybb,
            shogi_book::BookFormat::Apery => BookFormat::Apery,
        }
    }

    /// The format of a path to write, by its extension (`.ybb`, `.bin`, else text).
    pub fn of_output(path: &Path) -> BookFormat {
        BookFormat::of(shogi_book::BookFormat::of_output(path))
    }

    /// The format of a file to read: `.ybb`'s magic, then the extension `.bin`, else text.
    pub fn of_input(path: &Path) -> Result<BookFormat, Failure> {
        shogi_book::BookFormat::of_input(path)
            .map(BookFormat::of)
            .map_err(|e| book_failure(&e))
    }
}

/// A book error as the command reports it (exit 2).
pub fn book_failure(e: &BookError) -> Failure {
    Failure::usage(format!("error: {e}"))
}

/// Starts writing a book in `format` as its positions come (see [`shogi_book::BookWriter`]).
pub fn book_writer(
    path: &Path,
    format: BookFormat,
    header_comments: &[String],
    options: &WriteOptions,
) -> Result<shogi_book::BookWriter, Failure> {
    shogi_book::BookWriter::create(path, format.lib(), header_comments, options)
        .map_err(|e| book_failure(&e))
}

/// Walks an Apery book from `roots` without reading it whole ([`shogi_book::AperyWalk`]),
/// giving each position to `each`; returns the note about the records not reached, if any.
pub fn walk_apery(
    path: &Path,
    roots: &[Position],
    mut each: impl FnMut(String, Entry) -> Result<(), Failure>,
) -> Result<Vec<String>, Failure> {
    let mut walk = shogi_book::AperyWalk::open(path, roots).map_err(|e| book_failure(&e))?;
    for item in walk.by_ref() {
        let (key, entry) = item.map_err(|e| book_failure(&e))?;
        each(key, entry)?;
    }
    Ok(walk
        .note()
        .map_err(|e| book_failure(&e))?
        .into_iter()
        .collect())
}

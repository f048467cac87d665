//! Book files: the format of a path (its content, then its extension), any of the three
//! formats read into a [`Book`], and books written through a temporary file renamed into
//! place, as they come ([`BookWriter`], in bounded memory) or whole.

use crate::apery::{AperyBook, AperyLosses, AperyWriter};
use crate::book::{Book, Entry};
use crate::error::BookError;
use crate::extsort::{TempFile, temp_dir_for};
use crate::text::{HEADER, ReadOptions, read_text, write_record};
use crate::ybb::{MAGIC, YbbLosses, YbbWriter, read_ybb};
use shogi_core::{Position, Variant};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The three book formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    pub fn of_input(path: &Path) -> Result<BookFormat, BookError> {
        let name = path.display().to_string();
        let mut head = [0u8; 16];
        let n = File::open(path)
            .and_then(|mut f| f.read(&mut head))
            .map_err(|e| BookError::io(&name, &e))?;
        Ok(if n == 16 && &head == MAGIC {
            BookFormat::Ybb
        } else if path.extension().is_some_and(|e| e == "bin") {
            BookFormat::Apery
        } else {
            BookFormat::Db
        })
    }
}

/// Reads a whole book of any format. Apery books are walked from `roots` (their keys are
/// hashes: only positions reached through book moves can be listed); the returned notes say
/// how many records were not reached, and give a text book's warnings.
pub fn read_book(
    path: &Path,
    format: BookFormat,
    sort: bool,
    roots: &[Position],
) -> Result<(Book, Vec<String>), BookError> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| BookError::io(&name, &e))?;
    let input = BufReader::with_capacity(1 << 16, file);
    match format {
        BookFormat::Db => {
            let (book, warnings) = read_text(input, &name, ReadOptions { sort })?;
            let notes = warnings.iter().map(|w| format!("{w} (warning)")).collect();
            Ok((book, notes))
        }
        BookFormat::Ybb => Ok((read_ybb(input, &name)?, Vec::new())),
        BookFormat::Apery => {
            let apery = AperyBook::read(input, &name)?;
            let (book, unreached) = apery
                .to_book(roots)
                .map_err(|e| BookError::file(&name, e))?;
            let mut notes = Vec::new();
            if unreached > 0 {
                let records = apery.records.len() as u64;
                notes.push(crate::apery_walk::unreached_note(
                    &name,
                    unreached as u64,
                    records,
                ));
            }
            Ok((book, notes))
        }
    }
}

/// A book file of any of the three formats read whole: the format from its content and
/// extension, an Apery book walked from the start position.
pub fn open_book(path: &Path) -> Result<(Book, Vec<String>), BookError> {
    let start = Position::startpos(Variant::Standard);
    read_book(
        path,
        BookFormat::of_input(path)?,
        false,
        std::slice::from_ref(&start),
    )
}

/// A book read once to mark an explorer's moves (`shogi explore --book`, `shogi serve
/// --book`, `shogitk.serve(book=...)`), then looked up position by position: Apery's by its
/// key, the others without the move number and flipped on a miss (YaneuraOu's IgnoreBookPly
/// and FlippedBook).
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
    /// Reads the book at `path`, its format from its content and extension.
    pub fn open(path: &Path) -> Result<MarkBook, BookError> {
        let format = BookFormat::of_input(path)?;
        if format != BookFormat::Apery {
            let (book, _) = read_book(path, format, false, &[])?;
            return Ok(MarkBook::Book(book));
        }
        let name = path.display().to_string();
        let file = File::open(path).map_err(|e| BookError::io(&name, &e))?;
        let apery = AperyBook::read(BufReader::new(file), &name)?;
        Ok(MarkBook::Apery(apery, name))
    }

    /// The book's moves of `pos`, in the book's order (none when it lacks the position).
    pub fn moves(&self, pos: &Position) -> Result<Vec<crate::book::BookMove>, BookError> {
        match self {
            MarkBook::Apery(apery, name) => apery.probe(pos).map_err(|e| BookError::file(name, e)),
            MarkBook::Book(book) => {
                let lookup = crate::book::Lookup {
                    ignore_ply: true,
                    flipped: true,
                };
                Ok(book.probe(pos, lookup).map(|e| e.moves).unwrap_or_default())
            }
        }
    }
}

/// The temporary path beside `path` that a write goes to before the rename.
fn temp_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or("book".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Writes `path` through a temporary file renamed into place: on any failure the file at
/// `path` (if any) is untouched and the temporary file removed. Errors name `path`.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> Result<(), String>,
) -> Result<(), BookError> {
    let tmp = temp_beside(path);
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
    result.map_err(|m| BookError::file(&path.display().to_string(), m))
}

/// How a [`BookWriter`] writes.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// `.ybb` with depths (flags 1).
    pub depth: bool,
    /// Bytes of positions a binary book's sort holds before sorted runs go to disk (a text
    /// book is written as the positions come and holds none).
    pub memory: usize,
    /// Folder of the runs (default: the output's folder).
    pub temp_dir: Option<PathBuf>,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            depth: true,
            memory: usize::MAX,
            temp_dir: None,
        }
    }
}

enum Sink {
    Db(BufWriter<File>),
    Ybb(YbbWriter),
    Apery(AperyWriter),
}

/// A book file written as its positions come: a text book line by line (the positions must
/// come in key order, as [`Book::iter`] and the builder give them), `.ybb` and `book.bin`
/// through their bounded sorts; into a temporary file renamed into place by
/// [`BookWriter::finish`] (dropped unfinished, it leaves the output as it was).
pub struct BookWriter {
    path: PathBuf,
    /// Removed when dropped: after the rename there is nothing left to remove.
    tmp: TempFile,
    format: BookFormat,
    sink: Sink,
    comments: usize,
    positions: u64,
    moves: u64,
}

impl BookWriter {
    /// Starts writing `path` in `format`; `header_comments` go after a text book's header.
    pub fn create(
        path: &Path,
        format: BookFormat,
        header_comments: &[String],
        options: &WriteOptions,
    ) -> Result<BookWriter, BookError> {
        let name = path.display().to_string();
        let dir = temp_dir_for(options.temp_dir.as_ref(), path);
        let tmp = TempFile(temp_beside(path));
        let sink = match format {
            BookFormat::Db => {
                let file = File::create(&tmp.0).map_err(|e| BookError::io(&name, &e))?;
                let mut w = BufWriter::with_capacity(1 << 16, file);
                let io = |e: std::io::Error| BookError::io(&name, &e);
                writeln!(w, "{HEADER}").map_err(io)?;
                for c in header_comments {
                    writeln!(w, "{c}").map_err(io)?;
                }
                Sink::Db(w)
            }
            BookFormat::Ybb => Sink::Ybb(YbbWriter::new(options.depth, options.memory, &dir)),
            BookFormat::Apery => Sink::Apery(AperyWriter::new(options.memory, &dir)),
        };
        Ok(BookWriter {
            path: path.to_path_buf(),
            tmp,
            format,
            sink,
            comments: header_comments.len(),
            positions: 0,
            moves: 0,
        })
    }

    /// Positions and moves written so far.
    pub fn written(&self) -> (u64, u64) {
        (self.positions, self.moves)
    }

    /// Adds a position under its key ([`crate::position_key`]).
    pub fn push(&mut self, key: &str, entry: &Entry) -> Result<(), BookError> {
        let name = self.path.display().to_string();
        self.positions += 1;
        self.moves += entry.moves.len() as u64;
        match &mut self.sink {
            Sink::Db(w) => write_record(w, key, entry).map_err(|e| BookError::io(&name, &e)),
            Sink::Ybb(w) => w.push(key, entry).map_err(|m| BookError::file(&name, m)),
            Sink::Apery(w) => w.push(key, entry).map_err(|m| BookError::file(&name, m)),
        }
    }

    /// Ends the book (`trailing_comments` after a text book's last position), renames it into
    /// place, and returns what the format could not keep, one line each.
    pub fn finish(self, trailing_comments: &[String]) -> Result<Vec<String>, BookError> {
        let name = self.path.display().to_string();
        let io = |e: std::io::Error| BookError::io(&name, &e);
        let comments = self.comments + trailing_comments.len();
        let notes = match self.sink {
            Sink::Db(mut w) => {
                for c in trailing_comments {
                    writeln!(w, "{c}").map_err(io)?;
                }
                w.into_inner().map_err(|e| io(e.into_error()))?;
                Vec::new()
            }
            Sink::Ybb(mut y) => {
                y.losses.comments += comments;
                let file = File::create(&self.tmp.0).map_err(io)?;
                let mut w = BufWriter::with_capacity(1 << 16, file);
                let losses = y.finish(&mut w).map_err(|m| BookError::file(&name, m))?;
                w.into_inner().map_err(|e| io(e.into_error()))?;
                ybb_notes(&name, &losses)
            }
            Sink::Apery(a) => {
                let file = File::create(&self.tmp.0).map_err(io)?;
                let mut w = BufWriter::with_capacity(1 << 16, file);
                let mut losses = a.finish(&mut w).map_err(|m| BookError::file(&name, m))?;
                w.into_inner().map_err(|e| io(e.into_error()))?;
                losses.ponders_depths_comments += comments;
                apery_notes(&name, &losses)
            }
        };
        std::fs::rename(&self.tmp.0, &self.path).map_err(io)?;
        Ok(notes)
    }

    /// The format written.
    pub fn format(&self) -> BookFormat {
        self.format
    }
}

/// What `.ybb` could not keep, one line each.
fn ybb_notes(name: &str, l: &YbbLosses) -> Vec<String> {
    [
        (
            l.counts,
            "move counts (the format has none: readers take 1)",
        ),
        (l.ponders, "ponder moves"),
        (l.comments, "comment lines"),
        (l.plies, "positions without a ply (written as ply 0)"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{name}: warning: .ybb cannot hold {what}: {n} not kept"))
    .collect()
}

/// What `book.bin` could not keep, one line each.
fn apery_notes(name: &str, l: &AperyLosses) -> Vec<String> {
    let mut notes = Vec::new();
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
        notes.push(format!(
            "{name}: warning: book.bin cannot hold ponders, depths or comments: {} not kept",
            l.ponders_depths_comments
        ));
    }
    notes
}

/// Writes a whole book in `format` (through a [`BookWriter`]); returns what the format could
/// not keep, one line each.
pub fn write_book(
    path: &Path,
    format: BookFormat,
    book: &Book,
    options: &WriteOptions,
) -> Result<Vec<String>, BookError> {
    let mut w = BookWriter::create(path, format, &book.header_comments, options)?;
    for (key, entry) in book.iter() {
        w.push(key, entry)?;
    }
    w.finish(&book.trailing_comments)
}

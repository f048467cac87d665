//! YaneuraOu's text book, `#YANEURAOU-DB2016 1.00`: a streaming reader that locates every
//! problem (file:line:col), the in-memory reader with the sort check, and the writer.

use crate::book::{Book, BookMove, Entry, book_position, min_ply, position_key};
use crate::error::BookError;
use shogi_core::{Move, Position};
use std::io::{BufRead, Write};

/// The header line YaneuraOu writes first.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// The warnings a [`TextReader`] lists before it only counts them.
pub const WARNINGS_KEPT: usize = 1000;

/// One position as read from a text book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextRecord {
    /// The line of its `sfen` line, from 1.
    pub line: u64,
    /// The SFEN text as written (trimmed), which is what YaneuraOu compares and sorts.
    pub sfen: String,
    /// Its key ([`position_key`]).
    pub key: String,
    /// The position's data.
    pub entry: Entry,
}

/// Reads a text book position by position, checking every line: a position's SFEN, each move
/// (legal in its position, and the ponder legal after it), the numbers. A bad line is an
/// error item; reading goes on after it (the move lines of a bad `sfen` line are skipped), so
/// a checker can report every problem; only an I/O error ends the iteration.
pub struct TextReader<R> {
    input: R,
    file: String,
    line_no: u64,
    buf: Vec<u8>,
    /// The position being read: its record and the position itself.
    current: Option<(TextRecord, Position)>,
    comments: Vec<String>,
    header: Vec<String>,
    seen_position: bool,
    /// After a bad `sfen` line: its move lines are skipped.
    skipping: bool,
    /// An error found while a finished position was being handed out.
    pending_error: Option<BookError>,
    warnings: Vec<BookError>,
    warnings_dropped: u64,
    done: bool,
}

impl<R: BufRead> TextReader<R> {
    /// A reader of `input`, named `file` in messages.
    pub fn new(input: R, file: &str) -> TextReader<R> {
        TextReader {
            input,
            file: file.to_string(),
            line_no: 0,
            buf: Vec::new(),
            current: None,
            comments: Vec::new(),
            header: Vec::new(),
            seen_position: false,
            skipping: false,
            pending_error: None,
            warnings: Vec::new(),
            warnings_dropped: 0,
            done: false,
        }
    }

    /// Problems that do not stop reading: an SFEN not in YaneuraOu's form (the engine would
    /// never find it; it is read in that form), a `none` move or a move line before the
    /// first position (YaneuraOu ignores them; so does this reader, and says so). The first
    /// [`WARNINGS_KEPT`] are kept (memory stays bounded at any size), then one more saying
    /// how many were not listed.
    pub fn warnings(&self) -> &[BookError] {
        &self.warnings
    }

    fn warn(&mut self, w: BookError) {
        if self.warnings.len() < WARNINGS_KEPT {
            self.warnings.push(w);
            return;
        }
        self.warnings_dropped += 1;
        let summary = BookError::file(
            &self.file,
            format!("{} more warnings not listed", self.warnings_dropped),
        );
        match self.warnings.get_mut(WARNINGS_KEPT) {
            Some(last) => *last = summary,
            None => self.warnings.push(summary),
        }
    }

    /// The comment lines before the first position (all of them once a position is read).
    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// Comment lines before the first position; after the end, the comments after the last.
    pub fn take_comments(&mut self) -> (Vec<String>, Vec<String>) {
        (
            std::mem::take(&mut self.header),
            std::mem::take(&mut self.comments),
        )
    }

    fn err(&self, col: Option<u64>, message: impl Into<String>) -> BookError {
        BookError::line(&self.file, self.line_no, col, message)
    }

    /// Reads the next line into `buf` (trailing whitespace trimmed); false at the end.
    fn next_line(&mut self) -> Result<Option<String>, BookError> {
        self.buf.clear();
        let n = self
            .input
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| BookError::io(&self.file, &e))?;
        if n == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        while matches!(self.buf.last(), Some(b'\n' | b'\r' | b' ' | b'\t')) {
            self.buf.pop();
        }
        match std::str::from_utf8(&self.buf) {
            Ok(s) => Ok(Some(s.to_string())),
            Err(e) => Err(self.err(
                Some(e.valid_up_to() as u64 + 1),
                "not UTF-8 text (a YaneuraOu book is ASCII)",
            )),
        }
    }

    fn start_position(&mut self, sfen: &str) -> Result<(), BookError> {
        self.skipping = true;
        let pos = book_position(sfen).map_err(|m| self.err(Some(6), m))?;
        self.skipping = false;
        let key = position_key(&pos);
        let has_ply = sfen.split_ascii_whitespace().count() >= 4;
        let ply = has_ply.then(|| pos.move_number());
        let normal = match ply {
            Some(p) => format!("{key} {p}"),
            None => key.clone(),
        };
        if normal != sfen {
            self.warn(self.err(
                Some(6),
                format!("SFEN not in YaneuraOu's form (the engine would never find it): read as `{normal}`"),
            ));
        }
        let entry = Entry {
            ply,
            moves: Vec::new(),
            comments: std::mem::take(&mut self.comments),
        };
        let record = TextRecord {
            line: self.line_no,
            sfen: sfen.to_string(),
            key,
            entry,
        };
        self.current = Some((record, pos));
        self.seen_position = true;
        Ok(())
    }

    fn move_line(&mut self, text: &str) -> Result<(), BookError> {
        let fields = fields(text);
        if self.skipping {
            return Ok(());
        }
        let Some((rec, pos)) = self.current.as_ref() else {
            self.warn(self.err(
                None,
                "a move line before the first position: ignored (as YaneuraOu does)",
            ));
            return Ok(());
        };
        let (col, word) = fields[0];
        let Some(mv) = parse_move(word).map_err(|m| self.err(Some(col), m))? else {
            self.warn(self.err(Some(col), format!("move `{word}` is no move: line ignored")));
            return Ok(());
        };
        pos.check_move(mv).map_err(|e| {
            self.err(
                Some(col),
                format!("illegal move {word} in `sfen {}`: {e}", rec.sfen),
            )
        })?;
        let Some(&(pcol, pword)) = fields.get(1) else {
            return Err(self.err(
                Some(text.len() as u64 + 1),
                "expected a ponder move (or `none`) after the move",
            ));
        };
        let ponder = parse_move(pword).map_err(|m| self.err(Some(pcol), m))?;
        if let Some(p) = ponder {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            after.check_move(p).map_err(|e| {
                self.err(
                    Some(pcol),
                    format!("illegal ponder {pword} after {word}: {e}"),
                )
            })?;
        }
        let mut m = BookMove::new(mv);
        m.ponder = ponder;
        if let Some(&(c, w)) = fields.get(2) {
            m.value = w
                .parse()
                .map_err(|_| self.err(Some(c), format!("value `{w}` is not an integer")))?;
        }
        if let Some(&(c, w)) = fields.get(3) {
            m.depth = w
                .parse()
                .map_err(|_| self.err(Some(c), format!("depth `{w}` is not an integer")))?;
        }
        if let Some(&(c, w)) = fields.get(4) {
            m.count = w.parse().map_err(|_| {
                self.err(
                    Some(c),
                    format!("count `{w}` is not a non-negative integer"),
                )
            })?;
        }
        if let Some(&(c, w)) = fields.get(5) {
            return Err(self.err(
                Some(c),
                format!("unexpected `{w}` after move, ponder, value, depth and count"),
            ));
        }
        if let Some((rec, _)) = self.current.as_mut() {
            rec.entry.moves.push(m);
        }
        Ok(())
    }
}

impl<R: BufRead> Iterator for TextReader<R> {
    type Item = Result<TextRecord, BookError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.pending_error.take() {
            return Some(Err(e));
        }
        if self.done {
            return None;
        }
        loop {
            let line = match self.next_line() {
                Ok(Some(l)) => l,
                Ok(None) => {
                    self.done = true;
                    return self.current.take().map(|(r, _)| Ok(r));
                }
                Err(e) => {
                    self.done = e.location == crate::error::Location::File;
                    return Some(Err(e));
                }
            };
            let step = if line.is_empty() {
                Ok(None)
            } else if line.starts_with('#') || line.starts_with("//") {
                if !(self.line_no == 1 && line.starts_with(HEADER)) {
                    if self.seen_position {
                        self.comments.push(line);
                    } else {
                        self.header.push(line);
                    }
                }
                Ok(None)
            } else if let Some(sfen) = line.strip_prefix("sfen ") {
                let done = self.current.take().map(|(r, _)| r);
                match (self.start_position(sfen.trim_start()), done) {
                    (Ok(()), done) => Ok(done),
                    (Err(e), Some(done)) => {
                        self.pending_error = Some(e);
                        Ok(Some(done))
                    }
                    (Err(e), None) => Err(e),
                }
            } else {
                self.move_line(&line).map(|()| None)
            };
            match step {
                Ok(Some(r)) => return Some(Ok(r)),
                Ok(None) => {}
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// The whitespace-separated fields of a line with their columns (from 1).
fn fields(text: &str) -> Vec<(u64, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c == ' ' || c == '\t', start) {
            (true, Some(s)) => {
                out.push((s as u64 + 1, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// A move field: a USI move, or `None` for YaneuraOu's `none`, `None` and `resign`.
fn parse_move(word: &str) -> Result<Option<Move>, String> {
    if matches!(word, "none" | "None" | "resign") {
        return Ok(None);
    }
    Move::from_usi(word)
        .map(Some)
        .map_err(|e| format!("`{word}` is not a USI move: {}", e.message))
}

/// How [`read_text`] treats a book that is not in YaneuraOu's order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Accept positions out of order and the same position more than once (sorted in memory;
    /// a repeated position keeps the entry with the smaller ply, as `write_book` does).
    /// Otherwise either is an error naming the position.
    pub sort: bool,
}

/// Reads a whole text book into memory, with its warnings.
pub fn read_text<R: BufRead>(
    input: R,
    file: &str,
    options: ReadOptions,
) -> Result<(Book, Vec<BookError>), BookError> {
    let mut reader = TextReader::new(input, file);
    let mut book = Book::new();
    let mut last: Option<(String, u64)> = None;
    let mut repeats = Vec::new();
    for rec in reader.by_ref() {
        let rec = rec?;
        if !options.sort {
            check_order(file, last.as_ref(), &rec)?;
            last = Some((rec.sfen.clone(), rec.line));
        }
        let TextRecord {
            key,
            mut entry,
            line,
            ..
        } = rec;
        if let Some(old) = book.get(&key) {
            if !options.sort {
                return Err(BookError::line(
                    file,
                    line,
                    Some(6),
                    format!("repeated position `{key}`"),
                ));
            }
            repeats.push(BookError::line(
                file,
                line,
                Some(6),
                format!("repeated position `{key}`: the entry with the smaller ply is kept (as YaneuraOu's write_book keeps it)"),
            ));
            if old.ply.is_some() && min_ply(old.ply, entry.ply) == old.ply {
                let mut kept = old.clone();
                kept.comments.append(&mut entry.comments);
                entry = kept;
            }
        }
        book.insert_key(key, entry);
    }
    let (header, trailing) = reader.take_comments();
    book.header_comments = header;
    book.trailing_comments = trailing;
    let mut warnings = reader.warnings;
    warnings.extend(repeats);
    Ok((book, warnings))
}

/// The sort check of one position against the one before it: YaneuraOu's on-disk search
/// compares the SFEN texts in byte order.
pub(crate) fn check_order(
    file: &str,
    last: Option<&(String, u64)>,
    rec: &TextRecord,
) -> Result<(), BookError> {
    if let Some((prev, prev_line)) = last {
        if prev.as_str() == rec.sfen {
            return Err(BookError::line(
                file,
                rec.line,
                Some(6),
                format!(
                    "duplicate position `sfen {}` (also at line {prev_line})",
                    rec.sfen
                ),
            ));
        }
        if prev.as_str() > rec.sfen.as_str() {
            return Err(BookError::line(
                file,
                rec.line,
                Some(6),
                format!(
                    "book not sorted: `sfen {}` comes after `sfen {prev}` (line {prev_line}); YaneuraOu's on-disk search needs byte order (sort it)",
                    rec.sfen
                ),
            ));
        }
    }
    Ok(())
}

/// Writes a book in YaneuraOu's text format: the header, then each position in key order with
/// its comments, its `sfen` line and its moves in `write_book`'s order, every move line with
/// all five fields.
pub fn write_text<W: Write>(book: &Book, out: &mut W) -> std::io::Result<()> {
    writeln!(out, "{HEADER}")?;
    for c in &book.header_comments {
        writeln!(out, "{c}")?;
    }
    for (key, entry) in book.iter() {
        write_record(out, key, entry)?;
    }
    for c in &book.trailing_comments {
        writeln!(out, "{c}")?;
    }
    Ok(())
}

/// Writes one position (comments, `sfen` line, moves sorted as `write_book` sorts them).
pub fn write_record<W: Write>(out: &mut W, key: &str, entry: &Entry) -> std::io::Result<()> {
    for c in &entry.comments {
        writeln!(out, "{c}")?;
    }
    match entry.ply {
        Some(p) => writeln!(out, "sfen {key} {p}")?,
        None => writeln!(out, "sfen {key}")?,
    }
    let mut sorted = entry.clone();
    sorted.sort_moves();
    for m in &sorted.moves {
        let ponder = m.ponder.map(|p| p.usi());
        writeln!(
            out,
            "{} {} {} {} {}",
            m.mv.usi().as_str(),
            ponder.as_ref().map_or("none", |p| p.as_str()),
            m.value,
            m.depth,
            m.count
        )?;
    }
    Ok(())
}

/// Finds one position in a sorted text book on disk by binary search over byte offsets, as
/// YaneuraOu's `BookOnTheFly` does, reading a few kilobytes instead of the whole book. The
/// book must be sorted (see [`read_text`] and `shogi book check`): in an unsorted one a
/// position may be missed. Returns the record with the key `key` ([`position_key`]), if any.
pub fn find_in_text_file(
    path: &std::path::Path,
    key: &str,
) -> Result<Option<TextRecord>, BookError> {
    use std::io::{Read, Seek, SeekFrom};
    let name = path.display().to_string();
    let io = |e: std::io::Error| BookError::io(&name, &e);
    let mut file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    // The first `sfen` line starting at or after `at`: its offset and key.
    let mut sfen_after = |at: u64| -> Result<Option<(u64, String)>, BookError> {
        file.seek(SeekFrom::Start(at)).map_err(io)?;
        let mut r = std::io::BufReader::with_capacity(8192, (&mut file).take(len - at));
        let mut pos = at;
        let mut line = Vec::new();
        if at > 0 {
            // Past the end of the line `at` falls in (a line starting exactly at `at` is
            // skipped too: the final scan below goes on past such a line, so nothing is missed).
            pos += r.read_until(b'\n', &mut line).map_err(io)? as u64;
        }
        loop {
            line.clear();
            let n = r.read_until(b'\n', &mut line).map_err(io)?;
            if n == 0 {
                return Ok(None);
            }
            if let Some(rest) = line.strip_prefix(b"sfen ") {
                let text = String::from_utf8_lossy(rest);
                let fields: Vec<&str> = text.split_ascii_whitespace().collect();
                return Ok(Some((pos, fields[..fields.len().min(3)].join(" "))));
            }
            pos += n as u64;
        }
    };
    let (mut lo, mut hi) = (0u64, len);
    while hi - lo > 4096 {
        let mid = lo + (hi - lo) / 2;
        match sfen_after(mid)? {
            Some((s, k)) if s < hi && k.as_str() < key => lo = s + 1,
            _ => hi = mid,
        }
    }
    let mut at = lo;
    while let Some((s, k)) = sfen_after(at)? {
        match k.as_str().cmp(key) {
            std::cmp::Ordering::Less => at = s + 1,
            std::cmp::Ordering::Greater => return Ok(None),
            std::cmp::Ordering::Equal => {
                let mut f = std::fs::File::open(path).map_err(io)?;
                f.seek(SeekFrom::Start(s)).map_err(io)?;
                let mut reader = TextReader::new(std::io::BufReader::new(f), &name);
                return reader.next().transpose();
            }
        }
    }
    Ok(None)
}

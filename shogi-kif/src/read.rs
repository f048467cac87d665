//! Reading: [`ReadOptions`] and the one reader, [`Reader`], over any [`BufRead`], yielding
//! [`ReadRecord`]s one at a time; [`read_str`], [`read_bytes`] and [`read_path`] for one record.

use crate::encoding::{Encoding, decode_vec};
use crate::error::{Diagnostic, ErrorKind, Location, ReadError, Severity};
use crate::format::Format;
use crate::main_line::MainLine;
use crate::model::Record;
use crate::raw::Partial;
use crate::replay::{self, Replayed};
use crate::text::{self, TextLine};
use crate::{csa, jkf, kif, usi, validate};
use std::io::{BufRead, BufReader};
use std::path::Path;
use window::{Span, Window};

mod unread;
mod window;

/// How much of the input is looked at to choose the encoding and the format.
pub(crate) const SAMPLE: usize = 64 * 1024;
/// The largest game (and the largest KIF, KI2 or JKF input) read.
pub(crate) const MAX_TEXT: usize = crate::limits::MAX_RECORD_BYTES;

/// Options for reading.
#[derive(Clone, Copy, Debug)]
pub struct ReadOptions {
    /// The format, when known; otherwise detected from the content.
    pub format: Option<Format>,
    /// A hint (usually from the file extension) used only to break ties in detection.
    pub hint: Option<Format>,
    /// Force an encoding instead of detecting it.
    pub encoding: Option<Encoding>,
    /// Check each game beyond the legality of its moves (repetition, declarations, the
    /// stated ending: see [`crate::validate`]) in the same replay, into
    /// [`ReadRecord::diagnostics`]. On by default.
    pub validate: bool,
    /// Keep the moves in [`ReadRecord::record`] (on by default). Off, the record of a game
    /// replayed for validation (with [`ReadOptions::validate`] and no syntax error) has its
    /// header, start, start comments and the main line's ending, but no main-line moves
    /// (nor the variations that hang on them), also when a move cannot be played; every
    /// check is made all the same, and [`ReadRecord::error`], [`ReadRecord::diagnostics`]
    /// and [`ReadRecord::main`] are what they are with the moves. For a caller that wants
    /// the verdict only (`shogi check`): the move list is a large part of the work of
    /// reading a game. The queries that read the record's moves
    /// ([`MainLine::is_complete`], [`Record::position_at`], …) then see none.
    pub moves: bool,
    /// How many bytes are decoded at a time (1 MiB by default). An input no larger is read
    /// whole; a larger CSA, USI or SFEN input is read a chunk at a time, so memory does not
    /// grow with the number of games. Games are never cut, whatever the size.
    pub chunk_size: usize,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions {
            format: None,
            hint: None,
            encoding: None,
            validate: true,
            moves: true,
            chunk_size: 1 << 20,
        }
    }
}

impl ReadOptions {
    /// The default options with a format hint.
    pub fn with_hint(hint: Option<Format>) -> ReadOptions {
        ReadOptions {
            hint,
            ..ReadOptions::default()
        }
    }

    /// The default options with the format fixed.
    pub fn with_format(format: Format) -> ReadOptions {
        ReadOptions {
            format: Some(format),
            ..ReadOptions::default()
        }
    }
}

/// One game of an input, with everything that was read of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadRecord {
    /// The game's number within the input, from 1.
    pub index: usize,
    /// The line the game starts on (1-based).
    pub line: u32,
    /// The record as far as it could be read. After a move that cannot be played it holds
    /// the header, the start and the moves before that one; after a KIF, KI2 or CSA line that
    /// does not parse, what the lines before it give; after an error in the start position,
    /// the header; after other errors (JSON, USI syntax, encoding), nothing.
    pub record: Record,
    /// The first error, located; `None` when the game was read to its end.
    pub error: Option<ReadError>,
    /// The reader's warnings and, with [`ReadOptions::validate`], what
    /// [`crate::validate`] says of the game (found in the same replay). Empty of the
    /// validation checks when `error` is set.
    pub diagnostics: Vec<Diagnostic>,
    /// What the replay learned of the main line (positions' keys, the final position, the
    /// first four-fold repetition), with [`ReadOptions::validate`] and no `error`; `None`
    /// otherwise.
    pub main: Option<MainLine>,
}

impl ReadRecord {
    /// A game read to its end with no diagnostic of severity error.
    pub fn is_valid(&self) -> bool {
        self.error.is_none()
            && !self
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error)
    }

    /// The record, or the error that stopped it.
    pub fn into_result(self) -> Result<Record, ReadError> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.record),
        }
    }

    fn failed(index: usize, line: u32, error: ReadError) -> ReadRecord {
        ReadRecord {
            index,
            line,
            record: Record::default(),
            error: Some(error),
            diagnostics: Vec::new(),
            main: None,
        }
    }
}

/// The games of an input, read one at a time from any [`BufRead`] (a `&[u8]` for input in
/// memory, a [`BufReader`] over a file or standard input).
///
/// The encoding and the format are chosen when it is made (see [`crate::decode`] and
/// [`Format::detect`]) unless the options fix them. CSA games separated by `/`, and USI or
/// SFEN lines, are split into games as they are read, a chunk of the input at a time, so
/// memory does not grow with the number of games; KIF, KI2 and JKF hold one game and are
/// read whole. Every input is read within the [`crate::limits`]. Line numbers and byte offsets in errors count from the start
/// of the input, in the decoded (UTF-8) text; LF, CRLF and a bare CR each end a line, in
/// every format.
///
/// ```
/// use shogi_kif::{ReadOptions, Reader};
/// let usi = "position startpos moves 7g7f\nposition startpos moves 2g2f 8c8d\n";
/// let games = Reader::new(usi.as_bytes(), ReadOptions::default())?;
/// let plies: Vec<usize> = games.map(|g| g.record.main_line().count()).collect();
/// assert_eq!(plies, [1, 2]);
/// # Ok::<(), shogi_kif::ReadError>(())
/// ```
pub struct Reader<R> {
    input: R,
    format: Format,
    validate: bool,
    moves: bool,
    window: Window,
    /// Games handed out so far.
    count: usize,
    /// The line the game being read (or the last one handed out) starts on.
    line: u32,
    done: bool,
}

impl Reader<BufReader<std::fs::File>> {
    /// Opens a file; the options' hint defaults to the one its extension gives.
    pub fn open(
        path: impl AsRef<Path>,
        opts: ReadOptions,
    ) -> Result<Reader<BufReader<std::fs::File>>, ReadError> {
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(io_error)?;
        let opts = ReadOptions {
            hint: opts.hint.or_else(|| Format::from_path(path)),
            ..opts
        };
        Reader::new(BufReader::with_capacity(1 << 16, file), opts)
    }
}

impl Reader<std::io::Cursor<Vec<u8>>> {
    /// [`Reader::new`] over bytes the caller owns and hands over: the games are the same,
    /// and an input no larger than one chunk is not copied once more.
    pub fn from_vec(
        bytes: Vec<u8>,
        opts: ReadOptions,
    ) -> Result<Reader<std::io::Cursor<Vec<u8>>>, ReadError> {
        if bytes.len() >= read_limit(opts) {
            return Reader::new(std::io::Cursor::new(bytes), opts);
        }
        Reader::with_head(std::io::Cursor::new(Vec::new()), bytes, opts)
    }
}

/// How many bytes [`Reader::new`] reads before it looks at them.
fn read_limit(opts: ReadOptions) -> usize {
    opts.chunk_size.clamp(1, MAX_TEXT).max(SAMPLE)
}

impl<R: BufRead> Reader<R> {
    /// Starts reading: chooses the encoding and the format from the start of the input.
    ///
    /// Fails on an I/O error, on input that is not text in a supported encoding (when it is
    /// read whole), on an empty input and on a format that is not recognised.
    pub fn new(mut input: R, opts: ReadOptions) -> Result<Reader<R>, ReadError> {
        let head = read_head(&mut input, read_limit(opts))?;
        Reader::with_head(input, head, opts)
    }

    /// [`Reader::new`] once `head`, the start of the input (all of it when shorter than
    /// [`read_limit`]), has been read from it.
    fn with_head(
        mut input: R,
        mut head: Vec<u8>,
        opts: ReadOptions,
    ) -> Result<Reader<R>, ReadError> {
        let chunk = opts.chunk_size.clamp(1, MAX_TEXT);
        let limit = read_limit(opts);
        // LF, CRLF and a bare CR are all line ends: bare CRs become LFs before anything
        // looks at lines (a CR that ends the head waits for the byte after it).
        let complete = head.len() < limit;
        text::bare_cr_to_lf(&mut head, 0, complete);
        let (format, window) = if head.len() < limit {
            whole_window(head, opts)?
        } else {
            Window::streaming(&mut input, head, opts, chunk)?
        };
        Ok(Reader {
            input,
            format,
            validate: opts.validate,
            moves: opts.moves,
            window,
            count: 0,
            line: 1,
            done: false,
        })
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The encoding the input is decoded with (when the start of a large input is ASCII,
    /// UTF-8 until a line that is not ASCII shows otherwise).
    pub fn encoding(&self) -> Encoding {
        self.window.encoding()
    }

    /// The line the game being read starts on (1 before the first; while a CSA, USI or SFEN
    /// input is searched for its next game, the line reached). After a panic inside
    /// [`Iterator::next`] (a bug), this says where the record that failed starts.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// A game made of the text of `span`.
    fn game(&mut self, span: Span) -> ReadRecord {
        self.count += 1;
        self.line = span.line;
        let index = self.count;
        if let Some(e) = span.error {
            return ReadRecord::failed(index, span.line, e);
        }
        let text = self.window.text(&span);
        let offset = self.window.offset(&span);
        let parsed = match self.format {
            Format::Kif | Format::Ki2 => kif::parse(text),
            Format::Jkf => jkf::parse(text).map_err(Box::from),
            Format::Csa => csa::parse(text, span.line),
            Format::Usi | Format::Sfen => usi::parse_line(
                text,
                TextLine {
                    no: span.line,
                    start: 0,
                    text,
                },
            )
            .map_err(Box::from),
        };
        // After a syntax error, what was read before it is replayed too.
        let (raw, syntax_error) = match parsed.map_err(|p| *p) {
            Ok(raw) => (raw, None),
            Err(Partial {
                error,
                read: Some(raw),
            }) => (raw, Some(error)),
            Err(Partial { error, read: None }) => {
                return ReadRecord::failed(index, span.line, shift(error, offset));
            }
        };
        let facts = self.validate && syntax_error.is_none();
        let Replayed {
            mut record,
            main,
            error,
            played,
        } = replay::replay(raw, text, facts, self.moves);
        let error = syntax_error.or(error);
        if error.is_none()
            && played.is_empty()
            && !unread::has_moves(&record.moves)
            && matches!(self.format, Format::Kif | Format::Ki2 | Format::Csa)
        {
            record
                .diagnostics
                .extend(unread::unread_moves(text, span.line));
        }
        let (diagnostics, main) = match (&error, main) {
            (None, Some(mut main)) if self.moves => (
                validate::diagnose(&record, &record.moves.moves, &mut main),
                Some(main),
            ),
            (None, Some(mut main)) => (validate::diagnose(&record, &played, &mut main), Some(main)),
            _ => (record.diagnostics.clone(), None),
        };
        ReadRecord {
            index,
            line: span.line,
            record,
            error: error.map(|e| shift(e, offset)),
            diagnostics,
            main,
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = ReadRecord;

    fn next(&mut self) -> Option<ReadRecord> {
        if self.done {
            return None;
        }
        let span = if self.format.is_multi_game() {
            // Until the next game is found: the line the reader has reached.
            self.line = self.window.line();
            self.window.next_game(&mut self.input, self.format)
        } else {
            self.done = true;
            Some(self.window.whole())
        };
        match span {
            Some(span) => Some(self.game(span)),
            None => {
                self.done = true;
                None
            }
        }
    }
}

/// Up to `limit` bytes from the start of the input (in as few allocations as it takes).
fn read_head<R: BufRead>(input: &mut R, limit: usize) -> Result<Vec<u8>, ReadError> {
    let mut head = Vec::new();
    while head.len() < limit {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(e)),
        };
        if buf.is_empty() {
            break;
        }
        let n = buf.len().min(limit - head.len());
        head.extend_from_slice(&buf[..n]);
        input.consume(n);
    }
    Ok(head)
}

/// The format and the window of an input read whole (`bytes` is all of it).
fn whole_window(bytes: Vec<u8>, opts: ReadOptions) -> Result<(Format, Window), ReadError> {
    let (text, encoding) = decode_vec(bytes, opts.encoding)?;
    let format = choose_format(&text, opts, true)?;
    window::check_lines(text.as_bytes(), format)?;
    Ok((format, Window::whole_text(text, encoding)))
}

/// The format given, or the one the text shows; `complete` when the text is all the input.
pub(crate) fn choose_format(
    text: &str,
    opts: ReadOptions,
    complete: bool,
) -> Result<Format, ReadError> {
    match opts.format.or_else(|| Format::detect(text, opts.hint)) {
        Some(f) => Ok(f),
        None if complete && text::trim(text).is_empty() => {
            Err(ReadError::new(ErrorKind::Truncated, "the input is empty"))
        }
        None => Err(ReadError::new(
            ErrorKind::UnknownFormat,
            "the format of the input is not recognised",
        )),
    }
}

/// Moves an error's byte span from the game's text to the whole input's.
fn shift(mut e: ReadError, offset: usize) -> ReadError {
    if e.location.line > 0 {
        e.location.start += offset;
        e.location.end += offset;
    }
    e
}

pub(crate) fn io_error(e: std::io::Error) -> ReadError {
    ReadError::new(ErrorKind::Io, format!("read error: {e}"))
}

/// An error at the start of line `line`, `offset` bytes into the decoded input.
pub(crate) fn error_at_line(
    kind: ErrorKind,
    message: String,
    line: u32,
    offset: usize,
) -> ReadError {
    let mut e = ReadError::new(kind, message);
    e.location = Location {
        line,
        column: 1,
        start: offset,
        end: offset,
    };
    e
}

/// The first game of `reader`, with a note when more follow.
fn first_record<R: BufRead>(mut reader: Reader<R>) -> Result<Record, ReadError> {
    let game = reader
        .next()
        .ok_or_else(|| ReadError::new(ErrorKind::Truncated, "the input holds no record"))?;
    let mut record = game.into_result()?;
    if reader.format().is_multi_game() && reader.next().is_some() {
        record.diagnostics.push(Diagnostic {
            severity: Severity::Note,
            line: 0,
            column: 0,
            message: "the input holds more records; only the first was read".into(),
            line_text: String::new(),
        });
    }
    Ok(record)
}

/// Reads the first record of `bytes` (any supported encoding).
///
/// A multi-game input (CSA with `/`, several USI lines) gives its first record, with a note
/// in [`Record::diagnostics`]; use [`Reader`] to read them all. The options'
/// [`ReadOptions::validate`] does not apply: call [`crate::validate`] on the record.
pub fn read_bytes(bytes: &[u8], opts: ReadOptions) -> Result<Record, ReadError> {
    let opts = ReadOptions {
        validate: false,
        ..opts
    };
    first_record(Reader::new(bytes, opts)?)
}

/// Reads the first record of decoded text (see [`read_bytes`]).
///
/// ```
/// use shogi_kif::{read_str, ReadOptions};
/// let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
/// let record = read_str(kif, ReadOptions::default())?;
/// assert_eq!(record.usi_moves(), ["7g7f", "3c3d"]);
/// # Ok::<(), shogi_kif::ReadError>(())
/// ```
pub fn read_str(text: &str, opts: ReadOptions) -> Result<Record, ReadError> {
    read_bytes(
        text.as_bytes(),
        ReadOptions {
            encoding: Some(Encoding::Utf8),
            ..opts
        },
    )
}

/// Reads the first record of a file (see [`read_bytes`]); the options' hint defaults to
/// the one the extension gives.
pub fn read_path(path: impl AsRef<Path>, opts: ReadOptions) -> Result<Record, ReadError> {
    let opts = ReadOptions {
        validate: false,
        ..opts
    };
    first_record(Reader::open(path, opts)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Read = Result<(Format, Encoding, Vec<ReadRecord>), ReadError>;

    fn read<R: BufRead>(reader: Result<Reader<R>, ReadError>) -> Read {
        reader.map(|r| (r.format(), r.encoding(), r.collect()))
    }

    #[test]
    fn from_vec_reads_what_new_reads() {
        let kif = "手合割：平手\n   1 ７六歩(77)\r   2 ３四歩(33)\r\n   3 投了\n";
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(kif);
        let csa = "'first\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nPI\n+\n+2726FU\n-3344FU\n+2625FU\n";
        // Larger than the start read before anything is looked at.
        let many = csa.repeat(SAMPLE / csa.len() + 2);
        let inputs: [&[u8]; 7] = [
            kif.as_bytes(),
            &sjis,
            csa.as_bytes(),
            many.as_bytes(),
            &many.as_bytes()[..SAMPLE],
            b"",
            b"\xff\xfe\x00junk\r",
        ];
        for bytes in inputs {
            for chunk_size in [1, 1000, SAMPLE, 1 << 20] {
                let opts = ReadOptions {
                    chunk_size,
                    ..ReadOptions::default()
                };
                let want = read(Reader::new(bytes, opts));
                let ours = read(Reader::from_vec(bytes.to_vec(), opts));
                assert_eq!(ours, want, "{chunk_size} {}", bytes.len());
            }
        }
    }
}

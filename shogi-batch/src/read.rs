//! Reading one input game by game: the one place that talks to shogi-kif's reader.

use crate::archive::members::{Bytes, read_members};
use crate::archive::{open_compressed, stdin_decoded};
use crate::input::{Input, io_reason};
use crate::isolate::isolated;
use shogi_core::Position;
use shogi_kif::{
    Diagnostic, Encoding, ErrorKind, Format, MainLine, ReadError, ReadOptions, Reader, Record,
    Severity,
};
use std::borrow::Cow;
use std::io::{BufRead, Read};

/// One game of an input, read and replayed, with what the reader said about it.
#[derive(Clone, Debug)]
pub struct InputRecord {
    /// The game's number within its input, from 1.
    pub index: u32,
    /// The first line of the game in the input (0 when the reader does not say).
    pub line: u32,
    /// The input's format, once recognised.
    pub format: Option<Format>,
    /// The input's encoding, once chosen.
    pub encoding: Option<Encoding>,
    /// The record: the whole game, or `None` when it could not be read.
    pub record: Option<Record>,
    /// Why the game could not be read (the first error), if it could not.
    pub error: Option<ReadError>,
    /// Warnings and notes of the reader and of validation (repetition, contradicted endings).
    pub diagnostics: Vec<Diagnostic>,
    /// What the reader's replay learned of the main line (see [`shogi_kif::ReadRecord::main`]):
    /// with it, [`InputRecord::main_line`] does not play the moves again.
    pub main: Option<MainLine>,
    /// Ratings the reader found outside the record model. Always `None` now: the CSA reader
    /// keeps Floodgate's `'black_rate:`/`'white_rate:` lines as header entries, from which
    /// the row takes them. Kept for callers that read the field.
    pub ratings: [Option<f64>; 2],
    /// When reading or handling this game panicked (a bug): the panic's message and place,
    /// for a note; `error` then says [`INTERNAL_ERROR`].
    pub panic: Option<String>,
}

/// The error message of a game whose reading or handling panicked.
pub const INTERNAL_ERROR: &str = "internal error while reading this record (please report)";

impl InputRecord {
    /// A game that could not be read at all.
    pub fn failed(index: u32, error: ReadError) -> InputRecord {
        InputRecord {
            index,
            line: 0,
            format: None,
            encoding: None,
            record: None,
            error: Some(error),
            diagnostics: Vec::new(),
            main: None,
            ratings: [None, None],
            panic: None,
        }
    }

    /// Game 1 of an input that is a record made in memory, not read from text (a match's
    /// game): the validation a record read with [`Reading::validate`] gets is its
    /// diagnostics; `format` is the format it stands for.
    pub fn made(record: Record, format: Option<shogi_kif::Format>) -> InputRecord {
        InputRecord {
            index: 1,
            line: 0,
            format,
            encoding: None,
            diagnostics: shogi_kif::validate(&record),
            record: Some(record),
            error: None,
            main: None,
            ratings: [None, None],
            panic: None,
        }
    }

    /// A game whose reading or handling panicked with `message`; `line` is where its record
    /// starts (0 when not known), and the error is located there.
    pub fn panicked(index: u32, line: u32, message: String) -> InputRecord {
        let mut error = ReadError::new(ErrorKind::Syntax, INTERNAL_ERROR);
        if line > 0 {
            error.location.line = line;
            error.location.column = 1;
        }
        let mut g = InputRecord::failed(index, error);
        g.line = line;
        g.panic = Some(message);
        g
    }

    /// The record's main line replayed: what the reader kept ([`InputRecord::main`]), else
    /// the record's moves played again ([`MainLine::replay`]); `None` without a record.
    pub fn main_line(&self) -> Option<Cow<'_, MainLine>> {
        match (&self.record, &self.main) {
            (Some(_), Some(main)) => Some(Cow::Borrowed(main)),
            (Some(record), None) => Some(Cow::Owned(MainLine::replay(record))),
            (None, _) => None,
        }
    }

    /// Whether the record's main line passes through `want` ([`MainLine::reached`]).
    pub fn reached(&self, want: &Position) -> bool {
        match (&self.record, self.main_line()) {
            (Some(record), Some(main)) => main.reached(record, want),
            _ => false,
        }
    }

    /// Whether the game was read without an error (warnings allowed).
    pub fn is_valid(&self) -> bool {
        self.error.is_none()
            && self.record.is_some()
            && !self
                .diagnostics
                .iter()
                .any(|d| d.severity == shogi_kif::Severity::Error)
    }
}

/// The largest input read whole (records are small; this bounds memory on junk).
pub const MAX_INPUT: u64 = 256 * 1024 * 1024;
/// Inputs at least this large, and standard input, are read game by game.
pub const STREAM_FROM: u64 = 32 * 1024 * 1024;

/// A file whose size is not known (0: found in a folder walk, whose size is not asked for)
/// is read whole when it is no larger than this; a larger one has its size asked for.
pub const UNSIZED_WHOLE: u64 = 128 * 1024;

/// Whether an input is read game by game from a stream (standard input, large files,
/// compressed files) rather than whole. A file of unknown size (0) is not, unless it turns
/// out to be large when read.
pub fn is_streamed(input: &Input) -> bool {
    input.is_stdin() || input.codec.is_some() || input.size >= STREAM_FROM
}

/// The standard input a batch shares between its workers (the one that reads `-` locks it).
pub type Stdin<'a> = std::sync::Mutex<&'a mut (dyn BufRead + Send)>;

/// Something that lends a reader for `-` to one worker at a time (a [`Stdin`]).
pub trait SharedStdin: Sync {
    /// Calls `f` with the reader, exclusively.
    fn with_reader(&self, f: &mut dyn FnMut(&mut dyn BufRead));
}

impl SharedStdin for Stdin<'_> {
    fn with_reader(&self, f: &mut dyn FnMut(&mut dyn BufRead)) {
        let mut guard = self.lock().unwrap_or_else(|e| e.into_inner());
        let reader: &mut (dyn BufRead + Send) = &mut **guard;
        f(reader);
    }
}

/// How inputs are read.
#[derive(Clone, Copy)]
pub struct Reading<'a> {
    /// Format, hint and encoding (the hint is taken from each file's extension when unset).
    pub options: ReadOptions,
    /// Validate each game (repetition, contradicted endings: [`shogi_kif::validate`]) in the
    /// same replay; without it `diagnostics` holds the reader's remarks only.
    pub validate: bool,
    /// Where `-` is read from (`None`: the process's standard input).
    pub stdin: Option<&'a (dyn SharedStdin + 'a)>,
}

impl Default for Reading<'_> {
    fn default() -> Self {
        Reading {
            options: ReadOptions::default(),
            validate: true,
            stdin: None,
        }
    }
}

impl std::fmt::Debug for Reading<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reading")
            .field("options", &self.options)
            .field("validate", &self.validate)
            .field("stdin", &self.stdin.map(|_| "given"))
            .finish()
    }
}

/// Reads every game of `input`, handing each to `each` in order.
///
/// A game that cannot be read is handed over with its error (and the record as far as it
/// was read), and reading goes on with the next game where the format allows it (CSA, USI,
/// SFEN). An empty input is one game with an error. `Err` only when the input cannot be
/// opened at all (the reason, e.g. `permission denied`).
pub fn read_input(
    input: &Input,
    reading: &Reading<'_>,
    each: &mut dyn FnMut(InputRecord),
) -> Result<(), String> {
    read_input_within(input, reading, false, each).map(|_| ())
}

/// Whether [`read_input_within`] read the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fits {
    /// Every game was handed over.
    Read,
    /// Nothing was: the input is a file of unknown size larger than [`UNSIZED_WHOLE`], and
    /// the caller asked for small inputs only (it then learns the size and reads it as one
    /// of that size).
    Larger,
}

/// [`read_input`]; with `small_only`, a file of unknown size larger than [`UNSIZED_WHOLE`]
/// is left unread ([`Fits::Larger`]).
pub(crate) fn read_input_within(
    input: &Input,
    reading: &Reading<'_>,
    small_only: bool,
    each: &mut dyn FnMut(InputRecord),
) -> Result<Fits, String> {
    let opts = options_for(input, reading);
    if input.member.is_some() {
        // One member by itself: the archive is decoded up to it.
        return read_member(input, input_bytes(input), reading, each).map(|_| Fits::Read);
    }
    let Some(path) = &input.path else {
        let mut read_stdin = |reader: &mut dyn BufRead| {
            let reader = stdin_decoded(reader).map_err(|e| io_reason(&e))?;
            read_games(reader, opts, each)
        };
        let result = match reading.stdin {
            Some(stdin) => {
                let mut result = Ok(());
                stdin.with_reader(&mut |reader| {
                    result = read_stdin(reader);
                });
                result
            }
            None => {
                let mut reader =
                    std::io::BufReader::with_capacity(1 << 16, std::io::stdin().lock());
                read_stdin(&mut reader)
            }
        };
        return result.map(|_| Fits::Read);
    };
    if let Some(codec) = input.codec {
        let reader = open_compressed(path, codec).map_err(|e| io_reason(&e))?;
        return read_games(reader, opts, each).map(|_| Fits::Read);
    }
    let (f, short_means_end) = crate::open::open_record(path).map_err(|e| io_reason(&e))?;
    // The size the input was listed with (the path's metadata): asking the open file again
    // costs a system call per file, and `read_file` reads on when the file has grown since.
    let mut size = input.size;
    if size == 0 {
        // Unknown (a file of a folder walk, or empty): read until the end, which for a
        // record file of a few kilobytes takes the system calls a size would have (one,
        // where a short first read has read it all).
        let start = read_start(&f, short_means_end).map_err(|e| io_reason(&e))?;
        if start.len() as u64 <= UNSIZED_WHOLE {
            return read_owned(start, opts, each).map(|_| Fits::Read);
        }
        if small_only {
            return Ok(Fits::Larger);
        }
        size = f.metadata().map_or(0, |m| m.len()).max(start.len() as u64);
        if size >= STREAM_FROM {
            let rest = std::io::Cursor::new(start).chain(f);
            let reader = std::io::BufReader::with_capacity(1 << 16, rest);
            return read_games(reader, opts, each).map(|_| Fits::Read);
        }
        let bytes = read_rest(start, f)?;
        return read_owned(bytes, opts, each).map(|_| Fits::Read);
    }
    if size >= STREAM_FROM {
        let reader = std::io::BufReader::with_capacity(1 << 16, f);
        return read_games(reader, opts, each).map(|_| Fits::Read);
    }
    let bytes = read_file(f, size)?;
    read_owned(bytes, opts, each).map(|_| Fits::Read)
}

/// The first `UNSIZED_WHOLE + 1` bytes of `f` (all of it when it is smaller), read from
/// its start; `short_means_end`: a first read that asks for
/// [`crate::open::WHOLE_IF_SHORT`] bytes and gets fewer has read the whole file
/// ([`crate::open::open_record`]).
fn read_start(f: &std::fs::File, short_means_end: bool) -> std::io::Result<Vec<u8>> {
    let mut start = if short_means_end {
        let (start, whole) = first_read(f)?;
        if whole {
            return Ok(start);
        }
        start
    } else {
        Vec::with_capacity(8 << 10)
    };
    let left = (UNSIZED_WHOLE + 1).saturating_sub(start.len() as u64);
    f.take(left).read_to_end(&mut start)?;
    Ok(start)
}

/// The first read of a file opened where a short first read ends it
/// ([`crate::open::WHOLE_IF_SHORT`]): the bytes read, and whether they are the whole file
/// (the read came back short; else reading goes on from them).
fn first_read(mut f: &std::fs::File) -> std::io::Result<(Vec<u8>, bool)> {
    use crate::open::WHOLE_IF_SHORT;
    thread_local! {
        static FIRST: std::cell::RefCell<[u8; WHOLE_IF_SHORT]> =
            const { std::cell::RefCell::new([0; WHOLE_IF_SHORT]) };
    }
    // Read into a buffer the thread keeps (one of its own only if that one is in use), so
    // that no buffer is zeroed a file: the bytes read are copied out at their size.
    let mut read_into = |buf: &mut [u8]| {
        let n = loop {
            match f.read(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other?,
            }
        };
        if n < WHOLE_IF_SHORT {
            return Ok((buf[..n].to_vec(), true));
        }
        let mut start = Vec::with_capacity(2 * WHOLE_IF_SHORT);
        start.extend_from_slice(buf);
        Ok((start, false))
    };
    FIRST.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buf) => read_into(&mut buf[..]),
        Err(_) => read_into(&mut vec![0; WHOLE_IF_SHORT]),
    })
}

/// `start`, the bytes read of `f` so far, and the rest of it (at most [`MAX_INPUT`] in all).
fn read_rest(mut start: Vec<u8>, f: std::fs::File) -> Result<Vec<u8>, String> {
    let left = (MAX_INPUT + 1).saturating_sub(start.len() as u64);
    f.take(left)
        .read_to_end(&mut start)
        .map_err(|e| io_reason(&e))?;
    if start.len() as u64 > MAX_INPUT {
        return Err(format!("larger than {} MiB", MAX_INPUT / 1024 / 1024));
    }
    Ok(start)
}

/// The bytes of an input that is a file, a compressed file or an archive's member,
/// decompressed (at most [`MAX_INPUT`] bytes; a member at most
/// [`crate::archive::MEMBER_LIMIT`]); `Err` for standard input or why they cannot be had.
pub fn input_bytes(input: &Input) -> Result<Vec<u8>, String> {
    if let Some(member) = &input.member {
        let mut bytes = Err("not read".to_string());
        read_members(&member.archive, &[member], &mut |_, b| {
            bytes = b;
            std::ops::ControlFlow::Break(())
        });
        return bytes;
    }
    let path = input.path.as_ref().ok_or("standard input is not a file")?;
    let mut reader: Box<dyn Read> = match input.codec {
        Some(codec) => Box::new(open_compressed(path, codec).map_err(|e| io_reason(&e))?),
        None => Box::new(crate::open::open(path).map_err(|e| io_reason(&e))?),
    };
    let mut buf = Vec::new();
    (&mut reader)
        .take(MAX_INPUT + 1)
        .read_to_end(&mut buf)
        .map_err(|e| io_reason(&e))?;
    if buf.len() as u64 > MAX_INPUT {
        return Err(format!("larger than {} MiB", MAX_INPUT / 1024 / 1024));
    }
    Ok(buf)
}

/// The reading options of one input: the hint from its name unless one is given.
fn options_for(input: &Input, reading: &Reading<'_>) -> ReadOptions {
    let mut opts = reading.options;
    opts.validate = reading.validate;
    if opts.hint.is_none() {
        opts.hint = input.hint();
    }
    opts
}

/// Reads the games of an archive's member from its bytes (`Err`: why they could not be
/// had), each with the member's note as a warning.
pub(crate) fn read_member(
    input: &Input,
    bytes: Bytes,
    reading: &Reading<'_>,
    each: &mut dyn FnMut(InputRecord),
) -> Result<(), String> {
    let bytes = bytes?;
    let opts = options_for(input, reading);
    let note = input.member.as_ref().and_then(|m| m.note.clone());
    read_games(&bytes[..], opts, &mut |mut game| {
        // Said once, with the member's first game.
        if let Some(note) = note.as_ref().filter(|_| game.index <= 1) {
            game.diagnostics.insert(
                0,
                Diagnostic {
                    severity: Severity::Warning,
                    line: 0,
                    column: 0,
                    message: note.clone(),
                    line_text: String::new(),
                },
            );
        }
        each(game)
    })
}

/// Reads the games of a reader with shogi-kif's [`Reader`].
fn read_games(
    mut reader: impl BufRead,
    opts: ReadOptions,
    each: &mut dyn FnMut(InputRecord),
) -> Result<(), String> {
    let blank = loop {
        let buf = reader.fill_buf().map_err(|e| io_reason(&e))?;
        if buf.is_empty() {
            break true;
        }
        let skip = buf.iter().take_while(|b| is_blank(b)).count();
        if skip < buf.len() {
            break false;
        }
        reader.consume(skip);
    };
    if blank {
        each(InputRecord::failed(1, empty_error()));
        return Ok(());
    }
    games_of(Reader::new(reader, opts), each)
}

/// White space: an input of nothing else holds no game (a KIF reader alone would give an
/// empty record), which [`read_games`] and [`read_owned`] both say.
fn is_blank(b: &u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// [`read_games`] of bytes in memory, handed over so that they are not copied once more.
fn read_owned(
    bytes: Vec<u8>,
    opts: ReadOptions,
    each: &mut dyn FnMut(InputRecord),
) -> Result<(), String> {
    if bytes.iter().all(is_blank) {
        each(InputRecord::failed(1, empty_error()));
        return Ok(());
    }
    games_of(Reader::from_vec(bytes, opts), each)
}

/// Hands over the games of a reader.
fn games_of<R: BufRead>(
    games: Result<Reader<R>, ReadError>,
    each: &mut dyn FnMut(InputRecord),
) -> Result<(), String> {
    let mut games = match games {
        Ok(r) => r,
        Err(e) => {
            each(InputRecord::failed(1, e));
            return Ok(());
        }
    };
    let mut index = 0;
    // A panic inside the reader (a bug) stops this input: the game being read is reported
    // as an internal error at the line where it starts. (One guard for the whole input: a
    // guard a game would move every game through it once more.)
    let read = isolated(|| {
        while let Some(g) = games.next() {
            index = g.index as u32;
            each(read_game(g, &games, index));
        }
    });
    if let Err(message) = read {
        each(InputRecord::panicked(index + 1, games.line(), message));
    }
    Ok(())
}

/// The [`InputRecord`] of a game the reader gave.
fn read_game<R: BufRead>(g: shogi_kif::ReadRecord, games: &Reader<R>, index: u32) -> InputRecord {
    // After an error before anything was read the record is an empty default: no game to
    // describe.
    let readable = g.error.as_ref().is_none_or(|e| e.ply.is_some())
        || !g.record.moves.moves.is_empty()
        || !g.record.header.entries.is_empty();
    InputRecord {
        index,
        line: g.line,
        format: Some(games.format()),
        encoding: Some(games.encoding()),
        record: readable.then_some(g.record),
        error: g.error,
        diagnostics: g.diagnostics,
        main: g.main,
        ratings: [None, None],
        panic: None,
    }
}

fn empty_error() -> ReadError {
    ReadError::new(ErrorKind::Truncated, "the input is empty")
}

/// An error for an input that could not be opened or read.
pub fn io_error(reason: &str) -> ReadError {
    ReadError::new(ErrorKind::Io, reason.to_string())
}

/// Reads a file (at most [`MAX_INPUT`] bytes) with one allocation and, for a regular file of
/// known `size`, usually one `read`: a read that brings exactly the size the file has is not
/// followed by another asking for more.
fn read_file(mut f: std::fs::File, size: u64) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    if size == 0 || size > MAX_INPUT {
        return read_rest(buf, f);
    } else {
        let want = size as usize + 1;
        buf.resize(want, 0);
        let mut n = 0;
        while n < want {
            match f.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => {
                    n += k;
                    if n == want - 1 {
                        break;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io_reason(&e)),
            }
        }
        buf.truncate(n);
        if n == want {
            // The file grew: read on.
            f.take(MAX_INPUT + 1 - n as u64)
                .read_to_end(&mut buf)
                .map_err(|e| io_reason(&e))?;
        }
    }
    if buf.len() as u64 > MAX_INPUT {
        return Err(format!("larger than {} MiB", MAX_INPUT / 1024 / 1024));
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// USI lines, then a panic where the input is read past `len` bytes.
    struct Panicky {
        data: Vec<u8>,
        at: usize,
    }

    impl Read for Panicky {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            assert!(self.at < self.data.len(), "stand-in reader bug");
            let n = out.len().min(self.data.len() - self.at);
            out[..n].copy_from_slice(&self.data[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    #[test]
    fn a_panic_inside_the_reader_is_located_where_it_stopped() {
        // 3 MiB of games, read a chunk at a time: the reader panics when it asks for more.
        let line = "position startpos moves 7g7f\n";
        let n = (3 << 20) / line.len();
        let input = Panicky {
            data: line.repeat(n).into_bytes(),
            at: 0,
        };
        let reader = std::io::BufReader::with_capacity(1 << 16, input);
        let mut games = Vec::new();
        games_of(Reader::new(reader, ReadOptions::default()), &mut |g| {
            games.push(g)
        })
        .unwrap();
        let last = games.pop().unwrap();
        assert_eq!(games.len(), n, "every game before the panic");
        assert!(games.iter().all(InputRecord::is_valid));
        let message = last.panic.as_deref().unwrap_or_default();
        assert!(message.contains("stand-in reader bug"), "{message}");
        // The next game would start on the line after the last one read.
        assert_eq!(last.index as usize, n + 1);
        assert_eq!(last.line as usize, n + 1);
        let e = last.error.unwrap();
        assert_eq!((e.location.line as usize, e.location.column), (n + 1, 1));
        assert_eq!(e.message, INTERNAL_ERROR);
    }

    /// The start of a file read whole, with a short first read taken as its end or not, is
    /// its first `UNSIZED_WHOLE + 1` bytes: sizes about a page, two pages and the limit,
    /// and the empty file; and so is the start of a file opened through its folder.
    #[test]
    fn the_start_of_a_file_is_its_bytes_however_its_end_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let page = crate::open::WHOLE_IF_SHORT;
        let limit = UNSIZED_WHOLE as usize;
        let sizes = [
            0,
            1,
            2543,
            page - 1,
            page,
            page + 1,
            2 * page - 1,
            2 * page,
            2 * page + 1,
            limit,
            limit + 1,
            limit + 5000,
        ];
        for size in sizes {
            let bytes: Vec<u8> = (0..size).map(|i| (i * 7 + i / 251) as u8).collect();
            let path = dir.path().join(format!("f{size}.kif"));
            std::fs::write(&path, &bytes).unwrap();
            let want = &bytes[..size.min(limit + 1)];
            for short_means_end in [false, true] {
                let f = std::fs::File::open(&path).unwrap();
                let got = read_start(&f, short_means_end).unwrap();
                assert!(got == want, "size {size}, {short_means_end}: {}", got.len());
            }
            let (f, _) = crate::open::open_record(&path).unwrap();
            assert!(read_start(&f, true).unwrap() == want, "size {size}, opened");
        }
    }

    #[test]
    fn games_of_an_input() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("two.usi");
        std::fs::write(
            &path,
            "position startpos moves 7g7f\nposition startpos moves 7g7f 7g7f\n",
        )
        .unwrap();
        let mut games = Vec::new();
        read_input(&Input::file(&path), &Reading::default(), &mut |g| {
            games.push(g)
        })
        .unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].index, games[0].line), (1, 1));
        assert!(games[0].is_valid());
        // The illegal second move: the record holds the first.
        assert_eq!((games[1].index, games[1].line), (2, 2));
        assert_eq!(games[1].error.as_ref().and_then(|e| e.ply), Some(2));
        assert_eq!(
            games[1].record.as_ref().map(|r| r.moves.moves.len()),
            Some(1)
        );
    }
}

//! Reading a large input game by game from any [`BufRead`], holding one game's text at a time.

use crate::encoding::{Encoding, declared_encoding};
use crate::error::{Diagnostic, ErrorKind, Location, ReadError};
use crate::model::Record;
use crate::replay::MainLine;
use crate::text::{self, Line};
use crate::{Format, ReadOptions, Records, csa, replay, usi, validate};
use std::borrow::Cow;
use std::io::{BufRead, Chain, Cursor, Read};

/// How much of the input is looked at to choose the encoding and the format.
const SAMPLE: u64 = 64 * 1024;
/// The longest line read while streaming.
const MAX_LINE: usize = 16 << 20;
/// The longest game (CSA) read while streaming, and the largest input read whole (KIF, KI2,
/// JKF hold one record each and are read at once).
const MAX_TEXT: usize = 256 << 20;

/// The records of an input of any size, read one game at a time.
///
/// Multi-game formats (CSA games separated by `/`, USI and SFEN lines) are decoded and parsed
/// a game at a time, so memory does not grow with the number of games; KIF, KI2 and JKF hold
/// one record and are read whole (up to 256 MiB). The encoding and the format are chosen from
/// the first 64 KiB (see [`crate::decode`] and [`Format::detect`]) unless `opts` fixes them.
/// Line numbers in errors and diagnostics count from the start of the input.
///
/// ```
/// use std::io::Cursor;
/// let usi = "position startpos moves 7g7f\nposition startpos moves 2g2f 8c8d\n";
/// let games = shogi_kif::RecordStream::new(Cursor::new(usi), Default::default())?;
/// let counts: Vec<usize> = games.map(|r| r.unwrap().main_line().count()).collect();
/// assert_eq!(counts, [1, 2]);
/// # Ok::<(), shogi_kif::ReadError>(())
/// ```
pub struct RecordStream<R> {
    reader: Chain<Cursor<Vec<u8>>, R>,
    format: Format,
    encoding: Encoding,
    /// Set when the whole input was read at once.
    whole: Option<Records<'static>>,
    /// The sample was ASCII: the encoding is chosen on the first line that is not.
    undecided: bool,
    /// Lines consumed so far.
    line_no: u32,
    /// Decoded bytes consumed so far.
    offset: usize,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> RecordStream<R> {
    /// Starts reading: looks at the first 64 KiB to choose the encoding and the format.
    pub fn new(mut reader: R, opts: ReadOptions) -> Result<RecordStream<R>, ReadError> {
        let mut head = Vec::new();
        reader
            .by_ref()
            .take(SAMPLE)
            .read_to_end(&mut head)
            .map_err(io_error)?;
        let complete = (head.len() as u64) < SAMPLE;
        let bom = head.starts_with(b"\xEF\xBB\xBF");
        if bom {
            head.drain(..3);
        }
        // Judge the encoding on whole lines only: the sample may end inside a character.
        let sample_end = if complete {
            head.len()
        } else {
            head.iter()
                .rposition(|&b| b == b'\n')
                .map_or(head.len(), |i| i + 1)
        };
        let sample = &head[..sample_end];
        // A sample of ASCII alone says nothing about the encoding: it is then chosen on the
        // first line that is not ASCII.
        let undecided = opts.encoding.is_none()
            && !bom
            && !complete
            && sample.is_ascii()
            && declared_encoding(sample).is_none();
        let encoding = match opts.encoding {
            Some(e) => e,
            None if bom => Encoding::Utf8,
            None => detect_encoding(sample),
        };
        let sample_text = decode_line(sample, encoding).unwrap_or_default();
        let format = match opts
            .format
            .or_else(|| Format::detect(&sample_text, opts.hint))
        {
            Some(f) => f,
            None if text::trim(&sample_text).is_empty() && complete => {
                return Err(ReadError::new(ErrorKind::Truncated, "the input is empty"));
            }
            None => {
                return Err(ReadError::new(
                    ErrorKind::UnknownFormat,
                    "the format of the input is not recognised",
                ));
            }
        };
        let mut stream = RecordStream {
            reader: Cursor::new(head).chain(reader),
            format,
            encoding,
            whole: None,
            undecided,
            line_no: 0,
            offset: 0,
            buf: Vec::new(),
            done: false,
        };
        let streams = matches!(format, Format::Csa | Format::Usi | Format::Sfen);
        if complete || !streams {
            let mut bytes = Vec::new();
            stream
                .reader
                .by_ref()
                .take(MAX_TEXT as u64 + 1)
                .read_to_end(&mut bytes)
                .map_err(io_error)?;
            if bytes.len() > MAX_TEXT {
                return Err(ReadError::new(
                    ErrorKind::TooLarge,
                    format!("a {} record larger than 256 MiB", format.name()),
                ));
            }
            let text = match crate::decode(&bytes, Some(encoding)) {
                Ok((t, _)) => t.into_owned(),
                // The sample fitted the encoding but a later byte does not: say where.
                Err(_) => crate::decode(&bytes, opts.encoding)?.0.into_owned(),
            };
            let opts = ReadOptions {
                format: Some(format),
                ..opts
            };
            stream.whole = Some(Records::from_cow(Cow::Owned(text), opts)?);
        }
        Ok(stream)
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The encoding the input is decoded with (UTF-8 until a line that is not ASCII shows
    /// otherwise, when the start of the input is ASCII).
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The next line, decoded, without its line ending (returned apart); `None` at the end.
    fn next_line(&mut self) -> Option<Result<(String, &'static str), ReadError>> {
        self.buf.clear();
        let n = match self
            .reader
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut self.buf)
        {
            Ok(n) => n,
            Err(e) => return Some(Err(io_error(e))),
        };
        if n == 0 {
            return None;
        }
        self.line_no += 1;
        if self.buf.len() > MAX_LINE {
            return Some(Err(self.error_here(
                ErrorKind::TooLarge,
                "a line longer than 16 MiB".to_string(),
            )));
        }
        let mut bytes = &self.buf[..];
        if let Some(b) = bytes.strip_suffix(b"\n") {
            bytes = b.strip_suffix(b"\r").unwrap_or(b);
        }
        // The line ending is ASCII in every supported encoding.
        let ending = match n - bytes.len() {
            2 => "\r\n",
            1 => "\n",
            _ => "",
        };
        if self.undecided && !bytes.is_ascii() {
            self.encoding = detect_encoding(bytes);
            self.undecided = false;
        }
        let decoded = match decode_line(bytes, self.encoding) {
            Some(s) => s,
            None => {
                let message = format!(
                    "line {} is not valid {} (the encoding was chosen from the start of the input; \
                     set it explicitly if the input mixes encodings)",
                    self.line_no,
                    encoding_name(self.encoding)
                );
                return Some(Err(self.error_here(ErrorKind::Encoding, message)));
            }
        };
        // Offsets count bytes of the decoded (UTF-8) text, as for a record read whole.
        self.offset += decoded.len() + ending.len();
        Some(Ok((decoded, ending)))
    }

    fn error_here(&self, kind: ErrorKind, message: String) -> ReadError {
        let mut e = ReadError::new(kind, message);
        e.location = Location {
            line: self.line_no,
            column: 1,
            start: self.offset,
            end: self.offset,
        };
        e
    }

    /// The next CSA game (lines up to a `/` line), parsed and replayed.
    fn next_csa(&mut self, facts: bool) -> Option<Replayed> {
        loop {
            let first_line = self.line_no + 1;
            let game_offset = self.offset;
            let mut game = String::new();
            let mut any = false;
            let mut saw_line = false;
            while let Some(line) = self.next_line() {
                saw_line = true;
                let (line, ending) = match line {
                    Ok(l) => l,
                    Err(e) => {
                        self.skip_to_csa_separator();
                        return Some(Err(e));
                    }
                };
                if line.trim() == "/" {
                    break;
                }
                let t = line.trim();
                if !t.is_empty() && !t.starts_with('\'') {
                    any = true;
                }
                if game.len() + line.len() > MAX_TEXT {
                    self.skip_to_csa_separator();
                    return Some(Err(self.error_here(
                        ErrorKind::TooLarge,
                        "a CSA game larger than 256 MiB".to_string(),
                    )));
                }
                // The line ending is kept, so byte offsets match the input's.
                game.push_str(&line);
                game.push_str(ending);
            }
            if !saw_line {
                return None;
            }
            if !any {
                continue;
            }
            let result = csa::parse(&game, 0, game.len(), first_line)
                .and_then(|raw| replay::replay_main(raw, &game, facts))
                .map_err(|e| shift(e, game_offset));
            return Some(result);
        }
    }

    fn skip_to_csa_separator(&mut self) {
        while let Some(line) = self.next_line() {
            if line.is_ok_and(|(l, _)| l.trim() == "/") {
                break;
            }
        }
    }

    /// The next USI or SFEN line, parsed and replayed.
    fn next_usi(&mut self, facts: bool) -> Option<Replayed> {
        loop {
            let line_offset = self.offset;
            let line = match self.next_line()? {
                Ok((l, _)) => l,
                Err(e) => return Some(Err(e)),
            };
            let t = text::trim(&line);
            if t.is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let l = Line {
                no: self.line_no,
                start: 0,
                text: &line,
            };
            let result = usi::parse_line(&line, l)
                .and_then(|raw| replay::replay_main(raw, &line, facts))
                .map_err(|e| shift(e, line_offset));
            return Some(result);
        }
    }
}

/// A replayed record with, when asked for, the facts validation needs.
type Replayed = Result<(Record, Option<MainLine>), ReadError>;

impl<R: BufRead> RecordStream<R> {
    fn next_replayed(&mut self, facts: bool) -> Option<Replayed> {
        if let Some(whole) = &mut self.whole {
            return whole.next_replayed(facts);
        }
        if self.done {
            return None;
        }
        let next = match self.format {
            Format::Csa => self.next_csa(facts),
            _ => self.next_usi(facts),
        };
        if next.is_none() {
            self.done = true;
        }
        next
    }

    /// The next record with its diagnostics as [`crate::validate`] gives them, found in the
    /// same replay (see [`Records::next_validated`]).
    pub fn next_validated(&mut self) -> Option<Result<(Record, Vec<Diagnostic>), ReadError>> {
        let next = self.next_replayed(true)?;
        Some(next.map(|(record, main)| validate::with_diagnostics(record, main)))
    }
}

impl<R: BufRead> Iterator for RecordStream<R> {
    type Item = Result<Record, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_replayed(false)
            .map(|r| r.map(|(record, _)| record))
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

fn detect_encoding(sample: &[u8]) -> Encoding {
    if let Some(e) = declared_encoding(sample) {
        if decode_line(sample, e).is_some() {
            return e;
        }
    }
    for e in [Encoding::Utf8, Encoding::ShiftJis, Encoding::EucJp] {
        if decode_line(sample, e).is_some() {
            return e;
        }
    }
    Encoding::Utf8
}

fn decode_line(bytes: &[u8], encoding: Encoding) -> Option<String> {
    match crate::decode(bytes, Some(encoding)) {
        Ok((text, _)) => Some(text.into_owned()),
        Err(_) => None,
    }
}

fn encoding_name(e: Encoding) -> &'static str {
    match e {
        Encoding::Utf8 => "UTF-8",
        Encoding::ShiftJis => "Shift_JIS (CP932)",
        Encoding::EucJp => "EUC-JP",
    }
}

fn io_error(e: std::io::Error) -> ReadError {
    ReadError::new(ErrorKind::Io, format!("read error: {e}"))
}

//! The decoded text of an input not yet handed out as games, and the one game splitter.
//!
//! An input read whole is one window. A larger CSA, USI or SFEN input is decoded a chunk at
//! a time: the window holds whole lines only (the bytes of a partial line wait in `carry`),
//! and the text of the games handed out is dropped before the next chunk is added.

use super::{MAX_TEXT, ReadOptions, SAMPLE, choose_format, error_at_line, io_error};
use crate::encoding::{Encoding, declared_encoding, decode, decode_vec};
use crate::error::{ErrorKind, ReadError};
use crate::format::Format;
use crate::text;
use std::collections::VecDeque;
use std::io::BufRead;

/// The longest line of a KIF, KI2, CSA, USI or SFEN input.
const MAX_LINE: usize = crate::limits::MAX_LINE_BYTES;

/// The error of line `no` (at `offset`), longer than [`MAX_LINE`].
fn long_line(no: u32, offset: usize) -> ReadError {
    let message = format!(
        "line {no} is longer than {} (the limit of a line)",
        crate::limits::mib(MAX_LINE)
    );
    error_at_line(ErrorKind::TooLarge, message, no, offset)
}

/// The first line of `bytes` longer than [`MAX_LINE`], as an error (KIF and KI2: the
/// record's). `Ok` at once for input no longer than a line may be.
pub(crate) fn check_lines(bytes: &[u8], format: Format) -> Result<(), ReadError> {
    if bytes.len() <= MAX_LINE || !matches!(format, Format::Kif | Format::Ki2) {
        return Ok(());
    }
    let (mut at, mut no) = (0, 1u32);
    loop {
        let len = text::find_newline(&bytes[at..]).unwrap_or(bytes.len() - at);
        if len > MAX_LINE {
            return Err(long_line(no, at));
        }
        at += len + 1;
        no = no.saturating_add(1);
        if at >= bytes.len() {
            return Ok(());
        }
    }
}

/// The rest of a KIF, KI2 or JKF input after `head` (its start), read whole: refused as soon
/// as it is larger than a record may be, or a KIF or KI2 line longer than a line may be,
/// without holding more than that.
fn read_record<R: BufRead>(
    input: &mut R,
    mut all: Vec<u8>,
    format: Format,
) -> Result<Vec<u8>, ReadError> {
    let lines = matches!(format, Format::Kif | Format::Ki2);
    // Where the line being read starts, and its number.
    let (mut line_start, mut no) = (0, 1u32);
    let mut scanned = 0;
    loop {
        while let Some(i) = text::find_newline(&all[scanned..]) {
            if lines && scanned + i - line_start > MAX_LINE {
                return Err(long_line(no, line_start));
            }
            scanned += i + 1;
            line_start = scanned;
            no = no.saturating_add(1);
        }
        // A CR that ends the bytes may be the first half of a CRLF: it is looked at again
        // once the next byte is here.
        scanned = all.len() - usize::from(all.last() == Some(&b'\r'));
        if lines && scanned - line_start > MAX_LINE {
            return Err(long_line(no, line_start));
        }
        if all.len() > MAX_TEXT {
            let message = format!(
                "a {} record larger than {} (the limit of a record), at line {no}",
                format.name(),
                crate::limits::mib(MAX_TEXT)
            );
            return Err(error_at_line(ErrorKind::TooLarge, message, no, line_start));
        }
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(e)),
        };
        if buf.is_empty() {
            text::bare_cr_to_lf(&mut all, scanned, true);
            return Ok(all);
        }
        let n = buf.len();
        all.extend_from_slice(buf);
        input.consume(n);
        // Bare CRs become LFs, a CR that ended the bytes before too now that the byte after
        // it is known.
        text::bare_cr_to_lf(&mut all, scanned, false);
    }
}

/// A game's place in the window, or the error that replaces it.
pub(crate) struct Span {
    start: usize,
    end: usize,
    /// The line the game starts on.
    pub line: u32,
    /// A line of the game could not be read (encoding, length, I/O).
    pub error: Option<ReadError>,
}

pub(crate) struct Window {
    text: String,
    /// The offset of `text` in the decoded input.
    base: usize,
    /// Where the next game starts in `text`, and its line number.
    pos: usize,
    line: u32,
    /// Bytes after `text` that do not make a whole line yet.
    carry: Vec<u8>,
    /// Everything has been read into `text`.
    eof: bool,
    encoding: Encoding,
    /// The start of the input was ASCII: the encoding is chosen on the first line that is not.
    undecided: bool,
    chunk: usize,
    /// Lines that could not be read, by line number, with their errors.
    bad: VecDeque<(u32, ReadError)>,
    /// The rest of a line too long to read is still to be skipped.
    skipping: bool,
    /// The line being skipped ended in the last byte read, a CR (bare, or the first half of
    /// a CRLF): only its LF, if one follows, is left to skip.
    skip_after_cr: bool,
}

impl Window {
    /// A window holding all of the input.
    pub fn whole_text(text: String, encoding: Encoding) -> Window {
        Window {
            text,
            base: 0,
            pos: 0,
            line: 1,
            carry: Vec::new(),
            eof: true,
            encoding,
            undecided: false,
            chunk: 0,
            bad: VecDeque::new(),
            skipping: false,
            skip_after_cr: false,
        }
    }

    /// The format and the window of an input larger than `head`, its start. The encoding and
    /// the format are chosen from the first 64 KiB; a KIF, KI2 or JKF input is then read whole.
    pub fn streaming<R: BufRead>(
        input: &mut R,
        mut head: Vec<u8>,
        opts: ReadOptions,
        chunk: usize,
    ) -> Result<(Format, Window), ReadError> {
        let bom = head.starts_with(b"\xEF\xBB\xBF");
        if bom {
            head.drain(..3);
        }
        // Judge the encoding on whole lines only: the sample may end inside a character.
        let sample = &head[..head.len().min(SAMPLE)];
        let sample = &sample[..sample
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(sample.len(), |i| i + 1)];
        // A sample of ASCII alone says nothing about the encoding: it is then chosen on the
        // first line that is not ASCII.
        let undecided = opts.encoding.is_none()
            && !bom
            && sample.is_ascii()
            && declared_encoding(sample).is_none();
        // A sample without a line break (its line is longer) may end inside a character.
        let cut = !sample.ends_with(b"\n");
        let (encoding, fits) = match opts.encoding {
            Some(e) => (e, fitting_len(sample, e, cut)),
            None if bom => (Encoding::Utf8, fitting_len(sample, Encoding::Utf8, cut)),
            None => detect_encoding(sample, cut),
        };
        let sample = &sample[..fits.unwrap_or(sample.len())];
        let mut sample_text = String::new();
        decode_into(&mut sample_text, sample, encoding);
        let format = choose_format(&sample_text, opts, false)?;
        if !format.is_multi_game() {
            let all = read_record(input, head, format)?;
            let (text, encoding) =
                decode_vec(all, opts.encoding.or(bom.then_some(Encoding::Utf8)))?;
            return Ok((format, Window::whole_text(text, encoding)));
        }
        let window = Window {
            text: String::new(),
            base: 0,
            pos: 0,
            line: 1,
            carry: head,
            eof: false,
            encoding,
            undecided,
            chunk,
            bad: VecDeque::new(),
            skipping: false,
            skip_after_cr: false,
        };
        Ok((format, window))
    }

    /// The line the next game is looked for from.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The encoding the text is decoded with.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// All of the text, as one game.
    pub fn whole(&self) -> Span {
        Span {
            start: 0,
            end: self.text.len(),
            line: 1,
            error: None,
        }
    }

    /// The text of a span.
    pub fn text(&self, span: &Span) -> &str {
        &self.text[span.start..span.end]
    }

    /// The offset of a span's text in the decoded input.
    pub fn offset(&self, span: &Span) -> usize {
        self.base + span.start
    }

    /// The next game of a multi-game format, `None` at the end of the input.
    pub fn next_game<R: BufRead>(&mut self, input: &mut R, format: Format) -> Option<Span> {
        match format {
            Format::Csa => self.next_csa(input),
            _ => self.next_line_game(input),
        }
    }

    /// The next CSA game: the lines up to one holding only `/`, skipping games of nothing
    /// but blank lines and comments.
    fn next_csa<R: BufRead>(&mut self, input: &mut R) -> Option<Span> {
        loop {
            let first = self.line;
            let (mut start, mut at, mut no) = (self.pos, self.pos, self.line);
            let (mut any, mut saw) = (false, false);
            let mut error: Option<ReadError> = None;
            let end = loop {
                if at == self.text.len() {
                    if self.eof {
                        break at;
                    }
                    let drained = self.refill(input);
                    start -= drained;
                    at -= drained;
                    continue;
                }
                saw = true;
                let (line_end, next) = self.line_at(at);
                if let Some(e) = self.take_bad(no) {
                    error.get_or_insert(e);
                }
                let t = self.text[at..line_end].trim();
                if t == "/" {
                    no = no.saturating_add(1);
                    let end = at;
                    at = next;
                    break end;
                }
                any |= !t.is_empty() && !t.starts_with('\'');
                if error.is_none() && line_end - at > MAX_LINE {
                    error = Some(long_line(no, self.base + at));
                }
                if error.is_none() && next - start > MAX_TEXT {
                    let message = format!(
                        "a CSA game larger than {} (the limit of a record)",
                        crate::limits::mib(MAX_TEXT)
                    );
                    error = Some(error_at_line(
                        ErrorKind::TooLarge,
                        message,
                        no,
                        self.base + at,
                    ));
                }
                no = no.saturating_add(1);
                at = next;
                if error.is_some() {
                    // The game is not read: its text need not be kept.
                    start = at;
                    self.pos = at;
                    self.line = no;
                }
            };
            self.pos = at;
            self.line = no;
            if !saw {
                return None;
            }
            if any || error.is_some() {
                return Some(Span {
                    start,
                    end: end.max(start),
                    line: first,
                    error,
                });
            }
        }
    }

    /// The next USI or SFEN game: a line that is neither blank nor a `#` comment.
    fn next_line_game<R: BufRead>(&mut self, input: &mut R) -> Option<Span> {
        loop {
            if self.pos == self.text.len() {
                if self.eof {
                    return None;
                }
                self.refill(input);
                continue;
            }
            let (start, no) = (self.pos, self.line);
            let (mut end, next) = self.line_at(start);
            self.pos = next;
            self.line = self.line.saturating_add(1);
            if let Some(e) = self.take_bad(no) {
                return Some(Span {
                    start,
                    end: start,
                    line: no,
                    error: Some(e),
                });
            }
            if end - start > MAX_LINE {
                return Some(Span {
                    start,
                    end: start,
                    line: no,
                    error: Some(long_line(no, self.base + start)),
                });
            }
            if self.text[start..end].ends_with('\r') {
                end -= 1;
            }
            let l = &self.text[start..end];
            if text::trim(l).is_empty() || l.trim_start().starts_with('#') {
                continue;
            }
            return Some(Span {
                start,
                end,
                line: no,
                error: None,
            });
        }
    }

    /// The line at `at`: where its text ends (a `\r` included) and where the next starts.
    fn line_at(&self, at: usize) -> (usize, usize) {
        match text::find_newline(&self.text.as_bytes()[at..]) {
            Some(i) => (at + i, at + i + 1),
            None => (self.text.len(), self.text.len()),
        }
    }

    /// The error of line `no`, when it could not be read.
    fn take_bad(&mut self, no: u32) -> Option<ReadError> {
        while self.bad.front().is_some_and(|b| b.0 < no) {
            self.bad.pop_front();
        }
        match self.bad.front() {
            Some(b) if b.0 == no => self.bad.pop_front().map(|b| b.1),
            _ => None,
        }
    }

    /// The number of the line after the text (counted only when a line needs it).
    fn end_line(&self) -> u32 {
        let text = &self.text.as_bytes()[self.pos..];
        let lines = text.iter().filter(|&&b| b == b'\n').count();
        self.line
            .saturating_add(u32::try_from(lines).unwrap_or(u32::MAX))
    }

    /// Drops the text before the next game, then decodes at least a chunk more of the input
    /// (or the rest of it). Returns how many bytes were dropped from the front.
    fn refill<R: BufRead>(&mut self, input: &mut R) -> usize {
        let drained = self.pos;
        self.text.drain(..drained);
        self.base += drained;
        self.pos = 0;
        if self.skipping {
            self.skip_line(input);
        }
        let mut bytes = std::mem::take(&mut self.carry);
        let mut line_start = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        while !(bytes.len() >= self.chunk && line_start > 0) {
            let buf = match input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.append(&bytes[..line_start]);
                    let (at, no) = (self.base + self.text.len(), self.end_line());
                    let mut err = io_error(e);
                    err.location = error_at_line(ErrorKind::Io, String::new(), no, at).location;
                    self.bad.push_back((no, err));
                    self.text.push('\n');
                    self.eof = true;
                    return drained;
                }
            };
            if buf.is_empty() {
                self.eof = true;
                // A CR that ends the input is a line end.
                text::bare_cr_to_lf(&mut bytes, line_start, true);
                break;
            }
            let n = buf.len();
            let old = bytes.len();
            bytes.extend_from_slice(buf);
            input.consume(n);
            // Bare CRs become LFs; a CR that ended the bytes before (maybe the first half of
            // a CRLF cut by the chunk) is judged now that the byte after it is here.
            text::bare_cr_to_lf(&mut bytes, old.saturating_sub(1), false);
            if let Some(i) = bytes[old.saturating_sub(1)..]
                .iter()
                .rposition(|&b| b == b'\n')
            {
                line_start = old.saturating_sub(1) + i + 1;
            }
            // A CR held last ends the line (its LF, if any, is still to come).
            let cr = bytes.last() == Some(&b'\r');
            if bytes.len() - usize::from(cr) - line_start > MAX_LINE {
                self.append(&bytes[..line_start]);
                self.refuse_long_line();
                self.skip_after_cr = cr;
                return drained;
            }
        }
        let cut = if self.eof { bytes.len() } else { line_start };
        self.append(&bytes[..cut]);
        bytes.drain(..cut);
        self.carry = bytes;
        drained
    }

    /// A line longer than [`MAX_LINE`]: refused and skipped.
    /// The rest of the line is skipped by the next refill, so that the error (and the games
    /// before it) are handed out first, however long the line goes on.
    fn refuse_long_line(&mut self) {
        let (at, no) = (self.base + self.text.len(), self.end_line());
        self.bad.push_back((no, long_line(no, at)));
        self.skipping = true;
        self.text.push('\n');
    }

    /// Skips the input to the end of the line being refused (LF, CRLF or CR).
    fn skip_line<R: BufRead>(&mut self, input: &mut R) {
        self.skipping = false;
        let mut after_cr = std::mem::take(&mut self.skip_after_cr);
        loop {
            let (n, done) = match input.fill_buf() {
                Ok([]) | Err(_) => {
                    self.eof = true;
                    break;
                }
                // The LF of a CRLF whose CR ended the bytes before.
                Ok([b'\n', ..]) if after_cr => (1, true),
                Ok(_) if after_cr => (0, true),
                Ok(buf) => match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                    Some(i) if buf[i] == b'\r' => match buf.get(i + 1) {
                        Some(b'\n') => (i + 2, true),
                        Some(_) => (i + 1, true),
                        None => {
                            after_cr = true;
                            (i + 1, false)
                        }
                    },
                    Some(i) => (i + 1, true),
                    None => (buf.len(), false),
                },
            };
            input.consume(n);
            if done {
                break;
            }
        }
    }

    /// Decodes whole lines onto the text; a line that does not decode becomes an empty line
    /// with an error in `bad`.
    fn append(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        if self.undecided {
            if let Some(i) = bytes.iter().position(|b| !b.is_ascii()) {
                let s = bytes[..i]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |j| j + 1);
                let e = bytes[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |j| i + j);
                let line = &bytes[s..e];
                self.encoding = detect_encoding(line.strip_suffix(b"\r").unwrap_or(line), false).0;
                self.undecided = false;
            }
        }
        if decode_into(&mut self.text, bytes, self.encoding) {
            return;
        }
        let lines = bytes.split_inclusive(|&b| b == b'\n');
        for (no, line) in (self.end_line()..).zip(lines) {
            let body = line.strip_suffix(b"\n").unwrap_or(line);
            let body = body.strip_suffix(b"\r").unwrap_or(body);
            if !decode_into(&mut self.text, body, self.encoding) {
                let message = format!(
                    "line {} is not valid {} (the encoding was chosen from the start of the input; \
                     set it explicitly if the input mixes encodings)",
                    no,
                    encoding_name(self.encoding)
                );
                let at = self.base + self.text.len();
                let err = error_at_line(ErrorKind::Encoding, message, no, at);
                self.bad.push_back((no, err));
            }
            // The line ending is ASCII in every supported encoding.
            self.text
                .push_str(&String::from_utf8_lossy(&line[body.len()..]));
        }
    }
}

/// Appends `bytes` decoded; `false` (nothing appended) when they are not valid in `enc`.
fn decode_into(out: &mut String, bytes: &[u8], enc: Encoding) -> bool {
    match enc {
        Encoding::Utf8 => match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                true
            }
            Err(_) => false,
        },
        _ => match decode(bytes, Some(enc)) {
            Ok((s, _)) => {
                out.push_str(&s);
                true
            }
            Err(_) => false,
        },
    }
}

/// The encoding of a sample: the one it declares if it fits, else the first of UTF-8, CP932
/// and EUC-JP that fits; with the length of the sample that fits (see [`fitting_len`]).
fn detect_encoding(sample: &[u8], cut: bool) -> (Encoding, Option<usize>) {
    let declared = declared_encoding(sample);
    declared
        .into_iter()
        .chain([Encoding::Utf8, Encoding::ShiftJis, Encoding::EucJp])
        .find_map(|e| fitting_len(sample, e, cut).map(|n| (e, Some(n))))
        .unwrap_or((Encoding::Utf8, None))
}

/// The length of `sample` that decodes with `enc`: all of it, or, when the sample ends inside
/// a line (`cut`), all but the (at most three) bytes of a character cut short.
fn fitting_len(sample: &[u8], enc: Encoding, cut: bool) -> Option<usize> {
    let most = if cut { sample.len().min(3) } else { 0 };
    (0..=most)
        .map(|k| sample.len() - k)
        .find(|&n| decode_into(&mut String::new(), &sample[..n], enc))
}

fn encoding_name(e: Encoding) -> &'static str {
    match e {
        Encoding::Utf8 => "UTF-8",
        Encoding::ShiftJis => "Shift_JIS (CP932)",
        Encoding::EucJp => "EUC-JP",
    }
}

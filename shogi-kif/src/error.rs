//! Errors and diagnostics, each located in the source text.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Where something is in the decoded source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// 1-based line number (0 when the problem is not tied to a line).
    pub line: u32,
    /// 1-based column, counted in characters (not bytes).
    pub column: u32,
    /// Byte offset of the start of the offending text in the decoded source.
    pub start: usize,
    /// Byte offset just past the offending text.
    pub end: usize,
}

/// What went wrong while reading a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The bytes are not text in any supported encoding.
    Encoding,
    /// The format could not be recognised.
    UnknownFormat,
    /// A line does not follow the syntax of the format.
    Syntax,
    /// A number is out of range (ply numbers, times, counts, coordinates).
    Number,
    /// The start position (handicap, board diagram, CSA `P` lines, SFEN) is unusable.
    Position,
    /// A written move names no piece that can make it.
    NoSuchMove,
    /// A written move fits more than one piece (KI2 without enough qualifiers).
    AmbiguousMove,
    /// The move is understood but breaks a rule of shogi.
    IllegalMove,
    /// Variations (or a JKF document's JSON) are nested deeper than the reader allows.
    TooDeep,
    /// The input exceeds a size limit of the reader.
    TooLarge,
    /// The input ended in the middle of something.
    Truncated,
    /// JSON (JKF) that does not match the schema.
    Json,
    /// The input could not be read (an I/O error while streaming).
    Io,
}

impl ErrorKind {
    /// A short lowercase name, stable for machine output.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Encoding => "encoding",
            ErrorKind::UnknownFormat => "unknown-format",
            ErrorKind::Syntax => "syntax",
            ErrorKind::Number => "number",
            ErrorKind::Position => "position",
            ErrorKind::NoSuchMove => "no-such-move",
            ErrorKind::AmbiguousMove => "ambiguous-move",
            ErrorKind::IllegalMove => "illegal-move",
            ErrorKind::TooDeep => "too-deep",
            ErrorKind::TooLarge => "too-large",
            ErrorKind::Truncated => "truncated",
            ErrorKind::Json => "json",
            ErrorKind::Io => "io",
        }
    }
}

/// The longest piece of a source line kept in an error (in characters).
const MAX_LINE_TEXT: usize = 200;

/// A record that could not be read, with the place and the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadError {
    /// The class of problem.
    pub kind: ErrorKind,
    /// Human-readable explanation (English).
    pub message: String,
    /// Where in the decoded text.
    pub location: Location,
    /// The text of the offending line (cut to 200 characters).
    pub line_text: String,
    /// The ply (1-based move number) concerned, when the error is about a move.
    pub ply: Option<u32>,
    /// The move as written in the source, when the error is about a move.
    pub written: Option<Box<str>>,
    /// The file name, when the caller supplied it (see [`ReadError::with_path`]).
    pub path: Option<Box<str>>,
}

impl ReadError {
    /// A new error without location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> ReadError {
        ReadError {
            kind,
            message: message.into(),
            location: Location::default(),
            line_text: String::new(),
            ply: None,
            written: None,
            path: None,
        }
    }

    /// A new error located at `loc` within `src` (the decoded text).
    pub(crate) fn at(
        kind: ErrorKind,
        message: impl Into<String>,
        src: &str,
        loc: Location,
    ) -> ReadError {
        let mut e = ReadError::new(kind, message);
        e.location = loc;
        e.line_text = line_text_at(src, loc.start);
        e
    }

    /// Attach a file name, used when rendering.
    pub fn with_path(mut self, path: impl Into<String>) -> ReadError {
        self.path = Some(path.into().into_boxed_str());
        self
    }

    pub(crate) fn with_ply(mut self, ply: u32, written: Option<String>) -> ReadError {
        self.ply = Some(ply);
        self.written = written.map(String::into_boxed_str);
        self
    }

    /// Render as `path:line:col: error: message`, followed by the line and a caret.
    pub fn render(&self) -> String {
        render(
            self.path.as_deref(),
            "error",
            &self.message,
            self.location,
            &self.line_text,
        )
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.as_deref().unwrap_or("<input>");
        if self.location.line > 0 {
            write!(
                f,
                "{}:{}:{}: error: {}",
                path, self.location.line, self.location.column, self.message
            )
        } else {
            write!(f, "{}: error: {}", path, self.message)
        }
    }
}

impl std::error::Error for ReadError {}

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; the record was read as its author most likely meant.
    Note,
    /// Something looks wrong but the record could be read.
    Warning,
    /// The record is invalid.
    Error,
}

impl Severity {
    fn word(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A located remark about a record (unknown lines, contradicted endings, …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// How serious.
    pub severity: Severity,
    /// 1-based line (0 = not tied to a line).
    pub line: u32,
    /// 1-based column in characters.
    pub column: u32,
    /// Human-readable explanation.
    pub message: String,
    /// The text of the line concerned (cut to 200 characters).
    pub line_text: String,
}

impl Diagnostic {
    pub(crate) fn at(
        severity: Severity,
        message: impl Into<String>,
        src: &str,
        loc: Location,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            line: loc.line,
            column: loc.column,
            message: message.into(),
            line_text: if loc.line > 0 {
                line_text_at(src, loc.start)
            } else {
                String::new()
            },
        }
    }

    /// Render as `path:line:col: warning: message` plus the line and a caret.
    pub fn render(&self, path: Option<&str>) -> String {
        let loc = Location {
            line: self.line,
            column: self.column,
            start: 0,
            end: 0,
        };
        render(
            path,
            self.severity.word(),
            &self.message,
            loc,
            &self.line_text,
        )
    }
}

impl From<ReadError> for Diagnostic {
    fn from(e: ReadError) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            line: e.location.line,
            column: e.location.column,
            message: e.message,
            line_text: e.line_text,
        }
    }
}

fn render(path: Option<&str>, word: &str, message: &str, loc: Location, line_text: &str) -> String {
    let path = path.unwrap_or("<input>");
    if loc.line == 0 {
        return format!("{path}: {word}: {message}");
    }
    let mut out = format!("{path}:{}:{}: {word}: {message}", loc.line, loc.column);
    if !line_text.is_empty() {
        let gutter = loc.line.to_string().len();
        out.push('\n');
        out.push_str(&format!("{:gutter$} |\n", ""));
        out.push_str(&format!("{} | {}\n", loc.line, line_text));
        // Caret under the column; wide (CJK) characters take two cells. A long line was cut
        // to a window around the column (see `line_text_at`).
        let mut index = loc.column.saturating_sub(1) as usize;
        if line_text.starts_with('…') {
            index = index - window_start(loc.column) + 1;
        }
        let mut pad = 0usize;
        for c in line_text.chars().take(index) {
            pad += if is_wide(c) { 2 } else { 1 };
        }
        let width = line_text
            .chars()
            .nth(index)
            .map_or(1, |c| if is_wide(c) { 2 } else { 1 });
        out.push_str(&format!(
            "{:gutter$} | {:pad$}{}",
            "",
            "",
            "^".repeat(width)
        ));
    }
    out
}

fn is_wide(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6 | 0x25A0..=0x25FF | 0x2600..=0x26FF)
}

/// The line containing byte offset `at`, without its end of line, cut to a sane length.
///
/// A longer line keeps a window of it around `at`, with `…` where it was cut; [`render`] puts
/// the caret in the same window (see [`window_start`]).
pub(crate) fn line_text_at(src: &str, at: usize) -> String {
    let at = floor_char(src, at.min(src.len()));
    let start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = src[start..].find('\n').map_or(src.len(), |i| start + i);
    let line = src[start..end].trim_end_matches('\r');
    let total = line.chars().count();
    if total <= MAX_LINE_TEXT {
        return line.to_string();
    }
    let column = src[start..at.min(start + line.len())].chars().count() + 1;
    let from = window_start(column as u32);
    let mut s = String::with_capacity(MAX_LINE_TEXT * 3);
    if from > 0 {
        s.push('…');
    }
    s.extend(line.chars().skip(from).take(MAX_LINE_TEXT - 2));
    if from + MAX_LINE_TEXT - 2 < total {
        s.push('…');
    }
    s
}

/// Characters of a long line left out before the kept window, for a problem at `column`.
fn window_start(column: u32) -> usize {
    (column.saturating_sub(1) as usize).saturating_sub(MAX_LINE_TEXT / 2)
}

/// `i` moved back to the start of the character it falls in.
#[inline]
pub(crate) fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

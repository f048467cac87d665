//! Shogi game records: read KIF, KI2, CSA, USI/SFEN and JKF into one model, check every
//! move, and write them back in any of these formats.
//!
//! Reading happens in two phases: a syntax layer that needs no rules, then a replay that
//! resolves each written move against the position (with [`shogi_core`]) and fails with the
//! line, column, ply, the move as written and the rule broken.
//!
//! ```
//! let kif = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
//! let record = shogi_kif::read_str(kif, None)?;
//! assert_eq!(record.usi_moves(), ["7g7f", "3c3d"]);
//! let last = record.final_position().expect("legal record");
//! println!("{}", last.to_sfen());
//! assert_eq!(last.to_sfen(), "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
//! # Ok::<(), shogi_kif::ReadError>(())
//! ```
//!
//! Errors render like a compiler's:
//!
//! ```
//! let err = shogi_kif::read_str("1 ７六歩(77)\n2 ３五歩(33)\n", None).unwrap_err();
//! assert_eq!(err.to_string(), "<input>:2:3: error: move 2 ３五歩(33): the piece does not move that way");
//! ```

mod csa;
mod encode;
mod encoding;
mod ending;
mod error;
mod jkf;
mod kif;
mod loss;
mod model;
mod raw;
mod replay;
mod stream;
mod text;
mod usi;
mod validate;
mod write;

pub use encode::{Unencodable, encode, encode_lossy, substitute};
pub use encoding::{Encoding, declared_encoding, decode};
pub use ending::EndingKind;
pub use error::{Diagnostic, ErrorKind, Location, ReadError, Severity};
pub use loss::{Loss, losses};
pub use model::{Ending, Header, HeaderEntry, HeaderKey, Line, MoveNode, MoveTime, Record, Start};
pub use stream::RecordStream;
pub use validate::validate;
pub use write::{WriteOptions, write, write_to, write_to_with, write_with};

use serde::Serialize;
use std::borrow::Cow;

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Format {
    /// Kakinoki KIF (numbered move lines with source squares).
    Kif,
    /// KI2 (moves without sources, resolved with 右 左 直 上 引 寄).
    Ki2,
    /// CSA standard record format (V2.2 / V3.0; several games split by `/`).
    Csa,
    /// USI `position …` lines, one record a line.
    Usi,
    /// Bare SFEN positions, one a line.
    Sfen,
    /// JSON Kifu Format.
    Jkf,
}

impl Format {
    /// The format a file extension suggests (`kif`, `kifu`, `ki2`, `ki2u`, `csa`, `usi`, `sfen`, `jkf`, `json`).
    pub fn from_extension(ext: &str) -> Option<Format> {
        Some(match ext.to_ascii_lowercase().as_str() {
            "kif" | "kifu" => Format::Kif,
            "ki2" | "ki2u" => Format::Ki2,
            "csa" => Format::Csa,
            "usi" => Format::Usi,
            "sfen" => Format::Sfen,
            "jkf" | "json" => Format::Jkf,
            _ => return None,
        })
    }

    /// Lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Usi => "usi",
            Format::Sfen => "sfen",
            Format::Jkf => "jkf",
        }
    }

    /// Recognise the format from the text; `hint` (e.g. from the extension) breaks ties.
    pub fn detect(text: &str, hint: Option<Format>) -> Option<Format> {
        let t = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
        if t.starts_with('{') {
            return Some(Format::Jkf);
        }
        // Kakinoki's own declaration line settles it.
        if t.starts_with("#KIF version=") {
            return Some(Format::Kif);
        }
        if t.starts_with("#KI2 version=") {
            return Some(Format::Ki2);
        }
        let (mut kif, mut ki2, mut csa, mut usi, mut sfen) = (0u32, 0u32, 0u32, 0u32, 0u32);
        for line in t.lines().take(400) {
            // Stop early once one format is far ahead of every other.
            let scores = [kif, ki2, csa, usi, sfen];
            let best = scores.iter().copied().max().unwrap_or(0);
            if best >= 45 && scores.iter().filter(|&&s| s * 5 > best).count() == 1 {
                break;
            }
            let l = line.trim();
            let b = l.as_bytes();
            if l.is_empty() {
                continue;
            }
            if l.starts_with("position ") || l.starts_with("startpos") {
                usi += 3;
            } else if l.starts_with("sfen ") {
                usi += 2;
            } else if l.split_whitespace().next().is_some_and(|f| {
                f.matches('/').count() >= 4
                    && f.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '/' || c == '+')
            }) {
                sfen += 2;
            } else if is_csa_move(b) || is_csa_position(l) {
                csa += 3;
            } else if l.starts_with("V2")
                || l.starts_with("V3")
                || l.starts_with("N+")
                || l.starts_with("N-")
                || (l.starts_with('$') && l.contains(':'))
                || l.starts_with('%')
            {
                csa += 2;
            } else if l.starts_with('\'') {
                csa += 1;
            } else if is_kif_move(l) || l.starts_with("手数-") || l.starts_with("手数－") {
                kif += 3;
            } else if l.starts_with(['▲', '△', '▼', '▽', '☗', '☖']) && !l.starts_with("手数")
            {
                ki2 += 3;
            } else if l.contains('：')
                || l.starts_with('*')
                || l.starts_with('#')
                || l.starts_with('|')
            {
                kif += 1;
            }
        }
        let scores = [
            (Format::Kif, kif),
            (Format::Ki2, ki2),
            (Format::Csa, csa),
            (Format::Usi, usi),
            (Format::Sfen, sfen),
        ];
        let best = scores.iter().map(|s| s.1).max().unwrap_or(0);
        if best == 0 {
            return hint;
        }
        if let Some(h) = hint {
            if scores.iter().any(|s| s.0 == h && s.1 == best) {
                return Some(h);
            }
        }
        scores.iter().find(|s| s.1 == best).map(|s| s.0)
    }
}

fn is_csa_move(b: &[u8]) -> bool {
    b.len() >= 7 && (b[0] == b'+' || b[0] == b'-') && b[1..5].iter().all(u8::is_ascii_digit)
}

fn is_csa_position(l: &str) -> bool {
    let b = l.as_bytes();
    l.starts_with("PI")
        || (b.len() > 2 && b[0] == b'P' && (b[1].is_ascii_digit() || b[1] == b'+' || b[1] == b'-'))
}

fn is_kif_move(l: &str) -> bool {
    l.starts_with(|c: char| c.is_ascii_digit())
        && kif::parse_ja(
            l.trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start(),
        )
        .is_ok()
}

/// Options for reading.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// The format, when known; otherwise detected from the content.
    pub format: Option<Format>,
    /// A hint (usually from the file extension) used only to break ties in detection.
    pub hint: Option<Format>,
    /// Force an encoding instead of detecting it.
    pub encoding: Option<Encoding>,
}

/// Read one record from bytes (any supported encoding). `hint` helps format detection.
///
/// A multi-game input (CSA with `/`, several USI lines) gives its first record, with a note
/// in [`Record::diagnostics`]; use [`Records`] to read them all.
pub fn read(bytes: &[u8], hint: Option<Format>) -> Result<Record, ReadError> {
    read_with(
        bytes,
        ReadOptions {
            hint,
            ..ReadOptions::default()
        },
    )
}

/// Read one record from bytes with explicit options.
pub fn read_with(bytes: &[u8], opts: ReadOptions) -> Result<Record, ReadError> {
    let (text, _) = decode(bytes, opts.encoding)?;
    read_str_with(&text, opts)
}

/// Read one record from text.
pub fn read_str(text: &str, hint: Option<Format>) -> Result<Record, ReadError> {
    read_str_with(
        text,
        ReadOptions {
            hint,
            ..ReadOptions::default()
        },
    )
}

fn read_str_with(text: &str, opts: ReadOptions) -> Result<Record, ReadError> {
    let mut it = Records::from_str_with(text, opts)?;
    let first = it.next().unwrap_or_else(|| {
        Err(ReadError::new(
            ErrorKind::Truncated,
            "the input holds no record",
        ))
    });
    let mut rec = first?;
    if it.format != Format::Kif
        && it.format != Format::Ki2
        && it.format != Format::Jkf
        && it.has_more()
    {
        rec.diagnostics.push(Diagnostic {
            severity: Severity::Note,
            line: 0,
            column: 0,
            message: "the input holds more records; only the first was read".into(),
            line_text: String::new(),
        });
    }
    Ok(rec)
}

/// Parse text into a raw record of the given format (syntax only).
fn parse_raw(format: Format, text: &str) -> Result<raw::RawRecord, ReadError> {
    match format {
        Format::Kif | Format::Ki2 => kif::parse(text),
        Format::Jkf => jkf::parse(text),
        Format::Csa => csa::parse(text, 0, text.len(), 1),
        Format::Usi | Format::Sfen => {
            let line = text::Lines::new(text).find(|l| !text::trim(l.text).is_empty());
            match line {
                Some(l) => usi::parse_line(text, l),
                None => Err(ReadError::new(ErrorKind::Truncated, "empty input")),
            }
        }
    }
}

/// The records of a (possibly multi-game) input, read one at a time.
///
/// Games are split before they are parsed, so an error in one game does not stop the
/// next, and memory does not grow with the number of games.
pub struct Records<'a> {
    text: Cow<'a, str>,
    format: Format,
    pos: usize,
    line: u32,
    done: bool,
}

impl<'a> Records<'a> {
    /// Records from bytes (decoded first).
    pub fn new(bytes: &'a [u8], hint: Option<Format>) -> Result<Records<'a>, ReadError> {
        let (text, _) = decode(bytes, None)?;
        Records::from_cow(
            text,
            ReadOptions {
                hint,
                ..ReadOptions::default()
            },
        )
    }

    /// Records from text.
    pub fn from_str(text: &'a str, hint: Option<Format>) -> Result<Records<'a>, ReadError> {
        Records::from_cow(
            Cow::Borrowed(text),
            ReadOptions {
                hint,
                ..ReadOptions::default()
            },
        )
    }

    /// Records from text with explicit options (a fixed format, a hint). The encoding option
    /// does not apply: the text is already decoded.
    pub fn from_str_with(text: &'a str, opts: ReadOptions) -> Result<Records<'a>, ReadError> {
        Records::from_cow(Cow::Borrowed(text), opts)
    }

    fn from_cow(text: Cow<'a, str>, opts: ReadOptions) -> Result<Records<'a>, ReadError> {
        let format = match opts.format.or_else(|| Format::detect(&text, opts.hint)) {
            Some(f) => f,
            None if text::trim(&text).is_empty() => {
                return Err(ReadError::new(ErrorKind::Truncated, "the input is empty"));
            }
            None => {
                return Err(ReadError::new(
                    ErrorKind::UnknownFormat,
                    "the format of the input is not recognised",
                ));
            }
        };
        Ok(Records {
            text,
            format,
            pos: 0,
            line: 1,
            done: false,
        })
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    fn has_more(&self) -> bool {
        if self.done {
            return false;
        }
        let rest = &self.text[self.pos.min(self.text.len())..];
        match self.format {
            Format::Csa => rest.lines().any(|l| {
                let t = l.trim();
                !t.is_empty() && !t.starts_with('\'') && t != "/"
            }),
            _ => rest.lines().any(|l| !l.trim().is_empty()),
        }
    }
}

impl Records<'_> {
    /// The next record with its diagnostics as [`validate`] gives them, found in the same
    /// replay: each move's legality is checked once.
    pub fn next_validated(&mut self) -> Option<Result<(Record, Vec<Diagnostic>), ReadError>> {
        let next = self.next_replayed(true)?;
        Some(next.map(|(record, main)| validate::with_diagnostics(record, main)))
    }

    fn next_replayed(
        &mut self,
        facts: bool,
    ) -> Option<Result<(Record, Option<replay::MainLine>), ReadError>> {
        if self.done {
            return None;
        }
        let text: &str = &self.text;
        let replay = |r: raw::RawRecord| replay::replay_main(r, text, facts);
        match self.format {
            Format::Kif | Format::Ki2 | Format::Jkf => {
                self.done = true;
                Some(parse_raw(self.format, text).and_then(replay))
            }
            Format::Csa => loop {
                let (start, end, next) = csa::next_game(text, self.pos)?;
                let first_line = self.line;
                self.line += text[start..next].matches('\n').count() as u32;
                self.pos = next;
                let body = &text[start..end];
                let empty = body.lines().all(|l| {
                    let t = l.trim();
                    t.is_empty() || t.starts_with('\'')
                });
                if empty {
                    if next >= text.len() {
                        self.done = true;
                        return None;
                    }
                    continue;
                }
                return Some(csa::parse(text, start, end, first_line).and_then(replay));
            },
            Format::Usi | Format::Sfen => {
                let mut lines = text::Lines::starting_at(text, self.pos, self.line);
                for l in lines.by_ref() {
                    self.pos = l.start + l.text.len();
                    self.pos = text[self.pos..]
                        .find('\n')
                        .map_or(text.len(), |i| self.pos + i + 1);
                    self.line = l.no + 1;
                    if text::trim(l.text).is_empty() || l.text.trim_start().starts_with('#') {
                        continue;
                    }
                    return Some(usi::parse_line(text, l).and_then(replay));
                }
                self.done = true;
                None
            }
        }
    }
}

impl Iterator for Records<'_> {
    type Item = Result<Record, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_replayed(false).map(|r| r.map(|r| r.0))
    }
}

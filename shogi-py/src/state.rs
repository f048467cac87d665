//! The pickled form of a `Record`: everything a [`GameData`] holds (the record with its
//! variations, times, comments, bookmarks and source lines, the error, the diagnostics, the
//! ratings) as compact bytes, so that Dask and multiprocessing can ship records and get back
//! an equal one. No record format can do this: each leaves something out (subsecond times,
//! bookmarks, the error of an unreadable game).
//!
//! Bytes: a version byte, then the fields in order; numbers as LEB128 varints, strings as a
//! length and UTF-8, options as a 0/1 byte before the value, lists as a count before the
//! items.

use crate::reading::GameData;
use shogi_core::{Color, Handicap, Move, Variant};
use shogi_kif::{
    Diagnostic, Encoding, Ending, EndingKind, ErrorKind, Format, Header, HeaderEntry, HeaderKey,
    Line, MoveNode, MoveTime, ReadError, Record, Severity, Start,
};

/// The version byte of the form written now.
const VERSION: u8 = 1;
/// Variations nested deeper than this are refused when decoding (the readers stop at 64).
const MAX_DEPTH: u32 = 1024;

/// The endings with their codes (0 is `Other`, with its word).
const ENDINGS: [EndingKind; 15] = [
    EndingKind::Resign,
    EndingKind::Interrupt,
    EndingKind::Repetition,
    EndingKind::Impasse,
    EndingKind::Declaration,
    EndingKind::TimeUp,
    EndingKind::FoulWin,
    EndingKind::FoulLoss,
    EndingKind::Mate,
    EndingKind::NoMate,
    EndingKind::MaxMoves,
    EndingKind::Draw,
    EndingKind::SealedMove,
    EndingKind::WinByDefault,
    EndingKind::LossByDefault,
];

/// The error kinds, found by name when decoding.
const ERROR_KINDS: [ErrorKind; 13] = [
    ErrorKind::Encoding,
    ErrorKind::UnknownFormat,
    ErrorKind::Syntax,
    ErrorKind::Number,
    ErrorKind::Position,
    ErrorKind::NoSuchMove,
    ErrorKind::AmbiguousMove,
    ErrorKind::IllegalMove,
    ErrorKind::TooDeep,
    ErrorKind::TooLarge,
    ErrorKind::Truncated,
    ErrorKind::Json,
    ErrorKind::Io,
];

/// Writes the pickled form.
#[derive(Default)]
struct Out(Vec<u8>);

impl Out {
    fn u64(&mut self, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(b);
                return;
            }
            self.0.push(b | 0x80);
        }
    }
    fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn opt<T>(&mut self, v: Option<T>, f: impl FnOnce(&mut Out, T)) {
        match v {
            None => self.0.push(0),
            Some(v) => {
                self.0.push(1);
                f(self, v);
            }
        }
    }
    fn strs(&mut self, v: &[String]) {
        self.u64(v.len() as u64);
        for s in v {
            self.str(s);
        }
    }
    fn time(&mut self, t: Option<MoveTime>) {
        self.opt(t, |o, t| {
            o.opt(t.spent_ms, Out::u64);
            o.opt(t.total_ms, Out::u64);
        });
    }
    fn record(&mut self, r: &Record) {
        self.u64(r.header.entries.len() as u64);
        for e in &r.header.entries {
            match &e.key {
                HeaderKey::Other(k) => {
                    self.0.push(1);
                    self.str(k);
                }
                k => {
                    self.0.push(0);
                    self.str(k.kif());
                }
            }
            self.str(&e.value);
        }
        self.0.push(u8::from(r.start.variant == Variant::Mini));
        self.opt(r.start.handicap, |o, h| {
            let i = Handicap::ALL.iter().position(|x| *x == h).unwrap_or(0);
            o.u64(i as u64);
        });
        self.opt(r.start.name.as_deref(), Out::str);
        self.str(&r.start.sfen);
        self.strs(&r.start_comments);
        self.strs(&r.start_bookmarks);
        self.line(&r.moves);
        self.diagnostics(&r.diagnostics);
    }
    fn line(&mut self, l: &Line) {
        self.u64(l.moves.len() as u64);
        for n in &l.moves {
            self.str(&n.mv.to_usi());
            self.time(n.time);
            self.strs(&n.comments);
            self.strs(&n.bookmarks);
            self.lines(&n.variations);
            self.opt(n.foul.as_deref(), Out::str);
            self.u64(u64::from(n.source_line));
        }
        self.opt(l.ending.as_ref(), |o, e| {
            match ENDINGS.iter().position(|k| *k == e.kind) {
                Some(i) => o.u64(i as u64 + 1),
                None => {
                    o.u64(0);
                    o.str(e.kind.japanese());
                }
            }
            o.opt(e.offender, |o, c| o.0.push(u8::from(c == Color::White)));
            o.time(e.time);
            o.strs(&e.comments);
            o.strs(&e.bookmarks);
            o.lines(&e.variations);
            o.u64(u64::from(e.source_line));
        });
    }
    fn lines(&mut self, v: &[Line]) {
        self.u64(v.len() as u64);
        for l in v {
            self.line(l);
        }
    }
    fn diagnostics(&mut self, v: &[Diagnostic]) {
        self.u64(v.len() as u64);
        for d in v {
            self.0.push(match d.severity {
                Severity::Note => 0,
                Severity::Warning => 1,
                _ => 2,
            });
            self.u64(u64::from(d.line));
            self.u64(u64::from(d.column));
            self.str(&d.message);
            self.str(&d.line_text);
        }
    }
    fn error(&mut self, e: &ReadError) {
        self.str(e.kind.name());
        self.str(&e.message);
        self.u64(u64::from(e.location.line));
        self.u64(u64::from(e.location.column));
        self.u64(e.location.start as u64);
        self.u64(e.location.end as u64);
        self.str(&e.line_text);
        self.opt(e.ply, |o, p| o.u64(u64::from(p)));
        self.opt(e.written.as_deref(), Out::str);
        self.opt(e.path.as_deref(), Out::str);
    }
}

/// The pickled form of a game.
pub fn encode(g: &GameData) -> Vec<u8> {
    let mut o = Out::default();
    o.0.push(VERSION);
    o.opt(g.path.as_deref(), Out::str);
    o.u64(u64::from(g.index));
    o.opt(g.line, |o, l| o.u64(u64::from(l)));
    o.opt(g.format, |o, f| o.str(f.name()));
    o.opt(g.encoding, |o, e| {
        o.str(match e {
            Encoding::Utf8 => "utf-8",
            Encoding::ShiftJis => "shift_jis",
            Encoding::EucJp => "euc-jp",
        })
    });
    o.opt(g.record.as_ref(), Out::record);
    o.opt(g.error.as_ref(), Out::error);
    o.diagnostics(&g.diagnostics);
    for r in g.ratings {
        o.opt(r, |o, r| o.u64(r.to_bits()));
    }
    o.0
}

/// Reads the pickled form; every failure is "corrupt" (the bytes were not written by
/// [`encode`] of this version).
struct In<'a> {
    bytes: &'a [u8],
    depth: u32,
}

type Got<T> = Result<T, String>;

fn corrupt<T>(what: &str) -> Got<T> {
    Err(format!("not a pickled shogitk Record ({what})"))
}

impl In<'_> {
    fn byte(&mut self) -> Got<u8> {
        let Some((&b, rest)) = self.bytes.split_first() else {
            return corrupt("cut short");
        };
        self.bytes = rest;
        Ok(b)
    }
    fn u64(&mut self) -> Got<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        corrupt("number too long")
    }
    fn u32(&mut self) -> Got<u32> {
        u32::try_from(self.u64()?).or_else(|_| corrupt("number out of range"))
    }
    fn str(&mut self) -> Got<String> {
        let n = usize::try_from(self.u64()?).unwrap_or(usize::MAX);
        if n > self.bytes.len() {
            return corrupt("cut short");
        }
        let (s, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        String::from_utf8(s.to_vec()).or_else(|_| corrupt("text not UTF-8"))
    }
    fn opt<T>(&mut self, f: impl FnOnce(&mut Self) -> Got<T>) -> Got<Option<T>> {
        match self.byte()? {
            0 => Ok(None),
            1 => f(self).map(Some),
            _ => corrupt("bad option"),
        }
    }
    /// A count of items, each at least one byte long (bounds what is allocated).
    fn count(&mut self) -> Got<usize> {
        let n = usize::try_from(self.u64()?).unwrap_or(usize::MAX);
        if n > self.bytes.len() {
            return corrupt("cut short");
        }
        Ok(n)
    }
    fn strs(&mut self) -> Got<Vec<String>> {
        (0..self.count()?).map(|_| self.str()).collect()
    }
    fn time(&mut self) -> Got<Option<MoveTime>> {
        self.opt(|i| {
            Ok(MoveTime {
                spent_ms: i.opt(In::u64)?,
                total_ms: i.opt(In::u64)?,
            })
        })
    }
    fn record(&mut self) -> Got<Record> {
        let mut header = Header::default();
        for _ in 0..self.count()? {
            let key = match self.byte()? {
                0 => HeaderKey::from_kif(&self.str()?),
                1 => HeaderKey::Other(self.str()?),
                _ => return corrupt("bad header key"),
            };
            header.entries.push(HeaderEntry {
                key,
                value: self.str()?,
            });
        }
        let variant = match self.byte()? {
            0 => Variant::Standard,
            1 => Variant::Mini,
            _ => return corrupt("bad variant"),
        };
        let handicap = self.opt(|i| {
            let n = i.u64()?;
            Handicap::ALL
                .get(usize::try_from(n).unwrap_or(usize::MAX))
                .copied()
                .map_or_else(|| corrupt("bad handicap"), Ok)
        })?;
        let start = Start {
            variant,
            handicap,
            name: self.opt(In::str)?,
            sfen: self.str()?,
        };
        Ok(Record {
            header,
            start,
            start_comments: self.strs()?,
            start_bookmarks: self.strs()?,
            moves: self.line()?,
            diagnostics: self.diagnostics()?,
        })
    }
    fn line(&mut self) -> Got<Line> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return corrupt("variations nested too deep");
        }
        let mut moves = Vec::new();
        for _ in 0..self.count()? {
            let usi = self.str()?;
            let Ok(mv) = Move::from_usi(&usi) else {
                return corrupt("bad move");
            };
            moves.push(MoveNode {
                mv,
                time: self.time()?,
                comments: self.strs()?,
                bookmarks: self.strs()?,
                variations: self.lines()?,
                foul: self.opt(In::str)?,
                source_line: self.u32()?,
            });
        }
        let ending = self.opt(|i| {
            let kind = match i.u64()? {
                0 => EndingKind::Other(i.str()?),
                n => match ENDINGS.get(usize::try_from(n - 1).unwrap_or(usize::MAX)) {
                    Some(k) => k.clone(),
                    None => return corrupt("bad ending"),
                },
            };
            let offender = i.opt(|i| match i.byte()? {
                0 => Ok(Color::Black),
                1 => Ok(Color::White),
                _ => corrupt("bad colour"),
            })?;
            Ok(Ending {
                kind,
                offender,
                time: i.time()?,
                comments: i.strs()?,
                bookmarks: i.strs()?,
                variations: i.lines()?,
                source_line: i.u32()?,
            })
        })?;
        self.depth -= 1;
        Ok(Line { moves, ending })
    }
    fn lines(&mut self) -> Got<Vec<Line>> {
        (0..self.count()?).map(|_| self.line()).collect()
    }
    fn diagnostics(&mut self) -> Got<Vec<Diagnostic>> {
        (0..self.count()?)
            .map(|_| {
                let severity = match self.byte()? {
                    0 => Severity::Note,
                    1 => Severity::Warning,
                    2 => Severity::Error,
                    _ => return corrupt("bad severity"),
                };
                Ok(Diagnostic {
                    severity,
                    line: self.u32()?,
                    column: self.u32()?,
                    message: self.str()?,
                    line_text: self.str()?,
                })
            })
            .collect()
    }
    fn error(&mut self) -> Got<ReadError> {
        let name = self.str()?;
        let Some(kind) = ERROR_KINDS.iter().find(|k| k.name() == name) else {
            return corrupt("bad error kind");
        };
        let mut e = ReadError::new(*kind, self.str()?);
        e.location.line = self.u32()?;
        e.location.column = self.u32()?;
        e.location.start = usize::try_from(self.u64()?).unwrap_or(usize::MAX);
        e.location.end = usize::try_from(self.u64()?).unwrap_or(usize::MAX);
        e.line_text = self.str()?;
        e.ply = self.opt(In::u32)?;
        e.written = self.opt(In::str)?.map(String::into_boxed_str);
        e.path = self.opt(In::str)?.map(String::into_boxed_str);
        Ok(e)
    }
}

/// The game of a pickled form (a message saying what is wrong when it is not one).
pub fn decode(bytes: &[u8]) -> Result<GameData, String> {
    let mut i = In { bytes, depth: 0 };
    if i.byte()? != VERSION {
        return corrupt("unknown version");
    }
    let g = GameData {
        path: i.opt(In::str)?,
        index: i.u32()?,
        line: i.opt(In::u32)?,
        format: i.opt(|i| {
            let name = i.str()?;
            Format::from_extension(&name).map_or_else(|| corrupt("bad format"), Ok)
        })?,
        encoding: i.opt(|i| {
            let name = i.str()?;
            Encoding::from_label(&name).map_or_else(|| corrupt("bad encoding"), Ok)
        })?,
        record: i.opt(In::record)?,
        error: i.opt(In::error)?,
        diagnostics: i.diagnostics()?,
        ratings: [
            i.opt(|i| i.u64().map(f64::from_bits))?,
            i.opt(|i| i.u64().map(f64::from_bits))?,
        ],
    };
    if !i.bytes.is_empty() {
        return corrupt("bytes left over");
    }
    Ok(g)
}

//! Line scanning shared by the text readers, and the comment and header-value helpers the
//! writers share.

use crate::error::{Location, floor_char};
use std::borrow::Cow;
use std::fmt;

/// One line of the decoded text, without its line ending.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TextLine<'a> {
    /// 1-based line number.
    pub no: u32,
    /// Byte offset of the line start in the whole text.
    pub start: usize,
    /// The text, without `\r\n` / `\n`.
    pub text: &'a str,
}

impl<'a> TextLine<'a> {
    /// Location of the byte range `from..to` (relative to the line start).
    /// Offsets inside a character are moved back to its start.
    #[inline]
    pub fn loc(&self, from: usize, to: usize) -> Location {
        let from = floor_char(self.text, from.min(self.text.len()));
        let to = floor_char(self.text, to.clamp(from, self.text.len()));
        let before = &self.text[..from];
        // Most parts start after ASCII only (a move after its number, a CSA statement after a
        // comma): there a column is a byte.
        let column = if before.is_ascii() {
            from as u32 + 1
        } else {
            before.chars().count() as u32 + 1
        };
        Location {
            line: self.no,
            column,
            start: self.start + from,
            end: self.start + to,
        }
    }

    /// Location of a sub-slice of `self.text` (must point into it).
    pub fn loc_of(&self, part: &str) -> Location {
        let from = self.offset_of(part);
        self.loc(from, from + part.len())
    }

    /// The byte offset of a sub-slice of `self.text` (must point into it) from the line start.
    pub fn offset_of(&self, part: &str) -> usize {
        let base = self.text.as_ptr() as usize;
        let p = part.as_ptr() as usize;
        p.saturating_sub(base).min(self.text.len())
    }

    /// Location of the whole line.
    pub fn whole(&self) -> Location {
        let lead = self.text.len() - self.text.trim_start().len();
        self.loc(lead, self.text.len())
    }
}

/// Locations of parts of one line taken in order, as [`TextLine::loc_of`] gives them, with the
/// columns counted from the previous part rather than from the line start (a USI line of
/// hundreds of moves would otherwise be counted over and over).
pub(crate) struct Columns<'a> {
    line: TextLine<'a>,
    /// A byte offset in the line and its column.
    byte: usize,
    column: u32,
}

impl<'a> Columns<'a> {
    pub fn new(line: TextLine<'a>) -> Columns<'a> {
        Columns {
            line,
            byte: 0,
            column: 1,
        }
    }

    /// Location of a sub-slice of the line (must point into it).
    pub fn loc_of(&mut self, part: &str) -> Location {
        let from = self.line.offset_of(part);
        if from < self.byte || !self.line.text.is_char_boundary(from) {
            return self.line.loc_of(part);
        }
        self.column += self.line.text[self.byte..from].chars().count() as u32;
        self.byte = from;
        let text = self.line.text;
        let to = floor_char(text, (from + part.len()).min(text.len()));
        Location {
            line: self.line.no,
            column: self.column,
            start: self.line.start + from,
            end: self.line.start + to,
        }
    }
}

/// Iterator over the lines of a text, accepting `\n`, `\r\n` and a missing last line ending.
pub(crate) struct Lines<'a> {
    src: &'a str,
    pos: usize,
    no: u32,
}

impl<'a> Lines<'a> {
    pub fn new(src: &'a str) -> Lines<'a> {
        Lines { src, pos: 0, no: 0 }
    }

    /// Start at byte `pos` which is the beginning of line `no` (1-based).
    pub fn starting_at(src: &'a str, pos: usize, no: u32) -> Lines<'a> {
        Lines {
            src,
            pos,
            no: no.saturating_sub(1),
        }
    }

    /// The byte where the next line starts (past the last line handed out and its end).
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = TextLine<'a>;
    #[inline]
    fn next(&mut self) -> Option<TextLine<'a>> {
        if self.pos >= self.src.len() {
            return None;
        }
        let rest = &self.src[self.pos..];
        let (len, adv) = match find_newline(rest.as_bytes()) {
            Some(i) => (i, i + 1),
            None => (rest.len(), rest.len()),
        };
        let mut text = &rest[..len];
        if let Some(stripped) = text.strip_suffix('\r') {
            text = stripped;
        }
        self.no = self.no.saturating_add(1);
        let line = TextLine {
            no: self.no,
            start: self.pos,
            text,
        };
        self.pos += adv;
        Some(line)
    }
}

/// The offset of the first `\n` in `b`, eight bytes at a time (lines are short: this
/// beats both a byte loop and a general search).
///
/// The readers only ever see `\n` and `\r\n` line ends: a bare `\r` is made a `\n` before
/// the text is decoded (see [`bare_cr_to_lf`]).
#[inline]
pub(crate) fn find_newline(b: &[u8]) -> Option<usize> {
    find_byte(b, b'\n')
}

/// Turns every bare CR in `bytes[from..]` (a `\r` not followed by `\n`: the line end of
/// classic Mac OS, and of Kifu for Macintosh) into `\n`, in place, so that LF, CRLF and CR
/// are all line ends, mixed too, and a CRLF stays one. A `\r` that is the last byte is left
/// for the caller to judge unless the bytes are `complete` (the end of the input): the next
/// chunk may start with its `\n`.
///
/// Byte for byte, so every offset stays; and safe before decoding, as no byte of a multi-byte
/// character is `\r` or `\n` in UTF-8, Shift_JIS (CP932) or EUC-JP.
pub(crate) fn bare_cr_to_lf(bytes: &mut [u8], from: usize, complete: bool) {
    let mut i = from;
    // Most inputs have no CR, or none after the last CRLF: memchr looks 32 bytes at a time
    // (AVX2 where the CPU has it), a quarter of what a word-at-a-time search took.
    while let Some(p) = bytes.get(i..).and_then(|rest| memchr::memchr(b'\r', rest)) {
        let at = i + p;
        match bytes.get(at + 1) {
            Some(b'\n') => i = at + 2,
            Some(_) => {
                bytes[at] = b'\n';
                i = at + 1;
            }
            None => {
                if complete {
                    bytes[at] = b'\n';
                }
                return;
            }
        }
    }
}

/// The offset of the first `needle` in `b`, eight bytes at a time.
#[inline]
fn find_byte(b: &[u8], needle: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        let x = u64::from_le_bytes(w) ^ (ONES * u64::from(needle));
        // The lowest byte flagged here is the first zero byte of `x` (flags above it may
        // be false ones, never the lowest).
        let zero = x.wrapping_sub(ONES) & !x & HIGHS;
        if zero != 0 {
            return Some(i + (zero.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    b[i..].iter().position(|&c| c == needle).map(|p| i + p)
}

/// Trim ASCII and ideographic whitespace at both ends.
pub(crate) fn trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}' || c == '\u{feff}')
}

/// Parse a decimal number made of ASCII or full-width digits, refusing absurd values.
pub(crate) fn parse_number(s: &str) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for c in s.chars() {
        let d = match c {
            '0'..='9' => c as u32 - '0' as u32,
            '０'..='９' => c as u32 - '０' as u32,
            _ => return None,
        };
        n = n * 10 + u64::from(d);
        if n > u64::from(u32::MAX) {
            return None;
        }
    }
    u32::try_from(n).ok()
}

/// Parse a Japanese kanji number (一…九十…) up to a few hundred, or ASCII/full-width digits.
pub(crate) fn parse_kanji_number(s: &str) -> Option<u32> {
    if let Some(n) = parse_number(s) {
        return Some(n);
    }
    let mut total = 0u32;
    let mut cur = 0u32;
    let mut any = false;
    for c in s.chars() {
        any = true;
        match kanji_digit(c) {
            Some(d) => cur = d,
            None => match c {
                '十' => {
                    total += if cur == 0 { 10 } else { cur * 10 };
                    cur = 0;
                }
                '百' => {
                    total += if cur == 0 { 100 } else { cur * 100 };
                    cur = 0;
                }
                _ => return None,
            },
        }
    }
    if any { Some(total + cur) } else { None }
}

/// 一..九 → 1..9.
pub(crate) fn kanji_digit(c: char) -> Option<u32> {
    Some(match c {
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

/// Full-width or ASCII digit 1..9.
pub(crate) fn wide_digit(c: char) -> Option<u8> {
    match c {
        '１'..='９' => Some((c as u32 - '０' as u32) as u8),
        '1'..='9' => Some((c as u32 - '0' as u32) as u8),
        _ => None,
    }
}

/// A header value or bookmark on one line: line breaks become spaces.
pub(crate) fn one_line(s: &str) -> Cow<'_, str> {
    if s.contains(['\n', '\r']) {
        Cow::Owned(s.replace(['\n', '\r'], " "))
    } else {
        Cow::Borrowed(s)
    }
}

/// Write each line of each comment after `prefix` (`*` in KIF, `'*` in CSA), one written line
/// per comment line; an empty comment is one empty comment line.
pub(crate) fn write_comments<W: fmt::Write + ?Sized>(
    out: &mut W,
    prefix: &str,
    comments: &[String],
) -> fmt::Result {
    for c in comments {
        if c.is_empty() {
            writeln!(out, "{prefix}")?;
        }
        for part in c.lines() {
            writeln!(out, "{prefix}{}", one_line(part))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod newline_tests {
    use super::*;

    #[test]
    fn newline_search_finds_the_first() {
        for len in 0..40 {
            for at in 0..=len {
                let mut b: Vec<u8> = (0..len).map(|k| b"ab\r\x8a\x0b\xff "[k % 7]).collect();
                if at < len {
                    b[at] = b'\n';
                    if at + 3 < len {
                        b[at + 3] = b'\n';
                    }
                }
                let want = b.iter().position(|&c| c == b'\n');
                assert_eq!(find_newline(&b), want, "{b:?}");
            }
        }
    }

    #[test]
    fn the_word_search_finds_the_first() {
        for len in 0..80 {
            for at in 0..=len {
                for needle in [b'\r', b'\n', 0x80, 0] {
                    let mut b: Vec<u8> = (0..len)
                        .map(|k| b"ab\x0c\x8a\x0e\xff\x7f "[k % 8])
                        .collect();
                    if at < len {
                        b[at] = needle;
                        if at + 5 < len {
                            b[at + 5] = needle;
                        }
                    }
                    let want = b.iter().position(|&c| c == needle);
                    assert_eq!(find_byte(&b, needle), want, "{b:?}");
                }
            }
        }
    }

    #[test]
    fn bare_crs_as_a_byte_loop_has_them() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // A round in three has CRs far apart (long stretches for memchr's wide steps).
            let sparse = round % 3 == 0;
            let len = (state % if sparse { 400 } else { 90 }) as usize;
            let mut r = state;
            let b: Vec<u8> = (0..len)
                .map(|k| {
                    r = r.rotate_left(7) ^ k as u64;
                    match (sparse, r % 13) {
                        (true, _) if r % 29 != 0 => b"ab\n\x82xyzw0123"[(r % 11) as usize],
                        (_, x) => b"ab\r\n\r\x82xyzw0123"[x as usize],
                    }
                })
                .collect();
            let (from, complete) = ((state >> 40) as usize % (len + 1), round % 2 == 0);
            let mut want = b.clone();
            for i in from..len {
                if want[i] == b'\r' && want.get(i + 1) != Some(&b'\n') && (complete || i + 1 < len)
                {
                    want[i] = b'\n';
                }
            }
            let mut ours = b.clone();
            bare_cr_to_lf(&mut ours, from, complete);
            assert_eq!(ours, want, "{b:?} {from} {complete}");
        }
    }

    #[test]
    fn bare_crs_become_line_feeds_and_crlf_stays() {
        let cases: [(&[u8], bool, &[u8]); 8] = [
            (b"a\rb\rc", true, b"a\nb\nc"),
            (b"a\r\nb\r\n", true, b"a\r\nb\r\n"),
            (b"a\rb\r\nc\nd\r", true, b"a\nb\r\nc\nd\n"),
            (b"a\r", false, b"a\r"),
            (b"a\r\r\n\r", false, b"a\n\r\n\r"),
            (b"\r\r\r", true, b"\n\n\n"),
            (
                b"0123456789abcdef\r0123456789\r",
                true,
                b"0123456789abcdef\n0123456789\n",
            ),
            (b"", true, b""),
        ];
        for (input, complete, want) in cases {
            let mut b = input.to_vec();
            bare_cr_to_lf(&mut b, 0, complete);
            assert_eq!(b, want, "{input:?}");
        }
        // From an offset: a CR before it is not looked at.
        let mut b = b"a\rb\rc".to_vec();
        bare_cr_to_lf(&mut b, 2, true);
        assert_eq!(b, b"a\rb\nc");
    }

    #[test]
    fn columns_give_what_loc_of_gives() {
        let text = "position sfen 8k/9 b あ 1 moves 7g7f ７六 3c3d\u{3000}x 𠮷 8h2b+";
        let line = TextLine {
            no: 3,
            start: 100,
            text,
        };
        let mut columns = Columns::new(line);
        for tok in text.split([' ', '\u{3000}']) {
            assert_eq!(columns.loc_of(tok), line.loc_of(tok), "{tok}");
        }
    }

    /// A column counts characters: bytes after ASCII only, characters after anything else;
    /// an offset inside a character is moved back to its start.
    #[test]
    fn columns_count_characters() {
        let line = TextLine {
            no: 4,
            start: 100,
            text: "ab７六歩 x",
        };
        let at = |from: usize| {
            let l = line.loc(from, from + 1);
            (l.column, l.start)
        };
        assert_eq!(at(0), (1, 100));
        assert_eq!(at(2), (3, 102));
        assert_eq!(at(5), (4, 105));
        assert_eq!(at(6), (4, 105));
        assert_eq!(at(11), (6, 111));
        assert_eq!(at(12), (7, 112));
        for from in 0..=line.text.len() {
            let start = floor_char(line.text, from);
            let chars = line.text[..start].chars().count() as u32 + 1;
            assert_eq!(at(from), (chars, 100 + start), "{from}");
        }
    }
}

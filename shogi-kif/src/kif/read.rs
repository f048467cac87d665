//! KIF move lines: numbering, variations (変化), times, special moves.

use super::Parser;
use super::moves::{parse_kif_common, parse_kif_time};
use crate::ending::EndingKind;
use crate::error::{ErrorKind, Location, ReadError};
use crate::japanese::{self, JaMove, piece_prefix};
use crate::limits::move_limit;
use crate::raw::*;
use crate::text::{TextLine, parse_number, trim, wide_digit};

impl<'a> Parser<'a> {
    pub(super) fn variation(&mut self, line: TextLine<'a>, tt: &'a str) -> Result<(), ReadError> {
        let rest = tt["変化".len()..].trim_start_matches(['：', ':', ' ', '\u{3000}']);
        let digits: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
            .collect();
        let n = parse_number(&digits)
            .filter(|n| (1..=10_000_000).contains(n))
            .ok_or_else(|| {
                self.err(
                    ErrorKind::Syntax,
                    "変化 needs a move number (変化：N手)",
                    line.loc_of(tt),
                )
            })?;
        self.pending = Some((n, line.loc_of(tt)));
        self.in_variation = true;
        Ok(())
    }

    /// Make the current path reach `len` nodes by falling back to enclosing lines.
    pub(super) fn fit_path(&mut self, len: usize, loc: Location) -> bool {
        let mut warned = false;
        while self.path.len() < len {
            // The last node of the path that is an alternative (not its parent's first child).
            let alt = (1..self.path.len()).rev().find(|&j| {
                let parent = self.path[j - 1];
                self.rec.nodes[parent as usize].children.first() != Some(self.path[j])
            });
            let Some(j) = alt else { return false };
            self.path.truncate(j);
            loop {
                let tip = *self.path.last().unwrap_or(&0);
                match self.rec.nodes[tip as usize].children.first() {
                    Some(c) if self.path.len() < len => self.path.push(c),
                    _ => break,
                }
            }
            if !warned {
                self.rec.warn(
                    self.src,
                    loc,
                    "the variation does not fit the line above it; attached to the enclosing line",
                );
                warned = true;
            }
        }
        true
    }

    /// Append a node for ply number `number` (None = next ply).
    pub(super) fn place(
        &mut self,
        line: TextLine<'a>,
        number: Option<u32>,
        item: Item,
        loc: Location,
        written: bool,
    ) -> Result<Option<u32>, ReadError> {
        let pending = self.pending.take();
        if let Some(n) = number {
            if self.offset.is_none() {
                if n == 0 {
                    return Err(self.err(ErrorKind::Number, "move numbers start at 1", loc));
                }
                // The first numbered line fixes the numbering (BOD "手数＝N" starts at N+1).
                self.offset = Some(n.saturating_sub(self.path.len() as u32));
            }
        }
        let off = self.offset.unwrap_or(0);
        let wanted = number.or(pending.map(|p| p.0));
        if let (Some((v, vloc)), Some(n)) = (pending, number) {
            if v != n {
                self.rec.warn(
                    self.src,
                    vloc,
                    format!("variation header says move {v} but its first move is numbered {n}"),
                );
            }
        }
        if let Some(n) = wanted {
            let idx = n.checked_sub(off).filter(|&i| i >= 1).ok_or_else(|| {
                self.err(
                    ErrorKind::Number,
                    format!("move number {n} is before the start of the record"),
                    loc,
                )
            })? as usize;
            if pending.is_some() {
                if !self.fit_path(idx, loc) {
                    return Err(self.err(
                        ErrorKind::Syntax,
                        format!("variation at move {n} does not branch from any line above (the main line has {} moves)", self.path.len() - 1),
                        pending.map_or(loc, |p| p.1),
                    ));
                }
                self.path.truncate(idx);
            } else if idx < self.path.len() {
                self.rec.warn(
                    self.src,
                    loc,
                    format!("move number {n} comes again; read as an alternative to the earlier move {n}"),
                );
                self.path.truncate(idx);
            } else if idx > self.path.len() {
                return Err(self.err(
                    ErrorKind::Number,
                    format!(
                        "move number {n} skips moves: expected {}",
                        self.path.len() as u32 + off
                    ),
                    loc,
                ));
            }
        }
        let parent = *self.path.last().unwrap_or(&0);
        if matches!(self.rec.nodes[parent as usize].item, Slot::End(_)) {
            self.rec.warn(
                self.src,
                loc,
                "this line comes after the end of the game; ignored",
            );
            return Ok(None);
        }
        let depth = {
            let p = &self.rec.nodes[parent as usize];
            p.depth + u32::from(!p.children.is_empty())
        };
        if depth > MAX_DEPTH {
            return Err(self.err(
                ErrorKind::TooDeep,
                format!("variations nested deeper than {MAX_DEPTH} levels (the limit)"),
                line.whole(),
            ));
        }
        if let Some(message) = move_limit(self.rec.nodes.len(), self.path.len() - 1) {
            return Err(self.err(ErrorKind::TooLarge, message, loc));
        }
        let idx = self.rec.push(parent, item, loc, written);
        self.path.push(idx);
        self.last = idx;
        Ok(Some(idx))
    }

    /// A KIF move line of the usual shape, read in one pass over its bytes: the move number,
    /// spaces, a move [`parse_kif_common`] reads, and nothing after it but spaces and a
    /// time field. `None` (nothing done) for any other line, which
    /// [`Parser::kif_move_line`] then reads, with the same result for these.
    pub(super) fn simple_kif_move_line(
        &mut self,
        line: TextLine<'a>,
        lead: usize,
    ) -> Option<Result<(), ReadError>> {
        let b = line.text.as_bytes();
        let blank = |c: &u8| *c == b' ' || *c == b'\t';
        let mut i = lead;
        let mut number: u32 = 0;
        while let Some(d) = b.get(i).filter(|c| c.is_ascii_digit()) {
            number = number.checked_mul(10)?.checked_add(u32::from(d - b'0'))?;
            i += 1;
        }
        if number > 10_000_000 || i - lead > 9 {
            return None;
        }
        let spaces = b[i..].iter().take_while(|c| blank(c)).count();
        if spaces == 0 {
            return None;
        }
        // Everything before the move is ASCII: its column is its byte offset plus one.
        let from = i + spaces;
        let (mv, used) = parse_kif_common(&b[from..])?;
        let mut j = from + used;
        j += b[j..].iter().take_while(|c| blank(c)).count();
        let mut time = None;
        if b.get(j) == Some(&b'(') {
            let close = j + b[j..].iter().position(|&c| c == b')')?;
            time = Some(parse_kif_time(line.text.get(j + 1..close)?)?);
            j = close + 1;
            j += b[j..].iter().take_while(|c| blank(c)).count();
        }
        if j != b.len() {
            return None;
        }
        let loc = Location {
            line: line.no,
            column: from as u32 + 1,
            start: line.start + from,
            end: line.start + from + used,
        };
        let item = Item::Move(RawMove::Ja(mv));
        Some(self.place(line, Some(number), item, loc, true).map(|idx| {
            if let Some(idx) = idx {
                self.rec.set_time(idx, time);
            }
        }))
    }

    pub(super) fn kif_move_line(
        &mut self,
        line: TextLine<'a>,
        t: &'a str,
    ) -> Result<(), ReadError> {
        let digits_len = t.bytes().take_while(|b| b.is_ascii_digit()).count();
        let num_text = &t[..digits_len];
        let number = parse_number(num_text)
            .filter(|&n| n <= 10_000_000)
            .ok_or_else(|| {
                self.err(
                    ErrorKind::Number,
                    format!("move number {num_text} is too large"),
                    line.loc_of(num_text),
                )
            })?;
        let rest = t[digits_len..].trim_start_matches([' ', '\t', '\u{3000}']);
        if rest.is_empty() {
            return Err(self.err(
                ErrorKind::Truncated,
                format!("move {number} has no move text"),
                line.loc_of(t),
            ));
        }
        if rest.len() == t.len() - digits_len {
            // "12abc": digits glued to text is not a move line.
            self.rec
                .warn(self.src, line.loc_of(t), "line not understood; ignored");
            return Ok(());
        }
        let parsed = match parse_kif_common(rest.as_bytes()) {
            Some(ok) => Ok(ok),
            None => japanese::parse(rest),
        };
        let (item, used) = match move_or_special(parsed, rest) {
            Ok(ok) => ok,
            Err(reason) => {
                return Err(self
                    .err(
                        ErrorKind::Syntax,
                        format!("move {number}: {reason}"),
                        line.loc_of(rest),
                    )
                    .with_ply(number, Some(first_token(rest).to_string())));
            }
        };
        let (item, used) = whole_unknown_word(item, used, rest);
        let mv_text = &rest[..used];
        let loc = line.loc_of(mv_text);
        let tail = trim(&rest[used..]);
        let time = self.parse_tail(line, tail)?;
        if let Some(idx) = self.place(line, Some(number), item, loc, true)? {
            self.rec.set_time(idx, time);
        }
        Ok(())
    }

    /// After the move text: optional `( m:ss/h:mm:ss)` and an optional `+`.
    pub(super) fn parse_tail(
        &mut self,
        line: TextLine<'a>,
        tail: &'a str,
    ) -> Result<Option<RawTime>, ReadError> {
        let mut tail = tail.trim_end_matches(['+', ' ', '\u{3000}', '\t']);
        let mut time = None;
        if let Some(inner) = tail.strip_prefix('(') {
            let close = inner.find(')');
            let body = match close {
                Some(c) => &inner[..c],
                None => {
                    self.rec.warn(
                        self.src,
                        line.loc_of(tail),
                        "time field has no closing parenthesis",
                    );
                    inner
                }
            };
            match parse_kif_time(body) {
                Some(t) => time = Some(t),
                None => self.rec.warn(
                    self.src,
                    line.loc_of(body),
                    "time field not understood; ignored",
                ),
            }
            tail = close
                .map_or("", |c| trim(&inner[c + 1..]))
                .trim_end_matches(['+', ' ']);
        }
        if !tail.is_empty() {
            self.rec.warn(
                self.src,
                line.loc_of(tail),
                "text after the move not understood; ignored",
            );
        }
        Ok(time)
    }
}

/// An unknown special word on a numbered KIF line is all the text before the time field:
/// a word with spaces or side marks in it (a CSA `%` word or a JKF special written as it was
/// read) reads back as it was written.
fn whole_unknown_word(item: Item, used: usize, rest: &str) -> (Item, usize) {
    match item {
        Item::End(e) if matches!(e.kind, EndingKind::Other(_)) => {
            let end = unknown_word_end(rest).max(used);
            let kind = EndingKind::Other(rest[..end].to_string());
            (Item::end(kind, e.offender), end)
        }
        item => (item, used),
    }
}

/// Where the word of a special line ends in `rest`: before a trailing time field that
/// reads as one, a trailing `+` and blanks.
fn unknown_word_end(rest: &str) -> usize {
    let blanks = ['+', ' ', '\u{3000}', '\t', '\r'];
    let mut body = rest.trim_end_matches(blanks);
    if let Some(open) = body.rfind('(') {
        let inner = body[open + 1..].strip_suffix(')');
        if inner.is_some_and(|t| parse_kif_time(t).is_some()) {
            body = body[..open].trim_end_matches(blanks);
        }
    }
    body.len()
}

/// Whether an unknown ending word written on a numbered KIF line reads back as itself: it
/// is not read as a move nor as a known word, and has no line break, surrounding blanks or
/// trailing time field.
pub(crate) fn kif_word_reads_back(word: &str) -> bool {
    if word.is_empty() || trim(word) != word || word.contains(['\n', '\r', '#']) {
        return false;
    }
    if parse_kif_common(word.as_bytes()).is_some() || japanese::parse(word).is_ok() {
        return false;
    }
    matches!(special_word(word), Some((EndingKind::Other(_), _)))
        && unknown_word_end(word) == word.len()
}

pub(super) fn first_token(s: &str) -> &str {
    let end = s.find([' ', '\u{3000}', '\t']).unwrap_or(s.len());
    &s[..end]
}

/// The item a move text gives: the move it was parsed as, else the special word it is (投了,
/// 中断, …); else the reason the move did not parse.
pub(super) fn move_or_special(
    parsed: Result<(JaMove, usize), &'static str>,
    text: &str,
) -> Result<(Item, usize), &'static str> {
    match parsed {
        Ok((mv, used)) => Ok((Item::Move(RawMove::Ja(mv)), used)),
        Err(reason) => special_word(text)
            .map(|(kind, used)| (Item::end(kind, None), used))
            .ok_or(reason),
    }
}

/// A special-move word at the start of `s` (投了, 中断, Time-up …), with bytes consumed.
pub(super) fn special_word(s: &str) -> Option<(EndingKind, usize)> {
    let end = s
        .find([' ', '\u{3000}', '\t', '(', '（', '▲', '△', '▼', '▽'])
        .unwrap_or(s.len());
    let word = &s[..end];
    if word.is_empty() {
        return None;
    }
    let first = word.chars().next()?;
    // A word starting like a destination is a broken move, not an unknown special.
    if wide_digit(first).is_some() || first == '同' || piece_prefix(word).is_some() {
        return None;
    }
    if word.chars().count() > 20 {
        return None;
    }
    let kind =
        EndingKind::from_japanese(word).unwrap_or_else(|| EndingKind::Other(word.to_string()));
    Some((kind, end))
}

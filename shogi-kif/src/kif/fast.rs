//! The commonest KIF line, a move of the usual shape that continues the line being read,
//! read straight from the text: no line split first, one pass over its bytes.

use super::Parser;
use super::moves::{kif_move, parse_kif_time};
use crate::error::Location;
use crate::limits::{MAX_MOVES, MAX_PLIES};
use crate::raw::*;

impl<'a> Parser<'a> {
    /// The line that starts at byte `pos` of the text (line number `no`), if it is a KIF move
    /// line of the usual shape (`   1 ７六歩(77)`, with blanks and a time field after it or
    /// not) that continues the line being read with nothing to warn about: added, and the
    /// start of the next line returned. `None` (nothing done) for any other line, which
    /// [`Parser::read_line`] then reads: for the lines this takes, it gives the same node.
    #[inline]
    pub(super) fn fast_line(&mut self, pos: usize, no: u32) -> Option<usize> {
        let b = self.src.as_bytes().get(pos..)?;
        let blank = |c: u8| c == b' ' || c == b'\t';
        let digit = |c: u8| u32::from(c.wrapping_sub(b'0'));
        // The number as KIF writers right-align it in four columns, else any blanks and
        // up to seven digits: either way `i` is at the blank after the number.
        let (mut i, number) = match b.get(..5) {
            Some(&[b' ', b' ', b' ', d, b' ']) if d.is_ascii_digit() => (4, digit(d)),
            Some(&[b' ', b' ', c, d, b' ']) if c.is_ascii_digit() && d.is_ascii_digit() => {
                (4, digit(c) * 10 + digit(d))
            }
            Some(&[b' ', c, d, e, b' '])
                if c.is_ascii_digit() && d.is_ascii_digit() && e.is_ascii_digit() =>
            {
                (4, digit(c) * 100 + digit(d) * 10 + digit(e))
            }
            _ => {
                let mut i = 0;
                while b.get(i).is_some_and(|&c| blank(c)) {
                    i += 1;
                }
                let digits = i;
                let mut number: u32 = 0;
                while let Some(&c) = b.get(i).filter(|c| c.is_ascii_digit()) {
                    number = number * 10 + digit(c);
                    i += 1;
                    if i - digits > 7 {
                        return None;
                    }
                }
                if i == digits || !blank(*b.get(i)?) {
                    return None;
                }
                (i, number)
            }
        };
        while b.get(i).is_some_and(|&c| blank(c)) {
            i += 1;
        }
        // All before the move is ASCII: its column is its byte offset plus one.
        let from = i;
        // The usual move takes at most 16 bytes: read from those first, as an array, where
        // the offsets are checked against a constant. A move found there is the move the
        // whole text gives (the window never ends where a move could: the reader is at most
        // at its 16th byte when it looks for what follows the move); when none is found,
        // the text itself is read. (The window is the text's own bytes: a copy on the stack
        // made each byte's load wait on the copy's store.)
        let (mv, used) = match b.get(from..from + 16) {
            Some(w) => {
                let window: &[u8; 16] = w.try_into().ok()?;
                kif_move::<true>(window).or_else(|| kif_move::<true>(&b[from..]))?
            }
            None => kif_move::<true>(&b[from..])?,
        };
        let mut j = from + used;
        while b.get(j).is_some_and(|&c| blank(c)) {
            j += 1;
        }
        let mut time = None;
        if b.get(j) == Some(&b'(') {
            // The field ends on this line or the line is left to the general path.
            let close = j + b[j..].iter().position(|&c| c == b')' || c == b'\n')?;
            if b[close] != b')' {
                return None;
            }
            time = Some(parse_kif_time(self.src.get(pos + j + 1..pos + close)?)?);
            j = close + 1;
            while b.get(j).is_some_and(|&c| blank(c)) {
                j += 1;
            }
        }
        // The line ends here: `\n`, `\r\n` or the end of the text (a last line ending in a
        // lone `\r` is left to the general path).
        let next = match b.get(j..) {
            Some([]) => pos + j,
            Some([b'\n', ..]) => pos + j + 1,
            Some([b'\r', b'\n', ..]) => pos + j + 2,
            _ => return None,
        };
        // Where it goes: the next ply of the line being read, and nothing to warn about.
        let off = self.offset?;
        if self.pending.is_some()
            || number.checked_sub(off) != Some(self.path.len() as u32)
            || self.rec.nodes.len() >= MAX_MOVES
            || self.path.len() > MAX_PLIES
        {
            return None;
        }
        let parent = *self.path.last().unwrap_or(&0);
        let p = &self.rec.nodes[parent as usize];
        if matches!(p.item, Slot::End(_)) || p.children.first().is_some() || p.depth > MAX_DEPTH {
            return None;
        }
        let loc = Location {
            line: no,
            column: from as u32 + 1,
            start: pos + from,
            end: pos + from + used,
        };
        let item = Item::Move(RawMove::Ja(mv));
        let idx = self.rec.push_timed(parent, item, loc, true, time);
        self.path.push(idx);
        self.last = idx;
        Some(next)
    }
}

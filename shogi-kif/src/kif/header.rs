//! KIF header lines (`key：value`, 手合割, hands), and the other lines that are not moves.

use super::Parser;
use crate::ending::EndingKind;
use crate::error::{ErrorKind, Location, ReadError};
use crate::raw::*;
use crate::text::{TextLine, kanji_digit, parse_kanji_number, parse_number, trim};
use shogi_core::{Color, Role};

/// Side named by a label: 先手/下手 = black, 後手/上手 = white.
fn label_side(s: &str) -> Option<Color> {
    match s {
        "先手" | "下手" => Some(Color::Black),
        "後手" | "上手" => Some(Color::White),
        _ => None,
    }
}
/// What a `まで…` line follows: see [`Parser::ki2_before_ending`].
enum Before {
    /// A move by this side, written with a side mark.
    Mover(Color),
    /// The record's start.
    Start,
    /// Anything else: an unmarked move, an ending, or a ply the line does not reach.
    Other,
}

impl<'a> Parser<'a> {
    /// A `まで…` closing line (`rest` follows まで). In the main line it is the record's
    /// closing line. After a KI2 move (one with a side mark) it is also the ending of the
    /// line being read: KI2 has no numbered special lines, so this is how a variation's
    /// ending is written (as tsshogi writes and reads it), and comments after it are the
    /// ending's.
    fn closing_line(
        &mut self,
        line: TextLine<'a>,
        tt: &'a str,
        rest: &str,
    ) -> Result<(), ReadError> {
        let rest = rest.trim_start_matches(['、', ',', ' ']);
        let (digits, after) = rest.split_at(
            rest.find(|c: char| !(c.is_ascii_digit() || ('０'..='９').contains(&c)))
                .unwrap_or(rest.len()),
        );
        let count = parse_number(digits);
        let after = after.strip_prefix("手").unwrap_or(after);
        let after = after.strip_prefix('で').unwrap_or(after);
        let text = trim(after);
        let loc = line.loc_of(tt);
        // Whether the closing line reader knows the text (whose kind, not whether it reads
        // at all, depends on the side).
        let known = crate::ending::closing_known(text) || EndingKind::from_japanese(text).is_some();
        let mut understood = true;
        let end = |kind| Item::end(kind, None);
        match self.ki2_before_ending() {
            _ if text.is_empty() => {}
            Before::Mover(mover) => {
                let kind = crate::ending::ki2_closing_ending(text, !mover);
                understood = known;
                self.place(line, None, end(kind), loc, true)?;
            }
            // A line with no moves at the record's start (KI2 writes the ending of a line
            // with no moves this way too; in the main line it is also the closing line): the
            // replay reads the text for the side to move there. Without it the line's
            // variations would have no ending to hang from.
            Before::Start => {
                understood = known;
                let kind = EndingKind::Other(text.to_string());
                let placed = self.place(line, None, end(kind), loc, true)?;
                if let Some(idx) = placed {
                    self.rec.closing_endings.push((idx, text.to_string()));
                }
            }
            Before::Other => {}
        }
        // A word the closing line reader does not know was kept as the line's ending above;
        // it is not a closing line to check the ending against.
        if self.rec.closing.is_none() && !self.in_variation && understood {
            self.rec.closing = Some(crate::raw::Closing {
                count,
                text: text.to_string(),
                loc,
            });
        }
        Ok(())
    }

    /// What a `まで…` line would follow in the line being read: a move written with a side
    /// mark (KI2), or the record's start (the line has no moves yet); the line has no
    /// ending yet.
    fn ki2_before_ending(&self) -> Before {
        let tip = match self.pending {
            Some((n, _)) => n
                .checked_sub(self.offset.unwrap_or(0))
                .and_then(|idx| self.path.get((idx as usize).checked_sub(1)?)),
            None => self.path.last(),
        };
        let Some(&tip) = tip else {
            return Before::Other;
        };
        match &self.rec.nodes[tip as usize].item {
            Slot::Move(RawMove::Ja(m)) => m.side.map_or(Before::Other, Before::Mover),
            Slot::Root if self.rec.nodes[0].children.is_empty() || self.pending.is_some() => {
                Before::Start
            }
            _ => Before::Other,
        }
    }

    /// A line that is neither a move, a comment nor a board row: the closing line, a
    /// variation header, 手数, the side to move, a header line; anything else is warned of.
    pub(super) fn other_line(&mut self, line: TextLine<'a>, tt: &'a str) -> Result<(), ReadError> {
        if let Some(rest) = tt.strip_prefix("まで") {
            return self.closing_line(line, tt, rest);
        }
        if tt.starts_with("変化") {
            return self.variation(line, tt);
        }
        if tt.starts_with("手数-") || tt.starts_with("手数－") {
            return Ok(());
        }
        if let Some(rest) = tt
            .strip_prefix("手数＝")
            .or_else(|| tt.strip_prefix("手数="))
        {
            let digits: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
                .collect();
            let n = parse_number(&digits).ok_or_else(|| {
                self.err(
                    ErrorKind::Number,
                    "手数＝ needs a move number",
                    line.loc_of(tt),
                )
            })?;
            if n > 100_000 {
                return Err(self.err(
                    ErrorKind::Number,
                    format!("move number {n} is absurd"),
                    line.loc_of(tt),
                ));
            }
            let b = self.board.get_or_insert_with(RawBoard::default);
            b.move_number = Some(n + 1);
            if self.offset.is_none() && self.path.len() == 1 {
                self.offset = Some(n);
            }
            return Ok(());
        }
        if matches!(tt, "先手番" | "後手番" | "上手番" | "下手番") {
            let side = label_side(&tt[..6]);
            let b = self.board.get_or_insert_with(RawBoard::default);
            b.side_to_move = side;
            return Ok(());
        }
        if tt == "盤面回転" {
            return Ok(());
        }
        if self.column_numbers(line, tt) {
            return Ok(());
        }
        if let Some((key, value)) = split_header(tt) {
            return self.header(line, key, value);
        }
        self.rec
            .warn(self.src, line.loc_of(tt), "line not understood; ignored");
        Ok(())
    }

    pub(super) fn header(
        &mut self,
        line: TextLine<'a>,
        key: &str,
        value: &'a str,
    ) -> Result<(), ReadError> {
        let value = trim(value);
        if let Some(who) = key.strip_suffix("の持駒") {
            let side = label_side(who).ok_or_else(|| {
                self.err(
                    ErrorKind::Syntax,
                    format!("unknown side {who:?} in a hand line"),
                    line.loc_of(key),
                )
            })?;
            let hand = self.parse_hand(line, value)?;
            let b = self.board.get_or_insert_with(RawBoard::default);
            if self.board_rows == 0 && self.board_loc == Location::default() {
                self.board_loc = line.loc_of(key);
            }
            b.hands[side as usize] = hand;
            return Ok(());
        }
        if key == "手合割" {
            self.handicap = Some((value.to_string(), line.loc_of(value)));
            return Ok(());
        }
        if self.rec.header.len() >= crate::limits::MAX_HEADER_ENTRIES {
            let message = format!(
                "more than {} header lines (the limit)",
                crate::limits::count(crate::limits::MAX_HEADER_ENTRIES)
            );
            return Err(self.err(ErrorKind::TooLarge, message, line.whole()));
        }
        self.rec.header.push((key.to_string(), value.to_string()));
        Ok(())
    }

    pub(super) fn parse_hand(
        &self,
        line: TextLine<'a>,
        value: &'a str,
    ) -> Result<[u8; 7], ReadError> {
        let mut hand = [0u8; 7];
        if value.is_empty() || value == "なし" {
            return Ok(hand);
        }
        let mut chars = value.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if matches!(c, ' ' | '\u{3000}' | '、' | ',' | '\t') {
                continue;
            }
            let kind = Role::from_kanji(c).and_then(|k| hand_slot(k).map(|i| (k, i)));
            let Some((_, idx)) = kind else {
                return Err(self.err(
                    ErrorKind::Syntax,
                    format!("{c:?} is not a piece that can be in hand"),
                    line.loc_of(&value[i..i + c.len_utf8()]),
                ));
            };
            let mut num = String::new();
            while let Some(&(_, d)) = chars.peek() {
                if kanji_digit(d).is_some() || matches!(d, '十' | '0'..='9' | '０'..='９') {
                    num.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            let n = if num.is_empty() {
                Some(1)
            } else {
                parse_kanji_number(&num)
            };
            let n = n.filter(|&n| n <= 18).ok_or_else(|| {
                self.err(
                    ErrorKind::Number,
                    format!("bad piece count {num:?} in hand"),
                    line.loc_of(&value[i..]),
                )
            })?;
            hand[idx] = hand[idx].saturating_add(n as u8);
        }
        Ok(hand)
    }
}

/// Split `key：value` / `key:value`; refuses lines whose key looks like a move or a sentence.
fn split_header(t: &str) -> Option<(&str, &str)> {
    let i = t.find(['：', ':'])?;
    let key = trim(&t[..i]);
    if key.is_empty() || key.chars().count() > 40 {
        return None;
    }
    let sep = t[i..].chars().next()?;
    Some((key, &t[i + sep.len_utf8()..]))
}

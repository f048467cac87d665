//! KIF and KI2 syntax: header, 手合割, BOD diagrams, move lines, comments, bookmarks,
//! variations and the closing line. No legality here: see `replay`.

pub(crate) mod write;

use crate::ending::EndingKind;
use crate::error::{ErrorKind, Location, ReadError};
use crate::raw::*;
use crate::text::{Line, Lines, kanji_digit, parse_kanji_number, parse_number, trim, wide_digit};

const MARKS: [char; 6] = ['▲', '△', '▼', '▽', '☗', '☖'];

fn mark_side(c: char) -> Option<Side> {
    match c {
        '▲' | '▼' | '☗' => Some(Side::Black),
        '△' | '▽' | '☖' => Some(Side::White),
        _ => None,
    }
}

/// Side named by a label: 先手/下手 = black, 後手/上手 = white.
fn label_side(s: &str) -> Option<Side> {
    match s {
        "先手" | "下手" => Some(Side::Black),
        "後手" | "上手" => Some(Side::White),
        _ => None,
    }
}

struct Parser<'a> {
    src: &'a str,
    rec: RawRecord,
    /// Node indices of the current line: `path[0]` is the root, `path[k]` the node at ply k.
    path: Vec<u32>,
    /// Where comments and bookmarks go.
    last: u32,
    /// Ply numbers in the file minus this = index in the path.
    offset: Option<u32>,
    board: Option<RawBoard>,
    board_rows: u32,
    board_loc: Location,
    board_open: bool,
    handicap: Option<(String, Location)>,
    in_variation: bool,
    pending: Option<(u32, Location)>,
}

/// Parse KIF or KI2 text into a raw record.
pub(crate) fn parse(src: &str) -> Result<RawRecord, ReadError> {
    parse_with(src, true)
}

/// [`parse`], with or without [`Parser::fast_move_line`] (the tests compare the two).
fn parse_with(src: &str, fast: bool) -> Result<RawRecord, ReadError> {
    let mut p = Parser {
        src,
        rec: RawRecord::new(),
        path: vec![0],
        last: 0,
        offset: None,
        board: None,
        board_rows: 0,
        board_loc: Location::default(),
        board_open: false,
        handicap: None,
        in_variation: false,
        pending: None,
    };
    // About one node a line, and a move line takes some 16 bytes: make room once.
    let lines = src.len() / 16 + 8;
    p.rec.nodes.reserve(lines);
    p.path.reserve(lines);
    for line in Lines::new(src) {
        if !(fast && p.fast_move_line(line)) {
            p.line(line)?;
        }
    }
    p.finish()
}

impl<'a> Parser<'a> {
    fn err(&self, kind: ErrorKind, msg: impl Into<String>, loc: Location) -> ReadError {
        ReadError::at(kind, msg, self.src, loc)
    }

    fn line(&mut self, line: Line<'a>) -> Result<(), ReadError> {
        let raw = line.text;
        // The common case first: a KIF move line, `   1 ７六歩(77)   ( 0:01/00:00:01)`.
        let lead = raw.bytes().take_while(|&b| b == b' ' || b == b'\t').count();
        if raw.as_bytes().get(lead).is_some_and(u8::is_ascii_digit) {
            if let Some(done) = self.simple_kif_move_line(line, lead) {
                return done;
            }
            return self.kif_move_line(line, &raw[lead..]);
        }
        let t = raw.trim_start_matches([' ', '\t', '\u{3000}', '\u{feff}']);
        let tt = trim(t);
        if tt.is_empty() {
            return Ok(());
        }
        let first = t.chars().next().unwrap_or(' ');
        match first {
            '#' => return Ok(()),
            '*' => {
                let body = &t[1..];
                self.rec.nodes[self.last as usize]
                    .comments
                    .push(body.trim_end_matches(['\r']).to_string());
                return Ok(());
            }
            '&' => {
                let body = trim(&t[1..]);
                self.rec.nodes[self.last as usize]
                    .bookmarks
                    .push(body.to_string());
                return Ok(());
            }
            '|' => return self.board_row(line, t),
            '+' if tt.trim_matches(['+', '-']).is_empty() => {
                self.board_open = !self.board_open;
                if self.board.is_none() {
                    self.board = Some(RawBoard::default());
                    self.board_loc = line.loc_of(tt);
                }
                return Ok(());
            }
            _ => {}
        }
        if first.is_ascii_digit() {
            return self.kif_move_line(line, t);
        }
        if MARKS.contains(&first) {
            return self.ki2_line(line, t);
        }
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
        // Column numbers above a board diagram: "  ９ ８ ７ … １" or "  ５ ４ ３ ２ １".
        if tt.chars().all(|c| {
            c == ' ' || c == '\u{3000}' || ('１'..='９').contains(&c) || c.is_ascii_digit()
        }) && tt.chars().any(|c| ('１'..='９').contains(&c))
        {
            let n = tt.chars().filter(|c| ('１'..='９').contains(c)).count();
            let b = self.board.get_or_insert_with(RawBoard::default);
            b.size = if n <= 5 { 5 } else { 9 };
            self.board_loc = line.loc_of(tt);
            return Ok(());
        }
        if let Some((key, value)) = split_header(tt) {
            return self.header(line, key, value);
        }
        self.rec
            .warn(self.src, line.loc_of(tt), "line not understood; ignored");
        Ok(())
    }

    fn header(&mut self, line: Line<'a>, key: &str, value: &'a str) -> Result<(), ReadError> {
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
        if self.rec.header.len() >= 10_000 {
            return Err(self.err(
                ErrorKind::TooLarge,
                "more than 10000 header lines",
                line.whole(),
            ));
        }
        self.rec.header.push((key.to_string(), value.to_string()));
        Ok(())
    }

    fn parse_hand(&self, line: Line<'a>, value: &'a str) -> Result<[u8; 7], ReadError> {
        let mut hand = [0u8; 7];
        if value.is_empty() || value == "なし" {
            return Ok(hand);
        }
        let mut chars = value.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if matches!(c, ' ' | '\u{3000}' | '、' | ',' | '\t') {
                continue;
            }
            let kind = Kind::from_kanji1(c).and_then(|k| k.hand_index().map(|i| (k, i)));
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

    fn board_row(&mut self, line: Line<'a>, t: &'a str) -> Result<(), ReadError> {
        if self.board.is_none() {
            self.board = Some(RawBoard::default());
            self.board_loc = line.loc_of(t);
        }
        let size = self.board.as_ref().map_or(9, |b| b.size);
        let inner = &t[1..];
        let end = inner.find('|').unwrap_or(inner.len());
        let cells_text = &inner[..end];
        let rank = self.board_rows + 1;
        if rank > u32::from(size) {
            return Err(self.err(
                ErrorKind::Position,
                format!("board diagram has more than {size} rows"),
                line.loc_of(t),
            ));
        }
        let mut cells: Vec<Option<(Side, Kind)>> = Vec::with_capacity(9);
        let mut it = cells_text.char_indices().peekable();
        while let Some((i, c)) = it.next() {
            let (side, piece_char) = match c {
                'v' | 'V' => (Side::White, it.next().map(|x| x.1)),
                ' ' | '^' | '\u{3000}' => (Side::Black, it.next().map(|x| x.1)),
                '・' => (Side::Black, Some('・')),
                other => (Side::Black, Some(other)),
            };
            match piece_char {
                Some('・') => cells.push(None),
                Some(pc) => match Kind::from_kanji1(pc) {
                    Some(k) => cells.push(Some((side, k))),
                    None => {
                        return Err(self.err(
                            ErrorKind::Position,
                            format!("{pc:?} is not a piece in a board diagram"),
                            line.loc_of(&cells_text[i..]),
                        ));
                    }
                },
                None => {
                    return Err(self.err(
                        ErrorKind::Position,
                        "board row ends inside a cell",
                        line.loc_of(&cells_text[i..]),
                    ));
                }
            }
            if cells.len() > 9 {
                break;
            }
        }
        let mut size = self.board.as_ref().map_or(9, |b| b.size);
        if cells.len() == 5 && rank == 1 {
            size = 5;
        }
        if cells.len() != usize::from(size) {
            return Err(self.err(
                ErrorKind::Position,
                format!("board row has {} cells, expected {}", cells.len(), size),
                line.loc_of(t),
            ));
        }
        let b = self.board.get_or_insert_with(RawBoard::default);
        b.size = size;
        let n = cells.len();
        for (i, cell) in cells.into_iter().enumerate() {
            // Leftmost cell is the highest file.
            let file = n - i;
            b.cells[(rank - 1) as usize][file - 1] = cell;
        }
        self.board_rows = rank;
        Ok(())
    }

    fn variation(&mut self, line: Line<'a>, tt: &'a str) -> Result<(), ReadError> {
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

    /// A `まで…` closing line (`rest` follows まで). In the main line it is the record's
    /// closing line. After a KI2 move (one with a side mark) it is also the ending of the
    /// line being read: KI2 has no numbered special lines, so this is how a variation's
    /// ending is written (as tsshogi writes and reads it), and comments after it are the
    /// ending's.
    fn closing_line(&mut self, line: Line<'a>, tt: &'a str, rest: &str) -> Result<(), ReadError> {
        let rest = rest.trim_start_matches(['、', ',', ' ']);
        let digits: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
            .collect();
        let count = parse_number(&digits);
        let after = &rest[digits.len()..];
        let after = after.strip_prefix("手").unwrap_or(after);
        let after = after.strip_prefix('で').unwrap_or(after);
        let text = trim(after);
        let loc = line.loc_of(tt);
        let mut understood = true;
        if let Some(mover) = self.ki2_mover_before_ending() {
            if !text.is_empty() {
                let stm = !crate::replay::color(mover);
                let kind = crate::replay::closing_kind(text, stm)
                    .or_else(|| EndingKind::from_japanese(text));
                understood = kind.is_some();
                let kind = kind.unwrap_or_else(|| EndingKind::Other(text.to_string()));
                let end = Item::End(RawEnd {
                    kind,
                    offender: None,
                });
                self.place(line, None, end, loc, (loc.start, loc.end))?;
            }
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

    /// The side that made the move a `まで…` line would follow, when that move was written
    /// with a side mark (KI2) and the line has no ending yet.
    fn ki2_mover_before_ending(&self) -> Option<Side> {
        let tip = match self.pending {
            Some((n, _)) => {
                let idx = n.checked_sub(self.offset.unwrap_or(0))? as usize;
                *self.path.get(idx.checked_sub(1)?)?
            }
            None => *self.path.last()?,
        };
        match &self.rec.nodes[tip as usize].item {
            Item::Move(RawMove::Ja(m)) => m.side,
            _ => None,
        }
    }

    /// Make the current path reach `len` nodes by falling back to enclosing lines.
    fn fit_path(&mut self, len: usize, loc: Location) -> bool {
        let mut warned = false;
        while self.path.len() < len {
            // The last node of the path that is an alternative (not its parent's first child).
            let alt = (1..self.path.len()).rev().find(|&j| {
                let parent = self.path[j - 1];
                self.rec.nodes[parent as usize].children.first() != Some(&self.path[j])
            });
            let Some(j) = alt else { return false };
            self.path.truncate(j);
            loop {
                let tip = *self.path.last().unwrap_or(&0);
                match self.rec.nodes[tip as usize].children.first() {
                    Some(&c) if self.path.len() < len => self.path.push(c),
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
    fn place(
        &mut self,
        line: Line<'a>,
        number: Option<u32>,
        item: Item,
        loc: Location,
        written: (usize, usize),
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
        if matches!(self.rec.nodes[parent as usize].item, Item::End(_)) {
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
                format!("variations nested deeper than {MAX_DEPTH}"),
                line.whole(),
            ));
        }
        if self.rec.nodes.len() >= 10_000_000 {
            return Err(self.err(ErrorKind::TooLarge, "more than 10 million moves", loc));
        }
        let idx = self.rec.push(parent, item, loc, written);
        self.path.push(idx);
        self.last = idx;
        Ok(Some(idx))
    }

    /// The commonest line of all, a KIF move line of the usual shape that continues the
    /// line being read, read and added in one go. `false` (nothing done) for any other line,
    /// which [`Parser::line`] then reads with the same result for these: this does what
    /// [`Parser::simple_kif_move_line`] and [`Parser::place`] would do, for the case where
    /// they warn about nothing and fail at nothing.
    #[inline]
    fn fast_move_line(&mut self, line: Line<'a>) -> bool {
        let b = line.text.as_bytes();
        let blank = |c: u8| c == b' ' || c == b'\t';
        let mut i = 0;
        while i < b.len() && blank(b[i]) {
            i += 1;
        }
        let digits = i;
        let mut number: u32 = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            number = number * 10 + u32::from(b[i] - b'0');
            i += 1;
            if i - digits > 7 {
                return false;
            }
        }
        if i == digits || i == b.len() || !blank(b[i]) {
            return false;
        }
        while i < b.len() && blank(b[i]) {
            i += 1;
        }
        let from = i;
        let Some((mv, used)) = parse_kif_common(&b[from..]) else {
            return false;
        };
        let mut j = from + used;
        while j < b.len() && blank(b[j]) {
            j += 1;
        }
        let mut time = None;
        if j < b.len() {
            if b[j] != b'(' {
                return false;
            }
            let Some(close) = b[j..].iter().position(|&c| c == b')') else {
                return false;
            };
            let close = j + close;
            let Some(t) = line.text.get(j + 1..close).and_then(parse_kif_time) else {
                return false;
            };
            time = Some(t);
            j = close + 1;
            while j < b.len() && blank(b[j]) {
                j += 1;
            }
            if j != b.len() {
                return false;
            }
        }
        // Where it goes: the next ply of the line being read, and nothing to warn about.
        let Some(off) = self.offset else { return false };
        if self.pending.is_some()
            || number.checked_sub(off) != Some(self.path.len() as u32)
            || self.rec.nodes.len() >= 10_000_000
        {
            return false;
        }
        let parent = *self.path.last().unwrap_or(&0);
        let p = &self.rec.nodes[parent as usize];
        if matches!(p.item, Item::End(_)) || p.children.first().is_some() || p.depth > MAX_DEPTH {
            return false;
        }
        let loc = Location {
            line: line.no,
            column: from as u32 + 1,
            start: line.start + from,
            end: line.start + from + used,
        };
        let idx = self.rec.push(
            parent,
            Item::Move(RawMove::Ja(mv)),
            loc,
            (loc.start, loc.end),
        );
        self.rec.nodes[idx as usize].time = time;
        self.path.push(idx);
        self.last = idx;
        true
    }

    /// A KIF move line of the usual shape, read in one pass over its bytes: the move number,
    /// spaces, a move [`parse_kif_common`] reads, and nothing after it but spaces and a
    /// time field. `None` (nothing done) for any other line, which
    /// [`Parser::kif_move_line`] then reads, with the same result for these.
    fn simple_kif_move_line(
        &mut self,
        line: Line<'a>,
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
        Some(
            self.place(line, Some(number), item, loc, (loc.start, loc.end))
                .map(|idx| {
                    if let Some(idx) = idx {
                        self.rec.nodes[idx as usize].time = time;
                    }
                }),
        )
    }

    fn kif_move_line(&mut self, line: Line<'a>, t: &'a str) -> Result<(), ReadError> {
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
            None => parse_ja(rest),
        };
        let (item, used) = match parsed {
            Ok((mv, used)) => (Item::Move(RawMove::Ja(mv)), used),
            Err(reason) => match special_word(rest) {
                Some((kind, used)) => (
                    Item::End(RawEnd {
                        kind,
                        offender: None,
                    }),
                    used,
                ),
                None => {
                    return Err(self
                        .err(
                            ErrorKind::Syntax,
                            format!("move {number}: {reason}"),
                            line.loc_of(rest),
                        )
                        .with_ply(number, Some(first_token(rest).to_string())));
                }
            },
        };
        let mv_text = &rest[..used];
        let loc = line.loc_of(mv_text);
        let written = (loc.start, loc.end);
        let tail = trim(&rest[used..]);
        let time = self.parse_tail(line, tail)?;
        if let Some(idx) = self.place(line, Some(number), item, loc, written)? {
            self.rec.nodes[idx as usize].time = time;
        }
        Ok(())
    }

    /// After the move text: optional `( m:ss/h:mm:ss)` and an optional `+`.
    fn parse_tail(&mut self, line: Line<'a>, tail: &'a str) -> Result<Option<RawTime>, ReadError> {
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

    fn ki2_line(&mut self, line: Line<'a>, t: &'a str) -> Result<(), ReadError> {
        // Split at each side mark.
        let mut starts: Vec<usize> = t
            .char_indices()
            .filter(|(_, c)| MARKS.contains(c))
            .map(|(i, _)| i)
            .collect();
        starts.push(t.len());
        for w in starts.windows(2) {
            let seg = &t[w[0]..w[1]];
            let mark = seg.chars().next().unwrap_or('▲');
            let body = trim(&seg[mark.len_utf8()..]);
            let side = mark_side(mark);
            if body.is_empty() {
                return Err(self.err(
                    ErrorKind::Truncated,
                    "a side mark with no move after it",
                    line.loc_of(seg),
                ));
            }
            let (item, used) = match parse_ja(body) {
                Ok((mut mv, used)) => {
                    mv.side = side;
                    (Item::Move(RawMove::Ja(mv)), used)
                }
                Err(reason) => match special_word(body) {
                    Some((kind, used)) => (
                        Item::End(RawEnd {
                            kind,
                            offender: None,
                        }),
                        used,
                    ),
                    None => {
                        let ply = self.path.len() as u32 + self.offset.unwrap_or(0);
                        return Err(self
                            .err(ErrorKind::Syntax, reason.to_string(), line.loc_of(seg))
                            .with_ply(ply, Some(first_token(seg).to_string())));
                    }
                },
            };
            let text = &seg[..mark.len_utf8()
                + (body.as_ptr() as usize - seg[mark.len_utf8()..].as_ptr() as usize)
                + used];
            let loc = line.loc_of(text);
            let rest = trim(&body[used..]);
            let time = if rest.is_empty() {
                None
            } else {
                self.parse_tail(line, rest)?
            };
            if let Some(idx) = self.place(line, None, item, loc, (loc.start, loc.end))? {
                self.rec.nodes[idx as usize].time = time;
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<RawRecord, ReadError> {
        if let Some(b) = self.board.take() {
            if self.board_rows == 0 {
                // Hands or a turn line without a diagram: apply them to the named position.
                let name = self.handicap.as_ref().map(|h| h.0.clone());
                self.rec.start = RawStart::Board {
                    board: Box::new(b),
                    name,
                    loc: self.board_loc,
                };
                if let RawStart::Board { board, .. } = &mut self.rec.start {
                    board.size = 0; // marks "no diagram"
                }
            } else {
                if self.board_rows != u32::from(b.size) {
                    return Err(self.err(
                        ErrorKind::Position,
                        format!(
                            "board diagram has {} rows, expected {}",
                            self.board_rows, b.size
                        ),
                        self.board_loc,
                    ));
                }
                let name = self.handicap.as_ref().map(|h| h.0.clone());
                self.rec.start = RawStart::Board {
                    board: Box::new(b),
                    name,
                    loc: self.board_loc,
                };
            }
        } else if let Some((name, loc)) = self.handicap.take() {
            self.rec.start = RawStart::Named { name, loc };
        }
        Ok(self.rec)
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

fn first_token(s: &str) -> &str {
    let end = s.find([' ', '\u{3000}', '\t']).unwrap_or(s.len());
    &s[..end]
}

/// A special-move word at the start of `s` (投了, 中断, Time-up …), with bytes consumed.
fn special_word(s: &str) -> Option<(EndingKind, usize)> {
    let end = s
        .find([' ', '\u{3000}', '\t', '(', '（', '▲', '△', '▼', '▽'])
        .unwrap_or(s.len());
    let word = &s[..end];
    if word.is_empty() {
        return None;
    }
    let first = word.chars().next()?;
    // A word starting like a destination is a broken move, not an unknown special.
    if wide_digit(first).is_some() || first == '同' || Kind::parse_prefix(word).is_some() {
        return None;
    }
    if word.chars().count() > 20 {
        return None;
    }
    let kind =
        EndingKind::from_japanese(word).unwrap_or_else(|| EndingKind::Other(word.to_string()));
    Some((kind, end))
}

/// The UTF-8 bytes of a three-byte character, as one number (see [`code3`]).
const fn utf8_3(c: char) -> u32 {
    let c = c as u32;
    ((0xE0 | (c >> 12)) << 16) | ((0x80 | ((c >> 6) & 0x3F)) << 8) | (0x80 | (c & 0x3F))
}

/// The three bytes at `i` as one number (0 past the end).
fn code3(b: &[u8], i: usize) -> u32 {
    match b.get(i..i + 3) {
        Some(&[x, y, z]) => (u32::from(x) << 16) | (u32::from(y) << 8) | u32::from(z),
        _ => 0,
    }
}

/// Where a kanji rank's code ([`utf8_3`]) goes in [`RANKS`]: a multiplicative hash that
/// keeps the nine apart (checked when the table is built).
const fn rank_slot(c: u32) -> usize {
    (c.wrapping_mul(2_444_712_011) >> 28) as usize
}

/// `(code, rank)` by [`rank_slot`]; rank 0 in the unused slots.
const RANKS: [(u32, u8); 16] = {
    let list = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let mut t = [(0, 0); 16];
    let mut k = 0;
    while k < list.len() {
        let c = utf8_3(list[k]);
        assert!(t[rank_slot(c)].1 == 0, "rank codes collide");
        t[rank_slot(c)] = (c, k as u8 + 1);
        k += 1;
    }
    t
};

/// Where a piece kanji's code goes in [`KINDS`] (as [`rank_slot`]).
const fn kind_slot(c: u32) -> usize {
    (c.wrapping_mul(3_597_370_015) >> 27) as usize
}

/// `(code, kind)` by [`kind_slot`] for the one-character piece names of KIF moves.
const KINDS: [(u32, Option<Kind>); 32] = {
    let list = [
        ('歩', Kind::Pawn),
        ('香', Kind::Lance),
        ('桂', Kind::Knight),
        ('銀', Kind::Silver),
        ('金', Kind::Gold),
        ('角', Kind::Bishop),
        ('飛', Kind::Rook),
        ('玉', Kind::King),
        ('王', Kind::King),
        ('と', Kind::Tokin),
        ('杏', Kind::PromotedLance),
        ('圭', Kind::PromotedKnight),
        ('全', Kind::PromotedSilver),
        ('馬', Kind::Horse),
        ('龍', Kind::Dragon),
        ('竜', Kind::Dragon),
    ];
    let mut t = [(0, None); 32];
    let mut k = 0;
    while k < list.len() {
        let c = utf8_3(list[k].0);
        assert!(t[kind_slot(c)].1.is_none(), "piece codes collide");
        t[kind_slot(c)] = (c, Some(list[k].1));
        k += 1;
    }
    t
};

/// The usual KIF move, read byte by byte: a full-width file and a kanji rank (or 同 and
/// full-width spaces), a one-character piece, an optional 成 or 打, then `(xy)` with a
/// source square (or `(00)`) or nothing more. Anything else is left to [`parse_ja`]; what
/// this reads, `parse_ja` reads the same way.
fn parse_kif_common(b: &[u8]) -> Option<(JaMove, usize)> {
    const ZERO: u32 = utf8_3('０');
    const DOU: u32 = utf8_3('同');
    const SPACE: u32 = utf8_3('\u{3000}');
    const NARI: u32 = utf8_3('成');
    const UTSU: u32 = utf8_3('打');
    let mut i;
    let c = code3(b, 0);
    let to = if c == DOU {
        i = 3;
        while code3(b, i) == SPACE {
            i += 3;
        }
        None
    } else {
        // '１'..'９' share their first two bytes with '０'.
        let file = c.wrapping_sub(ZERO);
        if !(1..=9).contains(&file) {
            return None;
        }
        let c = code3(b, 3);
        let (code, rank) = RANKS[rank_slot(c)];
        if code != c || rank == 0 {
            return None;
        }
        i = 6;
        Some((file as u8, rank))
    };
    let c = code3(b, i);
    let (code, kind) = KINDS[kind_slot(c)];
    if code != c {
        return None;
    }
    let kind = kind?;
    i += 3;
    let mut promote = None;
    let mut drop = false;
    match code3(b, i) {
        NARI => {
            promote = Some(true);
            i += 3;
        }
        UTSU => {
            drop = true;
            i += 3;
        }
        _ => {}
    }
    let mut from = None;
    match b.get(i..) {
        Some([b'(', f @ b'1'..=b'9', r @ b'1'..=b'9', b')', ..]) => {
            from = Some((f - b'0', r - b'0'));
            i += 4;
        }
        Some([b'(', b'0', b'0', b')', ..]) => {
            drop = true;
            i += 4;
        }
        Some([] | [b' ' | b'\t', ..]) => {}
        _ => return None,
    }
    Some((
        JaMove {
            side: None,
            to,
            kind,
            promote,
            drop,
            from,
            relative: None,
            motion: None,
        },
        i,
    ))
}

/// Parse one move in Japanese notation at the start of `s`. Returns the move and bytes used.
pub(crate) fn parse_ja(s: &str) -> Result<(JaMove, usize), &'static str> {
    let mut i = 0;
    let b = |i: usize| s[i..].chars().next();
    let mut side = None;
    if let Some(c) = b(i) {
        if let Some(sd) = mark_side(c) {
            side = Some(sd);
            i += c.len_utf8();
        }
    }
    let to = match b(i) {
        Some('同') => {
            i += '同'.len_utf8();
            while let Some(c @ (' ' | '\u{3000}')) = b(i) {
                i += c.len_utf8();
            }
            None
        }
        Some(c) => {
            let file = wide_digit(c).ok_or("expected a destination square (like ７六) or 同")?;
            i += c.len_utf8();
            let rc = b(i).ok_or("the destination square has no rank")?;
            let rank = kanji_digit(rc)
                .map(|d| d as u8)
                .or_else(|| wide_digit(rc))
                .ok_or("the destination square has no rank")?;
            i += rc.len_utf8();
            // Some writers put 同 after the square ("７六同歩"): accept it.
            if let Some('同') = b(i) {
                i += '同'.len_utf8();
            }
            Some((file, rank))
        }
        None => return Err("empty move"),
    };
    let (kind, used) = Kind::parse_prefix(&s[i..])
        .ok_or("expected a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)")?;
    i += used;
    while let Some('\u{3000}') = b(i) {
        i += '\u{3000}'.len_utf8();
    }
    let mut relative = None;
    match b(i) {
        Some('右') => relative = Some(Relative::Right),
        Some('左') => relative = Some(Relative::Left),
        Some('直') => relative = Some(Relative::Straight),
        _ => {}
    }
    if relative.is_some() {
        i += '右'.len_utf8();
    }
    let mut motion = None;
    match b(i) {
        Some('上' | '行' | '入') => motion = Some(Motion::Up),
        Some('寄') => motion = Some(Motion::Sideways),
        Some('引') => motion = Some(Motion::Down),
        _ => {}
    }
    if motion.is_some() {
        i += '上'.len_utf8();
    }
    let mut promote = None;
    if s[i..].starts_with("不成") {
        promote = Some(false);
        i += "不成".len();
    } else if s[i..].starts_with('生') {
        promote = Some(false);
        i += '生'.len_utf8();
    } else if s[i..].starts_with('成') {
        promote = Some(true);
        i += '成'.len_utf8();
    }
    let mut drop = false;
    if s[i..].starts_with('打') {
        drop = true;
        i += '打'.len_utf8();
    }
    let mut from = None;
    let bytes = s.as_bytes();
    if bytes.get(i) == Some(&b'(') && bytes.get(i + 3) == Some(&b')') {
        let f = bytes[i + 1];
        let r = bytes[i + 2];
        if f.is_ascii_digit() && r.is_ascii_digit() {
            if f == b'0' && r == b'0' {
                drop = true;
            } else if f == b'0' || r == b'0' {
                return Err("source square (xy) must use digits 1-9");
            } else {
                from = Some((f - b'0', r - b'0'));
            }
            i += 4;
        }
    }
    Ok((
        JaMove {
            side,
            to,
            kind,
            promote,
            drop,
            from,
            relative,
            motion,
        },
        i,
    ))
}

/// Parse the inside of a KIF time field: ` 0:16/00:00:16`, `00:01 / 00:01:10`, `0:7/`.
pub(crate) fn parse_kif_time(body: &str) -> Option<RawTime> {
    let mut parts = body.splitn(2, '/');
    let spent = parts.next().map(trim).unwrap_or("");
    let total = parts.next().map(trim);
    let spent_ms = if spent.is_empty() {
        None
    } else {
        Some(clock(spent)?)
    };
    let total_ms = match total {
        Some(t) if !t.is_empty() => Some(clock(t)?),
        _ => None,
    };
    if spent_ms.is_none() && total_ms.is_none() {
        return None;
    }
    Some(RawTime { spent_ms, total_ms })
}

/// `h:mm:ss`, `m:ss` or `ss` (fields may be unpadded or space-padded) → milliseconds.
fn clock(s: &str) -> Option<u64> {
    let mut total: u64 = 0;
    let mut fields = 0;
    for f in s.split([':', '：']) {
        let f = trim(f);
        let n = parse_number(f)?;
        fields += 1;
        if fields > 3 {
            return None;
        }
        total = total.checked_mul(60)?.checked_add(u64::from(n))?;
    }
    total.checked_mul(1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_text() {
        let (m, n) = parse_ja("７六歩(77)").unwrap();
        assert_eq!(m.to, Some((7, 6)));
        assert_eq!(m.from, Some((7, 7)));
        assert_eq!(n, "７六歩(77)".len());
        let (m, _) = parse_ja("同　銀(79)").unwrap();
        assert_eq!(m.to, None);
        assert_eq!(m.kind, Kind::Silver);
        let (m, _) = parse_ja("同銀　(79)").unwrap();
        assert_eq!(m.from, Some((7, 9)));
        let (m, _) = parse_ja("３三成銀(34)").unwrap();
        assert_eq!((m.kind, m.promote), (Kind::PromotedSilver, None));
        let (m, _) = parse_ja("３三銀成(34)").unwrap();
        assert_eq!((m.kind, m.promote), (Kind::Silver, Some(true)));
        let (m, _) = parse_ja("▲５八金右上不成").unwrap();
        assert_eq!(
            (m.relative, m.motion, m.promote),
            (Some(Relative::Right), Some(Motion::Up), Some(false))
        );
        let (m, _) = parse_ja("26歩").unwrap();
        assert_eq!(m.to, Some((2, 6)));
        assert!(parse_ja("投了").is_err());
    }

    #[test]
    fn common_kif_moves_read_as_parse_ja_reads_them() {
        let heads = [
            "７六",
            "１一",
            "９九",
            "０六",
            "７〇",
            "76",
            "同",
            "同　",
            "同　　",
            "同 ",
            "７六同",
        ];
        let pieces = [
            "歩", "香", "桂", "銀", "金", "角", "飛", "玉", "王", "と", "杏", "圭", "全", "馬",
            "龍", "竜", "成香", "成", "x", "",
        ];
        let mids = ["", "成", "打", "不成", "生", "成打", "右", "上", "　"];
        let tails = [
            "",
            "(77)",
            "(00)",
            "(07)",
            "(70)",
            "(7)",
            "(ab)",
            " ",
            "\t(1:00/)",
            "+",
            "(11) ",
            "(99)x",
        ];
        let mut fast = 0;
        for h in heads {
            for p in pieces {
                for m in mids {
                    for t in tails {
                        let s = format!("{h}{p}{m}{t}");
                        if let Some(got) = parse_kif_common(s.as_bytes()) {
                            assert_eq!(Ok(got), parse_ja(&s), "{s}");
                            fast += 1;
                        }
                    }
                }
            }
        }
        assert!(fast > 500, "{fast}");
    }

    #[test]
    fn fast_move_lines_read_as_the_general_path_reads_them() {
        let texts = [
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角打\n",
            "手合割：平手\r\n   1 ７六歩(77)   ( 0:01/00:00:01)\r\n   2 ３四歩(33)   ( 0:02/00:00:02)\r\n",
            "   1 ７六歩(77)\n   3 ３四歩(33)\n",
            "   1 ７六歩(77)\n   1 ２六歩(27)\n   2 ３四歩(33)\n",
            "   0 ７六歩(77)\n",
            "   1\t７六歩(77)\t\n\t2 ３四歩(33) x\n   3 ２六歩(27)(\n   4 ８四歩(83)(1:00/)\n",
            "   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n",
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n\n変化：3手\n   3 ６八銀(79)\n",
            "   1 ７六歩(77)\n変化：1手\n   1 ２六歩(27)\n   2 ３四歩(33)\n",
            "手数＝30\n  31 ７六歩(77)\n  32 ３四歩(33)\n",
            "12345678 ７六歩(77)\n",
            "   1 ７六歩(77)\r\r\n   2 ３四歩(33)\n",
            "   1 ７六歩(77)\n*comment\n   2 ３四歩(33)\n&mark\n",
        ];
        for t in texts {
            let fast = parse_with(t, true);
            let slow = parse_with(t, false);
            assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{t}");
        }
    }

    #[test]
    fn times() {
        assert_eq!(
            parse_kif_time(" 0:16/00:00:16"),
            Some(RawTime {
                spent_ms: Some(16_000),
                total_ms: Some(16_000)
            })
        );
        assert_eq!(
            parse_kif_time("00:01 / 00:01:10"),
            Some(RawTime {
                spent_ms: Some(1000),
                total_ms: Some(70_000)
            })
        );
        assert_eq!(
            parse_kif_time(" 0:7/"),
            Some(RawTime {
                spent_ms: Some(7000),
                total_ms: None
            })
        );
        assert_eq!(
            parse_kif_time("90:00/1:30:00"),
            Some(RawTime {
                spent_ms: Some(5_400_000),
                total_ms: Some(5_400_000)
            })
        );
        assert_eq!(parse_kif_time("x"), None);
    }
}

//! CSA standard record format V2.2 / V3.0 syntax (reading) — one game at a time.

use crate::ending::EndingKind;
use crate::error::{ErrorKind, Location, ReadError};
use crate::limits::MAX_HEADER_ENTRIES;
use crate::raw::*;
use crate::text::{Lines, TextLine};
use shogi_core::{Color, Piece, Role, Square};

const HIRATE: [&str; 9] = [
    "-KY-KE-GI-KI-OU-KI-GI-KE-KY",
    " * -HI *  *  *  *  * -KA * ",
    "-FU-FU-FU-FU-FU-FU-FU-FU-FU",
    "",
    "",
    "",
    "+FU+FU+FU+FU+FU+FU+FU+FU+FU",
    " * +KA *  *  *  *  * +HI * ",
    "+KY+KE+GI+KI+OU+KI+GI+KE+KY",
];

fn hirate_board() -> RawBoard {
    let mut b = RawBoard::default();
    for (r, row) in HIRATE.iter().enumerate() {
        let bytes = row.as_bytes();
        for i in 0..9 {
            let cell = bytes.get(i * 3..i * 3 + 3).unwrap_or(b" * ");
            let side = match cell[0] {
                b'+' => Color::Black,
                b'-' => Color::White,
                _ => continue,
            };
            if let Some(k) = std::str::from_utf8(&cell[1..])
                .ok()
                .and_then(Role::from_csa)
            {
                b.cells[r][8 - i] = Some(Piece::new(side, k));
            }
        }
    }
    b
}

struct Parser<'a> {
    src: &'a str,
    rec: RawRecord,
    board: Option<RawBoard>,
    board_loc: Location,
    pi: Option<String>,
    all_to: Option<(Color, Location)>,
    side_set: bool,
    last: u32,
    ended: bool,
    rows_seen: [bool; 9],
    position_seen: bool,
}

/// Parse one game (line numbers counted from `first_line`).
pub(crate) fn parse(src: &str, first_line: u32) -> Parsed {
    let p = Parser {
        src,
        rec: RawRecord::new(),
        board: None,
        board_loc: Location::default(),
        pi: None,
        all_to: None,
        side_set: false,
        last: 0,
        ended: false,
        rows_seen: [false; 9],
        position_seen: false,
    };
    parse_lines(p, Lines::starting_at(src, 0, first_line))
}

impl<'a> LineParser<'a> for Parser<'a> {
    fn read_line(&mut self, line: TextLine<'a>) -> Result<(), ReadError> {
        // The commonest lines first: a move alone (`+7776FU`) or with its time (`+7776FU,T12`),
        // and a time alone (`T12`), nothing around them. Read by the same statements the
        // general path below calls on them, without its trimming and splitting.
        let text = line.text;
        let b = text.as_bytes();
        if let [b'T', digits @ ..] = b {
            if (1..=9).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit) {
                return self.time_stmt(text, line.loc_of(text));
            }
        }
        if b.len() >= 7 && matches!(b[0], b'+' | b'-') && b[1..7].is_ascii() {
            let time = match &b[7..] {
                [] => Some(None),
                [b',', b'T', digits @ ..]
                    if (1..=9).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit) =>
                {
                    Some(Some(&text[8..]))
                }
                _ => None,
            };
            if let Some(time) = time {
                self.move_stmt(line, &text[..7])?;
                if let Some(t) = time {
                    self.time_stmt(t, line.loc_of(t))?;
                }
                return Ok(());
            }
        }
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if t.starts_with('\'') {
            // Comments keep their trailing spaces.
            return self.statement(line, t);
        }
        let t = t.trim_end();
        if t.is_empty() {
            return Ok(());
        }
        // Comments, names and info lines are not split at commas.
        if t.starts_with('\'') || t.starts_with('N') || t.starts_with('$') {
            return self.statement(line, t);
        }
        let mut rest = t;
        loop {
            // A comma is one byte, never part of another character.
            let (stmt, next) = match rest.bytes().position(|b| b == b',') {
                Some(i) if !rest.starts_with('\'') => (&rest[..i], Some(&rest[i + 1..])),
                _ => (rest, None),
            };
            let stmt = stmt.trim();
            if !stmt.is_empty() {
                self.statement(line, stmt)?;
            }
            match next {
                Some(n) => rest = n.trim_start(),
                None => break,
            }
        }
        Ok(())
    }

    fn finish_record(mut self) -> Result<RawRecord, ReadError> {
        let Some(mut board) = self.board.take().filter(|_| self.position_seen) else {
            if self.rec.nodes.len() > 1 {
                self.rec.warn(
                    self.src,
                    self.rec.nodes[1].loc,
                    "no start position (PI or P1..P9) in this CSA record; the even-game position is assumed",
                );
            }
            return Ok(self.rec);
        };
        if let Some((side, loc)) = self.all_to {
            // Everything not on the board or in a hand goes to `side`'s hand (kings excepted).
            const SET: [u8; 7] = [2, 2, 4, 4, 4, 4, 18];
            let mut count = [0u8; 7];
            for row in &board.cells {
                for p in row.iter().flatten() {
                    if let Some(i) = hand_slot(p.role.unpromote()) {
                        count[i] = count[i].saturating_add(1);
                    }
                }
            }
            for i in 0..7 {
                let used = count[i]
                    .saturating_add(board.hands[0][i])
                    .saturating_add(board.hands[1][i]);
                if used > SET[i] {
                    return Err(self.err(
                        ErrorKind::Position,
                        "00AL: more pieces placed than one set holds",
                        loc,
                    ));
                }
                board.hands[side.index()][i] += SET[i] - used;
            }
        }
        if !self.side_set {
            self.rec.warn(
                self.src,
                self.board_loc,
                "no side-to-move line (+ or -); sente (+) assumed",
            );
        }
        let name = self.pi.take().map(|pi| format!("PI{pi}"));
        self.rec.start = RawStart::Board {
            board: Box::new(board),
            name,
            loc: self.board_loc,
        };
        Ok(self.rec)
    }
}

impl<'a> Parser<'a> {
    fn err(&self, kind: ErrorKind, msg: impl Into<String>, loc: Location) -> ReadError {
        ReadError::at(kind, msg, self.src, loc)
    }

    fn statement(&mut self, line: TextLine<'a>, s: &'a str) -> Result<(), ReadError> {
        let loc = line.loc_of(s);
        let first = s.as_bytes()[0];
        let entry = super::comment_entry(s);
        if (matches!(first, b'V' | b'N' | b'$') || entry.is_some())
            && self.rec.header.len() >= MAX_HEADER_ENTRIES
        {
            let message = format!(
                "more than {} header lines (the limit)",
                crate::limits::count(MAX_HEADER_ENTRIES)
            );
            return Err(self.err(ErrorKind::TooLarge, message, loc));
        }
        match first {
            b'\'' => {
                if let Some(c) = s.strip_prefix("'*") {
                    self.rec.notes_mut(self.last).comments.push(c.to_string());
                } else if let Some((key, value)) = entry {
                    self.rec
                        .header
                        .push((key.to_string(), value.trim_end().to_string()));
                }
                Ok(())
            }
            b'V' => {
                self.rec.header.push(("V".to_string(), s[1..].to_string()));
                Ok(())
            }
            b'N' => {
                let (key, name) = match s.get(..2) {
                    Some("N+") => ("N+", &s[2..]),
                    Some("N-") => ("N-", &s[2..]),
                    _ => return self.unknown(loc),
                };
                self.rec.header.push((key.to_string(), name.to_string()));
                Ok(())
            }
            b'$' => {
                let (k, v) = match s.find(':') {
                    Some(i) => (&s[..i], &s[i + 1..]),
                    None => (s, ""),
                };
                self.rec.header.push((k.to_string(), v.to_string()));
                Ok(())
            }
            b'P' => self.position_line(line, s),
            b'+' | b'-' if s.len() == 1 => {
                if self.rec.nodes.len() > 1 || self.side_set {
                    self.rec
                        .warn(self.src, loc, "second side-to-move line ignored");
                    return Ok(());
                }
                self.side_set = true;
                let side = if first == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                self.board
                    .get_or_insert_with(RawBoard::default)
                    .side_to_move = Some(side);
                Ok(())
            }
            b'+' | b'-' => self.move_stmt(line, s),
            b'T' => self.time_stmt(s, loc),
            b'%' => self.special_stmt(s, loc),
            b'/' => Ok(()),
            _ => self.unknown(loc),
        }
    }

    /// `T<seconds>`: the time the last move took.
    fn time_stmt(&mut self, s: &'a str, loc: Location) -> Result<(), ReadError> {
        let digits = &s.as_bytes()[1..];
        if (1..=9).contains(&digits.len())
            && digits.iter().all(u8::is_ascii_digit)
            && self.last != 0
        {
            // Whole seconds (nearly every record): the milliseconds the decimal reading below
            // gives, without it (below 10^9 s, every value is exact as an f64).
            let secs = digits
                .iter()
                .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
            let time = RawTime {
                spent_ms: Some(secs * 1000),
                total_ms: None,
            };
            self.rec.set_time(self.last, Some(time));
            return Ok(());
        }
        let secs: f64 = s[1..]
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v >= 0.0 && *v < 1e9)
            .ok_or_else(|| {
                self.err(
                    ErrorKind::Number,
                    format!("bad time {s:?} (expected T<seconds>)"),
                    loc,
                )
            })?;
        if self.last == 0 {
            self.rec
                .warn(self.src, loc, "time before the first move; ignored");
            return Ok(());
        }
        let time = RawTime {
            spent_ms: Some((secs * 1000.0).round() as u64),
            total_ms: None,
        };
        self.rec.set_time(self.last, Some(time));
        Ok(())
    }

    /// `%TORYO` and the other special statements: the end of the game.
    fn special_stmt(&mut self, s: &'a str, loc: Location) -> Result<(), ReadError> {
        let word = &s[1..];
        let (kind, offender) = match word {
            "+ILLEGAL_ACTION" => (EndingKind::FoulWin, Some(Color::Black)),
            "-ILLEGAL_ACTION" => (EndingKind::FoulWin, Some(Color::White)),
            w => (
                EndingKind::from_csa(w).unwrap_or_else(|| EndingKind::Other(s.to_string())),
                None,
            ),
        };
        if self.ended {
            self.rec
                .warn(self.src, loc, "second special statement ignored");
            return Ok(());
        }
        let parent = self.current_tip();
        let idx = self.rec.push(parent, Item::end(kind, offender), loc, true);
        self.last = idx;
        self.ended = true;
        Ok(())
    }

    fn unknown(&mut self, loc: Location) -> Result<(), ReadError> {
        self.rec
            .warn(self.src, loc, "CSA statement not understood; ignored");
        Ok(())
    }

    fn current_tip(&self) -> u32 {
        self.last
    }

    fn move_stmt(&mut self, line: TextLine<'a>, s: &'a str) -> Result<(), ReadError> {
        let loc = line.loc_of(s);
        let b = s.as_bytes();
        let ok = b.len() >= 7 && b[1..5].iter().all(u8::is_ascii_digit);
        let kind = s.get(5..7).and_then(Role::from_csa);
        let (true, Some(kind)) = (ok, kind) else {
            let ply = self.rec.nodes.len() as u32;
            return Err(self
                .err(
                    ErrorKind::Syntax,
                    format!("bad CSA move {s:?} (expected like +7776FU)"),
                    loc,
                )
                .with_ply(ply, Some(s.to_string())));
        };
        if b.len() > 7 {
            self.rec.warn(
                self.src,
                line.loc_of(&s[7..]),
                "text after the move ignored",
            );
        }
        if self.ended {
            self.rec
                .warn(self.src, loc, "move after the end of the game ignored");
            return Ok(());
        }
        let side = if b[0] == b'+' {
            Color::Black
        } else {
            Color::White
        };
        let d = |i: usize| b[i] - b'0';
        let drop = d(1) == 0 && d(2) == 0;
        let from = Square::new(d(1), d(2));
        let (Some(to), true) = (Square::new(d(3), d(4)), drop || from.is_some()) else {
            return Err(self.err(
                ErrorKind::Syntax,
                format!("bad square in CSA move {s:?}"),
                loc,
            ));
        };
        let from = if drop { None } else { from };
        let nodes = self.rec.nodes.len();
        if let Some(message) = crate::limits::move_limit(nodes, nodes - 1) {
            return Err(self.err(ErrorKind::TooLarge, message, loc));
        }
        let parent = self.current_tip();
        let idx = self.rec.push(
            parent,
            Item::Move(RawMove::Csa {
                side,
                from,
                to,
                kind,
            }),
            loc,
            true,
        );
        self.last = idx;
        Ok(())
    }

    fn position_line(&mut self, line: TextLine<'a>, s: &'a str) -> Result<(), ReadError> {
        let loc = line.loc_of(s);
        if !self.position_seen {
            self.board_loc = loc;
        }
        self.position_seen = true;
        match s.as_bytes().get(1) {
            Some(b'I') => self.pi_line(s, loc),
            Some(&c @ b'1'..=b'9') => self.row_line(line, s, c, loc),
            Some(&c @ (b'+' | b'-')) => self.pieces_line(line, s, c, loc),
            _ => self.unknown(loc),
        }
    }

    /// What follows `PI`, `P+` or `P-`: groups of four bytes (`xyPP`).
    fn groups(&self, s: &'a str, loc: Location) -> Result<&'a str, ReadError> {
        let body = &s[2..];
        if body.len() % 4 != 0 {
            let what = if s.starts_with("PI") { "PI" } else { "P+/P-" };
            let message = format!("{what} must be followed by xyPP groups");
            return Err(self.err(ErrorKind::Position, message, loc));
        }
        Ok(body)
    }

    /// `PI` and the pieces it removes from the even-game position.
    fn pi_line(&mut self, s: &'a str, loc: Location) -> Result<(), ReadError> {
        let mut board = hirate_board();
        let body = self.groups(s, loc)?;
        let pairs = body.as_bytes();
        for ch in pairs.chunks(4) {
            let (f, r) = (ch[0].wrapping_sub(b'0'), ch[1].wrapping_sub(b'0'));
            let kind = std::str::from_utf8(&ch[2..]).ok().and_then(Role::from_csa);
            if !(1..=9).contains(&f) || !(1..=9).contains(&r) || kind.is_none() {
                return Err(self.err(ErrorKind::Position, "bad piece removal after PI", loc));
            }
            let cell = &mut board.cells[usize::from(r - 1)][usize::from(f - 1)];
            if cell.map(|c| c.role) != kind {
                return Err(self.err(
                    ErrorKind::Position,
                    format!(
                        "PI removes {} from {f}{r} but that square does not hold it",
                        std::str::from_utf8(&ch[2..]).unwrap_or("?")
                    ),
                    loc,
                ));
            }
            *cell = None;
        }
        let side = self.board.as_ref().and_then(|b| b.side_to_move);
        board.side_to_move = side;
        self.board = Some(board);
        self.pi = Some(body.to_string());
        Ok(())
    }

    /// A `P1`..`P9` row of the board.
    fn row_line(
        &mut self,
        line: TextLine<'a>,
        s: &'a str,
        c: u8,
        loc: Location,
    ) -> Result<(), ReadError> {
        let b = s.as_bytes();
        let rank = usize::from(c - b'1');
        let board = self.board.get_or_insert_with(RawBoard::default);
        let mut cells: Vec<Option<Piece>> = Vec::with_capacity(9);
        let mut i = 2;
        while i < b.len() && cells.len() < 9 {
            match b[i] {
                b' ' => i += 1,
                b'*' => {
                    cells.push(None);
                    i += 1;
                }
                b'+' | b'-' => {
                    let side = if b[i] == b'+' {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let k = s
                        .get(i + 1..i + 3)
                        .and_then(Role::from_csa)
                        .ok_or_else(|| {
                            ReadError::at(
                                ErrorKind::Position,
                                "bad piece in a P row",
                                self.src,
                                line.loc_of(&s[i..]),
                            )
                        })?;
                    cells.push(Some(Piece::new(side, k)));
                    i += 3;
                }
                _ => {
                    return Err(ReadError::at(
                        ErrorKind::Position,
                        "bad cell in a P row (expected ' * ' or a piece like +FU)",
                        self.src,
                        line.loc_of(s.get(i..).unwrap_or("")),
                    ));
                }
            }
        }
        let rest = s[i.min(s.len())..].trim();
        if cells.len() != 9 && cells.len() != 5 {
            return Err(self.err(
                ErrorKind::Position,
                format!("P row has {} cells, expected 9", cells.len()),
                loc,
            ));
        }
        if !rest.is_empty() {
            self.rec
                .warn(self.src, line.loc_of(rest), "text after the P row ignored");
        }
        let n = cells.len();
        if n == 5 {
            board.size = 5;
        }
        for (j, cell) in cells.into_iter().enumerate() {
            board.cells[rank][n - 1 - j] = cell;
        }
        self.rows_seen[rank] = true;
        Ok(())
    }

    /// `P+` / `P-`: pieces put on squares or in hand (`00`), `00AL` for all the rest.
    fn pieces_line(
        &mut self,
        line: TextLine<'a>,
        s: &'a str,
        c: u8,
        loc: Location,
    ) -> Result<(), ReadError> {
        let side = if c == b'+' {
            Color::Black
        } else {
            Color::White
        };
        let body = self.groups(s, loc)?;
        let pairs = body.as_bytes();
        let board = self.board.get_or_insert_with(RawBoard::default);
        // The groups are counted in bytes: a group may cut a character that does
        // not belong there, so its location is taken from byte offsets.
        let body_at = line.offset_of(body);
        for (gi, ch) in pairs.chunks(4).enumerate() {
            let gloc = line.loc(body_at + gi * 4, body_at + gi * 4 + 4);
            if &ch[2..] == b"AL" && ch[0] == b'0' && ch[1] == b'0' {
                self.all_to = Some((side, gloc));
                continue;
            }
            let (f, r) = (ch[0].wrapping_sub(b'0'), ch[1].wrapping_sub(b'0'));
            let kind = std::str::from_utf8(&ch[2..]).ok().and_then(Role::from_csa);
            let Some(kind) = kind else {
                return Err(ReadError::at(
                    ErrorKind::Position,
                    "bad piece code",
                    self.src,
                    gloc,
                ));
            };
            if f == 0 && r == 0 {
                let idx = hand_slot(kind).ok_or_else(|| {
                    ReadError::at(
                        ErrorKind::Position,
                        format!("{} cannot be in hand", kind.csa()),
                        self.src,
                        gloc,
                    )
                })?;
                let h = &mut board.hands[side.index()][idx];
                *h = h.saturating_add(1);
            } else if (1..=9).contains(&f) && (1..=9).contains(&r) {
                board.cells[usize::from(r - 1)][usize::from(f - 1)] = Some(Piece::new(side, kind));
            } else {
                return Err(ReadError::at(
                    ErrorKind::Position,
                    "bad square",
                    self.src,
                    gloc,
                ));
            }
        }
        Ok(())
    }
}

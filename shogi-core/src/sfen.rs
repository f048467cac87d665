//! SFEN text, read and written: the board, side to move, hands and move number of a [`Setup`],
//! and the located errors of a malformed SFEN.
//!
//! Reading checks the syntax only; [`crate::Position::from_setup`] checks legality.

use crate::hand::Hand;
use crate::setup::{Setup, SetupError};
use crate::types::{Color, Piece, Role, Square, Variant};
use std::fmt;

/// Which part of an SFEN an error is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SfenField {
    /// The board field.
    Board,
    /// The side-to-move field.
    Side,
    /// The hands field.
    Hands,
    /// The move-number field.
    MoveNumber,
    /// After the last field.
    Trailing,
    /// The position as a whole (a setup problem).
    Position,
}

impl fmt::Display for SfenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SfenField::Board => "board",
            SfenField::Side => "side to move",
            SfenField::Hands => "hands",
            SfenField::MoveNumber => "move number",
            SfenField::Trailing => "trailing text",
            SfenField::Position => "position",
        })
    }
}

/// A malformed or illegal SFEN: the field, the byte offset in the input, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SfenError {
    /// The field the problem is in.
    pub field: SfenField,
    /// Byte offset into the SFEN text.
    pub position: usize,
    /// What is wrong.
    pub message: String,
    /// The setup problems, when the syntax was fine but the position is not legal.
    pub setup: Option<SetupError>,
}

impl SfenError {
    fn new(field: SfenField, position: usize, message: impl Into<String>) -> SfenError {
        SfenError {
            field,
            position,
            message: message.into(),
            setup: None,
        }
    }
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad SFEN {} at byte {}: {}",
            self.field, self.position, self.message
        )
    }
}

impl std::error::Error for SfenError {}

/// The whitespace-separated words of `s` with their byte offsets.
pub(crate) fn words(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let base = s.as_ptr() as usize;
    s.split_ascii_whitespace()
        .map(move |w| (w.as_ptr() as usize - base, w))
}

// SFEN text for a `Setup` (here, beside the reader and writer, so that `setup` does not
// depend on `sfen`).
impl Setup {
    /// Parses the SFEN syntax (board, side, hands, move number). Hands and move number may be
    /// omitted (empty hands, move 1). The variant comes from the board's shape (9x9 or 5x5).
    /// A leading `sfen ` is accepted. Legality is not checked here.
    pub fn from_sfen(s: &str) -> Result<Setup, SfenError> {
        parse(s)
    }

    /// The SFEN text, hands in the conventional order (R B G S N L P, Black first).
    pub fn to_sfen(&self) -> String {
        write(
            self.variant,
            &self.board,
            &self.hands,
            self.side_to_move,
            self.move_number,
        )
    }
}

/// Reads an SFEN: board, side to move, then optional hands and move number, after an optional
/// leading `sfen`. Offsets in errors are bytes into `input`.
pub(crate) fn parse(input: &str) -> Result<Setup, SfenError> {
    // At most a leading "sfen", four fields and one word of trailing text are looked at.
    let mut fields: Vec<(usize, &str)> = words(input).take(6).collect();
    if fields.first().map(|f| f.1) == Some("sfen") {
        fields.remove(0);
    }
    let Some(&(board_at, board_text)) = fields.first() else {
        return Err(SfenError::new(SfenField::Board, 0, "empty SFEN"));
    };
    let mut setup = Setup::empty(variant_of(board_at, board_text)?);
    read_board(input, board_at, board_text, &mut setup)?;
    setup.side_to_move = read_side(input.len(), fields.get(1).copied())?;
    if let Some(&(at, text)) = fields.get(2) {
        read_hands(input, at, text, &mut setup.hands)?;
    }
    if let Some(&(at, text)) = fields.get(3) {
        setup.move_number = read_move_number(at, text)?;
    }
    if let Some(&(at, text)) = fields.get(4) {
        return Err(SfenError::new(
            SfenField::Trailing,
            at,
            format!("unexpected text '{}' after the move number", clip(text)),
        ));
    }
    Ok(setup)
}

/// The variant a board field's shape names: 9 ranks for shogi, 5 for Mini Shogi.
fn variant_of(at: usize, board: &str) -> Result<Variant, SfenError> {
    match board.split('/').count() {
        9 => Ok(Variant::Standard),
        5 => Ok(Variant::Mini),
        n => Err(SfenError::new(
            SfenField::Board,
            at,
            format!("{n} ranks (expected 9 for shogi or 5 for Mini Shogi)"),
        )),
    }
}

/// Where the board reader is: the rank being filled, the next file to fill (counting down
/// from the board's size to 1, 0 when the rank is full) and whether a `+` is pending.
struct BoardCursor {
    size: u8,
    rank: u8,
    file: i32,
    promoted: bool,
}

impl BoardCursor {
    fn error(at: usize, message: impl Into<String>) -> SfenError {
        SfenError::new(SfenField::Board, at, message)
    }

    fn no_pending_plus(&self, at: usize) -> Result<(), SfenError> {
        if self.promoted {
            return Err(Self::error(at, "'+' not followed by a piece"));
        }
        Ok(())
    }

    /// Checks that the rank being left is full (at a `/` or at the end of the field).
    fn rank_end(&self, at: usize) -> Result<(), SfenError> {
        self.no_pending_plus(at)?;
        if self.file != 0 {
            let size = self.size as i32;
            return Err(Self::error(
                at,
                format!(
                    "rank {} has {} squares (expected {size})",
                    self.rank,
                    size - self.file
                ),
            ));
        }
        Ok(())
    }

    fn next_rank(&mut self, at: usize) -> Result<(), SfenError> {
        self.rank_end(at)?;
        self.rank += 1;
        self.file = self.size as i32;
        Ok(())
    }

    fn skip(&mut self, at: usize, empty: u8) -> Result<(), SfenError> {
        self.no_pending_plus(at)?;
        self.file -= empty as i32;
        if self.file < 0 {
            return Err(self.overfull(at));
        }
        Ok(())
    }

    fn plus(&mut self, at: usize) -> Result<(), SfenError> {
        if self.promoted {
            return Err(Self::error(at, "'++'"));
        }
        self.promoted = true;
        Ok(())
    }

    fn overfull(&self, at: usize) -> SfenError {
        Self::error(
            at,
            format!("rank {} has more than {} squares", self.rank, self.size),
        )
    }

    /// The piece letter `c` at byte `at` of `input`: the square it fills and the piece.
    fn piece(&mut self, input: &str, at: usize, c: u8) -> Result<(Square, Piece), SfenError> {
        let Some(base) = Role::from_sfen_char(c as char).filter(|_| c.is_ascii_alphabetic()) else {
            return Err(Self::error(
                at,
                format!("unexpected character '{}'", printable(input, at)),
            ));
        };
        let role = if std::mem::take(&mut self.promoted) {
            base.promote()
                .ok_or_else(|| Self::error(at, format!("a {} cannot be promoted", base.name())))?
        } else {
            base
        };
        if self.file <= 0 {
            return Err(self.overfull(at));
        }
        let sq = Square::new(self.file as u8, self.rank)
            .ok_or_else(|| Self::error(at, "square out of range"))?;
        self.file -= 1;
        Ok((sq, Piece::new(color_of_letter(c), role)))
    }
}

/// Black for an uppercase piece letter, White for a lowercase one.
fn color_of_letter(c: u8) -> Color {
    if c.is_ascii_uppercase() {
        Color::Black
    } else {
        Color::White
    }
}

/// The board field (at byte `at` of `input`): ranks from the top separated by `/`, each from
/// the highest file down, digits for runs of empty squares, `+` before a promoted piece.
fn read_board(input: &str, at: usize, text: &str, setup: &mut Setup) -> Result<(), SfenError> {
    let size = setup.variant.size();
    let mut cursor = BoardCursor {
        size,
        rank: 1,
        file: size as i32,
        promoted: false,
    };
    for (i, c) in text.bytes().enumerate() {
        match c {
            b'/' => cursor.next_rank(at + i)?,
            b'1'..=b'9' => cursor.skip(at + i, c - b'0')?,
            b'+' => cursor.plus(at + i)?,
            _ => {
                let (sq, piece) = cursor.piece(input, at + i, c)?;
                setup.board[sq.index()] = Some(piece);
            }
        }
    }
    cursor.rank_end(at + text.len())
}

/// The side-to-move field, `b` or `w` (either case); `end` is the input's length, where a
/// missing field is reported.
fn read_side(end: usize, field: Option<(usize, &str)>) -> Result<Color, SfenError> {
    match field {
        None => Err(SfenError::new(
            SfenField::Side,
            end,
            "missing side to move (b or w)",
        )),
        Some((_, "b" | "B")) => Ok(Color::Black),
        Some((_, "w" | "W")) => Ok(Color::White),
        Some((at, other)) => Err(SfenError::new(
            SfenField::Side,
            at,
            format!("side to move must be b or w, not '{}'", clip(other)),
        )),
    }
}

/// The hands field (at byte `at` of `input`): `-`, or pieces each with an optional count
/// (`2P`), uppercase for Black; a piece written twice adds up.
fn read_hands(input: &str, at: usize, text: &str, hands: &mut [Hand; 2]) -> Result<(), SfenError> {
    if text == "-" {
        return Ok(());
    }
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let count = hand_count(b, &mut i).ok_or_else(|| too_large(at + start))?;
        let Some(&c) = b.get(i) else {
            return Err(SfenError::new(
                SfenField::Hands,
                at + i,
                "count not followed by a piece letter",
            ));
        };
        let role = Role::from_sfen_char(c as char)
            .filter(|r| r.is_hand_role() && c.is_ascii_alphabetic())
            .ok_or_else(|| {
                SfenError::new(
                    SfenField::Hands,
                    at + i,
                    format!(
                        "'{}' is not a piece a hand can hold (P L N S G B R)",
                        printable(input, at + i)
                    ),
                )
            })?;
        if count == Some(0) {
            return Err(SfenError::new(SfenField::Hands, at + start, "hand count 0"));
        }
        let hand = &mut hands[color_of_letter(c).index()];
        let total = hand.count(role) as u32 + count.unwrap_or(1);
        if total > 99 {
            return Err(too_large(at + start));
        }
        hand.set(role, total as u8);
        i += 1;
    }
    Ok(())
}

/// The digits at `b[*i..]`, advancing `*i` past them: `Some(None)` when there are none,
/// `None` when the count passes 99.
fn hand_count(b: &[u8], i: &mut usize) -> Option<Option<u32>> {
    let mut count = None;
    while let Some(d) = b.get(*i).filter(|d| d.is_ascii_digit()) {
        let n = count.unwrap_or(0) * 10 + (d - b'0') as u32;
        if n > 99 {
            return None;
        }
        count = Some(n);
        *i += 1;
    }
    Some(count)
}

fn too_large(at: usize) -> SfenError {
    SfenError::new(SfenField::Hands, at, "hand count too large")
}

/// The move-number field: a whole number from 1.
fn read_move_number(at: usize, text: &str) -> Result<u32, SfenError> {
    match text.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(SfenError::new(
            SfenField::MoveNumber,
            at,
            format!(
                "move number must be a whole number from 1, not '{}'",
                clip(text)
            ),
        )),
    }
}

/// The character starting at byte `at` of `input`, for messages.
fn printable(input: &str, at: usize) -> String {
    input[at..]
        .chars()
        .next()
        .map(String::from)
        .unwrap_or_default()
}

/// `s`, cut to 20 characters with an ellipsis, for messages.
fn clip(s: &str) -> String {
    if s.chars().count() > 20 {
        let mut t: String = s.chars().take(20).collect();
        t.push('…');
        t
    } else {
        s.to_string()
    }
}

/// Writes an SFEN from its parts, hands in the conventional order (R B G S N L P, Black first).
pub(crate) fn write(
    variant: Variant,
    board: &[Option<Piece>; 81],
    hands: &[Hand; 2],
    side: Color,
    move_number: u32,
) -> String {
    // Written in place, without a string per piece or number: statistics write one SFEN per
    // game and this was a visible share of their cost.
    let mut s = String::with_capacity(96);
    write_board(&mut s, variant, board);
    s.push(' ');
    s.push(side.sfen_char());
    s.push(' ');
    write_hands(&mut s, hands);
    s.push(' ');
    push_number(&mut s, move_number);
    s
}

/// Appends `n` in decimal.
fn push_number(s: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        s.push(char::from(d));
    }
}

/// The SFEN letters of each role (by `Role as usize`), Black's: `+` before a promoted one.
const ROLE_TEXT: [[u8; 2]; 14] = [
    [0, b'P'],
    [0, b'L'],
    [0, b'N'],
    [0, b'S'],
    [0, b'G'],
    [0, b'B'],
    [0, b'R'],
    [0, b'K'],
    [b'+', b'P'],
    [b'+', b'L'],
    [b'+', b'N'],
    [b'+', b'S'],
    [b'+', b'B'],
    [b'+', b'R'],
];

/// Appends the board field to `s`: built as bytes (all ASCII) with a table for the pieces,
/// the squares taken rank by rank.
fn write_board(s: &mut String, variant: Variant, board: &[Option<Piece>; 81]) {
    let n = usize::from(variant.size());
    let mut out = [0u8; 9 * 19];
    let mut len = 0;
    let mut put = |b: u8| {
        if let Some(slot) = out.get_mut(len) {
            *slot = b;
            len += 1;
        }
    };
    for rank in 0..n {
        if rank > 0 {
            put(b'/');
        }
        let mut empty = 0u8;
        // The square's index: (file - 1) * 9 + (rank - 1), as `Square::index` has it; files
        // from the highest.
        for file in (0..n).rev() {
            match board[file * 9 + rank] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        put(b'0' + empty);
                        empty = 0;
                    }
                    let [plus, letter] = ROLE_TEXT[p.role as usize];
                    if plus != 0 {
                        put(plus);
                    }
                    put(match p.color {
                        Color::Black => letter,
                        Color::White => letter.to_ascii_lowercase(),
                    });
                }
            }
        }
        if empty > 0 {
            put(b'0' + empty);
        }
    }
    // Only ASCII was written.
    s.push_str(std::str::from_utf8(&out[..len]).unwrap_or_default());
}

/// Appends the SFEN hands field: `-` or counts and letters, Black first, R B G S N L P order.
fn write_hands(s: &mut String, hands: &[Hand; 2]) {
    let before = s.len();
    for color in Color::ALL {
        for (role, count) in hands[color.index()].iter() {
            if count > 1 {
                push_number(s, u32::from(count));
            }
            let c = role.sfen_char();
            s.push(if color == Color::Black {
                c
            } else {
                c.to_ascii_lowercase()
            });
        }
    }
    if s.len() == before {
        s.push('-');
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    /// Writing gives back what was read: promoted pieces of both sides, hand counts of one,
    /// two digits (18 pawns) and none, move numbers of one and several digits.
    #[test]
    fn written_as_read() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "8k/+P+L+N+S2+r1+b/9/9/9/9/9/9/K8 w RB2G3S3N3L17p 123",
            "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L9P9p 4096",
            "rbsgk/4+p/5/+P4/KGSBR b - 10",
        ] {
            let p = Position::from_sfen(sfen).unwrap();
            assert_eq!(p.to_sfen(), sfen);
        }
    }
}

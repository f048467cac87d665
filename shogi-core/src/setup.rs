//! `Setup`: any arrangement of pieces (legal or not), its SFEN syntax, and the problems that
//! keep it from being a playable position.

use crate::hand::Hand;
use crate::types::{Color, Piece, Role, Square, Variant};
use std::fmt;

/// An arrangement of pieces, hands and side to move, not necessarily legal.
///
/// Turn it into a playable [`crate::Position`] with [`crate::Position::from_setup`], which
/// names every problem it finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The variant (board size and rules).
    pub variant: Variant,
    /// The board by square index (see [`Square::index`]); squares off a Mini Shogi board stay empty.
    pub board: [Option<Piece>; 81],
    /// Hands by colour index.
    pub hands: [Hand; 2],
    /// The side to move.
    pub side_to_move: Color,
    /// The SFEN move number (the number of the next move, 1 at the start).
    pub move_number: u32,
}

impl Setup {
    /// An empty board of the variant with Black to move.
    pub fn empty(variant: Variant) -> Setup {
        Setup {
            variant,
            board: [None; 81],
            hands: [Hand::EMPTY; 2],
            side_to_move: Color::Black,
            move_number: 1,
        }
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Puts (or clears) a piece on `sq`.
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }

    /// Parses the SFEN syntax (board, side, hands, move number). Hands and move number may be
    /// omitted (empty hands, move 1). The variant comes from the board's shape (9x9 or 5x5).
    /// A leading `sfen ` is accepted. Legality is not checked here.
    pub fn from_sfen(s: &str) -> Result<Setup, SfenError> {
        parse_sfen(s)
    }

    /// The SFEN text, hands in the conventional order (R B G S N L P, Black first).
    pub fn to_sfen(&self) -> String {
        write_sfen(
            self.variant,
            &self.board,
            &self.hands,
            self.side_to_move,
            self.move_number,
        )
    }
}

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

fn parse_sfen(input: &str) -> Result<Setup, SfenError> {
    // At most a leading "sfen", four fields and one word of trailing text are looked at.
    let mut fields: Vec<(usize, &str)> = words(input).take(6).collect();
    if fields.first().map(|f| f.1) == Some("sfen") {
        fields.remove(0);
    }
    let Some(&(board_at, board_text)) = fields.first() else {
        return Err(SfenError::new(SfenField::Board, 0, "empty SFEN"));
    };

    // Board: ranks separated by '/'.
    let rank_count = board_text.split('/').count();
    let variant = match rank_count {
        9 => Variant::Standard,
        5 => Variant::Mini,
        n => {
            return Err(SfenError::new(
                SfenField::Board,
                board_at,
                format!("{n} ranks (expected 9 for shogi or 5 for Mini Shogi)"),
            ));
        }
    };
    let size = variant.size();
    let mut setup = Setup::empty(variant);
    let bytes = board_text.as_bytes();
    let mut rank = 1u8;
    let mut file = size as i32; // next file to fill, counting down
    let mut promoted_at: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let at = board_at + i;
        match c {
            b'/' => {
                if promoted_at.is_some() {
                    return Err(SfenError::new(
                        SfenField::Board,
                        at,
                        "'+' not followed by a piece",
                    ));
                }
                if file != 0 {
                    return Err(SfenError::new(
                        SfenField::Board,
                        at,
                        format!(
                            "rank {rank} has {} squares (expected {size})",
                            size as i32 - file
                        ),
                    ));
                }
                rank += 1;
                file = size as i32;
            }
            b'1'..=b'9' => {
                if promoted_at.is_some() {
                    return Err(SfenError::new(
                        SfenField::Board,
                        at,
                        "'+' not followed by a piece",
                    ));
                }
                file -= (c - b'0') as i32;
                if file < 0 {
                    return Err(SfenError::new(
                        SfenField::Board,
                        at,
                        format!("rank {rank} has more than {size} squares"),
                    ));
                }
            }
            b'+' => {
                if promoted_at.is_some() {
                    return Err(SfenError::new(SfenField::Board, at, "'++'"));
                }
                promoted_at = Some(at);
            }
            _ => {
                let ch = c as char;
                let Some(base) = Role::from_sfen_char(ch).filter(|_| c.is_ascii_alphabetic())
                else {
                    return Err(SfenError::new(
                        SfenField::Board,
                        at,
                        format!("unexpected character '{}'", printable(input, at)),
                    ));
                };
                let role = if promoted_at.take().is_some() {
                    match base.promote() {
                        Some(r) => r,
                        None => {
                            return Err(SfenError::new(
                                SfenField::Board,
                                at,
                                format!("a {} cannot be promoted", base.name()),
                            ));
                        }
                    }
                } else {
                    base
                };
                if file <= 0 {
                    return Err(SfenError::new(
                        SfenField::Board,
                        at,
                        format!("rank {rank} has more than {size} squares"),
                    ));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let sq = Square::new(file as u8, rank)
                    .ok_or_else(|| SfenError::new(SfenField::Board, at, "square out of range"))?;
                setup.board[sq.index()] = Some(Piece::new(color, role));
                file -= 1;
            }
        }
        i += 1;
    }
    if promoted_at.is_some() {
        return Err(SfenError::new(
            SfenField::Board,
            board_at + bytes.len(),
            "'+' not followed by a piece",
        ));
    }
    if file != 0 {
        return Err(SfenError::new(
            SfenField::Board,
            board_at + bytes.len(),
            format!(
                "rank {rank} has {} squares (expected {size})",
                size as i32 - file
            ),
        ));
    }

    // Side to move.
    match fields.get(1) {
        None => {
            return Err(SfenError::new(
                SfenField::Side,
                input.len(),
                "missing side to move (b or w)",
            ));
        }
        Some(&(at, "b")) | Some(&(at, "B")) => {
            let _ = at;
            setup.side_to_move = Color::Black
        }
        Some(&(_, "w")) | Some(&(_, "W")) => setup.side_to_move = Color::White,
        Some(&(at, other)) => {
            return Err(SfenError::new(
                SfenField::Side,
                at,
                format!("side to move must be b or w, not '{}'", clip(other)),
            ));
        }
    }

    // Hands.
    if let Some(&(at, text)) = fields.get(2) {
        if text != "-" {
            let b = text.as_bytes();
            let mut i = 0;
            while i < b.len() {
                let start = i;
                let mut count: u32 = 0;
                let mut has_count = false;
                while i < b.len() && b[i].is_ascii_digit() {
                    count = count * 10 + (b[i] - b'0') as u32;
                    has_count = true;
                    if count > 99 {
                        return Err(SfenError::new(
                            SfenField::Hands,
                            at + start,
                            "hand count too large",
                        ));
                    }
                    i += 1;
                }
                if i >= b.len() {
                    return Err(SfenError::new(
                        SfenField::Hands,
                        at + i,
                        "count not followed by a piece letter",
                    ));
                }
                let c = b[i];
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
                let count = if has_count { count } else { 1 };
                if has_count && count == 0 {
                    return Err(SfenError::new(SfenField::Hands, at + start, "hand count 0"));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let hand = &mut setup.hands[color.index()];
                let total = hand.count(role) as u32 + count;
                if total > 99 {
                    return Err(SfenError::new(
                        SfenField::Hands,
                        at + start,
                        "hand count too large",
                    ));
                }
                hand.set(role, total as u8);
                i += 1;
            }
        }
    }

    // Move number.
    if let Some(&(at, text)) = fields.get(3) {
        match text.parse::<u32>() {
            Ok(n) if n >= 1 => setup.move_number = n,
            _ => {
                return Err(SfenError::new(
                    SfenField::MoveNumber,
                    at,
                    format!(
                        "move number must be a whole number from 1, not '{}'",
                        clip(text)
                    ),
                ));
            }
        }
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

fn printable(input: &str, at: usize) -> String {
    input[at..]
        .chars()
        .next()
        .map(String::from)
        .unwrap_or_default()
}

fn clip(s: &str) -> String {
    if s.chars().count() > 20 {
        let mut t: String = s.chars().take(20).collect();
        t.push('…');
        t
    } else {
        s.to_string()
    }
}

/// Writes an SFEN from its parts.
pub(crate) fn write_sfen(
    variant: Variant,
    board: &[Option<Piece>; 81],
    hands: &[Hand; 2],
    side: Color,
    move_number: u32,
) -> String {
    let n = variant.size();
    let mut s = String::with_capacity(96);
    for rank in 1..=n {
        if rank > 1 {
            s.push('/');
        }
        let mut empty = 0;
        for file in (1..=n).rev() {
            let sq = Square::new(file, rank).unwrap_or(Square::from_index_unchecked(0));
            match board[sq.index()] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push_str(&p.sfen());
                }
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
    }
    s.push(' ');
    s.push(side.sfen_char());
    s.push(' ');
    s.push_str(&hands_sfen(hands));
    s.push(' ');
    s.push_str(&move_number.to_string());
    s
}

/// The SFEN hands field: `-` or counts and letters, Black first, R B G S N L P order.
pub fn hands_sfen(hands: &[Hand; 2]) -> String {
    let mut s = String::new();
    for color in Color::ALL {
        for (role, count) in hands[color.index()].iter() {
            if count > 1 {
                s.push_str(&count.to_string());
            }
            let c = role.sfen_char();
            s.push(if color == Color::Black {
                c
            } else {
                c.to_ascii_lowercase()
            });
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// What may be relaxed when validating a setup (for tsume and study positions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetupOptions {
    /// Accept a side without a king (tsume problems give only gote a king).
    pub allow_missing_king: bool,
    /// Accept more pieces of a kind than one set holds (tsume "extra pieces").
    pub allow_extra_pieces: bool,
    /// Accept two unpromoted pawns of one side on a file (puzzle positions).
    pub allow_nifu: bool,
    /// Accept pawns, lances and knights that can never move (puzzle positions). Such pieces
    /// simply have no moves.
    pub allow_dead_pieces: bool,
}

impl SetupOptions {
    /// The usual relaxations for tsume problems: missing king and extra pieces allowed.
    pub const TSUME: SetupOptions = SetupOptions {
        allow_missing_king: true,
        allow_extra_pieces: true,
        allow_nifu: false,
        allow_dead_pieces: false,
    };

    /// Everything a board can show is accepted except what the engine cannot play from: more
    /// than one king of a side, pieces off the board or not in the variant, and the side not
    /// to move standing in check. For puzzle and study diagrams.
    pub const PERMISSIVE: SetupOptions = SetupOptions {
        allow_missing_king: true,
        allow_extra_pieces: true,
        allow_nifu: true,
        allow_dead_pieces: true,
    };
}

/// One reason a setup is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    ExtraKing(Color),
    /// A piece stands off the variant's board.
    OffBoard(Square),
    /// A role that the variant does not use (a lance or knight in Mini Shogi).
    RoleNotInVariant(Role),
    /// Two unpromoted pawns of one side on one file.
    Nifu {
        /// Owner of the pawns.
        color: Color,
        /// The file, 1..=9.
        file: u8,
    },
    /// A pawn, lance or knight that could never move again.
    DeadPiece {
        /// Where it stands.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// More pieces of a kind (counted unpromoted, board and hands) than one set holds.
    TooManyPieces {
        /// The unpromoted role.
        role: Role,
        /// How many there are.
        count: u32,
        /// How many a set holds.
        max: u8,
    },
    /// The side not to move is in check (its king could be captured).
    OpponentInCheck(Color),
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::MissingKing(c) => write!(f, "{} has no king", c.japanese_en()),
            SetupProblem::ExtraKing(c) => write!(f, "{} has more than one king", c.japanese_en()),
            SetupProblem::OffBoard(sq) => write!(f, "piece on {} is off the board", sq.usi()),
            SetupProblem::RoleNotInVariant(r) => {
                write!(f, "{} is not used in this variant", r.name())
            }
            SetupProblem::Nifu { color, file } => write!(
                f,
                "two unpromoted {} pawns on file {file} (nifu)",
                color.japanese_en()
            ),
            SetupProblem::DeadPiece { square, piece } => write!(
                f,
                "{} {} on {} can never move (dead piece)",
                piece.color.japanese_en(),
                piece.role.name(),
                square.usi()
            ),
            SetupProblem::TooManyPieces { role, count, max } => write!(
                f,
                "{count} {}s on board and in hand (a set holds {max})",
                role.name()
            ),
            SetupProblem::OpponentInCheck(c) => write!(
                f,
                "{} is in check but it is not their move",
                c.japanese_en()
            ),
        }
    }
}

impl Color {
    /// "sente (black)" or "gote (white)", for messages.
    pub const fn japanese_en(self) -> &'static str {
        match self {
            Color::Black => "sente",
            Color::White => "gote",
        }
    }
}

/// Every problem found in a setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// The problems, in a stable order.
    pub problems: Vec<SetupProblem>,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SetupError {}

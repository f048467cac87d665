//! `Setup`: any arrangement of pieces (legal or not) and the problems that keep it from being a
//! playable position. Its SFEN syntax is in `sfen.rs`.

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

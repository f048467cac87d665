//! Moves, their USI notation, and a fixed-capacity move list.

use crate::types::{Role, Square};
use std::fmt;

/// A move: a piece moving on the board, or a drop from hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A piece moves from `from` to `to`, promoting when `promote` is set.
    Normal {
        /// Source square.
        from: Square,
        /// Destination square.
        to: Square,
        /// Whether the piece promotes.
        promote: bool,
    },
    /// A piece of `role` (unpromoted) is dropped from hand onto the empty square `to`.
    Drop {
        /// Dropped role.
        role: Role,
        /// Destination square.
        to: Square,
    },
}

/// A move's USI text held inline (see [`Move::usi`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UsiText {
    bytes: [u8; 5],
    len: u8,
}

impl UsiText {
    /// The text, e.g. `7g7f`.
    pub fn as_str(&self) -> &str {
        // Only ASCII digits, letters, `*` and `+` are ever written.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }
}

impl fmt::Display for UsiText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a USI move string did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiMoveError {
    /// Byte offset in the move text where the problem is.
    pub position: usize,
    /// What is wrong.
    pub message: &'static str,
    /// What is wrong, for a program to act on.
    pub kind: UsiMoveErrorKind,
}

/// What makes a text not a USI move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UsiMoveErrorKind {
    /// Shorter than four bytes.
    TooShort,
    /// A drop's piece letter is not one of `P L N S G B R`.
    DropRole,
    /// The source is not a square name.
    Source,
    /// The destination is not a square name.
    Destination,
    /// Text follows the move.
    Trailing,
    /// Well-formed, but from a square to itself: no position allows it. A record reader may
    /// keep it as a move (`square`, `promote`) and let the rules refuse it.
    SameSquare {
        /// The source and destination.
        square: Square,
        /// Whether `+` followed.
        promote: bool,
    },
}

impl fmt::Display for UsiMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad USI move at byte {}: {}",
            self.position, self.message
        )
    }
}

impl std::error::Error for UsiMoveError {}

impl Move {
    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// The source square, `None` for a drop.
    #[inline(always)]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// Whether the move promotes.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }

    /// Whether the move is a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    /// The USI text: `7g7f`, `8h2b+`, `P*5e`.
    pub fn to_usi(self) -> String {
        self.usi().as_str().to_owned()
    }

    /// The USI text without allocating (for writing millions of moves).
    #[inline]
    pub fn usi(self) -> UsiText {
        let sq = |s: Square| [b'0' + s.file(), b'a' + s.rank() - 1];
        let mut bytes = [0u8; 5];
        let len = match self {
            Move::Normal { from, to, promote } => {
                bytes[..2].copy_from_slice(&sq(from));
                bytes[2..4].copy_from_slice(&sq(to));
                if promote {
                    bytes[4] = b'+';
                    5
                } else {
                    4
                }
            }
            Move::Drop { role, to } => {
                bytes[0] = role.sfen_char() as u8;
                bytes[1] = b'*';
                bytes[2..4].copy_from_slice(&sq(to));
                4
            }
        };
        UsiText { bytes, len }
    }

    /// Parses USI text. Only the syntax is checked (and that a move leaves its square);
    /// legality is the position's business. The error's [`UsiMoveErrorKind`] says why the
    /// text is not a move.
    pub fn from_usi(s: &str) -> Result<Move, UsiMoveError> {
        use UsiMoveErrorKind as K;
        let b = s.as_bytes();
        let err = |position, kind, message| {
            Err(UsiMoveError {
                position,
                message,
                kind,
            })
        };
        if b.len() < 4 {
            return err(
                b.len(),
                K::TooShort,
                "too short (expected like 7g7f, 8h2b+ or P*5e)",
            );
        }
        if b[1] == b'*' {
            let role = match Role::from_sfen_char(b[0] as char) {
                Some(r) if r.is_hand_role() && b[0].is_ascii_uppercase() => r,
                _ => return err(0, K::DropRole, "drop piece must be one of P L N S G B R"),
            };
            let Some(to) = Square::from_usi_bytes(b[2], b[3]) else {
                return err(2, K::Destination, "bad destination square");
            };
            if b.len() > 4 {
                return err(4, K::Trailing, "unexpected text after the move");
            }
            return Ok(Move::Drop { role, to });
        }
        let Some(from) = Square::from_usi_bytes(b[0], b[1]) else {
            return err(0, K::Source, "bad source square");
        };
        let Some(to) = Square::from_usi_bytes(b[2], b[3]) else {
            return err(2, K::Destination, "bad destination square");
        };
        let promote = match &b[4..] {
            [] => false,
            [b'+'] => true,
            _ => {
                return err(
                    4,
                    K::Trailing,
                    "unexpected text after the move (only '+' may follow)",
                );
            }
        };
        if from == to {
            let kind = K::SameSquare {
                square: from,
                promote,
            };
            return err(2, kind, "source and destination are the same square");
        }
        Ok(Move::Normal { from, to, promote })
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_usi())
    }
}

/// The largest number of legal moves known in a position (593), rounded up.
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity list of moves (no allocation).
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        let filler = Move::Drop {
            role: Role::Pawn,
            to: Square::from_index_unchecked(0),
        };
        MoveList {
            len: 0,
            moves: [filler; MAX_MOVES],
        }
    }

    /// Appends a move. Pushing beyond capacity is a bug (no legal position has that many).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        } else {
            debug_assert!(false, "move list overflow");
        }
    }

    /// Removes all moves.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether the list holds `m`.
    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

//! The two position encodings, the two move encodings, and why encoding or decoding fails.

use shogi_core::{Color, Move, PlayError, Role, SetupError, Square, Variant};
use std::fmt;

/// Size in bytes of a packed position (hcp or PackedSfen): 256 bits.
pub const PACKED_POSITION_BYTES: usize = 32;

/// The two 256-bit position encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionFormat {
    /// cshogi / Apery `HuffmanCodedPos` ("hcp"), as in hcpe files.
    Hcp,
    /// YaneuraOu `PackedSfen`, as in PackedSfenValue (psv) files.
    PackedSfen,
}

/// The two 16-bit move encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move16Format {
    /// cshogi / Apery `move16` (hcpe `bestMove16`): promotion on bit 14, a drop has
    /// `from = 80 + piece type`.
    Cshogi,
    /// YaneuraOu `Move16` (psv `move`): drop flag on bit 14, promotion on bit 15, a drop has
    /// `from = piece type`.
    YaneuraOu,
}

/// Why a position or move could not be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// The formats hold only standard 9x9 shogi (Mini Shogi cannot be encoded).
    Variant(Variant),
    /// A side has no king (the formats need exactly one king per side).
    MissingKing(Color),
    /// A side has more than one king.
    ExtraKing(Color),
    /// More pieces of a kind (unpromoted, board and hands) than one set holds.
    TooManyPieces {
        /// The unpromoted role.
        role: Role,
        /// How many there are.
        count: u32,
        /// How many a set holds.
        max: u8,
    },
    /// A drop of a role that cannot be held in hand (no 16-bit code exists).
    UnencodableMove(Move),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Variant(v) => write!(
                f,
                "{} positions cannot be encoded: hcp and PackedSfen hold only standard shogi",
                match v {
                    Variant::Standard => "standard shogi",
                    Variant::Mini => "Mini Shogi",
                }
            ),
            EncodeError::MissingKing(c) => write!(
                f,
                "{} has no king: hcp and PackedSfen need one king per side",
                c.japanese_en()
            ),
            EncodeError::ExtraKing(c) => write!(
                f,
                "{} has more than one king: hcp and PackedSfen need one king per side",
                c.japanese_en()
            ),
            EncodeError::TooManyPieces { role, count, max } => write!(
                f,
                "{count} {}s on board and in hand (a set holds {max}): hcp and PackedSfen hold one set",
                role.name()
            ),
            EncodeError::UnencodableMove(m) => {
                write!(f, "move {m:?} has no 16-bit encoding")
            }
        }
    }
}

impl std::error::Error for EncodeError {}

/// Why bytes could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// A king square field (bits 1-7 for sente, 8-14 for gote) is not a square (81..127).
    KingSquare {
        /// Whose king.
        color: Color,
        /// The 7-bit value read.
        index: u8,
    },
    /// Both kings are on the same square.
    KingsOnSameSquare(Square),
    /// The bits at `bit` are no code of the format.
    BadCode {
        /// Bit offset in the 256-bit stream (bit `k` is bit `k % 8` of byte `k / 8`).
        bit: u16,
        /// The board square being read, or `None` in the hand section.
        square: Option<Square>,
    },
    /// The code starting at `bit` runs past the end of the 256 bits (`bit` is 256 when the
    /// bits end before a board square).
    Overflow {
        /// Bit offset in the 256-bit stream where the code starts.
        bit: u16,
        /// The board square being read, or `None` in the hand section.
        square: Option<Square>,
    },
    /// The decoded pieces do not form a legal position.
    Impossible(SetupError),
    /// A 16-bit move value that is no move of the format.
    BadMove16 {
        /// The value.
        value: u16,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A 16-bit move that is well formed but not legal in the position.
    IllegalMove16 {
        /// The value.
        value: u16,
        /// The move it encodes.
        mv: Move,
        /// The rule it breaks.
        reason: PlayError,
    },
    /// An entry's game-result byte is not a value of its format.
    BadGameResult(u8),
}

fn where_(square: Option<Square>) -> String {
    match square {
        Some(sq) => format!("square {}", sq.usi()),
        None => "pieces in hand".to_string(),
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::KingSquare { color, index } => write!(
                f,
                "{} king square field is {index}, not a square (0..80)",
                color.japanese_en()
            ),
            DecodeError::KingsOnSameSquare(sq) => {
                write!(f, "both kings are on square {}", sq.usi())
            }
            DecodeError::BadCode { bit, square } => write!(
                f,
                "incorrect Huffman code at bit {bit} (byte {}, {})",
                bit / 8,
                where_(*square)
            ),
            DecodeError::Overflow { bit: 256.., square } => {
                write!(f, "the 256 bits end before {}", where_(*square))
            }
            DecodeError::Overflow { bit, square } => write!(
                f,
                "the code at bit {bit} (byte {}, {}) runs past the 256 bits",
                bit / 8,
                where_(*square)
            ),
            DecodeError::Impossible(e) => write!(f, "impossible position: {e}"),
            DecodeError::BadMove16 { value, reason } => {
                write!(f, "bad 16-bit move 0x{value:04x}: {reason}")
            }
            DecodeError::IllegalMove16 { value, mv, reason } => write!(
                f,
                "16-bit move 0x{value:04x} ({mv:?}) is illegal here: {reason}"
            ),
            DecodeError::BadGameResult(b) => write!(f, "bad game result byte {b}"),
        }
    }
}

impl std::error::Error for DecodeError {}

//! Training-data binary formats: the 256-bit packed positions of cshogi (`HuffmanCodedPos`,
//! "hcp") and YaneuraOu (`PackedSfen`), their 16-bit move encodings, and the fixed-size entries
//! built on them (cshogi/DLShogi `hcpe`, 38 bytes; YaneuraOu `PackedSfenValue`, 40 bytes).
//!
//! The layouts follow `shared/TRAINING-FORMATS.md`, and the output is byte-identical to cshogi
//! 1.1.0 (`Board.to_hcp`, `Board.to_psfen`, `move16`, `move16_to_psv`). Only standard shogi with
//! one king per side and at most one set of pieces can be encoded; decoding validates the bytes
//! and the position they describe.
//!
//! ```
//! use shogi_core::{GameResult, Hcpe, Move, Position, PositionFormat, Variant};
//!
//! let pos = Position::startpos(Variant::Standard);
//! let mut hcp = [0u8; 32];
//! PositionFormat::Hcp.encode(&pos, &mut hcp)?;
//! assert_eq!(&hcp[..4], &[0x58, 0xa4, 0x49, 0x21]);
//! assert_eq!(PositionFormat::Hcp.decode(&hcp)?, pos);
//!
//! // One hcpe entry: the position, its evaluation, the move played and the game's result.
//! let entry = Hcpe::new(&pos, 35, Some(Move::from_usi("7g7f")?), GameResult::BlackWin)?;
//! let bytes: [u8; Hcpe::SIZE] = entry.to_bytes();
//! assert_eq!(&bytes[32..], &[35, 0, 0x3b, 0x1e, 1, 0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::{
    Color, Move, Piece, PlayError, Position, Role, Setup, SetupError, SetupOptions, Square, Variant,
};
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

// ---------------------------------------------------------------------------------------------
// Code tables

/// A code: `len` bits, the first written at bit 0 of `bits`.
#[derive(Clone, Copy)]
struct Code {
    bits: u8,
    len: u8,
}

/// Parses a code written as a bit string in write order.
const fn code(s: &str) -> Code {
    let b = s.as_bytes();
    let mut bits = 0u8;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'1' {
            bits |= 1 << i;
        }
        i += 1;
    }
    Code {
        bits,
        len: b.len() as u8,
    }
}

/// `c` followed by one more bit.
const fn then(c: Code, bit: bool) -> Code {
    Code {
        bits: c.bits | ((bit as u8) << c.len),
        len: c.len + 1,
    }
}

/// A decode-table slot: what the code starting with these bits means, and its length.
/// `len == 0` marks bits that start no code.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Slot {
    /// `Piece::index()` (0..28), [`EMPTY`] or [`BOX`].
    what: u8,
    len: u8,
}

const EMPTY: u8 = 0xfe;
const BOX: u8 = 0xfd;
const NONE: Slot = Slot { what: 0, len: 0 };

struct Tables {
    /// Board codes by `Piece::index()`; kings have `len == 0`.
    board: [Code; 28],
    /// Hand codes by colour and hand role (P L N S G B R).
    hand: [[Code; 7]; 2],
    /// Piece-box codes by hand role.
    boxed: [Code; 7],
    /// Board decoding by the next 8 bits.
    board_decode: [Slot; 256],
    /// Hand decoding by the next 7 bits.
    hand_decode: [Slot; 128],
}

/// Board prefixes (before the colour and promotion bits) by hand role, in write order.
const HCP_BOARD: [&str; 7] = ["10", "1100", "1110", "1101", "11110", "111110", "111111"];
const PSFEN_BOARD: [&str; 7] = ["10", "1100", "1101", "1110", "11110", "111110", "111111"];
/// Hand prefixes (before the colour bit); PackedSfen's include its promotion bit (0).
const HCP_HAND: [&str; 7] = ["00", "1000", "1100", "1010", "1110", "111110", "111111"];
const PSFEN_HAND: [&str; 7] = ["00", "1000", "1010", "1100", "1110", "111100", "111110"];
const HCP_BOX: [&str; 7] = [
    "010", "10010", "11010", "10110", "10111", "1111000", "1111010",
];
const PSFEN_BOX: [&str; 7] = [
    "010", "10010", "10110", "11010", "11011", "1111010", "1111110",
];

/// Marks every table entry whose low `c.len` bits are `c.bits`; two different meanings for
/// one entry (a code table that is not prefix-free) stop the build.
const fn fill<const N: usize>(mut t: [Slot; N], c: Code, what: u8) -> [Slot; N] {
    let mask = (1usize << c.len) - 1;
    let mut i = 0;
    while i < N {
        if i & mask == c.bits as usize {
            if t[i].len != 0 && (t[i].what != what || t[i].len != c.len) {
                panic!("code tables are not prefix-free");
            }
            t[i] = Slot { what, len: c.len };
        }
        i += 1;
    }
    t
}

const fn build(hcp: bool) -> Tables {
    let (board_prefix, hand_prefix, box_codes) = if hcp {
        (HCP_BOARD, HCP_HAND, HCP_BOX)
    } else {
        (PSFEN_BOARD, PSFEN_HAND, PSFEN_BOX)
    };
    let mut t = Tables {
        board: [Code { bits: 0, len: 0 }; 28],
        hand: [[Code { bits: 0, len: 0 }; 7]; 2],
        boxed: [Code { bits: 0, len: 0 }; 7],
        board_decode: [NONE; 256],
        hand_decode: [NONE; 128],
    };
    t.board_decode = fill(t.board_decode, code("0"), EMPTY);
    let mut r = 0;
    while r < 7 {
        let role = Role::HAND[r];
        let mut c = 0;
        while c < 2 {
            let color = Color::ALL[c];
            let white = c == 1;
            // Board: prefix, then colour and promotion bits (hcp: c p; PackedSfen: p c).
            let prefix = code(board_prefix[r]);
            let mut p = 0;
            while p < 2 {
                let promoted = p == 1;
                let piece_role = if promoted {
                    match role.promote() {
                        Some(pr) => pr,
                        None => break,
                    }
                } else {
                    role
                };
                let full = if matches!(role, Role::Gold) {
                    then(prefix, white)
                } else if hcp {
                    then(then(prefix, white), promoted)
                } else {
                    then(then(prefix, promoted), white)
                };
                let idx = Piece::new(color, piece_role).index();
                t.board[idx] = full;
                t.board_decode = fill(t.board_decode, full, idx as u8);
                p += 1;
            }
            // Hand: prefix, then colour bit.
            let hc = then(code(hand_prefix[r]), white);
            t.hand[c][r] = hc;
            t.hand_decode = fill(t.hand_decode, hc, Piece::new(color, role).index() as u8);
            // PackedSfen: any hand entry with the promotion bit set is a piece-box entry
            // (YaneuraOu reads them so; its own box codes are those with colour 0, and gold's
            // box code is a promoted gote silver's).
            if !hcp && !matches!(role, Role::Gold) {
                let hp = code(hand_prefix[r]);
                let boxed = then(
                    Code {
                        bits: hp.bits | (1 << (hp.len - 1)),
                        len: hp.len,
                    },
                    white,
                );
                t.hand_decode = fill(t.hand_decode, boxed, BOX);
            }
            c += 1;
        }
        let bc = code(box_codes[r]);
        t.boxed[r] = bc;
        t.hand_decode = fill(t.hand_decode, bc, BOX);
        r += 1;
    }
    t
}

static HCP_TABLES: Tables = build(true);
static PSFEN_TABLES: Tables = build(false);

// ---------------------------------------------------------------------------------------------
// Bit streams

/// 256 bits written least significant bit first.
struct BitWriter {
    words: [u64; 4],
    len: u32,
}

impl BitWriter {
    #[inline(always)]
    fn put(&mut self, c: Code) {
        let i = (self.len >> 6) as usize;
        let off = self.len & 63;
        let v = c.bits as u64;
        if let Some(w) = self.words.get_mut(i) {
            *w |= v << off;
        }
        if off + c.len as u32 > 64 {
            if let Some(w) = self.words.get_mut(i + 1) {
                *w |= v >> (64 - off);
            }
        }
        self.len += c.len as u32;
    }
}

/// The next `n <= 8` bits at `at`, zero past bit 256.
#[inline(always)]
fn peek(words: &[u64; 4], at: u32, n: u32) -> usize {
    let i = (at >> 6) as usize;
    let off = at & 63;
    let mut v = words.get(i).map_or(0, |w| w >> off);
    if off + n > 64 {
        v |= words.get(i + 1).map_or(0, |w| w << (64 - off));
    }
    (v & ((1u64 << n) - 1)) as usize
}

// ---------------------------------------------------------------------------------------------
// Positions

impl PositionFormat {
    fn tables(self) -> &'static Tables {
        match self {
            PositionFormat::Hcp => &HCP_TABLES,
            PositionFormat::PackedSfen => &PSFEN_TABLES,
        }
    }

    /// The move encoding that goes with this position format in its entries (hcpe: cshogi,
    /// psv: YaneuraOu).
    pub const fn move16_format(self) -> Move16Format {
        match self {
            PositionFormat::Hcp => Move16Format::Cshogi,
            PositionFormat::PackedSfen => Move16Format::YaneuraOu,
        }
    }

    /// Writes the 256-bit encoding of `pos` into `out`. The move number is not encoded.
    ///
    /// Refused (and `out` left unchanged): Mini Shogi, a side without a king, more pieces of a
    /// kind than one set holds.
    #[inline]
    pub fn encode(self, pos: &Position, out: &mut [u8; 32]) -> Result<(), EncodeError> {
        self.encode_parts(
            pos.variant(),
            |sq| pos.piece_at(sq),
            [pos.hand(Color::Black), pos.hand(Color::White)],
            pos.side_to_move(),
            out,
        )
    }

    /// Writes the 256-bit encoding of a setup, which need not be a legal position (cshogi
    /// encodes any board with one king per side). Refused as in [`PositionFormat::encode`],
    /// and for a side with more than one king.
    pub fn encode_setup(self, setup: &Setup, out: &mut [u8; 32]) -> Result<(), EncodeError> {
        self.encode_parts(
            setup.variant,
            |sq| setup.piece_at(sq),
            setup.hands,
            setup.side_to_move,
            out,
        )
    }

    #[inline(always)]
    fn encode_parts(
        self,
        variant: Variant,
        piece_at: impl Fn(Square) -> Option<Piece>,
        hands: [crate::Hand; 2],
        side: Color,
        out: &mut [u8; 32],
    ) -> Result<(), EncodeError> {
        if variant != Variant::Standard {
            return Err(EncodeError::Variant(variant));
        }
        let t = self.tables();
        let mut w = BitWriter {
            words: [0; 4],
            len: 15,
        };
        // Pieces of each hand role (unpromoted) on the board and in hands.
        let mut counts = [0u32; 8];
        let mut kings = [0u64; 2];
        let mut king_count = [0u32; 2];
        for sq in Square::all() {
            match piece_at(sq) {
                None => w.len += 1,
                Some(p) if p.role == Role::King => {
                    kings[p.color.index()] = sq.index() as u64;
                    king_count[p.color.index()] += 1;
                }
                Some(p) => {
                    counts[p.role.unpromote().index() & 7] += 1;
                    w.put(t.board[p.index()]);
                }
            }
        }
        for color in Color::ALL {
            match king_count[color.index()] {
                0 => return Err(EncodeError::MissingKing(color)),
                1 => {}
                _ => return Err(EncodeError::ExtraKing(color)),
            }
        }
        w.words[0] |= (side == Color::White) as u64 | kings[0] << 1 | kings[1] << 8;
        for color in Color::ALL {
            let hand = hands[color.index()];
            for (r, &role) in Role::HAND.iter().enumerate() {
                let n = hand.count(role);
                counts[r] += n as u32;
                let c = t.hand[color.index()][r];
                for _ in 0..n {
                    w.put(c);
                }
            }
        }
        for (r, &role) in Role::HAND.iter().enumerate() {
            let max = Variant::Standard.set_count(role);
            if counts[r] > max as u32 {
                return Err(EncodeError::TooManyPieces {
                    role,
                    count: counts[r],
                    max,
                });
            }
            for _ in counts[r]..max as u32 {
                w.put(t.boxed[r]);
            }
        }
        // One king per side and at most one set always make exactly 256 bits.
        debug_assert_eq!(w.len, 256);
        for (chunk, word) in out.chunks_exact_mut(8).zip(w.words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        Ok(())
    }

    /// The 256-bit encoding of `pos` as a new array (see [`PositionFormat::encode`]).
    pub fn encode_to_array(self, pos: &Position) -> Result<[u8; 32], EncodeError> {
        let mut out = [0u8; 32];
        self.encode(pos, &mut out)?;
        Ok(out)
    }

    /// Decodes 256 bits into a position, with move number 1.
    ///
    /// Refused: a king square that is no square, both kings on one square, bits that are no
    /// code of the format, a code running past bit 256, and positions that are not legal (the
    /// checks of [`Position::from_setup`] with default options: too many pieces, nifu, pieces
    /// that cannot move, the side not to move in check). Piece-box entries are skipped, in any
    /// order; hand entries may come in any order.
    pub fn decode(self, bytes: &[u8; 32]) -> Result<Position, DecodeError> {
        let setup = self.decode_setup(bytes)?;
        Position::from_setup(setup, SetupOptions::default()).map_err(DecodeError::Impossible)
    }

    /// Decodes 256 bits into a setup (move number 1), checking the codes but not whether
    /// the pieces form a legal position (see [`PositionFormat::decode`]).
    pub fn decode_setup(self, bytes: &[u8; 32]) -> Result<Setup, DecodeError> {
        let t = self.tables();
        let mut words = [0u64; 4];
        for (word, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(chunk);
            *word = u64::from_le_bytes(b);
        }
        let mut setup = Setup::empty(Variant::Standard);
        if words[0] & 1 == 1 {
            setup.side_to_move = Color::White;
        }
        let mut kings = [0usize; 2];
        for color in Color::ALL {
            let index = ((words[0] >> (1 + 7 * color.index() as u32)) & 127) as u8;
            let Some(sq) = Square::from_index(index as usize) else {
                return Err(DecodeError::KingSquare { color, index });
            };
            kings[color.index()] = sq.index();
            if color == Color::White && kings[0] == sq.index() {
                return Err(DecodeError::KingsOnSameSquare(sq));
            }
            setup.set_piece(sq, Some(Piece::new(color, Role::King)));
        }
        let mut at: u32 = 15;
        for sq in Square::all() {
            if sq.index() == kings[0] || sq.index() == kings[1] {
                continue;
            }
            let slot = t.board_decode[peek(&words, at, 8)];
            let square = Some(sq);
            if slot.len == 0 {
                return Err(DecodeError::BadCode {
                    bit: at as u16,
                    square,
                });
            }
            if at + slot.len as u32 > 256 {
                return Err(DecodeError::Overflow {
                    bit: at as u16,
                    square,
                });
            }
            at += slot.len as u32;
            if slot.what != EMPTY {
                setup.set_piece(sq, Some(piece_from_index(slot.what)));
            }
        }
        while at < 256 {
            let slot = t.hand_decode[peek(&words, at, 7)];
            if slot.len == 0 {
                return Err(DecodeError::BadCode {
                    bit: at as u16,
                    square: None,
                });
            }
            if at + slot.len as u32 > 256 {
                return Err(DecodeError::Overflow {
                    bit: at as u16,
                    square: None,
                });
            }
            at += slot.len as u32;
            if slot.what != BOX {
                let p = piece_from_index(slot.what);
                setup.hands[p.color.index()].add(p.role);
            }
        }
        Ok(setup)
    }
}

/// The piece with `Piece::index() == i` (tables only hold valid indices).
fn piece_from_index(i: u8) -> Piece {
    let color = if i >= 14 { Color::White } else { Color::Black };
    let role = Role::from_index(i as usize % 14).unwrap_or(Role::Pawn);
    Piece::new(color, role)
}

// ---------------------------------------------------------------------------------------------
// Moves

/// Piece type numbers of both libraries by hand role (P L N S G B R): gold is 7.
const PIECE_TYPE: [u16; 7] = [1, 2, 3, 4, 7, 5, 6];
/// Hand roles by piece type number 1..=7.
const ROLE_OF_TYPE: [Role; 8] = [
    Role::Pawn,
    Role::Pawn,
    Role::Lance,
    Role::Knight,
    Role::Silver,
    Role::Bishop,
    Role::Rook,
    Role::Gold,
];

impl Move16Format {
    /// The 16-bit value of `m`. Drops carry no colour. Refused only for a drop of a role that
    /// cannot be in hand (never a legal move).
    #[inline]
    pub fn encode(self, m: Move) -> Result<u16, EncodeError> {
        Ok(match m {
            Move::Normal { from, to, promote } => {
                let flag = match self {
                    Move16Format::Cshogi => 1 << 14,
                    Move16Format::YaneuraOu => 1 << 15,
                };
                to.index() as u16 | (from.index() as u16) << 7 | if promote { flag } else { 0 }
            }
            Move::Drop { role, to } => {
                if !role.is_hand_role() {
                    return Err(EncodeError::UnencodableMove(m));
                }
                let pt = PIECE_TYPE[role.index() & 7];
                match self {
                    Move16Format::Cshogi => to.index() as u16 | (80 + pt) << 7,
                    Move16Format::YaneuraOu => to.index() as u16 | pt << 7 | 1 << 14,
                }
            }
        })
    }

    /// The move a 16-bit value spells, checking only its syntax (squares, flags, piece type).
    /// The special values (0 = none, 129 = null, YaneuraOu's resign and win) are refused.
    pub fn parse(self, value: u16) -> Result<Move, DecodeError> {
        let bad = |reason| Err(DecodeError::BadMove16 { value, reason });
        let to = (value & 127) as usize;
        let from = ((value >> 7) & 127) as usize;
        let Some(to) = Square::from_index(to) else {
            return bad("destination is not a square");
        };
        let (drop, promote) = match self {
            Move16Format::Cshogi => {
                if value & (1 << 15) != 0 {
                    return bad("bit 15 is set (unused in cshogi move16)");
                }
                (from >= 81, value & (1 << 14) != 0)
            }
            Move16Format::YaneuraOu => (value & (1 << 14) != 0, value & (1 << 15) != 0),
        };
        if drop {
            if promote {
                return bad("a drop cannot promote");
            }
            let pt = match self {
                Move16Format::Cshogi => from - 80,
                Move16Format::YaneuraOu => from,
            };
            if !(1..=7).contains(&pt) {
                return bad("drop piece type is not 1..7");
            }
            return Ok(Move::Drop {
                role: ROLE_OF_TYPE[pt],
                to,
            });
        }
        let Some(from) = Square::from_index(from) else {
            return bad("source is not a square");
        };
        if from == to {
            return bad("source and destination are the same square (none, null or special)");
        }
        Ok(Move::Normal { from, to, promote })
    }

    /// The move a 16-bit value spells, checked to be legal in `pos`.
    pub fn decode(self, value: u16, pos: &Position) -> Result<Move, DecodeError> {
        let mv = self.parse(value)?;
        pos.check_move(mv)
            .map_err(|reason| DecodeError::IllegalMove16 { value, mv, reason })?;
        Ok(mv)
    }

    /// Re-encodes a value of this format in `target` (cshogi's `move16_to_psv` and
    /// `move16_from_psv`), checking its syntax.
    pub fn convert(self, value: u16, target: Move16Format) -> Result<u16, DecodeError> {
        let m = self.parse(value)?;
        target.encode(m).map_err(|_| DecodeError::BadMove16 {
            value,
            reason: "no encoding in the target format",
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Results

/// A game's result, absolute: who won. hcpe's `gameResult` byte (0 draw, 1 sente won,
/// 2 gote won) is the same for every position of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum GameResult {
    /// A draw (or no result), byte 0.
    Draw = 0,
    /// Sente (black) won, byte 1.
    BlackWin = 1,
    /// Gote (white) won, byte 2.
    WhiteWin = 2,
}

/// A game's result from the point of view of the side to move in a position: psv's
/// `game_result` byte (1 won, -1 lost, 0 draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i8)]
pub enum RelativeResult {
    /// The side to move lost, byte -1.
    Loss = -1,
    /// A draw, byte 0.
    Draw = 0,
    /// The side to move won, byte 1.
    Win = 1,
}

impl GameResult {
    /// The result with this winner (`None` is a draw).
    pub const fn from_winner(winner: Option<Color>) -> GameResult {
        match winner {
            None => GameResult::Draw,
            Some(Color::Black) => GameResult::BlackWin,
            Some(Color::White) => GameResult::WhiteWin,
        }
    }

    /// The winner, `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::Draw => None,
            GameResult::BlackWin => Some(Color::Black),
            GameResult::WhiteWin => Some(Color::White),
        }
    }

    /// The result seen by `side` (the side to move of a position).
    pub const fn relative_to(self, side: Color) -> RelativeResult {
        match self.winner() {
            None => RelativeResult::Draw,
            Some(c) if c as u8 == side as u8 => RelativeResult::Win,
            Some(_) => RelativeResult::Loss,
        }
    }

    /// The hcpe byte.
    pub const fn to_byte(self) -> u8 {
        self as u8
    }

    /// The result of an hcpe byte, `None` unless 0, 1 or 2.
    pub const fn from_byte(b: u8) -> Option<GameResult> {
        match b {
            0 => Some(GameResult::Draw),
            1 => Some(GameResult::BlackWin),
            2 => Some(GameResult::WhiteWin),
            _ => None,
        }
    }
}

impl RelativeResult {
    /// The absolute result, given the side to move this result is relative to.
    pub const fn absolute(self, side: Color) -> GameResult {
        match self {
            RelativeResult::Draw => GameResult::Draw,
            RelativeResult::Win => GameResult::from_winner(Some(side)),
            RelativeResult::Loss => GameResult::from_winner(Some(side.opposite())),
        }
    }

    /// The psv byte (as `i8`).
    pub const fn to_byte(self) -> i8 {
        self as i8
    }

    /// The result of a psv byte, `None` unless -1, 0 or 1.
    pub const fn from_byte(b: i8) -> Option<RelativeResult> {
        match b {
            -1 => Some(RelativeResult::Loss),
            0 => Some(RelativeResult::Draw),
            1 => Some(RelativeResult::Win),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Entries

/// cshogi / DLShogi `HuffmanCodedPosAndEval`: one 38-byte hcpe entry (little-endian fields,
/// last byte padding 0). A file is a headerless run of entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hcpe {
    /// The position ([`PositionFormat::Hcp`]).
    pub hcp: [u8; 32],
    /// Evaluation from the point of view of the side to move.
    pub eval: i16,
    /// The move ([`Move16Format::Cshogi`]; DLShogi stores the move played), 0 for none.
    pub best_move16: u16,
    /// The game's result (absolute).
    pub game_result: GameResult,
}

impl Hcpe {
    /// Bytes per entry.
    pub const SIZE: usize = 38;

    /// The entry for `pos` (whose side to move `eval` is relative to), the move played there
    /// and the game's result.
    #[inline]
    pub fn new(
        pos: &Position,
        eval: i16,
        mv: Option<Move>,
        game_result: GameResult,
    ) -> Result<Hcpe, EncodeError> {
        let mut hcp = [0u8; 32];
        PositionFormat::Hcp.encode(pos, &mut hcp)?;
        let best_move16 = match mv {
            Some(m) => Move16Format::Cshogi.encode(m)?,
            None => 0,
        };
        Ok(Hcpe {
            hcp,
            eval,
            best_move16,
            game_result,
        })
    }

    /// The 38 bytes, as written to a file.
    #[inline]
    pub fn to_bytes(&self) -> [u8; Hcpe::SIZE] {
        let mut b = [0u8; Hcpe::SIZE];
        b[..32].copy_from_slice(&self.hcp);
        b[32..34].copy_from_slice(&self.eval.to_le_bytes());
        b[34..36].copy_from_slice(&self.best_move16.to_le_bytes());
        b[36] = self.game_result.to_byte();
        b
    }

    /// Reads an entry. Only the result byte is checked here (0, 1 or 2); the padding byte is
    /// ignored. Decode the position with [`Hcpe::position`].
    pub fn from_bytes(b: &[u8; Hcpe::SIZE]) -> Result<Hcpe, DecodeError> {
        let mut hcp = [0u8; 32];
        hcp.copy_from_slice(&b[..32]);
        Ok(Hcpe {
            hcp,
            eval: i16::from_le_bytes([b[32], b[33]]),
            best_move16: u16::from_le_bytes([b[34], b[35]]),
            game_result: GameResult::from_byte(b[36]).ok_or(DecodeError::BadGameResult(b[36]))?,
        })
    }

    /// The position (move number 1: hcp does not hold it).
    pub fn position(&self) -> Result<Position, DecodeError> {
        PositionFormat::Hcp.decode(&self.hcp)
    }

    /// The move, checked to be legal in `pos` (the entry's position); `None` when 0.
    pub fn best_move(&self, pos: &Position) -> Result<Option<Move>, DecodeError> {
        match self.best_move16 {
            0 => Ok(None),
            v => Move16Format::Cshogi.decode(v, pos).map(Some),
        }
    }
}

/// YaneuraOu `PackedSfenValue` (`PsvRecord`): one 40-byte psv entry (little-endian fields, last
/// byte padding 0). A file is a headerless run of entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedSfenValue {
    /// The position ([`PositionFormat::PackedSfen`]).
    pub sfen: [u8; 32],
    /// Search score from the point of view of the side to move.
    pub score: i16,
    /// The move ([`Move16Format::YaneuraOu`]), 0 for none.
    pub move16: u16,
    /// The ply of the position from the game's start: its SFEN move number (1 at the start).
    pub game_ply: u16,
    /// The game's result from the point of view of the side to move.
    pub game_result: RelativeResult,
}

impl PackedSfenValue {
    /// Bytes per entry.
    pub const SIZE: usize = 40;

    /// The entry for `pos`, the move played there and the game's result (absolute; stored
    /// relative to `pos`'s side to move). `game_ply` is the position's move number (saturated
    /// at 65535); `score` is relative to the side to move.
    #[inline]
    pub fn new(
        pos: &Position,
        score: i16,
        mv: Option<Move>,
        game_result: GameResult,
    ) -> Result<PackedSfenValue, EncodeError> {
        let mut sfen = [0u8; 32];
        PositionFormat::PackedSfen.encode(pos, &mut sfen)?;
        let move16 = match mv {
            Some(m) => Move16Format::YaneuraOu.encode(m)?,
            None => 0,
        };
        Ok(PackedSfenValue {
            sfen,
            score,
            move16,
            game_ply: pos.move_number().min(u16::MAX as u32) as u16,
            game_result: game_result.relative_to(pos.side_to_move()),
        })
    }

    /// The 40 bytes, as written to a file.
    #[inline]
    pub fn to_bytes(&self) -> [u8; PackedSfenValue::SIZE] {
        let mut b = [0u8; PackedSfenValue::SIZE];
        b[..32].copy_from_slice(&self.sfen);
        b[32..34].copy_from_slice(&self.score.to_le_bytes());
        b[34..36].copy_from_slice(&self.move16.to_le_bytes());
        b[36..38].copy_from_slice(&self.game_ply.to_le_bytes());
        b[38] = self.game_result.to_byte() as u8;
        b
    }

    /// Reads an entry. Only the result byte is checked here (-1, 0 or 1); the padding byte is
    /// ignored. Decode the position with [`PackedSfenValue::position`].
    pub fn from_bytes(b: &[u8; PackedSfenValue::SIZE]) -> Result<PackedSfenValue, DecodeError> {
        let mut sfen = [0u8; 32];
        sfen.copy_from_slice(&b[..32]);
        Ok(PackedSfenValue {
            sfen,
            score: i16::from_le_bytes([b[32], b[33]]),
            move16: u16::from_le_bytes([b[34], b[35]]),
            game_ply: u16::from_le_bytes([b[36], b[37]]),
            game_result: RelativeResult::from_byte(b[38] as i8)
                .ok_or(DecodeError::BadGameResult(b[38]))?,
        })
    }

    /// The position, with `game_ply` as its move number (1 when `game_ply` is 0).
    pub fn position(&self) -> Result<Position, DecodeError> {
        let mut pos = PositionFormat::PackedSfen.decode(&self.sfen)?;
        pos.set_move_number(self.game_ply.max(1) as u32);
        Ok(pos)
    }

    /// The move, checked to be legal in `pos` (the entry's position); `None` when 0.
    pub fn best_move(&self, pos: &Position) -> Result<Option<Move>, DecodeError> {
        match self.move16 {
            0 => Ok(None),
            v => Move16Format::YaneuraOu.decode(v, pos).map(Some),
        }
    }

    /// The game's result, absolute (given the side to move stored in the position's bit 0).
    pub fn absolute_result(&self) -> GameResult {
        let side = if self.sfen[0] & 1 == 1 {
            Color::White
        } else {
            Color::Black
        };
        self.game_result.absolute(side)
    }
}

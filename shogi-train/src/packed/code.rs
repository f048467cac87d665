//! The Huffman code tables of hcp and PackedSfen, built at compile time, and the 256-bit
//! streams they are written to and read from.

use shogi_core::{Color, Piece, Role};
// ---------------------------------------------------------------------------------------------
// Code tables

/// A code: `len` bits, the first written at bit 0 of `bits`.
#[derive(Clone, Copy)]
pub(super) struct Code {
    pub(super) bits: u8,
    pub(super) len: u8,
}

/// Parses a code written as a bit string in write order.
pub(super) const fn code(s: &str) -> Code {
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
pub(super) const fn then(c: Code, bit: bool) -> Code {
    Code {
        bits: c.bits | ((bit as u8) << c.len),
        len: c.len + 1,
    }
}

/// A decode-table slot: what the code starting with these bits means, and its length.
/// `len == 0` marks bits that start no code.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Slot {
    /// `Piece::index()` (0..28), [`EMPTY`] or [`BOX`].
    pub(super) what: u8,
    pub(super) len: u8,
}

pub(super) const EMPTY: u8 = 0xfe;
pub(super) const BOX: u8 = 0xfd;
pub(super) const NONE: Slot = Slot { what: 0, len: 0 };

pub(super) struct Tables {
    /// Board codes by `Piece::index()`; kings have `len == 0`.
    pub(super) board: [Code; 28],
    /// Hand codes by colour and hand role (P L N S G B R).
    pub(super) hand: [[Code; 7]; 2],
    /// Piece-box codes by hand role.
    pub(super) boxed: [Code; 7],
    /// Board decoding by the next 8 bits.
    pub(super) board_decode: [Slot; 256],
    /// Hand decoding by the next 7 bits.
    pub(super) hand_decode: [Slot; 128],
}

/// Board prefixes (before the colour and promotion bits) by hand role, in write order.
pub(super) const HCP_BOARD: [&str; 7] = ["10", "1100", "1110", "1101", "11110", "111110", "111111"];
pub(super) const PSFEN_BOARD: [&str; 7] =
    ["10", "1100", "1101", "1110", "11110", "111110", "111111"];
/// Hand prefixes (before the colour bit); PackedSfen's include its promotion bit (0).
pub(super) const HCP_HAND: [&str; 7] = ["00", "1000", "1100", "1010", "1110", "111110", "111111"];
pub(super) const PSFEN_HAND: [&str; 7] = ["00", "1000", "1010", "1100", "1110", "111100", "111110"];
pub(super) const HCP_BOX: [&str; 7] = [
    "010", "10010", "11010", "10110", "10111", "1111000", "1111010",
];
pub(super) const PSFEN_BOX: [&str; 7] = [
    "010", "10010", "10110", "11010", "11011", "1111010", "1111110",
];

/// Marks every table entry whose low `c.len` bits are `c.bits`; two different meanings for
/// one entry (a code table that is not prefix-free) stop the build.
pub(super) const fn fill<const N: usize>(mut t: [Slot; N], c: Code, what: u8) -> [Slot; N] {
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

pub(super) const fn build(hcp: bool) -> Tables {
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

pub(super) static HCP_TABLES: Tables = build(true);
pub(super) static PSFEN_TABLES: Tables = build(false);

// ---------------------------------------------------------------------------------------------
// Bit streams

/// 256 bits written least significant bit first.
pub(super) struct BitWriter {
    pub(super) words: [u64; 4],
    pub(super) len: u32,
}

impl BitWriter {
    #[inline(always)]
    pub(super) fn put(&mut self, c: Code) {
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
pub(super) fn peek(words: &[u64; 4], at: u32, n: u32) -> usize {
    let i = (at >> 6) as usize;
    let off = at & 63;
    let mut v = words.get(i).map_or(0, |w| w >> off);
    if off + n > 64 {
        v |= words.get(i + 1).map_or(0, |w| w << (64 - off));
    }
    (v & ((1u64 << n) - 1)) as usize
}

//! Per-variant masks: board, promotion zones, last ranks, built at compile time.

use crate::bitboard::Bitboard;
use crate::types::{Color, Role, Variant};

/// Per-variant masks.
pub(crate) struct VariantMasks {
    /// The squares of the board.
    pub board: Bitboard,
    /// The squares of the 9x9 grid that are not on the board (slider blockers).
    pub offboard: Bitboard,
    /// Promotion zone by colour.
    pub zone: [Bitboard; 2],
    /// The last rank by colour (pawns and lances must promote there).
    pub last1: [Bitboard; 2],
    /// The last two ranks by colour (knights must promote there).
    pub last2: [Bitboard; 2],
    /// By colour and role: the squares where a piece of that role would have no later move
    /// (`last1` for a pawn or lance, `last2` for a knight, none for the others), read
    /// without a branch on the role.
    pub dead: [[Bitboard; 14]; 2],
    /// By colour and source square: the targets where a move from there may promote (every
    /// square from inside the zone, else the zone).
    pub promo_from: [[Bitboard; 81]; 2],
}

const fn promo_from(zone: [u128; 2]) -> [[Bitboard; 81]; 2] {
    let mut t = [[Bitboard::EMPTY; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            t[c][sq] = if zone[c] >> sq & 1 != 0 {
                Bitboard::FULL
            } else {
                Bitboard(zone[c])
            };
            sq += 1;
        }
        c += 1;
    }
    t
}

const fn dead(last1: [u128; 2], last2: [u128; 2]) -> [[Bitboard; 14]; 2] {
    let mut t = [[Bitboard::EMPTY; 14]; 2];
    let mut c = 0;
    while c < 2 {
        t[c][Role::Pawn.index()] = Bitboard(last1[c]);
        t[c][Role::Lance.index()] = Bitboard(last1[c]);
        t[c][Role::Knight.index()] = Bitboard(last2[c]);
        c += 1;
    }
    t
}

const fn ranks(from: u8, to: u8) -> u128 {
    let mut b = 0;
    let mut r = from;
    while r <= to {
        b |= Bitboard::rank(r).0;
        r += 1;
    }
    b
}

const fn files(from: u8, to: u8) -> u128 {
    let mut b = 0;
    let mut f = from;
    while f <= to {
        b |= Bitboard::file(f).0;
        f += 1;
    }
    b
}

static STANDARD_MASKS: VariantMasks = VariantMasks {
    board: Bitboard::FULL,
    offboard: Bitboard::EMPTY,
    zone: [Bitboard(ranks(1, 3)), Bitboard(ranks(7, 9))],
    last1: [Bitboard(ranks(1, 1)), Bitboard(ranks(9, 9))],
    last2: [Bitboard(ranks(1, 2)), Bitboard(ranks(8, 9))],
    dead: dead([ranks(1, 1), ranks(9, 9)], [ranks(1, 2), ranks(8, 9)]),
    promo_from: promo_from([ranks(1, 3), ranks(7, 9)]),
};

const MINI_BOARD: u128 = files(1, 5) & ranks(1, 5);

static MINI_MASKS: VariantMasks = VariantMasks {
    board: Bitboard(MINI_BOARD),
    offboard: Bitboard(Bitboard::FULL.0 & !MINI_BOARD),
    zone: [
        Bitboard(ranks(1, 1) & MINI_BOARD),
        Bitboard(ranks(5, 5) & MINI_BOARD),
    ],
    last1: [
        Bitboard(ranks(1, 1) & MINI_BOARD),
        Bitboard(ranks(5, 5) & MINI_BOARD),
    ],
    last2: [
        Bitboard(ranks(1, 2) & MINI_BOARD),
        Bitboard(ranks(4, 5) & MINI_BOARD),
    ],
    dead: dead(
        [ranks(1, 1) & MINI_BOARD, ranks(5, 5) & MINI_BOARD],
        [ranks(1, 2) & MINI_BOARD, ranks(4, 5) & MINI_BOARD],
    ),
    promo_from: promo_from([ranks(1, 1) & MINI_BOARD, ranks(5, 5) & MINI_BOARD]),
};

// Kept beside the tables it reads: a variant's masks are bitboards, which the vocabulary
// module (`types.rs`) does not know about.
impl Variant {
    #[inline(always)]
    pub(crate) fn masks(self) -> &'static VariantMasks {
        match self {
            Variant::Standard => &STANDARD_MASKS,
            Variant::Mini => &MINI_MASKS,
        }
    }

    /// The promotion zone of `color`: the far three ranks (standard) or the far rank (Mini).
    pub fn promotion_zone(self, color: Color) -> Bitboard {
        self.masks().zone[color.index()]
    }

    /// The squares of this variant's board.
    pub fn board_squares(self) -> Bitboard {
        self.masks().board
    }
}

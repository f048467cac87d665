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

/// A variant's masks from its board and, for black, its promotion zone's and last ranks
/// (white's are the mirror on the board): the last rank and the last two decide both
/// `last1`/`last2` and `dead`, the zone both `zone` and `promo_from`.
const fn variant_masks(
    board: u128,
    zone: (u8, u8),
    last1: (u8, u8),
    last2: (u8, u8),
) -> VariantMasks {
    let size = ranks_of(board);
    let (zone, last1, last2) = (
        sides(board, size, zone),
        sides(board, size, last1),
        sides(board, size, last2),
    );
    VariantMasks {
        board: Bitboard(board),
        offboard: Bitboard(Bitboard::FULL.0 & !board),
        zone: [Bitboard(zone[0]), Bitboard(zone[1])],
        last1: [Bitboard(last1[0]), Bitboard(last1[1])],
        last2: [Bitboard(last2[0]), Bitboard(last2[1])],
        dead: dead(last1, last2),
        promo_from: promo_from(zone),
    }
}

/// Black's ranks `from..=to` of `board` and white's mirror (rank r <-> rank size + 1 - r).
const fn sides(board: u128, size: u8, (from, to): (u8, u8)) -> [u128; 2] {
    [
        ranks(from, to) & board,
        ranks(size + 1 - to, size + 1 - from) & board,
    ]
}

/// How many ranks `board` spans.
const fn ranks_of(board: u128) -> u8 {
    let mut r = 1;
    while r < 9 && board & Bitboard::rank(r + 1).0 != 0 {
        r += 1;
    }
    r
}

static STANDARD_MASKS: VariantMasks = variant_masks(Bitboard::FULL.0, (1, 3), (1, 1), (1, 2));

const MINI_BOARD: u128 = files(1, 5) & ranks(1, 5);

static MINI_MASKS: VariantMasks = variant_masks(MINI_BOARD, (1, 1), (1, 1), (1, 2));

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranks each variant's masks give, written out: black's far ranks and white's mirror.
    #[test]
    fn masks_are_the_rules_ranks() {
        let s = &STANDARD_MASKS;
        assert_eq!(s.offboard, Bitboard::EMPTY);
        assert_eq!(s.zone, [ranks(1, 3), ranks(7, 9)].map(Bitboard));
        assert_eq!(s.last1, [ranks(1, 1), ranks(9, 9)].map(Bitboard));
        assert_eq!(s.last2, [ranks(1, 2), ranks(8, 9)].map(Bitboard));
        let m = &MINI_MASKS;
        let mini = |a, b| Bitboard(ranks(a, b) & MINI_BOARD);
        assert_eq!(m.board, Bitboard(MINI_BOARD));
        assert_eq!(m.zone, [mini(1, 1), mini(5, 5)]);
        assert_eq!(m.last1, [mini(1, 1), mini(5, 5)]);
        assert_eq!(m.last2, [mini(1, 2), mini(4, 5)]);
        for masks in [s, m] {
            for c in 0..2 {
                let dead = masks.dead[c];
                assert_eq!(dead[Role::Pawn.index()], masks.last1[c]);
                assert_eq!(dead[Role::Lance.index()], masks.last1[c]);
                assert_eq!(dead[Role::Knight.index()], masks.last2[c]);
                let others = Role::ALL
                    .iter()
                    .filter(|r| !matches!(r, Role::Pawn | Role::Lance | Role::Knight));
                for r in others {
                    assert_eq!(dead[r.index()], Bitboard::EMPTY, "{r:?}");
                }
            }
        }
    }
}

//! Position keys for the solver's table: a Zobrist key of the board and side to move (the
//! attacker's hand is kept apart, exactly, so that superior and inferior hands can be found),
//! and a packed hand with a subset test.

use shogi_core::{Color, Hand, Move, Piece, Position, Role, Square};

/// Random 64-bit values from a fixed seed (splitmix64), so keys are the same in every run.
const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const PIECES: usize = 28;

static ZOBRIST: [[u64; 81]; PIECES] = {
    let mut t = [[0u64; 81]; PIECES];
    let mut p = 0;
    while p < PIECES {
        let mut s = 0;
        while s < 81 {
            t[p][s] = splitmix(((p * 81 + s) as u64).wrapping_mul(0x1000_0000_0000_0001) ^ 0x5EED);
            s += 1;
        }
        p += 1;
    }
    t
};

const SIDE: u64 = splitmix(0xC0FFEE);

#[inline(always)]
fn z(piece: Piece, sq: Square) -> u64 {
    ZOBRIST[piece.color.index() * 14 + piece.role.index()][sq.index()]
}

/// The board key (pieces on squares and the side to move; hands excluded), from scratch.
pub(crate) fn board_key(pos: &Position) -> u64 {
    let mut k = 0;
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            k ^= z(p, sq);
        }
    }
    if pos.side_to_move() == Color::White {
        k ^= SIDE;
    }
    k
}

/// The board key after `m` (legal in `pos`), from `pos`'s key without playing the move.
#[inline]
pub(crate) fn board_key_after(pos: &Position, key: u64, m: Move) -> u64 {
    let us = pos.side_to_move();
    let mut k = key ^ SIDE;
    match m {
        Move::Normal { from, to, promote } => {
            if let Some(piece) = pos.piece_at(from) {
                k ^= z(piece, from);
                let role = if promote {
                    piece.role.promote().unwrap_or(piece.role)
                } else {
                    piece.role
                };
                k ^= z(Piece::new(us, role), to);
            }
            if let Some(captured) = pos.piece_at(to) {
                k ^= z(captured, to);
            }
        }
        Move::Drop { role, to } => k ^= z(Piece::new(us, role), to),
    }
    k
}

/// A hand packed into 7 bytes (P L N S G B R, one byte each, top bit a guard for the subset
/// test). Counts above 127 are refused when a problem is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct PackedHand(pub(crate) u64);

const GUARD: u64 = 0x0080_8080_8080_8080;

impl PackedHand {
    /// Packs a hand; `None` if a count does not fit in 7 bits.
    pub(crate) fn new(hand: Hand) -> Option<PackedHand> {
        let mut v = 0u64;
        for (i, role) in Role::HAND.iter().enumerate() {
            let c = hand.count(*role);
            if c > 127 {
                return None;
            }
            v |= u64::from(c) << (8 * i);
        }
        Some(PackedHand(v))
    }

    /// Whether every count of `self` is at least that of `other` (`self` ⊇ `other`).
    #[inline(always)]
    pub(crate) fn covers(self, other: PackedHand) -> bool {
        ((self.0 | GUARD).wrapping_sub(other.0) & GUARD) == GUARD
    }

    /// The total number of pieces.
    pub(crate) fn total(self) -> u32 {
        (0..7).map(|i| ((self.0 >> (8 * i)) & 0x7F) as u32).sum()
    }

    /// A mixing of the hand into a 64-bit value (for the full position key of the path set).
    #[inline(always)]
    pub(crate) fn hash(self) -> u64 {
        splitmix(self.0 ^ 0xA5A5_5A5A)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_key_matches_scratch() {
        let pos = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        )
        .unwrap();
        let k = board_key(&pos);
        for m in pos.legal_moves().iter() {
            let mut p = pos.clone();
            p.play_unchecked(*m);
            assert_eq!(board_key_after(&pos, k, *m), board_key(&p), "{m:?}");
        }
        // Captures, promotions and drops.
        let pos = Position::from_sfen("4k4/9/4G4/4p4/9/4R4/9/1B7/4K4 b GSNLP2p 1").unwrap();
        let k = board_key(&pos);
        let mut n = 0;
        for m in pos.legal_moves().iter() {
            let mut p = pos.clone();
            p.play_unchecked(*m);
            assert_eq!(board_key_after(&pos, k, *m), board_key(&p), "{m:?}");
            n += 1;
        }
        assert!(n > 100);
    }

    #[test]
    fn covers_is_a_per_role_comparison() {
        let mut a = Hand::EMPTY;
        let mut b = Hand::EMPTY;
        a.set(Role::Pawn, 3);
        a.set(Role::Gold, 1);
        b.set(Role::Pawn, 2);
        let (pa, pb) = (PackedHand::new(a).unwrap(), PackedHand::new(b).unwrap());
        assert!(pa.covers(pb));
        assert!(!pb.covers(pa));
        assert!(pa.covers(pa));
        b.set(Role::Rook, 1);
        let pb = PackedHand::new(b).unwrap();
        assert!(!pa.covers(pb) && !pb.covers(pa));
        a.set(Role::Pawn, 127);
        assert!(PackedHand::new(a).is_some());
        a.set(Role::Pawn, 128);
        assert!(PackedHand::new(a).is_none());
        assert_eq!(pb.total(), 3);
    }
}

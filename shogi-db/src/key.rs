//! The position key stored in the `positions` table.
//!
//! It is shogi-core's Zobrist key ([`shogi_core::Position::key`]), whose constants are
//! fixed and produced by a documented procedure, so that a database built today answers
//! tomorrow's binary on any machine:
//!
//! * SplitMix64 step: `state += 0x9e3779b97f4a7c15; z = state;
//!   z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9; z = (z ^ z >> 27) * 0x94d049bb133111eb;
//!   return z ^ z >> 31` (all arithmetic wrapping, 64-bit).
//! * Piece on a square: from state `0x5eed0f5106100001`, 28 × 81 numbers in order, piece
//!   index `color * 14 + role` (colour: sente 0, gote 1; role: P L N S G B R K +P +L +N +S +B
//!   +R = 0..13) outer, square index `(file - 1) * 9 + (rank - 1)` (rank 1 = USI `a`) inner.
//! * Hand: from state `0x4a4ed5ee`, 2 × 7 numbers, colour outer, role P L N S G B R inner,
//!   each with its lowest bit set (`| 1`).
//! * Gote to move: `0x8c3cd7e29b1f45a1`.
//!
//! The key is the wrapping sum of the keys of the pieces on the board, `count ×` the hand key
//! of each role in each hand, and the side-to-move key when gote is to move. The move number
//! is not part of it. SQLite stores it as a signed 64-bit integer (the same bits).
//!
//! Keys select candidates only: every hit is confirmed against the position itself.

use shogi_core::Position;

/// The key of a position as the database stores it (the bits of
/// [`shogi_core::Position::key`] as a signed integer).
pub fn position_key(pos: &Position) -> i64 {
    pos.key() as i64
}

/// The key of the standard start position: a database records it so that a binary whose
/// keys differ (which would find nothing) refuses the database instead of answering wrongly.
pub fn startpos_key() -> i64 {
    position_key(&Position::startpos(shogi_core::Variant::Standard))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values computed independently from the documented constants by a small Python
    /// reimplementation of the procedure above (SplitMix64 tables, wrapping sum).
    const PINNED: &[(&str, u64)] = &[
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            0xa1aa2342cec87fc9,
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
            0x17b9cf028c9f6eaf,
        ),
        (
            "lnsgk1snl/6g2/p1ppppbpp/6R2/9/1rP6/P2PPPP1P/1SG4S1/LN2KG1NL b B3Pp 31",
            0x1f0ad4f2f87549ff,
        ),
        (
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
            0x8ec1988ce68dacd1,
        ),
    ];

    #[test]
    fn keys_are_pinned() {
        for (sfen, want) in PINNED {
            let pos = Position::from_sfen(sfen).unwrap();
            assert_eq!(pos.key(), *want, "{sfen}");
            assert_eq!(pos.compute_key(), *want, "{sfen}");
            assert_eq!(position_key(&pos), *want as i64);
        }
        assert_eq!(startpos_key(), PINNED[0].1 as i64);
    }

    #[test]
    fn incremental_key_equals_pinned_after_a_move() {
        let mut pos = Position::startpos(shogi_core::Variant::Standard);
        pos.play(shogi_core::Move::from_usi("7g7f").unwrap())
            .unwrap();
        assert_eq!(pos.key(), PINNED[1].1);
    }
}

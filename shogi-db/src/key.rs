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
//! Keys select candidates only: every hit is confirmed against the position itself (see
//! [`check_key`] for how that is done cheaply).

use shogi_core::{Color, Move, Piece, Position, Role};

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

/// SplitMix64's finaliser: a fixed mixing of 64 bits.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
    z ^ (z >> 31)
}

/// The number of a feature of a position in the check key's hash (see [`check_key`]).
const fn feature(n: u64) -> u64 {
    mix(n.wrapping_mul(0x9e3779b97f4a7c15) ^ 0xc0ffee5eed5a1e01)
}

/// `feature(1000 + piece index × 81 + square index)`, computed at compile time.
static PIECE_CHECK: [[u64; 81]; 28] = {
    let mut t = [[0u64; 81]; 28];
    let mut p = 0;
    while p < 28 {
        let mut sq = 0;
        while sq < 81 {
            t[p][sq] = feature(1000 + (p * 81 + sq) as u64);
            sq += 1;
        }
        p += 1;
    }
    t
};

/// `feature(2000 + colour × 7 + role) | 1`, computed at compile time.
static HAND_CHECK: [[u64; 7]; 2] = {
    let mut t = [[0u64; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 7 {
            t[c][r] = feature(2000 + (c * 7 + r) as u64) | 1;
            r += 1;
        }
        c += 1;
    }
    t
};

/// A second hash of board, hands and side to move, independent of [`position_key`]
/// (`positions.check_key`, 32 bits as a signed integer).
///
/// It is computed from scratch with its own procedure: `feature(n) = mix(n × 0x9e3779b97f4a7c15
/// ^ 0xc0ffee5eed5a1e01)` with `mix` SplitMix64's finaliser; the wrapping sum of
/// `feature(1000 + piece index × 81 + square index)` over the pieces on the board (indices
/// as for the key), `count × (feature(2000 + colour × 7 + role) | 1)` over the hands, and
/// `feature(3000)` when gote is to move; the upper 32 bits of the sum.
///
/// Queries use it to confirm hits cheaply and soundly: the hits of a key are split by
/// check key, and one hit of each class is replayed from its stored line and compared with
/// the position (board, hands, side to move). A class is kept only when its replayed hit is
/// the position. Another position is reported only if it agrees with the target on both
/// the 64-bit key and the independent 32-bit check key (about 2^-96 for two positions) and
/// shares the class of a truly confirmed hit.
pub fn check_key(pos: &Position) -> i64 {
    check_of(check_sum(pos))
}

/// The whole 64-bit sum behind [`check_key`] (its top 32 bits are the key), computed from
/// scratch. [`check_sum_after`] updates it move by move.
pub(crate) fn check_sum(pos: &Position) -> u64 {
    let mut h = 0u64;
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_at(sq) {
            h = h.wrapping_add(PIECE_CHECK[p.index()][sq.index()]);
        }
    }
    for c in Color::ALL {
        let hand = pos.hand(c);
        if hand.is_empty() {
            continue;
        }
        for (role, count) in hand.iter() {
            let f = HAND_CHECK_BY_ROLE[c.index()][role.index()];
            h = h.wrapping_add(f.wrapping_mul(u64::from(count)));
        }
    }
    if pos.side_to_move() == Color::White {
        h = h.wrapping_add(WHITE_CHECK);
    }
    h
}

/// The check key of a [`check_sum`].
pub(crate) fn check_of(sum: u64) -> i64 {
    i64::from((sum >> 32) as u32 as i32)
}

/// The [`check_sum`] after `mv` is played in `pos` (whose sum is `sum`), from the squares
/// and hand the move changes only: what replaying a game costs per move instead of a sum
/// over the whole board. `mv` must be legal in `pos`.
pub(crate) fn check_sum_after(sum: u64, pos: &Position, mv: Move) -> u64 {
    let us = pos.side_to_move();
    let mut h = sum;
    match mv {
        Move::Normal { from, to, promote } => {
            let Some(piece) = pos.piece_at(from) else {
                return h;
            };
            if let Some(captured) = pos.piece_at(to) {
                h = h.wrapping_sub(PIECE_CHECK[captured.index()][to.index()]);
                let base = captured.role.unpromote();
                if base.is_hand_role() {
                    h = h.wrapping_add(HAND_CHECK_BY_ROLE[us.index()][base.index()]);
                }
            }
            h = h.wrapping_sub(PIECE_CHECK[piece.index()][from.index()]);
            let role = if promote {
                piece.role.promote().unwrap_or(piece.role)
            } else {
                piece.role
            };
            h = h.wrapping_add(PIECE_CHECK[Piece::new(us, role).index()][to.index()]);
        }
        Move::Drop { role, to } => {
            h = h.wrapping_sub(HAND_CHECK_BY_ROLE[us.index()][role.index()]);
            h = h.wrapping_add(PIECE_CHECK[Piece::new(us, role).index()][to.index()]);
        }
    }
    if us == Color::Black {
        h.wrapping_add(WHITE_CHECK)
    } else {
        h.wrapping_sub(WHITE_CHECK)
    }
}

/// The side-to-move term of the check sum (added when White is to move).
const WHITE_CHECK: u64 = feature(3000);

/// [`HAND_CHECK`] indexed by `Role::index` instead of the hand order.
static HAND_CHECK_BY_ROLE: [[u64; 14]; 2] = {
    let mut t = [[0u64; 14]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < Role::HAND.len() {
            t[c][Role::HAND[i].index()] = HAND_CHECK[c][i];
            i += 1;
        }
        c += 1;
    }
    t
};

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

    /// [`check_key`] of the [`PINNED`] positions, computed by a Python reimplementation of
    /// the documented procedure.
    const PINNED_CHECK: [i64; 4] = [-229_059_280, -1_650_266_848, 878_927_673, -1_673_531_680];

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

    /// The check key tells apart what the key tells apart, and is pinned (a change of its
    /// procedure must change the schema version).
    #[test]
    fn check_keys_are_pinned_and_differ() {
        let got: Vec<i64> = PINNED
            .iter()
            .map(|(s, _)| check_key(&Position::from_sfen(s).unwrap()))
            .collect();
        let mut distinct = got.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), got.len());
        // The side to move and a piece in hand count.
        let a = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        let b = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w P 1").unwrap();
        let c = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P 1").unwrap();
        assert_ne!(check_key(&a), check_key(&b));
        assert_ne!(check_key(&a), check_key(&c));
        assert_eq!(got, PINNED_CHECK);
    }

    #[test]
    fn incremental_key_equals_pinned_after_a_move() {
        let mut pos = Position::startpos(shogi_core::Variant::Standard);
        pos.play(shogi_core::Move::from_usi("7g7f").unwrap())
            .unwrap();
        assert_eq!(pos.key(), PINNED[1].1);
    }

    #[test]
    fn check_sum_after_equals_the_sum_from_scratch() {
        // Random legal play from both variants' starts and a position with pieces in hand:
        // captures, promotions, drops and both sides to move all occur.
        let starts = [
            Position::startpos(shogi_core::Variant::Standard),
            Position::startpos(shogi_core::Variant::Mini),
            Position::from_sfen(PINNED[2].0).unwrap(),
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut kinds = [0usize; 3];
        for start in starts {
            for _ in 0..40 {
                let mut pos = start.clone();
                let mut sum = check_sum(&pos);
                for _ in 0..300 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let mv = moves.as_slice()[(seed % moves.len() as u64) as usize];
                    kinds[match mv {
                        Move::Drop { .. } => 0,
                        Move::Normal { promote: true, .. } => 1,
                        Move::Normal { to, .. } => usize::from(pos.piece_at(to).is_some()) * 2,
                    }] += 1;
                    sum = check_sum_after(sum, &pos, mv);
                    pos.play_unchecked(mv);
                    assert_eq!(sum, check_sum(&pos), "{}", pos.to_sfen());
                }
            }
        }
        assert!(
            kinds.iter().all(|&k| k > 100),
            "drops, promotions, captures: {kinds:?}"
        );
    }
}

//! The number of replies to a check, counted without generating the other pieces' moves: for
//! mate solvers, which count the defender's evasions after every new check.

use super::Position;
use crate::bitboard::{
    Bitboard, between, bishop_attacks, bishop_pseudo_attacks, file_fill, gold_attacks,
    king_attacks, knight_attacks, lance_attacks, lance_pseudo_attacks, pawn_attacks, rook_attacks,
    rook_pseudo_attacks, silver_attacks,
};
use crate::types::{Role, Square};

/// A slider's attacks from a square, given the occupancy.
type Slide = fn(Square, Bitboard) -> Bitboard;

/// The squares of `b`, counted one by one: the sets counted here hold a few squares at most,
/// and a popcount of 128 bits is slow on the baseline x86-64 target (no POPCNT instruction).
#[inline(always)]
fn sparse_count(b: Bitboard) -> u64 {
    let mut x = b.0;
    let mut n = 0;
    while x != 0 {
        x &= x - 1;
        n += 1;
    }
    n
}

impl Position {
    /// The number of legal moves, the same as [`Position::count_legal_moves`], found faster
    /// when the side to move is in check: king steps to safe squares, then (against a single
    /// checker) the moves of unpinned pieces onto the checker or between it and the king, found
    /// from those few squares, then drops between. A pinned piece has no such move: it stays on
    /// its pin line, which meets the checker's squares only beyond the king. Not in check (or
    /// without a king), this is [`Position::count_legal_moves`].
    // About 110 lines on purpose: the mate search's hot path, one pass (king steps, captures of
    // the checker, interpositions, drops) over the few squares a check leaves.
    pub fn count_evasions(&self) -> u64 {
        let us = self.side;
        let Some(k) = self.king_square(us) else {
            return self.count_legal_moves();
        };
        let occ = self.occupied();
        let (checkers, pinned) = self.checkers_and_pinned(us, k, occ);
        let Some(checker) = checkers.first() else {
            return self.count_legal_moves();
        };
        let masks = self.variant.masks();
        let ours = self.by_color[us.index()];
        let avail = masks.board & !ours;
        let mut n = u64::from(
            self.safe_king_squares(us, k, king_attacks(k) & avail)
                .count(),
        );
        if checkers.more_than_one() {
            return n;
        }
        let gap = between(k, checker);
        let them = !us;
        let occ_s = occ | masks.offboard;
        let r = &self.by_role;
        let free = ours & !pinned & !Bitboard::from_square(k);
        let pawns = free & r[Role::Pawn as usize];
        let lances = free & r[Role::Lance as usize];
        let knights = free & r[Role::Knight as usize];
        let silvers = free & r[Role::Silver as usize];
        let golds = free & self.golds();
        let bishops = free & r[Role::Bishop as usize];
        let rooks = free & r[Role::Rook as usize];
        let horses = free & r[Role::Horse as usize];
        let dragons = free & r[Role::Dragon as usize];
        let zone = masks.zone[us.index()];
        let last1 = masks.last1[us.index()];
        let last2 = masks.last2[us.index()];
        let count = sparse_count;
        // A piece of ours on `from` reaches `t` exactly when the opponent's piece of the same
        // kind on `t` would attack `from`.
        for t in gap | checkers {
            let in_zone = zone.contains(t);
            // Pawns, lances and knights: without promotion unless the piece would be dead,
            // with promotion in the zone.
            let plp = (pawn_attacks(them, t) & pawns)
                | if (lance_pseudo_attacks(them, t) & lances).any() {
                    lance_attacks(them, t, occ_s) & lances
                } else {
                    Bitboard::EMPTY
                };
            let nk = knight_attacks(them, t) & knights;
            let mut ways = 0;
            ways += count(plp) * (u64::from(!last1.contains(t)) + u64::from(in_zone));
            ways += count(nk) * (u64::from(!last2.contains(t)) + u64::from(in_zone));
            // Silvers, bishops and rooks: always without promotion, and with it when the
            // move starts or ends in the zone.
            let promoting =
                |b: Bitboard| count(b) + if in_zone { count(b) } else { count(b & zone) };
            ways += promoting(silver_attacks(them, t) & silvers);
            ways += count(gold_attacks(them, t) & golds);
            // Bishops and horses on the diagonals, rooks and dragons on the lines (the
            // sliding attack found only when one stands on such a line), and the promoted
            // ones' single steps.
            let sliders: [(Bitboard, Bitboard, Bitboard, Slide); 2] = [
                (bishop_pseudo_attacks(t), bishops, horses, bishop_attacks),
                (rook_pseudo_attacks(t), rooks, dragons, rook_attacks),
            ];
            for (pseudo, plain, promoted, slide) in sliders {
                let b = if (pseudo & (plain | promoted)).any() {
                    slide(t, occ_s)
                } else {
                    Bitboard::EMPTY
                };
                ways += promoting(b & plain);
                ways += count((b | king_attacks(t)) & promoted);
            }
            n += ways;
        }
        let hand = self.hands[us.index()];
        if gap.is_empty() || hand.is_empty() {
            return n;
        }
        if hand.count(Role::Pawn) > 0 {
            let mut t = gap & !last1 & !file_fill(ours & r[Role::Pawn as usize]);
            if let Some(tk) = self.king_square(them) {
                // The one square where a pawn drop gives check.
                if let Some(sq) = (pawn_attacks(them, tk) & t).first() {
                    if self.pawn_drop_mates(sq) {
                        t.remove(sq);
                    }
                }
            }
            n += count(t);
        }
        if hand.count(Role::Lance) > 0 {
            n += count(gap & !last1);
        }
        if hand.count(Role::Knight) > 0 {
            n += count(gap & !last2);
        }
        let gap_n = count(gap);
        for role in [Role::Silver, Role::Gold, Role::Bishop, Role::Rook] {
            if hand.count(role) > 0 {
                n += gap_n;
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::super::testgen::random_positions;
    use crate::{Position, SetupOptions};

    /// The fast count against the legal generator's, in every position of random games
    /// (in check and not, single and double checks, pins, drops, promotions, Mini Shogi).
    #[test]
    fn evasion_count_equals_legal_count() {
        let (mut in_check, mut double, mut with_drops) = (0, 0, 0);
        // Double checks are rare in random games: a few written by hand (rook and bishop,
        // rook and knight, on both boards, with pieces in hand that cannot help).
        let doubles = [
            "4k4/9/2B6/9/4R4/9/9/9/4K4 w 2g 1",
            "4k4/9/3N5/9/4R4/9/9/9/4K4 w rs 1",
            "k4/5/2B2/5/R3K w gp 1",
        ]
        .map(|s| Position::from_sfen_with(s, SetupOptions::TSUME));
        let mut positions = random_positions(60, 0x5EED_0001);
        for (s, p) in doubles.into_iter().enumerate() {
            match p {
                Ok(p) => positions.push(p),
                Err(e) => panic!("double check {s}: {e}"),
            }
        }
        for p in positions {
            assert_eq!(p.count_evasions(), p.count_legal_moves(), "{}", p.to_sfen());
            let checkers = p.checkers();
            if checkers.any() {
                in_check += 1;
                double += usize::from(checkers.more_than_one());
                with_drops += usize::from(p.legal_moves().iter().any(|m| m.is_drop()));
            }
        }
        assert!(
            in_check > 500 && double >= 4 && with_drops > 100,
            "{in_check} {double} {with_drops}"
        );
    }
}

//! Futile interpositions (無駄合), as this solver defines them for the tsume conventions.
//!
//! A defender's reply is a *futile interposition* when all of these hold:
//! 1. it is a drop, on a square between the king and the one piece giving check, which is a
//!    long-range piece (rook, bishop, lance, dragon, horse) at least two squares away;
//! 2. after the drop no defender piece, the king included, attacks that square;
//! 3. the checking piece can take the dropped piece there (legally, promoting or not), and
//!    that capture gives check again.
//!
//! Such a piece is simply taken, for free, and the check goes on from closer; under the
//! tsume conventions the drop and its capture are not counted in the length. The definition
//! is narrower than a composer's judgement: an interposition by a moved piece (移動合), or a
//! defended drop that is still useless, counts as a real defence here; and an undefended drop
//! whose capture spoils the attacker's line is still counted as futile (the search then proves
//! the mate after it all the same, so no false mate can come of it: futility changes only
//! how lengths are counted, never what has to be proven).

use shogi_core::{Move, Position, Role};

/// Whether the defender's move `m` (legal in `pos`, the defender in check) is futile.
pub(crate) fn is_futile(pos: &Position, m: Move) -> bool {
    let Move::Drop { to, .. } = m else {
        return false;
    };
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return false;
    }
    let Some(c) = checkers.first() else {
        return false;
    };
    let Some(checker) = pos.piece_at(c) else {
        return false;
    };
    if !matches!(
        checker.role,
        Role::Rook | Role::Bishop | Role::Lance | Role::Dragon | Role::Horse
    ) {
        return false;
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    let defender = pos.side_to_move();
    if after.attackers_to(to, defender, after.occupied()).any() {
        return false;
    }
    // The drop blocked the check (it is legal and the king did not move), so `to` lies between.
    after.legal_moves_to(to).iter().any(|r| {
        r.from() == Some(c) && {
            let mut p = after.clone();
            p.play_unchecked(*r);
            p.is_check()
        }
    })
}

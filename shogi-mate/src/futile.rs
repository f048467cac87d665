//! Futile interpositions (無駄合), as this solver defines them for the tsume conventions.
//!
//! A defender's reply is a *futile interposition* when all of these hold:
//! 1. it is a drop, on a square between the king and the one piece giving check, which is a
//!    long-range piece (rook, bishop, lance, dragon, horse) at least two squares away;
//! 2. the attacker can take the dropped piece there with a move that gives check again, and
//!    either (a) the taker is the checking piece and no defender piece, the king included,
//!    attacks the square after the drop (the piece is simply lost), or (b) after the capture
//!    the defender has no legal move onto the square (the taker cannot be taken back: the
//!    square is unguarded, or the king guards it but the taker is protected).
//!
//! Such a piece is taken for nothing and the check goes on from the square it was dropped
//! on; under the tsume conventions the drop and its capture are not counted in the length.
//! Case (b) is the composers' usual futile drop next to the king (合駒を取って同じ詰み): the
//! king "defends" the square but cannot take back. Whether a square's drop is futile does not
//! depend on the piece dropped (the piece leaves the board when taken), so every drop on a
//! futile square is futile.
//!
//! The definition is still narrower than a composer's judgement in one way and wider in
//! another: an interposition by a moved piece (移動合) always counts here, and so does a drop
//! the attacker can take only to be taken back; a drop whose capture gives the attacker a
//! piece it then needs for the mate (a useful interposition to a composer) is still counted
//! as futile. Neither can yield a false mate: futility changes only how lengths are counted
//! (the position after the drop gets two more plies), never what has to be proven.

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
    let unguarded = !after.attackers_to(to, defender, after.occupied()).any();
    // The drop blocked the check (it is legal and the king did not move), so `to` lies between.
    after.legal_moves_to(to).iter().any(|r| {
        let mut p = after.clone();
        p.play_unchecked(*r);
        p.is_check() && ((unguarded && r.from() == Some(c)) || p.legal_moves_to(to).is_empty())
    })
}

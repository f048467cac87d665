//! Attacks, pins, legal move generation and move checking.

use super::sink::{Counter, OnlyTo, Sink, Visit};
use super::{Outcome, PlayError, Position};
use crate::bitboard::{
    Bitboard, attacks, between, bishop_attacks, bishop_pseudo_attacks, direction, file_fill,
    gold_attacks, king_attacks, king_regions, knight_attacks, lance_attacks, lance_pseudo_attacks,
    line, pawn_attacks, pawn_pushes, pseudo_reaches, rook_attacks, rook_pseudo_attacks,
    silver_attacks,
};
use crate::moves::{Move, MoveList};
use crate::types::{Color, Role, Square, Variant};

impl Position {
    #[inline(always)]
    pub(super) fn golds(&self) -> Bitboard {
        self.by_role[Role::Gold as usize]
            | self.by_role[Role::Tokin as usize]
            | self.by_role[Role::PromotedLance as usize]
            | self.by_role[Role::PromotedKnight as usize]
            | self.by_role[Role::PromotedSilver as usize]
    }

    /// The occupancy sliders see: real pieces plus the squares off a Mini Shogi board.
    #[inline(always)]
    fn slider_occupancy(&self, occ: Bitboard) -> Bitboard {
        occ | self.variant.masks().offboard
    }

    /// The pieces of `by` that attack `sq`, given the occupancy `occ` (real squares only).
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let o = self.slider_occupancy(occ);
        let them = !by;
        let r = &self.by_role;
        let b = (pawn_attacks(them, sq) & r[Role::Pawn as usize])
            | (knight_attacks(them, sq) & r[Role::Knight as usize])
            | (silver_attacks(them, sq) & r[Role::Silver as usize])
            | (gold_attacks(them, sq) & self.golds())
            | (king_attacks(sq)
                & (r[Role::King as usize] | r[Role::Horse as usize] | r[Role::Dragon as usize]))
            | (rook_attacks(sq, o) & (r[Role::Rook as usize] | r[Role::Dragon as usize]))
            | (bishop_attacks(sq, o) & (r[Role::Bishop as usize] | r[Role::Horse as usize]))
            | (lance_attacks(them, sq, o) & r[Role::Lance as usize]);
        b & self.by_color[by.index()] & occ
    }

    /// Whether a piece of `by` (other than those on `ignore`) attacks `sq` when the occupied
    /// squares are `occ`. Sliders are tested only when one stands on a line with `sq`, so this
    /// is cheaper than [`Position::attackers_to`] when no set is needed.
    #[inline]
    fn attacked_with(&self, sq: Square, by: Color, occ: Bitboard, ignore: Bitboard) -> bool {
        let theirs = self.by_color[by.index()] & !ignore;
        let defender = !by;
        let r = &self.by_role;
        // Every stepping attacker stands next to `sq` or a knight's jump from it, and mostly
        // none of `by`'s pieces does: then no stepper needs testing.
        if ((king_attacks(sq) | knight_attacks(defender, sq)) & theirs).any() {
            let steppers = (pawn_attacks(defender, sq) & r[Role::Pawn as usize])
                | (knight_attacks(defender, sq) & r[Role::Knight as usize])
                | (silver_attacks(defender, sq) & r[Role::Silver as usize])
                | (gold_attacks(defender, sq) & self.golds())
                | (king_attacks(sq)
                    & (r[Role::King as usize]
                        | r[Role::Horse as usize]
                        | r[Role::Dragon as usize]));
            if (steppers & theirs).any() {
                return true;
            }
        }
        let snipers = self.sliders_aimed_at(by, sq) & !ignore;
        for s in snipers {
            if (between(sq, s) & occ).is_empty() {
                return true;
            }
        }
        false
    }

    /// The opponent pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// The opponent pieces attacking `color`'s king, computed from scratch (empty without a
    /// king).
    pub(super) fn attackers_to_king(&self, color: Color) -> Bitboard {
        match self.king_square(color) {
            Some(k) => self.attackers_to(k, !color, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// The cached check state computed from scratch: the side to move's checkers, and whether
    /// the other side is in check.
    pub(super) fn check_state(&self) -> (Bitboard, bool) {
        (
            self.attackers_to_king(self.side),
            self.attackers_to_king(!self.side).any(),
        )
    }

    /// The checks a move of `us` just made gives (the position is the one after it), when the
    /// opponent was not in check before it: only the piece now on `to` can check directly,
    /// and only a slider of `us` behind `from` (empty for a drop) can be uncovered. `occ` is
    /// the occupancy after the move (worked out by the caller from the one before: reading it
    /// back right after the move's stores would wait on them).
    #[inline(always)]
    pub(super) fn checks_given(
        &self,
        us: Color,
        role: Role,
        from: Option<Square>,
        to: Square,
        occ: Bitboard,
    ) -> Bitboard {
        debug_assert_eq!(occ, self.occupied());
        let them = !us;
        let Some(tk) = self.king_square(them) else {
            return Bitboard::EMPTY;
        };
        let mut out = Bitboard::EMPTY;
        // `between` is symmetric: its rows are read by the king's square, the same move after
        // move, where rows by `to` missed the cache.
        if pseudo_reaches(us, role, to, tk) && (between(tk, to) & occ).is_empty() {
            out.insert(to);
        }
        if let Some(from) = from {
            if direction(tk, from) != 0 {
                for s in self.sliders_aimed_at(us, tk) {
                    let b = between(tk, s);
                    if b.contains(from) && (b & occ).is_empty() {
                        out.insert(s);
                    }
                }
            }
        }
        out
    }

    /// The pieces of `by` whose rays on an empty board pass through `sq` (rooks, bishops,
    /// lances, dragons and horses aimed at it, whatever stands between).
    #[inline(always)]
    fn sliders_aimed_at(&self, by: Color, sq: Square) -> Bitboard {
        let r = &self.by_role;
        self.by_color[by.index()]
            & ((rook_pseudo_attacks(sq) & (r[Role::Rook as usize] | r[Role::Dragon as usize]))
                | (bishop_pseudo_attacks(sq)
                    & (r[Role::Bishop as usize] | r[Role::Horse as usize]))
                | (lance_pseudo_attacks(!by, sq) & r[Role::Lance as usize]))
    }

    /// Whether `us`'s piece on `from` is pinned to `us`'s king on `k` (`pinned(..).contains(from)`
    /// answered by the first slider found): the king-safety test of a move that is not the
    /// king's, off the king's ray through `from`, when the side is not in check.
    #[inline(always)]
    fn uncovers_king(&self, us: Color, k: Square, from: Square, occ: Bitboard) -> bool {
        let from_bb = Bitboard::from_square(from);
        for s in self.sliders_aimed_at(!us, k) {
            if (between(k, s) & occ) == from_bb {
                return true;
            }
        }
        false
    }

    /// The pieces of `color` pinned to its king (on `king`) by opposing sliders.
    #[inline]
    fn pinned(&self, color: Color, king: Square, occ: Bitboard) -> Bitboard {
        self.lone_blockers(color, king, occ, color)
    }

    /// The pieces of `blockers` standing alone (with `occ` occupied) between `owner`'s king on
    /// `king` and an opposing slider aimed at it: pinned pieces when `blockers` is `owner`,
    /// pieces whose move uncovers a check when it is the other side.
    #[inline]
    pub(super) fn lone_blockers(
        &self,
        owner: Color,
        king: Square,
        occ: Bitboard,
        blockers: Color,
    ) -> Bitboard {
        let snipers = self.sliders_aimed_at(!owner, king);
        let ours = self.by_color[blockers.index()];
        let mut out = Bitboard::EMPTY;
        for s in snipers {
            let b = between(king, s) & occ;
            if b.any() && !b.more_than_one() && (b & ours).any() {
                out |= b;
            }
        }
        out
    }

    /// The pieces of the side to move that are pinned to its king.
    pub fn pinned_pieces(&self) -> Bitboard {
        match self.king_square(self.side) {
            Some(k) => self.pinned(self.side, k, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether dropping a pawn of the side to move on `to` mates the opponent at once.
    /// Only meaningful when the drop gives check.
    pub(super) fn pawn_drop_mates(&self, to: Square) -> bool {
        let us = self.side;
        let them = !us;
        let Some(tk) = self.king_square(them) else {
            return false;
        };
        let board = self.variant.masks().board;
        let occ = self.occupied() | Bitboard::from_square(to);
        // Can a piece other than the king take the pawn? It must not be pinned, unless it
        // captures along its pin line.
        let defenders = self.attackers_to(to, them, occ) & !Bitboard::from_square(tk);
        if defenders.any() {
            let pinned = self.pinned(them, tk, occ);
            for d in defenders {
                if !pinned.contains(d) || line(tk, d).contains(to) {
                    return false;
                }
            }
        }
        // Can the king step anywhere safe (taking the pawn included)?
        let occ_no_king = occ ^ Bitboard::from_square(tk);
        let escapes = king_attacks(tk) & board & !self.by_color[them.index()];
        for s in escapes {
            if self
                .attackers_to(s, us, occ_no_king & !Bitboard::from_square(s))
                .is_empty()
            {
                return false;
            }
        }
        true
    }

    /// The opponent pieces giving check to the side to move (`us`, king on `k`, `occ`
    /// occupied: the position's own), and `us`'s pieces pinned to its king. The checkers come
    /// from the cache; only the pins are computed.
    #[inline(always)]
    pub(super) fn checkers_and_pinned(
        &self,
        us: Color,
        k: Square,
        occ: Bitboard,
    ) -> (Bitboard, Bitboard) {
        debug_assert!(us == self.side && occ == self.occupied());
        (self.checkers, self.pinned(us, k, occ))
    }

    /// The squares around `us`'s king on `k` (among `candidates`) that no opponent piece
    /// attacks once the king has left `k`.
    #[inline(always)]
    pub(super) fn safe_king_squares(&self, us: Color, k: Square, candidates: Bitboard) -> Bitboard {
        let theirs = self.by_color[(!us).index()];
        let r = &self.by_role;
        let mut rooks = theirs & (r[Role::Rook as usize] | r[Role::Dragon as usize]);
        let mut bishops = theirs & (r[Role::Bishop as usize] | r[Role::Horse as usize]);
        let mut lances = theirs & r[Role::Lance as usize];
        let mut near = theirs;
        if self.variant == Variant::Standard {
            // Only pieces that could reach the king's surroundings matter; often there are
            // none on the big board (on the Mini Shogi board there nearly always are).
            let [step_region, rook_region, bishop_region, lance_region] = king_regions(us, k);
            rooks &= rook_region;
            bishops &= bishop_region;
            lances &= lance_region;
            near &= step_region;
            if near.is_empty() && (rooks | bishops | lances).is_empty() {
                return candidates;
            }
        }
        // The squares the opponent attacks, piece by piece (only the pieces near enough,
        // on the big board), with the king taken off so that sliders see through it.
        let them = !us;
        let occ_s = self.slider_occupancy(self.occupied() ^ Bitboard::from_square(k));
        let mut attacked = pawn_pushes(them, near & r[Role::Pawn as usize]);
        for s in near & r[Role::Knight as usize] {
            attacked |= knight_attacks(them, s);
        }
        for s in near & r[Role::Silver as usize] {
            attacked |= silver_attacks(them, s);
        }
        for s in near & self.golds() {
            attacked |= gold_attacks(them, s);
        }
        for s in
            near & (r[Role::King as usize] | r[Role::Horse as usize] | r[Role::Dragon as usize])
        {
            attacked |= king_attacks(s);
        }
        let mut safe = candidates & !attacked;
        if safe.is_empty() {
            return safe;
        }
        // The sliders last, when a square is still safe.
        for s in rooks {
            safe &= !rook_attacks(s, occ_s);
        }
        for s in bishops {
            safe &= !bishop_attacks(s, occ_s);
        }
        for s in lances {
            safe &= !lance_attacks(them, s, occ_s);
        }
        safe
    }

    /// Generates the legal moves into a sink, in bundles.
    // Over 100 lines on purpose: perft's hot loop, one pass (check evasions, then each kind
    // of piece, then drops) that is inlined whole into every sink; splitting it is a speed
    // change to measure with compare.py, not a refactor.
    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        let us = self.side;
        let them = !us;
        let masks = self.variant.masks();
        let occ = self.occupied();
        let occ_s = occ | masks.offboard;
        let ours = self.by_color[us.index()];
        let avail = masks.board & !ours;
        let r = &self.by_role;
        let king = self.king_square(us);

        let mut pinned = Bitboard::EMPTY;
        // Where pieces may move and drop: anywhere, or (in check) onto the checker or between.
        let targets = sink.targets();
        let mut move_mask = avail & targets;
        let mut drop_mask = masks.board & !occ & targets;
        // The king square for pin lines (never read when nothing is pinned).
        let mut ksq = Square::from_index_unchecked(0);
        if let Some(k) = king {
            ksq = k;
            let (checkers, pins) = self.checkers_and_pinned(us, k, occ);
            if sink.wants_king_moves(k) {
                let safe = self.safe_king_squares(us, k, king_attacks(k) & avail);
                if safe.any() {
                    sink.normal(k, safe, Bitboard::EMPTY);
                }
            }
            if let Some(c) = checkers.first() {
                if checkers.more_than_one() {
                    return;
                }
                let b = between(k, c);
                move_mask &= b | checkers;
                drop_mask = b & targets;
            }
            pinned = pins;
        }

        let zone = masks.zone[us.index()];
        let last1 = masks.last1[us.index()];
        let last2 = masks.last2[us.index()];

        // Unpinned pieces, role by role; pinned ones (rare) afterwards, along their pin lines.
        let free = ours & !pinned;
        // Pawns push in bulk; lances and knights move forward only, so promotion depends on
        // the target alone.
        let pawns = ours & r[Role::Pawn as usize];
        let t = pawn_pushes(us, pawns & free & sink.movers(Role::Pawn)) & move_mask;
        if t.any() {
            sink.pawn_pushes(us, t & !last1, t & zone);
        }
        for from in free & r[Role::Lance as usize] & sink.movers(Role::Lance) {
            let t = lance_attacks(us, from, occ_s) & move_mask;
            if t.any() {
                sink.normal(from, t & !last1, t & zone);
            }
        }
        for from in free & r[Role::Knight as usize] & sink.movers(Role::Knight) {
            let t = knight_attacks(us, from) & move_mask;
            if t.any() {
                sink.normal(from, t & !last2, t & zone);
            }
        }
        // Silvers, bishops and rooks promote on any move that starts or ends in the zone.
        let promo_from = &masks.promo_from[us.index()];
        for from in free & r[Role::Silver as usize] & sink.movers(Role::Silver) {
            let t = silver_attacks(us, from) & move_mask;
            if t.any() {
                sink.normal(from, t, t & promo_from[from.index()]);
            }
        }
        for from in free & self.golds() & sink.movers(Role::Gold) {
            let t = gold_attacks(us, from) & move_mask;
            if t.any() {
                sink.normal(from, t, Bitboard::EMPTY);
            }
        }
        for from in free & r[Role::Bishop as usize] & sink.movers(Role::Bishop) {
            let t = bishop_attacks(from, occ_s) & move_mask;
            if t.any() {
                sink.normal(from, t, t & promo_from[from.index()]);
            }
        }
        for from in free & r[Role::Rook as usize] & sink.movers(Role::Rook) {
            let t = rook_attacks(from, occ_s) & move_mask;
            if t.any() {
                sink.normal(from, t, t & promo_from[from.index()]);
            }
        }
        for from in free & r[Role::Horse as usize] & sink.movers(Role::Horse) {
            let t = (bishop_attacks(from, occ_s) | king_attacks(from)) & move_mask;
            if t.any() {
                sink.normal(from, t, Bitboard::EMPTY);
            }
        }
        for from in free & r[Role::Dragon as usize] & sink.movers(Role::Dragon) {
            let t = (rook_attacks(from, occ_s) | king_attacks(from)) & move_mask;
            if t.any() {
                sink.normal(from, t, Bitboard::EMPTY);
            }
        }
        for from in pinned {
            let Some(piece) = self.board[from.index()] else {
                continue;
            };
            let t = attacks(us, piece.role, from, occ_s) & move_mask & line(ksq, from);
            if t.is_empty() {
                continue;
            }
            match piece.role {
                Role::Pawn | Role::Lance => sink.normal(from, t & !last1, t & zone),
                Role::Knight => sink.normal(from, t & !last2, t & zone),
                Role::Silver | Role::Bishop | Role::Rook => {
                    sink.normal(from, t, t & promo_from[from.index()])
                }
                _ => sink.normal(from, t, Bitboard::EMPTY),
            }
        }

        let hand = self.hands[us.index()];
        if drop_mask.is_empty() || hand.is_empty() {
            return;
        }
        if hand.count(Role::Pawn) > 0 {
            let mut t = drop_mask & !last1 & !file_fill(pawns);
            if let Some(tk) = self.king_square(them) {
                // The one square where a pawn drop gives check.
                let check_sq = pawn_attacks(them, tk) & t;
                if let Some(sq) = check_sq.first() {
                    if self.pawn_drop_mates(sq) {
                        t.remove(sq);
                    }
                }
            }
            if t.any() {
                sink.drops(Role::Pawn, t);
            }
        }
        if hand.count(Role::Lance) > 0 {
            sink.drops(Role::Lance, drop_mask & !last1);
        }
        if hand.count(Role::Knight) > 0 {
            sink.drops(Role::Knight, drop_mask & !last2);
        }
        // Silvers, golds, bishops and rooks may be dropped on every empty square (of the mask).
        let mut roles = [Role::Silver; 4];
        let mut n = 0;
        for role in [Role::Silver, Role::Gold, Role::Bishop, Role::Rook] {
            if hand.count(role) > 0 {
                roles[n] = role;
                n += 1;
            }
        }
        if n > 0 {
            sink.drops_each(&roles[..n], drop_mask);
        }
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut Visit(|m| list.push(m)));
        list
    }

    /// Calls `f` for every legal move (no list is built).
    #[inline]
    pub fn for_each_legal_move<F: FnMut(Move)>(&self, f: F) {
        self.generate(&mut Visit(f));
    }

    /// The number of legal moves, counted without building them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = Counter::default();
        self.generate(&mut c);
        c.finish()
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// The outcome the position shows on its own: mate, or no legal move (a loss too).
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_moves() {
            None
        } else if self.is_check() {
            Some(Outcome::Checkmate { winner: !self.side })
        } else {
            Some(Outcome::NoLegalMoves { winner: !self.side })
        }
    }

    /// Why `m` is illegal here, or `Ok(())` when it is legal.
    pub fn check_move(&self, m: Move) -> Result<(), PlayError> {
        self.check_move_inline(m)
    }

    /// [`Position::check_move`], inlined into [`Position::play`].
    // About 100 lines on purpose: one match over the kinds of move, inlined into `play` (the
    // readers' hot path); its cases share the early returns.
    #[inline(always)]
    pub(super) fn check_move_inline(&self, m: Move) -> Result<(), PlayError> {
        let us = self.side;
        let masks = self.variant.masks();
        match m {
            Move::Normal { from, to, promote } => {
                // Every square is on the standard board: only Mini Shogi needs the test.
                if self.variant != Variant::Standard
                    && (!masks.board.contains(from) || !masks.board.contains(to))
                {
                    return Err(PlayError::OffBoard);
                }
                let piece = self.board[from.index()].ok_or(PlayError::NoPiece)?;
                if piece.color != us {
                    return Err(PlayError::NotYourPiece);
                }
                if self.board[to.index()].is_some_and(|p| p.color == us) {
                    return Err(PlayError::OwnPieceOnTarget);
                }
                let occ_s = self.slider_occupancy(self.occupied());
                if !reaches(us, piece.role, from, to, occ_s) {
                    return Err(unreachable(us, piece.role, from, to, masks.offboard));
                }
                let zone = masks.zone[us.index()];
                if promote {
                    if !piece.role.can_promote() || !(zone.contains(from) || zone.contains(to)) {
                        return Err(PlayError::PromotionNotAllowed);
                    }
                } else if masks.dead[us.index()][piece.role.index()].contains(to) {
                    return Err(PlayError::PromotionRequired);
                }
                if let Some(k) = self.king_square(us) {
                    // King safety without making the move: the board after it differs only on
                    // `from` (vacated) and `to` (now ours; a captured piece attacks nothing).
                    let occ = self.occupied();
                    let to_bb = Bitboard::square(to);
                    let attacked = if piece.role == Role::King {
                        self.attacked_with(to, !us, occ ^ Bitboard::square(from), to_bb)
                    } else if self.checkers.any() {
                        let after = (occ ^ Bitboard::square(from)) | to_bb;
                        self.attacked_with(k, !us, after, to_bb)
                    } else {
                        // Not in check: only a slider behind `from` can reach the king after
                        // the move, and only if the piece leaves the king's ray through `from`
                        // (moving along that ray it still shields the king).
                        let d = direction(k, from);
                        d != 0 && d != direction(k, to) && self.uncovers_king(us, k, from, occ)
                    };
                    if attacked {
                        return Err(PlayError::LeavesKingInCheck);
                    }
                }
                Ok(())
            }
            Move::Drop { role, to } => {
                if self.variant != Variant::Standard && !masks.board.contains(to) {
                    return Err(PlayError::OffBoard);
                }
                if !role.is_hand_role() {
                    return Err(PlayError::NotDroppable);
                }
                if self.hands[us.index()].count(role) == 0 {
                    return Err(PlayError::NotInHand);
                }
                if self.occupied().contains(to) {
                    return Err(PlayError::DropOnOccupied);
                }
                if masks.dead[us.index()][role.index()].contains(to) {
                    return Err(PlayError::DeadPiece);
                }
                if role == Role::Pawn
                    && (self.pieces(us, Role::Pawn) & Bitboard::file(to.file())).any()
                {
                    return Err(PlayError::Nifu);
                }
                // A drop only adds a blocker: it can leave the king attacked only when the side
                // is in check.
                if self.checkers.any() {
                    if let Some(k) = self.king_square(us) {
                        let occ = self.occupied() | Bitboard::from_square(to);
                        if self.attacked_with(k, !us, occ, Bitboard::EMPTY) {
                            return Err(PlayError::LeavesKingInCheck);
                        }
                    }
                }
                if role == Role::Pawn {
                    if let Some(tk) = self.king_square(!us) {
                        if pawn_attacks(us, to).contains(tk) && self.pawn_drop_mates(to) {
                            return Err(PlayError::PawnDropMate);
                        }
                    }
                }
                Ok(())
            }
        }
    }
}

/// Whether a piece of `us` and `role` on `from` attacks `to` with `occ_s` occupied (the
/// squares off a Mini Shogi board included): `attacks(us, role, from, occ_s).contains(to)`
/// without building the attack set, as move checking asks it of a single target.
#[inline(always)]
pub(super) fn reaches(us: Color, role: Role, from: Square, to: Square, occ_s: Bitboard) -> bool {
    // One table for every role, no branch on it: a square of the empty-board set is
    // reached when nothing stands strictly between (a step or a knight's jump has nothing
    // between, so the test holds for every piece).
    pseudo_reaches(us, role, from, to) && (between(from, to) & occ_s).is_empty()
}

/// Why a piece of `us` and `role` on `from` cannot go to `to`: its path is blocked, or it
/// does not move that way at all (`offboard`: the squares off the variant's board).
#[cold]
fn unreachable(us: Color, role: Role, from: Square, to: Square, offboard: Bitboard) -> PlayError {
    if attacks(us, role, from, offboard).contains(to) {
        PlayError::PathBlocked
    } else {
        PlayError::CannotMoveThere
    }
}

impl Position {
    /// The legal moves that land on `to` (for resolving written moves such as KI2's).
    pub fn legal_moves_to(&self, to: Square) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_legal_move_to(to, |m| list.push(m));
        list
    }

    /// Calls `f` for every legal move that lands on `to`, as [`Position::legal_moves_to`]
    /// lists them (no list is built). Only the pieces that could reach `to` and the drops
    /// on it are looked at.
    #[inline]
    pub fn for_each_legal_move_to<F: FnMut(Move)>(&self, to: Square, f: F) {
        self.generate_to(to, None, f);
    }

    /// Calls `f` for every legal move that lands on `to` of a piece of `role` on the board
    /// (the role as it stands there: `Tokin`, not `Pawn`, for a と) and every legal drop of
    /// `role` there: the moves of [`Position::for_each_legal_move_to`] that KI2's `７六歩`
    /// can mean, found without looking at the other pieces.
    #[inline]
    pub fn for_each_legal_move_of_to<F: FnMut(Move)>(&self, role: Role, to: Square, f: F) {
        self.generate_to(to, Some(role), f);
    }

    /// The legal moves to `to`, of the pieces of `role` (and its drops) when given.
    #[inline(always)]
    fn generate_to<F: FnMut(Move)>(&self, to: Square, role: Option<Role>, f: F) {
        self.generate(&mut OnlyTo {
            to,
            mask: Bitboard::from_square(to),
            them: !self.side,
            role,
            sources: role.map_or(Bitboard::FULL, |r| self.pieces(self.side, r)),
            inner: &mut Visit(f),
        });
    }
}

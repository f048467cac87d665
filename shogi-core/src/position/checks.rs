//! Checks found without making moves: for mate solvers, which look at the checks of a
//! position far more often than at its other moves.

use super::Position;
use super::sink::{Sink, each_normal, each_pawn_push};
use crate::bitboard::{
    Bitboard, attacks, bishop_attacks, check_from, gold_attacks, king_attacks, knight_attacks,
    lance_attacks, line, pawn_attacks, pawn_pushes, rook_attacks, silver_attacks,
};
use crate::moves::Move;
use crate::types::{Color, Role, Square};

/// The sink of [`Position::for_each_check`]: each bundle of board moves is cut down to its
/// checks with masks (no move is tested one by one), drops are masked.
struct Checks<'a, F> {
    pos: &'a Position,
    k: Square,
    /// For each role (by index), the squares from which a piece of ours of that role attacks
    /// the king on `k`: the attacks of the opponent's piece of that role on `k`. The board
    /// after a move differs on `from` and `to` only, and neither changes these sets for the
    /// moved piece (a capture on `to` keeps it occupied; a slider whose `from` lies between
    /// `to` and the king on its own line already gave check, which a legal position rules
    /// out).
    targets: [Bitboard; 14],
    /// Our pieces that are the only piece between one of our sliders and the king on `k`:
    /// moving one off that line is a discovered check.
    discoverers: Bitboard,
    /// For pawns, lances, knights, silvers and gold-likes: the squares from which one may give
    /// check (see [`check_from`]), with the discoverers.
    movers: [Bitboard; 5],
    f: F,
}

impl<F: FnMut(Move)> Checks<'_, F> {
    /// The checks among the moves of our piece `role` on `from` to `plain` (without
    /// promotion) and `promo` (with it).
    #[inline(always)]
    fn cut(
        &self,
        role: Role,
        from: Square,
        plain: Bitboard,
        promo: Bitboard,
    ) -> (Bitboard, Bitboard) {
        let promoted = role.promote().unwrap_or(role);
        let mut p = plain & self.targets[role.index()];
        let mut q = promo & self.targets[promoted.index()];
        if self.discoverers.contains(from) {
            let off = !line(self.k, from);
            p |= plain & off;
            q |= promo & off;
        }
        (p, q)
    }
}

impl<F: FnMut(Move)> Sink for Checks<'_, F> {
    #[inline(always)]
    fn normal(&mut self, from: Square, plain: Bitboard, promo: Bitboard) {
        let Some(piece) = self.pos.board[from.index()] else {
            return;
        };
        let (p, q) = self.cut(piece.role, from, plain, promo);
        if p.any() || q.any() {
            each_normal(from, p, q, &mut self.f);
        }
    }
    /// A king move gives check only by uncovering one.
    #[inline(always)]
    fn wants_king_moves(&self, k: Square) -> bool {
        self.discoverers.contains(k)
    }
    /// Only the pieces that may give check, or uncover one.
    #[inline(always)]
    fn movers(&self, role: Role) -> Bitboard {
        match role {
            Role::Pawn => self.movers[0],
            Role::Lance => self.movers[1],
            Role::Knight => self.movers[2],
            Role::Silver => self.movers[3],
            Role::Gold => self.movers[4],
            _ => Bitboard::FULL,
        }
    }
    #[inline(always)]
    fn drops(&mut self, role: Role, targets: Bitboard) {
        for to in targets & self.targets[role.index()] {
            (self.f)(Move::Drop { role, to });
        }
    }
    #[inline(always)]
    fn pawn_pushes(&mut self, color: Color, plain: Bitboard, promo: Bitboard) {
        let mut p = plain & self.targets[Role::Pawn.index()];
        let mut q = promo & self.targets[Role::Tokin.index()];
        // Pushes of pawns that uncover a check: a push stays on its file, so only a pawn
        // standing in the king's line on another file (a rank or a diagonal) uncovers one.
        let uncovering = pawn_pushes(color, self.discoverers);
        for to in (plain | promo) & uncovering {
            let from = match color {
                Color::Black => Square::from_index_unchecked(to.index() + 1),
                Color::White => Square::from_index_unchecked(to.index() - 1),
            };
            if !line(self.k, from).contains(to) {
                p |= plain & Bitboard::from_square(to);
                q |= promo & Bitboard::from_square(to);
            }
        }
        if p.any() || q.any() {
            each_pawn_push(color, p, q, &mut self.f);
        }
    }
}

impl Position {
    /// Whether `m`, a legal move here, gives check: the same answer as
    /// [`Position::gives_check`], found without making the move (no copy of the position).
    /// For an illegal move the answer means nothing.
    #[inline]
    pub fn gives_check_fast(&self, m: Move) -> bool {
        match self.king_square(!self.side) {
            Some(k) => self.gives_check_to(k, m),
            None => false,
        }
    }

    /// Calls `f` for every legal move that gives check, in the order of
    /// [`Position::for_each_legal_move`] (the legal moves filtered by
    /// [`Position::gives_check_fast`]); drops are tried only where they check.
    #[inline]
    pub fn for_each_check<F: FnMut(Move)>(&self, f: F) {
        let Some(k) = self.king_square(!self.side) else {
            return;
        };
        let us = self.side;
        let occ_s = self.occupied() | self.variant.masks().offboard;
        // A piece of ours on `to` attacks `k` exactly when the opponent's piece of the same
        // kind on `k` would attack `to`; a drop does not block its own line.
        let them = !us;
        let rook = rook_attacks(k, occ_s);
        let bishop = bishop_attacks(k, occ_s);
        let king = king_attacks(k);
        let gold = gold_attacks(them, k);
        let mut targets = [gold; 14];
        targets[Role::Pawn.index()] = pawn_attacks(them, k);
        targets[Role::Lance.index()] = lance_attacks(them, k, occ_s);
        targets[Role::Knight.index()] = knight_attacks(them, k);
        targets[Role::Silver.index()] = silver_attacks(them, k);
        targets[Role::Bishop.index()] = bishop;
        targets[Role::Rook.index()] = rook;
        targets[Role::King.index()] = king;
        targets[Role::Horse.index()] = bishop | king;
        targets[Role::Dragon.index()] = rook | king;
        let discoverers = self.discoverers(k);
        let mut sink = Checks {
            pos: self,
            k,
            targets,
            discoverers,
            movers: check_from(us, k).map(|b| b | discoverers),
            f,
        };
        self.generate(&mut sink);
    }

    /// Our pieces (of the side to move) standing alone between one of our sliders and the
    /// opponent's king on `k`.
    fn discoverers(&self, k: Square) -> Bitboard {
        self.lone_blockers(!self.side, k, self.occupied(), self.side)
    }

    /// Whether our piece moving from `from` to `to` (promoting or not) attacks `k` from there.
    #[inline(always)]
    fn moved_piece_checks(&self, k: Square, from: Square, to: Square, promote: bool) -> bool {
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        let role = if promote {
            piece.role.promote().unwrap_or(piece.role)
        } else {
            piece.role
        };
        let after = (self.occupied() & !Bitboard::from_square(from)) | Bitboard::from_square(to);
        attacks(self.side, role, to, after | self.variant.masks().offboard).contains(k)
    }

    /// [`Position::gives_check_fast`] with the opponent's king on `k`.
    #[inline(always)]
    fn gives_check_to(&self, k: Square, m: Move) -> bool {
        let us = self.side;
        let occ = self.occupied();
        let offboard = self.variant.masks().offboard;
        match m {
            Move::Drop { role, to } => {
                let after = occ | Bitboard::from_square(to);
                attacks(us, role, to, after | offboard).contains(k)
            }
            Move::Normal { from, to, promote } => {
                // The moved piece itself, from its new square; or a discovered check: one of
                // our other pieces reaches the king once `from` is empty (a captured piece on
                // `to` was the opponent's).
                self.moved_piece_checks(k, from, to, promote) || {
                    let after = (occ & !Bitboard::from_square(from)) | Bitboard::from_square(to);
                    self.attackers_to(k, us, after).any()
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testgen::random_positions;
    use crate::{Move, Position};

    /// Asserts that [`Position::for_each_check`] gives the legal moves filtered by
    /// `gives_check` (made and tested), in the same order; returns them.
    fn assert_checks_match(p: &Position) -> Vec<Move> {
        let slow: Vec<Move> = p
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| p.gives_check(*m))
            .collect();
        let mut fast = Vec::new();
        p.for_each_check(|m| fast.push(m));
        assert_eq!(slow, fast, "{}", p.to_sfen());
        fast
    }

    /// The check generator against the legal moves filtered by `gives_check` (made and
    /// tested), in every position of random games biased towards checks.
    #[test]
    fn checks_equal_filtered_legal_moves_in_random_games() {
        let (mut checks, mut discovered, mut drops, mut promotions) = (0, 0, 0, 0);
        for p in random_positions(60, 0x5EED_0002) {
            let fast = assert_checks_match(&p);
            for m in &fast {
                checks += 1;
                match *m {
                    Move::Drop { .. } => drops += 1,
                    Move::Normal { to, promote, .. } => {
                        promotions += usize::from(promote);
                        // The moved piece does not attack the king from `to`: discovered.
                        let mut q = p.clone();
                        q.play_unchecked(*m);
                        if !q.checkers().contains(to) || q.checkers().more_than_one() {
                            discovered += 1;
                        }
                    }
                }
            }
        }
        assert!(
            checks > 2000 && discovered > 20 && drops > 500 && promotions > 100,
            "{checks} {discovered} {drops} {promotions}"
        );
    }

    /// The legal moves filtered by `gives_check` (made and tested) against the fast test, on
    /// positions with drops, promotions, discovered checks and Mini Shogi.
    #[test]
    fn fast_checks_equal_made_checks() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "4k4/9/4G4/4p4/9/4R4/9/1B7/4K4 b GSNLP2p 1",
            "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP3+P1L/9/4+PsPSk/6G1g b 2rb2nl3p 1523",
            "ln1g3nl/1r1s1kg2/p1pppp1pp/6p2/1p5P1/2P6/PPBPPPP1P/2G4R1/LNS1KGSNL b BSp 1",
            "8k/9/6B2/9/4R1L2/9/9/9/K8 b RGSNLP 1",
            "k8/1P7/2B6/9/9/9/9/9/4K3R b GN2L 1",
            "rbsgk/4p/5/P4/KGSBR b - 1",
            "2k2/5/2R2/5/K4 b BGSP 1",
            "4k4/9/9/9/4L4/4r4/9/4B4/4K4 w GS 1",
        ];
        let mut total = 0;
        let mut valid = 0;
        for sfen in sfens {
            let Ok(start) = Position::from_sfen_with(sfen, crate::SetupOptions::TSUME) else {
                continue;
            };
            valid += 1;
            // The position and the positions two plies on.
            let mut positions = vec![start.clone()];
            for m in start.legal_moves().iter().take(40) {
                let mut p = start.clone();
                p.play_unchecked(*m);
                for r in p.legal_moves().iter().take(10) {
                    let mut q = p.clone();
                    q.play_unchecked(*r);
                    positions.push(q);
                }
            }
            for p in positions {
                let slow = assert_checks_match(&p);
                for m in p.legal_moves().iter() {
                    assert_eq!(
                        p.gives_check(*m),
                        p.gives_check_fast(*m),
                        "{} {m:?}",
                        p.to_sfen()
                    );
                }
                total += slow.len();
            }
        }
        assert!(valid >= 7, "only {valid} valid positions");
        assert!(total > 1000, "only {total} checks seen");
    }
}

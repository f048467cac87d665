//! Receivers of generated moves: a counter (perft's bulk count), a visitor, a filter by
//! target square.

use crate::bitboard::{
    Bitboard, bishop_pseudo_attacks, gold_attacks, king_attacks, knight_attacks,
    lance_pseudo_attacks, pawn_attacks, rook_pseudo_attacks, silver_attacks,
};
use crate::moves::Move;
use crate::types::{Color, Role, Square};

/// Receives the legal moves in bundles: one source square with its target squares.
pub(crate) trait Sink {
    /// A piece on `from` may move without promoting to `plain` and with promotion to `promo`.
    fn normal(&mut self, from: Square, plain: Bitboard, promo: Bitboard);
    /// A piece of `role` may be dropped on every square of `targets`.
    fn drops(&mut self, role: Role, targets: Bitboard);
    /// A piece of each of `roles` may be dropped on every square of `targets`.
    #[inline(always)]
    fn drops_each(&mut self, roles: &[Role], targets: Bitboard) {
        for &role in roles {
            self.drops(role, targets);
        }
    }
    /// Pawns of `color` may push one rank forward onto each square of `plain` without
    /// promoting and of `promo` with promotion.
    fn pawn_pushes(&mut self, color: Color, plain: Bitboard, promo: Bitboard);
    /// Whether the moves of the king on `k` are wanted (a sink that would drop them all says
    /// no, and the generator skips finding its safe squares).
    #[inline(always)]
    fn wants_king_moves(&self, _k: Square) -> bool {
        true
    }
    /// The squares whose pieces of `role` (a pawn, lance, knight, silver, bishop, rook, horse
    /// or dragon, or `Gold` for every gold-like piece; the king is asked by
    /// [`Sink::wants_king_moves`]) may have wanted moves: a sink that would drop the moves of
    /// the others says so, and the generator skips them (pinned pieces are always asked).
    /// Every square by default.
    #[inline(always)]
    fn movers(&self, _role: Role) -> Bitboard {
        Bitboard::FULL
    }
    /// The squares that moves and drops may land on for this sink: a sink that would drop
    /// the moves to the others says so, and the generator never makes them. Every square by
    /// default.
    #[inline(always)]
    fn targets(&self) -> Bitboard {
        Bitboard::FULL
    }
}

/// Counts moves without a popcount per bundle: the target sets are summed square by square in
/// bit-sliced counters (planes of weight 1, 2, 4), and only the planes are counted at the end
/// (popcount is slow without a POPCNT instruction in the baseline target).
#[derive(Default)]
pub(super) struct Counter {
    pub(super) total: u64,
    pub(super) ones: u128,
    pub(super) twos: u128,
    pub(super) fours: u128,
}

impl Counter {
    /// Adds a carry of weight 2 to the planes above `ones`.
    #[inline(always)]
    fn carry(&mut self, c: u128) {
        let c4 = self.twos & c;
        self.twos ^= c;
        let c8 = self.fours & c4;
        self.fours ^= c4;
        if c8 != 0 {
            self.total += 8 * c8.count_ones() as u64;
        }
    }

    /// Adds every square of `a` and of `b` once.
    #[inline(always)]
    fn add2(&mut self, a: Bitboard, b: Bitboard) {
        let u = self.ones ^ a.0;
        let c = (self.ones & a.0) | (u & b.0);
        self.ones = u ^ b.0;
        self.carry(c);
    }

    /// Adds every square of `a` once.
    #[inline(always)]
    fn add1(&mut self, a: Bitboard) {
        let c = self.ones & a.0;
        self.ones ^= a.0;
        self.carry(c);
    }

    #[inline(always)]
    pub(super) fn finish(&self) -> u64 {
        self.total
            + self.ones.count_ones() as u64
            + 2 * self.twos.count_ones() as u64
            + 4 * self.fours.count_ones() as u64
    }
}

impl Sink for Counter {
    #[inline(always)]
    fn normal(&mut self, _from: Square, plain: Bitboard, promo: Bitboard) {
        self.add2(plain, promo);
    }
    #[inline(always)]
    fn drops(&mut self, _role: Role, targets: Bitboard) {
        self.add1(targets);
    }
    #[inline(always)]
    fn drops_each(&mut self, roles: &[Role], targets: Bitboard) {
        self.total += roles.len() as u64 * targets.count() as u64;
    }
    #[inline(always)]
    fn pawn_pushes(&mut self, _color: Color, plain: Bitboard, promo: Bitboard) {
        self.add2(plain, promo);
    }
}

pub(super) struct Visit<F>(pub(super) F);

impl<F: FnMut(Move)> Sink for Visit<F> {
    #[inline(always)]
    fn normal(&mut self, from: Square, plain: Bitboard, promo: Bitboard) {
        each_normal(from, plain, promo, &mut self.0);
    }
    #[inline(always)]
    fn drops(&mut self, role: Role, targets: Bitboard) {
        for to in targets {
            (self.0)(Move::Drop { role, to });
        }
    }
    #[inline(always)]
    fn pawn_pushes(&mut self, color: Color, plain: Bitboard, promo: Bitboard) {
        each_pawn_push(color, plain, promo, &mut self.0);
    }
}

/// Calls `f` with each move of a bundle from `from`: to `plain` without promotion, then to
/// `promo` with it.
#[inline(always)]
pub(super) fn each_normal(from: Square, plain: Bitboard, promo: Bitboard, mut f: impl FnMut(Move)) {
    for to in plain {
        f(Move::Normal {
            from,
            to,
            promote: false,
        });
    }
    for to in promo {
        f(Move::Normal {
            from,
            to,
            promote: true,
        });
    }
}

/// [`each_normal`] for pawn pushes of `color`: each move starts one rank behind its target.
#[inline(always)]
pub(super) fn each_pawn_push(
    color: Color,
    plain: Bitboard,
    promo: Bitboard,
    mut f: impl FnMut(Move),
) {
    let back = |to: Square| {
        Square::from_index_unchecked(match color {
            Color::Black => to.index() + 1,
            Color::White => to.index() - 1,
        })
    };
    for to in plain {
        f(Move::Normal {
            from: back(to),
            to,
            promote: false,
        });
    }
    for to in promo {
        f(Move::Normal {
            from: back(to),
            to,
            promote: true,
        });
    }
}

/// Passes on only the moves that land on one square, and tells the generator which pieces
/// can reach it, so that it makes no others.
pub(super) struct OnlyTo<'a, S: Sink> {
    /// The square.
    pub(super) to: Square,
    /// The square as a set.
    pub(super) mask: Bitboard,
    /// The side to move's opponent: a piece of the side to move reaches `to` from where a
    /// piece of the same role of the opponent on `to` would reach.
    pub(super) them: Color,
    /// Only the moves of pieces of this role on the board and the drops of it, when given.
    pub(super) role: Option<Role>,
    /// The squares of the side to move's pieces of `role` (every square when no role is).
    pub(super) sources: Bitboard,
    pub(super) inner: &'a mut S,
}

impl<S: Sink> OnlyTo<'_, S> {
    /// Whether moves and drops of `role` are wanted.
    #[inline(always)]
    fn wants(&self, role: Role) -> bool {
        self.role.is_none_or(|r| r == role)
    }
}

impl<S: Sink> Sink for OnlyTo<'_, S> {
    #[inline(always)]
    fn wants_king_moves(&self, k: Square) -> bool {
        self.wants(Role::King) && king_attacks(k).contains(self.to)
    }
    #[inline(always)]
    fn movers(&self, role: Role) -> Bitboard {
        // The generator asks `Gold` for every gold-like piece.
        let group = |r: Role| match r {
            Role::Tokin | Role::PromotedLance | Role::PromotedKnight | Role::PromotedSilver => {
                Role::Gold
            }
            r => r,
        };
        if self.role.is_some_and(|r| group(r) != role) {
            return Bitboard::EMPTY;
        }
        // Every square a piece of the role could reach `to` from on an empty board (the
        // lance's whole file behind it): the pieces found there are then asked as usual.
        let (them, to) = (self.them, self.to);
        self.sources
            & match role {
                Role::Pawn => pawn_attacks(them, to),
                Role::Lance => lance_pseudo_attacks(them, to),
                Role::Knight => knight_attacks(them, to),
                Role::Silver => silver_attacks(them, to),
                Role::Gold => gold_attacks(them, to),
                Role::Bishop => bishop_pseudo_attacks(to),
                Role::Rook => rook_pseudo_attacks(to),
                Role::Horse => bishop_pseudo_attacks(to) | king_attacks(to),
                Role::Dragon => rook_pseudo_attacks(to) | king_attacks(to),
                _ => Bitboard::FULL,
            }
    }
    #[inline(always)]
    fn targets(&self) -> Bitboard {
        self.mask
    }
    #[inline(always)]
    fn normal(&mut self, from: Square, plain: Bitboard, promo: Bitboard) {
        // (A pinned piece or the king is not sorted out by `movers`.)
        if !self.sources.contains(from) {
            return;
        }
        let (plain, promo) = (plain & self.mask, promo & self.mask);
        if plain.any() || promo.any() {
            self.inner.normal(from, plain, promo);
        }
    }
    #[inline(always)]
    fn drops(&mut self, role: Role, targets: Bitboard) {
        let t = targets & self.mask;
        if t.any() && self.wants(role) {
            self.inner.drops(role, t);
        }
    }
    #[inline(always)]
    fn pawn_pushes(&mut self, color: Color, plain: Bitboard, promo: Bitboard) {
        let (plain, promo) = (plain & self.mask, promo & self.mask);
        if (plain.any() || promo.any()) && self.wants(Role::Pawn) {
            self.inner.pawn_pushes(color, plain, promo);
        }
    }
}

//! `Position`: a legal position with legal move generation, play, check and outcome.

use crate::bitboard::{
    Bitboard, attacks, between, bishop_attacks, bishop_pseudo_attacks, file_fill, gold_attacks,
    king_attacks, king_regions, knight_attacks, lance_attacks, lance_pseudo_attacks, line,
    pawn_attacks, pawn_pushes, rook_attacks, rook_pseudo_attacks, silver_attacks,
};
use crate::hand::Hand;
use crate::moves::{Move, MoveList};
use crate::setup::{Setup, SetupError, SetupOptions, SetupProblem};
use crate::sfen::{SfenError, SfenField};
use crate::types::{Color, Piece, Role, Square, Variant};
use crate::zobrist;
use std::fmt;

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

static STANDARD_MASKS: VariantMasks = VariantMasks {
    board: Bitboard::FULL,
    offboard: Bitboard::EMPTY,
    zone: [Bitboard(ranks(1, 3)), Bitboard(ranks(7, 9))],
    last1: [Bitboard(ranks(1, 1)), Bitboard(ranks(9, 9))],
    last2: [Bitboard(ranks(1, 2)), Bitboard(ranks(8, 9))],
    promo_from: promo_from([ranks(1, 3), ranks(7, 9)]),
};

const MINI_BOARD: u128 = files(1, 5) & ranks(1, 5);

static MINI_MASKS: VariantMasks = VariantMasks {
    board: Bitboard(MINI_BOARD),
    offboard: Bitboard(Bitboard::FULL.0 & !MINI_BOARD),
    zone: [
        Bitboard(ranks(1, 1) & MINI_BOARD),
        Bitboard(ranks(5, 5) & MINI_BOARD),
    ],
    last1: [
        Bitboard(ranks(1, 1) & MINI_BOARD),
        Bitboard(ranks(5, 5) & MINI_BOARD),
    ],
    last2: [
        Bitboard(ranks(1, 2) & MINI_BOARD),
        Bitboard(ranks(4, 5) & MINI_BOARD),
    ],
    promo_from: promo_from([ranks(1, 1) & MINI_BOARD, ranks(5, 5) & MINI_BOARD]),
};

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

/// Why a move may not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayError {
    /// A square of the move is not on this variant's board.
    OffBoard,
    /// The source square is empty.
    NoPiece,
    /// The piece on the source square belongs to the opponent.
    NotYourPiece,
    /// The destination holds one of the mover's own pieces.
    OwnPieceOnTarget,
    /// The piece does not move that way.
    CannotMoveThere,
    /// A sliding piece's path is blocked.
    PathBlocked,
    /// The move leaves (or puts) the mover's king in check.
    LeavesKingInCheck,
    /// A pawn dropped on a file that already holds an unpromoted pawn of the mover (nifu).
    Nifu,
    /// A pawn drop that mates at once (uchifuzume).
    PawnDropMate,
    /// The piece would stand where it could never move again (without promoting).
    DeadPiece,
    /// The role to drop is not in the mover's hand.
    NotInHand,
    /// A drop on an occupied square.
    DropOnOccupied,
    /// The role cannot be dropped (a king or a promoted role).
    NotDroppable,
    /// The piece cannot promote (gold, king, already promoted), or the move does not touch the zone.
    PromotionNotAllowed,
    /// The piece must promote here (it could never move again otherwise).
    PromotionRequired,
    /// The game is already over.
    GameOver,
}

impl PlayError {
    /// A short English explanation.
    pub const fn message(self) -> &'static str {
        match self {
            PlayError::OffBoard => "square off the board",
            PlayError::NoPiece => "no piece on the source square",
            PlayError::NotYourPiece => "the piece belongs to the opponent",
            PlayError::OwnPieceOnTarget => "the destination holds the mover's own piece",
            PlayError::CannotMoveThere => "the piece does not move that way",
            PlayError::PathBlocked => "the path is blocked",
            PlayError::LeavesKingInCheck => "the move leaves the king in check",
            PlayError::Nifu => "two unpromoted pawns on one file (nifu)",
            PlayError::PawnDropMate => "pawn drop that mates (uchifuzume)",
            PlayError::DeadPiece => "the piece could never move again (dead piece)",
            PlayError::NotInHand => "the piece is not in hand",
            PlayError::DropOnOccupied => "drop on an occupied square",
            PlayError::NotDroppable => "that piece cannot be dropped",
            PlayError::PromotionNotAllowed => "promotion not allowed",
            PlayError::PromotionRequired => "promotion required",
            PlayError::GameOver => "the game is over",
        }
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for PlayError {}

/// How a game ended, as the position alone shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is in check and has no legal move.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move is not in check but has no legal move: it loses.
    NoLegalMoves {
        /// The other side.
        winner: Color,
    },
    /// Four-fold repetition without perpetual check: a draw.
    Repetition,
    /// Four-fold repetition where one side gave check with every move of the cycle: it loses.
    PerpetualCheck {
        /// The side that did not check.
        winner: Color,
    },
}

impl Outcome {
    /// The winner, `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner }
            | Outcome::NoLegalMoves { winner }
            | Outcome::PerpetualCheck { winner } => Some(winner),
            Outcome::Repetition => None,
        }
    }
}

/// A legal shogi or Mini Shogi position.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 14],
    hands: [Hand; 2],
    side: Color,
    move_number: u32,
    key: u64,
    variant: Variant,
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

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
}

/// Counts moves without a popcount per bundle: the target sets are summed square by square in
/// bit-sliced counters (planes of weight 1, 2, 4), and only the planes are counted at the end
/// (popcount is slow without a POPCNT instruction in the baseline target).
#[derive(Default)]
struct Counter {
    total: u64,
    ones: u128,
    twos: u128,
    fours: u128,
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
    fn finish(&self) -> u64 {
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

struct Visit<F>(F);

impl<F: FnMut(Move)> Sink for Visit<F> {
    #[inline(always)]
    fn normal(&mut self, from: Square, plain: Bitboard, promo: Bitboard) {
        for to in plain {
            (self.0)(Move::Normal {
                from,
                to,
                promote: false,
            });
        }
        for to in promo {
            (self.0)(Move::Normal {
                from,
                to,
                promote: true,
            });
        }
    }
    #[inline(always)]
    fn drops(&mut self, role: Role, targets: Bitboard) {
        for to in targets {
            (self.0)(Move::Drop { role, to });
        }
    }
    #[inline(always)]
    fn pawn_pushes(&mut self, color: Color, plain: Bitboard, promo: Bitboard) {
        let back = |to: Square| {
            Square::from_index_unchecked(match color {
                Color::Black => to.index() + 1,
                Color::White => to.index() - 1,
            })
        };
        for to in plain {
            (self.0)(Move::Normal {
                from: back(to),
                to,
                promote: false,
            });
        }
        for to in promo {
            (self.0)(Move::Normal {
                from: back(to),
                to,
                promote: true,
            });
        }
    }
}

impl Position {
    /// The start position of the variant.
    pub fn startpos(variant: Variant) -> Position {
        match Position::from_sfen(variant.start_sfen()) {
            Ok(p) => p,
            Err(_) => unreachable!("start SFENs are valid"),
        }
    }

    /// Parses and validates an SFEN (a leading `sfen ` is accepted). The variant comes from the
    /// board's shape. Illegal setups are refused with every problem named; see
    /// [`Position::from_setup`] to relax the checks.
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        Position::from_sfen_with(sfen, SetupOptions::default())
    }

    /// Parses an SFEN and validates it with the given relaxations.
    pub fn from_sfen_with(sfen: &str, options: SetupOptions) -> Result<Position, SfenError> {
        let setup = Setup::from_sfen(sfen)?;
        Position::from_setup(setup, options).map_err(|e| SfenError {
            field: SfenField::Position,
            position: 0,
            message: e.to_string(),
            setup: Some(e),
        })
    }

    /// A playable position from a setup as record files give them: by the rules first, then
    /// with the tsume relaxations ([`SetupOptions::TSUME`]: missing king, extra pieces), then
    /// as a puzzle diagram ([`SetupOptions::PERMISSIVE`]: nifu and dead pieces too). The
    /// second value names the rules a puzzle diagram breaks; the error is the permissive one.
    pub fn from_setup_relaxed(setup: Setup) -> Result<(Position, Option<SetupError>), SetupError> {
        if let Ok(p) = Position::from_setup(setup.clone(), SetupOptions::default()) {
            return Ok((p, None));
        }
        match Position::from_setup(setup.clone(), SetupOptions::TSUME) {
            Ok(p) => Ok((p, None)),
            Err(broken) => {
                Position::from_setup(setup, SetupOptions::PERMISSIVE).map(|p| (p, Some(broken)))
            }
        }
    }

    /// Validates a setup. Every problem is named in the error.
    pub fn from_setup(setup: Setup, options: SetupOptions) -> Result<Position, SetupError> {
        let variant = setup.variant;
        let masks = variant.masks();
        let mut problems = Vec::new();
        let mut pos = Position {
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 14],
            hands: setup.hands,
            side: setup.side_to_move,
            move_number: setup.move_number.max(1),
            key: 0,
            variant,
        };
        let mut counts = [0u32; 8];
        let mut kings = [0u32; 2];
        let mut bad_roles = [false; 14];
        for sq in Square::all() {
            let Some(piece) = setup.board[sq.index()] else {
                continue;
            };
            if !masks.board.contains(sq) {
                problems.push(SetupProblem::OffBoard(sq));
                continue;
            }
            if !variant.has_role(piece.role) && !bad_roles[piece.role.unpromote().index()] {
                bad_roles[piece.role.unpromote().index()] = true;
                problems.push(SetupProblem::RoleNotInVariant(piece.role.unpromote()));
            }
            if piece.role == Role::King {
                kings[piece.color.index()] += 1;
            }
            counts[piece.role.unpromote().index()] += 1;
            let dead = match piece.role {
                Role::Pawn | Role::Lance => masks.last1[piece.color.index()].contains(sq),
                Role::Knight => masks.last2[piece.color.index()].contains(sq),
                _ => false,
            };
            if dead && !options.allow_dead_pieces {
                problems.push(SetupProblem::DeadPiece { square: sq, piece });
            }
            pos.put(sq, piece);
        }
        for color in Color::ALL {
            for role in Role::HAND {
                let n = setup.hands[color.index()].count(role);
                if n > 0 && !variant.has_role(role) && !bad_roles[role.index()] {
                    bad_roles[role.index()] = true;
                    problems.push(SetupProblem::RoleNotInVariant(role));
                }
                counts[role.index()] += n as u32;
            }
        }
        for color in Color::ALL {
            match kings[color.index()] {
                0 if !options.allow_missing_king => problems.push(SetupProblem::MissingKing(color)),
                0 | 1 => {}
                _ => problems.push(SetupProblem::ExtraKing(color)),
            }
        }
        for color in Color::ALL {
            let pawns = pos.pieces(color, Role::Pawn);
            for file in 1..=9 {
                if !options.allow_nifu && (pawns & Bitboard::file(file)).more_than_one() {
                    problems.push(SetupProblem::Nifu { color, file });
                }
            }
        }
        if !options.allow_extra_pieces {
            for role in Role::HAND {
                let max = variant.set_count(role);
                if counts[role.index()] > max as u32 && variant.has_role(role) {
                    problems.push(SetupProblem::TooManyPieces {
                        role,
                        count: counts[role.index()],
                        max,
                    });
                }
            }
        }
        for color in Color::ALL {
            pos.key = pos
                .key
                .wrapping_add(hand_key(color, &setup.hands[color.index()]));
        }
        if pos.side == Color::White {
            pos.key = pos.key.wrapping_add(zobrist::WHITE_TO_MOVE);
        }
        let them = pos.side.opposite();
        if kings[them.index()] == 1 {
            if let Some(k) = pos.king_square(them) {
                if pos.attackers_to(k, pos.side, pos.occupied()).any() {
                    problems.push(SetupProblem::OpponentInCheck(them));
                }
            }
        }
        if problems.is_empty() {
            Ok(pos)
        } else {
            Err(SetupError { problems })
        }
    }

    /// The setup of this position (for editing).
    pub fn to_setup(&self) -> Setup {
        Setup {
            variant: self.variant,
            board: self.board,
            hands: self.hands,
            side_to_move: self.side,
            move_number: self.move_number,
        }
    }

    /// The SFEN text (hands in R B G S N L P order).
    pub fn to_sfen(&self) -> String {
        crate::sfen::write(
            self.variant,
            &self.board,
            &self.hands,
            self.side,
            self.move_number,
        )
    }

    /// The variant.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The SFEN move number (number of the next move; 1 at the start).
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Sets the SFEN move number.
    pub fn set_move_number(&mut self, n: u32) {
        self.move_number = n.max(1);
    }

    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// A side's hand.
    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    /// The Zobrist key of board, hands and side to move (not the move number).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key computed from scratch (equal to [`Position::key`]; for tests).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0u64;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                k = k.wrapping_add(zobrist::PIECE_SQUARE[p.index()][sq.index()]);
            }
        }
        for c in Color::ALL {
            k = k.wrapping_add(hand_key(c, &self.hands[c.index()]));
        }
        if self.side == Color::White {
            k = k.wrapping_add(zobrist::WHITE_TO_MOVE);
        }
        k
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of a colour's pieces.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of a role's pieces (both colours).
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// The square of `color`'s king, if it has one.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.pieces(color, Role::King).first()
    }

    #[inline(always)]
    fn golds(&self) -> Bitboard {
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
        let steppers = (pawn_attacks(defender, sq) & r[Role::Pawn as usize])
            | (knight_attacks(defender, sq) & r[Role::Knight as usize])
            | (silver_attacks(defender, sq) & r[Role::Silver as usize])
            | (gold_attacks(defender, sq) & self.golds())
            | (king_attacks(sq)
                & (r[Role::King as usize] | r[Role::Horse as usize] | r[Role::Dragon as usize]));
        if (steppers & theirs).any() {
            return true;
        }
        let snipers = theirs
            & ((rook_pseudo_attacks(sq) & (r[Role::Rook as usize] | r[Role::Dragon as usize]))
                | (bishop_pseudo_attacks(sq)
                    & (r[Role::Bishop as usize] | r[Role::Horse as usize]))
                | (lance_pseudo_attacks(defender, sq) & r[Role::Lance as usize]));
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
        match self.king_square(self.side) {
            Some(k) => self.attackers_to(k, !self.side, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// The pieces of `color` pinned to its king (on `king`) by opposing sliders.
    #[inline]
    fn pinned(&self, color: Color, king: Square, occ: Bitboard) -> Bitboard {
        let them = self.by_color[(!color).index()];
        let r = &self.by_role;
        let snipers = them
            & ((rook_pseudo_attacks(king) & (r[Role::Rook as usize] | r[Role::Dragon as usize]))
                | (bishop_pseudo_attacks(king)
                    & (r[Role::Bishop as usize] | r[Role::Horse as usize]))
                | (lance_pseudo_attacks(color, king) & r[Role::Lance as usize]));
        let ours = self.by_color[color.index()];
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = between(king, s) & occ;
            if b.any() && !b.more_than_one() && (b & ours).any() {
                pinned |= b;
            }
        }
        pinned
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
    fn pawn_drop_mates(&self, to: Square) -> bool {
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

    /// The opponent pieces giving check to `us`'s king on `k`, and `us`'s pieces pinned to it.
    #[inline(always)]
    fn checkers_and_pinned(&self, us: Color, k: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
        let theirs = self.by_color[(!us).index()];
        let r = &self.by_role;
        let steppers = (pawn_attacks(us, k) & r[Role::Pawn as usize])
            | (knight_attacks(us, k) & r[Role::Knight as usize])
            | (silver_attacks(us, k) & r[Role::Silver as usize])
            | (gold_attacks(us, k) & self.golds())
            | (king_attacks(k)
                & (r[Role::King as usize] | r[Role::Horse as usize] | r[Role::Dragon as usize]));
        let mut checkers = steppers & theirs;
        let snipers = theirs
            & ((rook_pseudo_attacks(k) & (r[Role::Rook as usize] | r[Role::Dragon as usize]))
                | (bishop_pseudo_attacks(k)
                    & (r[Role::Bishop as usize] | r[Role::Horse as usize]))
                | (lance_pseudo_attacks(us, k) & r[Role::Lance as usize]));
        let ours = self.by_color[us.index()];
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = between(k, s) & occ;
            if b.is_empty() {
                checkers.insert(s);
            } else if !b.more_than_one() {
                pinned |= b & ours;
            }
        }
        (checkers, pinned)
    }

    /// The squares around `us`'s king on `k` (among `candidates`) that no opponent piece
    /// attacks once the king has left `k`.
    #[inline(always)]
    fn safe_king_squares(&self, us: Color, k: Square, candidates: Bitboard) -> Bitboard {
        let theirs = self.by_color[(!us).index()];
        let r = &self.by_role;
        let mut rooks = theirs & (r[Role::Rook as usize] | r[Role::Dragon as usize]);
        let mut bishops = theirs & (r[Role::Bishop as usize] | r[Role::Horse as usize]);
        let mut lances = theirs & r[Role::Lance as usize];
        if self.variant == Variant::Standard {
            // Only pieces that could reach the king's surroundings matter; often there are
            // none on the big board (on the Mini Shogi board there nearly always are).
            let [step_region, rook_region, bishop_region, lance_region] = king_regions(us, k);
            rooks &= rook_region;
            bishops &= bishop_region;
            lances &= lance_region;
            if (theirs & step_region).is_empty() && (rooks | bishops | lances).is_empty() {
                return candidates;
            }
        }
        let pawns = theirs & r[Role::Pawn as usize];
        let knights = theirs & r[Role::Knight as usize];
        let silvers = theirs & r[Role::Silver as usize];
        let golds = theirs & self.golds();
        let kings =
            theirs & (r[Role::King as usize] | r[Role::Horse as usize] | r[Role::Dragon as usize]);
        let occ = self.occupied() ^ Bitboard::from_square(k);
        let mut safe = Bitboard::EMPTY;
        for to in candidates {
            let steppers = (pawn_attacks(us, to) & pawns)
                | (knight_attacks(us, to) & knights)
                | (silver_attacks(us, to) & silvers)
                | (gold_attacks(us, to) & golds)
                | (king_attacks(to) & kings);
            if steppers.any() {
                continue;
            }
            let snipers = (rook_pseudo_attacks(to) & rooks)
                | (bishop_pseudo_attacks(to) & bishops)
                | (lance_pseudo_attacks(us, to) & lances);
            let mut hit = false;
            for s in snipers {
                if (between(to, s) & occ).is_empty() {
                    hit = true;
                    break;
                }
            }
            if !hit {
                safe.insert(to);
            }
        }
        safe
    }

    /// Generates the legal moves into a sink, in bundles.
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
        let mut move_mask = avail;
        let mut drop_mask = masks.board & !occ;
        // The king square for pin lines (never read when nothing is pinned).
        let mut ksq = Square::from_index_unchecked(0);
        if let Some(k) = king {
            ksq = k;
            let (checkers, pins) = self.checkers_and_pinned(us, k, occ);
            let safe = self.safe_king_squares(us, k, king_attacks(k) & avail);
            if safe.any() {
                sink.normal(k, safe, Bitboard::EMPTY);
            }
            if let Some(c) = checkers.first() {
                if checkers.more_than_one() {
                    return;
                }
                let b = between(k, c);
                move_mask &= b | checkers;
                drop_mask = b;
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
        let t = pawn_pushes(us, pawns & free) & move_mask;
        if t.any() {
            sink.pawn_pushes(us, t & !last1, t & zone);
        }
        for from in free & r[Role::Lance as usize] {
            let t = lance_attacks(us, from, occ_s) & move_mask;
            if t.any() {
                sink.normal(from, t & !last1, t & zone);
            }
        }
        for from in free & r[Role::Knight as usize] {
            let t = knight_attacks(us, from) & move_mask;
            if t.any() {
                sink.normal(from, t & !last2, t & zone);
            }
        }
        // Silvers, bishops and rooks promote on any move that starts or ends in the zone.
        let promo_from = &masks.promo_from[us.index()];
        for from in free & r[Role::Silver as usize] {
            let t = silver_attacks(us, from) & move_mask;
            if t.any() {
                sink.normal(from, t, t & promo_from[from.index()]);
            }
        }
        for from in free & self.golds() {
            let t = gold_attacks(us, from) & move_mask;
            if t.any() {
                sink.normal(from, t, Bitboard::EMPTY);
            }
        }
        for from in free & r[Role::Bishop as usize] {
            let t = bishop_attacks(from, occ_s) & move_mask;
            if t.any() {
                sink.normal(from, t, t & promo_from[from.index()]);
            }
        }
        for from in free & r[Role::Rook as usize] {
            let t = rook_attacks(from, occ_s) & move_mask;
            if t.any() {
                sink.normal(from, t, t & promo_from[from.index()]);
            }
        }
        for from in free & r[Role::Horse as usize] {
            let t = (bishop_attacks(from, occ_s) | king_attacks(from)) & move_mask;
            if t.any() {
                sink.normal(from, t, Bitboard::EMPTY);
            }
        }
        for from in free & r[Role::Dragon as usize] {
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
    #[inline(always)]
    fn check_move_inline(&self, m: Move) -> Result<(), PlayError> {
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
                if !attacks(us, piece.role, from, occ_s).contains(to) {
                    let empty = attacks(us, piece.role, from, masks.offboard);
                    return Err(if empty.contains(to) {
                        PlayError::PathBlocked
                    } else {
                        PlayError::CannotMoveThere
                    });
                }
                let zone = masks.zone[us.index()];
                if promote {
                    if !piece.role.can_promote() || !(zone.contains(from) || zone.contains(to)) {
                        return Err(PlayError::PromotionNotAllowed);
                    }
                } else {
                    let dead = match piece.role {
                        Role::Pawn | Role::Lance => masks.last1[us.index()].contains(to),
                        Role::Knight => masks.last2[us.index()].contains(to),
                        _ => false,
                    };
                    if dead {
                        return Err(PlayError::PromotionRequired);
                    }
                }
                if let Some(k) = self.king_square(us) {
                    // King safety without making the move: the board after it differs only on
                    // `from` (vacated) and `to` (now ours; a captured piece attacks nothing).
                    let occ = self.occupied();
                    let to_bb = Bitboard::from_square(to);
                    let attacked = if piece.role == Role::King {
                        self.attacked_with(to, !us, occ ^ Bitboard::from_square(from), to_bb)
                    } else {
                        let after = (occ ^ Bitboard::from_square(from)) | to_bb;
                        self.attacked_with(k, !us, after, to_bb)
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
                let dead = match role {
                    Role::Pawn | Role::Lance => masks.last1[us.index()].contains(to),
                    Role::Knight => masks.last2[us.index()].contains(to),
                    _ => false,
                };
                if dead {
                    return Err(PlayError::DeadPiece);
                }
                if role == Role::Pawn
                    && (self.pieces(us, Role::Pawn) & Bitboard::file(to.file())).any()
                {
                    return Err(PlayError::Nifu);
                }
                if let Some(k) = self.king_square(us) {
                    let occ = self.occupied() | Bitboard::from_square(to);
                    if self.attacked_with(k, !us, occ, Bitboard::EMPTY) {
                        return Err(PlayError::LeavesKingInCheck);
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

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Plays `m` if it is legal; otherwise leaves the position unchanged and says why.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        self.check_move_inline(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move known to be legal (for example one from [`Position::legal_moves`]).
    ///
    /// An illegal move leaves the position in an unspecified (but memory-safe) state.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        debug_assert!(self.check_move(m).is_ok(), "illegal move {m:?} in {self:?}");
        self.do_move(m);
    }

    #[inline(always)]
    fn do_move(&mut self, m: Move) {
        let us = self.side;
        match m {
            Move::Normal { from, to, promote } => {
                let Some(piece) = self.board[from.index()] else {
                    return;
                };
                if let Some(captured) = self.board[to.index()] {
                    self.remove(to, captured);
                    let base = captured.role.unpromote();
                    if base.is_hand_role() {
                        self.hands[us.index()].add(base);
                        self.key = self
                            .key
                            .wrapping_add(zobrist::HAND[us.index()][base as usize]);
                    }
                }
                self.remove(from, piece);
                let role = if promote {
                    piece.role.promote().unwrap_or(piece.role)
                } else {
                    piece.role
                };
                self.put(to, Piece::new(us, role));
            }
            Move::Drop { role, to } => {
                if self.hands[us.index()].take(role) {
                    self.key = self
                        .key
                        .wrapping_sub(zobrist::HAND[us.index()][role as usize]);
                }
                self.put(to, Piece::new(us, role));
            }
        }
        if us == Color::Black {
            self.key = self.key.wrapping_add(zobrist::WHITE_TO_MOVE);
        } else {
            self.key = self.key.wrapping_sub(zobrist::WHITE_TO_MOVE);
        }
        self.side = !us;
        self.move_number = self.move_number.saturating_add(1);
    }

    /// Passes the turn without a move (for analysis; not a legal shogi move).
    pub fn swap_turn(&mut self) {
        if self.side == Color::Black {
            self.key = self.key.wrapping_add(zobrist::WHITE_TO_MOVE);
        } else {
            self.key = self.key.wrapping_sub(zobrist::WHITE_TO_MOVE);
        }
        self.side = !self.side;
    }

    /// Whether `m` (legal here) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut p = self.clone();
        p.play_unchecked(m);
        p.is_check()
    }

    #[inline(always)]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color.index()].insert(sq);
        self.by_role[piece.role.index()].insert(sq);
        self.key = self
            .key
            .wrapping_add(zobrist::PIECE_SQUARE[piece.index()][sq.index()]);
    }

    #[inline(always)]
    fn remove(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = None;
        self.by_color[piece.color.index()].remove(sq);
        self.by_role[piece.role.index()].remove(sq);
        self.key = self
            .key
            .wrapping_sub(zobrist::PIECE_SQUARE[piece.index()][sq.index()]);
    }
}

fn hand_key(color: Color, hand: &Hand) -> u64 {
    let mut k = 0u64;
    for role in Role::HAND {
        k = k.wrapping_add(
            zobrist::HAND[color.index()][role as usize].wrapping_mul(hand.count(role) as u64),
        );
    }
    k
}

/// Passes on only the moves that land on one square.
struct OnlyTo<'a, S: Sink> {
    mask: Bitboard,
    inner: &'a mut S,
}

impl<S: Sink> Sink for OnlyTo<'_, S> {
    #[inline(always)]
    fn normal(&mut self, from: Square, plain: Bitboard, promo: Bitboard) {
        let (plain, promo) = (plain & self.mask, promo & self.mask);
        if plain.any() || promo.any() {
            self.inner.normal(from, plain, promo);
        }
    }
    #[inline(always)]
    fn drops(&mut self, role: Role, targets: Bitboard) {
        let t = targets & self.mask;
        if t.any() {
            self.inner.drops(role, t);
        }
    }
    #[inline(always)]
    fn pawn_pushes(&mut self, color: Color, plain: Bitboard, promo: Bitboard) {
        let (plain, promo) = (plain & self.mask, promo & self.mask);
        if plain.any() || promo.any() {
            self.inner.pawn_pushes(color, plain, promo);
        }
    }
}

impl Position {
    /// The legal moves that land on `to` (for resolving written moves such as KI2's).
    pub fn legal_moves_to(&self, to: Square) -> MoveList {
        let mut list = MoveList::new();
        let mut visit = Visit(|m| list.push(m));
        self.generate(&mut OnlyTo {
            mask: Bitboard::from_square(to),
            inner: &mut visit,
        });
        list
    }
}

//! `Position`: a legal position with legal move generation, play, check and outcome.
//!
//! Layout: this module holds the position, its construction, accessors and play; `masks` the
//! per-variant bitboard masks; `sink` the receivers of generated moves (counting, visiting,
//! filtering by target); `movegen` attacks, pins, legal move generation and move checking.

use crate::bitboard::Bitboard;
use crate::hand::Hand;
use crate::moves::Move;
use crate::setup::{Setup, SetupError, SetupOptions, SetupProblem};
use crate::sfen::{SfenError, SfenField};
use crate::types::{Color, Piece, Role, Square, Variant};
use crate::zobrist;
use std::fmt;

mod checks;
mod evasions;
#[cfg(test)]
mod legality_tests;
mod masks;
mod movegen;
mod sink;
#[cfg(test)]
mod testgen;

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
///
/// Comparing positions: `==` is structural (variant, board, hands, side to move **and** the
/// move number); [`Position::same_position`] is repetition-equivalence (the move number
/// aside), the comparison of sennichite and of a position search. `Hash` hashes the Zobrist
/// [`Position::key`] only (board, hands, side to move), so it agrees with both: a `HashSet` of
/// positions holds structurally different ones, and a map keyed by `key()` whose entries are
/// confirmed with `same_position` finds repetitions. Compare positions this way, never by
/// their SFEN text.
///
/// `Display` prints the SFEN and `FromStr` reads one (as [`Position::from_sfen`]).
///
/// ```
/// use shogi_core::{Move, Position, Variant};
///
/// let start = Position::startpos(Variant::Standard);
/// let mut pos = start.clone();
/// for m in ["5i5h", "5a5b", "5h5i", "5b5a"] {
///     pos.play(m.parse::<Move>()?)?;
/// }
/// assert!(pos.same_position(&start)); // the same position again ...
/// assert_ne!(pos, start); // ... four moves later
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    /// The opponent pieces giving check to the side to move (empty without a king): a cache,
    /// a function of the fields above kept up to date by every change, so `==` is unchanged.
    /// Move checking reads it to skip the king-safety test when a move cannot expose the king.
    checkers: Bitboard,
    /// Whether the side not to move is in check: never after a move or a validated setup,
    /// only after [`Position::swap_turn`] from a check (a cache like `checkers`).
    opponent_in_check: bool,
    /// Each side's king square (`None` without one, as in tsume setups): a cache like
    /// `checkers`, read by move checking and generation on every move.
    kings: [Option<Square>; 2],
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
    // About 100 lines: one list of checks, each naming its problem, read top to bottom.
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
            checkers: Bitboard::EMPTY,
            opponent_in_check: false,
            kings: [None; 2],
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
            let dead = masks.dead[piece.color.index()][piece.role.index()].contains(sq);
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
        pos.kings = Color::ALL.map(|c| pos.pieces(c, Role::King).first());
        (pos.checkers, pos.opponent_in_check) = pos.check_state();
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

    /// Whether `other` is the same position for repetition: the same variant, board, hands
    /// and side to move, whatever the move numbers (see the type's docs).
    #[inline]
    pub fn same_position(&self, other: &Position) -> bool {
        self.key == other.key
            && self.variant == other.variant
            && self.side == other.side
            && self.hands == other.hands
            && self.board == other.board
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
        self.kings[color.index()]
    }
}

impl Position {
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
        // The occupancy after the move, from the one before it: `from` empties (a capture
        // leaves `to` occupied), `to` fills.
        let mut occ = self.occupied();
        match m {
            Move::Normal { from, to, .. } => {
                occ.remove(from);
                occ.insert(to);
            }
            Move::Drop { to, .. } => occ.insert(to),
        }
        // The piece that moved (or was dropped), where it stands now and where it came from.
        let (role, from, to) = match m {
            Move::Normal { from, to, promote } => {
                let Some(piece) = self.board[from.index()] else {
                    return;
                };
                if let Some(captured) = self.board[to.index()] {
                    self.remove(to, captured);
                    if captured.role == Role::King {
                        // Only in a position where the side not to move is in check.
                        self.kings[(!us).index()] = None;
                    }
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
                if role == Role::King {
                    self.kings[us.index()] = Some(to);
                }
                (role, Some(from), to)
            }
            Move::Drop { role, to } => {
                if self.hands[us.index()].take(role) {
                    self.key = self
                        .key
                        .wrapping_sub(zobrist::HAND[us.index()][role as usize]);
                }
                self.put(to, Piece::new(us, role));
                (role, None, to)
            }
        };
        if us == Color::Black {
            self.key = self.key.wrapping_add(zobrist::WHITE_TO_MOVE);
        } else {
            self.key = self.key.wrapping_sub(zobrist::WHITE_TO_MOVE);
        }
        self.side = !us;
        self.move_number = self.move_number.saturating_add(1);
        self.checkers = if self.opponent_in_check {
            // Only after `swap_turn` from a check: the side now to move was in check before
            // the move, so the checks the move gives are not all of them.
            self.attackers_to_king(!us)
        } else {
            self.checks_given(us, role, from, to, occ)
        };
        // A legal move never leaves the mover in check.
        self.opponent_in_check = false;
    }

    /// Passes the turn without a move (for analysis; not a legal shogi move).
    pub fn swap_turn(&mut self) {
        if self.side == Color::Black {
            self.key = self.key.wrapping_add(zobrist::WHITE_TO_MOVE);
        } else {
            self.key = self.key.wrapping_sub(zobrist::WHITE_TO_MOVE);
        }
        self.opponent_in_check = self.checkers.any();
        self.side = !self.side;
        self.checkers = self.attackers_to_king(self.side);
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

//! A set of squares as a 128-bit integer (bits 0..81, file-major), and attack tables built at
//! compile time.

use crate::types::{Color, Role, Square};

/// The one-square sets, indexed by square (128 entries so that an index masked with 127
/// needs no bounds check; the entries past 80 are never read).
static SQUARE_BITS: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 81 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// A set of squares. Bit `i` is the square with index `i` (`(file - 1) * 9 + rank - 1`).
///
/// The representation is private to the crate; use the methods, the set operators and the
/// iterator over its squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u128);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << 81) - 1);

    /// The whole line (rank, file or diagonal) through `a` and `b`, or empty when they share
    /// none.
    #[inline(always)]
    pub fn line(a: Square, b: Square) -> Bitboard {
        line(a, b)
    }

    /// The set holding one square.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Whether the set holds `sq`.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds more than one square.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                self.0.trailing_zeros() as usize
            ))
        }
    }

    /// [`Bitboard::from_square`], looked up: a 128-bit shift by a variable amount takes
    /// several instructions, a load from this table one or two (for the hot paths).
    #[inline(always)]
    pub(crate) fn square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BITS[sq.index() & 127])
    }

    /// Adds a square.
    #[inline(always)]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= Bitboard::square(sq).0;
    }

    /// Removes a square.
    #[inline(always)]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !Bitboard::square(sq).0;
    }

    /// Toggles a square.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= Bitboard::square(sq).0;
    }

    /// The squares of one file (1..=9).
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x1ffu128 << ((file as usize - 1) * 9))
    }

    /// The squares of one rank (1..=9).
    pub const fn rank(rank: u8) -> Bitboard {
        let mut b = 0u128;
        let mut f = 0;
        while f < 9 {
            b |= 1u128 << (f * 9 + rank as usize - 1);
            f += 1;
        }
        Bitboard(b)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index_unchecked(self.0.trailing_zeros() as usize);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

macro_rules! bitops {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl std::ops::$tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl std::ops::$tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitops!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bitops!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bitops!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

// ---------------------------------------------------------------------------------------------
// Compile-time tables.

/// Step (dx = file delta, dy = rank delta) seen from Black; dy = -1 is forward for Black.
const PAWN_STEPS: &[(i8, i8)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i8, i8)] = &[(-1, -2), (1, -2)];
const SILVER_STEPS: &[(i8, i8)] = &[(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_STEPS: &[(i8, i8)] = &[(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_STEPS: &[(i8, i8)] = &[
    (0, -1),
    (-1, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (0, 1),
    (-1, 1),
    (1, 1),
];

const fn offset(sq: usize, dx: i8, dy: i8) -> Option<usize> {
    let f = (sq / 9) as i32 + dx as i32;
    let r = (sq % 9) as i32 + dy as i32;
    if f >= 0 && f < 9 && r >= 0 && r < 9 {
        Some((f * 9 + r) as usize)
    } else {
        None
    }
}

const fn steps_table(steps: &[(i8, i8)]) -> [[u128; 81]; 2] {
    let mut t = [[0u128; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            let mut b = 0u128;
            let mut i = 0;
            while i < steps.len() {
                let (dx, dy) = steps[i];
                let dy = if c == 0 { dy } else { -dy };
                let dx = if c == 0 { dx } else { -dx };
                if let Some(to) = offset(sq, dx, dy) {
                    b |= 1u128 << to;
                }
                i += 1;
            }
            t[c][sq] = b;
            sq += 1;
        }
        c += 1;
    }
    t
}

/// Direction deltas (dx, dy) for the eight rays: N, S, E, W, NE, SW, NW, SE (N = toward rank 1,
/// E = toward file 1). Opposite directions are paired: `d ^ 1` is the opposite of `d`.
const DIRS: [(i8, i8); 8] = [
    (0, -1),
    (0, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
];
/// Whether each direction walks towards higher indices.
const DIR_POSITIVE: [bool; 8] = [false, true, false, true, false, true, true, false];
// Index deltas: N -1, S +1, E -9, W +9, NE -10, SW +10, NW +8, SE -8.
pub(crate) const N: usize = 0;
pub(crate) const S: usize = 1;
const E: usize = 2;
const W: usize = 3;
const NE: usize = 4;
const SW: usize = 5;
const NW: usize = 6;
const SE: usize = 7;

const fn rays_table() -> [[u128; 81]; 8] {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let mut b = 0u128;
            let mut cur = sq;
            while let Some(n) = offset(cur, DIRS[d].0, DIRS[d].1) {
                b |= 1u128 << n;
                cur = n;
            }
            t[d][sq] = b;
            sq += 1;
        }
        d += 1;
    }
    t
}

pub(crate) static PAWN_ATTACKS: [[u128; 81]; 2] = steps_table(PAWN_STEPS);
pub(crate) static KNIGHT_ATTACKS: [[u128; 81]; 2] = steps_table(KNIGHT_STEPS);
pub(crate) static SILVER_ATTACKS: [[u128; 81]; 2] = steps_table(SILVER_STEPS);
pub(crate) static GOLD_ATTACKS: [[u128; 81]; 2] = steps_table(GOLD_STEPS);
pub(crate) static KING_ATTACKS: [u128; 81] = steps_table(KING_STEPS)[0];
pub(crate) static RAYS: [[u128; 81]; 8] = rays_table();

const fn between_line_tables() -> ([[u128; 81]; 81], [[u128; 81]; 81]) {
    let rays = rays_table();
    let mut between = [[0u128; 81]; 81];
    let mut line = [[0u128; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            // Walk along direction d from a; each square b on it gets between = squares
            // strictly between, line = the whole line through a and b.
            let opposite = d ^ 1;
            let full_line = rays[d][a] | rays[opposite][a] | (1u128 << a);
            let mut acc = 0u128;
            let mut cur = a;
            while let Some(n) = offset(cur, DIRS[d].0, DIRS[d].1) {
                between[a][n] = acc;
                line[a][n] = full_line;
                acc |= 1u128 << n;
                cur = n;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static BETWEEN_LINE: ([[u128; 81]; 81], [[u128; 81]; 81]) = between_line_tables();

/// For each pair of squares, 1 + the direction from the first to the second when they share a
/// rank, file or diagonal, else 0: one byte where `line` would read sixteen.
const fn direction_table() -> [[u8; 81]; 81] {
    let mut t = [[0u8; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let mut cur = a;
            while let Some(n) = offset(cur, DIRS[d].0, DIRS[d].1) {
                t[a][n] = d as u8 + 1;
                cur = n;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

static DIRECTION: [[u8; 81]; 81] = direction_table();

/// Which way `b` lies from `a`: 0 when they share no rank, file or diagonal, else a number
/// (1 to 8) that is the same for exactly the squares on the same ray from `a`.
#[inline(always)]
pub fn direction(a: Square, b: Square) -> u8 {
    DIRECTION[a.index()][b.index()]
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.0[a.index()][b.index()])
}

/// The whole line (rank, file or diagonal) through `a` and `b`, or empty when they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.1[a.index()][b.index()])
}

#[inline(always)]
fn ray_positive(d: usize, sq: usize, occ: u128) -> u128 {
    let r = RAYS[d][sq];
    let b = r & occ;
    if b == 0 {
        r
    } else {
        r ^ RAYS[d][b.trailing_zeros() as usize]
    }
}

#[inline(always)]
fn ray_negative(d: usize, sq: usize, occ: u128) -> u128 {
    let r = RAYS[d][sq];
    let b = r & occ;
    if b == 0 {
        r
    } else {
        r ^ RAYS[d][127 - b.leading_zeros() as usize]
    }
}

const _: () = {
    // The positive/negative split must match the index deltas, and opposites must pair up.
    let mut d = 0;
    while d < 8 {
        let delta = DIRS[d].0 as i32 * 9 + DIRS[d].1 as i32;
        assert!((delta > 0) == DIR_POSITIVE[d]);
        let o = DIRS[d ^ 1];
        assert!(o.0 == -DIRS[d].0 && o.1 == -DIRS[d].1);
        d += 1;
    }
};

/// The squares seen from `sq` along the rays `negative` (towards lower indices) and
/// `positive`, each up to and including its first occupied square: a slider's attacks.
#[inline(always)]
fn slide(sq: Square, occ: Bitboard, negative: [usize; 2], positive: [usize; 2]) -> Bitboard {
    let (s, o) = (sq.index(), occ.0);
    Bitboard(
        ray_negative(negative[0], s, o)
            | ray_positive(positive[0], s, o)
            | ray_negative(negative[1], s, o)
            | ray_positive(positive[1], s, o),
    )
}

/// Squares a rook on `sq` attacks given the occupied squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    slide(sq, occ, [N, E], [S, W])
}

/// Squares a bishop on `sq` attacks given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    slide(sq, occ, [NE, SE], [NW, SW])
}

/// Squares a lance of `color` on `sq` attacks given the occupied squares.
#[inline(always)]
pub fn lance_attacks(color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match color {
        Color::Black => Bitboard(ray_negative(N, sq.index(), occ.0)),
        Color::White => Bitboard(ray_positive(S, sq.index(), occ.0)),
    }
}

/// Squares a lance of `color` on `sq` would attack on an empty board.
#[inline(always)]
pub fn lance_pseudo_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(RAYS[if color == Color::Black { N } else { S }][sq.index()])
}

const fn pseudo_table(dirs: [usize; 4]) -> [u128; 81] {
    let rays = rays_table();
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = rays[dirs[0]][sq] | rays[dirs[1]][sq] | rays[dirs[2]][sq] | rays[dirs[3]][sq];
        sq += 1;
    }
    t
}

static ROOK_PSEUDO: [u128; 81] = pseudo_table([N, S, E, W]);
static BISHOP_PSEUDO: [u128; 81] = pseudo_table([NE, SW, NW, SE]);

/// Squares a rook would attack from `sq` on an empty board.
#[inline(always)]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    Bitboard(ROOK_PSEUDO[sq.index()])
}

/// Squares a bishop would attack from `sq` on an empty board.
#[inline(always)]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    Bitboard(BISHOP_PSEUDO[sq.index()])
}

/// For each colour, square and role, the squares a piece of that colour and role there
/// attacks on an empty board: steps and whole rays. A piece attacks a square of its set
/// exactly when nothing stands strictly between them (steps have nothing between).
const fn role_pseudo_table() -> [[[u128; 14]; 81]; 2] {
    let rays = rays_table();
    let pawn = steps_table(PAWN_STEPS);
    let knight = steps_table(KNIGHT_STEPS);
    let silver = steps_table(SILVER_STEPS);
    let gold = steps_table(GOLD_STEPS);
    let king = steps_table(KING_STEPS)[0];
    let rook = pseudo_table([N, S, E, W]);
    let bishop = pseudo_table([NE, SW, NW, SE]);
    let mut t = [[[0u128; 14]; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            let r = &mut t[c][sq];
            r[Role::Pawn as usize] = pawn[c][sq];
            r[Role::Lance as usize] = rays[if c == 0 { N } else { S }][sq];
            r[Role::Knight as usize] = knight[c][sq];
            r[Role::Silver as usize] = silver[c][sq];
            r[Role::Gold as usize] = gold[c][sq];
            r[Role::Bishop as usize] = bishop[sq];
            r[Role::Rook as usize] = rook[sq];
            r[Role::King as usize] = king[sq];
            r[Role::Tokin as usize] = gold[c][sq];
            r[Role::PromotedLance as usize] = gold[c][sq];
            r[Role::PromotedKnight as usize] = gold[c][sq];
            r[Role::PromotedSilver as usize] = gold[c][sq];
            r[Role::Horse as usize] = bishop[sq] | king[sq];
            r[Role::Dragon as usize] = rook[sq] | king[sq];
            sq += 1;
        }
        c += 1;
    }
    t
}

/// By colour, square, then role (the tests' oracle for [`pseudo_reaches`]).
#[cfg(test)]
static ROLE_PSEUDO: [[[u128; 14]; 81]; 2] = role_pseudo_table();

/// A square's place on a board seventeen squares wide (rank * 17 + file, from 0): the
/// difference of two squares' places names the step between them, with no wrap at the
/// edges.
const fn wide_place(sq: usize) -> usize {
    (sq % 9) * 17 + sq / 9
}

/// [`wide_place`] of every square.
static WIDE: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = wide_place(sq) as u8;
        sq += 1;
    }
    t
};

/// The offset that makes a difference of [`wide_place`]s an index from 0.
const WIDE_CENTRE: usize = 8 * 17 + 8;

/// For each step between two squares (a difference of [`wide_place`]s plus
/// [`WIDE_CENTRE`]), the colours and roles that make it on an empty board: bit
/// `colour * 14 + role`. The same relation as `pseudo_attacks` (a piece's moves do not
/// depend on where it stands, only on where the board ends, and both squares are on it), in
/// 1.2 KB instead of 36 KB.
static ROLE_STEPS: [u32; 2 * WIDE_CENTRE + 1] = {
    let pseudo = role_pseudo_table();
    let mut t = [0u32; 2 * WIDE_CENTRE + 1];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 81 {
            let mut role = 0;
            while role < 14 {
                let mut set = pseudo[c][from][role];
                while set != 0 {
                    let to = set.trailing_zeros() as usize;
                    set &= set - 1;
                    t[wide_place(to) + WIDE_CENTRE - wide_place(from)] |= 1 << (c * 14 + role);
                }
                role += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
};

/// Whether a piece of `color` and `role` on `from` attacks `to` on an empty board:
/// `pseudo_attacks(color, role, from).contains(to)`, from a table small enough to stay in
/// the nearest cache.
#[inline(always)]
pub fn pseudo_reaches(color: Color, role: Role, from: Square, to: Square) -> bool {
    let step = usize::from(WIDE[to.index()]) + WIDE_CENTRE - usize::from(WIDE[from.index()]);
    ROLE_STEPS[step] >> (color.index() * 14 + role.index()) & 1 != 0
}

/// Squares a piece of `color` and `role` on `sq` would attack on an empty board. It attacks
/// such a square `t` when `between(sq, t)` holds no piece.
#[cfg(test)]
pub fn pseudo_attacks(color: Color, role: Role, sq: Square) -> Bitboard {
    Bitboard(ROLE_PSEUDO[color.index()][sq.index()][role.index()])
}

/// A region table per colour: for every king square `k`, the union of `from[colour][sq]` over
/// `k` and the squares next to it.
const fn region_table(from: &[[u128; 81]; 2]) -> [[u128; 81]; 2] {
    let king = steps_table(KING_STEPS)[0];
    let mut t = [[0u128; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 81 {
            let mut around = king[k] | (1u128 << k);
            while around != 0 {
                let sq = around.trailing_zeros() as usize;
                around &= around - 1;
                t[c][k] |= from[c][sq];
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// For each colour and king square: the squares from which a stepping piece (pawn, knight,
/// silver, gold-like, king) of the other colour could attack the king's square or a square next
/// to it. A king with no enemy piece there needs no stepper test for its moves.
const fn step_region_table() -> [[u128; 81]; 2] {
    let pawn = steps_table(PAWN_STEPS);
    let knight = steps_table(KNIGHT_STEPS);
    let silver = steps_table(SILVER_STEPS);
    let gold = steps_table(GOLD_STEPS);
    let king = steps_table(KING_STEPS)[0];
    // An enemy stepper attacks `sq` from the squares our own piece of that kind would attack
    // from `sq`.
    let mut steppers = [[0u128; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            steppers[c][sq] = pawn[c][sq] | knight[c][sq] | silver[c][sq] | gold[c][sq] | king[sq];
            sq += 1;
        }
        c += 1;
    }
    region_table(&steppers)
}

/// For each square: the union of the rook (with `dirs` = rook directions) or bishop pseudo
/// attacks of the square and its neighbours.
const fn slider_region_table(dirs: [usize; 4]) -> [u128; 81] {
    let pseudo = pseudo_table(dirs);
    region_table(&[pseudo, pseudo])[0]
}

/// For each colour and square: the union of that colour's lance pseudo attacks of the square
/// and its neighbours.
const fn lance_region_table() -> [[u128; 81]; 2] {
    let rays = rays_table();
    region_table(&[rays[N], rays[S]])
}

static STEP_REGION: [[u128; 81]; 2] = step_region_table();
static ROOK_REGION: [u128; 81] = slider_region_table([N, S, E, W]);
static BISHOP_REGION: [u128; 81] = slider_region_table([NE, SW, NW, SE]);
static LANCE_REGION: [[u128; 81]; 2] = lance_region_table();

/// For each colour, kind of mover (pawn, lance, knight, silver, gold-like) and king square:
/// the squares from which such a piece of that colour could give check to the other colour's
/// king there with one move, promoting or not (a superset: lances on an empty board, and
/// promotion allowed everywhere). A piece outside them checks only by uncovering a check.
const fn check_from_table() -> [[[u128; 81]; 5]; 2] {
    let pawn = steps_table(PAWN_STEPS);
    let knight = steps_table(KNIGHT_STEPS);
    let silver = steps_table(SILVER_STEPS);
    let gold = steps_table(GOLD_STEPS);
    let rays = rays_table();
    let mut t = [[[0u128; 81]; 5]; 2];
    let mut c = 0;
    while c < 2 {
        let o = 1 - c;
        // Black's pieces move towards lower ranks (N), White's towards higher ones (S).
        let (ahead, behind) = if c == 0 { (N, S) } else { (S, N) };
        let mut k = 0;
        while k < 81 {
            // Our piece of a kind attacks `k` from the squares the other side's piece of that
            // kind attacks from `k`; a promoting piece may also land where a gold would.
            let g = gold[o][k];
            let targets = [
                pawn[o][k] | g,
                rays[behind][k] | g,
                knight[o][k] | g,
                silver[o][k] | g,
                g,
            ];
            let mut from = 0;
            while from < 81 {
                let moves = [
                    pawn[c][from],
                    rays[ahead][from],
                    knight[c][from],
                    silver[c][from],
                    gold[c][from],
                ];
                let mut kind = 0;
                while kind < 5 {
                    if moves[kind] & targets[kind] != 0 {
                        t[c][kind][k] |= 1u128 << from;
                    }
                    kind += 1;
                }
                from += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

static CHECK_FROM: [[[u128; 81]; 5]; 2] = check_from_table();

/// The squares from which a pawn, lance, knight, silver and gold-like piece of `color` could
/// give check to the opposing king on `k` with one move (see [`check_from_table`]).
#[inline(always)]
pub(crate) fn check_from(color: Color, k: Square) -> [Bitboard; 5] {
    let t = &CHECK_FROM[color.index()];
    let i = k.index();
    [
        Bitboard(t[0][i]),
        Bitboard(t[1][i]),
        Bitboard(t[2][i]),
        Bitboard(t[3][i]),
        Bitboard(t[4][i]),
    ]
}

/// Where opposing pieces could stand to attack the king of `color` on `sq` or a square next to
/// it: (steppers, rook-likes, bishop-likes, lances).
#[inline(always)]
pub(crate) fn king_regions(color: Color, sq: Square) -> [Bitboard; 4] {
    let (c, s) = (color.index(), sq.index());
    [
        Bitboard(STEP_REGION[c][s]),
        Bitboard(ROOK_REGION[s]),
        Bitboard(BISHOP_REGION[s]),
        Bitboard(LANCE_REGION[c][s]),
    ]
}

/// Bit 8 (rank 9) of every file segment.
const RANK9_BITS: u128 = Bitboard::rank(9).0;
/// Bits 0..8 (ranks 1..=8) of every file segment.
const LOW8_BITS: u128 = Bitboard::FULL.0 & !RANK9_BITS;

/// Every file that holds a square of `b`, as a set of whole files.
#[inline(always)]
pub fn file_fill(b: Bitboard) -> Bitboard {
    // Per 9-bit file segment: adding 0xff to the low eight bits carries into bit 8 exactly when
    // one of them is set, and no segment carries into the next.
    let x = b.0 & Bitboard::FULL.0;
    let top = (((x & LOW8_BITS) + LOW8_BITS) | x) & RANK9_BITS;
    Bitboard(top | (top - (top >> 8)))
}

/// The squares one rank forward (for `color`) of every square of `b` that is not on `color`'s
/// last rank: the pushes of a set of pawns.
#[inline(always)]
pub fn pawn_pushes(color: Color, b: Bitboard) -> Bitboard {
    match color {
        Color::Black => Bitboard((b.0 & !Bitboard::rank(1).0) >> 1),
        Color::White => Bitboard((b.0 & !RANK9_BITS) << 1),
    }
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index()])
}

/// Squares a gold (or tokin, promoted lance, knight, silver) of `color` on `sq` attacks.
#[inline(always)]
pub fn gold_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(GOLD_ATTACKS[color.index()][sq.index()])
}

/// Squares a silver of `color` on `sq` attacks.
#[inline(always)]
pub fn silver_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(SILVER_ATTACKS[color.index()][sq.index()])
}

/// Squares a knight of `color` on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[color.index()][sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color.index()][sq.index()])
}

/// Squares a piece of `color` and `role` on `sq` attacks given the occupied squares.
///
/// On the Mini Shogi board pass an occupancy that includes the squares off the 5x5 board, so
/// that sliders stop at its edge, and intersect the result with the board.
#[inline]
pub fn attacks(color: Color, role: Role, sq: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Lance => lance_attacks(color, sq, occ),
        Role::Knight => knight_attacks(color, sq),
        Role::Silver => silver_attacks(color, sq),
        Role::Gold
        | Role::Tokin
        | Role::PromotedLance
        | Role::PromotedKnight
        | Role::PromotedSilver => gold_attacks(color, sq),
        Role::Bishop => bishop_attacks(sq, occ),
        Role::Rook => rook_attacks(sq, occ),
        Role::King => king_attacks(sq),
        Role::Horse => bishop_attacks(sq, occ) | king_attacks(sq),
        Role::Dragon => rook_attacks(sq, occ) | king_attacks(sq),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::from_usi(s).unwrap()
    }

    #[test]
    fn pseudo_attacks_are_the_empty_board_attacks_with_nothing_between() {
        for color in [Color::Black, Color::White] {
            for role in Role::ALL {
                for from in Square::all() {
                    let set = pseudo_attacks(color, role, from);
                    assert_eq!(set, attacks(color, role, from, Bitboard::EMPTY));
                    for to in set {
                        // Every square of the set is reached when nothing stands between.
                        let occ = Bitboard::FULL & !between(from, to);
                        assert!(attacks(color, role, from, occ).contains(to));
                    }
                }
            }
        }
    }

    #[test]
    fn pseudo_reaches_is_the_empty_board_relation() {
        // The step table gives what the per-square sets give, for every pair of squares.
        for color in [Color::Black, Color::White] {
            for role in Role::ALL {
                for a in Square::all() {
                    for b in Square::all() {
                        assert_eq!(
                            pseudo_reaches(color, role, a, b),
                            pseudo_attacks(color, role, a).contains(b),
                            "{color:?} {role:?} {a:?} {b:?}"
                        );
                        // `checks_given` reads `between` by the king's square.
                        assert_eq!(between(a, b), between(b, a), "{a:?} {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_direction_is_a_ray() {
        for a in Square::all() {
            for b in Square::all() {
                let d = direction(a, b);
                assert_eq!(d != 0, line(a, b).any(), "{a:?} {b:?}");
                for c in Square::all() {
                    // Same non-zero direction: one of b and c lies between a and the other.
                    let same_ray = between(a, b).contains(c)
                        || between(a, c).contains(b)
                        || (b == c && d != 0);
                    assert_eq!(
                        d != 0 && d == direction(a, c),
                        same_ray,
                        "{a:?} {b:?} {c:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_square_table_is_the_shifted_bit() {
        for sq in Square::all() {
            assert_eq!(Bitboard::square(sq), Bitboard::from_square(sq));
            let mut b = Bitboard::EMPTY;
            b.insert(sq);
            assert_eq!(b, Bitboard::from_square(sq));
            b.toggle(sq);
            assert!(b.is_empty());
            let mut full = Bitboard::FULL;
            full.remove(sq);
            assert_eq!(full.count(), 80);
            assert!(!full.contains(sq));
        }
    }

    #[test]
    fn rook_stops_at_blockers() {
        let occ = Bitboard::from_square(sq("5c")) | Bitboard::from_square(sq("2e"));
        let a = rook_attacks(sq("5e"), occ);
        assert!(a.contains(sq("5d")) && a.contains(sq("5c")) && !a.contains(sq("5b")));
        assert!(a.contains(sq("2e")) && !a.contains(sq("1e")));
        assert!(a.contains(sq("9e")) && a.contains(sq("5i")));
        assert_eq!(a.count(), 2 + 4 + 3 + 4);
    }

    #[test]
    fn file_fill_and_pawn_pushes() {
        for bits in [0u128, 1, 1 << 8, 1 << 80, 0x1ff << 27, (1 << 40) | (1 << 3)] {
            let b = Bitboard(bits);
            let mut want = Bitboard::EMPTY;
            for s in b {
                want |= Bitboard::file(s.file());
            }
            assert_eq!(file_fill(b), want);
        }
        let p = Bitboard::from_square(sq("7g")) | Bitboard::from_square(sq("1a"));
        assert_eq!(
            pawn_pushes(Color::Black, p),
            Bitboard::from_square(sq("7f"))
        );
        let p = Bitboard::from_square(sq("7c")) | Bitboard::from_square(sq("9i"));
        assert_eq!(
            pawn_pushes(Color::White, p),
            Bitboard::from_square(sq("7d"))
        );
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("1a"), sq("9i")).count(), 7);
        assert_eq!(between(sq("1a"), sq("2c")).count(), 0);
        assert!(line(sq("5e"), sq("5a")).contains(sq("5i")));
        assert!(line(sq("5e"), sq("4c")).is_empty());
    }

    #[test]
    fn knight_and_lance_directions() {
        assert_eq!(
            knight_attacks(Color::Black, sq("5e")),
            Bitboard::from_square(sq("4c")) | Bitboard::from_square(sq("6c"))
        );
        assert_eq!(
            knight_attacks(Color::White, sq("5e")),
            Bitboard::from_square(sq("4g")) | Bitboard::from_square(sq("6g"))
        );
        assert_eq!(
            lance_attacks(Color::Black, sq("1i"), Bitboard::EMPTY).count(),
            8
        );
        assert_eq!(
            lance_attacks(Color::White, sq("1i"), Bitboard::EMPTY).count(),
            0
        );
    }
}

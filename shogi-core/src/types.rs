//! Vocabulary: colours, squares, roles, pieces and variants.

use std::fmt;

/// A side. `Black` is sente (moves first in an even game), `White` is gote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Sente (先手), uppercase in SFEN, `+` in CSA, `b` to move in SFEN.
    Black = 0,
    /// Gote (後手), lowercase in SFEN, `-` in CSA, `w` to move in SFEN.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    #[inline(always)]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SFEN side-to-move letter: `b` or `w`.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// The CSA sign: `+` or `-`.
    pub const fn csa_char(self) -> char {
        match self {
            Color::Black => '+',
            Color::White => '-',
        }
    }

    /// Japanese name: 先手 or 後手.
    pub const fn japanese(self) -> &'static str {
        match self {
            Color::Black => "先手",
            Color::White => "後手",
        }
    }

    /// "sente" or "gote", for messages.
    pub const fn japanese_en(self) -> &'static str {
        match self {
            Color::Black => "sente",
            Color::White => "gote",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.opposite()
    }
}

/// A square of the 9x9 board, stored in one byte (file-major: `(file - 1) * 9 + (rank - 1)`).
///
/// Files count 1..=9 from sente's right; ranks 1..=9 (USI `a`..`i`) from gote's side.
/// Mini Shogi uses files 1..=5 and ranks 1..=5 of the same coordinates.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(Sq);

/// The 81 square indices as an enum, so that `Option<Square>` fits in one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[rustfmt::skip]
enum Sq { S0 = 0, S1 = 1, S2 = 2, S3 = 3, S4 = 4, S5 = 5, S6 = 6, S7 = 7, S8 = 8, S9 = 9, S10 = 10, S11 = 11, S12 = 12, S13 = 13, S14 = 14, S15 = 15, S16 = 16, S17 = 17, S18 = 18, S19 = 19, S20 = 20, S21 = 21, S22 = 22, S23 = 23, S24 = 24, S25 = 25, S26 = 26, S27 = 27, S28 = 28, S29 = 29, S30 = 30, S31 = 31, S32 = 32, S33 = 33, S34 = 34, S35 = 35, S36 = 36, S37 = 37, S38 = 38, S39 = 39, S40 = 40, S41 = 41, S42 = 42, S43 = 43, S44 = 44, S45 = 45, S46 = 46, S47 = 47, S48 = 48, S49 = 49, S50 = 50, S51 = 51, S52 = 52, S53 = 53, S54 = 54, S55 = 55, S56 = 56, S57 = 57, S58 = 58, S59 = 59, S60 = 60, S61 = 61, S62 = 62, S63 = 63, S64 = 64, S65 = 65, S66 = 66, S67 = 67, S68 = 68, S69 = 69, S70 = 70, S71 = 71, S72 = 72, S73 = 73, S74 = 74, S75 = 75, S76 = 76, S77 = 77, S78 = 78, S79 = 79, S80 = 80 }

#[rustfmt::skip]
const SQS: [Sq; 81] = [Sq::S0, Sq::S1, Sq::S2, Sq::S3, Sq::S4, Sq::S5, Sq::S6, Sq::S7, Sq::S8, Sq::S9, Sq::S10, Sq::S11, Sq::S12, Sq::S13, Sq::S14, Sq::S15, Sq::S16, Sq::S17, Sq::S18, Sq::S19, Sq::S20, Sq::S21, Sq::S22, Sq::S23, Sq::S24, Sq::S25, Sq::S26, Sq::S27, Sq::S28, Sq::S29, Sq::S30, Sq::S31, Sq::S32, Sq::S33, Sq::S34, Sq::S35, Sq::S36, Sq::S37, Sq::S38, Sq::S39, Sq::S40, Sq::S41, Sq::S42, Sq::S43, Sq::S44, Sq::S45, Sq::S46, Sq::S47, Sq::S48, Sq::S49, Sq::S50, Sq::S51, Sq::S52, Sq::S53, Sq::S54, Sq::S55, Sq::S56, Sq::S57, Sq::S58, Sq::S59, Sq::S60, Sq::S61, Sq::S62, Sq::S63, Sq::S64, Sq::S65, Sq::S66, Sq::S67, Sq::S68, Sq::S69, Sq::S70, Sq::S71, Sq::S72, Sq::S73, Sq::S74, Sq::S75, Sq::S76, Sq::S77, Sq::S78, Sq::S79, Sq::S80];

/// `SQS` padded to 128 entries, so that a lookup with `index & 127` needs no bounds check
/// (bit indices of a `u128` are below 128; the padding is never reached for real squares).
const SQS128: [Sq; 128] = {
    let mut t = [Sq::S0; 128];
    let mut i = 0;
    while i < 81 {
        t[i] = SQS[i];
        i += 1;
    }
    t
};

const FULLWIDTH_DIGITS: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const KANJI_DIGITS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

impl Square {
    /// Number of squares on the 9x9 board.
    pub const COUNT: usize = 81;

    /// The square at `file` (1..=9) and `rank` (1..=9), or `None` if either is out of range.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square(SQS[((file - 1) * 9 + (rank - 1)) as usize]))
        } else {
            None
        }
    }

    /// The square with the given index (0..81), or `None`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square(SQS[index]))
        } else {
            None
        }
    }

    /// The square with the given index; the caller guarantees `index < 81`.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < 81);
        Square(SQS128[index & 127])
    }

    /// The index (0..81): `(file - 1) * 9 + (rank - 1)`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    const fn byte(self) -> u8 {
        self.0 as u8
    }

    /// The file, 1..=9.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.byte() / 9 + 1
    }

    /// The rank, 1..=9 (1 is USI `a`, gote's back rank).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.byte() % 9 + 1
    }

    /// All 81 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        SQS.iter().map(|&s| Square(s))
    }

    /// The USI name, e.g. `7g`.
    pub fn usi(self) -> String {
        let mut s = String::with_capacity(2);
        s.push((b'0' + self.file()) as char);
        s.push((b'a' + self.rank() - 1) as char);
        s
    }

    /// The CSA name, e.g. `77`.
    pub fn csa(self) -> String {
        let mut s = String::with_capacity(2);
        s.push((b'0' + self.file()) as char);
        s.push((b'0' + self.rank()) as char);
        s
    }

    /// The Japanese name used in KIF and KI2, e.g. `７六`.
    pub fn japanese(self) -> String {
        let mut s = String::with_capacity(6);
        s.push_str(FULLWIDTH_DIGITS[self.file() as usize - 1]);
        s.push_str(KANJI_DIGITS[self.rank() as usize - 1]);
        s
    }

    /// Parses a USI square name (`7g`). Returns `None` unless it is exactly two valid bytes.
    pub fn from_usi(s: &str) -> Option<Square> {
        match s.as_bytes() {
            [f, r] => Square::from_usi_bytes(*f, *r),
            _ => None,
        }
    }

    /// Parses a USI square from its two bytes.
    pub const fn from_usi_bytes(f: u8, r: u8) -> Option<Square> {
        if f >= b'1' && f <= b'9' && r >= b'a' && r <= b'i' {
            Square::new(f - b'0', r - b'a' + 1)
        } else {
            None
        }
    }

    /// Parses a CSA square name (`77`); `00` (a drop's source) is not a square.
    pub fn from_csa(s: &str) -> Option<Square> {
        match s.as_bytes() {
            [f, r] if f.is_ascii_digit() && r.is_ascii_digit() => Square::new(f - b'0', r - b'0'),
            _ => None,
        }
    }
}

/// Writes one `Square::SQ_<file><RANK>` constant per square, named by its USI spelling.
macro_rules! square_constants {
    ($($name:ident = $file:literal $rank:literal),* $(,)?) => {
        /// One constant per square, named by its USI spelling in upper case: `Square::SQ_7G`
        /// is `7g` (file 7, rank 7, ７七); `Square::SQ_5A` is gote's king square.
        impl Square {
            $(
                #[doc = concat!("File ", stringify!($file), ", rank ", stringify!($rank), ".")]
                pub const $name: Square = Square(SQS[($file - 1) * 9 + ($rank - 1)]);
            )*
        }
    };
}

#[rustfmt::skip]
square_constants! {
    SQ_1A = 1 1, SQ_1B = 1 2, SQ_1C = 1 3, SQ_1D = 1 4, SQ_1E = 1 5, SQ_1F = 1 6, SQ_1G = 1 7, SQ_1H = 1 8, SQ_1I = 1 9,
    SQ_2A = 2 1, SQ_2B = 2 2, SQ_2C = 2 3, SQ_2D = 2 4, SQ_2E = 2 5, SQ_2F = 2 6, SQ_2G = 2 7, SQ_2H = 2 8, SQ_2I = 2 9,
    SQ_3A = 3 1, SQ_3B = 3 2, SQ_3C = 3 3, SQ_3D = 3 4, SQ_3E = 3 5, SQ_3F = 3 6, SQ_3G = 3 7, SQ_3H = 3 8, SQ_3I = 3 9,
    SQ_4A = 4 1, SQ_4B = 4 2, SQ_4C = 4 3, SQ_4D = 4 4, SQ_4E = 4 5, SQ_4F = 4 6, SQ_4G = 4 7, SQ_4H = 4 8, SQ_4I = 4 9,
    SQ_5A = 5 1, SQ_5B = 5 2, SQ_5C = 5 3, SQ_5D = 5 4, SQ_5E = 5 5, SQ_5F = 5 6, SQ_5G = 5 7, SQ_5H = 5 8, SQ_5I = 5 9,
    SQ_6A = 6 1, SQ_6B = 6 2, SQ_6C = 6 3, SQ_6D = 6 4, SQ_6E = 6 5, SQ_6F = 6 6, SQ_6G = 6 7, SQ_6H = 6 8, SQ_6I = 6 9,
    SQ_7A = 7 1, SQ_7B = 7 2, SQ_7C = 7 3, SQ_7D = 7 4, SQ_7E = 7 5, SQ_7F = 7 6, SQ_7G = 7 7, SQ_7H = 7 8, SQ_7I = 7 9,
    SQ_8A = 8 1, SQ_8B = 8 2, SQ_8C = 8 3, SQ_8D = 8 4, SQ_8E = 8 5, SQ_8F = 8 6, SQ_8G = 8 7, SQ_8H = 8 8, SQ_8I = 8 9,
    SQ_9A = 9 1, SQ_9B = 9 2, SQ_9C = 9 3, SQ_9D = 9 4, SQ_9E = 9 5, SQ_9F = 9 6, SQ_9G = 9 7, SQ_9H = 9 8, SQ_9I = 9 9,
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.usi())
    }
}

/// The kind of a piece, promoted or not (14 roles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// 歩 (P)
    Pawn = 0,
    /// 香 (L)
    Lance = 1,
    /// 桂 (N)
    Knight = 2,
    /// 銀 (S)
    Silver = 3,
    /// 金 (G)
    Gold = 4,
    /// 角 (B)
    Bishop = 5,
    /// 飛 (R)
    Rook = 6,
    /// 玉 (K)
    King = 7,
    /// と (+P)
    Tokin = 8,
    /// 成香 (+L)
    PromotedLance = 9,
    /// 成桂 (+N)
    PromotedKnight = 10,
    /// 成銀 (+S)
    PromotedSilver = 11,
    /// 馬 (+B)
    Horse = 12,
    /// 龍 (+R)
    Dragon = 13,
}

impl Role {
    /// All 14 roles in discriminant order.
    pub const ALL: [Role; 14] = [
        Role::Pawn,
        Role::Lance,
        Role::Knight,
        Role::Silver,
        Role::Gold,
        Role::Bishop,
        Role::Rook,
        Role::King,
        Role::Tokin,
        Role::PromotedLance,
        Role::PromotedKnight,
        Role::PromotedSilver,
        Role::Horse,
        Role::Dragon,
    ];

    /// The seven roles a hand can hold, in discriminant order (P L N S G B R): the first
    /// seven of [`Role::ALL`].
    pub const HAND: [Role; 7] = {
        let mut hand = [Role::Pawn; 7];
        let mut i = 0;
        while i < 7 {
            hand[i] = Role::ALL[i];
            i += 1;
        }
        hand
    };

    /// The hand roles in the conventional SFEN writing order (R B G S N L P).
    pub const HAND_SFEN_ORDER: [Role; 7] = [
        Role::Rook,
        Role::Bishop,
        Role::Gold,
        Role::Silver,
        Role::Knight,
        Role::Lance,
        Role::Pawn,
    ];

    /// The discriminant, 0..14.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role with discriminant `i`, if any.
    pub const fn from_index(i: usize) -> Option<Role> {
        if i < 14 { Some(Role::ALL[i]) } else { None }
    }

    /// The promoted role, or `None` for gold, king and roles already promoted.
    #[inline]
    pub const fn promote(self) -> Option<Role> {
        match self {
            Role::Pawn => Some(Role::Tokin),
            Role::Lance => Some(Role::PromotedLance),
            Role::Knight => Some(Role::PromotedKnight),
            Role::Silver => Some(Role::PromotedSilver),
            Role::Bishop => Some(Role::Horse),
            Role::Rook => Some(Role::Dragon),
            _ => None,
        }
    }

    /// The unpromoted role (what a captured piece becomes in hand).
    #[inline]
    pub const fn unpromote(self) -> Role {
        match self {
            Role::Tokin => Role::Pawn,
            Role::PromotedLance => Role::Lance,
            Role::PromotedKnight => Role::Knight,
            Role::PromotedSilver => Role::Silver,
            Role::Horse => Role::Bishop,
            Role::Dragon => Role::Rook,
            r => r,
        }
    }

    /// Whether this role is a promoted one.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// Whether a piece of this role may promote (P L N S B R).
    #[inline]
    pub const fn can_promote(self) -> bool {
        self.promote().is_some()
    }

    /// Whether this role can be held in hand and dropped (P L N S G B R).
    #[inline]
    pub const fn is_hand_role(self) -> bool {
        (self as u8) < 7
    }

    /// The SFEN / USI letter of the unpromoted role, uppercase (`P`, `L`, ... `K`); promoted
    /// roles give their base letter (write `+` before it yourself, or use [`Role::sfen`]).
    pub const fn sfen_char(self) -> char {
        match self.unpromote() {
            Role::Pawn => 'P',
            Role::Lance => 'L',
            Role::Knight => 'N',
            Role::Silver => 'S',
            Role::Gold => 'G',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            _ => 'K',
        }
    }

    /// The SFEN spelling for a Black piece of this role: `P`, `+P`, ...
    pub fn sfen(self) -> String {
        let mut s = String::with_capacity(2);
        if self.is_promoted() {
            s.push('+');
        }
        s.push(self.sfen_char());
        s
    }

    /// Parses an uppercase or lowercase SFEN letter (unpromoted).
    pub const fn from_sfen_char(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'P' => Some(Role::Pawn),
            'L' => Some(Role::Lance),
            'N' => Some(Role::Knight),
            'S' => Some(Role::Silver),
            'G' => Some(Role::Gold),
            'B' => Some(Role::Bishop),
            'R' => Some(Role::Rook),
            'K' => Some(Role::King),
            _ => None,
        }
    }

    /// The CSA two-letter code (`FU`, `KY`, ... `RY`).
    pub const fn csa(self) -> &'static str {
        match self {
            Role::Pawn => "FU",
            Role::Lance => "KY",
            Role::Knight => "KE",
            Role::Silver => "GI",
            Role::Gold => "KI",
            Role::Bishop => "KA",
            Role::Rook => "HI",
            Role::King => "OU",
            Role::Tokin => "TO",
            Role::PromotedLance => "NY",
            Role::PromotedKnight => "NK",
            Role::PromotedSilver => "NG",
            Role::Horse => "UM",
            Role::Dragon => "RY",
        }
    }

    /// Parses a CSA code.
    pub fn from_csa(s: &str) -> Option<Role> {
        // On the bytes: a string match compares through `memcmp`, once per name tried.
        Some(match s.as_bytes() {
            b"FU" => Role::Pawn,
            b"KY" => Role::Lance,
            b"KE" => Role::Knight,
            b"GI" => Role::Silver,
            b"KI" => Role::Gold,
            b"KA" => Role::Bishop,
            b"HI" => Role::Rook,
            b"OU" => Role::King,
            b"TO" => Role::Tokin,
            b"NY" => Role::PromotedLance,
            b"NK" => Role::PromotedKnight,
            b"NG" => Role::PromotedSilver,
            b"UM" => Role::Horse,
            b"RY" => Role::Dragon,
            _ => return None,
        })
    }

    /// Parses a one-character kanji name: those of [`Role::kanji_short`], and also 王 (king)
    /// and 竜 (dragon), which records use as well.
    pub const fn from_kanji(c: char) -> Option<Role> {
        Some(match c {
            '歩' => Role::Pawn,
            '香' => Role::Lance,
            '桂' => Role::Knight,
            '銀' => Role::Silver,
            '金' => Role::Gold,
            '角' => Role::Bishop,
            '飛' => Role::Rook,
            '玉' | '王' => Role::King,
            'と' => Role::Tokin,
            '杏' => Role::PromotedLance,
            '圭' => Role::PromotedKnight,
            '全' => Role::PromotedSilver,
            '馬' => Role::Horse,
            '龍' | '竜' => Role::Dragon,
            _ => return None,
        })
    }

    /// The kanji used in KIF/KI2 move text (`歩`, ..., `成銀`, `馬`, `龍`).
    pub const fn kanji(self) -> &'static str {
        match self {
            Role::Pawn => "歩",
            Role::Lance => "香",
            Role::Knight => "桂",
            Role::Silver => "銀",
            Role::Gold => "金",
            Role::Bishop => "角",
            Role::Rook => "飛",
            Role::King => "玉",
            Role::Tokin => "と",
            Role::PromotedLance => "成香",
            Role::PromotedKnight => "成桂",
            Role::PromotedSilver => "成銀",
            Role::Horse => "馬",
            Role::Dragon => "龍",
        }
    }

    /// The one-character kanji used in board diagrams (BOD): `全`, `圭`, `杏` for the promoted
    /// silver, knight and lance, otherwise as [`Role::kanji`].
    pub const fn kanji_short(self) -> &'static str {
        match self {
            Role::PromotedLance => "杏",
            Role::PromotedKnight => "圭",
            Role::PromotedSilver => "全",
            r => r.kanji(),
        }
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Lance => "lance",
            Role::Knight => "knight",
            Role::Silver => "silver",
            Role::Gold => "gold",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::King => "king",
            Role::Tokin => "tokin",
            Role::PromotedLance => "promoted lance",
            Role::PromotedKnight => "promoted knight",
            Role::PromotedSilver => "promoted silver",
            Role::Horse => "horse",
            Role::Dragon => "dragon",
        }
    }
}

/// A piece: a role and the colour that owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub role: Role,
}

impl Piece {
    /// A piece of `color` and `role`.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// Index 0..28 (`color * 14 + role`), used for tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color as usize * 14 + self.role as usize
    }

    /// SFEN spelling: `+P`, `k`, ...
    pub fn sfen(self) -> String {
        let s = self.role.sfen();
        match self.color {
            Color::Black => s,
            Color::White => s.to_ascii_lowercase(),
        }
    }

    /// CSA spelling with sign: `+FU`, `-OU`.
    pub fn csa(self) -> String {
        format!("{}{}", self.color.csa_char(), self.role.csa())
    }
}

/// The game played: standard 9x9 shogi or Mini Shogi (5x5, 5五将棋).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Standard shogi on 9x9.
    #[default]
    Standard,
    /// Mini Shogi on 5x5 (files 1-5, ranks a-e), roles K G S B R P.
    Mini,
}

impl Variant {
    /// Number of files (and ranks): 9 or 5.
    pub const fn size(self) -> u8 {
        match self {
            Variant::Standard => 9,
            Variant::Mini => 5,
        }
    }

    /// The SFEN of the start position.
    pub const fn start_sfen(self) -> &'static str {
        match self {
            Variant::Standard => "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            Variant::Mini => "rbsgk/4p/5/P4/KGSBR b - 1",
        }
    }

    /// How many pieces of an (unpromoted) role one set holds, both sides together.
    pub const fn set_count(self, role: Role) -> u8 {
        match self {
            Variant::Standard => match role.unpromote() {
                Role::Pawn => 18,
                Role::Lance | Role::Knight | Role::Silver | Role::Gold => 4,
                _ => 2,
            },
            Variant::Mini => match role.unpromote() {
                Role::Lance | Role::Knight => 0,
                _ => 2,
            },
        }
    }

    /// Whether the role is in play in this variant.
    pub const fn has_role(self, role: Role) -> bool {
        self.set_count(role) > 0
    }

    /// Lowercase name: `standard` or `mini`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Mini => "mini",
        }
    }

    /// Whether a square lies on this variant's board.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        let n = self.size();
        sq.file() <= n && sq.rank() <= n
    }
}

impl std::str::FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Variant, String> {
        match s.to_ascii_lowercase().as_str() {
            "standard" | "shogi" | "9x9" => Ok(Variant::Standard),
            "mini" | "minishogi" | "5x5" => Ok(Variant::Mini),
            _ => Err(format!("unknown variant '{s}' (expected standard or mini)")),
        }
    }
}

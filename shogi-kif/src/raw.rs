//! The syntax layer's output: a record as written, before any move is checked.
//!
//! Moves are kept in the notation's own terms (destination or 同, piece name,
//! qualifiers, source square or CSA codes) with their location, in an arena tree.

use crate::ending::EndingKind;
use crate::error::{Diagnostic, Location, Severity};

/// Side, as the syntax layer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Black,
    White,
}

/// Piece kind, as the syntax layer sees it (same order as shogi-core's `Role`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Pawn,
    Lance,
    Knight,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
    Tokin,
    PromotedLance,
    PromotedKnight,
    PromotedSilver,
    Horse,
    Dragon,
}

impl Kind {
    pub const HAND: [Kind; 7] = [
        Kind::Rook,
        Kind::Bishop,
        Kind::Gold,
        Kind::Silver,
        Kind::Knight,
        Kind::Lance,
        Kind::Pawn,
    ];

    pub fn from_csa(s: &str) -> Option<Kind> {
        Some(match s {
            "FU" => Kind::Pawn,
            "KY" => Kind::Lance,
            "KE" => Kind::Knight,
            "GI" => Kind::Silver,
            "KI" => Kind::Gold,
            "KA" => Kind::Bishop,
            "HI" => Kind::Rook,
            "OU" => Kind::King,
            "TO" => Kind::Tokin,
            "NY" => Kind::PromotedLance,
            "NK" => Kind::PromotedKnight,
            "NG" => Kind::PromotedSilver,
            "UM" => Kind::Horse,
            "RY" => Kind::Dragon,
            _ => return None,
        })
    }

    pub fn csa(self) -> &'static str {
        match self {
            Kind::Pawn => "FU",
            Kind::Lance => "KY",
            Kind::Knight => "KE",
            Kind::Silver => "GI",
            Kind::Gold => "KI",
            Kind::Bishop => "KA",
            Kind::Rook => "HI",
            Kind::King => "OU",
            Kind::Tokin => "TO",
            Kind::PromotedLance => "NY",
            Kind::PromotedKnight => "NK",
            Kind::PromotedSilver => "NG",
            Kind::Horse => "UM",
            Kind::Dragon => "RY",
        }
    }

    pub fn from_kanji1(c: char) -> Option<Kind> {
        Some(match c {
            '歩' => Kind::Pawn,
            '香' => Kind::Lance,
            '桂' => Kind::Knight,
            '銀' => Kind::Silver,
            '金' => Kind::Gold,
            '角' => Kind::Bishop,
            '飛' => Kind::Rook,
            '玉' | '王' => Kind::King,
            'と' => Kind::Tokin,
            '杏' => Kind::PromotedLance,
            '圭' => Kind::PromotedKnight,
            '全' => Kind::PromotedSilver,
            '馬' => Kind::Horse,
            '龍' | '竜' => Kind::Dragon,
            _ => return None,
        })
    }

    /// Read a piece name at the start of `s`; returns the kind and the bytes consumed.
    pub fn parse_prefix(s: &str) -> Option<(Kind, usize)> {
        let mut it = s.chars();
        let c = it.next()?;
        if c == '成' {
            let k = match it.next()? {
                '香' => Kind::PromotedLance,
                '桂' => Kind::PromotedKnight,
                '銀' => Kind::PromotedSilver,
                _ => return None,
            };
            return Some((k, '成'.len_utf8() + '香'.len_utf8()));
        }
        Kind::from_kanji1(c).map(|k| (k, c.len_utf8()))
    }

    pub fn unpromoted(self) -> Kind {
        match self {
            Kind::Tokin => Kind::Pawn,
            Kind::PromotedLance => Kind::Lance,
            Kind::PromotedKnight => Kind::Knight,
            Kind::PromotedSilver => Kind::Silver,
            Kind::Horse => Kind::Bishop,
            Kind::Dragon => Kind::Rook,
            k => k,
        }
    }

    pub fn from_sfen_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'L' => Kind::Lance,
            'N' => Kind::Knight,
            'S' => Kind::Silver,
            'G' => Kind::Gold,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'K' => Kind::King,
            _ => return None,
        })
    }

    pub fn hand_index(self) -> Option<usize> {
        Kind::HAND.iter().position(|&k| k == self)
    }
}

/// A square as (file, rank), both 1-based.
pub(crate) type Sq = (u8, u8);

/// KI2 relative-position word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Relative {
    Right,
    Left,
    Straight,
}

/// KI2 motion word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Motion {
    Up,
    Sideways,
    Down,
}

/// A move in Japanese notation (KIF or KI2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JaMove {
    pub side: Option<Side>,
    /// `None` = 同.
    pub to: Option<Sq>,
    pub kind: Kind,
    /// `Some(true)` = 成, `Some(false)` = 不成/生, `None` = not written.
    pub promote: Option<bool>,
    pub drop: bool,
    /// KIF source square `(77)`.
    pub from: Option<Sq>,
    pub relative: Option<Relative>,
    pub motion: Option<Motion>,
}

/// A move as written in some notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RawMove {
    Ja(JaMove),
    /// CSA: side, from (None = drop), to, piece code after the move.
    Csa {
        side: Side,
        from: Option<Sq>,
        to: Sq,
        kind: Kind,
    },
    /// USI move text (already syntax-checked).
    Usi {
        from: Option<Sq>,
        to: Sq,
        promote: bool,
        drop: Option<Kind>,
    },
    /// JKF move object.
    Jkf {
        side: Option<Side>,
        from: Option<Sq>,
        to: Option<Sq>,
        kind: Kind,
        promote: Option<bool>,
    },
}

/// A special (terminal) statement as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawEnd {
    pub kind: EndingKind,
    /// For CSA `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION`: who acted illegally.
    pub offender: Option<Side>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    Root,
    Move(RawMove),
    End(RawEnd),
}

/// Time as written: milliseconds spent on the move, and the running total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RawTime {
    pub spent_ms: Option<u64>,
    pub total_ms: Option<u64>,
}

#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub item: Item,
    pub loc: Location,
    /// Byte span of the move text as written (for error messages).
    pub written: (usize, usize),
    pub time: Option<RawTime>,
    pub comments: Vec<String>,
    pub bookmarks: Vec<String>,
    /// First child = continuation of this line; further children = alternatives.
    pub children: Children,
    /// Nesting depth of variations.
    pub depth: u32,
}

/// The start position as written (BOD, CSA P lines, SFEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawBoard {
    /// 9 or 5.
    pub size: u8,
    /// `cells[rank-1][file-1]`.
    pub cells: [[Option<(Side, Kind)>; 9]; 9],
    /// Counts per side in [`Kind::HAND`] order.
    pub hands: [[u8; 7]; 2],
    pub side_to_move: Option<Side>,
    /// The move number of the next move (SFEN field, or 手数＝N + 1).
    pub move_number: Option<u32>,
}

impl Default for RawBoard {
    fn default() -> RawBoard {
        RawBoard {
            size: 9,
            cells: [[None; 9]; 9],
            hands: [[0; 7]; 2],
            side_to_move: None,
            move_number: None,
        }
    }
}

/// How the start position was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RawStart {
    /// Nothing said: the even-game position.
    Default,
    /// A handicap or variant name (手合割, CSA PI removals resolved to a name when possible).
    Named { name: String, loc: Location },
    /// An explicit arrangement (may come with a name as well).
    Board {
        board: Box<RawBoard>,
        name: Option<String>,
        loc: Location,
    },
    /// An SFEN string (USI, JKF converted), possibly named.
    Sfen { sfen: String, loc: Location },
}

/// A closing `まで…` line.
#[derive(Clone, Debug)]
pub(crate) struct Closing {
    pub count: Option<u32>,
    pub text: String,
    pub loc: Location,
}

/// A record as written.
#[derive(Clone, Debug)]
pub(crate) struct RawRecord {
    pub header: Vec<(String, String)>,
    pub start: RawStart,
    pub nodes: Vec<Node>,
    pub closing: Option<Closing>,
    pub diagnostics: Vec<Diagnostic>,
}

/// How deeply variations may nest before the reader gives up.
pub(crate) const MAX_DEPTH: u32 = 64;

impl RawRecord {
    pub fn new() -> RawRecord {
        RawRecord {
            header: Vec::new(),
            start: RawStart::Default,
            nodes: vec![Node {
                item: Item::Root,
                loc: Location::default(),
                written: (0, 0),
                time: None,
                comments: Vec::new(),
                bookmarks: Vec::new(),
                children: Children::default(),
                depth: 0,
            }],
            closing: None,
            diagnostics: Vec::new(),
        }
    }

    /// Append a node under `parent`; returns its index.
    pub fn push(&mut self, parent: u32, item: Item, loc: Location, written: (usize, usize)) -> u32 {
        let idx = self.nodes.len() as u32;
        let p = &self.nodes[parent as usize];
        let depth = p.depth + u32::from(!p.children.is_empty());
        self.nodes.push(Node {
            item,
            loc,
            written,
            time: None,
            comments: Vec::new(),
            bookmarks: Vec::new(),
            children: Children::default(),
            depth,
        });
        self.nodes[parent as usize].children.push(idx);
        idx
    }

    pub fn warn(&mut self, src: &str, loc: Location, msg: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::at(Severity::Warning, msg, src, loc));
    }
}

/// The children of a node: almost always one, kept inline; alternatives on the heap.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Children {
    first: Option<u32>,
    rest: Vec<u32>,
}

impl Children {
    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }

    pub fn push(&mut self, idx: u32) {
        if self.first.is_none() {
            self.first = Some(idx);
        } else {
            self.rest.push(idx);
        }
    }

    pub fn first(&self) -> Option<&u32> {
        self.first.as_ref()
    }

    pub fn get(&self, k: usize) -> Option<&u32> {
        if k == 0 {
            self.first.as_ref()
        } else {
            self.rest.get(k - 1)
        }
    }

    /// The children after the first.
    pub fn alternatives(&self) -> &[u32] {
        &self.rest
    }
}

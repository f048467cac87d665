//! The syntax layer's output: a record as written, before any move is checked.
//!
//! Moves are kept in the notation's own terms (destination or 同, piece name,
//! qualifiers, source square or CSA codes) with their location, in an arena tree.

use crate::ending::EndingKind;
use crate::error::{Diagnostic, Location, ReadError, Severity};
use crate::japanese::JaMove;
use crate::text::TextLine;
use shogi_core::{Color, Move, Piece, Role, Square};

/// Where a hand role's count is in [`RawBoard::hands`] (the SFEN order, R B G S N L P).
pub(crate) fn hand_slot(role: Role) -> Option<usize> {
    Role::HAND_SFEN_ORDER.iter().position(|&r| r == role)
}

/// A move as written in some notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RawMove {
    Ja(JaMove),
    /// CSA: side, from (None = drop), to, piece code after the move.
    Csa {
        side: Color,
        from: Option<Square>,
        to: Square,
        kind: Role,
    },
    /// USI move text, as shogi-core reads it (a move from a square to itself included, for
    /// the rules to refuse).
    Usi(Move),
    /// JKF move object.
    Jkf {
        side: Option<Color>,
        from: Option<Square>,
        to: Option<Square>,
        kind: Role,
        promote: Option<bool>,
    },
}

/// A special (terminal) statement as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawEnd {
    pub kind: EndingKind,
    /// For CSA `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION`: who acted illegally.
    pub offender: Option<Color>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    Root,
    Move(RawMove),
    /// Boxed: a record has one ending and a move per node, and an ending inline (its word
    /// can be a `String`) would double every node's item.
    End(Box<RawEnd>),
}

impl Item {
    /// The ending `kind`, by `offender` when the statement names one.
    pub fn end(kind: EndingKind, offender: Option<Color>) -> Item {
        Item::End(Box::new(RawEnd { kind, offender }))
    }
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
    /// Whether `loc`'s span is the move's text as written, quoted in error messages (not
    /// for a JKF move, read from JSON).
    pub written: bool,
    pub time: Option<RawTime>,
    /// Comments and bookmarks: most nodes have none, and a node this small is quicker to
    /// make and to walk (every move of a record is one).
    pub notes: Option<Box<Notes>>,
    /// First child = continuation of this line; further children = alternatives.
    pub children: Children,
    /// Nesting depth of variations.
    pub depth: u32,
}

/// A node's comments and bookmarks.
#[derive(Clone, Debug, Default)]
pub(crate) struct Notes {
    pub comments: Vec<String>,
    pub bookmarks: Vec<String>,
}

impl Node {
    /// The node's comments.
    pub fn comments(&self) -> &[String] {
        self.notes.as_ref().map_or(&[], |n| &n.comments)
    }

    /// The node's bookmarks.
    pub fn bookmarks(&self) -> &[String] {
        self.notes.as_ref().map_or(&[], |n| &n.bookmarks)
    }

    /// The node's notes, to add to.
    pub fn notes_mut(&mut self) -> &mut Notes {
        self.notes.get_or_insert_with(Box::default)
    }

    /// Adds comments to the node.
    pub fn add_comments(&mut self, comments: Vec<String>) {
        if !comments.is_empty() {
            self.notes_mut().comments.extend(comments);
        }
    }

    /// The node's notes, taken out of it.
    pub fn take_notes(&mut self) -> Notes {
        self.notes.take().map_or_else(Notes::default, |n| *n)
    }
}

/// The start position as written (BOD, CSA P lines, SFEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawBoard {
    /// 9 or 5.
    pub size: u8,
    /// `cells[rank-1][file-1]`.
    pub cells: [[Option<Piece>; 9]; 9],
    /// Counts per side (by [`Color::index`]) in [`Role::HAND_SFEN_ORDER`] (see [`hand_slot`]).
    pub hands: [[u8; 7]; 2],
    pub side_to_move: Option<Color>,
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
    /// Endings read from a KI2 `まで…` line where the side to move was not known yet (a
    /// line with no moves at the record's start): node index and the text after `で`,
    /// which the replay reads for the side to move there. In node order.
    pub closing_endings: Vec<(u32, String)>,
    pub diagnostics: Vec<Diagnostic>,
}

/// A syntax error, with the record as read up to it when that makes a record.
#[derive(Debug)]
pub(crate) struct Partial {
    pub error: ReadError,
    pub read: Option<RawRecord>,
}

impl From<ReadError> for Box<Partial> {
    fn from(error: ReadError) -> Box<Partial> {
        Box::new(Partial { error, read: None })
    }
}

/// What a parser gives: the record, or the error with what was read before it.
pub(crate) type Parsed = Result<RawRecord, Box<Partial>>;

/// A parser that reads a record a line at a time (KIF/KI2's, CSA's), driven by
/// [`parse_lines`].
pub(crate) trait LineParser<'a> {
    /// Reads one line; an error stops the parse there.
    fn read_line(&mut self, line: TextLine<'a>) -> Result<(), ReadError>;
    /// The record read so far, checked as a whole.
    fn finish_record(self) -> Result<RawRecord, ReadError>;
}

/// Feeds `lines` to `parser`: the record, or the first error together with the record as
/// read up to that line (when it makes one), so that callers can still show what came
/// before the error.
pub(crate) fn parse_lines<'a, P: LineParser<'a>>(
    mut parser: P,
    lines: impl Iterator<Item = TextLine<'a>>,
) -> Parsed {
    for line in lines {
        if let Err(error) = parser.read_line(line) {
            let read = parser.finish_record().ok();
            return Err(Box::new(Partial { error, read }));
        }
    }
    Ok(parser.finish_record()?)
}

/// How deeply variations may nest before the reader gives up.
pub(crate) const MAX_DEPTH: u32 = crate::limits::MAX_VARIATION_DEPTH;

impl RawRecord {
    pub fn new() -> RawRecord {
        RawRecord {
            header: Vec::new(),
            start: RawStart::Default,
            nodes: vec![Node {
                item: Item::Root,
                loc: Location::default(),
                written: false,
                time: None,
                notes: None,
                children: Children::default(),
                depth: 0,
            }],
            closing: None,
            closing_endings: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Append a node under `parent`; returns its index.
    pub fn push(&mut self, parent: u32, item: Item, loc: Location, written: bool) -> u32 {
        self.push_timed(parent, item, loc, written, None)
    }

    /// [`RawRecord::push`] with the move's time (written with the node rather than after).
    #[inline(always)]
    pub fn push_timed(
        &mut self,
        parent: u32,
        item: Item,
        loc: Location,
        written: bool,
        time: Option<RawTime>,
    ) -> u32 {
        let idx = self.nodes.len() as u32;
        let p = &self.nodes[parent as usize];
        let depth = p.depth + u32::from(!p.children.is_empty());
        self.nodes.push(Node {
            item,
            loc,
            written,
            time,
            notes: None,
            children: Children::default(),
            depth,
        });
        self.nodes[parent as usize].children.push(idx);
        idx
    }

    /// A warning, unless [`crate::limits::MAX_WARNINGS`] are kept already (a note then says
    /// that the others are left out).
    pub fn warn(&mut self, src: &str, loc: Location, msg: impl Into<String>) {
        use crate::limits::{MAX_WARNINGS, count};
        let n = self.diagnostics.len();
        if n < MAX_WARNINGS {
            self.diagnostics
                .push(Diagnostic::at(Severity::Warning, msg, src, loc));
        } else if n == MAX_WARNINGS {
            let msg = format!(
                "more than {} warnings: the others are left out (the limit)",
                count(MAX_WARNINGS)
            );
            self.diagnostics
                .push(Diagnostic::at(Severity::Note, msg, src, loc));
        }
    }
}

/// The children of a node: almost always one, kept inline; alternatives on the heap.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Children {
    first: Option<u32>,
    // Boxed, not a bare Vec: 8 bytes on every node instead of 24, for the few that fork.
    #[allow(clippy::box_collection)]
    rest: Option<Box<Vec<u32>>>,
}

impl Children {
    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }

    #[inline]
    pub fn push(&mut self, idx: u32) {
        if self.first.is_none() {
            self.first = Some(idx);
        } else {
            self.rest.get_or_insert_with(Box::default).push(idx);
        }
    }

    pub fn first(&self) -> Option<&u32> {
        self.first.as_ref()
    }

    pub fn get(&self, k: usize) -> Option<&u32> {
        if k == 0 {
            self.first.as_ref()
        } else {
            self.alternatives().get(k - 1)
        }
    }

    /// The children after the first.
    pub fn alternatives(&self) -> &[u32] {
        self.rest.as_deref().map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_stays_small() {
        // Every move of a record is a node, made once, copied into place and walked once:
        // notes, alternatives and endings are kept off it (it took 192 bytes with them
        // inline, 136 with the ending inline and the written span apart from `loc`).
        let size = std::mem::size_of::<Node>();
        assert!(size <= 104, "a raw node takes {size} bytes");
    }
}

//! The syntax layer's output: a record as written, before any move is checked.
//!
//! Moves are kept in the notation's own terms (destination or 同, piece name,
//! qualifiers, source square or CSA codes) with their location, in an arena tree.

use crate::ending::EndingKind;
use crate::error::{Diagnostic, Location, ReadError, Severity};
use crate::japanese::JaMove;
use crate::text::TextLine;
use shogi_core::{Color, Move, Piece, Role, Square};
use std::cell::RefCell;

/// The largest arena kept for the next record (in nodes, about 1.5 MB): a record of more
/// moves gives its arena back to the allocator.
const SPARE_LIMIT: usize = 1 << 14;

thread_local! {
    /// The arena of the last record replayed on this thread, empty, for the next one to
    /// fill: a record's arena is some kilobytes, which the allocator serves and takes back
    /// slowly (its large-block path), once a game.
    static SPARE_NODES: RefCell<Vec<Node>> = const { RefCell::new(Vec::new()) };
}

/// Where a hand role's count is in [`RawBoard::hands`] (the SFEN order, R B G S N L P).
pub(crate) fn hand_slot(role: Role) -> Option<usize> {
    Role::HAND_SFEN_ORDER.iter().position(|&r| r == role)
}

/// A move as written in some notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// What a parser hands to [`RawRecord::push`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    Move(RawMove),
    /// Boxed: an item is passed by value on the way to a node, and an ending inline (its
    /// word can be a `String`) would more than double the size of every move's.
    End(Box<RawEnd>),
}

impl Item {
    /// The ending `kind`, by `offender` when the statement names one.
    pub fn end(kind: EndingKind, offender: Option<Color>) -> Item {
        Item::End(Box::new(RawEnd { kind, offender }))
    }
}

/// An [`Item`] as a node keeps it: an ending (whose word can be a `String`) is kept in
/// [`RawRecord::ends`], so that a node owns nothing on the heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Root,
    Move(RawMove),
    /// The ending at this index of [`RawRecord::ends`].
    End(u32),
}

/// Time as written: milliseconds spent on the move, and the running total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RawTime {
    pub spent_ms: Option<u64>,
    pub total_ms: Option<u64>,
}

/// A node of the arena. It owns nothing on the heap (its notes, alternatives and ending are
/// kept in the record's side tables): every move of a record is one, and the arena is then
/// made by plain copies and freed without visiting its nodes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub item: Slot,
    pub loc: Location,
    /// Whether `loc`'s span is the move's text as written, quoted in error messages (not
    /// for a JKF move, read from JSON).
    pub written: bool,
    /// The move's time: 0 for none, else `k` for [`RawRecord::times`]`[k - 1]` (kept off the
    /// node, which every move makes and the replay walks).
    time: u32,
    /// Comments and bookmarks (most nodes have none): 0 for none, else `k` for
    /// [`RawRecord::notes`]`[k - 1]`.
    notes: u32,
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
    /// The nodes' comments and bookmarks (see `Node::notes`).
    pub notes: Vec<Notes>,
    /// The nodes' times (see `Node::time`).
    times: Vec<RawTime>,
    /// The alternatives of the nodes that fork (see `Children::rest`).
    pub forks: Vec<Vec<u32>>,
    /// The endings of the nodes that are one (see [`Slot::End`]).
    pub ends: Vec<RawEnd>,
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
        let mut nodes = SPARE_NODES.with(|spare| std::mem::take(&mut *spare.borrow_mut()));
        nodes.clear();
        nodes.push(Node {
            item: Slot::Root,
            loc: Location::default(),
            written: false,
            time: 0,
            notes: 0,
            children: Children::default(),
            depth: 0,
        });
        RawRecord {
            header: Vec::new(),
            start: RawStart::Default,
            nodes,
            notes: Vec::new(),
            times: Vec::new(),
            forks: Vec::new(),
            ends: Vec::new(),
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
        let item = match item {
            Item::Move(m) => Slot::Move(m),
            Item::End(end) => {
                self.ends.push(*end);
                Slot::End(self.ends.len() as u32 - 1)
            }
        };
        let time = match time {
            None => 0,
            Some(t) => {
                self.times.push(t);
                self.times.len() as u32
            }
        };
        self.nodes.push(Node {
            item,
            loc,
            written,
            time,
            notes: 0,
            children: Children::default(),
            depth,
        });
        let children = &mut self.nodes[parent as usize].children;
        if children.first == 0 {
            children.first = idx;
        } else {
            if children.rest == 0 {
                self.forks.push(Vec::new());
                children.rest = self.forks.len() as u32;
            }
            self.forks[children.rest as usize - 1].push(idx);
        }
        idx
    }

    /// Gives the arena (emptied) to the next record made on this thread, unless it is larger
    /// than [`SPARE_LIMIT`] or a larger one is kept already.
    pub fn recycle(&mut self) {
        let nodes = std::mem::take(&mut self.nodes);
        if nodes.capacity() <= SPARE_LIMIT {
            SPARE_NODES.with(|spare| {
                let mut spare = spare.borrow_mut();
                if spare.capacity() < nodes.capacity() {
                    *spare = nodes;
                }
            });
        }
    }

    /// The ending kept for a node's [`Slot::End`].
    pub fn end(&self, at: u32) -> &RawEnd {
        &self.ends[at as usize]
    }

    /// A node's time, if it has one.
    #[inline]
    pub fn time_of(&self, node: &Node) -> Option<RawTime> {
        match node.time {
            0 => None,
            k => Some(self.times[k as usize - 1]),
        }
    }

    /// Sets node `idx`'s time.
    pub fn set_time(&mut self, idx: u32, time: Option<RawTime>) {
        let node = &mut self.nodes[idx as usize];
        match (node.time, time) {
            (0, None) => {}
            (0, Some(t)) => {
                self.times.push(t);
                node.time = self.times.len() as u32;
            }
            (k, Some(t)) => self.times[k as usize - 1] = t,
            (_, None) => node.time = 0,
        }
    }

    /// A node's comments and bookmarks, if it has any.
    #[inline]
    pub fn notes_of(&self, node: &Node) -> Option<&Notes> {
        match node.notes {
            0 => None,
            k => Some(&self.notes[k as usize - 1]),
        }
    }

    /// Node `idx`'s comments.
    pub fn comments(&self, idx: u32) -> &[String] {
        self.notes_of(&self.nodes[idx as usize])
            .map_or(&[], |n| &n.comments)
    }

    /// Node `idx`'s bookmarks.
    pub fn bookmarks(&self, idx: u32) -> &[String] {
        self.notes_of(&self.nodes[idx as usize])
            .map_or(&[], |n| &n.bookmarks)
    }

    /// Node `idx`'s notes, to add to.
    pub fn notes_mut(&mut self, idx: u32) -> &mut Notes {
        let node = &mut self.nodes[idx as usize];
        if node.notes == 0 {
            self.notes.push(Notes::default());
            node.notes = self.notes.len() as u32;
        }
        &mut self.notes[node.notes as usize - 1]
    }

    /// Adds comments to node `idx`.
    pub fn add_comments(&mut self, idx: u32, comments: Vec<String>) {
        if !comments.is_empty() {
            self.notes_mut(idx).comments.extend(comments);
        }
    }

    /// Node `idx`'s notes, taken out of it.
    pub fn take_notes(&mut self, idx: u32) -> Notes {
        match std::mem::take(&mut self.nodes[idx as usize].notes) {
            0 => Notes::default(),
            k => std::mem::take(&mut self.notes[k as usize - 1]),
        }
    }

    /// The children of node `idx` after the first (the alternatives to it).
    pub fn alternatives(&self, idx: u32) -> &[u32] {
        match self.nodes[idx as usize].children.rest {
            0 => &[],
            k => &self.forks[k as usize - 1],
        }
    }

    /// Child `k` of node `idx` (0: the first, then the alternatives).
    pub fn child(&self, idx: u32, k: usize) -> Option<u32> {
        if k == 0 {
            self.nodes[idx as usize].children.first()
        } else {
            self.alternatives(idx).get(k - 1).copied()
        }
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

/// The children of a node (pushed by [`RawRecord::push`]): almost always one, kept inline;
/// the alternatives in the record's side table ([`RawRecord::alternatives`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Children {
    /// 0 for none (the root, node 0, is no node's child).
    first: u32,
    /// 0 for none, else `k` for [`RawRecord::forks`]`[k - 1]`.
    rest: u32,
}

impl Children {
    pub fn is_empty(&self) -> bool {
        self.first == 0
    }

    pub fn first(&self) -> Option<u32> {
        (self.first != 0).then_some(self.first)
    }

    /// Whether there are children after the first.
    pub fn forks(&self) -> bool {
        self.rest != 0
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
        // 88 with the time inline and the first child an `Option`.
        assert!(size <= 56, "a raw node takes {size} bytes");
        // And it owns nothing: the arena is freed without a visit to each node.
        assert!(!std::mem::needs_drop::<Node>());
    }

    #[test]
    fn an_arena_is_kept_for_the_next_record_of_the_thread_unless_too_large() {
        let loc = Location::default();
        let mv = Item::Move(RawMove::Usi(Move::Drop {
            role: Role::Pawn,
            to: Square::new(5, 5).unwrap(),
        }));
        let grown = |n: usize| {
            let mut rec = RawRecord::new();
            let mut at = 0;
            for _ in 0..n {
                at = rec.push(at, mv.clone(), loc, true);
            }
            rec
        };
        let mut rec = grown(1000);
        let capacity = rec.nodes.capacity();
        rec.recycle();
        assert!(rec.nodes.is_empty());
        // The next record starts from the kept arena, with only its root.
        let mut next = RawRecord::new();
        assert_eq!(next.nodes.capacity(), capacity);
        assert_eq!(next.nodes.len(), 1);
        assert!(matches!(next.nodes[0].item, Slot::Root));
        assert!(next.nodes[0].children.is_empty());
        // A smaller arena does not replace a larger one kept; one over the limit is not kept.
        let mut small = RawRecord::new();
        small.nodes.shrink_to(10);
        next.recycle();
        small.recycle();
        let mut again = RawRecord::new();
        assert_eq!(again.nodes.capacity(), capacity);
        let mut huge = grown(SPARE_LIMIT + 1);
        huge.recycle();
        again.recycle();
        assert_eq!(RawRecord::new().nodes.capacity(), capacity);
    }

    #[test]
    fn side_tables_answer_for_their_nodes() {
        let mut rec = RawRecord::new();
        let loc = Location::default();
        let mv = |to: u8| {
            Item::Move(RawMove::Usi(Move::Drop {
                role: Role::Pawn,
                to: Square::new(to, 5).unwrap(),
            }))
        };
        // The root forks three ways; the first line goes on to an ending.
        let a = rec.push(0, mv(1), loc, true);
        let b = rec.push(0, mv(2), loc, true);
        let c = rec.push(0, mv(3), loc, true);
        let d = rec.push(
            a,
            Item::end(EndingKind::Resign, Some(Color::White)),
            loc,
            true,
        );
        // `c` forks too, after `b` was given notes: each node keeps its own entries.
        rec.notes_mut(b).bookmarks.push("b".into());
        let e = rec.push(c, mv(4), loc, true);
        let f = rec.push(c, mv(5), loc, true);
        rec.add_comments(a, vec!["a1".into(), "a2".into()]);
        rec.add_comments(c, Vec::new());
        rec.notes_mut(a).comments.push("a3".into());
        assert_eq!(rec.child(0, 0), Some(a));
        assert_eq!(rec.alternatives(0), &[b, c]);
        assert_eq!((rec.child(0, 2), rec.child(0, 3)), (Some(c), None));
        assert_eq!(rec.alternatives(c), &[f]);
        assert_eq!(rec.child(c, 0), Some(e));
        assert!(rec.alternatives(a).is_empty() && rec.child(d, 0).is_none());
        assert!(rec.nodes[0].children.forks() && !rec.nodes[a as usize].children.forks());
        assert_eq!(rec.nodes[d as usize].depth, 0);
        assert_eq!(rec.nodes[b as usize].depth, 1);
        assert_eq!(rec.nodes[f as usize].depth, 2);
        assert_eq!(rec.comments(a), ["a1", "a2", "a3"]);
        assert_eq!(rec.bookmarks(b), ["b"]);
        assert!(rec.comments(b).is_empty() && rec.comments(c).is_empty());
        let Slot::End(end) = rec.nodes[d as usize].item else {
            panic!("not an ending: {:?}", rec.nodes[d as usize].item);
        };
        assert_eq!(rec.end(end).kind, EndingKind::Resign);
        assert_eq!(rec.end(end).offender, Some(Color::White));
        let taken = rec.take_notes(a);
        assert_eq!(taken.comments, ["a1", "a2", "a3"]);
        assert!(rec.comments(a).is_empty() && rec.take_notes(a).comments.is_empty());
        assert_eq!(rec.bookmarks(b), ["b"]);
    }
}

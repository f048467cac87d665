//! The book model: positions keyed by their SFEN without the move number, each with the moves
//! recorded for it; lookup with or without the ply, and in the flipped orientation.

use shogi_core::{Move, Piece, Position, Setup, SetupOptions, Square, Variant};
use std::collections::BTreeMap;

/// One move of a book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// The expected reply, if the book gives one.
    pub ponder: Option<Move>,
    /// Evaluation after the move, from the mover's point of view (centipawn-like units).
    pub value: i32,
    /// Search depth behind `value` (0 when unknown).
    pub depth: i32,
    /// How often the move was played in some collection of games.
    pub count: u64,
}

impl BookMove {
    /// A move with no ponder, value 0, depth 0 and count 1 (YaneuraOu's defaults).
    pub fn new(mv: Move) -> BookMove {
        BookMove {
            mv,
            ponder: None,
            value: 0,
            depth: 0,
            count: 1,
        }
    }
}

/// A book position's data: the ply it was recorded at, its moves and the comment lines that
/// preceded it in a text book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The SFEN move number recorded with the position (`None` for a book written without).
    pub ply: Option<u32>,
    /// The moves, in the book's order.
    pub moves: Vec<BookMove>,
    /// Comment lines (with their `#` or `//`) written just before the position.
    pub comments: Vec<String>,
}

impl Entry {
    /// Sorts the moves as YaneuraOu's `write_book` does: count descending, then value
    /// descending, keeping the order of equal moves.
    pub fn sort_moves(&mut self) {
        self.moves
            .sort_by(|a, b| b.count.cmp(&a.count).then(b.value.cmp(&a.value)));
    }
}

/// How a position is looked up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lookup {
    /// Ignore the move number (YaneuraOu's `IgnoreBookPly`): otherwise the entry's ply must
    /// equal the position's (an entry without a ply never matches).
    pub ignore_ply: bool,
    /// On a miss, look up the position rotated 180° with colours swapped, and flip the moves
    /// found back (YaneuraOu's `FlippedBook`).
    pub flipped: bool,
}

/// The text key of a position: its SFEN without the move number, as YaneuraOu writes it
/// (hands in R B G S N L P order, Black first).
pub fn position_key(pos: &Position) -> String {
    let mut s = pos.to_sfen();
    if let Some(i) = s.rfind(' ') {
        s.truncate(i);
    }
    s
}

/// The position rotated 180° with colours, hands and side to move swapped; the move number
/// is kept.
pub fn flip_position(pos: &Position) -> Position {
    let s = pos.to_setup();
    let mut f = Setup::empty(s.variant);
    for sq in Square::all() {
        if let Some(p) = s.board[sq.index()] {
            let to = flip_square(sq);
            f.board[to.index()] = Some(Piece {
                color: p.color.opposite(),
                role: p.role,
            });
        }
    }
    f.hands = [s.hands[1], s.hands[0]];
    f.side_to_move = s.side_to_move.opposite();
    f.move_number = s.move_number;
    Position::from_setup(f, SetupOptions::PERMISSIVE)
        .expect("the mirror image of a legal position is legal")
}

/// The square rotated 180° (index `s` becomes `80 - s`).
pub fn flip_square(sq: Square) -> Square {
    Square::from_index(80 - sq.index()).expect("80 - index is a square")
}

/// The move rotated 180° (for the flipped position).
pub fn flip_move(m: Move) -> Move {
    match m {
        Move::Normal { from, to, promote } => Move::Normal {
            from: flip_square(from),
            to: flip_square(to),
            promote,
        },
        Move::Drop { role, to } => Move::Drop {
            role,
            to: flip_square(to),
        },
    }
}

/// An opening book in memory: positions by key ([`position_key`]), in YaneuraOu's order
/// (byte order of the key, which is also the order of the keys with their move numbers).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: BTreeMap<String, Entry>,
    /// Comment lines before the first position (the format's header line excluded).
    pub header_comments: Vec<String>,
    /// Comment lines after the last position's moves.
    pub trailing_comments: Vec<String>,
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The number of moves over all positions.
    pub fn move_count(&self) -> usize {
        self.entries.values().map(|e| e.moves.len()).sum()
    }

    /// The positions in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.entries.iter().map(|(k, e)| (k.as_str(), e))
    }

    /// The positions in key order, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&str, &mut Entry)> {
        self.entries.iter_mut().map(|(k, e)| (k.as_str(), e))
    }

    /// The entry of a key, if any.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.get(key)
    }

    /// Adds a position's entry (replacing any with the same key) and returns the old one.
    /// The key is [`position_key`] of the position.
    pub fn insert(&mut self, pos: &Position, entry: Entry) -> Option<Entry> {
        self.entries.insert(position_key(pos), entry)
    }

    /// Adds an entry under a key the caller made with [`position_key`].
    pub fn insert_key(&mut self, key: String, entry: Entry) -> Option<Entry> {
        self.entries.insert(key, entry)
    }

    /// The entry for `pos` under `lookup`, with its moves in `pos`'s orientation (flipped
    /// back when found through the flipped position).
    pub fn probe(&self, pos: &Position, lookup: Lookup) -> Option<Entry> {
        let found: Result<_, std::convert::Infallible> =
            probe_with(pos, lookup, |key| Ok(self.entries.get(key).cloned()));
        found.unwrap_or_else(|e| match e {})
    }

    /// Merges `other` into this book. A position in both keeps YaneuraOu's `merge` choice: the
    /// side with moves, then the one whose first move is deeper, then the one with more moves,
    /// then this book's; its ply is the smaller of the two.
    pub fn merge(&mut self, other: Book) {
        for (key, theirs) in other.entries {
            match self.entries.get_mut(&key) {
                None => {
                    self.entries.insert(key, theirs);
                }
                Some(ours) => {
                    let ply = min_ply(ours.ply, theirs.ply);
                    if prefer_theirs(ours, &theirs) {
                        let mut comments = std::mem::take(&mut ours.comments);
                        *ours = theirs;
                        comments.append(&mut ours.comments);
                        ours.comments = comments;
                    } else {
                        ours.comments.extend(theirs.comments);
                    }
                    ours.ply = ply;
                }
            }
        }
        self.header_comments.extend(other.header_comments);
        self.trailing_comments.extend(other.trailing_comments);
    }
}

/// YaneuraOu's lookup over any store of entries: `get` returns the entry of a key
/// ([`position_key`]); the ply must match unless `lookup.ignore_ply`; on a miss with
/// `lookup.flipped`, the flipped position is looked up and its moves flipped back.
pub fn probe_with<E>(
    pos: &Position,
    lookup: Lookup,
    mut get: impl FnMut(&str) -> Result<Option<Entry>, E>,
) -> Result<Option<Entry>, E> {
    let mut hit = |p: &Position| -> Result<Option<Entry>, E> {
        Ok(get(&position_key(p))?.filter(|e| lookup.ignore_ply || e.ply == Some(p.move_number())))
    };
    if let Some(e) = hit(pos)? {
        return Ok(Some(e));
    }
    if !lookup.flipped {
        return Ok(None);
    }
    Ok(hit(&flip_position(pos))?.map(|mut e| {
        for m in &mut e.moves {
            m.mv = flip_move(m.mv);
            m.ponder = m.ponder.map(flip_move);
        }
        e
    }))
}

/// The smaller of two plies, a known ply winning over an unknown one.
pub(crate) fn min_ply(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// YaneuraOu's `merge` rule: whether `theirs` replaces `ours`.
pub(crate) fn prefer_theirs(ours: &Entry, theirs: &Entry) -> bool {
    match (ours.moves.first(), theirs.moves.first()) {
        (None, Some(_)) => true,
        (Some(_), None) | (None, None) => false,
        (Some(a), Some(b)) => {
            b.depth > a.depth || (b.depth == a.depth && theirs.moves.len() > ours.moves.len())
        }
    }
}

/// Parses a position of a book and refuses what no YaneuraOu or Apery book can hold.
pub(crate) fn book_position(sfen: &str) -> Result<Position, String> {
    let pos = Position::from_sfen(sfen).map_err(|e| format!("bad SFEN: {e}"))?;
    if pos.variant() == Variant::Mini {
        return Err("a Mini Shogi position: books hold standard shogi only".into());
    }
    Ok(pos)
}

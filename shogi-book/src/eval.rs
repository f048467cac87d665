//! Engine evaluations as book values: mate scores on YaneuraOu's scale, and the values of a
//! book built from games replaced by an engine's where it has them.

use crate::backup::VALUE_MATE;
use crate::book::{Book, BookMove, Entry, position_key};
use shogi_core::{Move, Position, Score, Variant};

/// The plies an unknown mate distance (`mate +`, `mate -`) is taken as: longer than any known
/// one, so that a mate at a known distance ranks above it.
pub const MATE_UNKNOWN_PLIES: i32 = 1000;

/// An engine's score (the side to move's view) as a book value (the value of the move the
/// side to move plays): centipawns clamped to ±[`VALUE_MATE`]; a mate in `n` plies is
/// `VALUE_MATE − n` (negated when the side to move is mated), as YaneuraOu scores mates; an
/// unknown distance counts as [`MATE_UNKNOWN_PLIES`]. `None` for [`Score::MateGiven`]: the
/// side to move has mated already and has no move to play.
pub fn book_value(score: Score) -> Option<i32> {
    Some(match score {
        Score::Cp(cp) => cp.clamp(-VALUE_MATE, VALUE_MATE),
        Score::Mate { plies: n } if n > 0 => VALUE_MATE - n.min(VALUE_MATE),
        Score::Mate { plies: n } => -(VALUE_MATE - n.saturating_neg().min(VALUE_MATE)),
        Score::MateUnknown { winning: true } => VALUE_MATE - MATE_UNKNOWN_PLIES,
        Score::MateUnknown { winning: false } => -(VALUE_MATE - MATE_UNKNOWN_PLIES),
        Score::MateGiven => return None,
    })
}

/// What an [`EvalBook`] was given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalRead {
    /// Searches given.
    pub results: u64,
    /// Searches not used: no scored line with a move, a position past the ply limit or not
    /// standard shogi, a search shallower than another of the same position.
    pub unused: u64,
}

/// The book of an engine's searches (an analysis cache's): every position searched up to
/// move number `max_ply`, with each line the engine gave (the best and the other multipv
/// lines): its first move, its value ([`book_value`], the side to move's view) and the
/// search's depth, count 1. A position searched several times takes the deepest search (the
/// later on a tie).
#[derive(Debug)]
pub struct EvalBook {
    max_ply: u32,
    book: Book,
    read: EvalRead,
}

impl EvalBook {
    /// An empty book of positions up to move number `max_ply`.
    pub fn new(max_ply: u32) -> EvalBook {
        EvalBook {
            max_ply,
            book: Book::new(),
            read: EvalRead::default(),
        }
    }

    /// Adds a search of `pos` to `depth`: its lines as (score, first move); a move that is
    /// not legal in `pos` leaves its line out.
    pub fn add(
        &mut self,
        pos: &Position,
        depth: Option<u32>,
        lines: impl IntoIterator<Item = (Option<Score>, Option<Move>)>,
    ) {
        let Some((key, entry)) = counted_entry(&mut self.read, pos, self.max_ply, depth, lines)
        else {
            return;
        };
        let deeper = self
            .book
            .get(&key)
            .is_none_or(|old| replaces(entry_depth(old), entry_depth(&entry)));
        if deeper {
            self.read.unused += u64::from(self.book.insert_key(key, entry).is_some());
        } else {
            self.read.unused += 1;
        }
    }

    /// The book, and what was given.
    pub fn finish(self) -> (Book, EvalRead) {
        (self.book, self.read)
    }
}

/// The book entry of one search of `pos` (key and entry: the legal lines with a value, in
/// `write_book`'s order, each at the search's depth), or `None` when the search gives no line
/// a book can hold (no scored line with a legal move, a position past `max_ply` or not
/// standard shogi).
pub(crate) fn search_entry(
    pos: &Position,
    max_ply: u32,
    depth: Option<u32>,
    lines: impl IntoIterator<Item = (Option<Score>, Option<Move>)>,
) -> Option<(String, Entry)> {
    if pos.variant() != Variant::Standard || pos.move_number() > max_ply {
        return None;
    }
    let depth = depth.map_or(0, |d| i32::try_from(d).unwrap_or(i32::MAX));
    let mut moves: Vec<BookMove> = Vec::new();
    for (score, mv) in lines {
        let (Some(value), Some(mv)) = (score.and_then(book_value), mv) else {
            continue;
        };
        if pos.check_move(mv).is_ok() && moves.iter().all(|m| m.mv != mv) {
            moves.push(BookMove {
                value,
                depth,
                ..BookMove::new(mv)
            });
        }
    }
    if moves.is_empty() {
        return None;
    }
    let mut entry = Entry {
        ply: Some(pos.move_number()),
        moves,
        comments: Vec::new(),
    };
    entry.sort_moves();
    Some((position_key(pos), entry))
}

/// [`search_entry`], counted into `read`: one more result, and one more unused when it gives
/// no entry.
pub(crate) fn counted_entry(
    read: &mut EvalRead,
    pos: &Position,
    max_ply: u32,
    depth: Option<u32>,
    lines: impl IntoIterator<Item = (Option<Score>, Option<Move>)>,
) -> Option<(String, Entry)> {
    read.results += 1;
    let found = search_entry(pos, max_ply, depth, lines);
    read.unused += u64::from(found.is_none());
    found
}

/// The depth of a search's entry (every line of one search has the same).
pub(crate) fn entry_depth(e: &Entry) -> i32 {
    e.moves.first().map_or(0, |m| m.depth)
}

/// Whether a later search of `new_depth` replaces one of `old_depth`: the deeper search
/// gives the lines, the later one on a tie.
pub(crate) fn replaces(old_depth: i32, new_depth: i32) -> bool {
    old_depth <= new_depth
}

/// What [`apply_evaluations`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalReport {
    /// Moves whose value and depth came from the engine's line for the move itself.
    pub from_position: u64,
    /// Moves whose value came from the engine's best line in the position after the move
    /// (negated, depth + 1).
    pub from_child: u64,
    /// Moves the engine did not evaluate (their value and depth are kept).
    pub kept: u64,
}

/// Gives the moves of `book` the values and depths of `evals` (a book of engine lines, such
/// as an analysis cache's): a move the engine searched in the position takes that line's
/// value and depth; otherwise, when the engine searched the position after the move, the move
/// takes the negated value of that position's best line and its depth + 1; otherwise it keeps
/// its own. Positions are matched by their SFEN without the move number. The moves are then
/// sorted again (count, then value).
pub fn apply_evaluations(book: &mut Book, evals: &Book) -> EvalReport {
    let mut report = EvalReport::default();
    for (key, entry) in book.iter_mut() {
        let get = |k: &str| Ok::<_, std::convert::Infallible>(evals.get(k).cloned());
        if let Err(never) = evaluate_entry(key, entry, get, &mut report) {
            match never {}
        }
    }
    report
}

/// [`apply_evaluations`] for one position of a book (what a book written as it is made, in
/// bounded memory, applies to each position as it comes), counted into `report`. `evals`
/// looks a position up by its key (an [`Evals`](crate::Evals) on disk, a [`Book`]); its
/// error stops the valuing.
pub fn evaluate_entry<E>(
    key: &str,
    entry: &mut Entry,
    mut evals: impl FnMut(&str) -> Result<Option<Entry>, E>,
    report: &mut EvalReport,
) -> Result<(), E> {
    let own = evals(key)?;
    let mut pos = None;
    for m in &mut entry.moves {
        if let Some(e) = own
            .as_ref()
            .and_then(|e| e.moves.iter().find(|x| x.mv == m.mv))
        {
            m.value = e.value;
            m.depth = e.depth;
            report.from_position += 1;
            continue;
        }
        let pos = pos.get_or_insert_with(|| Position::from_sfen(&format!("{key} 1")).ok());
        let child = match pos.as_ref().filter(|p| p.check_move(m.mv).is_ok()) {
            Some(p) => {
                let mut c = p.clone();
                c.play_unchecked(m.mv);
                evals(&position_key(&c))?.as_ref().and_then(best_line)
            }
            None => None,
        };
        match child {
            Some((value, depth)) => {
                m.value = value.saturating_neg();
                m.depth = depth.saturating_add(1);
                report.from_child += 1;
            }
            None => report.kept += 1,
        }
    }
    entry.sort_moves();
    Ok(())
}

/// The value and depth of an entry's best move (highest value).
fn best_line(e: &Entry) -> Option<(i32, i32)> {
    e.moves
        .iter()
        .map(|m| (m.value, m.depth))
        .max_by_key(|v| v.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::BookMove;
    use shogi_core::{Move, Variant};

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    #[test]
    fn mates_rank_by_distance() {
        let v = |s| book_value(s).unwrap();
        let mate = |plies| Score::Mate { plies };
        let unknown = |winning| Score::MateUnknown { winning };
        assert_eq!(v(Score::Cp(34)), 34);
        assert_eq!(v(Score::Cp(99_999)), VALUE_MATE);
        assert_eq!(v(mate(3)), 31997);
        assert_eq!(v(mate(-4)), -31996);
        assert_eq!(v(mate(0)), -VALUE_MATE);
        assert!(v(unknown(true)) < v(mate(999)));
        assert!(v(unknown(false)) < 0);
        assert_eq!(book_value(Score::MateGiven), None);
    }

    #[test]
    fn the_deepest_search_gives_the_lines() {
        let start = Position::startpos(Variant::Standard);
        let mut after = start.clone();
        after.play_unchecked(mv("7g7f"));
        let late =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 40")
                .unwrap();
        let mut e = EvalBook::new(32);
        let cp = |n| Some(Score::Cp(n));
        e.add(&start, Some(8), [(cp(5), Some(mv("5g5f")))]);
        e.add(
            &start,
            Some(12),
            [(cp(40), Some(mv("7g7f"))), (cp(-10), Some(mv("2g2f")))],
        );
        // Shallower than the one kept: not used.
        e.add(&start, Some(10), [(cp(99), Some(mv("5g5f")))]);
        e.add(
            &after,
            Some(12),
            [(Some(Score::Mate { plies: 3 }), Some(mv("3c3d")))],
        );
        // Past the ply limit; mated already; an illegal move: not used.
        e.add(&late, Some(8), [(cp(1), Some(mv("7g7f")))]);
        e.add(
            &after,
            Some(30),
            [(Some(Score::MateGiven), Some(mv("3c3d")))],
        );
        e.add(&after, Some(30), [(cp(1), Some(mv("5e5d")))]);
        let (book, read) = e.finish();
        assert_eq!(
            read,
            EvalRead {
                results: 7,
                unused: 5
            }
        );
        let moves = |pos: &Position| -> Vec<(String, i32, i32)> {
            book.probe(pos, crate::Lookup::default())
                .unwrap()
                .moves
                .iter()
                .map(|m| (m.mv.to_usi(), m.value, m.depth))
                .collect()
        };
        assert_eq!(
            moves(&start),
            vec![("7g7f".into(), 40, 12), ("2g2f".into(), -10, 12)]
        );
        assert_eq!(moves(&after), vec![("3c3d".into(), 31997, 12)]);
        assert_eq!(book.len(), 2);
    }

    #[test]
    fn values_come_from_the_move_then_the_child() {
        let start = Position::startpos(Variant::Standard);
        let mut book = Book::new();
        let m = |s: &str, count| BookMove {
            count,
            ..BookMove::new(mv(s))
        };
        book.insert(
            &start,
            Entry {
                ply: Some(1),
                moves: vec![m("7g7f", 5), m("2g2f", 3), m("5g5f", 1)],
                comments: vec![],
            },
        );
        let mut evals = Book::new();
        let line = |s: &str, value, depth| BookMove {
            value,
            depth,
            ..BookMove::new(mv(s))
        };
        evals.insert(
            &start,
            Entry {
                ply: Some(1),
                moves: vec![line("7g7f", 40, 12)],
                comments: vec![],
            },
        );
        let mut after = start.clone();
        after.play_unchecked(mv("2g2f"));
        evals.insert(
            &after,
            Entry {
                ply: Some(2),
                moves: vec![line("8c8d", -10, 9), line("3c3d", 25, 10)],
                comments: vec![],
            },
        );
        let report = apply_evaluations(&mut book, &evals);
        assert_eq!(
            report,
            EvalReport {
                from_position: 1,
                from_child: 1,
                kept: 1
            }
        );
        let e = book.probe(&start, crate::Lookup::default()).unwrap();
        let got: Vec<_> = e
            .moves
            .iter()
            .map(|m| (m.mv.to_usi(), m.value, m.depth))
            .collect();
        assert_eq!(
            got,
            vec![
                ("7g7f".to_string(), 40, 12),
                ("2g2f".to_string(), -25, 11),
                ("5g5f".to_string(), 0, 0)
            ]
        );
    }
}

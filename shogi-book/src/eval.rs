//! Engine evaluations as book values: mate scores on YaneuraOu's scale, and the values of a
//! book built from games replaced by an engine's where it has them.

use crate::backup::VALUE_MATE;
use crate::book::{Book, Entry, position_key};
use shogi_core::Position;

/// The plies an unknown mate distance (`mate +`, `mate -`) is taken as: longer than any known
/// one, so that a mate at a known distance ranks above it.
pub const MATE_UNKNOWN_PLIES: i32 = 1000;

/// An engine's score of a position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in `plies` (positive: the side to move mates; negative: it is mated; 0: it is
    /// mated now).
    Mate(i32),
    /// Mate at an unknown distance: `true` when the side to move mates.
    MateUnknown(bool),
}

impl EngineScore {
    /// The score as a book value (the value of the move the side to move plays): centipawns
    /// clamped to ±[`VALUE_MATE`]; a mate in `n` plies is `VALUE_MATE − n` (negated when the
    /// side to move is mated), as YaneuraOu scores mates; an unknown distance counts as
    /// [`MATE_UNKNOWN_PLIES`].
    pub fn book_value(self) -> i32 {
        match self {
            EngineScore::Cp(cp) => cp.clamp(-VALUE_MATE, VALUE_MATE),
            EngineScore::Mate(n) if n > 0 => VALUE_MATE - n.min(VALUE_MATE),
            EngineScore::Mate(n) => -(VALUE_MATE - n.saturating_neg().min(VALUE_MATE)),
            EngineScore::MateUnknown(true) => VALUE_MATE - MATE_UNKNOWN_PLIES,
            EngineScore::MateUnknown(false) => -(VALUE_MATE - MATE_UNKNOWN_PLIES),
        }
    }
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
        let own = evals.get(key);
        let mut pos = None;
        for m in &mut entry.moves {
            if let Some(e) = own.and_then(|e| e.moves.iter().find(|x| x.mv == m.mv)) {
                m.value = e.value;
                m.depth = e.depth;
                report.from_position += 1;
                continue;
            }
            let pos = pos.get_or_insert_with(|| Position::from_sfen(&format!("{key} 1")).ok());
            let child = pos.as_ref().and_then(|p| {
                p.check_move(m.mv).ok()?;
                let mut c = p.clone();
                c.play_unchecked(m.mv);
                evals.get(&position_key(&c)).and_then(best_line)
            });
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
    }
    report
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
        assert_eq!(EngineScore::Cp(34).book_value(), 34);
        assert_eq!(EngineScore::Cp(99_999).book_value(), VALUE_MATE);
        assert_eq!(EngineScore::Mate(3).book_value(), 31997);
        assert_eq!(EngineScore::Mate(-4).book_value(), -31996);
        assert_eq!(EngineScore::Mate(0).book_value(), -VALUE_MATE);
        assert!(EngineScore::MateUnknown(true).book_value() < EngineScore::Mate(999).book_value());
        assert!(EngineScore::MateUnknown(false).book_value() < 0);
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

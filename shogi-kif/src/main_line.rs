//! A record's main line replayed: [`MainLine`], the one type that holds what playing the main
//! line tells beyond the record (the positions passed through, the final position, the first
//! four-fold repetition), and the queries on it. The reader fills one while it replays (see
//! [`crate::ReadRecord::main`]); [`MainLine::replay`] makes one for any record.

use crate::model::{MoveNode, Record};
use shogi_core::{Color, Game, Move, PlayError, Position, Repetition};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// What replaying a record's main line tells (the start is the record's,
/// [`Record::start_position`]): kept so that neither [`crate::validate`],
/// [`crate::outcome`] nor a caller (statistics, an index, a position search) plays the moves
/// again.
///
/// ```
/// use shogi_kif::{MainLine, ReadOptions, read_str};
///
/// let record = read_str("position startpos moves 7g7f 3c3d 8h2b+", ReadOptions::default())?;
/// let main = MainLine::replay(&record);
/// assert_eq!(main.played(), 3);
/// let after = record.position_at(2).ok_or("no position")?;
/// assert!(main.reached(&record, &after));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MainLine {
    /// The Zobrist key after each main-line move up to (not including) a declared foul or a
    /// move that cannot be played; the start's key is not in it.
    pub keys: Vec<u64>,
    /// The position after the last of those moves (boxed: a line moves from stage to stage of
    /// a batch with its record, and a position inline was nine tenths of its size).
    pub last: Box<Position>,
    /// The first four-fold repetition of those moves.
    pub repetition: Option<Repetition>,
}

impl MainLine {
    /// Replays `record`'s main line, checking each move, up to a declared foul or the first
    /// move that cannot be played. A record from the reader has its [`MainLine`] already
    /// ([`crate::ReadRecord::main`], with validation on).
    pub fn replay(record: &Record) -> MainLine {
        let mut main = MainLine::played_through(record);
        main.repetition = first_repetition(record, &record.moves.moves, &main).map(|(_, r)| r);
        main
    }

    /// [`MainLine::replay`] without looking for a repetition.
    pub(crate) fn played_through(record: &Record) -> MainLine {
        let moves = &record.moves.moves;
        let mut last = record.start_position().clone();
        let mut keys = Vec::with_capacity(moves.len());
        for node in moves {
            if node.foul.is_some() || last.check_move(node.mv).is_err() {
                break;
            }
            last.play_unchecked(node.mv);
            keys.push(last.key());
        }
        MainLine {
            keys,
            last: Box::new(last),
            repetition: None,
        }
    }

    /// How many main-line moves were played (a declared foul move and what follows are not).
    pub fn played(&self) -> usize {
        self.keys.len()
    }

    /// Whether every main-line move of `record` (the record this line was replayed from) was
    /// played: none was a declared foul or could not be played.
    pub fn is_complete(&self, record: &Record) -> bool {
        self.keys.len() == record.moves.moves.len()
    }

    /// The side to move after every main-line move of `record` (a recorded foul move counts
    /// as played).
    pub fn side_to_move_at_end(&self, record: &Record) -> Color {
        if record.moves.moves.len() % 2 == 0 {
            record.start_position().side_to_move()
        } else {
            !record.start_position().side_to_move()
        }
    }

    /// The final position, when every main-line move of `record` was played.
    pub fn final_position(&self, record: &Record) -> Option<&Position> {
        self.is_complete(record).then_some(&self.last)
    }

    /// The four-fold repetition completed by `record`'s last main-line move, if there is one
    /// and every move was played.
    pub fn ending_repetition(&self, record: &Record) -> Option<Repetition> {
        let moves = record.moves.moves.len();
        self.repetition
            .filter(|r| r.fourth_ply == moves && self.is_complete(record))
    }

    /// Whether the main line of `record` passes through `want` (the start included),
    /// compared by Zobrist key and confirmed by board, hands and side to move
    /// ([`Position::same_position`]). Only the moves up to a position with `want`'s key are
    /// played again.
    pub fn reached(&self, record: &Record, want: &Position) -> bool {
        let want_key = want.key();
        let start = record.start_position();
        if start.key() == want_key && start.same_position(want) {
            return true;
        }
        let moves = &record.moves.moves;
        let mut pos = start.clone();
        let mut played = 0;
        let candidates = self
            .keys
            .iter()
            .enumerate()
            .filter(|(_, k)| **k == want_key);
        for (ply, _) in candidates {
            let Some(between) = moves.get(played..=ply) else {
                return false;
            };
            for node in between {
                pos.play_unchecked(node.mv);
            }
            played = ply + 1;
            if pos.same_position(want) {
                return true;
            }
        }
        false
    }
}

/// Passes a Zobrist key through unchanged (the keys are random already).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Whether some key of `start` and `keys` may occur four times: counts by the key's low 12
/// bits (a key seen four times finds its slot at three; the reverse needs a recount). Most
/// games repeat no position four times, and this answers them without a hash map.
fn may_repeat(start: u64, keys: &[u64]) -> bool {
    const SLOTS: usize = 4096;
    thread_local! {
        // Two bits a slot (how many keys of the slot were seen, up to three): 1 KB, which
        // stays in the cache where a byte a slot (4 KB) missed it a move. Kept between calls
        // and cleared after each. Left dirty only by a panic, which can only make a slot read
        // high: a "maybe" that the hash map then settles.
        static COUNTS: RefCell<[u64; SLOTS / 32]> = const { RefCell::new([0; SLOTS / 32]) };
    }
    COUNTS.with(|cell| {
        let Ok(mut counts) = cell.try_borrow_mut() else {
            return true;
        };
        // Counts the key; whether it is the fourth of its slot.
        let mut fourth = |k: u64| {
            let slot = k as usize % SLOTS;
            let word = &mut counts[slot / 32];
            let shift = (slot % 32) * 2;
            if (*word >> shift) & 3 == 3 {
                return true;
            }
            *word += 1 << shift;
            false
        };
        fourth(start);
        let found = keys.iter().any(|&k| fourth(k));
        *counts = [0; SLOTS / 32];
        found
    })
}

/// A main-line move as validation reads it: the move, the line it is written on and, for a
/// declared foul, the rule it breaks. The record's [`MoveNode`]s are such moves, and so are
/// the [`Played`] moves the reader keeps instead when the record's moves are not wanted
/// ([`crate::ReadOptions::moves`]).
pub(crate) trait PlayedMove {
    fn mv(&self) -> Move;
    fn source_line(&self) -> u32;
    fn foul(&self) -> Option<PlayError>;
}

impl PlayedMove for MoveNode {
    fn mv(&self) -> Move {
        self.mv
    }
    fn source_line(&self) -> u32 {
        self.source_line
    }
    fn foul(&self) -> Option<PlayError> {
        self.foul
    }
}

/// A main-line move without the rest of a [`MoveNode`] (times, comments, variations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Played {
    pub mv: Move,
    pub source_line: u32,
    pub foul: Option<PlayError>,
}

impl PlayedMove for Played {
    fn mv(&self) -> Move {
        self.mv
    }
    fn source_line(&self) -> u32 {
        self.source_line
    }
    fn foul(&self) -> Option<PlayError> {
        self.foul
    }
}

/// The first four-fold repetition of `main` (a line of `record`), with the index of the move
/// that completes it. Positions are counted by their Zobrist keys; shogi-core's [`Game`] is
/// asked for the details (perpetual check) only when a key is seen a fourth time.
pub(crate) fn first_repetition<M: PlayedMove>(
    record: &Record,
    moves: &[M],
    main: &MainLine,
) -> Option<(usize, Repetition)> {
    if main.keys.len() < 8 || !may_repeat(record.start_position().key(), &main.keys) {
        return None;
    }
    let mut seen: HashMap<u64, u8, BuildHasherDefault<KeyHasher>> = HashMap::default();
    seen.reserve(main.keys.len() + 1);
    seen.insert(record.start_position().key(), 1);
    for (i, &key) in main.keys.iter().enumerate() {
        let n = seen.entry(key).or_insert(0);
        *n = n.saturating_add(1);
        if *n < 4 {
            continue;
        }
        let mut game = Game::new(record.start_position().clone());
        for m in &moves[..=i] {
            game.play_unchecked(m.mv());
        }
        if let Some(r) = game.repetition() {
            return Some((i, r));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{ReadOptions, ReadRecord, Reader, read_str};
    use shogi_core::{Move, Variant};

    #[test]
    fn the_repetition_prefilter_never_misses_a_key_seen_four_times() {
        // Distinct keys in distinct slots: no repetition possible.
        let keys: Vec<u64> = (1..200u64).map(|k| k * 0x1_0001).collect();
        assert!(!may_repeat(0, &keys));
        // A key seen four times (the start's included) is always caught.
        let mut cycle = keys[..20].to_vec();
        cycle.extend([7, 7, 7]);
        assert!(may_repeat(7, &cycle));
        assert!(!may_repeat(8, &cycle[..22]));
        // Four different keys in one slot: a "maybe", which the hash map then settles.
        let same_slot: Vec<u64> = (1..5u64).map(|k| k << 40 | 5).collect();
        assert!(may_repeat(0, &same_slot));
        // Neighbouring slots share a word of the table: three keys each in slots 31, 32 and
        // 33 (and the start once in 63) make no fourth; one more in slot 32 does.
        let mut near: Vec<u64> = [31u64, 32, 33].iter().flat_map(|&s| [s; 3]).collect();
        assert!(!may_repeat(63, &near));
        near.push(32 + (1 << 40));
        assert!(may_repeat(63, &near));
        assert!(may_repeat(31, &near[..3]));
        // The table is clean after every call, found or not: the answers do not change.
        for _ in 0..3 {
            assert!(!may_repeat(0, &keys));
            assert!(may_repeat(7, &cycle));
            assert!(!may_repeat(8, &cycle[..22]));
        }
    }

    fn read_one(text: &str) -> ReadRecord {
        let mut games = Reader::new(text.as_bytes(), ReadOptions::default()).unwrap();
        let g = games.next().unwrap();
        assert!(g.error.is_none(), "{text}: {:?}", g.error);
        g
    }

    fn after(moves: &[&str]) -> Position {
        let mut p = Position::startpos(Variant::Standard);
        for m in moves {
            p.play(Move::from_usi(m).unwrap()).unwrap();
        }
        p
    }

    /// What the reader keeps is what replaying the record gives, and the queries answer
    /// alike from both: positions reached (the start, a later one, one of a cycle) and not.
    #[test]
    fn the_readers_main_line_is_the_replayed_one() {
        let cycle = "2h3h 8b7b 3h2h 7b8b ".repeat(3);
        let texts = [
            format!("position startpos moves {cycle}7g7f\n"),
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n".to_string(),
            "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b\n".to_string(),
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 反則負け\n".to_string(),
            "position startpos\n".to_string(),
        ];
        let wants = [
            Position::startpos(Variant::Standard),
            after(&["7g7f", "3c3d"]),
            after(&["2h3h"]),
            after(&["7g7f", "3c3d", "2g2f"]),
        ];
        for text in &texts {
            let game = read_one(text);
            let main = game.main.as_ref().unwrap();
            let replayed = MainLine::replay(&game.record);
            assert_eq!(main, &replayed, "{text}");
            for want in &wants {
                assert_eq!(
                    main.reached(&game.record, want),
                    replayed.reached(&game.record, want),
                    "{text}"
                );
            }
        }
        // The cases mean something: a repetition, positions reached and not.
        let game = read_one(&texts[0]);
        let main = game.main.as_ref().unwrap();
        assert_eq!(main.repetition.map(|r| r.fourth_ply), Some(12));
        assert!(main.reached(&game.record, &wants[2]));
        assert!(!main.reached(&game.record, &wants[3]));
        let game = read_one(&texts[1]);
        assert!(game.main.unwrap().reached(&game.record, &wants[1]));
    }

    /// A record's queries at its end: a foul move is not played but counts for the side to
    /// move; a repetition counts at the end only when the last move completes it.
    #[test]
    fn the_end_of_the_line() {
        // Nine moves, the ninth a pawn dropped on a file that holds one (二歩).
        let text = include_str!("../tests/fixtures/dialects/foul_closing.kifu");
        let foul = read_one(text);
        assert!(foul.record.moves.moves[8].foul.is_some());
        let main = MainLine::replay(&foul.record);
        assert_eq!(foul.main.as_ref(), Some(&main));
        assert_eq!(main.played(), 8);
        assert!(!main.is_complete(&foul.record));
        assert_eq!(main.final_position(&foul.record), None);
        assert_eq!(main.side_to_move_at_end(&foul.record), Color::White);
        let cycle = "2h3h 8b7b 3h2h 7b8b ".repeat(3);
        let ends = read_str(
            &format!("position startpos moves {cycle}"),
            ReadOptions::default(),
        )
        .unwrap();
        let main = MainLine::replay(&ends);
        assert_eq!(
            main.ending_repetition(&ends).map(|r| r.fourth_ply),
            Some(12)
        );
        let goes_on = read_str(
            &format!("position startpos moves {cycle}7g7f"),
            ReadOptions::default(),
        )
        .unwrap();
        let main = MainLine::replay(&goes_on);
        assert!(main.repetition.is_some());
        assert_eq!(main.ending_repetition(&goes_on), None);
        assert_eq!(main.final_position(&goes_on), Some(&*main.last));
    }
}

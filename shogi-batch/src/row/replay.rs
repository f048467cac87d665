//! Replaying a game's main line for its row: the final position, a four-fold repetition,
//! whether a wanted position was passed through (from what the reader kept, or by playing
//! the record's moves).

use shogi_core::{Color, Game, Position, Repetition};
use shogi_kif::{MainLine, Record};

/// What replaying a game's main line tells beyond the record: the final position, a
/// four-fold repetition, whether a given position was passed through.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// The position after the last playable main-line move.
    pub last: Option<Position>,
    /// Moves played (a declared foul move and anything after it are not).
    pub played: usize,
    /// The first four-fold repetition.
    pub repetition: Option<Repetition>,
    /// Whether the main line passed through the wanted position (see [`replay`]).
    pub reached: bool,
    /// The side to move at the start.
    pub start_side: Option<Color>,
}

/// Replays the main line of `record`, looking for `want` on the way (compared by Zobrist
/// key, confirmed by board, hands and side to move).
///
/// The record must be as the reader gives it: every main-line move legal up to a declared
/// foul (moves are played without checking them again; an illegal one would give a wrong
/// answer, never a crash).
pub fn replay(record: &Record, want: Option<&Position>) -> Replay {
    let Some(start) = start_position(record) else {
        return Replay::default();
    };
    let mut pos = start.clone();
    let want_key = want.map(Position::key);
    let hit = |p: &Position| match (want, want_key) {
        (Some(w), Some(k)) => p.key() == k && p.same_position(w),
        _ => false,
    };
    let mut out = Replay {
        reached: hit(&pos),
        start_side: Some(start.side_to_move()),
        ..Replay::default()
    };
    let moves = &record.moves.moves;
    let mut keys = Vec::with_capacity(moves.len() + 1);
    keys.push(pos.key());
    for node in moves {
        if node.foul.is_some() {
            break;
        }
        pos.play_unchecked(node.mv);
        keys.push(pos.key());
        if !out.reached && want.is_some() && hit(&pos) {
            out.reached = true;
        }
    }
    out.played = keys.len() - 1;
    if let Some(ply) = fourth_occurrence(&keys) {
        let mut game = Game::new(start);
        for node in &moves[..ply] {
            game.play_unchecked(node.mv);
        }
        out.repetition = game.repetition();
    }
    out.last = Some(pos);
    out
}

/// [`replay`] from what the reader learned while replaying the main line of `record`
/// (`main`, see [`shogi_kif::ReadRecord::main`]): nothing is played again, except the moves up to
/// a position whose key is `want`'s, to confirm it.
pub fn replay_main(record: &Record, main: &MainLine, want: Option<&Position>) -> Replay {
    let mut out = Replay {
        last: Some(main.last.clone()),
        played: main.keys.len(),
        repetition: main.repetition,
        reached: false,
        start_side: Some(main.start.side_to_move()),
    };
    let Some(want) = want else {
        return out;
    };
    let want_key = want.key();
    if main.start.key() == want_key && main.start.same_position(want) {
        out.reached = true;
        return out;
    }
    let moves = &record.moves.moves;
    let mut pos = main.start.clone();
    let mut played = 0;
    for (ply, _) in main
        .keys
        .iter()
        .enumerate()
        .filter(|(_, k)| **k == want_key)
    {
        let Some(between) = moves.get(played..=ply) else {
            break;
        };
        for node in between {
            pos.play_unchecked(node.mv);
        }
        played = ply + 1;
        if pos.same_position(want) {
            out.reached = true;
            break;
        }
    }
    out
}

/// The start position; the usual starts are parsed once per process, not once per game.
fn start_position(record: &Record) -> Option<Position> {
    static STARTS: std::sync::OnceLock<[Position; 2]> = std::sync::OnceLock::new();
    let starts = STARTS.get_or_init(|| {
        [
            Position::startpos(shogi_core::Variant::Standard),
            Position::startpos(shogi_core::Variant::Mini),
        ]
    });
    let sfen = record.start.sfen.as_str();
    if sfen == shogi_core::Variant::Standard.start_sfen() {
        Some(starts[0].clone())
    } else if sfen == shogi_core::Variant::Mini.start_sfen() {
        Some(starts[1].clone())
    } else {
        record.start_position()
    }
}

/// A slot of the repetition table: a key, how often it was seen, and the game it belongs to
/// (slots of earlier games count as empty, so the table is never cleared).
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    stamp: u32,
    count: u8,
}

thread_local! {
    /// The repetition table of this thread, reused from game to game.
    static TABLE: std::cell::RefCell<(Vec<Slot>, u32)> = const { std::cell::RefCell::new((Vec::new(), 0)) };
}

/// The first ply (index into `keys`, the position keys from the start) at which a position is
/// seen for the fourth time: counted in an open-addressing table of the (already random)
/// Zobrist keys.
fn fourth_occurrence(keys: &[u64]) -> Option<usize> {
    if keys.len() < 9 {
        return None;
    }
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        let (table, stamp) = &mut *t;
        let size = (keys.len() * 2).next_power_of_two();
        *stamp = stamp.wrapping_add(1);
        if table.len() < size || *stamp == 0 {
            table.clear();
            table.resize(size.max(table.len()), Slot::default());
            *stamp = 1;
        }
        let mask = size - 1;
        let stamp = *stamp;
        keys.iter().enumerate().find_map(|(ply, &k)| {
            let mut i = (k as usize) & mask;
            loop {
                let slot = &mut table[i];
                if slot.stamp != stamp {
                    *slot = Slot {
                        key: k,
                        stamp,
                        count: 1,
                    };
                    return None;
                }
                if slot.key == k {
                    slot.count += 1;
                    return (slot.count == 4).then_some(ply);
                }
                i = (i + 1) & mask;
            }
        })
    })
}

/// Same board, hands and side to move (the move number aside). Kept for callers; it is
/// [`Position::same_position`], which new code calls directly.
pub fn same_position(a: &Position, b: &Position) -> bool {
    a.same_position(b)
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::tests::read_one;

    /// What the reader kept gives the replay that playing the moves again gives, with and
    /// without a wanted position (the start, one reached later, a transposition's twin and
    /// one never reached).
    #[test]
    fn the_readers_main_line_replays_like_the_moves() {
        let cycle = "2h3h 8b7b 3h2h 7b8b ".repeat(3);
        let texts = [
            format!("position startpos moves {cycle}7g7f\n"),
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n".to_string(),
            "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b\n".to_string(),
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 反則負け\n".to_string(),
            "position startpos\n".to_string(),
        ];
        let start = Position::startpos(shogi_core::Variant::Standard);
        let mut after = start.clone();
        for m in ["7g7f", "3c3d"] {
            after.play(shogi_core::Move::from_usi(m).unwrap()).unwrap();
        }
        let mut rook = start.clone();
        rook.play(shogi_core::Move::from_usi("2h3h").unwrap())
            .unwrap();
        let wants = [None, Some(&start), Some(&after), Some(&rook), Some(&after)];
        let mut never = after.clone();
        never
            .play(shogi_core::Move::from_usi("2g2f").unwrap())
            .unwrap();
        for text in &texts {
            let game = read_one(text);
            let record = game.record.as_ref().unwrap();
            assert!(game.main.is_some(), "{text}");
            for want in wants.iter().copied().chain([Some(&never)]) {
                let (a, b) = (replay(record, want), game.replay(want));
                let sfen = |r: &Replay| r.last.as_ref().map(Position::to_sfen);
                assert_eq!(sfen(&a), sfen(&b), "{text}");
                assert_eq!(a.played, b.played, "{text}");
                assert_eq!(a.repetition, b.repetition, "{text}");
                assert_eq!(a.reached, b.reached, "{text} {want:?}");
                assert_eq!(a.start_side, b.start_side, "{text}");
            }
        }
        // The cases mean something: a repetition, positions reached and not.
        let game = read_one(&texts[0]);
        assert!(game.replay(None).repetition.is_some());
        assert!(game.replay(Some(&rook)).reached);
        assert!(!game.replay(Some(&never)).reached);
        assert!(read_one(&texts[1]).replay(Some(&after)).reached);
    }

    #[test]
    fn fourth_occurrence_counts_per_game() {
        let keys = [1, 2, 1, 2, 1, 2, 1, 2, 3];
        assert_eq!(fourth_occurrence(&keys), Some(6));
        // A later, shorter game in the same table: earlier counts do not leak.
        assert_eq!(fourth_occurrence(&[1, 2, 3, 4, 5, 6, 7, 8, 1]), None);
        assert_eq!(fourth_occurrence(&[5; 9]), Some(3));
        let long: Vec<u64> = (0..5000).map(|i| i % 1700).collect();
        assert_eq!(fourth_occurrence(&long), None);
    }
}

//! The searches of an analysis: one slot per distinct search, and which slots each game's
//! positions use.
//!
//! In position mode (the default) a search is a position alone, sent as `position sfen …`
//! with no moves: its key is the full SFEN, and a position met in several games (a shared
//! opening, a transposition) is searched once. In game mode a search is a position with the
//! game's moves before it, sent as `position sfen START moves …` as ShogiHome sends it, so the
//! engine sees the history (repetitions); its key is the position's SFEN and a 128-bit hash of
//! the start and the moves, and a prefix shared by several games (same start, same moves) is
//! searched once. Either way each search starts from a fresh engine state, so its result
//! depends on its key, the engine, its options and the limit alone.

use crate::read::GameIn;
use shogi_core::{Move, Position};
use std::collections::HashMap;
use std::sync::Arc;

/// How positions are sent to the engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnalyzeMode {
    /// Each position alone (`position sfen …`): a result depends on the position only.
    #[default]
    Position,
    /// Each position with the game's moves before it (`position sfen START moves …`): the
    /// engine sees repetitions; a result depends on the game up to that position.
    Game,
}

impl AnalyzeMode {
    /// Its name in the cache key.
    pub fn name(self) -> &'static str {
        match self {
            AnalyzeMode::Position => "position",
            AnalyzeMode::Game => "game",
        }
    }
}

/// A game's start and moves, shared by the slots of its prefixes.
#[derive(Clone, Debug)]
pub struct History {
    start: Arc<Position>,
    moves: Arc<[Move]>,
    ply: usize,
}

/// One search.
#[derive(Clone, Debug)]
pub struct Slot {
    /// The cache key (see the module docs).
    pub key: String,
    /// The position searched.
    pub position: Position,
    /// In game mode, the start and moves sent before it.
    history: Option<History>,
}

impl Slot {
    /// The start position and moves to send (`position` with no moves in position mode).
    pub fn sent(&self) -> (&Position, &[Move]) {
        match &self.history {
            Some(h) => (&h.start, &h.moves[..h.ply]),
            None => (&self.position, &[]),
        }
    }
}

/// One slot per distinct search, and each game's slots in ply order (none when the results
/// come from the records' comments).
pub fn distinct(
    games: &[GameIn],
    from_comments: bool,
    mode: AnalyzeMode,
) -> (Vec<Slot>, Vec<Vec<usize>>) {
    let mut slot_of: HashMap<String, usize> = HashMap::new();
    let mut slots: Vec<Slot> = Vec::new();
    let mut game_slots: Vec<Vec<usize>> = Vec::with_capacity(games.len());
    for g in games {
        let mut v = Vec::with_capacity(g.positions.len());
        if !from_comments && !g.positions.is_empty() {
            let shared = (mode == AnalyzeMode::Game).then(|| {
                (
                    Arc::new(g.positions[0].clone()),
                    Arc::<[Move]>::from(&g.moves[..g.positions.len() - 1]),
                )
            });
            let mut hash = HistoryHash::new(&g.positions[0].to_sfen());
            for (ply, p) in g.positions.iter().enumerate() {
                if ply > 0 {
                    hash.push(g.moves[ply - 1]);
                }
                let sfen = p.to_sfen();
                let key = match mode {
                    AnalyzeMode::Position => sfen,
                    AnalyzeMode::Game => format!("{sfen} history {:032x}", hash.value()),
                };
                let n = slots.len();
                let s = *slot_of.entry(key.clone()).or_insert(n);
                if s == n {
                    let history = shared.as_ref().map(|(start, moves)| History {
                        start: Arc::clone(start),
                        moves: Arc::clone(moves),
                        ply,
                    });
                    slots.push(Slot {
                        key,
                        position: p.clone(),
                        history,
                    });
                }
                v.push(s);
            }
        }
        game_slots.push(v);
    }
    (slots, game_slots)
}

/// FNV-1a over 128 bits of the start SFEN and the USI moves, each followed by a space: the
/// game-mode key's history part (stable across versions and platforms).
struct HistoryHash(u128);

const FNV128_PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
const FNV128_OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;

impl HistoryHash {
    fn new(start: &str) -> HistoryHash {
        let mut h = HistoryHash(FNV128_OFFSET);
        h.bytes(start.as_bytes());
        h.bytes(b" ");
        h
    }

    fn bytes(&mut self, b: &[u8]) {
        for &c in b {
            self.0 ^= u128::from(c);
            self.0 = self.0.wrapping_mul(FNV128_PRIME);
        }
    }

    fn push(&mut self, m: Move) {
        self.bytes(m.usi().as_str().as_bytes());
        self.bytes(b" ");
    }

    fn value(&self) -> u128 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::Variant;

    fn game(moves: &[&str]) -> GameIn {
        let mut pos = Position::startpos(Variant::Standard);
        let mut g = GameIn {
            positions: vec![pos.clone()],
            ..GameIn::default()
        };
        for m in moves {
            let m = Move::from_usi(m).unwrap();
            pos.play(m).unwrap();
            g.moves.push(m);
            g.positions.push(pos.clone());
        }
        g
    }

    #[test]
    fn position_mode_merges_transpositions_and_game_mode_does_not() {
        // Two move orders to the same position.
        let a = game(&["7g7f", "3c3d", "2g2f"]);
        let b = game(&["2g2f", "3c3d", "7g7f"]);
        let games = [a, b];
        let (slots, per) = distinct(&games, false, AnalyzeMode::Position);
        assert_eq!(per[0][3], per[1][3]);
        assert_eq!(per[0][0], per[1][0]);
        assert_eq!(slots.len(), 6);
        assert!(slots.iter().all(|s| s.sent().1.is_empty()));
        let (slots, per) = distinct(&games, false, AnalyzeMode::Game);
        assert_ne!(per[0][3], per[1][3]);
        // The start is the same prefix (no moves) in both games.
        assert_eq!(per[0][0], per[1][0]);
        assert_eq!(slots.len(), 7);
        let s = &slots[per[1][2]];
        let (start, moves) = s.sent();
        assert_eq!(start, &Position::startpos(Variant::Standard));
        let usi: Vec<String> = moves.iter().map(|m| m.to_usi()).collect();
        assert_eq!(usi, ["2g2f", "3c3d"]);
        // The key names the position searched, and its history.
        assert!(s.key.starts_with(&s.position.to_sfen()), "{}", s.key);
        assert!(s.key.contains(" history "), "{}", s.key);
    }

    #[test]
    fn game_mode_shares_a_common_prefix() {
        let games = [
            game(&["7g7f", "3c3d", "2g2f"]),
            game(&["7g7f", "3c3d", "8h2b+"]),
        ];
        let (slots, per) = distinct(&games, false, AnalyzeMode::Game);
        assert_eq!(&per[0][..3], &per[1][..3]);
        assert_ne!(per[0][3], per[1][3]);
        assert_eq!(slots.len(), 5);
    }

    #[test]
    fn fnv128_matches_its_published_value() {
        // FNV-1a 128 of "a" (the reference implementation's test vector).
        let mut h = HistoryHash(FNV128_OFFSET);
        h.bytes(b"a");
        assert_eq!(h.value(), 0xd228_cb69_6f1a_8caf_7891_2b70_4e4a_8964);
    }
}

//! Books built from games: every position up to a ply reached by enough games, each move with
//! how many games played it and a value from their results.

use crate::book::{Book, Entry, position_key};
use crate::error::BookError;
use crate::spill::{Spill, Tallied, encode};
use shogi_core::{Color, Move, Position};
use shogi_train::{GameResult, PositionFormat};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;

/// Hashes a packed position: its bytes folded 8 at a time with a multiply (the bytes of
/// PackedSfen spread well already; SipHash's resistance to chosen keys is not needed for
/// positions of games, and it took a large share of the counting).
#[derive(Default)]
struct PackedHasher(u64);

impl Hasher for PackedHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type Index = HashMap<[u8; 32], u32, BuildHasherDefault<PackedHasher>>;

/// No move (the end of a position's list).
const NONE: u32 = u32::MAX;

/// Settings of a [`Builder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Positions whose move number is at most this are counted (the start position is 1).
    pub max_ply: u32,
    /// A position enters the book when at least this many games reached it.
    pub min_games: u32,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            max_ply: 32,
            min_games: 1,
        }
    }
}

/// The tally of one move of a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTally {
    /// Games that played the move from the position.
    pub games: u64,
    /// Of those, games the mover won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the mover lost.
    pub losses: u64,
}

impl MoveTally {
    /// The book value of these results (see [`value_from_results`]).
    pub fn value(&self) -> i32 {
        value_from_results(self.wins, self.draws, self.losses)
    }
}

/// The value a move gets from the results of the games that played it, from the mover's
/// point of view: the score `s = wins + draws / 2` of the `n` games with a result, smoothed
/// to `p = (s + 1) / (n + 2)` (one won and one lost game added, so that a single game does not
/// give an infinite value), then mapped through the logistic curve YaneuraOu uses between
/// evaluations and winning rates, `value = 600 · ln(p / (1 − p))`, rounded. A 50 % score is 0,
/// 75 % over many games about +659, 9 wins out of 9 gives p = 10/11 and +1382; games without
/// a result are counted in `count` but not here.
pub fn value_from_results(wins: u64, draws: u64, losses: u64) -> i32 {
    let n = (wins + draws + losses) as f64;
    let s = wins as f64 + draws as f64 / 2.0;
    let p = (s + 1.0) / (n + 2.0);
    (600.0 * (p / (1.0 - p)).ln()).round() as i32
}

/// A position of the count table: its smallest ply, games reaching it, the last game that
/// did, and its newest move (its moves are a list through the table's move array, so a
/// position costs no allocation of its own).
#[derive(Clone, Copy, Debug)]
struct Node {
    games: u64,
    last_game: u64,
    ply: u32,
    newest: u32,
}

/// A move of a position in the count table: its tally, the last game that played it, and
/// the position's move before it.
#[derive(Clone, Copy, Debug)]
struct MoveSlot {
    tally: MoveTally,
    last_game: u64,
    mv: Move,
    older: u32,
}

/// Positions and moves counted in memory: packed positions numbered through a hash table,
/// their nodes and moves in two arrays. Emptied (its capacity kept) when sorted into a chunk.
#[derive(Debug, Default)]
struct Table {
    index: Index,
    nodes: Vec<Node>,
    moves: Vec<MoveSlot>,
}

/// Bytes a new position costs: its key and number in the hash table and its node (counted
/// twice, as both grow by doubling), and its key while the table is sorted into a chunk.
const NODE_BYTES: usize = 2 * (32 + 4 + 1 + std::mem::size_of::<Node>()) + 112 + 12;
/// Bytes a new move costs: its slot (counted twice, as the array grows by doubling).
const MOVE_BYTES: usize = 2 * std::mem::size_of::<MoveSlot>();

/// Counts positions and moves over games, then makes the book ([`Builder::finish`]).
///
/// Each game counts once per position it reaches (a position reached twice in one game counts
/// one game) and once per move it plays from there. A builder made with [`Builder::spilling`]
/// holds at most about its memory bound of positions: beyond it the tallies go to sorted
/// temporary files, merged when the book is made; the book is the same.
#[derive(Debug)]
pub struct Builder {
    options: BuildOptions,
    table: Table,
    used: usize,
    spill: Option<Spill>,
    games: u64,
    skipped: u64,
}

impl Builder {
    /// An empty builder holding every position in memory.
    pub fn new(options: BuildOptions) -> Builder {
        Builder {
            options,
            table: Table::default(),
            used: 0,
            spill: None,
            games: 0,
            skipped: 0,
        }
    }

    /// An empty builder holding about `memory` bytes of positions, writing sorted runs to
    /// temporary files in `temp_dir` beyond that (removed when the builder is finished or
    /// dropped).
    pub fn spilling(options: BuildOptions, memory: usize, temp_dir: &Path) -> Builder {
        Builder {
            spill: Some(Spill::new(memory, temp_dir)),
            ..Builder::new(options)
        }
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Games left out because their positions cannot be in a book (Mini Shogi, or a start
    /// position PackedSfen cannot hold).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// Sorted runs written to temporary files so far.
    pub fn runs(&self) -> usize {
        self.spill.as_ref().map_or(0, Spill::runs)
    }

    /// Adds a game: its start position, its moves (legal, as a replayed main line is) and
    /// its result (`None` when it has none). Returns false (and counts the game as skipped)
    /// when its positions cannot be in a book; an illegal move ends the game there. A failure
    /// to write a run is kept and returned by [`Builder::finish`]; games after it are skipped.
    pub fn add_game(
        &mut self,
        start: &Position,
        moves: &[Move],
        result: Option<GameResult>,
    ) -> bool {
        let failed = self.spill.as_ref().is_some_and(Spill::failed);
        if failed || PositionFormat::PackedSfen.encode_to_array(start).is_err() {
            self.skipped += 1;
            return false;
        }
        self.games += 1;
        self.count_game(start, moves, result);
        if let Some(spill) = &mut self.spill {
            if self.used >= spill.table {
                spill.add_chunk(self.table.sorted_chunk());
                self.used = 0;
            }
        }
        true
    }

    fn count_game(&mut self, start: &Position, moves: &[Move], result: Option<GameResult>) {
        let game = self.games;
        let mut pos = start.clone();
        for &mv in moves {
            let ply = pos.move_number();
            if ply > self.options.max_ply || pos.check_move(mv).is_err() {
                break;
            }
            let Ok(packed) = PositionFormat::PackedSfen.encode_to_array(&pos) else {
                break;
            };
            let mover = pos.side_to_move();
            let table = &mut self.table;
            let fresh = table.nodes.len() as u32;
            let id = *table.index.entry(packed).or_insert(fresh) as usize;
            if id == table.nodes.len() {
                self.used += NODE_BYTES;
                table.nodes.push(Node {
                    games: 0,
                    last_game: 0,
                    ply,
                    newest: NONE,
                });
            }
            let node = &mut table.nodes[id];
            node.ply = node.ply.min(ply);
            if node.last_game != game {
                node.last_game = game;
                node.games += 1;
            }
            let mut at = node.newest;
            while at != NONE && table.moves[at as usize].mv != mv {
                at = table.moves[at as usize].older;
            }
            if at == NONE {
                self.used += MOVE_BYTES;
                at = table.moves.len() as u32;
                table.moves.push(MoveSlot {
                    tally: MoveTally::default(),
                    last_game: 0,
                    mv,
                    older: node.newest,
                });
                node.newest = at;
            }
            let slot = &mut table.moves[at as usize];
            if slot.last_game != game {
                slot.last_game = game;
                let tally = &mut slot.tally;
                tally.games += 1;
                match result.map(|r| mover_score(r, mover)) {
                    Some(Some(true)) => tally.wins += 1,
                    Some(Some(false)) => tally.losses += 1,
                    Some(None) => tally.draws += 1,
                    None => {}
                }
            }
            pos.play_unchecked(mv);
        }
    }

    /// The tallies of a position: games reaching it, and each move's tally (of the games
    /// still in memory, for a spilling builder).
    pub fn tally(&self, pos: &Position) -> Option<(u64, Vec<(Move, MoveTally)>)> {
        let packed = PositionFormat::PackedSfen.encode_to_array(pos).ok()?;
        let id = *self.table.index.get(&packed)?;
        let node = self.table.nodes[id as usize];
        Some((node.games, self.table.moves_of(node)))
    }

    /// Gives the book's positions to `sink` in key order, without holding the book: every
    /// position reached by at least `min_games` games, each move with its count (games that
    /// played it) and value ([`value_from_results`]), depth 0, no ponder. Errors are those
    /// of writing or reading the runs, or the sink's.
    pub fn finish_into(
        mut self,
        mut sink: impl FnMut(String, Entry) -> Result<(), BookError>,
    ) -> Result<(), BookError> {
        let min_games = u64::from(self.options.min_games);
        let mut emit = |t: Tallied| match t.games >= min_games {
            true => {
                let (key, entry) = t.into_entry();
                sink(key, entry)
            }
            false => Ok(()),
        };
        let last = self.table.sorted_chunk();
        let spill = self.spill.take();
        let dir = std::env::temp_dir();
        spill
            .unwrap_or_else(|| Spill::new(usize::MAX, &dir))
            .merge(last, &mut emit)
    }

    /// The book, in memory ([`Builder::finish_into`] collected).
    pub fn finish(self) -> Result<Book, BookError> {
        let mut book = Book::new();
        self.finish_into(|key, entry| {
            book.insert_key(key, entry);
            Ok(())
        })?;
        Ok(book)
    }
}

impl Table {
    /// A node's moves in the order they were first played.
    fn moves_of(&self, node: Node) -> Vec<(Move, MoveTally)> {
        let mut out = Vec::new();
        let mut at = node.newest;
        while at != NONE {
            let slot = &self.moves[at as usize];
            out.push((slot.mv, slot.tally));
            at = slot.older;
        }
        out.reverse();
        out
    }

    /// The positions sorted by key and encoded as a chunk ([`crate::spill`]); the table is
    /// emptied, its capacity kept for the next chunk.
    fn sorted_chunk(&mut self) -> Vec<u8> {
        let mut keys = String::with_capacity(self.nodes.len() * 100);
        let mut order: Vec<(usize, u32, u32)> = Vec::with_capacity(self.nodes.len());
        for (packed, id) in self.index.drain() {
            let pos = PositionFormat::PackedSfen
                .decode(&packed)
                .expect("a packed position we encoded decodes");
            let start = keys.len();
            keys.push_str(&position_key(&pos));
            order.push((start, (keys.len() - start) as u32, id));
        }
        let text = |&(at, len, _): &(usize, u32, u32)| &keys[at..at + len as usize];
        order.sort_unstable_by(|a, b| text(a).cmp(text(b)));
        let mut out = Vec::with_capacity(keys.len() + self.moves.len() * 12 + order.len() * 8);
        for entry in &order {
            let node = self.nodes[entry.2 as usize];
            let moves = self.moves_of(node);
            let mut each = moves.iter().copied();
            encode(
                &mut out,
                text(entry),
                node.ply,
                node.games,
                &mut each,
                moves.len(),
            );
        }
        self.nodes.clear();
        self.moves.clear();
        out
    }
}

/// Whether the mover won (`Some(true)`), lost, or drew (`None`).
fn mover_score(result: GameResult, mover: Color) -> Option<bool> {
    match result {
        GameResult::Draw => None,
        GameResult::BlackWin => Some(mover == Color::Black),
        GameResult::WhiteWin => Some(mover == Color::White),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::Variant;
    use shogi_testkit::Rng;

    /// Books as text, to compare them whole.
    fn text(book: &Book) -> String {
        let mut out = Vec::new();
        crate::text::write_text(book, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn chunks_held_in_memory_and_merged_into_runs_give_the_same_book() {
        let dir = std::env::temp_dir().join(format!("shogi-book-chunks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let options = BuildOptions {
            max_ply: 14,
            min_games: 1,
        };
        let start = Position::startpos(Variant::Standard);
        let mut whole = Builder::new(options);
        // A table of a few positions, several of its chunks held before they are merged
        // into a run: positions recur across chunks and runs.
        let mut spilling = Builder::spilling(options, 48 << 10, &dir);
        spilling.spill.as_mut().unwrap().table = 3 << 10;
        let mut rng = Rng::new(5);
        let mut held = 0;
        for g in 0..400 {
            let mut pos = start.clone();
            let mut line = Vec::new();
            for _ in 0..rng.below(16) {
                let moves = pos.legal_moves();
                let mv = moves.as_slice()[rng.below(moves.len().min(4))];
                pos.play_unchecked(mv);
                line.push(mv);
            }
            let result = [Some(GameResult::BlackWin), Some(GameResult::Draw), None][g % 3];
            whole.add_game(&start, &line, result);
            spilling.add_game(&start, &line, result);
            held = held.max(spilling.spill.as_ref().unwrap().held());
        }
        let runs = spilling.runs();
        assert!(runs > 2, "{runs}");
        assert!(held > 2, "{held}");
        assert_eq!(
            text(&spilling.finish().unwrap()),
            text(&whole.finish().unwrap())
        );
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! Books built from games: every position up to a ply reached by enough games, each move with
//! how many games played it and a value from their results.

use crate::book::{Book, Entry, position_key};
use crate::error::BookError;
use crate::spill::{Spill, Tallied};
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

type Nodes = HashMap<[u8; 32], Node, BuildHasherDefault<PackedHasher>>;

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

#[derive(Clone, Debug)]
struct Node {
    ply: u32,
    games: u64,
    last_game: u64,
    moves: Vec<(Move, MoveTally, u64)>,
}

/// Bytes a new position costs: its key and node in the table (counted twice, as the table
/// grows by doubling), and what it becomes when a run is written (its SFEN key, about 100
/// bytes, and its tallies), as both are held at that moment.
const NODE_BYTES: usize =
    2 * (32 + std::mem::size_of::<Node>()) + 16 + 112 + std::mem::size_of::<Tallied>();
/// Bytes a move costs beside the growth of its node's list: its tally in a run.
const MOVE_BYTES: usize = std::mem::size_of::<(Move, MoveTally)>();
/// Bytes a slot of a node's move list costs (counted as the list grows).
const SLOT_BYTES: usize = std::mem::size_of::<(Move, MoveTally, u64)>();

/// Counts positions and moves over games, then makes the book ([`Builder::finish`]).
///
/// Each game counts once per position it reaches (a position reached twice in one game counts
/// one game) and once per move it plays from there. A builder made with [`Builder::spilling`]
/// holds at most about its memory bound of positions: beyond it the tallies go to sorted
/// temporary files, merged when the book is made; the book is the same.
#[derive(Debug)]
pub struct Builder {
    options: BuildOptions,
    nodes: Nodes,
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
            nodes: Nodes::default(),
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
            if self.used >= spill.memory {
                spill.write_run(tallies(&mut self.nodes));
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
            let used = &mut self.used;
            let node = self.nodes.entry(packed).or_insert_with(|| {
                *used += NODE_BYTES;
                Node {
                    ply,
                    games: 0,
                    last_game: 0,
                    moves: Vec::new(),
                }
            });
            node.ply = node.ply.min(ply);
            if node.last_game != game {
                node.last_game = game;
                node.games += 1;
            }
            let slot = match node.moves.iter().position(|m| m.0 == mv) {
                Some(i) => i,
                None => {
                    let before = node.moves.capacity();
                    node.moves.push((mv, MoveTally::default(), 0));
                    *used += MOVE_BYTES + (node.moves.capacity() - before) * SLOT_BYTES;
                    node.moves.len() - 1
                }
            };
            let (_, tally, last) = &mut node.moves[slot];
            if *last != game {
                *last = game;
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
        self.nodes
            .get(&packed)
            .map(|n| (n.games, n.moves.iter().map(|m| (m.0, m.1)).collect()))
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
        let mut rest = tallies(&mut self.nodes);
        match self.spill.take() {
            Some(mut spill) if spill.runs() > 0 || spill.failed() => {
                spill.write_run(rest);
                spill.merge(&mut emit)
            }
            _ => rest.drain(..).try_for_each(emit),
        }
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

/// The nodes taken out of the table as tallies sorted by key.
fn tallies(nodes: &mut Nodes) -> Vec<Tallied> {
    let mut out: Vec<Tallied> = nodes
        .drain()
        .map(|(packed, node)| {
            let pos = PositionFormat::PackedSfen
                .decode(&packed)
                .expect("a packed position we encoded decodes");
            Tallied {
                key: position_key(&pos),
                ply: node.ply,
                games: node.games,
                moves: node.moves.iter().map(|m| (m.0, m.1)).collect(),
            }
        })
        .collect();
    out.sort_unstable_by(|a, b| a.key.cmp(&b.key));
    out
}

/// Whether the mover won (`Some(true)`), lost, or drew (`None`).
fn mover_score(result: GameResult, mover: Color) -> Option<bool> {
    match result {
        GameResult::Draw => None,
        GameResult::BlackWin => Some(mover == Color::Black),
        GameResult::WhiteWin => Some(mover == Color::White),
    }
}

//! Apery's `book.bin`: a key-sorted array of 16-byte records (u64 key, u16 move, u16 count,
//! i32 score), the key being a Zobrist hash over Apery's own table.

use crate::book::{Book, BookMove, Entry, position_key};
use crate::error::{BookError, Location};
use crate::runs::RecordSort;
use shogi_core::{Color, Position, Role, Square};
use shogi_train::Move16Format;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::sync::OnceLock;

/// Size of one record.
pub const RECORD: usize = 16;

/// The 64-bit Mersenne Twister (MT19937-64) with the standard constants.
struct Mt64 {
    state: [u64; 312],
    index: usize,
}

impl Mt64 {
    fn new(seed: u64) -> Mt64 {
        let mut state = [0u64; 312];
        state[0] = seed;
        for i in 1..312 {
            let prev = state[i - 1];
            state[i] = 6364136223846793005u64
                .wrapping_mul(prev ^ (prev >> 62))
                .wrapping_add(i as u64);
        }
        Mt64 { state, index: 312 }
    }

    fn next(&mut self) -> u64 {
        const UPPER: u64 = 0xFFFF_FFFF_8000_0000;
        const LOWER: u64 = 0x7FFF_FFFF;
        if self.index >= 312 {
            for i in 0..312 {
                let x = (self.state[i] & UPPER) | (self.state[(i + 1) % 312] & LOWER);
                let mut xa = x >> 1;
                if x & 1 != 0 {
                    xa ^= 0xB502_6F5A_A966_19E9;
                }
                self.state[i] = self.state[(i + 156) % 312] ^ xa;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= (y >> 29) & 0x5555_5555_5555_5555;
        y ^= (y << 17) & 0x71D6_7FFF_EDA6_0000;
        y ^= (y << 37) & 0xFFF7_EEE0_0000_0000;
        y ^ (y >> 43)
    }
}

/// Apery's Zobrist table: pieces (31 codes × 81 squares), hands (7 kinds × 19 counts), turn.
struct Zobrist {
    piece: Vec<[u64; 81]>,
    hand: [[u64; 19]; 7],
    turn: u64,
}

fn zobrist() -> &'static Zobrist {
    static TABLE: OnceLock<Zobrist> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut rng = Mt64::new(5489);
        let mut piece = vec![[0u64; 81]; 31];
        for row in piece.iter_mut() {
            for v in row.iter_mut() {
                *v = rng.next();
            }
        }
        let mut hand = [[0u64; 19]; 7];
        for row in hand.iter_mut() {
            for v in row.iter_mut() {
                *v = rng.next();
            }
        }
        Zobrist {
            piece,
            hand,
            turn: rng.next(),
        }
    })
}

/// Apery's piece code of a role (Black's; White's is 16 more).
const APERY_CODE: [usize; 14] = [1, 2, 3, 4, 7, 5, 6, 8, 9, 10, 11, 12, 13, 14];

/// Apery's book key of a standard position: the pieces on the board, the side to move's hand
/// (only), and the turn. Equal to cshogi's `Board.book_key()`.
pub fn apery_key(pos: &Position) -> u64 {
    let z = zobrist();
    let mut key = 0u64;
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            let code = APERY_CODE[p.role.index()] + if p.color == Color::White { 16 } else { 0 };
            key ^= z.piece[code][sq.index()];
        }
    }
    let hand = pos.hand(pos.side_to_move());
    // Apery's hand order P L N S G B R is our role order 0..7.
    for (h, role) in Role::ALL[..7].iter().enumerate() {
        key ^= z.hand[h][usize::from(hand.count(*role)).min(18)];
    }
    if pos.side_to_move() == Color::White {
        key ^= z.turn;
    }
    key
}

/// The error of a file whose size is no multiple of a record's.
pub(crate) fn size_message(len: u64) -> String {
    format!(
        "{len} bytes is not a whole number of 16-byte Apery records ({} bytes left over)",
        len % RECORD as u64
    )
}

/// The record in 16 bytes.
pub(crate) fn record(r: &[u8]) -> AperyRecord {
    let mut key = [0u8; 8];
    key.copy_from_slice(&r[..8]);
    AperyRecord {
        key: u64::from_le_bytes(key),
        move16: u16::from_le_bytes([r[8], r[9]]),
        count: u16::from_le_bytes([r[10], r[11]]),
        score: i32::from_le_bytes([r[12], r[13], r[14], r[15]]),
    }
}

/// The book moves of `pos` in its records (see [`AperyBook::probe`]).
pub(crate) fn book_moves(records: &[AperyRecord], pos: &Position) -> Result<Vec<BookMove>, String> {
    let mut out: Vec<BookMove> = Vec::new();
    for r in records {
        let mv = Move16Format::Cshogi
            .decode(r.move16, pos)
            .map_err(|e| format!("in `{}`: {e}", pos.to_sfen()))?;
        match out.iter_mut().find(|m| m.mv == mv) {
            Some(m) => m.count += u64::from(r.count),
            None => out.push(BookMove {
                mv,
                ponder: None,
                value: r.score,
                depth: 256,
                count: u64::from(r.count),
            }),
        }
    }
    Ok(out)
}

/// One record of `book.bin`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AperyRecord {
    /// The position's key ([`apery_key`]).
    pub key: u64,
    /// The move in Apery's 16-bit encoding (cshogi's move16).
    pub move16: u16,
    /// How often the move was played.
    pub count: u16,
    /// The score (0 unless the book was searched).
    pub score: i32,
}

/// An Apery book: its records in file order (sorted by key).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AperyBook {
    /// The records.
    pub records: Vec<AperyRecord>,
}

impl AperyBook {
    /// Reads `book.bin`: its size must be a multiple of 16 and its keys ascending.
    pub fn read<R: Read>(mut input: R, file: &str) -> Result<AperyBook, BookError> {
        let mut bytes = Vec::new();
        input
            .read_to_end(&mut bytes)
            .map_err(|e| BookError::io(file, &e))?;
        if bytes.len() % RECORD != 0 {
            return Err(BookError::file(file, size_message(bytes.len() as u64)));
        }
        let mut records = Vec::with_capacity(bytes.len() / RECORD);
        for (i, r) in bytes.chunks_exact(RECORD).enumerate() {
            let rec = record(r);
            if records
                .last()
                .is_some_and(|l: &AperyRecord| l.key > rec.key)
            {
                return Err(BookError::new(
                    file,
                    Location::Byte((i * RECORD) as u64),
                    format!("record {i}: keys out of order (Apery's search needs them ascending)"),
                ));
            }
            records.push(rec);
        }
        Ok(AperyBook { records })
    }

    /// The records of a key.
    pub fn records_of(&self, key: u64) -> &[AperyRecord] {
        let lo = self.records.partition_point(|r| r.key < key);
        let hi = self.records.partition_point(|r| r.key <= key);
        &self.records[lo..hi]
    }

    /// The book moves of a position, as YaneuraOu reads them (ponder none, depth 256, value =
    /// score, count = count, duplicates merged by adding counts). A move illegal in the
    /// position is an error naming it.
    pub fn probe(&self, pos: &Position) -> Result<Vec<BookMove>, String> {
        book_moves(self.records_of(apery_key(pos)), pos)
    }

    /// [`AperyBook::probe`] of the `book.bin` at `path` without reading it: a binary search
    /// of its records on disk (they are sorted by key), a few reads whatever the book's size
    /// (the order is not checked beyond them). A size that is no multiple of 16 is the error
    /// [`AperyBook::read`] gives.
    pub fn probe_file(path: &std::path::Path, pos: &Position) -> Result<Vec<BookMove>, BookError> {
        use std::io::{Seek, SeekFrom};
        let file = path.display().to_string();
        let io = |e: std::io::Error| BookError::io(&file, &e);
        let mut f = std::fs::File::open(path).map_err(io)?;
        let len = f.metadata().map_err(io)?.len();
        if len % RECORD as u64 != 0 {
            return Err(BookError::file(&file, size_message(len)));
        }
        let mut read_at = |i: u64| -> Result<AperyRecord, BookError> {
            let mut r = [0u8; RECORD];
            f.seek(SeekFrom::Start(i * RECORD as u64)).map_err(io)?;
            f.read_exact(&mut r).map_err(io)?;
            Ok(record(&r))
        };
        let key = apery_key(pos);
        let (mut lo, mut hi) = (0, len / RECORD as u64);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if read_at(mid)?.key < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut records = Vec::new();
        while lo < len / RECORD as u64 {
            let r = read_at(lo)?;
            if r.key != key {
                break;
            }
            records.push(r);
            lo += 1;
        }
        book_moves(&records, pos).map_err(|m| BookError::file(&file, m))
    }

    /// The positions reachable from `roots` through book moves, as a [`Book`] (plies from the
    /// roots' move numbers). Records of keys never reached stay out; their number is returned.
    pub fn to_book(&self, roots: &[Position]) -> Result<(Book, usize), String> {
        let mut book = Book::new();
        let mut reached = std::collections::HashSet::new();
        let mut queue: VecDeque<Position> = roots.iter().cloned().collect();
        while let Some(pos) = queue.pop_front() {
            let key = position_key(&pos);
            if book.get(&key).is_some() {
                continue;
            }
            let moves = self.probe(&pos)?;
            if moves.is_empty() {
                continue;
            }
            reached.insert(apery_key(&pos));
            for m in &moves {
                let mut next = pos.clone();
                next.play_unchecked(m.mv);
                queue.push_back(next);
            }
            let entry = Entry {
                ply: Some(pos.move_number()),
                moves,
                comments: Vec::new(),
            };
            book.insert_key(key, entry);
        }
        let unreached = self
            .records
            .iter()
            .filter(|r| !reached.contains(&r.key))
            .count();
        Ok((book, unreached))
    }
}

/// What writing `book.bin` could not keep.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AperyLosses {
    /// Moves whose count was above 65535 (written as 65535).
    pub capped_counts: usize,
    /// Positions whose key another position of the book has too (they differ only in the hand
    /// of the side not to move): their moves share one key.
    pub key_collisions: usize,
    /// Ponders, depths and comments (the format holds none of them).
    pub ponders_depths_comments: usize,
}

/// Writes a book as Apery's `book.bin`, sorted by key, each key's records by count
/// descending; counts above 65535 capped (reported in the losses). (The book in memory
/// through [`AperyWriter`].)
pub fn write_apery<W: Write>(book: &Book, out: &mut W) -> Result<AperyLosses, String> {
    let mut w = AperyWriter::new(usize::MAX, &std::env::temp_dir());
    for (key, entry) in book.iter() {
        w.push(key, entry)?;
    }
    w.finish(out)
}

/// An Apery `book.bin` written from positions given in any order, within a memory bound: the
/// records are sorted by key, then count descending, then the order given, through sorted runs
/// on disk (in the folder given). The bytes are those of [`write_apery`] of the same
/// positions in the same order.
#[derive(Debug)]
pub struct AperyWriter {
    sort: RecordSort,
    positions: u64,
    /// What the format could not keep so far (key collisions are counted by
    /// [`AperyWriter::finish`]).
    pub losses: AperyLosses,
}

/// Payload flag of a position without moves: it writes no record but has a key.
const NO_RECORD: u8 = 0;
const HAS_RECORD: u8 = 1;

impl AperyWriter {
    /// A writer holding about `memory` bytes of records, its runs in `temp_dir`.
    pub fn new(memory: usize, temp_dir: &std::path::Path) -> AperyWriter {
        AperyWriter {
            sort: RecordSort::new(memory, temp_dir),
            positions: 0,
            losses: AperyLosses::default(),
        }
    }

    /// Sorted runs written so far.
    pub fn runs(&self) -> usize {
        self.sort.runs()
    }

    /// Adds a position (its key as [`position_key`] makes it).
    pub fn push(&mut self, key: &str, entry: &Entry) -> Result<(), String> {
        let pos = Position::from_sfen(key).map_err(|e| format!("`{key}`: {e}"))?;
        let k = apery_key(&pos);
        let index = self.positions;
        self.positions += 1;
        self.losses.ponders_depths_comments += entry.comments.len();
        let mut record = |flag: u8, count: u16, rec: [u8; RECORD]| {
            let mut sort_key = [0u8; 10];
            sort_key[..8].copy_from_slice(&k.to_be_bytes());
            sort_key[8..].copy_from_slice(&(u16::MAX - count).to_be_bytes());
            let mut payload = [0u8; 1 + RECORD + 8];
            payload[0] = flag;
            payload[1..1 + RECORD].copy_from_slice(&rec);
            payload[1 + RECORD..].copy_from_slice(&index.to_le_bytes());
            self.sort
                .push(&sort_key, &payload)
                .map_err(|e| e.to_string())
        };
        if entry.moves.is_empty() {
            return record(NO_RECORD, 0, [0; RECORD]);
        }
        for m in &entry.moves {
            let move16 = Move16Format::Cshogi
                .encode(m.mv)
                .map_err(|e| e.to_string())?;
            if m.count > 65535 {
                self.losses.capped_counts += 1;
            }
            if m.ponder.is_some() || m.depth != 0 {
                self.losses.ponders_depths_comments += 1;
            }
            let count = m.count.min(65535) as u16;
            let mut rec = [0u8; RECORD];
            rec[..8].copy_from_slice(&k.to_le_bytes());
            rec[8..10].copy_from_slice(&move16.to_le_bytes());
            rec[10..12].copy_from_slice(&count.to_le_bytes());
            rec[12..].copy_from_slice(&m.value.to_le_bytes());
            record(HAS_RECORD, count, rec)?;
        }
        Ok(())
    }

    /// Writes the records to `out` in order; returns the losses, with the positions that share
    /// their key with another.
    pub fn finish<W: Write>(self, out: &mut W) -> Result<AperyLosses, String> {
        let mut losses = self.losses;
        // The positions of the current key seen so far (few: a key is one position but for
        // the hand of the side not to move).
        let mut key_positions: (Option<u64>, Vec<u64>) = (None, Vec::new());
        self.sort
            .finish(|sort_key, payload| {
                let k = u64::from_be_bytes(sort_key[..8].try_into().expect("8 bytes"));
                let index = u64::from_le_bytes(payload[1 + RECORD..].try_into().expect("8 bytes"));
                if key_positions.0 != Some(k) {
                    key_positions = (Some(k), Vec::new());
                }
                if !key_positions.1.contains(&index) {
                    losses.key_collisions += usize::from(!key_positions.1.is_empty());
                    key_positions.1.push(index);
                }
                if payload[0] == HAS_RECORD {
                    out.write_all(&payload[1..1 + RECORD])
                        .map_err(|e| BookError::io("book.bin", &e))?;
                }
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        Ok(losses)
    }
}

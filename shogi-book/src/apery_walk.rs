//! An Apery `book.bin` walked from root positions without reading it whole: its records
//! searched on disk through a sparse index and a small page cache, the positions seen kept
//! as 8-byte keys, the positions still to visit as packed positions.

use crate::apery::{RECORD, apery_key, book_moves, record, size_message};
use crate::book::{Entry, position_key};
use crate::error::{BookError, Location};
use shogi_core::Position;
use shogi_train::PositionFormat;
use std::collections::{HashMap, HashSet, VecDeque};
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// Records per page: the unit read from disk and cached.
const PAGE: u64 = 256;
/// Pages kept in the cache.
const CACHED_PAGES: usize = 64;

/// Bytes an [`AperyWalk`] holds per position of the book, at most: its 64-bit position key
/// and its Apery key in two hash sets (each slot 9 bytes, tables at least 1/2 full, counted
/// twice as they grow). See also [`APERY_WALK_BYTES_PER_MOVE`].
pub const APERY_WALK_BYTES_PER_POSITION: usize = 2 * 2 * 2 * 9;
/// Bytes an [`AperyWalk`] holds per book move, at most: the position it leads to, waiting
/// to be visited (packed in 32 bytes with its move number, in a queue that may double).
pub const APERY_WALK_BYTES_PER_MOVE: usize = 2 * 40;

/// A position waiting to be visited: packed, or whole when PackedSfen cannot hold it.
enum Waiting {
    Packed([u8; 32], u32),
    Whole(Box<Position>),
}

/// The positions of an Apery book reachable from roots through book moves, in the order
/// [`crate::AperyBook::to_book`] finds them (breadth first, each position once, at its
/// first move number), as `(key, entry)` pairs, without holding the book: memory is a sparse
/// index of one key per 256 records, a cache of 64 pages of 4 KiB, and per position
/// [`APERY_WALK_BYTES_PER_POSITION`] and per move [`APERY_WALK_BYTES_PER_MOVE`] bytes at
/// most. The file is checked as [`crate::AperyBook::read`] checks it (size, key order)
/// when opened; a move illegal in its position ends the walk with that error.
pub struct AperyWalk {
    file: File,
    name: String,
    records: u64,
    /// The first key of each page.
    firsts: Vec<u64>,
    cache: HashMap<u64, (Vec<u8>, u64)>,
    tick: u64,
    queue: VecDeque<Waiting>,
    seen: HashSet<u64>,
    reached: HashSet<u64>,
    failed: bool,
}

impl std::fmt::Debug for AperyWalk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AperyWalk({}, {} records)", self.name, self.records)
    }
}

impl AperyWalk {
    /// Opens the book at `path` and checks it: its size a multiple of 16 and its keys
    /// ascending (the same errors as [`crate::AperyBook::read`]), read once in order.
    pub fn open(path: &Path, roots: &[Position]) -> Result<AperyWalk, BookError> {
        let name = path.display().to_string();
        let io = |e: std::io::Error| BookError::io(&name, &e);
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len % RECORD as u64 != 0 {
            return Err(BookError::file(&name, size_message(len)));
        }
        let records = len / RECORD as u64;
        let mut input = BufReader::with_capacity(1 << 16, file.try_clone().map_err(io)?);
        let mut firsts = Vec::with_capacity(records.div_ceil(PAGE) as usize);
        let mut last = 0u64;
        let mut r = [0u8; RECORD];
        for i in 0..records {
            input.read_exact(&mut r).map_err(io)?;
            let key = record(&r).key;
            if i > 0 && last > key {
                return Err(BookError::new(
                    &name,
                    Location::Byte(i * RECORD as u64),
                    format!("record {i}: keys out of order (Apery's search needs them ascending)"),
                ));
            }
            if i % PAGE == 0 {
                firsts.push(key);
            }
            last = key;
        }
        let queue = roots.iter().map(|p| waiting(p.clone())).collect();
        Ok(AperyWalk {
            file,
            name,
            records,
            firsts,
            cache: HashMap::new(),
            tick: 0,
            queue,
            seen: HashSet::new(),
            reached: HashSet::new(),
            failed: false,
        })
    }

    /// Records in the file.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Records whose key no position of the walk so far has (after the walk: the records
    /// not reached from the roots).
    pub fn unreached(&mut self) -> Result<u64, BookError> {
        let io = |e: std::io::Error| BookError::io(&self.name, &e);
        self.file.seek(SeekFrom::Start(0)).map_err(io)?;
        let mut input = BufReader::with_capacity(1 << 16, &self.file);
        let mut r = [0u8; RECORD];
        let mut n = 0;
        for _ in 0..self.records {
            input.read_exact(&mut r).map_err(io)?;
            n += u64::from(!self.reached.contains(&record(&r).key));
        }
        Ok(n)
    }

    /// The note [`crate::read_book`] gives about the records not reached, if any (after the
    /// walk).
    pub fn note(&mut self) -> Result<Option<String>, BookError> {
        let unreached = self.unreached()?;
        Ok((unreached > 0).then(|| unreached_note(&self.name, unreached, self.records)))
    }

    /// The bytes of page `n` (through the cache: the least recently used page goes).
    fn page(&mut self, n: u64) -> Result<(&[u8], u64), BookError> {
        self.tick += 1;
        if !self.cache.contains_key(&n) {
            if self.cache.len() >= CACHED_PAGES {
                let oldest = self
                    .cache
                    .iter()
                    .min_by_key(|(_, (_, t))| *t)
                    .map(|(k, _)| *k);
                if let Some(k) = oldest {
                    self.cache.remove(&k);
                }
            }
            let count = PAGE.min(self.records - n * PAGE) as usize;
            let mut bytes = vec![0u8; count * RECORD];
            let io = |e: std::io::Error| BookError::io(&self.name, &e);
            self.file
                .seek(SeekFrom::Start(n * PAGE * RECORD as u64))
                .map_err(io)?;
            self.file.read_exact(&mut bytes).map_err(io)?;
            self.cache.insert(n, (bytes, 0));
        }
        let entry = self.cache.get_mut(&n).expect("cached");
        entry.1 = self.tick;
        Ok((&entry.0, n))
    }

    /// The records of `key`, in file order.
    fn records_of(&mut self, key: u64) -> Result<Vec<crate::AperyRecord>, BookError> {
        // The first page that can hold the key: the last one starting below it (a key's
        // records may begin on the page before the one starting with it).
        let mut page = self.firsts.partition_point(|&k| k < key).saturating_sub(1) as u64;
        let mut out = Vec::new();
        while page < self.firsts.len() as u64 {
            let (bytes, _) = self.page(page)?;
            let mut past = false;
            for r in bytes.chunks_exact(RECORD).map(record) {
                if r.key == key {
                    out.push(r);
                } else if r.key > key {
                    past = true;
                    break;
                }
            }
            if past {
                break;
            }
            page += 1;
        }
        Ok(out)
    }

    /// The next position with book moves, or `None` at the end of the walk.
    fn step(&mut self) -> Result<Option<(String, Entry)>, BookError> {
        while let Some(w) = self.queue.pop_front() {
            let pos = match w {
                Waiting::Whole(p) => *p,
                Waiting::Packed(bytes, ply) => {
                    let mut p = PositionFormat::PackedSfen
                        .decode(&bytes)
                        .expect("a packed position we encoded decodes");
                    p.set_move_number(ply);
                    p
                }
            };
            if self.seen.contains(&pos.key()) {
                continue;
            }
            let key = apery_key(&pos);
            let records = self.records_of(key)?;
            let moves = book_moves(&records, &pos).map_err(|m| BookError::file(&self.name, m))?;
            if moves.is_empty() {
                continue;
            }
            self.seen.insert(pos.key());
            self.reached.insert(key);
            for m in &moves {
                let mut next = pos.clone();
                next.play_unchecked(m.mv);
                self.queue.push_back(waiting(next));
            }
            let entry = Entry {
                ply: Some(pos.move_number()),
                moves,
                comments: Vec::new(),
            };
            return Ok(Some((position_key(&pos), entry)));
        }
        Ok(None)
    }
}

/// A position to visit, packed when it can be.
fn waiting(pos: Position) -> Waiting {
    match PositionFormat::PackedSfen.encode_to_array(&pos) {
        Ok(bytes) => Waiting::Packed(bytes, pos.move_number()),
        Err(_) => Waiting::Whole(Box::new(pos)),
    }
}

impl Iterator for AperyWalk {
    type Item = Result<(String, Entry), BookError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let item = self.step().transpose();
        self.failed = matches!(item, Some(Err(_)));
        item
    }
}

/// The note about records not reached from the roots.
pub(crate) fn unreached_note(name: &str, unreached: u64, records: u64) -> String {
    format!(
        "{name}: note: {unreached} of {records} records are not reached from the root position(s) through book moves and are not listed"
    )
}

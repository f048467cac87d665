//! The builder's sorted chunks and runs: the count table's positions, sorted by key whenever
//! it reaches its cache-sized limit, kept in memory as compact bytes up to the builder's
//! bound, merged into a run on disk beyond it, and merged back in key order when the book is
//! made.

use crate::book::{BookMove, Entry};
use crate::build::MoveTally;
use crate::error::BookError;
use crate::extsort::{TempFile, temp_path};
use shogi_core::Move;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One position's tallies: its key, smallest ply, games reaching it, and its moves in the
/// order they were first played.
#[derive(Debug)]
pub(crate) struct Tallied {
    pub key: String,
    pub ply: u32,
    pub games: u64,
    pub moves: Vec<(Move, MoveTally)>,
}

impl Tallied {
    /// The key and book entry: counts and values from the tallies, moves in `write_book`'s
    /// order.
    pub fn into_entry(self) -> (String, Entry) {
        let moves = self
            .moves
            .iter()
            .map(|(mv, t)| BookMove {
                mv: *mv,
                ponder: None,
                value: t.value(),
                depth: 0,
                count: t.games,
            })
            .collect();
        let mut entry = Entry {
            ply: Some(self.ply),
            moves,
            comments: Vec::new(),
        };
        entry.sort_moves();
        (self.key, entry)
    }

    /// Adds the tallies of the same position from a later chunk.
    fn add(&mut self, other: Tallied) {
        self.ply = self.ply.min(other.ply);
        self.games += other.games;
        for (mv, t) in other.moves {
            match self.moves.iter_mut().find(|m| m.0 == mv) {
                Some((_, m)) => {
                    m.games += t.games;
                    m.wins += t.wins;
                    m.draws += t.draws;
                    m.losses += t.losses;
                }
                None => self.moves.push((mv, t)),
            }
        }
    }
}

/// Appends `n` as a LEB128 varint (counts are small: most take one byte).
fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Appends one position's tallies in the chunks' and runs' layout: the key's length and
/// bytes, ply, games and the number of moves, then each move as its USI text (a length byte
/// first) and its four counts; every number a varint.
pub(crate) fn encode(
    out: &mut Vec<u8>,
    key: &str,
    ply: u32,
    games: u64,
    moves: &mut dyn Iterator<Item = (Move, MoveTally)>,
    count: usize,
) {
    put_varint(out, key.len() as u64);
    out.extend_from_slice(key.as_bytes());
    put_varint(out, u64::from(ply));
    put_varint(out, games);
    put_varint(out, count as u64);
    for (mv, t) in moves {
        let usi = mv.usi();
        out.push(usi.as_str().len() as u8);
        out.extend_from_slice(usi.as_str().as_bytes());
        for n in [t.games, t.wins, t.draws, t.losses] {
            put_varint(out, n);
        }
    }
}

fn encode_tallied(out: &mut Vec<u8>, t: &Tallied) {
    let mut moves = t.moves.iter().copied();
    encode(out, &t.key, t.ply, t.games, &mut moves, t.moves.len());
}

/// Builders of this process so far (temporary names stay apart).
static BUILDERS: AtomicUsize = AtomicUsize::new(0);

/// The chunks and runs of one builder, and the first failure writing them.
#[derive(Debug)]
pub(crate) struct Spill {
    /// The bound: chunks held and the count table together.
    pub memory: usize,
    /// The count table's share of it (cache-sized).
    pub table: usize,
    dir: PathBuf,
    stem: String,
    held: Vec<Vec<u8>>,
    held_bytes: usize,
    runs: Vec<TempFile>,
    error: Option<BookError>,
}

/// Bytes of counts the table holds at most before it is sorted into a chunk, whatever the
/// bound: a table of this size stays in the processor's caches, where its lookups and the
/// chunk's sort are several times faster than over hundreds of MiB (measured: see the
/// README's book section).
pub(crate) const TABLE_BYTES: usize = 8 << 20;

impl Spill {
    pub fn new(memory: usize, dir: &Path) -> Spill {
        let n = BUILDERS.fetch_add(1, Ordering::Relaxed);
        Spill {
            memory,
            table: memory.min(TABLE_BYTES),
            dir: dir.to_path_buf(),
            stem: format!("book-build-{n}"),
            held: Vec::new(),
            held_bytes: 0,
            runs: Vec::new(),
            error: None,
        }
    }

    /// Runs written to disk so far.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Sorted chunks held in memory now.
    #[cfg(test)]
    pub fn held(&self) -> usize {
        self.held.len()
    }

    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Keeps a sorted chunk in memory; when the chunks held and the table's share would
    /// pass the bound, the chunks held are merged into one run on disk first (nothing after
    /// a failure).
    pub fn add_chunk(&mut self, chunk: Vec<u8>) {
        if self.error.is_some() || chunk.is_empty() {
            return;
        }
        let cost = chunk.capacity() + std::mem::size_of::<Vec<u8>>();
        if self.held_bytes + cost + self.table > self.memory {
            if let Err(e) = self.write_run(chunk) {
                self.error = Some(e);
            }
            return;
        }
        self.held_bytes += cost;
        self.held.push(chunk);
    }

    /// Merges the chunks held and `last` into a run on disk.
    fn write_run(&mut self, last: Vec<u8>) -> Result<(), BookError> {
        let tmp = TempFile(temp_path(&self.dir, &self.stem, self.runs.len()));
        let name = tmp.0.display().to_string();
        let io = |e: std::io::Error| BookError::io(&name, &e);
        let mut w = BufWriter::with_capacity(1 << 16, File::create(&tmp.0).map_err(io)?);
        let mut chunks = std::mem::take(&mut self.held);
        self.held_bytes = 0;
        chunks.push(last);
        let sources = chunks.into_iter().map(Source::memory).collect();
        let mut buf = Vec::new();
        merge_sources(sources, &mut |t| {
            buf.clear();
            encode_tallied(&mut buf, &t);
            w.write_all(&buf).map_err(io)
        })?;
        w.flush().map_err(io)?;
        self.runs.push(tmp);
        Ok(())
    }

    /// Merges the runs, the chunks held and `last` in key order, adding the tallies of a
    /// position found in several (earlier ones first, so moves keep the order they were
    /// first played in).
    pub fn merge(
        mut self,
        last: Vec<u8>,
        emit: &mut impl FnMut(Tallied) -> Result<(), BookError>,
    ) -> Result<(), BookError> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let mut sources = Vec::with_capacity(self.runs.len() + self.held.len() + 1);
        for r in &self.runs {
            sources.push(Source::file(&r.0)?);
        }
        sources.extend(
            std::mem::take(&mut self.held)
                .into_iter()
                .map(Source::memory),
        );
        sources.push(Source::memory(last));
        merge_sources(sources, emit)
    }
}

/// A sorted chunk in memory or a run on disk, read a position at a time.
struct Source {
    input: Box<dyn Read>,
    name: String,
    head: Option<Tallied>,
}

impl Source {
    fn memory(bytes: Vec<u8>) -> Source {
        Source {
            input: Box::new(std::io::Cursor::new(bytes)),
            name: "a sorted chunk in memory".into(),
            head: None,
        }
    }

    fn file(path: &Path) -> Result<Source, BookError> {
        let name = path.display().to_string();
        let file = File::open(path).map_err(|e| BookError::io(&name, &e))?;
        Ok(Source {
            input: Box::new(BufReader::with_capacity(1 << 16, file)),
            name,
            head: None,
        })
    }

    fn bad(&self) -> BookError {
        BookError::file(&self.name, "damaged temporary run")
    }

    fn byte(&mut self) -> Result<Option<u8>, BookError> {
        let mut b = [0u8];
        match self.input.read(&mut b) {
            Ok(0) => Ok(None),
            Ok(_) => Ok(Some(b[0])),
            Err(e) => Err(BookError::io(&self.name, &e)),
        }
    }

    fn varint(&mut self) -> Result<u64, BookError> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?.ok_or_else(|| self.bad())?;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(self.bad())
    }

    fn bytes(&mut self, n: usize) -> Result<Vec<u8>, BookError> {
        let mut v = vec![0u8; n];
        self.input.read_exact(&mut v).map_err(|_| self.bad())?;
        Ok(v)
    }

    /// Reads the next position into `head` (`None` at the end).
    fn advance(&mut self) -> Result<(), BookError> {
        self.head = None;
        let Some(first) = self.byte()? else {
            return Ok(());
        };
        let mut len = u64::from(first & 0x7f);
        if first & 0x80 != 0 {
            len |= self.varint()? << 7;
        }
        let key = String::from_utf8(self.bytes(len as usize)?).map_err(|_| self.bad())?;
        let ply = u32::try_from(self.varint()?).map_err(|_| self.bad())?;
        let games = self.varint()?;
        let n = self.varint()? as usize;
        let mut moves = Vec::with_capacity(n.min(1024));
        for _ in 0..n {
            let len = self.byte()?.ok_or_else(|| self.bad())?;
            let usi = self.bytes(usize::from(len))?;
            let mv = std::str::from_utf8(&usi)
                .ok()
                .and_then(|s| Move::from_usi(s).ok())
                .ok_or_else(|| self.bad())?;
            let tally = MoveTally {
                games: self.varint()?,
                wins: self.varint()?,
                draws: self.varint()?,
                losses: self.varint()?,
            };
            moves.push((mv, tally));
        }
        self.head = Some(Tallied {
            key,
            ply,
            games,
            moves,
        });
        Ok(())
    }
}

/// Whether source `a`'s head comes before `b`'s: by key, then the earlier source.
fn before(sources: &[Source], a: usize, b: usize) -> bool {
    let key = |i: usize| sources[i].head.as_ref().map(|t| t.key.as_str());
    (key(a), a) < (key(b), b)
}

/// Restores the heap order of `heap` (source numbers, least head first) below `at`.
fn sift_down(heap: &mut [usize], sources: &[Source], mut at: usize) {
    loop {
        let (l, r) = (2 * at + 1, 2 * at + 2);
        let mut least = at;
        if l < heap.len() && before(sources, heap[l], heap[least]) {
            least = l;
        }
        if r < heap.len() && before(sources, heap[r], heap[least]) {
            least = r;
        }
        if least == at {
            return;
        }
        heap.swap(at, least);
        at = least;
    }
}

/// Merges sorted sources in key order, adding the tallies of a position several hold.
fn merge_sources(
    mut sources: Vec<Source>,
    emit: &mut dyn FnMut(Tallied) -> Result<(), BookError>,
) -> Result<(), BookError> {
    let mut heap = Vec::with_capacity(sources.len());
    for (i, s) in sources.iter_mut().enumerate() {
        s.advance()?;
        if s.head.is_some() {
            heap.push(i);
        }
    }
    for at in (0..heap.len() / 2).rev() {
        sift_down(&mut heap, &sources, at);
    }
    let mut pending: Option<Tallied> = None;
    while let Some(&i) = heap.first() {
        let t = sources[i]
            .head
            .take()
            .expect("a source in the heap has a head");
        sources[i].advance()?;
        if sources[i].head.is_none() {
            let last = heap.pop().expect("not empty");
            if !heap.is_empty() {
                heap[0] = last;
            }
        }
        sift_down(&mut heap, &sources, 0);
        match &mut pending {
            Some(p) if p.key == t.key => p.add(t),
            _ => {
                if let Some(p) = pending.replace(t) {
                    emit(p)?;
                }
            }
        }
    }
    pending.map_or(Ok(()), emit)
}

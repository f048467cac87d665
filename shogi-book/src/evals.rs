//! An engine's book within a memory bound: the searches sorted on disk by position (runs,
//! merged), the deepest search of each position kept, and the result looked up from a file
//! through a sparse index in memory when it does not fit the bound.

use crate::book::{Book, BookMove, Entry};
use crate::error::BookError;
use crate::eval::{EvalRead, counted_entry, entry_depth, replaces};
use crate::extsort::{TempFile, temp_path};
use crate::runs::{RecordSort, RunReader, unique_stem, write_record};
use shogi_core::{Move, Position, Score};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// What a key of the sparse index costs in memory beside its bytes (its box, its offset, the
/// vector's slot counted twice as it grows by doubling, the allocator's rounding).
const INDEX_OVERHEAD: usize = 2 * (16 + 8) + 16;

/// Records between two keys of the sparse index, at least.
const MIN_STRIDE: usize = 8;

/// The book of an engine's searches as [`EvalBook`](crate::EvalBook) makes it (every line of
/// the deepest search of each position up to `max_ply`, the later on a tie), made within a
/// memory bound: the searches are sorted in runs on disk beyond it and merged, and the
/// result ([`Evals`]) stays on disk when it would not fit.
///
/// ```
/// use shogi_book::EvalSort;
/// use shogi_core::{Move, Position, Score, Variant};
///
/// let start = Position::startpos(Variant::Standard);
/// let mv = Move::from_usi("7g7f").unwrap();
/// let mut sort = EvalSort::new(32, 0, &std::env::temp_dir());
/// sort.add(&start, Some(10), [(Some(Score::Cp(40)), Some(mv))]);
/// sort.add(&start, Some(8), [(Some(Score::Cp(90)), Some(mv))]);
/// let (mut evals, read) = sort.finish()?;
/// assert_eq!((evals.len(), read.results, read.unused), (1, 2, 1));
/// let key = shogi_book::position_key(&start);
/// assert_eq!(evals.get(&key)?.unwrap().moves[0].value, 40);
/// # Ok::<(), shogi_book::BookError>(())
/// ```
#[derive(Debug)]
pub struct EvalSort {
    max_ply: u32,
    memory: usize,
    dir: PathBuf,
    sort: RecordSort,
    read: EvalRead,
    /// Searches pushed, and their keys' bytes (what the sparse index is sized from).
    pushed: (u64, u64),
    error: Option<BookError>,
}

impl EvalSort {
    /// A sorter of searches up to move number `max_ply` holding about `memory` bytes, its
    /// temporary files in `dir` (removed when the [`Evals`] it gives is dropped).
    pub fn new(max_ply: u32, memory: usize, dir: &Path) -> EvalSort {
        EvalSort {
            max_ply,
            memory,
            dir: dir.to_path_buf(),
            sort: RecordSort::new(memory, dir),
            read: EvalRead::default(),
            pushed: (0, 0),
            error: None,
        }
    }

    /// Adds a search of `pos` to `depth`, as [`EvalBook::add`](crate::EvalBook::add) does.
    /// A failure writing a run is kept and returned by [`finish`](EvalSort::finish).
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
        if self.error.is_some() {
            return;
        }
        self.pushed.0 += 1;
        self.pushed.1 += key.len() as u64;
        if let Err(e) = self.sort.push(key.as_bytes(), &encode(&entry)) {
            self.error = Some(e);
        }
    }

    /// Sorted runs written so far.
    pub fn runs(&self) -> usize {
        self.sort.runs()
    }

    /// The book (in memory when the searches never left it and fit twice over, else on
    /// disk), and what was given.
    pub fn finish(self) -> Result<(Evals, EvalRead), BookError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut read = self.read;
        let in_memory = self.sort.runs() == 0 && self.sort.held().saturating_mul(2) <= self.memory;
        let mut kept = Kept::default();
        if in_memory {
            let mut book = Book::new();
            self.sort.finish(|k, p| {
                kept.next(k, p, &mut read, |k, e| {
                    book.insert_key(k, e);
                    Ok(())
                })
            })?;
            kept.flush(|k, e| {
                book.insert_key(k, e);
                Ok(())
            })?;
            return Ok((Evals(Held::Memory(book)), read));
        }
        let budget = (self.memory / 8).max(64 << 10) as u64;
        let per_key = (self.pushed.1 / self.pushed.0.max(1)) + INDEX_OVERHEAD as u64;
        let stride = (self.pushed.0.saturating_mul(per_key) / budget).max(MIN_STRIDE as u64);
        let mut disk = DiskWriter::create(&self.dir, stride)?;
        self.sort
            .finish(|k, p| kept.next(k, p, &mut read, |k, e| disk.push(&k, &e)))?;
        kept.flush(|k, e| disk.push(&k, &e))?;
        Ok((disk.finish()?, read))
    }
}

/// The search kept for the key being merged: the deepest so far (the later on a tie).
#[derive(Default)]
struct Kept {
    current: Option<(String, Entry)>,
}

impl Kept {
    /// Takes the next search in key order; gives the kept one of a key when the key ends.
    fn next(
        &mut self,
        key: &[u8],
        payload: &[u8],
        read: &mut EvalRead,
        mut emit: impl FnMut(String, Entry) -> Result<(), BookError>,
    ) -> Result<(), BookError> {
        let entry = decode(payload).ok_or_else(damaged)?;
        match &mut self.current {
            Some((k, old)) if k.as_bytes() == key => {
                read.unused += 1;
                if replaces(entry_depth(old), entry_depth(&entry)) {
                    *old = entry;
                }
            }
            _ => {
                let key = String::from_utf8(key.to_vec()).map_err(|_| damaged())?;
                if let Some((k, e)) = self.current.replace((key, entry)) {
                    emit(k, e)?;
                }
            }
        }
        Ok(())
    }

    /// Gives the kept search of the last key.
    fn flush(
        &mut self,
        mut emit: impl FnMut(String, Entry) -> Result<(), BookError>,
    ) -> Result<(), BookError> {
        match self.current.take() {
            Some((k, e)) => emit(k, e),
            None => Ok(()),
        }
    }
}

fn damaged() -> BookError {
    BookError::file("temporary engine book", "damaged temporary run")
}

/// An engine's book made by [`EvalSort`]: positions in key order, looked up by key; held in
/// memory, or in a temporary file (removed when dropped) looked up through a sparse index.
#[derive(Debug)]
pub struct Evals(Held);

#[derive(Debug)]
enum Held {
    Memory(Book),
    Disk(DiskEvals),
}

/// The file of an [`Evals`] on disk: records in key order, every `stride`-th key in memory.
#[derive(Debug)]
struct DiskEvals {
    reader: RunReader,
    index: Vec<(Box<[u8]>, u64)>,
    stride: u64,
    len: usize,
    _file: TempFile,
}

impl Evals {
    /// Positions held.
    pub fn len(&self) -> usize {
        match &self.0 {
            Held::Memory(b) => b.len(),
            Held::Disk(d) => d.len,
        }
    }

    /// Whether no position is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entry of the position with this key (SFEN without the move number).
    pub fn get(&mut self, key: &str) -> Result<Option<Entry>, BookError> {
        let d = match &mut self.0 {
            Held::Memory(b) => return Ok(b.get(key).cloned()),
            Held::Disk(d) => d,
        };
        let key = key.as_bytes();
        let at = d.index.partition_point(|(k, _)| &**k <= key);
        let Some((_, offset)) = at.checked_sub(1).map(|i| &d.index[i]) else {
            return Ok(None);
        };
        d.reader.seek(*offset)?;
        for _ in 0..d.stride {
            if !d.reader.advance()? {
                break;
            }
            match d.reader.key().cmp(key) {
                std::cmp::Ordering::Less => {}
                std::cmp::Ordering::Equal => {
                    return decode(d.reader.payload()).ok_or_else(damaged).map(Some);
                }
                std::cmp::Ordering::Greater => break,
            }
        }
        Ok(None)
    }

    /// Gives every position (key, entry) in key order.
    pub fn for_each(
        &mut self,
        mut each: impl FnMut(&str, &Entry) -> Result<(), BookError>,
    ) -> Result<(), BookError> {
        let d = match &mut self.0 {
            Held::Memory(b) => return b.iter().try_for_each(|(k, e)| each(k, e)),
            Held::Disk(d) => d,
        };
        d.reader.seek(0)?;
        while d.reader.advance()? {
            let key = std::str::from_utf8(d.reader.key()).map_err(|_| damaged())?;
            let entry = decode(d.reader.payload()).ok_or_else(damaged)?;
            each(key, &entry)?;
        }
        Ok(())
    }
}

/// Writes the records of a [`DiskEvals`] and its sparse index.
struct DiskWriter {
    out: BufWriter<File>,
    file: TempFile,
    name: String,
    index: Vec<(Box<[u8]>, u64)>,
    stride: u64,
    offset: u64,
    len: usize,
}

impl DiskWriter {
    fn create(dir: &Path, stride: u64) -> Result<DiskWriter, BookError> {
        let file = TempFile(temp_path(dir, &unique_stem("book-evals"), 0));
        let name = file.0.display().to_string();
        let out = File::create(&file.0).map_err(|e| BookError::io(&name, &e))?;
        Ok(DiskWriter {
            out: BufWriter::with_capacity(1 << 16, out),
            file,
            name,
            index: Vec::new(),
            stride,
            offset: 0,
            len: 0,
        })
    }

    fn push(&mut self, key: &str, entry: &Entry) -> Result<(), BookError> {
        if self.len as u64 % self.stride == 0 {
            self.index.push((key.as_bytes().into(), self.offset));
        }
        self.offset += write_record(&mut self.out, key.as_bytes(), &encode(entry))
            .map_err(|e| BookError::io(&self.name, &e))?;
        self.len += 1;
        Ok(())
    }

    fn finish(mut self) -> Result<Evals, BookError> {
        self.out
            .flush()
            .map_err(|e| BookError::io(&self.name, &e))?;
        drop(self.out);
        Ok(Evals(Held::Disk(DiskEvals {
            reader: RunReader::open(&self.file.0)?,
            index: self.index,
            stride: self.stride,
            len: self.len,
            _file: self.file,
        })))
    }
}

/// An entry as the runs hold it: ply (u32, 0 for none), then per move its value and depth
/// (i32) and its USI text (a length byte, the bytes). Counts are 1 and ponders absent, as in
/// every entry of an engine's book.
fn encode(e: &Entry) -> Vec<u8> {
    let mut out = Vec::with_capacity(4 + e.moves.len() * 14);
    out.extend_from_slice(&e.ply.unwrap_or(0).to_le_bytes());
    for m in &e.moves {
        out.extend_from_slice(&m.value.to_le_bytes());
        out.extend_from_slice(&m.depth.to_le_bytes());
        let usi = m.mv.usi();
        out.push(usi.as_str().len() as u8);
        out.extend_from_slice(usi.as_str().as_bytes());
    }
    out
}

fn decode(mut b: &[u8]) -> Option<Entry> {
    fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = (b.get(..n)?, b.get(n..)?);
        *b = rest;
        Some(head)
    }
    let int = |b: &mut &[u8]| Some(i32::from_le_bytes(take(b, 4)?.try_into().ok()?));
    let ply = int(&mut b)? as u32;
    let mut moves = Vec::new();
    while !b.is_empty() {
        let (value, depth) = (int(&mut b)?, int(&mut b)?);
        let n = take(&mut b, 1)?[0] as usize;
        let usi = std::str::from_utf8(take(&mut b, n)?).ok()?;
        moves.push(BookMove {
            value,
            depth,
            ..BookMove::new(Move::from_usi(usi).ok()?)
        });
    }
    Some(Entry {
        ply: (ply != 0).then_some(ply),
        moves,
        comments: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EvalBook;
    use shogi_core::Variant;
    use shogi_testkit::Rng;

    /// Searches of positions of random games (repeated, at random depths, some lines
    /// illegal or unscored), as an analysis cache holds them.
    type Search = (Position, Option<u32>, Vec<(Option<Score>, Option<Move>)>);

    fn searches() -> Vec<Search> {
        let mut rng = Rng::new(7);
        let mut out = Vec::new();
        for _ in 0..40 {
            let mut pos = Position::startpos(Variant::Standard);
            for _ in 0..rng.below(12) {
                let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
                let mv = moves[rng.below(moves.len().min(3))];
                pos.play_unchecked(mv);
                let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
                let lines = (0..1 + rng.below(3))
                    .map(|_| {
                        let score =
                            (rng.below(8) != 0).then(|| Score::Cp(rng.below(400) as i32 - 200));
                        let mv = match rng.below(10) {
                            0 => Some(mv),
                            _ => legal.get(rng.below(legal.len().max(1))).copied(),
                        };
                        (score, mv)
                    })
                    .collect();
                out.push((pos.clone(), Some(rng.below(4) as u32 + 8), lines));
            }
        }
        out
    }

    #[test]
    fn the_sorted_book_is_the_book_in_memory_at_any_bound() {
        let searches = searches();
        let mut book = EvalBook::new(8);
        for (pos, depth, lines) in &searches {
            book.add(pos, *depth, lines.iter().copied());
        }
        let (book, read) = book.finish();
        assert!(
            book.len() > 30 && read.unused > 10,
            "{} {read:?}",
            book.len()
        );
        let dir = std::env::temp_dir().join(format!("shogi-book-evals-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for memory in [0, 2000, 1 << 20] {
            let mut sort = EvalSort::new(8, memory, &dir);
            for (pos, depth, lines) in &searches {
                sort.add(pos, *depth, lines.iter().copied());
            }
            assert_eq!(sort.runs() > 0, memory < 1 << 20, "{memory}");
            let (mut evals, got) = sort.finish().unwrap();
            assert_eq!((got, evals.len()), (read, book.len()), "{memory}");
            // Every position in key order, each as the book in memory has it.
            let mut listed = Vec::new();
            evals
                .for_each(|k, e| {
                    listed.push((k.to_string(), e.clone()));
                    Ok(())
                })
                .unwrap();
            let expected: Vec<_> = book
                .iter()
                .map(|(k, e)| (k.to_string(), e.clone()))
                .collect();
            assert_eq!(listed, expected, "{memory}");
            // Looked up one by one, in another order, and positions it does not hold.
            for (k, e) in expected.iter().rev() {
                assert_eq!(evals.get(k).unwrap().as_ref(), Some(e), "{memory} {k}");
                let missing = format!("{k}x");
                assert_eq!(evals.get(&missing).unwrap(), None);
            }
            assert_eq!(evals.get("").unwrap(), None);
            assert_eq!(evals.get("~").unwrap(), None);
        }
        // The temporary files are gone with the books.
        let left = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(left, 0);
    }
}

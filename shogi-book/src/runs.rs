//! Binary records sorted by a byte key within a memory bound: sorted runs in temporary files,
//! then a k-way merge. Records of equal keys come out in the order they were pushed (the sort
//! is stable and the merge takes earlier runs first), so the result is the same whatever the
//! bound. The binary book writers (`.ybb`, `book.bin`) sort their records through it.

use crate::error::BookError;
use crate::extsort::{TempFile, temp_path};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Sorters of this process so far (temporary names stay apart).
static SORTERS: AtomicUsize = AtomicUsize::new(0);

/// A stem for temporary files no other sorter or writer of this process uses.
pub(crate) fn unique_stem(what: &str) -> String {
    format!("{what}-{}", SORTERS.fetch_add(1, Ordering::Relaxed))
}

/// Bytes a buffered record costs beside its key and payload: its slot (counted twice, as the
/// buffer grows by doubling) and the allocator's rounding.
const RECORD_OVERHEAD: usize = 2 * std::mem::size_of::<(usize, u32, u32)>() + 16;

/// Records sorted by key in bounded memory.
#[derive(Debug)]
pub(crate) struct RecordSort {
    memory: usize,
    dir: PathBuf,
    stem: String,
    /// The records' bytes (key then payload), one after the other.
    bytes: Vec<u8>,
    /// Each record's start in `bytes`, key length and payload length.
    index: Vec<(usize, u32, u32)>,
    used: usize,
    runs: Vec<TempFile>,
    /// Where each sorted piece of `index` starts; records from `sorted_to` on are not sorted
    /// yet.
    pieces: Vec<usize>,
    sorted_to: usize,
    /// Bytes (as the bound counts them) of the records not sorted yet, and of a piece.
    unsorted: usize,
    piece: usize,
}

/// Bytes of records sorted at a time, whatever the bound: a piece this size is sorted in the
/// processor's caches, and the pieces are merged when a run is written, so a large bound
/// does not mean one large sort of scattered records (measured: see the README's book
/// section).
const PIECE_BYTES: usize = 2 << 20;

impl RecordSort {
    /// A sorter holding about `memory` bytes of records, writing runs into `dir` beyond it.
    pub fn new(memory: usize, dir: &Path) -> RecordSort {
        RecordSort {
            memory,
            dir: dir.to_path_buf(),
            stem: unique_stem("book-sort"),
            bytes: Vec::new(),
            index: Vec::new(),
            used: 0,
            runs: Vec::new(),
            pieces: Vec::new(),
            sorted_to: 0,
            unsorted: 0,
            piece: PIECE_BYTES,
        }
    }

    /// Sorted runs written so far.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Bytes of records held in memory (as the bound counts them).
    pub fn held(&self) -> usize {
        self.used
    }

    /// Adds a record (a run is written when the bound is reached).
    pub fn push(&mut self, key: &[u8], payload: &[u8]) -> Result<(), BookError> {
        let too_long = |n: usize| u32::try_from(n).is_err();
        if too_long(key.len()) || too_long(payload.len()) {
            return Err(BookError::file(&self.stem, "a record over 4 GiB"));
        }
        self.index
            .push((self.bytes.len(), key.len() as u32, payload.len() as u32));
        self.bytes.extend_from_slice(key);
        self.bytes.extend_from_slice(payload);
        let cost = key.len() + payload.len() + RECORD_OVERHEAD;
        self.used += cost;
        self.unsorted += cost;
        if self.unsorted >= self.piece {
            self.seal_piece();
        }
        if self.used >= self.memory {
            self.write_run()?;
        }
        Ok(())
    }

    /// Sorts the records pushed since the last piece as a piece (stable: equal keys keep
    /// the order they were pushed in).
    fn seal_piece(&mut self) {
        if self.sorted_to < self.index.len() {
            let bytes = &self.bytes;
            let key = |r: &(usize, u32, u32)| &bytes[r.0..r.0 + r.1 as usize];
            self.index[self.sorted_to..].sort_by(|a, b| key(a).cmp(key(b)));
            self.pieces.push(self.sorted_to);
            self.sorted_to = self.index.len();
        }
        self.unsorted = 0;
    }

    /// Sorts the buffer: its pieces sorted, then merged (equal keys from earlier pieces
    /// first, so the whole is a stable sort).
    fn sort_buffer(&mut self) {
        self.seal_piece();
        if self.pieces.len() > 1 {
            let bytes = &self.bytes;
            let key = |r: &(usize, u32, u32)| &bytes[r.0..r.0 + r.1 as usize];
            let ends: Vec<usize> = self.pieces[1..]
                .iter()
                .copied()
                .chain([self.index.len()])
                .collect();
            let mut at = self.pieces.clone();
            let mut heap: BinaryHeap<Reverse<(&[u8], usize)>> = (0..at.len())
                .map(|p| Reverse((key(&self.index[at[p]]), p)))
                .collect();
            let mut merged = Vec::with_capacity(self.index.len());
            while let Some(Reverse((_, p))) = heap.pop() {
                merged.push(self.index[at[p]]);
                at[p] += 1;
                if at[p] < ends[p] {
                    heap.push(Reverse((key(&self.index[at[p]]), p)));
                }
            }
            self.index = merged;
        }
        self.pieces = vec![0];
    }

    fn write_run(&mut self) -> Result<(), BookError> {
        self.sort_buffer();
        let tmp = TempFile(temp_path(&self.dir, &self.stem, self.runs.len()));
        let name = tmp.0.display().to_string();
        let io = |e: std::io::Error| BookError::io(&name, &e);
        let mut w = BufWriter::with_capacity(1 << 16, File::create(&tmp.0).map_err(io)?);
        for &(at, k, p) in &self.index {
            let (k, p) = (k as usize, p as usize);
            let key = &self.bytes[at..at + k];
            write_record(&mut w, key, &self.bytes[at + k..at + k + p]).map_err(io)?;
        }
        w.flush().map_err(io)?;
        self.runs.push(tmp);
        self.bytes = Vec::new();
        self.index = Vec::new();
        self.used = 0;
        self.pieces.clear();
        self.sorted_to = 0;
        self.unsorted = 0;
        Ok(())
    }

    /// Gives every record (key, payload) in key order, equal keys in the order pushed.
    pub fn finish(
        mut self,
        mut each: impl FnMut(&[u8], &[u8]) -> Result<(), BookError>,
    ) -> Result<(), BookError> {
        if self.runs.is_empty() {
            self.sort_buffer();
            for &(at, k, p) in &self.index {
                let k = k as usize;
                each(
                    &self.bytes[at..at + k],
                    &self.bytes[at + k..at + k + p as usize],
                )?;
            }
            return Ok(());
        }
        if !self.index.is_empty() {
            self.write_run()?;
        }
        let mut readers = Vec::with_capacity(self.runs.len());
        for r in &self.runs {
            readers.push(RunReader::open(&r.0)?);
        }
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            if r.advance()? {
                heap.push(Reverse((r.key().to_vec(), i)));
            }
        }
        while let Some(Reverse((_, i))) = heap.pop() {
            let r = &mut readers[i];
            each(r.key(), r.payload())?;
            if r.advance()? {
                heap.push(Reverse((r.key().to_vec(), i)));
            }
        }
        Ok(())
    }
}

/// Writes one record as the runs hold it: key length and payload length (u32 LE), key,
/// payload; returns the bytes written.
pub(crate) fn write_record(w: &mut impl Write, key: &[u8], payload: &[u8]) -> std::io::Result<u64> {
    let len = |n: usize| u32::try_from(n).map_err(|_| std::io::Error::other("a record over 4 GiB"));
    w.write_all(&len(key.len())?.to_le_bytes())?;
    w.write_all(&len(payload.len())?.to_le_bytes())?;
    w.write_all(key)?;
    w.write_all(payload)?;
    Ok(8 + key.len() as u64 + payload.len() as u64)
}

/// One run (or a file of the same records) read back a record at a time.
#[derive(Debug)]
pub(crate) struct RunReader {
    input: BufReader<File>,
    name: String,
    record: Vec<u8>,
    key_len: usize,
}

impl RunReader {
    pub fn open(path: &Path) -> Result<RunReader, BookError> {
        let name = path.display().to_string();
        let file = File::open(path).map_err(|e| BookError::io(&name, &e))?;
        Ok(RunReader {
            input: BufReader::with_capacity(1 << 16, file),
            name,
            record: Vec::new(),
            key_len: 0,
        })
    }

    /// Moves to the record starting at byte `offset` (the next `advance` reads it).
    pub fn seek(&mut self, offset: u64) -> Result<(), BookError> {
        self.input
            .seek(SeekFrom::Start(offset))
            .map_err(|e| BookError::io(&self.name, &e))?;
        Ok(())
    }

    /// Reads the next record; false at the end of the run.
    pub fn advance(&mut self) -> Result<bool, BookError> {
        let io = |e: std::io::Error| BookError::io(&self.name, &e);
        let mut head = [0u8; 8];
        match self.input.read_exact(&mut head) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(false),
            Err(e) => return Err(io(e)),
        }
        let k = u32::from_le_bytes(head[..4].try_into().expect("4 bytes")) as usize;
        let p = u32::from_le_bytes(head[4..].try_into().expect("4 bytes")) as usize;
        self.record.resize(k + p, 0);
        self.input.read_exact(&mut self.record).map_err(io)?;
        self.key_len = k;
        Ok(true)
    }

    pub fn key(&self) -> &[u8] {
        &self.record[..self.key_len]
    }

    pub fn payload(&self) -> &[u8] {
        &self.record[self.key_len..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_sorted_then_merged_are_a_stable_sort() {
        let mut sort = RecordSort::new(usize::MAX, &std::env::temp_dir());
        sort.piece = 1000;
        let mut want = Vec::new();
        let mut state = 7u64;
        for i in 0u32..5000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Few distinct keys of two lengths: many equal keys across pieces.
            let key = (state >> 59).to_be_bytes()[..2 + (state >> 63) as usize * 5].to_vec();
            sort.push(&key, &i.to_le_bytes()).unwrap();
            want.push((key, i.to_le_bytes().to_vec()));
        }
        assert!(sort.pieces.len() > 10, "{}", sort.pieces.len());
        want.sort_by(|a, b| a.0.cmp(&b.0));
        let mut got = Vec::new();
        sort.finish(|k, p| {
            got.push((k.to_vec(), p.to_vec()));
            Ok(())
        })
        .unwrap();
        assert_eq!(got, want);
    }
}

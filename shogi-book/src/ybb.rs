//! YaneuraOu's binary book `.ybb`: a 32-byte header, an index of 44-byte records sorted by
//! PackedSfen, then the moves area (Move16, value, and a depth when flag bit 0 is set).

use crate::book::{Book, BookMove, Entry};
use crate::error::{BookError, Location};
use crate::extsort::{TempFile, temp_path};
use crate::runs::{RecordSort, unique_stem};
use shogi_core::Position;
use shogi_train::{Move16Format, PositionFormat};
use std::io::{Read, Write};

/// The magic bytes at offset 0.
pub const MAGIC: &[u8; 16] = b"YANE-BINBOOK-V1\0";
pub(crate) const HEADER: usize = 32;
pub(crate) const INDEX_RECORD: usize = 44;

/// Reads a `.ybb` book. Counts read as 1 and ponders as none (the format holds neither).
pub fn read_ybb<R: Read>(mut input: R, file: &str) -> Result<Book, BookError> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| BookError::io(file, &e))?;
    parse_ybb(&bytes, file)
}

/// The header's facts: positions, bytes per move record and where the index ends; a bad
/// magic, unknown flags or an index longer than the file of `size` bytes are located errors.
pub(crate) fn read_header(
    head: &[u8; HEADER],
    size: u64,
    file: &str,
) -> Result<(u64, usize, u64), BookError> {
    let at = |off: u64, m: String| BookError::new(file, Location::Byte(off), m);
    if &head[..16] != MAGIC {
        return Err(BookError::file(
            file,
            "not a .ybb book: it does not start with `YANE-BINBOOK-V1`",
        ));
    }
    let (n, flags) = (le_u64(&head[16..]), le_u64(&head[24..]));
    if flags & !1 != 0 {
        return Err(at(
            24,
            format!("unknown flags {flags:#x} (only bit 0 is defined)"),
        ));
    }
    let record = if flags & 1 != 0 { 6 } else { 4 };
    let index_end = n
        .checked_mul(INDEX_RECORD as u64)
        .and_then(|s| s.checked_add(HEADER as u64))
        .filter(|&e| e <= size)
        .ok_or_else(|| {
            at(
                16,
                format!("{n} positions do not fit in a file of {size} bytes"),
            )
        })?;
    Ok((n, record, index_end))
}

pub(crate) fn le_u64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
}

pub(crate) fn le_u16(b: &[u8]) -> u16 {
    u16::from_le_bytes([b[0], b[1]])
}

/// Parses the bytes of a `.ybb` book.
pub fn parse_ybb(bytes: &[u8], file: &str) -> Result<Book, BookError> {
    let mut book = Book::new();
    for item in crate::ybb_stream::YbbStream::from_bytes(bytes, file)? {
        let (key, entry) = item?;
        book.insert_key(key, entry);
    }
    Ok(book)
}

/// The move records of one position (`record` bytes each); `bad(j, why)` makes the error
/// of move `j`.
pub(crate) fn decode_moves(
    slice: &[u8],
    record: usize,
    pos: &Position,
    bad: impl Fn(usize, String) -> BookError,
) -> Result<Vec<BookMove>, BookError> {
    let mut moves = Vec::with_capacity(slice.len() / record);
    for (j, r) in slice.chunks_exact(record).enumerate() {
        let mv = Move16Format::YaneuraOu
            .decode(le_u16(r), pos)
            .map_err(|e| bad(j, e.to_string()))?;
        let mut m = BookMove::new(mv);
        m.value = i32::from(le_u16(&r[2..]) as i16);
        if record == 6 {
            m.depth = i32::from(le_u16(&r[4..]));
        }
        moves.push(m);
    }
    Ok(moves)
}

/// The entry of the position with `key` ([`position_key`](crate::position_key)) in the
/// `.ybb` book at `path`, found as YaneuraOu's BookOnTheFly finds it: a binary search over
/// the sorted index on disk, a few reads whatever the book's size (the index is not checked
/// beyond them).
pub fn find_in_ybb_file(path: &std::path::Path, key: &str) -> Result<Option<Entry>, BookError> {
    use std::io::{Seek, SeekFrom};
    let file = path.display().to_string();
    let at = |off: u64, m: String| BookError::new(&file, Location::Byte(off), m);
    let mut f = std::fs::File::open(path).map_err(|e| BookError::io(&file, &e))?;
    let size = f.metadata().map_err(|e| BookError::io(&file, &e))?.len();
    let mut read_at = |off: u64, buf: &mut [u8]| -> Result<(), BookError> {
        f.seek(SeekFrom::Start(off))
            .and_then(|_| f.read_exact(buf))
            .map_err(|e| BookError::io(&file, &e))
    };
    let mut head = [0u8; HEADER];
    if size < HEADER as u64 {
        return Err(BookError::file(
            &file,
            "not a .ybb book: shorter than its header",
        ));
    }
    read_at(0, &mut head)?;
    let (n, record, index_end) = read_header(&head, size, &file)?;
    let pos =
        Position::from_sfen(key).map_err(|e| BookError::file(&file, format!("`{key}`: {e}")))?;
    let Ok(packed) = PositionFormat::PackedSfen.encode_to_array(&pos) else {
        return Ok(None);
    };
    let (mut lo, mut hi) = (0u64, n);
    let mut rec = [0u8; INDEX_RECORD];
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let off = HEADER as u64 + mid * INDEX_RECORD as u64;
        read_at(off, &mut rec)?;
        match rec[..32].cmp(&packed[..]) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => {
                let ply = le_u16(&rec[40..]);
                let count = le_u16(&rec[42..]) as u64;
                let start = le_u64(&rec[32..]).checked_add(index_end);
                let Some(start) = start.filter(|s| s.saturating_add(count * record as u64) <= size)
                else {
                    return Err(at(
                        off,
                        format!("position {mid}: its {count} moves lie outside the file"),
                    ));
                };
                let mut bytes = vec![0u8; (count * record as u64) as usize];
                read_at(start, &mut bytes)?;
                let moves = decode_moves(&bytes, record, &pos, |j, e| {
                    at(
                        start + (j * record) as u64,
                        format!("move {j} of position {mid} (`{key}`): {e}"),
                    )
                })?;
                return Ok(Some(Entry {
                    ply: Some(u32::from(ply)),
                    moves,
                    ..Entry::default()
                }));
            }
        }
    }
    Ok(None)
}

/// What writing `.ybb` could not keep, per kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct YbbLosses {
    /// Moves whose count was not 1 (the format holds none; readers take 1).
    pub counts: usize,
    /// Ponder moves (the format holds none).
    pub ponders: usize,
    /// Comment lines.
    pub comments: usize,
    /// Positions without a ply, written with ply 0.
    pub plies: usize,
}

/// Writes a book as `.ybb` (with depths when `with_depth`). A value outside −32768..32767 or a
/// depth outside 0..65535 is an error naming the position: nothing is altered. (The book in
/// memory through [`YbbWriter`].)
pub fn write_ybb<W: Write>(
    book: &Book,
    with_depth: bool,
    out: &mut W,
) -> Result<YbbLosses, String> {
    let mut w = YbbWriter::new(with_depth, usize::MAX, &std::env::temp_dir());
    w.losses.comments = book.header_comments.len() + book.trailing_comments.len();
    for (key, entry) in book.iter() {
        w.push(key, entry)?;
    }
    w.finish(out)
}

/// A `.ybb` book written from positions given in any order, within a memory bound: the
/// positions are sorted by PackedSfen through sorted runs on disk (in the folder given), then
/// the index is written and the moves area after it. The bytes are those of [`write_ybb`] of
/// the same positions.
#[derive(Debug)]
pub struct YbbWriter {
    with_depth: bool,
    sort: RecordSort,
    dir: std::path::PathBuf,
    memory: usize,
    positions: u64,
    /// What the format could not keep so far (comment lines of the book's header and trailer
    /// are the caller's to add).
    pub losses: YbbLosses,
}

impl YbbWriter {
    /// A writer holding about `memory` bytes of positions, its runs in `temp_dir`.
    pub fn new(with_depth: bool, memory: usize, temp_dir: &std::path::Path) -> YbbWriter {
        YbbWriter {
            with_depth,
            sort: RecordSort::new(memory, temp_dir),
            dir: temp_dir.to_path_buf(),
            memory,
            positions: 0,
            losses: YbbLosses::default(),
        }
    }

    /// Sorted runs written so far.
    pub fn runs(&self) -> usize {
        self.sort.runs()
    }

    /// Adds a position (its key as [`position_key`](crate::position_key) makes it); an error
    /// names what does not fit the format.
    pub fn push(&mut self, key: &str, entry: &Entry) -> Result<(), String> {
        let pos: Position = Position::from_sfen(key).map_err(|e| format!("`{key}`: {e}"))?;
        let packed = PositionFormat::PackedSfen
            .encode_to_array(&pos)
            .map_err(|e| format!("`{key}`: {e}"))?;
        let mut sorted = entry.clone();
        sorted.sort_moves();
        self.losses.comments += entry.comments.len();
        self.losses.plies += usize::from(entry.ply.is_none());
        let ply = u16::try_from(entry.ply.unwrap_or(0))
            .map_err(|_| format!("ply {:?} does not fit in 16 bits", entry.ply))?;
        let count =
            u16::try_from(sorted.moves.len()).map_err(|_| "more than 65535 moves".to_string())?;
        let mut payload = Vec::with_capacity(4 + sorted.moves.len() * 6);
        payload.extend_from_slice(&ply.to_le_bytes());
        payload.extend_from_slice(&count.to_le_bytes());
        for m in &sorted.moves {
            self.losses.counts += usize::from(m.count != 1);
            self.losses.ponders += usize::from(m.ponder.is_some());
            let code = Move16Format::YaneuraOu
                .encode(m.mv)
                .map_err(|e| e.to_string())?;
            let value = i16::try_from(m.value)
                .map_err(|_| format!("value {} of {} does not fit in 16 bits", m.value, m.mv))?;
            payload.extend_from_slice(&code.to_le_bytes());
            payload.extend_from_slice(&value.to_le_bytes());
            if self.with_depth {
                let depth = u16::try_from(m.depth).map_err(|_| {
                    format!("depth {} of {} does not fit in 0..65535", m.depth, m.mv)
                })?;
                payload.extend_from_slice(&depth.to_le_bytes());
            }
        }
        self.positions += 1;
        self.sort.push(&packed, &payload).map_err(|e| e.to_string())
    }

    /// Writes the book to `out`: the header, the index in PackedSfen order, then the moves
    /// (held in memory, or in a temporary file beyond the bound); returns the losses.
    pub fn finish<W: Write>(self, out: &mut W) -> Result<YbbLosses, String> {
        let mut head = Vec::with_capacity(HEADER);
        head.extend_from_slice(MAGIC);
        head.extend_from_slice(&self.positions.to_le_bytes());
        head.extend_from_slice(&u64::from(self.with_depth).to_le_bytes());
        out.write_all(&head).map_err(|e| e.to_string())?;
        let mut moves = Spool::new(self.memory, &self.dir);
        let mut offset = 0u64;
        self.sort
            .finish(|packed, payload| {
                let io = |e: std::io::Error| BookError::io("the .ybb book", &e);
                out.write_all(packed).map_err(io)?;
                out.write_all(&offset.to_le_bytes()).map_err(io)?;
                out.write_all(&payload[..4]).map_err(io)?;
                moves.write_all(&payload[4..]).map_err(io)?;
                offset += (payload.len() - 4) as u64;
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        moves.append_to(out).map_err(|e| e.to_string())?;
        Ok(self.losses)
    }
}

/// Bytes written in memory up to a bound, then to a temporary file: the `.ybb` moves area,
/// which follows the whole index.
struct Spool {
    memory: usize,
    dir: std::path::PathBuf,
    bytes: Vec<u8>,
    file: Option<(TempFile, std::io::BufWriter<std::fs::File>)>,
}

impl Spool {
    fn new(memory: usize, dir: &std::path::Path) -> Spool {
        Spool {
            memory,
            dir: dir.to_path_buf(),
            bytes: Vec::new(),
            file: None,
        }
    }

    fn write_all(&mut self, b: &[u8]) -> std::io::Result<()> {
        if self.file.is_none() && self.bytes.len() + b.len() > self.memory {
            let tmp = TempFile(temp_path(&self.dir, &unique_stem("ybb-moves"), 0));
            let mut w = std::io::BufWriter::with_capacity(1 << 16, std::fs::File::create(&tmp.0)?);
            w.write_all(&std::mem::take(&mut self.bytes))?;
            self.file = Some((tmp, w));
        }
        match &mut self.file {
            Some((_, w)) => w.write_all(b),
            None => {
                self.bytes.extend_from_slice(b);
                Ok(())
            }
        }
    }

    fn append_to<W: Write>(self, out: &mut W) -> std::io::Result<()> {
        match self.file {
            None => out.write_all(&self.bytes),
            Some((tmp, w)) => {
                w.into_inner().map_err(|e| e.into_error())?;
                let mut f = std::fs::File::open(&tmp.0)?;
                std::io::copy(&mut f, out).map(|_| ())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::position_key;
    use shogi_core::{Move, Variant};
    use shogi_testkit::Rng;

    #[test]
    fn a_search_on_disk_finds_what_the_whole_book_holds() {
        // Positions of random walks, each with a few legal moves valued at random.
        let mut rng = Rng::new(3);
        let mut book = Book::new();
        let mut absent = Vec::new();
        for _ in 0..60 {
            let mut pos = Position::startpos(Variant::Standard);
            for _ in 0..rng.below(20) {
                let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if rng.below(3) == 0 {
                    absent.push(position_key(&pos));
                } else {
                    let mut entry = Entry {
                        ply: Some(pos.move_number()),
                        ..Entry::default()
                    };
                    for _ in 0..1 + rng.below(3) {
                        let mut m = BookMove::new(legal[rng.below(legal.len())]);
                        m.value = rng.below(2000) as i32 - 1000;
                        m.depth = rng.below(40) as i32;
                        entry.moves.push(m);
                    }
                    entry.moves.dedup_by_key(|m| m.mv);
                    book.insert(&pos, entry);
                }
                pos.play_unchecked(legal[rng.below(legal.len())]);
            }
        }
        let path = std::env::temp_dir().join(format!("shogi-ybb-find-{}.ybb", std::process::id()));
        for depth in [true, false] {
            let mut bytes = Vec::new();
            write_ybb(&book, depth, &mut bytes).unwrap();
            std::fs::write(&path, &bytes).unwrap();
            let whole = parse_ybb(&bytes, "b.ybb").unwrap();
            assert!(whole.len() > 100);
            for (key, entry) in whole.iter() {
                assert_eq!(
                    find_in_ybb_file(&path, key).unwrap().as_ref(),
                    Some(entry),
                    "{key}"
                );
            }
            for key in absent.iter().filter(|k| whole.get(k).is_none()) {
                assert_eq!(find_in_ybb_file(&path, key).unwrap(), None, "{key}");
            }
        }
        std::fs::write(
            &path,
            b"YANE-BINBOOK-V1\0\xff\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
        )
        .unwrap();
        let e = find_in_ybb_file(&path, &absent[0]).unwrap_err();
        assert!(e.message.contains("do not fit"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }
}

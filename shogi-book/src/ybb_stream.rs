//! A `.ybb` book read position by position from disk, in its index's order, checked as
//! [`parse_ybb`](crate::parse_ybb) checks it: what reads a `.ybb` of any size in bounded memory.

use crate::book::{Entry, position_key};
use crate::error::{BookError, Location};
use crate::ybb::{HEADER, INDEX_RECORD, decode_moves, le_u16, le_u64, read_header};
use shogi_train::PositionFormat;
use std::io::{BufReader, Read, Seek, SeekFrom};

/// The positions of a `.ybb` book in its index's order (ascending PackedSfen, not the key
/// order of a text book), read one at a time with two buffered readers (the index and the
/// moves area), so memory does not grow with the book. Each position is checked as
/// [`parse_ybb`](crate::parse_ybb) checks it, and the first problem is its error, after
/// which the iteration ends.
///
/// ```
/// use shogi_book::{Book, BookMove, Entry, YbbStream, position_key, write_ybb};
/// use shogi_core::{Move, Position, Variant};
/// let start = Position::startpos(Variant::Standard);
/// let mut book = Book::new();
/// let moves = vec![BookMove::new(Move::from_usi("7g7f").unwrap())];
/// book.insert_key(position_key(&start), Entry { ply: Some(1), moves, ..Entry::default() });
/// let mut bytes = Vec::new();
/// write_ybb(&book, true, &mut bytes)?;
/// let read: Vec<_> = YbbStream::from_bytes(&bytes, "b.ybb")?.collect::<Result<_, _>>()?;
/// assert_eq!(read.len(), 1);
/// assert_eq!(read[0].1.moves[0].mv.to_usi(), "7g7f");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct YbbStream<R: Read + Seek> {
    index: BufReader<R>,
    moves: BufReader<R>,
    /// Where the moves reader stands, from the start of the file.
    moves_at: u64,
    file: String,
    n: u64,
    i: u64,
    record: usize,
    index_end: u64,
    size: u64,
    last: Option<[u8; 32]>,
    done: bool,
}

impl<R: Read + Seek> std::fmt::Debug for YbbStream<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "YbbStream({}, {} of {})", self.file, self.i, self.n)
    }
}

impl YbbStream<std::fs::File> {
    /// Opens the `.ybb` book at `path` (its header checked here).
    pub fn open(path: &std::path::Path) -> Result<YbbStream<std::fs::File>, BookError> {
        let file = path.display().to_string();
        let io = |e: std::io::Error| BookError::io(&file, &e);
        let index = std::fs::File::open(path).map_err(io)?;
        let size = index.metadata().map_err(io)?.len();
        let moves = std::fs::File::open(path).map_err(io)?;
        YbbStream::new(index, moves, size, &file)
    }
}

impl<'a> YbbStream<std::io::Cursor<&'a [u8]>> {
    /// The `.ybb` book in `bytes`, named `file` in errors.
    pub fn from_bytes(
        bytes: &'a [u8],
        file: &str,
    ) -> Result<YbbStream<std::io::Cursor<&'a [u8]>>, BookError> {
        let c = || std::io::Cursor::new(bytes);
        YbbStream::new(c(), c(), bytes.len() as u64, file)
    }
}

impl<R: Read + Seek> YbbStream<R> {
    /// The book read from `index` and `moves`, two readers of the same `size` bytes.
    pub fn new(index: R, moves: R, size: u64, file: &str) -> Result<YbbStream<R>, BookError> {
        let mut index = BufReader::with_capacity(1 << 16, index);
        let mut head = [0u8; HEADER];
        if size < HEADER as u64 || index.read_exact(&mut head).is_err() {
            return Err(BookError::file(
                file,
                "not a .ybb book: it does not start with `YANE-BINBOOK-V1`",
            ));
        }
        let (n, record, index_end) = read_header(&head, size, file)?;
        Ok(YbbStream {
            index,
            moves: BufReader::with_capacity(1 << 16, moves),
            moves_at: u64::MAX,
            file: file.to_string(),
            n,
            i: 0,
            record,
            index_end,
            size,
            last: None,
            done: false,
        })
    }

    /// Positions in the book (the index's count).
    pub fn len(&self) -> u64 {
        self.n
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    fn read_one(&mut self) -> Result<(String, Entry), BookError> {
        let file = self.file.clone();
        let at = |off: u64, m: String| BookError::new(&file, Location::Byte(off), m);
        let io = |e: std::io::Error| BookError::io(&file, &e);
        let i = self.i;
        let off = HEADER as u64 + i * INDEX_RECORD as u64;
        let mut rec = [0u8; INDEX_RECORD];
        self.index.read_exact(&mut rec).map_err(io)?;
        let mut packed = [0u8; 32];
        packed.copy_from_slice(&rec[..32]);
        if self.last.is_some_and(|l| l >= packed) {
            return Err(at(
                off,
                format!(
                    "position {i} is out of order or repeated (the index must be strictly ascending)"
                ),
            ));
        }
        self.last = Some(packed);
        let mut pos = PositionFormat::PackedSfen
            .decode(&packed)
            .map_err(|e| at(off, format!("position {i}: {e}")))?;
        let ply = le_u16(&rec[40..]);
        pos.set_move_number(u32::from(ply));
        let start = le_u64(&rec[32..]);
        let count = le_u16(&rec[42..]) as usize;
        let bytes = (count * self.record) as u64;
        let from = start.checked_add(self.index_end);
        let Some(from) = from.filter(|f| f.checked_add(bytes).is_some_and(|e| e <= self.size))
        else {
            return Err(at(
                off,
                format!("position {i}: its {count} moves lie outside the file"),
            ));
        };
        if self.moves_at != from {
            self.moves.seek(SeekFrom::Start(from)).map_err(io)?;
        }
        let mut slice = vec![0u8; bytes as usize];
        self.moves.read_exact(&mut slice).map_err(io)?;
        self.moves_at = from + bytes;
        let record = self.record;
        let moves = decode_moves(&slice, record, &pos, |j, e| {
            at(
                from + (j * record) as u64,
                format!("move {j} of position {i} (`{}`): {e}", pos.to_sfen()),
            )
        })?;
        let entry = Entry {
            ply: Some(u32::from(ply)),
            moves,
            ..Entry::default()
        };
        Ok((position_key(&pos), entry))
    }
}

impl<R: Read + Seek> Iterator for YbbStream<R> {
    type Item = Result<(String, Entry), BookError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.i >= self.n {
            return None;
        }
        let item = self.read_one();
        self.i += 1;
        self.done = item.is_err();
        Some(item)
    }
}

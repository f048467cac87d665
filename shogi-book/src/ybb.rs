//! YaneuraOu's binary book `.ybb`: a 32-byte header, an index of 44-byte records sorted by
//! PackedSfen, then the moves area (Move16, value, and a depth when flag bit 0 is set).

use crate::book::{Book, BookMove, Entry, position_key};
use crate::error::{BookError, Location};
use shogi_core::Position;
use shogi_train::{Move16Format, PositionFormat};
use std::io::{Read, Write};

/// The magic bytes at offset 0.
pub const MAGIC: &[u8; 16] = b"YANE-BINBOOK-V1\0";
const HEADER: usize = 32;
const INDEX_RECORD: usize = 44;

/// Reads a `.ybb` book. Counts read as 1 and ponders as none (the format holds neither).
pub fn read_ybb<R: Read>(mut input: R, file: &str) -> Result<Book, BookError> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| BookError::io(file, &e))?;
    parse_ybb(&bytes, file)
}

fn le_u64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
}

fn le_u16(b: &[u8]) -> u16 {
    u16::from_le_bytes([b[0], b[1]])
}

/// Parses the bytes of a `.ybb` book.
pub fn parse_ybb(bytes: &[u8], file: &str) -> Result<Book, BookError> {
    let at = |off: usize, m: String| BookError::new(file, Location::Byte(off as u64), m);
    if bytes.len() < HEADER || &bytes[..16] != MAGIC {
        return Err(BookError::file(
            file,
            "not a .ybb book: it does not start with `YANE-BINBOOK-V1`",
        ));
    }
    let n = le_u64(&bytes[16..]);
    let flags = le_u64(&bytes[24..]);
    if flags & !1 != 0 {
        return Err(at(
            24,
            format!("unknown flags {flags:#x} (only bit 0 is defined)"),
        ));
    }
    let record = if flags & 1 != 0 { 6 } else { 4 };
    let index_end = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_mul(INDEX_RECORD))
        .and_then(|s| s.checked_add(HEADER))
        .filter(|&e| e <= bytes.len())
        .ok_or_else(|| {
            at(
                16,
                format!(
                    "{n} positions do not fit in a file of {} bytes",
                    bytes.len()
                ),
            )
        })?;
    let moves_area = &bytes[index_end..];
    let mut book = Book::new();
    let mut last: Option<&[u8]> = None;
    for i in 0..n as usize {
        let off = HEADER + i * INDEX_RECORD;
        let rec = &bytes[off..off + INDEX_RECORD];
        let packed: &[u8; 32] = rec[..32].try_into().expect("32 bytes");
        if last.is_some_and(|l| l >= &packed[..]) {
            return Err(at(
                off,
                format!(
                    "position {i} is out of order or repeated (the index must be strictly ascending)"
                ),
            ));
        }
        last = Some(&rec[..32]);
        let mut pos = PositionFormat::PackedSfen
            .decode(packed)
            .map_err(|e| at(off, format!("position {i}: {e}")))?;
        let ply = le_u16(&rec[40..]);
        pos.set_move_number(u32::from(ply));
        let moves_off = le_u64(&rec[32..]);
        let count = le_u16(&rec[42..]) as usize;
        let start = usize::try_from(moves_off).unwrap_or(usize::MAX);
        let Some(slice) = start
            .checked_add(count * record)
            .filter(|&e| e <= moves_area.len())
            .map(|e| &moves_area[start..e])
        else {
            return Err(at(
                off,
                format!("position {i}: its {count} moves lie outside the file"),
            ));
        };
        let mut entry = Entry {
            ply: Some(u32::from(ply)),
            ..Entry::default()
        };
        for (j, r) in slice.chunks_exact(record).enumerate() {
            let moff = index_end + start + j * record;
            let mv = Move16Format::YaneuraOu
                .decode(le_u16(r), &pos)
                .map_err(|e| {
                    at(
                        moff,
                        format!("move {j} of position {i} (`{}`): {e}", pos.to_sfen()),
                    )
                })?;
            let mut m = BookMove::new(mv);
            m.value = i32::from(le_u16(&r[2..]) as i16);
            if record == 6 {
                m.depth = i32::from(le_u16(&r[4..]));
            }
            entry.moves.push(m);
        }
        book.insert_key(position_key(&pos), entry);
    }
    Ok(book)
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
/// depth outside 0..65535 is an error naming the position: nothing is altered.
pub fn write_ybb<W: Write>(
    book: &Book,
    with_depth: bool,
    out: &mut W,
) -> Result<YbbLosses, String> {
    let mut losses = YbbLosses {
        comments: book.header_comments.len() + book.trailing_comments.len(),
        ..YbbLosses::default()
    };
    let mut rows: Vec<([u8; 32], &Entry)> = Vec::with_capacity(book.len());
    for (key, entry) in book.iter() {
        let pos: Position = Position::from_sfen(key).map_err(|e| format!("`{key}`: {e}"))?;
        let packed = PositionFormat::PackedSfen
            .encode_to_array(&pos)
            .map_err(|e| format!("`{key}`: {e}"))?;
        rows.push((packed, entry));
    }
    rows.sort_unstable_by_key(|a| a.0);
    let mut head = Vec::with_capacity(HEADER + rows.len() * INDEX_RECORD);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&(rows.len() as u64).to_le_bytes());
    head.extend_from_slice(&u64::from(with_depth).to_le_bytes());
    let mut moves = Vec::new();
    for (packed, entry) in &rows {
        let mut sorted = (*entry).clone();
        sorted.sort_moves();
        losses.comments += entry.comments.len();
        losses.plies += usize::from(entry.ply.is_none());
        let ply = u16::try_from(entry.ply.unwrap_or(0))
            .map_err(|_| format!("ply {:?} does not fit in 16 bits", entry.ply))?;
        head.extend_from_slice(packed);
        head.extend_from_slice(&(moves.len() as u64).to_le_bytes());
        head.extend_from_slice(&ply.to_le_bytes());
        let count =
            u16::try_from(sorted.moves.len()).map_err(|_| "more than 65535 moves".to_string())?;
        head.extend_from_slice(&count.to_le_bytes());
        for m in &sorted.moves {
            losses.counts += usize::from(m.count != 1);
            losses.ponders += usize::from(m.ponder.is_some());
            let code = Move16Format::YaneuraOu
                .encode(m.mv)
                .map_err(|e| e.to_string())?;
            let value = i16::try_from(m.value)
                .map_err(|_| format!("value {} of {} does not fit in 16 bits", m.value, m.mv))?;
            moves.extend_from_slice(&code.to_le_bytes());
            moves.extend_from_slice(&value.to_le_bytes());
            if with_depth {
                let depth = u16::try_from(m.depth).map_err(|_| {
                    format!("depth {} of {} does not fit in 0..65535", m.depth, m.mv)
                })?;
                moves.extend_from_slice(&depth.to_le_bytes());
            }
        }
    }
    out.write_all(&head).map_err(|e| e.to_string())?;
    out.write_all(&moves).map_err(|e| e.to_string())?;
    Ok(losses)
}

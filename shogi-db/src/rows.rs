//! The position rows of an index run, from the worker threads to the clustered `positions`
//! tree: gathered by the top byte of their key as they arrive, spilled to files beside the
//! database when more arrive than memory may hold, and at the end sorted part by part on one
//! thread while the writer appends the parts already sorted, so that every row of a run is
//! written in key order in one pass (appending to a new tree, or one merge into an old one).

use rusqlite::Connection;
use shogi_core::{Move, Role, Square};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// One row of `positions`, held until it is written in key order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PosRow {
    pub key: i64,
    pub game: u32,
    pub ply: u32,
    pub check: i32,
    pub mv: Option<Move>,
}

/// Position rows written by one statement (most of the cost of a row is the statement).
const ROWS_PER_INSERT: usize = 32;
/// Position rows held in memory before they are spilled to files (24 bytes each).
pub(crate) const DEFAULT_MEMORY_ROWS: usize = 32 << 20;
/// The parts rows are split into: by the top byte of the key.
const PARTS: usize = 256;
/// Bytes of a spilled row: key, game, ply, check key (little-endian) and the move in 16 bits.
const SPILLED: usize = 22;

/// The part of a key: its top byte with the sign flipped, so parts follow `i64` order.
fn part(key: i64) -> usize {
    (((key as u64) >> 56) ^ 0x80) as usize
}

/// A move in 16 bits for a spill file: `0xffff` none; a drop `0x8000 | role << 7 | to`; a
/// move `promote << 14 | from << 7 | to` (square indexes are below 81).
fn move_bits(mv: Option<Move>) -> u16 {
    match mv {
        None => 0xffff,
        Some(Move::Drop { role, to }) => 0x8000 | (role.index() as u16) << 7 | to.index() as u16,
        Some(Move::Normal { from, to, promote }) => {
            u16::from(promote) << 14 | (from.index() as u16) << 7 | to.index() as u16
        }
    }
}

/// The move of [`move_bits`] (`None` for none, or for bits no move gives).
fn bits_move(b: u16) -> Option<Move> {
    if b == 0xffff {
        return None;
    }
    let to = Square::from_index(usize::from(b & 0x7f))?;
    let high = usize::from((b >> 7) & 0x7f);
    if b & 0x8000 != 0 {
        Some(Move::Drop {
            role: Role::from_index(high)?,
            to,
        })
    } else {
        Some(Move::Normal {
            from: Square::from_index(high)?,
            to,
            promote: b & 0x4000 != 0,
        })
    }
}

fn encode(r: &PosRow) -> [u8; SPILLED] {
    let mut b = [0u8; SPILLED];
    b[..8].copy_from_slice(&r.key.to_le_bytes());
    b[8..12].copy_from_slice(&r.game.to_le_bytes());
    b[12..16].copy_from_slice(&r.ply.to_le_bytes());
    b[16..20].copy_from_slice(&r.check.to_le_bytes());
    b[20..].copy_from_slice(&move_bits(r.mv).to_le_bytes());
    b
}

fn decode(b: &[u8; SPILLED]) -> PosRow {
    let n4 = |i: usize| [b[i], b[i + 1], b[i + 2], b[i + 3]];
    let mut k = [0u8; 8];
    k.copy_from_slice(&b[..8]);
    PosRow {
        key: i64::from_le_bytes(k),
        game: u32::from_le_bytes(n4(8)),
        ply: u32::from_le_bytes(n4(12)),
        check: i32::from_le_bytes(n4(16)),
        mv: bits_move(u16::from_le_bytes([b[20], b[21]])),
    }
}

/// An error of the spill files, as a database error naming the folder.
fn spill_err(dir: &Path, e: std::io::Error) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(
        format!("position rows spilled to {}: {e}", dir.display()).into(),
    )
}

/// The position rows waiting to be written.
pub(crate) struct Positions {
    parts: Vec<Vec<PosRow>>,
    len: usize,
    cap: usize,
    /// Where rows go when more than `cap` arrive (created when first needed; removed when
    /// the rows are written or the run fails).
    dir: PathBuf,
    spilled: Option<Vec<BufWriter<std::fs::File>>>,
}

impl Positions {
    /// Rows kept in memory up to `cap`, then spilled into the folder `dir`.
    pub fn new(cap: usize, dir: PathBuf) -> Positions {
        Positions {
            parts: (0..PARTS).map(|_| Vec::new()).collect(),
            len: 0,
            cap: cap.max(1),
            dir,
            spilled: None,
        }
    }

    /// Takes the rows of one game: key and check key of each position of its line, and the
    /// move played from each.
    pub fn push(&mut self, game: u32, keys: &[(i64, i32)], moves: &[Move]) -> rusqlite::Result<()> {
        for (ply, (key, check)) in keys.iter().enumerate() {
            self.parts[part(*key)].push(PosRow {
                key: *key,
                game,
                ply: ply as u32,
                check: *check,
                mv: moves.get(ply).copied(),
            });
        }
        self.len += keys.len();
        if self.len >= self.cap {
            self.spill()?;
        }
        Ok(())
    }

    /// Appends the rows in memory to the part files.
    fn spill(&mut self) -> rusqlite::Result<()> {
        let dir = self.dir.clone();
        let err = |e| spill_err(&dir, e);
        if self.spilled.is_none() {
            std::fs::create_dir_all(&dir).map_err(err)?;
            let mut files = Vec::with_capacity(PARTS);
            for p in 0..PARTS {
                let f = std::fs::File::create(dir.join(format!("{p:03}"))).map_err(err)?;
                files.push(BufWriter::with_capacity(1 << 16, f));
            }
            self.spilled = Some(files);
        }
        if let Some(files) = &mut self.spilled {
            for (rows, f) in self.parts.iter_mut().zip(files.iter_mut()) {
                for r in rows.iter() {
                    f.write_all(&encode(r)).map_err(err)?;
                }
                rows.clear();
            }
        }
        self.len = 0;
        Ok(())
    }

    /// Writes every row taken (spilled or in memory) in (key, game, ply) order: one thread
    /// reads and sorts the parts in order and hands each over, while this thread writes the
    /// ones already sorted (writing is the slower half, so sorting costs no time). The spill
    /// files are removed.
    pub fn write(mut self, conn: &Connection) -> rusqlite::Result<()> {
        let spilled = match self.spilled.take() {
            Some(files) => {
                for mut f in files {
                    f.flush().map_err(|e| spill_err(&self.dir, e))?;
                }
                true
            }
            None => false,
        };
        let result = self.write_parts(conn, spilled);
        if spilled {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
        result
    }

    fn write_parts(&mut self, conn: &Connection, spilled: bool) -> rusqlite::Result<()> {
        let dir = self.dir.clone();
        let many = format!(
            "INSERT INTO positions (key, game_id, ply, move, check_key) VALUES {}",
            vec!["(?, ?, ?, ?, ?)"; ROWS_PER_INSERT].join(", ")
        );
        let mut st = conn.prepare_cached(&many)?;
        let mut one = conn.prepare_cached(
            "INSERT INTO positions (key, game_id, ply, move, check_key) VALUES (?, ?, ?, ?, ?)",
        )?;
        let parts = std::mem::take(&mut self.parts);
        let (tx, rx) = std::sync::mpsc::sync_channel::<std::io::Result<Vec<PosRow>>>(4);
        let reading = &dir;
        std::thread::scope(|scope| {
            scope.spawn(move || {
                for (p, mut rows) in parts.into_iter().enumerate() {
                    let sorted = read_part(reading, p, spilled, &mut rows).map(|()| {
                        rows.sort_unstable_by_key(|r| (r.key, r.game, r.ply));
                        rows
                    });
                    if tx.send(sorted).is_err() {
                        return;
                    }
                }
            });
            // `rx` is consumed: an early error drops it, which stops the sorting thread.
            for rows in rx {
                let rows = rows.map_err(|e| spill_err(&dir, e))?;
                let mut chunks = rows.chunks_exact(ROWS_PER_INSERT);
                for chunk in chunks.by_ref() {
                    let mut i = 1;
                    for r in chunk {
                        bind(&mut st, i, r)?;
                        i += 5;
                    }
                    st.raw_execute()?;
                }
                for r in chunks.remainder() {
                    bind(&mut one, 1, r)?;
                    one.raw_execute()?;
                }
            }
            Ok(())
        })
    }
}

impl Drop for Positions {
    /// A run that fails before writing its rows leaves no spill files behind.
    fn drop(&mut self) {
        if self.spilled.take().is_some() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Adds the spilled rows of part `p` (if any were spilled) to `rows`.
fn read_part(dir: &Path, p: usize, spilled: bool, rows: &mut Vec<PosRow>) -> std::io::Result<()> {
    if !spilled {
        return Ok(());
    }
    let mut f = std::fs::File::open(dir.join(format!("{p:03}")))?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes)?;
    rows.reserve(bytes.len() / SPILLED);
    for c in bytes.chunks_exact(SPILLED) {
        let mut b = [0u8; SPILLED];
        b.copy_from_slice(c);
        rows.push(decode(&b));
    }
    Ok(())
}

fn bind(st: &mut rusqlite::CachedStatement<'_>, i: usize, r: &PosRow) -> rusqlite::Result<()> {
    st.raw_bind_parameter(i, r.key)?;
    st.raw_bind_parameter(i + 1, r.game)?;
    st.raw_bind_parameter(i + 2, r.ply)?;
    let usi = r.mv.map(Move::usi);
    st.raw_bind_parameter(i + 3, usi.as_ref().map(|u| u.as_str()))?;
    st.raw_bind_parameter(i + 4, r.check)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spilled_rows_read_back_as_written() {
        let pos = shogi_core::Position::from_sfen(
            "lnsgk1snl/6g2/p1ppppbpp/6R2/9/1rP6/P2PPPP1P/1SG4S1/LN2KG1NL b B3Pp 31",
        )
        .unwrap();
        let mut moves: Vec<Option<Move>> = pos.legal_moves().iter().map(|m| Some(*m)).collect();
        moves.push(None);
        assert!(moves.iter().any(|m| matches!(m, Some(Move::Drop { .. }))));
        assert!(
            moves
                .iter()
                .any(|m| matches!(m, Some(Move::Normal { promote: true, .. })))
        );
        for (i, mv) in moves.into_iter().enumerate() {
            let r = PosRow {
                key: i64::MIN + i as i64 * 0x0123_4567_89ab,
                game: u32::MAX - i as u32,
                ply: i as u32,
                check: -(i as i32),
                mv,
            };
            assert_eq!(decode(&encode(&r)), r);
        }
    }

    #[test]
    fn parts_follow_signed_key_order() {
        let keys = [i64::MIN, -1 << 56, -1, 0, 1, 1 << 56, i64::MAX];
        for w in keys.windows(2) {
            assert!(part(w[0]) <= part(w[1]), "{w:?}");
        }
        assert_eq!((part(i64::MIN), part(i64::MAX)), (0, 255));
    }
}

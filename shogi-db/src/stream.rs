//! Printing a very common position's hits (a million, for the start position of a million
//! games) on several threads: the hits are cut into ranges of games; worker threads, each
//! with its own connection, read the ranges' rows into compact chunks (the strings of a chunk
//! in one buffer), and the calling thread hands the hits to the printer in order, at most a
//! few chunks ahead of it.

use crate::error::DbError;
use crate::hit::{Hit, hit_columns, set, set_opt, stored_move, stored_word};
use crate::schema::{self, db_err};
use rusqlite::Connection;
use shogi_batch::EndingName;
use shogi_kif::Winner;
use std::ops::ControlFlow;
use std::path::Path;

/// Hits per chunk by default (about 1.5 MB of strings for generated games).
pub(crate) const CHUNK: usize = 16_384;

/// From this many hits to print on, they are read on several threads (four chunks of
/// `chunk` hits).
pub(crate) fn parallel_from(chunk: usize) -> usize {
    4 * chunk.max(1)
}

/// A string of a chunk: start and length in its buffer (`None`: NULL).
type Span = Option<(u32, u32)>;

/// One hit of a chunk.
struct Packed {
    ply: u32,
    next: Option<shogi_core::Move>,
    path: Span,
    game: u32,
    sente: Span,
    gote: Span,
    start: Span,
    start_iso: Span,
    plies: u32,
    ending: Option<EndingName>,
    winner: Winner,
    valid: bool,
    sente_rating: Option<f64>,
    gote_rating: Option<f64>,
}

/// The hits of one range of games.
#[derive(Default)]
struct Chunk {
    text: String,
    hits: Vec<Packed>,
}

impl Chunk {
    fn span(&mut self, s: Option<&str>) -> Span {
        s.map(|s| {
            let at = self.text.len() as u32;
            self.text.push_str(s);
            (at, s.len() as u32)
        })
    }

    fn get(&self, s: Span) -> Option<&str> {
        s.and_then(|(at, n)| self.text.get(at as usize..(at + n) as usize))
    }
}

impl Packed {
    /// Fills `hit` (reusing its strings) with this hit of `chunk`.
    fn unpack(&self, chunk: &Chunk, hit: &mut Hit) {
        hit.ply = self.ply;
        hit.next_move = self.next;
        let row = &mut hit.row;
        set(&mut row.path, chunk.get(self.path));
        row.game = self.game;
        set_opt(&mut row.sente, chunk.get(self.sente));
        set_opt(&mut row.gote, chunk.get(self.gote));
        set_opt(&mut row.start, chunk.get(self.start));
        set_opt(&mut row.start_iso, chunk.get(self.start_iso));
        row.plies = self.plies;
        row.ending = self.ending;
        row.winner = self.winner;
        row.valid = self.valid;
        row.sente_rating = self.sente_rating;
        row.gote_rating = self.gote_rating;
    }
}

/// A range of hits to read: games `lo..=hi`, at most `n` hits.
#[derive(Clone, Copy)]
struct Range {
    lo: i64,
    hi: i64,
    n: usize,
}

/// Cuts the first `shown` of the hits (their game ids, in order) into ranges of about
/// `chunk` hits that never split a game's hits.
fn ranges(ids: &[i64], shown: usize, chunk: usize) -> Vec<Range> {
    let ids = &ids[..shown.min(ids.len())];
    let mut out = Vec::new();
    let mut from = 0;
    while from < ids.len() {
        let mut to = (from + chunk).min(ids.len());
        while to < ids.len() && ids[to] == ids[to - 1] {
            to += 1;
        }
        out.push(Range {
            lo: ids[from],
            hi: ids[to - 1],
            n: to - from,
        });
        from = to;
    }
    out
}

/// Reads the hits of one range.
fn read(
    st: &mut rusqlite::CachedStatement<'_>,
    keys: [i64; 2],
    r: Range,
    mut chunk: Chunk,
) -> rusqlite::Result<Chunk> {
    chunk.text.clear();
    chunk.hits.clear();
    chunk.hits.reserve(r.n);
    let mut rows = st.query(rusqlite::params![keys[0], keys[1], r.lo, r.hi, r.n as i64])?;
    while let Some(row) = rows.next()? {
        let text = |i: usize| row.get_ref(i).and_then(|v| Ok(v.as_str_or_null()?));
        let p = Packed {
            ply: row.get(0)?,
            next: stored_move(text(1)?, 1)?,
            path: chunk.span(text(2)?),
            game: row.get(3)?,
            sente: chunk.span(text(4)?),
            gote: chunk.span(text(5)?),
            start: chunk.span(text(6)?),
            start_iso: chunk.span(text(7)?),
            plies: row.get(8)?,
            ending: stored_word(text(9)?, 9)?,
            winner: stored_word(text(10)?, 10)?.unwrap_or_default(),
            valid: row.get::<_, i64>(11)? != 0,
            sente_rating: row.get(12)?,
            gote_rating: row.get(13)?,
        };
        chunk.hits.push(p);
    }
    Ok(chunk)
}

/// How [`print`] reads: the hits per chunk and the reading threads.
#[derive(Clone, Copy)]
pub(crate) struct Chunking {
    /// Hits per chunk (a chunk never splits a game's hits).
    pub(crate) hits: usize,
    /// Reading threads.
    pub(crate) threads: usize,
}

/// Hands the first `shown` hits of the key and check key `keys` to `each`, in order, read in
/// chunks on several threads (`how`); `ids` are the game ids of all hits, in order. Stops
/// when `each` says so.
pub(crate) fn print(
    db: &Path,
    keys: [i64; 2],
    ids: &[i64],
    shown: usize,
    how: Chunking,
    each: &mut dyn FnMut(&Hit) -> ControlFlow<()>,
) -> Result<(), DbError> {
    let ranges = ranges(ids, shown, how.hits.max(1));
    let threads = how.threads.clamp(1, ranges.len().max(1));
    let columns = hit_columns("h");
    let sql = format!(
        "SELECT p.ply, p.move, {columns} FROM positions p \
         JOIN games h INDEXED BY games_hit ON h.id = p.game_id \
         WHERE p.key = ?1 AND p.check_key = ?2 AND p.game_id BETWEEN ?3 AND ?4 \
         ORDER BY p.game_id, p.ply LIMIT ?5"
    );
    std::thread::scope(|scope| {
        // Worker w reads ranges w, w + threads, …, in order, into its own bounded channel,
        // and takes the chunks printed back to fill again (large buffers are not allocated,
        // and their pages faulted in, chunk after chunk).
        let mut queues = Vec::with_capacity(threads);
        let mut returns = Vec::with_capacity(threads);
        for w in 0..threads {
            let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Chunk, DbError>>(2);
            let (back, used) = std::sync::mpsc::channel::<Chunk>();
            queues.push(rx);
            returns.push(back);
            let (sql, ranges) = (&sql, &ranges);
            scope.spawn(move || {
                let work = || -> Result<(), DbError> {
                    let conn: Connection = schema::open_for_query(db)?;
                    let mut st = conn.prepare_cached(sql).map_err(|e| db_err(db, e))?;
                    for r in ranges.iter().skip(w).step_by(threads) {
                        let empty = used.try_recv().unwrap_or_default();
                        let chunk = read(&mut st, keys, *r, empty).map_err(|e| db_err(db, e));
                        let failed = chunk.is_err();
                        if tx.send(chunk).is_err() || failed {
                            break;
                        }
                    }
                    Ok(())
                };
                if let Err(e) = work() {
                    let _ = tx.send(Err(e));
                }
            });
        }
        let mut hit = Hit::empty();
        for i in 0..ranges.len() {
            let Ok(chunk) = queues[i % threads].recv() else {
                return Err(DbError::new(db, "a reading thread stopped"));
            };
            let chunk = chunk?;
            for p in &chunk.hits {
                p.unpack(&chunk, &mut hit);
                if each(&hit).is_break() {
                    // Dropping the queues stops the workers at their next chunk.
                    return Ok(());
                }
            }
            let _ = returns[i % threads].send(chunk);
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_the_hits_shown_without_splitting_a_game() {
        // Games with 1 to 3 hits each, ids increasing with gaps.
        let mut ids = Vec::new();
        for g in 0..20_000i64 {
            for _ in 0..=(g % 3) {
                ids.push(g * 2 + 1);
            }
        }
        for shown in [
            0,
            1,
            CHUNK,
            CHUNK + 1,
            ids.len() - 5,
            ids.len(),
            ids.len() + 10,
        ] {
            let rs = ranges(&ids, shown, CHUNK);
            let n: usize = rs.iter().map(|r| r.n).sum();
            assert_eq!(n, shown.min(ids.len()), "{shown}");
            for w in rs.windows(2) {
                assert!(w[0].hi < w[1].lo, "a game in two ranges");
            }
            let mut at = 0;
            for r in &rs {
                assert_eq!(ids[at], r.lo);
                at += r.n;
                assert_eq!(ids[at - 1], r.hi);
                assert!(r.n <= CHUNK + 2, "{}", r.n);
            }
        }
    }
}

//! `find` and `explore` without filters: the hits are the rows of `positions` with the
//! position's key and check key, read with the narrow `games_hit` index, confirmed by
//! replaying one of them (see [`crate::key::check_key`] for why one is enough). When that
//! one is not the position (two positions sharing 96 bits of hash), `None` sends the caller
//! to the exact path, which replays every hit.

use crate::error::DbError;
use crate::hit::{
    Counts, Hit, fill_hit_row, hit_columns, hit_row, position_after, prefix, stored_move,
    stored_word,
};
use crate::key::{check_key, position_key};
use crate::schema::{self, db_err};
use crate::stream::{self, Chunking};
use crate::tally::{Explore, GameRef, Tally};
use rusqlite::{Connection, OptionalExtension};
use shogi_core::Position;
use std::ops::ControlFlow;
use std::path::Path;

/// Whether the position before move `ply` of stored game `game_id` is `target`.
fn confirm(
    conn: &Connection,
    db: &Path,
    target: &Position,
    game_id: i64,
    ply: i64,
) -> Result<bool, DbError> {
    let (start, moves): (Option<String>, String) = conn
        .query_row(
            "SELECT start_sfen, moves FROM games WHERE id = ?1",
            [game_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .map_err(|e| db_err(db, e))?;
    let Some(start) = start else {
        return Ok(false);
    };
    let line = prefix(&moves, ply as usize);
    Ok(position_after(&start, line).is_some_and(|p| p.same_position(target)))
}

/// Whether the first hit of `keys` (by game and ply), replayed, is `target` (true when
/// there is no hit).
pub(crate) fn first_hit_is(
    conn: &Connection,
    db: &Path,
    target: &Position,
    keys: [i64; 2],
) -> Result<bool, DbError> {
    let first: Option<(i64, i64)> = conn
        .query_row(
            "SELECT game_id, ply FROM positions WHERE key = ?1 AND check_key = ?2 \
             ORDER BY game_id, ply LIMIT 1",
            keys,
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(|e| db_err(db, e))?;
    match first {
        None => Ok(true),
        Some((game_id, ply)) => confirm(conn, db, target, game_id, ply),
    }
}

/// The rows of the key and check key of `target`, joined with `games_hit`.
fn hits_sql(columns: &str) -> String {
    format!(
        "SELECT p.game_id, p.ply, p.move, {columns} FROM positions p \
         JOIN games h INDEXED BY games_hit ON h.id = p.game_id \
         WHERE p.key = ?1 AND p.check_key = ?2 ORDER BY p.game_id, p.ply"
    )
}

/// The hits of `target` (unordered), or `None` when the replayed hit is not the position.
pub(crate) fn find(
    conn: &Connection,
    db: &Path,
    target: &Position,
) -> Result<Option<Vec<Hit>>, DbError> {
    let mut st = conn
        .prepare_cached(&hits_sql(&hit_columns("h")))
        .map_err(|e| db_err(db, e))?;
    let mut rows = st
        .query([position_key(target), check_key(target)])
        .map_err(|e| db_err(db, e))?;
    let mut hits = Vec::new();
    let mut first = None;
    while let Some(r) = rows.next().map_err(|e| db_err(db, e))? {
        let get = |e| db_err(db, e);
        let game_id: i64 = r.get(0).map_err(get)?;
        let ply: i64 = r.get(1).map_err(get)?;
        first.get_or_insert((game_id, ply));
        hits.push(Hit {
            row: hit_row(r, 3).map_err(get)?,
            ply: ply as u32,
            next_move: r
                .get_ref(2)
                .and_then(|v| stored_move(v.as_str_or_null()?, 2))
                .map_err(get)?,
        });
    }
    if let Some((game_id, ply)) = first {
        if !confirm(conn, db, target, game_id, ply)? {
            return Ok(None);
        }
    }
    Ok(Some(hits))
}

/// The hits of `target` passed to `each` as they are read, in (path, game, ply) order, at
/// most `limit` of them, and the counts of all. `None` (with nothing passed to `each`) when
/// the database's game ids do not follow path order (see [`schema::record_id_order`]) or
/// the first hit, replayed, is not the position: the caller then takes the collecting path.
///
/// The hits are counted from the primary key alone; no row is built per hit (one [`Hit`] is
/// refilled in place), and many hits are read on several threads ([`crate::stream`]), so
/// printing a million hits costs little more than writing them; `chunk` is the hits per
/// chunk there, and from four chunks on the threaded path is taken.
pub(crate) fn find_each(
    conn: &Connection,
    db: &Path,
    target: &Position,
    limit: Option<usize>,
    chunk: usize,
    each: &mut dyn FnMut(&Hit) -> ControlFlow<()>,
) -> Result<Option<Counts>, DbError> {
    let err = |e| db_err(db, e);
    if !schema::ids_in_path_order(conn).map_err(err)? {
        return Ok(None);
    }
    let keys = [position_key(target), check_key(target)];
    if !first_hit_is(conn, db, target, keys)? {
        return Ok(None);
    }
    // A counted position's totals are stored: only the hits shown are read.
    let few = limit.is_some_and(|l| l < stream::parallel_from(chunk));
    let stored = match few {
        true => crate::postings::counts(conn, keys).map_err(err)?,
        false => None,
    };
    let (counts, ids) = match stored {
        Some(counts) => (counts, Vec::new()),
        None => {
            let ids = hit_ids(conn, db, keys)?;
            let mut counts = Counts {
                total: ids.len(),
                games: 0,
            };
            let mut last = None;
            for id in &ids {
                counts.games += usize::from(last != Some(*id));
                last = Some(*id);
            }
            (counts, ids)
        }
    };
    let shown = limit.unwrap_or(usize::MAX).min(counts.total);
    if shown >= stream::parallel_from(chunk) {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
        let how = Chunking {
            hits: chunk,
            threads,
        };
        stream::print(db, keys, &ids, shown, how, each)?;
        return Ok(Some(counts));
    }
    let mut hit = Hit::empty();
    let mut st = conn
        .prepare_cached(&format!("{} LIMIT ?3", hits_sql(&hit_columns("h"))))
        .map_err(err)?;
    let mut rows = st
        .query(rusqlite::params![keys[0], keys[1], shown as i64])
        .map_err(err)?;
    while let Some(r) = rows.next().map_err(err)? {
        hit.ply = r.get(1).map_err(err)?;
        hit.next_move = r
            .get_ref(2)
            .and_then(|v| stored_move(v.as_str_or_null()?, 2))
            .map_err(err)?;
        fill_hit_row(r, 3, &mut hit.row).map_err(err)?;
        if each(&hit).is_break() {
            break;
        }
    }
    Ok(Some(counts))
}

/// The game ids of the hits of a key and check key, in (game, ply) order: from the primary
/// key alone.
pub(crate) fn hit_ids(conn: &Connection, db: &Path, keys: [i64; 2]) -> Result<Vec<i64>, DbError> {
    let err = |e| db_err(db, e);
    let mut st = conn
        .prepare_cached(
            "SELECT game_id FROM positions WHERE key = ?1 AND check_key = ?2 \
             ORDER BY game_id, ply",
        )
        .map_err(err)?;
    let mut rows = st.query(keys).map_err(err)?;
    let mut ids = Vec::new();
    while let Some(r) = rows.next().map_err(err)? {
        ids.push(r.get(0).map_err(err)?);
    }
    Ok(ids)
}

/// The explorer table of `target` with `top` top games per move, or `None` when the
/// replayed hit is not the position.
pub(crate) fn explore(
    conn: &Connection,
    db: &Path,
    target: &Position,
    top: usize,
) -> Result<Option<Explore>, DbError> {
    let sql = hits_sql("h.winner, h.sente_rating, h.gote_rating, h.start_iso, h.path, h.game");
    let mut st = conn.prepare_cached(&sql).map_err(|e| db_err(db, e))?;
    let mut rows = st
        .query([position_key(target), check_key(target)])
        .map_err(|e| db_err(db, e))?;
    let mut tally: Tally<i64> = Tally::new(top);
    let mut first = None;
    while let Some(r) = rows.next().map_err(|e| db_err(db, e))? {
        let get = |e| db_err(db, e);
        let game_id: i64 = r.get(0).map_err(get)?;
        first.get_or_insert((game_id, r.get::<_, i64>(1).map_err(get)?));
        let mv = r.get_ref(2).map_err(get)?.as_str_or_null().ok().flatten();
        if !tally.hit(&game_id, mv) {
            continue;
        }
        let Some(mv) = mv else { continue };
        // Winner, ratings, date, path and number: columns 3 to 8.
        let winner = r.get_ref(3).map_err(get)?.as_str_or_null().ok().flatten();
        let winner = stored_word(winner, 3).map_err(get)?.unwrap_or_default();
        let ratings = [r.get(4).map_err(get)?, r.get(5).map_err(get)?];
        let date = r.get_ref(6).map_err(get)?.as_str_or_null().ok().flatten();
        let at = match tally.wants_top() {
            true => Some((
                r.get_ref(7).map_err(get)?.as_str().unwrap_or_default(),
                r.get(8).map_err(get)?,
            )),
            false => None,
        };
        tally.count(game_id, mv, winner, ratings, date, at);
    }
    drop(rows);
    if let Some((game_id, ply)) = first {
        if !confirm(conn, db, target, game_id, ply)? {
            return Ok(None);
        }
    }
    let table = tally.table(target, |date, ids| newest_game(conn, db, date, ids))?;
    Ok(Some(table))
}

/// The last by path and number of the games `ids` (all of date `date`).
fn newest_game(
    conn: &Connection,
    db: &Path,
    date: String,
    ids: &[i64],
) -> Result<GameRef, DbError> {
    let mut st = conn
        .prepare_cached("SELECT path, game FROM games INDEXED BY games_hit WHERE id = ?1")
        .map_err(|e| db_err(db, e))?;
    let mut best: Option<(String, u32)> = None;
    for id in ids {
        let (path, game): (String, u32) = st
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(|e| db_err(db, e))?;
        if best
            .as_ref()
            .is_none_or(|b| (b.0.as_str(), b.1) <= (path.as_str(), game))
        {
            best = Some((path, game));
        }
    }
    let (path, game) = best.unwrap_or_default();
    Ok(GameRef {
        path,
        game,
        date: Some(date),
    })
}

//! `find` and `explore` without filters: the hits are the rows of `positions` with the
//! position's key and check key, read with the narrow `games_hit` index, confirmed by
//! replaying one of them (see [`crate::key::check_key`] for why one is enough). When that
//! one is not the position (two positions sharing 96 bits of hash), `None` sends the caller
//! to the exact path, which replays every hit.

use crate::error::DbError;
use crate::key::{check_key, position_key};
use crate::query::{
    GameRef, HIT_COLUMNS, Hit, MoveLine, fill_hit_row, hit_row, position_after, prefix, set_opt,
    table,
};
use crate::schema::{self, db_err};
use rusqlite::{Connection, OptionalExtension};
use shogi_batch::GameRow;
use shogi_core::Position;
use std::collections::HashMap;
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
    let columns = HIT_COLUMNS
        .iter()
        .map(|c| format!("h.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut st = conn
        .prepare_cached(&hits_sql(&columns))
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
            next_move: r.get(2).map_err(get)?,
        });
    }
    if let Some((game_id, ply)) = first {
        if !confirm(conn, db, target, game_id, ply)? {
            return Ok(None);
        }
    }
    Ok(Some(hits))
}

/// How many occurrences a search found, and in how many games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Occurrences (game and ply).
    pub total: usize,
    /// Distinct games.
    pub games: usize,
}

/// The hits of `target` passed to `each` as they are read, in (path, game, ply) order, at
/// most `limit` of them, and the counts of all. `None` (with nothing passed to `each`) when
/// the database's game ids do not follow path order (see [`schema::record_id_order`]) or
/// the first hit, replayed, is not the position: the caller then takes the collecting path.
///
/// The hits are counted from the primary key alone; no row is built per hit (one [`Hit`] is
/// refilled in place), and many hits are read on several threads ([`crate::stream`]), so
/// printing a million hits costs little more than writing them.
pub(crate) fn find_each(
    conn: &Connection,
    db: &Path,
    target: &Position,
    limit: Option<usize>,
    each: &mut dyn FnMut(&Hit) -> ControlFlow<()>,
) -> Result<Option<Counts>, DbError> {
    let err = |e| db_err(db, e);
    if !schema::ids_in_path_order(conn).map_err(err)? {
        return Ok(None);
    }
    let keys = [position_key(target), check_key(target)];
    let first: Option<(i64, i64)> = conn
        .query_row(
            "SELECT game_id, ply FROM positions WHERE key = ?1 AND check_key = ?2 \
             ORDER BY game_id, ply LIMIT 1",
            keys,
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(err)?;
    let Some((game_id, ply)) = first else {
        return Ok(Some(Counts::default()));
    };
    if !confirm(conn, db, target, game_id, ply)? {
        return Ok(None);
    }
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
    let shown = limit.unwrap_or(usize::MAX).min(ids.len());
    if shown >= crate::stream::parallel_from() {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
        crate::stream::print(db, keys, &ids, shown, threads, each)?;
        return Ok(Some(counts));
    }
    let columns = HIT_COLUMNS
        .iter()
        .map(|c| format!("h.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut hit = Hit {
        row: GameRow::default(),
        ply: 0,
        next_move: None,
    };
    let mut st = conn
        .prepare_cached(&format!("{} LIMIT ?3", hits_sql(&columns)))
        .map_err(err)?;
    let mut rows = st
        .query(rusqlite::params![keys[0], keys[1], shown as i64])
        .map_err(err)?;
    while let Some(r) = rows.next().map_err(err)? {
        hit.ply = r.get(1).map_err(err)?;
        let mv = r
            .get_ref(2)
            .and_then(|v| Ok(v.as_str_or_null()?))
            .map_err(err)?;
        set_opt(&mut hit.next_move, mv);
        fill_hit_row(r, 3, &mut hit.row).map_err(err)?;
        if each(&hit).is_break() {
            break;
        }
    }
    Ok(Some(counts))
}

/// The game ids of the hits of a key and check key, in (game, ply) order: from the primary
/// key alone.
fn hit_ids(conn: &Connection, db: &Path, keys: [i64; 2]) -> Result<Vec<i64>, DbError> {
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

/// The counts of one move, while the rows are read.
struct Tally {
    line: MoveLine,
    ratings: (f64, u32),
    /// The newest date so far and the games of that date (by id).
    newest: Option<(String, Vec<i64>)>,
}

/// The explorer table of `target`, or `None` when the replayed hit is not the position.
pub(crate) fn explore(
    conn: &Connection,
    db: &Path,
    target: &Position,
) -> Result<Option<crate::query::Explore>, DbError> {
    let sql = hits_sql("h.winner, h.sente_rating, h.gote_rating, h.start_iso");
    let mut st = conn.prepare_cached(&sql).map_err(|e| db_err(db, e))?;
    let mut rows = st
        .query([position_key(target), check_key(target)])
        .map_err(|e| db_err(db, e))?;
    let mut by_move: HashMap<String, Tally> = HashMap::new();
    let (mut games, mut ended) = (0u32, 0u32);
    let mut first = None;
    // The game being read (rows come by game) and the moves it has counted.
    let mut current: Option<i64> = None;
    let mut counted: Vec<String> = Vec::new();
    let mut ended_current = false;
    while let Some(r) = rows.next().map_err(|e| db_err(db, e))? {
        let get = |e| db_err(db, e);
        let game_id: i64 = r.get(0).map_err(get)?;
        first.get_or_insert((game_id, r.get::<_, i64>(1).map_err(get)?));
        if current != Some(game_id) {
            current = Some(game_id);
            counted.clear();
            ended_current = false;
            games += 1;
        }
        let mv = r.get_ref(2).map_err(get)?;
        let Ok(Some(mv)) = mv.as_str_or_null() else {
            if !ended_current {
                ended_current = true;
                ended += 1;
            }
            continue;
        };
        if counted.iter().any(|m| m == mv) {
            continue;
        }
        counted.push(mv.to_string());
        count_row(&mut by_move, mv, game_id, r).map_err(|e| db_err(db, e))?;
    }
    drop(rows);
    if let Some((game_id, ply)) = first {
        if !confirm(conn, db, target, game_id, ply)? {
            return Ok(None);
        }
    }
    let mut lines = Vec::with_capacity(by_move.len());
    for (_, mut t) in by_move {
        if let Some((date, ids)) = t.newest {
            t.line.recent = Some(newest_game(conn, db, date, &ids)?);
        }
        lines.push((t.line, t.ratings));
    }
    Ok(Some(table(target, lines, games, ended)))
}

/// Counts row `r` (winner, ratings, date: columns 3 to 6) of game `game_id` for move `mv`.
fn count_row(
    by_move: &mut HashMap<String, Tally>,
    mv: &str,
    game_id: i64,
    r: &rusqlite::Row<'_>,
) -> rusqlite::Result<()> {
    let tally = match by_move.get_mut(mv) {
        Some(t) => t,
        None => by_move.entry(mv.to_string()).or_insert_with(|| Tally {
            line: MoveLine {
                usi: mv.to_string(),
                text: mv.to_string(),
                games: 0,
                sente_wins: 0,
                gote_wins: 0,
                draws: 0,
                unfinished: 0,
                win_rate: 0.0,
                avg_rating: None,
                recent: None,
            },
            ratings: (0.0, 0),
            newest: None,
        }),
    };
    tally.line.games += 1;
    match r.get_ref(3)?.as_str().unwrap_or("") {
        "sente" => tally.line.sente_wins += 1,
        "gote" => tally.line.gote_wins += 1,
        "draw" => tally.line.draws += 1,
        _ => tally.line.unfinished += 1,
    }
    for i in [4, 5] {
        if let Some(x) = r.get::<_, Option<f64>>(i)? {
            tally.ratings.0 += x;
            tally.ratings.1 += 1;
        }
    }
    if let Ok(Some(date)) = r.get_ref(6)?.as_str_or_null() {
        match &mut tally.newest {
            Some((d, ids)) if date == d.as_str() => ids.push(game_id),
            Some((d, _)) if date < d.as_str() => {}
            _ => tally.newest = Some((date.to_string(), vec![game_id])),
        }
    }
    Ok(())
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

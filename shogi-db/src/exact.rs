//! `find` with every hit replayed: the path taken with filters, or when the replayed hit of
//! the fast path is not the position.

use crate::error::DbError;
use crate::hit::{
    Found, Hit, hit_columns, hit_row, position_after, prefix, stored_move, stored_start,
};
use crate::key::position_key;
use crate::schema::{self, db_err};
use crate::tags::TagReader;
use shogi_batch::Selection;
use shogi_core::Position;
use std::collections::HashMap;
use std::path::Path;

/// Whether a stored game reaches `want`; a game replayed from its stored line.
fn reaches(start: &str, moves: &str, want: &Position) -> bool {
    let Some(mut pos) = stored_start(start) else {
        return false;
    };
    let k = want.key();
    if pos.key() == k && pos.same_position(want) {
        return true;
    }
    for m in moves.split_whitespace() {
        let Ok(mv) = shogi_core::Move::from_usi(m) else {
            return false;
        };
        pos.play_unchecked(mv);
        if pos.key() == k && pos.same_position(want) {
            return true;
        }
    }
    false
}

/// The hits of `target` with every hit replayed and compared with the position, kept by
/// `selection` (which may be empty), in (path, game, ply) order.
pub(crate) fn find_exact(
    conn: &rusqlite::Connection,
    db: &Path,
    target: &Position,
    selection: &Selection,
    limit: Option<usize>,
) -> Result<Found, DbError> {
    let hits = exact_hits(conn, db, target, selection)?;
    Ok(Found::sorted(
        hits.into_iter().map(|(_, h)| h).collect(),
        limit,
    ))
}

/// The hits of [`find_exact`] with their games' ids, unordered. With tag filters, each
/// game's stored tags are read back for the selection to decide.
pub(crate) fn exact_hits(
    conn: &rusqlite::Connection,
    db: &Path,
    target: &Position,
    selection: &Selection,
) -> Result<Vec<(i64, Hit)>, DbError> {
    // Without filters only the columns find and explore print are read, and of the line only
    // what confirming the hit needs (a move is at most 5 characters and a space).
    let full = !selection.is_empty();
    let (moves, columns) = if full {
        ("g.moves".to_string(), schema::select_list("g"))
    } else {
        (
            "substr(g.moves, 1, 6 * p.ply)".to_string(),
            hit_columns("g"),
        )
    };
    let sql = format!(
        "SELECT p.ply, p.move, g.start_sfen, {moves}, g.id, {columns} FROM positions p JOIN games g ON g.id = p.game_id WHERE p.key = ?1"
    );
    let tags = match selection.tag_rules() {
        Some(_) => Some(TagReader::new(conn).map_err(|e| db_err(db, e))?),
        None => None,
    };
    let mut st = conn.prepare(&sql).map_err(|e| db_err(db, e))?;
    let mut rows = st
        .query([position_key(target)])
        .map_err(|e| db_err(db, e))?;
    // Confirmed lines: start → first `ply` moves → whether they lead to the target.
    let mut confirmed: HashMap<String, HashMap<String, bool>> = HashMap::new();
    let mut hits = Vec::new();
    while let Some(r) = rows.next().map_err(|e| db_err(db, e))? {
        let ply: i64 = r.get(0).map_err(|e| db_err(db, e))?;
        let next = r
            .get_ref(1)
            .and_then(|v| stored_move(v.as_str_or_null()?, 1))
            .map_err(|e| db_err(db, e))?;
        let start = r.get_ref(2).map_err(|e| db_err(db, e))?;
        let Ok(start) = start.as_str() else { continue };
        let line = r
            .get_ref(3)
            .map_err(|e| db_err(db, e))?
            .as_str()
            .unwrap_or("");
        let prefix = prefix(line, ply as usize);
        let known = confirmed.get(start).and_then(|m| m.get(prefix)).copied();
        let ok = match known {
            Some(ok) => ok,
            None => {
                let ok = position_after(start, prefix).is_some_and(|p| p.same_position(target));
                confirmed
                    .entry(start.to_string())
                    .or_default()
                    .insert(prefix.to_string(), ok);
                ok
            }
        };
        if !ok {
            continue;
        }
        let id: i64 = r.get(4).map_err(|e| db_err(db, e))?;
        let row = if full {
            let mut row = schema::row_from(r, 5).map_err(|e| db_err(db, e))?;
            if let Some(reader) = &tags {
                row.tags = reader.tags(conn, id).map_err(|e| db_err(db, e))?;
            }
            if !selection.matches(&row, |want| reaches(start, line, want)) {
                continue;
            }
            row
        } else {
            hit_row(r, 5).map_err(|e| db_err(db, e))?
        };
        hits.push((
            id,
            Hit {
                row,
                ply: ply as u32,
                next_move: next,
            },
        ));
    }
    Ok(hits)
}

//! One stored game read back by its path and number, and games found by a player's name:
//! what a viewer over the database (`shogi serve`) shows.

use crate::error::DbError;
use crate::hit::{hit_columns, hit_row, stored_move, stored_start};
use crate::schema::db_err;
use rusqlite::{Connection, OptionalExtension};
use shogi_batch::GameRow;
use shogi_core::{Move, Position};
use std::path::Path;

/// A game as the database holds it: its row (what `find` prints), start and main line.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    /// The row (path, game, players, start, plies, ending, winner, validity, ratings).
    pub row: GameRow,
    /// The start position.
    pub start: Position,
    /// The main line as indexed (up to the first error of an invalid game).
    pub moves: Vec<Move>,
}

/// The game `game` of input `path`, if the database holds it.
pub(crate) fn game(
    conn: &Connection,
    db: &Path,
    path: &str,
    game: u32,
) -> Result<Option<StoredGame>, DbError> {
    let sql = format!(
        "SELECT {}, g.start_sfen, g.moves FROM games g \
         WHERE g.file_id IN (SELECT id FROM files WHERE path = ?1) AND g.path = ?1 AND g.game = ?2",
        hit_columns("g")
    );
    let n = crate::hit::HIT_COLUMNS.len();
    let found = conn
        .query_row(&sql, rusqlite::params![path, game], |r| {
            let row = hit_row(r, 0)?;
            let start: Option<String> = r.get(n)?;
            let moves: String = r.get(n + 1)?;
            let mut line = Vec::new();
            for m in moves.split_whitespace() {
                if let Some(mv) = stored_move(Some(m), n + 1)? {
                    line.push(mv);
                }
            }
            Ok((row, start, line))
        })
        .optional()
        .map_err(|e| db_err(db, e))?;
    let Some((row, start, moves)) = found else {
        return Ok(None);
    };
    let bad = |s: &str| DbError::new(db, format!("{path} game {game}: stored start '{s}'"));
    let start = match start.as_deref() {
        Some(s) => stored_start(s).ok_or_else(|| bad(s))?,
        None => return Err(bad("")),
    };
    Ok(Some(StoredGame { row, start, moves }))
}

/// The `LIKE` pattern of names containing `name`.
fn name_pattern(name: &str) -> String {
    format!(
        "%{}%",
        name.replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    )
}

/// How many games have a player whose name contains `name` (as [`by_player`] matches).
pub(crate) fn count_by_player(conn: &Connection, db: &Path, name: &str) -> Result<usize, DbError> {
    conn.query_row(
        "SELECT count(*) FROM games g WHERE g.sente LIKE ?1 ESCAPE '\\' OR g.gote LIKE ?1 ESCAPE '\\'",
        [name_pattern(name)],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n as usize)
    .map_err(|e| db_err(db, e))
}

/// The games whose sente or gote name contains `name` (case-insensitive for ASCII), in
/// (path, game) order: `limit` of them after `offset`, and whether more follow.
pub(crate) fn by_player(
    conn: &Connection,
    db: &Path,
    name: &str,
    limit: usize,
    offset: usize,
) -> Result<(Vec<GameRow>, bool), DbError> {
    let pattern = name_pattern(name);
    let sql = format!(
        "SELECT {} FROM games g WHERE g.sente LIKE ?1 ESCAPE '\\' OR g.gote LIKE ?1 ESCAPE '\\' \
         ORDER BY g.path, g.game LIMIT ?2 OFFSET ?3",
        hit_columns("g")
    );
    let mut st = conn.prepare(&sql).map_err(|e| db_err(db, e))?;
    let wanted = i64::try_from(limit.saturating_add(1)).unwrap_or(i64::MAX);
    let skip = i64::try_from(offset).unwrap_or(i64::MAX);
    let mut rows: Vec<GameRow> = st
        .query_map(rusqlite::params![pattern, wanted, skip], |r| hit_row(r, 0))
        .and_then(|it| it.collect())
        .map_err(|e| db_err(db, e))?;
    let more = rows.len() > limit;
    rows.truncate(limit);
    Ok((rows, more))
}

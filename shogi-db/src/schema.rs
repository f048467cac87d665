//! The schema: tables, column types, version checks, and the conversion between
//! [`GameRow`] and the `games` table.

use crate::error::DbError;
use rusqlite::types::Value;
use rusqlite::{Connection, OpenFlags};
use shogi_batch::{COLUMNS, GameRow};
use std::path::Path;

/// The schema version, kept in `PRAGMA user_version`. A database of another version is
/// refused (re-create it with `shogi index`).
pub const SCHEMA_VERSION: i64 = 7;

/// What `meta.format` holds, to tell our databases from other SQLite files.
pub const FORMAT_NAME: &str = "shogi-game-database";

/// The SQL type of a `games` column (the [`GameRow`] fields).
fn column_type(name: &str) -> &'static str {
    match name {
        "game" | "line" | "plies" | "valid" | "error_ply" | "error_line" | "warnings"
        | "repetition_ply" => "INTEGER",
        "sente_rating" | "gote_rating" => "REAL",
        _ => "TEXT",
    }
}

/// The statements that create an empty database of [`SCHEMA_VERSION`].
pub fn create_sql() -> String {
    let mut games = String::from(
        "CREATE TABLE games (\n  id INTEGER PRIMARY KEY,\n  file_id INTEGER NOT NULL REFERENCES files(id),\n",
    );
    for c in COLUMNS {
        games.push_str(&format!("  {c} {},\n", column_type(c)));
    }
    games.push_str("  moves TEXT NOT NULL\n);\n");
    format!(
        "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL,
  hash TEXT,
  games INTEGER NOT NULL DEFAULT 0
);
{games}{buckets}{tag_buckets}{postings}{tags}CREATE TABLE positions (
  key INTEGER NOT NULL,
  game_id INTEGER NOT NULL,
  ply INTEGER NOT NULL,
  move TEXT,
  check_key INTEGER NOT NULL,
  PRIMARY KEY (key, game_id, ply)
) WITHOUT ROWID;
PRAGMA user_version = {SCHEMA_VERSION};
",
        buckets = crate::buckets::CREATE_SQL,
        tag_buckets = crate::tag_buckets::CREATE_SQL,
        postings = crate::postings::CREATE_SQL,
        tags = crate::tags::CREATE_SQL
    )
}

/// The secondary indexes: created after the bulk load of a new database (one sort each
/// instead of a tree kept up to date row by row). `games_hit` covers what `find` prints and
/// `explore` counts, so that a query reads a narrow index instead of the wide game rows.
pub const INDEX_SQL: &str = "CREATE INDEX IF NOT EXISTS games_file ON games(file_id);
CREATE INDEX IF NOT EXISTS games_key ON games(key);
CREATE INDEX IF NOT EXISTS games_hit ON games(id, path, game, sente, gote, start, start_iso, plies, \
ending, winner, valid, sente_rating, gote_rating);
";

/// The `meta` entry saying whether game ids follow (path, game) order: `1` or `0`.
pub(crate) const ID_ORDER: &str = "ids_in_path_order";

/// Records in `meta` whether the games' ids follow their (path, game) order (true of a
/// database built in one run from sorted inputs, and kept while later runs only add files
/// that sort after the others): then the hits of a position, stored in id order, are
/// already in the order `find` prints them, and can be streamed. One pass over `games_hit`.
pub(crate) fn record_id_order(conn: &Connection) -> rusqlite::Result<()> {
    let mut st = conn.prepare("SELECT path, game FROM games INDEXED BY games_hit ORDER BY id")?;
    let mut rows = st.query([])?;
    let mut last: Option<(String, i64)> = None;
    let mut ordered = true;
    while let Some(r) = rows.next()? {
        let path = r.get_ref(0)?.as_str()?;
        let game: i64 = r.get(1)?;
        if let Some((p, g)) = &last {
            if (p.as_str(), *g) >= (path, game) {
                ordered = false;
                break;
            }
        }
        match &mut last {
            Some((p, g)) => {
                p.clear();
                p.push_str(path);
                *g = game;
            }
            None => last = Some((path.to_string(), game)),
        }
    }
    drop(rows);
    conn.execute(
        "INSERT OR REPLACE INTO meta (name, value) VALUES (?1, ?2)",
        [ID_ORDER, if ordered { "1" } else { "0" }],
    )?;
    Ok(())
}

/// Whether `meta` says the game ids follow (path, game) order (see [`record_id_order`]).
pub(crate) fn ids_in_path_order(conn: &Connection) -> rusqlite::Result<bool> {
    use rusqlite::OptionalExtension;
    let v: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE name = ?1", [ID_ORDER], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(v.as_deref() == Some("1"))
}

/// Creates the tables (without the secondary indexes: see [`INDEX_SQL`]) in an empty
/// database and records the format and key check.
pub fn create(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(&create_sql())?;
    let mut st = conn.prepare("INSERT INTO meta (name, value) VALUES (?1, ?2)")?;
    st.execute(["format", FORMAT_NAME])?;
    st.execute(["startpos_key", &crate::key::startpos_key().to_string()])?;
    st.execute([
        "created_by",
        concat!("shogi-db ", env!("CARGO_PKG_VERSION")),
    ])?;
    Ok(())
}

/// A message for a SQLite error on `path`, in words a user can act on.
pub fn describe(e: &rusqlite::Error) -> String {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => {
            "not a SQLite database (the file is corrupt or of another kind)".into()
        }
        Some(rusqlite::ErrorCode::DatabaseBusy) | Some(rusqlite::ErrorCode::DatabaseLocked) => {
            "the database is locked by another process (another `shogi index`?); try again when it is done".into()
        }
        Some(rusqlite::ErrorCode::DatabaseCorrupt) => "the database file is corrupt".into(),
        Some(rusqlite::ErrorCode::CannotOpen) => "cannot open the database file".into(),
        Some(rusqlite::ErrorCode::ReadOnly) => "the database file is read-only".into(),
        _ => e.to_string(),
    }
}

/// Wraps a SQLite error with the database path.
pub fn db_err(path: &Path, e: rusqlite::Error) -> DbError {
    DbError::new(path, describe(&e))
}

/// Checks that `conn` holds a game database of this version.
pub fn check(conn: &Connection, path: &Path) -> Result<(), DbError> {
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| db_err(path, e))?;
    let format: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE name = 'format'", [], |r| {
            r.get(0)
        })
        .ok();
    if format.as_deref() != Some(FORMAT_NAME) {
        // Touching an unreadable file gives its own message.
        conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| {
            r.get::<_, i64>(0)
        })
        .map_err(|e| db_err(path, e))?;
        return Err(DbError::new(
            path,
            "a SQLite database, but not a shogi game database (no meta table naming it); \
             give `--db` a new file name",
        ));
    }
    if version != SCHEMA_VERSION {
        return Err(DbError::new(
            path,
            format!(
                "game database of schema version {version}; this shogi reads version \
                 {SCHEMA_VERSION}: build a new one with `shogi index ... --db NEW.sqlite`"
            ),
        ));
    }
    let key: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE name = 'startpos_key'",
            [],
            |r| r.get(0),
        )
        .ok();
    if key.as_deref() != Some(crate::key::startpos_key().to_string().as_str()) {
        return Err(DbError::new(
            path,
            "the database was built with other position keys; build a new one",
        ));
    }
    Ok(())
}

/// Opens an existing database for queries. It is opened for writing (so that SQLite can roll
/// back what an interrupted `index` left in its journal) but only reads (`query_only`).
pub fn open_for_query(path: &Path) -> Result<Connection, DbError> {
    open_checked(path, false)
}

/// Opens an existing database for queries with SQLite's read-only flag: nothing can be
/// written, not even a journal rolled back (a database left mid-update by an interrupted
/// `index` is then refused with SQLite's message instead of being repaired).
pub fn open_read_only(path: &Path) -> Result<Connection, DbError> {
    open_checked(path, true)
}

/// [`open_for_query`], or [`open_read_only`] when `read_only`.
fn open_checked(path: &Path, read_only: bool) -> Result<Connection, DbError> {
    if !path.is_file() {
        return Err(DbError::new(
            path,
            if path.exists() {
                "not a file"
            } else {
                "no such file (build it with `shogi index PATH... --db FILE`)"
            },
        ));
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let read = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, if read_only { read } else { flags })
        .or_else(|_| {
            Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
        })
        .map_err(|e| db_err(path, e))?;
    conn.busy_timeout(std::time::Duration::from_millis(2000))
        .map_err(|e| db_err(path, e))?;
    check(&conn, path)?;
    conn.execute_batch("PRAGMA query_only = 1; PRAGMA cache_size = -65536;")
        .map_err(|e| db_err(path, e))?;
    Ok(conn)
}

/// The values of a row for the `games` columns named in [`COLUMNS`], in order.
pub fn row_values(row: &GameRow) -> Vec<Value> {
    let json = serde_json::to_value(row).unwrap_or_default();
    COLUMNS
        .iter()
        .map(|c| match json.get(*c) {
            None | Some(serde_json::Value::Null) => Value::Null,
            Some(serde_json::Value::Bool(b)) => Value::Integer(i64::from(*b)),
            Some(serde_json::Value::Number(n)) => match n.as_i64() {
                Some(i) => Value::Integer(i),
                None => Value::Real(n.as_f64().unwrap_or(f64::NAN)),
            },
            Some(serde_json::Value::String(s)) => Value::Text(s.clone()),
            Some(other) => Value::Text(other.to_string()),
        })
        .collect()
}

/// The `games` columns as a select list (`g.path, g.game, …`).
pub fn select_list(alias: &str) -> String {
    COLUMNS
        .iter()
        .map(|c| format!("{alias}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A [`GameRow`] from the columns of [`select_list`], starting at column `first`.
pub fn row_from(r: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<GameRow> {
    let mut map = serde_json::Map::new();
    for (i, c) in COLUMNS.iter().enumerate() {
        let v: Value = r.get(first + i)?;
        let j = match v {
            Value::Null => serde_json::Value::Null,
            Value::Integer(n) if *c == "valid" => serde_json::Value::Bool(n != 0),
            Value::Integer(n) => n.into(),
            Value::Real(x) => serde_json::Number::from_f64(x)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null),
            Value::Text(s) => serde_json::Value::String(s),
            Value::Blob(_) => serde_json::Value::Null,
        };
        map.insert((*c).to_string(), j);
    }
    serde_json::from_value(serde_json::Value::Object(map)).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(first, rusqlite::types::Type::Text, Box::new(e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `games` columns are the rows of `shogi stats`: when they change, the schema
    /// version must change with them (and this list).
    #[test]
    fn columns_are_those_of_versions_1_and_2() {
        assert_eq!(
            COLUMNS.join(","),
            "path,game,line,format,encoding,variant,handicap,sente,gote,start,start_iso,event,site,\
             time_control,sente_rating,gote_rating,sente_rank,gote_rank,plies,ending,winner,valid,first_error,\
             error_ply,error_line,warnings,repetition_ply,final_sfen,start_sfen,key,duplicate_of"
        );
    }

    #[test]
    fn rows_round_trip_through_sqlite() {
        let conn = Connection::open_in_memory().unwrap();
        create(&conn).unwrap();
        conn.execute(
            "INSERT INTO files (path, size, mtime_ns) VALUES ('f', 1, 2)",
            [],
        )
        .unwrap();
        let row = GameRow {
            path: "a/b.kif".into(),
            game: 3,
            sente: Some("甲".into()),
            sente_rating: Some(3012.5),
            gote_rating: Some(2900.0),
            plies: 7,
            format: Some(shogi_kif::Format::Ki2),
            encoding: Some(shogi_kif::Encoding::ShiftJis),
            variant: Some(shogi_core::Variant::Mini),
            ending: Some("perpetual-check".parse().unwrap()),
            winner: shogi_kif::Winner::Gote,
            valid: true,
            error_ply: Some(4),
            ..GameRow::default()
        };
        let cols = COLUMNS.join(", ");
        let marks = vec!["?"; COLUMNS.len()].join(", ");
        let mut values = row_values(&row);
        values.push(Value::Text("7g7f".into()));
        conn.execute(
            &format!("INSERT INTO games (file_id, {cols}, moves) VALUES (1, {marks}, ?)"),
            rusqlite::params_from_iter(values),
        )
        .unwrap();
        let read_back = || {
            conn.query_row(
                &format!("SELECT {} FROM games g", select_list("g")),
                [],
                |r| row_from(r, 0),
            )
        };
        assert_eq!(read_back().unwrap(), row);
        let stored: (String, String) = conn
            .query_row("SELECT encoding, ending FROM games", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(stored, ("shift_jis".into(), "perpetual-check".into()));
        // A stored word that is none of its column's is an error, not a panic.
        conn.execute("UPDATE games SET winner = 'black'", [])
            .unwrap();
        let e = read_back().unwrap_err();
        let e = db_err(Path::new("x.db"), e).to_string();
        assert!(
            e.contains("x.db") && e.contains("'black'") && e.contains("winner"),
            "{e}"
        );
    }
}

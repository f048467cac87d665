//! The analysis cache: SQLite (WAL), one row per (configuration, position), written as each
//! result arrives.
//!
//! A configuration is the engine's identity (`id name`), its complete option set (every
//! option it offered at its default, overridden by the ones set) and the limit with the
//! multipv count and the per-position reset: everything a result depends on besides the
//! position, since each position is searched from a fresh engine state (`usinewgame` +
//! `isready`) and sent as `position sfen <the position>` with no moves. The position is its
//! full SFEN (board, side, hands, move number). Errors are not stored, so a later run retries
//! them. Each result is committed on its own: a run killed at any point loses at most the
//! positions being searched; `searches` counts how often a row was written (more than 1
//! would mean a position was searched again).

use super::result::PosResult;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;

/// An open cache, for one configuration.
pub struct Cache {
    conn: Connection,
    config: i64,
}

fn err(path: &Path, e: rusqlite::Error) -> String {
    format!("{}: the cache: {e}", path.display())
}

impl Cache {
    /// Opens (or creates) the cache at `path` for the configuration (`engine`, `options`,
    /// `limit`).
    pub fn open(path: &Path, engine: &str, options: &str, limit: &str) -> Result<Cache, String> {
        let conn = Connection::open(path).map_err(|e| err(path, e))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| err(path, e))?;
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = NORMAL;
             CREATE TABLE IF NOT EXISTS configs(
                 id INTEGER PRIMARY KEY,
                 engine TEXT NOT NULL,
                 options TEXT NOT NULL,
                 lim TEXT NOT NULL,
                 UNIQUE(engine, options, lim));
             CREATE TABLE IF NOT EXISTS results(
                 config INTEGER NOT NULL REFERENCES configs(id),
                 sfen TEXT NOT NULL,
                 result TEXT NOT NULL,
                 searches INTEGER NOT NULL DEFAULT 1,
                 PRIMARY KEY(config, sfen)) WITHOUT ROWID;",
        )
        .map_err(|e| err(path, e))?;
        conn.execute(
            "INSERT OR IGNORE INTO configs(engine, options, lim) VALUES (?1, ?2, ?3)",
            params![engine, options, limit],
        )
        .map_err(|e| err(path, e))?;
        let config = conn
            .query_row(
                "SELECT id FROM configs WHERE engine = ?1 AND options = ?2 AND lim = ?3",
                params![engine, options, limit],
                |r| r.get(0),
            )
            .map_err(|e| err(path, e))?;
        Ok(Cache { conn, config })
    }

    /// The stored result of `sfen`, if any (a row that does not read is treated as absent).
    pub fn get(&self, sfen: &str) -> Result<Option<PosResult>, String> {
        let text: Option<String> = self
            .conn
            .prepare_cached("SELECT result FROM results WHERE config = ?1 AND sfen = ?2")
            .and_then(|mut s| {
                s.query_row(params![self.config, sfen], |r| r.get(0))
                    .optional()
            })
            .map_err(|e| format!("the cache: {e}"))?;
        Ok(text.as_deref().and_then(PosResult::from_json))
    }

    /// Stores `result` for `sfen` (committed at once). Results with an error are not stored.
    pub fn put(&self, sfen: &str, result: &PosResult) -> Result<(), String> {
        if result.error.is_some() {
            return Ok(());
        }
        self.conn
            .prepare_cached(
                "INSERT INTO results(config, sfen, result) VALUES (?1, ?2, ?3)
                 ON CONFLICT(config, sfen) DO UPDATE SET result = excluded.result,
                 searches = searches + 1",
            )
            .and_then(|mut s| s.execute(params![self.config, sfen, result.to_json()]))
            .map(|_| ())
            .map_err(|e| format!("the cache: {e}"))
    }

    /// (rows, the largest `searches` of a row) of this configuration.
    pub fn counts(&self) -> Result<(u64, u64), String> {
        self.conn
            .query_row(
                "SELECT count(*), coalesce(max(searches), 0) FROM results WHERE config = ?1",
                params![self.config],
                |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64)),
            )
            .map_err(|e| format!("the cache: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_per_configuration_and_counts_searches() {
        let dir = std::env::temp_dir().join(format!("shogi-cache-test-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("c.sqlite");
        let _ = std::fs::remove_file(&path);
        let r = PosResult {
            best: Some("7g7f".into()),
            score: Some(shogi_usi::Score::Cp(30)),
            ..PosResult::default()
        };
        {
            let c = Cache::open(&path, "E", "Hash=16", "go nodes 10").unwrap();
            assert_eq!(c.get("startpos").unwrap(), None);
            c.put("startpos", &r).unwrap();
            let failed = PosResult {
                error: Some("crashed".into()),
                ..PosResult::default()
            };
            c.put("other", &failed).unwrap();
            assert_eq!(c.counts().unwrap(), (1, 1));
        }
        let c = Cache::open(&path, "E", "Hash=16", "go nodes 10").unwrap();
        assert_eq!(c.get("startpos").unwrap(), Some(r.clone()));
        assert_eq!(c.get("other").unwrap(), None);
        c.put("startpos", &r).unwrap();
        assert_eq!(c.counts().unwrap(), (1, 2));
        // Another limit is another configuration.
        let d = Cache::open(&path, "E", "Hash=16", "go nodes 20").unwrap();
        assert_eq!(d.get("startpos").unwrap(), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

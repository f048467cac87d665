//! The analysis cache: SQLite (WAL), one row per (configuration, position), written as each
//! result arrives.
//!
//! A configuration ([`CacheKey`]) is everything a result depends on besides the position: the
//! engine's identity (`id name`) and build (the program file's size and hash), its complete
//! option set (every option it offered at its default, or the value set and marked so: an
//! option set to its default value can still change a search), and the limit with the
//! multipv count, the way a fresh state is given before each search and the mode. Each
//! position is searched from a fresh engine state, so its result depends on nothing else: not
//! on the other games of the batch, their order or the worker. The position is its full SFEN
//! (board, side, hands, move number), or in game mode the position with the game's moves
//! before it. Errors are not stored, so a later run retries them. Each result is committed on
//! its own: a run killed at any point loses at most the positions being searched; `searches`
//! counts how often a row was written (more than 1 would mean a position was searched again).
//!
//! Version 2 of the file (`PRAGMA user_version = 2`) has its own tables. Results of version 1
//! (tables `configs` and `results`) are kept in the file but never used: a worker that had
//! searched a Mini Shogi position searched standard positions differently, so they could
//! depend on the batch.

use crate::result::PosResult;
use rusqlite::{Connection, OptionalExtension, params};
use shogi_core::{Move, Position};
use shogi_usi::Score;

mod merge;
pub use merge::{CacheOnly, MergeError, Merged, merge_caches};
use std::cell::Cell;
use std::path::Path;

/// Everything besides the position that a cached result depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheKey {
    /// The engine's `id name`.
    pub engine: String,
    /// The engine program's build: its size and content hash (see [`program_build`]).
    pub build: String,
    /// Every option at the value the engine searches with, one `name=value` line each, sorted
    /// (see `option_key`).
    pub options: String,
    /// The limit, multipv, fresh-state method and mode.
    pub limit: String,
}

/// An open cache, for one configuration.
pub struct Cache {
    conn: Connection,
    config: i64,
    unreadable: Cell<u64>,
}

fn err(path: &Path, e: rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::NotADatabase => {
            format!(
                "{}: not an analysis cache (not an SQLite database)",
                path.display()
            )
        }
        e => format!("{}: the cache: {e}", path.display()),
    }
}

/// The tables of a version 2 cache, and of version 1 (kept, unused).
const OURS: [&str; 4] = ["analysis_configs", "analysis_results", "configs", "results"];

impl Cache {
    /// Opens (or creates) the cache at `path` for the configuration `key`. The notes say what
    /// the file holds that this configuration will not use (results of other configurations,
    /// of an older version): print them.
    pub fn open(path: &Path, key: &CacheKey) -> Result<(Cache, Vec<String>), String> {
        let conn = Connection::open(path).map_err(|e| err(path, e))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| err(path, e))?;
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .and_then(|mut s| {
                s.query_map([], |r| r.get::<_, String>(0))?
                    .collect::<Result<_, _>>()
            })
            .map_err(|e| err(path, e))?;
        let foreign: Vec<&str> = tables
            .iter()
            .map(String::as_str)
            .filter(|t| !OURS.contains(t) && !t.starts_with("sqlite_"))
            .collect();
        if !foreign.is_empty() {
            return Err(format!(
                "{}: not an analysis cache: it has the tables {} (a game database is given with --db, not --cache)",
                path.display(),
                foreign.join(", ")
            ));
        }
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = NORMAL;
             CREATE TABLE IF NOT EXISTS analysis_configs(
                 id INTEGER PRIMARY KEY,
                 engine TEXT NOT NULL,
                 build TEXT NOT NULL,
                 options TEXT NOT NULL,
                 lim TEXT NOT NULL,
                 UNIQUE(engine, build, options, lim));
             CREATE TABLE IF NOT EXISTS analysis_results(
                 config INTEGER NOT NULL REFERENCES analysis_configs(id),
                 position TEXT NOT NULL,
                 result TEXT NOT NULL,
                 searches INTEGER NOT NULL DEFAULT 1,
                 PRIMARY KEY(config, position)) WITHOUT ROWID;
             PRAGMA user_version = 2;",
        )
        .map_err(|e| err(path, e))?;
        let mut notes = Vec::new();
        if tables.iter().any(|t| t == "results") {
            let n: i64 = conn
                .query_row("SELECT count(*) FROM results", [], |r| r.get(0))
                .map_err(|e| err(path, e))?;
            if n > 0 {
                notes.push(format!(
                    "note: {}: {n} results from an earlier version of the cache are not used (they \
                     could depend on the other games of their batch); they are searched again",
                    path.display()
                ));
            }
        }
        let others = other_configs(&conn, key).map_err(|e| err(path, e))?;
        if !others.is_empty() {
            notes.push(format!(
                "note: {}: results of {} other configuration(s) are not used: {}",
                path.display(),
                others.len(),
                others.join("; ")
            ));
        }
        conn.execute(
            "INSERT OR IGNORE INTO analysis_configs(engine, build, options, lim)
             VALUES (?1, ?2, ?3, ?4)",
            params![key.engine, key.build, key.options, key.limit],
        )
        .map_err(|e| err(path, e))?;
        let config = conn
            .query_row(
                "SELECT id FROM analysis_configs
                 WHERE engine = ?1 AND build = ?2 AND options = ?3 AND lim = ?4",
                params![key.engine, key.build, key.options, key.limit],
                |r| r.get(0),
            )
            .map_err(|e| err(path, e))?;
        let cache = Cache {
            conn,
            config,
            unreadable: Cell::new(0),
        };
        Ok((cache, notes))
    }

    /// The stored result of `position`, if any. A row that does not read is treated as
    /// absent (the position is searched again) and counted ([`Cache::unreadable`]).
    pub fn get(&self, position: &str) -> Result<Option<PosResult>, String> {
        let text: Option<String> = self
            .conn
            .prepare_cached(
                "SELECT result FROM analysis_results WHERE config = ?1 AND position = ?2",
            )
            .and_then(|mut s| {
                s.query_row(params![self.config, position], |r| r.get(0))
                    .optional()
            })
            .map_err(|e| format!("the cache: {e}"))?;
        let Some(text) = text else { return Ok(None) };
        let r = PosResult::from_json(&text);
        if r.is_none() {
            self.unreadable.set(self.unreadable.get() + 1);
        }
        Ok(r)
    }

    /// Stores `result` for `position` (committed at once). Results with an error are not
    /// stored.
    pub fn put(&self, position: &str, result: &PosResult) -> Result<(), String> {
        if result.error.is_some() {
            return Ok(());
        }
        self.conn
            .prepare_cached(
                "INSERT INTO analysis_results(config, position, result) VALUES (?1, ?2, ?3)
                 ON CONFLICT(config, position) DO UPDATE SET result = excluded.result,
                 searches = searches + 1",
            )
            .and_then(|mut s| s.execute(params![self.config, position, result.to_json()]))
            .map(|_| ())
            .map_err(|e| format!("the cache: {e}"))
    }

    /// (rows, the largest `searches` of a row) of this configuration.
    pub fn counts(&self) -> Result<(u64, u64), String> {
        self.conn
            .query_row(
                "SELECT count(*), coalesce(max(searches), 0) FROM analysis_results
                 WHERE config = ?1",
                params![self.config],
                |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64)),
            )
            .map_err(|e| format!("the cache: {e}"))
    }

    /// How many stored results could not be read (and were searched again).
    pub fn unreadable(&self) -> u64 {
        self.unreadable.get()
    }
}

/// A cache opened read-only to look results up by position, as the pages of `shogi view`
/// and `shogi serve` do: the configurations of position mode (their key is the SFEN alone),
/// newest first; a position's result comes from the first that has one.
pub struct CacheReader {
    path: std::path::PathBuf,
    conn: Connection,
    configs: Vec<i64>,
}

impl CacheReader {
    /// Opens the cache at `path` read-only (nothing is written). Errors name the file.
    pub fn open(path: &Path) -> Result<CacheReader, String> {
        if !path.is_file() {
            return Err(format!("{}: no such analysis cache", path.display()));
        }
        let conn = Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| err(path, e))?;
        let configs = conn
            .prepare(
                "SELECT id FROM analysis_configs WHERE lim LIKE '% mode position' ORDER BY id DESC",
            )
            .and_then(|mut st| {
                st.query_map([], |r| r.get(0))?
                    .collect::<rusqlite::Result<Vec<i64>>>()
            })
            .map_err(|e| {
                format!(
                    "{}: not an analysis cache of `shogi analyze` ({e})",
                    path.display()
                )
            })?;
        Ok(CacheReader {
            path: path.to_path_buf(),
            conn,
            configs,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The newest readable result for the position `sfen` (with its move number, as the cache
    /// keys it) that has a score.
    pub fn scored(&self, sfen: &str) -> Result<Option<PosResult>, String> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT result FROM analysis_results WHERE config = ?1 AND position = ?2",
            )
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        for c in &self.configs {
            let text: Option<String> = st
                .query_row(params![c, sfen], |r| r.get(0))
                .optional()
                .map_err(|e| format!("{}: {e}", self.path.display()))?;
            if let Some(r) = text.and_then(|t| PosResult::from_json(&t)) {
                if r.score.is_some() {
                    return Ok(Some(r));
                }
            }
        }
        Ok(None)
    }
}

/// A configuration a cache holds results of ([`CacheReader::configurations`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredConfig {
    /// Its number in the file (the order configurations were first used in).
    pub id: i64,
    /// What the results depend on besides the position.
    pub key: CacheKey,
    /// Results stored.
    pub results: u64,
}

/// One line of a cached search: its score (side to move's view) and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachedLine {
    /// The score, when the engine gave one.
    pub score: Option<Score>,
    /// The line's moves, each legal in turn from the position.
    pub moves: Vec<Move>,
}

/// A cached result read back typed ([`CacheReader::results`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachedResult {
    /// The position searched, with its move number.
    pub position: Position,
    /// Whether it was searched in game mode (after the game's moves, which the key names by
    /// a hash only).
    pub in_game: bool,
    /// Search depth.
    pub depth: Option<u32>,
    /// The best line first, then the other multipv lines.
    pub lines: Vec<CachedLine>,
}

impl CachedResult {
    /// A stored row (its key and JSON result) typed; `None` when it does not read: a bad
    /// position, bad JSON, a move that is not legal in its line.
    fn read(key: &str, json: &str) -> Option<CachedResult> {
        let (sfen, in_game) = match key.split_once(" history ") {
            Some((sfen, _)) => (sfen, true),
            None => (key, false),
        };
        let position = Position::from_sfen(sfen).ok()?;
        let r = PosResult::from_json(json)?;
        let line = |score: Option<Score>, pv: &[String]| -> Option<CachedLine> {
            let mut pos = position.clone();
            let mut moves = Vec::with_capacity(pv.len());
            for m in pv {
                let mv = Move::from_usi(m).ok()?;
                pos.check_move(mv).ok()?;
                pos.play_unchecked(mv);
                moves.push(mv);
            }
            Some(CachedLine { score, moves })
        };
        let mut lines = vec![line(r.score, &r.pv)?];
        for (score, pv) in &r.others {
            lines.push(line(*score, pv)?);
        }
        Some(CachedResult {
            position,
            in_game,
            depth: r.depth,
            lines,
        })
    }
}

/// The results of one configuration in key order, typed, read a page at a time (a cache of
/// millions of results is never held). Rows that do not read are counted
/// ([`CachedResults::unreadable`]) and skipped; an SQLite error is given once and ends it.
pub struct CachedResults<'a> {
    reader: &'a CacheReader,
    config: i64,
    after: String,
    page: std::collections::VecDeque<CachedResult>,
    done: bool,
    unreadable: u64,
}

/// Results read per query.
const RESULTS_PAGE: i64 = 1024;

impl CachedResults<'_> {
    /// Rows skipped so far because they do not read.
    pub fn unreadable(&self) -> u64 {
        self.unreadable
    }

    /// Reads the next page; false at the end.
    fn fill(&mut self) -> Result<bool, String> {
        let fail = |e: rusqlite::Error| format!("{}: {e}", self.reader.path.display());
        let mut st = self
            .reader
            .conn
            .prepare_cached(
                "SELECT position, result FROM analysis_results WHERE config = ?1 AND position > ?2 \
                 ORDER BY position LIMIT ?3",
            )
            .map_err(fail)?;
        let mut rows = st
            .query(params![self.config, self.after, RESULTS_PAGE])
            .map_err(fail)?;
        let mut any = false;
        while let Some(r) = rows.next().map_err(fail)? {
            any = true;
            let key: String = r.get(0).map_err(fail)?;
            let json = r.get_ref(1).map_err(fail)?.as_str().unwrap_or("");
            match CachedResult::read(&key, json) {
                Some(c) => self.page.push_back(c),
                None => self.unreadable += 1,
            }
            self.after = key;
        }
        Ok(any)
    }
}

impl Iterator for CachedResults<'_> {
    type Item = Result<CachedResult, String>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.page.is_empty() && !self.done {
            match self.fill() {
                Ok(any) => self.done = !any,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        self.page.pop_front().map(Ok)
    }
}

impl CacheReader {
    /// Every configuration of the file with its results (any mode), oldest first. A cache
    /// of another version than 2 is refused.
    pub fn configurations(&self) -> Result<Vec<StoredConfig>, String> {
        let name = self.path.display();
        let version: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| format!("{name}: {e}"))?;
        if version != 2 {
            return Err(format!(
                "{name}: an analysis cache of version {version}; this shogi reads version 2"
            ));
        }
        let mut st = self
            .conn
            .prepare(
                "SELECT c.id, c.engine, c.build, c.options, c.lim, \
                 (SELECT count(*) FROM analysis_results r WHERE r.config = c.id) \
                 FROM analysis_configs c ORDER BY c.id",
            )
            .map_err(|e| format!("{name}: {e}"))?;
        st.query_map([], |r| {
            Ok(StoredConfig {
                id: r.get(0)?,
                key: CacheKey {
                    engine: r.get(1)?,
                    build: r.get(2)?,
                    options: r.get(3)?,
                    limit: r.get(4)?,
                },
                results: r.get::<_, i64>(5)? as u64,
            })
        })
        .and_then(|rows| rows.collect())
        .map_err(|e| format!("{name}: {e}"))
    }

    /// The results of the configuration `config` ([`StoredConfig::id`]), typed, in key
    /// order.
    pub fn results(&self, config: i64) -> CachedResults<'_> {
        CachedResults {
            reader: self,
            config,
            after: String::new(),
            page: std::collections::VecDeque::new(),
            done: false,
            unreadable: 0,
        }
    }
}

/// The other configurations in the file that have results, each said by how it differs from
/// `key`.
fn other_configs(conn: &Connection, key: &CacheKey) -> rusqlite::Result<Vec<String>> {
    let mut s = conn.prepare(
        "SELECT c.engine, c.build, c.options, c.lim, count(r.position)
         FROM analysis_configs c JOIN analysis_results r ON r.config = c.id
         GROUP BY c.id ORDER BY c.id",
    )?;
    let rows = s.query_map([], |r| {
        Ok((
            CacheKey {
                engine: r.get(0)?,
                build: r.get(1)?,
                options: r.get(2)?,
                limit: r.get(3)?,
            },
            r.get::<_, i64>(4)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (other, n) = row?;
        if other == *key {
            continue;
        }
        let mut how = Vec::new();
        if other.engine != key.engine {
            how.push(format!("engine {}", other.engine));
        } else if other.build != key.build {
            how.push("another build of the engine".to_string());
        }
        if other.options != key.options {
            let ours: Vec<&str> = key.options.lines().collect();
            let diff: Vec<&str> = other
                .options
                .lines()
                .filter(|l| !ours.contains(l))
                .take(3)
                .collect();
            how.push(format!("options {}", diff.join(", ")));
        }
        if other.limit != key.limit {
            how.push(format!("limit {}", other.limit));
        }
        out.push(format!("{n} results with {}", how.join(", ")));
    }
    Ok(out)
}

/// The build of an engine program: `size N fnv1a64 H` of the file `program` names (found on
/// the `PATH` when it has no `/`), or `unknown` when it cannot be read. Two builds with the
/// same `id name` (a program rebuilt with other flags) have different caches.
pub fn program_build(program: &Path) -> String {
    let found = if program.components().count() > 1 || program.is_file() {
        Some(program.to_path_buf())
    } else {
        std::env::var_os("PATH").and_then(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join(program))
                .find(|f| f.is_file())
        })
    };
    match found.and_then(|f| std::fs::read(f).ok()) {
        Some(bytes) => format!("size {} fnv1a64 {:016x}", bytes.len(), fnv1a64(&bytes)),
        None => "unknown".to_string(),
    }
}

/// FNV-1a, 64 bits (shogi-batch's): stable across Rust versions and platforms.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = shogi_batch::Fnv1a::new();
    h.write(bytes);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(limit: &str) -> CacheKey {
        CacheKey {
            engine: "E".into(),
            build: "size 1 fnv1a64 0".into(),
            options: "Hash=16".into(),
            limit: limit.into(),
        }
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("shogi-cache-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn stores_per_configuration_and_counts_searches() {
        let dir = scratch("store");
        let path = dir.join("c.sqlite");
        let r = PosResult {
            best: Some("7g7f".into()),
            score: Some(shogi_usi::Score::Cp(30)),
            ..PosResult::default()
        };
        {
            let (c, notes) = Cache::open(&path, &key("go nodes 10")).unwrap();
            assert!(notes.is_empty());
            assert_eq!(c.get("startpos").unwrap(), None);
            c.put("startpos", &r).unwrap();
            let failed = PosResult {
                error: Some("crashed".into()),
                ..PosResult::default()
            };
            c.put("other", &failed).unwrap();
            assert_eq!(c.counts().unwrap(), (1, 1));
        }
        let (c, _) = Cache::open(&path, &key("go nodes 10")).unwrap();
        assert_eq!(c.get("startpos").unwrap(), Some(r.clone()));
        assert_eq!(c.get("other").unwrap(), None);
        c.put("startpos", &r).unwrap();
        assert_eq!(c.counts().unwrap(), (1, 2));
        // Another limit is another configuration, and the file says it has one.
        let (d, notes) = Cache::open(&path, &key("go nodes 20")).unwrap();
        assert_eq!(d.get("startpos").unwrap(), None);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].contains("1 results with limit go nodes 10"),
            "{notes:?}"
        );
        // Another build of the same engine too.
        let mut other = key("go nodes 10");
        other.build = "size 2 fnv1a64 1".into();
        let (e, notes) = Cache::open(&path, &other).unwrap();
        assert_eq!(e.get("startpos").unwrap(), None);
        assert!(notes[0].contains("another build"), "{notes:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn results_read_back_typed_per_configuration_over_pages() {
        let dir = scratch("typed");
        let path = dir.join("c.sqlite");
        let start = Position::startpos(shogi_core::Variant::Standard);
        let sfen = start.to_sfen();
        let r = PosResult {
            best: Some("7g7f".into()),
            score: Some(Score::Cp(30)),
            pv: vec!["7g7f".into(), "3c3d".into()],
            depth: Some(9),
            others: vec![(Some(Score::Mate { plies: -3 }), vec!["2g2f".into()])],
            ..PosResult::default()
        };
        let game_key = format!("{sfen} history 0123");
        {
            let (a, _) = Cache::open(&path, &key("go nodes 10")).unwrap();
            a.put(&sfen, &r).unwrap();
            let (b, _) = Cache::open(&path, &key("go nodes 20")).unwrap();
            b.put(&game_key, &r).unwrap();
            // Unreadable: an illegal move in a line, bad JSON, a bad position.
            let illegal = PosResult {
                pv: vec!["7g7f".into(), "7g7f".into()],
                ..r.clone()
            };
            b.put("9/9/9/9/9/9/9/9/9 b - 1", &illegal).unwrap();
            b.put(&sfen, &illegal).unwrap();
            // Many rows, so that the results span pages.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("BEGIN").unwrap();
            for i in 0..1100 {
                conn.execute(
                    "INSERT INTO analysis_results(config, position, result) VALUES (2, ?1, ?2)",
                    params![format!("{sfen} history {i:05}"), r.to_json()],
                )
                .unwrap();
            }
            conn.execute(
                "INSERT INTO analysis_results(config, position, result) VALUES (2, 'x', '{')",
                [],
            )
            .unwrap();
            conn.execute_batch("COMMIT").unwrap();
        }
        let reader = CacheReader::open(&path).unwrap();
        let configs = reader.configurations().unwrap();
        let counts: Vec<(i64, &str, u64)> = configs
            .iter()
            .map(|c| (c.id, c.key.limit.as_str(), c.results))
            .collect();
        assert_eq!(
            counts,
            vec![(1, "go nodes 10", 1), (2, "go nodes 20", 1104)]
        );
        let got: Vec<CachedResult> = reader.results(1).map(Result::unwrap).collect();
        let mv = |s: &str| Move::from_usi(s).unwrap();
        let want = CachedResult {
            position: start.clone(),
            in_game: false,
            depth: Some(9),
            lines: vec![
                CachedLine {
                    score: Some(Score::Cp(30)),
                    moves: vec![mv("7g7f"), mv("3c3d")],
                },
                CachedLine {
                    score: Some(Score::Mate { plies: -3 }),
                    moves: vec![mv("2g2f")],
                },
            ],
        };
        assert_eq!(got, vec![want.clone()]);
        let mut results = reader.results(2);
        let got: Vec<CachedResult> = results.by_ref().map(Result::unwrap).collect();
        assert_eq!(got.len(), 1101);
        assert!(got.iter().all(|c| c.in_game && c.lines == want.lines));
        assert_eq!(results.unreadable(), 3);
        // Another version is refused by name.
        Connection::open(&path)
            .unwrap()
            .execute_batch("PRAGMA user_version = 3")
            .unwrap();
        let e = CacheReader::open(&path)
            .unwrap()
            .configurations()
            .unwrap_err();
        assert!(e.contains("version 3") && e.contains("c.sqlite"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn version_1_results_are_kept_but_not_used() {
        let dir = scratch("v1");
        let path = dir.join("old.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE configs(id INTEGER PRIMARY KEY, engine TEXT NOT NULL,
                     options TEXT NOT NULL, lim TEXT NOT NULL, UNIQUE(engine, options, lim));
                 CREATE TABLE results(config INTEGER NOT NULL, sfen TEXT NOT NULL,
                     result TEXT NOT NULL, searches INTEGER NOT NULL DEFAULT 1,
                     PRIMARY KEY(config, sfen)) WITHOUT ROWID;
                 INSERT INTO configs VALUES (1, 'E', 'Hash=16', 'go nodes 10');
                 INSERT INTO results VALUES (1, 'startpos', '{\"best\":\"7g7f\"}', 1);",
            )
            .unwrap();
        }
        let (c, notes) = Cache::open(&path, &key("go nodes 10")).unwrap();
        assert_eq!(c.get("startpos").unwrap(), None);
        assert!(
            notes[0].contains("1 results from an earlier version"),
            "{notes:?}"
        );
        drop(c);
        let conn = Connection::open(&path).unwrap();
        let kept: i64 = conn
            .query_row("SELECT count(*) FROM results", [], |r| r.get(0))
            .unwrap();
        assert_eq!(kept, 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn files_that_are_not_caches_are_refused() {
        let dir = scratch("foreign");
        let text = dir.join("notes.txt");
        std::fs::write(
            &text,
            "this is not a database, just text that is long enough ".repeat(20),
        )
        .unwrap();
        let e = Cache::open(&text, &key("go nodes 10")).err().unwrap();
        assert!(e.contains("not an analysis cache"), "{e}");
        let db = dir.join("games.sqlite");
        Connection::open(&db)
            .unwrap()
            .execute_batch("CREATE TABLE games(id INTEGER PRIMARY KEY);")
            .unwrap();
        let e = Cache::open(&db, &key("go nodes 10")).err().unwrap();
        assert!(
            e.contains("not an analysis cache") && e.contains("games"),
            "{e}"
        );
        // Nothing was added to the user's database.
        let n: i64 = Connection::open(&db)
            .unwrap()
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_result_that_does_not_read_is_searched_again_and_counted() {
        let dir = scratch("bad-row");
        let path = dir.join("c.sqlite");
        let (c, _) = Cache::open(&path, &key("go nodes 10")).unwrap();
        c.conn
            .execute(
                "INSERT INTO analysis_results(config, position, result) VALUES (?1, 'x', 'garbage')",
                params![c.config],
            )
            .unwrap();
        assert_eq!(c.get("x").unwrap(), None);
        assert_eq!(c.unreadable(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn builds_differ_by_content() {
        let dir = scratch("build");
        let a = dir.join("a");
        std::fs::write(&a, b"engine one").unwrap();
        let first = program_build(&a);
        assert!(first.starts_with("size 10 fnv1a64 "), "{first}");
        std::fs::write(&a, b"engine two").unwrap();
        assert_ne!(program_build(&a), first);
        assert_eq!(program_build(&dir.join("missing")), "unknown");
        // FNV-1a's published test value.
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

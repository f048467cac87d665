//! `shogi index`: reading collections into the database, incrementally.

use crate::error::DbError;
use crate::hit::stored_start;
use crate::key::position_key;
use crate::load::{IndexProgress, LoadJob, load};
use crate::rows::DEFAULT_MEMORY_ROWS;
use crate::schema::{self, db_err};
use rusqlite::{Connection, OpenFlags, params};
use shogi_batch::{Input, Reading, expand};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// How to index.
#[derive(Clone, Debug, Default)]
pub struct IndexOptions {
    /// Threads reading records (all cores when `None`).
    pub jobs: Option<usize>,
    /// Games per transaction when building a new database (default 5,000).
    pub batch: Option<usize>,
    /// How records are read: `--from` (format) and `--encoding` as `shogi check` takes them.
    pub read: shogi_kif::ReadOptions,
    /// Position rows held in memory before they are sorted and written (default 32 Mi,
    /// about 800 MB); more rows are written in several sorted runs.
    pub memory_rows: Option<usize>,
    /// Positions reached by at least this many games get the explorer's aggregated counts
    /// (default [`crate::MIN_GAMES`]).
    pub bucket_min_games: Option<u32>,
    /// Test hook: abort the process (as a kill would) after writing this many games.
    #[doc(hidden)]
    pub abort_after: Option<u64>,
    /// Do not recognise and store the games' openings and castles (`shogi index
    /// --no-tags`): a database built so refuses the tag filters and `explore --by opening`,
    /// and so does one updated so, or updated with tags after it was built without them,
    /// until it is built anew.
    pub skip_tags: bool,
}

/// What an index run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexReport {
    /// Whether the database was created by this run.
    pub created: bool,
    /// Files read (new or changed).
    pub files_read: u64,
    /// Files found unchanged (same size and modification time, or same content hash).
    pub files_unchanged: u64,
    /// Files gone since the last run, removed with their games.
    pub files_removed: u64,
    /// Games written.
    pub games_added: u64,
    /// Of those, games with an error (indexed up to it, `valid = 0`).
    pub games_invalid: u64,
    /// Games removed (of changed and gone files).
    pub games_removed: u64,
    /// Positions written.
    pub positions_added: u64,
}

/// A file as found on disk now.
#[derive(Clone, Debug)]
struct Seen {
    size: i64,
    mtime_ns: i64,
    hash: Option<String>,
}

fn stat(path: &Path) -> Option<(i64, i64)> {
    let m = std::fs::metadata(path).ok()?;
    let mtime = m
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i64);
    Some((m.len() as i64, mtime))
}

/// A 64-bit hash of a file's bytes, as 16 hex digits (`None` when it cannot be read).
///
/// Eight bytes at a time (rotate, xor, multiply; the last partial word padded with its
/// length; the total length mixed in at the end), so that hashing costs little beside
/// reading: this runs on every new or touched file before it is read. The buffer is reused
/// per thread.
fn content_hash(path: &Path) -> Option<String> {
    use std::io::Read;
    const CHUNK: usize = 1 << 16;
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let mut f = std::fs::File::open(path).ok()?;
    BUF.with(|buf| {
        let mut buf = buf.borrow_mut();
        buf.resize(CHUNK, 0);
        let mut h = WordHash::default();
        loop {
            // Fill the whole chunk (or reach the end), so that only the last is partial.
            let mut n = 0;
            while n < CHUNK {
                match f.read(&mut buf[n..]) {
                    Ok(0) => break,
                    Ok(k) => n += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => return None,
                }
            }
            h.write(&buf[..n]);
            if n < CHUNK {
                break;
            }
        }
        Some(shogi_batch::key_hex(h.finish()))
    })
}

/// The word-at-a-time hash of [`content_hash`]; `write` takes whole words except at the end.
#[derive(Default)]
struct WordHash {
    h: u64,
    len: u64,
}

impl WordHash {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in words.by_ref() {
            let mut word = [0u8; 8];
            word.copy_from_slice(w);
            self.h = (self.h.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(Self::K);
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            word[7] ^= rest.len() as u8;
            self.h = (self.h.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(Self::K);
        }
        self.len += bytes.len() as u64;
    }

    fn finish(&self) -> u64 {
        let mut z = self.h ^ self.len.wrapping_mul(Self::K);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

struct Stored {
    id: i64,
    size: i64,
    mtime_ns: i64,
    hash: Option<String>,
}

enum Plan {
    Unchanged,
    /// Same content, new size or time: only the `files` row changes.
    Touch(i64, Seen),
    /// New (no id) or changed: read it.
    Read(Option<i64>, Seen),
    /// Listed but gone before it could be looked at.
    Vanished,
}

/// Whether a stored file name falls under one of the paths given on the command line.
fn covered(name: &str, args: &[String]) -> bool {
    args.iter().any(|a| {
        let a = a.trim_end_matches('/');
        name == a
            || (name.len() > a.len() && name.starts_with(a) && name[a.len()..].starts_with('/'))
    })
}

/// What kind of run [`write`] does.
struct Run {
    /// A new database (built in a temporary file).
    fresh: bool,
    /// Where position rows go when more arrive than memory may hold.
    spill_dir: PathBuf,
}

/// The folder beside `db` for this process's spilled position rows.
fn spill_path(db: &Path) -> PathBuf {
    partial_path(db, "-rows")
}

/// Where a new database is built before it is renamed into place.
fn temp_path(db: &Path) -> PathBuf {
    partial_path(db, "")
}

/// `.NAME.partial-PID` beside `db`, followed by `suffix` (see [`partial_pid`]).
fn partial_path(db: &Path, suffix: &str) -> PathBuf {
    let name = db
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "db".into());
    db.with_file_name(format!(".{name}.partial-{}{suffix}", std::process::id()))
}

/// The process id in the name of a partial database left next to `db` (see [`temp_path`]).
fn partial_pid(db: &Path, file_name: &str) -> Option<u32> {
    let name = db.file_name()?.to_string_lossy().into_owned();
    let rest = file_name.strip_prefix(&format!(".{name}.partial-"))?;
    let pid = rest
        .strip_suffix("-journal")
        .or_else(|| rest.strip_suffix("-rows"))
        .unwrap_or(rest);
    pid.parse().ok()
}

/// Whether process `pid` is running (Linux: `/proc/PID`; elsewhere assumed running, so
/// that nothing another run is still writing is removed).
fn running(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

/// Removes the partial databases and spilled position rows that runs killed while building
/// or updating `db` left beside it (those whose process is gone).
fn remove_stale_partials(db: &Path) {
    let dir = match db.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => PathBuf::from("."),
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(pid) = partial_pid(db, &name) {
            if pid != std::process::id() && !running(pid) {
                if e.path().is_dir() {
                    let _ = std::fs::remove_dir_all(e.path());
                } else {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }
}

/// Indexes the records under `paths` into the database `db` (created if it does not exist).
///
/// A new database is built in a temporary file next to `db` and renamed into place when
/// complete. An existing one is updated in one transaction: files whose size and
/// modification time (or, failing that, content hash) are unchanged are not read again,
/// changed and new files are read, and files that were indexed under one of `paths` but are
/// gone are removed with their games. An interrupted run (killed, power loss) leaves the
/// previous database as it was: SQLite rolls the journal back at the next open.
///
/// Errors name the file: a path that does not exist, a database of another schema version,
/// a file that is not a game database, a locked database.
pub fn index(
    paths: &[impl AsRef<str>],
    db: &Path,
    options: &IndexOptions,
) -> Result<IndexReport, DbError> {
    index_with(paths, db, options, &mut |_| {})
}

/// [`index`], telling `progress` where it is after each file read and at each later stage.
pub fn index_with(
    paths: &[impl AsRef<str>],
    db: &Path,
    options: &IndexOptions,
    progress: &mut dyn FnMut(IndexProgress),
) -> Result<IndexReport, DbError> {
    let args: Vec<String> = paths.iter().map(|p| p.as_ref().to_string()).collect();
    if args.iter().any(|a| a == "-") {
        return Err(DbError::new(
            "-",
            "the index reads files (standard input cannot be indexed again incrementally)",
        ));
    }
    let inputs = expand(&args).map_err(|e| DbError::new(&e.path, e.reason))?;
    let pool = shogi_batch::pool(options.jobs).map_err(|e| DbError::new("--jobs", e))?;
    let exists = db.exists();
    remove_stale_partials(db);
    let (conn, temp) = if exists {
        let conn = Connection::open_with_flags(
            db,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| db_err(db, e))?;
        conn.busy_timeout(std::time::Duration::from_millis(1000))
            .map_err(|e| db_err(db, e))?;
        schema::check(&conn, db)?;
        conn.execute_batch(
            "PRAGMA journal_mode = DELETE; PRAGMA cache_size = -131072; BEGIN IMMEDIATE",
        )
        .map_err(|e| db_err(db, e))?;
        (conn, None)
    } else {
        if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                return Err(DbError::new(db, "its folder does not exist"));
            }
        }
        let tmp = temp_path(db);
        let _ = std::fs::remove_file(&tmp);
        let conn = Connection::open(&tmp).map_err(|e| db_err(&tmp, e))?;
        conn.execute_batch(
            "PRAGMA page_size = 16384; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; \
             PRAGMA cache_size = -131072; BEGIN",
        )
        .map_err(|e| db_err(&tmp, e))?;
        schema::create(&conn).map_err(|e| db_err(&tmp, e))?;
        (conn, Some(tmp))
    };
    let shown: &Path = temp.as_deref().unwrap_or(db);
    let result = write(
        &conn,
        &inputs,
        &args,
        &pool,
        options,
        &Run {
            fresh: temp.is_some(),
            spill_dir: spill_path(db),
        },
        progress,
    );
    let mut report = match result {
        Ok(r) => r,
        Err(e) => {
            drop(conn);
            if let Some(t) = &temp {
                let _ = std::fs::remove_file(t);
            }
            return Err(db_err(shown, e));
        }
    };
    report.created = temp.is_some();
    let finish = || -> rusqlite::Result<()> {
        conn.execute_batch("COMMIT")?;
        if temp.is_some() {
            conn.execute_batch("PRAGMA journal_mode = DELETE")?;
        }
        Ok(())
    };
    if let Err(e) = finish() {
        drop(conn);
        if let Some(t) = &temp {
            let _ = std::fs::remove_file(t);
        }
        return Err(db_err(shown, e));
    }
    conn.close().map_err(|(_, e)| db_err(shown, e))?;
    if let Some(t) = &temp {
        let sync = std::fs::File::open(t).and_then(|f| f.sync_all());
        let moved = sync.and_then(|()| std::fs::rename(t, db));
        if let Err(e) = moved {
            let _ = std::fs::remove_file(t);
            return Err(DbError::new(
                db,
                format!("cannot put the new database in place: {e}"),
            ));
        }
    }
    Ok(report)
}

fn write(
    conn: &Connection,
    inputs: &[Input],
    args: &[String],
    pool: &rayon::ThreadPool,
    options: &IndexOptions,
    run: &Run,
    progress: &mut dyn FnMut(IndexProgress),
) -> rusqlite::Result<IndexReport> {
    let fresh = run.fresh;
    let mut report = IndexReport::default();
    let stored = stored_files(conn)?;
    let plans = look(inputs, &stored, pool);
    // Gone: indexed under one of the paths, not listed now (or vanished since listing).
    let listed: HashSet<&str> = inputs
        .iter()
        .zip(&plans)
        .filter(|(_, p)| !matches!(p, Plan::Vanished))
        .map(|(i, _)| i.name.as_str())
        .collect();
    let mut gone: Vec<i64> = stored
        .iter()
        .filter(|(name, _)| covered(name, args) && !listed.contains(name.as_str()))
        .map(|(_, s)| s.id)
        .collect();
    gone.sort_unstable();
    for id in &gone {
        report.games_removed += remove_games(conn, *id)?;
        conn.execute("DELETE FROM files WHERE id = ?1", [id])?;
        report.files_removed += 1;
    }
    let (to_read, file_ids) = apply(conn, inputs, &plans, &mut report)?;
    report.files_read = to_read.len() as u64;
    let job = LoadJob {
        inputs: &to_read,
        file_ids: &file_ids,
        reading: &Reading {
            options: options.read,
            ..Reading::default()
        },
        pool,
        batch: if fresh {
            options.batch.unwrap_or(5000).max(1) as u64
        } else {
            0
        },
        memory_rows: options.memory_rows.unwrap_or(DEFAULT_MEMORY_ROWS),
        spill_dir: run.spill_dir.clone(),
        abort_after: options.abort_after,
        tags: !options.skip_tags,
    };
    let loaded = load(conn, &job, progress)?;
    report.games_added = loaded.games;
    report.games_invalid = loaded.invalid;
    report.positions_added = loaded.positions;
    if fresh {
        progress(IndexProgress {
            files_done: job.inputs.len() as u64,
            files_total: job.inputs.len() as u64,
            games: loaded.games,
            stage: "indexes",
        });
    }
    conn.execute_batch(schema::INDEX_SQL)?;
    // duplicate_of: the first game (by path, then number) with the same start and main line.
    if report.games_added > 0 || report.games_removed > 0 {
        // Only rows whose value changes are written (an update journals every row it writes).
        conn.execute_batch(
            "CREATE TEMP VIEW first_copy AS
               SELECT g.id, (SELECT d.path || '#' || d.game FROM games d
                 WHERE d.key = g.key AND (d.path < g.path OR (d.path = g.path AND d.game < g.game))
                 ORDER BY d.path, d.game LIMIT 1) AS first
               FROM games g WHERE g.key IS NOT NULL;
             UPDATE games SET duplicate_of = (SELECT first FROM first_copy f WHERE f.id = games.id)
               WHERE id IN (SELECT f.id FROM first_copy f JOIN games g ON g.id = f.id
                            WHERE g.duplicate_of IS NOT f.first);
             DROP VIEW temp.first_copy;",
        )?;
    }
    if report.games_added > 0 || report.games_removed > 0 || fresh {
        schema::record_id_order(conn)?;
        progress(IndexProgress {
            files_done: job.inputs.len() as u64,
            files_total: job.inputs.len() as u64,
            games: loaded.games,
            stage: "buckets",
        });
        crate::buckets::build(conn, options.bucket_min_games.unwrap_or(crate::MIN_GAMES))?;
    }
    Ok(report)
}

/// Carries out the plans that need no reading, and gives the files to read their row (and
/// removes their old games): the inputs to read and their `files.id`.
fn apply(
    conn: &Connection,
    inputs: &[Input],
    plans: &[Plan],
    report: &mut IndexReport,
) -> rusqlite::Result<(Vec<Input>, Vec<i64>)> {
    let mut to_read: Vec<Input> = Vec::new();
    let mut file_ids: Vec<i64> = Vec::new();
    for (input, plan) in inputs.iter().zip(plans) {
        match plan {
            Plan::Unchanged => report.files_unchanged += 1,
            Plan::Vanished => {}
            Plan::Touch(id, seen) => {
                report.files_unchanged += 1;
                conn.execute(
                    "UPDATE files SET size = ?1, mtime_ns = ?2 WHERE id = ?3",
                    params![seen.size, seen.mtime_ns, id],
                )?;
            }
            Plan::Read(old, seen) => {
                let id = match old {
                    Some(id) => {
                        report.games_removed += remove_games(conn, *id)?;
                        conn.execute(
                            "UPDATE files SET size = ?1, mtime_ns = ?2, hash = ?3, games = 0 WHERE id = ?4",
                            params![seen.size, seen.mtime_ns, seen.hash, id],
                        )?;
                        *id
                    }
                    None => {
                        conn.execute(
                            "INSERT INTO files (path, size, mtime_ns, hash) VALUES (?1, ?2, ?3, ?4)",
                            params![input.name, seen.size, seen.mtime_ns, seen.hash],
                        )?;
                        conn.last_insert_rowid()
                    }
                };
                to_read.push(input.clone());
                file_ids.push(id);
            }
        }
    }
    Ok((to_read, file_ids))
}

/// The files the database holds, by name.
fn stored_files(conn: &Connection) -> rusqlite::Result<HashMap<String, Stored>> {
    let mut stored = HashMap::new();
    let mut st = conn.prepare("SELECT id, path, size, mtime_ns, hash FROM files")?;
    let rows = st.query_map([], |r| {
        Ok((
            r.get::<_, String>(1)?,
            Stored {
                id: r.get(0)?,
                size: r.get(2)?,
                mtime_ns: r.get(3)?,
                hash: r.get(4)?,
            },
        ))
    })?;
    for r in rows {
        let (k, v) = r?;
        stored.insert(k, v);
    }
    Ok(stored)
}

/// What to do with each input: looked at in parallel (hashes only for files whose size or
/// time moved).
fn look(inputs: &[Input], stored: &HashMap<String, Stored>, pool: &rayon::ThreadPool) -> Vec<Plan> {
    use rayon::prelude::*;
    pool.install(|| {
        inputs
            .par_iter()
            .map(|input| {
                // A member of an archive: unchanged while the archive is (its size and
                // time, in place of a hash of the member's bytes).
                let member = input.member.as_ref().map(|m| m.archive.path.as_path());
                let Some(path) = input.path.as_deref().or(member) else {
                    return Plan::Vanished;
                };
                let Some((file_size, mtime_ns)) = stat(path) else {
                    return Plan::Vanished;
                };
                let hash = || match member {
                    Some(_) => Some(format!("archive:{file_size}:{mtime_ns}:{}", input.size)),
                    None => content_hash(path),
                };
                let size = match member {
                    Some(_) => input.size as i64,
                    None => file_size,
                };
                let old = stored.get(&input.name);
                if let Some(s) = old {
                    if s.size == size
                        && s.mtime_ns == mtime_ns
                        && s.hash.is_some()
                        && (member.is_none() || s.hash == hash())
                    {
                        return Plan::Unchanged;
                    }
                }
                let hash = hash();
                let seen = Seen {
                    size,
                    mtime_ns,
                    hash,
                };
                match old {
                    Some(s) if s.hash.is_some() && s.hash == seen.hash => Plan::Touch(s.id, seen),
                    Some(s) => Plan::Read(Some(s.id), seen),
                    None => Plan::Read(None, seen),
                }
            })
            .collect()
    })
}

/// Removes the games of file `file_id` and their positions; the number of games removed.
///
/// The positions table is ordered by key, so a game's rows are found by replaying its stored
/// line (start and moves) into keys; when that does not account for every row (a start that
/// no longer parses), the table is scanned for the game instead.
fn remove_games(conn: &Connection, file_id: i64) -> rusqlite::Result<u64> {
    let games: Vec<(i64, Option<String>, String)> = conn
        .prepare_cached("SELECT id, start_sfen, moves FROM games WHERE file_id = ?1")?
        .query_map([file_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, start, moves) in &games {
        let mut expected = 0usize;
        let mut deleted = 0usize;
        if let Some(mut pos) = start.as_deref().and_then(stored_start) {
            let mut st = conn.prepare_cached(
                "DELETE FROM positions WHERE key = ?1 AND game_id = ?2 AND ply = ?3",
            )?;
            let mut ply = 0i64;
            deleted += st.execute(params![position_key(&pos), id, ply])?;
            expected += 1;
            for m in moves.split_whitespace() {
                let Ok(mv) = shogi_core::Move::from_usi(m) else {
                    break;
                };
                pos.play_unchecked(mv);
                ply += 1;
                deleted += st.execute(params![position_key(&pos), id, ply])?;
                expected += 1;
            }
        }
        if deleted != expected {
            conn.prepare_cached("DELETE FROM positions WHERE game_id = ?1")?
                .execute([id])?;
        }
        crate::tags::remove(conn, *id)?;
    }
    conn.prepare_cached("DELETE FROM games WHERE file_id = ?1")?
        .execute([file_id])?;
    Ok(games.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::{content_hash, covered, partial_pid};
    use std::path::Path;

    #[test]
    fn content_hash_sees_every_byte_and_the_length() {
        let dir = std::env::temp_dir().join(format!("shogi-db-hash-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let hash = |bytes: &[u8]| {
            let p = dir.join("f");
            std::fs::write(&p, bytes).unwrap();
            content_hash(&p).unwrap()
        };
        let mut seen = std::collections::HashSet::new();
        // Around the word and 64 KiB chunk edges, each length and each one-byte change hashes
        // differently; the same bytes hash the same.
        for len in [
            0usize,
            1,
            7,
            8,
            9,
            15,
            16,
            (1 << 16) - 1,
            1 << 16,
            (1 << 16) + 1,
            200_003,
        ] {
            let base: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            let h = hash(&base);
            assert_eq!(h, hash(&base), "{len}");
            assert!(seen.insert(h), "length {len}");
            let mut ats = vec![0, len / 2, len.saturating_sub(1)];
            ats.dedup();
            for at in ats {
                if at < len {
                    let mut b = base.clone();
                    b[at] ^= 1;
                    assert!(seen.insert(hash(&b)), "length {len}, byte {at}");
                }
            }
        }
        // Trailing zero bytes are not lost in the padding.
        assert_ne!(hash(b"abc"), hash(b"abc\0"));
        assert!(content_hash(&dir.join("missing")).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn partial_names() {
        let db = Path::new("dir/games.sqlite");
        assert_eq!(partial_pid(db, ".games.sqlite.partial-123"), Some(123));
        assert_eq!(
            partial_pid(db, ".games.sqlite.partial-123-journal"),
            Some(123)
        );
        assert_eq!(partial_pid(db, ".games.sqlite.partial-x"), None);
        assert_eq!(partial_pid(db, ".other.sqlite.partial-123"), None);
        assert_eq!(partial_pid(db, "games.sqlite"), None);
    }

    #[test]
    fn covered_by_argument() {
        let args = vec!["games".to_string(), "one.kif".to_string()];
        assert!(covered("games/a.kif", &args));
        assert!(covered("games/x/b.kif", &args));
        assert!(covered("one.kif", &args));
        assert!(!covered("games2/a.kif", &args));
        assert!(!covered("other.kif", &args));
        assert!(covered("games/a.kif", &["games/".to_string()]));
    }
}

//! Merging caches: the caches of several machines (each worker of a cluster keeps its own)
//! made into one, and the one configuration of a cache read with no engine.
//!
//! Every cache merged must hold results of one and the same configuration ([`CacheKey`]):
//! results of another engine, build, option set or limit are not the same facts, so such
//! caches are refused, naming both. A position found in several caches must have the same
//! result in each (a search from a fresh state is repeatable at a node or depth limit);
//! when two differ the merge stops and says which position and which files. The output is
//! a new file, written in one transaction: it exists only when the merge succeeded.

use super::{Cache, CacheKey};
use crate::result::PosResult;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why caches could not be merged (or read without an engine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeError {
    /// A file could not be opened or read as an analysis cache, or the output not written.
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// Two caches (or two configurations of one cache) hold results of different
    /// configurations.
    Configurations {
        /// The file of the first configuration met.
        first: PathBuf,
        /// That configuration.
        first_key: Box<CacheKey>,
        /// The file of the other one.
        other: PathBuf,
        /// The other configuration.
        other_key: Box<CacheKey>,
    },
    /// A position has different results in two caches.
    Disagree {
        /// The position (as the cache keys it).
        position: String,
        /// The file whose result was taken first.
        first: PathBuf,
        /// The file whose result differs.
        other: PathBuf,
    },
    /// The output file exists already (a merge writes a new file).
    OutputExists(PathBuf),
    /// No input holds any result.
    Empty,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::File { path, reason } => write!(f, "{}: {reason}", path.display()),
            MergeError::Configurations {
                first,
                first_key,
                other,
                other_key,
            } => write!(
                f,
                "{} and {} hold results of different engine configurations ({} / {}): \
                 they cannot be merged",
                first.display(),
                other.display(),
                describe(first_key),
                differences(first_key, other_key)
            ),
            MergeError::Disagree {
                position,
                first,
                other,
            } => write!(
                f,
                "the position {position} has different results in {} and {}: not merged",
                first.display(),
                other.display()
            ),
            MergeError::OutputExists(p) => write!(
                f,
                "{}: exists already (a merge writes a new file; list it among the inputs to merge it too)",
                p.display()
            ),
            MergeError::Empty => f.write_str("the caches hold no results: nothing to merge"),
        }
    }
}

impl std::error::Error for MergeError {}

/// A configuration in words: the engine and the limit.
fn describe(key: &CacheKey) -> String {
    format!("engine {}, {}", key.engine, key.limit)
}

/// How `other` differs from `first`, in words.
fn differences(first: &CacheKey, other: &CacheKey) -> String {
    let mut how = Vec::new();
    if other.engine != first.engine {
        how.push(format!("engine {}", other.engine));
    } else if other.build != first.build {
        how.push(format!("another build of the engine ({})", other.build));
    }
    if other.options != first.options {
        let ours: Vec<&str> = first.options.lines().collect();
        let diff: Vec<&str> = (other.options.lines())
            .filter(|l| !ours.contains(l))
            .take(3)
            .collect();
        how.push(format!("options {}", diff.join(", ")));
    }
    if other.limit != first.limit {
        how.push(other.limit.clone());
    }
    how.join(", ")
}

/// What a merge did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The configuration of every result.
    pub key: CacheKey,
    /// Results read from the inputs (a position counted once per input holding it).
    pub read: u64,
    /// Distinct positions written.
    pub positions: u64,
}

fn file_err(path: &Path) -> impl Fn(rusqlite::Error) -> MergeError + '_ {
    move |e| MergeError::File {
        path: path.to_path_buf(),
        reason: format!("{e}"),
    }
}

/// An existing cache, opened read-only; an error unless it is an analysis cache.
fn open_input(path: &Path) -> Result<Connection, MergeError> {
    if !path.is_file() {
        return Err(MergeError::File {
            path: path.to_path_buf(),
            reason: "no such analysis cache".into(),
        });
    }
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(file_err(path))?;
    let ok: Option<i64> = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table'
             AND name IN ('analysis_configs', 'analysis_results')",
            [],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| MergeError::File {
            path: path.to_path_buf(),
            reason: format!("not an analysis cache ({e})"),
        })?;
    if ok != Some(2) {
        return Err(MergeError::File {
            path: path.to_path_buf(),
            reason: "not an analysis cache of `shogi analyze`".into(),
        });
    }
    Ok(conn)
}

/// The configurations of a cache that have results, with their ids.
fn configs(conn: &Connection, path: &Path) -> Result<Vec<(i64, CacheKey)>, MergeError> {
    let mut s = conn
        .prepare(
            "SELECT c.id, c.engine, c.build, c.options, c.lim FROM analysis_configs c
             WHERE EXISTS (SELECT 1 FROM analysis_results r WHERE r.config = c.id) ORDER BY c.id",
        )
        .map_err(file_err(path))?;
    let rows = s
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                CacheKey {
                    engine: r.get(1)?,
                    build: r.get(2)?,
                    options: r.get(3)?,
                    limit: r.get(4)?,
                },
            ))
        })
        .map_err(file_err(path))?;
    rows.collect::<Result<_, _>>().map_err(file_err(path))
}

/// Merges the caches `inputs` into the new file `output` (see the module's description).
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use shogi_analysis::cache::{Cache, CacheKey, merge_caches};
/// use shogi_analysis::PosResult;
/// let dir = std::env::temp_dir().join(format!("merge-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let key = CacheKey { engine: "E".into(), build: "b".into(), options: "".into(),
///     limit: "go nodes 1 multipv 1 fresh usinewgame mode position".into() };
/// let result = PosResult { best: Some("7g7f".into()), ..PosResult::default() };
/// for (name, position) in [("a", "startpos"), ("b", "startpos moves 7g7f")] {
///     let (cache, _) = Cache::open(&dir.join(name), &key)?;
///     cache.put(position, &result)?;
/// }
/// let out = dir.join("merged");
/// let merged = merge_caches(&[dir.join("a"), dir.join("b")], &out)?;
/// assert_eq!((merged.read, merged.positions), (2, 2));
/// # std::fs::remove_dir_all(&dir)?; Ok(()) }
/// ```
pub fn merge_caches(inputs: &[PathBuf], output: &Path) -> Result<Merged, MergeError> {
    if output.exists() {
        return Err(MergeError::OutputExists(output.to_path_buf()));
    }
    // Every input's configurations first: a refusal writes nothing.
    let mut opened = Vec::new();
    let mut first: Option<(PathBuf, CacheKey)> = None;
    for path in inputs {
        let conn = open_input(path)?;
        for (id, key) in configs(&conn, path)? {
            match &first {
                Some((f, k)) if *k != key => {
                    return Err(MergeError::Configurations {
                        first: f.clone(),
                        first_key: Box::new(k.clone()),
                        other: path.clone(),
                        other_key: Box::new(key),
                    });
                }
                Some(_) => {}
                None => first = Some((path.clone(), key)),
            }
            opened.push((path, id));
        }
        drop(conn);
    }
    let Some((_, key)) = first else {
        return Err(MergeError::Empty);
    };
    let merged = write_merged(&opened, &key, output);
    if merged.is_err() {
        // The output is ours (it did not exist): nothing half-written is left.
        for suffix in ["", "-wal", "-shm"] {
            let mut p = output.as_os_str().to_owned();
            p.push(suffix);
            let _ = std::fs::remove_file(PathBuf::from(p));
        }
    }
    merged
}

/// Copies the results of `(input, configuration id)` into a new cache at `output`.
fn write_merged(
    inputs: &[(&PathBuf, i64)],
    key: &CacheKey,
    output: &Path,
) -> Result<Merged, MergeError> {
    let out_err = |reason: String| MergeError::File {
        path: output.to_path_buf(),
        reason,
    };
    // Made as any cache is, then filled in one transaction.
    drop(Cache::open(output, key).map_err(out_err)?);
    let mut out = Connection::open(output).map_err(file_err(output))?;
    let tx = out.transaction().map_err(file_err(output))?;
    let config: i64 = tx
        .query_row(
            "SELECT id FROM analysis_configs
             WHERE engine = ?1 AND build = ?2 AND options = ?3 AND lim = ?4",
            params![key.engine, key.build, key.options, key.limit],
            |r| r.get(0),
        )
        .map_err(file_err(output))?;
    let mut read = 0u64;
    for (i, (path, id)) in inputs.iter().enumerate() {
        let conn = open_input(path)?;
        let mut rows = conn
            .prepare(
                "SELECT position, result, searches FROM analysis_results WHERE config = ?1
                 ORDER BY position",
            )
            .map_err(file_err(path))?;
        let mut rows = rows.query(params![id]).map_err(file_err(path))?;
        let mut insert = tx
            .prepare_cached(
                "INSERT INTO analysis_results(config, position, result, searches)
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT(config, position) DO NOTHING",
            )
            .map_err(file_err(output))?;
        while let Some(row) = rows.next().map_err(file_err(path))? {
            let (position, result, searches): (String, String, i64) =
                (|| Ok::<_, rusqlite::Error>((row.get(0)?, row.get(1)?, row.get(2)?)))()
                    .map_err(file_err(path))?;
            read += 1;
            if insert
                .execute(params![config, position, result, searches])
                .map_err(file_err(output))?
                == 1
            {
                continue;
            }
            // Held already: the same result, or an error naming both files.
            let held: String = tx
                .query_row(
                    "SELECT result FROM analysis_results WHERE config = ?1 AND position = ?2",
                    params![config, position],
                    |r| r.get(0),
                )
                .map_err(file_err(output))?;
            if held != result && PosResult::from_json(&held) != PosResult::from_json(&result) {
                let first = first_holder(&inputs[..i], &position).unwrap_or(path);
                return Err(MergeError::Disagree {
                    position,
                    first: first.to_path_buf(),
                    other: path.to_path_buf(),
                });
            }
            tx.execute(
                "UPDATE analysis_results SET searches = searches + ?3
                 WHERE config = ?1 AND position = ?2",
                params![config, position, searches],
            )
            .map_err(file_err(output))?;
        }
    }
    let positions: i64 = tx
        .query_row(
            "SELECT count(*) FROM analysis_results WHERE config = ?1",
            params![config],
            |r| r.get(0),
        )
        .map_err(file_err(output))?;
    tx.commit().map_err(file_err(output))?;
    Ok(Merged {
        key: key.clone(),
        read,
        positions: positions as u64,
    })
}

/// The first of `inputs` that holds `position`.
fn first_holder<'a>(inputs: &[(&'a PathBuf, i64)], position: &str) -> Option<&'a PathBuf> {
    inputs.iter().find_map(|(path, id)| {
        let conn = open_input(path).ok()?;
        let found: Option<i64> = conn
            .query_row(
                "SELECT 1 FROM analysis_results WHERE config = ?1 AND position = ?2",
                params![id, position],
                |r| r.get(0),
            )
            .optional()
            .ok()?;
        found.map(|_| *path)
    })
}

/// A cache read with no engine: the one configuration of a cache searched with a given
/// multipv and mode (whatever the engine), and its results.
pub struct CacheOnly {
    cache: Cache,
    /// That configuration.
    pub key: CacheKey,
}

impl CacheOnly {
    /// Opens `path` read-only. An error when it has no configuration with results of
    /// `multipv` lines in mode `mode` (`position` or `game`), or more than one (naming two).
    pub fn open(path: &Path, multipv: u32, mode: &str) -> Result<CacheOnly, MergeError> {
        let conn = open_input(path)?;
        let (lines, tail) = (
            format!(" multipv {multipv} fresh "),
            format!(" mode {mode}"),
        );
        let found: Vec<(i64, CacheKey)> = configs(&conn, path)?
            .into_iter()
            .filter(|(_, k)| k.limit.contains(&lines) && k.limit.ends_with(&tail))
            .collect();
        match &found[..] {
            [(config, key)] => Ok(CacheOnly {
                cache: Cache {
                    conn,
                    config: *config,
                    unreadable: std::cell::Cell::new(0),
                },
                key: key.clone(),
            }),
            [] => Err(MergeError::File {
                path: path.to_path_buf(),
                reason: format!("holds no results searched with multipv {multipv} in mode {mode}"),
            }),
            [(_, a), (_, b), ..] => Err(MergeError::Configurations {
                first: path.to_path_buf(),
                first_key: Box::new(a.clone()),
                other: path.to_path_buf(),
                other_key: Box::new(b.clone()),
            }),
        }
    }

    /// The stored result of `position` (`None` when absent or unreadable).
    pub fn get(&self, position: &str) -> Result<Option<PosResult>, String> {
        self.cache.get(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(limit: &str) -> CacheKey {
        CacheKey {
            engine: "E".into(),
            build: "b".into(),
            options: "Hash=16".into(),
            limit: format!("go {limit} multipv 1 fresh usinewgame mode position"),
        }
    }

    fn result(best: &str) -> PosResult {
        PosResult {
            best: Some(best.into()),
            ..PosResult::default()
        }
    }

    fn cache(dir: &Path, name: &str, key: &CacheKey, rows: &[(&str, &str)]) -> PathBuf {
        let path = dir.join(name);
        let (c, _) = Cache::open(&path, key).unwrap();
        for (position, best) in rows {
            c.put(position, &result(best)).unwrap();
        }
        path
    }

    #[test]
    fn merges_sums_searches_and_refuses_by_name() {
        let dir = std::env::temp_dir().join(format!("shogi-merge-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let k = key("nodes 1");
        let a = cache(&dir, "a", &k, &[("p1", "7g7f"), ("p2", "2g2f")]);
        let b = cache(&dir, "b", &k, &[("p2", "2g2f"), ("p3", "5g5f")]);
        let out = dir.join("out");
        let m = merge_caches(&[a.clone(), b.clone()], &out).unwrap();
        assert_eq!((m.read, m.positions, m.key), (4, 3, k.clone()));
        let (c, _) = Cache::open(&out, &k).unwrap();
        assert_eq!(c.counts().unwrap(), (3, 2), "p2 was searched twice in all");
        assert_eq!(c.get("p3").unwrap(), Some(result("5g5f")));
        let only = CacheOnly::open(&out, 1, "position").unwrap();
        assert_eq!(
            (only.key.clone(), only.get("p1").unwrap()),
            (k.clone(), Some(result("7g7f")))
        );
        assert!(CacheOnly::open(&out, 2, "position").is_err());
        assert_eq!(
            merge_caches(std::slice::from_ref(&a), &out),
            Err(MergeError::OutputExists(out.clone()))
        );
        // Another configuration: both files and both keys named.
        let other = cache(&dir, "c", &key("nodes 2"), &[("p1", "7g7f")]);
        let e = merge_caches(&[a.clone(), other.clone()], &dir.join("x")).unwrap_err();
        assert_eq!(
            e,
            MergeError::Configurations {
                first: a.clone(),
                first_key: Box::new(k.clone()),
                other: other.clone(),
                other_key: Box::new(key("nodes 2")),
            }
        );
        // A position with another result: which one, and where.
        let d = cache(&dir, "d", &k, &[("p3", "5g5f"), ("p2", "3g3f")]);
        let e = merge_caches(&[a.clone(), b, d.clone()], &dir.join("y")).unwrap_err();
        assert_eq!(
            e,
            MergeError::Disagree {
                position: "p2".into(),
                first: a,
                other: d,
            }
        );
        assert!(!dir.join("x").exists() && !dir.join("y").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! Evaluations from the analysis cache `shogi analyze --cache` writes (SQLite, version 2:
//! `analysis_configs`, and `analysis_results(config, position, result)` with the result as
//! JSON whose `score` is USI-like text in the side to move's view: `cp 34`, `mate 5`,
//! `mate -4`, `mate +`, `mate -`, `mate given`). Only configurations of `--mode position` are
//! read (their `position` is the SFEN; game mode's keys carry the history too).
//! Opened read-only; nothing is written.

use crate::game::{Eval, GRAPH_CAP, mate_text};
use rusqlite::{Connection, OpenFlags, OptionalExtension};
use shogi_core::Color;
use std::path::{Path, PathBuf};

/// An analysis cache opened for reading.
pub struct Analysis {
    path: PathBuf,
    conn: Connection,
    /// The configurations, newest first: a position's result is taken from the first that
    /// has one.
    configs: Vec<i64>,
}

/// A score of the cache's text form, in `mover`'s view, as an evaluation in sente's view.
pub fn cache_eval(text: &str, mover: Color) -> Option<Eval> {
    let (kind, v) = text.split_once(' ')?;
    let sign = if mover == Color::Black { 1 } else { -1 };
    // Mates: (the mover wins, plies if known).
    let mate = match (kind, v) {
        ("cp", v) => {
            let cp: i32 = v.parse().ok()?;
            let cp = cp.saturating_mul(sign);
            return Some(Eval {
                cp,
                text: format!("{cp:+}"),
            });
        }
        ("mate", "+") => (true, None),
        ("mate", "-") | ("mate", "given") => (false, None),
        ("mate", v) => {
            let n: i32 = v.parse().ok()?;
            (n > 0, Some(n.unsigned_abs()))
        }
        _ => return None,
    };
    let winner = if mate.0 { mover } else { mover.opposite() };
    Some(Eval {
        cp: if winner == Color::Black {
            GRAPH_CAP
        } else {
            -GRAPH_CAP
        },
        text: mate_text(winner, mate.1),
    })
}

impl Analysis {
    /// Opens the cache at `path` read-only. Errors name the file.
    pub fn open(path: &Path) -> Result<Analysis, String> {
        let err = |e: rusqlite::Error| format!("{}: the analysis cache: {e}", path.display());
        if !path.is_file() {
            return Err(format!("{}: no such analysis cache", path.display()));
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(err)?;
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
        Ok(Analysis {
            path: path.to_path_buf(),
            conn,
            configs,
        })
    }

    /// The cache's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The evaluation of the position `sfen` (with its move number, as the cache keys it),
    /// whose side to move is `mover`, if the cache holds one with a score.
    pub fn eval(&self, sfen: &str, mover: Color) -> Result<Option<Eval>, String> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT result FROM analysis_results WHERE config = ?1 AND position = ?2",
            )
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        for c in &self.configs {
            let text: Option<String> = st
                .query_row(rusqlite::params![c, sfen], |r| r.get(0))
                .optional()
                .map_err(|e| format!("{}: {e}", self.path.display()))?;
            let score = text
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .and_then(|v| v.get("score")?.as_str().map(str::to_string));
            if let Some(e) = score.and_then(|s| cache_eval(&s, mover)) {
                return Ok(Some(e));
            }
        }
        Ok(None)
    }

    /// The evaluations of `view`'s positions (index = ply), put into it when any is found
    /// (the record's own are kept otherwise). Returns how many were found.
    pub fn annotate(&self, view: &mut crate::GameView) -> Result<usize, String> {
        let mut evals = Vec::with_capacity(view.plies.len());
        for b in view.positions() {
            let mover = if b.turn == "sente" {
                Color::Black
            } else {
                Color::White
            };
            evals.push(self.eval(&b.sfen, mover)?);
        }
        let found = evals.iter().filter(|e| e.is_some()).count();
        if found > 0 {
            let source = format!("analysis cache {}", self.path.display());
            view.set_evals(evals, &source);
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_turn_to_sente_view() {
        let e = cache_eval("cp 120", Color::White).unwrap();
        assert_eq!((e.cp, e.text.as_str()), (-120, "-120"));
        assert_eq!(cache_eval("cp 35", Color::Black).unwrap().cp, 35);
        let m = cache_eval("mate 5", Color::White).unwrap();
        assert_eq!((m.cp, m.text.as_str()), (-GRAPH_CAP, "詰 後手勝ち 5手"));
        let m = cache_eval("mate -4", Color::White).unwrap();
        assert_eq!((m.cp, m.text.as_str()), (GRAPH_CAP, "詰 先手勝ち 4手"));
        assert_eq!(
            cache_eval("mate given", Color::Black).unwrap().cp,
            -GRAPH_CAP
        );
        assert_eq!(cache_eval("mate +", Color::Black).unwrap().cp, GRAPH_CAP);
        assert_eq!(cache_eval("nonsense", Color::Black), None);
        assert_eq!(cache_eval("cp x", Color::Black), None);
    }
}

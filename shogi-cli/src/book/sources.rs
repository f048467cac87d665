//! Where `shogi book build` (and Python's `shogitk.Book`) takes games and values from besides
//! record files: the game database of `shogi index`, and the analysis cache of
//! `shogi analyze --cache` (read here through SQLite: its version 2 tables
//! `analysis_configs` and `analysis_results`, nothing written).

use rusqlite::{Connection, OpenFlags};
use shogi_batch::Selection;
use shogi_book::{Book, BookMove, Builder, EngineScore, Entry, position_key};
use shogi_core::{Move, Position, SetupOptions, Variant};
use shogi_kif::Winner;
use shogi_train::GameResult;

pub use super::files::{MarkBook, open_any, save_any};
use std::path::Path;

/// What [`add_db_games`] read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DbRead {
    /// Games handed to the builder.
    pub games: u64,
    /// Games the selection left out.
    pub left_out: u64,
    /// Games stored without a start position (inputs that could not be read as a record).
    pub unreadable: u64,
}

/// The result a game row states, as the builder counts it (`None`: no result).
fn row_result(winner: Winner) -> Option<GameResult> {
    match winner {
        Winner::None => None,
        Winner::Draw => Some(GameResult::Draw),
        w => Some(GameResult::from_winner(w.color())),
    }
}

/// Adds the games of the database at `db` (built by `shogi index`) kept by `selection` to
/// `builder`: each game's start and stored main line (up to its first error), and the result
/// of its row. Tag filters (--opening, --castle, --class) need the records and are refused.
/// Errors name the database.
pub fn add_db_games(
    builder: &mut Builder,
    db: &Path,
    selection: &Selection,
) -> Result<DbRead, String> {
    if selection.tag_rules().is_some() {
        return Err(format!(
            "{}: tag filters (--opening, --castle, --class) read the records: give the record files instead of --db",
            db.display()
        ));
    }
    let conn = shogi_db::schema::open_for_query(db).map_err(|e| e.to_string())?;
    let fail = |e: rusqlite::Error| shogi_db::schema::db_err(db, e).to_string();
    let sql = format!(
        "SELECT {}, g.start_sfen, g.moves FROM games g ORDER BY g.id",
        shogi_db::schema::select_list("g")
    );
    let n = shogi_batch::COLUMNS.len();
    let mut st = conn.prepare(&sql).map_err(fail)?;
    let mut rows = st.query([]).map_err(fail)?;
    let mut read = DbRead::default();
    let mut moves = Vec::new();
    while let Some(r) = rows.next().map_err(fail)? {
        let row = shogi_db::schema::row_from(r, 0).map_err(fail)?;
        let start: Option<String> = r.get(n).map_err(fail)?;
        let line = r.get_ref(n + 1).map_err(fail)?.as_str().unwrap_or("");
        let bad = |what: String| {
            format!(
                "{}: {} game {}: stored {what}",
                db.display(),
                row.path,
                row.game
            )
        };
        let Some(start) = start else {
            read.unreadable += 1;
            continue;
        };
        let start = Position::from_sfen_with(&start, SetupOptions::PERMISSIVE)
            .map_err(|e| bad(format!("start '{start}': {e}")))?;
        moves.clear();
        for m in line.split_whitespace() {
            moves.push(Move::from_usi(m).map_err(|e| bad(format!("move '{m}': {e}")))?);
        }
        if !selection.is_empty() && !selection.matches(&row, |want| reaches(&start, &moves, want)) {
            read.left_out += 1;
            continue;
        }
        builder.add_game(&start, &moves, row_result(row.winner));
        read.games += 1;
    }
    Ok(read)
}

/// Whether the line from `start` passes through `want`.
fn reaches(start: &Position, moves: &[Move], want: &Position) -> bool {
    let mut pos = start.clone();
    if pos.same_position(want) {
        return true;
    }
    for &m in moves {
        if pos.check_move(m).is_err() {
            return false;
        }
        pos.play_unchecked(m);
        if pos.same_position(want) {
            return true;
        }
    }
    false
}

/// What [`analysis_book`] read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnalysisRead {
    /// Results read.
    pub results: u64,
    /// Results not used: no score or no move, a position past the ply limit or not standard
    /// shogi, a result shallower than another of the same position.
    pub unused: u64,
    /// Results that do not read (bad JSON, a bad position or an illegal move), counted, not
    /// used.
    pub unreadable: u64,
}

/// The book of an analysis cache: every position searched (in either mode; game mode's key is
/// the position followed by its history) up to move number `max_ply`, with each line the
/// engine gave (the best and the other multipv lines): its first move, value
/// ([`EngineScore::book_value`], the side to move's view) and depth, count 1. A position
/// searched under several configurations takes the deepest result (the newest on a tie).
pub fn analysis_book(path: &Path, max_ply: u32) -> Result<(Book, AnalysisRead), String> {
    let name = path.display();
    if !path.is_file() {
        return Err(format!("{name}: no such analysis cache"));
    }
    let fail = |e: rusqlite::Error| format!("{name}: the analysis cache: {e}");
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(fail)?;
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(fail)?;
    let mut st = conn
        .prepare(
            "SELECT r.position, r.result FROM analysis_results r \
             JOIN analysis_configs c ON c.id = r.config ORDER BY c.id",
        )
        .map_err(|e| {
            format!("{name}: not an analysis cache of `shogi analyze` (version 2) ({e})")
        })?;
    if version != 2 {
        return Err(format!(
            "{name}: an analysis cache of version {version}; this shogi reads version 2"
        ));
    }
    let mut rows = st.query([]).map_err(fail)?;
    let mut read = AnalysisRead::default();
    let mut book = Book::new();
    while let Some(r) = rows.next().map_err(fail)? {
        read.results += 1;
        let key: String = r.get(0).map_err(fail)?;
        let json: String = r.get(1).map_err(fail)?;
        match result_entry(&key, &json, max_ply) {
            Err(()) => read.unreadable += 1,
            Ok(None) => read.unused += 1,
            Ok(Some((pos, entry))) => {
                let key = position_key(&pos);
                let deeper = book.get(&key).is_none_or(|old| {
                    old.moves.first().map_or(0, |m| m.depth) <= entry.moves[0].depth
                });
                if deeper {
                    read.unused += u64::from(book.insert_key(key, entry).is_some());
                } else {
                    read.unused += 1;
                }
            }
        }
    }
    Ok((book, read))
}

/// A cache row as a book entry: `Err` when it does not read, `Ok(None)` when it is not used.
fn result_entry(key: &str, json: &str, max_ply: u32) -> Result<Option<(Position, Entry)>, ()> {
    let sfen = key.split(" history ").next().unwrap_or(key);
    let pos = Position::from_sfen(sfen).map_err(|_| ())?;
    let v: serde_json::Value = serde_json::from_str(json).map_err(|_| ())?;
    if pos.variant() != Variant::Standard || pos.move_number() > max_ply {
        return Ok(None);
    }
    let depth = v
        .get("depth")
        .and_then(serde_json::Value::as_u64)
        .map_or(0, |d| i32::try_from(d).unwrap_or(i32::MAX));
    let mut lines = vec![(v.get("score"), v.get("pv"))];
    if let Some(others) = v.get("others").and_then(serde_json::Value::as_array) {
        lines.extend(others.iter().map(|o| (o.get("score"), o.get("pv"))));
    }
    let mut moves: Vec<BookMove> = Vec::new();
    for (score, pv) in lines {
        let Some(score) = score.and_then(serde_json::Value::as_str) else {
            continue;
        };
        let Some(score) = parse_score(score)? else {
            continue;
        };
        let first = pv
            .and_then(serde_json::Value::as_array)
            .and_then(|pv| pv.first())
            .and_then(serde_json::Value::as_str);
        let Some(first) = first else { continue };
        let mv = Move::from_usi(first).map_err(|_| ())?;
        pos.check_move(mv).map_err(|_| ())?;
        if moves.iter().all(|m| m.mv != mv) {
            moves.push(BookMove {
                value: score.book_value(),
                depth,
                ..BookMove::new(mv)
            });
        }
    }
    if moves.is_empty() {
        return Ok(None);
    }
    let mut entry = Entry {
        ply: Some(pos.move_number()),
        moves,
        comments: Vec::new(),
    };
    entry.sort_moves();
    Ok(Some((pos, entry)))
}

/// The cache's score text (`cp 34`, `mate 5`, `mate -4`, `mate +`, `mate -`, `mate given`)
/// in the side to move's view: `Ok(None)` for `mate given` (the side to move has mated
/// already: no move to play), `Err` for anything else.
fn parse_score(s: &str) -> Result<Option<EngineScore>, ()> {
    let score = match s.split_once(' ').ok_or(())? {
        ("cp", v) => EngineScore::Cp(v.parse().map_err(|_| ())?),
        ("mate", "+") => EngineScore::MateUnknown(true),
        ("mate", "-") => EngineScore::MateUnknown(false),
        ("mate", "given") => return Ok(None),
        ("mate", v) => EngineScore::Mate(v.parse().map_err(|_| ())?),
        _ => return Err(()),
    };
    Ok(Some(score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_book::Lookup;

    /// A cache as `shogi analyze --cache` lays it out (version 2), written by hand.
    fn cache(rows: &[(i64, &str, &str)]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("shogi-book-sources-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("cache.sqlite");
        let _ = std::fs::remove_file(&path);
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE analysis_configs(id INTEGER PRIMARY KEY, engine TEXT NOT NULL,
               build TEXT NOT NULL, options TEXT NOT NULL, lim TEXT NOT NULL);
             CREATE TABLE analysis_results(config INTEGER NOT NULL, position TEXT NOT NULL,
               result TEXT NOT NULL, searches INTEGER NOT NULL DEFAULT 1,
               PRIMARY KEY(config, position)) WITHOUT ROWID;
             INSERT INTO analysis_configs VALUES (1, 'e', 'b', '', 'depth 8 mode position');
             INSERT INTO analysis_configs VALUES (2, 'e', 'b', '', 'depth 12 mode game');
             PRAGMA user_version = 2;",
        )
        .unwrap();
        for (config, position, result) in rows {
            conn.execute(
                "INSERT INTO analysis_results(config, position, result) VALUES (?1, ?2, ?3)",
                rusqlite::params![config, position, result],
            )
            .unwrap();
        }
        path
    }

    fn result(score: &str, pv: &[&str], depth: u32, others: &str) -> String {
        format!(
            r#"{{"best":{:?},"score":"{score}","pv":{pv:?},"depth":{depth},"nodes":1,"others":[{others}],"warning":null}}"#,
            pv.first().copied().unwrap_or("resign")
        )
    }

    #[test]
    fn the_cache_gives_lines_values_and_depths() {
        let start = Position::startpos(Variant::Standard);
        let mut after = start.clone();
        after.play_unchecked(Move::from_usi("7g7f").unwrap());
        let (s0, s1) = (start.to_sfen(), after.to_sfen());
        let game_key = format!("{s1} history 0123456789abcdef0123456789abcdef");
        let late = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 40";
        let rows = [
            // Shallower than config 2's: not used.
            (1, s0.as_str(), result("cp 5", &["5g5f"], 8, "")),
            (
                2,
                s0.as_str(),
                result(
                    "cp 40",
                    &["7g7f", "3c3d"],
                    12,
                    r#"{"score":"cp -10","pv":["2g2f"]}"#,
                ),
            ),
            (2, game_key.as_str(), result("mate 3", &["3c3d"], 12, "")),
            (1, late, result("cp 1", &["7g7f"], 8, "")),
            (1, "not a position", result("cp 1", &["7g7f"], 8, "")),
            (1, "startpos x", "{not json".to_string()),
        ];
        let rows: Vec<(i64, &str, &str)> =
            rows.iter().map(|(c, p, r)| (*c, *p, r.as_str())).collect();
        let illegal = result("cp 1", &["1a1b"], 30, "");
        let (book, read) = analysis_book(&cache(&rows), 32).unwrap();
        assert_eq!(
            read,
            AnalysisRead {
                results: 6,
                unused: 2,
                unreadable: 2
            }
        );
        let moves = |pos: &Position| -> Vec<(String, i32, i32)> {
            book.probe(pos, Lookup::default())
                .unwrap()
                .moves
                .iter()
                .map(|m| (m.mv.to_usi(), m.value, m.depth))
                .collect()
        };
        assert_eq!(
            moves(&start),
            vec![("7g7f".into(), 40, 12), ("2g2f".into(), -10, 12)]
        );
        assert_eq!(moves(&after), vec![("3c3d".into(), 31997, 12)]);
        assert_eq!(book.len(), 2);
        // An illegal move makes its row unreadable (and counted), not a book line.
        let path = cache(&[(2, s0.as_str(), illegal.as_str())]);
        let (book, read) = analysis_book(&path, 32).unwrap();
        assert_eq!((book.len(), read.unreadable), (0, 1));
    }

    #[test]
    fn other_files_are_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("shogi-book-notcache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("other.sqlite");
        let _ = std::fs::remove_file(&path);
        Connection::open(&path)
            .unwrap()
            .execute_batch("CREATE TABLE games(id INTEGER);")
            .unwrap();
        let e = analysis_book(&path, 32).unwrap_err();
        assert!(
            e.contains("other.sqlite") && e.contains("not an analysis cache"),
            "{e}"
        );
        let e = analysis_book(&dir.join("missing.sqlite"), 32).unwrap_err();
        assert!(e.contains("no such analysis cache"), "{e}");
    }
}

//! Where `shogi book build` takes games and values from besides record files: the games of a
//! database (`shogi_db::Db::games`) and the results of an analysis cache
//! (`shogi_analysis::cache::CacheReader`), handed to shogi-book's builders.

use shogi_analysis::cache::CacheReader;
use shogi_batch::Selection;
use shogi_book::{Book, Builder, EvalBook};
use shogi_db::GamesRead;
use std::path::Path;

/// Adds the games of the database at `db` (built by `shogi index`) kept by `selection` to
/// `builder`: each game's start and stored main line (up to its first error), and the result
/// of its row. Errors name the database.
pub fn add_db_games(
    builder: &mut Builder,
    db: &Path,
    selection: &Selection,
) -> Result<GamesRead, String> {
    let db = shogi_db::Db::open(db).map_err(|e| e.to_string())?;
    let mut games = db.games(selection).map_err(|e| e.to_string())?;
    for game in games.by_ref() {
        let g = game.map_err(|e| e.to_string())?;
        builder.add_game(&g.start, &g.moves, shogi_train::winner_result(g.row.winner));
    }
    Ok(games.read())
}

/// What [`analysis_book`] read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnalysisRead {
    /// Results read.
    pub results: u64,
    /// Results not used (see [`shogi_book::EvalRead::unused`]).
    pub unused: u64,
    /// Results that do not read (bad JSON, a bad position or an illegal move), counted, not
    /// used.
    pub unreadable: u64,
}

/// The book of an analysis cache ([`EvalBook`]): every configuration's results (in either
/// mode; game mode's position is the one searched), the deepest search of a position (the
/// newest configuration's on a tie) giving its lines.
pub fn analysis_book(path: &Path, max_ply: u32) -> Result<(Book, AnalysisRead), String> {
    let reader = CacheReader::open(path)?;
    let mut evals = EvalBook::new(max_ply);
    let mut unreadable = 0;
    for config in reader.configurations()? {
        let mut results = reader.results(config.id);
        for r in results.by_ref() {
            let r = r?;
            let lines = r.lines.iter().map(|l| (l.score, l.moves.first().copied()));
            evals.add(&r.position, r.depth, lines);
        }
        unreadable += results.unreadable();
    }
    let (book, read) = evals.finish();
    let read = AnalysisRead {
        results: read.results + unreadable,
        unused: read.unused,
        unreadable,
    };
    Ok((book, read))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::Connection;
    use shogi_book::Lookup;
    use shogi_core::{Move, Position, Variant};

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
        // The deeper configuration's lines, and the game-mode search of the position after.
        let lines = |pos: &Position| {
            let e = book.probe(pos, Lookup::default()).unwrap();
            e.moves
                .iter()
                .map(|m| m.mv.to_usi())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(
            (lines(&start).as_str(), lines(&after).as_str()),
            ("7g7f 2g2f", "3c3d")
        );
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

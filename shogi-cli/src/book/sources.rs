//! Where `shogi book build` takes games and values from besides record files: the games of a
//! database (`shogi_db::Db::games`) and the results of an analysis cache
//! (`shogi_analysis::cache::CacheReader`), handed to shogi-book's builders.

use shogi_analysis::cache::CacheReader;
use shogi_batch::Selection;
use shogi_book::{Builder, EvalSort, Evals};
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

/// The book of an analysis cache ([`EvalSort`]): every configuration's results (in either
/// mode; game mode's position is the one searched), the deepest search of a position (the
/// newest configuration's on a tie) giving its lines; sorted within about `memory` bytes,
/// beyond which it goes to temporary files in `temp_dir`.
pub fn analysis_book(
    path: &Path,
    max_ply: u32,
    memory: usize,
    temp_dir: &Path,
) -> Result<(Evals, AnalysisRead), String> {
    let reader = CacheReader::open(path)?;
    let mut evals = EvalSort::new(max_ply, memory, temp_dir);
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
    let (book, read) = evals.finish().map_err(|e| e.to_string())?;
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
    use shogi_book::position_key;
    use shogi_core::{Move, Position, Variant};
    use std::collections::HashMap;
    use std::path::PathBuf;

    /// A cache as `shogi analyze --cache` lays it out (version 2), written by hand.
    fn cache(rows: &[(i64, &str, &str)]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("shogi-book-sources-{}", std::process::id()));
        cache_at(&dir, rows)
    }

    /// [`cache`] in `dir`.
    fn cache_at(dir: &Path, rows: &[(i64, &str, &str)]) -> std::path::PathBuf {
        std::fs::create_dir_all(dir).unwrap();
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
        let path = cache(&rows);
        // In memory, and on disk (no memory at all): the same.
        for memory in [1 << 20, 0] {
            let (mut book, read) = analysis_book(&path, 32, memory, &std::env::temp_dir()).unwrap();
            assert_eq!(
                read,
                AnalysisRead {
                    results: 6,
                    unused: 2,
                    unreadable: 2
                }
            );
            // The deeper configuration's lines, and the game-mode search of the position after.
            let mut lines = |pos: &Position| {
                let e = book.get(&position_key(pos)).unwrap().unwrap();
                e.moves
                    .iter()
                    .map(|m| m.mv.to_usi())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            assert_eq!(
                (lines(&start), lines(&after)),
                ("7g7f 2g2f".into(), "3c3d".into())
            );
            assert_eq!(book.len(), 2);
        }
        // An illegal move makes its row unreadable (and counted), not a book line.
        let path = cache(&[(2, s0.as_str(), illegal.as_str())]);
        let (book, read) = analysis_book(&path, 32, 0, &std::env::temp_dir()).unwrap();
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
        let tmp = std::env::temp_dir();
        let e = analysis_book(&path, 32, 0, &tmp).unwrap_err();
        assert!(
            e.contains("other.sqlite") && e.contains("not an analysis cache"),
            "{e}"
        );
        let e = analysis_book(&dir.join("missing.sqlite"), 32, 0, &tmp).unwrap_err();
        assert!(e.contains("no such analysis cache"), "{e}");
    }

    /// Runs `shogi` in-process: exit code and stderr.
    fn shogi(args: &[&str]) -> (i32, String) {
        let argv = std::iter::once("shogi")
            .chain(args.iter().copied())
            .map(std::ffi::OsString::from);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = crate::run(argv, &mut &b""[..], &mut out, &mut err);
        (code, String::from_utf8_lossy(&err).into_owned())
    }

    /// A book file's moves by position key: (move, value, depth, count), sorted.
    fn moves_of(path: &Path) -> HashMap<String, Vec<(String, i32, i32, u64)>> {
        let (book, _) =
            shogi_book::read_book(path, shogi_book::BookFormat::Db, false, &[]).unwrap();
        book.iter()
            .map(|(k, e)| {
                let mut m: Vec<_> = e
                    .moves
                    .iter()
                    .map(|m| (m.mv.to_usi(), m.value, m.depth, m.count))
                    .collect();
                m.sort();
                (k.to_string(), m)
            })
            .collect()
    }

    type Searches = HashMap<String, (u32, Vec<(Move, i32)>)>;

    /// 30 games of 8 moves (each among the first 3 legal moves in USI order) as CSA files in
    /// `records`, and a cache searching most of their positions, by one configuration or by
    /// both at depths of different parity (so the deepest is one): its rows, and the search
    /// each position keeps, by key.
    fn games_and_cache(dir: &Path) -> (PathBuf, Searches) {
        let records = dir.join("records");
        std::fs::create_dir_all(&records).unwrap();
        let mut rng = shogi_testkit::Rng::new(11);
        let mut rows: Vec<(i64, String, String)> = Vec::new();
        let mut keep: Searches = HashMap::new();
        let mut seen = std::collections::HashSet::new();
        let sorted = |p: &Position| {
            let mut m: Vec<Move> = p.legal_moves().iter().copied().collect();
            m.sort_by_key(|m| m.to_usi());
            m
        };
        for i in 0..30 {
            let mut pos = Position::startpos(Variant::Standard);
            let mut text = String::from("V2.2\nPI\n+\n");
            for _ in 0..8 {
                let legal = sorted(&pos);
                let mv = legal[rng.below(legal.len().min(3))];
                if seen.insert(pos.to_sfen()) && rng.below(4) != 0 {
                    let configs: &[i64] = match rng.below(3) {
                        0 => &[1],
                        1 => &[2],
                        _ => &[1, 2],
                    };
                    for &config in configs {
                        let depth = 8 + 2 * rng.below(4) as u32 + u32::from(config == 2);
                        let mut lines: Vec<(Move, i32)> = Vec::new();
                        for n in 0..1 + rng.below(3) {
                            let m = match n == 0 && rng.below(2) == 0 {
                                true => mv,
                                false => legal[rng.below(legal.len())],
                            };
                            if lines.iter().all(|l| l.0 != m) {
                                lines.push((m, rng.below(600) as i32 - 300));
                            }
                        }
                        let others: Vec<String> = lines[1..]
                            .iter()
                            .map(|(m, v)| {
                                format!(r#"{{"score":"cp {v}","pv":["{}"]}}"#, m.to_usi())
                            })
                            .collect();
                        let best = lines[0].0.to_usi();
                        let json = result(
                            &format!("cp {}", lines[0].1),
                            &[best.as_str()],
                            depth,
                            &others.join(","),
                        );
                        rows.push((config, pos.to_sfen(), json));
                        let key = position_key(&pos);
                        if keep.get(&key).is_none_or(|(d, _)| *d < depth) {
                            keep.insert(key, (depth, lines));
                        }
                    }
                }
                text.push_str(&shogi_kif::eval::csa_move_text(&pos, mv));
                text.push('\n');
                pos.play(mv).unwrap();
            }
            text.push_str(["%TORYO\n", "%SENNICHITE\n"][rng.below(2)]);
            std::fs::write(records.join(format!("g{i:02}.csa")), text).unwrap();
        }
        let rows: Vec<(i64, &str, &str)> = rows
            .iter()
            .map(|(c, p, r)| (*c, p.as_str(), r.as_str()))
            .collect();
        cache_at(dir, &rows);
        (records, keep)
    }

    #[test]
    fn the_engine_book_on_disk_builds_the_same_book_valued_as_by_hand() {
        let dir = std::env::temp_dir().join(format!("shogi-book-evals-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (records, searches) = games_and_cache(&dir);
        let (rec, cache) = (records.display().to_string(), dir.join("cache.sqlite"));
        let cache = cache.display().to_string();
        let out = |name: &str| dir.join(name).display().to_string();
        let build = |extra: &[&str], o: &str| {
            let mut a = vec!["book", "build", "-o", o, "--max-ply", "8"];
            a.extend(extra);
            let (code, err) = shogi(&a);
            assert_eq!(code, 0, "{a:?}: {err}");
            std::fs::read(o).unwrap()
        };
        // The same bytes whether the engine's book stays in memory or goes to disk (with no
        // memory at all), alone and valuing the games' book, in text and .ybb.
        for (i, (extra, ext)) in [
            (vec!["--analysis", &cache], "db"),
            (vec!["--analysis", &cache], "ybb"),
            (vec![rec.as_str(), "--analysis", &cache], "db"),
        ]
        .into_iter()
        .enumerate()
        {
            let (a, b) = (out(&format!("a{i}.{ext}")), out(&format!("b{i}.{ext}")));
            let held = build(&extra, &a);
            let mut spilled = extra.clone();
            spilled.extend(["--memory", "0"]);
            assert!(
                held == build(&spilled, &b) && held.len() > 100,
                "{extra:?} {ext}"
            );
        }
        // Alone: every position searched, with the lines of its deepest search.
        let alone = moves_of(&dir.join("a0.db"));
        let mut expected = HashMap::new();
        for (key, (depth, lines)) in &searches {
            let mut m: Vec<_> = lines
                .iter()
                .map(|(mv, v)| (mv.to_usi(), *v, *depth as i32, 1))
                .collect();
            m.sort();
            expected.insert(key.clone(), m);
        }
        assert_eq!(alone, expected);
        // With games: each move's own line, else the negated best line after it (depth + 1),
        // else the value from results (the book built without the cache).
        let (code, err) = shogi(&[
            "book",
            "build",
            &rec,
            "-o",
            &out("plain.db"),
            "--max-ply",
            "8",
        ]);
        assert_eq!(code, 0, "{err}");
        let plain = moves_of(&dir.join("plain.db"));
        let valued = moves_of(&dir.join("a2.db"));
        let mut kinds = [0; 3];
        let mut expected = HashMap::new();
        for (key, moves) in &plain {
            let pos = Position::from_sfen(&format!("{key} 1")).unwrap();
            let mut m: Vec<_> = moves
                .iter()
                .map(|(usi, value, depth, count)| {
                    let mv = Move::from_usi(usi).unwrap();
                    let own = searches
                        .get(key)
                        .and_then(|(d, l)| l.iter().find(|x| x.0 == mv).map(|x| (x.1, *d as i32)));
                    let mut child = pos.clone();
                    child.play(mv).unwrap();
                    let after = searches.get(&position_key(&child)).map(|(d, l)| {
                        let best = l.iter().map(|x| x.1).max().unwrap();
                        (-best, *d as i32 + 1)
                    });
                    let (kind, (v, d)) = match (own, after) {
                        (Some(o), _) => (0, o),
                        (None, Some(a)) => (1, a),
                        (None, None) => (2, (*value, *depth)),
                    };
                    kinds[kind] += 1;
                    (usi.clone(), v, d, *count)
                })
                .collect();
            m.sort();
            expected.insert(key.clone(), m);
        }
        assert_eq!(valued, expected);
        assert!(kinds.iter().all(|n| *n > 3), "{kinds:?}");
        // Nothing temporary is left.
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

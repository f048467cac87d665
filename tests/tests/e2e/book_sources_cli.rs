//! `shogi book build --db` against the same games read as records (with and without a
//! selection), with its runs spilled to disk, and against counts made by brute force; `shogi match --book`'s openings and
//! `shogi explore --book`'s marks; `shogi book build --analysis` from caches written by hand.

use crate::common;

use common::{code, scratch, shogi, stderr, stdout};
use rusqlite::Connection;
use shogi_book::position_key;
use shogi_core::{Move, Position, Variant};
use shogi_testkit::Rng;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Writes `n` CSA games of at least `min_plies` moves that share openings (each move among the
/// first three legal moves in USI order), players from a pool of three, random endings; returns each game's sente name
/// and line.
fn write_games(dir: &Path, n: usize, min_plies: usize) -> Vec<(String, Vec<Move>)> {
    let mut rng = Rng::new(31);
    let names = ["alice", "bob", "carol"];
    let mut games = Vec::new();
    for i in 0..n {
        let (sente, gote) = (names[rng.below(3)], names[rng.below(3)]);
        let mut pos = Position::startpos(Variant::Standard);
        let mut text = format!("V2.2\nN+{sente}\nN-{gote}\nPI\n+\n");
        let mut line = Vec::new();
        for _ in 0..min_plies + rng.below(10) {
            let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
            moves.sort_by_key(|m| m.to_usi());
            let mv = moves[rng.below(moves.len().min(3))];
            text.push_str(&shogi_kif::eval::csa_move_text(&pos, mv));
            text.push('\n');
            pos.play(mv).unwrap();
            line.push(mv);
        }
        text.push_str(["%TORYO\n", "%SENNICHITE\n", "%CHUDAN\n"][rng.below(3)]);
        std::fs::write(dir.join(format!("g{i:03}.csa")), text).unwrap();
        games.push((sente.to_string(), line));
    }
    games
}

/// Nothing temporary (`*.tmp`) is left in `dir`.
fn assert_no_temporary_files(dir: &Path) {
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn build_from_the_database_equals_build_from_the_records() {
    let dir = scratch("book-db");
    let records = dir.join("records");
    std::fs::create_dir_all(&records).unwrap();
    let games = write_games(&records, 60, 2);
    let (rec, db) = (records.display().to_string(), dir.join("g.sqlite"));
    let db = db.display().to_string();
    let out = shogi(&["index", &rec, "--db", &db]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    for filter in [vec![], vec!["--sente", "alice"]] {
        let from_records = dir.join("r.db").display().to_string();
        let from_db = dir.join("d.db").display().to_string();
        let mut a = vec!["book", "build", &rec, "-o", &from_records, "--max-ply", "6"];
        a.extend(&filter);
        let out = shogi(&a);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let mut b = vec![
            "book",
            "build",
            "--db",
            &db,
            "-o",
            &from_db,
            "--max-ply",
            "6",
        ];
        b.extend(&filter);
        let out = shogi(&b);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let (ra, rb) = (
            std::fs::read_to_string(&from_records).unwrap(),
            std::fs::read_to_string(&from_db).unwrap(),
        );
        assert_eq!(ra, rb, "{filter:?}");
        // With no memory for positions every game goes to its own sorted run on disk: the
        // merged book is the same, and the runs are gone.
        let spilled = dir.join("s.db").display().to_string();
        b[5] = &spilled;
        b.extend(["--memory", "0"]);
        let out = shogi(&b);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(
            stderr(&out).contains("sorted run(s) on disk"),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read_to_string(&spilled).unwrap(), rb, "{filter:?}");
        // The binary formats too: sorted on disk by their own keys, the same bytes.
        for ext in ["ybb", "bin"] {
            let mut bytes = Vec::new();
            for memory in ["512", "0"] {
                let out = dir.join(format!("s-{memory}.{ext}")).display().to_string();
                let mut c = b[..6].to_vec();
                c[5] = &out;
                c.extend(["--max-ply", "6", "--memory", memory]);
                c.extend(&filter);
                let o = shogi(&c);
                assert_eq!(code(&o), 0, "{}", stderr(&o));
                bytes.push(std::fs::read(&out).unwrap());
            }
            assert!(
                bytes[0] == bytes[1] && !bytes[0].is_empty(),
                "{ext} {filter:?}"
            );
        }
        assert_no_temporary_files(&dir);
        // The count of each start move equals a count over the games themselves.
        let mut brute: HashMap<String, u64> = HashMap::new();
        for (sente, line) in &games {
            if filter.is_empty() || sente == "alice" {
                *brute.entry(line[0].to_usi()).or_default() += 1;
            }
        }
        let out = shogi(&["book", "probe", &from_db, "startpos"]);
        let probed: HashMap<String, u64> = stdout(&out)
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[0].to_string(), f[4].parse().unwrap())
            })
            .collect();
        assert_eq!(probed, brute, "{filter:?}");
    }
    // The tag filters read the tags the database stored: the same book as from the records.
    let mut sizes = Vec::new();
    for tag in [["--opening", "居飛車"], ["--class", "力戦"]] {
        let mut books = Vec::new();
        for source in [["", rec.as_str()], ["--db", db.as_str()]] {
            let out = dir.join("t.db").display().to_string();
            let mut a = vec!["book", "build"];
            a.extend(source.iter().filter(|s| !s.is_empty()));
            a.extend(["-o", &out, "--max-ply", "6", tag[0], tag[1]]);
            let o = shogi(&a);
            assert_eq!(code(&o), 0, "{a:?}: {}", stderr(&o));
            books.push(std::fs::read_to_string(&out).unwrap());
        }
        assert_eq!(books[0], books[1], "{tag:?}");
        sizes.push(books[0].lines().count());
    }
    assert!(sizes.iter().any(|n| *n > 1), "{sizes:?}");
    // --dedup is not for a database.
    let out = shogi(&[
        "book",
        "build",
        "--db",
        &db,
        "-o",
        &dir.join("x.db").display().to_string(),
        "--dedup",
        "exact",
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(!dir.join("x.db").exists());
}

/// The main line of a record file in USI.
fn line_of(path: &Path) -> Vec<String> {
    let record = shogi_kif::read_path(path, shogi_kif::ReadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    record.main_line().map(|n| n.mv.to_usi()).collect()
}

#[test]
fn match_openings_come_from_the_book_and_explore_marks_its_moves() {
    let dir = scratch("book-use");
    let records = dir.join("records");
    std::fs::create_dir_all(&records).unwrap();
    write_games(&records, 40, 6);
    let rec = records.display().to_string();
    let book = dir.join("b.db").display().to_string();
    let out = shogi(&["book", "build", &rec, "-o", &book, "--max-ply", "8"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let fake = shogi_usi::testing::fake_engine_path().display().to_string();
    let (a, b) = (format!("a={fake}"), format!("b={fake}"));
    for (pick, games) in [("best", "2"), ("weighted", "6")] {
        let out_dir = dir.join(format!("games-{pick}"));
        let o = shogi(&[
            "match",
            "--engine",
            &a,
            "--engine",
            &b,
            "--games",
            games,
            "--byoyomi",
            "200",
            "--max-plies",
            "12",
            "--book",
            &book,
            "--book-plies",
            "4",
            "--book-pick",
            pick,
            "--seed",
            "5",
            "--out-dir",
            out_dir.to_str().unwrap(),
            "--out-format",
            "csa",
        ]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let n: usize = games.parse().unwrap();
        let lines: Vec<Vec<String>> = (1..=n)
            .map(|i| line_of(&out_dir.join(format!("game-{i:04}.csa"))))
            .collect();
        for pair in lines.chunks(2) {
            // Both games of a pair start with the same 4 book moves.
            assert_eq!(pair[0][..4], pair[1][..4], "{pick}");
            let mut at = "startpos moves".to_string();
            let probe = |at: &str| at.strip_suffix(" moves").unwrap_or(at).to_string();
            for mv in &pair[0][..4] {
                let out = shogi(&["book", "probe", &book, &probe(&at), "--ignore-ply"]);
                let listed = stdout(&out);
                assert!(
                    listed.lines().any(|l| l.split('\t').next() == Some(mv)),
                    "{pick}: {mv} at {at}: {listed}"
                );
                at = format!("{at} {mv}");
            }
        }
    }
    // explore --book: the book's count of each move is the games column (same games).
    let db = dir.join("g.sqlite").display().to_string();
    assert_eq!(code(&shogi(&["index", &rec, "--db", &db])), 0);
    let out = shogi(&[
        "explore", "startpos", "--db", &db, "--book", &book, "--format", "csv",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let mut rows = text.lines();
    let head: Vec<&str> = rows.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let mut n = 0;
    for row in rows {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[col("games")], f[col("book_count")], "{row}");
        n += 1;
    }
    assert!(n >= 2, "{text}");
    // Without --book the columns are those of before.
    let out = shogi(&["explore", "startpos", "--db", &db, "--format", "csv"]);
    assert!(!stdout(&out).contains("book_"), "{}", stdout(&out));
}

// `shogi book build --analysis`: the book of an analysis cache, alone and valuing the games'.

/// `shogi book build --analysis CACHE -o OUT --max-ply 32 EXTRA…`.
fn build_from_cache(cache: &str, out: &str, extra: &[&str]) -> common::Output {
    let mut a = vec![
        "book",
        "build",
        "--analysis",
        cache,
        "-o",
        out,
        "--max-ply",
        "32",
    ];
    a.extend(extra);
    shogi(&a)
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
    let rows: Vec<(i64, &str, &str)> = rows.iter().map(|(c, p, r)| (*c, *p, r.as_str())).collect();
    let dir = scratch("book-cache-lines");
    let cache = cache_at(&dir, &rows).display().to_string();
    // In memory, and on disk (no memory at all): the same.
    for memory in ["1", "0"] {
        let book = dir.join(format!("m{memory}.db"));
        let b = book.display().to_string();
        let out = build_from_cache(&cache, &b, &["--memory", memory]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(
            stderr(&out).contains(": 6 result(s), 2 not used, 2 unreadable"),
            "{}",
            stderr(&out)
        );
        // The deeper configuration's lines, and the game-mode search of the position after.
        let moves = moves_of(&book);
        let line = |pos: &Position| {
            let m = &moves[&position_key(pos)];
            m.iter().map(|x| x.0.as_str()).collect::<Vec<_>>().join(" ")
        };
        assert_eq!(
            (line(&start), line(&after)),
            ("2g2f 7g7f".into(), "3c3d".into())
        );
        assert_eq!(moves.len(), 2);
    }
    // An illegal move makes its row unreadable (and counted), not a book line.
    let illegal = result("cp 1", &["1a1b"], 30, "");
    let dir = scratch("book-cache-illegal");
    let cache = cache_at(&dir, &[(2, s0.as_str(), illegal.as_str())])
        .display()
        .to_string();
    let b = dir.join("i.db").display().to_string();
    let out = build_from_cache(&cache, &b, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(": 1 result(s), 0 not used, 1 unreadable"),
        "{}",
        stderr(&out)
    );
    assert!(moves_of(Path::new(&b)).is_empty());
}

#[test]
fn other_files_are_refused_by_name() {
    let dir = scratch("book-notcache");
    let path = dir.join("other.sqlite");
    Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE games(id INTEGER);")
        .unwrap();
    let o = dir.join("o.db").display().to_string();
    for (cache, says) in [
        (path.clone(), "not an analysis cache"),
        (dir.join("missing.sqlite"), "no such analysis cache"),
    ] {
        let c = cache.display().to_string();
        let out = shogi(&["book", "build", "--analysis", &c, "-o", &o]);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        let name = cache.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            stderr(&out).contains(&name) && stderr(&out).contains(says),
            "{}",
            stderr(&out)
        );
        assert!(!Path::new(&o).exists());
    }
}

/// A cache as `shogi analyze --cache` lays it out (version 2), written by hand in `dir`.
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

/// A book file's moves by position key: (move, value, depth, count), sorted.
fn moves_of(path: &Path) -> HashMap<String, Vec<(String, i32, i32, u64)>> {
    let (book, _) = shogi_book::read_book(path, shogi_book::BookFormat::Db, false, &[]).unwrap();
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
                        .map(|(m, v)| format!(r#"{{"score":"cp {v}","pv":["{}"]}}"#, m.to_usi()))
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
    let dir = scratch("book-evals");
    let (records, searches) = games_and_cache(&dir);
    let (rec, cache) = (records.display().to_string(), dir.join("cache.sqlite"));
    let cache = cache.display().to_string();
    let out = |name: &str| dir.join(name).display().to_string();
    let build = |extra: &[&str], o: &str| {
        let mut a = vec!["book", "build", "-o", o, "--max-ply", "8"];
        a.extend(extra);
        let run = shogi(&a);
        assert_eq!(code(&run), 0, "{a:?}: {}", stderr(&run));
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
    let o = shogi(&[
        "book",
        "build",
        &rec,
        "-o",
        &out("plain.db"),
        "--max-ply",
        "8",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
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
    assert_no_temporary_files(&dir);
}

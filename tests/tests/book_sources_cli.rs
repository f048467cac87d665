//! `shogi book build --db` against the same games read as records (with and without a
//! selection), with its runs spilled to disk, and against counts made by brute force; `shogi match --book`'s openings and
//! `shogi explore --book`'s marks.

mod common;

use common::{code, scratch, shogi, stderr, stdout};
use shogi_core::{Move, Position, Variant};
use shogi_testkit::Rng;
use std::collections::HashMap;
use std::path::Path;

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
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
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

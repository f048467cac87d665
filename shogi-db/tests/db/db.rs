//! The database against brute force: `find` and `explore` on hundreds of positions of
//! generated games and of the shared corpus, incremental re-indexing against a fresh index,
//! interrupted runs, and bad databases.

use crate::common;

use common::{Rng, Seen, brute_force, write_collection};
use rusqlite::Connection;
use shogi_batch::Selection;
use shogi_db::{Db, DbError, Found, Hit, IndexOptions, explore_hits as explore, index, scan};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus");

/// `find` on the database `db`, opened for the one query.
fn find(
    db: &Path,
    pos: &shogi_core::Position,
    sel: &Selection,
    limit: Option<usize>,
) -> Result<Found, DbError> {
    Db::open(db)?.find(pos, sel, limit)
}

/// `explore` on the database `db`, opened for the one query.
fn explore_db(
    db: &Path,
    pos: &shogi_core::Position,
    sel: &Selection,
) -> Result<shogi_db::Explore, DbError> {
    Db::open(db)?.explore(pos, sel)
}

/// The position of an SFEN (its move number may be left out) or `startpos`.
fn target(spec: &str) -> shogi_core::Position {
    if spec == "startpos" {
        return shogi_core::Position::startpos(shogi_core::Variant::Standard);
    }
    let sfen = if spec.split_whitespace().count() == 3 {
        format!("{spec} 1")
    } else {
        spec.to_string()
    };
    shogi_core::Position::from_sfen_with(&sfen, shogi_core::SetupOptions::PERMISSIVE).unwrap()
}

/// A hit with only the columns a query without filters reads (what find and explore
/// print).
fn narrow(h: &Hit) -> Hit {
    let r = &h.row;
    Hit {
        row: shogi_batch::GameRow {
            path: r.path.clone(),
            game: r.game,
            sente: r.sente.clone(),
            gote: r.gote.clone(),
            start: r.start.clone(),
            start_iso: r.start_iso.clone(),
            plies: r.plies,
            ending: r.ending,
            winner: r.winner,
            valid: r.valid,
            sente_rating: r.sente_rating,
            gote_rating: r.gote_rating,
            ..Default::default()
        },
        ply: h.ply,
        next_move: h.next_move,
    }
}

fn opts() -> IndexOptions {
    IndexOptions {
        jobs: Some(2),
        batch: Some(50),
        ..IndexOptions::default()
    }
}

/// The hits of brute force for `sfen`, as (path, game, ply, next move).
fn expected(all: &[Seen], sfen: &str) -> Vec<(String, u32, u32, Option<String>)> {
    let mut v: Vec<_> = all
        .iter()
        .filter(|s| s.sfen == sfen)
        .map(|s| (s.path.clone(), s.game, s.ply, s.next.clone()))
        .collect();
    v.sort();
    v
}

fn got(found: &shogi_db::Found) -> Vec<(String, u32, u32, Option<String>)> {
    found
        .hits
        .iter()
        .map(|h| {
            let next = h.next_move.map(|m| m.to_usi());
            (h.row.path.clone(), h.row.game, h.ply, next)
        })
        .collect()
}

/// Positions in no game: deep positions of games of another seed, checked absent.
fn absent(all: &[Seen], n: usize) -> Vec<String> {
    let present: HashSet<&str> = all.iter().map(|s| s.sfen.as_str()).collect();
    let mut rng = Rng(987_654);
    let mut out = Vec::new();
    while out.len() < n {
        let moves = common::random_game(&mut rng, 30, 0);
        let mut pos = shogi_core::Position::startpos(shogi_core::Variant::Standard);
        for m in &moves {
            pos.play(*m).unwrap();
        }
        let s = shogi_batch::start_text(&pos.to_sfen());
        if !present.contains(s.as_str()) {
            out.push(s);
        }
    }
    out
}

struct Fixture {
    _dir: tempfile::TempDir,
    gen_dir: String,
    db: PathBuf,
    paths: Vec<String>,
}

fn fixture(with_corpus: bool) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let gen_dir = dir.path().join("gen");
    write_collection(&gen_dir, 42, 40, 6);
    let gen_dir = gen_dir.display().to_string();
    let mut paths = vec![gen_dir.clone()];
    if with_corpus && Path::new(CORPUS).is_dir() {
        paths.push(CORPUS.to_string());
    }
    let db = dir.path().join("games.sqlite");
    let report = index(&paths, &db, &opts()).unwrap();
    assert!(report.created);
    assert!(report.games_added > 100, "{report:?}");
    assert!(report.games_invalid > 0, "{report:?}");
    Fixture {
        _dir: dir,
        gen_dir,
        db,
        paths,
    }
}

#[test]
fn find_agrees_with_brute_force() {
    let f = fixture(true);
    let refs: Vec<&str> = f.paths.iter().map(String::as_str).collect();
    let all = brute_force(&refs);
    assert!(all.len() > 3000, "{}", all.len());
    let mut rng = Rng(7);
    let none = Selection::new();
    let mut multi = 0;
    for i in 0..300 {
        let s = &all[rng.below(all.len())];
        let pos = target(&s.sfen);
        let want = expected(&all, &s.sfen);
        let found = find(&f.db, &pos, &none, None).unwrap();
        assert_eq!(got(&found), want, "{}", s.sfen);
        assert_eq!(found.total, want.len());
        if want.len() > 1 {
            multi += 1;
        }
        if i % 10 == 0 {
            let scanned = scan(&refs, &pos, &none, None, Some(2)).unwrap();
            assert_eq!(got(&scanned), want, "scan {}", s.sfen);
            // What is printed of each hit is the same: the scan's rows cut to the columns
            // the database reads.
            let narrowed: Vec<Hit> = scanned.hits.iter().map(narrow).collect();
            assert_eq!(narrowed, found.hits, "scan rows {}", s.sfen);
        }
    }
    assert!(multi > 30, "too few shared positions to test: {multi}");
    for sfen in absent(&all, 30) {
        let pos = target(&sfen);
        assert!(find(&f.db, &pos, &none, None).unwrap().hits.is_empty());
    }
    // The start position: every game from it, at ply 0.
    let start = target("startpos");
    let want = expected(
        &all,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
    );
    let found = find(&f.db, &start, &none, Some(5)).unwrap();
    assert_eq!(found.total, want.len());
    assert_eq!(got(&found), want[..5]);
}

/// The `meta` flag saying whether game ids follow path order (the streaming `find`).
fn ids_in_path_order(db: &Path) -> Option<String> {
    Connection::open(db)
        .unwrap()
        .query_row(
            "SELECT value FROM meta WHERE name = 'ids_in_path_order'",
            [],
            |r| r.get(0),
        )
        .ok()
}

#[test]
fn streamed_find_agrees_with_brute_force_with_and_without_path_order() {
    // Generated games only: a fresh index of one folder has its ids in path order, so `find`
    // streams its hits from the index; after a file that sorts first is added they no longer
    // are, and `find` collects and sorts. Both must give brute force's hits, in its order,
    // with any limit.
    let f = fixture(false);
    let none = Selection::new();
    let check = |all: &[Seen], label: &str, chunk: usize| {
        let db = Db::open(&f.db).unwrap().with_stream_chunk(chunk);
        let mut rng = Rng(11);
        let mut picks: Vec<String> = (0..60)
            .map(|_| all[rng.below(all.len())].sfen.clone())
            .collect();
        picks.push("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -".into());
        picks.extend(absent(all, 3));
        for sfen in &picks {
            let pos = target(sfen);
            let want = expected(all, sfen);
            let found = db.find(&pos, &none, None).unwrap();
            assert_eq!(got(&found), want, "{label} {sfen}");
            let games: HashSet<_> = want.iter().map(|w| (&w.0, w.1)).collect();
            assert_eq!(
                (found.total, found.games),
                (want.len(), games.len()),
                "{label}"
            );
            for limit in [0, 1, 3] {
                let some = db.find(&pos, &none, Some(limit)).unwrap();
                let n = limit.min(want.len());
                assert_eq!(got(&some), want[..n], "{label} {sfen} limit {limit}");
                assert_eq!((some.total, some.games), (found.total, found.games));
                // Streamed, the hits and counts are those collected.
                let mut streamed = Vec::new();
                let counts = db
                    .find_each(&pos, &none, Some(limit), &mut |h| {
                        streamed.push(h.clone());
                        std::ops::ControlFlow::Continue(())
                    })
                    .unwrap();
                assert_eq!(streamed, some.hits, "{label} {sfen} limit {limit}");
                assert_eq!(counts, some.counts(), "{label} {sfen} limit {limit}");
            }
        }
    };
    let refs = [f.gen_dir.as_str()];
    assert_eq!(ids_in_path_order(&f.db).as_deref(), Some("1"));
    let all = brute_force(&refs);
    check(&all, "in path order", 16_384);
    // Many hits are read on several threads, in chunks of games: made small here so that
    // this database's common positions take that path.
    check(&all, "threaded", 3);
    // A file that sorts before every other, added by a second run: its games get the highest
    // ids.
    let gdir = Path::new(&f.gen_dir);
    let first = gdir.join("0-first");
    write_collection(&first, 77, 4, 2);
    // The same games again under the new name, so that the start position and early
    // positions have hits in it.
    for e in std::fs::read_dir(gdir.join("a")).unwrap().take(3) {
        let e = e.unwrap();
        std::fs::copy(e.path(), first.join(e.file_name())).unwrap();
    }
    index(&f.paths, &f.db, &opts()).unwrap();
    assert_eq!(ids_in_path_order(&f.db).as_deref(), Some("0"));
    check(&brute_force(&refs), "after an earlier file", 16_384);
}

#[test]
fn explore_counts_equal_brute_force() {
    let f = fixture(true);
    let refs: Vec<&str> = f.paths.iter().map(String::as_str).collect();
    let all = brute_force(&refs);
    let mut rng = Rng(11);
    let none = Selection::new();
    let mut samples: Vec<String> = vec![shogi_batch::start_text(
        &shogi_core::Position::startpos(shogi_core::Variant::Standard).to_sfen(),
    )];
    for _ in 0..60 {
        // Early positions are shared by many games.
        let s = &all[rng.below(all.len())];
        let early = all
            .iter()
            .find(|t| t.path == s.path && t.game == s.game && t.ply == s.ply.min(3))
            .unwrap();
        samples.push(early.sfen.clone());
    }
    for sfen in samples {
        let pos = target(&sfen);
        let table = explore_db(&f.db, &pos, &none).unwrap();
        // Counted in one pass over the rows: the same table as from the hits.
        assert_eq!(
            table,
            explore(&pos, &find(&f.db, &pos, &none, None).unwrap()),
            "{sfen}"
        );
        // Brute force: per move, the distinct games and their winners.
        let mut per: BTreeMap<String, BTreeMap<(String, u32), String>> = BTreeMap::new();
        let mut games = HashSet::new();
        for s in all.iter().filter(|s| s.sfen == sfen) {
            games.insert((s.path.clone(), s.game));
            if let Some(m) = &s.next {
                per.entry(m.clone())
                    .or_default()
                    .insert((s.path.clone(), s.game), s.row.winner.name().to_string());
            }
        }
        assert_eq!(table.games as usize, games.len(), "{sfen}");
        assert_eq!(table.moves.len(), per.len(), "{sfen}");
        for line in &table.moves {
            let g = &per[&line.usi];
            let count = |w: &str| g.values().filter(|x| *x == w).count() as u32;
            assert_eq!(line.games as usize, g.len(), "{sfen} {}", line.usi);
            assert_eq!(line.sente_wins, count("sente"));
            assert_eq!(line.gote_wins, count("gote"));
            assert_eq!(line.draws, count("draw"));
            assert_eq!(
                line.games,
                line.sente_wins + line.gote_wins + line.draws + line.unfinished
            );
        }
        let mut sorted = table.moves.clone();
        sorted.sort_by(|a, b| b.games.cmp(&a.games).then(a.usi.cmp(&b.usi)));
        assert_eq!(sorted, table.moves);
    }
}

#[test]
fn invalid_games_are_indexed_and_marked() {
    let f = fixture(false);
    let conn = Connection::open(&f.db).unwrap();
    let (n, with_error): (i64, i64) = conn
        .query_row(
            "SELECT count(*), count(first_error) FROM games WHERE valid = 0",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(n > 0);
    assert_eq!(n, with_error);
    // Indexed up to the error: their positions are there.
    let invalid_positions: i64 = conn
        .query_row(
            "SELECT count(*) FROM positions p JOIN games g ON g.id = p.game_id WHERE g.valid = 0",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(invalid_positions > 0);
    // Their positions are those of the record read up to the error, as brute force sees them.
    let all = brute_force(&[f.gen_dir.as_str()]);
    let stored: i64 = conn
        .query_row("SELECT count(*) FROM positions", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored as usize, all.len());
}

#[test]
fn selection_filters_apply_to_find_and_explore() {
    let f = fixture(false);
    let all = brute_force(&[f.gen_dir.as_str()]);
    let start = target("startpos");
    let second = all.iter().find(|s| s.ply == 2).unwrap().sfen.clone();
    let day = |d: &str| d.parse::<shogi_batch::Day>().unwrap();
    let new = Selection::new;
    let filters: Vec<(&str, Selection)> = vec![
        ("player tanaka", new().player("tanaka")),
        (
            "sente sato, winner gote",
            new().sente("sato").winner(shogi_kif::Winner::Gote),
        ),
        ("since 2024-06-01", new().since(day("2024-06-01"))),
        (
            "until 2024-03-31, min plies 20",
            new().until(day("2024-03-31")).min_plies(20),
        ),
        ("ending abort", new().ending("abort".parse().unwrap())),
        ("min rating 2000", new().min_rating(2000.0)),
        ("max plies 25", new().max_plies(25)),
        ("invalid", new().valid(false)),
        (
            "position",
            new().passes_through(shogi_batch::filter_text::position(&second).unwrap()),
        ),
    ];
    for (pairs, sel) in &filters {
        let found = find(&f.db, &start, sel, None).unwrap();
        let scanned = scan(&[f.gen_dir.as_str()], &start, sel, None, Some(1)).unwrap();
        assert_eq!(got(&found), got(&scanned), "{pairs:?}");
        // Brute force over rows, the position filter by text.
        let want: Vec<_> = all
            .iter()
            .filter(|s| s.ply == 0)
            .filter(|s| {
                let reached = |p: &shogi_core::Position| {
                    all.iter().any(|t| {
                        t.path == s.path
                            && t.game == s.game
                            && t.sfen == shogi_batch::start_text(&p.to_sfen())
                    })
                };
                sel.matches(&s.row, reached)
            })
            .map(|s| (s.path.clone(), s.game, 0, s.next.clone()))
            .collect();
        let mut want = want;
        want.sort();
        assert!(!want.is_empty(), "{pairs:?} selects nothing: a weak test");
        assert!(
            want.len() < all.iter().filter(|s| s.ply == 0).count(),
            "{pairs:?}"
        );
        assert_eq!(got(&found), want, "{pairs:?}");
        let table = explore(&start, &found);
        assert_eq!(table.games as usize, want.len());
    }
}

/// Every table as text rows, without ids (which depend on the order of writes).
fn dump(db: &Path) -> Vec<String> {
    let conn = Connection::open(db).unwrap();
    let cols = shogi_batch::COLUMNS.join(", ");
    let mut out = Vec::new();
    for sql in [
        "SELECT path, size, mtime_ns, hash, games FROM files ORDER BY path".to_string(),
        format!(
            "SELECT (SELECT path FROM files f WHERE f.id = g.file_id), {cols}, moves FROM games g ORDER BY path, game"
        ),
        "SELECT g.path, g.game, p.ply, p.key, p.move FROM positions p JOIN games g ON g.id = p.game_id ORDER BY 1, 2, 3".to_string(),
        "SELECT count(*) FROM positions".to_string(),
    ] {
        let mut st = conn.prepare(&sql).unwrap();
        let n = st.column_count();
        let rows = st
            .query_map([], |r| {
                let mut s = String::new();
                for i in 0..n {
                    let v: rusqlite::types::Value = r.get(i)?;
                    s.push_str(&format!("{v:?}|"));
                }
                Ok(s)
            })
            .unwrap();
        for r in rows {
            out.push(r.unwrap());
        }
    }
    out
}

fn fresh_dump(paths: &[String]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fresh.sqlite");
    index(paths, &db, &opts()).unwrap();
    dump(&db)
}

#[test]
fn reindex_after_changes_equals_fresh_index() {
    let f = fixture(false);
    let before = dump(&f.db);
    // Nothing changed: nothing read.
    let r = index(&f.paths, &f.db, &opts()).unwrap();
    assert_eq!(
        (r.files_read, r.files_removed, r.games_added),
        (0, 0, 0),
        "{r:?}"
    );
    assert_eq!(dump(&f.db), before);
    let gdir = Path::new(&f.gen_dir);
    // Add, change, delete, and touch without changing.
    write_collection(&gdir.join("new"), 99, 3, 3);
    std::fs::write(
        gdir.join("a/g001.csa"),
        common::csa_game(
            &common::random_game(&mut Rng(5), 30, 0),
            ("X", "Y"),
            Some("2025/01/01"),
            "%TORYO",
            None,
            None,
        ),
    )
    .unwrap();
    std::fs::remove_file(gdir.join("a/g002.csa")).unwrap();
    // A copy: its games become duplicates of the original's.
    std::fs::copy(gdir.join("a/g005.csa"), gdir.join("new/copy.csa")).unwrap();
    let touched = gdir.join("a/g004.csa");
    let text = std::fs::read(&touched).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&touched, &text).unwrap();
    let r = index(&f.paths, &f.db, &opts()).unwrap();
    assert!(!r.created);
    assert_eq!(r.files_read, 5, "{r:?}");
    assert_eq!(r.files_removed, 1, "{r:?}");
    let copies: i64 = Connection::open(&f.db)
        .unwrap()
        .query_row(
            "SELECT count(*) FROM games WHERE path LIKE '%/new/copy.csa' AND duplicate_of LIKE '%/a/g005.csa#%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(copies > 0);
    let after = dump(&f.db);
    assert_ne!(after, before);
    assert_eq!(after, fresh_dump(&f.paths));
    // A folder removed entirely.
    std::fs::remove_dir_all(gdir.join("new")).unwrap();
    let r = index(&f.paths, &f.db, &opts()).unwrap();
    assert_eq!(r.files_removed, 4, "{r:?}");
    assert_eq!(dump(&f.db), fresh_dump(&f.paths));
}

/// Runs one index in a child process that aborts (as if killed) after `after` games.
fn index_killed(paths: &[String], db: &Path, after: u64) {
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "db::child_index",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(
            "SHOGI_DB_CHILD",
            format!("{after}\n{}\n{}", db.display(), paths.join("\n")),
        )
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(!status.success(), "the child was to abort");
}

/// Not a test by itself: the child of [`index_killed`].
#[test]
fn child_index() {
    let Ok(spec) = std::env::var("SHOGI_DB_CHILD") else {
        return;
    };
    let mut lines = spec.lines();
    let after: u64 = lines.next().unwrap().parse().unwrap();
    let db = PathBuf::from(lines.next().unwrap());
    let paths: Vec<String> = lines.map(str::to_string).collect();
    let o = IndexOptions {
        abort_after: Some(after),
        ..opts()
    };
    let _ = index(&paths, &db, &o);
    unreachable!("the index was to abort");
}

#[test]
fn interrupted_index_leaves_a_usable_database() {
    let f = fixture(false);
    let before = dump(&f.db);
    let gdir = Path::new(&f.gen_dir);
    write_collection(&gdir.join("more"), 7, 20, 4);
    std::fs::remove_file(gdir.join("a/g001.csa")).unwrap();
    // Killed in the middle of an update: the previous database, as it was.
    index_killed(&f.paths, &f.db, 10);
    assert_eq!(dump(&f.db), before);
    let start = target("startpos");
    assert!(find(&f.db, &start, &Selection::new(), None).unwrap().total > 0);
    // And the next run completes it.
    let r = index(&f.paths, &f.db, &opts()).unwrap();
    assert_eq!(r.files_read, 20, "{r:?}");
    assert_eq!(dump(&f.db), fresh_dump(&f.paths));
    // Killed while building a new one: no database at all, and the next run builds it.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("new.sqlite");
    index_killed(&f.paths, &db, 30);
    assert!(!db.exists());
    let partials = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".partial-"))
            .collect::<Vec<_>>()
    };
    // The killed run's partial file is there until the next run removes it; a partial
    // file of a running process is left alone.
    assert_eq!(partials().len(), 1, "{:?}", partials());
    let mut live = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let live_name = format!(".new.sqlite.partial-{}", live.id());
    std::fs::write(dir.path().join(&live_name), b"x").unwrap();
    index(&f.paths, &db, &opts()).unwrap();
    assert_eq!(partials(), vec![live_name]);
    let _ = live.kill();
    let _ = live.wait();
    assert_eq!(dump(&db), fresh_dump(&f.paths));
}

/// A build whose position rows do not fit the memory given spills them to files beside the
/// database and writes them in one sorted pass at the end: the same database, and the files
/// are gone after.
#[test]
fn positions_written_in_runs_equal_one_run() {
    let f = fixture(false);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    let o = IndexOptions {
        memory_rows: Some(700),
        ..opts()
    };
    // A spill folder left by a run that was killed (its process is gone) is removed.
    let stale = dir.path().join(".runs.sqlite.partial-4294967295-rows");
    std::fs::create_dir(&stale).unwrap();
    std::fs::write(stale.join("000"), [0u8; 22]).unwrap();
    index(&f.paths, &db, &o).unwrap();
    assert_eq!(dump(&db), dump(&f.db));
    // An update that spills too: the rows of both runs, as one fresh run writes them.
    write_collection(&Path::new(&f.gen_dir).join("more"), 8, 12, 4);
    index(&f.paths, &db, &o).unwrap();
    assert_eq!(dump(&db), fresh_dump(&f.paths));
    // Nothing is left beside the database: no partial file, no spilled rows.
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "runs.sqlite")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Should the one hit replayed to confirm a key and check key not be the position (a
/// collision, made here by hand), every hit is replayed: the answer stays exact.
#[test]
fn a_hash_collision_falls_back_to_replaying_every_hit() {
    let f = fixture(false);
    let all = brute_force(&[f.gen_dir.as_str()]);
    let conn = Connection::open(&f.db).unwrap();
    let first_game: i64 = conn
        .query_row("SELECT min(id) FROM games", [], |r| r.get(0))
        .unwrap();
    let first_path: String = conn
        .query_row("SELECT path FROM games WHERE id = ?1", [first_game], |r| {
            r.get(0)
        })
        .unwrap();
    // A position of several games, not of the first game.
    let s = all
        .iter()
        .filter(|s| s.path != first_path && s.ply == 2)
        .find(|s| {
            expected(&all, &s.sfen).len() > 1
                && !all.iter().any(|t| t.path == first_path && t.sfen == s.sfen)
        })
        .unwrap();
    let pos = target(&s.sfen);
    let want = expected(&all, &s.sfen);
    // The first game's position at ply 5 now claims the keys of `pos`.
    let changed = conn
        .execute(
            "UPDATE positions SET key = ?1, check_key = ?2 WHERE game_id = ?3 AND ply = 5",
            rusqlite::params![
                shogi_db::position_key(&pos),
                shogi_db::key::check_key(&pos),
                first_game
            ],
        )
        .unwrap();
    assert_eq!(changed, 1);
    drop(conn);
    let none = Selection::new();
    assert_eq!(got(&find(&f.db, &pos, &none, None).unwrap()), want);
    let table = explore_db(&f.db, &pos, &none).unwrap();
    assert_eq!(table.games as usize, want.len());
}

#[test]
fn bad_databases_are_refused_and_left_untouched() {
    let f = fixture(false);
    let bytes = std::fs::read(&f.db).unwrap();
    let start = target("startpos");
    let none = Selection::new();
    let dir = tempfile::tempdir().unwrap();
    let name = |e: &shogi_db::DbError, p: &Path| assert_eq!(e.path, p.display().to_string());

    // `index` and `find` both refuse `p`, naming it, with `want` in the message, and leave it
    // as it was.
    let refused = |p: &Path, want: &str| {
        let before = std::fs::read(p).unwrap();
        let e = index(&f.paths, p, &opts()).unwrap_err();
        name(&e, p);
        assert!(e.message.contains(want), "{e}");
        let e = find(p, &start, &none, None).unwrap_err();
        assert!(e.message.contains(want), "{e}");
        assert_eq!(std::fs::read(p).unwrap(), before);
    };

    // Another schema version.
    let other = dir.path().join("older.sqlite");
    std::fs::copy(&f.db, &other).unwrap();
    let older = shogi_db::SCHEMA_VERSION - 1;
    Connection::open(&other)
        .unwrap()
        .execute_batch(&format!("PRAGMA user_version = {older}"))
        .unwrap();
    refused(&other, &format!("schema version {older}"));

    // A corrupt file, and a SQLite file of something else.
    let junk = dir.path().join("junk.sqlite");
    std::fs::write(
        &junk,
        b"this is not a database at all, just some bytes\n".repeat(100),
    )
    .unwrap();
    refused(&junk, "not a SQLite database");
    let foreign = dir.path().join("foreign.sqlite");
    Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    let foreign_bytes = std::fs::read(&foreign).unwrap();
    let e = index(&f.paths, &foreign, &opts()).unwrap_err();
    assert!(e.message.contains("not a shogi game database"), "{e}");
    assert_eq!(std::fs::read(&foreign).unwrap(), foreign_bytes);

    // A path that vanished.
    let gone = format!("{}/nothing-here", f.gen_dir);
    let e = index(&[gone.as_str()], &f.db, &opts()).unwrap_err();
    assert_eq!(e.path, gone);
    assert!(e.message.contains("no such file"), "{e}");
    let e = find(&dir.path().join("none.sqlite"), &start, &none, None).unwrap_err();
    assert!(e.message.contains("no such file"), "{e}");

    // A locked database.
    let lock = Connection::open(&f.db).unwrap();
    lock.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let e = index(&f.paths, &f.db, &opts()).unwrap_err();
    name(&e, &f.db);
    assert!(e.message.contains("locked"), "{e}");
    lock.execute_batch("ROLLBACK").unwrap();
    drop(lock);
    assert_eq!(std::fs::read(&f.db).unwrap(), bytes);
}

#[test]
fn a_damaged_stored_move_is_an_error_naming_the_database() {
    let f = fixture(false);
    let start = target("startpos");
    let none = Selection::new();
    let before = find(&f.db, &start, &none, None).unwrap();
    assert!(before.hits.iter().all(|h| h.next_move.is_some()));
    let conn = Connection::open(&f.db).unwrap();
    conn.execute("UPDATE positions SET move = 'zz' WHERE ply = 0", [])
        .unwrap();
    drop(conn);
    let e = find(&f.db, &start, &none, None).unwrap_err().to_string();
    assert!(e.contains("games.sqlite") && e.contains("'zz'"), "{e}");
}

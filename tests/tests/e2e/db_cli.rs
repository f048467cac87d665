//! `shogi index`, `shogi find` and `shogi explore` end to end on samples/ (one game in five
//! formats, and a Mini Shogi game). Every snapshot was read and checked by hand.

use crate::common;

use common::{assert_contains, assert_starts_with, code, scratch, shogi, shogi_ok, stderr, stdout};

/// A database of samples/ in a scratch folder.
fn samples_db(name: &str) -> String {
    let dir = scratch(name);
    let db = dir.join("samples.sqlite").display().to_string();
    let out = shogi_ok(&["index", "samples/", "--db", &db]);
    assert!(
        stdout(&out)
            .contains("created; 6 files read, 0 unchanged, 0 removed; 6 games added (0 invalid)"),
        "{}",
        stdout(&out)
    );
    db
}

#[test]
fn find_and_explore_the_samples() {
    let db = samples_db("db-find");
    let out = shogi_ok(&["find", "startpos", "--db", &db]);
    insta::assert_snapshot!("find_startpos_text", stdout(&out));
    // The position after 3 plies of samples/game.kif, as CSV; the scan gives the same.
    let args = ["find", "samples/game.kif", "--ply", "3", "--format", "csv"];
    let with_db = shogi(&[&args[..], &["--db", &db]].concat());
    assert_eq!(code(&with_db), 0, "{}", stderr(&with_db));
    insta::assert_snapshot!("find_ply3_csv", stdout(&with_db));
    let scanned = shogi(&[&args[..], &["samples/"]].concat());
    assert_eq!(stdout(&scanned), stdout(&with_db));
    let out = shogi(&[
        "find", "startpos", "--db", &db, "--format", "jsonl", "--limit", "1",
    ]);
    insta::assert_snapshot!("find_startpos_jsonl_limit", stdout(&out));
    let explore = |position: &str, extra: &[&str]| {
        shogi(&[&["explore", position, "--db", &db][..], extra].concat())
    };
    let out = explore("startpos", &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    insta::assert_snapshot!("explore_startpos_text", stdout(&out));
    let out = explore("startpos moves 7g7f", &["--format", "json"]);
    insta::assert_snapshot!("explore_7g7f_json", stdout(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["moves"][0]["usi"], "8c8d");
    assert_eq!(json["moves"][0]["move"], "8c8d");
    assert_eq!(json["moves"][0]["games"], 5);
    // Moves named in Japanese and Western notation; JSON keeps `usi`.
    let out = explore("startpos", &["--notation", "japanese"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    insta::assert_snapshot!("explore_startpos_japanese", stdout(&out));
    let out = explore(
        "startpos moves 7g7f",
        &["--format", "json", "--notation", "western"],
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["moves"][0]["usi"], "8c8d");
    assert_eq!(json["moves"][0]["move"], "P-8d");
    let out = explore(
        "startpos moves 7g7f",
        &["--format", "csv", "--notation", "ja"],
    );
    assert!(
        stdout(&out).starts_with("usi,move,games,") && stdout(&out).contains("\n8c8d,△８四歩,5,"),
        "{}",
        stdout(&out)
    );
    // The selection of `stats` applies.
    let out = shogi(&[
        "find", "startpos", "--db", &db, "--winner", "gote", "--format", "csv",
    ]);
    assert_eq!(stdout(&out).lines().count(), 1 + 4, "{}", stdout(&out));
    // Mini Shogi's start, found only in samples/mini.kif, and not among standard games.
    let mini = "rbsgk/4p/5/P4/KGSBR b -";
    let out = explore(mini, &[]);
    insta::assert_snapshot!("explore_mini_text", stdout(&out));
    let out = explore(mini, &["--variant", "standard"]);
    assert_contains(&stdout(&out), "games: 0\n");
    // A position in no game.
    let out = shogi(&["find", "startpos moves 1g1f", "--db", &db]);
    assert_eq!(stdout(&out), "0 occurrences in 0 games\n");
}

/// `--from` and `--encoding` as `check` takes them: a KIF file read as CSA is a game of no
/// moves (every line an unknown statement), read as Shift_JIS it is unreadable, read as
/// KIF in UTF-8 it is the game of 30 moves.
#[test]
fn index_reads_with_from_and_encoding() {
    let dir = scratch("db-from");
    for (name, flags, want) in [
        (
            "a",
            &["--from", "csa"][..],
            "1 game added (0 invalid), 0 removed; 1 positions;",
        ),
        (
            "sjis",
            &["--encoding", "sjis"],
            "1 game added (1 invalid), 0 removed; 0 positions;",
        ),
        (
            "b",
            &["--from", "kif", "--encoding", "utf8"],
            "1 game added (0 invalid), 0 removed; 31 positions;",
        ),
    ] {
        let db = dir.join(format!("{name}.sqlite")).display().to_string();
        let args = [&["index", "samples/game.kif", "--db", &db][..], flags].concat();
        assert_contains(&stdout(&shogi_ok(&args)), want);
    }
}

#[test]
fn bad_databases_and_arguments_exit_2_naming_the_file() {
    let dir = scratch("db-bad");
    let junk = dir.join("junk.sqlite");
    std::fs::write(&junk, "not a database\n".repeat(200)).unwrap();
    let junk = junk.display().to_string();
    for args in [
        vec!["index", "samples/", "--db", &junk],
        vec!["find", "startpos", "--db", &junk],
        vec!["explore", "startpos", "--db", &junk],
    ] {
        let out = shogi(&args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert_starts_with(
            &stderr(&out),
            &format!("error: {junk}: not a SQLite database"),
        );
    }
    assert_eq!(
        std::fs::read_to_string(&junk).unwrap(),
        "not a database\n".repeat(200)
    );
    let db = dir.join("db.sqlite").display().to_string();
    let out = shogi(&["index", "samples/nothing-here", "--db", &db]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: samples/nothing-here: no such file or directory\n"
    );
    assert!(!std::path::Path::new(&db).exists());
    let out = shogi(&["find", "startpos"]);
    assert_eq!(code(&out), 2);
    assert_contains(&stderr(&out), "--db");
    let out = shogi(&["find", "lnsgkgsnl/9/9 b - 1", "samples/"]);
    assert_eq!(code(&out), 2);
    assert_starts_with(&stderr(&out), "error: lnsgkgsnl/9/9 b - 1: not a position");
    let out = shogi(&["find", "startpos", "samples/", "--since", "yesterday"]);
    assert_eq!(code(&out), 2);
    assert_contains(&stderr(&out), "--since");
}

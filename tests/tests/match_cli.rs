//! `shogi match` end to end: bad input refused before any game (exit 2, nothing overwritten),
//! and short matches between the real Debian engines (fairy-stockfish against gpsusi, and
//! fairy-stockfish against itself in Mini Shogi), two games at once, every record read back
//! valid with the result the referee gave and no loss on time.

mod common;

use common::{code, scratch, shogi, stderr, stdout};
use shogi_kif::{ReadOptions, read_path};
use shogi_train::GameResult;
use shogi_train::game_result;
use shogi_usi::testing::{fairy_stockfish, fake_engine_path, gpsusi};
use std::path::Path;

fn fake() -> String {
    fake_engine_path().display().to_string()
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    let f = fake();
    let dir = scratch("match-bad");
    let e = |s: &str| format!("{s}={f}");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "--engine".into(),
                "a=/no/such/engine".into(),
                "--engine".into(),
                e("b"),
                "--byoyomi".into(),
                "100".into(),
            ],
            "does not exist",
        ),
        (
            vec![
                "--engine".into(),
                e("a"),
                "--engine".into(),
                e("a"),
                "--byoyomi".into(),
                "100".into(),
            ],
            "two engines are named \"a\"",
        ),
        (
            vec!["--engine".into(), e("a"), "--engine".into(), e("b")],
            "no time control",
        ),
        (
            vec![
                "--engine".into(),
                e("a"),
                "--engine".into(),
                e("b"),
                "--byoyomi".into(),
                "100".into(),
                "--inc".into(),
                "100".into(),
            ],
            "exclude each other",
        ),
        (
            vec!["--engine".into(), e("a"), "--byoyomi".into(), "100".into()],
            "needs exactly 2",
        ),
        (
            vec![
                "--engine".into(),
                e("a"),
                "--engine".into(),
                format!("b={f},NoSuchOption=1"),
                "--byoyomi".into(),
                "100".into(),
            ],
            "engine b",
        ),
        (
            vec![
                "--engine".into(),
                e("a"),
                "--engine".into(),
                e("b"),
                "--byoyomi".into(),
                "100".into(),
                "--sprt".into(),
                "5,0".into(),
            ],
            "--sprt",
        ),
        (
            vec![
                "--engine".into(),
                e("a"),
                "--engine".into(),
                e("b"),
                "--byoyomi".into(),
                "100".into(),
                "--out".into(),
                dir.join("x.kif").display().to_string(),
                "--out-format".into(),
                "kif".into(),
            ],
            "--out-dir for KIF",
        ),
    ];
    for (args, want) in cases {
        let mut argv = vec!["match"];
        argv.extend(args.iter().map(String::as_str));
        let o = shogi(&argv);
        assert_eq!(code(&o), 2, "{argv:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{argv:?}: {}", stderr(&o));
    }
    // Not a USI engine: a program that exits at once.
    if Path::new("/bin/true").exists() {
        let o = shogi(&[
            "match",
            "--engine",
            "a=/bin/true",
            "--engine",
            &e("b"),
            "--byoyomi",
            "100",
        ]);
        assert_eq!(code(&o), 2);
        assert!(stderr(&o).contains("is not a USI engine"), "{}", stderr(&o));
    }
    // An opening file with a bad line: located.
    let openings = dir.join("o.txt");
    std::fs::write(
        &openings,
        "position startpos moves 7g7f\nposition startpos moves 7g7f 8c8e\n",
    )
    .unwrap();
    let o = shogi(&[
        "match",
        "--engine",
        &e("a"),
        "--engine",
        &e("b"),
        "--byoyomi",
        "100",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("o.txt:2:"), "{}", stderr(&o));
    // An output that exists, without --resume: refused, untouched.
    let out = dir.join("games.csa");
    std::fs::write(&out, "keep me\n").unwrap();
    let o = shogi(&[
        "match",
        "--engine",
        &e("a"),
        "--engine",
        &e("b"),
        "--byoyomi",
        "100",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("exists"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me\n");
    // gpsusi aborts on go nodes: refused up front.
    if let Some(gps) = gpsusi() {
        let o = shogi(&[
            "match",
            "--engine",
            &format!("g={}", gps.display()),
            "--engine",
            &e("b"),
            "--nodes",
            "1000",
        ]);
        assert_eq!(code(&o), 2);
        assert!(stderr(&o).contains("aborts on go nodes"), "{}", stderr(&o));
    }
}

#[test]
fn a_fake_match_writes_records_and_a_json_summary() {
    let f = fake();
    let dir = scratch("match-fake");
    let out = dir.join("games");
    let o = shogi(&[
        "match",
        "--engine",
        &format!("a={f}"),
        "--engine",
        &format!("b={f},arg=--play,arg=last"),
        "--games",
        "4",
        "--jobs",
        "2",
        "--byoyomi",
        "200",
        "--max-plies",
        "30",
        "--out-dir",
        out.to_str().unwrap(),
        "--out-format",
        "csa,kif",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["pairings"][0]["pairs"], 2);
    assert_eq!(stderr(&o).lines().filter(|l| l.starts_with('[')).count(), 4);
    check_records(&out, 4, &stderr(&o));
    for i in 1..=4 {
        assert!(out.join(format!("game-{i:04}.kifu")).is_file());
    }
    // Run again: refused; with --resume: nothing left to play.
    let again = |resume: bool| {
        let mut a = vec![
            "match",
            "--engine",
            "a=X",
            "--engine",
            "b=X",
            "--games",
            "4",
            "--jobs",
            "2",
            "--byoyomi",
            "200",
            "--max-plies",
            "30",
            "--out-dir",
            out.to_str().unwrap(),
            "--out-format",
            "csa,kif",
            "--format",
            "json",
        ];
        if resume {
            a.push("--resume");
        }
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let fa = format!("a={f}");
    let fb = format!("b={f},arg=--play,arg=last");
    let fix = |v: Vec<String>| -> Vec<String> {
        v.into_iter()
            .map(|s| {
                if s == "a=X" {
                    fa.clone()
                } else if s == "b=X" {
                    fb.clone()
                } else {
                    s
                }
            })
            .collect()
    };
    let args = fix(again(false));
    let o = shogi(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let args = fix(again(true));
    let o = shogi(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["terminations"]["resumed"], 4);
}

/// Every game file reads back valid, with the result the live line on stderr gave.
fn check_records(dir: &Path, games: usize, live: &str) {
    for i in 1..=games {
        let path = dir.join(format!("game-{i:04}.csa"));
        let record = read_path(&path, ReadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let result = game_result(&record);
        let line = live
            .lines()
            .find(|l| l.contains(&format!("] game {i} ")))
            .unwrap_or_else(|| panic!("no live line for game {i}:\n{live}"));
        let want = if line.contains(": 1-0 (") {
            GameResult::BlackWin
        } else if line.contains(": 0-1 (") {
            GameResult::WhiteWin
        } else {
            GameResult::Draw
        };
        assert_eq!(
            result,
            Some(want),
            "{line}\n{}",
            std::fs::read_to_string(&path).unwrap()
        );
    }
}

/// No game lost on time. The tests give a margin of 300 ms over byoyomi 100-200 so that a
/// loaded machine (these tests share 2 cores with compilers) does not flag a side; our own
/// overhead per move, which the referee adds between a `bestmove` and the next `go`, is in the
/// summary and measured by `scripts/bench-match.sh`.
fn assert_no_time_loss(summary: &serde_json::Value, live: &str) {
    eprintln!(
        "overhead per move: median {} µs, p99 {} µs",
        summary["overhead_us_median"], summary["overhead_us_p99"]
    );
    assert!(
        summary["terminations"].get("time_up").is_none(),
        "a loss on time:\n{live}"
    );
}

#[test]
fn fairy_stockfish_against_gpsusi_two_games_at_once() {
    let (Some(fairy), Some(gps)) = (fairy_stockfish(), gpsusi()) else {
        return;
    };
    let dir = scratch("match-real");
    let out = dir.join("games");
    // gpsusi: no setoption at all (it would save an advertised option as its new default).
    // gpsusi took 0.9-1.2 s for `go byoyomi 200` on a loaded machine (load 12 on 2 cores), so
    // it gets a byoyomi of 1 s; 24 plies keep the games short (its opening book answers at once).
    let o = shogi(&[
        "match",
        "--engine",
        &format!("fairy={}", fairy.display()),
        "--engine",
        &format!("gps={}", gps.display()),
        "--games",
        "2",
        "--jobs",
        "2",
        "--byoyomi",
        "1000",
        "--max-plies",
        "24",
        "--time-margin",
        "500",
        "--out-dir",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(summary["games"], 2, "{}", stdout(&o));
    check_records(&out, 2, &stderr(&o));
    assert_no_time_loss(&summary, &stderr(&o));
}

#[test]
fn fairy_stockfish_against_itself_in_mini_shogi() {
    let Some(fairy) = fairy_stockfish() else {
        return;
    };
    let dir = scratch("match-mini");
    let out = dir.join("mini.csa");
    let o = shogi(&[
        "match",
        "--engine",
        &format!("a={}", fairy.display()),
        "--engine",
        &format!("b={}", fairy.display()),
        "--variant",
        "mini",
        "--games",
        "2",
        "--jobs",
        "2",
        "--byoyomi",
        "100",
        "--max-plies",
        "80",
        "--time-margin",
        "300",
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(summary["games"], 2);
    assert_no_time_loss(&summary, &stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    let games: Vec<_> = shogi_kif::Reader::new(text.as_bytes(), ReadOptions::default())
        .unwrap()
        .collect();
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(g.is_valid(), "{:?}\n{text}", g.error);
        assert_eq!(g.record.start.variant(), shogi_core::Variant::Mini);
        assert!(game_result(&g.record).is_some());
    }
}

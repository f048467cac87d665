//! `shogi match` end to end: bad input refused before any game (exit 2, nothing overwritten),
//! and short matches between the real Debian engines (fairy-stockfish against gpsusi, and
//! fairy-stockfish against itself in Mini Shogi), two games at once, every record read back
//! valid with the result the referee gave and no loss on time.

use crate::common;

use common::{Output, assert_contains, code, scratch, shogi, stderr, stdout};
use shogi_kif::{ReadOptions, read_path};
use shogi_train::GameResult;
use shogi_train::game_result;
use shogi_usi::testing::{fairy_stockfish, fake_engine_path, gpsusi};
use std::path::Path;

fn fake() -> String {
    fake_engine_path().display().to_string()
}

/// `shogi match` with one `--engine` for each of `engines`, then `extra`.
fn run_match(engines: &[&str], extra: &[&str]) -> Output {
    let mut argv = vec!["match"];
    for e in engines {
        argv.extend(["--engine", e]);
    }
    argv.extend_from_slice(extra);
    shogi(&argv)
}

/// `run_match` that must exit 0 with a JSON summary of `games` games, none lost on time.
#[track_caller]
fn json_match(engines: &[&str], extra: &[&str], games: u64) -> (serde_json::Value, String) {
    let o = run_match(engines, &[extra, &["--format", "json"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(summary["games"], games, "{}", stdout(&o));
    assert_no_time_loss(&summary, &stderr(&o));
    (summary, stderr(&o))
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    let f = fake();
    let dir = scratch("match-bad");
    let (a, b) = (format!("a={f}"), format!("b={f}"));
    let (a, b) = (a.as_str(), b.as_str());
    let bad_option = format!("b={f},NoSuchOption=1");
    let kif_out = dir.join("x.kif").display().to_string();
    let csa_out = dir.join("x.csa").display().to_string();
    // An opening file with a bad line: located.
    let openings = dir.join("o.txt");
    std::fs::write(
        &openings,
        "position startpos moves 7g7f\nposition startpos moves 7g7f 8c8e\n",
    )
    .unwrap();
    let openings = openings.display().to_string();
    // An output that exists, without --resume: refused, untouched.
    let out = dir.join("games.csa");
    std::fs::write(&out, "keep me\n").unwrap();
    let out_arg = out.display().to_string();
    let by = ["--byoyomi", "100"];
    let mut cases: Vec<(Vec<&str>, Vec<&str>, &str)> = vec![
        (vec!["a=/no/such/engine", b], by.to_vec(), "does not exist"),
        (vec![a, a], by.to_vec(), "two engines are named \"a\""),
        (vec![a, b], vec![], "no time control"),
        (
            vec![a, b],
            [&by[..], &["--inc", "100"]].concat(),
            "exclude each other",
        ),
        (vec![a], by.to_vec(), "needs exactly 2"),
        (vec![a, &bad_option], by.to_vec(), "engine b"),
        (vec![a, b], [&by[..], &["--sprt", "5,0"]].concat(), "--sprt"),
        (
            vec![a, b],
            [&by[..], &["--out", &kif_out, "--out-format", "kif"]].concat(),
            "KIF holds one game per file",
        ),
        (
            vec![a, b],
            [&by[..], &["--out", &csa_out, "--out-format", "csa,csa2"]].concat(),
            "one file takes one format",
        ),
        (
            vec![a, b],
            [&by[..], &["--sprt-model", "bayesian"]].concat(),
            "--sprt",
        ),
        (
            vec![a, b],
            [&by[..], &["--sprt", "0,5", "--sprt-model", "gsprt"]].concat(),
            "unknown SPRT model",
        ),
        (
            vec![a, b],
            [&by[..], &["--openings", &openings]].concat(),
            "o.txt:2:",
        ),
        (
            vec![a, b],
            [&by[..], &["--out", &out_arg]].concat(),
            "exists",
        ),
        // The library names the setting; the CLI words it as its flag (Python: its keyword).
        (
            vec![a, b],
            vec!["--movetime", "10", "--nodes", "10"],
            "error: --movetime and --nodes exclude each other",
        ),
        (
            vec![a, b],
            [&by[..], &["--games", "0"]].concat(),
            "error: --games 0: nothing to play",
        ),
    ];
    // Not a USI engine: a program that exits at once.
    if Path::new("/bin/true").exists() {
        cases.push((vec!["a=/bin/true", b], by.to_vec(), "is not a USI engine"));
    }
    // gpsusi aborts on go nodes: refused up front.
    let gps = gpsusi().map(|g| format!("g={}", g.display()));
    if let Some(g) = &gps {
        cases.push((vec![g, b], vec!["--nodes", "1000"], "aborts on go nodes"));
    }
    for (engines, extra, want) in cases {
        let o = run_match(&engines, &extra);
        assert_eq!(code(&o), 2, "{engines:?} {extra:?}: {}", stderr(&o));
        assert_contains(&stderr(&o), want);
    }
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me\n");
}

#[test]
fn a_fake_match_writes_records_and_a_json_summary() {
    let f = fake();
    let dir = scratch("match-fake");
    let out = dir.join("games");
    let engines = [format!("a={f}"), format!("b={f},arg=--play,arg=last")];
    let engines = [engines[0].as_str(), engines[1].as_str()];
    let args = |more: &[&'static str]| {
        let mut a = vec![
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
        a.extend_from_slice(more);
        a
    };
    let o = run_match(&engines, &args(&[]));
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
    let o = run_match(&engines, &args(&[]));
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = run_match(&engines, &args(&["--resume"]));
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
    let engines = [
        format!("fairy={}", fairy.display()),
        format!("gps={}", gps.display()),
    ];
    let (_, live) = json_match(
        &[&engines[0], &engines[1]],
        &[
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
        ],
        2,
    );
    check_records(&out, 2, &live);
}

#[test]
fn fairy_stockfish_against_itself_in_mini_shogi() {
    let Some(fairy) = fairy_stockfish() else {
        return;
    };
    let dir = scratch("match-mini");
    let out = dir.join("mini.csa");
    let engines = [
        format!("a={}", fairy.display()),
        format!("b={}", fairy.display()),
    ];
    json_match(
        &[&engines[0], &engines[1]],
        &[
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
        ],
        2,
    );
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

/// A match one engine loses every game of (it resigns at once) prints the Elo of a perfect
/// score as fastchess words it (it printed `Elo inf ± inf`, `LOS 50.0 %` and `nElo +0.0`), and
/// the JSON holds the same figures.
#[test]
fn a_match_lost_every_game_prints_infinite_elo() {
    let f = fake();
    let engines = [format!("a={f}"), format!("b={f},arg=--bestmove,arg=resign")];
    let engines = [engines[0].as_str(), engines[1].as_str()];
    let args = ["--games", "2", "--byoyomi", "200"];
    let o = run_match(&engines, &args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_contains(&stdout(&o), "a vs b: +2 -0 =0, Elo: inf +/- nan [");
    assert_contains(&stdout(&o), "nElo: inf +/- nan, LOS: 100.00 %");
    let o = run_match(&engines, &[&args[..], &["--format", "json"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let p = &summary["pairings"][0];
    assert_eq!(
        (p["wins"].as_u64(), p["losses"].as_u64()),
        (Some(2), Some(0))
    );
    assert_eq!(p["elo"], "inf");
    assert_eq!(p["elo_margin"], "nan");
    assert_eq!(p["los"], 1.0);
}

/// The evaluation lines of a KIF text, per move, the comment's leading `*` and the block's
/// prefix (`*` for the engine that played, `#` for analysis) removed: `互角`, `評価値=-300`,
/// `詰み=先手勝ち:5手`.
fn eval_lines(kif: &str) -> Vec<String> {
    kif.lines()
        .filter_map(|l| l.strip_prefix('*'))
        .map(|l| l.trim_start_matches(['*', '#']).to_string())
        .filter(|l| {
            l.starts_with("評価値=")
                || l.starts_with("詰み=")
                || l.ends_with("有望")
                || l.ends_with("互角")
        })
        .collect()
}

/// A match between fake engines that send a mate score (sente's) and a centipawn score
/// (gote's) writes, in its KIF record, the same evaluation lines (ShogiHome's, in sente's
/// view) as `analyze --annotate-dir` writes for an engine sending the same scores; both read
/// back to the same scores; and the record ends as ShogiHome writes one.
#[test]
fn match_records_and_analysis_write_the_same_evaluation_lines() {
    let f = fake();
    let dir = scratch("match-evals");
    let out = dir.join("games");
    // Sente's engine: a mate in 5 for itself; gote's: +300 for itself (-300 for sente).
    let a = format!("a={f},arg=--score,arg=mate 5");
    let b = format!("b={f},arg=--score,arg=cp 300");
    let o = run_match(
        &[&a, &b],
        &[
            "--games",
            "1",
            "--byoyomi",
            "100",
            "--max-plies",
            "6",
            "--out-dir",
            out.to_str().unwrap(),
            "--out-format",
            "kif",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let record = out.join("game-0001.kifu");
    let kif = std::fs::read_to_string(&record).unwrap();
    let played = eval_lines(&kif);
    assert_eq!(
        played,
        ["詰み=先手勝ち:5手", "後手有望", "評価値=-300"].repeat(3),
        "{kif}"
    );
    assert!(kif.contains("\n**詰み=先手勝ち:5手\n"), "{kif}");
    assert!(kif.ends_with("まで6手で持将棋\n"), "{kif}");
    assert!(
        !kif.contains("move limit"),
        "no English ending comment: {kif}"
    );
    // The same scores from an analysis engine: after sente's moves gote is to move (+300
    // for gote), after gote's sente is (a mate in 5 for sente). Positions go in order. The
    // record is analysed without the match's comments.
    let bare = dir.join("bare.kifu");
    let text: String = kif
        .lines()
        .filter(|l| !l.starts_with('*'))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&bare, text).unwrap();
    let ann = dir.join("annotated");
    let o = shogi(&[
        "analyze",
        bare.to_str().unwrap(),
        "--engine",
        &f,
        "--engine-arg=--score",
        "--engine-arg=mate 5,cp 300",
        "--nodes",
        "1",
        "--jobs",
        "1",
        "--annotate-dir",
        ann.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let annotated = std::fs::read_dir(&ann)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "kifu" || x == "kif"))
        .expect("an annotated KIF");
    let analysed = eval_lines(&std::fs::read_to_string(&annotated).unwrap());
    // Analysis writes each position's search at the move leading to it, the playing engine
    // its search before its move: shifted by one ply (the last position has no match move).
    assert_eq!(analysed.len(), played.len(), "{analysed:?}");
    assert_eq!(
        &analysed[..analysed.len() - 1],
        &played[1..],
        "{analysed:?}"
    );
    // Both read back as the same scores, sente's view.
    let scores = |p: &Path| {
        let rec = read_path(p, ReadOptions::default()).unwrap();
        shogi_kif::eval::evaluations(&rec)
            .into_iter()
            .map(|e| (e.ply, e.score))
            .collect::<Vec<_>>()
    };
    let (m, a) = (scores(&record), scores(&annotated));
    assert_eq!(m.len(), 6);
    for (x, y) in m[1..].iter().zip(&a) {
        assert_eq!(x, &(y.0 + 1, y.1), "{m:?} {a:?}");
    }
    assert_eq!(m[0].1, Some(shogi_core::Score::Mate { plies: 5 }));
}

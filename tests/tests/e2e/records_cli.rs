//! `shogi check`, `shogi convert` and `shogi moves` end to end, on fixtures written by hand in
//! tests/fixtures/records. Every snapshot was checked against the rules by hand.

use crate::common;

use common::{
    Output, assert_contains, assert_starts_with, code, shared_corpus, shogi, shogi_stdin, stderr,
    stdout, workspace_root,
};

/// Runs `shogi` from the workspace root, so paths in messages are short and stable (every
/// in-process run does: see `common`).
fn shogi_in_root(args: &[&str]) -> Output {
    shogi(args)
}

const DIR: &str = "tests/fixtures/records";

/// `check` reads without the records' moves unless a flag needs them: a selection that keeps
/// every game (`--min-plies 0`) makes it read them, and nothing it reports may change.
#[test]
fn check_says_the_same_with_and_without_the_records_moves() {
    let dirs = [DIR, "tests/fixtures", "samples", "shogi-kif/tests/fixtures"];
    for dir in dirs {
        for format in ["text", "jsonl"] {
            let plain = shogi_in_root(&["check", dir, "--format", format, "--jobs", "2"]);
            let with_moves = shogi_in_root(&[
                "check",
                dir,
                "--format",
                format,
                "--jobs",
                "2",
                "--min-plies",
                "0",
            ]);
            assert_eq!(code(&plain), code(&with_moves), "{dir}");
            assert_eq!(stdout(&plain), stdout(&with_moves), "{dir} {format}");
            let summary = |o: &Output| stderr(o).split(" (").next().unwrap_or("").to_string();
            assert_eq!(summary(&plain), summary(&with_moves), "{dir}");
        }
    }
    // And in the shared corpus, when it is there.
    if let Some(corpus) = shared_corpus() {
        let corpus = corpus.display().to_string();
        let plain = shogi_in_root(&["check", &corpus, "--format", "jsonl"]);
        let with_moves =
            shogi_in_root(&["check", &corpus, "--format", "jsonl", "--min-plies", "0"]);
        assert_eq!(stdout(&plain), stdout(&with_moves));
    }
}

#[test]
fn check_reports_every_problem_with_its_location() {
    let out = shogi_in_root(&["check", DIR, "--jobs", "2"]);
    // Seven records: one each in the KIF and KI2 files, two in the CSA file and two in the
    // USI file. nifu.kif, ambiguous.ki2 and the second game of two-games.csa are invalid.
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    insta::assert_snapshot!("check_dir", stdout(&out));
    assert_starts_with(
        &stderr(&out),
        "checked 7 record(s) in 5 file(s): 4 valid, 3 invalid",
    );
}

#[test]
fn check_context_shows_the_line_and_a_caret() {
    let out = shogi_in_root(&["check", "--context", &format!("{DIR}/nifu.kif")]);
    assert_eq!(code(&out), 1);
    insta::assert_snapshot!("check_context", stdout(&out));
}

#[test]
fn check_json_is_machine_readable() {
    let out = shogi_in_root(&["check", "--format", "json", &format!("{DIR}/nifu.kif")]);
    assert_eq!(code(&out), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(v["records"], 1);
    assert_eq!(v["invalid"], 1);
    let p = &v["reports"][0]["problems"][0];
    assert_eq!(p["line"], 11);
    assert_eq!(p["ply"], 9);
    assert_eq!(p["kind"], "illegal-move");
}

#[test]
fn check_valid_records_exit_zero() {
    let out = shogi_in_root(&[
        "check",
        &format!("{DIR}/good.kif"),
        &format!("{DIR}/more/lines.usi"),
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).starts_with("checked 3 record(s) in 2 file(s): 3 valid, 0 invalid"));
}

#[test]
fn check_missing_file_is_a_usage_error() {
    let out = shogi_in_root(&["check", "no/such/file.kif"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "error: no/such/file.kif: no such file or directory\n"
    );
}

#[test]
fn check_reads_stdin() {
    let kif = std::fs::read_to_string(workspace_root().join(DIR).join("nifu.kif")).unwrap();
    let out = shogi_stdin(&["check", "-"], &kif);
    assert_eq!(code(&out), 1);
    assert_starts_with(&stdout(&out), "<stdin>:11:");
}

#[test]
fn convert_kif_to_sfen() {
    let good = format!("{DIR}/good.kif");
    let sfen =
        |extra: &[&str]| shogi_in_root(&[&["convert", &good, "--to", "sfen"][..], extra].concat());
    let out = sfen(&[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // 7g7f 3c3d 8h2b+ 3a2b B*4e, worked out by hand.
    assert_eq!(
        stdout(&out),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6\n"
    );
    let out = sfen(&["--ply", "2"]);
    assert_eq!(
        stdout(&out),
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n"
    );
    let out = sfen(&["--ply", "9"]);
    assert_eq!(code(&out), 1);
    assert_contains(&stderr(&out), "--ply 9: the main line has only 5 moves");
}

#[test]
fn convert_to_usi_and_from_stdin() {
    // A USI line is the main line's moves, extracted: nothing to warn about (the header,
    // times and ending are not part of a position line).
    let out = shogi_in_root(&["convert", &format!("{DIR}/good.kif"), "--to", "usi"]);
    assert_eq!(
        (code(&out), stdout(&out).as_str(), stderr(&out).as_str()),
        (0, "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n", "")
    );
    let csa = "PI\n+\n+7776FU\n-3334FU\n";
    let out = shogi_stdin(&["convert", "-", "--to", "sfen"], csa);
    assert_eq!(
        stdout(&out),
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n"
    );
    // Every game of a multi-game file, one line each; the broken one stops with its location.
    let out = shogi_in_root(&["convert", &format!("{DIR}/more/lines.usi"), "--to", "sfen"]);
    assert_eq!(
        stdout(&out),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6\nrbsgk/5/4p/PK3/1GSBR b - 3\n"
    );
}

#[test]
fn convert_broken_record_names_the_place() {
    let out = shogi_in_root(&["convert", &format!("{DIR}/nifu.kif"), "--to", "sfen"]);
    assert_eq!(code(&out), 1);
    insta::assert_snapshot!("convert_nifu", stderr(&out));
}

#[test]
fn convert_kif_to_csa_and_back() {
    let out = shogi_in_root(&["convert", &format!("{DIR}/good.kif"), "--to", "csa"]);
    assert_eq!(code(&out), 0);
    let csa = stdout(&out);
    let back = shogi_stdin(&["convert", "-", "--to", "usi", "--lossy"], &csa);
    assert_eq!(
        stdout(&back),
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n"
    );
}

#[test]
fn moves_lists_legal_moves_sorted() {
    let out = shogi(&["moves", "rbsgk/4p/5/P4/KGSBR b - 1"]);
    assert_eq!(code(&out), 0);
    // Mini Shogi start: 14 moves (the perft suite's depth 1), sorted as text.
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 14);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"5d5c") && lines.contains(&"1e1b"));
    assert_eq!(stderr(&out), "");
}

#[test]
fn bad_arguments_are_one_line_errors_with_exit_2() {
    for (args, needle) in [
        (
            vec!["moves", "lnsgkgsnl/9 b - 1"],
            "bad SFEN board at byte 0: 2 ranks",
        ),
        (
            vec!["moves", "rbsgk/4p/5/P4/KGSBR x - 1"],
            "bad SFEN side to move at byte 20",
        ),
        (
            vec!["moves", "startpos", "--variant", "huge"],
            "invalid value 'huge'",
        ),
        (
            vec![
                "moves",
                "rbsgk/4p/5/P4/KGSBR b - 1",
                "--variant",
                "standard",
            ],
            "is a mini position",
        ),
        (
            vec!["convert", "x.kif"],
            "required arguments were not provided: --to <TO>",
        ),
        (vec!["frobnicate"], "unrecognized subcommand"),
    ] {
        let out = shogi(&args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(stdout(&out), "");
    }
}

#[test]
fn samples_are_valid_and_every_format_reads_the_same_game() {
    let out = shogi_in_root(&["check", "samples"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(stderr(&out).starts_with("checked 6 record(s) in 6 file(s): 6 valid, 0 invalid"));
    let usi = |f: &str| stdout(&shogi_in_root(&["convert", f, "--to", "usi", "--lossy"]));
    let sfen = |f: &str| stdout(&shogi_in_root(&["convert", f, "--to", "sfen"]));
    let want_usi = std::fs::read_to_string(workspace_root().join("samples/game.usi")).unwrap();
    let want_sfen = sfen("samples/game.usi");
    for f in ["kif", "ki2", "csa", "jkf"] {
        let path = format!("samples/game.{f}");
        assert_eq!(usi(&path).trim(), want_usi.trim(), "{path}");
        assert_eq!(sfen(&path), want_sfen, "{path}");
    }
    // The Mini Shogi sample, worked out by hand: the rook takes the pawn on 1b and promotes on
    // 1a; gote's king took the bishop on 2c.
    assert_eq!(sfen("samples/mini.kif"), "r1sg+R/5/1b1k1/P4/KGS2 w Pb 10\n");
}

#[test]
fn big_inputs_stream_with_exact_line_numbers() {
    // Over 32 MiB of USI lines: read game by game, not whole. One illegal game near the end.
    let dir = common::scratch("big-usi");
    let path = dir.join("many.usi");
    let mut text = String::with_capacity(36 << 20);
    let games = 700_000;
    for i in 0..games {
        if i == games - 10 {
            // The second move pushes sente's pawn again on gote's turn.
            text.push_str("position startpos moves 7g7f 7f7e\n");
        } else {
            text.push_str("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n");
        }
    }
    assert!(text.len() > 32 << 20);
    std::fs::write(&path, &text).unwrap();
    let out = shogi(&["check", path.to_str().unwrap()]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let line = games - 10 + 1;
    let want = format!(
        "{}:{line}:30: error: move 2 7f7e: the piece belongs to the opponent\n",
        path.display()
    );
    assert_eq!(stdout(&out), want);
    assert!(
        stderr(&out).starts_with(&format!(
            "checked {games} record(s) in 1 file(s): {} valid, 1 invalid",
            games - 1
        )),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_a_folder_into_another_format() {
    let out_dir = common::scratch("convert-out");
    let out = shogi_in_root(&[
        "convert",
        "samples",
        "--to",
        "csa",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // game.kif, game.ki2, ... would all become game.csa: they keep their names instead.
    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "game.csa.csa",
            "game.jkf.csa",
            "game.ki2.csa",
            "game.kif.csa",
            "game.usi.csa",
            "mini.csa"
        ]
    );
    // What was written reads back as the same games.
    let back = shogi(&[
        "convert",
        out_dir.join("game.ki2.csa").to_str().unwrap(),
        "--to",
        "usi",
        "--lossy",
    ]);
    let want = std::fs::read_to_string(workspace_root().join("samples/game.usi")).unwrap();
    assert_eq!(stdout(&back).trim(), want.trim());
    let check = shogi(&["check", out_dir.to_str().unwrap()]);
    assert_eq!(code(&check), 0, "{}", stdout(&check));
    // Converting in place is refused.
    let again = shogi(&[
        "convert",
        out_dir.join("mini.csa").to_str().unwrap(),
        "--to",
        "csa",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code(&again), 2);
    assert_contains(&stderr(&again), "would overwrite it");
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn convert_goes_on_past_a_broken_record() {
    let out = shogi_in_root(&[
        "convert",
        &format!("{DIR}/nifu.kif"),
        &format!("{DIR}/good.kif"),
        "--to",
        "sfen",
    ]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6\n"
    );
    assert!(stderr(&out).starts_with("tests/fixtures/records/nifu.kif:11:6: error:"));
}

/// Records that end on a recorded illegal move keep their winner through every format.
#[test]
fn foul_endings_survive_conversion() {
    let Some(corpus) = shared_corpus() else {
        return;
    };
    let files = [
        "mog-core-scala/jvm/src/test/resources/kif/game/014.kif",
        "mog-core-scala/jvm/src/test/resources/kif/game/015.kif",
        "mog-core-scala/jvm/src/test/resources/kif/game/017.kif",
    ];
    for f in files {
        let path = corpus.join(f);
        let path = path.to_str().unwrap();
        let closing = |text: &str| {
            text.lines()
                .find(|l| l.starts_with("まで"))
                .unwrap_or("")
                .to_string()
        };
        let want = closing(&stdout(&shogi(&["convert", path, "--to", "kif"])));
        assert!(want.contains("反則"), "{f}: {want}");
        for to in ["csa", "jkf", "ki2"] {
            let text = stdout(&shogi(&["convert", path, "--to", to, "--lossy"]));
            let back = shogi_stdin(&["convert", "-", "--to", "kif"], &text);
            assert_eq!(code(&back), 0, "{f} via {to}: {}", stderr(&back));
            assert_eq!(closing(&stdout(&back)), want, "{f} via {to}");
        }
    }
}

/// Several CSA records printed to stdout stay separate games.
#[test]
fn csa_records_on_stdout_are_separated() {
    let out = shogi_in_root(&["convert", &format!("{DIR}/more/lines.usi"), "--to", "csa"]);
    assert_eq!(code(&out), 0);
    let back = shogi_stdin(&["convert", "-", "--to", "usi", "--lossy"], &stdout(&out));
    assert_eq!(
        stdout(&back),
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\nposition sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d 1b1c\n"
    );
}

/// Text with line breaks (JKF allows them) never turns into record lines when written.
#[test]
fn line_breaks_in_comments_and_headers_are_contained() {
    let jkf = r#"{"header":{"先手":"A\n+2726FU"},"moves":[{"comments":["hello\n  2 ３四歩(33)"]},{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}"#;
    for to in ["kif", "ki2", "csa", "jkf"] {
        let text = stdout(&shogi_stdin(&["convert", "-", "--to", to], jkf));
        let back = shogi_stdin(&["convert", "-", "--to", "usi", "--lossy"], &text);
        assert_eq!(code(&back), 0, "{to}: {}\n{text}", stderr(&back));
        assert_eq!(stdout(&back), "position startpos moves 7g7f\n", "{to}");
    }
}

/// The Mini Shogi sample stays a Mini Shogi game through every format.
#[test]
fn mini_shogi_survives_every_format() {
    let want = "r1sg+R/5/1b1k1/P4/KGS2 w Pb 10\n";
    for to in ["kif", "ki2", "csa", "jkf", "usi"] {
        let text = stdout(&shogi_in_root(&[
            "convert",
            "samples/mini.kif",
            "--to",
            to,
            "--lossy",
        ]));
        let back = shogi_stdin(&["convert", "-", "--to", "sfen"], &text);
        assert_eq!(code(&back), 0, "{to}: {}", stderr(&back));
        assert_eq!(stdout(&back), want, "{to}");
    }
}

/// On a long line the source excerpt is a window around the problem, caret included.
#[test]
fn context_on_long_lines_shows_the_move_at_fault() {
    let mut line = String::from("position startpos moves");
    for _ in 0..30 {
        line.push_str(" 5i5h 5a5b 5h5i 5b5a");
    }
    line.push_str(" 9i9a\n");
    let out = shogi_stdin(&["check", "--context", "-"], &line);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("<stdin>:1:625: error: move 121 9i9a"),
        "{text}"
    );
    // Every character of the excerpt takes one cell here ('…' included).
    let excerpt: Vec<char> = lines[2].chars().collect();
    let at = lines[3].chars().position(|c| c == '^').unwrap();
    assert_eq!(
        excerpt[at..at + 4].iter().collect::<String>(),
        "9i9a",
        "{text}"
    );
}

/// CSA records hold the time spent per move only; KIF also wants each side's running total.
#[test]
fn kif_times_from_csa_get_running_totals() {
    let csa = "PI\n+\n+7776FU,T2\n-3334FU,T5\n+2726FU,T3\n%TORYO,T1\n";
    let kif = stdout(&shogi_stdin(&["convert", "-", "--to", "kif"], csa));
    let times: Vec<&str> = kif
        .lines()
        .filter_map(|l| l.rfind('(').map(|i| &l[i..]))
        .filter(|t| t.contains('/'))
        .collect();
    assert_eq!(
        times,
        [
            "( 0:02/00:00:02)",
            "( 0:05/00:00:05)",
            "( 0:03/00:00:05)",
            "( 0:01/00:00:06)"
        ],
        "{kif}"
    );
}

/// A JKF record past a limit: `check` names the file, line and column of the entry where
/// the limit is passed (the limits are checked as the JSON is read), not 1:1.
#[test]
fn check_locates_jkf_limit_errors() {
    let dir = common::scratch("jkf-limits");
    let step = |i: usize| {
        let (from, to) = [(9, 8), (1, 2), (8, 9), (2, 1)][i % 4];
        format!(
            "{{\"move\":{{\"from\":{{\"x\":5,\"y\":{from}}},\"to\":{{\"x\":5,\"y\":{to}}},\"piece\":\"OU\"}}}}"
        )
    };
    // 100,001 moves, one a line after the start's entry on line 1.
    let moves: Vec<String> = (0..=shogi_kif::limits::MAX_PLIES).map(step).collect();
    let plies = dir.join("plies.jkf");
    let text = format!("{{\"moves\":[{{}},\n{}]}}\n", moves.join(",\n"));
    std::fs::write(&plies, text).expect("written");
    // Forks nested 50 deep, each level on a line of its own (line k opens the k-th level's
    // entry, 3k levels of JSON deep: the entry, its forks, the fork's line). The JSON
    // nesting limit (128 levels) is reached on line 42 at column 28, the `{` of that
    // entry's `"from"` (3 * 42 + 2 = 128).
    let mut nested = step(0);
    for _ in 0..50 {
        nested = format!(
            "{}\n,\"forks\":[[{nested}]]}}",
            &step(0)[..step(0).len() - 1]
        );
    }
    let deep = dir.join("deep.jkf");
    std::fs::write(&deep, format!("{{\"moves\":[{{}},{nested}]}}\n")).expect("written");
    let out = shogi(&[
        "check",
        plies.to_str().unwrap(),
        deep.to_str().unwrap(),
        "--jobs",
        "1",
    ]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let want = format!(
        "{}:100002:8: error: JKF: more than 100,000 moves in one line of play (the limit)",
        plies.display()
    );
    assert!(text.contains(&want), "{text}");
    let want = format!(
        "{}:42:28: error: JKF: JSON nested 128 levels deep (the limit)",
        deep.display()
    );
    assert!(text.contains(&want), "{text}");
}

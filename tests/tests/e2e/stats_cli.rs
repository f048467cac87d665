//! `shogi stats`, and the selection, shards and duplicates of every batch command, end to end
//! on fixtures written by hand in tests/fixtures/stats (every snapshot value was checked
//! against the records by hand) and on generated folders.

use crate::common;

use common::{assert_contains, assert_starts_with, code, scratch, shogi, shogi_ok, stderr, stdout};
use std::path::Path;

const DIR: &str = "tests/fixtures/stats";

#[test]
fn stats_csv() {
    let out = shogi_ok(&["stats", DIR, "--jobs", "2"]);
    insta::assert_snapshot!("stats_csv", stdout(&out));
    assert_starts_with(
        &stderr(&out),
        "read 9 game(s) in 5 file(s): 9 valid, 0 invalid",
    );
}

#[test]
fn stats_jsonl() {
    let out = shogi_ok(&["stats", DIR, "--format", "jsonl"]);
    let text = stdout(&out);
    // Every line is one JSON object with every column.
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON object per line");
        assert_eq!(v.as_object().map(|o| o.len()), Some(31), "{line}");
    }
    insta::assert_snapshot!("stats_jsonl", text);
}

/// `--moves` in each notation over the fixtures, a game with an error (nifu.kif: the moves
/// before it) and Mini Shogi: each game's line in USI, Japanese and Western, one under the
/// other (every move checked by hand against the records).
#[test]
fn stats_moves_in_each_notation() {
    let (nifu, mini) = ("tests/fixtures/records/nifu.kif", "samples/mini.kif");
    let mut games: Vec<(String, Vec<String>)> = Vec::new();
    for notation in ["usi", "japanese", "western"] {
        let out = shogi(&[
            "stats", DIR, nifu, mini, "--moves", notation, "--format", "jsonl",
        ]);
        assert_eq!(code(&out), 1, "nifu.kif is invalid: {}", stderr(&out));
        for (i, line) in stdout(&out).lines().enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v.as_object().map(|o| o.len()), Some(32), "{line}");
            let moves = v["moves"].as_str().expect("a string").to_string();
            let plies = v["plies"].as_u64().unwrap() as usize;
            assert_eq!(moves.split(' ').count(), plies, "{line}");
            let name = format!(
                "{}#{}",
                v["path"].as_str().unwrap().rsplit('/').next().unwrap(),
                v["game"]
            );
            if notation == "usi" {
                games.push((name, vec![moves]));
            } else {
                assert_eq!(games[i].0, name);
                games[i].1.push(moves);
            }
        }
    }
    let text: String = games
        .iter()
        .map(|(name, lines)| format!("{name}\n  {}\n", lines.join("\n  ")))
        .collect();
    insta::assert_snapshot!("stats_moves", text);
    // CSV: the same last column; without --moves there is none.
    let csv = stdout(&shogi(&["stats", DIR, "--moves", "western"]));
    assert!(csv.lines().next().unwrap().ends_with(",duplicate_of,moves"));
    assert!(csv.contains(",P-7f P-3d Bx2b+ Sx2b B*4e\n"), "{csv}");
    let plain = stdout(&shogi(&["stats", DIR]));
    assert!(plain.lines().next().unwrap().ends_with(",duplicate_of"));
    let bad = shogi(&["stats", DIR, "--moves", "chess"]);
    assert_eq!(code(&bad), 2);
}

#[test]
fn stats_help_names_every_column() {
    let out = shogi(&["stats", "--help"]);
    let help = stdout(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let header = stdout(&shogi(&["stats", "samples"]))
        .lines()
        .next()
        .unwrap()
        .replace(',', ", ");
    assert!(
        help.contains(&format!("Columns: {header} (see the README)")),
        "{help}"
    );
}

#[test]
fn stats_summary() {
    let out = shogi(&["stats", DIR, "--summary"]);
    assert_eq!(code(&out), 0);
    insta::assert_snapshot!("stats_summary", stdout(&out));
}

/// The games (`file#game`) a command line selects.
fn picked(args: &[&str]) -> String {
    let mut argv = vec!["stats", DIR, "--format", "jsonl"];
    argv.extend_from_slice(args);
    let out = shogi(&argv);
    assert!(code(&out) <= 1, "{args:?}: {}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let path = v["path"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string();
            let dup = v["duplicate_of"]
                .as_str()
                .map(|d| format!(" (copy of {})", d.rsplit('/').next().unwrap()))
                .unwrap_or_default();
            format!("{path}#{}{dup}", v["game"])
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn selection() {
    let cases: &[&[&str]] = &[
        &["--player", "ALPHA"],
        &["--sente", "alpha"],
        &["--gote", "bar"],
        &["--since", "2024-01-02", "--until", "2024/01/05"],
        &["--since", "2024-02-01"],
        &["--min-plies", "5"],
        &["--max-plies", "2"],
        &["--ending", "timeout,perpetual-check"],
        &["--ending", "none"],
        &["--winner", "gote"],
        &["--variant", "mini"],
        &["--handicap", "香落ち"],
        &["--handicap", "HIRATE", "--min-plies", "4"],
        &["--min-rating", "2000"],
        &[
            "--position",
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        ],
        &["--position", "startpos"],
        &["--invalid"],
        &["--dedup"],
        &["--dedup", "prefix"],
        &["--valid", "--dedup", "prefix", "--max-plies", "3"],
    ];
    let report: Vec<String> = cases
        .iter()
        .map(|args| format!("{}\n  {}", args.join(" "), picked(args)))
        .collect();
    insta::assert_snapshot!("stats_selection", report.join("\n"));
}

#[test]
fn months_ratings_and_time_controls_select_as_their_long_forms() {
    let same = |a: &[&str], b: &[&str]| assert_eq!(picked(a), picked(b), "{a:?} {b:?}");
    same(
        &["--since", "2024-01", "--until", "2024-01"],
        &["--since", "2024-01-01", "--until", "2024-01-31"],
    );
    same(&["--until", "2024/2"], &["--until", "2024-02-29"]);
    // Both sides at least 2000 is at least 2000 with both as the ratings' owner.
    same(
        &["--min-rating", "2000"],
        &["--min-rating", "2000", "--rating-of", "both"],
    );
    let all = picked(&[]);
    let rated = picked(&["--min-rating", "0"]);
    assert_ne!(all, rated, "some games have no ratings");
    // At most a huge rating keeps the rated games, at least one beyond it none.
    same(&["--max-rating", "100000"], &["--min-rating", "0"]);
    assert_eq!(
        picked(&["--min-rating", "100000", "--rating-of", "average"]),
        ""
    );
    // The two spellings of a time control select the same games.
    same(
        &["--time-control", "300+10F"],
        &["--time-control", "floodgate-300-10F"],
    );
}

#[test]
fn bad_filter_values_are_usage_errors_naming_the_flag() {
    for (args, flag) in [
        (&["--since", "2024-13-01"][..], "--since"),
        (&["--until", "yesterday"][..], "--until"),
        (&["--min-plies", "many"][..], "--min-plies"),
        (&["--ending", "resign,whatever"][..], "--ending"),
        (&["--winner", "both"][..], "--winner"),
        (&["--variant", "chess"][..], "--variant"),
        (&["--handicap", "九枚落ち"][..], "--handicap"),
        (&["--min-rating", "high"][..], "--min-rating"),
        (&["--max-rating", "NaN"][..], "--max-rating"),
        (&["--rating-of", "sente"][..], "--rating-of"),
        (
            &["--rating-of", "mover", "--min-rating", "1"][..],
            "--rating-of",
        ),
        (&["--time-control", "10 minutes"][..], "--time-control"),
        (&["--since", "2024-13"][..], "--since"),
        (&["--event", " "][..], "--event"),
        (&["--position", "9/9/9 b - 1"][..], "--position"),
        (&["--shard", "5/4"][..], "--shard"),
        (&["--dedup", "fuzzy"][..], "--dedup"),
    ] {
        for command in [["stats"], ["check"]] {
            let mut argv = vec![command[0], DIR];
            argv.extend_from_slice(args);
            let out = shogi(&argv);
            assert_eq!(code(&out), 2, "{argv:?}");
            let err = stderr(&out);
            assert!(
                err.starts_with(&format!("error: {flag}: ")),
                "{argv:?}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(stdout(&out).is_empty());
        }
    }
}

/// A folder of seeded random games: USI lists and KIF files in a few subfolders, copies and
/// prefixes included, so that dedup and shards have something to do.
fn generated(name: &str, files: usize) -> std::path::PathBuf {
    use shogi_core::{Position, Variant};
    let dir = scratch(name);
    let mut seed = 0x5eed_1234_u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n.max(1)
    };
    let mut games: Vec<Vec<String>> = Vec::new();
    for f in 0..files {
        let mut lines = String::new();
        for _ in 0..1 + next(3) {
            // Now and then a copy or a prefix of an earlier game.
            let moves: Vec<String> = if !games.is_empty() && next(4) == 0 {
                let g = &games[next(games.len())];
                g[..g.len() - next(2).min(g.len())].to_vec()
            } else {
                let mut pos = Position::startpos(Variant::Standard);
                let mut moves = Vec::new();
                for _ in 0..next(12) + 1 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal[next(legal.len())];
                    moves.push(m.to_usi());
                    pos.play(m).unwrap();
                }
                moves
            };
            lines.push_str(&format!("position startpos moves {}\n", moves.join(" ")));
            games.push(moves);
        }
        let path = dir.join(format!("d{}/g{f:03}.usi", f % 4));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, lines).unwrap();
    }
    dir
}

#[test]
fn rows_do_not_depend_on_the_number_of_jobs() {
    let dir = generated("jobs", 120);
    let d = dir.to_str().unwrap();
    for format in ["csv", "jsonl"] {
        let one = shogi(&["stats", d, "--jobs", "1", "--format", format]);
        let two = shogi(&["stats", d, "--jobs", "2", "--format", format]);
        assert_eq!(code(&one), 0, "{}", stderr(&one));
        assert!(stdout(&one).lines().count() > 150);
        assert_eq!(stdout(&one), stdout(&two), "{format}");
    }
    let one = shogi(&["check", d, "--jobs", "1", "--format", "jsonl"]);
    let two = shogi(&["check", d, "--jobs", "2", "--format", "jsonl"]);
    assert_eq!(stdout(&one), stdout(&two));
    let one = shogi(&["convert", d, "--jobs", "1", "--to", "sfen"]);
    let two = shogi(&["convert", d, "--jobs", "2", "--to", "sfen"]);
    assert_eq!(stdout(&one), stdout(&two));
}

#[test]
fn shards_partition_the_inputs() {
    let dir = generated("shards", 60);
    let d = dir.to_str().unwrap();
    let rows = |extra: &[&str]| -> Vec<String> {
        let mut argv = vec!["stats", d];
        argv.extend_from_slice(extra);
        let out = shogi(&argv);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        stdout(&out).lines().skip(1).map(str::to_string).collect()
    };
    let whole = rows(&[]);
    for n in [2, 3, 5] {
        let mut union = Vec::new();
        let mut parts = Vec::new();
        for i in 1..=n {
            let shard = format!("{i}/{n}");
            let part = rows(&["--shard", &shard]);
            parts.push(part.clone());
            union.extend(part);
        }
        // Pairwise disjoint (no row twice) and together the whole, each shard in input order.
        let mut sorted_union = union.clone();
        sorted_union.sort();
        let mut sorted_whole = whole.clone();
        sorted_whole.sort();
        assert_eq!(sorted_union, sorted_whole, "{n} shards");
        for p in &parts {
            let in_order: Vec<&String> = whole.iter().filter(|r| p.contains(r)).collect();
            assert_eq!(in_order.len(), p.len());
            assert!(p.iter().zip(in_order).all(|(a, b)| a == b));
        }
        assert!(parts.iter().all(|p| !p.is_empty()), "{n}: an empty shard");
    }
}

#[test]
fn dedup_is_idempotent() {
    let dir = generated("dedup", 80);
    let d = dir.to_str().unwrap();
    for mode in [&["--dedup"][..], &["--dedup", "prefix"][..]] {
        let mut argv = vec!["convert", d, "--to", "usi"];
        argv.extend_from_slice(mode);
        let once = shogi(&argv);
        assert_eq!(code(&once), 0, "{}", stderr(&once));
        let all = shogi(&["convert", d, "--to", "usi"]);
        assert!(
            stdout(&once).lines().count() < stdout(&all).lines().count(),
            "{mode:?}"
        );
        let file = dir.with_extension("once.usi");
        std::fs::write(&file, stdout(&once)).unwrap();
        let f = file.to_str().unwrap();
        let mut again = vec!["convert", f, "--to", "usi"];
        again.extend_from_slice(mode);
        let twice = shogi(&again);
        assert_eq!(stdout(&twice), stdout(&once), "{mode:?}");
        // And stats names a first copy for every game convert dropped.
        let mut s = vec!["stats", d];
        s.extend_from_slice(mode);
        let rows = stdout(&shogi(&s));
        let named = rows.lines().skip(1).filter(|l| !l.ends_with(',')).count();
        assert_eq!(
            named + stdout(&once).lines().count(),
            stdout(&all).lines().count(),
            "{mode:?}"
        );
        std::fs::remove_file(file).unwrap();
    }
}

#[test]
fn bad_inputs_get_their_rows_and_the_rest_is_read() {
    let dir = scratch("bad-inputs");
    let w = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).unwrap();
    w("a-good.usi", b"position startpos moves 7g7f 3c3d\n");
    w("b-binary.kif", &[0, 159, 146, 150, 255, 254, 0, 1, 2]);
    w("c-empty.csa", b"");
    // Shift_JIS 先手：甲, then a UTF-8 line: no single encoding reads the file.
    let mut mixed = b"\x90\xe6\x8e\xe8\x81F\x8db\n".to_vec();
    mixed.extend_from_slice("後手：乙\n   1 ７六歩(77)\n".as_bytes());
    w("d-mixed.kif", &mixed);
    w(
        "e-illegal.usi",
        b"position startpos moves 7g7f 7g7f\nposition startpos moves 2g2f\n",
    );
    let d = dir.to_str().unwrap();
    let out = shogi(&["stats", d, "--jobs", "2", "--format", "jsonl"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let rows: Vec<String> = stdout(&out)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let file = Path::new(v["path"].as_str().unwrap()).file_name().unwrap();
            // The reason's kind, before the first colon.
            let kind = v["first_error"]
                .as_str()
                .unwrap_or("")
                .split(':')
                .next()
                .unwrap();
            format!(
                "{} {} {} {} {kind}",
                file.to_str().unwrap(),
                v["game"],
                v["plies"],
                v["valid"]
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "a-good.usi 1 2 true ",
            "b-binary.kif 1 0 false encoding",
            "c-empty.csa 1 0 false truncated",
            "d-mixed.kif 1 0 false encoding",
            // Refused at its second move; the first counts.
            "e-illegal.usi 1 1 false illegal-move",
            "e-illegal.usi 2 1 true ",
        ]
    );
    // An input that cannot be opened (a dangling link) is an I/O error: its row, exit 2.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("nowhere.kif"), dir.join("f-gone.kif")).unwrap();
        let out = shogi(&["stats", d]);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        let last = stdout(&out).lines().last().unwrap().to_string();
        assert!(last.contains("f-gone.kif,1,"), "{last}");
        assert!(last.contains("io: no such file or directory"), "{last}");
        let check = shogi(&["check", d]);
        assert_eq!(code(&check), 2);
        assert!(stdout(&check).contains("f-gone.kif: error: no such file or directory"));
    }
}

#[test]
fn check_jsonl_strict_and_fail_fast() {
    let records = "tests/fixtures/records";
    let out = shogi(&["check", records, "--format", "jsonl"]);
    assert_eq!(code(&out), 1);
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary: Vec<String> = lines
        .iter()
        .map(|v| {
            format!(
                "{}#{} {} {}",
                v["path"].as_str().unwrap(),
                v["game"],
                v["valid"],
                v["problems"].as_array().unwrap().len()
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            "tests/fixtures/records/ambiguous.ki2#1 false 1",
            "tests/fixtures/records/good.kif#1 true 0",
            "tests/fixtures/records/more/lines.usi#1 true 0",
            "tests/fixtures/records/more/lines.usi#2 true 0",
            "tests/fixtures/records/more/two-games.csa#1 true 0",
            "tests/fixtures/records/more/two-games.csa#2 false 1",
            "tests/fixtures/records/nifu.kif#1 false 1",
        ]
    );
    // --fail-fast stops after the first invalid record.
    let out = shogi(&[
        "check",
        records,
        "--format",
        "jsonl",
        "--fail-fast",
        "--jobs",
        "2",
    ]);
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out).lines().count(), 1);
    assert_contains(&stderr(&out), "--fail-fast");
    // --strict: the perpetual-check line has a warning, so it is invalid.
    shogi_ok(&["check", DIR]);
    let strict = shogi(&["check", DIR, "--strict"]);
    assert_eq!(code(&strict), 1);
    assert_starts_with(
        &stderr(&strict),
        "checked 9 record(s) in 5 file(s): 8 valid, 1 invalid",
    );
}

#[test]
fn check_and_convert_take_the_selection() {
    let out = shogi(&[
        "check",
        DIR,
        "--format",
        "jsonl",
        "--ending",
        "perpetual-check",
    ]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out).lines().count(), 1);
    assert!(stdout(&out).contains("\"path\":\"tests/fixtures/stats/lines.usi\",\"game\":2"));
    // floodgate.csa's first game is a copy of copies.ki2's (only the header differs): with
    // --dedup only the first copy is written; duplicates are found among the selected games.
    let out = shogi_ok(&[
        "convert",
        DIR,
        "--to",
        "sfen",
        "--min-plies",
        "5",
        "--dedup",
    ]);
    assert_eq!(
        stdout(&out),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6\n\
         lnsgkgsnl/1r5b1/p1ppppp1p/7R1/1p7/9/PPPPPPP1P/1B7/LNSGKGSNL w Pp 8\n\
         4k3R/9/9/9/9/9/9/9/4K4 w - 14\n"
    );
    let out = shogi(&[
        "convert", DIR, "--to", "sfen", "--player", "alpha", "--dedup",
    ]);
    assert_eq!(stdout(&out).lines().count(), 2);
    let out = shogi(&[
        "convert",
        DIR,
        "--to",
        "usi",
        "--variant",
        "mini",
        "--shard",
        "1/1",
    ]);
    assert_eq!(
        stdout(&out),
        "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d 1b1c\n"
    );
}

/// `--mate`: a game resigned two plies after the loser had a mate in 3 (S*1b 2a1b G*2b) gets
/// it in the four last columns (and, with mates of at most 1 ply, the mate in 1 at ply 2); a
/// resigned game without one, and games not lost by resignation or time, have the columns
/// empty. Without the flag the columns are absent.
#[test]
fn stats_mate_gives_the_missed_mate() {
    let csa = "V2.2\nP1 *  *  *  *  *  *  * -GI-OU\nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  * +FU+FU\n\
P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \nP+00KI00GI\n+\n\
+5948OU\n-2132GI\n%TORYO\n";
    let dir = scratch("stats-mate");
    let resigned = dir.join("resigned.csa");
    std::fs::write(&resigned, csa).unwrap();
    let path = resigned.to_str().unwrap();
    let mate_columns = "missed_mate_ply,missed_mate_side,missed_mate_length,missed_mate_pv";
    let csv = |extra: &[&str]| {
        let mut args = vec!["stats", path, "--mate"];
        args.extend_from_slice(extra);
        stdout(&shogi_ok(&args))
    };
    let text = csv(&["--mate-length", "3"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].ends_with(&format!(",duplicate_of,{mate_columns}")),
        "{text}"
    );
    assert!(lines[1].ends_with(",0,sente,3,S*1b 2a1b G*2b"), "{text}");
    assert!(lines[1].contains(",2,resign,gote,"), "{text}");
    // With --moves too, moves comes first.
    let text = csv(&["--mate-length", "3", "--moves", "usi"]);
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .ends_with(",5i4h 2a3b,0,sente,3,S*1b 2a1b G*2b"),
        "{text}"
    );
    // No mate in 1 at ply 0 (the gold drop is taken by the silver); after the silver left
    // 2a, S*1b mates at once at ply 2.
    let text = csv(&["--mate-length", "1"]);
    assert!(
        text.lines().nth(1).unwrap().ends_with(",2,sente,1,S*1b"),
        "{text}"
    );
    // A resigned game from the start position with no mate near: the columns are empty.
    let quiet = dir.join("quiet.kif");
    std::fs::write(&quiet, "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n").unwrap();
    let text = stdout(&shogi_ok(&["stats", quiet.to_str().unwrap(), "--mate"]));
    let row = text.lines().nth(1).unwrap();
    assert!(
        row.contains(",2,resign,gote,") && row.ends_with(",,,,"),
        "{text}"
    );
    // JSON lines: the same values, null when none.
    let out = shogi_ok(&[
        "stats",
        path,
        "--mate",
        "--mate-length",
        "3",
        "--format",
        "jsonl",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["missed_mate_ply"], 0);
    assert_eq!(v["missed_mate_side"], "sente");
    assert_eq!(v["missed_mate_length"], 3);
    assert_eq!(v["missed_mate_pv"], "S*1b 2a1b G*2b");
    // A game that is not resigned (the fixtures' USI lines state no ending): null.
    let out = shogi_ok(&[
        "stats",
        "tests/fixtures/stats",
        "--mate",
        "--format",
        "jsonl",
    ]);
    for line in stdout(&out).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["ending"] != "resign" && v["ending"] != "timeout" {
            assert!(v["missed_mate_ply"].is_null(), "{line}");
            assert!(v["missed_mate_pv"].is_null(), "{line}");
        }
    }
    // Without --mate: no such columns.
    let text = stdout(&shogi_ok(&["stats", path]));
    assert!(!text.contains("missed_mate"), "{text}");
}

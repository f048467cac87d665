//! A record's variations: `shogi show` lists them, numbered, with the move where each
//! branches; `shogi show --variation N` and `shogi convert --variation N` (sfen, usi, moves
//! and the training targets) follow that line: the line it branches from up to the branch,
//! then its own moves and ending. Every expected line below was checked by hand against the
//! fixture.

use crate::common;

use common::{code, shogi, stderr, stdout};

/// Main line 2g2f 3c3d 7g7f 4c4d 3i4h 3a3b (gote wins); 変化：6手 8b4b 5i6h then gote
/// resigns; 変化：3手 2f2e 2b3c 7g7f then 中断; and inside that one, 変化：5手 3i4h 8b4b.
const NESTED: &str = "tests/fixtures/convert/nested-variations.kifu";
/// One variation, at move 2.
const ONE: &str = "tests/fixtures/convert/variations.kifu";

#[test]
fn show_lists_the_variations_numbered_as_kif_writes_them() {
    let out = shogi(&["show", NESTED, "--notation", "usi"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let listed: Vec<&str> = text.lines().skip_while(|l| *l != "Variations:").collect();
    assert_eq!(
        listed,
        [
            "Variations:",
            "1 move 6 (from the main line): 8b4b",
            "2 move 3 (from the main line): 2f2e",
            "3 move 5 (from variation 2): 3i4h",
        ]
    );
    // In Japanese (the default), the moves as KI2 writes them.
    let ja = stdout(&shogi(&["show", NESTED]));
    assert!(
        ja.contains("\n2 move 3 (from the main line): ▲２五歩\n"),
        "{ja}"
    );
    // A record without variations lists none.
    assert!(!stdout(&shogi(&["show", "samples/game.kif"])).contains("Variations:"));
}

#[test]
fn show_follows_a_variation() {
    let out = shogi(&["show", NESTED, "--variation", "3", "--notation", "usi"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Ply: 6 of 6\n"), "{text}");
    assert!(text.contains("Line: variation 3\n"), "{text}");
    let moves: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "Moves:")
        .skip(1)
        .take_while(|l| *l != "Variations:")
        .collect();
    assert_eq!(
        moves,
        [
            " 1 2g2f", " 2 3c3d", " 3 2f2e", " 4 2b3c", " 5 3i4h", " 6 8b4b"
        ]
        .map(|m| m.trim_start())
    );
    // The same position as convert's.
    let sfen = text.lines().find_map(|l| l.strip_prefix("SFEN: ")).unwrap();
    let converted = stdout(&shogi(&[
        "convert",
        NESTED,
        "--to",
        "sfen",
        "--variation",
        "3",
    ]));
    assert_eq!(converted, format!("{sfen}\n"));
    for (args, message) in [
        (
            &["show", NESTED, "--variation", "4"][..],
            "error: --variation 4: tests/fixtures/convert/nested-variations.kifu has 3 variations\n",
        ),
        (
            &["show", NESTED, "--variation", "2", "--ply", "6"][..],
            "error: --ply 6: tests/fixtures/convert/nested-variations.kifu has 5 move(s) in variation 2\n",
        ),
        (
            &["show", "startpos", "--variation", "1"][..],
            "error: --variation goes with a record; startpos is a position\n",
        ),
    ] {
        let out = shogi(args);
        assert_eq!(
            (code(&out), stderr(&out).as_str()),
            (2, message),
            "{args:?}"
        );
        assert!(stdout(&out).is_empty());
    }
}

#[test]
fn convert_takes_the_line_of_a_variation() {
    let usi = |n: &str| {
        let out = shogi(&["convert", NESTED, "--to", "usi", "--variation", n]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        stdout(&out)
    };
    assert_eq!(
        usi("1"),
        "position startpos moves 2g2f 3c3d 7g7f 4c4d 3i4h 8b4b 5i6h\n"
    );
    assert_eq!(
        usi("2"),
        "position startpos moves 2g2f 3c3d 2f2e 2b3c 7g7f\n"
    );
    assert_eq!(
        usi("3"),
        "position startpos moves 2g2f 3c3d 2f2e 2b3c 3i4h 8b4b\n"
    );
    let main = stdout(&shogi(&["convert", NESTED, "--to", "usi"]));
    assert_eq!(
        main,
        "position startpos moves 2g2f 3c3d 7g7f 4c4d 3i4h 3a3b\n"
    );
    // --ply counts along the variation's line.
    let out = shogi(&[
        "convert",
        NESTED,
        "--to",
        "sfen",
        "--variation",
        "2",
        "--ply",
        "4",
    ]);
    assert_eq!(
        stdout(&out),
        "lnsgkgsnl/1r7/ppppppbpp/6p2/7P1/9/PPPPPPP1P/1B5R1/LNSGKGSNL b - 5\n"
    );
    let out = shogi(&[
        "convert",
        NESTED,
        "--to",
        "moves",
        "--variation",
        "1",
        "--notation",
        "western",
    ]);
    assert_eq!(stdout(&out), "P-2f P-3d P-7f P-4d S-4h R-4b K-6h\n");
}

#[test]
fn a_record_without_the_variation_is_an_error_for_that_record() {
    // ONE has one variation, NESTED three: variation 2 is NESTED's alone.
    let out = shogi(&["convert", ONE, NESTED, "--to", "usi", "--variation", "2"]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out),
        "tests/fixtures/convert/variations.kifu: error: no variation 2: the record has 1 \
         variation (`shogi show` lists them)\n"
    );
    assert_eq!(
        stdout(&out),
        "position startpos moves 2g2f 3c3d 2f2e 2b3c 7g7f\n"
    );
    let out = shogi(&["convert", NESTED, "--to", "kif", "--variation", "1"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).starts_with("error: --variation goes with --to sfen"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn training_data_of_a_variation_has_its_moves_and_its_result() {
    // Variation 1 ends with gote resigning: sente won. Each line: SFEN, move, ply, result
    // for the side to move, eval.
    let out = shogi(&["convert", NESTED, "--to", "positions", "--variation", "1"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<(String, String, String)> = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[1].to_string(), f[2].to_string(), f[3].to_string())
        })
        .collect();
    let moves = ["2g2f", "3c3d", "7g7f", "4c4d", "3i4h", "8b4b", "5i6h"];
    assert_eq!(rows.len(), moves.len(), "{text}");
    for (i, (mv, ply, result)) in rows.iter().enumerate() {
        assert_eq!(mv, moves[i]);
        assert_eq!(ply, &(i + 1).to_string());
        assert_eq!(result, if i % 2 == 0 { "1" } else { "-1" });
    }
    // The main line: gote won.
    let main = stdout(&shogi(&["convert", NESTED, "--to", "positions"]));
    assert!(
        main.lines()
            .next()
            .is_some_and(|l| l.split('\t').nth(3) == Some("-1")),
        "{main}"
    );
    // Variation 3 states no ending: left out as unfinished, as any such game.
    let out = shogi(&["convert", NESTED, "--to", "positions", "--variation", "3"]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).is_empty());
    assert!(
        stderr(&out).contains("1 without a result"),
        "{}",
        stderr(&out)
    );
    let out = shogi(&["convert", NESTED, "--to", "positions", "--variation", "4"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("error: record 1: no variation 4"),
        "{}",
        stderr(&out)
    );
}

//! `shogi show`: the board, hands, side to move, check and mate, the SFEN and the moves so far
//! in every notation; ASCII boards, handicaps, Mini Shogi, and records with errors.

use crate::common;

use common::{Output, assert_contains, shogi, stderr, stdout};

/// Standard output, then standard error and the exit code: one text for a snapshot.
fn everything(out: &Output) -> String {
    format!(
        "{}--- stderr (exit {}) ---\n{}",
        stdout(out),
        out.code,
        stderr(out)
    )
}

fn show(args: &[&str]) -> String {
    let mut all = vec!["show"];
    all.extend_from_slice(args);
    everything(&shogi(&all))
}

#[test]
fn japanese_notation_with_a_capture_a_promotion_and_dou() {
    insta::assert_snapshot!("show_japanese", show(&["samples/game.kif", "--ply", "12"]));
}

#[test]
fn western_notation() {
    insta::assert_snapshot!(
        "show_western",
        show(&["samples/game.kif", "--ply", "12", "--notation", "western"])
    );
}

#[test]
fn usi_notation_on_an_ascii_board() {
    insta::assert_snapshot!(
        "show_usi_ascii",
        show(&[
            "samples/game.kif",
            "--ply",
            "12",
            "--notation",
            "usi",
            "--ascii"
        ])
    );
}

#[test]
fn every_format_of_the_sample_shows_the_same_final_position() {
    let sfen = |path: &str| {
        let text = show(&[path, "--notation", "usi"]);
        text.lines()
            .find(|l| l.starts_with("SFEN: "))
            .map(str::to_string)
            .unwrap_or_default()
    };
    let kif = sfen("samples/game.kif");
    assert!(kif.starts_with("SFEN: "), "{kif}");
    for other in [
        "samples/game.ki2",
        "samples/game.csa",
        "samples/game.jkf",
        "samples/game.usi",
    ] {
        assert_eq!(sfen(other), kif, "{other}");
    }
}

#[test]
fn a_handicap_game_names_uwate_and_shitate() {
    insta::assert_snapshot!(
        "show_handicap",
        show(&["tests/fixtures/show/handicap.kif", "--notation", "western"])
    );
    let ja = show(&["tests/fixtures/show/handicap.kif", "--ply", "4"]);
    assert!(ja.contains("3 △８八角成\n4 ▲同銀\n"), "{ja}");
}

#[test]
fn mini_shogi() {
    insta::assert_snapshot!("show_mini", show(&["samples/mini.kif"]));
    insta::assert_snapshot!(
        "show_mini_start_ascii",
        show(&["startpos", "--variant", "mini", "--ascii"])
    );
}

#[test]
fn check_and_mate() {
    insta::assert_snapshot!(
        "show_check",
        show(&["position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b"])
    );
    let mate = show(&["position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b"]);
    assert!(
        mate.contains("Check: gote (white, △) is checkmated\n"),
        "{mate}"
    );
    let before = show(&[
        "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b",
        "--ply",
        "0",
    ]);
    assert!(before.contains("Check: no\n"), "{before}");
    assert!(!before.contains("Moves:"), "{before}");
}

#[test]
fn a_record_with_an_error_is_shown_up_to_it_and_the_error_is_located() {
    insta::assert_snapshot!(
        "show_error",
        show(&["tests/fixtures/records/nifu.kif", "--notation", "western"])
    );
}

#[test]
fn sfen_startpos_and_usi_lines() {
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    let out = shogi(&["show", sfen, "--ascii"]);
    assert_eq!(out.code, 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(&format!("SFEN: {sfen}\n")), "{text}");
    assert!(text.contains("To move: gote"), "{text}");
    for line in ["startpos moves 7g7f", "position startpos moves 7g7f"] {
        let out = shogi(&["show", line, "--notation", "western"]);
        assert_eq!(out.code, 0, "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains(&format!("SFEN: {sfen}\n")), "{text}");
        assert!(text.ends_with("Moves:\n1 P-7f\n"), "{text}");
    }
}

#[test]
fn bad_requests_are_usage_errors() {
    let cases: [&[&str]; 5] = [
        &["show", "samples/game.kif", "--ply", "1000"],
        &["show", "samples/game.kif", "--game", "2"],
        &["show", "no-such-file.kif"],
        &["show", "lnsgkgsnl/1r5b1 b - 1"],
        &["show", "startpos", "--notation", "klingon"],
    ];
    for args in cases {
        let out = shogi(args);
        assert_eq!(out.code, 2, "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
        assert_eq!(
            stderr(&out).lines().count(),
            1,
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = shogi(&["show", "samples/game.kif", "--ply", "1000"]);
    assert_contains(&stderr(&out), "--ply 1000");
}

#[test]
fn moves_in_every_notation() {
    let list = |notation: &str| {
        let out = shogi(&["moves", "startpos", "--notation", notation]);
        assert_eq!(out.code, 0, "{}", stderr(&out));
        stdout(&out).lines().map(str::to_string).collect::<Vec<_>>()
    };
    let (usi, western, japanese) = (list("usi"), list("western"), list("japanese"));
    assert_eq!(usi.len(), 30);
    assert_eq!(
        usi,
        stdout(&shogi(&["moves", "startpos"]))
            .lines()
            .collect::<Vec<_>>()
    );
    // The same order (by USI text) in every notation, one line per move, no two alike.
    for (u, (w, j)) in usi.iter().zip(western.iter().zip(&japanese)) {
        match u.as_str() {
            "7g7f" => assert_eq!((w.as_str(), j.as_str()), ("P-7f", "▲７六歩")),
            "3i4h" => assert_eq!((w.as_str(), j.as_str()), ("S-4h", "▲４八銀")),
            "6i5h" => assert_eq!((w.as_str(), j.as_str()), ("G6i-5h", "▲５八金左")),
            _ => {}
        }
    }
    for list in [&western, &japanese] {
        let mut unique = list.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 30, "{list:?}");
    }
    let gote = shogi(&[
        "moves",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        "--notation",
        "japanese",
    ]);
    assert_contains(&stdout(&gote), "△３四歩\n");
}

#[test]
fn svg_format_draws_the_position_shown() {
    // The SVG of `--format svg` is the library's picture of the position the text shows.
    let text = shogi(&["show", "samples/game.kif", "--ply", "12"]);
    let sfen = stdout(&text)
        .lines()
        .find_map(|l| l.strip_prefix("SFEN: "))
        .expect("an SFEN line")
        .to_string();
    let pos = shogi_core::Position::from_sfen(&sfen).expect("the SFEN shown");
    let svg = shogi(&["show", "samples/game.kif", "--ply", "12", "--format", "svg"]);
    assert_eq!(svg.code, 0, "{}", stderr(&svg));
    assert_eq!(stdout(&svg), format!("{}\n", shogi_kif::board::svg(&pos)));
    // One glyph per piece on the board.
    let on_board = (1..=9u8)
        .flat_map(|f| (1..=9u8).filter_map(move |r| shogi_core::Square::new(f, r)))
        .filter(|sq| pos.piece_at(*sq).is_some())
        .count();
    let glyphs = stdout(&svg).matches("font-size=\"28\"").count();
    assert!(on_board > 30, "{on_board}");
    assert_eq!(glyphs, on_board, "{}", stdout(&svg));
    // An ASCII board is text: not with an SVG.
    let both = shogi(&["show", "samples/game.kif", "--ascii", "--format", "svg"]);
    assert_eq!(both.code, 2, "{}", stderr(&both));
}

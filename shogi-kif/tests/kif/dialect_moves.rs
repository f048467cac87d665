//! Two dialects of real records (issue 19): a KIF move naming the unpromoted piece for the
//! promoted one on its source square, and a final foul move left out of the closing line's
//! count; on the fixtures of `tests/fixtures/dialects` (made by
//! `scripts/make-dialect-fixtures.py`, UTF-8 and Shift_JIS bytes of each), in KIF and KI2.

use crate::dialects;

use dialects::{fixture, games, one, warnings};
use shogi_kif::{EndingKind, Format, ReadOptions, ReadRecord, Severity, read_bytes, read_str};

#[test]
fn promoted_piece_named_unpromoted_is_read_as_the_piece_on_its_square() {
    for name in ["promoted_source.kif", "promoted_source.kifu"] {
        let g = one(name);
        assert!(g.is_valid(), "{name}: {:?}", g.error);
        assert_eq!(
            g.record.usi_moves(),
            ["7g7f", "3c3d", "8h2b+", "7a6b", "2b1a", "5a4b", "1a2b"],
            "{name}"
        );
        assert_eq!(
            g.record.ending().map(|e| &e.kind),
            Some(&EndingKind::Resign)
        );
        let w = warnings(&g);
        assert_eq!(w.len(), 1, "{name}: {w:?}");
        assert_eq!(
            w[0],
            "move 5 １一角(22): the piece on 22 is 馬, written 角: read as the 馬's move \
             (2 moves of the record name a promoted piece so)"
        );
        let d = g
            .diagnostics
            .iter()
            .find(|d| d.line == 11)
            .expect("at move 5");
        assert_eq!(d.column, 6);
    }
    assert_eq!(
        one("promoted_source.kif").record,
        one("promoted_source.kifu").record
    );
}

/// A KIF record of `sfen` (a board diagram) and then the move line `mv`.
fn kif_from(sfen: &str, mv: &str) -> String {
    let start =
        read_str(&format!("position sfen {sfen}"), ReadOptions::default()).expect("the position");
    let mut text = shogi_kif::write(&start, Format::Kif);
    text.push_str(&format!("   1 {mv}\n"));
    text
}

#[test]
fn every_promoted_kind_named_unpromoted_reads_and_other_kinds_stay_errors() {
    let cases = [
        ("+R", "５四飛(55)", "5e5d", "龍"),
        ("+B", "４四角(55)", "5e4d", "馬"),
        ("+S", "５四銀(55)", "5e5d", "成銀"),
        ("+N", "５四桂(55)", "5e5d", "成桂"),
        ("+L", "５四香(55)", "5e5d", "成香"),
        ("+P", "５四歩(55)", "5e5d", "と"),
    ];
    for (piece, mv, usi, kanji) in cases {
        let sfen = format!("7k1/9/9/9/4{piece}4/9/9/9/4K4 b - 1");
        let text = kif_from(&sfen, mv);
        let all = games(text.as_bytes(), ReadOptions::default());
        let g = &all[0];
        assert!(g.is_valid(), "{piece}: {:?}", g.error);
        assert_eq!(g.record.usi_moves(), [usi], "{piece}");
        let w = warnings(g);
        assert_eq!(w.len(), 1, "{piece}: {w:?}");
        assert!(
            w[0].contains(&format!("the piece on 55 is {kanji}")),
            "{piece}: {}",
            w[0]
        );
    }
    // Another kind altogether, the promoted name for an unpromoted piece, and promoting a
    // promoted piece stay errors.
    let errors = [
        ("+S", "５四金(55)", "the piece on 55 is 成銀, not 金"),
        ("R", "５四角(55)", "the piece on 55 is 飛, not 角"),
        ("+B", "５四飛(55)", "the piece on 55 is 馬, not 飛"),
        ("S", "５四成銀(55)", "the piece on 55 is 銀, not 成銀"),
        ("+R", "５三飛成(55)", ""),
    ];
    for (piece, mv, message) in errors {
        let sfen = format!("7k1/9/9/9/4{piece}4/9/9/9/4K4 b - 1");
        let text = kif_from(&sfen, mv);
        let err = read_bytes(text.as_bytes(), ReadOptions::default())
            .expect_err(&format!("{piece} {mv}"));
        assert!(
            err.message.contains(message),
            "{piece} {mv}: {}",
            err.message
        );
        assert_eq!(err.ply, Some(1));
    }
}

#[test]
fn ki2_has_no_source_square_so_a_misnamed_promoted_piece_stays_an_error() {
    let start = read_str(
        "position sfen 7k1/9/9/9/4+B4/9/9/9/4K4 b - 1",
        ReadOptions::default(),
    )
    .expect("the position");
    let mut text = shogi_kif::write(&start, Format::Ki2);
    text.push_str("▲４四角\n");
    let err = read_bytes(text.as_bytes(), ReadOptions::with_format(Format::Ki2))
        .expect_err("KI2 cannot tell");
    assert_eq!(
        err.message,
        "move 1 ▲４四角: no 角 of sente can move to ４四 (the 馬 on 55 can: KI2 names a promoted \
         piece as promoted)"
    );
}

fn foul_facts(name: &str, g: &ReadRecord) {
    assert!(g.is_valid(), "{name}: {:?}", g.error);
    let r = &g.record;
    assert_eq!(r.moves.moves.len(), 9, "{name}");
    assert_eq!(r.usi_moves()[8], "P*7e", "{name}");
    assert!(r.moves.moves[..8].iter().all(|m| m.foul.is_none()));
    let foul = r.moves.moves[8].foul.expect("the foul");
    assert_eq!(foul, shogi_core::PlayError::Nifu, "{name}");
    assert_eq!(
        r.ending().map(|e| &e.kind),
        Some(&EndingKind::FoulWin),
        "{name}"
    );
    // The position stops before the foul.
    assert_eq!(
        r.final_position().map(|p| p.to_sfen()),
        Some("lnsgkgsnl/1r5b1/p1pppp2p/6pR1/1p7/9/PPPPPPP1P/1B7/LNSGKGSNL b Pp 9".to_string()),
        "{name}"
    );
}

#[test]
fn final_foul_left_out_of_the_closing_count_is_the_ending() {
    for name in [
        "foul_closing.kif",
        "foul_closing.kifu",
        "foul_closing.ki2",
        "foul_closing.ki2u",
        "foul_comment.kif",
        "foul_comment.kifu",
        "foul_comment.ki2",
        "foul_comment.ki2u",
    ] {
        let g = one(name);
        foul_facts(name, &g);
        // No warning; a note names the foul move.
        assert!(warnings(&g).is_empty(), "{name}: {:?}", g.diagnostics);
        let notes: Vec<_> = g
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Note)
            .collect();
        assert_eq!(notes.len(), 1, "{name}: {:?}", g.diagnostics);
        assert!(
            notes[0].message.starts_with("move 9 ")
                && notes[0].message.contains("is the foul the game ended on")
                && notes[0].message.contains("counts the 8 moves before it"),
            "{name}: {}",
            notes[0].message
        );
        // Written back in KIF and KI2 it reads the same.
        for format in [Format::Kif, Format::Ki2] {
            let text = shogi_kif::write(&g.record, format);
            let back = games(text.as_bytes(), ReadOptions::with_format(format));
            assert_eq!(back.len(), 1);
            foul_facts(&format!("{name} as {format:?}:\n{text}"), &back[0]);
            assert_eq!(
                back[0].record.moves.moves[8].foul,
                g.record.moves.moves[8].foul
            );
            assert!(warnings(&back[0]).is_empty(), "{text}");
        }
    }
    let (a, b) = (one("foul_comment.ki2"), one("foul_comment.ki2u"));
    assert_eq!(a.record, b.record);
}

#[test]
fn a_closing_line_that_does_not_leave_the_move_out_keeps_it_an_error() {
    for name in ["foul_comment.kifu", "foul_comment.ki2u"] {
        closing_lines_that_keep_the_error(name);
    }
}

fn closing_lines_that_keep_the_error(name: &str) {
    let kif = String::from_utf8(fixture(name)).expect("UTF-8");
    for (closing, why) in [
        ("まで8手で先手の勝ち", "names the mover the winner"),
        ("まで9手で後手の勝ち", "counts the move"),
        ("まで7手で後手の勝ち", "counts fewer moves"),
        ("まで8手で中断", "names no winner"),
    ] {
        let text = kif.replace("まで8手で後手の勝ち", closing);
        let err = read_str(&text, ReadOptions::default()).expect_err(why);
        assert_eq!(err.ply, Some(9), "{name}: {why}: {err}");
    }
    // Without the comment, the same: the closing line alone says so.
    let text = kif.replace("*二歩\n", "");
    let g = &games(text.as_bytes(), ReadOptions::default())[0];
    foul_facts(&format!("{name} without the comment"), g);
}

#[test]
fn declared_fouls_read_before_are_read_as_before() {
    // A foul ending line after the move, the count including the move: no note, no warning.
    let kif = "手合割：平手\n   1 ２六歩(27)\n   2 ３四歩(33)\n   3 ２五歩(26)\n   4 ８四歩(83)\n   5 ２四歩(25)\n   6 同　歩(23)\n   7 同　飛(28)\n   8 ８五歩(84)\n   9 ７五歩打\n  10 反則勝ち\nまで9手で後手の反則勝ち\n";
    let g = &games(kif.as_bytes(), ReadOptions::default())[0];
    foul_facts("declared", g);
    assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
}

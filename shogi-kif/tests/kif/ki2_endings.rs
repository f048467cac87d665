//! KI2 endings: each line's ending is its `まで…` line (the main line's as Kifu for Windows
//! writes it, a variation's as tsshogi does), and our reader takes every one of them back.

use shogi_kif::{EndingKind, Format, Line};

/// A line as JSON: everything but source line numbers.
fn json(l: &Line) -> serde_json::Value {
    serde_json::to_value(l).expect("serialisable")
}

/// A game of two moves ending in `word`, with a variation at move 2 that ends the same way
/// after one more move, and a comment on each ending.
fn game(word: &str) -> String {
    format!(
        "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)+\n   3 {word}\n*main {word}\n\n\
         変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n   4 {word}\n*variation {word}\n"
    )
}

const WORDS: [(&str, EndingKind); 8] = [
    ("投了", EndingKind::Resign),
    ("詰み", EndingKind::Mate),
    ("千日手", EndingKind::Repetition),
    ("入玉勝ち", EndingKind::Declaration),
    ("切れ負け", EndingKind::TimeUp),
    ("反則勝ち", EndingKind::FoulWin),
    ("反則負け", EndingKind::FoulLoss),
    ("中断", EndingKind::Interrupt),
];

#[test]
fn ki2_endings_main_line_and_variation() {
    let mut all = String::new();
    for (word, kind) in WORDS {
        let r = shogi_kif::read_str(&game(word), Default::default()).expect("a valid KIF");
        assert_eq!(r.ending().map(|e| &e.kind), Some(&kind));
        let ki2 = shogi_kif::write(&r, Format::Ki2);
        // No ending is written as a move-like line.
        assert!(!ki2.contains(&format!("▲{word}")), "{ki2}");
        assert!(!ki2.contains(&format!("△{word}")), "{ki2}");
        let back = shogi_kif::read_str(&ki2, shogi_kif::ReadOptions::with_format(Format::Ki2))
            .expect("our KI2 reads back");
        assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
        assert_eq!(json(&back.moves), json(&r.moves), "{word}");
        all.push_str(&format!("--- {word}\n{ki2}"));
    }
    insta::assert_snapshot!(all);
}

#[test]
fn ki2_endings_of_a_handicap_game_name_uwate_and_shitate() {
    let kif = "手合割：香落ち\n手数----指手--\n   1 ５二玉(51)\n   2 ７六歩(77)\n   3 投了\n";
    let r = shogi_kif::read_str(kif, Default::default()).expect("a valid handicap KIF");
    let ki2 = shogi_kif::write(&r, Format::Ki2);
    assert!(
        ki2.ends_with("△５二玉    ▲７六歩\nまで2手で下手の勝ち\n"),
        "{ki2}"
    );
    let back = shogi_kif::read_str(&ki2, shogi_kif::ReadOptions::with_format(Format::Ki2))
        .expect("reads back");
    assert_eq!(json(&back.moves), json(&r.moves));
}

#[test]
fn unusual_endings_are_named_by_their_word() {
    for (word, kind) in [
        ("不戦勝", EndingKind::WinByDefault),
        ("不戦敗", EndingKind::LossByDefault),
        ("封じ手", EndingKind::SealedMove),
        ("持将棋", EndingKind::Impasse),
        ("不詰", EndingKind::NoMate),
    ] {
        let r = shogi_kif::read_str(&game(word), Default::default()).expect("a valid KIF");
        assert_eq!(r.ending().map(|e| &e.kind), Some(&kind));
        let ki2 = shogi_kif::write(&r, Format::Ki2);
        assert!(ki2.contains(&format!("\nまで2手で{word}\n")), "{ki2}");
        assert!(ki2.contains(&format!("\nまで3手で{word}\n")), "{ki2}");
        let back = shogi_kif::read_str(&ki2, shogi_kif::ReadOptions::with_format(Format::Ki2))
            .expect("reads back");
        assert_eq!(json(&back.moves), json(&r.moves), "{word}");
    }
}

//! Bad input: every case gives a located error or a reported warning, never a panic, a
//! hang or unbounded memory. Error messages with their locations are pinned by snapshots.

use shogi_kif::{Encoding, ErrorKind, Format, ReadOptions, Reader, read_bytes, read_str};

fn err(text: &str, hint: Option<Format>) -> shogi_kif::ReadError {
    match read_str(text, ReadOptions::with_hint(hint)) {
        Ok(r) => panic!("expected an error, read {:?}", r.usi_moves()),
        Err(e) => e,
    }
}

#[test]
fn error_messages_are_located() {
    let cases: Vec<(&str, &str, Option<Format>)> = vec![
        (
            "illegal KIF move",
            "手合割：平手\n   1 ７六歩(77)\n   2 ３五歩(33)\n",
            None,
        ),
        ("wrong piece at the source", "   1 ７六金(77)\n", None),
        (
            "drop without the piece in hand (KI2)",
            "▲７六歩 △３四歩 ▲７五歩打\n",
            Some(Format::Ki2),
        ),
        (
            "ambiguous KI2",
            "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ 金 ・ 金 ・ ・ ・|八\n| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：なし\n▲５八金\n",
            Some(Format::Ki2),
        ),
        ("wrong side in CSA", "PI\n+\n-3334FU\n", None),
        ("truncated KIF move", "   1 ７六\n", Some(Format::Kif)),
        (
            "move number gap",
            "   1 ７六歩(77)\n   3 ２六歩(27)\n",
            None,
        ),
        (
            "absurd move number",
            "   99999999999 ７六歩(77)\n",
            Some(Format::Kif),
        ),
        (
            "absurd hand count",
            "先手の持駒：歩九十九\n",
            Some(Format::Kif),
        ),
        ("bad CSA time", "PI\n+\n+7776FU\nT1e300\n", None),
        (
            "bad P row",
            "P1-KY-KE-GI-KI-OU-KI-GI-KE\n+\n",
            Some(Format::Csa),
        ),
        (
            "unknown handicap",
            "手合割：十九枚落ち\n   1 ７六歩(77)\n",
            None,
        ),
        ("bad SFEN", "sfen lnsgkgsnl/9 b - 1\n", None),
        ("bad USI move", "position startpos moves 7g7f 3c3z\n", None),
        (
            "illegal USI",
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*2b B*5e\n",
            None,
        ),
        (
            "truncated JSON",
            "{\"header\": {}, \"moves\": [{}, {\"move\": ",
            None,
        ),
        (
            "JKF schema",
            "{\"header\": {}, \"moves\": [{}, {\"move\": {\"piece\": \"XX\"}}]}",
            None,
        ),
        (
            "JKF square",
            "{\"moves\": [{},\n {\"move\": {\"to\": {\"x\": 0, \"y\": 5}, \"piece\": \"FU\"}}]}",
            None,
        ),
        (
            "JKF start",
            "{\"initial\": {\"preset\": \"OTHER\",\n \"data\": {\"board\": [], \"color\": 0, \"hands\": []}},\n \"moves\": [{}]}",
            None,
        ),
    ];
    let mut rendered = Vec::new();
    for (name, text, hint) in cases {
        let e = err(text, hint);
        assert!(
            e.location.line > 0 || e.kind == ErrorKind::Json,
            "{name}: no location: {e:?}"
        );
        rendered.push(format!(
            "[{name}] kind={} ply={:?}\n{}",
            e.kind.name(),
            e.ply,
            e.clone().with_path("case.kif").render()
        ));
    }
    insta::assert_snapshot!(rendered.join("\n\n"));
}

#[test]
fn binary_junk() {
    let junk: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let e = read_bytes(&junk, ReadOptions::default()).unwrap_err();
    assert!(
        matches!(
            e.kind,
            ErrorKind::Encoding | ErrorKind::UnknownFormat | ErrorKind::Syntax
        ),
        "{e}"
    );
}

#[test]
fn wrong_encoding_override() {
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("手合割：平手\n   1 ７六歩(77)\n");
    let e = read_bytes(
        &sjis,
        ReadOptions {
            encoding: Some(Encoding::Utf8),
            ..ReadOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Encoding);
    assert_eq!(e.location.line, 1);
    // Without the override the bytes are recognised as Shift_JIS.
    assert_eq!(
        read_bytes(&sjis, ReadOptions::default())
            .unwrap()
            .usi_moves(),
        ["7g7f"]
    );
}

#[test]
fn unknown_header_keys_are_kept() {
    let r = read_str(
        "謎の項目：値\n$WEIRD\n先手：a\n   1 ７六歩(77)\n",
        ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(r.header.entries[0].key.kif(), "謎の項目");
    assert_eq!(r.header.entries[0].value, "値");
    assert!(
        r.diagnostics.iter().any(|d| d.line == 2),
        "{:?}",
        r.diagnostics
    );
}

/// King shuffles that let every variation branch from the previous one.
fn nested_kif(depth: usize) -> String {
    let chain = |ply: usize| ["５一玉(52)", "５八玉(59)", "５二玉(51)", "５九玉(58)"][ply % 4];
    let other = |ply: usize| ["４二玉(52)", "４八玉(59)", "４二玉(51)", "４八玉(58)"][ply % 4];
    let mut s = format!("   1 {}\n   2 {}\n", chain(1), other(2));
    for k in 1..depth {
        s.push_str(&format!(
            "変化：{}手\n{:>4} {}\n{:>4} {}\n",
            k + 1,
            k + 1,
            chain(k + 1),
            k + 2,
            other(k + 2)
        ));
    }
    s
}

#[test]
fn deep_variation_nesting() {
    let ok = read_str(&nested_kif(40), ReadOptions::default()).unwrap();
    let mut depth = 0;
    let mut line = &ok.moves;
    while let Some(v) = line.moves.iter().find_map(|m| m.variations.first()) {
        depth += 1;
        line = v;
    }
    assert_eq!(depth, 39);
    let e = read_str(&nested_kif(200), ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TooDeep, "{e}");
    // Deeply nested JSON is refused by the JSON reader's own limit.
    let deep_json = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(read_str(&deep_json, ReadOptions::with_hint(Some(Format::Jkf))).is_err());
}

#[test]
fn megabyte_lines() {
    let long = "あ".repeat(1 << 19);
    let r = read_str(
        &format!("手合割：平手\n*{long}\n   1 ７六歩(77)\n"),
        ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(r.start_comments[0].len(), long.len());
    let r = read_str(
        &format!("手合割：平手\n{long}\n   1 ７六歩(77)\n"),
        ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(r.diagnostics[0].line, 2);
    // A window of the line, cut with '…'.
    let kept = r.diagnostics[0].line_text.chars().count();
    assert!((190..=200).contains(&kept), "{kept}");
    assert!(r.diagnostics[0].line_text.ends_with('…'));
    let e = read_str(
        &format!("   1 ７六歩(77)\n   2 {long}\n"),
        ReadOptions::with_hint(Some(Format::Kif)),
    )
    .unwrap_err();
    assert_eq!(e.location.line, 2);
    assert!(e.line_text.chars().count() <= 200);
    let e = read_str(
        &format!("PI\n+\n+7776FU{}\n", "X".repeat(1 << 20)),
        ReadOptions::default(),
    );
    assert!(e.is_ok_and(|r| !r.diagnostics.is_empty()));
}

#[test]
fn truncated_files() {
    let full = std::fs::read_to_string(format!(
        "{}/tests/fixtures/kifu_for_windows.kif",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    // Cut at every character boundary: never a panic.
    for (i, _) in full.char_indices() {
        let _ = read_str(&full[..i], ReadOptions::default());
    }
    let csa = std::fs::read_to_string(format!(
        "{}/tests/fixtures/dialects.csa",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    for i in 0..csa.len() {
        let _ = read_str(&csa[..i], ReadOptions::with_hint(Some(Format::Csa)));
    }
    let bytes = full.as_bytes();
    for i in (0..bytes.len()).step_by(7) {
        let _ = read_bytes(&bytes[..i], ReadOptions::default());
    }
}

#[test]
fn many_games_stream() {
    let game = "PI\n+\n+7776FU\n-3334FU\n%TORYO\n/\n";
    let text = game.repeat(20_000);
    let mut n = 0;
    for r in Reader::new(text.as_bytes(), ReadOptions::default()).unwrap() {
        assert_eq!(r.into_result().unwrap().moves.moves.len(), 2);
        n += 1;
    }
    assert_eq!(n, 20_000);
    let usi = "position startpos moves 7g7f\n".repeat(20_000);
    let games = Reader::new(usi.as_bytes(), ReadOptions::default()).unwrap();
    assert_eq!(games.count(), 20_000);
}

/// Valid multi-byte characters (Japanese text, CP932 bytes decoded as text, a four-byte
/// character, a BOM) inserted at every character boundary of every line of small records
/// in each text format: never a panic. Byte-counted fields (CSA `P+00FU` groups, USI moves,
/// KIF sources) must not be sliced inside a character.
#[test]
fn multibyte_characters_anywhere() {
    let records = [
        "V2.2\nN+a\nN-b\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\nP+00FU00KY\nP-00AL\n+\n+7776FU,T1\n-3334FU\n%TORYO\n",
        "PI82HI\n-\n-3334FU\n+7776FU\n'* comment\n%CHUDAN\n/\nPI\n+\n+2726FU\n",
        "手合割：平手\n先手の持駒：歩二\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)\n*コメント\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\nまで4手で先手の勝ち\n",
        "手合割：平手\n▲７六歩 △３四歩 ▲２二角成 △同銀\n▲４五角打 △５二金右\nまで6手で後手の勝ち\n",
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2P 1 moves P*5e\n",
    ];
    let inserts = ["あ", "歩", "ｱ", "\u{3000}", "𠮷", "\u{feff}", "繧ｹ"];
    for rec in records {
        for (at, _) in rec.char_indices() {
            for ins in inserts {
                let text = format!("{}{}{}", &rec[..at], ins, &rec[at..]);
                let _ = read_str(&text, ReadOptions::default());
                let _ = read_str(&text, ReadOptions::with_hint(Some(Format::Csa)));
            }
        }
    }
}

/// The line of the issue: a CSA hand line with CP932 garbage (decoded) between `00` and the
/// piece code gives a located error, not a panic.
#[test]
fn csa_hand_line_with_multibyte_text() {
    let text = "PI\nP-00\u{7e67}\u{ff79}CFU\n+\n+7776FU\n";
    let e = read_str(text, ReadOptions::with_hint(Some(Format::Csa))).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Position);
    assert_eq!(e.location.line, 2);
    let e = read_str("P-00あXFU\n+\n", ReadOptions::with_hint(Some(Format::Csa))).unwrap_err();
    assert_eq!(e.location.line, 1);
    assert_eq!(e.location.column, 3);
}

/// A USI move whose source and destination are the same square is read as a move and refused
/// by the rules (the square's content says why); text that is not a USI move is a syntax error.
#[test]
fn usi_moves_refused_by_syntax_or_by_rules() {
    let cases = [
        (
            "position startpos moves 7g7f 7g7g",
            ErrorKind::IllegalMove,
            "move 2 7g7g: no piece on the source square",
            (1, 30, 2, "7g7g"),
        ),
        (
            "startpos moves 7g7f 7a7a+",
            ErrorKind::IllegalMove,
            "move 2 7a7a+: the destination holds the mover's own piece",
            (1, 21, 2, "7a7a+"),
        ),
        (
            "position sfen 4k/5/5/5/K4 b - 1 moves 5e5e",
            ErrorKind::IllegalMove,
            "move 1 5e5e: the destination holds the mover's own piece",
            (1, 39, 1, "5e5e"),
        ),
        (
            "startpos moves 7g7f P*5e+",
            ErrorKind::Syntax,
            "\"P*5e+\" is not a USI move",
            (1, 21, 2, "P*5e+"),
        ),
        (
            "position startpos moves 7g7f 1a1j",
            ErrorKind::Syntax,
            "\"1a1j\" is not a USI move",
            (1, 30, 2, "1a1j"),
        ),
    ];
    for (line, kind, message, (l, col, ply, written)) in cases {
        let e = err(line, Some(Format::Usi));
        assert_eq!(e.kind, kind, "{line}");
        assert_eq!(
            e.to_string(),
            format!("<input>:{l}:{col}: error: {message}")
        );
        assert_eq!((e.location.line, e.location.column), (l, col), "{line}");
        assert_eq!(e.ply, Some(ply), "{line}");
        assert_eq!(e.written.as_deref(), Some(written), "{line}");
    }
}

/// A start with more than 99 pieces of a kind in a hand (hand lines that add up, found by
/// the `read_ki2` fuzz target) was read as valid, though the start, kept as SFEN, could not
/// be read again. It is refused where the hands are given.
#[test]
fn hands_past_99_pieces_of_a_kind() {
    let kif = format!("後手の持駒：{}\n先手番\n", "歩十八　".repeat(6));
    let e = err(&kif, Some(Format::Kif));
    assert_eq!(e.kind, ErrorKind::Position, "{e}");
    assert_eq!(e.location.line, 1, "{e}");
    assert!(e.message.contains("108 歩 in 後手's hand"), "{e}");
    // 99 are read.
    let kif = format!("後手の持駒：{}歩九\n先手番\n", "歩十八　".repeat(5));
    let r = read_str(&kif, ReadOptions::with_format(Format::Kif)).expect("read");
    assert!(r.start.sfen().contains(" 99p "), "{}", r.start.sfen());
    let csa = format!("P-{}\n+\n", "00FU".repeat(100));
    let e = err(&csa, Some(Format::Csa));
    assert_eq!(e.kind, ErrorKind::Position, "{e}");
}

//! Hand-written fixtures, one per dialect of FORMAT-FACTS §9: key facts asserted here, the
//! whole parsed record pinned by an insta snapshot (reviewed by hand).

use shogi_kif::{EndingKind, Format, ReadOptions, Reader, Record};

fn read_all(name: &str) -> Vec<Record> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let hint = name.rsplit('.').next().and_then(Format::from_extension);
    Reader::new(&bytes[..], ReadOptions::with_hint(hint))
        .unwrap_or_else(|e| panic!("{}", e.with_path(name)))
        .map(|r| {
            r.into_result()
                .unwrap_or_else(|e| panic!("{}", e.with_path(name).render()))
        })
        .collect()
}

fn one(name: &str) -> Record {
    let mut v = read_all(name);
    assert_eq!(v.len(), 1, "{name}");
    v.remove(0)
}

fn ending(r: &Record) -> Option<EndingKind> {
    r.ending().map(|e| e.kind.clone())
}

#[test]
fn kifu_for_windows() {
    let r = one("kifu_for_windows.kif");
    assert_eq!(r.usi_moves(), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert_eq!(ending(&r), Some(EndingKind::Resign));
    assert_eq!(r.start_comments, ["開始局面のコメント"]);
    assert_eq!(r.start_bookmarks, ["開始局面"]);
    assert_eq!(r.moves.moves[4].bookmarks, ["基本図"]);
    assert_eq!(
        r.moves.moves[4].time.and_then(|t| t.spent_ms),
        Some(5_400_000)
    );
    assert_eq!(
        r.header.get(&shogi_kif::HeaderKey::Other("対局ID".into())),
        Some("12345")
    );
    insta::assert_yaml_snapshot!(r);
}

#[test]
fn dialects_81dojo() {
    let r = one("dialects_81dojo.kif");
    assert_eq!(r.moves.moves.len(), 6);
    assert_eq!(ending(&r), Some(EndingKind::TimeUp));
    assert_eq!(r.moves.moves[1].time.and_then(|t| t.total_ms), None);
    insta::assert_yaml_snapshot!(r);
}

#[test]
fn half_colon_and_us_date() {
    let r = one("half_colon.kif");
    assert_eq!(r.header.black(), Some("先手"));
    assert_eq!(r.usi_moves(), ["2g2f", "8c8d"]);
    assert_eq!(ending(&r), Some(EndingKind::Interrupt));
}

#[test]
fn variations_nested() {
    let r = one("variations.kif");
    assert_eq!(r.usi_moves(), ["7g7f", "3c3d", "2g2f", "8c8d"]);
    let v2 = &r.moves.moves[1].variations;
    assert_eq!(v2.len(), 1);
    assert_eq!(v2[0].moves[0].mv.to_usi(), "8c8d");
    assert_eq!(ending(&r), Some(EndingKind::Interrupt));
    let v3 = &r.moves.moves[2].variations[0];
    assert_eq!(v3.moves[0].mv.to_usi(), "6g6f");
    assert_eq!(v3.moves[1].variations[0].moves[0].mv.to_usi(), "8b3b");
    insta::assert_yaml_snapshot!(r);
}

#[test]
fn sealed_move_then_second_special_is_reported() {
    let r = one("specials.kif");
    assert_eq!(ending(&r), Some(EndingKind::SealedMove));
    assert!(
        r.diagnostics.iter().any(|d| d.line == 6),
        "{:?}",
        r.diagnostics
    );
    insta::assert_yaml_snapshot!(r.diagnostics);
}

#[test]
fn inline_hash_is_reported_not_dropped() {
    let r = one("inline_hash.kif");
    assert_eq!(r.start.handicap, Some(shogi_core::Handicap::Even));
    assert_eq!(ending(&r), Some(EndingKind::FoulLoss));
    insta::assert_yaml_snapshot!(r.diagnostics);
}

#[test]
fn handicap_bod_with_shitate_to_move() {
    let r = one("handicap_bod.kif");
    assert!(r.start.sfen().contains(" b "), "{}", r.start.sfen());
    assert_eq!(r.header.black(), Some("したて"));
    assert_eq!(r.usi_moves(), ["3i3h", "3a2b"]);
}

#[test]
fn handicap_preset_uwate_first() {
    let r = one("handicap_kyo.kif");
    assert_eq!(r.start.handicap, Some(shogi_core::Handicap::Lance));
    assert_eq!(r.usi_moves(), ["3c3d", "7g7f"]);
    assert_eq!(ending(&r), Some(EndingKind::Resign));
    let kif = shogi_kif::write(&r, Format::Kif);
    assert!(
        kif.contains("上手：上手さん") && kif.contains("まで2手で下手の勝ち"),
        "{kif}"
    );
}

#[test]
fn tsume_with_space_separated_hands() {
    let r = one("tsume_hands.kif");
    assert_eq!(r.start.name.as_deref(), Some("詰将棋"));
    assert_eq!(r.usi_moves(), ["R*1b", "1a1b", "B*1c"]);
    assert_eq!(ending(&r), Some(EndingKind::Mate));
    insta::assert_yaml_snapshot!(r.start);
}

#[test]
fn mini_shogi_names_and_board() {
    let r = one("mini.kif");
    assert_eq!(r.start.sfen(), "rbsgk/4p/5/P4/KGSBR b - 1");
    assert_eq!(r.usi_moves(), ["1e1d", "4a2c", "1d1b"]);
    let g = one("mini_gogo.kif");
    assert!(
        g.start.sfen().starts_with("rbsgk/4p/P4/5/KGSBR w"),
        "{}",
        g.start.sfen()
    );
    assert_eq!(g.usi_moves(), ["1b1c", "1e1c"]);
    let f = one("mini_fullwidth.kif");
    assert_eq!(f.start.variant(), shogi_core::Variant::Mini);
    insta::assert_yaml_snapshot!(r);
}

#[test]
fn ki2_marks_digits_and_no_separators() {
    let r = one("marks.ki2");
    assert_eq!(
        r.usi_moves(),
        [
            "2g2f", "3c3d", "2f2e", "2b3c", "7g7f", "3a4b", "8h3c+", "4b3c"
        ]
    );
    assert_eq!(r.moves.moves[5].comments, ["コメント"]);
    assert_eq!(ending(&r), Some(EndingKind::Resign));
    insta::assert_yaml_snapshot!(r.usi_moves());
}

#[test]
fn ki2_qualifiers_resolve() {
    let r = one("qualifiers.ki2");
    // 左: of the golds on 6h and 4h (both move sideways to 5h) the one on sente's left (6h).
    // 直: of the golds on 5h and 4h (both move up to 5g) the one moving straight (5h).
    // 打: a gold could also reach 4g from the board, so the drop says 打.
    assert_eq!(r.usi_moves(), ["6h5h", "1a2a", "5h5g", "2a1a", "G*4g"]);
    let ki2 = shogi_kif::write(&r, Format::Ki2);
    assert!(
        ki2.contains("▲５八金左") && ki2.contains("▲５七金直") && ki2.contains("▲４七金打"),
        "{ki2}"
    );
    let back = shogi_kif::read_str(&ki2, ReadOptions::with_hint(Some(Format::Ki2))).unwrap();
    assert_eq!(back.usi_moves(), r.usi_moves());
}

#[test]
fn csa_dialects() {
    let r = one("dialects.csa");
    assert_eq!(r.usi_moves(), ["7g7f", "3c3d", "8h2b+", "3a2b"]);
    assert_eq!(r.moves.moves[0].time.and_then(|t| t.spent_ms), Some(12_000));
    assert_eq!(r.moves.moves[0].comments, ["programme comment"]);
    assert_eq!(r.moves.moves[2].time.and_then(|t| t.spent_ms), Some(6_123));
    assert_eq!(
        r.header.get(&shogi_kif::HeaderKey::Event),
        Some("test, with comma")
    );
    assert_eq!(
        r.header.get(&shogi_kif::HeaderKey::EndTime),
        Some("2024/05/05 15:31:22")
    );
    insta::assert_yaml_snapshot!(r);
}

#[test]
fn csa_without_header_or_position() {
    assert_eq!(one("no_header.csa").usi_moves(), ["7g7f", "3c3d"]);
    let w = one("wars.csa");
    assert_eq!(w.usi_moves(), ["7g7f", "8c8d"]);
    assert!(
        w.diagnostics
            .iter()
            .any(|d| d.message.contains("even-game"))
    );
}

#[test]
fn csa_multi_game_stream() {
    let games = read_all("multi.csa");
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].start.handicap, Some(shogi_core::Handicap::Rook));
    assert_eq!(games[1].usi_moves(), ["3c3d", "7g7f"]);
    assert_eq!(
        games[2].start.sfen(),
        "7nk/9/9/9/9/9/9/9/9 b G2r2b3g4s3n4l18p 1"
    );
    assert_eq!(ending(&games[2]), Some(EndingKind::Mate));
}

#[test]
fn usi_lines() {
    let games = read_all("lines.usi");
    assert_eq!(games.len(), 5);
    assert_eq!(ending(&games[1]), Some(EndingKind::Resign));
    assert_eq!(games[3].start.variant(), shogi_core::Variant::Mini);
    assert!(games[4].moves.moves.is_empty());
}

#[test]
fn jkf_with_forks() {
    let r = one("sample.jkf");
    assert_eq!(r.usi_moves(), ["7g7f", "3c3d", "8h2b+", "3a2b"]);
    assert_eq!(r.moves.moves[1].variations[0].moves[0].mv.to_usi(), "8c8d");
    assert_eq!(r.start_comments, ["start"]);
    insta::assert_yaml_snapshot!(r);
}

#[test]
fn encodings() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/kifu_for_windows.kif",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let expected = shogi_kif::read_str(&text, ReadOptions::default()).unwrap();
    let declared = text.replace("UTF-8", "Shift_JIS");
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(&declared);
    let (euc, _, _) = encoding_rs::EUC_JP.encode(&text);
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(text.as_bytes());
    let cases = [
        ("Shift_JIS, declared", sjis.to_vec(), ReadOptions::default()),
        ("EUC-JP, detected", euc.to_vec(), ReadOptions::default()),
        ("UTF-8 BOM", bom, ReadOptions::with_hint(Some(Format::Kif))),
    ];
    for (name, bytes, options) in cases {
        let read = shogi_kif::read_bytes(&bytes, options).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(read.moves, expected.moves, "{name}");
    }
}

#[test]
fn puzzle_diagram_breaking_rules_reads_with_a_warning() {
    let r = one("puzzle_nifu.kif");
    assert_eq!(r.start.sfen(), "8k/7p1/7p1/9/9/9/9/9/8p b 2G 1");
    assert_eq!(r.usi_moves(), ["G*1b", "1a1b", "G*1c", "1b1c"]);
    assert_eq!(r.start_position().to_sfen(), r.start.sfen());
    let w: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == shogi_kif::Severity::Warning)
        .collect();
    assert_eq!(w.len(), 1, "{:?}", r.diagnostics);
    assert!(
        w[0].message.contains("nifu") && w[0].message.contains("dead piece"),
        "{}",
        w[0].message
    );
    // The same diagram as SFEN reads the same way.
    let usi = shogi_kif::read_str(
        "sfen 8k/7p1/7p1/9/9/9/9/9/8p b 2G 1 moves G*1b\n",
        ReadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(usi.usi_moves(), ["G*1b"]);
    assert!(usi.diagnostics.iter().any(|d| d.message.contains("nifu")));
}

#[test]
fn jkf_writer_keeps_header_order() {
    let r = one("kifu_for_windows.kif");
    let keys: Vec<String> = r
        .header
        .entries
        .iter()
        .map(|e| e.key.kif().to_string())
        .collect();
    assert!(keys.len() >= 3, "{keys:?}");
    let jkf = shogi_kif::write(&r, Format::Jkf);
    // The keys appear in the text in the record's order, not sorted.
    let mut at = 0;
    for k in &keys {
        let quoted = format!("\"{k}\":");
        let i = jkf[at..]
            .find(&quoted)
            .unwrap_or_else(|| panic!("{k} missing or out of order in\n{jkf}"));
        at += i + quoted.len();
    }
    let back = shogi_kif::read_str(&jkf, ReadOptions::with_hint(Some(Format::Jkf)))
        .unwrap_or_else(|e| panic!("{e}"));
    let back_keys: Vec<String> = back
        .header
        .entries
        .iter()
        .map(|e| e.key.kif().to_string())
        .collect();
    assert_eq!(back_keys, keys);
}

//! Endings a format cannot write as themselves: nothing is dropped or changed silently. An
//! unknown word that would read back as another ending (or as a move, or not at all) is
//! written as 不明 with the word as the ending's first comment in KIF, KI2 and JKF, so that
//! the ending keeps its variations; CSA writes it as a comment line; `losses` names it in
//! every case. And KI2 reads back the ending of a line with no moves at the record's start.

use shogi_kif::{EndingKind, Format, Line, Loss, ReadOptions, Record, UNKNOWN_ENDING_WORD};

fn read_as(text: &str, f: Format) -> Record {
    shogi_kif::read_str(text, ReadOptions::with_format(f))
        .unwrap_or_else(|e| panic!("{f:?} does not read: {e}\n{text}"))
}

/// Written as `f` and read back.
fn round_trip(record: &Record, f: Format) -> (Record, String) {
    let text = shogi_kif::write(record, f);
    (read_as(&text, f), text)
}

/// The move tree as text: moves, endings and their variations, nested.
fn tree(line: &Line) -> String {
    let mut s = String::from("(");
    for n in &line.moves {
        s.push_str(&n.mv.to_usi());
        for v in &n.variations {
            s.push_str(&format!(" [{}]", tree(v)));
        }
        s.push(' ');
    }
    if let Some(e) = &line.ending {
        s.push_str(&format!("{:?}", e.kind));
        for v in &e.variations {
            s.push_str(&format!(" [{}]", tree(v)));
        }
    }
    s.push(')');
    s
}

const P76: &str = r#"{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU","color":0}}"#;
const P34: &str = r#"{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU","color":1}}"#;

/// A game: ７六歩, then the unknown word `word` as the ending, with a variation ３四歩 投了 in
/// its place. (Set in the model: the JKF and KIF readers read a word they know as that
/// ending, and each reader has its own way to read text as an unknown word.)
fn ending_with_a_variation(word: &str) -> Record {
    let jkf = format!(
        r#"{{"header":{{}},"moves":[{{}},{P76},{{"special":"CHUDAN","forks":[[{P34},{{"special":"TORYO"}}]]}}]}}"#
    );
    let mut record = read_as(&jkf, Format::Jkf);
    if let Some(e) = &mut record.moves.ending {
        e.kind = EndingKind::Other(word.to_string());
    }
    record
}

/// The KIF fault the `write` fuzz target found: an unknown word written as a comment left
/// the line without an ending, and the ending's variation read back as the line's next move.
/// Now the ending is 不明, the word its comment, and the variation hangs where it was.
#[test]
fn an_unknown_word_that_cannot_be_written_keeps_its_variations() {
    let mut replaced = 0;
    for word in [
        "７六歩",
        "a\nb",
        " padded ",
        "投了 by time",
        "TORYO",
        "%TORYO",
        "",
    ] {
        let record = ending_with_a_variation(word);
        let want_tree = format!("(7g7f Other({UNKNOWN_ENDING_WORD:?}) [(3c3d Resign)])");
        for f in [Format::Kif, Format::Ki2, Format::Jkf] {
            let kind = EndingKind::Other(word.into());
            let (back, text) = round_trip(&record, f);
            if kind.reads_back_in(f) {
                assert_eq!(tree(&back.moves), tree(&record.moves), "{f:?}\n{text}");
                assert_eq!(shogi_kif::losses(&record, f), [], "{f:?} {word:?}");
                continue;
            }
            replaced += 1;
            assert_eq!(tree(&back.moves), want_tree, "{f:?} {word:?}\n{text}");
            let comments = &back.ending().expect("an ending").comments;
            // KIF and KI2 write each line of a comment on its own comment line.
            assert_eq!(comments.join("\n"), word, "{f:?}\n{text}");
            assert_eq!(
                shogi_kif::losses(&record, f),
                [Loss::Ending(kind)],
                "{f:?} {word:?}"
            );
        }
    }
    // In KIF and KI2 every word but TORYO and %TORYO is replaced; in JKF only TORYO.
    assert_eq!(replaced, 11);
}

/// A CSA or KIF word kept as an unknown word (read from KIF `TORYO` or `%TORYO`) read back
/// from JKF and CSA as a resignation, silently; a `%` word with a line break wrote a move
/// into the CSA text. Now each is written as something that cannot be taken for another
/// ending, and `losses` names it.
#[test]
fn csa_and_jkf_words_as_unknown_words_are_not_read_as_known_endings() {
    let game = |word: &str| {
        let jkf = format!(
            r#"{{"header":{{}},"moves":[{{}},{P76},{{"special":{}}}]}}"#,
            serde_json::to_string(word).expect("a string")
        );
        read_as(&jkf, Format::Jkf)
    };
    let kif = read_as("手数----指手--\n   1 ７六歩(77)\n   2 TORYO\n", Format::Kif);
    assert_eq!(
        kif.ending().map(|e| &e.kind),
        Some(&EndingKind::Other("TORYO".into()))
    );
    let (back, text) = round_trip(&kif, Format::Jkf);
    assert_eq!(
        back.ending().map(|e| &e.kind),
        Some(&EndingKind::Other("不明".into())),
        "{text}"
    );
    assert_eq!(
        back.ending().map(|e| e.comments.clone()),
        Some(vec!["TORYO".to_string()])
    );
    assert_eq!(
        shogi_kif::losses(&kif, Format::Jkf),
        [Loss::Ending(EndingKind::Other("TORYO".into()))]
    );

    for word in ["%TORYO", "%+ILLEGAL_ACTION", "%A\n-3334FU", "%A,T5", " %A"] {
        let record = game(word);
        let (back, text) = round_trip(&record, Format::Csa);
        assert_eq!(back.usi_moves(), ["7g7f"], "{word:?}\n{text}");
        assert_eq!(back.ending(), None, "{word:?}\n{text}");
        assert_eq!(
            shogi_kif::losses(&record, Format::Csa),
            [Loss::Ending(EndingKind::Other(word.into()))],
            "{word:?}"
        );
    }
    // A `%` word CSA does not know reads back as itself, and is not named.
    let record = game("%MATTA");
    let (back, _) = round_trip(&record, Format::Csa);
    assert_eq!(
        back.ending().map(|e| &e.kind),
        Some(&EndingKind::Other("%MATTA".into()))
    );
    assert_eq!(shogi_kif::losses(&record, Format::Csa), []);
}

/// The ending of a variation that a format cannot write is named by `losses` too, not only
/// the main line's.
#[test]
fn losses_name_a_variations_ending() {
    let jkf = format!(
        r#"{{"header":{{}},"moves":[{{}},{P76},{{"special":"TORYO","forks":[[{P34},{{"special":"７六歩"}}]]}}]}}"#
    );
    let record = read_as(&jkf, Format::Jkf);
    let lost = [Loss::Ending(EndingKind::Other("７六歩".into()))];
    assert_eq!(shogi_kif::losses(&record, Format::Kif), lost);
    assert_eq!(shogi_kif::losses(&record, Format::Ki2), lost);
    assert_eq!(shogi_kif::losses(&record, Format::Jkf), []);
    // CSA writes the main line only: the variation is lost as a whole.
    assert_eq!(
        shogi_kif::losses(&record, Format::Csa),
        [Loss::Variations(1)]
    );
}

/// KI2 writes the ending of a line with no moves as `まで0手で…`. At the record's start that
/// line followed no move with a side mark, and was read as the closing line only: an
/// unknown word was lost, and the variations of the start's ending became the main line.
#[test]
fn ki2_keeps_the_ending_of_a_line_with_no_moves_at_the_start() {
    let cases = [
        (r#"[{},{"special":"FOO"}]"#, "(Other(\"FOO\"))"),
        (r#"[{},{"special":"CHUDAN"}]"#, "(Interrupt)"),
        (
            r#"[{},{"special":"CHUDAN","forks":[[{"special":"FOO"}]]}]"#,
            "(Interrupt [(Other(\"FOO\"))])",
        ),
        (
            r#"[{},{"special":"CHUDAN","forks":[[{"special":"TORYO"}]]}]"#,
            "(Interrupt [(Resign)])",
        ),
        (
            &format!(r#"[{{}},{{"special":"FOO","forks":[[{P76}]]}}]"#),
            "(Other(\"FOO\") [(7g7f )])",
        ),
    ];
    for (moves, want) in cases {
        let record = read_as(
            &format!(r#"{{"header":{{}},"moves":{moves}}}"#),
            Format::Jkf,
        );
        assert_eq!(tree(&record.moves), want);
        let (back, text) = round_trip(&record, Format::Ki2);
        assert_eq!(tree(&back.moves), want, "{text}");
        assert!(
            back.diagnostics.is_empty(),
            "{:?}\n{text}",
            back.diagnostics
        );
    }
    // The side to move at the start decides what a result means: here gote, in a handicap.
    let ki2 = "手合割：香落ち\nまで0手で下手の勝ち\n\n変化：1手\nまで0手で上手の勝ち\n";
    let record = read_as(ki2, Format::Ki2);
    assert_eq!(tree(&record.moves), "(Resign [(Other(\"上手の勝ち\"))])");
}

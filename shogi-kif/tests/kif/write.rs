//! Writer paths that the corpus round trips do not reach (handicap board diagrams, a foul
//! move in KI2, CSA millisecond times), every format pinned by a snapshot; and `write_to`
//! passing on the error of the writer it is given.

use shogi_kif::{Format, Record};
use std::fmt;

fn fixture(name: &str) -> Record {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    shogi_kif::read_bytes(&bytes, Default::default())
        .unwrap_or_else(|e| panic!("{}", e.with_path(name).render()))
}

/// The record in every format, each after a `--- name` line.
fn all_formats(r: &Record) -> String {
    let mut s = String::new();
    for f in Format::ALL {
        s.push_str(&format!("--- {}\n", f.name()));
        s.push_str(&shogi_kif::write(r, f));
    }
    s
}

#[test]
fn handicap_diagram_names_the_sides_uwate_and_shitate() {
    let kif = "手合割：香落ち\n手数----指手--\n   1 ５二玉(51)\n   2 ７六歩(77)\n   3 投了\n";
    let r = shogi_kif::read_str(kif, Default::default()).expect("a legal handicap game");
    // A later start than move 1 needs a diagram: the handicap's names stay.
    let mut later = r.clone();
    let at_2 = r.position_at(2).expect("two legal moves");
    later.start = shogi_kif::Start::new(at_2, r.start.handicap, r.start.name.clone());
    later.moves.moves.clear();
    let kif = shogi_kif::write(&later, Format::Kif);
    assert!(kif.contains("上手の持駒：なし\n"), "{kif}");
    assert!(kif.contains("上手番\n"), "{kif}");
    insta::assert_snapshot!(all_formats(&later));
}

#[test]
fn foul_move_and_millisecond_times() {
    // Black's last move jumps over its own pawn onto its own rook.
    let csa = "V2.2\nPI\n+\n+7776FU,T1.250\n-3334FU,T2\n+8822UM,T3.005\n-3122GI\n+0055KA\n\
               -5142OU\n+5528UM\n%-ILLEGAL_ACTION\n";
    let r =
        shogi_kif::read_str(csa, Default::default()).expect("a CSA game ending in a recorded foul");
    assert!(r.moves.moves[6].foul.is_some());
    let ki2 = shogi_kif::write(&r, Format::Ki2);
    assert!(ki2.contains("\n▲２八角成(55)\n"), "{ki2}");
    assert!(shogi_kif::write(&r, Format::Csa).contains("\n+8822UM,T3.005\n"));
    insta::assert_snapshot!(all_formats(&r));
}

#[test]
fn written_twice_the_same_text_and_in_every_fixture() {
    for name in [
        "handicap_bod.kif",
        "variations.kif",
        "mini.kif",
        "sample.jkf",
        "wars.csa",
    ] {
        let r = fixture(name);
        for f in Format::ALL {
            let mut s = String::new();
            shogi_kif::write_to(&mut s, &r, f).expect("a String accepts every write");
            assert_eq!(s, shogi_kif::write(&r, f), "{name} as {}", f.name());
        }
    }
}

/// A writer that fails once it has taken `room` bytes.
struct Full {
    room: usize,
}

impl fmt::Write for Full {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.room = self.room.checked_sub(s.len()).ok_or(fmt::Error)?;
        Ok(())
    }
}

#[test]
fn write_to_passes_the_writer_error_on() {
    let r = fixture("variations.kif");
    for f in Format::ALL {
        let len = shogi_kif::write(&r, f).len();
        for room in [0, len / 2, len - 1] {
            assert!(
                shogi_kif::write_to(&mut Full { room }, &r, f).is_err(),
                "{} with room for {room} of {len} bytes",
                f.name()
            );
        }
        assert!(shogi_kif::write_to(&mut Full { room: len }, &r, f).is_ok());
    }
}

/// The three USI forms of one record: the record line keeps the foul move and the ending
/// word, the engine's `position` command stops before the foul move and has no ending word.
#[test]
fn usi_forms_of_a_foul_game() {
    use shogi_kif::{UsiForm, write_usi};
    let csa = "PI\n+\n+7776FU\n-3334FU\n+2822HI\n%-ILLEGAL_ACTION\n";
    let r = shogi_kif::read_str(csa, Default::default()).expect("a recorded foul");
    let form = |form| {
        let mut s = String::new();
        write_usi(&mut s, &r, form).expect("a String accepts all");
        s
    };
    let record = form(UsiForm::Record);
    assert_eq!(record, shogi_kif::write(&r, Format::Usi));
    assert_eq!(record, "position startpos moves 7g7f 3c3d 2h2b\n");
    assert_eq!(form(UsiForm::Engine), "position startpos moves 7g7f 3c3d\n");
    assert_eq!(form(UsiForm::Sfen), shogi_kif::write(&r, Format::Sfen));
    let first = shogi_kif::read_str("PI\n+\n+2822HI\n%-ILLEGAL_ACTION\n", Default::default())
        .expect("a foul first move");
    let mut s = String::new();
    write_usi(&mut s, &first, UsiForm::Engine).expect("a String accepts all");
    assert_eq!(s, "position startpos\n");
}

/// Reads `text` with the format forced.
fn read_as(text: &str, f: Format) -> Record {
    shogi_kif::read_str(text, shogi_kif::ReadOptions::with_format(f))
        .unwrap_or_else(|e| panic!("{f:?} does not read back: {e}\n{text}"))
}

/// A word this reader did not know, with a space or a side mark in it (a CSA `%` word or a
/// JKF special read as written), comes back from KIF and KI2 as the same word (found by
/// the `write` fuzz target: KIF gave back the text up to the space or the mark).
#[test]
fn unknown_ending_words_with_spaces_and_marks_read_back() {
    use shogi_kif::EndingKind;
    for word in [
        "%-ILLEGAL_AC22 12:37:21",
        "%time left▲820",
        "%終局 (再開なし)",
    ] {
        let csa = format!("V2.2\nPI\n+\n+7776FU\n-3334FU\n{word}\n");
        let record = read_as(&csa, Format::Csa);
        let want = Some(EndingKind::Other(word.to_string()));
        assert_eq!(record.ending().map(|e| e.kind.clone()), want, "{word}");
        for f in [Format::Kif, Format::Ki2] {
            let text = shogi_kif::write(&record, f);
            let back = read_as(&text, f);
            assert_eq!(back.ending().map(|e| e.kind.clone()), want, "{f:?}\n{text}");
            assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
        }
    }
}

/// A word that cannot be written as a KIF ending (it would read as a move) is written as
/// 不明 with the word as the ending's first comment, and `losses` says the ending is lost.
/// (Until the ending kept its variations, the word was a comment on the last move and the
/// line had no ending.)
#[test]
fn an_unknown_ending_word_read_as_a_move_becomes_a_comment() {
    use shogi_kif::EndingKind;
    let jkf = r#"{"header":{},"moves":[{},{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},{"special":"７六歩"}]}"#;
    let record = read_as(jkf, Format::Jkf);
    for f in [Format::Kif, Format::Ki2] {
        let text = shogi_kif::write(&record, f);
        assert!(text.contains("*７六歩\n"), "{text}");
        let back = read_as(&text, f);
        let ending = back.ending().expect("an ending");
        assert_eq!(
            ending.kind,
            EndingKind::Other("不明".into()),
            "{f:?}\n{text}"
        );
        assert_eq!(ending.comments, ["７六歩"], "{f:?}\n{text}");
        assert_eq!(back.usi_moves(), ["7g7f"]);
        let lost = shogi_kif::losses(&record, f);
        assert!(
            lost.iter().any(|l| matches!(l, shogi_kif::Loss::Ending(_))),
            "{lost:?}"
        );
    }
}

/// A KIF variation that stops at a foul declared only by the closing line keeps its foul
/// in JKF: the writer states it with a special (found by the `write` fuzz target: the
/// variation was lost, its move read back as an illegal move).
#[test]
fn a_variation_stopping_at_a_foul_survives_jkf() {
    let kif =
        "手合割：平手\n   1 ７五歩(77)\nまで1手で先手の反則負け\n\n変化：1手\n   1 ７五歩(77)\n";
    let record = read_as(kif, Format::Kif);
    let variation = &record.moves.moves[0].variations;
    assert_eq!(variation.len(), 1);
    assert!(variation[0].moves[0].foul.is_some());
    let text = shogi_kif::write(&record, Format::Jkf);
    let back = read_as(&text, Format::Jkf);
    assert!(
        back.diagnostics.is_empty(),
        "{:?}\n{text}",
        back.diagnostics
    );
    let variation = &back.moves.moves[0].variations;
    assert_eq!(variation.len(), 1, "{text}");
    assert!(variation[0].moves[0].foul.is_some());
    assert_eq!(
        variation[0].ending.as_ref().map(|e| e.kind.clone()),
        Some(shogi_kif::EndingKind::FoulWin)
    );
}

/// A line that stops at a foul declared only by a closing line the reader does not
/// understand has no ending: KIF, KI2 and CSA wrote the move and nothing declaring it, and
/// the text read back as an illegal move (found by the `write` fuzz target). They now state
/// the ending the readers take it to have, a win for the other side.
#[test]
fn a_foul_with_no_ending_is_declared_in_every_format_with_fouls() {
    use shogi_kif::EndingKind;
    let kif = "手合割：平手\n手数----指手--\n   1 ５五歩(57)\nまで1手で反則あり\n";
    let record = read_as(kif, Format::Kif);
    assert!(record.moves.moves[0].foul.is_some());
    assert_eq!(record.ending(), None);
    for f in [Format::Kif, Format::Ki2, Format::Csa, Format::Jkf] {
        let text = shogi_kif::write(&record, f);
        let back = read_as(&text, f);
        assert!(back.moves.moves[0].foul.is_some(), "{f:?}\n{text}");
        let ending = back.ending().map(|e| e.kind.clone());
        assert_eq!(ending, Some(EndingKind::FoulWin), "{f:?}\n{text}");
    }
}

/// A header key that makes its line read as something else (a KIF line `4 投了 ( 0：00/…)`
/// read as a header entry, found by the `write` fuzz target; a hand; a line break) is
/// written as a comment on the start, and `losses` names it: it was written as a header
/// line, which read back as a move (refused) or changed the start.
#[test]
fn header_keys_that_read_as_something_else_become_start_comments() {
    use shogi_kif::{HeaderKey, Loss};
    let mut record = read_as(
        "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n",
        Format::Kif,
    );
    for key in ["4 投了", "後手の持駒", "a\n   1 ２六歩(27)", "*x"] {
        record.header.push(HeaderKey::Other(key.into()), "歩");
    }
    record.header.push(HeaderKey::Other("備考2".into()), "kept");
    for f in [Format::Kif, Format::Ki2] {
        let text = shogi_kif::write(&record, f);
        let back = read_as(&text, f);
        assert_eq!(back.usi_moves(), ["7g7f"], "{f:?}\n{text}");
        assert_eq!(back.start, record.start, "{f:?}\n{text}");
        let keys: Vec<_> = back.header.entries.iter().map(|e| e.key.kif()).collect();
        assert_eq!(keys, ["備考2"], "{f:?}\n{text}");
        assert!(
            back.start_comments.iter().any(|c| c == "4 投了：歩"),
            "{f:?}\n{text}"
        );
        assert_eq!(shogi_kif::losses(&record, f), [Loss::Header(4)], "{f:?}");
    }
    // CSA keeps other keys as comment lines, each on one line.
    let text = shogi_kif::write(&record, Format::Csa);
    assert_eq!(read_as(&text, Format::Csa).usi_moves(), ["7g7f"], "{text}");
}

/// Hand counts of 20 and more were written as `十` alone (twenty lances read back as ten;
/// found by the `write` fuzz target). Readers take at most 18 of a kind in one entry, so
/// KIF and KI2 diagrams now write a larger count as several entries (`香十八　香二　`).
#[test]
fn hand_counts_past_nineteen_read_back() {
    let sfen = "position sfen 8k/9/9/9/9/9/9/9/K8 b 20L35N99P 1\n";
    let record = read_as(sfen, Format::Usi);
    for f in [Format::Kif, Format::Ki2, Format::Jkf] {
        let text = shogi_kif::write(&record, f);
        if f != Format::Jkf {
            assert!(text.contains("香十八　香二　"), "{text}");
        }
        assert_eq!(read_as(&text, f).start, record.start, "{f:?}\n{text}");
    }
    // The JKF reader kept at most 18 of a kind (silently); it now keeps up to 99, and
    // refuses more where the start is.
    let jkf = shogi_kif::write(&record, Format::Jkf).replace("\"FU\": 99", "\"FU\": 100");
    let e = shogi_kif::read_str(&jkf, shogi_kif::ReadOptions::with_format(Format::Jkf))
        .expect_err("100 pawns");
    assert!(e.message.contains("100 FU in hand"), "{e}");
    assert!(e.location.line > 1, "{e}");
}

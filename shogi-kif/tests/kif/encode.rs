//! Shift_JIS (CP932) output: the declaration line says so, the bytes decode back to the
//! text written, and a character CP932 lacks is an error or, asked for, a substitute.

use shogi_kif::{Encoding, Format, Record, WriteOptions, write, write_with};

fn sjis(r: &Record, f: Format) -> String {
    write_with(r, f, &WriteOptions::encoding(Encoding::ShiftJis))
}

#[test]
fn declaration_lines_name_shift_jis() {
    let r = shogi_kif::read_str("position startpos moves 7g7f\n", Default::default()).expect("USI");
    assert!(sjis(&r, Format::Kif).starts_with("#KIF version=2.0 encoding=Shift_JIS\n"));
    assert!(sjis(&r, Format::Ki2).starts_with("#KI2 version=2.0 encoding=Shift_JIS\n"));
    assert!(sjis(&r, Format::Csa).starts_with("'CSA encoding=SHIFT_JIS\nV3.0\n"));
    assert!(write(&r, Format::Csa).starts_with("'CSA encoding=UTF-8\nV3.0\n"));
    // Formats without a declaration write the same text.
    for f in [Format::Usi, Format::Sfen, Format::Jkf] {
        assert_eq!(sjis(&r, f), write(&r, f));
    }
}

/// Every corpus record written as KIF, KI2 and CSA for Shift_JIS: encoded, decoded back (by
/// our reader's decoder, which honours the declaration) it is the text written, and that is
/// the UTF-8 output but for the declaration line. Records with a character CP932 lacks fail
/// with that character named, at a place where the text has it.
#[test]
fn cp932_output_decodes_back_to_the_utf8_output() {
    let Some(files) = shogi_testkit::corpus::files("Shift_JIS corpus test") else {
        return;
    };
    let (mut encoded, mut refused) = (0, 0);
    for (path, bytes) in files {
        let Ok(records) = shogi_kif::Reader::new(&bytes[..], shogi_kif::ReadOptions::default())
        else {
            continue;
        };
        for rec in records.flat_map(shogi_kif::ReadRecord::into_result) {
            for f in [Format::Kif, Format::Ki2, Format::Csa] {
                let text = sjis(&rec, f);
                let utf8 = write(&rec, f);
                let rest = |t: &str| t.split_once('\n').map(|x| x.1.to_string());
                assert_eq!(rest(&text), rest(&utf8), "{path} as {f:?}");
                match shogi_kif::encode(&text, Encoding::ShiftJis) {
                    Ok(b) => {
                        let (back, enc) = shogi_kif::decode(&b, None).expect("decodes");
                        assert_eq!(enc, Encoding::ShiftJis, "{path} as {f:?}");
                        assert_eq!(back, text, "{path} as {f:?}");
                        encoded += 1;
                    }
                    Err(e) => {
                        let line = text.lines().nth(e.line as usize - 1).unwrap_or("");
                        assert_eq!(line.chars().nth(e.column as usize - 1), Some(e.ch), "{e}");
                        refused += 1;
                    }
                }
            }
        }
    }
    println!("{encoded} encoded, {refused} refused");
    assert!(encoded > 100, "{encoded} encoded");
}

#[test]
fn a_character_cp932_lacks_is_named_with_its_place() {
    let kif = "先手：☗名人\n後手：☖Ｘ－ｙ\n手数----指手--\n   1 ７六歩(77)\n";
    let r = shogi_kif::read_str(kif, Default::default()).expect("KIF");
    let text = sjis(&r, Format::Kif);
    let err = shogi_kif::encode(&text, Encoding::ShiftJis).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 2, column 4: ☗ (U+2617) has no Shift_JIS form, in \"先手：☗名人\""
    );
    let (bytes, replaced) = shogi_kif::encode_lossy(&text, Encoding::ShiftJis);
    assert_eq!(replaced, ['☗', '☖']);
    let (back, _) = shogi_kif::decode(&bytes, None).expect("decodes");
    assert!(back.contains("先手：▲名人\n後手：△Ｘ－ｙ\n"), "{back}");
}

#[test]
fn look_alike_forms_are_not_taken_for_the_character() {
    // encoding_rs writes U+2212 MINUS SIGN as the bytes of U+FF0D FULLWIDTH HYPHEN-MINUS and
    // U+00A5 YEN SIGN as 0x5C: they would come back as other characters.
    for (c, sub) in [
        ('\u{2212}', "U+2212"),
        ('\u{a5}', "U+00A5"),
        ('😀', "U+1F600"),
    ] {
        let text = format!("備考：a{c}b\n");
        let err = shogi_kif::encode(&text, Encoding::ShiftJis).unwrap_err();
        assert_eq!((err.ch, err.line, err.column), (c, 1, 5));
        let (bytes, replaced) = shogi_kif::encode_lossy(&text, Encoding::ShiftJis);
        assert_eq!(replaced, [c]);
        let (back, _) = shogi_kif::decode(&bytes, Some(Encoding::ShiftJis)).expect("decodes");
        assert_eq!(back, format!("備考：a{sub}b\n"));
    }
    // UTF-8 keeps everything.
    let s = "☗\u{2212}😀";
    assert_eq!(
        &*shogi_kif::encode(s, Encoding::Utf8).expect("UTF-8"),
        s.as_bytes()
    );
}

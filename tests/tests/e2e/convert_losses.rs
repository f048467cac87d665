//! `shogi convert` never drops data silently: a record format converts every record and
//! names, once per record and in a closing total, what it could not hold (an error with
//! --strict, silent with --lossy); the extracts (sfen, usi, moves) take the main line and
//! lose nothing they could hold. --mainline drops variations with one warning per record.
//! And --to-encoding shift-jis writes CP932 with its declaration, `.kif` files with
//! --out-dir, a character CP932 lacks being an error or, with --lossy, a named substitute.

use crate::common;

use common::{code, shogi, shogi_ok, stderr, stdout};

/// A game with a bit of everything: a player name with ☗, a start comment, times, a
/// bookmark, a variation ending in 中断, a resignation.
const RICH: &str = "tests/fixtures/convert/variations.kifu";
/// A game with a header and a variation, nothing else.
const PLAIN: &str = "tests/fixtures/convert/plain.kifu";

#[test]
fn record_formats_convert_and_name_what_they_cannot_hold() {
    let out = shogi_ok(&["convert", PLAIN, "--to", "csa"]);
    assert!(
        stdout(&out).ends_with("+7776FU\n-3334FU\n+2726FU\n"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        stderr(&out),
        format!(
            "{PLAIN}: warning: CSA cannot hold 1 variation: not kept\n\
             converted 1 record; not kept: variations in 1\n"
        )
    );
    // --strict: an error for the record, nothing written.
    let out = shogi(&["convert", PLAIN, "--to", "csa", "--strict"]);
    assert_eq!((code(&out), stdout(&out).as_str()), (1, ""));
    assert_eq!(
        stderr(&out),
        format!("{PLAIN}: error: CSA cannot hold 1 variation: not converted (--strict)\n")
    );
    // --lossy: silent.
    let out = shogi(&["convert", PLAIN, "--to", "csa", "--lossy"]);
    assert_eq!((code(&out), stderr(&out).as_str()), (0, ""));
    let out = shogi(&["convert", PLAIN, "--to", "csa", "--lossy", "--strict"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    // A USI position line is an extract of the main line: nothing to say, even after
    // --mainline.
    common::assert_runs_alike(
        &["convert", PLAIN, "--to", "usi"],
        &[None, Some("--mainline")],
        (0, "position startpos moves 7g7f 3c3d 2g2f\n", ""),
    );
}

#[test]
fn mainline_drops_the_variations_with_a_warning() {
    let out = convert_plain("csa", &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    insta::assert_snapshot!("mainline_warning", stderr(&out));
    assert!(
        stdout(&out).ends_with("+7776FU\n-3334FU\n+2726FU\n"),
        "{}",
        stdout(&out)
    );
    // In a format that holds variations too: the main line only, said once.
    let out = convert_plain("kif", &[]);
    assert_eq!(code(&out), 0);
    assert!(!stdout(&out).contains("変化"), "{}", stdout(&out));
    assert_eq!(
        stderr(&out),
        format!("{PLAIN}: warning: dropped 1 variation\n")
    );
    // Nothing to drop, nothing said.
    let out = shogi(&["convert", PLAIN, "--to", "kif"]);
    assert_eq!((code(&out), stderr(&out)), (0, String::new()));
}

#[test]
fn extracts_lose_nothing_and_record_formats_warn() {
    common::assert_runs_alike(
        &["convert", RICH, "--to", "usi"],
        &[None, Some("--lossy"), Some("--strict")],
        (0, "position startpos moves 7g7f 3c3d 2g2f 8c8d\n", ""),
    );
    let out = shogi(&["convert", RICH, "--to", "sfen"]);
    assert_eq!((code(&out), stderr(&out).as_str()), (0, ""));
    // KI2 has no times; CSA no bookmarks or variations.
    for (to, what, total) in [
        ("ki2", "KI2 cannot hold 7 times", "times in 1"),
        (
            "csa",
            "CSA cannot hold 1 variation, 1 bookmark",
            "variations in 1, bookmarks in 1",
        ),
    ] {
        let out = shogi(&["convert", RICH, "--to", to]);
        assert_eq!(code(&out), 0);
        assert!(!stdout(&out).is_empty());
        assert_eq!(
            stderr(&out),
            format!("{RICH}: warning: {what}: not kept\nconverted 1 record; not kept: {total}\n")
        );
        let out = shogi(&["convert", RICH, "--to", to, "--strict"]);
        assert_eq!((code(&out), stdout(&out).as_str()), (1, ""));
        assert_eq!(
            stderr(&out),
            format!("{RICH}: error: {what}: not converted (--strict)\n")
        );
    }
}

#[test]
fn several_records_are_named_by_number() {
    let games = "tests/fixtures/records/more/lines.usi";
    let out = shogi(&["convert", games, "--to", "csa", "--lossy"]);
    let err = stderr(&out);
    // The second game of that file is broken; the first converts, and nothing was lost.
    assert!(!err.contains("warning"), "{err}");
    let out = shogi(&["convert", RICH, PLAIN, "--to", "csa", "--mainline"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stderr(&out),
        format!(
            "{RICH}: warning: dropped 1 variation; CSA cannot hold 1 bookmark: not kept\n\
             {PLAIN}: warning: dropped 1 variation\n\
             converted 2 records; not kept: bookmarks in 1\n"
        )
    );
}

/// `shogi convert PLAIN --to TO --mainline extra…`.
fn convert_plain(to: &str, extra: &[&str]) -> common::Output {
    shogi(&[&["convert", PLAIN, "--to", to, "--mainline"][..], extra].concat())
}

/// Shift_JIS output, decoded again, is the UTF-8 output but for the declaration line.
#[test]
fn shift_jis_output_decodes_to_the_utf8_output() {
    for (to, decl) in [
        ("kif", "#KIF version=2.0 encoding=Shift_JIS"),
        ("ki2", "#KI2 version=2.0 encoding=Shift_JIS"),
        ("csa", "'CSA encoding=SHIFT_JIS"),
    ] {
        let utf8 = convert_plain(to, &[]);
        let sjis = convert_plain(to, &["--to-encoding", "shift-jis"]);
        assert_eq!(code(&sjis), 0, "{}", stderr(&sjis));
        if to != "csa" {
            // Japanese text in CP932 is not UTF-8 (this CSA record is ASCII but for its
            // declaration line).
            assert!(
                std::str::from_utf8(&sjis.stdout).is_err(),
                "{to}: not CP932"
            );
        }
        let (text, enc) = shogi_kif::decode(&sjis.stdout, None).expect("decodes");
        assert_eq!(enc, shogi_kif::Encoding::ShiftJis);
        let (first, rest) = text.split_once('\n').expect("lines");
        assert_eq!(first, decl);
        let utf8 = stdout(&utf8);
        assert_eq!(Some(rest), utf8.split_once('\n').map(|x| x.1), "{to}");
    }
}

#[test]
fn a_character_shift_jis_lacks_is_an_error_or_a_named_substitute() {
    let out = shogi(&["convert", RICH, "--to", "kif", "--to-encoding", "shift-jis"]);
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    insta::assert_snapshot!("unencodable", stderr(&out));
    let out = shogi(&[
        "convert",
        RICH,
        "--to",
        "kif",
        "--to-encoding",
        "shift-jis",
        "--lossy",
    ]);
    assert_eq!(code(&out), 0);
    assert_eq!(stderr(&out), format!("{RICH}: warning: replaced ☗ by ▲\n"));
    let (text, _) = shogi_kif::decode(&out.stdout, None).expect("decodes");
    assert!(text.contains("\n先手：▲先手\n"), "{text}");
}

#[test]
fn out_dir_names_shift_jis_kif_kif_and_utf8_kif_kifu() {
    let dir = common::scratch("convert-encodings");
    let d = dir.to_str().expect("UTF-8 path");
    for (to, enc, name) in [
        ("kif", "utf8", "plain.kifu"),
        ("kif", "shift-jis", "plain.kif"),
        ("ki2", "utf8", "plain.ki2u"),
        ("ki2", "shift-jis", "plain.ki2"),
        ("csa", "shift-jis", "plain.csa"),
    ] {
        let sub = format!("{d}/{to}-{enc}");
        let out = convert_plain(to, &["--to-encoding", enc, "-o", &sub]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let bytes = std::fs::read(format!("{sub}/{name}")).expect("written under that name");
        let (_, got) = shogi_kif::decode(&bytes, None).expect("decodes");
        let want = if enc == "utf8" {
            shogi_kif::Encoding::Utf8
        } else {
            shogi_kif::Encoding::ShiftJis
        };
        assert_eq!(got, want, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn to_encoding_goes_with_kif_ki2_and_csa() {
    for args in [
        ["--to", "jkf", "--to-encoding", "shift-jis"],
        ["--to", "kif", "--to-encoding", "euc-jp"],
    ] {
        let mut argv = vec!["convert", PLAIN];
        argv.extend(args);
        let out = shogi(&argv);
        assert_eq!(code(&out), 2, "{args:?}");
        assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    }
}

//! `shogi convert` never drops data silently: a record holding what the output cannot is
//! refused with what would be lost named; --mainline and --lossy drop it with one warning per
//! record. And --to-encoding shift-jis writes CP932 with its declaration, `.kif` files with
//! --out-dir, a character CP932 lacks being an error or, with --lossy, a named substitute.

mod common;

use common::{code, shogi, stderr, stdout};

/// A game with a bit of everything: a player name with ☗, a start comment, times, a
/// bookmark, a variation ending in 中断, a resignation.
const RICH: &str = "tests/fixtures/convert/variations.kifu";
/// A game with a header and a variation, nothing else.
const PLAIN: &str = "tests/fixtures/convert/plain.kifu";

#[test]
fn variations_are_not_dropped_without_mainline() {
    let out = shogi(&["convert", PLAIN, "--to", "csa"]);
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    insta::assert_snapshot!("refused_csa_variations", stderr(&out));
    // USI loses more than the variation: --mainline is not enough.
    let out = shogi(&["convert", PLAIN, "--to", "usi", "--mainline"]);
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    insta::assert_snapshot!("refused_usi_after_mainline", stderr(&out));
}

#[test]
fn mainline_drops_the_variations_with_a_warning() {
    let out = shogi(&["convert", PLAIN, "--to", "csa", "--mainline"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    insta::assert_snapshot!("mainline_warning", stderr(&out));
    assert!(
        stdout(&out).ends_with("+7776FU\n-3334FU\n+2726FU\n"),
        "{}",
        stdout(&out)
    );
    // In a format that holds variations too: the main line only, said once.
    let out = shogi(&["convert", PLAIN, "--to", "kif", "--mainline"]);
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
fn lossy_names_everything_dropped() {
    let out = shogi(&["convert", RICH, "--to", "usi"]);
    assert_eq!(code(&out), 1);
    insta::assert_snapshot!("refused_usi", stderr(&out));
    let out = shogi(&["convert", RICH, "--to", "usi", "--lossy"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "position startpos moves 7g7f 3c3d 2g2f 8c8d\n"
    );
    insta::assert_snapshot!("lossy_usi_warning", stderr(&out));
    // KI2 has no times; CSA no bookmarks or variations.
    for (to, what) in [
        (
            "ki2",
            "KI2 cannot hold 7 times: not converted (--lossy drops them)",
        ),
        (
            "csa",
            "CSA cannot hold 1 variation, 1 bookmark: not converted (--mainline drops the variations, --lossy all of it)",
        ),
    ] {
        let out = shogi(&["convert", RICH, "--to", to]);
        assert_eq!(code(&out), 1);
        assert_eq!(stderr(&out), format!("{RICH}: error: {what}\n"));
    }
    // The position of --to sfen is the main line's: only variations are in question.
    let out = shogi(&["convert", RICH, "--to", "sfen", "--mainline"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn several_records_are_named_by_number() {
    let games = "tests/fixtures/records/more/lines.usi";
    let out = shogi(&["convert", games, "--to", "csa", "--lossy"]);
    let err = stderr(&out);
    // The second game of that file is broken; the first converts, and nothing was lost.
    assert!(!err.contains("warning"), "{err}");
    let out = shogi(&["convert", RICH, PLAIN, "--to", "csa", "--mainline"]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out),
        format!(
            "{RICH}: error: CSA cannot hold 1 bookmark: not converted (--lossy drops them)\n\
             {PLAIN}: warning: dropped 1 variation\n"
        )
    );
}

/// Shift_JIS output, decoded again, is the UTF-8 output but for the declaration line.
#[test]
fn shift_jis_output_decodes_to_the_utf8_output() {
    for (to, decl) in [
        ("kif", "#KIF version=2.0 encoding=Shift_JIS"),
        ("ki2", "#KI2 version=2.0 encoding=Shift_JIS"),
        ("csa", "'CSA encoding=SHIFT_JIS"),
    ] {
        let utf8 = shogi(&["convert", PLAIN, "--to", to, "--mainline"]);
        let sjis = shogi(&[
            "convert",
            PLAIN,
            "--to",
            to,
            "--mainline",
            "--to-encoding",
            "shift-jis",
        ]);
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
        let out = shogi(&[
            "convert",
            PLAIN,
            "--to",
            to,
            "--mainline",
            "--to-encoding",
            enc,
            "-o",
            &sub,
        ]);
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

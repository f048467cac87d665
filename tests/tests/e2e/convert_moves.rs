//! `shogi convert --to moves`: each record's main line as one line of text in `--notation`
//! (usi, japanese, western), with the selection, shards, --dedup, --out-dir and error
//! reporting of the other outputs.

use crate::common;

use common::{assert_starts_with, code, scratch, shogi, shogi_ok, stderr, stdout};

const STATS: &str = "tests/fixtures/stats";
const NIFU: &str = "tests/fixtures/records/nifu.kif";
const MINI: &str = "samples/mini.kif";

/// The lines of the fixtures in each notation, one under the other per record (every move
/// checked by hand; the same games as the `stats --moves` snapshot, whose values agree).
#[test]
fn moves_in_each_notation() {
    let mut per_notation = Vec::new();
    for notation in ["usi", "japanese", "western"] {
        let out = shogi(&[
            "convert",
            STATS,
            MINI,
            NIFU,
            "--to",
            "moves",
            "--notation",
            notation,
        ]);
        // nifu.kif cannot be read: reported, located, and not written.
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        assert_starts_with(
            &stderr(&out),
            "tests/fixtures/records/nifu.kif:11:6: error: move 9",
        );
        per_notation.push(stdout(&out));
    }
    // Without --notation: USI.
    let plain = shogi(&["convert", STATS, MINI, NIFU, "--to", "moves"]);
    assert_eq!(stdout(&plain), per_notation[0]);
    let lines: Vec<Vec<&str>> = per_notation.iter().map(|t| t.lines().collect()).collect();
    assert_eq!(lines[0].len(), 10);
    let text: String = (0..lines[0].len())
        .map(|i| format!("{}\n{}\n{}\n\n", lines[0][i], lines[1][i], lines[2][i]))
        .collect();
    insta::assert_snapshot!("convert_moves", text);
}

#[test]
fn selection_dedup_and_shards_work_as_for_the_other_outputs() {
    // samples/: one game in five formats, and a Mini Shogi game.
    let all = stdout(&shogi(&["convert", "samples", "--to", "moves"]));
    assert_eq!(all.lines().count(), 6);
    let dedup = stdout(&shogi(&["convert", "samples", "--to", "moves", "--dedup"]));
    assert_eq!(dedup.lines().count(), 2, "{dedup}");
    let short = shogi(&["convert", "samples", "--to", "moves", "--max-plies", "9"]);
    assert_eq!(
        stdout(&short),
        "2e3d 4a3b 1e1d 1a2b 3d2c 2b2c 1d1b 3b4c 1b1a+\n"
    );
    let mut union: Vec<String> = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = shogi(&["convert", "samples", "--to", "moves", "--shard", shard]);
        assert_eq!(code(&out), 0);
        union.extend(stdout(&out).lines().map(str::to_string));
    }
    let mut whole: Vec<String> = all.lines().map(str::to_string).collect();
    union.sort();
    whole.sort();
    assert_eq!(union, whole);
}

#[test]
fn out_dir_variations_and_flag_errors() {
    let dir = scratch("convert-moves");
    shogi_ok(&[
        "convert",
        MINI,
        "--to",
        "moves",
        "--notation",
        "western",
        "--out-dir",
        dir.to_str().unwrap(),
    ]);
    let written = std::fs::read_to_string(dir.join("mini.moves")).unwrap();
    assert_eq!(written, "B-3d B-3b R-1d K-2b B-2c Kx2c Rx1b B-4c R-1a+\n");
    // A line of moves is the main line's: a record's variations are not in question, with
    // or without --mainline.
    let plain = "tests/fixtures/convert/plain.kifu";
    common::assert_runs_alike(
        &["convert", plain, "--to", "moves"],
        &[None, Some("--mainline")],
        (0, "7g7f 3c3d 2g2f\n", ""),
    );
    let out = shogi(&["convert", MINI, "--to", "sfen", "--notation", "western"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--notation goes with --to moves"));
}

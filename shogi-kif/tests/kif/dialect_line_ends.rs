//! A dialect of real records (issue 19): line ends. LF, CRLF and a bare CR (classic Mac OS,
//! Kifu for Macintosh) are all line ends, mixed too, in every format and encoding, read whole
//! or a chunk at a time; on the fixtures of `tests/fixtures/dialects` (made by
//! `scripts/make-dialect-fixtures.py`, UTF-8 and Shift_JIS bytes of each).

use crate::dialects;

use dialects::{fixture, games, hint, one, warnings};
use shogi_kif::{EndingKind, Format, ReadOptions, ReadRecord, Reader, Severity, read_str};
use std::io::BufReader;

/// Every line end made a LF.
fn to_lf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                out.push(b'\n');
                i += 2;
            }
            b'\r' => {
                out.push(b'\n');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

const CR_GAME: [&str; 11] = [
    "7g7f", "3c3d", "2g2f", "4c4d", "2f2e", "2b3c", "3i4h", "8b3b", "5i6h", "5a6b", "6h7h",
];

#[test]
fn bare_cr_line_ends_read_every_move_in_every_format_and_encoding() {
    for name in [
        "cr_mac.kif",
        "cr_mac.kifu",
        "cr_mac.ki2",
        "cr_mac.ki2u",
        "eol_mixed.kif",
        "eol_mixed.kifu",
        "eol_mixed.ki2u",
    ] {
        let bytes = fixture(name);
        assert!(bytes.contains(&b'\r'), "{name}");
        let g = one(name);
        assert!(g.is_valid(), "{name}: {:?}", g.error);
        assert_eq!(g.record.usi_moves(), CR_GAME, "{name}");
        assert_eq!(
            g.record.ending().map(|e| &e.kind),
            Some(&EndingKind::Resign),
            "{name}"
        );
        assert!(warnings(&g).is_empty(), "{name}: {:?}", g.diagnostics);
        // The same bytes with LF line ends give the same record, line numbers included.
        let lf = games(&to_lf(&bytes), hint(name));
        assert_eq!(lf.len(), 1);
        assert_eq!(lf[0], g, "{name}");
    }
    // Shift_JIS and UTF-8 bytes read alike.
    let (sjis, utf8) = (one("cr_mac.kif"), one("cr_mac.kifu"));
    assert_eq!(sjis.record, utf8.record);
    let last = sjis.record.moves.moves.last().expect("moves");
    assert_eq!(last.comments, Vec::<String>::new());
    assert_eq!(
        sjis.record.ending().map(|e| e.comments.clone()),
        Some(vec!["後手の投了".to_string()])
    );
    // Move 1 is on line 8 of the file, as an editor counts (seven lines of header before it).
    assert_eq!(sjis.record.moves.moves[0].source_line, 8);
}

#[test]
fn csa_games_split_on_bare_cr_lines() {
    for name in ["cr_mac.csa", "eol_mixed.csa"] {
        let bytes = fixture(name);
        let all = games(&bytes, hint(name));
        assert_eq!(all.len(), 2, "{name}");
        assert_eq!(all[0].record.usi_moves(), ["7g7f", "3c3d", "2g2f"]);
        assert_eq!(all[1].record.usi_moves(), ["2g2f", "8c8d"]);
        assert_eq!((all[0].line, all[1].line), (1, 11), "{name}");
        assert!(all.iter().all(ReadRecord::is_valid), "{name}");
        assert_eq!(all, games(&to_lf(&bytes), hint(name)), "{name}");
    }
}

#[test]
fn error_lines_count_every_kind_of_line_end_as_one() {
    // Line 1 ends in CR, line 2 in CRLF, line 3 in LF, line 4 in CR: move 3 (line 5) is wrong.
    let text =
        "手合割：平手\r   1 ７六歩(77)\r\n   2 ３四歩(33)\n   3 ２五歩(27)\r   4 ８四歩(83)\n";
    let err = read_str(text, ReadOptions::default()).unwrap_err();
    assert_eq!(err.location.line, 4, "{}", err.render());
    assert_eq!(
        err.to_string(),
        "<input>:4:6: error: move 3 ２五歩(27): the piece does not move that way"
    );
    // Byte offsets are those of the input (a CR became a LF in place).
    assert_eq!(&text[err.location.start..err.location.end], "２五歩(27)");
    // A CR alone between two CRs is an empty line, a CRLF is one line end.
    let ki2 = "手合割：平手\r\r▲７六歩\r\n\r\n△３四歩\r▲２五歩\r";
    let err = read_str(ki2, ReadOptions::default()).unwrap_err();
    assert_eq!(err.location.line, 6, "{}", err.render());
    // CSA and USI too.
    let csa = "PI\r+\r+7776FU\r-3334FU\r+2725FU\r";
    let err = read_str(csa, ReadOptions::default()).unwrap_err();
    assert_eq!(err.location.line, 5, "{}", err.render());
    let usi = "position startpos moves 7g7f\rposition startpos moves 2g2f 8c8d\r\rposition startpos moves 7g7e\r";
    let all = games(usi.as_bytes(), ReadOptions::default());
    assert_eq!(all.len(), 3);
    assert_eq!(all.iter().map(|g| g.line).collect::<Vec<_>>(), [1, 2, 4]);
    assert_eq!(all[2].error.as_ref().map(|e| e.location.line), Some(4));
}

/// A CSA input larger than the part read whole (64 KiB), so that it is decoded a chunk at a
/// time, with the line ends given; a bad move in the last game.
fn big_csa(end: &str, pad: usize) -> Vec<u8> {
    let mut s = String::new();
    // A comment of `pad` bytes first moves every later byte, so that chunk and head
    // boundaries fall on every part of a line end across the calls.
    s.push('\'');
    s.push_str(&"x".repeat(pad));
    s.push_str(end);
    let game = ["PI", "+", "+7776FU", "-3334FU", "+2726FU", "%TORYO", "/"];
    while s.len() < 70_000 {
        for l in game {
            s.push_str(l);
            s.push_str(end);
        }
    }
    for l in ["PI", "+", "+7776FU", "-3334FU", "+2725FU"] {
        s.push_str(l);
        s.push_str(end);
    }
    s.into_bytes()
}

/// What is compared of each game: everything but the byte spans of errors, which differ
/// by the bytes a CRLF has more than a LF.
/// A game's number, first line, moves, error (line, column, message) and validity.
type Summary = (usize, u32, Vec<String>, Option<(u32, u32, String)>, bool);

fn summary(g: &ReadRecord) -> Summary {
    (
        g.index,
        g.line,
        g.record.usi_moves(),
        g.error
            .as_ref()
            .map(|e| (e.location.line, e.location.column, e.message.clone())),
        g.is_valid(),
    )
}

#[test]
fn chunked_reading_keeps_a_crlf_cut_by_a_chunk_one_line_end() {
    let want: Vec<_> = games(&big_csa("\n", 0), ReadOptions::default())
        .iter()
        .map(summary)
        .collect();
    assert!(want.len() > 1000, "{}", want.len());
    let last = want.last().expect("games");
    assert!(last.3.is_some(), "the last game has a bad move");
    for end in ["\r\n", "\r"] {
        for pad in [0, 1, 2] {
            // The pad shifts the input's line ends by one byte against both the 64 KiB head
            // and the buffer's fills: every way a CRLF can be cut by a chunk happens.
            let bytes = big_csa(end, pad);
            let want: Vec<_> = games(&to_lf(&bytes), ReadOptions::default())
                .iter()
                .map(summary)
                .collect();
            for capacity in [1, 2, 3, 7, 4096, 65_537] {
                for chunk in [1, 100, 1 << 20] {
                    let opts = ReadOptions {
                        chunk_size: chunk,
                        ..ReadOptions::default()
                    };
                    let input = BufReader::with_capacity(capacity, &bytes[..]);
                    let got: Vec<_> = Reader::new(input, opts)
                        .expect("reader")
                        .map(|g| summary(&g))
                        .collect();
                    assert_eq!(
                        got, want,
                        "line end {end:?}, pad {pad}, capacity {capacity}, chunk {chunk}"
                    );
                }
            }
        }
    }
    // A line end exactly at the end of the 64 KiB head: a CRLF's CR (its LF the first byte
    // after the head) or a bare CR, as the head's last byte.
    for end in ["\r\n", "\r"] {
        let bytes = big_csa(end, 64 * 1024 - 2);
        assert_eq!(bytes[64 * 1024 - 1], b'\r');
        let want: Vec<_> = games(&to_lf(&bytes), ReadOptions::default())
            .iter()
            .map(summary)
            .collect();
        for capacity in [1, 3, 8192] {
            let input = BufReader::with_capacity(capacity, &bytes[..]);
            let got: Vec<_> = Reader::new(input, ReadOptions::default())
                .expect("reader")
                .map(|g| summary(&g))
                .collect();
            assert_eq!(got, want, "line end {end:?}, capacity {capacity}");
        }
    }
}

#[test]
fn a_record_with_no_moves_read_but_move_lines_gets_a_warning() {
    // CSA moves read as KIF (the format forced): nothing of them is a KIF move.
    let opts = ReadOptions::with_format(Format::Kif);
    let all = games(b"PI\n+\n+7776FU\n-3334FU\n", opts);
    assert_eq!(all.len(), 1);
    let g = &all[0];
    assert!(g.record.usi_moves().is_empty());
    let d = g
        .diagnostics
        .iter()
        .find(|d| d.message.contains("looks like a move"))
        .unwrap_or_else(|| panic!("{:?}", g.diagnostics));
    assert_eq!((d.severity, d.line, d.column), (Severity::Warning, 3, 1));
    assert_eq!(d.line_text, "+7776FU");
    // A position with no move lines: no such warning.
    let all = games(
        "手合割：平手\n*▲７六歩 が定跡\n".as_bytes(),
        ReadOptions::default(),
    );
    assert!(
        all[0]
            .diagnostics
            .iter()
            .all(|d| !d.message.contains("looks like a move")),
        "{:?}",
        all[0].diagnostics
    );
}

#[test]
fn a_kif_larger_than_the_head_splits_every_kind_of_line_end() {
    // More than 64 KiB: the start is read first, the rest after it (a CR at the end of
    // the head, maybe the first half of a CRLF, included).
    let base = String::from_utf8(to_lf(&fixture("cr_mac.kifu"))).expect("UTF-8");
    let (head, moves) = base.split_at(base.find("手数").expect("the column header"));
    for end in ["\r", "\r\n"] {
        for pad in 0..3 {
            let mut text = head.to_string();
            // Comments on the start fill the input to a line end across the 64 KiB mark.
            let comment = format!("*{}\n", "x".repeat(98 + pad));
            while text.len() < 70_000 {
                text.push_str(&comment);
            }
            text.push_str(moves);
            let lf = text.clone();
            let bytes = text.replace('\n', end).into_bytes();
            let want = games(lf.as_bytes(), hint("x.kifu"));
            for capacity in [1, 5, 8192] {
                let input = BufReader::with_capacity(capacity, &bytes[..]);
                let got: Vec<ReadRecord> = Reader::new(input, hint("x.kifu"))
                    .expect("reader")
                    .collect();
                assert_eq!(got.len(), 1);
                assert_eq!(
                    got[0].record.usi_moves(),
                    CR_GAME,
                    "{end:?} {pad} {capacity}"
                );
                assert_eq!(
                    got[0].record.moves.moves.last().map(|m| m.source_line),
                    want[0].record.moves.moves.last().map(|m| m.source_line),
                );
                assert_eq!(got[0].diagnostics, want[0].diagnostics);
            }
        }
    }
}

#[test]
fn a_refused_long_line_ends_at_its_cr_or_crlf() {
    // A USI line longer than a line may be (4 MiB) is refused and skipped to its end; the
    // games after it keep their lines, whatever ends the long one.
    for end in ["\n", "\r\n", "\r"] {
        let mut s = String::new();
        for part in [
            "position startpos moves 7g7f".to_string(),
            format!("position startpos moves {}", "7g7f ".repeat(900_000)),
            "position startpos moves 2g2f".to_string(),
            "position startpos moves 2g2f 8c8d".to_string(),
        ] {
            s.push_str(&part);
            s.push_str(end);
        }
        // Capacity 1: the CR of a CRLF is always the last byte of what the reader holds.
        for capacity in [1, 4096] {
            let input = BufReader::with_capacity(capacity, s.as_bytes());
            let all: Vec<ReadRecord> = Reader::new(input, ReadOptions::default())
                .expect("reader")
                .collect();
            let lines: Vec<u32> = all.iter().map(|g| g.line).collect();
            assert_eq!(lines, [1, 2, 3, 4], "{end:?} {capacity}");
            assert_eq!(
                all[1].error.as_ref().map(|e| e.kind),
                Some(shogi_kif::ErrorKind::TooLarge)
            );
            assert_eq!(all[2].record.usi_moves(), ["2g2f"], "{end:?} {capacity}");
            assert_eq!(
                all[3].record.usi_moves(),
                ["2g2f", "8c8d"],
                "{end:?} {capacity}"
            );
        }
    }
}

#[test]
fn a_long_line_whose_cr_is_the_last_byte_read_is_skipped_to_that_cr() {
    // Fills of 64 KiB: the long line's CR is the last byte of the fill that makes the line
    // too long, so the line's end is already read when it is refused.
    let first = "position startpos moves 7g7f\r";
    let cr_at = 65 * 65_536 - 1;
    let mut long = String::from("position startpos moves ");
    while long.len() + 5 <= cr_at - first.len() {
        long.push_str("7g7f ");
    }
    while long.len() < cr_at - first.len() {
        long.push(' ');
    }
    for end in ["\r", "\r\n"] {
        let text = format!("{first}{long}{end}position startpos moves 2g2f{end}");
        assert_eq!(text.as_bytes()[cr_at], b'\r');
        let input = BufReader::with_capacity(65_536, text.as_bytes());
        let all: Vec<ReadRecord> = Reader::new(input, ReadOptions::default())
            .expect("reader")
            .collect();
        assert_eq!(all.iter().map(|g| g.line).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(
            all[1].error.as_ref().map(|e| e.kind),
            Some(shogi_kif::ErrorKind::TooLarge)
        );
        assert_eq!(all[2].record.usi_moves(), ["2g2f"], "{end:?}");
    }
}

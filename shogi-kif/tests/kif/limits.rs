//! The reader's limits (`shogi_kif::limits`): each breach is a located error naming the
//! limit, and inputs without end are read in bounded memory, their error arriving while
//! only a bounded part of them has been read.

use shogi_kif::limits::{
    MAX_HEADER_ENTRIES, MAX_JKF_ITEMS, MAX_LINE_BYTES, MAX_PLIES, MAX_RECORD_BYTES, MAX_WARNINGS,
};
use shogi_kif::{ErrorKind, Format, ReadError, ReadOptions, Reader, read_str};
use std::cell::Cell;
use std::io::{BufRead, BufReader, Read};
use std::rc::Rc;

/// Reads `text` with the format forced, expecting an error.
fn refused(text: &str, f: Format) -> ReadError {
    match read_str(text, ReadOptions::with_format(f)) {
        Ok(_) => panic!("{f:?}: read, expected an error"),
        Err(e) => e,
    }
}

#[test]
fn plies_of_one_line() {
    let usi = format!("startpos moves{}\n", " 7g7f".repeat(MAX_PLIES + 1));
    let e = refused(&format!("position {usi}"), Format::Usi);
    assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
    assert!(
        e.message.contains("more than 100,000 moves in one line"),
        "{e}"
    );
    assert_eq!((e.location.line, e.ply), (1, None));
    // The column is that of the move past the limit.
    let col = "position startpos moves".len() + 5 * MAX_PLIES + 2;
    assert_eq!(e.location.column as usize, col, "{e}");

    let csa = format!("PI\n+\n{}", "+7776FU\n".repeat(MAX_PLIES + 1));
    let e = refused(&csa, Format::Csa);
    assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
    assert_eq!(e.location.line as usize, 3 + MAX_PLIES, "{e}");

    let mut kif = String::from("手合割：平手\n");
    for n in 1..=MAX_PLIES + 1 {
        kif.push_str(&format!("{n} ７六歩(77)\n"));
    }
    let e = refused(&kif, Format::Kif);
    assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
    assert_eq!(e.location.line as usize, 2 + MAX_PLIES, "{e}");
    assert!(e.message.contains("(the limit)"), "{e}");
}

/// JKF: the move past the limit is located at its entry (at the `:` after `"move"`, where
/// the JSON reader stands), in the main line and in a fork that starts late in the game; comment-only
/// entries and entries after the ending are not moves.
#[test]
fn plies_of_one_jkf_line() {
    // Kings stepping back and forth, an entry a line: the rules do not matter here.
    let steps = [
        "{\"move\":{\"from\":{\"x\":5,\"y\":9},\"to\":{\"x\":5,\"y\":8},\"piece\":\"OU\"}}",
        "{\"move\":{\"from\":{\"x\":5,\"y\":1},\"to\":{\"x\":5,\"y\":2},\"piece\":\"OU\"}}",
        "{\"move\":{\"from\":{\"x\":5,\"y\":8},\"to\":{\"x\":5,\"y\":9},\"piece\":\"OU\"}}",
        "{\"move\":{\"from\":{\"x\":5,\"y\":2},\"to\":{\"x\":5,\"y\":1},\"piece\":\"OU\"}}",
    ];
    let entries = |from: usize, n: usize| -> Vec<String> {
        (from..from + n).map(|i| steps[i % 4].to_string()).collect()
    };
    // The column of the `:` after "move", where the JSON reader stands.
    let column = "{\"move\":".len();
    // The main line: line 1 is the start's entry, line 2 a comment-only entry; the move past
    // the limit is on line 3 + MAX_PLIES.
    let mut lines = vec![
        "{\"moves\":[{}".to_string(),
        "{\"comments\":[\"c\"]}".to_string(),
    ];
    lines.extend(entries(0, MAX_PLIES + 1));
    let jkf = format!("{}]}}", lines.join(",\n"));
    let e = refused(&jkf, Format::Jkf);
    assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
    assert!(
        e.message.contains("more than 100,000 moves in one line"),
        "{e}"
    );
    assert!(!e.message.contains(" at line "), "{e}");
    assert_eq!(
        (e.location.line as usize, e.location.column as usize),
        (3 + MAX_PLIES, column),
        "{e}"
    );
    // One move fewer reads; so do moves after an ending (which counts as a move).
    let ok = format!("{}]}}", lines[..lines.len() - 1].join(",\n"));
    assert!(read_str(&ok, ReadOptions::with_format(Format::Jkf)).is_ok());
    let mut ended = lines[..lines.len() - 2].to_vec();
    ended.push("{\"special\":\"TORYO\"}".to_string());
    ended.extend(entries(0, 4));
    let ended = format!("{}]}}", ended.join(",\n"));
    let read = read_str(&ended, ReadOptions::with_format(Format::Jkf)).expect("read");
    assert_eq!(read.moves.moves.len(), MAX_PLIES - 1);
    // A fork of the 1,000th move: its line reaches the limit after MAX_PLIES - 999 moves of
    // its own; the main line after the fork does not count them.
    let forked = |fork_moves: usize| {
        let mut lines = vec!["{\"moves\":[{}".to_string()];
        lines.extend(entries(0, 999));
        let mut fork = entries(999, fork_moves);
        fork[0] = format!("{{\"forks\":[[\n{}", fork[0]);
        if let Some(last) = fork.last_mut() {
            last.push_str(&format!("\n]],{}", &steps[3][1..]));
        }
        lines.extend(fork);
        lines.extend(entries(0, 10));
        format!("{}]}}", lines.join(",\n"))
    };
    // At the limit it reads, and the forked entry's own move (after its forks) counts from
    // the main line again.
    let read = read_str(
        &forked(MAX_PLIES - 999),
        ReadOptions::with_format(Format::Jkf),
    );
    assert_eq!(read.expect("read").moves.moves.len(), 1010);
    let e = refused(&forked(MAX_PLIES - 999 + 1), Format::Jkf);
    assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
    // (Line 1001 opens the fork, whose first move is on line 1002.)
    assert_eq!(
        (e.location.line as usize, e.location.column as usize),
        (3 + MAX_PLIES, column),
        "{e}"
    );
}

#[test]
fn header_entries() {
    let mut kif = String::new();
    for n in 0..=MAX_HEADER_ENTRIES {
        kif.push_str(&format!("key{n}：value\n"));
    }
    let e = refused(&kif, Format::Kif);
    assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
    assert_eq!(e.location.line as usize, MAX_HEADER_ENTRIES + 1);
    assert!(e.message.contains("10,000 header lines"), "{e}");

    let mut csa = String::new();
    for n in 0..=MAX_HEADER_ENTRIES {
        csa.push_str(&format!("$KEY{n}:value\n"));
    }
    let e = refused(&csa, Format::Csa);
    assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
    assert_eq!(e.location.line as usize, MAX_HEADER_ENTRIES + 1);

    let members: Vec<String> = (0..=MAX_HEADER_ENTRIES)
        .map(|n| format!("\"k{n}\":\"v\""))
        .collect();
    let jkf = format!(
        "{{\"header\":{{{}}},\"moves\":[{{}}]}}",
        members.join(",\n")
    );
    let e = refused(&jkf, Format::Jkf);
    assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
    assert_eq!(e.location.line as usize, MAX_HEADER_ENTRIES + 1, "{e}");
}

#[test]
fn jkf_items_and_nesting() {
    // Three bytes of JSON an entry: a million entries of the move list are refused, at the
    // line where the limit is passed.
    let jkf = format!(
        "{{\"header\":{{}},\"moves\":[{{}}\n{}]}}",
        ",{}\n".repeat(MAX_JKF_ITEMS + 1)
    );
    let e = refused(&jkf, Format::Jkf);
    assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
    assert!(
        e.message.contains("1,000,000 moves, forks, comments"),
        "{e}"
    );
    // (The JSON reader stands after the entry, at the start of the next line.)
    let line = e.location.line as usize;
    assert!(
        (MAX_JKF_ITEMS + 1..=MAX_JKF_ITEMS + 2).contains(&line),
        "{e}"
    );
    // JSON nested deeper than the JSON reader's limit: located where it is reached.
    let deep = format!(
        "{{\"header\":{{\"a\":{}{}}}}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    let e = refused(&deep, Format::Jkf);
    assert_eq!(e.kind, ErrorKind::TooDeep, "{e}");
    assert_eq!(e.location.line, 1);
    assert!(e.location.column > 100, "{e}");
    // Forks nested deeper than the variation limit (each level three levels of JSON: the
    // JSON reader's limit comes first).
    let mut moves = String::from("{\"move\":{\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}}");
    for _ in 0..70 {
        moves = format!(
            "{{\"move\":{{\"to\":{{\"x\":7,\"y\":6}},\"piece\":\"FU\"}},\"forks\":[[{moves}]]}}"
        );
    }
    let e = refused(&format!("{{\"moves\":[{{}},{moves}]}}"), Format::Jkf);
    assert_eq!((e.kind, e.location.line), (ErrorKind::TooDeep, 1), "{e}");
}

#[test]
fn lines_too_long() {
    let long = "x".repeat(MAX_LINE_BYTES + 1);
    // A KIF or KI2 line: the record's error, at that line.
    for f in [Format::Kif, Format::Ki2] {
        let e = refused(&format!("手合割：平手\n*{long}\n"), f);
        assert_eq!(e.kind, ErrorKind::TooLarge, "{f:?}");
        assert_eq!(e.location.line, 2);
        assert!(e.message.contains("longer than 4 MiB"), "{e}");
    }
    // A USI line: the error of its game; the games around it are read.
    let usi = format!("startpos moves 7g7f\n{long}\nstartpos moves 2g2f\n");
    let games: Vec<_> = Reader::new(usi.as_bytes(), ReadOptions::with_format(Format::Usi))
        .expect("reader")
        .collect();
    assert_eq!(games.len(), 3);
    assert!(games[0].is_valid() && games[2].is_valid());
    let e = games[1].error.as_ref().expect("refused");
    assert_eq!((e.kind, e.location.line), (ErrorKind::TooLarge, 2));
}

#[test]
fn warnings_are_capped() {
    let kif = format!(
        "手合割：平手\n{}   1 ７六歩(77)\n",
        "？？\n".repeat(3 * MAX_WARNINGS)
    );
    let r = read_str(&kif, ReadOptions::default()).expect("read");
    assert_eq!(r.usi_moves(), ["7g7f"]);
    assert_eq!(r.diagnostics.len(), MAX_WARNINGS + 1);
    assert!(r.diagnostics[MAX_WARNINGS].message.contains("left out"));
}

/// An endless input: `start`, then `unit` for ever; counts the bytes handed out.
struct Endless {
    start: Vec<u8>,
    unit: Vec<u8>,
    at: usize,
    read: Rc<Cell<u64>>,
}

impl Read for Endless {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let mut n = 0;
        while n < out.len() {
            let src = if self.at < self.start.len() {
                &self.start[self.at..]
            } else {
                let k = (self.at - self.start.len()) % self.unit.len();
                &self.unit[k..]
            };
            let m = src.len().min(out.len() - n);
            out[n..n + m].copy_from_slice(&src[..m]);
            n += m;
            self.at += m;
        }
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

fn endless(start: &str, unit: &str) -> (impl BufRead, Rc<Cell<u64>>) {
    let read = Rc::new(Cell::new(0));
    let input = Endless {
        start: start.as_bytes().to_vec(),
        unit: unit.as_bytes().to_vec(),
        at: 0,
        read: read.clone(),
    };
    (BufReader::with_capacity(1 << 16, input), read)
}

/// How much more than `limit` may be read before the limit's error: a chunk of the reader
/// and a buffer.
const SLACK: u64 = 2 << 20;

/// The input was read no further than `limit` bytes and the [`SLACK`].
#[track_caller]
fn assert_read_within(read: &Cell<u64>, limit: usize) {
    let read = read.get();
    assert!(
        read <= limit as u64 + SLACK,
        "read {read} bytes, limit {limit}"
    );
}

#[test]
fn an_endless_line_is_refused_after_a_bounded_read() {
    // A USI game whose line never ends: the game before it, then its error.
    let (input, read) = endless(
        "position startpos moves 7g7f\nposition startpos moves",
        " 7g7f",
    );
    let mut games = Reader::new(input, ReadOptions::default()).expect("reader");
    assert!(games.next().expect("first game").is_valid());
    let second = games.next().expect("second game");
    let e = second.error.expect("refused");
    assert_eq!((e.kind, e.location.line), (ErrorKind::TooLarge, 2), "{e}");
    assert_read_within(&read, MAX_LINE_BYTES);

    // Records the reader refuses as a whole, with the line of the error and the limit the
    // read stays within.
    let cases = [
        (
            "a KIF comment without end: the record's error, as soon as the line passes the limit",
            "手合割：平手\n*",
            "あ",
            ReadOptions::default(),
            2..=2,
            MAX_LINE_BYTES,
        ),
        (
            "a KIF record of endless short lines: refused at the record's limit",
            "手合割：平手\n",
            "*あ\n",
            ReadOptions::default(),
            1_000_001..=u32::MAX,
            MAX_RECORD_BYTES,
        ),
        (
            "NUL bytes without end, read as KIF: a line without end",
            "",
            "\0",
            ReadOptions::with_format(Format::Kif),
            0..=u32::MAX,
            MAX_LINE_BYTES,
        ),
    ];
    for (what, start, unit, options, lines, limit) in cases {
        let (input, read) = endless(start, unit);
        let e = Reader::new(input, options)
            .err()
            .unwrap_or_else(|| panic!("{what}: not refused"));
        assert_eq!(e.kind, ErrorKind::TooLarge, "{what}: {e}");
        assert!(lines.contains(&e.location.line), "{what}: {e}");
        assert_read_within(&read, limit);
    }
}

#[test]
fn a_50_mb_stream_is_read_a_chunk_at_a_time() {
    // 50 MB of USI games, generated as they are read: when each game is handed out, the
    // reader has read at most a bounded amount past it.
    let line = "position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n";
    let games_wanted = 50_000_000 / line.len() as u64;
    let (input, read) = endless("", line);
    let games = Reader::new(input, ReadOptions::default()).expect("reader");
    let mut ahead = 0;
    for g in games.take(games_wanted as usize) {
        assert!(g.is_valid(), "{:?}", g.error);
        let through = g.index as u64 * line.len() as u64;
        ahead = ahead.max(read.get() - through);
    }
    assert!(ahead <= SLACK, "read {ahead} bytes ahead of the games");
}

//! A `Reader` reading a chunk at a time reads what it reads from the whole text: the same
//! records, the same errors at the same lines and bytes, in UTF-8 and Shift_JIS, for inputs far
//! beyond its 64 KiB sample.

use shogi_kif::{Encoding, ErrorKind, Format, ReadError, ReadOptions, ReadRecord, Reader, Record};
use std::io::{BufReader, Cursor, Read};

const GOOD: &str =
    "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0045KA\n%TORYO\n";
const BAD: &str = "V2.2\nPI\n+\n+2726FU\n-3344FU\n%TORYO\n";

/// Many CSA games separated by `/`, every fifth one illegal, with comments and CRLF here and there.
fn big_csa(games: usize) -> String {
    let mut s = String::from("'CSA encoding=UTF-8\n");
    for i in 0..games {
        if i > 0 {
            s.push_str("/\n");
        }
        let g = if i % 5 == 3 { BAD } else { GOOD };
        if i % 7 == 0 {
            s.push_str(&g.replace('\n', "\r\n"));
            s.push_str("'a comment line, ▲ in UTF-8\r\n");
        } else {
            s.push_str(g);
        }
    }
    s
}

/// Equal lists, or a short message naming the first difference.
fn assert_same(got: &[Result<Record, ReadError>], want: &[Result<Record, ReadError>]) {
    assert_eq!(got.len(), want.len(), "number of records");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g != w {
            let short = |r: &Result<Record, ReadError>| {
                let s = format!("{r:?}");
                s.chars().take(400).collect::<String>()
            };
            panic!("record {i} differs:\n got {}\nwant {}", short(g), short(w));
        }
    }
}

fn all_in_memory(text: &str, format: Format) -> Vec<Result<Record, ReadError>> {
    // Read whole (one chunk larger than the input) as the text it is.
    let opts = ReadOptions {
        chunk_size: usize::MAX,
        encoding: Some(Encoding::Utf8),
        ..ReadOptions::with_hint(Some(format))
    };
    let games = Reader::new(text.as_bytes(), opts).unwrap();
    games.map(ReadRecord::into_result).collect()
}

fn all_streamed(bytes: Vec<u8>, opts: ReadOptions) -> Vec<Result<Record, ReadError>> {
    // A small buffer, so lines straddle buffer refills.
    let reader = BufReader::with_capacity(37, Cursor::new(bytes));
    // Small chunks too, so games straddle them.
    let opts = ReadOptions {
        chunk_size: 4096,
        ..opts
    };
    let games = Reader::new(reader, opts).unwrap();
    games.map(ReadRecord::into_result).collect()
}

#[test]
fn csa_stream_equals_in_memory_reading() {
    let text = big_csa(2000);
    assert!(text.len() > 100_000, "{}", text.len());
    let want = all_in_memory(&text, Format::Csa);
    let got = all_streamed(text.clone().into_bytes(), ReadOptions::default());
    assert_eq!(got.len(), 2000);
    assert_same(&got, &want);
    let errors: Vec<&ReadError> = got.iter().filter_map(|r| r.as_ref().err()).collect();
    assert_eq!(errors.len(), 400);
    assert!(
        errors[0]
            .to_string()
            .contains("the piece does not move that way")
    );
}

#[test]
fn shift_jis_streams_with_utf8_offsets() {
    let text = big_csa(1500).replace("encoding=UTF-8", "encoding=Shift_JIS");
    let (sjis, _, bad) = encoding_rs::SHIFT_JIS.encode(&text);
    assert!(!bad);
    let stream = Reader::new(Cursor::new(sjis.to_vec()), ReadOptions::default()).unwrap();
    assert_eq!(stream.encoding(), Encoding::ShiftJis);
    let got: Vec<_> = stream.map(ReadRecord::into_result).collect();
    let want = all_in_memory(&text, Format::Csa);
    assert_same(&got, &want);
}

#[test]
fn usi_lines_stream() {
    let mut text = String::new();
    for i in 0..5000 {
        match i % 4 {
            0 => text.push_str("position startpos moves 7g7f 3c3d\n"),
            1 => text.push_str("# a comment\n\n"),
            2 => text.push_str("sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d\n"),
            _ => text.push_str("position startpos moves 7g7f 7g7f\n"),
        }
    }
    let want = all_in_memory(&text, Format::Usi);
    let got = all_streamed(text.into_bytes(), ReadOptions::default());
    assert_eq!(got.len(), 3750);
    assert_same(&got, &want);
}

/// Bytes made on the fly: a million games that never exist in memory together.
struct Generated {
    games: usize,
    made: usize,
    pending: Vec<u8>,
    pos: usize,
}

impl Read for Generated {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.pending.len() {
            if self.made == self.games {
                return Ok(0);
            }
            self.pending = format!(
                "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*{}e\n",
                1 + self.made % 9
            )
            .into_bytes();
            self.made += 1;
            self.pos = 0;
        }
        let n = out.len().min(self.pending.len() - self.pos);
        out[..n].copy_from_slice(&self.pending[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[test]
fn a_million_games_stream_in_constant_memory() {
    let source = Generated {
        games: 1_000_000,
        made: 0,
        pending: Vec::new(),
        pos: 0,
    };
    let stream = Reader::new(BufReader::new(source), ReadOptions::default()).unwrap();
    assert_eq!(stream.format(), Format::Usi);
    let mut n = 0usize;
    for r in stream {
        let r = r.into_result().unwrap();
        assert_eq!(r.main_line().count(), 5);
        n += 1;
    }
    assert_eq!(n, 1_000_000);
}

#[test]
fn an_encoding_break_is_located_and_the_next_game_still_reads() {
    let mut bytes = big_csa(3000).into_bytes();
    // A Shift_JIS comment deep inside game 2500 (past the 64 KiB sample).
    let at = String::from_utf8_lossy(&bytes)
        .match_indices("/\n")
        .nth(2500)
        .unwrap()
        .0
        + 2;
    bytes.splice(at..at, b"'\x82\xa0 sjis\n".iter().copied());
    let got = all_streamed(bytes, ReadOptions::default());
    let bad: Vec<&ReadError> = got
        .iter()
        .filter_map(|r| r.as_ref().err())
        .filter(|e| e.kind == ErrorKind::Encoding)
        .collect();
    assert_eq!(bad.len(), 1);
    assert!(bad[0].message.contains("not valid UTF-8"), "{}", bad[0]);
    assert!(bad[0].location.line > 20_000);
    assert_eq!(got.len(), 3000, "the other games are all read");
}

#[test]
fn a_huge_line_is_refused_not_swallowed() {
    let mut text = big_csa(2000);
    text.push_str("/\n'");
    text.push_str(&"x".repeat(17 << 20));
    text.push('\n');
    let got = all_streamed(text.into_bytes(), ReadOptions::default());
    let last = got.last().unwrap().as_ref().unwrap_err();
    assert_eq!(last.kind, ErrorKind::TooLarge);
}

#[test]
fn an_ascii_start_leaves_the_encoding_to_the_first_other_line() {
    // Thousands of ASCII games, then one with a Shift_JIS player name: the whole input is
    // Shift_JIS, which the first 64 KiB cannot show.
    let mut text = big_csa(2000)
        .replace("'CSA encoding=UTF-8\n", "")
        .replace("▲", "x");
    text.push_str("/\nV2.2\nN+羽生\nPI\n+\n+7776FU\n%TORYO\n");
    let (sjis, _, bad) = encoding_rs::SHIFT_JIS.encode(&text);
    assert!(!bad);
    let stream = Reader::new(Cursor::new(sjis.to_vec()), ReadOptions::default()).unwrap();
    let got: Vec<_> = stream.map(ReadRecord::into_result).collect();
    assert_eq!(got.len(), 2001);
    let last = got.last().unwrap().as_ref().unwrap();
    assert_eq!(last.header.black(), Some("羽生"));
    assert_same(&got, &all_in_memory(&text, Format::Csa));
}

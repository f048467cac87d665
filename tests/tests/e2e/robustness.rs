//! Bad input never panics: every record of ../shared/corpus and samples/, mutated many ways
//! (bytes flipped, deleted, inserted, lines repeated or dropped, cut short; valid Japanese
//! text inserted or put in place of other bytes, in the record's own encoding, UTF-8, CP932
//! or EUC-JP; long lines; deep nesting of JSON, JKF forks and KIF variations; NUL bytes), is
//! read, and each record that reads is written back in every format and read again. Each
//! run must end in a record or an error; a panic fails the test and names the input that
//! caused it. Each input is also checked by the fuzz targets' invariants
//! (`shogi_tests::invariants`: records that read replay, errors are located inside the
//! input, written records read back the same).
//! `SHOGI_FUZZ_SCALE=30` multiplies the number of mutations (230,000 inputs ran clean so).

use shogi_kif::{Encoding, ReadOptions, ReadRecord, Reader};
use shogi_testkit::Rng;
use shogi_tests::invariants::{self, FORMATS, files_under};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

/// Reads every record of `bytes`; writes each one back in every format and reads that again.
/// Then the fuzz targets' checks: the reader of the format detected, and the writers.
fn exercise(bytes: &[u8]) {
    let Ok(records) = Reader::new(bytes, ReadOptions::default()) else {
        return;
    };
    let format = records.format();
    for (i, r) in records.map(ReadRecord::into_result).enumerate() {
        if i > 50 {
            break;
        }
        let Ok(record) = r else { continue };
        let _ = shogi_kif::validate(&record);
        let _ = record.final_position();
        for f in FORMATS {
            let text = shogi_kif::write(&record, f);
            let _ = shogi_kif::read_str(&text, ReadOptions::with_hint(Some(f)));
        }
    }
    invariants::check_read(bytes, format);
    let mut no_hint = vec![6];
    no_hint.extend_from_slice(bytes);
    invariants::check_write(&no_hint);
}

/// Japanese words of records (moves, marks, header keys, variation and comment lines) in
/// each encoding a record can have, for mutations that insert valid multi-byte text.
const WORDS: [[&[u8]; 12]; 3] = [
    // UTF-8: 歩 ▲ △ 同　 手合割：平手 成 打 投了 変化：３手 ＊コメント 五 竜
    [
        b"\xe6\xad\xa9",
        b"\xe2\x96\xb2",
        b"\xe2\x96\xb3",
        b"\xe5\x90\x8c\xe3\x80\x80",
        b"\xe6\x89\x8b\xe5\x90\x88\xe5\x89\xb2\xef\xbc\x9a\xe5\xb9\xb3\xe6\x89\x8b",
        b"\xe6\x88\x90",
        b"\xe6\x89\x93",
        b"\xe6\x8a\x95\xe4\xba\x86",
        b"\xe5\xa4\x89\xe5\x8c\x96\xef\xbc\x9a\xef\xbc\x93\xe6\x89\x8b",
        b"\xef\xbc\x8a\xe3\x82\xb3\xe3\x83\xa1\xe3\x83\xb3\xe3\x83\x88",
        b"\xe4\xba\x94",
        b"\xe7\xab\x9c",
    ],
    // CP932
    [
        b"\x95\xe0",
        b"\x81\xa3",
        b"\x81\xa2",
        b"\x93\xaf\x81@",
        b"\x8e\xe8\x8d\x87\x8a\x84\x81F\x95\xbd\x8e\xe8",
        b"\x90\xac",
        b"\x91\xc5",
        b"\x93\x8a\x97\xb9",
        b"\x95\xcf\x89\xbb\x81F\x82R\x8e\xe8",
        b"\x81\x96\x83R\x83\x81\x83\x93\x83g",
        b"\x8c\xdc",
        b"\x97\xb3",
    ],
    // EUC-JP
    [
        b"\xca\xe2",
        b"\xa2\xa5",
        b"\xa2\xa4",
        b"\xc6\xb1\xa1\xa1",
        b"\xbc\xea\xb9\xe7\xb3\xe4\xa1\xa7\xca\xbf\xbc\xea",
        b"\xc0\xae",
        b"\xc2\xc7",
        b"\xc5\xea\xce\xbb",
        b"\xca\xd1\xb2\xbd\xa1\xa7\xa3\xb3\xbc\xea",
        b"\xa1\xf6\xa5\xb3\xa5\xe1\xa5\xf3\xa5\xc8",
        b"\xb8\xde",
        b"\xce\xb5",
    ],
];

/// Text that nests: JSON arrays and objects, JKF forks, KIF variation lines.
const NESTS: [&[u8]; 4] = [
    b"[",
    b"{\"a\":",
    b"{\"forks\":[[",
    b"\n\xe5\xa4\x89\xe5\x8c\x96\xef\xbc\x9a1\xe6\x89\x8b\n1 \xef\xbc\x97\xe5\x85\xad\xe6\xad\xa9(77)",
];

/// The index into `WORDS` of the encoding `src` is in (UTF-8 when it does not decode).
fn encoding_index(src: &[u8]) -> usize {
    match shogi_kif::decode(src, None) {
        Ok((_, Encoding::ShiftJis)) => 1,
        Ok((_, Encoding::EucJp)) => 2,
        _ => 0,
    }
}

/// Moves `i` back to the start of a character of `b` (in any of the three encodings a
/// character starts after a byte below 0x40, or at the start), so that an insertion or a
/// replacement there keeps the text valid more often than not.
fn char_start(b: &[u8], mut i: usize) -> usize {
    while i > 0 && b[i - 1] >= 0x40 && b[i] >= 0x40 {
        i -= 1;
    }
    i
}

fn mutate(rng: &mut Rng, src: &[u8]) -> Vec<u8> {
    let mut b = src.to_vec();
    let words = &WORDS[encoding_index(src)];
    let junk: &[u8] = b"\n\r /+-*0123456789()PIFU\xe6\x89\x93\xe5\x90\x8c\x81\x40\xff\x00";
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            b.push(b'1');
        }
        let i = rng.below(b.len());
        match rng.below(13) {
            7 => {
                // Valid Japanese text, in the record's encoding, at a character start.
                let at = char_start(&b, i);
                let w = words[rng.below(words.len())];
                b.splice(at..at, w.iter().copied());
            }
            8 => {
                // A character (or a few bytes) replaced by valid Japanese text.
                let at = char_start(&b, i);
                let end = (at + 1 + rng.below(3)).min(b.len());
                let w = words[rng.below(words.len())];
                b.splice(at..end, w.iter().copied());
            }
            9 => {
                // A long line: up to 100,000 bytes of one word, ASCII or Japanese.
                let w: &[u8] = if rng.below(2) == 0 {
                    b"7"
                } else {
                    words[rng.below(words.len())]
                };
                let n = 1 + rng.below(100_000 / w.len());
                let at = char_start(&b, i);
                b.splice(at..at, w.iter().copied().cycle().take(n * w.len()));
            }
            10 => {
                // Deep nesting.
                let w = NESTS[rng.below(NESTS.len())];
                let n = 1 + rng.below(20_000);
                let at = char_start(&b, i);
                b.splice(at..at, w.iter().copied().cycle().take(n * w.len()));
            }
            11 => {
                // NUL bytes.
                let n = 1 + rng.below(4);
                b.splice(i..i, std::iter::repeat_n(0u8, n));
            }
            12 => {
                // A valid character of another encoding than the record's.
                let other = &WORDS[rng.below(WORDS.len())];
                let w = other[rng.below(other.len())];
                let at = char_start(&b, i);
                b.splice(at..at, w.iter().copied());
            }
            0 => b[i] = junk[rng.below(junk.len())],
            1 => {
                b.remove(i);
            }
            2 => b.insert(i, junk[rng.below(junk.len())]),
            3 => b.truncate(i),
            4 => b[i] ^= 1 << rng.below(8),
            5 => {
                // Repeat a stretch (a line or more) in place.
                let end = (i + 1 + rng.below(200)).min(b.len());
                let piece = b[i..end].to_vec();
                for (k, &c) in piece.iter().enumerate() {
                    b.insert(end + k, c);
                }
            }
            _ => {
                // Drop a stretch.
                let end = (i + 1 + rng.below(100)).min(b.len());
                b.drain(i..end);
            }
        }
    }
    b
}

#[test]
fn mutated_records_never_panic() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    files_under(&root.join("../shared/corpus"), &mut files);
    files_under(&root.join("samples"), &mut files);
    files_under(&root.join("tests/fixtures"), &mut files);
    files.sort();
    assert!(!files.is_empty());
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    let mut runs = 0;
    for path in &files {
        let Ok(src) = std::fs::read(path) else {
            continue;
        };
        // Big files get fewer mutations so the test stays quick.
        let n = if src.len() > 20_000 { 5 } else { 40 }
            * std::env::var("SHOGI_FUZZ_SCALE")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(1);
        for k in 0..n {
            let input = if k == 0 {
                src.clone()
            } else {
                mutate(&mut rng, &src)
            };
            let ok = catch_unwind(AssertUnwindSafe(|| exercise(&input)));
            if ok.is_err() {
                let dump = std::env::temp_dir().join("shogi-panic-input");
                let _ = std::fs::write(&dump, &input);
                panic!(
                    "panic on a mutation of {} (input saved to {})",
                    path.display(),
                    dump.display()
                );
            }
            runs += 1;
        }
    }
    eprintln!("{runs} inputs from {} files", files.len());
}

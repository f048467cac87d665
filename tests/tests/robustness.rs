//! Bad input never panics: every record of ../shared/corpus and samples/, mutated many ways
//! (bytes flipped, deleted, inserted, lines repeated or dropped, cut short), is read, and each
//! record that reads is written back in every format and read again. Each run must end in a
//! record or an error; a panic fails the test and names the input that caused it.
//! `SHOGI_FUZZ_SCALE=30` multiplies the number of mutations (230,000 inputs ran clean so).

use shogi_kif::{Format, Game, ReadOptions, Reader};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else if !matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("tsv" | "md" | "txt")
        ) {
            out.push(p);
        }
    }
}

const FORMATS: [Format; 6] = [
    Format::Kif,
    Format::Ki2,
    Format::Csa,
    Format::Usi,
    Format::Sfen,
    Format::Jkf,
];

/// Reads every record of `bytes`; writes each one back in every format and reads that again.
fn exercise(bytes: &[u8]) {
    let Ok(records) = Reader::new(bytes, ReadOptions::default()) else {
        return;
    };
    for (i, r) in records.map(Game::into_result).enumerate() {
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
}

fn mutate(rng: &mut Rng, src: &[u8]) -> Vec<u8> {
    let mut b = src.to_vec();
    let junk: &[u8] = b"\n\r /+-*0123456789()PIFU\xe6\x89\x93\xe5\x90\x8c\x81\x40\xff\x00";
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            b.push(b'1');
        }
        let i = rng.below(b.len());
        match rng.below(7) {
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
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
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

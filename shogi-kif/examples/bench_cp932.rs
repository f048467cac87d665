//! Times CP932 decoding in-process: loads every `.kif` file of a folder into memory once,
//! then decodes them all, `--reps` times a round, with the library's `decode` and with
//! `old`, a copy of the CP932 decoder as it was at commit f38c042 (eight ASCII bytes at a
//! time, the input moved on by the table entry's count), and prints the median ns/byte
//! over the rounds and the median ratio of the two. Both are checked to give the same text.
//!
//! ```sh
//! cargo run --profile py-test -p shogi-kif --example bench_cp932 -- \
//!     /work/bench-games/games-10000-sjis [--rounds 21] [--reps 1]
//! ```

use std::time::Instant;

// The old decoder's table, look-up and stops, as they were (they are private to the
// library).
const ENTRIES: usize = 128 * 256;
const UNKNOWN: u32 = 0;
const INVALID: u32 = 1;
const OTHER: u32 = 2;
const SINGLE: u8 = 0xFF;
const KIND: [u8; 128] = {
    let mut kind = [SINGLE; 128];
    let mut b = 0x80;
    while b <= 0xFF {
        if (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC) {
            kind[b - 0x80] = 0;
        }
        b += 1;
    }
    kind
};

#[cold]
#[inline(never)]
fn look_up(lead: u8, next: u8) -> u32 {
    let pair = [lead, next];
    let len = if KIND[usize::from(lead - 0x80)] == SINGLE {
        1
    } else {
        2
    };
    let text =
        encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(&pair[..len]);
    let mut chars = text.as_deref().unwrap_or("").chars();
    let c = match (chars.next(), chars.next()) {
        (Some(c), None) if !c.is_ascii() => c,
        _ => return INVALID,
    };
    let mut utf8 = [0; 4];
    let n = c.encode_utf8(&mut utf8).len();
    if n > 3 {
        return OTHER;
    }
    u32::from_le_bytes(utf8) | (n as u32 | (len as u32) << 4) << 24
}

enum Stop {
    Invalid,
    Other,
}

type Table = [u32; ENTRIES];

fn finish(out: &[u8]) -> Result<String, Stop> {
    match encoding_rs::UTF_8.decode_without_bom_handling_and_without_replacement(out) {
        Some(text) => Ok(text.into_owned()),
        None => unreachable!("the table holds UTF-8"),
    }
}

#[inline(always)]
fn entry_of(table: &mut Table, b: u8, next: u8) -> Result<u32, Stop> {
    let at = usize::from(b & 0x7F) << 8 | usize::from(next);
    let mut entry = table[at];
    if entry >> 24 == 0 {
        if entry == UNKNOWN {
            entry = look_up(b, next);
            table[at] = entry;
        }
        match entry {
            INVALID => return Err(Stop::Invalid),
            OTHER => return Err(Stop::Other),
            _ => {}
        }
    }
    Ok(entry)
}

/// The decoder as it was (commit f38c042).
fn old(bytes: &[u8], table: &mut Table, scratch: &mut Vec<u8>) -> Result<String, Stop> {
    let need = bytes.len() * 3 + 8;
    if scratch.len() < need {
        scratch.resize(need, 0);
    }
    let out = &mut scratch[..];
    let (mut i, mut o) = (0usize, 0usize);
    'ascii: loop {
        while bytes.len() - i >= 8 {
            let mut word = [0; 8];
            word.copy_from_slice(&bytes[i..i + 8]);
            out[o..o + 8].copy_from_slice(&word);
            let high = u64::from_le_bytes(word) & 0x8080_8080_8080_8080;
            if high != 0 {
                let n = (high.trailing_zeros() / 8) as usize;
                i += n;
                o += n;
                break;
            }
            i += 8;
            o += 8;
        }
        loop {
            let Some(&b) = bytes.get(i) else {
                break 'ascii;
            };
            if b < 0x80 {
                if bytes.len() - i >= 8 {
                    continue 'ascii;
                }
                out[o] = b;
                i += 1;
                o += 1;
                continue;
            }
            let next = bytes.get(i + 1).copied().unwrap_or(0);
            let entry = entry_of(table, b, next)?;
            out[o..o + 4].copy_from_slice(&entry.to_le_bytes());
            o += (entry >> 24 & 0xF) as usize;
            i += (entry >> 28) as usize;
        }
    }
    finish(&out[..o])
}

/// `old` after the declaration look-up that the library's `decode` makes first, so that
/// the two do the same work.
fn old_decode(bytes: &[u8], table: &mut Table, scratch: &mut Vec<u8>) -> Option<String> {
    std::hint::black_box(shogi_kif::declared_encoding(bytes));
    match old(bytes, table, scratch) {
        Ok(text) => Some(text),
        Err(Stop::Invalid) => None,
        Err(Stop::Other) => unreachable!("CP932 has no such character"),
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut dir = String::from("/work/bench-games/games-10000-sjis");
    let (mut rounds, mut reps) = (21usize, 1usize);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().expect("a count").parse().expect("a count"),
            "--reps" => reps = args.next().expect("a count").parse().expect("a count"),
            _ => dir = a,
        }
    }
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("a folder")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "kif"))
        .collect();
    paths.sort();
    let files: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| std::fs::read(p).expect("a readable file"))
        .collect();
    let total: usize = files.iter().map(Vec::len).sum();
    println!("{} files, {total} bytes", files.len());

    let mut table: Box<Table> = vec![UNKNOWN; ENTRIES]
        .into_boxed_slice()
        .try_into()
        .expect("the table's size");
    let mut scratch = Vec::new();
    // The same text from both, and the files are CP932 (not UTF-8 read some other way).
    for f in &files {
        let lib = shogi_kif::decode(f, None).ok();
        assert!(
            lib.as_ref()
                .is_none_or(|l| l.1 == shogi_kif::Encoding::ShiftJis)
        );
        let lib = lib.map(|(text, _)| text.into_owned());
        assert_eq!(old_decode(f, &mut table, &mut scratch), lib);
    }

    // Rounds alternate which one runs first; the machine's load drifts between rounds, so
    // each round's ratio is taken too.
    let (mut t_old, mut t_lib, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let mut sink = 0usize;
    for round in 0..rounds {
        let mut pair = [0.0; 2];
        for k in [round % 2, 1 - round % 2] {
            let start = Instant::now();
            for _ in 0..reps {
                for f in &files {
                    sink += if k == 0 {
                        old_decode(f, &mut table, &mut scratch).map_or(0, |t| t.len())
                    } else {
                        shogi_kif::decode(f, None).map_or(0, |t| t.0.len())
                    };
                }
            }
            pair[k] = start.elapsed().as_nanos() as f64 / (total * reps) as f64;
        }
        t_old.push(pair[0]);
        t_lib.push(pair[1]);
        ratios.push(pair[1] / pair[0]);
    }
    for (name, t) in [("old", &mut t_old), ("decode", &mut t_lib)] {
        let (lo, hi) = (
            t.iter().copied().fold(f64::MAX, f64::min),
            t.iter().copied().fold(0.0, f64::max),
        );
        let med = median(t);
        println!("{name:>7}: median {med:.3} ns/byte (min {lo:.3}, max {hi:.3})");
    }
    let (lo, hi) = (
        ratios.iter().copied().fold(f64::MAX, f64::min),
        ratios.iter().copied().fold(0.0, f64::max),
    );
    let med = median(&mut ratios);
    println!("decode / old: median {med:.3} of the rounds' ratios (min {lo:.3}, max {hi:.3})");
    std::hint::black_box(sink);
}

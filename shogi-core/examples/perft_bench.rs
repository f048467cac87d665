//! Perft timing for the move generator:
//! `cargo run --release -p shogi-core --example perft_bench [RUNS]`.
//!
//! Runs a copy of the simple perft (bulk counting at the last ply) on the standard start
//! position (d5), the "matsuri" position (d4) and the Mini Shogi start position (d7), and prints
//! the median time of each over RUNS runs (default 5).
//!
//! `perft_bench suite FILE MAXNODES` checks every count of a perft suite file instead
//! (lines `SFEN ;D1 n ;D2 n ...`), skipping counts above MAXNODES.
use shogi_core::Position;
use std::time::Instant;

fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut n = 0;
            pos.for_each_legal_move(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                n += perft(&child, depth - 1);
            });
            n
        }
    }
}

const CASES: &[(&str, &str, u32, u64)] = &[
    (
        "start d5",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        5,
        19_861_490,
    ),
    (
        "matsuri d4",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        4,
        516_925_165,
    ),
    ("mini d7", "rbsgk/4p/5/P4/KGSBR b - 1", 7, 132_680_617),
];

/// Smaller cases, run only when named by the filter (for instruction counting).
const SMALL: &[(&str, &str, u32, u64)] = &[
    (
        "small start d4",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        4,
        719_731,
    ),
    (
        "small matsuri d3",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        3,
        4_809_015,
    ),
    ("small mini d5", "rbsgk/4p/5/P4/KGSBR b - 1", 5, 533_203),
];

/// CPU time of this thread in seconds (Linux schedstat; wall time elsewhere), so that other
/// processes on a busy machine disturb the measurement less.
fn cpu_seconds(wall: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| wall.elapsed().as_secs_f64(), |ns| ns as f64 * 1e-9)
}

fn suite(file: &str, max: u64) {
    let text = std::fs::read_to_string(file).expect("readable suite file");
    let mut failures = 0;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split(';');
        let sfen = parts.next().unwrap_or_default().trim();
        let pos = Position::from_sfen(sfen).expect("valid SFEN");
        for p in parts {
            let mut w = p.split_whitespace();
            let d: u32 = w.next().and_then(|d| d[1..].parse().ok()).expect("depth");
            let n: u64 = w.next().and_then(|n| n.parse().ok()).expect("count");
            if n > max {
                continue;
            }
            let t = Instant::now();
            let got = perft(&pos, d);
            if got != n {
                failures += 1;
            }
            println!(
                "{} {sfen} D{d} expected {n} got {got} {:.3}s",
                if got == n { "ok  " } else { "FAIL" },
                t.elapsed().as_secs_f64()
            );
        }
    }
    if failures > 0 {
        println!("{failures} FAILED");
        std::process::exit(1);
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("suite") {
        let file = std::env::args().nth(2).expect("suite FILE MAXNODES");
        let max = std::env::args().nth(3).and_then(|m| m.parse().ok());
        suite(&file, max.unwrap_or(u64::MAX));
        return;
    }
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let filter = std::env::args().nth(2);
    let cases = CASES
        .iter()
        .chain(if filter.is_some() { SMALL } else { &[] });
    for &(name, sfen, depth, expected) in cases {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let pos = Position::from_sfen(sfen).expect("valid SFEN");
        let mut times = Vec::with_capacity(runs);
        let mut wrong = None;
        for _ in 0..runs {
            let wall = Instant::now();
            let t = cpu_seconds(wall);
            let n = perft(&pos, depth);
            times.push(cpu_seconds(wall) - t);
            if n != expected {
                wrong = Some(n);
            }
        }
        if let Some(n) = wrong {
            println!("{name}: WRONG COUNT {n} (expected {expected})");
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{name:<11} median {:.3}s min {:.3}s CPU ({runs} runs)",
            times[runs / 2],
            times[0]
        );
    }
}

//! `cargo bench -p shogi-perft`: single-thread perft of the start position to depth 5 and of
//! matsuri to depth 4, plus two threads on the start position to depth 6 when
//! `SHOGI_PERFT_BENCH_DEEP=1`. Prints the median of a few runs and leaves per second.

use shogi_core::{Position, Variant};
use std::time::{Duration, Instant};

const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

fn bench(name: &str, runs: usize, expected: u64, f: impl Fn() -> u64) {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let n = f();
            let e = t.elapsed();
            assert_eq!(n, expected, "{name}: wrong count");
            e
        })
        .collect();
    times.sort();
    let median = times[times.len() / 2].as_secs_f64();
    println!(
        "{name:<32} median {median:>8.3} s  best {:>8.3} s  {:>6.1} M leaves/s  ({runs} runs)",
        times[0].as_secs_f64(),
        expected as f64 / median / 1e6
    );
}

fn main() {
    // `cargo test --benches` passes --bench-less arguments; run everything only under cargo bench.
    let quick = !std::env::args().any(|a| a == "--bench");
    let runs = if quick { 1 } else { 7 };
    let start = Position::startpos(Variant::Standard);
    let matsuri = match Position::from_sfen(MATSURI) {
        Ok(p) => p,
        Err(e) => panic!("matsuri: {e}"),
    };
    bench("start d5 (1 thread)", runs, 19_861_490, || {
        shogi_perft::perft(&start, 5)
    });
    if quick {
        return;
    }
    bench("matsuri d4 (1 thread)", 3, 516_925_165, || {
        shogi_perft::perft(&matsuri, 4)
    });
    let mini = Position::startpos(Variant::Mini);
    bench("mini start d7 (1 thread)", 3, 132_680_617, || {
        shogi_perft::perft(&mini, 7)
    });
    if std::env::var("SHOGI_PERFT_BENCH_DEEP").is_ok_and(|v| v == "1") {
        for threads in [1, 2] {
            let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(p) => p,
                Err(e) => panic!("thread pool: {e}"),
            };
            bench(
                &format!("start d6 ({threads} threads)"),
                3,
                547_581_517,
                || pool.install(|| shogi_perft::parallel::perft(&start, 6)),
            );
        }
    }
}

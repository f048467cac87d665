//! Our overhead per `go` round trip, measured with the fake engine (which answers at once):
//! the median and p99 of (a) "bestmove line read by the reader thread → `search` returned"
//! (our parsing, PV/bestmove checks and result building) and (b) a whole
//! position + go + bestmove cycle at `go nodes 1`, and the same cycle against
//! fairy-stockfish when it is installed.
//!
//! `cargo bench -p shogi-usi --bench overhead [-- CYCLES]` (default 2000 cycles).

use shogi_core::{Move, Position, Variant};
use shogi_usi::{Engine, Limit, StartOptions, testing};
use std::time::{Duration, Instant};

fn pct(v: &mut [Duration], p: f64) -> Duration {
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i.min(v.len() - 1)]
}

fn run(label: &str, path: &std::path::Path, args: &[&str], cycles: usize) {
    let mut e = match Engine::start(path, args, StartOptions::default()) {
        Ok(e) => e,
        Err(err) => {
            eprintln!("{label}: cannot start: {err}");
            return;
        }
    };
    // A game-like line: positions with 0..40 moves, so PV checks and `position` lines vary.
    let start = Position::startpos(Variant::Standard);
    let mut line: Vec<Move> = Vec::new();
    let mut p = start.clone();
    for _ in 0..40 {
        let mut moves: Vec<Move> = p.legal_moves().iter().copied().collect();
        moves.sort_by_key(|m| m.to_usi());
        let Some(&m) = moves.get(moves.len() / 2) else {
            break;
        };
        p.play(m).ok();
        line.push(m);
    }
    let mut after = Vec::with_capacity(cycles);
    let mut whole = Vec::with_capacity(cycles);
    let limit = Limit::nodes(1);
    for i in 0..cycles {
        let moves = &line[..i % (line.len() + 1)];
        let t0 = Instant::now();
        let s = match e.search(&start, moves, &limit) {
            Ok(s) => s,
            Err(err) => {
                eprintln!("{label}: {err}");
                return;
            }
        };
        let t1 = Instant::now();
        whole.push(t1 - t0);
        after.push(t1.saturating_duration_since(s.bestmove_read_at));
    }
    println!(
        "{label}: {cycles} cycles: bestmove read -> result returned: median {:?}, p99 {:?}; whole position+go+bestmove cycle: median {:?}, p99 {:?}",
        pct(&mut after, 0.5),
        pct(&mut after, 0.99),
        pct(&mut whole, 0.5),
        pct(&mut whole, 0.99)
    );
    e.quit();
}

fn main() {
    let cycles = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(2000);
    run("fake-usi", &testing::fake_engine_path(), &[], cycles);
    let fairy = std::path::Path::new("/usr/games/fairy-stockfish");
    if fairy.is_file() {
        run("fairy-stockfish", fairy, &[], cycles);
    }
}

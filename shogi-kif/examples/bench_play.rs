//! Times `Position::play` alone: reads every record of the folders given once, keeps each
//! game's start and main-line moves, then replays them all `--rounds` times (default 20) and
//! prints the best round's time per move. Build it at two commits to compare a change to
//! move checking and making.
//!
//! ```sh
//! cargo run --release -p shogi-kif --example bench_play -- /path/to/records
//! ```

use shogi_core::{Move, Position};
use shogi_kif::{ReadOptions, Reader};
use std::time::Instant;

mod common;

fn main() {
    let common::Args { rounds, files, .. } = common::Args::parse(20);
    let mut games: Vec<(Position, Vec<Move>)> = Vec::new();
    for f in &files {
        let Ok(reader) = Reader::open(f, ReadOptions::default()) else {
            continue;
        };
        for game in reader {
            if !game.is_valid() {
                continue;
            }
            let start = game.record.start_position().clone();
            let moves: Vec<Move> = game.record.main_line().map(|n| n.mv).collect();
            games.push((start, moves));
        }
    }
    let total: usize = games.iter().map(|g| g.1.len()).sum();
    let mut best = f64::MAX;
    let mut check = 0u64;
    for _ in 0..rounds {
        let t = Instant::now();
        for (start, moves) in &games {
            let mut p = start.clone();
            for &m in moves {
                if p.play(m).is_err() {
                    break;
                }
            }
            check = check.wrapping_add(p.key());
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} games, {} moves: best of {} rounds {:.2} ms, {:.2} ns a move (key sum {:x})",
        games.len(),
        total,
        rounds,
        best * 1e3,
        best * 1e9 / total as f64,
        check
    );
}

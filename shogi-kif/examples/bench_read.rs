//! Times reading records in memory: decoding, parsing, replaying and validating, without the
//! file system or the batch layer. Loads the files of the folders given once, then reads
//! them all `--rounds` times (default 20) as `shogi check` does (validation on, the move list
//! not kept; `--moves` keeps it, as `convert` and `stats` do), and prints the best round's
//! time per game. Build it at two commits to compare a change to the reader; the sums
//! printed tell the two read the same games.
//!
//! ```sh
//! cargo run --release -p shogi-kif --example bench_read -- /path/to/records
//! ```

use shogi_kif::{ReadOptions, Reader};
use std::time::Instant;

mod common;

fn main() {
    let common::Args {
        rounds,
        files,
        flags,
    } = common::Args::parse(20);
    let keep_moves = flags.iter().any(|f| f == "--moves");
    let inputs: Vec<Vec<u8>> = files.iter().filter_map(|f| std::fs::read(f).ok()).collect();
    let opts = ReadOptions {
        validate: true,
        moves: keep_moves,
        ..ReadOptions::default()
    };
    let mut best = f64::MAX;
    let (mut games, mut moves) = (0usize, 0usize);
    for _ in 0..rounds {
        (games, moves) = (0, 0);
        let t = Instant::now();
        for bytes in &inputs {
            let Ok(reader) = Reader::from_vec(bytes.clone(), opts) else {
                continue;
            };
            for game in reader {
                games += 1;
                moves += game
                    .main
                    .map_or(game.record.moves.moves.len(), |m| m.played());
            }
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} inputs, {games} games, {moves} moves: best of {rounds} rounds {:.2} ms, {:.2} us a game",
        inputs.len(),
        best * 1e3,
        best * 1e6 / games.max(1) as f64,
    );
}

//! Ad-hoc timing: `cargo run --release -p shogi-mate --example probe -- SFEN [N]`.
use shogi_core::{Position, SetupOptions};
use shogi_mate::{Options, Solver, brute};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(sfen) = args.get(1) else { return };
    let n: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let Ok(pos) = Position::from_sfen_with(sfen, SetupOptions::TSUME) else {
        return;
    };
    let mut s = Solver::new(64 << 20);
    for o in [
        Options::default(),
        Options {
            max_depth: Some(n as u16),
            ..Options::default()
        },
        Options {
            shortest: true,
            ..Options::default()
        },
        Options {
            shortest: true,
            tsume: true,
            ..Options::default()
        },
    ] {
        let t = Instant::now();
        let a = s.solve(&pos, &o);
        println!(
            "{:?} depth {:?} shortest {} tsume {}: {:?} in {:?}",
            a.as_ref().map(|a| (&a.result, a.length, a.unique, a.nodes)),
            o.max_depth,
            o.shortest,
            o.tsume,
            (),
            t.elapsed()
        );
    }
    if args.get(3).is_some() {
        let t = Instant::now();
        println!(
            "brute {n}: {} in {:?}",
            brute::mate_within(&pos, n),
            t.elapsed()
        );
    }
}

//! The recogniser's time per game against replaying the same moves (checked, as a record
//! reader does), in the same run, over USI lines (`position startpos moves ...`, one a line),
//! with a digest of every tag so a faster recogniser can be checked to give the same tags.
//!
//! ```text
//! shogi convert ../shared/corpus-openings/files --to usi | grep ^position > /tmp/lines.usi
//! cargo run --release -p shogi-openings --example recognise-speed -- /tmp/lines.usi [rounds]
//! ```
//!
//! With `RECOGNISE_ONLY` set in the environment the replay is skipped (for a profile of the
//! recogniser alone).

use shogi_core::{Move, Position, Variant};
use shogi_openings::{RuleSet, recognise_legal};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: recognise-speed LINES.usi [rounds]")?;
    let rounds: usize = args.next().map_or(Ok(30), |r| r.parse())?;
    let mut games: Vec<Vec<Move>> = Vec::new();
    for line in std::fs::read_to_string(&path)?.lines() {
        let Some(moves) = line.strip_prefix("position startpos moves ") else {
            continue;
        };
        games.push(
            moves
                .split_whitespace()
                .map(Move::from_usi)
                .collect::<Result<_, _>>()?,
        );
    }
    let start = Position::startpos(Variant::Standard);
    let rules = RuleSet::builtin();
    let plies: usize = games.iter().map(Vec::len).sum();
    let (mut replay, mut tags) = (f64::MAX, f64::MAX);
    let mut digest = 0;
    let only = std::env::var_os("RECOGNISE_ONLY").is_some();
    for _ in 0..rounds {
        let t = Instant::now();
        let mut keys = 0u64;
        for g in games.iter().filter(|_| !only) {
            let mut pos = start.clone();
            for &mv in g {
                if pos.play(mv).is_err() {
                    break;
                }
            }
            keys ^= pos.key();
        }
        replay = replay.min(t.elapsed().as_secs_f64());
        std::hint::black_box(keys);
        let t = Instant::now();
        let mut h = DefaultHasher::new();
        for g in &games {
            let r = recognise_legal(rules, &start, g.iter().copied()).ok_or("no tags")?;
            for s in [&r.sente, &r.gote] {
                for hit in s.openings.iter().chain(&s.castles) {
                    (rules.name(hit.tag), hit.ply).hash(&mut h);
                }
                (s.class.japanese(), ';').hash(&mut h);
            }
            (r.class.japanese(), r.main.map(|m| rules.name(m))).hash(&mut h);
        }
        tags = tags.min(t.elapsed().as_secs_f64());
        digest = h.finish();
    }
    let n = games.len() as f64;
    println!(
        "{} games, {plies} plies, best of {rounds} rounds",
        games.len()
    );
    println!(
        "  replay (checked)  {:8.2} us/game  {:6.1} ns/ply",
        replay / n * 1e6,
        replay / plies as f64 * 1e9
    );
    println!(
        "  recognise         {:8.2} us/game  {:6.1} ns/ply",
        tags / n * 1e6,
        tags / plies as f64 * 1e9
    );
    println!("  recognise / replay: {:.2}", tags / replay);
    println!("  tags digest {digest:016x}");
    Ok(())
}

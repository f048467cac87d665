//! Perft of every position in ../shared/perft (both variants), up to a node budget per entry,
//! through the public API alone: once with bulk counting at the last ply, once making every
//! leaf move (which also exercises play_unchecked on every leaf).

use shogi_core::Position;
use std::path::PathBuf;

fn perft_bulk(p: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return p.count_legal_moves();
    }
    let mut n = 0;
    p.for_each_legal_move(|m| {
        let mut c = p.clone();
        c.play_unchecked(m);
        n += perft_bulk(&c, depth - 1);
    });
    n
}

fn perft_full(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for m in p.legal_moves().iter() {
        let mut c = p.clone();
        c.play_unchecked(*m);
        n += perft_full(&c, depth - 1);
    }
    n
}

/// (SFEN, [(depth, leaves)]) for each line of a suite.
type Entry = (String, Vec<(u32, u64)>);

fn suite(name: &str) -> Option<Vec<Entry>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/perft")
        .join(name);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("note: {} not found; perft suite skipped", path.display());
        return None;
    };
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let sfen = parts.next().unwrap_or_default().trim().to_string();
        let counts = parts
            .map(|p| {
                let mut w = p.split_whitespace();
                let d = w.next().unwrap().trim_start_matches('D').parse().unwrap();
                (d, w.next().unwrap().parse().unwrap())
            })
            .collect();
        out.push((sfen, counts));
    }
    Some(out)
}

fn run(name: &str, bulk_budget: u64, full_budget: u64) {
    let Some(entries) = suite(name) else { return };
    let mut checked = 0;
    for (sfen, counts) in entries {
        let p = Position::from_sfen(&sfen).unwrap();
        for (d, want) in counts {
            if want <= bulk_budget {
                assert_eq!(perft_bulk(&p, d), want, "{sfen} depth {d}");
                checked += 1;
            }
            if want <= full_budget {
                assert_eq!(perft_full(&p, d), want, "{sfen} depth {d} (no bulk)");
            }
        }
    }
    assert!(checked > 20, "{name}: only {checked} counts checked");
}

#[test]
fn standard_suite() {
    run("standard.suite", 20_000_000, 300_000);
}

#[test]
fn minishogi_suite() {
    run("minishogi.suite", 10_000_000, 300_000);
}

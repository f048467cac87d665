//! Every position of the shared perft suites (`../shared/perft`, both variants) on one thread,
//! up to a node budget per count: once with [`shogi_perft::perft`] (bulk counting at the last
//! ply), once with a naive reference that makes every leaf move (which also exercises
//! `play_unchecked` on every leaf). These were shogi-core's perft tests; they live here, beside
//! the suite parser, with the same suites and budgets.

use shogi_core::Position;
use shogi_perft::suite::Suite;
use std::path::PathBuf;

/// A deliberately naive reference perft, kept apart from the crate's optimised counter so
/// that the two check each other: it lists the moves, makes every one, down to depth 0.
fn perft_leaf_by_leaf(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for m in p.legal_moves().iter() {
        let mut c = p.clone();
        c.play_unchecked(*m);
        n += perft_leaf_by_leaf(&c, depth - 1);
    }
    n
}

fn suite(name: &str) -> Option<Suite> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/perft")
        .join(name);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("note: {} not found; perft suite skipped", path.display());
        return None;
    };
    Some(Suite::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn run(name: &str, bulk_budget: u64, full_budget: u64) {
    let Some(suite) = suite(name) else { return };
    let mut checked = 0;
    for e in &suite.entries {
        for &(d, want) in &e.counts {
            if want <= bulk_budget {
                assert_eq!(
                    shogi_perft::perft(&e.position, d),
                    want,
                    "{} depth {d}",
                    e.sfen
                );
                checked += 1;
            }
            if want <= full_budget {
                assert_eq!(
                    perft_leaf_by_leaf(&e.position, d),
                    want,
                    "{} depth {d} (no bulk)",
                    e.sfen
                );
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

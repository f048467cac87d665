//! Every position of the shared perft suites (`../shared/perft/*.suite` beside the workspace),
//! through the library, to the depths a CI run affords.
//!
//! `SHOGI_PERFT_MAX_NODES` raises or lowers the cap on a case's expected count (default 150
//! million: every case but the deepest few, a few seconds on two cores with the optimised test
//! profile).

use shogi_perft::suite::{Limits, Suite};
use std::path::PathBuf;

fn suite_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/perft");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("note: {} is absent: shared suites skipped", dir.display());
        None
    }
}

fn max_nodes() -> u64 {
    std::env::var("SHOGI_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150_000_000)
}

fn check(name: &str) {
    let Some(dir) = suite_dir() else { return };
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).expect("suite readable");
    let suite = Suite::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!suite.entries.is_empty());
    let limits = Limits {
        max_depth: None,
        max_nodes: Some(max_nodes()),
    };
    let report = suite.run(&limits);
    // Every position is checked at least at depth 1.
    for e in &suite.entries {
        assert!(
            report.results.iter().any(|r| r.line == e.line),
            "{name}:{} not run",
            e.line
        );
    }
    let failures: Vec<String> = report
        .failed()
        .map(|r| {
            format!(
                "{name}:{}: depth {} expected {} counted {}",
                r.line, r.depth, r.expected, r.counted
            )
        })
        .collect();
    eprintln!(
        "{name}: {} passed, {} failed, {} skipped",
        report.passed().count(),
        failures.len(),
        report.skipped
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn standard_suite() {
    check("standard.suite");
}

#[test]
fn minishogi_suite() {
    check("minishogi.suite");
}

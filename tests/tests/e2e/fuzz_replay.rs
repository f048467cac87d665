//! Plain `cargo test` replays what the fuzzer checks: every file under
//! `fuzz/regressions/TARGET/` (inputs that once broke an invariant, minimized) through that
//! target's check, and every target's seeds (made from samples/, tests/fixtures/ and
//! ../shared: `shogi_tests::invariants::seeds`) through it. The checks are
//! `shogi_tests::invariants`, the same functions the fuzz targets call.
//!
//! `SHOGI_FUZZ_CORPUS=DIR cargo test -p shogi-tests --test e2e -- --ignored fuzz_replay::` writes
//! the seeds to `DIR/TARGET/` instead (what `fuzz/seed.sh` does).

use shogi_tests::invariants::{TARGETS, seed_sources, seeds, target};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `check` on `data`; a panic becomes a message naming `what`.
fn run(name: &str, check: fn(&[u8]), data: &[u8], what: &str, failures: &mut Vec<String>) {
    if let Err(e) = catch_unwind(AssertUnwindSafe(|| check(data))) {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        failures.push(format!("{name} on {what}: {msg}"));
    }
}

#[test]
fn regression_files_pass_their_targets() {
    let dir = root().join("fuzz/regressions");
    let mut failures = Vec::new();
    let mut count = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&dir)
        .expect("fuzz/regressions exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        let name = d.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let check = target(name).unwrap_or_else(|| panic!("no fuzz target named {name}"));
        let mut files: Vec<_> = std::fs::read_dir(&d)
            .expect("regression folder reads")
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).expect("regression file reads");
            run(name, check, &data, &f.display().to_string(), &mut failures);
            count += 1;
        }
    }
    eprintln!("{count} regression files");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn seeds_pass_every_target() {
    let sources = seed_sources(&root());
    assert!(!sources.records.is_empty() && !sources.lines.is_empty());
    let mut failures = Vec::new();
    let mut count = 0;
    for t in TARGETS {
        for (i, seed) in seeds(t.name, &sources).iter().enumerate() {
            let what = format!(
                "seed {i}: {:?}",
                String::from_utf8_lossy(&seed[..seed.len().min(60)])
            );
            run(t.name, t.check, seed, &what, &mut failures);
            count += 1;
        }
    }
    eprintln!("{count} seeds");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "writes the seed corpus for cargo fuzz; run by fuzz/seed.sh"]
fn write_seed_corpus() {
    let out = std::env::var_os("SHOGI_FUZZ_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("fuzz/corpus"));
    let sources = seed_sources(&root());
    for t in TARGETS {
        let dir = out.join(t.name);
        std::fs::create_dir_all(&dir).expect("corpus folder");
        for (i, seed) in seeds(t.name, &sources).iter().enumerate() {
            std::fs::write(dir.join(format!("seed-{i:04}")), seed).expect("seed written");
        }
    }
    eprintln!("seeds written to {}", out.display());
}

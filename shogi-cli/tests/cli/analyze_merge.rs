//! `shogi analyze --merge-cache`, as a cluster run uses it: shards analysed into caches of
//! their own, merged, and the table made from the merged cache with no engine equals the
//! table of one run on one machine; caches of other configurations and positions whose
//! results differ are refused, naming them, and leave no output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SHOGI: &str = env!("CARGO_BIN_EXE_shogi");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scratch(name: &str) -> PathBuf {
    let base = std::env::temp_dir().join(format!("shogi-merge-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    base
}

fn run(args: &[&str]) -> Output {
    Command::new(SHOGI)
        .current_dir(root())
        .arg("analyze")
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The standard-shogi samples (the fake engine plays no Mini Shogi).
const GAMES: [&str; 4] = [
    "samples/game.kif",
    "samples/game.csa",
    "samples/game.usi",
    "samples/game.jkf",
];

/// `shogi analyze GAMES --format jsonl --cache CACHE` with `more`; the output's JSON lines.
fn analyze(cache: &Path, more: &[&str]) -> (Output, String) {
    let cache = cache.to_str().unwrap();
    let mut a: Vec<&str> = GAMES.to_vec();
    a.extend(["--format", "jsonl", "--cache", cache]);
    a.extend_from_slice(more);
    let o = run(&a);
    assert!(o.status.code().is_some_and(|c| c < 2), "{}", stderr(&o));
    let rows = String::from_utf8(o.stdout.clone()).unwrap();
    (o, rows)
}

fn merge(inputs: &[&Path], output: &Path) -> Output {
    let mut a = vec!["--merge-cache"];
    a.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    a.extend(["-o", output.to_str().unwrap()]);
    run(&a)
}

#[test]
fn shards_merged_give_the_table_of_one_machine_with_no_engine() {
    let dir = scratch("equal");
    let fake = shogi_usi::testing::fake_engine_path();
    let engine = ["--engine", fake.to_str().unwrap(), "--nodes", "1"];
    let (_, one) = analyze(&dir.join("one.sqlite"), &engine);
    assert_eq!(one.lines().count(), 4 * 30, "every ply of the four games");
    let shards: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("w{k}.sqlite"))).collect();
    for (k, cache) in shards.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        analyze(cache, &[&engine[..], &["--shard", &shard]].concat());
    }
    let merged = dir.join("merged.sqlite");
    let refs: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    let o = merge(&refs, &merged);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("distinct positions (engine fake-usi"));
    let (o, table) = analyze(&merged, &[]);
    assert_eq!(table, one);
    assert!(stderr(&o).contains(" 0 searched,"), "{}", stderr(&o));
    // The merged file is not merged into again; a position the cache lacks is a failure.
    let o = merge(&refs, &merged);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("exists already"), "{}", stderr(&o));
    let o = run(&[
        "samples/mini.kif",
        "--format",
        "jsonl",
        "--cache",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("not in the cache"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_configurations_and_differing_results_are_refused_by_name() {
    let dir = scratch("refused");
    let fake = shogi_usi::testing::fake_engine_path();
    let fake = fake.to_str().unwrap();
    let (a, b, c) = (
        dir.join("a.sqlite"),
        dir.join("b.sqlite"),
        dir.join("c.sqlite"),
    );
    analyze(&a, &["--engine", fake, "--nodes", "1"]);
    analyze(&b, &["--engine", fake, "--nodes", "2"]);
    // Same configuration, other scores (the fake's scripted score): results that differ.
    analyze(
        &c,
        &[
            "--engine",
            fake,
            "--nodes",
            "1",
            "--engine-arg=--score",
            "--engine-arg=cp 7",
        ],
    );
    let out = dir.join("out.sqlite");
    let o = merge(&[&a, &b], &out);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("a.sqlite and ")
            && e.contains("b.sqlite hold results of different engine configurations"),
        "{e}"
    );
    assert!(e.contains("go nodes 2"), "{e}");
    assert!(!out.exists());
    let o = merge(&[&a, &c], &out);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("the position ") && e.contains("has different results in"),
        "{e}"
    );
    assert!(e.contains("a.sqlite and ") && e.contains("c.sqlite"), "{e}");
    assert!(!out.exists(), "a refused merge leaves no output");
    let _ = std::fs::remove_dir_all(&dir);
}

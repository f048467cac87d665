//! `shogi perft` end to end: counts, divide, JSON, threads, suites, split/run/merge, bad input.

use crate::common;

use common::{
    Output, assert_contains, code, scratch, shogi, shogi_ok, shogi_stdin, stderr, stdout,
};
use std::path::Path;

const MINI_START: &str = "rbsgk/4p/5/P4/KGSBR b - 1";
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

fn nodes_of(out: &Output) -> u64 {
    let s = stdout(out);
    let last = last_line(&s);
    last.strip_prefix("nodes ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no 'nodes <N>' last line in {s:?}; stderr {}", stderr(out)))
}

fn assert_usage_error(args: &[&str], needle: &str) {
    let out = shogi(args);
    let err = stderr(&out);
    assert_eq!(
        code(&out),
        2,
        "{args:?}: stdout {} stderr {err}",
        stdout(&out)
    );
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
}

#[test]
fn counts_and_time_on_stderr() {
    let out = shogi_ok(&["perft", "startpos", "--depth", "3"]);
    assert_eq!(stdout(&out), "nodes 25470\n");
    assert!(stderr(&out).contains("nodes/s"));
    // The position defaults to startpos; -d is --depth; --variant picks Mini Shogi's.
    assert_eq!(nodes_of(&shogi(&["perft", "-d", "2"])), 900);
    assert_eq!(
        nodes_of(&shogi(&["perft", "--depth", "5", "--variant", "mini"])),
        533_203
    );
    assert_eq!(
        nodes_of(&shogi(&["perft", MATSURI, "--depth", "2"])),
        28_684
    );
}

#[test]
fn divide_is_sorted_and_sums_to_total() {
    for (pos, depth, total) in [
        ("startpos", "3", 25_470u64),
        (MINI_START, "4", 35_401),
        (MATSURI, "2", 28_684),
    ] {
        for threads in ["1", "2"] {
            let out = shogi_ok(&[
                "perft",
                pos,
                "--depth",
                depth,
                "--divide",
                "--threads",
                threads,
            ]);
            let text = stdout(&out);
            let lines: Vec<&str> = text.lines().collect();
            let (last, moves) = lines.split_last().unwrap();
            assert_eq!(*last, format!("nodes {total}"));
            let mut sum = 0;
            let mut usis = Vec::new();
            for l in moves {
                let (usi, n) = l.split_once(' ').unwrap();
                usis.push(usi.to_string());
                sum += n.parse::<u64>().unwrap();
            }
            assert_eq!(sum, total);
            let mut sorted = usis.clone();
            sorted.sort();
            assert_eq!(usis, sorted);
        }
    }
}

#[test]
fn json_and_stats() {
    let out = shogi(&[
        "perft", "startpos", "--depth", "2", "--divide", "--format", "json",
    ]);
    assert_eq!(code(&out), 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["nodes"], 900);
    assert_eq!(v["depth"], 2);
    assert_eq!(v["variant"], "standard");
    assert_eq!(v["divide"].as_array().unwrap().len(), 30);
    let out = shogi(&[
        "perft", MINI_START, "--depth", "3", "--stats", "--format", "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["counters"]["nodes"], 2512);
    assert_eq!(v["variant"], "mini");
    let out = shogi(&["perft", "startpos", "--depth", "2", "--stats"]);
    let text = stdout(&out);
    assert!(
        text.contains("captures 0\n") && text.contains("drops 0\n"),
        "{text}"
    );
    assert_eq!(last_line(&text), "nodes 900");
}

#[test]
fn threads_equal_one_thread() {
    for (pos, depth) in [("startpos", "5"), (MINI_START, "6"), (MATSURI, "3")] {
        let one = nodes_of(&shogi(&["perft", pos, "--depth", depth, "--threads", "1"]));
        for t in ["2", "3", "0"] {
            assert_eq!(
                nodes_of(&shogi(&["perft", pos, "--depth", depth, "--threads", t])),
                one
            );
        }
    }
}

fn shared_suites() -> Vec<std::path::PathBuf> {
    let dir = common::workspace_root().join("../shared/perft");
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "suite"))
                .collect()
        })
        .unwrap_or_default();
    if v.is_empty() {
        eprintln!(
            "note: no suites in {}: shared suites skipped",
            dir.display()
        );
    }
    v.sort();
    v
}

#[test]
fn shared_suites_pass() {
    for suite in shared_suites() {
        let s = suite.to_str().unwrap();
        let out = shogi(&[
            "perft",
            "--suite",
            s,
            "--max-nodes",
            "20000000",
            "--threads",
            "2",
        ]);
        let text = stdout(&out);
        assert_eq!(code(&out), 0, "{s}: {text}{}", stderr(&out));
        let last = last_line(&text);
        assert!(last.ends_with(" passed, 0 failed"), "{s}: {last}");
        // Every position line is checked at least at depth 1.
        let positions = std::fs::read_to_string(&suite)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .count();
        let passed: usize = last.split(' ').next().unwrap().parse().unwrap();
        assert!(
            passed >= positions,
            "{s}: {passed} cases for {positions} positions"
        );
    }
}

#[test]
fn suite_failures_name_file_line_depth_and_counts() {
    let dir = scratch("suite");
    let file = dir.join("wrong.suite");
    std::fs::write(
        &file,
        format!("# one wrong count\n{MINI_START} ;D1 14 ;D2 180 ;D3 2512\n\n7nk/9/7S1/9/9/9/9/9/K8 b P 1 ;D1 82\n"),
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let out = shogi(&["perft", "--suite", f]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert_eq!(last_line(&text), "3 passed, 1 failed");
    let fail = text.lines().next().unwrap();
    assert!(
        fail.starts_with(&format!("{f}:2: depth 2 expected 180 counted 181")),
        "{fail}"
    );
    // --max-depth leaves the failing depth out.
    let out = shogi(&["perft", "--suite", f, "--max-depth", "1"]);
    assert_eq!(
        (code(&out), last_line(&stdout(&out)).to_string()),
        (0, "2 passed, 0 failed".to_string())
    );
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn bad_input_is_an_error_with_exit_2() {
    let dir = scratch("bad");
    assert_usage_error(&["perft", "not a position", "--depth", "2"], "SFEN");
    assert_usage_error(&["perft", "startpos", "--depth", "0"], "depth");
    assert_usage_error(&["perft", "startpos", "--depth", "9999999999999"], "depth");
    assert_usage_error(&["perft", "startpos", "--depth", "21"], "depth");
    assert_usage_error(&["perft", "startpos"], "--depth");
    assert_usage_error(
        &["perft", MINI_START, "--depth", "2", "--variant", "standard"],
        "variant",
    );
    let missing = dir.join("missing.suite");
    assert_usage_error(
        &["perft", "--suite", missing.to_str().unwrap()],
        "missing.suite",
    );
    let bad = write(
        &dir,
        "bad.suite",
        "# ok\n7nk/9/7S1/9/9/9/9/9/K8 b P 1 ;D1 82\n7nk/9/7S1/9 b P 1 ;D1 82\n",
    );
    assert_usage_error(&["perft", "--suite", &bad], &format!("{bad}:3:"));
    let bad = write(
        &dir,
        "bad2.suite",
        "7nk/9/7S1/9/9/9/9/9/K8 b P 1 ;D1 eighty\n",
    );
    assert_usage_error(&["perft", "--suite", &bad], &format!("{bad}:1:"));
    let bad = write(&dir, "bad3.suite", "7nk/9/7S1/9/9/9/9/9/K8 b P 1 ;D77 1\n");
    assert_usage_error(&["perft", "--suite", &bad], &format!("{bad}:1:"));
    // Task lists and results.
    assert_usage_error(
        &["perft", "split", "--depth", "3", "--split-depth", "4"],
        "split depth",
    );
    assert_usage_error(
        &[
            "perft",
            "split",
            "nonsense",
            "--depth",
            "3",
            "--split-depth",
            "1",
        ],
        "SFEN",
    );
    assert_usage_error(
        &["perft", "run", dir.join("none.txt").to_str().unwrap()],
        "none.txt",
    );
    let tasks = stdout(&shogi(&[
        "perft",
        "split",
        "--depth",
        "3",
        "--split-depth",
        "1",
    ]));
    let broken = tasks.replacen("task 3 1 2 ", "task 3 x 2 ", 1);
    let b = write(&dir, "broken.tasks", &broken);
    let line = broken
        .lines()
        .position(|l| l.starts_with("task 3 "))
        .unwrap()
        + 1;
    assert_usage_error(&["perft", "run", &b], &format!("{b}:{line}:"));
    let b = write(&dir, "notalist.tasks", "hello\n");
    assert_usage_error(&["perft", "run", &b], &format!("{b}:1:"));
    let t = write(&dir, "ok.tasks", &tasks);
    assert_usage_error(&["perft", "run", &t, "--shard", "0/2"], "shard");
    assert_usage_error(&["perft", "run", &t, "--shard", "3/2"], "shard");
    assert_usage_error(
        &["perft", "merge", dir.join("none.res").to_str().unwrap()],
        "none.res",
    );
    let r = write(&dir, "notresults.res", "result 1 1 1\n");
    assert_usage_error(&["perft", "merge", &r], &format!("{r}:1:"));
    assert_usage_error(&["perft", "merge"], "required");
}

/// Splits, runs every shard, and returns the results files' paths.
fn split_and_run(dir: &Path, pos: &str, depth: &str, k: &str, shards: u32) -> Vec<String> {
    let tasks = dir.join("tasks.txt");
    let t = tasks.to_str().unwrap();
    shogi_ok(&[
        "perft",
        "split",
        pos,
        "--depth",
        depth,
        "--split-depth",
        k,
        "-o",
        t,
    ]);
    (1..=shards)
        .map(|i| {
            let r = dir.join(format!("part-{i}.txt"));
            let shard = format!("{i}/{shards}");
            shogi_ok(&[
                "perft",
                "run",
                t,
                "--shard",
                &shard,
                "-o",
                r.to_str().unwrap(),
            ]);
            r.to_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn merged_shards_equal_the_direct_count() {
    for (name, pos, depth, k, shards, direct) in [
        ("start", "startpos", "5", "2", 4, 19_861_490u64),
        ("start3", "startpos", "5", "3", 3, 19_861_490),
        ("mini", MINI_START, "6", "3", 5, 8_276_188),
        ("matsuri", MATSURI, "3", "1", 2, 4_809_015),
    ] {
        let dir = scratch(name);
        let parts = split_and_run(&dir, pos, depth, k, shards);
        assert_eq!(nodes_of(&shogi(&["perft", pos, "--depth", depth])), direct);
        let mut args: Vec<&str> = vec!["perft", "merge"];
        // Shuffled: reversed and rotated.
        let mut shuffled: Vec<&str> = parts.iter().map(String::as_str).collect();
        shuffled.reverse();
        shuffled.rotate_left(1);
        args.extend(&shuffled);
        let out = shogi(&args);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert_eq!(nodes_of(&out), direct, "{name}");
        // Repeated: a shard given twice is refused.
        args.push(shuffled[0]);
        let out = shogi(&args);
        assert_eq!(code(&out), 1, "{name}: {}", stdout(&out));
        assert_contains(&stderr(&out), "duplicated");
        // Missing: a shard left out is refused, naming the shard to run.
        let mut args: Vec<&str> = vec!["perft", "merge"];
        args.extend(&shuffled[1..]);
        let out = shogi(&args);
        assert_eq!(code(&out), 1);
        assert_contains(&stderr(&out), "missing");
    }
}

#[test]
fn split_is_deterministic_and_lists_do_not_mix() {
    let split = || {
        let args = ["startpos", "--depth", "4", "--split-depth", "2"];
        stdout(&shogi(&[&["perft", "split"][..], &args].concat()))
    };
    let (a, b) = (split(), split());
    assert_eq!(a, b);
    assert!(a.lines().filter(|l| l.starts_with("task ")).count() == 900);
    // The list can come on stdin.
    let out = shogi_stdin(&["perft", "run", "-", "--shard", "1/1"], &a);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).starts_with("shogi-perft-results 1"));
    // Shards of different lists are refused.
    let d1 = scratch("mix1");
    let d2 = scratch("mix2");
    let p1 = split_and_run(&d1, "startpos", "4", "2", 2);
    let p2 = split_and_run(&d2, "startpos", "4", "1", 2);
    let out = shogi(&["perft", "merge", &p1[0], &p2[1]]);
    assert_eq!(code(&out), 1);
    assert_contains(&stderr(&out), "different task lists");
    // A truncated results file is refused as malformed.
    let text = std::fs::read_to_string(&p1[1]).unwrap();
    let cut = write(&d1, "cut.txt", &text[..text.len() / 2]);
    let out = shogi(&["perft", "merge", &p1[0], &cut]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

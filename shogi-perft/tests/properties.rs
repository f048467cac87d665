//! Divide sums to the total, parallel equals serial, counters agree with perft, split/merge
//! equals the direct count, and bad text is refused with its line.

use shogi_core::{Position, Variant};
use shogi_perft::split::{MergeError, Results, Shard, TaskList, merge};
use shogi_perft::suite::{Limits, Suite};
use shogi_perft::{divide, parallel, perft, perft_counters};

const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
const MINI_DROPS: &str = "r2ks/2g2/P2+r1/3Bp/K4 w Sbg 1";
const DOUBLE_CHECK: &str = "4k4/9/9/9/8b/9/5n3/9/4K4 b GSPr 1";

fn positions() -> Vec<Position> {
    let mut v = vec![
        Position::startpos(Variant::Standard),
        Position::startpos(Variant::Mini),
    ];
    for s in [MATSURI, MINI_DROPS, DOUBLE_CHECK] {
        v.push(Position::from_sfen(s).unwrap());
    }
    v
}

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
}

#[test]
fn known_counts() {
    let start = Position::startpos(Variant::Standard);
    assert_eq!(perft(&start, 0), 1);
    assert_eq!(perft(&start, 1), 30);
    assert_eq!(perft(&start, 4), 719_731);
    assert_eq!(perft(&Position::from_sfen(MATSURI).unwrap(), 2), 28_684);
}

#[test]
fn divide_sums_to_total_and_is_sorted() {
    for pos in positions() {
        for depth in 1..=3 {
            let div = divide(&pos, depth);
            let total: u64 = div.iter().map(|(_, n)| n).sum();
            assert_eq!(total, perft(&pos, depth), "{pos:?} d{depth}");
            assert_eq!(div.len() as u64, perft(&pos, 1));
            let usi: Vec<String> = div.iter().map(|(m, _)| m.to_usi()).collect();
            let mut sorted = usi.clone();
            sorted.sort();
            assert_eq!(usi, sorted);
            assert_eq!(pool(2).install(|| parallel::divide(&pos, depth)), div);
        }
    }
}

#[test]
fn parallel_equals_serial() {
    for pos in positions() {
        for depth in 0..=4 {
            let serial = perft(&pos, depth);
            for threads in [1, 2, 3] {
                let par = pool(threads).install(|| parallel::perft(&pos, depth));
                assert_eq!(par, serial, "{pos:?} d{depth} threads {threads}");
            }
        }
    }
}

#[test]
fn progress_reaches_the_end() {
    let pos = Position::startpos(Variant::Standard);
    let last = std::sync::Mutex::new((0, 0));
    let n = pool(2).install(|| {
        parallel::perft_with_progress(&pos, 5, &|d, t| {
            let mut l = last.lock().unwrap();
            *l = (*l).max((d, t));
        })
    });
    assert_eq!(n, 19_861_490);
    let (d, t) = *last.lock().unwrap();
    assert!(t > 0 && d == t, "{d}/{t}");
}

#[test]
fn counters_agree_with_perft() {
    for pos in positions() {
        for depth in 0..=3 {
            let c = perft_counters(&pos, depth);
            assert_eq!(c.nodes, perft(&pos, depth));
            assert!(c.captures + c.drops <= c.nodes && c.mates <= c.checks);
            let (total, div) =
                pool(2).install(|| parallel::perft_counters(&pos, depth, &|_, _| {}));
            assert_eq!(total, c);
            if depth == 0 {
                continue;
            }
            assert_eq!(
                div.iter().map(|(_, c)| *c).sum::<shogi_perft::Counters>(),
                c
            );
        }
    }
    // The start position: nothing to capture, promote or drop on the first ply.
    let c = perft_counters(&Position::startpos(Variant::Standard), 1);
    assert_eq!(
        (c.nodes, c.captures, c.promotions, c.drops, c.checks),
        (30, 0, 0, 0, 0)
    );
    // Double check: only king moves, and no move of the four gives check.
    let c = perft_counters(&Position::from_sfen(DOUBLE_CHECK).unwrap(), 1);
    assert_eq!((c.nodes, c.drops), (4, 0));
}

fn shards(list: &TaskList, n: u32) -> Vec<Results> {
    (1..=n)
        .map(|i| list.run_shard(Shard::new(i, n).unwrap(), &|_, _| {}))
        .map(|r| Results::parse(&r.to_text()).unwrap())
        .collect()
}

#[test]
fn merge_equals_direct() {
    for pos in positions() {
        for (depth, k) in [(1, 0), (1, 1), (3, 1), (4, 2), (4, 3), (3, 3)] {
            // Keep the split itself small (matsuri has 4.8 million paths at ply 3).
            if perft(&pos, k) > 200_000 || perft(&pos, depth) > 30_000_000 {
                continue;
            }
            let list = TaskList::new(&pos, depth, k).unwrap();
            let list = TaskList::parse(&list.to_text()).unwrap();
            let direct = perft(&pos, depth);
            for n in [1, 3, 7] {
                let mut parts = shards(&list, n);
                assert_eq!(
                    merge(&parts).unwrap().nodes,
                    direct,
                    "{pos:?} d{depth} k{k} n{n}"
                );
                parts.reverse();
                parts.rotate_left(1);
                assert_eq!(merge(&parts).unwrap().nodes, direct);
                // A shard given twice is refused, whatever the order.
                let mut again = parts.clone();
                again.insert(0, parts[parts.len() - 1].clone());
                if !parts[parts.len() - 1].entries.is_empty() {
                    assert!(matches!(merge(&again), Err(MergeError::Duplicated(_))));
                }
                // A shard left out is refused.
                if n > 1 && !parts[0].entries.is_empty() {
                    assert!(matches!(
                        merge(&parts[1..]),
                        Err(MergeError::Missing { .. })
                    ));
                }
            }
        }
    }
}

#[test]
fn split_merges_transpositions_and_is_deterministic() {
    let pos = Position::startpos(Variant::Standard);
    let a = TaskList::new(&pos, 5, 3).unwrap();
    let b = TaskList::new(&pos, 5, 3).unwrap();
    assert_eq!(a.to_text(), b.to_text());
    let paths: u64 = a.tasks.iter().map(|t| t.multiplicity).sum();
    assert_eq!(paths, 25_470);
    assert!(a.tasks.len() < 25_470, "transpositions merged");
    assert!(a.tasks.iter().all(|t| t.depth == 2));
    // A different list has a different hash, and their results do not merge.
    let c = TaskList::new(&pos, 5, 2).unwrap();
    assert_ne!(a.hash(), c.hash());
    let mixed = vec![shards(&a, 2).remove(0), shards(&c, 2).remove(1)];
    assert!(matches!(
        merge(&mixed),
        Err(MergeError::DifferentLists { .. })
    ));
}

#[test]
fn damaged_files_are_refused_with_their_line() {
    let pos = Position::startpos(Variant::Mini);
    let list = TaskList::new(&pos, 3, 2).unwrap();
    let text = list.to_text();
    // An edited count breaks the hash.
    let edited = text.replacen("task 1 1 1", "task 1 2 1", 1);
    assert_ne!(edited, text);
    assert!(
        TaskList::parse(&edited)
            .unwrap_err()
            .message
            .contains("hash")
    );
    // A truncated list.
    let cut: String = text.lines().take(10).map(|l| format!("{l}\n")).collect();
    assert!(
        TaskList::parse(&cut)
            .unwrap_err()
            .message
            .contains("truncated")
    );
    // A malformed task line names its line.
    let bad = text.replacen("task 2 ", "task two ", 1);
    let e = TaskList::parse(&bad).unwrap_err();
    assert!(e.line > 0 && e.message.contains("task id"), "{e}");
    assert!(TaskList::parse("").is_err());
    assert!(TaskList::parse("hello\n").unwrap_err().line == 1);

    let results = list
        .run_shard(Shard::new(1, 1).unwrap(), &|_, _| {})
        .to_text();
    // Without its end line the file is truncated.
    let cut: String = results
        .lines()
        .filter(|l| !l.starts_with("end "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        Results::parse(&cut)
            .unwrap_err()
            .message
            .contains("truncated")
    );
    // A changed count no longer matches the end line.
    let lines: Vec<&str> = results.lines().collect();
    let i = lines.iter().position(|l| l.starts_with("result ")).unwrap();
    let mut changed: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    changed[i].push('0');
    let e = Results::parse(&(changed.join("\n") + "\n")).unwrap_err();
    assert!(e.message.contains("end"), "{e}");
}

#[test]
fn split_refuses_bad_depths() {
    let pos = Position::startpos(Variant::Standard);
    assert!(TaskList::new(&pos, 0, 0).is_err());
    assert!(TaskList::new(&pos, 3, 4).is_err());
    assert!(TaskList::new(&pos, 99, 1).is_err());
}

#[test]
fn suite_text() {
    let text = "# comment\n\n  rbsgk/4p/5/P4/KGSBR b - 1 ;D1 14 ;D2 181 # trailing\n\
                7nk/9/7S1/9/9/9/9/9/K8 b P 1 ;D1 82 ;D2 999\n";
    let suite = Suite::parse(text).unwrap();
    assert_eq!(suite.entries.len(), 2);
    assert_eq!(suite.entries[0].line, 3);
    assert_eq!(suite.entries[0].position.variant(), Variant::Mini);
    let report = suite.run(&Limits::default());
    let failed: Vec<_> = report.failed().collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(
        (
            failed[0].line,
            failed[0].depth,
            failed[0].expected,
            failed[0].counted
        ),
        (4, 2, 999, 173)
    );

    for (bad, line, needle) in [
        ("x ;D1 1", 1, "SFEN"),
        ("# c\nrbsgk/4p/5/P4/KGSBR b - 1", 2, "no counts"),
        ("rbsgk/4p/5/P4/KGSBR b - 1 ;D1", 1, ";D<depth>"),
        ("rbsgk/4p/5/P4/KGSBR b - 1 ;X1 14", 1, ";D<depth>"),
        ("rbsgk/4p/5/P4/KGSBR b - 1 ;D1 -5", 1, ";D<depth>"),
        ("rbsgk/4p/5/P4/KGSBR b - 1 ;D0 1", 1, "out of range"),
        ("rbsgk/4p/5/P4/KGSBR b - 1 ;D99 1", 1, "out of range"),
        ("rbsgk/4p/5/P4/KGSBR b - 1 ;D1 14 ;D1 14", 1, "twice"),
        (" ;D1 14", 1, "no SFEN"),
    ] {
        let e = Suite::parse(bad).unwrap_err();
        assert_eq!(e.line, line, "{bad}: {e}");
        assert!(e.message.contains(needle), "{bad}: {e}");
    }
}

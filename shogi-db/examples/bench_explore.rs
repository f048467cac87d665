//! Benchmark of the explorer with and without the counts aggregated at index time: writes N
//! Floodgate-named CSA games (ratings, dates over five years, three time controls), indexes
//! them twice (with buckets, and without: every query reads the hits, as before), and times
//! `explore` over 100 positions from the start to rare ones, with and without filters
//! (median and p99 of each).
//!
//! ```text
//! cargo run --release -p shogi-db --example bench_explore -- OUT_DIR [--games 100000]
//!     [--reuse: the games written before] [--dbs before,notags,after] [--keep DB]
//!     [--delete-input] [--query: the databases built before, not indexed again]
//! ```
//!
//! `--dbs` names the databases built: `before` (no buckets), `notags` (buckets, no openings
//! and castles: the anchor of what tags cost), `after` (buckets and tags, as `shogi index`
//! builds). Peak RSS is measured per index run (`VmHWM`, reset before each run). `--keep DB`
//! moves the last database there; `--delete-input` removes the generated games at the end.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Rng, csa_game, random_game};
use shogi_batch::filter_text::{TagFlag, tag_want};
use shogi_batch::{Selection, filter_text as text};
use shogi_core::{Position, Variant};
use shogi_db::{Db, IndexOptions, index};
use std::path::Path;
use std::time::Instant;

/// The main lines of 99 games drawn from the files under `dir` (a random folder of
/// [`write_games`], then a random file in it): read back, not generated again, so that
/// `--reuse` costs 99 reads rather than replaying every game's moves.
fn chosen_lines(dir: &Path, n: usize) -> Vec<Vec<shogi_core::Move>> {
    let mut rng = Rng(99);
    let folders = n.div_ceil(1000);
    (0..99)
        .map(|_| {
            let sub = dir.join(format!("{:03}", rng.below(folders)));
            let mut files: Vec<_> = std::fs::read_dir(&sub)
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .collect();
            files.sort();
            let file = &files[rng.below(files.len())];
            let record = shogi_kif::read_path(file, shogi_kif::ReadOptions::default()).unwrap();
            record.moves.moves.iter().map(|node| node.mv).collect()
        })
        .collect()
}

/// The peak resident memory of this process since the last [`reset_peak`], in MB.
fn peak_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Resets the peak resident memory (Linux: `5` to `/proc/self/clear_refs`).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// One game's moves and facts: date, ratings, ending, time control.
type Facts = (
    Vec<shogi_core::Move>,
    String,
    Option<(f64, f64)>,
    &'static str,
    &'static str,
    (usize, usize, usize),
);

fn game(rng: &mut Rng) -> Facts {
    let tcs = ["floodgate-300-10F", "floodgate-600-10F", "floodgate-900-0"];
    let plies = 60 + rng.below(80);
    let moves = random_game(rng, plies, 8);
    let y = 2019 + rng.below(5);
    let (m, d) = (1 + rng.below(12), 1 + rng.below(28));
    let date = format!("{y}/{m:02}/{d:02} 10:00:00");
    let a = 1200.0 + rng.below(2400) as f64;
    let b = (a + rng.below(600) as f64 - 300.0).max(0.0);
    let ratings = (rng.below(10) > 0).then_some((a, b));
    let ending = ["%TORYO", "%TORYO", "%SENNICHITE"][rng.below(3)];
    let tc = tcs[rng.below(tcs.len())];
    (moves, date, ratings, ending, tc, (y, m, d))
}

fn write_games(dir: &Path, n: usize) {
    let mut rng = Rng(7);
    for i in 0..n {
        let (moves, date, ratings, ending, tc, (y, m, d)) = game(&mut rng);
        let game = csa_game(&moves, ("A", "B"), Some(&date), ending, ratings, None);
        let sub = dir.join(format!("{:03}", i / 1000));
        if i % 1000 == 0 {
            std::fs::create_dir_all(&sub).unwrap();
        }
        let name = format!("wdoor+{tc}+A+B+{y}{m:02}{d:02}1000{:02}.csa", i % 60);
        std::fs::write(sub.join(name), game).unwrap();
    }
}

fn dir_size(dir: &Path) -> u64 {
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        // Followed through links: a folder of links to another run's folders counts.
        let m = std::fs::metadata(e.path()).unwrap();
        n += if m.is_dir() {
            dir_size(&e.path())
        } else {
            m.len()
        };
    }
    n
}

fn percentile(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = Path::new(&args[0]);
    let games: usize = args
        .iter()
        .position(|a| a == "--games")
        .map_or(100_000, |i| args[i + 1].parse().unwrap());
    let dir = out.join("games");
    let reuse = args.iter().any(|a| a == "--reuse");
    if !reuse {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
    }
    let t = Instant::now();
    if !reuse {
        write_games(&dir, games);
    }
    let lines = chosen_lines(&dir, games);
    println!(
        "games written, queried ones read: {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let input = dir_size(&dir);
    let paths = [dir.to_str().unwrap()];
    let wanted: Vec<String> = args
        .iter()
        .position(|a| a == "--dbs")
        .map_or("before,after".into(), |i| args[i + 1].clone())
        .split(',')
        .map(str::to_string)
        .collect();
    let mut dbs = Vec::new();
    // `--query`: the databases of an earlier run, queried again without indexing.
    let query_only = args.iter().any(|a| a == "--query");
    for name in &wanted {
        let db = out.join(format!("{name}.sqlite"));
        if query_only {
            dbs.push((name.clone(), db));
            continue;
        }
        let _ = std::fs::remove_file(&db);
        let opts = IndexOptions {
            jobs: Some(2),
            bucket_min_games: Some(if name == "before" {
                u32::MAX
            } else {
                shogi_db::MIN_GAMES
            }),
            skip_tags: name == "notags",
            ..IndexOptions::default()
        };
        reset_peak();
        let t = Instant::now();
        index(&paths, &db, &opts).unwrap();
        let secs = t.elapsed().as_secs_f64();
        let size = std::fs::metadata(&db).unwrap().len();
        println!(
            "index {name}: {secs:.1} s, {:.0} games/s, peak RSS {:.0} MB, {:.1} MB ({:.2}x the input's {:.1} MB)",
            games as f64 / secs,
            peak_mb(),
            size as f64 / 1e6,
            size as f64 / input as f64,
            input as f64 / 1e6
        );
        dbs.push((name.clone(), db));
    }
    let dbs: Vec<(String, Db)> = dbs
        .into_iter()
        .map(|(n, p)| (n, Db::open(&p).unwrap()))
        .collect();
    // 100 positions: the start, then positions at plies 1 to 30 of random games.
    let mut targets = vec![Position::startpos(Variant::Standard)];
    while targets.len() < 100 {
        let line = &lines[(targets.len() - 1) % lines.len()];
        let ply = 1 + (targets.len() * 30 / 100).min(line.len() - 1);
        let mut p = Position::startpos(Variant::Standard);
        for m in &line[..ply] {
            p.play(*m).unwrap();
        }
        targets.push(p);
    }
    let s = Selection::new;
    let tag_on = |flag, name: &str, side| {
        let rules = shogi_openings::RuleSet::builtin();
        let want = tag_want(rules, flag, name).unwrap();
        s().tag(shogi_batch::TagFilter { rules, want, side })
    };
    let tag = |flag, name: &str| tag_on(flag, name, shogi_batch::TagSide::Either);
    let filters: Vec<(&str, Selection)> = vec![
        ("no filter", s()),
        (
            "--since 2021-01",
            s().since(text::since("2021-01").unwrap()),
        ),
        (
            "--time-control floodgate-300-10F",
            s().time_control(text::time_control("floodgate-300-10F").unwrap()),
        ),
        ("--min-rating 2000", s().min_rating(2000.0)),
        (
            "--rating-of average --min-rating 1800 --max-rating 2500",
            s().rating_of(shogi_batch::RatingOf::Average)
                .min_rating(1800.0)
                .max_rating(2500.0),
        ),
        (
            "--since 2020-01 --until 2022-12 --time-control 600+10F --min-rating 1500",
            s().since(text::since("2020-01").unwrap())
                .until(text::until("2022-12").unwrap())
                .time_control(text::time_control("600+10F").unwrap())
                .min_rating(1500.0),
        ),
        ("--opening 振り飛車", tag(TagFlag::Opening, "振り飛車")),
        ("--castle 美濃", tag(TagFlag::Castle, "美濃")),
        ("--class 力戦", tag(TagFlag::Class, "力戦")),
        (
            "--opening 振り飛車 --side sente",
            tag_on(TagFlag::Opening, "振り飛車", shogi_batch::TagSide::Sente),
        ),
        (
            "--class 居飛車 --side gote",
            tag_on(TagFlag::Class, "居飛車", shogi_batch::TagSide::Gote),
        ),
        (
            "--opening 振り飛車 --since 2021-01",
            tag(TagFlag::Opening, "振り飛車").since(text::since("2021-01").unwrap()),
        ),
        (
            "--castle 美濃 --min-rating 2000 --time-control floodgate-600-10F",
            tag(TagFlag::Castle, "美濃")
                .min_rating(2000.0)
                .time_control(text::time_control("floodgate-600-10F").unwrap()),
        ),
        (
            "--class 居飛車 --side gote --castle 美濃",
            tag_on(TagFlag::Class, "居飛車", shogi_batch::TagSide::Gote)
                .tag(tag(TagFlag::Castle, "美濃").tag_filters()[0]),
        ),
    ];
    let mut runs: Vec<(String, Selection, usize)> = filters
        .into_iter()
        .map(|(l, s)| (l.to_string(), s, 0))
        .collect();
    runs.insert(1, ("--top 3".into(), Selection::new(), 3));
    runs.insert(
        2,
        (
            "--top 3 --since 2021-01 --min-rating 2000".into(),
            s().since(text::since("2021-01").unwrap())
                .min_rating(2000.0),
            3,
        ),
    );
    for (label, sel, top) in &runs {
        for (name, db) in &dbs {
            if name == "notags" && sel.tag_rules().is_some() {
                continue;
            }
            let mut times = Vec::new();
            let mut games = Vec::new();
            for t in &targets {
                let start = Instant::now();
                let table = db.explore_top(t, sel, *top).unwrap();
                times.push(start.elapsed().as_secs_f64() * 1e3);
                games.push(table.games);
            }
            // The start again, 10 times: its least time is its cost without the load.
            let start_min = (0..10)
                .map(|_| {
                    let start = Instant::now();
                    db.explore_top(&targets[0], sel, *top).unwrap();
                    start.elapsed().as_secs_f64() * 1e3
                })
                .fold(f64::INFINITY, f64::min);
            let slowest = (1..times.len())
                .max_by(|&a, &b| times[a].partial_cmp(&times[b]).unwrap())
                .unwrap();
            println!(
                "{label} [{name}]: median {:.2} ms, p99 {:.1} ms; start {:.1} ms (least of 10 \
                 more {start_min:.1} ms; {} games); slowest other {:.1} ms ({} games)",
                percentile(times.clone(), 0.5),
                percentile(times.clone(), 0.99),
                times[0],
                games[0],
                times[slowest],
                games[slowest],
            );
        }
    }
    let dated = s()
        .since(text::since("2021-01").unwrap())
        .min_rating(2000.0);
    let none = Selection::new();
    let ranging = tag(TagFlag::Opening, "振り飛車");
    let ranging_dated = tag(TagFlag::Opening, "振り飛車").since(text::since("2021-01").unwrap());
    // `find --limit 50` (what `/api/games` reads) and `explore --by opening`, with and
    // without filters: (label, by opening, selection).
    let others: Vec<(&str, bool, &Selection)> = vec![
        ("find --limit 50", false, &none),
        (
            "find --limit 50 --since 2021-01 --min-rating 2000",
            false,
            &dated,
        ),
        ("find --limit 50 --opening 振り飛車", false, &ranging),
        (
            "find --limit 50 --opening 振り飛車 --since 2021-01",
            false,
            &ranging_dated,
        ),
        ("explore --by opening", true, &none),
        (
            "explore --by opening --since 2021-01 --min-rating 2000",
            true,
            &dated,
        ),
        ("explore --by opening --opening 振り飛車", true, &ranging),
    ];
    for (label, by_opening, sel) in others {
        for (name, db) in &dbs {
            if name == "notags" && (by_opening || sel.tag_rules().is_some()) {
                continue;
            }
            let run = |t: &Position| {
                let start = Instant::now();
                if by_opening {
                    db.explore_openings(t, sel).unwrap();
                } else {
                    db.find_each(t, sel, Some(50), &mut |_| {
                        std::ops::ControlFlow::Continue(())
                    })
                    .unwrap();
                }
                start.elapsed().as_secs_f64() * 1e3
            };
            let times: Vec<f64> = targets.iter().map(run).collect();
            let start_min = (0..10)
                .map(|_| run(&targets[0]))
                .fold(f64::INFINITY, f64::min);
            println!(
                "{label} [{name}]: median {:.2} ms, p99 {:.1} ms; start {:.1} ms (least of 10 \
                 more {start_min:.1} ms)",
                percentile(times.clone(), 0.5),
                percentile(times.clone(), 0.99),
                times[0]
            );
        }
    }
    if let Some(i) = args.iter().position(|a| a == "--keep") {
        let (name, _) = dbs.last().unwrap();
        let from = out.join(format!("{name}.sqlite"));
        drop(dbs);
        std::fs::rename(&from, &args[i + 1]).unwrap();
        println!("kept {} as {}", from.display(), args[i + 1]);
    }
    if args.iter().any(|a| a == "--delete-input") {
        std::fs::remove_dir_all(&dir).unwrap();
        println!("removed {}", dir.display());
    }
}

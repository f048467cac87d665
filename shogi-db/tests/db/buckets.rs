//! The explorer's aggregated counts (the `buckets` table) against a brute-force count over
//! the rows of `shogi stats`, on a generated collection with known ratings, dates and time
//! controls: every filter the buckets answer, alone and combined, and filters they do not.

use crate::common;

use common::{Rng, brute_force, brute_top, csa_game, index_min, random_game, same};
use shogi_batch::{Selection, filter_text as text};
use shogi_db::Db;
use std::collections::BTreeSet;
use std::path::Path;

/// Writes `n` one-game CSA files, Floodgate-named in part (their time control and event
/// come from the name), with ratings (some on band edges), dates over two years (some
/// missing) and three time controls.
fn write_games(dir: &Path, n: usize) {
    let mut rng = Rng(29);
    let tcs = ["floodgate-300-10F", "floodgate-600-10F", "floodgate-900-0"];
    for i in 0..n {
        let plies = 6 + rng.below(30);
        let moves = random_game(&mut rng, plies, 4);
        let y = 2023 + rng.below(2);
        let (m, d) = (1 + rng.below(12), 1 + rng.below(28));
        let date = format!("{y}/{m:02}/{d:02} 1{}:00:00", rng.below(10));
        let ratings = match rng.below(5) {
            0 => None,
            1 => Some((1800.0, 2000.0)),
            _ => Some((
                1500.0 + 50.0 * rng.below(20) as f64,
                1500.0 + 37.5 * rng.below(30) as f64,
            )),
        };
        let ending = ["%TORYO", "%TORYO", "%SENNICHITE", "%CHUDAN"][rng.below(4)];
        let dated = rng.below(8) > 0;
        let game = csa_game(
            &moves,
            ("A", "B"),
            dated.then_some(date.as_str()),
            ending,
            ratings,
            None,
        );
        let name = match rng.below(4) {
            0 => format!("plain-{i:04}.csa"),
            _ => format!(
                "wdoor+{}+A+B+{y}{m:02}{d:02}100000.csa",
                tcs[rng.below(tcs.len())]
            ),
        };
        std::fs::write(dir.join(format!("{i:04}-{name}")), game).unwrap();
    }
}

/// The filters the test tries, as `shogi explore` flags would set them.
fn selections() -> Vec<(String, Selection)> {
    let s = Selection::new;
    let since = |t| text::since(t).unwrap();
    let until = |t| text::until(t).unwrap();
    let tc = |t| text::time_control(t).unwrap();
    let of = |t| text::rating_of(t).unwrap();
    let all = vec![
        ("none", s()),
        ("since month", s().since(since("2023-07"))),
        ("until month", s().until(until("2024-02"))),
        (
            "one month",
            s().since(since("2024-05")).until(until("2024-05")),
        ),
        ("since day (not a month)", s().since(since("2023-07-15"))),
        ("time control", s().time_control(tc("floodgate-300-10F"))),
        ("time control, other form", s().time_control(tc("900+0"))),
        ("min both", s().min_rating(1800.0)),
        ("max both", s().max_rating(2000.0)),
        ("min max both", s().min_rating(1700.0).max_rating(2000.0)),
        (
            "average",
            s().rating_of(of("average"))
                .min_rating(1800.0)
                .max_rating(1900.0),
        ),
        ("mover", s().rating_of(of("mover")).min_rating(2000.0)),
        ("mover max", s().rating_of(of("mover")).max_rating(1800.0)),
        ("unaligned rating", s().min_rating(1850.0)),
        (
            "all at once",
            s().since(since("2023-03"))
                .until(until("2024-10"))
                .time_control(tc("600+10F"))
                .min_rating(1600.0),
        ),
        ("event", s().event("floodgate-900")),
        ("plies", s().min_plies(20)),
    ];
    all.into_iter().map(|(n, s)| (n.to_string(), s)).collect()
}

#[test]
fn explorer_filters_equal_brute_force_over_stats_rows() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    write_games(&games, 400);
    let paths = [games.to_str().unwrap()];
    let all = brute_force(&paths);
    // Two databases: one counting every position reached by 2 games or more in buckets,
    // one without buckets (every query reads the hits).
    let db_path = |name: &str, min| index_min(&paths, &dir.path().join(name), min);
    let bucketed = db_path("b.sqlite", 2);
    let plain = db_path("p.sqlite", u32::MAX);
    let conn = rusqlite::Connection::open(&bucketed).unwrap();
    let rows: i64 = conn
        .query_row("SELECT count(*) FROM buckets", [], |r| r.get(0))
        .unwrap();
    assert!(rows > 1000, "{rows} bucket rows");
    let (with, without) = (Db::open(&bucketed).unwrap(), Db::open(&plain).unwrap());
    // The start, and positions of the first plies (shared by many games).
    let mut sfens: BTreeSet<String> = BTreeSet::new();
    for h in all.iter().filter(|h| h.ply <= 3) {
        sfens.insert(h.sfen.clone());
    }
    let mut nonempty = 0;
    let mut tops = [0; 2];
    for sfen in &sfens {
        let pos = text::position(sfen).unwrap();
        // `find` of a page: the totals of a counted position are read from its stored
        // counts, not from every hit, and equal those of the hits.
        for limit in [Some(0), Some(3), None] {
            let got = with.find(&pos, &Selection::new(), limit).unwrap();
            let want = without.find(&pos, &Selection::new(), limit).unwrap();
            assert_eq!(got, want, "find {sfen} limit {limit:?}");
        }
        for (name, s) in selections() {
            // Top games: none, as many as the buckets keep, more (read from the hits).
            let top = [0, shogi_db::TOP_KEPT, shogi_db::TOP_KEPT + 2][nonempty % 3];
            let want = brute_top(&all, sfen, &s, top);
            let what = format!("{name} at {sfen}, top {top}");
            same(
                &with.explore_top(&pos, &s, top).unwrap(),
                &want,
                &format!("{what} (buckets)"),
            );
            same(
                &without.explore_top(&pos, &s, top).unwrap(),
                &want,
                &format!("{what} (hits)"),
            );
            nonempty += usize::from(want.games > 0);
            let full = want.moves.iter().any(|m| m.top.len() >= shogi_db::TOP_KEPT);
            tops[usize::from(top > shogi_db::TOP_KEPT)] += usize::from(full);
        }
    }
    assert!(nonempty > 100, "{nonempty} non-empty answers");
    // The page's totals came from the stored counts (changed here, they show through).
    conn.execute("UPDATE position_games SET hits = hits + 1000", [])
        .unwrap();
    let start = text::position("startpos").unwrap();
    let before = without.find(&start, &Selection::new(), Some(3)).unwrap();
    let after = Db::open(&bucketed).unwrap();
    let got = after.find(&start, &Selection::new(), Some(3)).unwrap();
    assert_eq!(got.total, before.total + 1000);
    assert_eq!((got.games, got.hits), (before.games, before.hits));
    // Full lists of top games, from the buckets' and from more than they keep.
    assert!(tops[0] > 10 && tops[1] > 10, "{tops:?}");
}

//! The openings and castles stored by `index`: `find` and `explore` with `--opening`,
//! `--castle`, `--class` and `--side`, and `explore --by opening`, against a brute-force
//! count over the rows of `shogi stats --tags` on a generated collection whose games open
//! with known formations (then play on at random).

use crate::common;

use common::{
    Rng, Seen, brute, brute_force_rows, brute_top, csa_game, index_min, random_game, same,
};
use shogi_batch::filter_text::{TagFlag, tag_side, tag_want};
use shogi_batch::{Selection, TagFilter, filter_text as text};
use shogi_core::{Move, Position, Variant};
use shogi_db::{Db, IndexOptions, index};
use shogi_openings::RuleSet;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Opening lines written here (USI), each forming tags for one side or both.
const LINES: &[&str] = &[
    "7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 8h7g 7a6b 5i4h 5a4b 4h3h 4b3b 3h2h 6a5b 3i3h 1c1d 6i5h",
    "7g7f 3c3d 2h7h 8c8d 5i4h 8d8e 4h3h 5a4b 3h2h 4b3b 3i3h 7a6b",
    "5g5f 3c3d 2h5h 8c8d 5i4h 5a4b 4h3h 4b3b 3h2h",
    "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 7i8h 7a7b 3i3h",
    "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d",
    "7g7f 3c3d 2g2f 5c5d 2f2e 8b5b 5i6h 5a6b 6h7h 6b7b 3i4h 7b8b",
    "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 5i6h 8b4b 6h7h 5a6b 9g9f 6b7b 9f9e 7b8b 4i5h 7a7b",
    "",
];

/// A game: one of [`LINES`] (or none), then random moves.
fn game(rng: &mut Rng) -> Vec<Move> {
    let line = LINES[rng.below(LINES.len())];
    let mut pos = Position::startpos(Variant::Standard);
    let mut moves = Vec::new();
    for m in line.split_whitespace() {
        let mv = Move::from_usi(m).unwrap();
        pos.play(mv).unwrap();
        moves.push(mv);
    }
    let cut = rng.below(moves.len() + 1);
    moves.truncate(if rng.below(4) == 0 { cut } else { moves.len() });
    let mut pos = Position::startpos(Variant::Standard);
    for m in &moves {
        pos.play(*m).unwrap();
    }
    for _ in 0..rng.below(40) {
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        pos.play(m).unwrap();
        moves.push(m);
    }
    moves
}

fn write_games(dir: &Path, n: usize) {
    let mut rng = Rng(28);
    for i in 0..n {
        let moves = if rng.below(6) == 0 {
            let plies = 4 + rng.below(20);
            random_game(&mut rng, plies, 4)
        } else {
            game(&mut rng)
        };
        let (m, d) = (1 + rng.below(12), 1 + rng.below(28));
        let date = format!("2024/{m:02}/{d:02} 10:00:00");
        let ratings = Some((
            1500.0 + 100.0 * rng.below(8) as f64,
            1500.0 + 100.0 * rng.below(8) as f64,
        ));
        let ending = ["%TORYO", "%TORYO", "%SENNICHITE", "%CHUDAN"][rng.below(4)];
        let game = csa_game(&moves, ("A", "B"), Some(&date), ending, ratings, None);
        std::fs::write(dir.join(format!("{i:04}.csa")), game).unwrap();
    }
}

/// The tag filters tried, as the flags would set them (`--opening 振り飛車 --side gote`).
fn selections() -> Vec<(String, Selection)> {
    let rules = RuleSet::builtin();
    let tag = |flag, name: &str, side: &str| {
        let want = tag_want(rules, flag, name).unwrap();
        let side = tag_side(side).unwrap();
        Selection::new().tag(TagFilter { rules, want, side })
    };
    let mut out = Vec::new();
    for (flag, word, names) in [
        (
            TagFlag::Opening,
            "opening",
            &[
                "振り飛車",
                "四間飛車",
                "ゴキゲン中飛車",
                "居飛車",
                "角換わり",
            ][..],
        ),
        (
            TagFlag::Castle,
            "castle",
            &["美濃", "片美濃囲い", "舟囲い"][..],
        ),
        (
            TagFlag::Class,
            "class",
            &["振り飛車", "居飛車", "対抗形", "相居飛車", "力戦"][..],
        ),
    ] {
        for name in names {
            for side in ["either", "sente", "gote"] {
                out.push((
                    format!("--{word} {name} --side {side}"),
                    tag(flag, name, side),
                ));
            }
        }
    }
    let since = text::since("2024-04").unwrap();
    out.push((
        "--opening 振り飛車 --since 2024-04 --min-rating 1700".into(),
        tag(TagFlag::Opening, "振り飛車", "either")
            .since(since)
            .min_rating(1700.0),
    ));
    out.push((
        "--opening 四間飛車 --side sente --castle 美濃".into(),
        tag(TagFlag::Opening, "四間飛車", "sente").tag(TagFilter {
            rules,
            want: tag_want(rules, TagFlag::Castle, "美濃").unwrap(),
            side: tag_side("either").unwrap(),
        }),
    ));
    out
}

/// `n` games written under `dir/games` and their rows with tags, as `stats --tags` gives them.
fn collection(dir: &Path, n: usize) -> (String, Vec<Seen>) {
    let games = dir.join("games");
    std::fs::create_dir(&games).unwrap();
    write_games(&games, n);
    let games = games.to_str().unwrap().to_string();
    let all = brute_force_rows(&[games.as_str()], true);
    (games, all)
}

#[test]
fn tag_filters_equal_brute_force_over_stats_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (games, all) = collection(dir.path(), 300);
    let paths = [games.as_str()];
    let db_path = |name: &str, min| index_min(&paths, &dir.path().join(name), min);
    let dbs = [
        Db::open(db_path("b.sqlite", 2)).unwrap(),
        Db::open(db_path("p.sqlite", u32::MAX)).unwrap(),
    ];
    let mut sfens: BTreeSet<String> = BTreeSet::new();
    for h in all.iter().filter(|h| h.ply <= 2) {
        sfens.insert(h.sfen.clone());
    }
    let mut nonempty = BTreeMap::new();
    let mut tops = 0;
    for sfen in &sfens {
        let pos = text::position(sfen).unwrap();
        for (name, s) in selections() {
            // Top games: none, as many as the buckets keep, more (read from the hits).
            let top = [0, shogi_db::TOP_KEPT, shogi_db::TOP_KEPT + 2][tops % 3];
            tops += 1;
            let want = brute_top(&all, sfen, &s, top);
            for db in &dbs {
                let what = format!("{name} at {sfen}, top {top}");
                same(&db.explore_top(&pos, &s, top).unwrap(), &want, &what);
                let found = db.find(&pos, &s, None).unwrap();
                assert_eq!(found.games as u32, want.games, "find {what}");
            }
            *nonempty.entry(name).or_insert(0) += usize::from(want.games > 0);
        }
    }
    // Every filter on either side kept some games somewhere (the collection forms these
    // tags), and most filters on one side did.
    for (name, n) in &nonempty {
        assert!(
            *n > 0 || !name.contains("either"),
            "{name}: no game kept anywhere"
        );
    }
    let kept = nonempty.values().filter(|n| **n > 0).count();
    assert!(kept * 4 >= nonempty.len() * 3, "{nonempty:?}");
    // The aggregated database answers one tag filter from its buckets: with the stored tags
    // gone (which every hit would be filtered with), its answers stay those of the rows.
    let conn = rusqlite::Connection::open(dir.path().join("b.sqlite")).unwrap();
    let counted: i64 = conn
        .query_row("SELECT count(*) FROM buckets WHERE tag > 0", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(counted > 1000, "{counted} rows per tag");
    conn.execute_batch("DELETE FROM tag_hits; DELETE FROM game_tags;")
        .unwrap();
    let db = Db::open(dir.path().join("b.sqlite")).unwrap();
    let mut answered = 0;
    // The positions of 2 games or more (those the database counted). One tag filter is
    // answered from the buckets, a tag filter with others (and more top games than the
    // buckets keep) from the position's packed games.
    let mut combined = 0;
    for (i, sfen) in sfens
        .iter()
        .filter(|f| brute(&all, f, &Selection::new()).games >= 2)
        .enumerate()
    {
        let pos = text::position(sfen).unwrap();
        for (name, s) in selections() {
            let top = [shogi_db::TOP_KEPT, shogi_db::TOP_KEPT + 2][i % 2];
            let want = brute_top(&all, sfen, &s, top);
            same(
                &db.explore_top(&pos, &s, top).unwrap(),
                &want,
                &format!("{name} at {sfen}, top {top} (counted)"),
            );
            answered += usize::from(want.games > 0);
            combined += usize::from(want.games > 0 && name.matches("--").count() > 2);
        }
    }
    assert!(answered > 20 && combined > 4, "{answered} {combined}");
}

/// `Db::games` (what `shogi book build --db` reads) keeps, under each tag filter, exactly the
/// games whose `stats --tags` row the same selection keeps.
#[test]
fn games_pass_keeps_the_games_the_tag_filters_keep() {
    let dir = tempfile::tempdir().unwrap();
    let (games, all) = collection(dir.path(), 120);
    let db = index_min(&[games.as_str()], &dir.path().join("g.sqlite"), 2);
    let db = Db::open(&db).unwrap();
    let mut rows: BTreeMap<(String, u32), &shogi_batch::GameRow> = BTreeMap::new();
    for h in &all {
        rows.entry((h.path.clone(), h.game)).or_insert(&h.row);
    }
    let mut kept_any = 0;
    for (name, s) in selections() {
        let want: BTreeSet<(String, u32)> = rows
            .iter()
            .filter(|(_, r)| s.matches(r, |_| true))
            .map(|(k, _)| k.clone())
            .collect();
        let mut pass = db.games(&s).unwrap();
        let got: BTreeSet<(String, u32)> = pass
            .by_ref()
            .map(|g| {
                let g = g.unwrap();
                (g.row.path.clone(), g.row.game)
            })
            .collect();
        assert_eq!(got, want, "{name}");
        let read = pass.read();
        assert_eq!(
            read.games + read.left_out + read.unreadable,
            rows.len() as u64,
            "{name}"
        );
        kept_any += usize::from(!got.is_empty());
    }
    assert!(kept_any * 2 >= selections().len(), "{kept_any}");
}

/// The games through `sfen` kept by `s`, each once, by main 戦型: games, sente wins, gote
/// wins, draws, unfinished.
fn openings_brute(all: &[Seen], sfen: &str, s: &Selection) -> BTreeMap<String, [u32; 5]> {
    let rules = RuleSet::builtin();
    // The side to move is the mover whose rating `--rating-of mover` bounds.
    let s = s
        .clone()
        .mover(text::position(sfen).unwrap().side_to_move());
    let mut by: BTreeMap<String, [u32; 5]> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for h in all.iter().filter(|h| h.sfen == sfen) {
        if !s.matches(&h.row, |_| true) || !seen.insert((h.path.clone(), h.game)) {
            continue;
        }
        let name = shogi_batch::opening_name(h.row.tags.as_ref(), rules).to_string();
        let c = by.entry(name).or_default();
        c[0] += 1;
        c[match h.row.winner.name() {
            "sente" => 1,
            "gote" => 2,
            "draw" => 3,
            _ => 4,
        }] += 1;
    }
    by
}

/// `db`'s `explore --by opening` at `pos` under `s`, as [`openings_brute`] counts it (and
/// checked in order: most games first, then by name).
fn openings_got(db: &Db, pos: &Position, s: &Selection, what: &str) -> BTreeMap<String, [u32; 5]> {
    let got = db.explore_openings(pos, s).unwrap();
    let order: Vec<(u32, &str)> = got
        .openings
        .iter()
        .map(|o| (u32::MAX - o.games, o.opening.as_str()))
        .collect();
    assert!(order.is_sorted(), "{what}: {order:?}");
    let total: u32 = got.openings.iter().map(|o| o.games).sum();
    assert_eq!(got.games, total, "{what}");
    got.openings
        .iter()
        .map(|o| {
            let c = [o.games, o.sente_wins, o.gote_wins, o.draws, o.unfinished];
            (o.opening.clone(), c)
        })
        .collect()
}

#[test]
fn explore_by_opening_equals_brute_force() {
    let dir = tempfile::tempdir().unwrap();
    let (games, all) = collection(dir.path(), 150);
    let db_path = |name: &str, min| index_min(&[games.as_str()], &dir.path().join(name), min);
    // Aggregated (every position of 2 games or more), and not (every query reads the hits).
    let dbs = [
        Db::open(db_path("b.sqlite", 2)).unwrap(),
        Db::open(db_path("p.sqlite", u32::MAX)).unwrap(),
    ];
    let mut sfens: BTreeSet<String> = BTreeSet::new();
    for h in all.iter().filter(|h| h.ply <= 3) {
        sfens.insert(h.sfen.clone());
    }
    // No filter and filters of the games' facts (counted at index time), and one counted
    // from the hits.
    let filters = [
        ("none", Selection::new()),
        (
            "--since 2024-04 --min-rating 1700",
            Selection::new()
                .since(text::since("2024-04").unwrap())
                .min_rating(1700.0),
        ),
        (
            "--until 2024-06",
            Selection::new().until(text::until("2024-06").unwrap()),
        ),
        (
            "--rating-of mover --max-rating 1800",
            Selection::new()
                .rating_of(text::rating_of("mover").unwrap())
                .max_rating(1800.0),
        ),
        (
            "--winner sente",
            Selection::new().winner(shogi_kif::Winner::Sente),
        ),
    ];
    let mut names = BTreeSet::new();
    for sfen in &sfens {
        let pos = text::position(sfen).unwrap();
        for (label, s) in &filters {
            let by = openings_brute(&all, sfen, s);
            for db in &dbs {
                assert_eq!(openings_got(db, &pos, s, label), by, "{label} at {sfen}");
            }
            names.extend(by.into_keys());
        }
    }
    assert!(names.len() >= 5, "{names:?}");
    // Without filters, or with those of the games' facts, the aggregated database answers
    // from its buckets: with the stored tags gone (which the hits would be counted with),
    // its answers stay those of the rows.
    let conn = rusqlite::Connection::open(dir.path().join("b.sqlite")).unwrap();
    conn.execute_batch("DELETE FROM tag_hits; DELETE FROM game_tags;")
        .unwrap();
    let db = Db::open(dir.path().join("b.sqlite")).unwrap();
    let mut counted = 0;
    for sfen in &sfens {
        let pos = text::position(sfen).unwrap();
        let games = openings_brute(&all, sfen, &Selection::new());
        if games.values().map(|c| c[0]).sum::<u32>() < 2 {
            continue;
        }
        for (label, s) in &filters[..4] {
            let by = openings_brute(&all, sfen, s);
            let what = format!("{label} at {sfen} (buckets)");
            assert_eq!(openings_got(&db, &pos, s, &what), by, "{what}");
            counted += usize::from(by.len() > 1);
        }
    }
    assert!(counted > 5, "{counted}");
}

#[test]
fn a_database_without_tags_refuses_the_tag_filters() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    write_games(&games, 20);
    let paths = [games.to_str().unwrap()];
    let db = dir.path().join("n.sqlite");
    let no_tags = IndexOptions {
        skip_tags: true,
        ..IndexOptions::default()
    };
    index(&paths, &db, &no_tags).unwrap();
    let start = Position::startpos(Variant::Standard);
    let (_, furi) = &selections()[0];
    let refused = |db: &Path| {
        let db = Db::open(db).unwrap();
        let e = db.explore(&start, furi).unwrap_err().to_string();
        assert!(e.contains("--no-tags"), "{e}");
        let e = db.explore_openings(&start, &Selection::new()).unwrap_err();
        assert!(e.to_string().contains("--no-tags"), "{e}");
        // Other filters still answer.
        assert!(db.explore(&start, &Selection::new()).unwrap().games > 0);
    };
    refused(&db);
    // Updated with tags, the older games still lack theirs: still refused.
    std::fs::write(
        games.join("extra.csa"),
        csa_game(&[], ("A", "B"), None, "%TORYO", None, None),
    )
    .unwrap();
    index(&paths, &db, &IndexOptions::default()).unwrap();
    refused(&db);
    // A database with tags updated without them refuses them from then on.
    let tagged = dir.path().join("t.sqlite");
    std::fs::remove_file(games.join("extra.csa")).unwrap();
    index(&paths, &tagged, &IndexOptions::default()).unwrap();
    assert!(Db::open(&tagged).unwrap().explore(&start, furi).is_ok());
    std::fs::write(
        games.join("extra.csa"),
        csa_game(&[], ("A", "B"), None, "%TORYO", None, None),
    )
    .unwrap();
    index(&paths, &tagged, &no_tags).unwrap();
    refused(&tagged);
}

/// The hits of `find` as compared across databases: path, game, ply, next move, and the
/// counts of all.
fn found(
    db: &Db,
    pos: &Position,
    s: &Selection,
    limit: Option<usize>,
) -> (Vec<String>, usize, usize) {
    let f = db.find(pos, s, limit).unwrap();
    (hit_lines(&f.hits), f.total, f.games)
}

fn hit_lines(hits: &[shogi_db::Hit]) -> Vec<String> {
    hits.iter()
        .map(|h| {
            let mv = h.next_move.map(|m| m.to_usi());
            format!("{} {} {} {mv:?}", h.row.path, h.row.game, h.ply)
        })
        .collect()
}

#[test]
fn find_and_by_opening_from_the_packed_games_equal_the_replayed_hits() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    write_games(&games, 120);
    // Games that come back to the start and play the same move from it again: their hits
    // outnumber their records in the packed rows.
    let back = "2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b 2h3h";
    for i in 0..4 {
        let moves: Vec<Move> = back
            .split(' ')
            .map(|m| Move::from_usi(m).unwrap())
            .collect();
        let ratings = Some((1600.0 + 100.0 * i as f64, 1800.0));
        let date = format!("2024/0{}/10 10:00:00", 3 + i);
        let game = csa_game(
            &moves,
            ("A", "B"),
            Some(&date),
            "%SENNICHITE",
            ratings,
            None,
        );
        std::fs::write(games.join(format!("back{i}.csa")), game).unwrap();
    }
    let games = games.to_str().unwrap().to_string();
    let all = brute_force_rows(&[games.as_str()], true);
    let db_path = |name: &str, min| index_min(&[games.as_str()], &dir.path().join(name), min);
    let (rows, hits) = (db_path("b.sqlite", 2), db_path("p.sqlite", u32::MAX));
    let (packed, replayed) = (Db::open(&rows).unwrap(), Db::open(&hits).unwrap());
    let mut sfens: BTreeSet<String> = BTreeSet::new();
    for h in all.iter().filter(|h| h.ply <= 2) {
        sfens.insert(h.sfen.clone());
    }
    let mut filters = selections();
    filters.push((
        "--since 2024-03 --until 2024-09 --min-rating 1700 (the finest level)".into(),
        Selection::new()
            .since(text::since("2024-03").unwrap())
            .until(text::until("2024-09").unwrap())
            .min_rating(1700.0),
    ));
    filters.push((
        "--max-rating 1800".into(),
        Selection::new().max_rating(1800.0),
    ));
    let mut checked = 0;
    for sfen in &sfens {
        let pos = text::position(sfen).unwrap();
        for (name, s) in &filters {
            for limit in [None, Some(3)] {
                let what = format!("find {name} at {sfen}, limit {limit:?}");
                let want = replayed.find(&pos, s, limit).unwrap();
                let got = packed.find(&pos, s, limit).unwrap();
                assert_eq!(hit_lines(&got.hits), hit_lines(&want.hits), "{what}");
                assert_eq!(got.counts(), want.counts(), "{what}");
                // The whole rows too (tags included when a tag filter asked for them).
                assert_eq!(got.hits, want.hits, "{what}: rows");
                checked += usize::from(want.total > want.games);
            }
            let by = openings_brute(&all, sfen, s);
            let what = format!("--by opening {name} at {sfen}");
            assert_eq!(openings_got(&packed, &pos, s, &what), by, "{what}");
        }
    }
    // Some positions had more hits than games (the games coming back).
    assert!(checked > 0, "{checked}");
    // With the stored tags gone (which the replayed hits are filtered with), the packed
    // database still answers the tag filters: from its rows.
    let conn = rusqlite::Connection::open(&rows).unwrap();
    conn.execute_batch("DELETE FROM tag_hits; DELETE FROM game_tags;")
        .unwrap();
    let packed = Db::open(&rows).unwrap();
    let start_sfen = &all.iter().find(|h| h.ply == 0).unwrap().sfen;
    let start = text::position(start_sfen).unwrap();
    let mut answered = 0;
    for (name, s) in filters.iter().filter(|(n, _)| n.contains("--side either")) {
        let want = found(&replayed, &start, s, Some(5));
        assert_eq!(
            found(&packed, &start, s, Some(5)),
            want,
            "find {name} (rows)"
        );
        let by = openings_brute(&all, start_sfen, s);
        let what = format!("--by opening {name} (rows)");
        assert_eq!(openings_got(&packed, &start, s, &what), by, "{what}");
        answered += usize::from(want.2 > 0);
    }
    assert!(answered > 5, "{answered}");
}

//! The `Db` handle: one connection serves queries before and after `Db::index` updates the
//! database, and a database that is not there is refused when opened.

use crate::common;

use common::{brute_force, write_collection};
use shogi_batch::Selection;
use shogi_core::{Position, Variant};
use shogi_db::{Db, IndexOptions, index};

#[test]
fn queries_see_what_index_adds() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first");
    write_collection(&first, 5, 6, 3);
    let db_path = dir.path().join("games.sqlite");
    let opts = IndexOptions {
        jobs: Some(1),
        ..IndexOptions::default()
    };
    let first_s = first.display().to_string();
    index(&[first_s.as_str()], &db_path, &opts).unwrap();
    let start = Position::startpos(Variant::Standard);
    let all = Selection::new();
    let mut db = Db::open(&db_path).unwrap();
    assert_eq!(db.path(), db_path.as_path());
    let before = db.find(&start, &all, None).unwrap();
    let games_before = brute_force(&[first_s.as_str()])
        .iter()
        .filter(|s| s.ply == 0)
        .count();
    assert_eq!(before.total, games_before);

    // A second folder, indexed through the handle: the same handle then finds its games.
    let second = dir.path().join("second");
    write_collection(&second, 6, 4, 3);
    let second_s = second.display().to_string();
    let report = db
        .index(&[first_s.as_str(), second_s.as_str()], &opts, &mut |_| {})
        .unwrap();
    assert!(!report.created && report.games_added > 0, "{report:?}");
    let after = db.find(&start, &all, None).unwrap();
    let games_after = brute_force(&[first_s.as_str(), second_s.as_str()])
        .iter()
        .filter(|s| s.ply == 0)
        .count();
    assert_eq!(after.total, games_after);
    assert!(after.total > before.total);
    assert_eq!(
        db.explore(&start, &all).unwrap().games as usize,
        after.games
    );

    let e = Db::open(dir.path().join("none.sqlite")).err().unwrap();
    assert!(e.message.contains("no such file"), "{e}");
}

/// `Db::games` gives every game's stored line, with the selection applied to its row, over
/// pages of a few games (so that the games span many pages): the same games and lines as a
/// brute-force replay of the records, filtered by the same selection.
#[test]
fn games_stream_every_line_kept_by_the_selection() {
    use std::collections::BTreeMap;
    let dir = tempfile::tempdir().unwrap();
    let gen_dir = dir.path().join("gen");
    write_collection(&gen_dir, 7, 12, 4);
    let db_path = dir.path().join("games.sqlite");
    let gen_s = gen_dir.display().to_string();
    index(&[gen_s.as_str()], &db_path, &IndexOptions::default()).unwrap();
    let seen = brute_force(&[gen_s.as_str()]);
    let db = Db::open(&db_path).unwrap().with_stream_chunk(3);
    for selection in [
        Selection::new(),
        Selection::new().player("tanaka").min_plies(20),
    ] {
        let mut want: BTreeMap<(String, u32), Vec<String>> = BTreeMap::new();
        let mut rows = BTreeMap::new();
        for s in &seen {
            let line = want.entry((s.path.clone(), s.game)).or_default();
            if let Some(m) = &s.next {
                line.push(m.clone());
            }
            rows.insert((s.path.clone(), s.game), s.row.clone());
        }
        want.retain(|k, _| selection.matches(&rows[k], |_| true));
        let mut games = db.games(&selection).unwrap();
        let mut got = BTreeMap::new();
        for g in games.by_ref() {
            let g = g.unwrap();
            assert_eq!(g.start, Position::startpos(Variant::Standard));
            let line: Vec<String> = g.moves.iter().map(|m| m.to_usi()).collect();
            assert!(got.insert((g.row.path.clone(), g.row.game), line).is_none());
        }
        assert!(want.len() > 3, "{}", want.len());
        assert_eq!(got, want);
        let read = games.read();
        assert_eq!(read.games as usize, want.len());
        assert_eq!((read.games + read.left_out) as usize, rows.len());
    }
}

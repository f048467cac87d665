//! The `Db` handle: one connection serves queries before and after `Db::index` updates the
//! database, and a database that is not there is refused when opened.

mod common;

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

//! Floodgate's time control and event in the index: the `games` rows of the Floodgate
//! fixtures (written here in the dialect, with and without `$EVENT`) say what the files and
//! their names say.

use rusqlite::Connection;
use shogi_db::{IndexOptions, index};
use std::path::Path;

/// The game id of a fixture (its `$EVENT`, else its file name) and the time control its
/// game name (`floodgate-300-10F`) means, worked out here from the text.
fn expected(path: &Path) -> (String, String) {
    let text = std::fs::read_to_string(path).unwrap();
    let id = text
        .lines()
        .find_map(|l| l.strip_prefix("$EVENT:"))
        .map(str::to_string)
        .unwrap_or_else(|| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.strip_suffix(".csa").unwrap().to_string()
        });
    let game = id.split('+').nth(1).unwrap();
    let mut parts = game.split('-').skip(1);
    let (base, more) = (parts.next().unwrap(), parts.next().unwrap());
    (id.clone(), format!("{base}+{more}"))
}

#[test]
fn floodgate_games_have_their_time_control_and_event() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/floodgate");
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("fg.sqlite");
    let root = dir.display().to_string();
    index(&[root.as_str()], &db, &IndexOptions::default()).unwrap();
    let conn = Connection::open(&db).unwrap();
    let mut stmt = conn
        .prepare("SELECT path, event, time_control FROM games ORDER BY path")
        .unwrap();
    let rows: Vec<(String, String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), 3);
    for (path, event, time_control) in rows {
        let (id, tc) = expected(Path::new(&path));
        assert_eq!(event, id, "{path}");
        assert_eq!(time_control, tc, "{path}");
    }
}

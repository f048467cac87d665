//! Every game of the database in id order, kept by a selection: what a pass over the whole
//! collection (a book built from the database) reads, a page of games at a time, so that a
//! million games are never held at once.

use crate::error::DbError;
use crate::hit::{stored_move, stored_start};
use crate::schema::{self, db_err};
use crate::stored::StoredGame;
use crate::tags::TagReader;
use rusqlite::Connection;
use shogi_batch::Selection;
use shogi_core::Position;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};

/// What a [`Games`] pass has read so far besides the games it gave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GamesRead {
    /// Games given.
    pub games: u64,
    /// Games the selection left out.
    pub left_out: u64,
    /// Games stored without a start position (inputs that could not be read as a record).
    pub unreadable: u64,
}

/// The games of a database kept by a selection, in id order (the order `shogi index` read
/// them in), each with its row, start and stored main line (up to its first error): an
/// iterator reading a page of games per query (see [`crate::Db::with_stream_chunk`]). An error (a damaged row, SQLite's) is given
/// once and ends the iteration.
pub struct Games<'db> {
    conn: &'db Connection,
    db: PathBuf,
    selection: Selection,
    sql: String,
    page_size: i64,
    last_id: i64,
    page: VecDeque<StoredGame>,
    done: bool,
    read: GamesRead,
    /// Each game's stored tags, read when the selection filters on them.
    tags: Option<TagReader>,
}

impl<'db> Games<'db> {
    pub(crate) fn new(
        conn: &'db Connection,
        db: &Path,
        selection: &Selection,
        page_size: usize,
    ) -> Result<Games<'db>, DbError> {
        crate::tags::check_rules(conn, db, selection)?;
        let tags = match selection.tag_rules() {
            Some(_) => Some(TagReader::new(conn).map_err(|e| db_err(db, e))?),
            None => None,
        };
        let sql = format!(
            "SELECT g.id, g.start_sfen, g.moves, {} FROM games g WHERE g.id > ?1 ORDER BY g.id LIMIT ?2",
            schema::select_list("g")
        );
        Ok(Games {
            conn,
            db: db.to_path_buf(),
            selection: selection.clone(),
            sql,
            page_size: i64::try_from(page_size.max(1)).unwrap_or(i64::MAX),
            last_id: i64::MIN,
            page: VecDeque::new(),
            done: false,
            read: GamesRead::default(),
            tags,
        })
    }

    /// What was read so far (complete once the iterator has ended).
    pub fn read(&self) -> GamesRead {
        self.read
    }

    /// Reads the next page of games (empty at the end).
    fn fill(&mut self) -> Result<(), DbError> {
        let db = self.db.as_path();
        let mut st = self
            .conn
            .prepare_cached(&self.sql)
            .map_err(|e| db_err(db, e))?;
        let mut rows = st
            .query(rusqlite::params![self.last_id, self.page_size])
            .map_err(|e| db_err(db, e))?;
        while let Some(r) = rows.next().map_err(|e| db_err(db, e))? {
            let id: i64 = r.get(0).map_err(|e| db_err(db, e))?;
            self.last_id = id;
            let mut row = schema::row_from(r, 3).map_err(|e| db_err(db, e))?;
            if let Some(reader) = &self.tags {
                row.tags = reader.tags(self.conn, id).map_err(|e| db_err(db, e))?;
            }
            let start: Option<String> = r.get(1).map_err(|e| db_err(db, e))?;
            let Some(start) = start else {
                self.read.unreadable += 1;
                continue;
            };
            let bad = |what: String| {
                DbError::new(db, format!("{} game {}: stored {what}", row.path, row.game))
            };
            let start = stored_start(&start).ok_or_else(|| bad(format!("start '{start}'")))?;
            let line = r.get_ref(2).map_err(|e| db_err(db, e))?;
            let line = line.as_str().unwrap_or("");
            let mut moves = Vec::new();
            for m in line.split_whitespace() {
                if let Some(mv) = stored_move(Some(m), 2).map_err(|e| db_err(db, e))? {
                    moves.push(mv);
                }
            }
            let game = StoredGame { row, start, moves };
            if !self.selection.is_empty()
                && !self
                    .selection
                    .matches(&game.row, |want| reaches(&game.start, &game.moves, want))
            {
                self.read.left_out += 1;
                continue;
            }
            self.page.push_back(game);
        }
        Ok(())
    }
}

impl Iterator for Games<'_> {
    type Item = Result<StoredGame, DbError>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.page.is_empty() && !self.done {
            let before = self.last_id;
            if let Err(e) = self.fill() {
                self.done = true;
                return Some(Err(e));
            }
            // A page that moved no further is the end.
            self.done = self.last_id == before;
        }
        let game = self.page.pop_front()?;
        self.read.games += 1;
        Some(Ok(game))
    }
}

/// Whether the line from `start` passes through `want` (it stops at a move that is not legal).
fn reaches(start: &Position, moves: &[shogi_core::Move], want: &Position) -> bool {
    let mut pos = start.clone();
    if pos.same_position(want) {
        return true;
    }
    for &m in moves {
        if pos.check_move(m).is_err() {
            return false;
        }
        pos.play_unchecked(m);
        if pos.same_position(want) {
            return true;
        }
    }
    false
}

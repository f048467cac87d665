//! The handle on a game database: opened once, then searched (`find`, streaming of hits,
//! `explore`) and updated (`index`).

use crate::error::DbError;
use crate::exact::{exact_hits, find_exact};
use crate::fast;
use crate::games::Games;
use crate::hit::{Counts, Found, Hit};
use crate::index::{IndexOptions, IndexReport, index_with};
use crate::load::IndexProgress;
use crate::schema;
use crate::stored::{self, StoredGame};
use crate::stream;
use crate::tags::Openings;
use crate::tally::{Explore, explore_hits_top};
use rusqlite::Connection;
use shogi_batch::Selection;
use shogi_core::Position;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// An open game database (built by [`crate::index`]): one connection, kept for every query.
///
/// ```no_run
/// use shogi_db::Db;
/// use shogi_core::{Position, Variant};
///
/// let db = Db::open("games.sqlite")?;
/// let start = Position::startpos(Variant::Standard);
/// let found = db.find(&start, &shogi_batch::Selection::new(), Some(10))?;
/// println!("{} occurrences in {} games", found.total, found.games);
/// # Ok::<(), shogi_db::DbError>(())
/// ```
pub struct Db {
    path: PathBuf,
    conn: Connection,
    /// Hits per chunk when many hits are read on several threads.
    chunk: usize,
}

impl Db {
    /// Opens the existing database at `path` for queries. Errors name the file: no such
    /// file, not a game database, another schema version, other position keys.
    pub fn open(path: impl AsRef<Path>) -> Result<Db, DbError> {
        Db::open_with(path.as_ref(), schema::open_for_query)
    }

    /// A handle on the connection `open` makes of `path`.
    fn open_with(
        path: &Path,
        open: fn(&Path) -> Result<Connection, DbError>,
    ) -> Result<Db, DbError> {
        Ok(Db {
            path: path.to_path_buf(),
            conn: open(path)?,
            chunk: stream::CHUNK,
        })
    }

    /// [`Db::open`] with SQLite's read-only flag (see [`schema::open_read_only`]): for a
    /// server that must never write.
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Db, DbError> {
        Db::open_with(path.as_ref(), schema::open_read_only)
    }

    /// A handle that interrupts this handle's query from another thread (the query then
    /// fails with SQLite's "interrupted"): how a server bounds a query's time.
    pub fn interrupt_handle(&self) -> rusqlite::InterruptHandle {
        self.conn.get_interrupt_handle()
    }

    /// The game `game` of input `path` (as `find` names it), with its start and main line;
    /// `None` when the database holds no such game.
    pub fn game(&self, path: &str, game: u32) -> Result<Option<StoredGame>, DbError> {
        stored::game(&self.conn, &self.path, path, game)
    }

    /// The games with a player whose name contains `name`, in (path, game) order: at most
    /// `limit` after the first `offset`, and whether there are more.
    pub fn games_by_player(
        &self,
        name: &str,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<shogi_batch::GameRow>, bool), DbError> {
        stored::by_player(&self.conn, &self.path, name, limit, offset)
    }

    /// How many games have a player whose name contains `name` (as
    /// [`Db::games_by_player`] matches them).
    pub fn count_by_player(&self, name: &str) -> Result<usize, DbError> {
        stored::count_by_player(&self.conn, &self.path, name)
    }

    /// The same handle reading many hits in chunks of `hits` hits (at least 1; 16,384 by
    /// default) on several threads once there are four chunks to print, and [`Db::games`]
    /// reading pages of that many games. The hits, the games and their order do not depend
    /// on it: tests make it small so that small databases take the threaded path and games
    /// span several pages.
    pub fn with_stream_chunk(mut self, hits: usize) -> Db {
        self.chunk = hits.max(1);
        self
    }

    /// Every game kept by `selection`, in the order `index` read them, with its row, start
    /// and stored main line: an iterator reading a page of games at a time (what a pass over
    /// a million games reads without holding them). Refused when `selection` has filters the
    /// stored rows cannot answer (tags).
    ///
    /// ```no_run
    /// let db = shogi_db::Db::open("games.sqlite")?;
    /// let mut games = db.games(&shogi_batch::Selection::new().player("tanaka"))?;
    /// for game in games.by_ref() {
    ///     let game = game?;
    ///     println!("{} game {}: {} moves", game.row.path, game.row.game, game.moves.len());
    /// }
    /// println!("{} left out", games.read().left_out);
    /// # Ok::<(), shogi_db::DbError>(())
    /// ```
    pub fn games(&self, selection: &Selection) -> Result<Games<'_>, DbError> {
        Games::new(&self.conn, &self.path, selection, self.chunk)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the records under `paths` into this database (see [`crate::index`]: new and
    /// changed files are read, gone files removed), telling `progress` where it is, and
    /// opens it again for queries.
    pub fn index(
        &mut self,
        paths: &[impl AsRef<str>],
        options: &IndexOptions,
        progress: &mut dyn FnMut(IndexProgress),
    ) -> Result<IndexReport, DbError> {
        let report = index_with(paths, &self.path, options, progress)?;
        self.conn = schema::open_for_query(&self.path)?;
        Ok(report)
    }

    /// The games that reach `target`, confirmed against the position (the key only selects
    /// candidates), kept by `selection`, in (path, game, ply) order, at most `limit` of them
    /// (the counts are of all).
    ///
    /// Without filters the hits are those of the key and the check key (see
    /// [`crate::key::check_key`]), one of them replayed and compared with the position;
    /// with filters the packed games of a position of at least [`crate::MIN_GAMES`] games
    /// decide (dates by whole months, time controls, ratings at multiples of
    /// [`crate::BAND`], tag filters: the games kept and their counts from the row, the hits
    /// shown read game by game); should the replayed hit not be the position, or with other
    /// filters, every hit is replayed.
    pub fn find(
        &self,
        target: &Position,
        selection: &Selection,
        limit: Option<usize>,
    ) -> Result<Found, DbError> {
        let mut hits = Vec::new();
        let counts = self.find_each(target, selection, limit, &mut |h| {
            hits.push(h.clone());
            ControlFlow::Continue(())
        })?;
        Ok(Found {
            hits,
            total: counts.total,
            games: counts.games,
        })
    }

    /// [`Db::find`] with each hit passed to `each` as it comes (in the same order, at most
    /// `limit`) instead of collected: what prints a million hits without holding them.
    /// Returns the counts of all hits; `each` stops the search by returning `Break` (the
    /// counts are then partial).
    ///
    /// The hits stream straight from the index when there are no filters, the first hit
    /// confirms the position and the database's game ids follow path order (true of a
    /// database built in one run); otherwise they are collected and sorted first.
    pub fn find_each(
        &self,
        target: &Position,
        selection: &Selection,
        limit: Option<usize>,
        each: &mut dyn FnMut(&Hit) -> ControlFlow<()>,
    ) -> Result<Counts, DbError> {
        let (conn, db) = (&self.conn, self.path.as_path());
        let selection = &selection.clone().mover(target.side_to_move());
        crate::tags::check_rules(conn, db, selection)?;
        let mut found = None;
        if let Some(counts) = crate::kept::find_each(conn, db, target, selection, limit, each)? {
            return Ok(counts);
        }
        if selection.is_empty() {
            if let Some(counts) = fast::find_each(conn, db, target, limit, self.chunk, each)? {
                return Ok(counts);
            }
            if let Some(hits) = fast::find(conn, db, target)? {
                found = Some(Found::sorted(hits, limit));
            }
        }
        let found = match found {
            Some(f) => f,
            None => find_exact(conn, db, target, selection, limit)?,
        };
        for h in &found.hits {
            if each(h).is_break() {
                break;
            }
        }
        Ok(found.counts())
    }

    /// The opening explorer for `target` over the games kept by `selection`: the
    /// [`crate::explore_hits`] of [`Db::find`], counted in one pass over the index's rows when there
    /// are no filters.
    ///
    /// A position reached by at least [`crate::MIN_GAMES`] games is answered from the counts
    /// aggregated at index time (see the `buckets` table) when the filters are only dates by
    /// whole months, time controls and ratings bounded at multiples of [`crate::BAND`], or
    /// one opening, castle or class filter (`--opening`, `--castle`, `--class`, any `--side`)
    /// alone; from its packed games with several tag filters, a tag filter with those of
    /// the buckets, or months or time controls with ratings; other filters (players, events,
    /// plies, endings, …) are applied to every hit.
    pub fn explore(&self, target: &Position, selection: &Selection) -> Result<Explore, DbError> {
        self.explore_top(target, selection, 0)
    }

    /// [`Db::explore`] with up to `top` top games per move ([`crate::MoveLine::top`]: the
    /// highest-rated by the mean of both players' ratings, then the latest, then by path and
    /// number). The buckets keep each move's first [`crate::TOP_KEPT`] games, so a larger
    /// `top` reads the hits.
    pub fn explore_top(
        &self,
        target: &Position,
        selection: &Selection,
        top: usize,
    ) -> Result<Explore, DbError> {
        let selection = &selection.clone().mover(target.side_to_move());
        crate::tags::check_rules(&self.conn, &self.path, selection)?;
        let keys = [
            crate::key::position_key(target),
            crate::key::check_key(target),
        ];
        let counted = crate::buckets::explore(&self.conn, target, keys, selection, top)
            .map_err(|e| schema::db_err(&self.path, e))?;
        if let Some(table) = counted {
            if fast::first_hit_is(&self.conn, &self.path, target, keys)? {
                return Ok(table);
            }
        }
        if selection.is_empty() {
            if let Some(table) = fast::explore(&self.conn, &self.path, target, top)? {
                return Ok(table);
            }
        }
        let found = self.find(target, selection, None)?;
        Ok(explore_hits_top(target, &found, top))
    }

    /// `explore --by opening`: the main 戦型 of the games kept by `selection` that pass
    /// through `target` (each game once), with their results. Without filters the games are
    /// those of the key and check key (one replayed, as [`Db::find`] confirms them). A
    /// position of at least [`crate::MIN_GAMES`] games is answered from counts made at index
    /// time when the filters are only those [`Db::explore`] answers so (dates by whole
    /// months, time controls, ratings at multiples of [`crate::BAND`]), and from its packed
    /// games with tag filters too; with other filters every hit is replayed and filtered.
    pub fn explore_openings(
        &self,
        target: &Position,
        selection: &Selection,
    ) -> Result<Openings, DbError> {
        let (conn, db) = (&self.conn, self.path.as_path());
        let selection = &selection.clone().mover(target.side_to_move());
        crate::tags::check_rules(conn, db, selection)?;
        if !crate::tags::stored(conn).map_err(|e| schema::db_err(db, e))? {
            return Err(DbError::new(
                db,
                "the database holds no openings and castles (indexed with --no-tags); \
                 build a new one with `shogi index ... --db NEW.sqlite`",
            ));
        }
        let keys = [
            crate::key::position_key(target),
            crate::key::check_key(target),
        ];
        let confirmed = fast::first_hit_is(conn, db, target, keys)?;
        if confirmed {
            let err = |e| schema::db_err(db, e);
            // The packed games first where the buckets are not quicker: tag filters (the
            // buckets do not count them per 戦型) and the finest level.
            let rows_first = !selection.tag_filters().is_empty()
                || crate::buckets::finest(conn, selection).map_err(err)?;
            if rows_first {
                if let Some(o) =
                    crate::kept::openings(conn, target, keys, selection).map_err(err)?
                {
                    return Ok(o);
                }
            }
            let counted =
                crate::buckets::explore_openings(conn, target, keys, selection).map_err(err)?;
            if let Some(openings) = counted {
                return Ok(openings);
            }
        }
        let mut ids = if confirmed && selection.is_empty() {
            fast::hit_ids(conn, db, keys)?
        } else {
            let hits = exact_hits(conn, db, target, selection)?;
            let mut ids: Vec<i64> = hits.into_iter().map(|(id, _)| id).collect();
            ids.sort_unstable();
            ids
        };
        ids.dedup();
        crate::tags::openings_of(conn, target, &ids).map_err(|e| schema::db_err(db, e))
    }
}

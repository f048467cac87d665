//! A game database of shogi records in SQLite: `shogi index`, `shogi find`, `shogi explore`.
//!
//! Games are read through [`shogi_batch`] (every format `shogi check` reads), one row per
//! game as `shogi stats` writes it, and one row per position of each main line:
//!
//! ```text
//! files      id, path UNIQUE, size, mtime_ns, hash (64-bit hash of the bytes, hex), games
//! games      id, file_id, <the columns of `shogi stats`>, moves (the main line in USI)
//! positions  key, game_id, ply, move (USI; NULL at the end of the line), check_key
//!            PRIMARY KEY (key, game_id, ply) WITHOUT ROWID
//! buckets    the explorer's counts per position, move and bucket (month, time control,
//!            rating bands; or opening, castle or class and side), for positions of many
//!            games (see `Db::explore`)
//! bucket_tags  the openings, castles and classes the buckets count games under
//! position_games, want_sets  the games of each position the buckets count, packed, for
//!            the filters the buckets cannot combine (see `Db::explore`)
//! time_controls  id, text
//! tag_names, game_tags, tag_hits   each game's openings and castles (see `Db::explore_openings`)
//! meta       name, value (format, startpos_key, created_by, ids_in_path_order, bucket_min_games,
//!            tag_rules, bucket_tag_rules)
//! PRAGMA user_version = 7
//! ```
//!
//! `positions.key` is the 64-bit Zobrist key of board, hands and side to move (see [`key`]
//! for its fixed, documented constants), stored as a signed integer. `positions.ply` is the
//! number of moves played before the position (0 = the start); `positions.move` is the move
//! played from it. A game with an error is indexed up to the error (`games.valid = 0`); a
//! declared foul move is not played, so its line ends before it.
//!
//! Build a database with [`index`], open it with [`Db::open`], then search it; [`scan`]
//! answers the same questions from the record files, without a database. How the answers
//! are printed is the caller's (the `shogi` command's) business.
//!
//! ```no_run
//! use shogi_db::{Db, IndexOptions, index};
//! use shogi_core::{Position, Variant};
//! use std::path::Path;
//!
//! index(&["records/"], Path::new("games.sqlite"), &IndexOptions::default())?;
//! let db = Db::open("games.sqlite")?;
//! let start = Position::startpos(Variant::Standard);
//! let all = shogi_batch::Selection::new();
//! let found = db.find(&start, &all, Some(10))?;
//! let table = db.explore(&start, &all)?;
//! # Ok::<(), shogi_db::DbError>(())
//! ```
//!
//! Layout (each module uses only those above it): `error`, `key`, `schema`, `tags` (each
//! game's openings and castles), `rows`, `hit`
//! (hits and counts), `tally` (the explorer's counting), `buckets` (its counts aggregated at
//! index time; `tag_buckets`: what they count of the tags), `stream` (many hits read on several
//! threads), `fast` (queries without filters), `kept` (filtered games from the packed rows),
//! `exact` (every hit replayed), `scan` (no
//! database), `games` (every game, paged), `load` and `index` (building), `db` (the handle).

mod buckets;
mod db;
mod error;
mod exact;
mod fast;
mod games;
mod hit;
mod index;
mod kept;
pub mod key;
mod load;
mod postings;
mod rows;
mod scan;
pub mod schema;
mod stored;
mod stream;
mod tag_buckets;
mod tags;
mod tally;

pub use buckets::{BAND, MIN_GAMES, TOP_KEPT};
pub use db::Db;
pub use error::DbError;
pub use games::{Games, GamesRead};
pub use hit::{Counts, Found, Hit};
pub use index::{IndexOptions, IndexReport, index, index_with};
pub use key::position_key;
pub use load::IndexProgress;
pub use scan::scan;
pub use schema::SCHEMA_VERSION;
pub use stored::StoredGame;
pub use tags::{OpeningCount, Openings};
pub use tally::{Explore, GameRef, MoveLine, TopGame, explore_hits, explore_hits_top, name_moves};

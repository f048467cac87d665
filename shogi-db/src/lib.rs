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
//! meta       name, value (format, startpos_key, created_by, ids_in_path_order)
//! PRAGMA user_version = 2
//! ```
//!
//! `positions.key` is the 64-bit Zobrist key of board, hands and side to move (see [`key`]
//! for its fixed, documented constants), stored as a signed integer. `positions.ply` is the
//! number of moves played before the position (0 = the start); `positions.move` is the move
//! played from it. A game with an error is indexed up to the error (`games.valid = 0`); a
//! declared foul move is not played, so its line ends before it.
//!
//! ```no_run
//! use shogi_db::{IndexOptions, explore, find, index, target};
//! use std::path::Path;
//!
//! let db = Path::new("games.sqlite");
//! index(&["records/"], db, &IndexOptions::default())?;
//! let pos = target("startpos", None)?;
//! let found = find(db, &pos, &shogi_batch::Selection::new(), Some(10))?;
//! let table = explore(&pos, &find(db, &pos, &shogi_batch::Selection::new(), None)?);
//! # Ok::<(), shogi_db::DbError>(())
//! ```

mod error;
mod fast;
mod index;
pub mod key;
mod load;
mod output;
mod query;
mod rows;
pub mod schema;
mod stream;

pub use error::DbError;
pub use fast::Counts;
pub use index::{IndexOptions, IndexReport, index, index_with};
pub use key::position_key;
pub use load::IndexProgress;
pub use output::{FIND_COLUMNS, FoundWriter, write_explore, write_found};
pub use query::{
    Explore, Found, GameRef, Hit, MoveLine, explore, explore_db, find, find_each, name_moves, scan,
    target,
};
pub use schema::SCHEMA_VERSION;
#[doc(hidden)]
pub use stream::set_chunk as set_stream_chunk;

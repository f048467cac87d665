//! Opening books: YaneuraOu's text book (`#YANEURAOU-DB2016 1.00`) and binary `.ybb`, Apery's
//! `book.bin`, books built from games, and peta_shock's back-up of values over the book graph.
//!
//! A [`Book`] maps positions (keyed by their SFEN without the move number, which is kept
//! beside it) to moves, each a [`BookMove`] with its value, depth and count. Lookup follows
//! YaneuraOu: with or without the ply, and in the flipped orientation on a miss.
//!
//! ```
//! use shogi_book::{Book, Lookup, ReadOptions, read_text, write_text};
//! use shogi_core::{Position, Variant};
//!
//! let text = "#YANEURAOU-DB2016 1.00\n\
//!     sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
//!     7g7f 3c3d 30 10 5\n\
//!     2g2f none 20 10 3\n";
//! let (book, warnings) = read_text(text.as_bytes(), "book.db", ReadOptions::default())?;
//! assert!(warnings.is_empty());
//! let start = Position::startpos(Variant::Standard);
//! let entry = book.probe(&start, Lookup::default()).unwrap();
//! assert_eq!(entry.moves[0].mv.to_string(), "7g7f");
//! assert_eq!(entry.moves[0].count, 5);
//!
//! let mut out = Vec::new();
//! write_text(&book, &mut out)?;
//! assert_eq!(String::from_utf8(out)?, text);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Apery's key is a Zobrist hash over Apery's own table (MT19937-64, seed 5489) that covers
//! the pieces, the side to move's hand and the turn:
//!
//! ```
//! use shogi_book::apery_key;
//! use shogi_core::{Position, Variant};
//! assert_eq!(apery_key(&Position::startpos(Variant::Standard)), 0xEEBE8EE7E1AD7E15);
//! ```

mod apery;
mod apery_walk;
mod backup;
mod backup_file;
mod book;
mod build;
mod error;
mod eval;
mod evals;
mod extsort;
mod file;
mod runs;
mod spill;
mod stream;
mod text;
mod unordered;
mod walk;
mod ybb;
mod ybb_stream;

pub use apery::{AperyBook, AperyLosses, AperyRecord, AperyWriter, apery_key, write_apery};
pub use apery_walk::{APERY_WALK_BYTES_PER_MOVE, APERY_WALK_BYTES_PER_POSITION, AperyWalk};
pub use backup::{
    BYTES_PER_EDGE, BYTES_PER_POSITION, BackupReport, BookPass, DEPTH_DRAW, DEPTH_PERPETUAL,
    VALUE_MATE, backup, backup_stream,
};
pub use backup_file::backup_file;
pub use book::{
    Book, BookMove, Entry, Lookup, flip_move, flip_position, flip_square, position_key, probe_with,
};
pub use build::{BuildOptions, Builder, MoveTally, value_from_results};
pub use error::{BookError, Location};
pub use eval::{
    EvalBook, EvalRead, EvalReport, MATE_UNKNOWN_PLIES, apply_evaluations, book_value,
    evaluate_entry,
};
pub use evals::{EvalSort, Evals};
pub use extsort::{Duplicates, SortOptions, SortReport, sort_books};
pub use file::{
    BookFormat, BookWriter, MarkBook, WriteOptions, open_book, read_book, write_atomically,
    write_book,
};
pub use stream::{TextStream, repeated_positions};
pub use text::{
    HEADER, ReadOptions, TextReader, TextRecord, WARNINGS_KEPT, find_in_text_file, read_text,
    write_record, write_text,
};
pub use unordered::{Push, Unordered, write_unordered};
pub use walk::{Pick, Rng, WalkOptions, lines, walk};
pub use ybb::{
    MAGIC as YBB_MAGIC, YbbLosses, YbbWriter, find_in_ybb_file, parse_ybb, read_ybb, write_ybb,
};
pub use ybb_stream::YbbStream;

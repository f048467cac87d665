//! Batch analysis over collections of shogi records: the layer shared by `shogi check`,
//! `convert`, `stats`, the game database and the Python bindings.
//!
//! ```text
//! paths ─expand/shard─▶ inputs ─run (parallel, in order)─▶ games ─select─▶ rows ─▶ CSV / JSON lines
//! ```
//!
//! * [`expand`] turns paths into [`Input`]s (files as given, directories walked in sorted
//!   order, `-` for standard input); [`Shard`] keeps a stable share of them.
//! * [`run`] reads inputs on a thread pool and hands each game's result back in input order,
//!   whatever the number of threads; one bad input never stops a batch.
//! * [`GameRow`] is the one row type (the columns of `shogi stats`), made by [`select_row`]
//!   and kept or dropped by a [`Selection`].
//! * [`game_key`] is a stable hash of start and main line; [`Dedup`] and [`duplicates`] find
//!   copies; [`Summary`] counts.
//!
//! ```no_run
//! use shogi_batch::{Event, Selection, expand, pool, run, select_row};
//! use std::ops::ControlFlow;
//!
//! let inputs = expand(&["records/"])?;
//! let selection = Selection::new().min_plies(100);
//! let mut out = csv::Writer::from_writer(std::io::stdout());
//! run(&inputs, &Default::default(), &pool(Some(2))?, |input, game| select_row(input, &game, &selection),
//!     |_, event| {
//!         if let Event::Game(Some(row)) = event {
//!             out.serialize(row).ok();
//!         }
//!         ControlFlow::Continue(())
//!     });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod archive;
mod date;
mod dedup;
pub mod filter_text;
mod input;
mod isolate;
mod key;
mod open;
mod opening_summary;
pub mod read;
mod row;
mod run;
mod select;
mod summary;

pub use date::iso8601;
pub use dedup::{Dedup, DedupMode, duplicates, line_text};
pub use filter_text::{Day, EndingName};
pub use input::{Input, InputError, RECORD_EXTENSIONS, Shard, expand, io_reason};
pub use isolate::{install_hook, isolated};
pub use key::{Fnv1a, game_key, key_hex, start_text};
pub use opening_summary::{OpeningLine, OpeningSummary, opening_name};
pub use read::{INTERNAL_ERROR, InputRecord, Reading, SharedStdin, Stdin, input_bytes, read_input};
pub use row::{
    COLUMNS, ColumnWord, GameRow, KeptHeader, MATE_COLUMNS, MateSearch, MissedMate, TAG_COLUMNS,
    TagFilter, TagSide, TagWant, TimeControl, add_tag_headers, csv_header, game_id, game_tags,
    main_line_text, main_name, missed_mate, moves_text, parse_word,
};
pub use run::{Event, pool, run, select_row};
pub use select::{ENDINGS, FactFilters, RatingOf, Selection, average};
pub use summary::{Summary, SummaryLine};

//! Perft (performance test) for shogi and Mini Shogi: the number of leaves of the legal move
//! tree to a given depth, the test every move generator proves itself with.
//!
//! - [`perft`]: one thread, bulk counting at the last ply (the moves of the last ply are counted,
//!   not made).
//! - [`divide`]: the count below each root move, sorted by the move's USI text.
//! - [`parallel`]: the same over rayon, splitting below the root so a position with few moves
//!   still keeps every thread busy, with an optional progress callback.
//! - [`perft_counters`]: leaves counted by kind (captures, promotions, drops, checks, mates) for
//!   chasing a move generator bug.
//! - [`suite`]: files of positions with known counts, checked in parallel.
//! - [`split`]: a run cut into a deterministic task list, computed in shards on many machines and
//!   merged back, refusing missing or duplicated tasks.
//!
//! ```
//! use shogi_core::{Position, Variant};
//!
//! let pos = Position::startpos(Variant::Standard);
//! assert_eq!(shogi_perft::perft(&pos, 3), 25_470);
//!
//! // The divide sums to the total.
//! let div = shogi_perft::divide(&pos, 2);
//! assert_eq!(div.len(), 30);
//! assert_eq!(div.iter().map(|(_, n)| n).sum::<u64>(), 900);
//!
//! // Mini Shogi runs on the same engine.
//! let mini = Position::startpos(Variant::Mini);
//! assert_eq!(shogi_perft::parallel::perft(&mini, 4), 35_401);
//!
//! // A suite line: the variant comes from the SFEN's shape.
//! let suite = shogi_perft::suite::Suite::parse("rbsgk/4p/5/P4/KGSBR b - 1 ;D1 14 ;D2 181")?;
//! let report = suite.run(&shogi_perft::suite::Limits::default());
//! assert_eq!(report.failed().count(), 0);
//! # Ok::<(), shogi_perft::ParseError>(())
//! ```

mod counters;
mod error;
pub mod parallel;
mod serial;
pub mod split;
pub mod suite;

pub use counters::{Counters, perft_counters};
pub use error::ParseError;
pub use serial::{MAX_DEPTH, divide, perft};

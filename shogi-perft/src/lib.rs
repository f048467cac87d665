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
pub mod split;
pub mod suite;

pub use counters::{Counters, perft_counters};
pub use error::ParseError;

use shogi_core::{Move, Position};

/// The deepest depth this crate accepts from text input (suite files, task lists).
///
/// Far beyond any depth that finishes: the start position's depth 8 is 4e11 leaves.
pub const MAX_DEPTH: u32 = 20;

/// Counts the leaves `depth` plies below `pos` on one thread.
///
/// Depth 0 counts the position itself (1). The last ply is counted without making its moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        2 => {
            let mut n = 0;
            pos.for_each_legal_move(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                n += child.count_legal_moves();
            });
            n
        }
        _ => {
            let mut n = 0;
            pos.for_each_legal_move(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                n += perft(&child, depth - 1);
            });
            n
        }
    }
}

/// The leaf count below each legal root move, sorted by the move's USI text.
///
/// Depth 0 is treated as depth 1 (each root move counts 1). The counts sum to
/// `perft(pos, depth.max(1))`.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out: Vec<(Move, u64)> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth.max(1) - 1))
        })
        .collect();
    sort_by_usi(&mut out);
    out
}

/// Sorts a divide by the USI text of its moves.
pub(crate) fn sort_by_usi<T>(div: &mut [(Move, T)]) {
    div.sort_by_cached_key(|(m, _)| m.to_usi());
}

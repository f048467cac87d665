//! The invariants the fuzz targets check, in one place: each `fuzz/fuzz_targets/*.rs` calls
//! one function here, and `tests/tests/e2e/fuzz_replay.rs` calls the same functions on the
//! regression files and the seed inputs, so plain `cargo test` checks exactly what the
//! fuzzer checks.
//!
//! Every function takes arbitrary bytes and panics (with a message naming the invariant)
//! when an invariant does not hold; returning means the input is fine.
//!
//! Layout: by topic, `sfen`, `read` (readers, detection, streaming), `write`, `play`, `seeds`;
//! this module holds the list of targets.

use shogi_core::{
    Color, Move, Piece, Position, Role, Setup, SetupOptions, Square, Variant, parse_usi_position,
};
use shogi_kif::{
    EndingKind, Format, Line, ReadError, ReadOptions, ReadRecord, Reader, Record, decode,
};
use std::io::{BufRead, Read};

mod engine_text;
mod play;
mod read;
mod seeds;
mod sfen;
mod tag_rules;
mod write;

pub use engine_text::{check_eval_comments, check_usi_line};
pub use play::check_play;
pub use read::{
    check_detect, check_read, check_read_csa, check_read_jkf, check_read_ki2, check_read_kif,
    check_read_usi, check_streaming,
};
pub use seeds::{SeedSources, files_under, seed_sources, seeds};
pub use sfen::{check_sfen, check_usi_position};
pub use tag_rules::check_tag_rules;
pub use write::check_write;

/// How many games of one input are checked (a fuzz input can hold thousands of tiny ones).
const MAX_GAMES: usize = 64;
/// Inputs at least this long are read a chunk at a time (the reader's sample size).
const STREAM_MIN: usize = 64 * 1024;

/// A fuzz target: its name (the file name under `fuzz/fuzz_targets/`) and its check.
pub struct Target {
    /// The target's name.
    pub name: &'static str,
    /// The check: panics when an invariant fails.
    pub check: fn(&[u8]),
}

/// Every target, by name.
pub const TARGETS: &[Target] = &[
    Target {
        name: "tag_rules",
        check: check_tag_rules,
    },
    Target {
        name: "sfen",
        check: check_sfen,
    },
    Target {
        name: "usi_position",
        check: check_usi_position,
    },
    Target {
        name: "read_kif",
        check: check_read_kif,
    },
    Target {
        name: "read_ki2",
        check: check_read_ki2,
    },
    Target {
        name: "read_csa",
        check: check_read_csa,
    },
    Target {
        name: "read_jkf",
        check: check_read_jkf,
    },
    Target {
        name: "read_usi",
        check: check_read_usi,
    },
    Target {
        name: "detect",
        check: check_detect,
    },
    Target {
        name: "streaming",
        check: check_streaming,
    },
    Target {
        name: "write",
        check: check_write,
    },
    Target {
        name: "play",
        check: check_play,
    },
    Target {
        name: "usi_line",
        check: check_usi_line,
    },
    Target {
        name: "eval_comments",
        check: check_eval_comments,
    },
];

/// The check of the target named `name`.
pub fn target(name: &str) -> Option<fn(&[u8])> {
    TARGETS.iter().find(|t| t.name == name).map(|t| t.check)
}

/// Every record format, in a fixed order.
pub const FORMATS: [Format; 6] = Format::ALL;

//! JKF (JSON Kifu Format): one set of serde types ([`schema`]) read and written.

use crate::holds::{EndingHolds, HeaderHolds, Holds};

mod read;
mod schema;
pub(crate) mod write;

pub(crate) use read::parse;

/// What JKF holds ([`crate::losses`] asks): no bookmarks, whole seconds, the endings that
/// read back.
pub(crate) const HOLDS: Holds = Holds {
    variations: true,
    comments: true,
    times: true,
    subsecond_times: false,
    bookmarks: false,
    header: HeaderHolds::All,
    endings: EndingHolds::ReadsBack,
    foul_moves: true,
};

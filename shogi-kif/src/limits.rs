//! The reader's limits. Every input is read in bounded memory and time: each limit is far
//! above any real record, and going past one is an error located at the line (and column)
//! where it happened, of kind [`crate::ErrorKind::TooLarge`] or
//! [`crate::ErrorKind::TooDeep`], whose message names the limit and its value.
//!
//! What is not limited, and why: the number of games in a CSA file (games split by `/`) or
//! a USI or SFEN file (a game a line). Those are read a chunk at a time and each game's text
//! is dropped once it is handed out, so a file of millions of games (a legitimate input:
//! a training set, a server's log) is read in the memory of one chunk and one game.

/// The longest line of a KIF, KI2, CSA, USI or SFEN input: 4 MiB (a JKF document may be
/// a single line: it is bounded by [`MAX_RECORD_BYTES`] instead). A longer line is refused
/// without being held: in a CSA, USI or SFEN input, as the error of the game it is in (the
/// other games are read); in a KIF or KI2 input, as the error of the record.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// The largest record: a KIF, KI2 or JKF input, or one game of a CSA input (64 MiB; the
/// largest real records, joseki trees with thousands of variations, are a few MiB).
pub const MAX_RECORD_BYTES: usize = 64 << 20;

/// The most moves in one line of play, the main line or a variation (100,000; real games
/// have a few hundred).
pub const MAX_PLIES: usize = 100_000;

/// The most moves (and endings) in one record, all its variations included (1,000,000).
/// This also bounds the number of variations, as each holds at least one move, and the
/// memory of the move tree (some 200 bytes a move).
pub const MAX_MOVES: usize = 1_000_000;

/// The deepest nesting of variations: a variation of a variation of … (64 levels; KIF
/// `変化` blocks, KI2, JKF `forks`).
pub const MAX_VARIATION_DEPTH: u32 = 64;

/// The most header entries of one record: KIF `key：value` lines, CSA `$KEY:value` and name
/// lines, JKF `header` members (10,000).
pub const MAX_HEADER_ENTRIES: usize = 10_000;

/// The most items of a JKF document: array elements and object members of the header,
/// the move lists, forks, comments, board and hands, counted together (1,000,000). JSON
/// spends a few bytes on an item the reader holds in a hundred or more: this bounds the
/// memory of a document of tiny items, which its size alone would not.
pub const MAX_JKF_ITEMS: usize = 1_000_000;

/// The deepest nesting of JSON in a JKF document: 128 levels, the JSON reader's own limit
/// (serde_json's recursion limit), reported at the line and column where it is reached.
pub const MAX_JSON_DEPTH: usize = 128;

/// The most warnings kept for one record (1,000): past it, a note says that more were
/// left out. (A record of junk lines would otherwise hold a warning for each.)
pub const MAX_WARNINGS: usize = 1_000;

/// `n` with commas between groups of three digits, for messages (`1,000,000`).
pub(crate) fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size in bytes for messages: `4 MiB`.
pub(crate) fn mib(bytes: usize) -> String {
    format!("{} MiB", bytes >> 20)
}

/// Why one more move cannot be added to a record of `nodes` nodes (the root included), in a
/// line of `plies` moves so far: a limit of [`crate::limits`] reached.
#[inline]
pub(crate) fn move_limit(nodes: usize, plies: usize) -> Option<String> {
    if plies < MAX_PLIES && nodes <= MAX_MOVES {
        None
    } else {
        move_limit_message(plies)
    }
}

/// The message of [`move_limit`], once a limit is reached.
#[cold]
fn move_limit_message(plies: usize) -> Option<String> {
    if plies >= MAX_PLIES {
        Some(format!(
            "more than {} moves in one line of play (the limit)",
            count(MAX_PLIES)
        ))
    } else {
        Some(format!(
            "more than {} moves in one record, variations included (the limit)",
            count(MAX_MOVES)
        ))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_are_grouped() {
        assert_eq!(super::count(7), "7");
        assert_eq!(super::count(100_000), "100,000");
        assert_eq!(super::count(1_000_000), "1,000,000");
        assert_eq!(super::mib(super::MAX_LINE_BYTES), "4 MiB");
    }
}

//! CSA standard record format V2.2 / V3.0: reading (one game at a time; the reader splits
//! games at `/`) and writing.

use crate::holds::{EndingHolds, HeaderHolds, Holds};

mod read;
pub(crate) mod write;

pub(crate) use read::parse;

/// The `'key:value` comment lines CSA records carry that are header entries, not comments:
/// Floodgate's ratings (`'black_rate:NAME:RATING`, `'white_rate:NAME:RATING`). The reader
/// keeps them as header entries of these keys (the value is what follows the first `:`);
/// the writer writes them back as the same lines.
pub(crate) const COMMENT_KEYS: [&str; 2] = ["black_rate", "white_rate"];

/// The key and value of a `'key:value` line whose key is one of [`COMMENT_KEYS`].
pub(crate) fn comment_entry(line: &str) -> Option<(&'static str, &str)> {
    let rest = line.strip_prefix('\'')?;
    COMMENT_KEYS.iter().find_map(|&k| {
        let v = rest.strip_prefix(k)?.strip_prefix(':')?;
        Some((k, v))
    })
}

/// What CSA holds ([`crate::losses`] asks): one line of play, no bookmarks, the endings
/// it has words for.
pub(crate) const HOLDS: Holds = Holds {
    variations: false,
    comments: true,
    times: true,
    subsecond_times: true,
    bookmarks: false,
    header: HeaderHolds::All,
    endings: EndingHolds::Csa,
    foul_moves: true,
};

#[cfg(test)]
mod tests {
    use crate::{Format, HeaderKey, ReadOptions, read_str};

    #[test]
    fn floodgate_ratings_are_header_entries_that_write_back() {
        let csa = "V2\nN+a\nN-b\n'black_rate:a+1:3382.0\n'white_rate:b+2:3613.5 \n'a comment\nPI\n+\n+7776FU\n%TORYO\n";
        let r = read_str(csa, ReadOptions::with_format(Format::Csa)).unwrap();
        let get = |k: &str| r.header.get(&HeaderKey::Other(k.into()));
        assert_eq!(get("black_rate"), Some("a+1:3382.0"));
        assert_eq!(get("white_rate"), Some("b+2:3613.5"));
        let written = crate::write(&r, Format::Csa);
        assert!(
            written.contains("\n'black_rate:a+1:3382.0\n'white_rate:b+2:3613.5\n"),
            "{written}"
        );
        let back = read_str(&written, ReadOptions::with_format(Format::Csa)).unwrap();
        assert_eq!(back.header, r.header);
        // Not a known key: still a comment line, not kept.
        assert!(
            !r.header.entries.iter().any(|e| e.value.contains("comment")),
            "{:?}",
            r.header
        );
    }
}

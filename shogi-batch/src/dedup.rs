//! Duplicates: games with the same start and main line, and games whose main line is a
//! prefix of another's.

use std::collections::HashMap;

/// How duplicates are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DedupMode {
    /// Same start and main line (the same game key): the first in input order is kept.
    Exact,
    /// Also a game whose main line (from the same start) is a prefix of another game's: the
    /// longer game is kept. Needs every game before deciding, so rows are held to the end.
    Prefix,
}

impl DedupMode {
    /// Parses `--dedup`'s value: empty or `exact`, or `prefix`.
    pub fn parse(s: &str) -> Result<DedupMode, String> {
        match s.trim() {
            "" | "exact" => Ok(DedupMode::Exact),
            "prefix" => Ok(DedupMode::Prefix),
            _ => Err(format!("'{s}' is not a dedup mode (exact or prefix)")),
        }
    }
}

/// Exact duplicates found while streaming: remembers the first game of every key.
///
/// Memory grows with the number of distinct games (a key and an id each).
#[derive(Debug, Default)]
pub struct Dedup {
    first: HashMap<u64, String>,
}

impl Dedup {
    /// An empty set.
    pub fn new() -> Dedup {
        Dedup::default()
    }

    /// The id of the first game seen with `key`, or `None` (and `id` is remembered) when
    /// this is the first.
    pub fn check(&mut self, key: u64, id: &str) -> Option<String> {
        match self.first.get(&key) {
            Some(first) => Some(first.clone()),
            None => {
                self.first.insert(key, id.to_string());
                None
            }
        }
    }
}

/// The text that identifies a main line for prefix comparison: the start (as in
/// [`crate::key::start_text`]) and the USI moves, each after one space — the text
/// [`crate::game_key`] hashes.
pub fn line_text(record: &shogi_kif::Record) -> String {
    let mut s = crate::key::start_text(record.start.sfen());
    for node in record.main_line() {
        let (b, n) = crate::key::usi(node.mv);
        s.push_str(std::str::from_utf8(&b[..n]).unwrap_or_default());
    }
    s
}

/// For games given by their [`line_text`] in input order: for each, the index of the game it
/// duplicates, or `None` for a game that is kept.
///
/// A game is a duplicate of the first earlier game with the same line; in
/// [`DedupMode::Prefix`] a game whose line is a proper prefix of another's is a duplicate of
/// the first copy of the longest line that extends it.
pub fn duplicates(lines: &[String], mode: DedupMode) -> Vec<Option<usize>> {
    let mut order: Vec<usize> = (0..lines.len()).collect();
    // Sorted by text, then input order: copies are neighbours, the first copy first, and a
    // line's extensions follow it directly (a space sorts before every character of a move).
    order.sort_by(|&a, &b| lines[a].cmp(&lines[b]).then(a.cmp(&b)));
    let mut out = vec![None; lines.len()];
    // Groups of equal lines, in sorted order: (first member's index, range in `order`).
    let mut groups: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && lines[order[j]] == lines[order[i]] {
            j += 1;
        }
        groups.push((order[i], i..j));
        i = j;
    }
    // The game each group is kept as: itself, or in prefix mode the keeper of the next group
    // when that group extends it.
    let mut keeper: Vec<usize> = groups.iter().map(|g| g.0).collect();
    if mode == DedupMode::Prefix {
        for g in (0..groups.len().saturating_sub(1)).rev() {
            let this = &lines[groups[g].0];
            let next = &lines[groups[g + 1].0];
            if next.len() > this.len()
                && next.starts_with(this.as_str())
                && next.as_bytes()[this.len()] == b' '
            {
                keeper[g] = keeper[g + 1];
            }
        }
    }
    for (g, (_, range)) in groups.iter().enumerate() {
        for &member in &order[range.clone()] {
            if member != keeper[g] {
                out[member] = Some(keeper[g]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn exact_keeps_the_first_copy() {
        let l = lines(&["S a b", "S a", "S a b", "S c", "S a b"]);
        assert_eq!(
            duplicates(&l, DedupMode::Exact),
            [None, None, Some(0), None, Some(0)]
        );
    }

    #[test]
    fn prefix_keeps_the_longest() {
        let l = lines(&["S a", "S a b c", "S a b", "S a+ x", "T a b c", "S a"]);
        assert_eq!(
            duplicates(&l, DedupMode::Prefix),
            [Some(1), None, Some(1), None, None, Some(1)]
        );
    }

    #[test]
    fn dedup_is_idempotent() {
        // Pseudo-random lines over a small alphabet, so that copies and prefixes are common.
        let mut seed = 0x1234_5678u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for mode in [DedupMode::Exact, DedupMode::Prefix] {
            let l: Vec<String> = (0..300)
                .map(|_| {
                    let n = next() % 4;
                    let mut s = "S".to_string();
                    for _ in 0..n {
                        s.push_str([" a", " b", " a+"][next() % 3]);
                    }
                    s
                })
                .collect();
            let once: Vec<String> = duplicates(&l, mode)
                .iter()
                .zip(&l)
                .filter(|(d, _)| d.is_none())
                .map(|(_, s)| s.clone())
                .collect();
            let twice = duplicates(&once, mode);
            assert!(twice.iter().all(Option::is_none), "{mode:?}");
            // Every dropped game has a kept one equal to it or extending it.
            for (d, s) in duplicates(&l, mode).iter().zip(&l) {
                if let Some(k) = d {
                    let keep = &l[*k];
                    assert!(keep == s || keep.starts_with(&format!("{s} ")));
                }
            }
        }
    }

    #[test]
    fn streaming_dedup() {
        let mut d = Dedup::new();
        assert_eq!(d.check(1, "a#1"), None);
        assert_eq!(d.check(2, "a#2"), None);
        assert_eq!(d.check(1, "b#1").as_deref(), Some("a#1"));
    }
}

//! The shared corpus (`../shared/corpus` beside the workspace): the files its MANIFEST.tsv
//! lists and the rows of REFERENCE_CONSENSUS.tsv. Every function answers `None` (after a
//! note on stderr naming the test that skips) when the corpus is absent, so a test returns
//! early and passes without it, as the workspace README says corpus tests do.

use std::path::Path;

/// Where the corpus is looked for.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus");

fn read_table(name: &str, test: &str) -> Option<String> {
    match std::fs::read_to_string(Path::new(ROOT).join(name)) {
        Ok(text) => Some(text),
        Err(_) => {
            eprintln!("note: corpus not found at {ROOT}; {test} skipped");
            None
        }
    }
}

/// Each file MANIFEST.tsv lists that can be read, as (path relative to the corpus, bytes),
/// in the manifest's order; a listed file that cannot be read is passed over.
pub fn files(test: &str) -> Option<impl Iterator<Item = (String, Vec<u8>)>> {
    let manifest = read_table("MANIFEST.tsv", test)?;
    let paths: Vec<String> = manifest
        .lines()
        .skip(1)
        .filter_map(|row| row.split('\t').next())
        .map(str::to_string)
        .collect();
    Some(paths.into_iter().filter_map(|path| {
        let bytes = std::fs::read(Path::new(ROOT).join(&path)).ok()?;
        Some((path, bytes))
    }))
}

/// One row of REFERENCE_CONSENSUS.tsv: what the reference parsers agree a file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Consensus {
    /// The file, relative to the corpus.
    pub path: String,
    /// The format column (`CSA`, `KIF`, …).
    pub format: String,
    /// The start position: board, side to move and hands (no move number).
    pub initial_sfen: String,
    /// The number of main-line moves.
    pub move_count: String,
    /// The final position, spelled as `initial_sfen`.
    pub final_sfen: String,
    /// `ok`, or `illegal@PLY:MOVE` when the main line breaks a rule at that ply.
    pub legal: String,
    /// The main line's moves in USI, separated by spaces.
    pub usi_moves: String,
}

impl Consensus {
    /// The ply of the illegal move when `legal` is `illegal@PLY:…` (0 when the ply does not
    /// read as a number), `None` when the line is legal.
    pub fn illegal_ply(&self) -> Option<u32> {
        let rest = self.legal.strip_prefix("illegal@")?;
        Some(
            rest.split(':')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0),
        )
    }
}

/// The rows of REFERENCE_CONSENSUS.tsv, in its order (short rows get empty columns).
pub fn consensus(test: &str) -> Option<Vec<Consensus>> {
    let table = read_table("REFERENCE_CONSENSUS.tsv", test)?;
    Some(
        table
            .lines()
            .skip(1)
            .map(|row| {
                let cols: Vec<&str> = row.split('\t').collect();
                let col = |i: usize| cols.get(i).copied().unwrap_or("").to_string();
                Consensus {
                    path: col(0),
                    format: col(1),
                    initial_sfen: col(3),
                    move_count: col(4),
                    final_sfen: col(5),
                    legal: col(7),
                    usi_moves: col(8),
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::Consensus;

    fn row(legal: &str) -> Consensus {
        Consensus {
            path: String::new(),
            format: String::new(),
            initial_sfen: String::new(),
            move_count: String::new(),
            final_sfen: String::new(),
            legal: legal.to_string(),
            usi_moves: String::new(),
        }
    }

    #[test]
    fn illegal_ply_reads_the_legal_column() {
        assert_eq!(row("ok").illegal_ply(), None);
        assert_eq!(row("illegal@88:P*5e").illegal_ply(), Some(88));
        assert_eq!(row("illegal@x:P*5e").illegal_ply(), Some(0));
    }
}

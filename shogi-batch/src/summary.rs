//! `--summary`: totals by ending, winner, format and variant.

use crate::row::{ColumnWord, GameRow};
use serde::Serialize;
use std::collections::BTreeMap;

/// Game counts of a batch, by group.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Games counted.
    pub games: u64,
    /// Games read without an error.
    pub valid: u64,
    /// Games with an error.
    pub invalid: u64,
    /// Games by `ending` (`none` for no ending).
    pub ending: BTreeMap<String, u64>,
    /// Games by `winner`.
    pub winner: BTreeMap<String, u64>,
    /// Games by `format` (`unknown` when it was not recognised).
    pub format: BTreeMap<String, u64>,
    /// Games by `variant` (`unknown` when the game could not be read).
    pub variant: BTreeMap<String, u64>,
}

/// One line of a summary: a group, a value and a count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SummaryLine {
    /// `all`, `ending`, `winner`, `format` or `variant`.
    pub group: String,
    /// The value counted (`games`, `valid` and `invalid` for the group `all`).
    pub value: String,
    /// How many games.
    pub games: u64,
}

impl Summary {
    /// Counts a row.
    pub fn add(&mut self, row: &GameRow) {
        self.games += 1;
        if row.valid {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
        let bump = |map: &mut BTreeMap<String, u64>, v: Option<&str>, absent: &str| {
            *map.entry(v.unwrap_or(absent).to_string()).or_insert(0) += 1;
        };
        bump(&mut self.ending, row.ending.map(ColumnWord::word), "none");
        bump(&mut self.winner, Some(row.winner.word()), "none");
        bump(
            &mut self.format,
            row.format.map(ColumnWord::word),
            "unknown",
        );
        bump(
            &mut self.variant,
            row.variant.map(ColumnWord::word),
            "unknown",
        );
    }

    /// The summary as lines: totals first, then each group by value.
    pub fn lines(&self) -> Vec<SummaryLine> {
        let line = |g: &str, v: &str, n: u64| SummaryLine {
            group: g.to_string(),
            value: v.to_string(),
            games: n,
        };
        let mut out = vec![
            line("all", "games", self.games),
            line("all", "valid", self.valid),
            line("all", "invalid", self.invalid),
        ];
        for (group, map) in [
            ("ending", &self.ending),
            ("winner", &self.winner),
            ("format", &self.format),
            ("variant", &self.variant),
        ] {
            out.extend(map.iter().map(|(v, n)| line(group, v, *n)));
        }
        out
    }
}

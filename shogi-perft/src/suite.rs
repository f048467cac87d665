//! Suite files: positions with known leaf counts, checked in parallel.
//!
//! One position a line: `<SFEN> ;D1 <n> ;D2 <n> ...`. `#` starts a comment (to the end of the
//! line); blank lines are skipped. The variant comes from the SFEN's board shape.
//!
//! ```
//! use shogi_perft::suite::{Limits, Suite};
//!
//! let text = "# Mini Shogi start\nrbsgk/4p/5/P4/KGSBR b - 1 ;D1 14 ;D2 181 ;D3 2512\n";
//! let suite = Suite::parse(text)?;
//! let report = suite.run(&Limits { max_depth: Some(2), ..Limits::default() });
//! assert_eq!((report.passed().count(), report.failed().count()), (2, 0));
//! assert_eq!(report.skipped, 1);
//! # Ok::<(), shogi_perft::ParseError>(())
//! ```

use crate::error::ParseError;
use crate::parallel;
use crate::serial::MAX_DEPTH;
use rayon::prelude::*;
use shogi_core::Position;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One position of a suite with its known counts.
#[derive(Clone, Debug)]
pub struct Entry {
    /// 1-based line number in the suite text.
    pub line: usize,
    /// The SFEN as written.
    pub sfen: String,
    /// The position.
    pub position: Position,
    /// `(depth, leaf nodes)` in the order written.
    pub counts: Vec<(u32, u64)>,
}

/// A parsed suite.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    /// The positions in file order.
    pub entries: Vec<Entry>,
}

/// Which cases of a suite to run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Skip depths above this.
    pub max_depth: Option<u32>,
    /// Skip cases whose expected count is above this.
    pub max_nodes: Option<u64>,
}

impl Limits {
    fn allows(&self, depth: u32, nodes: u64) -> bool {
        self.max_depth.is_none_or(|d| depth <= d) && self.max_nodes.is_none_or(|n| nodes <= n)
    }
}

/// The outcome of one `(position, depth)` case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseResult {
    /// Line of the suite text the position is on.
    pub line: usize,
    /// The SFEN as written.
    pub sfen: String,
    /// Depth.
    pub depth: u32,
    /// The count the suite gives.
    pub expected: u64,
    /// The count found.
    pub counted: u64,
}

impl CaseResult {
    /// Whether the counts agree.
    pub fn passed(&self) -> bool {
        self.expected == self.counted
    }
}

/// The results of a suite run, in file order.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every case run.
    pub results: Vec<CaseResult>,
    /// Cases left out by the limits.
    pub skipped: usize,
}

impl Report {
    /// The cases whose counts agree.
    pub fn passed(&self) -> impl Iterator<Item = &CaseResult> {
        self.results.iter().filter(|r| r.passed())
    }

    /// The cases whose counts differ.
    pub fn failed(&self) -> impl Iterator<Item = &CaseResult> {
        self.results.iter().filter(|r| !r.passed())
    }
}

impl Suite {
    /// Parses suite text. The error names the line.
    pub fn parse(text: &str) -> Result<Suite, ParseError> {
        let mut entries = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            entries.push(parse_line(line, content)?);
        }
        Ok(Suite { entries })
    }

    /// The number of cases the limits let through.
    pub fn cases(&self, limits: &Limits) -> usize {
        self.entries
            .iter()
            .flat_map(|e| &e.counts)
            .filter(|&&(d, n)| limits.allows(d, n))
            .count()
    }

    /// Runs every case the limits let through on the current rayon pool.
    pub fn run(&self, limits: &Limits) -> Report {
        self.run_with_progress(limits, &|_, _| {})
    }

    /// [`Suite::run`] that reports the cases done and the cases in all after each case.
    pub fn run_with_progress(&self, limits: &Limits, progress: parallel::Progress<'_>) -> Report {
        let mut jobs: Vec<(usize, &Entry, u32, u64)> = Vec::new();
        let mut skipped = 0;
        for e in &self.entries {
            for &(depth, expected) in &e.counts {
                if limits.allows(depth, expected) {
                    jobs.push((jobs.len(), e, depth, expected));
                } else {
                    skipped += 1;
                }
            }
        }
        // Largest first, so the long cases do not start last; each case is itself parallel.
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(jobs[i].3));
        let total = jobs.len();
        let done = AtomicUsize::new(0);
        let mut counted: Vec<(usize, u64)> = order
            .into_par_iter()
            .map(|i| {
                let (_, e, depth, _) = jobs[i];
                let n = parallel::perft(&e.position, depth);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                (i, n)
            })
            .collect();
        counted.sort_unstable();
        let results = counted
            .into_iter()
            .map(|(i, counted)| {
                let (_, e, depth, expected) = jobs[i];
                CaseResult {
                    line: e.line,
                    sfen: e.sfen.clone(),
                    depth,
                    expected,
                    counted,
                }
            })
            .collect();
        Report { results, skipped }
    }
}

fn parse_line(line: usize, content: &str) -> Result<Entry, ParseError> {
    let mut parts = content.split(';');
    let sfen = parts.next().unwrap_or("").trim();
    if sfen.is_empty() {
        return Err(ParseError::new(line, "no SFEN before the first ';'"));
    }
    let position = Position::from_sfen(sfen).map_err(|e| ParseError::new(line, e.to_string()))?;
    let mut counts: Vec<(u32, u64)> = Vec::new();
    for part in parts {
        let part = part.trim();
        let bad = || {
            ParseError::new(
                line,
                format!("expected ';D<depth> <nodes>' (for example ';D2 900'), found ';{part}'"),
            )
        };
        let mut words = part.split_whitespace();
        let (Some(d), Some(n), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad());
        };
        let depth: u32 = d
            .strip_prefix(['D', 'd'])
            .and_then(|d| d.parse().ok())
            .ok_or_else(bad)?;
        if depth == 0 || depth > MAX_DEPTH {
            return Err(ParseError::new(
                line,
                format!("depth {depth} is out of range (1 to {MAX_DEPTH})"),
            ));
        }
        let nodes: u64 = n.parse().map_err(|_| bad())?;
        if counts.iter().any(|&(d, _)| d == depth) {
            return Err(ParseError::new(
                line,
                format!("depth {depth} is given twice"),
            ));
        }
        counts.push((depth, nodes));
    }
    if counts.is_empty() {
        return Err(ParseError::new(
            line,
            "no counts: expected '<SFEN> ;D1 <nodes> ;D2 <nodes> ...'",
        ));
    }
    Ok(Entry {
        line,
        sfen: sfen.to_string(),
        position,
        counts,
    })
}

//! Perft spread over many machines: split, run in shards, merge.
//!
//! [`TaskList::new`] expands the tree to the split depth and merges transpositions: each task is a
//! distinct position with its remaining depth and its multiplicity (the number of move sequences
//! that reach it). The list is sorted by SFEN, so the same input always gives the same list, and
//! it carries a hash of its content. [`TaskList::run_shard`] counts the tasks of one shard
//! (task `i` belongs to shard `(i - 1) % N + 1`); its [`Results`] name the list's hash and end
//! with a checksum, so a truncated file or a shard of another list is refused by [`merge`], as
//! are missing and duplicated tasks.
//!
//! ```
//! use shogi_core::{Position, Variant};
//! use shogi_perft::split::{Results, Shard, TaskList, merge};
//!
//! let pos = Position::startpos(Variant::Mini);
//! let list = TaskList::new(&pos, 5, 2)?;
//! // Text round trip, as between machines.
//! let list = TaskList::parse(&list.to_text())?;
//! let shards: Vec<Results> = (1..=3)
//!     .map(|i| list.run_shard(Shard::new(i, 3).unwrap(), &|_, _| {}))
//!     .map(|r| Results::parse(&r.to_text()).unwrap())
//!     .collect();
//! assert_eq!(merge(&shards)?.nodes, 533_203);
//! // A shard given twice is refused.
//! assert!(merge(&[shards[0].clone(), shards[0].clone(), shards[1].clone(), shards[2].clone()]).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Layout: this module holds the task list (split, text form, running a shard); `results` the
//! shards' results and their merge.

use crate::error::ParseError;
use crate::parallel;
use crate::serial::MAX_DEPTH;
use rayon::prelude::*;
use shogi_core::Position;
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};

mod results;

pub use results::{MergeError, Merged, Results, Shard, TaskResult, merge};

/// First line of a task list.
pub const TASKS_HEADER: &str = "shogi-perft-tasks 1";
/// First line of a results file.
pub const RESULTS_HEADER: &str = "shogi-perft-results 1";
/// The most tasks a list may hold (each task is a position kept in memory while splitting).
pub const MAX_TASKS: usize = 5_000_000;

/// 64-bit FNV-1a: a small hash that is the same on every machine and every build.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn line(&mut self, s: &str) {
        self.write(s.as_bytes());
        self.write(b"\n");
    }
}

/// One task: count `depth` plies below `position`, `multiplicity` times over.
#[derive(Clone, Debug)]
pub struct Task {
    /// 1-based id in the list.
    pub id: usize,
    /// The number of move sequences from the root that reach this position.
    pub multiplicity: u64,
    /// Plies left to count.
    pub depth: u32,
    /// The position.
    pub position: Position,
}

/// A deterministic task list (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct TaskList {
    /// The root's SFEN.
    pub root: String,
    /// The full depth from the root.
    pub depth: u32,
    /// The depth the tree was cut at.
    pub split_depth: u32,
    /// The tasks, ids 1, 2, ... in order.
    pub tasks: Vec<Task>,
    hash: u64,
}

/// Why a task list could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// The split depth is above the depth, or the depth is out of range.
    BadDepth(String),
    /// The cut would give more than [`MAX_TASKS`] tasks.
    TooManyTasks {
        /// The split depth asked for.
        split_depth: u32,
        /// The ply at which the limit was passed.
        ply: u32,
    },
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::BadDepth(m) => write!(f, "{m}"),
            SplitError::TooManyTasks { split_depth, ply } => write!(
                f,
                "split depth {split_depth} gives more than {MAX_TASKS} tasks (passed at ply {ply}): choose a smaller split depth"
            ),
        }
    }
}

impl std::error::Error for SplitError {}

impl TaskList {
    /// Cuts the tree below `root` at `split_depth` plies, merging transpositions.
    pub fn new(root: &Position, depth: u32, split_depth: u32) -> Result<TaskList, SplitError> {
        if depth == 0 || depth > MAX_DEPTH {
            return Err(SplitError::BadDepth(format!(
                "depth {depth} is out of range (1 to {MAX_DEPTH})"
            )));
        }
        if split_depth > depth {
            return Err(SplitError::BadDepth(format!(
                "split depth {split_depth} is above the depth {depth}"
            )));
        }
        let mut level: Vec<(Position, u64)> = vec![(root.clone(), 1)];
        for ply in 1..=split_depth {
            let mut next: HashMap<Position, u64> = HashMap::with_capacity(level.len() * 16);
            for (pos, mult) in &level {
                pos.for_each_legal_move(|m| {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    let e = next.entry(child).or_insert(0);
                    *e = e.saturating_add(*mult);
                });
                if next.len() > MAX_TASKS {
                    return Err(SplitError::TooManyTasks { split_depth, ply });
                }
            }
            level = next.into_iter().collect();
        }
        let mut keyed: Vec<(String, Position, u64)> = level
            .into_iter()
            .map(|(p, m)| (p.to_sfen(), p, m))
            .collect();
        keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let tasks = keyed
            .into_iter()
            .enumerate()
            .map(|(i, (_, position, multiplicity))| Task {
                id: i + 1,
                multiplicity,
                depth: depth - split_depth,
                position,
            })
            .collect();
        let mut list = TaskList {
            root: root.to_sfen(),
            depth,
            split_depth,
            tasks,
            hash: 0,
        };
        list.hash = list.compute_hash();
        Ok(list)
    }

    fn task_line(t: &Task) -> String {
        format!(
            "task {} {} {} {}",
            t.id,
            t.multiplicity,
            t.depth,
            t.position.to_sfen()
        )
    }

    fn header_lines(&self) -> [String; 4] {
        [
            TASKS_HEADER.to_string(),
            format!("root {}", self.root),
            format!("depth {}", self.depth),
            format!("split-depth {}", self.split_depth),
        ]
    }

    fn compute_hash(&self) -> u64 {
        let mut h = Fnv::new();
        for l in self.header_lines() {
            h.line(&l);
        }
        for t in &self.tasks {
            h.line(&Self::task_line(t));
        }
        h.0
    }

    /// The hash that identifies this list (over its root, depths and tasks).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash as the 16 hex digits written in files.
    pub fn hash_hex(&self) -> String {
        format!("{:016x}", self.hash)
    }

    /// The list as text: header lines, then one `task <id> <multiplicity> <depth> <SFEN>` line
    /// per task.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(64 * (self.tasks.len() + 8));
        let [h0, h1, h2, h3] = self.header_lines();
        out.push_str(&h0);
        out.push_str(
            "\n# Count with `shogi perft run FILE --shard I/N` (I = 1..N), then `shogi perft merge`.\n",
        );
        for l in [h1, h2, h3] {
            out.push_str(&l);
            out.push('\n');
        }
        out.push_str(&format!("tasks {}\n", self.tasks.len()));
        out.push_str(&format!("list {}\n", self.hash_hex()));
        for t in &self.tasks {
            out.push_str(&Self::task_line(t));
            out.push('\n');
        }
        out
    }

    /// Reads a task list written by [`TaskList::to_text`], checking its hash and task count.
    pub fn parse(text: &str) -> Result<TaskList, ParseError> {
        let mut lines = Lines::new(text);
        lines.expect_header(TASKS_HEADER, "a task list")?;
        let root_line = lines.field("root")?;
        let root = Position::from_sfen(root_line.1)
            .map_err(|e| ParseError::new(root_line.0, e.to_string()))?;
        let depth = lines.number::<u32>("depth")?;
        let split_depth = lines.number::<u32>("split-depth")?;
        if depth.1 == 0 || depth.1 > MAX_DEPTH || split_depth.1 > depth.1 {
            return Err(ParseError::new(
                split_depth.0,
                format!(
                    "depth {} and split depth {} are out of range",
                    depth.1, split_depth.1
                ),
            ));
        }
        let count = lines.number::<usize>("tasks")?;
        let hash = lines.hash("list")?;
        let mut tasks = Vec::new();
        while let Some((n, l)) = lines.next() {
            let bad = |what: &str| ParseError::new(n, format!("{what} in '{l}'"));
            let rest = l
                .strip_prefix("task ")
                .ok_or_else(|| bad("expected 'task <id> <multiplicity> <depth> <SFEN>'"))?;
            let mut it = rest.splitn(4, ' ');
            let id: usize = parse_word(it.next(), n, "task id")?;
            let multiplicity: u64 = parse_word(it.next(), n, "multiplicity")?;
            let tdepth: u32 = parse_word(it.next(), n, "depth")?;
            let sfen = it.next().ok_or_else(|| bad("no SFEN"))?;
            if id != tasks.len() + 1 {
                return Err(bad(&format!("expected task id {}", tasks.len() + 1)));
            }
            if tdepth != depth.1 - split_depth.1 {
                return Err(bad(&format!(
                    "expected remaining depth {}",
                    depth.1 - split_depth.1
                )));
            }
            if tasks.len() >= count.1 {
                return Err(bad(&format!("more tasks than the {} announced", count.1)));
            }
            let position =
                Position::from_sfen(sfen).map_err(|e| ParseError::new(n, e.to_string()))?;
            tasks.push(Task {
                id,
                multiplicity,
                depth: tdepth,
                position,
            });
        }
        if tasks.len() != count.1 {
            return Err(ParseError::new(
                0,
                format!(
                    "the list announces {} tasks but holds {}: it is truncated",
                    count.1,
                    tasks.len()
                ),
            ));
        }
        let mut list = TaskList {
            root: root.to_sfen(),
            depth: depth.1,
            split_depth: split_depth.1,
            tasks,
            hash: 0,
        };
        list.hash = list.compute_hash();
        if list.hash != hash.1 {
            return Err(ParseError::new(
                hash.0,
                format!(
                    "the list's content does not match its hash {:016x} (found {}): it was edited",
                    hash.1,
                    list.hash_hex()
                ),
            ));
        }
        Ok(list)
    }

    /// The tasks of one shard: ids `i` with `(i - 1) % count + 1 == index`.
    pub fn shard(&self, shard: Shard) -> impl Iterator<Item = &Task> {
        self.tasks
            .iter()
            .skip(shard.index as usize - 1)
            .step_by(shard.count as usize)
    }

    /// Counts the tasks of one shard on the current rayon pool.
    ///
    /// `progress` is called with the tasks done and the tasks of the shard after each task.
    pub fn run_shard(&self, shard: Shard, progress: parallel::Progress<'_>) -> Results {
        let tasks: Vec<&Task> = self.shard(shard).collect();
        let total = tasks.len();
        let done = AtomicUsize::new(0);
        let entries = tasks
            .par_iter()
            .map(|t| {
                let nodes = parallel::perft(&t.position, t.depth);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                TaskResult {
                    id: t.id,
                    multiplicity: t.multiplicity,
                    nodes,
                }
            })
            .collect();
        Results {
            list: self.hash,
            tasks: self.tasks.len(),
            root: self.root.clone(),
            depth: self.depth,
            shard,
            entries,
        }
    }
}

fn parse_word<T: std::str::FromStr>(
    w: Option<&str>,
    line: usize,
    what: &str,
) -> Result<T, ParseError> {
    let w = w.unwrap_or("");
    w.parse()
        .map_err(|_| ParseError::new(line, format!("bad {what} '{w}'")))
}

/// Non-blank, non-comment lines with their 1-based numbers.
struct Lines<'a> {
    inner: std::iter::Enumerate<std::str::Lines<'a>>,
    last: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        Lines {
            inner: text.lines().enumerate(),
            last: 0,
        }
    }

    fn next(&mut self) -> Option<(usize, &'a str)> {
        for (i, l) in self.inner.by_ref() {
            self.last = i + 1;
            let l = l.trim();
            if !l.is_empty() && !l.starts_with('#') {
                return Some((i + 1, l));
            }
        }
        None
    }

    fn expect_header(&mut self, header: &str, what: &str) -> Result<(), ParseError> {
        match self.next() {
            Some((_, l)) if l == header => Ok(()),
            Some((n, l)) => Err(ParseError::new(
                n,
                format!("not {what}: expected '{header}', found '{l}'"),
            )),
            None => Err(ParseError::new(0, format!("not {what}: the file is empty"))),
        }
    }

    fn field(&mut self, key: &str) -> Result<(usize, &'a str), ParseError> {
        match self.next() {
            Some((n, l)) => match l.strip_prefix(key).and_then(|r| r.strip_prefix(' ')) {
                Some(v) => Ok((n, v.trim())),
                None => Err(ParseError::new(
                    n,
                    format!("expected '{key} <value>', found '{l}'"),
                )),
            },
            None => Err(ParseError::new(
                self.last,
                format!("the file ends before its '{key}' line"),
            )),
        }
    }

    fn number<T: std::str::FromStr>(&mut self, key: &str) -> Result<(usize, T), ParseError> {
        let (n, v) = self.field(key)?;
        let x = v
            .parse()
            .map_err(|_| ParseError::new(n, format!("bad {key} '{v}'")))?;
        Ok((n, x))
    }

    fn hash(&mut self, key: &str) -> Result<(usize, u64), ParseError> {
        let (n, v) = self.field(key)?;
        if v.len() != 16 {
            return Err(ParseError::new(n, format!("bad {key} hash '{v}'")));
        }
        let x = u64::from_str_radix(v, 16)
            .map_err(|_| ParseError::new(n, format!("bad {key} hash '{v}'")))?;
        Ok((n, x))
    }
}

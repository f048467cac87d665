//! The results of one shard, their text form, and the merge of every shard's results.

use super::*;

/// A shard `index/count`, 1-based: `1/4` is the first of four.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1 to `count`.
    pub index: u32,
    /// The number of shards.
    pub count: u32,
}

impl Shard {
    /// A shard, if `1 <= index <= count`.
    pub fn new(index: u32, count: u32) -> Option<Shard> {
        (index >= 1 && index <= count).then_some(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard '{s}': expected I/N with 1 <= I <= N, for example 1/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let i: u32 = i.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(i, n).ok_or_else(bad)
    }
}

/// The count of one task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskResult {
    /// The task's id.
    pub id: usize,
    /// The task's multiplicity.
    pub multiplicity: u64,
    /// The leaves below the task's position (once).
    pub nodes: u64,
}

/// The counts of one shard, identified by the hash of their task list.
#[derive(Clone, Debug)]
pub struct Results {
    /// The task list's hash.
    pub list: u64,
    /// The number of tasks in the whole list.
    pub tasks: usize,
    /// The root's SFEN.
    pub root: String,
    /// The full depth.
    pub depth: u32,
    /// The shard computed.
    pub shard: Shard,
    /// One result per task of the shard.
    pub entries: Vec<TaskResult>,
}

impl Results {
    /// The results as text: header lines, `result <id> <multiplicity> <nodes>` lines, and an
    /// `end <count> <checksum>` line that shows the file is complete.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(32 * (self.entries.len() + 8));
        out.push_str(RESULTS_HEADER);
        out.push_str("\n# Sum with `shogi perft merge FILES...`.\n");
        out.push_str(&format!("list {:016x}\n", self.list));
        out.push_str(&format!("tasks {}\n", self.tasks));
        out.push_str(&format!("root {}\n", self.root));
        out.push_str(&format!("depth {}\n", self.depth));
        out.push_str(&format!("shard {}\n", self.shard));
        let mut h = Fnv::new();
        for e in &self.entries {
            let l = format!("result {} {} {}", e.id, e.multiplicity, e.nodes);
            h.line(&l);
            out.push_str(&l);
            out.push('\n');
        }
        out.push_str(&format!("end {} {:016x}\n", self.entries.len(), h.0));
        out
    }

    /// Reads results written by [`Results::to_text`], checking the `end` line.
    pub fn parse(text: &str) -> Result<Results, ParseError> {
        let mut lines = Lines::new(text);
        lines.expect_header(RESULTS_HEADER, "a perft results file")?;
        let list = lines.hash("list")?.1;
        let tasks = lines.number::<usize>("tasks")?.1;
        let root = lines.field("root")?.1.to_string();
        let depth = lines.number::<u32>("depth")?.1;
        let (sn, sv) = lines.field("shard")?;
        let shard: Shard = sv.parse().map_err(|e| ParseError::new(sn, e))?;
        let mut entries = Vec::new();
        let mut h = Fnv::new();
        loop {
            let Some((n, l)) = lines.next() else {
                return Err(ParseError::new(
                    lines.last,
                    "no 'end' line: the file is truncated (was the run cut short?)",
                ));
            };
            if let Some(rest) = l.strip_prefix("end ") {
                let mut it = rest.split(' ');
                let count: usize = parse_word(it.next(), n, "result count")?;
                let sum = it.next().unwrap_or("");
                if count != entries.len() || u64::from_str_radix(sum, 16).ok() != Some(h.0) {
                    return Err(ParseError::new(
                        n,
                        "the results do not match their 'end' line: the file was damaged or edited",
                    ));
                }
                if let Some((n, l)) = lines.next() {
                    return Err(ParseError::new(
                        n,
                        format!("text after the 'end' line: '{l}'"),
                    ));
                }
                break;
            }
            let rest = l.strip_prefix("result ").ok_or_else(|| {
                ParseError::new(
                    n,
                    format!("expected 'result <id> <multiplicity> <nodes>', found '{l}'"),
                )
            })?;
            let mut it = rest.split(' ');
            let id: usize = parse_word(it.next(), n, "task id")?;
            let multiplicity: u64 = parse_word(it.next(), n, "multiplicity")?;
            let nodes: u64 = parse_word(it.next(), n, "node count")?;
            if it.next().is_some() {
                return Err(ParseError::new(n, format!("extra words in '{l}'")));
            }
            if id == 0 || id > tasks {
                return Err(ParseError::new(
                    n,
                    format!("task id {id} is outside the list's 1 to {tasks}"),
                ));
            }
            h.line(l);
            entries.push(TaskResult {
                id,
                multiplicity,
                nodes,
            });
        }
        Ok(Results {
            list,
            tasks,
            root,
            depth,
            shard,
            entries,
        })
    }
}

/// The sum of a complete set of results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The leaf count from the root.
    pub nodes: u64,
    /// The number of tasks.
    pub tasks: usize,
    /// The root's SFEN.
    pub root: String,
    /// The full depth.
    pub depth: u32,
}

/// Why results could not be merged. Inputs are named by their index in the slice given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No results were given.
    Empty,
    /// Input `other` belongs to another task list than input 0.
    DifferentLists {
        /// The index of the input that differs.
        other: usize,
        /// The hash of input 0's list.
        expected: u64,
        /// The hash of input `other`'s list.
        found: u64,
    },
    /// Tasks appear more than once: `(task id, indexes of the inputs holding it)`.
    Duplicated(Vec<(usize, Vec<usize>)>),
    /// Tasks no input holds, and the shards that should have held them.
    Missing {
        /// Missing task ids.
        ids: Vec<usize>,
        /// The shards (`index/count` of the first input) they belong to.
        shards: Vec<Shard>,
    },
    /// The total does not fit in 64 bits.
    Overflow,
}

fn preview<T: fmt::Display>(items: &[T]) -> String {
    let mut s: Vec<String> = items.iter().take(10).map(|x| x.to_string()).collect();
    if items.len() > 10 {
        s.push(format!("... ({} in all)", items.len()));
    }
    s.join(", ")
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Empty => write!(f, "no results to merge"),
            MergeError::DifferentLists {
                other,
                expected,
                found,
            } => write!(
                f,
                "input {} belongs to task list {found:016x}, input 1 to {expected:016x}: results of different task lists cannot be merged",
                other + 1
            ),
            MergeError::Duplicated(d) => {
                let items: Vec<String> = d
                    .iter()
                    .map(|(id, inputs)| {
                        let ins: Vec<String> = inputs.iter().map(|i| (i + 1).to_string()).collect();
                        format!("task {id} (inputs {})", ins.join(" and "))
                    })
                    .collect();
                write!(f, "{} duplicated task(s): {}", d.len(), preview(&items))
            }
            MergeError::Missing { ids, shards } => write!(
                f,
                "{} missing task(s): {}; run shard(s) {}",
                ids.len(),
                preview(ids),
                preview(shards)
            ),
            MergeError::Overflow => write!(f, "the total does not fit in 64 bits"),
        }
    }
}

impl std::error::Error for MergeError {}

/// Sums results of one task list, in any order, refusing missing and duplicated tasks.
pub fn merge(results: &[Results]) -> Result<Merged, MergeError> {
    let first = results.first().ok_or(MergeError::Empty)?;
    for (i, r) in results.iter().enumerate() {
        if r.list != first.list || r.tasks != first.tasks {
            return Err(MergeError::DifferentLists {
                other: i,
                expected: first.list,
                found: r.list,
            });
        }
    }
    let mut holders: Vec<Vec<usize>> = vec![Vec::new(); first.tasks];
    let mut nodes: u64 = 0;
    let mut overflow = false;
    for (i, r) in results.iter().enumerate() {
        for e in &r.entries {
            holders[e.id - 1].push(i);
            match e
                .multiplicity
                .checked_mul(e.nodes)
                .and_then(|x| x.checked_add(nodes))
            {
                Some(x) => nodes = x,
                None => overflow = true,
            }
        }
    }
    let dups: Vec<(usize, Vec<usize>)> = holders
        .iter()
        .enumerate()
        .filter(|(_, h)| h.len() > 1)
        .map(|(i, h)| (i + 1, h.clone()))
        .collect();
    if !dups.is_empty() {
        return Err(MergeError::Duplicated(dups));
    }
    let missing: Vec<usize> = holders
        .iter()
        .enumerate()
        .filter(|(_, h)| h.is_empty())
        .map(|(i, _)| i + 1)
        .collect();
    if !missing.is_empty() {
        let n = first.shard.count;
        let mut shards: Vec<Shard> = missing
            .iter()
            .map(|&id| Shard {
                index: ((id - 1) % n as usize) as u32 + 1,
                count: n,
            })
            .collect();
        shards.sort_by_key(|s| s.index);
        shards.dedup();
        return Err(MergeError::Missing {
            ids: missing,
            shards,
        });
    }
    if overflow {
        return Err(MergeError::Overflow);
    }
    Ok(Merged {
        nodes,
        tasks: first.tasks,
        root: first.root.clone(),
        depth: first.depth,
    })
}

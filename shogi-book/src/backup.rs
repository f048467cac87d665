//! peta_shock's back-up: minimax of values over the book graph (YaneuraOu's
//! `makebook peta_shock`), with repetitions as draws and perpetual check lost by the checker.

use crate::book::{Book, BookMove, Entry, flip_position};
use shogi_core::{Move, Position};
use shogi_train::PositionFormat;
use std::cmp::Ordering;
use std::collections::HashMap;

/// YaneuraOu's mate value, the bound of every value.
pub const VALUE_MATE: i32 = 32000;
/// The depth of a draw by repetition (and the cap of every depth).
pub const DEPTH_DRAW: i32 = 9999;
/// The depth that marks a move giving check into a perpetual-check loop.
pub const DEPTH_PERPETUAL: i32 = 9997;
const STEP_I_PASSES: usize = 256;
const STEP_IV_SWEEPS: usize = 356;

/// A value with the depth behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Score {
    value: i32,
    depth: i32,
}

impl Score {
    /// Whether `self` is better than `other` for the side choosing: a higher value; at equal
    /// values a shorter depth when winning or level, a longer one when losing; the
    /// perpetual-check marker never wins a tie.
    fn better(self, other: Score) -> bool {
        match self.value.cmp(&other.value) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => {
                if self.depth == DEPTH_PERPETUAL || other.depth == DEPTH_PERPETUAL {
                    return other.depth == DEPTH_PERPETUAL && self.depth != DEPTH_PERPETUAL;
                }
                if self.value >= 0 {
                    self.depth < other.depth
                } else {
                    self.depth > other.depth
                }
            }
        }
    }

    /// What a parent sees of a child whose best is `self`.
    fn to_parent(self) -> Score {
        Score {
            value: -self.value,
            depth: (self.depth + 1).min(DEPTH_DRAW),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Node(usize),
    Leaf(Score),
}

struct Node {
    key: String,
    ply: Option<u32>,
    in_check: bool,
    edges: Vec<(Move, Target)>,
}

/// What [`backup`] found besides the values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BackupReport {
    /// Nodes (a position and its flipped twin count once).
    pub nodes: usize,
    /// Legal moves that reach another book position without being listed for it.
    pub converged_moves: usize,
    /// Nodes resolved by retrograde analysis (step I: no cycle below them).
    pub acyclic: usize,
    /// Nodes on perpetual-check loops.
    pub check_loop: usize,
    /// Sweeps of step IV until nothing changed.
    pub sweeps: usize,
}

/// The packed key of a position in one orientation.
fn packed(pos: &Position) -> Option<[u8; 32]> {
    PositionFormat::PackedSfen.encode_to_array(pos).ok()
}

/// Backs values up over the book graph as `makebook peta_shock` does and returns the new
/// book: each position keeps its SFEN, orientation and ply; its moves are every legal move
/// reaching another book position (listed or not) and its listed moves leaving the book
/// (which keep their value, with depth 0), best first, each `value depth` as peta_shock
/// writes them (no ponder, count 1). A position and its flipped twin are one node; the later
/// of the two in key order is kept.
pub fn backup(book: &Book) -> (Book, BackupReport) {
    let mut report = BackupReport::default();
    let mut index: HashMap<[u8; 32], usize> = HashMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut positions: Vec<Position> = Vec::new();
    let mut inputs: Vec<&Entry> = Vec::new();
    for (key, entry) in book.iter() {
        let Ok(pos) = Position::from_sfen(key) else {
            continue;
        };
        let (Some(a), Some(b)) = (packed(&pos), packed(&flip_position(&pos))) else {
            continue;
        };
        let id = match index.get(&a).or_else(|| index.get(&b)) {
            Some(&id) => id,
            None => {
                nodes.push(Node {
                    key: String::new(),
                    ply: None,
                    in_check: false,
                    edges: Vec::new(),
                });
                positions.push(pos.clone());
                inputs.push(entry);
                nodes.len() - 1
            }
        };
        index.insert(a, id);
        index.insert(b, id);
        nodes[id].key = key.to_string();
        nodes[id].ply = entry.ply;
        nodes[id].in_check = pos.is_check();
        positions[id] = pos;
        inputs[id] = entry;
    }
    report.nodes = nodes.len();
    for (id, node) in nodes.iter_mut().enumerate() {
        let pos = &positions[id];
        for &mv in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let listed = inputs[id].moves.iter().find(|m| m.mv == mv);
            match packed(&child).and_then(|k| index.get(&k)) {
                Some(&c) => {
                    report.converged_moves += usize::from(listed.is_none());
                    node.edges.push((mv, Target::Node(c)));
                }
                None => {
                    if let Some(m) = listed {
                        let value = m.value.clamp(-VALUE_MATE, VALUE_MATE);
                        node.edges
                            .push((mv, Target::Leaf(Score { value, depth: 0 })));
                    }
                }
            }
        }
    }
    let (values, loops) = solve(&nodes, &mut report);
    (write_out(&nodes, &values, &loops, book), report)
}

/// The score of an edge given the current node values.
fn edge_score(
    t: Target,
    values: &[Option<Score>],
    loops: &[bool],
    nodes: &[Node],
) -> Option<Score> {
    match t {
        Target::Leaf(s) => Some(s),
        Target::Node(c) => values[c].map(|v| {
            let mut s = v.to_parent();
            if loops[c] && nodes[c].in_check {
                s.depth = DEPTH_PERPETUAL;
            }
            s
        }),
    }
}

fn best_of(node: &Node, values: &[Option<Score>], loops: &[bool], nodes: &[Node]) -> Option<Score> {
    let mut best: Option<Score> = None;
    for &(_, t) in &node.edges {
        let s = edge_score(t, values, loops, nodes)?;
        if best.is_none_or(|b| s.better(b)) {
            best = Some(s);
        }
    }
    best
}

/// Steps I to IV: the value of every node.
fn solve(nodes: &[Node], report: &mut BackupReport) -> (Vec<Score>, Vec<bool>) {
    let n = nodes.len();
    let mut values: Vec<Option<Score>> = vec![None; n];
    let no_loops = vec![false; n];
    // Step I: retrograde analysis of the acyclic part.
    for _ in 0..STEP_I_PASSES {
        let mut changed = false;
        for (i, node) in nodes.iter().enumerate() {
            if values[i].is_none() && !node.edges.is_empty() {
                if let Some(b) = best_of(node, &values, &no_loops, nodes) {
                    values[i] = Some(b);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    report.acyclic = values.iter().filter(|v| v.is_some()).count();
    // Step II: perpetual-check loops among the unresolved nodes.
    let unresolved: Vec<bool> = values.iter().map(Option::is_none).collect();
    let children = |i: usize| {
        nodes[i].edges.iter().filter_map(|&(_, t)| match t {
            Target::Node(c) => Some(c),
            Target::Leaf(_) => None,
        })
    };
    let mut in_set: Vec<bool> = (0..n).map(|i| unresolved[i] && nodes[i].in_check).collect();
    loop {
        let mut changed = false;
        for i in 0..n {
            if in_set[i] && !children(i).any(|x| children(x).any(|y| in_set[y])) {
                in_set[i] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut loops = in_set.clone();
    for i in (0..n).filter(|&i| in_set[i]) {
        for x in children(i) {
            if children(x).any(|y| in_set[y]) {
                loops[x] = true;
            }
        }
    }
    report.check_loop = loops.iter().filter(|&&l| l).count();
    // Step III: cycles start as draws; check loops as a loss for the checking side.
    for i in 0..n {
        if values[i].is_none() {
            let value = match (loops[i], nodes[i].in_check) {
                (false, _) => 0,
                (true, true) => VALUE_MATE,
                (true, false) => -VALUE_MATE,
            };
            values[i] = Some(Score {
                value,
                depth: DEPTH_DRAW,
            });
        }
    }
    // Step IV: sweeps over the nodes on cycles until nothing changes.
    for sweep in 0..STEP_IV_SWEEPS {
        let mut changed = false;
        for i in (0..n).filter(|&i| unresolved[i]) {
            if let Some(mut b) = best_of(&nodes[i], &values, &loops, nodes) {
                if b.depth > 256 {
                    b.depth = DEPTH_DRAW;
                }
                if values[i] != Some(b) {
                    values[i] = Some(b);
                    changed = true;
                }
            }
        }
        report.sweeps = sweep + 1;
        if !changed {
            break;
        }
    }
    let values = values
        .into_iter()
        .map(|v| {
            v.unwrap_or(Score {
                value: 0,
                depth: DEPTH_DRAW,
            })
        })
        .collect();
    (values, loops)
}

fn write_out(nodes: &[Node], values: &[Score], loops: &[bool], book: &Book) -> Book {
    let vals: Vec<Option<Score>> = values.iter().copied().map(Some).collect();
    let mut out = Book::new();
    out.header_comments = book.header_comments.clone();
    for node in nodes {
        let mut scored: Vec<(Move, Score)> = node
            .edges
            .iter()
            .filter_map(|&(mv, t)| edge_score(t, &vals, loops, nodes).map(|s| (mv, s)))
            .collect();
        scored.sort_by(|a, b| {
            if a.1.better(b.1) {
                Ordering::Less
            } else if b.1.better(a.1) {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        });
        let best = scored.first().map(|s| s.1);
        let moves = scored
            .iter()
            .enumerate()
            .map(|(i, &(mv, s))| {
                let mut value = s.value;
                if i > 0 && best.is_some_and(|b| b.value == s.value && b.depth != s.depth) {
                    value -= 1;
                }
                BookMove {
                    mv,
                    ponder: None,
                    value,
                    depth: s.depth,
                    count: 1,
                }
            })
            .collect();
        out.insert_key(
            node.key.clone(),
            Entry {
                ply: node.ply,
                moves,
                comments: Vec::new(),
            },
        );
    }
    out
}

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
    // Every input position, with its node; the node's edges are those of its last member.
    let mut members: Vec<(Node, Position, &Entry, usize)> = Vec::new();
    let mut reps: Vec<usize> = Vec::new();
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
                reps.push(0);
                reps.len() - 1
            }
        };
        index.insert(a, id);
        index.insert(b, id);
        reps[id] = members.len();
        let node = Node {
            key: key.to_string(),
            ply: entry.ply,
            in_check: pos.is_check(),
            edges: Vec::new(),
        };
        members.push((node, pos, entry, id));
    }
    report.nodes = reps.len();
    for (node, pos, entry, _) in members.iter_mut() {
        node.edges = edges(pos, entry, &index);
    }
    for &r in &reps {
        let (node, _, entry, _) = &members[r];
        report.converged_moves += node
            .edges
            .iter()
            .filter(|(mv, t)| {
                matches!(t, Target::Node(_)) && !entry.moves.iter().any(|m| m.mv == *mv)
            })
            .count();
    }
    let nodes: Vec<Node> = reps
        .iter()
        .map(|&r| {
            let n = &members[r].0;
            Node {
                key: n.key.clone(),
                ply: n.ply,
                in_check: n.in_check,
                edges: n.edges.clone(),
            }
        })
        .collect();
    let (vd, loops) = solve(&nodes, &mut report);
    let outputs: Vec<Node> = members.into_iter().map(|m| m.0).collect();
    (write_out(&outputs, &nodes, &vd, &loops, book), report)
}

/// The edges of a position as `makebook peta_shock` makes them: every legal move reaching a
/// book position, in move generation order, then the listed moves leaving the book, in the
/// book's order, as leaves with their value and depth 0. Moves of equal value and depth keep
/// this order in the output (YaneuraOu's order among them follows its own move generator).
fn edges(pos: &Position, entry: &Entry, index: &HashMap<[u8; 32], usize>) -> Vec<(Move, Target)> {
    let mut out = Vec::new();
    for &mv in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        if let Some(&c) = packed(&child).and_then(|k| index.get(&k)) {
            out.push((mv, Target::Node(c)));
        }
    }
    for m in &entry.moves {
        if out.iter().any(|(mv, _)| *mv == m.mv) || !pos.is_legal(m.mv) {
            continue;
        }
        let value = m.value.clamp(-VALUE_MATE, VALUE_MATE);
        out.push((m.mv, Target::Leaf(Score { value, depth: 0 })));
    }
    out
}

/// YaneuraOu's "minus infinity" of a node's best before any move is seen (an `s16`'s max).
const VALUE_INF: i32 = 32767;
/// The depth marking a repetition reached by the checked side in a perpetual-check loop.
const DEPTH_PERPETUAL_CHECKED: i32 = 9998;
/// Depths above this are repetitions (YaneuraOu's BOOK_MAX_PLY).
const MAX_PLY: i32 = 256;

/// The score of an edge for the mover, given each node's score as its parents see it.
fn edge_score(t: Target, vd: &[Score]) -> Score {
    match t {
        Target::Leaf(s) => s,
        Target::Node(c) => vd[c],
    }
}

/// The node's score as its parents see it: the best of its edges, negated, one ply deeper.
fn best_for_parent(node: &Node, vd: &[Score]) -> Score {
    let mut best = Score {
        value: -VALUE_INF,
        depth: DEPTH_DRAW,
    };
    for &(_, t) in &node.edges {
        let s = edge_score(t, vd);
        if s.better(best) {
            best = s;
        }
    }
    best.to_parent()
}

fn children(node: &Node) -> impl Iterator<Item = usize> + '_ {
    node.edges.iter().filter_map(|&(_, t)| match t {
        Target::Node(c) => Some(c),
        Target::Leaf(_) => None,
    })
}

/// Steps I to IV: each node's score as its parents see it, and which nodes are on
/// perpetual-check loops.
fn solve(nodes: &[Node], report: &mut BackupReport) -> (Vec<Score>, Vec<bool>) {
    let n = nodes.len();
    let mut vd = vec![
        Score {
            value: 0,
            depth: DEPTH_DRAW
        };
        n
    ];
    // Step I: nodes all of whose moves reach leaves or resolved nodes, pass after pass.
    let mut resolved = vec![false; n];
    for _ in 0..STEP_I_PASSES {
        let mut count = 0;
        for i in 0..n {
            if !resolved[i] && children(&nodes[i]).all(|c| resolved[c]) {
                vd[i] = best_for_parent(&nodes[i], &vd);
                resolved[i] = true;
                count += 1;
            }
        }
        if count == 0 {
            break;
        }
    }
    report.acyclic = resolved.iter().filter(|&&r| r).count();
    let check_loop = check_loops(nodes);
    report.check_loop = check_loop.iter().filter(|&&l| l).count();
    // Step III: cycles start as draws, perpetual-check loops as a loss for the checker.
    for i in (0..n).filter(|&i| !resolved[i]) {
        let value = match (check_loop[i], nodes[i].in_check) {
            (false, _) => 0,
            (true, true) => -VALUE_MATE,
            (true, false) => VALUE_MATE,
        };
        vd[i] = Score {
            value,
            depth: DEPTH_DRAW,
        };
    }
    // Step IV: sweeps over the other nodes on cycles, then a search of each check loop.
    let loop_nodes: Vec<usize> = (0..n).filter(|&i| check_loop[i]).collect();
    let mut trajectory = vec![false; n];
    for sweep in 0..STEP_IV_SWEEPS {
        let mut updated = 0;
        for i in 0..n {
            if resolved[i] || check_loop[i] {
                continue;
            }
            let mut best = best_for_parent(&nodes[i], &vd);
            if best.depth > MAX_PLY {
                best.depth = DEPTH_DRAW;
            }
            updated += usize::from(vd[i] != best);
            vd[i] = best;
        }
        for &l in &loop_nodes {
            vd[l] = loop_search(l, nodes, &vd, &check_loop, &mut trajectory);
        }
        report.sweeps = sweep + 1;
        if updated == 0 {
            break;
        }
    }
    (vd, check_loop)
}

/// Step II: the nodes on perpetual-check loops. Nodes in check stay while a node two plies
/// ahead is still in the set; then the nodes between two of them join.
fn check_loops(nodes: &[Node]) -> Vec<bool> {
    let mut check_loop: Vec<bool> = nodes.iter().map(|n| n.in_check).collect();
    for _ in 0..MAX_PLY {
        let mut updated = 0;
        for i in 0..nodes.len() {
            if check_loop[i]
                && !children(&nodes[i]).any(|x| children(&nodes[x]).any(|y| check_loop[y]))
            {
                check_loop[i] = false;
                updated += 1;
            }
        }
        if updated == 0 {
            break;
        }
    }
    let checked: Vec<usize> = (0..nodes.len()).filter(|&i| check_loop[i]).collect();
    for i in checked {
        for x in children(&nodes[i]) {
            if children(&nodes[x]).any(|y| check_loop[y]) {
                check_loop[x] = true;
            }
        }
    }
    check_loop
}

/// The score (as the parent sees it) of a node on a check loop, searched depth-first through
/// the loop: coming back to a node on the path is perpetual check, lost by the checker.
fn loop_search(
    i: usize,
    nodes: &[Node],
    vd: &[Score],
    check_loop: &[bool],
    trajectory: &mut [bool],
) -> Score {
    if !check_loop[i] {
        return vd[i];
    }
    if trajectory[i] {
        return if nodes[i].in_check {
            Score {
                value: -VALUE_MATE,
                depth: DEPTH_PERPETUAL,
            }
        } else {
            Score {
                value: VALUE_MATE,
                depth: DEPTH_PERPETUAL_CHECKED,
            }
        };
    }
    trajectory[i] = true;
    let mut best = Score {
        value: -VALUE_INF,
        depth: 0,
    };
    for &(_, t) in &nodes[i].edges {
        let s = match t {
            Target::Leaf(s) => s,
            Target::Node(c) => loop_search(c, nodes, vd, check_loop, trajectory),
        };
        if s.better(best) {
            best = s;
        }
    }
    trajectory[i] = false;
    best.to_parent()
}

fn write_out(outputs: &[Node], nodes: &[Node], vd: &[Score], loops: &[bool], book: &Book) -> Book {
    let mut out = Book::new();
    out.header_comments = book.header_comments.clone();
    for node in outputs {
        let mut scored: Vec<(Move, Score)> = node
            .edges
            .iter()
            .map(|&(mv, t)| {
                let mut s = edge_score(t, vd);
                if let Target::Node(c) = t {
                    if loops[c] && nodes[c].in_check {
                        s.depth = DEPTH_PERPETUAL;
                    }
                }
                (mv, s)
            })
            .collect();
        // Best first; an insertion sort, stable, as `better` is no total order.
        for i in 1..scored.len() {
            let mut j = i;
            while j > 0 && scored[j].1.better(scored[j - 1].1) {
                scored.swap(j, j - 1);
                j -= 1;
            }
        }
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

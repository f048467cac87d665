//! peta_shock's back-up: minimax of values over the book graph (YaneuraOu's
//! `makebook peta_shock`), with repetitions as draws and perpetual check lost by the checker.
//!
//! The graph is compact: each node is one 32-byte packed key (the White-to-move orientation
//! of a position and its flipped twin) in an open-addressing table of `u32` indices, and each
//! edge is a move and a `u32` (a node, or a leaf's value). The positions' SFENs are not held:
//! the book is read three times (keys, edges, output), so memory is about
//! [`BYTES_PER_POSITION`] per position plus [`BYTES_PER_EDGE`] per move.

use crate::book::{Book, BookMove, Entry, flip_move, flip_position};
use crate::error::BookError;
use shogi_core::{Color, Move, Position};
use shogi_train::PositionFormat;
use std::cmp::Ordering;

/// YaneuraOu's mate value, the bound of every value.
pub const VALUE_MATE: i32 = 32000;
/// The depth of a draw by repetition (and the cap of every depth).
pub const DEPTH_DRAW: i32 = 9999;
/// The depth that marks a move giving check into a perpetual-check loop.
pub const DEPTH_PERPETUAL: i32 = 9997;
/// Bytes [`backup_stream`] holds per position (node), at most: its key (32), its slots in
/// the table (at most 16 at the lowest load, 8 on average), its member entries (12), its
/// score and flags (12), the table's and the arrays' growth aside.
pub const BYTES_PER_POSITION: usize = 72;
/// Bytes [`backup_stream`] holds per edge (a legal move to another book position or a listed
/// move leaving the book).
pub const BYTES_PER_EDGE: usize = 8;
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

/// YaneuraOu's "minus infinity" of a node's best before any move is seen (an `s16`'s max).
const VALUE_INF: i32 = 32767;
/// The depth marking a repetition reached by the checked side in a perpetual-check loop.
const DEPTH_PERPETUAL_CHECKED: i32 = 9998;
/// Depths above this are repetitions (YaneuraOu's BOOK_MAX_PLY).
const MAX_PLY: i32 = 256;

/// Edge targets from here up are leaves: `LEAF + VALUE_MATE + value`, the value in
/// `-VALUE_MATE..=VALUE_MATE`; below it, nodes.
const LEAF: u32 = u32::MAX - 2 * VALUE_MATE as u32;

fn leaf(value: i32) -> u32 {
    LEAF + (value.clamp(-VALUE_MATE, VALUE_MATE) + VALUE_MATE) as u32
}

/// A node's target, if the edge reaches a node.
fn node_of(t: u32) -> Option<usize> {
    (t < LEAF).then_some(t as usize)
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
    /// Positions left out: their SFEN is no standard shogi position (as peta_shock, which
    /// cannot set them up).
    pub unreadable: usize,
}

/// The packed key of a position in one orientation.
fn packed(pos: &Position) -> Option<[u8; 32]> {
    PositionFormat::PackedSfen.encode_to_array(pos).ok()
}

/// The node key of a position: the packed key of its White-to-move orientation, shared with
/// its flipped twin (as peta_shock keys its nodes).
fn node_key(pos: &Position) -> Option<[u8; 32]> {
    match pos.side_to_move() {
        Color::White => packed(pos),
        Color::Black => packed(&flip_position(pos)),
    }
}

const EMPTY: u32 = u32::MAX;

/// Node keys numbered in order of first insertion: the keys in one array and an
/// open-addressing table (linear probing, at most 3/4 full) of their numbers.
struct KeyIndex {
    keys: Vec<[u8; 32]>,
    slots: Vec<u32>,
}

fn hash(key: &[u8; 32]) -> usize {
    let mut h: u64 = 0;
    for c in key.chunks_exact(8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h ^ u64::from_le_bytes(w))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    (h ^ (h >> 32)) as usize
}

impl KeyIndex {
    fn new() -> KeyIndex {
        KeyIndex {
            keys: Vec::new(),
            slots: vec![EMPTY; 64],
        }
    }

    /// The slot of `key`: where it is, or the empty slot where it would go.
    fn slot(&self, key: &[u8; 32]) -> (usize, Option<u32>) {
        let mask = self.slots.len() - 1;
        let mut i = hash(key) & mask;
        loop {
            match self.slots[i] {
                EMPTY => return (i, None),
                s if self.keys[s as usize] == *key => return (i, Some(s)),
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn get(&self, key: &[u8; 32]) -> Option<u32> {
        self.slot(key).1
    }

    /// The number of `key`, a new one (the next) when it is new; `None` when the numbers
    /// would reach the leaves'.
    fn insert(&mut self, key: [u8; 32]) -> Option<u32> {
        if let (_, Some(id)) = self.slot(&key) {
            return Some(id);
        }
        let id = u32::try_from(self.keys.len())
            .ok()
            .filter(|&id| id < LEAF)?;
        if (self.keys.len() + 1) * 4 > self.slots.len() * 3 {
            let mut slots = vec![EMPTY; self.slots.len() * 2];
            let mask = slots.len() - 1;
            for (n, k) in self.keys.iter().enumerate() {
                let mut i = hash(k) & mask;
                while slots[i] != EMPTY {
                    i = (i + 1) & mask;
                }
                slots[i] = n as u32;
            }
            self.slots = slots;
        }
        let (i, _) = self.slot(&key);
        self.keys.push(key);
        self.slots[i] = id;
        Some(id)
    }
}

/// The book graph: each book position (member) with its edges, and each node with the
/// member whose edges it takes (the last of a position and its flipped twin).
struct Graph {
    /// Each member's first edge in `edges`, and one past the last member's last.
    start: Vec<u32>,
    /// Moves with their target: a node, or a leaf's value ([`leaf`]).
    edges: Vec<(Move, u32)>,
    rep: Vec<u32>,
    in_check: Vec<bool>,
}

impl Graph {
    fn member_edges(&self, m: usize) -> &[(Move, u32)] {
        &self.edges[self.start[m] as usize..self.start[m + 1] as usize]
    }

    fn edges(&self, node: usize) -> &[(Move, u32)] {
        self.member_edges(self.rep[node] as usize)
    }

    fn children(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        self.edges(node).iter().filter_map(|&(_, t)| node_of(t))
    }

    fn len(&self) -> usize {
        self.rep.len()
    }
}

/// A book read position by position, as many times as asked: each call passes every
/// position (its key and entry) to the sink, in the same order each time.
pub type BookPass<'a> =
    dyn FnMut(&mut dyn FnMut(&str, &Entry) -> Result<(), BookError>) -> Result<(), BookError> + 'a;

/// Backs values up over the book graph as `makebook peta_shock` does; returns the new
/// book: each position keeps its SFEN, orientation and ply; its moves are every legal move
/// reaching another book position (listed or not) and its listed moves leaving the book
/// (which keep their value, with depth 0), best first, each `value depth` as peta_shock
/// writes them (no ponder, count 1). A position and its flipped twin are one node; the
/// moves of the later of the two in key order make the node's.
///
/// ```
/// use shogi_book::{backup, read_text, ReadOptions};
/// let after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
/// let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
/// let text = format!("#YANEURAOU-DB2016 1.00\nsfen {after} 2\n3c3d none 40 0 1\n\
///     sfen {start} 1\n7g7f none 0 0 1\n");
/// let (book, _) = read_text(text.as_bytes(), "b.db", ReadOptions::default())?;
/// let (out, report) = backup(&book);
/// assert_eq!(report.nodes, 2);
/// let best = out.get(start).unwrap().moves[0];
/// // The reply is worth 40 to White: 7g7f is worth -40 to Black, one ply deeper.
/// assert_eq!((best.value, best.depth), (-40, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn backup(book: &Book) -> (Book, BackupReport) {
    let mut out = Book::new();
    out.header_comments = book.header_comments.clone();
    let mut read = |sink: &mut dyn FnMut(&str, &Entry) -> Result<(), BookError>| {
        book.iter().try_for_each(|(k, e)| sink(k, e))
    };
    let mut emit = |key: &str, entry: Entry| {
        out.insert_key(key.to_string(), entry);
        Ok(())
    };
    // Neither the book nor the output can fail, and the book cannot change between passes.
    let report = backup_stream("book", &mut read, &mut emit).unwrap_or_default();
    (out, report)
}

/// [`backup`] of a book too large to hold: `read` passes over the book three times (the
/// node keys, the edges, the output), and `emit` takes each position of the new book in
/// the book's order. Memory is about [`BYTES_PER_POSITION`] per position and
/// [`BYTES_PER_EDGE`] per edge, whatever the SFENs and entries; errors of `read` and `emit`
/// stop it, and a book that changed between passes is an error naming `file`.
pub fn backup_stream(
    file: &str,
    read: &mut BookPass<'_>,
    emit: &mut dyn FnMut(&str, Entry) -> Result<(), BookError>,
) -> Result<BackupReport, BookError> {
    let mut report = BackupReport::default();
    let changed = || BookError::file(file, "the book changed while it was backed up");
    // Pass 1: the nodes, numbered in order of first appearance; each node's member is the last.
    let mut index = KeyIndex::new();
    let (mut rep, mut in_check) = (Vec::new(), Vec::new());
    let mut skipped: Vec<u64> = Vec::new();
    let mut records = 0u64;
    let mut members = 0u32;
    read(&mut |key, _| {
        records += 1;
        let Some((pos, k)) = Position::from_sfen(key)
            .ok()
            .and_then(|p| node_key(&p).map(|k| (p, k)))
        else {
            skipped.push(records - 1);
            return Ok(());
        };
        let too_many = || BookError::file(file, "too many positions for a back-up (4 billion)");
        let id = index.insert(k).ok_or_else(too_many)? as usize;
        if id == rep.len() {
            rep.push(0);
            in_check.push(false);
        }
        rep[id] = members;
        in_check[id] = pos.is_check();
        members = members.checked_add(1).ok_or_else(too_many)?;
        Ok(())
    })?;
    index.keys.shrink_to_fit();
    rep.shrink_to_fit();
    in_check.shrink_to_fit();
    report.nodes = rep.len();
    report.unreadable = skipped.len();
    let mut is_rep = vec![false; members as usize];
    for &r in &rep {
        is_rep[r as usize] = true;
    }
    // Pass 2: every member's edges.
    let mut graph = Graph {
        start: Vec::with_capacity(members as usize + 1),
        edges: Vec::new(),
        rep,
        in_check,
    };
    graph.start.push(0);
    let mut m = 0usize;
    let mut record = 0u64;
    let mut skip = skipped.iter().copied().peekable();
    read(&mut |key, entry| {
        record += 1;
        if skip.next_if_eq(&(record - 1)).is_some() {
            return Ok(());
        }
        let pos = Position::from_sfen(key).map_err(|_| changed())?;
        let before = graph.edges.len();
        push_edges(&pos, entry, &index, &mut graph.edges);
        if *is_rep.get(m).ok_or_else(changed)? {
            report.converged_moves += graph.edges[before..]
                .iter()
                .filter(|&&(mv, t)| t < LEAF && !entry.moves.iter().any(|b| b.mv == mv))
                .count();
        }
        let end = u32::try_from(graph.edges.len())
            .map_err(|_| BookError::file(file, "too many moves for a back-up (4 billion)"))?;
        graph.start.push(end);
        m += 1;
        Ok(())
    })?;
    if m != members as usize {
        return Err(changed());
    }
    drop((index, is_rep));
    graph.edges.shrink_to_fit();
    let (vd, loops) = solve(&graph, &mut report);
    // Pass 3: each member's moves, scored and sorted.
    let (mut m, mut record) = (0usize, 0u64);
    let mut skip = skipped.iter().copied().peekable();
    read(&mut |key, entry| {
        record += 1;
        if skip.next_if_eq(&(record - 1)).is_some() {
            return Ok(());
        }
        if m >= members as usize {
            return Err(changed());
        }
        let moves = scored_moves(&graph, m, &vd, &loops);
        m += 1;
        emit(
            key,
            Entry {
                ply: entry.ply,
                moves,
                comments: Vec::new(),
            },
        )
    })?;
    Ok(report)
}

/// The edges of a position as `makebook peta_shock` makes them: every legal move reaching a
/// book position, in move generation order, then the listed moves leaving the book, in the
/// book's order, as leaves with their value (and depth 0). Moves of equal value and depth
/// keep this order in the output (YaneuraOu's order among them follows its own move
/// generator). The children of a White-to-move position are looked up by playing the flipped
/// move in the flipped position (their keys' orientation).
fn push_edges(pos: &Position, entry: &Entry, index: &KeyIndex, out: &mut Vec<(Move, u32)>) {
    let first = out.len();
    let flipped = (pos.side_to_move() == Color::White).then(|| flip_position(pos));
    for &mv in pos.legal_moves().iter() {
        let key = match &flipped {
            None => {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                packed(&child)
            }
            Some(f) => {
                let mut child = f.clone();
                child.play_unchecked(flip_move(mv));
                packed(&child)
            }
        };
        if let Some(c) = key.and_then(|k| index.get(&k)) {
            out.push((mv, c));
        }
    }
    for m in &entry.moves {
        if out[first..].iter().any(|&(mv, _)| mv == m.mv) || !pos.is_legal(m.mv) {
            continue;
        }
        out.push((m.mv, leaf(m.value)));
    }
}

/// The score of an edge for the mover, given each node's score as its parents see it.
fn edge_score(t: u32, vd: &[Score]) -> Score {
    match node_of(t) {
        Some(c) => vd[c],
        None => Score {
            value: (t - LEAF) as i32 - VALUE_MATE,
            depth: 0,
        },
    }
}

/// The node's score as its parents see it: the best of its edges, negated, one ply deeper.
fn best_for_parent(graph: &Graph, node: usize, vd: &[Score]) -> Score {
    let mut best = Score {
        value: -VALUE_INF,
        depth: DEPTH_DRAW,
    };
    for &(_, t) in graph.edges(node) {
        let s = edge_score(t, vd);
        if s.better(best) {
            best = s;
        }
    }
    best.to_parent()
}

/// Steps I to IV: each node's score as its parents see it, and which nodes are on
/// perpetual-check loops.
fn solve(graph: &Graph, report: &mut BackupReport) -> (Vec<Score>, Vec<bool>) {
    let n = graph.len();
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
            if !resolved[i] && graph.children(i).all(|c| resolved[c]) {
                vd[i] = best_for_parent(graph, i, &vd);
                resolved[i] = true;
                count += 1;
            }
        }
        if count == 0 {
            break;
        }
    }
    report.acyclic = resolved.iter().filter(|&&r| r).count();
    let check_loop = check_loops(graph);
    report.check_loop = check_loop.iter().filter(|&&l| l).count();
    // Step III: cycles start as draws, perpetual-check loops as a loss for the checker.
    for i in (0..n).filter(|&i| !resolved[i]) {
        let value = match (check_loop[i], graph.in_check[i]) {
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
            let mut best = best_for_parent(graph, i, &vd);
            if best.depth > MAX_PLY {
                best.depth = DEPTH_DRAW;
            }
            updated += usize::from(vd[i] != best);
            vd[i] = best;
        }
        for &l in &loop_nodes {
            vd[l] = loop_search(l, graph, &vd, &check_loop, &mut trajectory);
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
fn check_loops(graph: &Graph) -> Vec<bool> {
    let mut check_loop: Vec<bool> = graph.in_check.clone();
    for _ in 0..MAX_PLY {
        let mut updated = 0;
        for i in 0..graph.len() {
            if check_loop[i]
                && !graph
                    .children(i)
                    .any(|x| graph.children(x).any(|y| check_loop[y]))
            {
                check_loop[i] = false;
                updated += 1;
            }
        }
        if updated == 0 {
            break;
        }
    }
    let checked: Vec<usize> = (0..graph.len()).filter(|&i| check_loop[i]).collect();
    for i in checked {
        for x in graph.children(i) {
            if graph.children(x).any(|y| check_loop[y]) {
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
    graph: &Graph,
    vd: &[Score],
    check_loop: &[bool],
    trajectory: &mut [bool],
) -> Score {
    if !check_loop[i] {
        return vd[i];
    }
    if trajectory[i] {
        return if graph.in_check[i] {
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
    for &(_, t) in graph.edges(i) {
        let s = match node_of(t) {
            None => edge_score(t, vd),
            Some(c) => loop_search(c, graph, vd, check_loop, trajectory),
        };
        if s.better(best) {
            best = s;
        }
    }
    trajectory[i] = false;
    best.to_parent()
}

/// The moves of member `m` as peta_shock writes them: best first, a move that gives check
/// into a perpetual-check loop at depth [`DEPTH_PERPETUAL`], a move of the best value but
/// another depth one point lower.
fn scored_moves(graph: &Graph, m: usize, vd: &[Score], loops: &[bool]) -> Vec<BookMove> {
    let mut scored: Vec<(Move, Score)> = graph
        .member_edges(m)
        .iter()
        .map(|&(mv, t)| {
            let mut s = edge_score(t, vd);
            if node_of(t).is_some_and(|c| loops[c] && graph.in_check[c]) {
                s.depth = DEPTH_PERPETUAL;
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
    scored
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
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_index_numbers_keys_in_order_through_its_growth() {
        let mut index = KeyIndex::new();
        let key = |i: u32| {
            let mut k = [0u8; 32];
            k[..4].copy_from_slice(&i.to_le_bytes());
            k[31] = 7;
            k
        };
        for i in 0..10_000 {
            assert_eq!(index.insert(key(i)), Some(i));
        }
        assert_eq!(index.insert(key(1234)), Some(1234));
        assert!((0..10_000).all(|i| index.get(&key(i)) == Some(i)));
        assert_eq!(index.get(&key(10_000)), None);
        assert!(index.slots.len() * 3 >= index.keys.len() * 4);
        // The stated bound of an edge is its size.
        assert_eq!(std::mem::size_of::<(Move, u32)>(), BYTES_PER_EDGE);
        assert_eq!((leaf(-VALUE_MATE), leaf(VALUE_MATE)), (LEAF, u32::MAX));
        let s = edge_score(leaf(-123), &[]);
        assert_eq!((s.value, s.depth, node_of(leaf(0))), (-123, 0, None));
    }
}

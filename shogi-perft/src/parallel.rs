//! Perft over rayon's thread pool.
//!
//! The tree is cut below the root into units (whole subtrees) until there are enough of them to
//! keep every thread busy, even where the root has few moves; each unit is then counted on one
//! thread with bulk counting. The functions run on the current rayon pool: wrap a call in
//! [`rayon::ThreadPool::install`] to choose the number of threads.

use crate::counters::{self, Counters};
use crate::serial::{self, sort_by_usi};
use rayon::prelude::*;
use shogi_core::{Move, Position};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A progress callback: called with the units done and the units in all after each unit.
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Units per thread to aim for when cutting the tree: enough that uneven subtrees even out.
const UNITS_PER_THREAD: usize = 64;

/// A subtree to count: `depth` plies below `pos`, which lies below root move number `root`.
struct Unit {
    root: usize,
    pos: Position,
    depth: u32,
}

/// The root moves and the units the tree below them is cut into (`depth` ≥ 1).
fn cut(pos: &Position, depth: u32) -> (Vec<Move>, Vec<Unit>) {
    let roots: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let mut units: Vec<Unit> = roots
        .iter()
        .enumerate()
        .map(|(root, &m)| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            Unit {
                root,
                pos: child,
                depth: depth - 1,
            }
        })
        .collect();
    let want = UNITS_PER_THREAD * rayon::current_num_threads();
    // Keep at least two plies in each unit so that bulk counting still pays.
    while units.len() < want && units.first().is_some_and(|u| u.depth > 2) {
        let mut next = Vec::with_capacity(units.len() * 32);
        for u in &units {
            u.pos.for_each_legal_move(|m| {
                let mut child = u.pos.clone();
                child.play_unchecked(m);
                next.push(Unit {
                    root: u.root,
                    pos: child,
                    depth: u.depth - 1,
                });
            });
        }
        units = next;
    }
    (roots, units)
}

/// Counts every unit with `count` in parallel and sums the results per root move.
fn run<T, F>(pos: &Position, depth: u32, count: F, progress: Progress<'_>) -> Vec<(Move, T)>
where
    T: Send + Default + std::ops::AddAssign,
    F: Fn(&Position, u32) -> T + Sync,
{
    let (roots, units) = cut(pos, depth);
    let total = units.len();
    let done = AtomicUsize::new(0);
    let counted: Vec<(usize, T)> = units
        .into_par_iter()
        .map(|u| {
            let n = count(&u.pos, u.depth);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            (u.root, n)
        })
        .collect();
    let mut sums: Vec<(Move, T)> = roots.into_iter().map(|m| (m, T::default())).collect();
    for (root, n) in counted {
        sums[root].1 += n;
    }
    sums
}

fn no_progress(_: usize, _: usize) {}

/// Counts the leaves `depth` plies below `pos` on the current rayon pool.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_with_progress(pos, depth, &no_progress)
}

/// [`perft`] that reports its progress.
pub fn perft_with_progress(pos: &Position, depth: u32, progress: Progress<'_>) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => run(pos, depth, serial::perft, progress)
            .into_iter()
            .map(|(_, n)| n)
            .sum(),
    }
}

/// The leaf count below each root move on the current rayon pool, sorted by USI text.
///
/// Depth 0 is treated as depth 1, as in [`crate::divide`].
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    divide_with_progress(pos, depth, &no_progress)
}

/// [`divide`] that reports its progress.
pub fn divide_with_progress(
    pos: &Position,
    depth: u32,
    progress: Progress<'_>,
) -> Vec<(Move, u64)> {
    let mut div = run(pos, depth.max(1), serial::perft, progress);
    sort_by_usi(&mut div);
    div
}

/// [`crate::perft_counters`] on the current rayon pool, with the counters of each root move.
///
/// The root moves are sorted by USI text; at depth 0 the list is empty and the total is 1 node.
pub fn perft_counters(
    pos: &Position,
    depth: u32,
    progress: Progress<'_>,
) -> (Counters, Vec<(Move, Counters)>) {
    if depth == 0 {
        return (counters::perft_counters(pos, 0), Vec::new());
    }
    let mut div = if depth == 1 {
        let moves = pos.legal_moves();
        moves
            .iter()
            .map(|&m| (m, counters::leaf_counters(pos, m)))
            .collect()
    } else {
        run(pos, depth, counters::perft_counters, progress)
    };
    sort_by_usi(&mut div);
    let total = div.iter().map(|(_, c)| *c).sum();
    (total, div)
}

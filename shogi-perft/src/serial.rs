//! Perft and divide on one thread.

use shogi_core::{Move, Position};

/// The deepest depth this crate accepts from text input (suite files, task lists).
///
/// Far beyond any depth that finishes: the start position's depth 8 is 4e11 leaves.
pub const MAX_DEPTH: u32 = 20;

/// Counts the leaves `depth` plies below `pos` on one thread.
///
/// Depth 0 counts the position itself (1). The last ply is counted without making its moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        2 => {
            let mut n = 0;
            pos.for_each_legal_move(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                n += child.count_legal_moves();
            });
            n
        }
        _ => {
            let mut n = 0;
            pos.for_each_legal_move(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                n += perft(&child, depth - 1);
            });
            n
        }
    }
}

/// The leaf count below each legal root move, sorted by the move's USI text.
///
/// Depth 0 is treated as depth 1 (each root move counts 1). The counts sum to
/// `perft(pos, depth.max(1))`.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out: Vec<(Move, u64)> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth.max(1) - 1))
        })
        .collect();
    sort_by_usi(&mut out);
    out
}

/// Sorts a divide by the USI text of its moves.
pub(crate) fn sort_by_usi<T>(div: &mut [(Move, T)]) {
    div.sort_by_cached_key(|(m, _)| m.to_usi());
}

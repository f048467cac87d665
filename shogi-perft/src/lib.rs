//! Perft (performance test) for shogi and Mini Shogi: leaf counts with bulk counting at the
//! last ply.
use shogi_core::Position;

/// Counts the leaves `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
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

//! An exhaustive fixed-depth AND/OR search: the plain definition of "mate within n plies",
//! with no table and no heuristics, to check the df-pn search against (slow: for small n).

use shogi_core::Position;

/// Whether the side to move (the attacker) mates within `n` plies by checks only, against
/// every defence. Every ply counts (futile interpositions included). Exponential in `n`.
///
/// ```
/// use shogi_core::Position;
/// let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")?;
/// assert!(shogi_mate::brute::mate_within(&pos, 1));
/// assert!(!shogi_mate::brute::mate_within(&Position::startpos(pos.variant()), 5));
/// # Ok::<(), shogi_core::SfenError>(())
/// ```
pub fn mate_within(pos: &Position, n: u32) -> bool {
    or_node(pos, n)
}

fn or_node(pos: &Position, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    let moves = pos.legal_moves();
    // Mates in one first: they end the search at once.
    let mut children = Vec::new();
    for m in moves.iter() {
        let mut p = pos.clone();
        p.play_unchecked(*m);
        if !p.is_check() {
            continue;
        }
        if !p.has_legal_moves() {
            return true;
        }
        children.push(p);
    }
    n >= 3 && children.iter().any(|p| and_node(p, n - 1))
}

fn and_node(pos: &Position, n: u32) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return true;
    }
    if n < 2 {
        return false;
    }
    moves.iter().all(|m| {
        let mut p = pos.clone();
        p.play_unchecked(*m);
        or_node(&p, n - 1)
    })
}

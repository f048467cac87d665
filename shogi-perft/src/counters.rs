//! Leaves counted by kind, for debugging a move generator.

use shogi_core::{Move, Position};
use std::ops::{Add, AddAssign};

/// Leaf counts by kind: each field counts the moves of the last ply that are of that kind.
///
/// Every leaf is made (no bulk counting), so this is several times slower than
/// [`perft`](crate::perft).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// All leaves: equal to [`perft`](crate::perft).
    pub nodes: u64,
    /// Last-ply moves that capture.
    pub captures: u64,
    /// Last-ply moves that promote.
    pub promotions: u64,
    /// Last-ply drops.
    pub drops: u64,
    /// Last-ply moves that give check.
    pub checks: u64,
    /// Last-ply moves that give checkmate.
    pub mates: u64,
}

impl Counters {
    /// The counters as `(name, value)` pairs, in a fixed order.
    pub fn fields(&self) -> [(&'static str, u64); 6] {
        [
            ("captures", self.captures),
            ("promotions", self.promotions),
            ("drops", self.drops),
            ("checks", self.checks),
            ("mates", self.mates),
            ("nodes", self.nodes),
        ]
    }
}

impl AddAssign for Counters {
    fn add_assign(&mut self, o: Counters) {
        self.nodes += o.nodes;
        self.captures += o.captures;
        self.promotions += o.promotions;
        self.drops += o.drops;
        self.checks += o.checks;
        self.mates += o.mates;
    }
}

impl Add for Counters {
    type Output = Counters;
    fn add(mut self, o: Counters) -> Counters {
        self += o;
        self
    }
}

impl std::iter::Sum for Counters {
    fn sum<I: Iterator<Item = Counters>>(iter: I) -> Counters {
        iter.fold(Counters::default(), Add::add)
    }
}

/// Counts the leaves `depth` plies below `pos` by kind, on one thread.
///
/// At depth 0 the position itself is the one leaf, and only `nodes` is 1.
pub fn perft_counters(pos: &Position, depth: u32) -> Counters {
    let mut c = Counters::default();
    if depth == 0 {
        c.nodes = 1;
        return c;
    }
    if depth == 1 {
        pos.for_each_legal_move(|m| c += leaf_counters(pos, m));
    } else {
        pos.for_each_legal_move(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            c += perft_counters(&child, depth - 1);
        });
    }
    c
}

/// The counters of the one leaf that the legal move `m` makes from `pos`.
pub(crate) fn leaf_counters(pos: &Position, m: Move) -> Counters {
    let mut c = Counters {
        nodes: 1,
        ..Counters::default()
    };
    match m {
        Move::Normal { to, promote, .. } => {
            c.captures = u64::from(pos.piece_at(to).is_some());
            c.promotions = u64::from(promote);
        }
        Move::Drop { .. } => c.drops = 1,
    }
    let mut child = pos.clone();
    child.play_unchecked(m);
    if child.is_check() {
        c.checks = 1;
        c.mates = u64::from(!child.has_legal_moves());
    }
    c
}

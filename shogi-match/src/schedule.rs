//! The schedule: who plays whom ([`pairings`]) and every game of the match in order
//! ([`schedule`]): each pairing plays `games` games, game 2k and 2k+1 sharing an opening with
//! colours swapped (a pair).

use crate::settings::{Pairing, Settings};

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Its number in the match, from 0.
    pub index: usize,
    /// The pairing it belongs to (index into [`Tally::pairings`]).
    pub pairing: usize,
    /// Its pair (the two games of one opening with colours swapped), unique in the match.
    pub pair: usize,
    /// Sente's engine.
    pub black: usize,
    /// Gote's engine.
    pub white: usize,
    /// The opening (index into [`Settings::openings`]).
    pub opening: usize,
}

/// The pairings of a match: (first, second) engine indices.
pub fn pairings(settings: &Settings) -> Vec<(usize, usize)> {
    let n = settings.engines.len();
    match settings.pairing {
        Pairing::HeadToHead => vec![(0, 1)],
        Pairing::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Pairing::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

/// Every game of the match, in order.
pub fn schedule(settings: &Settings) -> Vec<GameSpec> {
    let mut out = Vec::new();
    let n = settings.order.len().max(1);
    let mut pair_base = 0;
    for (p, &(a, b)) in pairings(settings).iter().enumerate() {
        for g in 0..settings.games as usize {
            let (black, white) = if g % 2 == 0 { (a, b) } else { (b, a) };
            out.push(GameSpec {
                index: out.len(),
                pairing: p,
                pair: pair_base + g / 2,
                black,
                white,
                opening: settings.order.get((g / 2) % n).copied().unwrap_or(0),
            });
        }
        pair_base += (settings.games as usize).div_ceil(2);
    }
    out
}

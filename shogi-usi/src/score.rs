//! Scores: centipawns or mate, from one side's view, with the bound an engine attached.

use shogi_core::Color;
use std::fmt;

/// An evaluation from one side's point of view (USI sends the side to move's view).
///
/// Mate is its own kind, never a magic number of centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns; positive is good for the side whose view this is.
    Cp(i32),
    /// Mate at a known distance in plies: positive when this side mates in `plies`, negative
    /// when it is mated in `-plies`. `plies == 0` means this side is mated now (`mate 0` as
    /// fairy-stockfish prints it for a mated side, `mate -0` as YaneuraOu does).
    Mate {
        /// Signed distance in plies.
        plies: i32,
    },
    /// Mate at an unknown distance (`mate +` / `mate -`): `winning` when this side mates.
    MateUnknown {
        /// Whether this side is the one that mates.
        winning: bool,
    },
    /// This side has already mated the other: the other side's view of `Mate { plies: 0 }`.
    MateGiven,
}

impl Score {
    /// The same evaluation from the other side's view.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(cp.saturating_neg()),
            Score::Mate { plies: 0 } => Score::MateGiven,
            Score::Mate { plies } => Score::Mate {
                plies: plies.saturating_neg(),
            },
            Score::MateUnknown { winning } => Score::MateUnknown { winning: !winning },
            Score::MateGiven => Score::Mate { plies: 0 },
        }
    }

    /// Whether this is a mate score of any kind.
    pub fn is_mate(self) -> bool {
        !matches!(self, Score::Cp(_))
    }

    /// `Some(true)` when this side mates, `Some(false)` when it is mated, `None` for centipawns.
    pub fn mate_winner(self) -> Option<bool> {
        match self {
            Score::Cp(_) => None,
            Score::Mate { plies } => Some(plies > 0),
            Score::MateUnknown { winning } => Some(winning),
            Score::MateGiven => Some(true),
        }
    }

    /// A total order key for comparing scores of one side's view: mates beat any centipawn
    /// score, a shorter win beats a longer one, a longer loss beats a shorter one. The key
    /// is for sorting only; its numbers are not centipawns.
    pub fn order_key(self) -> i64 {
        const M: i64 = 1 << 40;
        match self {
            Score::Cp(cp) => i64::from(cp),
            Score::MateGiven => 2 * M,
            Score::Mate { plies } if plies > 0 => 2 * M - 1 - i64::from(plies),
            Score::Mate { plies } => -2 * M + i64::from(-plies),
            Score::MateUnknown { winning: true } => M,
            Score::MateUnknown { winning: false } => -M,
        }
    }
}

impl fmt::Display for Score {
    /// USI-like text: `cp 34`, `mate 5`, `mate -4`, `mate 0`, `mate +`, `mate -`, `mate given`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate { plies } => write!(f, "mate {plies}"),
            Score::MateUnknown { winning: true } => f.write_str("mate +"),
            Score::MateUnknown { winning: false } => f.write_str("mate -"),
            Score::MateGiven => f.write_str("mate given"),
        }
    }
}

/// Whether an engine's score is exact or only a bound (`lowerbound` / `upperbound`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Bound {
    /// The score is exact (no bound token).
    #[default]
    Exact,
    /// The true score is at least this (`lowerbound`, a fail-high).
    Lower,
    /// The true score is at most this (`upperbound`, a fail-low).
    Upper,
}

impl Bound {
    /// The bound seen from the other side (a lower bound becomes an upper bound).
    pub fn flip(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }
}

/// A score as the engine gave it (the side to move's view) together with who that side is,
/// so both views are at hand, as python-chess's `PovScore` does.
///
/// ```
/// use shogi_core::Color;
/// use shogi_usi::{Bound, PovScore, Score};
///
/// // Gote to move, the engine says +120 for gote: sente's view is -120.
/// let s = PovScore { score: Score::Cp(120), bound: Bound::Lower, turn: Color::White };
/// assert_eq!(s.relative(), Score::Cp(120));
/// assert_eq!(s.sente(), Score::Cp(-120));
/// assert_eq!(s.sente_bound(), Bound::Upper);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PovScore {
    /// The score from `turn`'s view, as sent.
    pub score: Score,
    /// The bound of `score` (from `turn`'s view).
    pub bound: Bound,
    /// The side to move of the searched position.
    pub turn: Color,
}

impl PovScore {
    /// The side to move's view (what the engine sent).
    pub fn relative(&self) -> Score {
        self.score
    }

    /// The view of `color`.
    pub fn pov(&self, color: Color) -> Score {
        if color == self.turn {
            self.score
        } else {
            self.score.flip()
        }
    }

    /// Sente's (black's) view.
    pub fn sente(&self) -> Score {
        self.pov(Color::Black)
    }

    /// Gote's (white's) view.
    pub fn gote(&self) -> Score {
        self.pov(Color::White)
    }

    /// The bound from `color`'s view.
    pub fn bound_for(&self, color: Color) -> Bound {
        if color == self.turn {
            self.bound
        } else {
            self.bound.flip()
        }
    }

    /// The bound from sente's view.
    pub fn sente_bound(&self) -> Bound {
        self.bound_for(Color::Black)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_is_an_involution() {
        for s in [
            Score::Cp(0),
            Score::Cp(-31),
            Score::Cp(i32::MIN + 1),
            Score::Mate { plies: 0 },
            Score::Mate { plies: 3 },
            Score::Mate { plies: -4 },
            Score::MateUnknown { winning: true },
            Score::MateUnknown { winning: false },
            Score::MateGiven,
        ] {
            assert_eq!(s.flip().flip(), s, "{s}");
        }
        assert_eq!(Score::Mate { plies: 0 }.flip(), Score::MateGiven);
        assert_eq!(Score::Mate { plies: 5 }.flip(), Score::Mate { plies: -5 });
    }

    #[test]
    fn order_key_ranks_mates_around_centipawns() {
        let ranked = [
            Score::Mate { plies: 0 },
            Score::Mate { plies: -2 },
            Score::Mate { plies: -8 },
            Score::MateUnknown { winning: false },
            Score::Cp(-30000),
            Score::Cp(0),
            Score::Cp(30000),
            Score::MateUnknown { winning: true },
            Score::Mate { plies: 9 },
            Score::Mate { plies: 1 },
            Score::MateGiven,
        ];
        for w in ranked.windows(2) {
            assert!(w[0].order_key() < w[1].order_key(), "{} < {}", w[0], w[1]);
        }
    }

    #[test]
    fn pov_views() {
        let s = PovScore {
            score: Score::Mate { plies: 3 },
            bound: Bound::Exact,
            turn: Color::White,
        };
        assert_eq!(s.gote(), Score::Mate { plies: 3 });
        assert_eq!(s.sente(), Score::Mate { plies: -3 });
        assert_eq!(s.pov(Color::White), s.relative());
    }
}

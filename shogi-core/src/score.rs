//! The one score vocabulary: centipawns or a mate, from one side's view, with the bound an
//! engine attached, and the one rule that turns a mate into centipawns.
//!
//! Engines (USI sends the side to move's view), analysis, match records and the evaluation
//! comments of records (sente's view) all use [`Score`]; [`Score::to_view`] and [`PovScore`]
//! change the view, [`Score::centipawns`] is the only mate-to-centipawn rule.
//!
//! ```
//! use shogi_core::{Color, Score};
//!
//! // Gote to move is mated in 3: sente's view is a win in 3.
//! let s = Score::Mate { plies: -3 };
//! assert_eq!(s.to_view(Color::White, Color::Black), Score::Mate { plies: 3 });
//! assert_eq!(s.centipawns(Score::MATE_CP), -30000);
//! assert_eq!(Score::mate_for(true, Some(3)), Score::Mate { plies: 3 });
//! assert_eq!("mate -3".parse::<Score>(), Ok(s));
//! ```

use crate::Color;
use std::fmt;
use std::str::FromStr;

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
    /// The centipawn value a mate counts as by default (±30000, as ShogiHome writes a mate in
    /// Floodgate comments and as analysis classifies moves).
    pub const MATE_CP: i32 = 30000;

    /// The score as centipawns, a mate of any kind as `±mate_cp` (positive when this side
    /// mates): the one mate-to-centipawn rule, for graphs, win rates, adjudication and the
    /// comment forms that have only a number. A mate is never stored as this number.
    pub fn centipawns(self, mate_cp: i32) -> i32 {
        match (self, self.mate_winner()) {
            (Score::Cp(v), _) => v,
            (_, Some(true)) => mate_cp,
            _ => mate_cp.saturating_neg(),
        }
    }

    /// This score, of `view`'s view, from `side`'s view (the same when they are equal, else
    /// [`Score::flip`]).
    pub fn to_view(self, view: Color, side: Color) -> Score {
        if view == side { self } else { self.flip() }
    }

    /// A mate as records write it: whether this side mates and, when known, in how many
    /// plies (`Some(0)`: already mated, by this side when `winning`).
    pub fn mate_for(winning: bool, plies: Option<u32>) -> Score {
        match plies {
            None => Score::MateUnknown { winning },
            Some(0) if winning => Score::MateGiven,
            Some(n) => {
                let n = i32::try_from(n).unwrap_or(i32::MAX);
                Score::Mate {
                    plies: if winning { n } else { -n },
                }
            }
        }
    }

    /// The distance of a mate in plies, when known (0: mated already); `None` for centipawns
    /// and for a mate at an unknown distance.
    pub fn mate_distance(self) -> Option<u32> {
        match self {
            Score::Mate { plies } => Some(plies.unsigned_abs()),
            Score::MateGiven => Some(0),
            Score::Cp(_) | Score::MateUnknown { .. } => None,
        }
    }

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

/// A score text that is not one [`Score`]'s `Display` form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreParseError(pub String);

impl fmt::Display for ScoreParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a score: {:?} (want cp N, mate N, mate +, mate -, mate given)",
            self.0
        )
    }
}

impl std::error::Error for ScoreParseError {}

impl FromStr for Score {
    type Err = ScoreParseError;

    /// The inverse of `Display`: `cp 34`, `mate 5`, `mate -4`, `mate 0`, `mate +`, `mate -`,
    /// `mate given`.
    fn from_str(s: &str) -> Result<Score, ScoreParseError> {
        let bad = || ScoreParseError(s.to_string());
        let (kind, v) = s.split_once(' ').ok_or_else(bad)?;
        match (kind, v) {
            ("cp", v) => v.parse().map(Score::Cp).map_err(|_| bad()),
            ("mate", "+") => Ok(Score::MateUnknown { winning: true }),
            ("mate", "-") => Ok(Score::MateUnknown { winning: false }),
            ("mate", "given") => Ok(Score::MateGiven),
            ("mate", v) => v
                .parse()
                .map(|plies| Score::Mate { plies })
                .map_err(|_| bad()),
            _ => Err(bad()),
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
/// use shogi_core::{Bound, Color, PovScore, Score};
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
        self.score.to_view(self.turn, color)
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
    fn one_mate_rule_and_text_round_trip() {
        let all = [
            Score::Cp(-31),
            Score::Mate { plies: 0 },
            Score::Mate { plies: 3 },
            Score::Mate { plies: -4 },
            Score::MateUnknown { winning: true },
            Score::MateUnknown { winning: false },
            Score::MateGiven,
        ];
        let cps: Vec<i32> = all.iter().map(|s| s.centipawns(100)).collect();
        assert_eq!(cps, [-31, -100, 100, -100, 100, -100, 100]);
        for s in all {
            assert_eq!(s.to_string().parse::<Score>(), Ok(s), "{s}");
            assert_eq!(s.flip().centipawns(7), -s.centipawns(7), "{s}");
            let back = match s {
                Score::Cp(_) => s,
                _ => Score::mate_for(s.mate_winner() == Some(true), s.mate_distance()),
            };
            assert_eq!(back, s, "{s}");
        }
        assert!("cp".parse::<Score>().is_err());
        assert!("mate x".parse::<Score>().is_err());
        assert_eq!(Score::mate_for(false, Some(0)), Score::Mate { plies: 0 });
        assert_eq!(
            Score::Cp(5).to_view(Color::White, Color::White),
            Score::Cp(5)
        );
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

//! A problem's stated answer judged against the solver's own proof: does it mate, is it as
//! long as the composed conventions want (futile interpositions and their captures not
//! counted), is the defence the longest, is there a shorter mate. The verdict is typed; its
//! text is what `shogi mate` notes.

use crate::{Answer, MateResult, Solver, counted_length, verify_mate, verify_tsume_answer};
use shogi_core::{Move, Position};
use std::fmt;

/// How a stated answer stands against the solver's proof. `plies` is the answer's length
/// with futile interpositions and their captures not counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatedAnswer {
    /// It mates; `futile_uncounted`: its line has futile interpositions that were not
    /// counted, or stops before them.
    Mates {
        /// Counted plies.
        plies: usize,
        /// Whether plies were left uncounted.
        futile_uncounted: bool,
    },
    /// It ends in check with only interposing drops left for the defender: a mate if the
    /// drops are futile, which could not be proven (`why`).
    OnlyDropsLeft {
        /// Counted plies.
        plies: usize,
        /// Why the drops could not be proven futile.
        why: String,
    },
    /// It does not mate.
    DoesNotMate {
        /// Counted plies.
        plies: usize,
        /// Where the line fails.
        why: String,
    },
    /// The solver proved a shorter mate.
    ShorterMate {
        /// Counted plies of the stated answer.
        plies: usize,
        /// The shortest mate's length.
        shortest: u16,
    },
    /// It mates, but its defence is not the longest.
    DefenceNotLongest {
        /// Counted plies of the stated answer.
        plies: usize,
        /// The longest defence's length.
        longest: u16,
    },
    /// It mates only because the defence is not the best: there is no forced mate.
    NoForcedMate {
        /// Counted plies of the stated answer.
        plies: usize,
    },
}

impl StatedAnswer {
    /// Whether the stated answer is wrong (everything but a mate, and a line that stops
    /// before drops that may be futile).
    pub fn is_wrong(&self) -> bool {
        !matches!(
            self,
            StatedAnswer::Mates { .. } | StatedAnswer::OnlyDropsLeft { .. }
        )
    }
}

impl fmt::Display for StatedAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatedAnswer::Mates {
                plies,
                futile_uncounted: true,
            } => write!(
                f,
                "stated answer mates ({plies} plies, futile interpositions not counted)"
            ),
            StatedAnswer::Mates { plies, .. } => write!(f, "stated answer mates ({plies} plies)"),
            StatedAnswer::OnlyDropsLeft { plies, why } => write!(
                f,
                "stated answer ({plies} plies) ends in check with only interposing drops left \
                 (a mate if they are futile; {why})"
            ),
            StatedAnswer::DoesNotMate { plies, why } => {
                write!(f, "stated answer ({plies} plies) does not mate: {why}")
            }
            StatedAnswer::ShorterMate { plies, shortest } => write!(
                f,
                "shorter mate than the stated answer: {shortest} < {plies} plies"
            ),
            StatedAnswer::DefenceNotLongest { plies, longest } => write!(
                f,
                "the stated answer mates in {plies} plies but its defence is not the longest ({longest})"
            ),
            StatedAnswer::NoForcedMate { plies } => write!(
                f,
                "the stated answer mates in {plies} plies, but only because the defence is not the best: no forced mate"
            ),
        }
    }
}

/// Whether `moves` (legal from `start`, an odd number, all checks) end in check with only
/// drops left for the defender: composed answers stop there when the drops are futile
/// interpositions (無駄合).
fn only_drops_left(start: &Position, moves: &[Move]) -> bool {
    let mut p = start.clone();
    for (i, m) in moves.iter().enumerate() {
        if p.play(*m).is_err() || (i % 2 == 0 && !p.is_check()) {
            return false;
        }
    }
    moves.len() % 2 == 1 && p.is_check() && p.legal_moves().iter().all(|m| m.is_drop())
}

/// Judges the stated `answer` (legal moves from `start`) against `solved`, the solver's
/// answer for `start`; `solver` proves the mates after a line's final futile interpositions
/// (within `nodes` nodes each).
pub fn check_stated_answer(
    solver: &mut Solver,
    start: &Position,
    answer: &[Move],
    solved: &Answer,
    nodes: u64,
) -> StatedAnswer {
    let plies = usize::from(counted_length(start, answer));
    if let Err(why) = verify_tsume_answer(solver, start, answer, nodes) {
        return if only_drops_left(start, answer) {
            StatedAnswer::OnlyDropsLeft { plies, why }
        } else {
            StatedAnswer::DoesNotMate { plies, why }
        };
    }
    match (&solved.result, solved.minimal, solved.length) {
        (MateResult::Mate { .. }, true, Some(l)) if usize::from(l) < plies => {
            StatedAnswer::ShorterMate { plies, shortest: l }
        }
        (MateResult::Mate { .. }, true, Some(l)) if usize::from(l) > plies => {
            StatedAnswer::DefenceNotLongest { plies, longest: l }
        }
        (MateResult::NoMate { within: None }, _, _) => StatedAnswer::NoForcedMate { plies },
        _ => StatedAnswer::Mates {
            plies,
            futile_uncounted: plies < answer.len() || verify_mate(start, answer).is_err(),
        },
    }
}

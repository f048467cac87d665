//! A problem's stated answer judged against the solver's own proof: does it mate, is it as
//! long as the composed conventions want (futile interpositions and their captures not
//! counted), is the defence the longest, is there a shorter mate. The verdict is typed; its
//! text is what `shogi mate` notes.

use crate::{Answer, MateResult, Options, Solver, futile, verify_mate};
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

/// Replays a composed answer from `pos`, as [`verify_mate`] does, but accepts a line that
/// ends in check with only futile interpositions left (composed answers stop there): after
/// each of them `solver` must prove a mate within `nodes` nodes. The error says where the
/// line fails.
pub fn verify_tsume_answer(
    solver: &mut Solver,
    pos: &Position,
    line: &[Move],
    nodes: u64,
) -> Result<(), String> {
    let Err(why) = verify_mate(pos, line) else {
        return Ok(());
    };
    let mut p = pos.clone();
    for (i, m) in line.iter().enumerate() {
        if p.play(*m).is_err() || (i % 2 == 0 && !p.is_check()) {
            return Err(why);
        }
    }
    if line.len() % 2 == 0 || !p.is_check() {
        return Err(why);
    }
    let replies = p.legal_moves();
    if let Some(m) = replies.iter().find(|m| !futile::is_futile(&p, **m)) {
        return Err(format!(
            "the line ends in check, but the defender's {} is not a futile interposition",
            m.to_usi()
        ));
    }
    let options = Options {
        nodes,
        ..Options::default()
    };
    for m in replies.iter() {
        let mut c = p.clone();
        c.play_unchecked(*m);
        match solver.solve(&c, &options) {
            Ok(Answer {
                result: MateResult::Mate { .. },
                ..
            }) => {}
            Ok(_) => {
                return Err(format!(
                    "no mate proven after the futile interposition {}",
                    m.to_usi()
                ));
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}

/// The length of a line (legal from `pos`, the attacker to move) under the tsume conventions:
/// futile interpositions ([`futile_definition`]) that the next move takes, and those captures,
/// left out.
pub fn counted_length(pos: &Position, pv: &[Move]) -> u16 {
    let mut p = pos.clone();
    let mut n = 0u16;
    for (i, m) in pv.iter().enumerate() {
        let taken = pv.get(i + 1).is_some_and(|r| r.to() == m.to());
        if i % 2 == 1 && taken && futile::is_futile(&p, *m) {
            n = n.saturating_sub(1);
        } else {
            n = n.saturating_add(1);
        }
        p.play_unchecked(*m);
    }
    n
}

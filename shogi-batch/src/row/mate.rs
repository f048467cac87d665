//! A mate the loser missed: for a game lost by resignation or time, the first of its last
//! positions where the loser, to move, had a forced mate (the solver is shogi-mate's df-pn).
//! `shogi check --mate` warns about it; `shogi stats --mate` gives it as columns.

use super::GameRow;
use crate::read::InputRecord;
use shogi_core::{Color, Move};
use shogi_kif::{EndingKind, Record};
use shogi_mate::{MateResult, Options};

/// How far back, and for how short a mate, [`missed_mate`] looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateSearch {
    /// The last `plies` plies before the end are searched (`--mate-plies`, K).
    pub plies: usize,
    /// Mates of at most `length` plies count (`--mate-length`, M).
    pub length: u16,
}

impl Default for MateSearch {
    /// The command line's defaults: the last 10 plies, mates of up to 7 plies.
    fn default() -> MateSearch {
        MateSearch {
            plies: 10,
            length: 7,
        }
    }
}

/// A forced mate the loser had and did not play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissedMate {
    /// The position after this many main-line moves.
    pub ply: usize,
    /// The side that had the mate (the loser: to move at the end).
    pub side: Color,
    /// The mate's length in plies.
    pub length: u16,
    /// The mating line.
    pub pv: Vec<Move>,
}

/// The node budget of each position searched.
const NODES: u64 = 200_000;

/// The table size of each thread's solver.
const TABLE_BYTES: usize = 8 << 20;

/// For a game lost by resignation or time: the first position of the last `search.plies`
/// plies where the loser, to move, had a mate in at most `search.length` plies. `None` for
/// other games, and when there is none.
pub fn missed_mate(record: &Record, search: MateSearch) -> Option<MissedMate> {
    let ending = record.ending()?;
    if !matches!(ending.kind, EndingKind::Resign | EndingKind::TimeUp) {
        return None;
    }
    let mut p = record.start_position().clone();
    let mut positions = vec![p.clone()];
    for node in record.main_line().take_while(|n| n.foul.is_none()) {
        if p.play(node.mv).is_err() {
            return None;
        }
        positions.push(p.clone());
    }
    // The loser is the side to move at the end.
    let loser = positions.last()?.side_to_move();
    let first = positions.len().saturating_sub(search.plies + 1);
    let options = Options {
        nodes: NODES,
        max_depth: Some(search.length),
        ..Options::default()
    };
    // Each worker thread's solver is kept from game to game (its table and search thread
    // made once, not once per game).
    for (ply, pos) in positions.iter().enumerate().skip(first) {
        if pos.side_to_move() != loser {
            continue;
        }
        if let Ok(a) = shogi_mate::solve_on_this_thread(TABLE_BYTES, pos, &options) {
            if let MateResult::Mate { pv } = a.result {
                return Some(MissedMate {
                    ply,
                    side: loser,
                    length: a.length.unwrap_or(pv.len() as u16),
                    pv,
                });
            }
        }
    }
    None
}

impl<S: From<String>> GameRow<S> {
    /// Fills the `missed_mate_*` columns (see [`missed_mate`]): empty for a game without
    /// one (or with an error); rows without them leave the columns out.
    pub fn set_missed_mate(&mut self, game: &InputRecord, search: MateSearch) {
        let found = match &game.record {
            Some(record) if game.error.is_none() && game.panic.is_none() => {
                missed_mate(record, search)
            }
            _ => None,
        };
        self.missed_mate_ply = Some(found.as_ref().map(|m| m.ply as u32));
        self.missed_mate_side = Some(found.as_ref().map(|m| m.side));
        self.missed_mate_length = Some(found.as_ref().map(|m| m.length));
        self.missed_mate_pv = Some(found.map(|m| {
            let usi: Vec<String> = m.pv.iter().map(|mv| mv.to_usi()).collect();
            S::from(usi.join(" "))
        }));
    }
}

//! Who won a record's game, as its training entries carry it: shogi-kif's one winner
//! function ([`shogi_kif::outcome`]), as a training result.

use crate::packed::GameResult;
use shogi_kif::{MainLine, Record, Winner, outcome};

/// The game's result as its ending states it, judged by the rules where they decide it (see
/// the module's conventions). `None` when the game has no result: no ending, interrupted,
/// adjourned, a problem's ending or an unknown word.
pub fn game_result(record: &Record) -> Option<GameResult> {
    // Training data wants a stated result: a record without an ending gives none.
    record.ending()?;
    let main = MainLine::replay(record);
    winner_result(outcome(record, &main).1)
}

/// The result of a game with this winner (a stored row's), `None` when it has none.
pub fn winner_result(winner: Winner) -> Option<GameResult> {
    match winner {
        Winner::None => None,
        Winner::Draw => Some(GameResult::Draw),
        w => Some(GameResult::from_winner(w.color())),
    }
}

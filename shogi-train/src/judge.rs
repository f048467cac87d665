//! Who won a record's game, as its training entries carry it. One function, so that the
//! workspace's single winner function can take its place.

use crate::packed::GameResult;
use shogi_core::{Color, DeclarationResult, Game};
use shogi_kif::{EndingKind, Record};

/// The game's result as its ending states it, judged by the rules where they decide it (see
/// the module's conventions). `None` when the game has no result: no ending, interrupted,
/// adjourned, a problem's ending, an unknown word, or a start that cannot be played.
pub fn game_result(record: &Record) -> Option<GameResult> {
    let ending = record.ending()?;
    let start = record.start_position()?;
    let plies = record.moves.moves.len();
    // The side to move when the ending was written (a declared foul move counts as played).
    let side = if plies % 2 == 0 {
        start.side_to_move()
    } else {
        !start.side_to_move()
    };
    let win = |c: Color| Some(GameResult::from_winner(Some(c)));
    match &ending.kind {
        EndingKind::Resign
        | EndingKind::TimeUp
        | EndingKind::Mate
        | EndingKind::FoulLoss
        | EndingKind::LossByDefault => win(!side),
        EndingKind::FoulWin => win(ending.offender.map_or(side, |o| !o)),
        EndingKind::WinByDefault => win(side),
        EndingKind::Declaration => {
            let fin = record.final_position()?;
            if fin.side_to_move() != side {
                // A foul move before the declaration: judge nothing.
                return None;
            }
            match fin.declaration(shogi_kif::impasse_rule(record)).result {
                DeclarationResult::Win => win(side),
                DeclarationResult::Draw => Some(GameResult::Draw),
                DeclarationResult::Lose => win(!side),
            }
        }
        EndingKind::Repetition => {
            let mut game = Game::new(start);
            for node in record.main_line() {
                if node.foul.is_some() || game.play(node.mv).is_err() {
                    break;
                }
            }
            match game.repetition().and_then(|r| r.perpetual_checker) {
                Some(checker) => win(!checker),
                None => Some(GameResult::Draw),
            }
        }
        EndingKind::Impasse | EndingKind::MaxMoves | EndingKind::Draw => Some(GameResult::Draw),
        EndingKind::Interrupt
        | EndingKind::SealedMove
        | EndingKind::NoMate
        | EndingKind::Other(_) => None,
    }
}

//! Who won a record, and the one name of how it ended: the rules every consumer shares
//! (`shogi stats` and its filters, the game database, training data, Python).

use crate::ending::EndingKind;
use crate::main_line::MainLine;
use crate::model::Record;
use shogi_core::{Color, DeclarationResult, Position, Repetition};

/// Who won a game (by default [`Winner::None`]: no result known).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Winner {
    /// Sente (先手, black) won.
    Sente,
    /// Gote (後手, white) won.
    Gote,
    /// A draw (repetition, impasse, …).
    Draw,
    /// No result: unfinished, interrupted, adjourned, a problem, an unknown ending word.
    #[default]
    None,
}

impl Winner {
    /// The side that won, if one did.
    pub fn color(self) -> Option<Color> {
        match self {
            Winner::Sente => Some(Color::Black),
            Winner::Gote => Some(Color::White),
            Winner::Draw | Winner::None => None,
        }
    }

    /// The winner `c`.
    pub fn of(c: Color) -> Winner {
        match c {
            Color::Black => Winner::Sente,
            Color::White => Winner::Gote,
        }
    }

    /// The name used everywhere (the `winner` column and filter, Python's `winner`):
    /// `sente`, `gote`, `draw`, `none`.
    pub fn name(self) -> &'static str {
        match self {
            Winner::Sente => "sente",
            Winner::Gote => "gote",
            Winner::Draw => "draw",
            Winner::None => "none",
        }
    }

    /// Reads [`Winner::name`] back.
    pub fn from_name(name: &str) -> Option<Winner> {
        [Winner::Sente, Winner::Gote, Winner::Draw, Winner::None]
            .into_iter()
            .find(|w| w.name() == name)
    }
}

/// How a record ended and who won: the ending's one name (see [`ending_name`]; `None` when
/// nothing is stated and the final position decides nothing) and the winner.
///
/// Read as the side to move at the end: resignation, time loss, mate, own foul and loss by
/// default lose; the opponent's foul and win by default win; an entering-king declaration
/// is judged by its points under the record's rule (27 points unless the header names the
/// 24-point rule: win, draw or loss); repetition is a draw unless one side checked with every
/// move of the cycle (it loses); impasse, `%MAX_MOVES` and `%HIKIWAKE` are draws. With no
/// ending stated, a final checkmate or repetition decides. `main` is `record`'s main line
/// replayed (what the reader kept, or [`MainLine::replay`]).
pub fn outcome(record: &Record, main: &MainLine) -> (Option<&'static str>, Winner) {
    let to_move = main.side_to_move_at_end(record);
    let last = main.final_position(record);
    let repetition = main.ending_repetition(record);
    let win = Winner::of;
    let perpetual = |rep: Option<Repetition>| match rep.and_then(|r| r.perpetual_checker) {
        Some(c) => ("perpetual-check", win(!c)),
        None => ("repetition", Winner::Draw),
    };
    let Some(ending) = record.ending() else {
        if let Some(rep) = repetition {
            let (name, w) = perpetual(Some(rep));
            return (Some(name), w);
        }
        if last.is_some_and(Position::is_checkmate) {
            return (Some("checkmate"), win(!to_move));
        }
        return (None, Winner::None);
    };
    let name = ending_name(&ending.kind);
    let winner = match &ending.kind {
        EndingKind::Resign
        | EndingKind::TimeUp
        | EndingKind::Mate
        | EndingKind::FoulLoss
        | EndingKind::LossByDefault => win(!to_move),
        EndingKind::FoulWin => win(ending.offender.map_or(to_move, |o| !o)),
        EndingKind::WinByDefault => win(to_move),
        EndingKind::Declaration => match last {
            Some(last) => match last
                .declaration(crate::validate::impasse_rule(record))
                .result
            {
                DeclarationResult::Win => win(to_move),
                DeclarationResult::Draw => Winner::Draw,
                DeclarationResult::Lose => win(!to_move),
            },
            // A foul move before the declaration: nothing to judge.
            None => Winner::None,
        },
        EndingKind::Repetition => {
            let (name, w) = perpetual(repetition);
            return (Some(name), w);
        }
        EndingKind::Impasse | EndingKind::MaxMoves | EndingKind::Draw => Winner::Draw,
        EndingKind::Other(_) if name == "timeout" => win(!to_move),
        EndingKind::Interrupt
        | EndingKind::SealedMove
        | EndingKind::NoMate
        | EndingKind::Other(_) => Winner::None,
    };
    (Some(name), winner)
}

/// Every ending name [`ending_name`] and [`outcome`] give, in the order the filters list
/// them; `none` is a game that states no ending (and whose final position decides nothing).
pub const ENDING_NAMES: &[&str] = &[
    "resign",
    "checkmate",
    "repetition",
    "perpetual-check",
    "declaration",
    "impasse",
    "timeout",
    "foul",
    "abort",
    "max-moves",
    "draw",
    "no-mate",
    "sealed",
    "win-by-default",
    "loss-by-default",
    "other",
    "none",
];

/// The one name of an ending kind, as the `ending` column of `shogi stats`, its `--ending`
/// filter, the game database and Python's `Record.ending_name` use it. Repetition is
/// `repetition` here; [`outcome`] says `perpetual-check` when one side checked throughout.
/// An unknown word is `other`, unless it spells a time loss (`TIME-UP`: `timeout`).
pub fn ending_name(kind: &EndingKind) -> &'static str {
    match kind {
        EndingKind::Resign => "resign",
        EndingKind::Interrupt => "abort",
        EndingKind::Repetition => "repetition",
        EndingKind::Impasse => "impasse",
        EndingKind::Declaration => "declaration",
        EndingKind::TimeUp => "timeout",
        EndingKind::FoulWin | EndingKind::FoulLoss => "foul",
        EndingKind::Mate => "checkmate",
        EndingKind::NoMate => "no-mate",
        EndingKind::MaxMoves => "max-moves",
        EndingKind::Draw => "draw",
        EndingKind::SealedMove => "sealed",
        EndingKind::WinByDefault => "win-by-default",
        EndingKind::LossByDefault => "loss-by-default",
        EndingKind::Other(word) => {
            let w = word.trim().trim_start_matches('%').to_ascii_lowercase();
            if matches!(w.as_str(), "time-up" | "time_up" | "timeup" | "time up") {
                "timeout"
            } else {
                "other"
            }
        }
    }
}

//! The entries of a record: which games and positions give one, and each entry's bytes.

use crate::eval::{hcpe_eval, psv_score};
use crate::judge::game_result;
use crate::packed::{EncodeError, GameResult, Hcpe, PackedSfenValue, PositionFormat};
use shogi_core::Score;
use shogi_core::{Color, Move, Position};
use shogi_kif::{EndingKind, MoveNode, Record};
use std::fmt;

/// Which games and positions give entries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrainingOptions {
    /// Leave out the first N positions of every game (opening plies).
    pub skip_first: u32,
    /// Leave out games that ended in a draw.
    pub skip_draws: bool,
    /// Leave out games that ended with an entering-king declaration.
    pub skip_declarations: bool,
    /// Keep games without a result (interrupted, unterminated), with the result of a draw
    /// (hcpe and psv have no "unknown"). Left out by default.
    pub keep_unfinished: bool,
}

/// Why a game gave no entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// The game has no result (see [`crate::game_result`]).
    NoResult,
    /// The game is a draw and draws are left out.
    Draw,
    /// The game ended with a declaration and those are left out.
    Declaration,
    /// The start position cannot be played.
    NoStart,
    /// The positions cannot be encoded (Mini Shogi, a missing king, more than one set).
    NotEncodable(EncodeError),
    /// A main-line move is illegal (a record built without the reader's checks).
    IllegalMove {
        /// The ply of the move (1 = the first move of the record).
        ply: usize,
    },
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::NoResult => f.write_str("no result (interrupted or unterminated)"),
            Skip::Draw => f.write_str("draw"),
            Skip::Declaration => f.write_str("entering-king declaration"),
            Skip::NoStart => f.write_str("the start position cannot be played"),
            Skip::NotEncodable(e) => write!(f, "not encodable: {e}"),
            Skip::IllegalMove { ply } => write!(f, "move {ply} is illegal"),
        }
    }
}

/// One training entry: a position, the move played from it, the game's result and the
/// evaluation recorded for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position (its move number is the SFEN's).
    pub position: Position,
    /// The move played from it.
    pub mv: Move,
    /// The position's SFEN move number (psv `gamePly`; 1 at an even game's start).
    pub ply: u32,
    /// The game's result (absolute).
    pub result: GameResult,
    /// The recorded evaluation of the position (sente's point of view), if any: see
    /// [`shogi_kif::eval::position_scores`] for which comment values which position.
    pub eval: Option<Score>,
}

impl Entry {
    /// The side to move.
    pub fn side(&self) -> Color {
        self.position.side_to_move()
    }

    /// hcpe's `eval` (side to move; 0 without an evaluation).
    pub fn hcpe_eval(&self) -> i16 {
        self.eval.map_or(0, |e| hcpe_eval(e, self.side()))
    }

    /// psv's `score` (side to move; 0 without an evaluation).
    pub fn psv_score(&self) -> i16 {
        self.eval.map_or(0, |e| psv_score(e, self.side()))
    }

    /// The 38-byte hcpe entry.
    pub fn hcpe(&self) -> Result<[u8; Hcpe::SIZE], EncodeError> {
        Hcpe::new(&self.position, self.hcpe_eval(), Some(self.mv), self.result)
            .map(|h| h.to_bytes())
    }

    /// The 40-byte psv entry.
    pub fn psv(&self) -> Result<[u8; PackedSfenValue::SIZE], EncodeError> {
        PackedSfenValue::new(&self.position, self.psv_score(), Some(self.mv), self.result)
            .map(|p| p.to_bytes())
    }

    /// The text line of `shogi convert --to positions`, without a newline: SFEN, the USI move,
    /// the ply, the result for the side to move (1, 0, -1) and the psv score, tab-separated.
    pub fn text_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}",
            self.position.to_sfen(),
            self.mv.to_usi(),
            self.ply,
            self.result.relative_to(self.side()).to_byte(),
            self.psv_score()
        )
    }
}

/// The result a selected game's entries carry, or why the game gives none.
pub fn select(record: &Record, options: &TrainingOptions) -> Result<GameResult, Skip> {
    let result = match game_result(record) {
        Some(r) => r,
        None if options.keep_unfinished => GameResult::Draw,
        None => return Err(Skip::NoResult),
    };
    if options.skip_draws && result == GameResult::Draw {
        return Err(Skip::Draw);
    }
    if options.skip_declarations
        && record
            .ending()
            .is_some_and(|e| e.kind == EndingKind::Declaration)
    {
        return Err(Skip::Declaration);
    }
    Ok(result)
}

/// Calls `f` with each entry of the game, in order, when the options select it; returns the
/// number of entries, or why the game gives none (then `f` was not called). The start
/// position is checked to be encodable first: every later position holds the same pieces.
pub fn for_each_entry(
    record: &Record,
    options: &TrainingOptions,
    mut f: impl FnMut(&Entry),
) -> Result<usize, Skip> {
    let result = select(record, options)?;
    let start = record.start_position().clone();
    let mut scratch = [0u8; 32];
    PositionFormat::Hcp
        .encode(&start, &mut scratch)
        .map_err(Skip::NotEncodable)?;
    // Check every move first, so that an illegal one leaves the game out whole.
    let mut pos = start.clone();
    let moves: Vec<&MoveNode> = record
        .main_line()
        .take_while(|n| n.foul.is_none())
        .collect();
    for (i, node) in moves.iter().enumerate() {
        pos.play(node.mv)
            .map_err(|_| Skip::IllegalMove { ply: i + 1 })?;
    }
    let Some(first) = moves.first() else {
        return Ok(0);
    };
    let mut entry = Entry {
        ply: start.move_number(),
        position: start,
        mv: first.mv,
        result,
        eval: None,
    };
    let scores = shogi_kif::eval::position_scores(record);
    let mut n = 0;
    for (i, node) in moves.iter().enumerate() {
        if i as u64 >= u64::from(options.skip_first) {
            entry.mv = node.mv;
            entry.eval = scores.get(i).copied().flatten();
            entry.ply = entry.position.move_number();
            f(&entry);
            n += 1;
        }
        entry.position.play_unchecked(node.mv);
    }
    Ok(n)
}

/// The entries of a game, collected (see [`for_each_entry`]).
pub fn entries(record: &Record, options: &TrainingOptions) -> Result<Vec<Entry>, Skip> {
    let mut out = Vec::new();
    for_each_entry(record, options, |e| out.push(e.clone()))?;
    Ok(out)
}

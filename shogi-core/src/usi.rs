//! USI `position` lines: `position startpos moves 7g7f ...` and `position sfen ... moves ...`.

use crate::moves::Move;
use crate::position::{PlayError, Position};
use crate::sfen::SfenError;
use crate::types::Variant;
use std::fmt;

/// Why a USI position line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsiError {
    /// The line is not `[position] startpos|sfen ... [moves ...]`.
    Syntax {
        /// Byte offset in the line.
        position: usize,
        /// What is wrong.
        message: String,
    },
    /// The SFEN is malformed or illegal (its offsets are relative to the SFEN).
    Sfen {
        /// Byte offset of the SFEN in the line.
        position: usize,
        /// The SFEN error.
        error: SfenError,
    },
    /// A move is malformed or illegal.
    Move {
        /// Byte offset of the move in the line.
        position: usize,
        /// 1-based index of the move in the list.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it fails (a syntax message or the rule broken).
        message: String,
        /// The rule broken, when the move parsed but is illegal.
        rule: Option<PlayError>,
    },
}

impl fmt::Display for UsiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsiError::Syntax { position, message } => write!(f, "byte {position}: {message}"),
            UsiError::Sfen { position, error } => {
                write!(f, "byte {}: {}", position + error.position, error)
            }
            UsiError::Move {
                position,
                index,
                text,
                message,
                ..
            } => write!(f, "byte {position}: move {index} '{text}': {message}"),
        }
    }
}

impl std::error::Error for UsiError {}

/// A parsed `position` line: the start position and the moves (all checked legal).
#[derive(Clone, Debug)]
pub struct UsiPosition {
    /// The start position.
    pub start: Position,
    /// The moves, each legal in turn.
    pub moves: Vec<Move>,
    /// The position after the moves.
    pub end: Position,
}

/// Reads `[position] startpos [moves ...]`, `[position] sfen <sfen> [moves ...]`, or a bare
/// SFEN (optionally followed by `moves ...`). `startpos` means the start of `variant`.
pub fn parse_usi_position(line: &str, variant: Variant) -> Result<UsiPosition, UsiError> {
    let tokens: Vec<(usize, &str)> = crate::sfen::words(line).collect();
    let mut i = 0;
    if tokens.first().map(|t| t.1) == Some("position") {
        i += 1;
    }
    let Some(&(at, first)) = tokens.get(i) else {
        return Err(UsiError::Syntax {
            position: line.len(),
            message: "expected startpos or sfen".into(),
        });
    };
    let start = if first == "startpos" {
        i += 1;
        Position::startpos(variant)
    } else {
        if first == "sfen" {
            i += 1;
        }
        let sfen_start = tokens.get(i).map(|t| t.0).unwrap_or(line.len());
        let mut j = i;
        while j < tokens.len() && tokens[j].1 != "moves" && j - i < 4 {
            j += 1;
        }
        let sfen_end = if j < tokens.len() {
            tokens[j].0
        } else {
            line.len()
        };
        let text = &line[sfen_start..sfen_end];
        i = j;
        let _ = at;
        Position::from_sfen(text.trim_end()).map_err(|error| UsiError::Sfen {
            position: sfen_start,
            error,
        })?
    };
    let mut moves = Vec::new();
    let mut end = start.clone();
    if let Some(&(at, word)) = tokens.get(i) {
        if word != "moves" {
            return Err(UsiError::Syntax {
                position: at,
                message: format!("expected 'moves', found '{word}'"),
            });
        }
        for (n, &(at, text)) in tokens[i + 1..].iter().enumerate() {
            let mv = Move::from_usi(text).map_err(|e| UsiError::Move {
                position: at,
                index: n + 1,
                text: text.to_string(),
                message: e.message.to_string(),
                rule: None,
            })?;
            end.play(mv).map_err(|e| UsiError::Move {
                position: at,
                index: n + 1,
                text: text.to_string(),
                message: e.to_string(),
                rule: Some(e),
            })?;
            moves.push(mv);
        }
    }
    Ok(UsiPosition { start, moves, end })
}

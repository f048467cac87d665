//! USI `position` lines: `position startpos moves 7g7f ...` and `position sfen ... moves ...`.

use crate::moves::Move;
use crate::position::{PlayError, Position};
use crate::setup::SetupOptions;
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

/// A position as commands and engines give one: an SFEN (its hands and move number may be
/// left out; a leading `sfen` is accepted), `startpos`, either followed by `moves` and USI
/// moves, or a whole USI line `position startpos|sfen … [moves …]`, for shogi and Mini Shogi.
///
/// This is the one parser of position arguments in the workspace: callers add only their own
/// policy (a record file's `--ply`, a database lookup, which [`SetupOptions`] they allow).
/// `Display` writes the USI line back (`position startpos moves 7g7f`, or `position sfen …`
/// when the start is not the variant's start); `FromStr` reads with `startpos` meaning the
/// standard start (use [`UsiPosition::parse`] to name the variant).
///
/// ```
/// use shogi_core::{Square, UsiPosition, Variant};
///
/// let p: UsiPosition = "startpos moves 7g7f 3c3d".parse()?;
/// assert_eq!(p.moves.len(), 2);
/// assert_eq!(p.to_string(), "position startpos moves 7g7f 3c3d");
/// assert_eq!(p.end.to_string(), "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
///
/// let mini = UsiPosition::parse("startpos moves 5e4d", Variant::Mini)?;
/// assert!(mini.end.piece_at(Square::SQ_4D).is_some());
/// let bare = UsiPosition::parse("4k/5/5/5/K4 b G", Variant::Standard)?; // the board decides
/// assert_eq!(bare.end.variant(), Variant::Mini);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiPosition {
    /// The start position.
    pub start: Position,
    /// The moves, each legal in turn.
    pub moves: Vec<Move>,
    /// The position after the moves.
    pub end: Position,
}

/// Where a USI line's start position is: `startpos`, or an SFEN's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UsiStart<'a> {
    /// `startpos`: the start of the variant.
    Startpos,
    /// An SFEN (up to four fields, without the `sfen` word).
    Sfen {
        /// Byte offset of the SFEN in the line.
        at: usize,
        /// The SFEN's text.
        text: &'a str,
    },
}

/// A USI line split into its words, nothing parsed yet: what a reader that keeps illegal
/// moves or its own words in the move list (a record reader) builds on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiWords<'a> {
    /// The start position's text.
    pub start: UsiStart<'a>,
    /// The words after `moves`, each with its byte offset in the line.
    pub moves: Vec<(usize, &'a str)>,
}

impl<'a> UsiWords<'a> {
    /// Splits `[position] startpos|sfen <sfen>|<sfen> [moves …]`. A bare SFEN is known by the
    /// `/` of its board. Offsets are bytes into `line`.
    pub fn split(line: &'a str) -> Result<UsiWords<'a>, UsiError> {
        let tokens: Vec<(usize, &str)> = crate::sfen::words(line).collect();
        let syntax = |position, message: String| UsiError::Syntax { position, message };
        let mut i = usize::from(tokens.first().map(|t| t.1) == Some("position"));
        let Some(&(at, first)) = tokens.get(i) else {
            return Err(syntax(line.len(), "expected startpos or sfen".into()));
        };
        let start = if first == "startpos" {
            i += 1;
            UsiStart::Startpos
        } else if first == "sfen" || first.contains('/') {
            if first == "sfen" {
                i += 1;
            }
            // An SFEN has at most four fields: board, side to move, hands, move number.
            let mut j = i;
            while j < tokens.len() && tokens[j].1 != "moves" && j - i < 4 {
                j += 1;
            }
            let Some(&(sfen_at, _)) = tokens.get(i).filter(|_| j > i) else {
                return Err(syntax(at, "sfen needs a position".into()));
            };
            let (last_at, last) = tokens[j - 1];
            i = j;
            UsiStart::Sfen {
                at: sfen_at,
                text: &line[sfen_at..last_at + last.len()],
            }
        } else {
            let shown: String = first.chars().take(40).collect();
            return Err(syntax(
                at,
                format!("expected startpos, sfen or an SFEN board, found '{shown}'"),
            ));
        };
        let mut moves = Vec::new();
        if let Some(&(at, word)) = tokens.get(i) {
            if word != "moves" {
                let shown: String = word.chars().take(40).collect();
                return Err(syntax(at, format!("expected 'moves', found '{shown}'")));
            }
            moves = tokens[i + 1..].to_vec();
        }
        Ok(UsiWords { start, moves })
    }
}

impl UsiPosition {
    /// Reads a position argument or USI line (see the type); `startpos` is the start of
    /// `variant`, an SFEN's board names its own variant. Setups must be legal.
    pub fn parse(text: &str, variant: Variant) -> Result<UsiPosition, UsiError> {
        UsiPosition::parse_with(text, variant, SetupOptions::default())
    }

    /// As [`UsiPosition::parse`], with the SFEN's setup checked under `options` (for example
    /// [`SetupOptions::PERMISSIVE`] to look up tsume diagrams).
    pub fn parse_with(
        text: &str,
        variant: Variant,
        options: SetupOptions,
    ) -> Result<UsiPosition, UsiError> {
        let words = UsiWords::split(text)?;
        let start = match words.start {
            UsiStart::Startpos => Position::startpos(variant),
            UsiStart::Sfen { at, text } => {
                Position::from_sfen_with(text, options).map_err(|error| UsiError::Sfen {
                    position: at,
                    error,
                })?
            }
        };
        let mut parsed = UsiPosition::from_position(start);
        for (n, &(at, text)) in words.moves.iter().enumerate() {
            let failed = |message: String, rule| UsiError::Move {
                position: at,
                index: n + 1,
                text: text.chars().take(40).collect(),
                message,
                rule,
            };
            let mv = Move::from_usi(text).map_err(|e| failed(e.message.to_string(), None))?;
            parsed
                .end
                .play(mv)
                .map_err(|e| failed(e.to_string(), Some(e)))?;
            parsed.moves.push(mv);
        }
        Ok(parsed)
    }

    /// A position with no moves after it.
    pub fn from_position(start: Position) -> UsiPosition {
        UsiPosition {
            end: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// Whether the start is the variant's start position (move number 1).
    pub fn starts_at_startpos(&self) -> bool {
        self.start == Position::startpos(self.start.variant())
    }
}

/// The USI `position` line of `start` followed by `moves`, the one writer of it (engines,
/// matches, records): `position startpos` for the standard start (move number 1),
/// `position sfen …` for any other start, Mini Shogi's included (`startpos` names the
/// standard start to an engine, and fairy-stockfish and gpsusi both take an SFEN), then
/// ` moves …` when there are moves.
///
/// ```
/// use shogi_core::{Move, Position, Variant, position_line};
///
/// let start = Position::startpos(Variant::Standard);
/// let moves = [Move::from_usi("7g7f")?];
/// assert_eq!(position_line(&start, &moves), "position startpos moves 7g7f");
/// let mini = Position::startpos(Variant::Mini);
/// assert_eq!(position_line(&mini, &[]), "position sfen rbsgk/4p/5/P4/KGSBR b - 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn position_line(start: &Position, moves: &[Move]) -> String {
    use std::fmt::Write;
    let mut s = if *start == Position::startpos(Variant::Standard) {
        String::from("position startpos")
    } else {
        format!("position sfen {start}")
    };
    if !moves.is_empty() {
        s.push_str(" moves");
        for m in moves {
            let _ = write!(s, " {m}");
        }
    }
    s
}

impl fmt::Display for UsiPosition {
    /// [`position_line`] of the start and the moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&position_line(&self.start, &self.moves))
    }
}

impl std::str::FromStr for UsiPosition {
    type Err = UsiError;
    /// [`UsiPosition::parse`] with `startpos` meaning the standard start.
    fn from_str(s: &str) -> Result<UsiPosition, UsiError> {
        UsiPosition::parse(s, Variant::Standard)
    }
}

/// Reads `[position] startpos [moves ...]`, `[position] sfen <sfen> [moves ...]`, or a bare
/// SFEN (optionally followed by `moves ...`). `startpos` means the start of `variant`.
/// The same as [`UsiPosition::parse`], which new code calls.
pub fn parse_usi_position(line: &str, variant: Variant) -> Result<UsiPosition, UsiError> {
    UsiPosition::parse(line, variant)
}

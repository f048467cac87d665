//! The rules of shogi and Mini Shogi (5五将棋): board, pieces, hands, SFEN, USI moves, legal
//! move generation with drops and promotion, check, mate and repetition.
//!
//! One engine serves both variants: the variant is a parameter of the position.
//!
//! ```
//! use shogi_core::{Move, Position, Variant};
//!
//! let mut pos = Position::startpos(Variant::Standard);
//! assert_eq!(pos.legal_moves().len(), 30);
//! pos.play(Move::from_usi("7g7f")?)?;
//! assert_eq!(
//!     pos.to_sfen(),
//!     "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
//! );
//!
//! // Illegal moves are refused with the rule they break.
//! let err = pos.play(Move::from_usi("8c8e")?).unwrap_err();
//! assert_eq!(err.to_string(), "the piece does not move that way");
//!
//! // Mini Shogi is the same engine on a 5x5 board.
//! let mini = Position::startpos(Variant::Mini);
//! assert_eq!(mini.legal_moves().len(), 14);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Text: every vocabulary type prints and parses (`Display`, `FromStr`) in USI/SFEN
//! spelling: a [`Move`] as `7g7f`/`8h2b+`/`P*5e`, a [`Square`] as `7g`, a [`Color`] as `b`/`w`,
//! a [`Role`] as `P`/`+R`, a [`Piece`] as `+r`/`k`, a [`Position`] as its SFEN. Squares have
//! constants named by that spelling (`Square::SQ_7G`). For a position argument of a command or
//! a USI `position` line (`startpos`, an SFEN, `… moves …`) see [`UsiPosition`].
//!
//! ```
//! use shogi_core::{Move, Piece, Position, Role, Square};
//!
//! let m: Move = "7g7f".parse()?;
//! assert_eq!(m.from(), Some(Square::SQ_7G));
//! assert_eq!(m.to().to_string(), "7f");
//! assert_eq!("+r".parse::<Piece>()?.role, Role::Dragon);
//! let p: Position = "4k/5/5/5/K4 b G".parse()?; // hands and move number may be left out
//! assert_eq!(p.to_string(), "4k/5/5/5/K4 b G 1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bitboard;
mod game;
mod hand;
mod handicap;
mod moves;
mod position;
pub mod score;
mod setup;
mod sfen;
mod text;
mod types;
mod usi;
mod zobrist;

pub use bitboard::Bitboard;
pub use game::{Declaration, DeclarationResult, Game, ImpasseRule, Repetition};
pub use hand::Hand;
pub use handicap::Handicap;
pub use moves::{MAX_MOVES, Move, MoveList, UsiMoveError, UsiMoveErrorKind, UsiText};
pub use position::{Outcome, PlayError, Position};
pub use score::{Bound, PovScore, Score};
pub use setup::{Setup, SetupError, SetupOptions, SetupProblem};
pub use sfen::{SfenError, SfenField};
pub use text::NameError;
pub use types::{Color, Piece, Role, Square, Variant};
pub use usi::{UsiError, UsiPosition, UsiStart, UsiWords, parse_usi_position, position_line};

//! Engine matches: our rules as the referee, clocks kept from our side of the pipe, openings,
//! records written as games end, and the statistics (Elo, LOS, SPRT) of the results.
//!
//! - [`settings`]: a match as asked for ([`settings::Request`]) and as checked
//!   ([`settings::Settings`]): which settings go together, their ranges and defaults;
//! - [`error`]: [`MatchError`], naming the [`Parameter`] at fault (front ends word it as a
//!   flag or a keyword);
//! - [`referee`]: a game under our rules that takes each engine answer, as the engine layer
//!   judged it, and decides the end;
//! - [`clock`]: time controls and the clocks we keep;
//! - [`openings`]: start positions from SFEN/USI lines or records; [`book`]: openings walked
//!   through a book;
//! - [`record`]: a finished game as a CSA or KIF record;
//! - [`runner`]: the match over shogi-usi engines on worker threads, made of [`schedule`] (who
//!   plays whom), [`pool`] (the engines), [`game`] (one game), [`adjudication`] (each answer
//!   judged) and [`tally`] (results and summary);
//! - [`output`]: where records go, and `--resume`;
//! - [`stats`]: Elo, interval, LOS, pentanomial, SPRT.
//!
//! ```
//! use shogi_core::{Color, Move, PlayError, Position, Variant};
//! use shogi_match::referee::{Answer, MoveInfo, Referee, Rules, Termination};
//! use shogi_usi::{BestMove, Illegality};
//!
//! let mut game = Referee::new(Position::startpos(Variant::Standard), &[], Rules::default())
//!     .expect("the start position is playable");
//! // The engine layer's checked answer is played as it is.
//! let m = Move::from_usi("7g7f").expect("a USI move");
//! assert!(game.answer(&BestMove::Move(m).into(), MoveInfo::default()).is_none());
//! // Gote answered a move its pawn cannot make, and the engine layer said why: 反則負け.
//! let why = Illegality::Rule(PlayError::CannotMoveThere);
//! let illegal = Answer::Illegal { text: "3c3e".into(), why };
//! let end = game.answer(&illegal, MoveInfo::default()).unwrap();
//! assert_eq!(end.winner, Some(Color::Black));
//! assert!(matches!(end.termination, Termination::IllegalMove { .. }));
//! ```

pub mod adjudication;
pub mod book;
pub mod clock;
pub mod error;
pub mod game;
pub mod openings;
pub mod output;
pub mod pool;
pub mod record;
pub mod referee;
pub mod runner;
pub mod schedule;
pub mod settings;
pub mod stats;
pub mod tally;

pub use error::{MatchError, Parameter};

//! Training data for machine learning from shogi records: the 256-bit packed positions of
//! cshogi (`HuffmanCodedPos`, "hcp") and YaneuraOu (`PackedSfen`), their 16-bit moves, game
//! results, the fixed-size entries built on them (cshogi/DLShogi hcpe, 38 bytes; YaneuraOu
//! PackedSfenValue, psv, 40 bytes), and the export of a record's main line as entries.
//!
//! shogi-core holds the rules and shogi-kif the records; this crate holds only what training
//! data needs of them.
//!
//! ```
//! use shogi_train::{GameResult, Hcpe, PositionFormat};
//! use shogi_core::{Move, Position, Variant};
//!
//! let pos = Position::startpos(Variant::Standard);
//! let mut hcp = [0u8; 32];
//! PositionFormat::Hcp.encode(&pos, &mut hcp)?;
//! assert_eq!(&hcp[..4], &[0x58, 0xa4, 0x49, 0x21]);
//! assert_eq!(PositionFormat::Hcp.decode(&hcp)?, pos);
//!
//! // One hcpe entry: the position, its evaluation, the move played and the game's result.
//! let entry = Hcpe::new(&pos, 35, Some(Move::from_usi("7g7f")?), GameResult::BlackWin)?;
//! let bytes: [u8; Hcpe::SIZE] = entry.to_bytes();
//! assert_eq!(&bytes[32..], &[35, 0, 0x3b, 0x1e, 1, 0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Entries from records
//!
//! Training data from game records: one entry per position of a game's main line, with the
//! move played from it, the game's result and the evaluation the record carries, ready to be
//! written as cshogi/DLShogi hcpe, YaneuraOu PackedSfenValue (psv) or a line of text.
//!
//! It depends only on the record model of shogi-kif ([`Record`], [`MoveNode`],
//! [`shogi_kif::Ending`]) and on shogi-core, so that the command line and the Python bindings
//! share it.
//!
//! # Conventions
//!
//! * **Entries.** One per position *before* each main-line move, in order; the position after
//!   the last move has no entry (no move was played from it). A declared foul move (a
//!   recorded illegal move) and everything after it give no entry.
//! * **Result.** [`game_result`] reads the record's ending as the side to move at the end:
//!   resignation, time loss, mate, own foul and loss by default lose; the opponent's foul and
//!   win by default win; an entering-king declaration wins when it meets the record's rule
//!   (27-point unless the header names the 24-point rule) and loses otherwise (a 24-point
//!   draw is a draw); repetition is a draw unless one side gave check with every move of the
//!   cycle (that side loses); impasse, `%MAX_MOVES` and `%HIKIWAKE` are draws. Interrupted,
//!   adjourned and unterminated games have no result. hcpe stores the result absolutely
//!   (0 draw, 1 sente won, 2 gote won), psv relative to the side to move (1, 0, -1).
//! * **Evaluation.** The records' engine comments are read by
//!   [`shogi_kif::eval::position_scores`], the one reader of every dialect (ShogiHome,
//!   Floodgate, ShogiGUI, ぴよ将棋, csa_client). Every form is from **sente's** point of view
//!   (checked on the Floodgate records of the shared corpus: in games gote won, both engines'
//!   `'**` scores are negative). The playing engine's comment on move *n* (Floodgate's `'**`,
//!   ShogiHome's `*` block) is its search of the position *before* move *n* (the engine's
//!   root: the same reading as DLShogi's `csa_to_hcpe.py`); an analysis comment on move *n*
//!   (ShogiHome's `#` block, ShogiGUI's `解析`, ぴよ将棋's `指し手`) values the position
//!   *after* it, so it goes to the next entry. Entries store the score relative to the side
//!   to move, as both formats want, and 0 where the record carries none.
//! * **Mate and large scores.** hcpe: clamped to ±32767, and a mate is ±32767 (what
//!   `csa_to_hcpe.py` writes for Floodgate's ±100000 mates). psv: clamped to ±32000
//!   (YaneuraOu's `VALUE_MATE`), a mate in *n* plies is ±(32000 − *n*), a mate of unknown
//!   length ±32000.
//! * **Ply.** [`Entry::ply`] is the position's SFEN move number (1 for the start of an even
//!   game): psv's `gamePly`.
//!
//! ```
//! use shogi_core::Score;
//! use shogi_train::{GameResult, TrainingOptions};
//!
//! let csa = "V2\nN+a\nN-b\nPI\n+\n+7776FU\n'** 35 -3334FU\n-3334FU\n'** -20\n%TORYO\n";
//! let record = shogi_kif::read_str(csa, shogi_kif::ReadOptions::default())?;
//! let entries = shogi_train::entries(&record, &TrainingOptions::default()).expect("selected");
//! assert_eq!(entries.len(), 2);
//! assert_eq!(entries[0].mv.to_usi(), "7g7f");
//! assert_eq!(entries[0].eval, Some(Score::Cp(35)));
//! // Sente, to move at the end, resigned.
//! assert_eq!(entries[1].result, GameResult::WhiteWin);
//! // The second position has gote to move: sente's -20 is +20 for gote.
//! assert_eq!(entries[1].hcpe_eval(), 20);
//! # Ok::<(), shogi_kif::ReadError>(())
//! ```
//!
//! Layout: `packed` (positions, moves, results, entries as bytes), `eval` (evaluations as
//! the formats store them), `judge` (the game's result), `export` (a record's entries).

mod eval;
mod export;
mod judge;
mod packed;

pub use eval::{PSV_MATE, hcpe_eval, psv_score};
pub use export::{Entry, Skip, TrainingOptions, entries, for_each_entry, select};
pub use judge::{game_result, winner_result};
pub use packed::{
    DecodeError, EncodeError, GameResult, Hcpe, Move16Format, PACKED_POSITION_BYTES,
    PackedSfenValue, PositionFormat, RelativeResult,
};

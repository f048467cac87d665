//! Shogi game records: read KIF, KI2, CSA, USI/SFEN and JKF into one model, check every
//! move, and write them back in any of these formats.
//!
//! Reading happens in two phases: a syntax layer that needs no rules, then a replay that
//! resolves each written move against the position (with [`shogi_core`]) and fails with the
//! line, column, ply, the move as written and the rule broken.
//!
//! One reader, [`Reader`], reads every format from any [`std::io::BufRead`] (a `&[u8]` for
//! input in memory), game by game: each [`ReadRecord`] carries its record, the first error and
//! the diagnostics (the reader's warnings and [`validate`]'s checks, from the same replay).
//!
//! ```
//! use shogi_kif::{ReadOptions, Reader};
//! let csa = "PI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nPI\n+\n+2726FU\n-3334FU\n+2625FU\n";
//! let reader = Reader::new(csa.as_bytes(), ReadOptions::default())?;
//! assert_eq!(reader.format(), shogi_kif::Format::Csa);
//! for game in reader {
//!     assert!(game.is_valid(), "{:?}", game.error);
//!     println!("game {} (line {}): {} plies", game.index, game.line, game.record.main_line().count());
//! }
//! # Ok::<(), shogi_kif::ReadError>(())
//! ```
//!
//! [`read_str`], [`read_bytes`] and [`read_path`] read the first record of an input:
//!
//! ```
//! use shogi_kif::{ReadOptions, read_str};
//! let kif = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
//! let record = read_str(kif, ReadOptions::default())?;
//! assert_eq!(record.usi_moves(), ["7g7f", "3c3d"]);
//! let last = record.final_position().expect("legal record");
//! assert_eq!(last.to_sfen(), "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
//! # Ok::<(), shogi_kif::ReadError>(())
//! ```
//!
//! A whole program: read a file, walk its main line in Japanese notation, print who won
//! (the README's "Architecture" section points here):
//!
//! ```
//! use shogi_kif::notation::{Notation, move_text};
//! use shogi_kif::{MainLine, ReadOptions, outcome, read_path};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     # let dir = std::env::temp_dir().join(format!("shogi-kif-doc-{}", std::process::id()));
//!     # std::fs::create_dir_all(&dir)?;
//!     # let path = dir.join("game.kif");
//!     # std::fs::write(&path, "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 投了\n")?;
//!     let record = read_path(&path, ReadOptions::default())?;
//!     let mut pos = record.start_position().clone();
//!     let mut last = None;
//!     let mut line = Vec::new();
//!     for node in record.main_line() {
//!         line.push(move_text(&pos, node.mv, last, Notation::Japanese));
//!         pos.play(node.mv)?;
//!         last = Some(node.mv.to());
//!     }
//!     println!("{}", line.join(" "));
//!     let main = MainLine::replay(&record);
//!     let (ending, winner) = outcome(&record, &main);
//!     println!("{} ({})", winner.name(), ending.unwrap_or("no ending"));
//!     assert_eq!(line.join(" "), "▲７六歩 △３四歩 ▲２二角成");
//!     assert_eq!((ending, winner.name()), (Some("resign"), "sente"));
//!     # std::fs::remove_dir_all(&dir)?;
//!     Ok(())
//! }
//! ```
//!
//! Errors render like a compiler's:
//!
//! ```
//! let err = shogi_kif::read_str("1 ７六歩(77)\n2 ３五歩(33)\n", Default::default()).unwrap_err();
//! assert_eq!(err.to_string(), "<input>:2:3: error: move 2 ３五歩(33): the piece does not move that way");
//! ```

pub mod board;
mod csa;
mod encode;
mod encoding;
mod ending;
mod error;
pub mod eval;
mod format;
mod holds;
mod japanese;
mod jkf;
mod kif;
pub mod limits;
mod loss;
mod main_line;
mod model;
pub mod notation;
mod outcome;
mod raw;
mod read;
mod replay;
mod text;
mod usi;
mod validate;
mod variations;
mod write;
mod written_ending;

pub use encode::{Unencodable, encode, encode_lossy, substitute};
pub use encoding::{Encoding, declared_encoding, decode};
pub use ending::{EndingKind, UNKNOWN_ENDING_WORD};
pub use error::{Diagnostic, ErrorKind, Location, ReadError, Severity};
pub use format::Format;
pub use kif::write::write_bod as write_diagram;
pub use loss::{Loss, losses};
pub use main_line::MainLine;
pub use model::{Ending, Header, HeaderEntry, HeaderKey, Line, MoveNode, MoveTime, Record, Start};
pub use outcome::{ENDING_NAMES, Winner, ending_name, outcome};
pub use read::{ReadOptions, ReadRecord, Reader, read_bytes, read_path, read_str};
pub use usi::write::UsiForm;
pub use validate::{impasse_rule, validate};
pub use variations::{Variation, variation_line, variations, with_variation};
pub use write::{
    WriteOptions, Written, write, write_reporting, write_to, write_to_with, write_usi, write_with,
};

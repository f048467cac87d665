//! Training-data binary formats: the 256-bit packed positions of cshogi (`HuffmanCodedPos`,
//! "hcp") and YaneuraOu (`PackedSfen`), their 16-bit move encodings, and the fixed-size entries
//! built on them (cshogi/DLShogi `hcpe`, 38 bytes; YaneuraOu `PackedSfenValue`, 40 bytes).
//!
//! The layouts follow `shared/TRAINING-FORMATS.md`, and the output is byte-identical to cshogi
//! 1.1.0 (`Board.to_hcp`, `Board.to_psfen`, `move16`, `move16_to_psv`). Only standard shogi with
//! one king per side and at most one set of pieces can be encoded; decoding validates the bytes
//! and the position they describe.
//!
//! Layout: `code` (the Huffman code tables of both encodings and the bit streams), `position`
//! (hcp and PackedSfen positions), `move16` (the 16-bit moves), `result` (game results, absolute
//! and relative), `entry` (the hcpe and psv entries) and `kinds` (the formats and their
//! errors, which the others share).

mod code;
mod entry;
mod kinds;
mod move16;
mod position;
mod result;

pub use entry::{Hcpe, PackedSfenValue};
pub use kinds::{DecodeError, EncodeError, Move16Format, PACKED_POSITION_BYTES, PositionFormat};
pub use result::{GameResult, RelativeResult};

//! The fixed-size entries: cshogi/DLShogi hcpe and YaneuraOu PackedSfenValue.

use super::kinds::{DecodeError, EncodeError, Move16Format, PositionFormat};
use super::result::{GameResult, RelativeResult};
use shogi_core::{Color, Move, Position};
// ---------------------------------------------------------------------------------------------
// Entries

/// cshogi / DLShogi `HuffmanCodedPosAndEval`: one 38-byte hcpe entry (little-endian fields,
/// last byte padding 0). A file is a headerless run of entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hcpe {
    /// The position ([`PositionFormat::Hcp`]).
    pub hcp: [u8; 32],
    /// Evaluation from the point of view of the side to move.
    pub eval: i16,
    /// The move ([`Move16Format::Cshogi`]; DLShogi stores the move played), 0 for none.
    pub best_move16: u16,
    /// The game's result (absolute).
    pub game_result: GameResult,
}

impl Hcpe {
    /// Bytes per entry.
    pub const SIZE: usize = 38;

    /// The entry for `pos` (whose side to move `eval` is relative to), the move played there
    /// and the game's result.
    #[inline]
    pub fn new(
        pos: &Position,
        eval: i16,
        mv: Option<Move>,
        game_result: GameResult,
    ) -> Result<Hcpe, EncodeError> {
        let mut hcp = [0u8; 32];
        PositionFormat::Hcp.encode(pos, &mut hcp)?;
        let best_move16 = match mv {
            Some(m) => Move16Format::Cshogi.encode(m)?,
            None => 0,
        };
        Ok(Hcpe {
            hcp,
            eval,
            best_move16,
            game_result,
        })
    }

    /// The 38 bytes, as written to a file.
    #[inline]
    pub fn to_bytes(&self) -> [u8; Hcpe::SIZE] {
        let mut b = [0u8; Hcpe::SIZE];
        b[..32].copy_from_slice(&self.hcp);
        b[32..34].copy_from_slice(&self.eval.to_le_bytes());
        b[34..36].copy_from_slice(&self.best_move16.to_le_bytes());
        b[36] = self.game_result.to_byte();
        b
    }

    /// Reads an entry. Only the result byte is checked here (0, 1 or 2); the padding byte is
    /// ignored. Decode the position with [`Hcpe::position`].
    pub fn from_bytes(b: &[u8; Hcpe::SIZE]) -> Result<Hcpe, DecodeError> {
        let mut hcp = [0u8; 32];
        hcp.copy_from_slice(&b[..32]);
        Ok(Hcpe {
            hcp,
            eval: i16::from_le_bytes([b[32], b[33]]),
            best_move16: u16::from_le_bytes([b[34], b[35]]),
            game_result: GameResult::from_byte(b[36]).ok_or(DecodeError::BadGameResult(b[36]))?,
        })
    }

    /// The position (move number 1: hcp does not hold it).
    pub fn position(&self) -> Result<Position, DecodeError> {
        PositionFormat::Hcp.decode(&self.hcp)
    }

    /// The move, checked to be legal in `pos` (the entry's position); `None` when 0.
    pub fn best_move(&self, pos: &Position) -> Result<Option<Move>, DecodeError> {
        match self.best_move16 {
            0 => Ok(None),
            v => Move16Format::Cshogi.decode(v, pos).map(Some),
        }
    }
}

/// YaneuraOu `PackedSfenValue` (`PsvRecord`): one 40-byte psv entry (little-endian fields, last
/// byte padding 0). A file is a headerless run of entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedSfenValue {
    /// The position ([`PositionFormat::PackedSfen`]).
    pub sfen: [u8; 32],
    /// Search score from the point of view of the side to move.
    pub score: i16,
    /// The move ([`Move16Format::YaneuraOu`]), 0 for none.
    pub move16: u16,
    /// The ply of the position from the game's start: its SFEN move number (1 at the start).
    pub game_ply: u16,
    /// The game's result from the point of view of the side to move.
    pub game_result: RelativeResult,
}

impl PackedSfenValue {
    /// Bytes per entry.
    pub const SIZE: usize = 40;

    /// The entry for `pos`, the move played there and the game's result (absolute; stored
    /// relative to `pos`'s side to move). `game_ply` is the position's move number (saturated
    /// at 65535); `score` is relative to the side to move.
    #[inline]
    pub fn new(
        pos: &Position,
        score: i16,
        mv: Option<Move>,
        game_result: GameResult,
    ) -> Result<PackedSfenValue, EncodeError> {
        let mut sfen = [0u8; 32];
        PositionFormat::PackedSfen.encode(pos, &mut sfen)?;
        let move16 = match mv {
            Some(m) => Move16Format::YaneuraOu.encode(m)?,
            None => 0,
        };
        Ok(PackedSfenValue {
            sfen,
            score,
            move16,
            game_ply: pos.move_number().min(u16::MAX as u32) as u16,
            game_result: game_result.relative_to(pos.side_to_move()),
        })
    }

    /// The 40 bytes, as written to a file.
    #[inline]
    pub fn to_bytes(&self) -> [u8; PackedSfenValue::SIZE] {
        let mut b = [0u8; PackedSfenValue::SIZE];
        b[..32].copy_from_slice(&self.sfen);
        b[32..34].copy_from_slice(&self.score.to_le_bytes());
        b[34..36].copy_from_slice(&self.move16.to_le_bytes());
        b[36..38].copy_from_slice(&self.game_ply.to_le_bytes());
        b[38] = self.game_result.to_byte() as u8;
        b
    }

    /// Reads an entry. Only the result byte is checked here (-1, 0 or 1); the padding byte is
    /// ignored. Decode the position with [`PackedSfenValue::position`].
    pub fn from_bytes(b: &[u8; PackedSfenValue::SIZE]) -> Result<PackedSfenValue, DecodeError> {
        let mut sfen = [0u8; 32];
        sfen.copy_from_slice(&b[..32]);
        Ok(PackedSfenValue {
            sfen,
            score: i16::from_le_bytes([b[32], b[33]]),
            move16: u16::from_le_bytes([b[34], b[35]]),
            game_ply: u16::from_le_bytes([b[36], b[37]]),
            game_result: RelativeResult::from_byte(b[38] as i8)
                .ok_or(DecodeError::BadGameResult(b[38]))?,
        })
    }

    /// The position, with `game_ply` as its move number (1 when `game_ply` is 0).
    pub fn position(&self) -> Result<Position, DecodeError> {
        let mut pos = PositionFormat::PackedSfen.decode(&self.sfen)?;
        pos.set_move_number(self.game_ply.max(1) as u32);
        Ok(pos)
    }

    /// The move, checked to be legal in `pos` (the entry's position); `None` when 0.
    pub fn best_move(&self, pos: &Position) -> Result<Option<Move>, DecodeError> {
        match self.move16 {
            0 => Ok(None),
            v => Move16Format::YaneuraOu.decode(v, pos).map(Some),
        }
    }

    /// The game's result, absolute (given the side to move stored in the position's bit 0).
    pub fn absolute_result(&self) -> GameResult {
        let side = if self.sfen[0] & 1 == 1 {
            Color::White
        } else {
            Color::Black
        };
        self.game_result.absolute(side)
    }
}

//! The 16-bit move encodings of hcpe and psv.

use super::kinds::{DecodeError, EncodeError, Move16Format};
use shogi_core::{Move, Position, Role, Square};
// ---------------------------------------------------------------------------------------------
// Moves

/// Piece type numbers of both libraries by hand role (P L N S G B R): gold is 7.
const PIECE_TYPE: [u16; 7] = [1, 2, 3, 4, 7, 5, 6];
/// Hand roles by piece type number 1..=7.
const ROLE_OF_TYPE: [Role; 8] = [
    Role::Pawn,
    Role::Pawn,
    Role::Lance,
    Role::Knight,
    Role::Silver,
    Role::Bishop,
    Role::Rook,
    Role::Gold,
];

impl Move16Format {
    /// The 16-bit value of `m`. Drops carry no colour. Refused only for a drop of a role that
    /// cannot be in hand (never a legal move).
    #[inline]
    pub fn encode(self, m: Move) -> Result<u16, EncodeError> {
        Ok(match m {
            Move::Normal { from, to, promote } => {
                let flag = match self {
                    Move16Format::Cshogi => 1 << 14,
                    Move16Format::YaneuraOu => 1 << 15,
                };
                to.index() as u16 | (from.index() as u16) << 7 | if promote { flag } else { 0 }
            }
            Move::Drop { role, to } => {
                if !role.is_hand_role() {
                    return Err(EncodeError::UnencodableMove(m));
                }
                let pt = PIECE_TYPE[role.index() & 7];
                match self {
                    Move16Format::Cshogi => to.index() as u16 | (80 + pt) << 7,
                    Move16Format::YaneuraOu => to.index() as u16 | pt << 7 | 1 << 14,
                }
            }
        })
    }

    /// The move a 16-bit value spells, checking only its syntax (squares, flags, piece type).
    /// The special values (0 = none, 129 = null, YaneuraOu's resign and win) are refused.
    pub fn parse(self, value: u16) -> Result<Move, DecodeError> {
        let bad = |reason| Err(DecodeError::BadMove16 { value, reason });
        let to = (value & 127) as usize;
        let from = ((value >> 7) & 127) as usize;
        let Some(to) = Square::from_index(to) else {
            return bad("destination is not a square");
        };
        let (drop, promote) = match self {
            Move16Format::Cshogi => {
                if value & (1 << 15) != 0 {
                    return bad("bit 15 is set (unused in cshogi move16)");
                }
                (from >= 81, value & (1 << 14) != 0)
            }
            Move16Format::YaneuraOu => (value & (1 << 14) != 0, value & (1 << 15) != 0),
        };
        if drop {
            if promote {
                return bad("a drop cannot promote");
            }
            let pt = match self {
                Move16Format::Cshogi => from - 80,
                Move16Format::YaneuraOu => from,
            };
            if !(1..=7).contains(&pt) {
                return bad("drop piece type is not 1..7");
            }
            return Ok(Move::Drop {
                role: ROLE_OF_TYPE[pt],
                to,
            });
        }
        let Some(from) = Square::from_index(from) else {
            return bad("source is not a square");
        };
        if from == to {
            return bad("source and destination are the same square (none, null or special)");
        }
        Ok(Move::Normal { from, to, promote })
    }

    /// The move a 16-bit value spells, checked to be legal in `pos`.
    pub fn decode(self, value: u16, pos: &Position) -> Result<Move, DecodeError> {
        let mv = self.parse(value)?;
        pos.check_move(mv)
            .map_err(|reason| DecodeError::IllegalMove16 { value, mv, reason })?;
        Ok(mv)
    }

    /// Re-encodes a value of this format in `target` (cshogi's `move16_to_psv` and
    /// `move16_from_psv`), checking its syntax.
    pub fn convert(self, value: u16, target: Move16Format) -> Result<u16, DecodeError> {
        let m = self.parse(value)?;
        target.encode(m).map_err(|_| DecodeError::BadMove16 {
            value,
            reason: "no encoding in the target format",
        })
    }
}

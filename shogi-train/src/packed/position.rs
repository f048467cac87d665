//! hcp and PackedSfen positions: encoding and decoding.

use super::code::{BOX, BitWriter, EMPTY, HCP_TABLES, PSFEN_TABLES, Tables, peek};
use super::kinds::{DecodeError, EncodeError, Move16Format, PositionFormat};
use shogi_core::{Color, Piece, Position, Role, Setup, SetupOptions, Square, Variant};
// ---------------------------------------------------------------------------------------------
// Positions

impl PositionFormat {
    fn tables(self) -> &'static Tables {
        match self {
            PositionFormat::Hcp => &HCP_TABLES,
            PositionFormat::PackedSfen => &PSFEN_TABLES,
        }
    }

    /// The move encoding that goes with this position format in its entries (hcpe: cshogi,
    /// psv: YaneuraOu).
    pub const fn move16_format(self) -> Move16Format {
        match self {
            PositionFormat::Hcp => Move16Format::Cshogi,
            PositionFormat::PackedSfen => Move16Format::YaneuraOu,
        }
    }

    /// Writes the 256-bit encoding of `pos` into `out`. The move number is not encoded.
    ///
    /// Refused (and `out` left unchanged): Mini Shogi, a side without a king, more pieces of a
    /// kind than one set holds.
    #[inline]
    pub fn encode(self, pos: &Position, out: &mut [u8; 32]) -> Result<(), EncodeError> {
        self.encode_parts(
            pos.variant(),
            |sq| pos.piece_at(sq),
            [pos.hand(Color::Black), pos.hand(Color::White)],
            pos.side_to_move(),
            out,
        )
    }

    /// Writes the 256-bit encoding of a setup, which need not be a legal position (cshogi
    /// encodes any board with one king per side). Refused as in [`PositionFormat::encode`],
    /// and for a side with more than one king.
    pub fn encode_setup(self, setup: &Setup, out: &mut [u8; 32]) -> Result<(), EncodeError> {
        self.encode_parts(
            setup.variant,
            |sq| setup.piece_at(sq),
            setup.hands,
            setup.side_to_move,
            out,
        )
    }

    #[inline(always)]
    fn encode_parts(
        self,
        variant: Variant,
        piece_at: impl Fn(Square) -> Option<Piece>,
        hands: [shogi_core::Hand; 2],
        side: Color,
        out: &mut [u8; 32],
    ) -> Result<(), EncodeError> {
        if variant != Variant::Standard {
            return Err(EncodeError::Variant(variant));
        }
        let t = self.tables();
        let mut w = BitWriter {
            words: [0; 4],
            len: 15,
        };
        // Pieces of each hand role (unpromoted) on the board and in hands.
        let mut counts = [0u32; 8];
        let mut kings = [0u64; 2];
        let mut king_count = [0u32; 2];
        for sq in Square::all() {
            match piece_at(sq) {
                None => w.len += 1,
                Some(p) if p.role == Role::King => {
                    kings[p.color.index()] = sq.index() as u64;
                    king_count[p.color.index()] += 1;
                }
                Some(p) => {
                    counts[p.role.unpromote().index() & 7] += 1;
                    w.put(t.board[p.index()]);
                }
            }
        }
        for color in Color::ALL {
            match king_count[color.index()] {
                0 => return Err(EncodeError::MissingKing(color)),
                1 => {}
                _ => return Err(EncodeError::ExtraKing(color)),
            }
        }
        w.words[0] |= (side == Color::White) as u64 | kings[0] << 1 | kings[1] << 8;
        for color in Color::ALL {
            let hand = hands[color.index()];
            for (r, &role) in Role::HAND.iter().enumerate() {
                let n = hand.count(role);
                counts[r] += n as u32;
                let c = t.hand[color.index()][r];
                for _ in 0..n {
                    w.put(c);
                }
            }
        }
        for (r, &role) in Role::HAND.iter().enumerate() {
            let max = Variant::Standard.set_count(role);
            if counts[r] > max as u32 {
                return Err(EncodeError::TooManyPieces {
                    role,
                    count: counts[r],
                    max,
                });
            }
            for _ in counts[r]..max as u32 {
                w.put(t.boxed[r]);
            }
        }
        // One king per side and at most one set always make exactly 256 bits.
        debug_assert_eq!(w.len, 256);
        for (chunk, word) in out.chunks_exact_mut(8).zip(w.words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        Ok(())
    }

    /// The 256-bit encoding of `pos` as a new array (see [`PositionFormat::encode`]).
    pub fn encode_to_array(self, pos: &Position) -> Result<[u8; 32], EncodeError> {
        let mut out = [0u8; 32];
        self.encode(pos, &mut out)?;
        Ok(out)
    }

    /// Decodes 256 bits into a position, with move number 1.
    ///
    /// Refused: a king square that is no square, both kings on one square, bits that are no
    /// code of the format, a code running past bit 256, and positions that are not legal (the
    /// checks of [`Position::from_setup`] with default options: too many pieces, nifu, pieces
    /// that cannot move, the side not to move in check). Piece-box entries are skipped, in any
    /// order; hand entries may come in any order.
    pub fn decode(self, bytes: &[u8; 32]) -> Result<Position, DecodeError> {
        let setup = self.decode_setup(bytes)?;
        Position::from_setup(setup, SetupOptions::default()).map_err(DecodeError::Impossible)
    }

    /// Decodes 256 bits into a setup (move number 1), checking the codes but not whether
    /// the pieces form a legal position (see [`PositionFormat::decode`]).
    pub fn decode_setup(self, bytes: &[u8; 32]) -> Result<Setup, DecodeError> {
        let t = self.tables();
        let mut words = [0u64; 4];
        for (word, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(chunk);
            *word = u64::from_le_bytes(b);
        }
        let mut setup = Setup::empty(Variant::Standard);
        if words[0] & 1 == 1 {
            setup.side_to_move = Color::White;
        }
        let mut kings = [0usize; 2];
        for color in Color::ALL {
            let index = ((words[0] >> (1 + 7 * color.index() as u32)) & 127) as u8;
            let Some(sq) = Square::from_index(index as usize) else {
                return Err(DecodeError::KingSquare { color, index });
            };
            kings[color.index()] = sq.index();
            if color == Color::White && kings[0] == sq.index() {
                return Err(DecodeError::KingsOnSameSquare(sq));
            }
            setup.set_piece(sq, Some(Piece::new(color, Role::King)));
        }
        let mut at: u32 = 15;
        for sq in Square::all() {
            if sq.index() == kings[0] || sq.index() == kings[1] {
                continue;
            }
            let slot = t.board_decode[peek(&words, at, 8)];
            let square = Some(sq);
            if slot.len == 0 {
                return Err(DecodeError::BadCode {
                    bit: at as u16,
                    square,
                });
            }
            if at + slot.len as u32 > 256 {
                return Err(DecodeError::Overflow {
                    bit: at as u16,
                    square,
                });
            }
            at += slot.len as u32;
            if slot.what != EMPTY {
                setup.set_piece(sq, Some(piece_from_index(slot.what)));
            }
        }
        while at < 256 {
            let slot = t.hand_decode[peek(&words, at, 7)];
            if slot.len == 0 {
                return Err(DecodeError::BadCode {
                    bit: at as u16,
                    square: None,
                });
            }
            if at + slot.len as u32 > 256 {
                return Err(DecodeError::Overflow {
                    bit: at as u16,
                    square: None,
                });
            }
            at += slot.len as u32;
            if slot.what != BOX {
                let p = piece_from_index(slot.what);
                setup.hands[p.color.index()].add(p.role);
            }
        }
        Ok(setup)
    }
}

/// The piece with `Piece::index() == i` (tables only hold valid indices).
fn piece_from_index(i: u8) -> Piece {
    let color = if i >= 14 { Color::White } else { Color::Black };
    let role = Role::from_index(i as usize % 14).unwrap_or(Role::Pawn);
    Piece::new(color, role)
}

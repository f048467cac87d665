//! Moves as text for people: USI, Japanese (KI2 style) and Western (Hodges).
//!
//! ```
//! use shogi_core::{Move, Position, Variant};
//! use shogi_kif::notation::{Notation, move_text};
//!
//! let pos = Position::startpos(Variant::Standard);
//! let mv = Move::from_usi("7g7f").unwrap();
//! assert_eq!(move_text(&pos, mv, None, Notation::Usi), "7g7f");
//! assert_eq!(move_text(&pos, mv, None, Notation::Japanese), "▲７六歩");
//! assert_eq!(move_text(&pos, mv, None, Notation::Western), "P-7f");
//! ```

use crate::japanese::{self, Style};
use shogi_core::{Move, Position, Square};
use std::fmt;
use std::str::FromStr;

/// A way of writing moves as text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    /// USI, as engines read it: `7g7f`, `8h2b+`, `S*5e`.
    #[default]
    Usi,
    /// Japanese as KI2 writes it: the side's mark, the square (or 同), the piece, the
    /// qualifiers 右左直上引寄 where another piece of that kind reaches the square, 成, 不成,
    /// 打: `▲７六歩`, `△同角成`, `▲５八金右`.
    Japanese,
    /// Western (Hodges): piece letter (`+` before a promoted one), the origin square only
    /// when another piece of that kind could legally go there too, `-` for a move, `x` for a
    /// capture, `*` for a drop, the square (file digit, rank letter), then `+` for a promotion
    /// and `=` for a promotion declined: `P-7f`, `Bx2b+`, `S*5e`, `G6i-5h`, `Nx7c=`.
    Western,
}

impl Notation {
    /// The name used on command lines and in files: `usi`, `japanese`, `western`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Usi => "usi",
            Notation::Japanese => "japanese",
            Notation::Western => "western",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A notation name that is not one of `usi`, `japanese` (`ja`, `kanji`), `western` (`hodges`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNotation(pub String);

impl fmt::Display for UnknownNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown notation `{}` (expected usi, japanese or western)",
            self.0
        )
    }
}

impl std::error::Error for UnknownNotation {}

impl FromStr for Notation {
    type Err = UnknownNotation;

    fn from_str(s: &str) -> Result<Notation, UnknownNotation> {
        match s.to_ascii_lowercase().as_str() {
            "usi" => Ok(Notation::Usi),
            "japanese" | "ja" | "kanji" | "ki2" => Ok(Notation::Japanese),
            "western" | "hodges" | "english" => Ok(Notation::Western),
            _ => Err(UnknownNotation(s.to_string())),
        }
    }
}

/// The text of `mv`, a move of the side to move in `pos`, in `notation`. `last_to` is the
/// previous move's destination: Japanese writes a move there as 同.
///
/// A move that is not legal in `pos` (a recorded foul) is still written, as far as the
/// position tells: a move from an empty square is written in USI.
pub fn move_text(pos: &Position, mv: Move, last_to: Option<Square>, notation: Notation) -> String {
    let mut s = String::with_capacity(16);
    push_move(&mut s, pos, mv, last_to, notation);
    s
}

/// The text of `mv` as the KIF writer writes it on a move line (no side mark, the source
/// square in brackets, 打 for every drop, `同　` with a full-width space): `７六歩(77)`,
/// `同　角成(88)`, `５五角打`. `last_to` is the previous move's destination.
///
/// ```
/// use shogi_core::{Move, Position, Variant};
/// use shogi_kif::notation::kif_move_text;
///
/// let pos = Position::startpos(Variant::Standard);
/// assert_eq!(kif_move_text(&pos, Move::from_usi("7g7f").unwrap(), None), "７六歩(77)");
/// ```
pub fn kif_move_text(pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    let mut s = String::with_capacity(16);
    japanese::write_move(&mut s, pos, mv, last_to, Style::Kif);
    s
}

/// Writes [`move_text`] into `out`.
pub fn write_move<W: fmt::Write + ?Sized>(
    out: &mut W,
    pos: &Position,
    mv: Move,
    last_to: Option<Square>,
    notation: Notation,
) -> fmt::Result {
    out.write_str(&move_text(pos, mv, last_to, notation))
}

fn push_move(s: &mut String, pos: &Position, mv: Move, last_to: Option<Square>, n: Notation) {
    let unknown_piece = matches!(mv, Move::Normal { from, .. } if pos.piece_at(from).is_none());
    match n {
        _ if unknown_piece => s.push_str(&mv.to_usi()),
        Notation::Usi => s.push_str(&mv.to_usi()),
        Notation::Japanese => japanese::write_move(s, pos, mv, last_to, Style::Ki2),
        Notation::Western => push_western(s, pos, mv),
    }
}

/// Hodges notation; the caller has checked that a normal move's source holds a piece.
fn push_western(s: &mut String, pos: &Position, mv: Move) {
    match mv {
        Move::Drop { role, to } => {
            s.push(role.sfen_char());
            s.push('*');
            s.push_str(&to.usi());
        }
        Move::Normal { from, to, promote } => {
            let Some(piece) = pos.piece_at(from) else {
                s.push_str(&mv.to_usi());
                return;
            };
            let role = piece.role;
            if role.is_promoted() {
                s.push('+');
            }
            s.push(role.sfen_char());
            let mut ambiguous = false;
            pos.for_each_legal_move_to(to, |m| {
                ambiguous |= match m {
                    Move::Normal { from: f, .. } => {
                        f != from && pos.piece_at(f).is_some_and(|p| p.role == role)
                    }
                    Move::Drop { .. } => false,
                }
            });
            if ambiguous {
                s.push_str(&from.usi());
            }
            s.push(if pos.piece_at(to).is_some() { 'x' } else { '-' });
            s.push_str(&to.usi());
            let other = Move::Normal {
                from,
                to,
                promote: !promote,
            };
            if promote {
                s.push('+');
            } else if role.can_promote() && pos.is_legal(other) {
                s.push('=');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::Variant;

    /// The text of each move of `usi_moves` from `sfen` (or the start), in `n`.
    fn texts(sfen: Option<&str>, usi_moves: &str, n: Notation) -> Vec<String> {
        let mut pos = match sfen {
            Some(s) => Position::from_sfen(s).unwrap(),
            None => Position::startpos(Variant::Standard),
        };
        let mut last = None;
        let mut out = Vec::new();
        for u in usi_moves.split_whitespace() {
            let mv = Move::from_usi(u).unwrap();
            out.push(move_text(&pos, mv, last, n));
            pos.play(mv).unwrap();
            last = Some(mv.to());
        }
        out
    }

    #[test]
    fn western_opening_with_capture_promotion_and_recapture() {
        let t = texts(None, "7g7f 3c3d 8h2b+ 3a2b", Notation::Western);
        assert_eq!(t, ["P-7f", "P-3d", "Bx2b+", "Sx2b"]);
    }

    #[test]
    fn western_names_the_origin_only_when_two_pieces_can_go() {
        // Both golds reach 5h from the start; only one reaches 7h.
        assert_eq!(texts(None, "6i5h", Notation::Western), ["G6i-5h"]);
        assert_eq!(texts(None, "6i7h", Notation::Western), ["G-7h"]);
    }

    #[test]
    fn western_drops_declined_promotion_and_promoted_pieces() {
        // Black: a knight on 8e that may promote on 7c, a knight on 8g outside the zone, a
        // dragon on 8h, a silver in hand; a White pawn on 7c.
        let sfen = "4k4/9/2p6/9/1N7/9/1N7/1+R7/4K4 b S 1";
        let one = |usi: &str| texts(Some(sfen), usi, Notation::Western);
        assert_eq!(one("8e7c"), ["Nx7c="]);
        assert_eq!(one("8e7c+"), ["Nx7c+"]);
        assert_eq!(one("8g7e"), ["N-7e"]);
        assert_eq!(one("S*5e"), ["S*5e"]);
        assert_eq!(one("8h2h"), ["+R-2h"]);
        assert_eq!(one("8h7g"), ["+R-7g"]);
    }

    #[test]
    fn japanese_is_ki2_with_marks_and_same_square() {
        let t = texts(None, "7g7f 3c3d 8h2b+ 3a2b", Notation::Japanese);
        assert_eq!(t, ["▲７六歩", "△３四歩", "▲２二角成", "△同銀"]);
        assert_eq!(texts(None, "6i5h", Notation::Japanese), ["▲５八金左"]);
    }

    #[test]
    fn usi_and_names() {
        assert_eq!(texts(None, "7g7f", Notation::Usi), ["7g7f"]);
        for n in [Notation::Usi, Notation::Japanese, Notation::Western] {
            assert_eq!(n.name().parse::<Notation>(), Ok(n));
        }
        assert!("chess".parse::<Notation>().is_err());
    }
}

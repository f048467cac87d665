//! `Display` and `FromStr` for the vocabulary, in USI/SFEN spelling throughout:
//!
//! | type | text | example |
//! |---|---|---|
//! | [`Move`] | USI move | `7g7f`, `8h2b+`, `P*5e` |
//! | [`Square`] | USI square | `7g` |
//! | [`Color`] | SFEN side to move | `b`, `w` |
//! | [`Role`] | SFEN letter of a sente piece | `P`, `+R` (lower case is read too) |
//! | [`Piece`] | SFEN piece | `P`, `+r`, `k` |
//! | [`Position`] | SFEN with its move number | `lnsgkgsnl/… b - 1` |
//!
//! Parsing gives back what printing wrote: `x.to_string().parse() == Ok(x)`.

use crate::moves::{Move, UsiMoveError};
use crate::position::Position;
use crate::sfen::SfenError;
use crate::types::{Color, Piece, Role, Square};
use std::fmt;
use std::str::FromStr;

/// Why a text is not the name of a square, colour, role or piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameError {
    /// What was expected: `square`, `color`, `role` or `piece`.
    pub expected: &'static str,
    /// The text given.
    pub text: String,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let example = match self.expected {
            "square" => "like 7g",
            "color" => "b or w",
            "role" => "like P or +R",
            _ => "like P, +r or k",
        };
        write!(
            f,
            "'{}' is not a {} (expected {example})",
            self.text.escape_debug(),
            self.expected
        )
    }
}

impl std::error::Error for NameError {}

fn name_error(expected: &'static str, text: &str) -> NameError {
    // Error messages show at most 40 characters of what was given.
    NameError {
        expected,
        text: text.chars().take(40).collect(),
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.usi().as_str())
    }
}

impl FromStr for Move {
    type Err = UsiMoveError;
    /// Same as [`Move::from_usi`].
    fn from_str(s: &str) -> Result<Move, UsiMoveError> {
        Move::from_usi(s)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = [b'0' + self.file(), b'a' + self.rank() - 1];
        // Both bytes are ASCII (a digit and a letter).
        f.write_str(std::str::from_utf8(&b).unwrap_or("??"))
    }
}

impl FromStr for Square {
    type Err = NameError;
    fn from_str(s: &str) -> Result<Square, NameError> {
        Square::from_usi(s).ok_or_else(|| name_error("square", s))
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.sfen_char())
    }
}

impl FromStr for Color {
    type Err = NameError;
    fn from_str(s: &str) -> Result<Color, NameError> {
        match s {
            "b" => Ok(Color::Black),
            "w" => Ok(Color::White),
            _ => Err(name_error("color", s)),
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_promoted() {
            f.write_str("+")?;
        }
        write!(f, "{}", self.sfen_char())
    }
}

/// An SFEN piece split into its role and whether the letter was upper case.
fn sfen_piece(s: &str) -> Option<(Role, bool)> {
    let (promoted, letter) = match s.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let mut chars = letter.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    let base = Role::from_sfen_char(c)?;
    let role = if promoted { base.promote()? } else { base };
    Some((role, c.is_ascii_uppercase()))
}

impl FromStr for Role {
    type Err = NameError;
    fn from_str(s: &str) -> Result<Role, NameError> {
        sfen_piece(s)
            .map(|(role, _)| role)
            .ok_or_else(|| name_error("role", s))
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.role.is_promoted() {
            f.write_str("+")?;
        }
        let c = self.role.sfen_char();
        let c = match self.color {
            Color::Black => c,
            Color::White => c.to_ascii_lowercase(),
        };
        write!(f, "{c}")
    }
}

impl FromStr for Piece {
    type Err = NameError;
    fn from_str(s: &str) -> Result<Piece, NameError> {
        let (role, upper) = sfen_piece(s).ok_or_else(|| name_error("piece", s))?;
        let color = if upper { Color::Black } else { Color::White };
        Ok(Piece::new(color, role))
    }
}

impl fmt::Display for Position {
    /// The SFEN, as [`Position::to_sfen`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

impl FromStr for Position {
    type Err = SfenError;
    /// Same as [`Position::from_sfen`] (the hands and the move number may be left out).
    fn from_str(s: &str) -> Result<Position, SfenError> {
        Position::from_sfen(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Variant;

    #[test]
    fn every_square_role_and_piece_reads_back() {
        for sq in Square::all() {
            assert_eq!(sq.to_string(), sq.usi());
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        for role in Role::ALL {
            assert_eq!(role.to_string(), role.sfen());
            assert_eq!(role.to_string().parse::<Role>(), Ok(role));
            for color in Color::ALL {
                let p = Piece::new(color, role);
                assert_eq!(p.to_string(), p.sfen());
                assert_eq!(p.to_string().parse::<Piece>(), Ok(p));
            }
        }
        for c in Color::ALL {
            assert_eq!(c.to_string().parse::<Color>(), Ok(c));
        }
    }

    #[test]
    fn bad_names_are_refused_with_what_was_expected() {
        for bad in ["", "0a", "7j", "7g7", "g7", "７六"] {
            let e = bad.parse::<Square>().unwrap_err();
            assert_eq!(e.expected, "square", "{bad:?}");
        }
        for bad in ["", "+K", "+G", "X", "PP", "+", "歩"] {
            assert!(bad.parse::<Role>().is_err(), "{bad:?}");
            assert!(bad.parse::<Piece>().is_err(), "{bad:?}");
        }
        assert!("black".parse::<Color>().is_err());
        assert_eq!(
            "z9".parse::<Square>().unwrap_err().to_string(),
            "'z9' is not a square (expected like 7g)"
        );
    }

    #[test]
    fn moves_and_positions_print_as_usi_and_sfen() {
        let m: Move = "8h2b+".parse().unwrap();
        assert_eq!(m.to_string(), "8h2b+");
        assert_eq!(format!("{}", Move::from_usi("P*5e").unwrap()), "P*5e");
        assert!("8h8h".parse::<Move>().is_err());
        let p = Position::startpos(Variant::Mini);
        assert_eq!(p.to_string(), Variant::Mini.start_sfen());
        assert_eq!(p.to_string().parse::<Position>(), Ok(p));
    }
}

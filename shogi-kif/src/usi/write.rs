//! USI and SFEN writing: one line per record.

use crate::ending::EndingKind;
use crate::model::Record;
use shogi_core::Variant;
use std::fmt::{self, Write};

/// The one-line forms of a record's main line (variations, comments and times are not
/// written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UsiForm {
    /// `position startpos|sfen … moves …` as a record ([`Format::Usi`](crate::Format::Usi)):
    /// every move, then `resign` or `win` for those endings.
    Record,
    /// `position startpos|sfen [moves …]` as a USI engine's `position` command takes it: the
    /// moves before the first foul move (which an engine could not play), no ending word.
    Engine,
    /// The start's SFEN, then ` moves …` when there are moves, then `resign` or `win` as for
    /// [`UsiForm::Record`] ([`Format::Sfen`](crate::Format::Sfen)).
    Sfen,
}

/// Write the start and the main line's moves on one line in `form`, ending with a newline.
pub(crate) fn write<W: Write + ?Sized>(out: &mut W, record: &Record, form: UsiForm) -> fmt::Result {
    match form {
        UsiForm::Record | UsiForm::Engine
            if record.start.sfen() == Variant::Standard.start_sfen() =>
        {
            out.write_str("position startpos")?;
        }
        UsiForm::Record | UsiForm::Engine => write!(out, "position sfen {}", record.start.sfen())?,
        UsiForm::Sfen => out.write_str(record.start.sfen())?,
    }
    let word = match (form, record.ending().map(|e| &e.kind)) {
        (UsiForm::Engine, _) => None,
        (_, Some(EndingKind::Resign)) => Some("resign"),
        (_, Some(EndingKind::Declaration)) => Some("win"),
        _ => None,
    };
    let moves = &record.moves.moves;
    let playable = match form {
        UsiForm::Engine => moves.iter().take_while(|m| m.foul.is_none()).count(),
        UsiForm::Record | UsiForm::Sfen => moves.len(),
    };
    if playable > 0 || word.is_some() {
        out.write_str(" moves")?;
        for m in &moves[..playable] {
            write!(out, " {}", m.mv.to_usi())?;
        }
        if let Some(w) = word {
            write!(out, " {w}")?;
        }
    }
    out.write_char('\n')
}

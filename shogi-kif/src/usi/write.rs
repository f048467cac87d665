//! USI and SFEN writing: one line per record.

use crate::ending::EndingKind;
use crate::model::Record;
use shogi_core::Variant;
use std::fmt::{self, Write};

/// The two one-line forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UsiForm {
    /// `position startpos|sfen … moves …` (a USI engine command).
    Position,
    /// The start's SFEN, then ` moves …` when there are moves.
    Sfen,
}

/// Write the start and the main line's moves on one line (`resign` or `win` closing it for
/// those endings). Variations, comments and times are not written.
pub(crate) fn write<W: Write + ?Sized>(out: &mut W, record: &Record, form: UsiForm) -> fmt::Result {
    match form {
        UsiForm::Position if record.start.sfen == Variant::Standard.start_sfen() => {
            out.write_str("position startpos")?;
        }
        UsiForm::Position => write!(out, "position sfen {}", record.start.sfen)?,
        UsiForm::Sfen => out.write_str(&record.start.sfen)?,
    }
    let ending = record.ending().map(|e| &e.kind);
    let word = match ending {
        Some(EndingKind::Resign) => Some("resign"),
        Some(EndingKind::Declaration) => Some("win"),
        _ => None,
    };
    if !record.moves.moves.is_empty() || word.is_some() {
        out.write_str(" moves")?;
        for m in &record.moves.moves {
            write!(out, " {}", m.mv.to_usi())?;
        }
        if let Some(w) = word {
            write!(out, " {w}")?;
        }
    }
    out.write_char('\n')
}

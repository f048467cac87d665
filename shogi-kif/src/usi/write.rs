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
/// those endings). Variations, comments, times and the header are not written; a recorded
/// illegal move and what follows it neither (no USI reader would take them).
pub(crate) fn write<W: Write + ?Sized>(out: &mut W, record: &Record, form: UsiForm) -> fmt::Result {
    match form {
        UsiForm::Position if record.start.sfen == Variant::Standard.start_sfen() => {
            out.write_str("position startpos")?;
        }
        UsiForm::Position => write!(out, "position sfen {}", record.start.sfen)?,
        UsiForm::Sfen => out.write_str(&record.start.sfen)?,
    }
    let legal = record.moves.moves.iter().take_while(|n| n.foul.is_none());
    let fouled = record.moves.moves.iter().any(|n| n.foul.is_some());
    let word = match record.ending().map(|e| &e.kind) {
        _ if fouled => None,
        Some(EndingKind::Resign) => Some("resign"),
        Some(EndingKind::Declaration) => Some("win"),
        _ => None,
    };
    if legal.clone().next().is_some() || word.is_some() {
        out.write_str(" moves")?;
        for m in legal {
            write!(out, " {}", m.mv.to_usi())?;
        }
        if let Some(w) = word {
            write!(out, " {w}")?;
        }
    }
    out.write_char('\n')
}

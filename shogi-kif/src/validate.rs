//! Checks beyond move legality: does the declared ending match the final position?

use crate::ending::EndingKind;
use crate::error::{Diagnostic, Severity};
use crate::model::Record;
use shogi_core::{DeclarationResult, Game, ImpasseRule, Variant};

fn warn(line: u32, message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        line,
        column: if line > 0 { 1 } else { 0 },
        message,
        line_text: String::new(),
    }
}

/// Diagnostics for a record that was read: the reader's warnings, plus warnings where the
/// declared ending is contradicted by the position (詰み when not mate, 千日手 without a
/// fourfold repetition, an entering-king declaration that fails the 27-point rule).
pub fn validate(record: &Record) -> Vec<Diagnostic> {
    let mut out = record.diagnostics.clone();
    let Some(start) = record.start_position() else {
        return out;
    };
    let mut game = Game::new(start);
    for node in record.main_line() {
        if node.foul.is_some() || game.play(node.mv).is_err() {
            return out;
        }
    }
    let Some(ending) = record.ending() else {
        return out;
    };
    let pos = game.position();
    let line = ending.source_line;
    match ending.kind {
        EndingKind::Mate if !pos.is_checkmate() => {
            out.push(warn(
                line,
                format!(
                    "the record says 詰み (mate) but {} is not mated",
                    pos.side_to_move().japanese_en()
                ),
            ));
        }
        EndingKind::Repetition if game.repetition().is_none() => {
            out.push(warn(
                line,
                "the record says 千日手 (repetition) but no position occurred four times".into(),
            ));
        }
        EndingKind::Declaration if pos.variant() == Variant::Standard => {
            let d = pos.declaration(ImpasseRule::Points27);
            if d.result != DeclarationResult::Win {
                out.push(warn(
                    line,
                    format!(
                        "the declaration fails the 27-point rule ({} points, {} pieces in the camp, king in camp: {}, in check: {})",
                        d.points, d.pieces_in_zone, d.king_in_zone, d.in_check
                    ),
                ));
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn contradicted_mate_is_reported() {
        let r = crate::read_str("   1 ７六歩(77)\n   2 詰み\n", None).unwrap();
        let d = super::validate(&r);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].line, 2);
        let ok = crate::read_str("   1 ７六歩(77)\n   2 投了\n", None).unwrap();
        assert!(super::validate(&ok).is_empty());
    }
}

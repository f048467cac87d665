//! Checks beyond move legality: repetition, perpetual check, declarations, and whether the
//! declared ending matches the final position.

use crate::ending::EndingKind;
use crate::error::{Diagnostic, Severity};
use crate::main_line::{MainLine, PlayedMove, first_repetition};
use crate::model::{HeaderKey, Record};
use shogi_core::{DeclarationResult, ImpasseRule, Repetition, Variant};

fn warn(line: u32, message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        line,
        column: if line > 0 { 1 } else { 0 },
        message,
        line_text: String::new(),
    }
}

/// The declaration rule the record names (`$JISHOGI:24`, `持将棋：24点法`, …); the CSA and
/// Floodgate 27-point rule otherwise.
pub fn impasse_rule(record: &Record) -> ImpasseRule {
    let named = record
        .header
        .get(&HeaderKey::JishogiRule)
        .or_else(|| record.header.get(&HeaderKey::Other("JISHOGI".into())));
    match named {
        Some(v) if v.contains("24") || v.contains("２４") => ImpasseRule::Points24,
        _ => ImpasseRule::Points27,
    }
}

fn rule_name(rule: ImpasseRule) -> &'static str {
    match rule {
        ImpasseRule::Points24 => "24-point",
        ImpasseRule::Points27 => "27-point",
    }
}

/// What a four-fold repetition means, in words.
fn repetition_words(r: &Repetition) -> String {
    match r.perpetual_checker {
        Some(c) => format!(
            "the position of ply {} occurred for the fourth time at ply {}, and {} gave check with every move in between: perpetual check (連続王手の千日手), {} loses",
            r.first_ply,
            r.fourth_ply,
            c.japanese_en(),
            c.japanese_en()
        ),
        None => format!(
            "the position of ply {} occurred for the fourth time at ply {}: 千日手 (repetition draw)",
            r.first_ply, r.fourth_ply
        ),
    }
}

/// Diagnostics for a record that was read: the reader's warnings, plus warnings where the
/// rules and the record disagree:
///
/// * the record goes on past a four-fold repetition (the game ended there), or ends at one
///   without saying so;
/// * 千日手 where one side checked with every move of the repetition (that side loses), or
///   without any four-fold repetition;
/// * 詰み when the side to move is not mated;
/// * an entering-king declaration that fails the record's rule (27 points unless the header
///   names the 24-point rule; under that rule 24 to 30 points is a draw, not a win).
pub fn validate(record: &Record) -> Vec<Diagnostic> {
    let mut main = MainLine::played_through(record);
    diagnose(record, &record.moves.moves, &mut main)
}

/// The first four-fold repetition of the main line, warning in `out` when the record goes on
/// past it.
fn repetition_warned<M: PlayedMove>(
    record: &Record,
    moves: &[M],
    main: &MainLine,
    out: &mut Vec<Diagnostic>,
) -> Option<Repetition> {
    let (i, r) = first_repetition(record, moves, main)?;
    if i + 1 < moves.len() {
        out.push(warn(
            moves[i].source_line(),
            format!(
                "{}; the game ended there but the record goes on for {} more moves",
                repetition_words(&r),
                moves.len() - i - 1
            ),
        ));
    }
    Some(r)
}

/// [`validate`] for a record whose main line was replayed by the reader, which kept what is
/// needed in `main`: no move is checked again. The first four-fold repetition found is kept
/// in `main.repetition`.
///
/// `moves` are the main line's moves: the record's, or what the reader kept of them when
/// the record has none ([`crate::ReadOptions::moves`]).
pub(crate) fn diagnose<M: PlayedMove>(
    record: &Record,
    moves: &[M],
    main: &mut MainLine,
) -> Vec<Diagnostic> {
    let mut out = record.diagnostics.clone();
    let repetition = repetition_warned(record, moves, main, &mut out);
    main.repetition = repetition;
    if main.keys.len() < moves.len() {
        // Stopped at a declared foul or an illegal move: the ending is not checked.
        return out;
    }
    let pos = &main.last;
    let ending = record.ending();
    let line = ending.map_or_else(
        || moves.last().map_or(0, |m| m.source_line()),
        |e| e.source_line,
    );
    let kind = ending.map(|e| &e.kind);
    // A repetition completed by the last move: the ending should say so.
    if let Some(r) = repetition.filter(|r| r.fourth_ply == moves.len()) {
        match (kind, r.perpetual_checker) {
            (Some(EndingKind::Repetition), None) => {}
            (Some(EndingKind::Repetition), Some(_)) => out.push(warn(
                line,
                format!("the record says 千日手 (draw) but {}", repetition_words(&r)),
            )),
            (Some(EndingKind::FoulWin | EndingKind::FoulLoss), Some(_)) => {}
            (Some(k), _) if !matches!(k, EndingKind::Other(_)) => out.push(warn(
                line,
                format!(
                    "the record ends with {} but {}",
                    k.japanese(),
                    repetition_words(&r)
                ),
            )),
            _ => out.push(warn(
                line,
                format!("the game ends by repetition: {}", repetition_words(&r)),
            )),
        }
    }
    let Some(kind) = kind else {
        return out;
    };
    match kind {
        EndingKind::Mate if !pos.is_checkmate() => {
            out.push(warn(
                line,
                format!(
                    "the record says 詰み (mate) but {} is not mated",
                    pos.side_to_move().japanese_en()
                ),
            ));
        }
        EndingKind::Repetition if repetition.is_none() => {
            out.push(warn(
                line,
                "the record says 千日手 (repetition) but no position occurred four times".into(),
            ));
        }
        EndingKind::Declaration if pos.variant() == Variant::Standard => {
            let rule = impasse_rule(record);
            let d = pos.declaration(rule);
            let facts = format!(
                "{} points, {} pieces in the camp, king in camp: {}, in check: {}",
                d.points, d.pieces_in_zone, d.king_in_zone, d.in_check
            );
            let who = pos.side_to_move().japanese_en();
            match d.result {
                DeclarationResult::Win => {}
                DeclarationResult::Draw => out.push(warn(
                    line,
                    format!(
                        "{who}'s declaration is a draw (持将棋), not a win, under the {} rule ({facts})",
                        rule_name(rule)
                    ),
                )),
                DeclarationResult::Lose => out.push(warn(
                    line,
                    format!(
                        "{who}'s declaration fails the {} rule, so {who} loses ({facts})",
                        rule_name(rule)
                    ),
                )),
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
        let r = crate::read::read_str("   1 ７六歩(77)\n   2 詰み\n", Default::default()).unwrap();
        let d = super::validate(&r);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].line, 2);
        let ok = crate::read::read_str("   1 ７六歩(77)\n   2 投了\n", Default::default()).unwrap();
        assert!(super::validate(&ok).is_empty());
    }
}

//! The guard against a silent misreading: a KIF, KI2 or CSA record of which the reader kept
//! no move, while its text has a line that looks like one, gets a warning naming that line.
//!
//! A record read with no moves is a position, which is a valid record: nothing else would
//! tell the user that the moves of the file were not read (a dialect the reader does not
//! know, lines it took for something else).

use crate::error::{Diagnostic, Severity};
use crate::japanese::MARKS;
use crate::text::{Lines, TextLine, kanji_digit, wide_digit};

/// Whether a line of play holds a move, in it or in the variations of its ending (a line
/// with no moves has no other place for variations).
pub(super) fn has_moves(line: &crate::model::Line) -> bool {
    !line.moves.is_empty()
        || line
            .ending
            .as_ref()
            .is_some_and(|e| e.variations.iter().any(has_moves))
}

/// The warning for the first line of `text` (a game starting on line `first_line`) that
/// looks like a move, if any.
pub(super) fn unread_moves(text: &str, first_line: u32) -> Option<Diagnostic> {
    let line = Lines::starting_at(text, 0, first_line).find(|l| looks_like_move(l.text))?;
    let t = line.text.trim_start_matches([' ', '\t', '\u{3000}']);
    Some(Diagnostic::at(
        Severity::Warning,
        format!(
            "line {} looks like a move but the record has no moves: it was not read as one",
            line.no
        ),
        text,
        TextLine::loc_of(&line, t),
    ))
}

/// A KIF move line (`  12 ７六歩(77)`, `1 同　銀(79)`), a CSA move (`+7776FU`) or a KI2
/// move (`▲７六歩`, `△同　歩`, `▲26歩`), at the start of the line.
fn looks_like_move(line: &str) -> bool {
    let t = line.trim_start_matches([' ', '\t', '\u{3000}']);
    let b = t.as_bytes();
    if let [b'+' | b'-', f, r, g, s, p, q, ..] = b {
        return [f, r, g, s].iter().all(|c| c.is_ascii_digit())
            && p.is_ascii_uppercase()
            && q.is_ascii_uppercase();
    }
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 {
        let rest = &t[digits..];
        let after = rest.trim_start_matches([' ', '\t', '\u{3000}']);
        if after.len() == rest.len() {
            return false;
        }
        let after = after.strip_prefix(MARKS).unwrap_or(after);
        return destination(after, false);
    }
    match t.strip_prefix(MARKS) {
        Some(after) => destination(after, true),
        None => false,
    }
}

/// `同`, or a file digit (full-width; also ASCII when `ascii`) and a rank, at the start.
fn destination(s: &str, ascii: bool) -> bool {
    let mut it = s.chars();
    match it.next() {
        Some('同') => true,
        Some(c) if ('１'..='９').contains(&c) || (ascii && c.is_ascii_digit() && c != '0') => it
            .next()
            .is_some_and(|r| kanji_digit(r).is_some() || (ascii && wide_digit(r).is_some())),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_in_each_format_are_seen() {
        for yes in [
            "   1 ７六歩(77)   ( 0:16/00:00:16)",
            "1 同　銀(79)",
            "12\t８八角成(22)",
            "  3 ▲２六歩(27)",
            "+7776FU",
            "-3334FU,T12",
            "▲７六歩    △３四歩",
            "△同　歩",
            "☗26歩",
            "\u{3000}▽８四歩",
        ] {
            assert!(looks_like_move(yes), "{yes}");
        }
        for no in [
            "   3 投了",
            "手合割：平手",
            "*▲７六歩 が定跡",
            "#   1 ７六歩(77)",
            "'+7776FU",
            "+",
            "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
            "12345",
            "1七六歩",
            "まで1手で先手の勝ち",
            "▲投了",
            "+77",
            "",
        ] {
            assert!(!looks_like_move(no), "{no}");
        }
    }

    #[test]
    fn the_warning_names_the_first_such_line() {
        let text = "開始日時：2020/01/01\n*▲７六歩\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
        let d = unread_moves(text, 1).expect("a move line");
        assert_eq!((d.line, d.column), (3, 4));
        assert!(
            d.message.contains("line 3 looks like a move"),
            "{}",
            d.message
        );
        assert_eq!(d.severity, Severity::Warning);
        assert!(unread_moves("手合割：平手\n", 1).is_none());
        // In a CSA game that starts further down its input, lines count from there.
        assert_eq!(
            unread_moves("PI\n+\n+7776FU\n", 10).map(|d| d.line),
            Some(12)
        );
    }
}

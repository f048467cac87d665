//! `validate()` on hand-written records: repetition, perpetual check and declarations.

use shogi_kif::{Diagnostic, Format, ReadOptions, Record, Severity};

fn read(name: &str) -> Record {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    shogi_kif::read_str(&text, ReadOptions::with_hint(Some(Format::Csa)))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn warnings(r: &Record) -> Vec<Diagnostic> {
    shogi_kif::validate(r)
        .into_iter()
        .filter(|d| d.severity == Severity::Warning)
        .collect()
}

/// The one warning `validate` gives for `r` (fails unless there is exactly one).
#[track_caller]
fn one_warning(r: &Record) -> Diagnostic {
    let mut w = warnings(r);
    assert_eq!(w.len(), 1, "{w:?}");
    w.remove(0)
}

#[test]
fn perpetual_check_written_as_repetition_says_the_checker_loses() {
    let r = read("perpetual_check.csa");
    assert_eq!(r.moves.moves.len(), 13);
    let w = one_warning(&r);
    assert_eq!(w.line, 28, "the %SENNICHITE line");
    assert_eq!(
        w.message,
        "the record says 千日手 (draw) but the position of ply 1 occurred for the fourth time at ply 13, \
         and sente gave check with every move in between: perpetual check (連続王手の千日手), sente loses"
    );
}

#[test]
fn moves_past_a_fourfold_repetition_are_reported_at_that_ply() {
    let r = read("past_repetition.csa");
    assert_eq!(r.moves.moves.len(), 16);
    let w = one_warning(&r);
    // Ply 13 is the 13th move line after the `+` on line 12.
    assert_eq!(w.line, r.moves.moves[12].source_line);
    assert_eq!(w.line, 25);
    assert!(
        w.message.contains("fourth time at ply 13")
            && w.message.contains("sente loses")
            && w.message.contains("goes on for 3 more moves"),
        "{}",
        w.message
    );
}

#[test]
fn plain_repetition_draw_is_accepted() {
    let r = read("repetition_draw.csa");
    assert_eq!(r.moves.moves.len(), 12);
    assert_eq!(warnings(&r), []);
}

#[test]
fn repetition_without_ending_is_pointed_out() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/repetition_draw.csa",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap_or_default()
    .replace("%SENNICHITE\n", "");
    let r = shogi_kif::read_str(&text, ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let w = one_warning(&r);
    assert!(
        w.message.starts_with("the game ends by repetition"),
        "{}",
        w.message
    );
}

#[test]
fn declaration_under_the_24_point_rule_is_a_draw() {
    let r = read("declaration_24.csa");
    let w = one_warning(&r);
    assert_eq!(
        w.message,
        "sente's declaration is a draw (持将棋), not a win, under the 24-point rule \
         (26 points, 10 pieces in the camp, king in camp: true, in check: false)"
    );
}

#[test]
fn declaration_without_a_named_rule_uses_27_points() {
    let path = format!(
        "{}/tests/fixtures/declaration_24.csa",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path)
        .unwrap_or_default()
        .replace("$JISHOGI:24\n", "");
    let r = shogi_kif::read_str(&text, ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let w = one_warning(&r);
    assert!(
        w.message
            .starts_with("sente's declaration fails the 27-point rule, so sente loses (26 points"),
        "{}",
        w.message
    );
    // Two more golds' worth in hand would not exist; a rook more makes 31: a win under both.
    let rich = text
        .replace("P+00KA", "P+00HI00KA")
        .replace("P2+HI", "P2+RY");
    let r = shogi_kif::read_str(&rich, ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(warnings(&r), []);
}

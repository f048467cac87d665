//! SFEN and USI position lines.

use super::*;

/// SFEN: a setup that parses writes an SFEN that parses to the same setup and writes the
/// same text again; a position accepted by the strict rules is accepted by the permissive
/// ones; a position's SFEN parses back to the same position and key.
pub fn check_sfen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(setup) = Setup::from_sfen(&text) else {
        assert!(
            Position::from_sfen(&text).is_err(),
            "Position::from_sfen accepts {text:?}, Setup::from_sfen does not"
        );
        return;
    };
    let written = setup.to_sfen();
    let again = Setup::from_sfen(&written)
        .unwrap_or_else(|e| panic!("written SFEN {written:?} (from {text:?}) does not parse: {e}"));
    assert_eq!(again, setup, "SFEN {written:?} parses to another setup");
    assert_eq!(again.to_sfen(), written, "SFEN text not stable");
    let strict = Position::from_setup(setup.clone(), SetupOptions::default());
    let permissive = Position::from_setup(setup.clone(), SetupOptions::PERMISSIVE);
    if strict.is_ok() {
        assert!(
            permissive.is_ok(),
            "strict accepts {written:?}, permissive does not"
        );
    }
    if let Ok(pos) = permissive {
        check_position_sfen(&pos);
        assert_eq!(pos.to_setup(), normalise_move_number(setup), "{written:?}");
    }
}

/// A position keeps the move number at least 1.
fn normalise_move_number(mut setup: Setup) -> Setup {
    setup.move_number = setup.move_number.max(1);
    setup
}

/// The position's SFEN reads back to the same position, and its key is the key
/// recomputed from scratch and from that SFEN.
pub(super) fn check_position_sfen(pos: &Position) {
    let sfen = pos.to_sfen();
    assert_eq!(pos.key(), pos.compute_key(), "incremental key, {sfen}");
    let back = Position::from_sfen_with(&sfen, SetupOptions::PERMISSIVE)
        .unwrap_or_else(|e| panic!("the SFEN of a position does not read back: {sfen}: {e}"));
    assert_eq!(back.to_sfen(), sfen, "SFEN not stable");
    assert_eq!(
        back.key(),
        pos.key(),
        "key differs from the SFEN's key, {sfen}"
    );
}

/// USI position lines: the end position is the start with the moves played; the same
/// start written as SFEN with the same moves gives the same end; keys agree.
pub fn check_usi_position(data: &[u8]) {
    let (variant, rest) = match data.split_first() {
        Some((b, rest)) if b & 1 == 1 => (Variant::Mini, rest),
        Some((_, rest)) => (Variant::Standard, rest),
        None => (Variant::Standard, data),
    };
    let text = String::from_utf8_lossy(rest);
    let Ok(parsed) = parse_usi_position(&text, variant) else {
        return;
    };
    let mut pos = parsed.start.clone();
    for &m in &parsed.moves {
        pos.play(m)
            .unwrap_or_else(|e| panic!("{text:?}: move {} replays illegal: {e}", m.to_usi()));
    }
    assert_eq!(
        pos.to_sfen(),
        parsed.end.to_sfen(),
        "{text:?}: end position"
    );
    check_position_sfen(&parsed.end);
    let mut line = format!("position sfen {} moves", parsed.start.to_sfen());
    for m in &parsed.moves {
        line.push(' ');
        line.push_str(&m.to_usi());
    }
    let again = parse_usi_position(&line, variant)
        .unwrap_or_else(|e| panic!("{line:?} (from {text:?}) does not parse: {e}"));
    assert_eq!(again.moves, parsed.moves, "{line:?}");
    assert_eq!(again.end, parsed.end, "{line:?}");
}

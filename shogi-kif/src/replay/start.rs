//! The start position of a record: by name (手合割), by board diagram, CSA `P` lines or SFEN,
//! relaxed for tsume and puzzle diagrams.

use crate::error::{Diagnostic, ErrorKind, Location, ReadError, Severity};
use crate::model::Start;
use crate::raw::{RawBoard, RawRecord, RawStart};
use shogi_core::{Color, Handicap, Position, Role, Setup, Square, Variant};

/// The even-game start position (parsed once).
fn even_position() -> Position {
    static EVEN: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
    EVEN.get_or_init(|| Position::startpos(Variant::Standard))
        .clone()
}

fn setup_from_board(b: &RawBoard, variant: Variant) -> Setup {
    let mut setup = Setup::empty(variant);
    for (r, row) in b.cells.iter().enumerate() {
        for (f, cell) in row.iter().enumerate() {
            if let (Some(piece), Some(sq)) = (cell, Square::new(f as u8 + 1, r as u8 + 1)) {
                setup.set_piece(sq, Some(*piece));
            }
        }
    }
    for (i, hand) in b.hands.iter().enumerate() {
        for (j, &n) in hand.iter().enumerate() {
            setup.hands[i].set(Role::HAND_SFEN_ORDER[j], n);
        }
    }
    setup.side_to_move = b.side_to_move.unwrap_or(Color::Black);
    if let Some(n) = b.move_number {
        setup.move_number = n.max(1);
    }
    setup
}

fn named_start(name: &str) -> Option<(Variant, Option<Handicap>, String)> {
    if Handicap::is_mini_shogi_name(name) {
        return Some((Variant::Mini, None, Variant::Mini.start_sfen().to_string()));
    }
    if let Some(code) = name.strip_prefix("JKF:") {
        let h = Handicap::from_jkf(code)?;
        return h
            .sfen()
            .map(|s| (Variant::Standard, Some(h), s.to_string()));
    }
    let h = Handicap::from_japanese(name)?;
    h.sfen()
        .map(|s| (Variant::Standard, Some(h), s.to_string()))
}

fn position_error(src: &str, loc: Location, msg: String) -> ReadError {
    ReadError::at(ErrorKind::Position, msg, src, loc)
}

fn build_position(
    setup: Setup,
    src: &str,
    loc: Location,
    notes: &mut Vec<Diagnostic>,
) -> Result<Position, ReadError> {
    // The rules for puzzle diagrams allow any number of pieces in hand, but the record's
    // start is kept as SFEN, which writes at most 99 of a kind.
    for (color, hand) in Color::ALL.into_iter().zip(&setup.hands) {
        if let Some((role, n)) = hand.iter().find(|&(_, n)| n > 99) {
            let msg = format!(
                "the start position is not playable: {n} {} in {}'s hand (at most 99 can be written)",
                role.kanji_short(),
                color.japanese()
            );
            return Err(position_error(src, loc, msg));
        }
    }
    let (pos, broken) = Position::from_setup_relaxed(setup).map_err(|e| {
        position_error(src, loc, format!("the start position is not playable: {e}"))
    })?;
    if let Some(e) = broken {
        notes.push(Diagnostic::at(
            Severity::Warning,
            format!("the start position breaks the rules ({e}); read as a puzzle diagram"),
            src,
            loc,
        ));
    }
    Ok(pos)
}

pub(super) fn resolve_start(
    raw: &RawRecord,
    src: &str,
    notes: &mut Vec<Diagnostic>,
) -> Result<(Start, Position), ReadError> {
    match &raw.start {
        RawStart::Default => Ok((Start::even(), even_position())),
        RawStart::Named { name, loc } => named_position(name, loc, src, notes),
        RawStart::Board { board, name, loc } => board_position(board, name, loc, src, notes),
        RawStart::Sfen { sfen, loc } => sfen_position(sfen, loc, src, notes),
    }
}

/// The start a 手合割 name gives (text after `#` is warned of and left out).
fn named_position(
    name: &str,
    loc: &Location,
    src: &str,
    notes: &mut Vec<Diagnostic>,
) -> Result<(Start, Position), ReadError> {
    let mut clean = name;
    if let Some(i) = clean.find('#') {
        clean = crate::text::trim(&clean[..i]);
        notes.push(Diagnostic::at(
            Severity::Warning,
            format!(
                "text after '#' in the 手合割 value ignored: {:?}",
                &name[i..]
            ),
            src,
            *loc,
        ));
    }
    if Handicap::from_japanese(clean) == Some(Handicap::Even) {
        // The usual case, without parsing and writing the SFEN again.
        return Ok((Start::even(), even_position()));
    }
    let (variant, handicap, sfen) = named_start(clean).ok_or_else(|| {
        position_error(
            src,
            *loc,
            format!("unknown 手合割 {name:?} and no board diagram to say what it is"),
        )
    })?;
    let pos = Position::from_sfen(&sfen).map_err(|e| position_error(src, *loc, e.to_string()))?;
    let name = if handicap.is_none() && variant == Variant::Standard {
        Some(name.to_string())
    } else {
        None
    };
    Ok((Start::new(pos.clone(), handicap, name), pos))
}

/// The start a board diagram (or hands and turn applied to a named start) gives.
fn board_position(
    board: &RawBoard,
    name: &Option<String>,
    loc: &Location,
    src: &str,
    notes: &mut Vec<Diagnostic>,
) -> Result<(Start, Position), ReadError> {
    let named = name.as_deref().and_then(named_start);
    let variant = if board.size == 5 || named.as_ref().is_some_and(|n| n.0 == Variant::Mini) {
        Variant::Mini
    } else {
        Variant::Standard
    };
    let setup = if board.size == 0 {
        // Hands or turn given without a diagram: apply them to the named start.
        let base = named
            .as_ref()
            .map_or(variant.start_sfen().to_string(), |n| n.2.clone());
        let mut s =
            Setup::from_sfen(&base).map_err(|e| position_error(src, *loc, e.to_string()))?;
        if board.hands.iter().flatten().any(|&n| n > 0) {
            for (i, hand) in board.hands.iter().enumerate() {
                for (j, &n) in hand.iter().enumerate() {
                    s.hands[i].set(Role::HAND_SFEN_ORDER[j], n);
                }
            }
        }
        if let Some(side) = board.side_to_move {
            s.side_to_move = side;
        }
        s
    } else {
        let mut s = setup_from_board(board, variant);
        if board.side_to_move.is_none() {
            // A handicap diagram without a turn line: 上手 (white) moves first.
            s.side_to_move = Color::White;
            let w = Handicap::from_sfen(&s.to_sfen()).filter(|h| *h != Handicap::Even);
            if w.is_none() {
                s.side_to_move = Color::Black;
            }
        }
        s
    };
    let pos = build_position(setup, src, *loc, notes)?;
    let keep_name = name.as_ref().filter(|n| {
        !n.starts_with("PI") && named_start(n).is_none() && !Handicap::is_mini_shogi_name(n)
    });
    Ok((Start::of(pos.clone(), keep_name.cloned()), pos))
}

/// The start an SFEN gives.
fn sfen_position(
    sfen: &str,
    loc: &Location,
    src: &str,
    notes: &mut Vec<Diagnostic>,
) -> Result<(Start, Position), ReadError> {
    let setup =
        Setup::from_sfen(sfen).map_err(|e| position_error(src, *loc, format!("bad SFEN: {e}")))?;
    let pos = build_position(setup, src, *loc, notes)?;
    Ok((Start::of(pos.clone(), None), pos))
}

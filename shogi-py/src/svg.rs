//! The text diagram of `repr()`; the SVG board of Jupyter is `shogi_kif::board::svg`.

use crate::args::{color_name, rows};
use shogi_core::{Color, Position, Role};
use std::fmt::Write as _;

/// The hand of `color` as `R B2 P3` (`-` when empty).
fn hand_text(pos: &Position, color: Color) -> String {
    shogi_kif::board::hand_words(pos, color, Role::sfen, "-")
}

/// `Position('<sfen>')` followed by the board and the hands.
pub fn text_diagram(pos: &Position) -> String {
    let variant = pos.variant();
    let n = variant.size();
    let mut out = format!("Position('{}')\n", pos.to_sfen());
    let _ = writeln!(out, "white hand: {}", hand_text(pos, Color::White));
    out.push_str("  ");
    for file in (1..=n).rev() {
        let _ = write!(out, "{file:>3}");
    }
    out.push('\n');
    for (i, row) in rows(variant).enumerate() {
        out.push(char::from(b'a' + i as u8));
        out.push(' ');
        for sq in row {
            let cell = pos
                .piece_at(sq)
                .map_or_else(|| ".".to_string(), |p| p.sfen());
            let _ = write!(out, "{cell:>3}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "black hand: {}", hand_text(pos, Color::Black));
    let _ = write!(out, "{} to move", color_name(pos.side_to_move()));
    out
}

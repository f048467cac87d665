//! The text diagram of `repr()`; the SVG board of Jupyter is `shogi_kif::board::svg`.

use crate::position::{color_name, hand_roles, rows};
use shogi_core::{Color, Position};
use std::fmt::Write as _;

/// The hand of `color` as `R B2 P3` (`-` when empty).
fn hand_text(pos: &Position, color: Color) -> String {
    let hand = pos.hand(color);
    let parts: Vec<String> = hand_roles(pos.variant())
        .filter(|r| hand.count(*r) > 0)
        .map(|r| match hand.count(r) {
            1 => r.sfen(),
            n => format!("{}{n}", r.sfen()),
        })
        .collect();
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(" ")
    }
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

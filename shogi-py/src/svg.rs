//! Pictures of a position: the text diagram of `repr()` and the SVG board of Jupyter.

use crate::position::{color_name, hand_roles, rows};
use shogi_core::{Color, Position, Role};
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

const CELL: u32 = 40;
const MARGIN: u32 = 12;
const HAND_ROW: u32 = 30;
const LABEL: u32 = 20;

const KANJI_DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// One kanji for a piece on the board (全 圭 杏 for the promoted silver, knight and lance).
fn piece_char(role: Role) -> &'static str {
    let s = role.kanji_short();
    s.char_indices().nth(1).map_or(s, |(i, _)| &s[..i])
}

/// A hand in kanji (`飛 角 歩3`), `なし` when empty.
fn hand_kanji(pos: &Position, color: Color) -> String {
    let hand = pos.hand(color);
    let parts: Vec<String> = hand_roles(pos.variant())
        .filter(|r| hand.count(*r) > 0)
        .map(|r| match hand.count(r) {
            1 => r.kanji().to_string(),
            n => format!("{}{n}", r.kanji()),
        })
        .collect();
    if parts.is_empty() {
        "なし".to_string()
    } else {
        parts.join(" ")
    }
}

/// An SVG board: file numbers above, rank kanji to the right, kanji pieces (gote's turned
/// 180°, promoted pieces in red), gote's hand above and sente's below, the side to move marked.
pub fn svg(pos: &Position) -> String {
    let n = u32::from(pos.variant().size());
    let board = n * CELL;
    let width = MARGIN * 2 + board + LABEL;
    let height = MARGIN * 2 + HAND_ROW * 2 + LABEL + board;
    let x0 = MARGIN;
    let y0 = MARGIN + HAND_ROW + LABEL;
    let mut out = String::with_capacity(8192);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
viewBox=\"0 0 {width} {height}\" font-family=\"serif\">"
    );
    let _ = write!(
        out,
        "<rect x=\"{x0}\" y=\"{y0}\" width=\"{board}\" height=\"{board}\" fill=\"#f4d58d\" \
stroke=\"#000\" stroke-width=\"2\"/>"
    );
    for i in 1..n {
        let d = i * CELL;
        let _ = write!(
            out,
            "<line x1=\"{x}\" y1=\"{y0}\" x2=\"{x}\" y2=\"{y1}\" stroke=\"#000\"/>\
<line x1=\"{x0}\" y1=\"{y}\" x2=\"{x1}\" y2=\"{y}\" stroke=\"#000\"/>",
            x = x0 + d,
            y = y0 + d,
            y1 = y0 + board,
            x1 = x0 + board,
        );
    }
    // File numbers (n … 1, left to right) and rank kanji (top to bottom).
    for col in 0..n {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
            x0 + col * CELL + CELL / 2,
            y0 - 6,
            n - col
        );
    }
    for rank in 1..=n {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
            x0 + board + LABEL / 2,
            y0 + (rank - 1) * CELL + CELL / 2 + 5,
            KANJI_DIGITS[rank as usize]
        );
    }
    for (r, row) in rows(pos.variant()).enumerate() {
        for (c, sq) in row.enumerate() {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let cx = x0 + c as u32 * CELL + CELL / 2;
            let cy = y0 + r as u32 * CELL + CELL / 2;
            let fill = if piece.role.is_promoted() {
                "#c00000"
            } else {
                "#000"
            };
            let rotate = if piece.color == Color::White {
                format!(" transform=\"rotate(180 {cx} {cy})\"")
            } else {
                String::new()
            };
            // The baseline sits below the centre by about a third of the glyph (CJK glyphs
            // stand on it), set explicitly: renderers differ on `dominant-baseline`.
            let _ = write!(
                out,
                "<text x=\"{cx}\" y=\"{}\" font-size=\"28\" text-anchor=\"middle\" \
fill=\"{fill}\"{rotate}>{}</text>",
                cy + 10,
                piece_char(piece.role)
            );
        }
    }
    let stm = pos.side_to_move();
    let turn = |c: Color| if c == stm { " (手番)" } else { "" };
    let _ = write!(
        out,
        "<text x=\"{x0}\" y=\"{}\" font-size=\"16\">☖ 持駒 {}{}</text>",
        MARGIN + HAND_ROW / 2 + 5,
        hand_kanji(pos, Color::White),
        turn(Color::White)
    );
    let _ = write!(
        out,
        "<text x=\"{x0}\" y=\"{}\" font-size=\"16\">☗ 持駒 {}{}</text>",
        y0 + board + HAND_ROW / 2 + 10,
        hand_kanji(pos, Color::Black),
        turn(Color::Black)
    );
    out.push_str("</svg>");
    out
}

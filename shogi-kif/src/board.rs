//! Pictures of a position, each drawn in one place: the KIF board diagram in kanji
//! ([`write_kanji`], BOD, as KIF files embed it), an ASCII board with USI letters
//! ([`write_ascii`]) and an SVG board ([`svg`]). `shogi show` and the Python bindings'
//! Jupyter display draw with these.
//!
//! ```
//! use shogi_core::{Position, Variant};
//!
//! let pos = Position::startpos(Variant::Mini);
//! let mut text = String::new();
//! shogi_kif::board::write_ascii(&mut text, &pos)?;
//! assert!(text.starts_with("gote hand: -\n    5  4  3  2  1\n +---------------+\n |  r  b  s  g  k| a\n"));
//! let svg = shogi_kif::board::svg(&pos);
//! assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
//! # Ok::<(), std::fmt::Error>(())
//! ```

use crate::kif::write::{bod_char, kanji_numeral};
use shogi_core::{Color, Piece, Position, Role, Square, Variant};
use std::fmt::{self, Write};

pub use crate::kif::write::write_bod as write_kanji;

/// The squares row by row from the top (rank 1), each row from the highest file down.
fn rows(variant: Variant) -> impl Iterator<Item = impl Iterator<Item = Square>> {
    let n = variant.size();
    (1..=n).map(move |rank| {
        (1..=n)
            .rev()
            .filter_map(move |file| Square::new(file, rank))
    })
}

/// The roles a hand of `variant` can hold, in SFEN order.
fn hand_roles(variant: Variant) -> impl Iterator<Item = Role> {
    Role::HAND_SFEN_ORDER
        .into_iter()
        .filter(move |r| variant.has_role(*r))
}

/// An ASCII board: gote's hand, files, ranks as letters, USI piece letters (sente upper case,
/// `+` before a promoted piece, `.` for an empty square), sente's hand.
pub fn write_ascii<W: Write + ?Sized>(out: &mut W, pos: &Position) -> fmt::Result {
    let size = pos.variant().size();
    writeln!(out, "gote hand: {}", ascii_hand(pos, Color::White))?;
    out.write_str("  ")?;
    for file in (1..=size).rev() {
        write!(out, "{file:>3}")?;
    }
    out.write_char('\n')?;
    let border = format!(" +{}+\n", "-".repeat(usize::from(size) * 3));
    out.write_str(&border)?;
    for rank in 1..=size {
        out.write_str(" |")?;
        for file in (1..=size).rev() {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => write!(out, "{:>3}", p.sfen())?,
                None => out.write_str("  .")?,
            }
        }
        writeln!(out, "| {}", char::from(b'a' + rank - 1))?;
    }
    out.write_str(&border)?;
    writeln!(out, "sente hand: {}", ascii_hand(pos, Color::Black))
}

/// A hand as SFEN writes it (`R 2P`, counts before letters), `-` when empty.
fn ascii_hand(pos: &Position, color: Color) -> String {
    let hand = pos.hand(color);
    let parts: Vec<String> = Role::HAND_SFEN_ORDER
        .iter()
        .filter_map(|&role| {
            let n = hand.count(role);
            let letter = Piece::new(color, role).sfen();
            match n {
                0 => None,
                1 => Some(letter),
                n => Some(format!("{n}{letter}")),
            }
        })
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(" ")
    }
}

const CELL: u32 = 40;
const MARGIN: u32 = 12;
const HAND_ROW: u32 = 30;
const LABEL: u32 = 20;

/// The hand of `color` as words, in SFEN order: each role held by `name`, its count after it
/// when more than one (`飛 角 歩3`, `R B2 P3`); `empty` when the hand is empty.
pub fn hand_words<D: fmt::Display>(
    pos: &Position,
    color: Color,
    name: impl Fn(Role) -> D,
    empty: &str,
) -> String {
    let hand = pos.hand(color);
    let parts: Vec<String> = hand_roles(pos.variant())
        .filter(|r| hand.count(*r) > 0)
        .map(|r| match hand.count(r) {
            1 => name(r).to_string(),
            n => format!("{}{n}", name(r)),
        })
        .collect();
    if parts.is_empty() {
        empty.to_string()
    } else {
        parts.join(" ")
    }
}

/// A hand in kanji (`飛 角 歩3`), `なし` when empty.
fn hand_kanji(pos: &Position, color: Color) -> String {
    hand_words(pos, color, Role::kanji, "なし")
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
            kanji_numeral(rank as u8)
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
                bod_char(piece.role)
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

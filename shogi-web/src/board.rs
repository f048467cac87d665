//! A position as the pages draw it: cells with kanji, hands with counts, the side to move,
//! check. Everything a page shows of a position is decided here, from shogi-core's
//! [`Position`]; the pages' scripts only place it.

use serde::Serialize;
use shogi_core::{Color, Move, Position, Role, Square};

/// A position ready to be drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    /// Files and ranks: 9, or 5 for Mini Shogi.
    pub size: u8,
    /// The cells row by row from the top (rank 1), each row from the highest file down (as
    /// a diagram is read): empty for an empty square, otherwise the piece's one-character
    /// kanji, after `v` for a gote piece and `+` for a promoted one (`v+と`).
    pub cells: Vec<String>,
    /// The hands, sente's then gote's: each role held (kanji) and how many, in SFEN order.
    pub hands: [Vec<(String, u8)>; 2],
    /// `sente` or `gote`.
    pub turn: &'static str,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The position's SFEN.
    pub sfen: String,
}

/// The cell index of `sq` on a board of `size` (see [`Board::cells`]).
pub fn cell(sq: Square, size: u8) -> usize {
    usize::from(sq.rank() - 1) * usize::from(size) + usize::from(size - sq.file())
}

/// The side's name as the pages and the API write it.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "sente",
        Color::White => "gote",
    }
}

impl Board {
    /// The picture of `pos`.
    pub fn of(pos: &Position) -> Board {
        let size = pos.variant().size();
        let mut cells = vec![String::new(); usize::from(size) * usize::from(size)];
        for rank in 1..=size {
            for file in 1..=size {
                let Some(sq) = Square::new(file, rank) else {
                    continue;
                };
                if let Some(p) = pos.piece_at(sq) {
                    let c = &mut cells[cell(sq, size)];
                    if p.color == Color::White {
                        c.push('v');
                    }
                    if p.role.is_promoted() {
                        c.push('+');
                    }
                    c.push_str(p.role.kanji_short());
                }
            }
        }
        let hand = |color: Color| {
            let h = pos.hand(color);
            Role::HAND_SFEN_ORDER
                .into_iter()
                .filter(|r| h.count(*r) > 0)
                .map(|r| (r.kanji().to_string(), h.count(r)))
                .collect()
        };
        Board {
            size,
            cells,
            hands: [hand(Color::Black), hand(Color::White)],
            turn: side_name(pos.side_to_move()),
            check: pos.is_check(),
            sfen: pos.to_sfen(),
        }
    }
}

/// Where a move goes on the picture: the cell it leaves (none for a drop) and the cell it
/// reaches.
pub fn move_cells(mv: Move, size: u8) -> (Option<usize>, usize) {
    (mv.from().map(|f| cell(f, size)), cell(mv.to(), size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::Variant;

    #[test]
    fn start_position_reads_as_a_diagram() {
        let b = Board::of(&Position::startpos(Variant::Standard));
        assert_eq!(b.size, 9);
        // Top row: gote's 香桂銀金玉金銀桂香 from file 9 to 1.
        assert_eq!(b.cells[0], "v香");
        assert_eq!(b.cells[4], "v玉");
        // Gote's rook on 8b (file 8 is the second column), bishop on 2b.
        assert_eq!(b.cells[9 + 1], "v飛");
        assert_eq!(b.cells[9 + 7], "v角");
        // Sente's bishop on 8h, rook on 2h.
        assert_eq!(b.cells[63 + 1], "角");
        assert_eq!(b.cells[63 + 7], "飛");
        assert_eq!(b.cells[40], "");
        assert_eq!(b.turn, "sente");
        assert!(!b.check && b.hands[0].is_empty() && b.hands[1].is_empty());
    }

    #[test]
    fn hands_promotions_and_check() {
        // Sente: a promoted silver on 5b giving check? No: a dragon on 5b checks the king on 5a.
        let pos = Position::from_sfen("4k4/4+R4/9/9/9/9/9/9/4K4 w 2Pb 1").unwrap();
        let b = Board::of(&pos);
        assert_eq!(b.cells[9 + 4], "+龍");
        assert_eq!(b.hands[0], vec![("歩".to_string(), 2)]);
        assert_eq!(b.hands[1], vec![("角".to_string(), 1)]);
        assert_eq!(b.turn, "gote");
        assert!(b.check);
        let mini = Board::of(&Position::startpos(Variant::Mini));
        assert_eq!((mini.size, mini.cells.len()), (5, 25));
        assert_eq!(mini.cells[0], "v飛");
        let mv = Move::from_usi("7g7f").unwrap();
        assert_eq!(move_cells(mv, 9), (Some(6 * 9 + 2), 5 * 9 + 2));
        let drop = Move::from_usi("P*5e").unwrap();
        assert_eq!(move_cells(drop, 9), (None, 4 * 9 + 4));
    }
}

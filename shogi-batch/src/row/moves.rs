//! The `moves` column: a game's main line as text, in USI, Japanese (KI2 style) or Western
//! (Hodges) notation.

use super::GameRow;
use crate::read::InputRecord;
use shogi_kif::Record;
use shogi_kif::notation::{Notation, write_move};

/// The main line of `game` in `notation` (see [`main_line_text`]); empty when the game has
/// no record.
pub fn moves_text(game: &InputRecord, notation: Notation) -> String {
    match &game.record {
        Some(record) => main_line_text(record, notation),
        None => String::new(),
    }
}

/// The main line of `record` in `notation`, moves separated by single spaces: every move
/// the record holds (for a game read with an error, the moves before it; a declared foul
/// move is written and ends the line).
///
/// USI text needs no position; Japanese and Western are written from the start position,
/// playing the moves without checking them again (the reader did).
pub fn main_line_text(record: &Record, notation: Notation) -> String {
    let moves = &record.moves.moves;
    let per_move = if notation == Notation::Usi { 5 } else { 12 };
    let mut out = String::with_capacity(moves.len() * per_move);
    let start = (notation != Notation::Usi).then(|| record.start_position().clone());
    let Some(mut pos) = start else {
        for (i, node) in moves.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&node.mv.to_usi());
        }
        return out;
    };
    let mut last_to = None;
    for (i, node) in moves.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        // Writing into a String cannot fail.
        let _ = write_move(&mut out, &pos, node.mv, last_to, notation);
        if node.foul.is_some() {
            break;
        }
        pos.play_unchecked(node.mv);
        last_to = Some(node.mv.to());
    }
    out
}

impl<S: From<String>> GameRow<S> {
    /// Fills the `moves` column (see [`moves_text`]); rows without it leave the column out.
    pub fn set_moves(&mut self, game: &InputRecord, notation: Notation) {
        self.moves = Some(S::from(moves_text(game, notation)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::tests::{read_any, read_one};

    #[test]
    fn each_notation_of_a_short_game() {
        // A capture with promotion, a recapture (同), a drop, a gold that another gold could
        // replace (the origin named), a move of a side's only piece of a kind.
        let game = read_one("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 4a3b 6i5h\n");
        let text = |n| moves_text(&game, n);
        assert_eq!(text(Notation::Usi), "7g7f 3c3d 8h2b+ 3a2b B*4e 4a3b 6i5h");
        assert_eq!(
            text(Notation::Japanese),
            "▲７六歩 △３四歩 ▲２二角成 △同銀 ▲４五角 △３二金 ▲５八金左"
        );
        assert_eq!(
            text(Notation::Western),
            "P-7f P-3d Bx2b+ Sx2b B*4e G-3b G6i-5h"
        );
    }

    #[test]
    fn an_error_keeps_the_moves_before_it_and_no_record_none() {
        // Without the reader's start position: the same text.
        let game = read_one("position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n");
        let record = game.record.as_ref().unwrap();
        for n in [Notation::Usi, Notation::Japanese, Notation::Western] {
            assert_eq!(main_line_text(record, n), moves_text(&game, n));
        }
        // The fourth move has no piece to move (the pawn left 7g): the three before it.
        let game = read_any("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(76)\n   4 ７六歩(77)\n");
        assert!(game.error.is_some());
        assert_eq!(moves_text(&game, Notation::Western), "P-7f P-3d P-7e");
        let game = read_any("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７六歩(77)\n");
        assert!(
            game.error.is_some(),
            "the third move has no piece to move either"
        );
        assert_eq!(moves_text(&game, Notation::Japanese), "▲７六歩 △３四歩");
        let mut none = game.clone();
        none.record = None;
        assert_eq!(moves_text(&none, Notation::Usi), "");
        let mut row: GameRow = GameRow::default();
        row.set_moves(&none, Notation::Usi);
        assert_eq!(row.moves.as_deref(), Some(""));
    }
}

//! BOD board diagrams in KIF and KI2: column numbers, rows between `|`, borders.

use super::Parser;
use crate::error::{ErrorKind, ReadError};
use crate::raw::*;
use crate::text::TextLine;
use shogi_core::{Color, Piece, Role};

impl<'a> Parser<'a> {
    pub(super) fn board_row(&mut self, line: TextLine<'a>, t: &'a str) -> Result<(), ReadError> {
        if self.board.is_none() {
            self.board = Some(RawBoard::default());
            self.board_loc = line.loc_of(t);
        }
        let size = self.board.as_ref().map_or(9, |b| b.size);
        let inner = &t[1..];
        let end = inner.find('|').unwrap_or(inner.len());
        let cells_text = &inner[..end];
        let rank = self.board_rows + 1;
        if rank > u32::from(size) {
            return Err(self.err(
                ErrorKind::Position,
                format!("board diagram has more than {size} rows"),
                line.loc_of(t),
            ));
        }
        let mut cells: Vec<Option<Piece>> = Vec::with_capacity(9);
        let mut it = cells_text.char_indices().peekable();
        while let Some((i, c)) = it.next() {
            let (side, piece_char) = match c {
                'v' | 'V' => (Color::White, it.next().map(|x| x.1)),
                ' ' | '^' | '\u{3000}' => (Color::Black, it.next().map(|x| x.1)),
                '・' => (Color::Black, Some('・')),
                other => (Color::Black, Some(other)),
            };
            match piece_char {
                Some('・') => cells.push(None),
                Some(pc) => match Role::from_kanji(pc) {
                    Some(k) => cells.push(Some(Piece::new(side, k))),
                    None => {
                        return Err(self.err(
                            ErrorKind::Position,
                            format!("{pc:?} is not a piece in a board diagram"),
                            line.loc_of(&cells_text[i..]),
                        ));
                    }
                },
                None => {
                    return Err(self.err(
                        ErrorKind::Position,
                        "board row ends inside a cell",
                        line.loc_of(&cells_text[i..]),
                    ));
                }
            }
            if cells.len() > 9 {
                break;
            }
        }
        let mut size = self.board.as_ref().map_or(9, |b| b.size);
        if cells.len() == 5 && rank == 1 {
            size = 5;
        }
        if cells.len() != usize::from(size) {
            return Err(self.err(
                ErrorKind::Position,
                format!("board row has {} cells, expected {}", cells.len(), size),
                line.loc_of(t),
            ));
        }
        let b = self.board.get_or_insert_with(RawBoard::default);
        b.size = size;
        let n = cells.len();
        for (i, cell) in cells.into_iter().enumerate() {
            // Leftmost cell is the highest file.
            let file = n - i;
            b.cells[(rank - 1) as usize][file - 1] = cell;
        }
        self.board_rows = rank;
        Ok(())
    }

    /// Column numbers above a board diagram (`  ９ ８ ７ … １` or `  ５ ４ ３ ２ １`): they
    /// give the board's size.
    pub(super) fn column_numbers(&mut self, line: TextLine<'a>, tt: &'a str) -> bool {
        if tt.chars().all(|c| {
            c == ' ' || c == '\u{3000}' || ('１'..='９').contains(&c) || c.is_ascii_digit()
        }) && tt.chars().any(|c| ('１'..='９').contains(&c))
        {
            let n = tt.chars().filter(|c| ('１'..='９').contains(c)).count();
            let b = self.board.get_or_insert_with(RawBoard::default);
            b.size = if n <= 5 { 5 } else { 9 };
            self.board_loc = line.loc_of(tt);
            return true;
        }
        false
    }
}

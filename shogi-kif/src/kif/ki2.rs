//! KI2 move lines: several moves a line, each after its side mark.

use super::Parser;
use super::read::{first_token, move_or_special};
use crate::error::{ErrorKind, ReadError};
use crate::japanese::{self, MARKS, mark_side};
use crate::text::{Columns, TextLine, trim};

impl<'a> Parser<'a> {
    pub(super) fn ki2_line(&mut self, line: TextLine<'a>, t: &'a str) -> Result<(), ReadError> {
        // Split at each side mark (no list of the marks is built), and locate the moves with
        // columns counted on from the previous move.
        let mut marks = t
            .char_indices()
            .filter(|(_, c)| MARKS.contains(c))
            .map(|(i, _)| i)
            .chain([t.len()])
            .peekable();
        let mut columns = Columns::new(line);
        while let (Some(from), Some(&to)) = (marks.next(), marks.peek()) {
            let seg = &t[from..to];
            let mark = seg.chars().next().unwrap_or('▲');
            let body = trim(&seg[mark.len_utf8()..]);
            let side = mark_side(mark);
            if body.is_empty() {
                return Err(self.err(
                    ErrorKind::Truncated,
                    "a side mark with no move after it",
                    line.loc_of(seg),
                ));
            }
            let parsed = japanese::parse(body).map(|(mut mv, used)| {
                mv.side = side;
                (mv, used)
            });
            let (item, used) = match move_or_special(parsed, body) {
                Ok(ok) => ok,
                Err(reason) => {
                    let ply = self.path.len() as u32 + self.offset.unwrap_or(0);
                    return Err(self
                        .err(ErrorKind::Syntax, reason.to_string(), line.loc_of(seg))
                        .with_ply(ply, Some(first_token(seg).to_string())));
                }
            };
            let text = &seg[..mark.len_utf8()
                + (body.as_ptr() as usize - seg[mark.len_utf8()..].as_ptr() as usize)
                + used];
            let loc = columns.loc_of(text);
            let rest = trim(&body[used..]);
            let time = if rest.is_empty() {
                None
            } else {
                self.parse_tail(line, rest)?
            };
            if let Some(idx) = self.place(line, None, item, loc, true)? {
                self.rec.set_time(idx, time);
            }
        }
        Ok(())
    }
}

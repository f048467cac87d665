//! USI / SFEN syntax: `position startpos|sfen … moves …`, `sfen …`, bare SFEN; one record a line.

pub(crate) mod write;

use crate::ending::EndingKind;
use crate::error::{ErrorKind, ReadError};
use crate::holds::{EndingHolds, HeaderHolds, Holds};
use crate::raw::*;
use crate::text::{Columns, TextLine};
use shogi_core::{Move, UsiError, UsiMoveError, UsiMoveErrorKind, UsiStart, UsiWords};

/// Parse one USI/SFEN line into a raw record.
pub(crate) fn parse_line(src: &str, line: TextLine<'_>) -> Result<RawRecord, ReadError> {
    let mut rec = RawRecord::new();
    let t = line.text.trim_start_matches('\u{feff}').trim();
    let words = UsiWords::split(t).map_err(|e| {
        let (at, message) = match e {
            UsiError::Syntax { position, message } => (position, message),
            other => (0, other.to_string()),
        };
        // The word the problem is at (the line's end when it is missing).
        let rest = &t[at.min(t.len())..];
        let word = rest.split_ascii_whitespace().next().unwrap_or(rest);
        ReadError::at(ErrorKind::Syntax, message, src, line.loc_of(word))
    })?;
    if let UsiStart::Sfen { text, .. } = words.start {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        let (board, last) = match (fields.first(), fields.last()) {
            (Some(b), Some(l)) => (*b, *l),
            _ => (text, text),
        };
        let start = line.loc_of(board);
        let end = line.loc_of(last);
        rec.start = RawStart::Sfen {
            sfen: fields.join(" "),
            loc: crate::error::Location {
                end: end.end,
                ..start
            },
        };
    }
    let err =
        |msg: String, part: &str| ReadError::at(ErrorKind::Syntax, msg, src, line.loc_of(part));
    let mut parent = 0;
    let mut columns = Columns::new(line);
    for &(_, tok) in &words.moves {
        let loc = columns.loc_of(tok);
        if matches!(rec.nodes[parent as usize].item, Slot::End(_)) {
            rec.warn(src, loc, "move after the end of the game ignored");
            continue;
        }
        let item = match tok {
            "resign" => Item::end(EndingKind::Resign, None),
            "win" => Item::end(EndingKind::Declaration, None),
            "draw" | "rep_draw" => Item::end(EndingKind::Repetition, None),
            _ => match usi_move(tok) {
                Some(m) => Item::Move(RawMove::Usi(m)),
                None => {
                    let ply = rec.nodes.len() as u32;
                    return Err(err(format!("{tok:?} is not a USI move"), tok)
                        .with_ply(ply, Some(tok.to_string())));
                }
            },
        };
        let nodes = rec.nodes.len();
        if let Some(message) = crate::limits::move_limit(nodes, nodes - 1) {
            return Err(ReadError::at(ErrorKind::TooLarge, message, src, loc));
        }
        parent = rec.push(parent, item, loc, true);
    }
    Ok(rec)
}

/// The move a USI move text gives, by shogi-core's parser. A move from a square to itself is
/// kept: the replay refuses it with the rule it breaks (what stands on that square), as it
/// does every move the position does not allow.
fn usi_move(tok: &str) -> Option<Move> {
    match Move::from_usi(tok) {
        Ok(m) => Some(m),
        Err(UsiMoveError {
            kind: UsiMoveErrorKind::SameSquare { square, promote },
            ..
        }) => Some(Move::Normal {
            from: square,
            to: square,
            promote,
        }),
        Err(_) => None,
    }
}

/// What a USI line holds ([`crate::losses`] asks): the start, the main line's moves and
/// `resign`/`win`.
pub(crate) const USI_HOLDS: Holds = Holds {
    variations: false,
    comments: false,
    times: false,
    subsecond_times: false,
    bookmarks: false,
    header: HeaderHolds::None,
    endings: EndingHolds::Usi,
    foul_moves: false,
};

/// What an SFEN line holds: as a USI line (a position is no more).
pub(crate) const SFEN_HOLDS: Holds = USI_HOLDS;

//! USI / SFEN syntax: `position startpos|sfen … moves …`, `sfen …`, bare SFEN; one record a line.

pub(crate) mod write;

use crate::ending::EndingKind;
use crate::error::{ErrorKind, ReadError};
use crate::raw::*;
use crate::text::{Columns, Line};
use shogi_core::{Move, UsiMoveError, UsiMoveErrorKind};

/// Parse one USI/SFEN line into a raw record.
pub(crate) fn parse_line(src: &str, line: Line<'_>) -> Result<RawRecord, ReadError> {
    let mut rec = RawRecord::new();
    let t = line.text.trim_start_matches('\u{feff}').trim();
    let mut toks = t.split_ascii_whitespace().peekable();
    if toks.peek() == Some(&"position") {
        toks.next();
    }
    let first = toks.next().unwrap_or("");
    let err =
        |msg: String, part: &str| ReadError::at(ErrorKind::Syntax, msg, src, line.loc_of(part));
    match first {
        "startpos" => {}
        _ if first == "sfen" || first.contains('/') => {
            let mut fields: Vec<&str> = Vec::with_capacity(4);
            if first != "sfen" {
                fields.push(first);
            }
            while let Some(&tok) = toks.peek() {
                if tok == "moves" || fields.len() == 4 {
                    break;
                }
                fields.push(tok);
                toks.next();
            }
            let Some(&board) = fields.first() else {
                return Err(err("sfen needs a position".into(), t));
            };
            let start = line.loc_of(board);
            let last = fields.last().copied().unwrap_or(board);
            let end = line.loc_of(last);
            let sfen = fields.join(" ");
            rec.start = RawStart::Sfen {
                sfen,
                loc: crate::error::Location {
                    end: end.end,
                    ..start
                },
            };
        }
        _ => {
            return Err(err(
                format!("expected startpos, sfen or an SFEN board, found {first:?}"),
                first,
            ));
        }
    }
    match toks.next() {
        None => return Ok(rec),
        Some("moves") => {}
        Some(other) => return Err(err(format!("expected `moves`, found {other:?}"), other)),
    }
    let mut parent = 0;
    let mut columns = Columns::new(line);
    for tok in toks {
        let loc = columns.loc_of(tok);
        if matches!(rec.nodes[parent as usize].item, Item::End(_)) {
            rec.warn(src, loc, "move after the end of the game ignored");
            continue;
        }
        let item = match tok {
            "resign" => Item::End(RawEnd {
                kind: EndingKind::Resign,
                offender: None,
            }),
            "win" => Item::End(RawEnd {
                kind: EndingKind::Declaration,
                offender: None,
            }),
            "draw" | "rep_draw" => Item::End(RawEnd {
                kind: EndingKind::Repetition,
                offender: None,
            }),
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
        parent = rec.push(parent, item, loc, (loc.start, loc.end));
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

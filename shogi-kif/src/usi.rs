//! USI / SFEN syntax: `position startpos|sfen … moves …`, `sfen …`, bare SFEN; one record a line.

pub(crate) mod write;

use crate::ending::EndingKind;
use crate::error::{ErrorKind, ReadError};
use crate::raw::*;
use crate::text::{Columns, Line};
use shogi_core::{Role, Square};

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
            _ => match parse_usi_move(tok) {
                Some(m) => Item::Move(m),
                None => {
                    let ply = rec.nodes.len() as u32;
                    return Err(err(format!("{tok:?} is not a USI move"), tok)
                        .with_ply(ply, Some(tok.to_string())));
                }
            },
        };
        if rec.nodes.len() >= 10_000_000 {
            return Err(ReadError::at(
                ErrorKind::TooLarge,
                "more than 10 million moves",
                src,
                loc,
            ));
        }
        parent = rec.push(parent, item, loc, (loc.start, loc.end));
    }
    Ok(rec)
}

pub(crate) fn parse_usi_move(s: &str) -> Option<RawMove> {
    let b = s.as_bytes();
    if b.len() == 4 && b[1] == b'*' {
        let kind = Role::from_sfen_char(b[0] as char)
            .filter(|&k| k.is_hand_role() && b[0].is_ascii_uppercase())?;
        let to = Square::from_usi_bytes(b[2], b[3])?;
        return Some(RawMove::Usi {
            from: None,
            to,
            promote: false,
            drop: Some(kind),
        });
    }
    if b.len() == 4 || (b.len() == 5 && b[4] == b'+') {
        let from = Square::from_usi_bytes(b[0], b[1])?;
        let to = Square::from_usi_bytes(b[2], b[3])?;
        return Some(RawMove::Usi {
            from: Some(from),
            to,
            promote: b.len() == 5,
            drop: None,
        });
    }
    None
}

//! JKF reading into the raw layer.

use super::schema::{Hms, Jkf, MoveFormat, PlaceFormat};
use crate::ending::EndingKind;
use crate::error::{ErrorKind, Location, ReadError};
use crate::raw::*;
use shogi_core::{Color, Piece, Role, Square};
use std::borrow::Cow;

/// The comments of an entry, owned.
fn comments(c: Option<Cow<'_, [String]>>) -> Vec<String> {
    c.map(Cow::into_owned).unwrap_or_default()
}

/// A serde_json error as a located read error (line and column as serde_json gives them).
fn json_err(src: &str, e: serde_json::Error) -> ReadError {
    let line = e.line() as u32;
    // Byte offset of the line start, to fill the span.
    let line_start = src
        .split_inclusive('\n')
        .take(line.saturating_sub(1) as usize)
        .map(str::len)
        .sum::<usize>();
    // serde_json counts the column in bytes: the span covers the character holding that
    // byte, and the column counts characters.
    let at = crate::error::floor_char(
        src,
        (line_start + e.column().saturating_sub(1)).min(src.len()),
    );
    let end = src[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    let column = src[line_start.min(at)..at].chars().count() as u32 + 1;
    let loc = Location {
        line,
        column,
        start: at,
        end,
    };
    // serde_json ends its message with the place, which the error's location gives.
    let message = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    let mut message = message.strip_suffix(&place).unwrap_or(&message).to_string();
    // The schema's limits and the JSON reader's nesting limit are limits too.
    let kind = if e.is_eof() {
        ErrorKind::Truncated
    } else if message.contains("(the limit)") {
        ErrorKind::TooLarge
    } else if message.starts_with("recursion limit exceeded") {
        message = format!(
            "JSON nested {} levels deep (the limit)",
            crate::limits::MAX_JSON_DEPTH
        );
        ErrorKind::TooDeep
    } else {
        ErrorKind::Json
    };
    ReadError::at(kind, format!("JKF: {message}"), src, loc)
}

/// JKF's side number: 0 is Black (sente), 1 is White (gote).
fn side_of(c: u8) -> Option<Color> {
    match c {
        0 => Some(Color::Black),
        1 => Some(Color::White),
        _ => None,
    }
}

/// Parse a JKF document into a raw record (syntax only: moves are resolved by the replay).
pub(crate) fn parse(src: &str) -> Result<RawRecord, ReadError> {
    super::schema::start_document();
    let jkf: Jkf = serde_json::from_str(src).map_err(|e| json_err(src, e))?;
    let mut rec = RawRecord::new();
    let whole = Location {
        line: 1,
        column: 1,
        start: 0,
        end: 0,
    };
    // The schema checks the start as it is read, where the JSON reader locates its errors;
    // these are guards it leaves unreached.
    let bad = |msg: String| ReadError::at(ErrorKind::Json, msg, src, whole);
    // 手合割 goes into the start (a Mini Shogi name makes the board a 5x5 one).
    let handicap_name = jkf
        .header
        .0
        .iter()
        .find(|(k, _)| k == "手合割")
        .map(|(_, v)| v.to_string());
    rec.header = jkf
        .header
        .0
        .into_iter()
        .filter(|(k, _)| k != "手合割")
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    if let Some(init) = jkf.initial {
        if init.preset == "OTHER" {
            let data = init
                .data
                .ok_or_else(|| bad("JKF: preset OTHER needs initial.data".into()))?;
            let mut b = RawBoard::default();
            if data.board.len() != 9 || data.board.iter().any(|c| c.len() != 9) {
                return Err(bad("JKF: initial.data.board must be 9x9".into()));
            }
            for (x, col) in data.board.iter().enumerate() {
                for (y, p) in col.iter().enumerate() {
                    if let (Some(c), Some(k)) = (p.color, p.kind.as_deref()) {
                        let side = side_of(c).ok_or_else(|| bad(format!("JKF: bad colour {c}")))?;
                        let kind = Role::from_csa(k)
                            .ok_or_else(|| bad(format!("JKF: bad piece kind {k:?}")))?;
                        b.cells[y][x] = Some(Piece::new(side, kind));
                    }
                }
            }
            for (i, hand) in data.hands.iter().enumerate().take(2) {
                for (k, &n) in hand {
                    let kind = Role::from_csa(k)
                        .ok_or_else(|| bad(format!("JKF: bad piece kind {k:?} in hand")))?;
                    let idx = hand_slot(kind)
                        .ok_or_else(|| bad(format!("JKF: {k} cannot be in hand")))?;
                    b.hands[i][idx] = n;
                }
            }
            b.side_to_move = side_of(data.color);
            rec.start = RawStart::Board {
                board: Box::new(b),
                name: handicap_name.filter(|n| shogi_core::Handicap::is_mini_shogi_name(n)),
                loc: whole,
            };
        } else {
            rec.start = RawStart::Named {
                name: format!("JKF:{}", init.preset),
                loc: whole,
            };
        }
    }
    let mut moves = jkf.moves.into_iter();
    if let Some(first) = moves.next() {
        if first.mv.is_some() || first.special.is_some() {
            return Err(bad(
                "JKF: moves[0] must be the start position (comments only)".into(),
            ));
        }
        rec.add_comments(0, comments(first.comments));
    }
    add_line(&mut rec, src, 0, moves.collect(), (0, 0))?;
    Ok(rec)
}

/// Add the entries of a move list below node `parent`; each fork hangs from the same parent
/// as the entry it replaces. `at` is the forks' nesting depth and the ply of `parent`.
///
/// The limits are checked while the JSON is read, where its reader locates their errors
/// (see `schema`): forks nest at most 42 deep within the JSON nesting limit, a line of play's
/// moves are counted as they are read, and a record holds fewer moves than items. The
/// checks here are guards that those leave unreached; their errors are located at the start
/// of the document, as the JSON reader keeps no places for the values it reads.
fn add_line(
    rec: &mut RawRecord,
    src: &str,
    mut parent: u32,
    moves: Vec<MoveFormat<'_>>,
    at: (u32, usize),
) -> Result<(), ReadError> {
    let (depth, mut ply) = at;
    let start = Location {
        line: 1,
        column: 1,
        start: 0,
        end: 0,
    };
    if depth > MAX_DEPTH {
        let message = format!("JKF: forks nested deeper than {MAX_DEPTH} levels (the limit)");
        return Err(ReadError::at(ErrorKind::TooDeep, message, src, start));
    }
    let loc = Location::default();
    for m in moves {
        let item = if let Some(mv) = m.mv {
            let kind = Role::from_csa(&mv.piece).ok_or_else(|| {
                ReadError::new(ErrorKind::Json, format!("JKF: bad piece {:?}", mv.piece))
            })?;
            let sq = |p: PlaceFormat| -> Result<Square, ReadError> {
                Square::new(p.x, p.y).ok_or_else(|| {
                    ReadError::new(ErrorKind::Json, format!("JKF: {}", p.off_board()))
                })
            };
            let from = mv.from.map(sq).transpose()?;
            let to = mv.to.map(sq).transpose()?;
            Item::Move(RawMove::Jkf {
                side: mv.color.and_then(side_of),
                from,
                to,
                kind,
                promote: mv.promote,
            })
        } else if let Some(sp) = m.special.as_deref() {
            let (kind, offender) = match sp {
                "+ILLEGAL_ACTION" => (EndingKind::FoulWin, Some(Color::Black)),
                "-ILLEGAL_ACTION" => (EndingKind::FoulWin, Some(Color::White)),
                "ILLEGAL_ACTION" => (EndingKind::FoulWin, None),
                w => (
                    EndingKind::from_csa(w)
                        .or_else(|| EndingKind::from_japanese(w))
                        .unwrap_or_else(|| EndingKind::Other(w.to_string())),
                    None,
                ),
            };
            Item::end(kind, offender)
        } else {
            // A node with comments only: attach them to the previous node.
            rec.add_comments(parent, comments(m.comments));
            continue;
        };
        if matches!(rec.nodes[parent as usize].item, Slot::End(_)) {
            rec.diagnostics.push(crate::error::Diagnostic::at(
                crate::error::Severity::Warning,
                "JKF: move after the end of the game ignored",
                src,
                loc,
            ));
            break;
        }
        if let Some(message) = crate::limits::move_limit(rec.nodes.len(), ply) {
            return Err(ReadError::at(
                ErrorKind::TooLarge,
                format!("JKF: {message}"),
                src,
                start,
            ));
        }
        let idx = rec.push(parent, item, loc, false);
        rec.add_comments(idx, comments(m.comments));
        if let Some(t) = m.time {
            let time = RawTime {
                spent_ms: t.now.as_ref().map(Hms::ms),
                total_ms: t.total.as_ref().map(Hms::ms),
            };
            rec.set_time(idx, Some(time));
        }
        if let Some(forks) = m.forks {
            for fork in forks {
                // Each fork replaces this move: it hangs from the same parent.
                add_line(rec, src, parent, fork, (depth + 1, ply))?;
            }
        }
        parent = idx;
        ply += 1;
    }
    Ok(())
}

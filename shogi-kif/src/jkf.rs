//! JKF (JSON Kifu Format) reading into the raw layer, via serde.

use crate::ending::EndingKind;
use crate::error::{ErrorKind, Location, ReadError};
use crate::raw::*;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::fmt;

/// Header kept in file order.
#[derive(Default)]
struct OrderedHeader(Vec<(String, String)>);

impl<'de> Deserialize<'de> for OrderedHeader {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OrderedHeader;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OrderedHeader, A::Error> {
                let mut v = Vec::new();
                while let Some((k, val)) = map.next_entry::<String, serde_json::Value>()? {
                    let s = match val {
                        serde_json::Value::String(s) => s,
                        other => other.to_string(),
                    };
                    v.push((k, s));
                }
                Ok(OrderedHeader(v))
            }
        }
        d.deserialize_map(V)
    }
}

#[derive(Deserialize)]
struct Jkf {
    #[serde(default)]
    header: OrderedHeader,
    #[serde(default)]
    initial: Option<Initial>,
    moves: Vec<MoveFormat>,
}

#[derive(Deserialize)]
struct Initial {
    preset: String,
    #[serde(default)]
    data: Option<StateFormat>,
}

#[derive(Deserialize)]
struct StateFormat {
    color: u8,
    board: Vec<Vec<PieceFormat>>,
    hands: Vec<BTreeMap<String, u8>>,
}

#[derive(Deserialize, Default)]
struct PieceFormat {
    #[serde(default)]
    color: Option<u8>,
    #[serde(default)]
    kind: Option<String>,
}

#[derive(Deserialize, Clone, Copy)]
struct PlaceFormat {
    x: u8,
    y: u8,
}

#[derive(Deserialize)]
struct MoveMoveFormat {
    #[serde(default)]
    color: Option<u8>,
    #[serde(default)]
    from: Option<PlaceFormat>,
    #[serde(default)]
    to: Option<PlaceFormat>,
    piece: String,
    #[serde(default)]
    promote: Option<bool>,
}

#[derive(Deserialize)]
struct TimeFormat {
    #[serde(default)]
    now: Option<Hms>,
    #[serde(default)]
    total: Option<Hms>,
}

#[derive(Deserialize)]
struct Hms {
    #[serde(default)]
    h: Option<u64>,
    #[serde(default)]
    m: u64,
    #[serde(default)]
    s: u64,
}

impl Hms {
    fn ms(&self) -> u64 {
        (self.h.unwrap_or(0).min(1_000_000) * 3600
            + self.m.min(1_000_000_000) * 60
            + self.s.min(1_000_000_000))
            * 1000
    }
}

#[derive(Deserialize)]
struct MoveFormat {
    #[serde(default)]
    comments: Option<Vec<String>>,
    #[serde(default, rename = "move")]
    mv: Option<MoveMoveFormat>,
    #[serde(default)]
    time: Option<TimeFormat>,
    #[serde(default)]
    special: Option<String>,
    #[serde(default)]
    forks: Option<Vec<Vec<MoveFormat>>>,
}

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
    let at = crate::text::floor_char(
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
    let kind = if e.is_eof() {
        ErrorKind::Truncated
    } else {
        ErrorKind::Json
    };
    ReadError::at(kind, format!("JKF: {e}"), src, loc)
}

fn side_of(c: u8) -> Option<Side> {
    match c {
        0 => Some(Side::Black),
        1 => Some(Side::White),
        _ => None,
    }
}

pub(crate) fn parse(src: &str) -> Result<RawRecord, ReadError> {
    let jkf: Jkf = serde_json::from_str(src).map_err(|e| json_err(src, e))?;
    let mut rec = RawRecord::new();
    let whole = Location {
        line: 1,
        column: 1,
        start: 0,
        end: 0,
    };
    let bad = |msg: String| ReadError::at(ErrorKind::Json, msg, src, whole);
    // 手合割 goes into the start (a Mini Shogi name makes the board a 5x5 one).
    let handicap_name = jkf
        .header
        .0
        .iter()
        .find(|(k, _)| k == "手合割")
        .map(|(_, v)| v.clone());
    rec.header = jkf
        .header
        .0
        .into_iter()
        .filter(|(k, _)| k != "手合割")
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
                        let kind = Kind::from_csa(k)
                            .ok_or_else(|| bad(format!("JKF: bad piece kind {k:?}")))?;
                        b.cells[y][x] = Some((side, kind));
                    }
                }
            }
            for (i, hand) in data.hands.iter().enumerate().take(2) {
                for (k, &n) in hand {
                    let kind = Kind::from_csa(k)
                        .ok_or_else(|| bad(format!("JKF: bad piece kind {k:?} in hand")))?;
                    let idx = kind
                        .hand_index()
                        .ok_or_else(|| bad(format!("JKF: {k} cannot be in hand")))?;
                    b.hands[i][idx] = n.min(18);
                }
            }
            b.side_to_move = side_of(data.color);
            rec.start = RawStart::Board {
                board: Box::new(b),
                name: handicap_name.filter(|n| crate::replay::is_mini_name(n)),
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
        rec.nodes[0].comments = first.comments.unwrap_or_default();
    }
    add_line(&mut rec, src, 0, moves.collect(), 0)?;
    Ok(rec)
}

fn add_line(
    rec: &mut RawRecord,
    src: &str,
    mut parent: u32,
    moves: Vec<MoveFormat>,
    depth: u32,
) -> Result<(), ReadError> {
    if depth > MAX_DEPTH {
        return Err(ReadError::new(
            ErrorKind::TooDeep,
            format!("JKF: forks nested deeper than {MAX_DEPTH}"),
        ));
    }
    let loc = Location::default();
    for m in moves {
        let item = if let Some(mv) = m.mv {
            let kind = Kind::from_csa(&mv.piece).ok_or_else(|| {
                ReadError::new(ErrorKind::Json, format!("JKF: bad piece {:?}", mv.piece))
            })?;
            let sq = |p: PlaceFormat| -> Result<Sq, ReadError> {
                if (1..=9).contains(&p.x) && (1..=9).contains(&p.y) {
                    Ok((p.x, p.y))
                } else {
                    Err(ReadError::new(
                        ErrorKind::Json,
                        format!("JKF: square {{x:{},y:{}}} is off the board", p.x, p.y),
                    ))
                }
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
                "+ILLEGAL_ACTION" => (EndingKind::FoulWin, Some(Side::Black)),
                "-ILLEGAL_ACTION" => (EndingKind::FoulWin, Some(Side::White)),
                "ILLEGAL_ACTION" => (EndingKind::FoulWin, None),
                w => (
                    EndingKind::from_csa(w)
                        .or_else(|| EndingKind::from_japanese(w))
                        .unwrap_or_else(|| EndingKind::Other(w.to_string())),
                    None,
                ),
            };
            Item::End(RawEnd { kind, offender })
        } else {
            // A node with comments only: attach them to the previous node.
            rec.nodes[parent as usize]
                .comments
                .extend(m.comments.unwrap_or_default());
            continue;
        };
        if matches!(rec.nodes[parent as usize].item, Item::End(_)) {
            rec.diagnostics.push(crate::error::Diagnostic::at(
                crate::error::Severity::Warning,
                "JKF: move after the end of the game ignored",
                src,
                loc,
            ));
            break;
        }
        let idx = rec.push(parent, item, loc, (0, 0));
        let node = &mut rec.nodes[idx as usize];
        node.comments = m.comments.unwrap_or_default();
        if let Some(t) = m.time {
            node.time = Some(RawTime {
                spent_ms: t.now.as_ref().map(Hms::ms),
                total_ms: t.total.as_ref().map(Hms::ms),
            });
        }
        if let Some(forks) = m.forks {
            for fork in forks {
                // Each fork replaces this move: it hangs from the same parent.
                add_line(rec, src, parent, fork, depth + 1)?;
            }
        }
        parent = idx;
    }
    Ok(())
}

//! JKF writing: the record as [`schema`](super::schema) values, serialised by serde_json.

use super::schema::{
    Header, Hms, Initial, Jkf, MoveFormat, MoveMoveFormat, PieceFormat, PlaceFormat, StateFormat,
    TimeFormat,
};
use crate::ending::{EndingKind, UNKNOWN_ENDING_WORD};
use crate::format::Format;
use crate::model::{Ending, Line, MoveNode, MoveTime, Record};
use shogi_core::{Color, Handicap, Move, Position, Role, Square, Variant};
use std::borrow::Cow;
use std::fmt::{self, Write};

/// Write a record as JKF, pretty-printed with a final newline. serde_json cannot fail on these types (every
/// map key is a string); were it to, the error is `fmt::Error`.
pub(crate) fn write<W: Write + ?Sized>(out: &mut W, record: &Record) -> fmt::Result {
    let header = header(record);
    let pos = record.start_position().clone();
    let mut moves = vec![MoveFormat {
        comments: comments(&record.start_comments),
        ..MoveFormat::default()
    }];
    let initial = initial(record, &pos);
    line(&mut moves, &record.moves, pos, None);
    let doc = Jkf {
        header,
        initial: Some(initial),
        moves,
    };
    out.write_str(&serde_json::to_string_pretty(&doc).map_err(|_| fmt::Error)?)?;
    out.write_char('\n')
}

/// The header in the record's order (a repeated key keeps its first place and its last
/// value, as a JSON object can hold a key only once).
fn header(record: &Record) -> Header<'_> {
    let mut v: Vec<(Cow<'_, str>, Cow<'_, str>)> = Vec::with_capacity(record.header.entries.len());
    for e in &record.header.entries {
        let k = e.key.kif();
        match v.iter_mut().find(|(key, _)| key == k) {
            Some(slot) => slot.1 = Cow::Borrowed(&e.value),
            None => v.push((Cow::Borrowed(k), Cow::Borrowed(&e.value))),
        }
    }
    // JKF boards are 9x9: the 手合割 name is what tells a Mini Shogi record apart.
    if record.start.variant() == Variant::Mini && !v.iter().any(|(k, _)| k == "手合割") {
        v.push((Cow::Borrowed("手合割"), Cow::Borrowed("5五将棋")));
    }
    Header(v)
}

/// JKF's number for a side.
fn color(c: Color) -> u8 {
    if c == Color::Black { 0 } else { 1 }
}

/// The start: a preset for a named handicap at move 1 that readers know (see
/// [`widely_known`](crate::kif::write::widely_known)), otherwise the position itself.
fn initial(record: &Record, pos: &Position) -> Initial<'static> {
    match record.start.handicap {
        Some(h)
            if h != Handicap::Other
                && crate::kif::write::widely_known(h)
                && record.start.variant() == Variant::Standard
                && pos.move_number() == 1 =>
        {
            Initial {
                data: None,
                preset: Cow::Borrowed(h.jkf()),
            }
        }
        _ => Initial {
            data: Some(state(pos)),
            preset: Cow::Borrowed("OTHER"),
        },
    }
}

/// The position as JKF `data`: always a 9x9 board.
fn state(pos: &Position) -> StateFormat<'static> {
    let board = (1..=9u8)
        .map(|x| {
            (1..=9u8)
                .map(
                    |y| match Square::new(x, y).and_then(|sq| pos.piece_at(sq)) {
                        Some(p) => PieceFormat {
                            color: Some(color(p.color)),
                            kind: Some(Cow::Borrowed(p.role.csa())),
                        },
                        None => PieceFormat::default(),
                    },
                )
                .collect()
        })
        .collect();
    let hands = Color::ALL
        .iter()
        .map(|c| {
            let h = pos.hand(*c);
            Role::HAND
                .iter()
                .map(|r| (Cow::Borrowed(r.csa()), h.count(*r)))
                .collect()
        })
        .collect();
    StateFormat {
        board,
        color: color(pos.side_to_move()),
        hands,
    }
}

fn comments(c: &[String]) -> Option<Cow<'_, [String]>> {
    (!c.is_empty()).then_some(Cow::Borrowed(c))
}

fn time(t: &MoveTime) -> TimeFormat {
    TimeFormat {
        now: t.spent_ms.map(|ms| {
            let s = ms / 1000;
            Hms {
                h: None,
                m: s / 60,
                s: s % 60,
            }
        }),
        total: t.total_ms.map(|ms| {
            let s = ms / 1000;
            Hms {
                h: Some(s / 3600),
                m: (s / 60) % 60,
                s: s % 60,
            }
        }),
    }
}

/// JKF `forks`: each alternative line from the position before the move it replaces.
fn forks<'r>(
    lines: &'r [Line],
    pos: &Position,
    prev: Option<Square>,
) -> Option<Vec<Vec<MoveFormat<'r>>>> {
    (!lines.is_empty()).then(|| {
        lines
            .iter()
            .map(|v| {
                let mut entries = Vec::new();
                line(&mut entries, v, pos.clone(), prev);
                entries
            })
            .collect()
    })
}

/// Append the entries of a line (its moves, then its ending) to `out`.
fn line<'r>(
    out: &mut Vec<MoveFormat<'r>>,
    line: &'r Line,
    mut pos: Position,
    mut prev: Option<Square>,
) {
    let mut fouled = false;
    for node in &line.moves {
        out.push(MoveFormat {
            comments: comments(&node.comments),
            forks: forks(&node.variations, &pos, prev),
            mv: Some(jkf_move(node, &pos, prev)),
            special: None,
            time: node.time.as_ref().map(time),
        });
        if node.foul.is_some() {
            fouled = true;
            break;
        }
        if pos.play(node.mv).is_err() {
            break;
        }
        prev = Some(node.mv.to());
    }
    // The side to move after the last move (a recorded foul move counts as made).
    let stm = if fouled {
        !pos.side_to_move()
    } else {
        pos.side_to_move()
    };
    if fouled && line.ending.is_none() {
        // A line that stops at a foul with no ending stated (a KIF variation, declared by the
        // record's closing line) is won by the other side. JKF has no closing line: only a
        // special after the move declares it, without which the move reads back as an
        // illegal move and the line is lost.
        out.push(MoveFormat {
            comments: None,
            forks: None,
            mv: None,
            special: Some(Cow::Owned(format!("{}ILLEGAL_ACTION", (!stm).csa_char()))),
            time: None,
        });
    }
    if let Some(e) = &line.ending {
        // An unknown word JKF would read back as another ending (a CSA or KIF word) is
        // written as 不明, the word kept as the ending's first comment.
        let comments = if e.kind.reads_back_in(Format::Jkf) {
            comments(&e.comments)
        } else {
            let mut all = vec![e.kind.japanese().to_string()];
            all.extend(e.comments.iter().cloned());
            Some(Cow::Owned(all))
        };
        out.push(MoveFormat {
            comments,
            forks: forks(&e.variations, &pos, prev),
            mv: None,
            special: Some(special(e, stm)),
            time: e.time.as_ref().map(time),
        });
    }
}

/// The `special` word of an ending: CSA's word without `%`, else the Japanese one.
fn special(e: &Ending, stm: Color) -> Cow<'_, str> {
    match &e.kind {
        EndingKind::FoulWin => Cow::Owned(format!(
            "{}ILLEGAL_ACTION",
            e.offender.unwrap_or(!stm).csa_char()
        )),
        EndingKind::FoulLoss if e.offender.is_some() => {
            Cow::Owned(format!("{}ILLEGAL_ACTION", stm.csa_char()))
        }
        EndingKind::Other(w) if e.kind.reads_back_in(Format::Jkf) => Cow::Borrowed(w),
        EndingKind::Other(_) => Cow::Borrowed(UNKNOWN_ENDING_WORD),
        k => Cow::Borrowed(k.csa().unwrap_or_else(|| k.japanese())),
    }
}

fn jkf_move(node: &MoveNode, pos: &Position, prev: Option<Square>) -> MoveMoveFormat<'static> {
    let to = node.mv.to();
    let place = |sq: Square| PlaceFormat {
        x: sq.file(),
        y: sq.rank(),
    };
    let mut m = MoveMoveFormat {
        capture: None,
        color: Some(color(pos.side_to_move())),
        from: None,
        piece: Cow::Borrowed(Role::Pawn.csa()),
        promote: None,
        same: (Some(to) == prev).then_some(true),
        to: Some(place(to)),
    };
    match node.mv {
        Move::Normal { from, promote, .. } => {
            let role = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
            m.from = Some(place(from));
            m.piece = Cow::Borrowed(role.csa());
            let other = Move::Normal {
                from,
                to,
                promote: !promote,
            };
            if promote || pos.is_legal(other) {
                m.promote = Some(promote);
            }
            m.capture = pos.piece_at(to).map(|c| c.role.csa());
        }
        Move::Drop { role, .. } => m.piece = Cow::Borrowed(role.csa()),
    }
    m
}

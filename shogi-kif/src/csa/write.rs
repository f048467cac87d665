//! CSA writing (V3.0): header, start position, the main line's moves and its ending.

use crate::encoding::Encoding;
use crate::ending::EndingKind;
use crate::format::Format;
use crate::model::{Ending, HeaderKey, MoveTime, Record};
use crate::text::{one_line, write_comments};
use shogi_core::{Color, Handicap, Move, Position, Role, Square, Variant};
use std::fmt::{self, Write};

/// Write a record as CSA, the first line declaring `encoding` as CSA V3.0 does
/// (`'CSA encoding=SHIFT_JIS`). CSA holds one line of play: variations are not written.
pub(crate) fn write<W: Write + ?Sized>(
    out: &mut W,
    record: &Record,
    encoding: Encoding,
) -> fmt::Result {
    writeln!(
        out,
        "'CSA encoding={}\nV3.0",
        encoding.label().to_ascii_uppercase()
    )?;
    write_header(out, record)?;
    let pos = record.start_position().clone();
    write_start(out, record, &pos)?;
    write_comments(out, "'*", &record.start_comments)?;
    let (pos, fouled) = write_moves(out, record, pos)?;
    match record.ending() {
        Some(e) => write_ending(out, e, &pos, fouled),
        // A line that stops at a foul with no ending stated is won by the other side (as the
        // readers take it when something declares the foul): `%±ILLEGAL_ACTION` says so.
        None if fouled => write_ending(out, &Ending::new(EndingKind::FoulWin), &pos, fouled),
        None => Ok(()),
    }
}

/// Player names as `N+`/`N-`, other CSA keys as `$KEY:`, the rest as `'key：value` comments.
fn write_header<W: Write + ?Sized>(out: &mut W, record: &Record) -> fmt::Result {
    for e in &record.header.entries {
        let value = one_line(&e.value);
        match e.key.csa() {
            Some(k) if k.starts_with('N') => writeln!(out, "{k}{value}")?,
            Some(k) => writeln!(out, "{k}:{value}")?,
            // A line break in a key would start a statement: keys go on one line too.
            None => match &e.key {
                HeaderKey::Other(k) if k.starts_with('$') => {
                    writeln!(out, "{}:{value}", one_line(k))?
                }
                // Floodgate's rating lines, which the reader takes back as these entries.
                HeaderKey::Other(k) if super::COMMENT_KEYS.contains(&k.as_str()) => {
                    writeln!(out, "'{k}:{value}")?
                }
                k => writeln!(out, "'{}：{value}", one_line(k.kif()))?,
            },
        }
    }
    Ok(())
}

/// `PI` for the even start, otherwise the board (`P1`…), hands (`P+00FU…`) and side to move.
fn write_start<W: Write + ?Sized>(out: &mut W, record: &Record, pos: &Position) -> fmt::Result {
    if record.start.variant() == Variant::Standard && record.start.handicap == Some(Handicap::Even)
    {
        return out.write_str("PI\n+\n");
    }
    let size = pos.variant().size();
    for rank in 1..=size {
        write!(out, "P{rank}")?;
        for file in (1..=size).rev() {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => {
                    out.write_char(p.color.csa_char())?;
                    out.write_str(p.role.csa())?;
                }
                None => out.write_str(" * ")?,
            }
        }
        out.write_char('\n')?;
    }
    for c in Color::ALL {
        let h = pos.hand(c);
        if h.is_empty() {
            continue;
        }
        write!(out, "P{}", c.csa_char())?;
        for (r, n) in h.iter() {
            for _ in 0..n {
                write!(out, "00{}", r.csa())?;
            }
        }
        out.write_char('\n')?;
    }
    writeln!(out, "{}", pos.side_to_move().csa_char())
}

/// Write the main line's moves with their times and comments; give the position reached and
/// whether the line stopped at a recorded foul move (which the position does not include).
fn write_moves<W: Write + ?Sized>(
    out: &mut W,
    record: &Record,
    mut pos: Position,
) -> Result<(Position, bool), fmt::Error> {
    for node in &record.moves.moves {
        let (from, role) = match node.mv {
            Move::Normal { from, promote, .. } => {
                let r = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
                let role = if promote { r.promote().unwrap_or(r) } else { r };
                (from.csa(), role)
            }
            Move::Drop { role, .. } => ("00".to_string(), role),
        };
        let sign = pos.side_to_move().csa_char();
        write!(out, "{sign}{from}{}{}", node.mv.to().csa(), role.csa())?;
        if let Some(ms) = node.time.and_then(|t| t.spent_ms) {
            write_seconds(out, ms)?;
        }
        out.write_char('\n')?;
        write_comments(out, "'*", &node.comments)?;
        if node.foul.is_some() {
            return Ok((pos, true));
        }
        if pos.play(node.mv).is_err() {
            break;
        }
    }
    Ok((pos, false))
}

/// A move's time field: `,T12`, or `,T12.345` with milliseconds.
fn write_seconds<W: Write + ?Sized>(out: &mut W, ms: u64) -> fmt::Result {
    if ms % 1000 == 0 {
        write!(out, ",T{}", ms / 1000)
    } else {
        write!(out, ",T{}.{:03}", ms / 1000, ms % 1000)
    }
}

/// The ending line (`%TORYO`, `%+ILLEGAL_ACTION`, or a comment for endings CSA has no word
/// for), its time and comments. `pos` is the position after the last move; `fouled` says a
/// recorded foul move was made after it.
fn write_ending<W: Write + ?Sized>(
    out: &mut W,
    e: &Ending,
    pos: &Position,
    fouled: bool,
) -> fmt::Result {
    // The side to move after the last move (a recorded foul move counts as made).
    let stm = if fouled {
        !pos.side_to_move()
    } else {
        pos.side_to_move()
    };
    match &e.kind {
        EndingKind::FoulWin => {
            let offender = e.offender.unwrap_or(!stm);
            write!(out, "%{}ILLEGAL_ACTION", offender.csa_char())?;
        }
        EndingKind::FoulLoss if e.offender.is_some() => {
            write!(out, "%{}ILLEGAL_ACTION", stm.csa_char())?;
        }
        // A `%` word that reads back as itself; any other unknown word becomes a comment
        // line below (a line break in it would start a statement).
        EndingKind::Other(w) if e.kind.reads_back_in(Format::Csa) => out.write_str(w)?,
        // CSA has no sealed move: the game was interrupted there (as JKF reads it too);
        // a comment keeps what the record said.
        EndingKind::SealedMove => {
            write!(out, "'{}\n%CHUDAN", EndingKind::SealedMove.japanese())?;
        }
        k => match k.csa() {
            Some(c) => write!(out, "%{c}")?,
            None => write!(out, "'{}", one_line(k.japanese()))?,
        },
    }
    if let Some(MoveTime {
        spent_ms: Some(ms), ..
    }) = e.time
    {
        write_seconds(out, ms)?;
    }
    out.write_char('\n')?;
    write_comments(out, "'*", &e.comments)
}

//! Writers: every record written in every format reads back the same.

use super::*;

/// Every writer: each game read (format detected; the first byte gives the hint) is written
/// in each format and read again with that format forced. That must succeed and give the
/// same start position (the move number aside), the same main-line moves and, where the
/// format holds them, the same ending and the same variations (KIF, KI2, JKF).
///
/// A line that stops at a recorded foul is compared in the formats that hold fouls (KIF, KI2,
/// CSA, JKF); USI and SFEN cannot write it.
pub fn check_write(data: &[u8]) {
    let Some((h, rest)) = data.split_first() else {
        return;
    };
    let hint = FORMATS.get(usize::from(*h) % 7).copied();
    let Ok(reader) = Reader::new(rest, ReadOptions::with_hint(hint)) else {
        return;
    };
    for game in reader.take(8) {
        if game.error.is_some() {
            continue;
        }
        for f in FORMATS {
            check_write_as(&game.record, f);
        }
    }
}

fn has_foul(line: &Line) -> bool {
    line.moves.iter().any(|n| n.foul.is_some())
}

fn check_write_as(record: &Record, f: Format) {
    if matches!(f, Format::Usi | Format::Sfen) && has_foul(&record.moves) {
        return;
    }
    let text = shogi_kif::write(record, f);
    let back = match shogi_kif::read_str(&text, ReadOptions::with_format(f)) {
        Ok(r) => r,
        Err(e) => panic!("written as {f:?}, does not read back: {e}\n{text}"),
    };
    let pos = |r: &Record| without_move_number(r.start.sfen());
    assert_eq!(pos(&back), pos(record), "{f:?}: start position\n{text}");
    assert_eq!(
        back.usi_moves(),
        record.usi_moves(),
        "{f:?}: main line\n{text}"
    );
    let ending = |r: &Record| ending_of(&r.moves);
    if let Some(kept) = held(ending(record), f) {
        assert_eq!(ending(&back), kept, "{f:?}: ending\n{text}");
    }
    if matches!(f, Format::Kif | Format::Ki2 | Format::Jkf) {
        assert_eq!(
            tree(&back.moves, f),
            tree(&record.moves, f),
            "{f:?}: variations\n{text}"
        );
    }
}

/// What an ending becomes when written in `f` and read again; `None` when the format
/// keeps it only in a comment or in a form this check does not predict.
fn held(kind: Option<EndingKind>, f: Format) -> Option<Option<EndingKind>> {
    let Some(kind) = kind else {
        return Some(None);
    };
    match f {
        Format::Usi | Format::Sfen => {
            Some(Some(kind).filter(|k| matches!(k, EndingKind::Resign | EndingKind::Declaration)))
        }
        Format::Csa => match kind {
            // CSA has no sealed move: the game was interrupted there.
            EndingKind::SealedMove => Some(Some(EndingKind::Interrupt)),
            EndingKind::FoulWin | EndingKind::FoulLoss => None,
            // A `%` word that reads back as itself; any other is a comment line.
            k @ EndingKind::Other(_) => Some(Some(k).filter(|k| k.reads_back_in(f))),
            k if k.csa().is_some() => Some(Some(k)),
            // Written as a comment.
            _ => Some(None),
        },
        // An unknown word is written as it was read when it reads back as itself; else as
        // 不明, the word kept in a comment.
        _ => Some(Some(kind.as_written(f).into_owned())),
    }
}

fn without_move_number(sfen: &str) -> String {
    let mut words: Vec<&str> = sfen.split(' ').collect();
    if words.len() == 4 {
        words.pop();
    }
    words.join(" ")
}

/// The ending of a line; a line that stops at a recorded foul with no ending stated is won
/// by the other side (as the readers take it when nothing else is written).
fn ending_of(line: &Line) -> Option<EndingKind> {
    match (&line.ending, line.moves.last()) {
        (Some(e), _) => Some(e.kind.clone()),
        (None, Some(n)) if n.foul.is_some() => Some(EndingKind::FoulWin),
        (None, _) => None,
    }
}

/// The move tree as text: moves, fouls, endings (as `f` holds them) and variations.
fn tree(line: &Line, f: Format) -> String {
    let mut out = String::new();
    let mut todo: Vec<(&Line, usize)> = vec![(line, 0)];
    while let Some((line, depth)) = todo.pop() {
        out.push_str(&format!("{depth}:"));
        for node in &line.moves {
            out.push(' ');
            out.push_str(&node.mv.to_usi());
            if node.foul.is_some() {
                out.push('!');
            }
            for v in node.variations.iter().rev() {
                todo.push((v, depth + 1));
            }
        }
        match held(ending_of(line), f) {
            Some(k) => out.push_str(&format!(" {k:?}")),
            None => out.push_str(" (ending)"),
        }
        if let Some(e) = &line.ending {
            for v in e.variations.iter().rev() {
                todo.push((v, depth + 1));
            }
        }
        out.push('\n');
    }
    out
}

//! Writers: KIF, KI2, CSA, USI/SFEN and JKF.

use crate::Format;
use crate::ending::EndingKind;
use crate::japanese::Qualifiers;
use crate::model::{Ending, HeaderKey, Line, MoveNode, MoveTime, Record};
use serde_json::{Map, Value, json};
use shogi_core::{Color, Handicap, Move, Position, Role, Square, Variant};
use std::fmt::Write as _;

/// Write a record in a format. CSA, USI and SFEN cannot hold variations: only the main
/// line is written there.
pub fn write(record: &Record, format: Format) -> String {
    match format {
        Format::Kif => write_japanese(record, false),
        Format::Ki2 => write_japanese(record, true),
        Format::Csa => write_csa(record),
        Format::Usi => write_usi(record, true),
        Format::Sfen => write_usi(record, false),
        Format::Jkf => write_jkf(record),
    }
}

const WIDE_DIGITS: [char; 10] = ['０', '１', '２', '３', '４', '５', '６', '７', '８', '９'];
const KANJI_DIGITS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn square_ja(sq: Square) -> String {
    let mut s = String::new();
    s.push(WIDE_DIGITS[usize::from(sq.file())]);
    s.push(KANJI_DIGITS[usize::from(sq.rank())]);
    s
}

fn kanji_count(n: u8) -> String {
    let mut s = String::new();
    if n >= 10 {
        s.push('十');
    }
    if n % 10 != 0 {
        s.push(KANJI_DIGITS[usize::from(n % 10)]);
    }
    s
}

/// The one-character name of a role in a board diagram (全, 圭, 杏 for the promoted minors).
fn bod_char(role: Role) -> char {
    role.kanji_short().chars().next().unwrap_or('？')
}

fn is_handicap_game(record: &Record) -> bool {
    record.start.variant == Variant::Standard
        && matches!(record.start.handicap, Some(h) if h != Handicap::Even)
}

fn write_bod(out: &mut String, pos: &Position, handicap: bool) {
    let size = pos.variant().size();
    let (top, bottom) = if handicap {
        ("上手", "下手")
    } else {
        ("後手", "先手")
    };
    let hand = |c: Color| -> String {
        let h = pos.hand(c);
        let parts: Vec<String> = Role::HAND
            .iter()
            .filter(|r| h.count(**r) > 0)
            .map(|r| {
                format!(
                    "{}{}",
                    bod_char(*r),
                    if h.count(*r) > 1 {
                        kanji_count(h.count(*r))
                    } else {
                        String::new()
                    }
                )
            })
            .collect();
        if parts.is_empty() {
            "なし".to_string()
        } else {
            parts.join("　") + "　"
        }
    };
    let _ = writeln!(out, "{top}の持駒：{}", hand(Color::White));
    let cols: Vec<String> = (1..=size)
        .rev()
        .map(|f| WIDE_DIGITS[usize::from(f)].to_string())
        .collect();
    let _ = writeln!(out, "  {}", cols.join(" "));
    let border = format!("+{}+", "-".repeat(usize::from(size) * 3));
    let _ = writeln!(out, "{border}");
    for rank in 1..=size {
        out.push('|');
        for file in (1..=size).rev() {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(bod_char(p.role));
                }
                None => out.push_str(" ・"),
            }
        }
        out.push('|');
        out.push(KANJI_DIGITS[usize::from(rank)]);
        out.push('\n');
    }
    let _ = writeln!(out, "{border}");
    let _ = writeln!(out, "{bottom}の持駒：{}", hand(Color::Black));
    // Always say whose turn it is: readers guess 上手 for handicap-looking diagrams.
    let _ = writeln!(
        out,
        "{}番",
        if pos.side_to_move() == Color::White {
            top
        } else {
            bottom
        }
    );
}

fn kif_time(t: &MoveTime) -> String {
    let s = t.spent_ms.unwrap_or(0) / 1000;
    let mut out = format!("({:>2}:{:02}/", s / 60, s % 60);
    if let Some(total) = t.total_ms {
        let tt = total / 1000;
        let _ = write!(out, "{:02}:{:02}:{:02}", tt / 3600, (tt / 60) % 60, tt % 60);
    }
    out.push(')');
    out
}

fn display_width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// Japanese text of a move (KIF form with the source square, or KI2 form with qualifiers).
fn ja_move(pos: &Position, mv: Move, prev_to: Option<Square>, ki2: bool) -> String {
    let mut s = String::new();
    let to = mv.to();
    if ki2 {
        s.push(if pos.side_to_move() == Color::Black {
            '▲'
        } else {
            '△'
        });
    }
    if Some(to) == prev_to {
        s.push_str(if ki2 { "同" } else { "同　" });
    } else {
        s.push_str(&square_ja(to));
    }
    match mv {
        Move::Normal { from, promote, .. } => {
            let role = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
            s.push_str(role.kanji());
            if ki2 {
                let _ = write!(s, "{}", Qualifiers::of(pos, mv, role));
                let other = Move::Normal {
                    from,
                    to,
                    promote: !promote,
                };
                if promote {
                    s.push('成');
                } else if role.can_promote() && pos.is_legal(other) {
                    s.push_str("不成");
                }
            } else {
                if promote {
                    s.push('成');
                }
                let _ = write!(s, "({}{})", from.file(), from.rank());
            }
        }
        Move::Drop { role, .. } => {
            s.push_str(role.kanji());
            if !ki2 {
                s.push('打');
            } else {
                let board_can = pos.legal_moves_to(to).iter().any(|m| {
                    matches!(m, Move::Normal { from, .. } if pos.piece_at(*from).is_some_and(|p| p.role == role))
                });
                if board_can {
                    s.push('打');
                }
            }
        }
    }
    s
}

/// JSA disambiguation (FORMAT-FACTS §3.1).
fn ending_word(e: &Ending) -> String {
    e.kind.japanese().to_string()
}

fn closing(record: &Record) -> Option<String> {
    let e = record.ending()?;
    let n = record.moves.moves.len();
    let start = record.start_position()?;
    let stm = if n % 2 == 0 {
        start.side_to_move()
    } else {
        !start.side_to_move()
    };
    let handicap = is_handicap_game(record);
    let name = |c: Color| match (c, handicap) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    };
    let text = match &e.kind {
        EndingKind::Resign => format!("{}の勝ち", name(!stm)),
        EndingKind::TimeUp => format!("時間切れにより{}の勝ち", name(!stm)),
        EndingKind::FoulWin => format!("{}の反則勝ち", name(stm)),
        EndingKind::FoulLoss => format!("{}の反則負け", name(stm)),
        EndingKind::Declaration => format!("{}の入玉勝ち", name(stm)),
        EndingKind::Mate => "詰み".to_string(),
        EndingKind::Interrupt => "中断".to_string(),
        EndingKind::Repetition => "千日手".to_string(),
        EndingKind::Impasse | EndingKind::MaxMoves | EndingKind::Draw => "持将棋".to_string(),
        EndingKind::NoMate => "不詰".to_string(),
        EndingKind::SealedMove => "封じ手".to_string(),
        _ => return None,
    };
    Some(format!("まで{n}手で{text}"))
}

/// KIF time fields hold each side's running total too; records read from CSA have only the
/// time spent. Fill the totals in (running sums per side, variations continuing from the
/// position they branch at) so the written `( 0:12/00:03:40)` fields are complete.
fn with_time_totals(record: &Record) -> std::borrow::Cow<'_, Record> {
    fn missing(line: &Line) -> bool {
        line.moves.iter().any(|n| {
            n.time
                .is_some_and(|t| t.spent_ms.is_some() && t.total_ms.is_none())
                || n.variations.iter().any(missing)
        }) || line.ending.as_ref().is_some_and(|e| {
            e.time
                .is_some_and(|t| t.spent_ms.is_some() && t.total_ms.is_none())
                || e.variations.iter().any(missing)
        })
    }
    fn fill(line: &mut Line, mut totals: [u64; 2], mut mover: usize) {
        let add = |t: &mut Option<MoveTime>, totals: &mut [u64; 2], mover: usize| {
            if let Some(t) = t {
                match (t.spent_ms, t.total_ms) {
                    (Some(spent), None) => {
                        totals[mover] += spent;
                        t.total_ms = Some(totals[mover]);
                    }
                    (_, Some(total)) => totals[mover] = total,
                    (None, None) => {}
                }
            }
        };
        for node in &mut line.moves {
            for v in &mut node.variations {
                fill(v, totals, mover);
            }
            add(&mut node.time, &mut totals, mover);
            mover ^= 1;
        }
        if let Some(e) = &mut line.ending {
            for v in &mut e.variations {
                fill(v, totals, mover);
            }
            add(&mut e.time, &mut totals, mover);
        }
    }
    if !missing(&record.moves) {
        return std::borrow::Cow::Borrowed(record);
    }
    let mut r = record.clone();
    let first = r.start_position().map_or(0, |p| p.side_to_move().index());
    fill(&mut r.moves, [0, 0], first);
    std::borrow::Cow::Owned(r)
}

fn write_japanese(record: &Record, ki2: bool) -> String {
    let record = &*with_time_totals(record);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "#{} version=2.0 encoding=UTF-8",
        if ki2 { "KI2" } else { "KIF" }
    );
    let handicap = is_handicap_game(record);
    let start = record.start_position();
    for e in &record.header.entries {
        let key = match (&e.key, handicap) {
            (HeaderKey::Black, true) => "下手",
            (HeaderKey::White, true) => "上手",
            (k, _) => k.kif(),
        };
        let _ = writeln!(out, "{key}：{}", e.value.replace(['\n', '\r'], " "));
    }
    let first_number = start.as_ref().map_or(1, Position::move_number).max(1);
    match (&record.start, &start) {
        (s, _) if s.variant == Variant::Mini && s.sfen == Variant::Mini.start_sfen() => {
            out.push_str("手合割：5五将棋\n");
        }
        (s, Some(pos)) if s.variant == Variant::Mini => {
            out.push_str("手合割：5五将棋\n");
            write_bod(&mut out, pos, false);
        }
        (s, Some(_)) if s.handicap.is_some_and(|h| h != Handicap::Other) && first_number == 1 => {
            let h = s.handicap.unwrap_or(Handicap::Even);
            let _ = writeln!(out, "手合割：{}", h.japanese());
        }
        (s, Some(pos)) => {
            if let Some(name) = &s.name {
                let _ = writeln!(out, "手合割：{name}");
            }
            if first_number > 1 {
                let _ = writeln!(out, "手数＝{}", first_number - 1);
            }
            write_bod(&mut out, pos, handicap);
        }
        (_, None) => {}
    }
    for c in &record.start_comments {
        for part in comment_lines(c) {
            let _ = writeln!(out, "*{part}");
        }
    }
    for b in &record.start_bookmarks {
        let _ = writeln!(out, "&{}", b.replace(['\n', '\r'], " "));
    }
    if !ki2 {
        out.push_str("手数----指手---------消費時間--\n");
    }
    let Some(pos) = start else { return out };
    let ply0 = first_number;
    let mut blocks: Vec<(u32, Line, Position, Option<Square>)> = Vec::new();
    write_line(
        &mut out,
        &record.moves,
        pos.clone(),
        None,
        ply0,
        ki2,
        &mut blocks,
    );
    if let Some(c) = closing(record) {
        let _ = writeln!(out, "{c}");
    }
    // Variations, depth-first, latest branch first (as Kifu for Windows writes them).
    while let Some((ply, line, p, prev)) = blocks.pop() {
        out.push('\n');
        let _ = writeln!(out, "変化：{ply}手");
        let mut sub = Vec::new();
        write_line(&mut out, &line, p, prev, ply, ki2, &mut sub);
        // Sub-variations come right after their line, latest first.
        blocks.extend(sub);
    }
    out
}

/// Write the moves of `line`, collecting its variations (in ply order) into `blocks`.
fn write_line(
    out: &mut String,
    line: &Line,
    mut pos: Position,
    mut prev: Option<Square>,
    first_ply: u32,
    ki2: bool,
    blocks: &mut Vec<(u32, Line, Position, Option<Square>)>,
) {
    let mut ply = first_ply;
    let mut ki2_row = 0;
    // Set when the line stops at a recorded foul move: the position was not advanced past it.
    let mut fouled = false;
    for node in &line.moves {
        // Pushed in reverse: the stack pops them back in record order.
        for v in node.variations.iter().rev() {
            blocks.push((ply, v.clone(), pos.clone(), prev));
        }
        let text = if ki2 && node.foul.is_some() {
            // An illegal move cannot be resolved from the position the way KI2 moves are:
            // write its source square too, as KIF does (`▲１七玉(28)`), which KI2 readers accept.
            let mark = if pos.side_to_move() == Color::Black {
                '▲'
            } else {
                '△'
            };
            format!("{mark}{}", ja_move(&pos, node.mv, prev, false))
        } else {
            ja_move(&pos, node.mv, prev, ki2)
        };
        if ki2 {
            if ki2_row > 0 && (ki2_row >= 6 || !node.comments.is_empty()) {
                out.push('\n');
                ki2_row = 0;
            }
            if ki2_row > 0 {
                out.push_str("    ");
            }
            out.push_str(&text);
            ki2_row += 1;
            if !node.comments.is_empty() || !node.bookmarks.is_empty() {
                out.push('\n');
                ki2_row = 0;
            }
        } else {
            let _ = write!(out, "{ply:>4} {text}");
            if let Some(t) = &node.time {
                let pad = 14usize.saturating_sub(display_width(&text));
                let _ = write!(out, "{:pad$}{}", "", kif_time(t));
            }
            if !node.variations.is_empty() {
                out.push('+');
            }
            out.push('\n');
        }
        write_notes(out, &node.comments, &node.bookmarks);
        if node.foul.is_some() {
            // The position stops at a foul: nothing can follow it.
            ply += 1;
            fouled = true;
            break;
        }
        if pos.play(node.mv).is_err() {
            break;
        }
        prev = Some(node.mv.to());
        ply += 1;
    }
    if ki2 && ki2_row > 0 {
        out.push('\n');
    }
    if let Some(e) = &line.ending {
        for v in e.variations.iter().rev() {
            blocks.push((ply, v.clone(), pos.clone(), prev));
        }
        if ki2 {
            // KI2 has no numbered special lines: write the ending inline as Shogi DB2 does (the
            // main line also gets its closing まで line), so that variations keep theirs.
            // The side to move after the last move (a foul move counts as made).
            let stm = pos.side_to_move();
            let stm = if fouled { !stm } else { stm };
            let _ = writeln!(
                out,
                "{}{}",
                if stm == Color::Black { '▲' } else { '△' },
                ending_word(e)
            );
        } else {
            let _ = write!(out, "{ply:>4} {}", ending_word(e));
            if let Some(t) = &e.time {
                let pad = 14usize.saturating_sub(display_width(&ending_word(e)));
                let _ = write!(out, "{:pad$}{}", "", kif_time(t));
            }
            out.push('\n');
        }
        write_notes(out, &e.comments, &e.bookmarks);
    }
}

fn write_notes(out: &mut String, comments: &[String], bookmarks: &[String]) {
    for c in comments {
        for part in comment_lines(c) {
            let _ = writeln!(out, "*{part}");
        }
    }
    for b in bookmarks {
        let _ = writeln!(out, "&{}", b.replace(['\n', '\r'], " "));
    }
}

/// The lines of a comment (one written comment line each); an empty comment is one empty line.
fn comment_lines(c: &str) -> Vec<String> {
    if c.is_empty() {
        return vec![String::new()];
    }
    c.lines().map(|l| l.replace('\r', " ")).collect()
}

fn csa_square(sq: Square) -> String {
    format!("{}{}", sq.file(), sq.rank())
}

fn write_csa(record: &Record) -> String {
    let mut out = String::from("'CSA encoding=UTF-8\nV3.0\n");
    for e in &record.header.entries {
        match e.key.csa() {
            Some(k) if k.starts_with('N') => {
                let _ = writeln!(out, "{k}{}", e.value.replace(['\n', '\r'], " "));
            }
            Some(k) => {
                let _ = writeln!(out, "{k}:{}", e.value.replace(['\n', '\r'], " "));
            }
            None => match &e.key {
                HeaderKey::Other(k) if k.starts_with('$') => {
                    let _ = writeln!(out, "{k}:{}", e.value.replace(['\n', '\r'], " "));
                }
                k => {
                    let _ = writeln!(out, "'{}：{}", k.kif(), e.value.replace(['\n', '\r'], " "));
                }
            },
        }
    }
    let Some(mut pos) = record.start_position() else {
        return out;
    };
    if record.start.variant == Variant::Standard && record.start.handicap == Some(Handicap::Even) {
        out.push_str("PI\n+\n");
    } else {
        let size = pos.variant().size();
        for rank in 1..=size {
            let _ = write!(out, "P{rank}");
            for file in (1..=size).rev() {
                match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                    Some(p) => {
                        out.push(if p.color == Color::Black { '+' } else { '-' });
                        out.push_str(p.role.csa());
                    }
                    None => out.push_str(" * "),
                }
            }
            out.push('\n');
        }
        for c in Color::ALL {
            let h = pos.hand(c);
            if h.is_empty() {
                continue;
            }
            out.push_str(if c == Color::Black { "P+" } else { "P-" });
            for (r, n) in h.iter() {
                for _ in 0..n {
                    let _ = write!(out, "00{}", r.csa());
                }
            }
            out.push('\n');
        }
        out.push(if pos.side_to_move() == Color::Black {
            '+'
        } else {
            '-'
        });
        out.push('\n');
    }
    for c in &record.start_comments {
        for part in comment_lines(c) {
            let _ = writeln!(out, "'*{part}");
        }
    }
    let mut fouled = false;
    for node in &record.moves.moves {
        let us = pos.side_to_move();
        let sign = if us == Color::Black { '+' } else { '-' };
        let (from, role) = match node.mv {
            Move::Normal { from, promote, .. } => {
                let r = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
                (
                    csa_square(from),
                    if promote { r.promote().unwrap_or(r) } else { r },
                )
            }
            Move::Drop { role, .. } => ("00".to_string(), role),
        };
        let _ = write!(
            out,
            "{sign}{from}{}{}",
            csa_square(node.mv.to()),
            role.csa()
        );
        if let Some(ms) = node.time.and_then(|t| t.spent_ms) {
            if ms % 1000 == 0 {
                let _ = write!(out, ",T{}", ms / 1000);
            } else {
                let _ = write!(out, ",T{}.{:03}", ms / 1000, ms % 1000);
            }
        }
        out.push('\n');
        for c in &node.comments {
            for part in comment_lines(c) {
                let _ = writeln!(out, "'*{part}");
            }
        }
        if node.foul.is_some() {
            fouled = true;
            break;
        }
        if pos.play(node.mv).is_err() {
            break;
        }
    }
    if let Some(e) = record.ending() {
        // The side to move after the last move (a recorded foul move counts as made).
        let stm = if fouled {
            !pos.side_to_move()
        } else {
            pos.side_to_move()
        };
        let word = match &e.kind {
            EndingKind::FoulWin => {
                let offender = e.offender.unwrap_or(!stm);
                format!(
                    "%{}ILLEGAL_ACTION",
                    if offender == Color::Black { '+' } else { '-' }
                )
            }
            EndingKind::FoulLoss if e.offender.is_some() => {
                format!(
                    "%{}ILLEGAL_ACTION",
                    if stm == Color::Black { '+' } else { '-' }
                )
            }
            EndingKind::Other(w) if w.starts_with('%') => w.clone(),
            // CSA has no sealed move: the game was interrupted there (as JKF reads it too);
            // a comment keeps what the record said.
            EndingKind::SealedMove => format!("'{}\n%CHUDAN", EndingKind::SealedMove.japanese()),
            k => match k.csa() {
                Some(c) => format!("%{c}"),
                None => format!("'{}", k.japanese()),
            },
        };
        out.push_str(&word);
        if let Some(ms) = e.time.and_then(|t| t.spent_ms) {
            let _ = write!(out, ",T{}", ms / 1000);
        }
        out.push('\n');
        for c in &e.comments {
            for part in comment_lines(c) {
                let _ = writeln!(out, "'*{part}");
            }
        }
    }
    out
}

fn write_usi(record: &Record, usi: bool) -> String {
    let mut out = String::new();
    if usi {
        out.push_str("position ");
        if record.start.sfen == Variant::Standard.start_sfen() {
            out.push_str("startpos");
        } else {
            let _ = write!(out, "sfen {}", record.start.sfen);
        }
    } else {
        out.push_str(&record.start.sfen);
    }
    if !record.moves.moves.is_empty()
        || record
            .ending()
            .is_some_and(|e| matches!(e.kind, EndingKind::Resign | EndingKind::Declaration))
    {
        out.push_str(" moves");
        for m in &record.moves.moves {
            out.push(' ');
            out.push_str(&m.mv.to_usi());
        }
        match record.ending().map(|e| &e.kind) {
            Some(EndingKind::Resign) => out.push_str(" resign"),
            Some(EndingKind::Declaration) => out.push_str(" win"),
            _ => {}
        }
    }
    out.push('\n');
    out
}

fn jkf_time(t: &MoveTime) -> Value {
    let mut o = Map::new();
    if let Some(ms) = t.spent_ms {
        let s = ms / 1000;
        o.insert("now".into(), json!({"m": s / 60, "s": s % 60}));
    }
    if let Some(ms) = t.total_ms {
        let s = ms / 1000;
        o.insert(
            "total".into(),
            json!({"h": s / 3600, "m": (s / 60) % 60, "s": s % 60}),
        );
    }
    Value::Object(o)
}

/// JKF `forks`: each alternative line from the position before the move it replaces.
fn jkf_forks(lines: &[Line], pos: &Position, prev: Option<Square>) -> Value {
    Value::Array(
        lines
            .iter()
            .map(|v| Value::Array(jkf_line(v, pos.clone(), prev)))
            .collect(),
    )
}

fn jkf_line(line: &Line, mut pos: Position, mut prev: Option<Square>) -> Vec<Value> {
    let mut out = Vec::new();
    let mut fouled = false;
    for node in &line.moves {
        let mut o = jkf_move(node, &pos, prev);
        if !node.variations.is_empty() {
            o.insert("forks".into(), jkf_forks(&node.variations, &pos, prev));
        }
        out.push(Value::Object(o));
        if node.foul.is_some() {
            fouled = true;
            break;
        }
        if pos.play(node.mv).is_err() {
            break;
        }
        prev = Some(node.mv.to());
    }
    if let Some(e) = &line.ending {
        // The side to move after the last move (a recorded foul move counts as made).
        let stm = if fouled {
            !pos.side_to_move()
        } else {
            pos.side_to_move()
        };
        let special = match &e.kind {
            EndingKind::FoulWin => format!(
                "{}ILLEGAL_ACTION",
                if e.offender.unwrap_or(!stm) == Color::Black {
                    '+'
                } else {
                    '-'
                }
            ),
            EndingKind::FoulLoss if e.offender.is_some() => {
                format!(
                    "{}ILLEGAL_ACTION",
                    if stm == Color::Black { '+' } else { '-' }
                )
            }
            EndingKind::Other(w) => w.clone(),
            k => k
                .csa()
                .map_or_else(|| k.japanese().to_string(), str::to_string),
        };
        let mut o = Map::new();
        o.insert("special".into(), Value::String(special));
        if let Some(t) = &e.time {
            o.insert("time".into(), jkf_time(t));
        }
        if !e.comments.is_empty() {
            o.insert("comments".into(), json!(e.comments));
        }
        if !e.variations.is_empty() {
            o.insert("forks".into(), jkf_forks(&e.variations, &pos, prev));
        }
        out.push(Value::Object(o));
    }
    out
}

fn jkf_move(node: &MoveNode, pos: &Position, prev: Option<Square>) -> Map<String, Value> {
    let color = if pos.side_to_move() == Color::Black {
        0
    } else {
        1
    };
    let to = node.mv.to();
    let mut m = Map::new();
    m.insert("color".into(), json!(color));
    match node.mv {
        Move::Normal { from, promote, .. } => {
            let role = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
            m.insert("from".into(), json!({"x": from.file(), "y": from.rank()}));
            m.insert("to".into(), json!({"x": to.file(), "y": to.rank()}));
            m.insert("piece".into(), json!(role.csa()));
            let other = Move::Normal {
                from,
                to,
                promote: !promote,
            };
            if promote || pos.is_legal(other) {
                m.insert("promote".into(), json!(promote));
            }
            if let Some(c) = pos.piece_at(to) {
                m.insert("capture".into(), json!(c.role.csa()));
            }
        }
        Move::Drop { role, .. } => {
            m.insert("to".into(), json!({"x": to.file(), "y": to.rank()}));
            m.insert("piece".into(), json!(role.csa()));
        }
    }
    if Some(to) == prev {
        m.insert("same".into(), json!(true));
    }
    let mut o = Map::new();
    o.insert("move".into(), Value::Object(m));
    if let Some(t) = &node.time {
        o.insert("time".into(), jkf_time(t));
    }
    if !node.comments.is_empty() {
        o.insert("comments".into(), json!(node.comments));
    }
    o
}

/// The JKF header in the record's order (a repeated key keeps its first place and its last
/// value, as a JSON object can hold a key only once).
struct OrderedHeader<'a>(Vec<(&'a str, &'a str)>);

impl<'a> OrderedHeader<'a> {
    fn new(record: &'a Record) -> OrderedHeader<'a> {
        let mut v: Vec<(&str, &str)> = Vec::with_capacity(record.header.entries.len());
        for e in &record.header.entries {
            let k = e.key.kif();
            match v.iter_mut().find(|(key, _)| *key == k) {
                Some(slot) => slot.1 = &e.value,
                None => v.push((k, &e.value)),
            }
        }
        // JKF boards are 9x9: the 手合割 name is what tells a Mini Shogi record apart.
        if record.start.variant == Variant::Mini && !v.iter().any(|(k, _)| *k == "手合割") {
            v.push(("手合割", "5五将棋"));
        }
        OrderedHeader(v)
    }
}

impl serde::Serialize for OrderedHeader<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A JKF document: header in record order, then `initial` and `moves`.
#[derive(serde::Serialize)]
struct JkfDoc<'a> {
    header: OrderedHeader<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    initial: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<Value>>,
}

fn write_jkf(record: &Record) -> String {
    let header = OrderedHeader::new(record);
    let Some(pos) = record.start_position() else {
        let doc = JkfDoc {
            header,
            initial: None,
            moves: None,
        };
        return serde_json::to_string(&doc).unwrap_or_default();
    };
    let initial = match record.start.handicap {
        Some(h)
            if h != Handicap::Other
                && record.start.variant == Variant::Standard
                && pos.move_number() == 1 =>
        {
            json!({"preset": h.jkf()})
        }
        _ => {
            let mut board = Vec::new();
            for x in 1..=9u8 {
                let mut col = Vec::new();
                for y in 1..=9u8 {
                    col.push(match Square::new(x, y).and_then(|sq| pos.piece_at(sq)) {
                        Some(p) => json!({"color": if p.color == Color::Black {0} else {1}, "kind": p.role.csa()}),
                        None => json!({}),
                    });
                }
                board.push(Value::Array(col));
            }
            let hands: Vec<Value> = Color::ALL
                .iter()
                .map(|c| {
                    let h = pos.hand(*c);
                    let mut m = Map::new();
                    for r in Role::HAND {
                        m.insert(r.csa().into(), json!(h.count(r)));
                    }
                    Value::Object(m)
                })
                .collect();
            json!({"preset": "OTHER", "data": {"color": if pos.side_to_move() == Color::Black {0} else {1}, "board": board, "hands": hands}})
        }
    };
    let mut moves = vec![if record.start_comments.is_empty() {
        json!({})
    } else {
        json!({"comments": record.start_comments})
    }];
    moves.extend(jkf_line(&record.moves, pos, None));
    let doc = JkfDoc {
        header,
        initial: Some(initial),
        moves: Some(moves),
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

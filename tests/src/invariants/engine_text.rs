//! The engine-text targets: `usi_line` (shogi-usi's parser of engine lines) and
//! `eval_comments` (shogi-kif's readers of evaluation comments, every dialect).

use shogi_core::{Position, Score, Variant};
use shogi_kif::eval::{Judgement, evaluations, parse_comments, shogihome_lines};
use shogi_kif::{Ending, EndingKind, MoveNode, Record, Start};
use shogi_usi::{EngineLine, check_pv, parse_line};

/// `usi_line`: bytes as one engine line. No panic; the same answer with a line ending
/// added; an unknown or malformed line keeps the text; a score reads back from its own
/// text and from `info score …`; a `bestmove` reads back from its own text; a PV is cut at
/// its first illegal move on the start position, never beyond.
pub fn check_usi_line(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let line = text.lines().next().unwrap_or("");
    let got = parse_line(line);
    assert_eq!(
        parse_line(&format!("{line}\r\n")),
        got,
        "a line ending changed {line:?}"
    );
    match &got {
        EngineLine::Unknown(s) => assert_eq!(s.trim_end(), line.trim_end(), "unknown text"),
        EngineLine::Malformed { line: l, .. } => {
            assert_eq!(l.trim_end(), line.trim_end(), "malformed text")
        }
        EngineLine::Info(info) => {
            if let Some(s) = info.score {
                assert_eq!(s.to_string().parse::<Score>(), Ok(s), "score text {s}");
                if s != Score::MateGiven {
                    match parse_line(&format!("info score {s}")) {
                        EngineLine::Info(i) => assert_eq!(i.score, Some(s), "info score {s}"),
                        other => panic!("info score {s} read as {other:?}"),
                    }
                }
            }
            let pos = Position::startpos(Variant::Standard);
            let (moves, cut) = check_pv(&pos, &info.pv);
            assert!(moves.len() <= info.pv.len(), "PV grew");
            if cut.is_none() && info.pv.last().is_none_or(|m| m != "resign" && m != "win") {
                assert_eq!(moves.len(), info.pv.len(), "PV shortened without a cut");
            }
        }
        EngineLine::BestMove(b) => {
            let again = match b {
                shogi_usi::BestMoveText::Move { mv, ponder: None } => format!("bestmove {mv}"),
                shogi_usi::BestMoveText::Move {
                    mv,
                    ponder: Some(p),
                } => format!("bestmove {mv} ponder {p}"),
                shogi_usi::BestMoveText::Resign => "bestmove resign".into(),
                shogi_usi::BestMoveText::Win => "bestmove win".into(),
            };
            assert_eq!(&parse_line(&again), &got, "bestmove text {again}");
        }
        _ => {}
    }
}

/// The start position followed by 7g7f 3c3d 8h2b+ 3a2b, each move with one comment line of
/// the input: the first byte picks where the lines start (0: on move 1, 1: on the start).
fn record_with(lines: &[String], at_start: bool) -> Record {
    let pos = Position::startpos(Variant::Standard);
    let mut r = Record {
        start: Start::new(pos, None, None),
        ..Record::default()
    };
    let mut lines = lines.iter().cloned();
    if at_start {
        r.start_comments.extend(lines.next());
    }
    for m in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
        let mut node = MoveNode::new(shogi_core::Move::from_usi(m).expect("a USI move"));
        node.comments.extend(lines.next());
        r.moves.moves.push(node);
    }
    r.moves.ending = Some(Ending::new(EndingKind::Resign));
    r
}

/// `eval_comments`: bytes as comment lines (the first byte picks where they start). No
/// panic; each evaluation is at a move of the record and its PV replays legally from the
/// position it describes; a score read is written back by ShogiHome's writer and reads
/// back as itself.
pub fn check_eval_comments(data: &[u8]) {
    let (first, rest) = data.split_first().unwrap_or((&0, &[]));
    let text = String::from_utf8_lossy(rest);
    let lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let _ = parse_comments(1, &lines);
    let record = record_with(&lines, first & 1 == 1);
    let evals = evaluations(&record);
    let mut last = 0;
    for e in &evals {
        assert!(
            e.ply > last && e.ply as usize <= record.moves.moves.len(),
            "ply {}",
            e.ply
        );
        last = e.ply;
        let mut pos = record.start_position().clone();
        for n in &record.moves.moves[..e.ply as usize] {
            pos.play(n.mv).expect("the record's moves are legal");
        }
        for m in &e.pv_usi {
            let mv = shogi_core::Move::from_usi(m).expect("a PV move is USI");
            pos.play(mv).expect("a PV move read is legal");
        }
        if let Some(score) = e.score {
            let mut after = record.start_position().clone();
            for n in &record.moves.moves[..e.ply as usize] {
                after.play_unchecked(n.mv);
            }
            let j = Judgement {
                score: Some(score),
                ..Judgement::default()
            };
            let written = shogihome_lines(&after, &j, '#');
            let back = parse_comments(e.ply, &written);
            assert_eq!(
                back.first().and_then(|b| b.score),
                Some(score),
                "{written:?}"
            );
        }
    }
}

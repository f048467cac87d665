//! Game records: a finished game as a [`shogi_kif::Record`], written as CSA (V3.0 or V2.2)
//! or KIF by shogi-kif's writers.
//!
//! What a record holds: the players (`N+`/`N-`, 先手/後手), start and end times, the event,
//! the time control (CSA V3 `$TIME`), the move limit (`$MAX_MOVES`) and the declaration rule
//! (`$JISHOGI`); the start position (a handicap or Mini Shogi start as itself) and the opening
//! moves, then every move with the time it took and the engine's score and PV (each PV move
//! checked on our position), written by [`write`] in the format's own form through
//! shogi-kif's one writer (`shogi_kif::eval`): in CSA as Floodgate writes them
//! (`'** 120 -3334FU +2726FU`: score in sente's view, a mate as ±30000, the PV from the
//! expected reply on), in KIF as ShogiHome writes a playing engine's block (`*先手有望`,
//! `**評価値=210`, `**読み筋=▲７六歩△３四歩…` from the move itself, `**深さ=…`,
//! `**詰み=先手勝ち:5手` for a mate); and the ending with a comment saying why the game ended.
//!
//! Endings: resignation `%TORYO`/投了; mate `%TSUMI`/詰み; an illegal move `%ILLEGAL_MOVE`/
//! 反則負け (the move is named in the comment, not recorded as a move); repetition, with or
//! without perpetual check, `%SENNICHITE`/千日手 (a reader judges the perpetual checker from
//! the moves); a declaration `%KACHI`/入玉勝ち (a reader judges it by the `$JISHOGI` rule, so a
//! false one reads back as the declarer's loss); the move limit `%MAX_MOVES` (V3; `%JISHOGI`
//! in V2.2 and 持将棋 in KIF); time-up `%TIME_UP`/切れ負け; a crashed engine and a lost
//! adjudication as a resignation with the reason in the comment (as ShogiHome treats an
//! engine's unusable answer); a drawn adjudication `%HIKIWAKE`.

use crate::clock::TimeControl;
use crate::referee::{Outcome, Referee, Termination};
use shogi_core::{Color, Handicap, ImpasseRule, Variant};
use shogi_kif::eval::{Judgement, Searcher, Style, annotate_by};
use shogi_kif::{Ending, EndingKind, Format, HeaderKey, MoveNode, MoveTime, Record, Start};
use std::time::SystemTime;

/// What a record says beyond the moves.
#[derive(Clone, Debug, Default)]
pub struct GameInfo {
    /// Sente's (下手's) engine name.
    pub black: String,
    /// Gote's (上手's) engine name.
    pub white: String,
    /// The event (`$EVENT`, 棋戦).
    pub event: String,
    /// Time control, when there is a clock.
    pub time_control: Option<TimeControl>,
    /// When the game started.
    pub start_time: Option<SystemTime>,
    /// When it ended.
    pub end_time: Option<SystemTime>,
    /// Where the opening came from.
    pub opening_source: Option<String>,
}

/// Which record format to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutFormat {
    /// CSA V3.0 (times with milliseconds).
    Csa3,
    /// CSA V2.2 (whole seconds, floored as shogi-server counts them).
    Csa22,
    /// KIF (UTF-8).
    Kif,
}

impl OutFormat {
    /// The format of shogi-kif's writer.
    pub fn kif_format(self) -> Format {
        match self {
            OutFormat::Kif => Format::Kif,
            OutFormat::Csa3 | OutFormat::Csa22 => Format::Csa,
        }
    }

    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            OutFormat::Csa3 | OutFormat::Csa22 => "csa",
            OutFormat::Kif => "kifu",
        }
    }

    /// Whether several games may share one file (CSA separates them with `/`).
    pub fn multi_game(self) -> bool {
        !matches!(self, OutFormat::Kif)
    }
}

/// `YYYY/MM/DD HH:MM:SS` (UTC) for a time.
pub fn csa_datetime(t: SystemTime) -> String {
    let secs = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86400) as i64;
    let rem = secs % 86400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}/{m:02}/{d:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// What [`write`] adds to a record in the form of the format written: the engines'
/// evaluations and why the game ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// The engines' judgements of their own moves, one per move (see [`judgements`]).
    pub judgements: Vec<Option<Judgement>>,
    /// Why the game ended, in English (a CSA comment after the ending).
    pub reason: String,
    /// Why the game ended, in Japanese, where the ending word and the `まで…` line of a KIF
    /// record do not say it all (an illegal move, a declaration, an adjudication, a failure).
    pub reason_ja: Option<String>,
}

impl Notes {
    /// The notes of a finished game.
    pub fn of(referee: &Referee, outcome: &Outcome) -> Notes {
        Notes {
            judgements: judgements(referee),
            reason: outcome.to_string(),
            reason_ja: reason_ja(&outcome.termination),
        }
    }
}

/// The Japanese reason of a KIF record's ending, when its ending word and `まで…` line do not
/// say it all.
fn reason_ja(t: &Termination) -> Option<String> {
    Some(match t {
        Termination::Resign
        | Termination::Checkmate
        | Termination::Repetition
        | Termination::MaxPlies { .. }
        | Termination::TimeUp {
            no_answer: false, ..
        } => return None,
        Termination::NoLegalMoves => "指せる手がない".into(),
        Termination::IllegalMove { text, reason } => format!("反則手 {text} ({reason})"),
        Termination::PerpetualCheck { .. } => "連続王手の千日手".into(),
        Termination::Declaration { points, rule, .. } => {
            format!("入玉宣言 ({rule}点法、{points}点)")
        }
        Termination::TimeUp { .. } => "時間切れ (応答なし)".into(),
        Termination::EngineFailure { detail } => format!("エンジンの異常 ({detail})"),
        Termination::AdjudicatedLoss { score, moves } => {
            format!("判定負け (評価値 {score} 以上の差が双方 {moves} 手続いた)")
        }
        Termination::AdjudicatedDraw { score, moves } => {
            format!("判定引き分け (評価値 ±{score} 以内が双方 {moves} 手続いた)")
        }
    })
}

/// The engines' judgements of their own moves, one per move of the record (none for the
/// opening moves and for a move without score or PV): the score in sente's view, the PV from
/// the position the move was played on (it usually starts with the move), for
/// [`shogi_kif::eval::annotate_by`] with [`Searcher::Player`].
pub fn judgements(referee: &Referee) -> Vec<Option<Judgement>> {
    let game = referee.game();
    let mut pos = game.start().clone();
    let opening = referee.opening_plies();
    let mut out = Vec::with_capacity(game.moves().len());
    for (i, &m) in game.moves().iter().enumerate() {
        let j = i.checked_sub(opening).and_then(|k| {
            let info = &referee.played()[k].info;
            let mover = pos.side_to_move();
            let score = info.eval.map(|s| s.to_view(mover, Color::Black));
            (score.is_some() || !info.pv.is_empty()).then(|| Judgement {
                score,
                pv: info.pv.clone(),
                depth: info.depth,
                nodes: info.nodes,
                ..Judgement::default()
            })
        });
        out.push(j);
        pos.play_unchecked(m);
    }
    out
}

/// The record of a finished game.
pub fn build(referee: &Referee, outcome: &Outcome, info: &GameInfo) -> Record {
    let game = referee.game();
    let start = game.start().clone();
    let mut record = Record::default();
    let h = &mut record.header;
    h.push(HeaderKey::Black, info.black.clone());
    h.push(HeaderKey::White, info.white.clone());
    if !info.event.is_empty() {
        h.push(HeaderKey::Event, info.event.clone());
    }
    if let Some(t) = info.start_time {
        h.push(HeaderKey::StartTime, csa_datetime(t));
    }
    if let Some(t) = info.end_time {
        h.push(HeaderKey::EndTime, csa_datetime(t));
    }
    if let Some(tc) = info.time_control.and_then(|tc| tc.csa_time()) {
        h.push(HeaderKey::CsaTime, tc);
    }
    let rules = referee.rules();
    if rules.max_plies > 0 {
        h.push(HeaderKey::MaxMoves, rules.max_plies.to_string());
    }
    if start.variant() == Variant::Standard {
        let rule = match rules.declaration {
            ImpasseRule::Points27 => "27",
            ImpasseRule::Points24 => "24",
        };
        h.push(HeaderKey::JishogiRule, rule);
    }
    let handicap = Handicap::from_sfen(&start.to_sfen());
    record.start = Start::new(start.clone(), handicap, None);
    if let Some(src) = &info.opening_source {
        record.start_comments.push(format!("opening: {src}"));
    }
    let mut pos = start;
    let moves = game.moves();
    let opening = referee.opening_plies();
    let mut totals = [0u64; 2];
    for (i, &m) in moves.iter().enumerate() {
        let mut node = MoveNode::new(m);
        if i >= opening {
            let played = &referee.played()[i - opening];
            let mover = pos.side_to_move().index();
            totals[mover] += played.info.time_ms;
            node.time = Some(MoveTime {
                spent_ms: Some(played.info.time_ms),
                total_ms: Some(totals[mover]),
            });
            node.comments.extend(played.info.notes.iter().cloned());
        }
        record.moves.moves.push(node);
        pos.play_unchecked(m);
    }
    let kind = match &outcome.termination {
        Termination::Resign
        | Termination::EngineFailure { .. }
        | Termination::AdjudicatedLoss { .. } => EndingKind::Resign,
        Termination::Checkmate | Termination::NoLegalMoves => EndingKind::Mate,
        Termination::IllegalMove { .. } => EndingKind::FoulLoss,
        Termination::Repetition | Termination::PerpetualCheck { .. } => EndingKind::Repetition,
        Termination::Declaration { .. } => EndingKind::Declaration,
        Termination::MaxPlies { .. } => EndingKind::MaxMoves,
        Termination::TimeUp { .. } => EndingKind::TimeUp,
        Termination::AdjudicatedDraw { .. } => EndingKind::Draw,
    };
    let mut ending = Ending::new(kind);
    if let Termination::TimeUp { elapsed_ms, .. } = outcome.termination {
        ending.time = Some(MoveTime {
            spent_ms: Some(elapsed_ms),
            total_ms: None,
        });
    }
    record.moves.ending = Some(ending);
    record
}

/// The text of a record in `format`, with the engines' judgements written as that format's
/// evaluation comments by shogi-kif's one writer (ShogiHome's player block `**評価値=…`,
/// `**読み筋=…` in KIF, Floodgate's `'** <score> <PV>` in CSA) and the reason of the ending
/// (in KIF in Japanese and only where `投了`, `詰み`, … and the `まで…` line do not say it, as
/// ShogiHome ends a record; in CSA as an English comment).
pub fn write(record: &Record, notes: &Notes, format: OutFormat) -> String {
    let record = annotated(record, notes, format);
    let text = shogi_kif::write(&record, format.kif_format());
    match format {
        OutFormat::Csa22 => to_v22(&text),
        _ => text,
    }
}

/// The record [`write`] writes in `format`, as a typed record: the ending's reason and the
/// engines' judgements as that format's comments (what a reader of the text gets back, with
/// nothing lost to the text: times keep their milliseconds).
pub fn annotated(record: &Record, notes: &Notes, format: OutFormat) -> Record {
    let kif_format = format.kif_format();
    let mut record = record.clone();
    if let Some(ending) = &mut record.moves.ending {
        let reason = match format {
            OutFormat::Kif => notes.reason_ja.clone(),
            _ => Some(notes.reason.clone()),
        };
        ending.comments.extend(reason);
    }
    annotate_by(
        &mut record,
        &notes.judgements,
        Style::for_format(kif_format),
        Searcher::Player,
    );
    record
}

/// CSA V3.0 text as V2.2: the version line, whole seconds (floored), `%JISHOGI` for the move
/// limit (V2.2 has no `%MAX_MOVES`).
fn to_v22(v3: &str) -> String {
    let mut out = String::with_capacity(v3.len());
    for line in v3.lines() {
        if line.starts_with("'CSA encoding=") {
            continue;
        }
        if line == "V3.0" {
            out.push_str("V2.2\n");
            continue;
        }
        if line == "%MAX_MOVES" || line.starts_with("%MAX_MOVES,") {
            out.push_str(&line.replacen("%MAX_MOVES", "%JISHOGI", 1));
            out.push('\n');
            continue;
        }
        if !line.starts_with('\'') && !line.starts_with('$') && !line.starts_with('N') {
            if let Some((head, t)) = line.split_once(",T") {
                let secs = t.split('.').next().unwrap_or("0");
                out.push_str(head);
                out.push_str(",T");
                out.push_str(secs);
                out.push('\n');
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{Answer, MoveInfo, Rules};
    use shogi_core::{Move, PlayError, Position, Score};
    use shogi_kif::{ReadOptions, read_str};
    use shogi_train::GameResult;
    use shogi_train::game_result;
    use shogi_usi::Illegality;

    /// How the game of [`play`] ends after its moves.
    enum Last {
        /// The engine to move answers this.
        Answer(Answer),
        /// The engine to move declares (judged as the engine layer judges it).
        Declare,
        /// The engine to move loses on time, hung.
        TimeUp,
    }

    fn play(sfen: &str, moves: &[&str], last: Last, rules: Rules) -> (Referee, Outcome) {
        let start = if sfen == "startpos" {
            Position::startpos(Variant::Standard)
        } else {
            Position::from_sfen(sfen).unwrap()
        };
        let mut r = Referee::new(start, &[], rules).unwrap();
        for (i, m) in moves.iter().enumerate() {
            let info = MoveInfo {
                time_ms: 1234 + i as u64,
                eval: Some(Score::Cp(30 + i as i32)),
                pv: [m, &"3c3d", &"2g2f"]
                    .iter()
                    .filter_map(|t| Move::from_usi(t).ok())
                    .collect(),
                notes: Vec::new(),
                ..MoveInfo::default()
            };
            if let Some(o) = r.play(Move::from_usi(m).unwrap(), info).unwrap() {
                let o = o.clone();
                return (r, o);
            }
        }
        let o = match last {
            Last::TimeUp => r
                .fail(Termination::TimeUp {
                    elapsed_ms: 2000,
                    allowed_ms: 1000,
                    no_answer: true,
                    last_info: Some("info depth 3 time 1990 nodes 100".into()),
                })
                .clone(),
            Last::Declare => {
                let d = r.position().declaration(r.rules().declaration);
                r.answer(&Answer::Win(d), MoveInfo::default())
                    .unwrap()
                    .clone()
            }
            Last::Answer(a) => r.answer(&a, MoveInfo::default()).unwrap().clone(),
        };
        (r, o)
    }

    fn round_trip(r: &Referee, o: &Outcome) {
        let info = GameInfo {
            black: "A".into(),
            white: "B".into(),
            event: "test".into(),
            time_control: Some(TimeControl::Byoyomi {
                main_ms: 0,
                byoyomi_ms: 1000,
            }),
            start_time: Some(SystemTime::UNIX_EPOCH),
            end_time: None,
            opening_source: None,
        };
        let record = build(r, o, &info);
        let js = Notes::of(r, o);
        for f in [OutFormat::Csa3, OutFormat::Csa22, OutFormat::Kif] {
            let text = write(&record, &js, f);
            let back = read_str(&text, ReadOptions::default())
                .unwrap_or_else(|e| panic!("{f:?}: {e}\n{text}"));
            assert_eq!(back.usi_moves(), record.usi_moves(), "{f:?}\n{text}");
            let want = GameResult::from_winner(o.winner);
            assert_eq!(game_result(&back), Some(want), "{f:?}: {o}\n{text}");
            // The typed record (what Python gets) is what a reader of the text gets back.
            let direct = annotated(&record, &js, f);
            assert_eq!(direct.usi_moves(), back.usi_moves(), "{f:?}");
            assert_eq!(game_result(&direct), Some(want), "{f:?}: {o}");
            let comments = |r: &Record| {
                let mut c: Vec<Vec<String>> =
                    r.moves.moves.iter().map(|m| m.comments.clone()).collect();
                c.push(
                    r.moves
                        .ending
                        .iter()
                        .flat_map(|e| e.comments.clone())
                        .collect(),
                );
                c
            };
            if f == OutFormat::Csa3 {
                assert_eq!(comments(&direct), comments(&back), "{f:?}\n{text}");
                assert_eq!(shogi_kif::write(&direct, Format::Csa), text);
            }
        }
    }

    #[test]
    fn every_ending_reads_back_with_its_result() {
        let rules = Rules::default();
        let (r, o) = play(
            "startpos",
            &["7g7f", "3c3d"],
            Last::Answer(Answer::Resign),
            rules,
        );
        round_trip(&r, &o);
        let illegal = Last::Answer(Answer::Illegal {
            text: "7g7e".into(),
            why: Illegality::Rule(PlayError::CannotMoveThere),
        });
        let (r, o) = play("startpos", &["7g7f"], illegal, rules);
        assert!(matches!(o.termination, Termination::IllegalMove { .. }));
        round_trip(&r, &o);
        let (r, o) = play(
            "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
            &["G*5b"],
            Last::Answer(Answer::Resign),
            rules,
        );
        assert_eq!(o.termination, Termination::Checkmate);
        round_trip(&r, &o);
        let cycle = ["5i5h", "5a5b", "5h5i", "5b5a"].repeat(3);
        let (r, o) = play("startpos", &cycle, Last::Answer(Answer::Resign), rules);
        assert_eq!(o.termination, Termination::Repetition);
        round_trip(&r, &o);
        let mut checks = vec!["9i9a"];
        checks.extend(["5a5b", "9a9b", "5b5a", "9b9a"].repeat(4));
        let (r, o) = play(
            "4k4/9/9/9/9/9/9/9/R3K4 b - 1",
            &checks,
            Last::Answer(Answer::Resign),
            rules,
        );
        assert!(matches!(o.termination, Termination::PerpetualCheck { .. }));
        round_trip(&r, &o);
        let ny28 = "4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 10P2g2s4n4l4p 1";
        let (r, o) = play(ny28, &[], Last::Declare, rules);
        assert_eq!(o.winner, Some(Color::Black));
        round_trip(&r, &o);
        let s27 = "4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 9P2g2s4n4l5p 1";
        let (r, o) = play(s27, &[], Last::Declare, rules);
        assert_eq!(o.winner, Some(Color::White));
        round_trip(&r, &o);
        let rules24 = Rules {
            declaration: ImpasseRule::Points24,
            ..rules
        };
        let (r, o) = play(s27, &[], Last::Declare, rules24);
        assert_eq!(o.winner, None);
        round_trip(&r, &o);
        let short = Rules {
            max_plies: 2,
            ..rules
        };
        let (r, o) = play(
            "startpos",
            &["7g7f", "3c3d"],
            Last::Answer(Answer::Resign),
            short,
        );
        assert!(matches!(o.termination, Termination::MaxPlies { .. }));
        round_trip(&r, &o);
        let (r, o) = play("startpos", &["7g7f"], Last::TimeUp, rules);
        round_trip(&r, &o);
        // A Mini Shogi game and a handicap game.
        let (r, o) = play(
            "rbsgk/4p/5/P4/KGSBR b - 1",
            &["5d5c"],
            Last::Answer(Answer::Resign),
            rules,
        );
        round_trip(&r, &o);
        let kyo = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
        let (r, o) = play(kyo, &["3c3d"], Last::Answer(Answer::Resign), rules);
        round_trip(&r, &o);
    }

    #[test]
    fn csa_text_has_times_scores_and_the_reason() {
        let (r, o) = play(
            "startpos",
            &["7g7f", "3c3d"],
            Last::Answer(Answer::Resign),
            Rules::default(),
        );
        let record = build(
            &r,
            &o,
            &GameInfo {
                black: "A".into(),
                white: "B".into(),
                ..GameInfo::default()
            },
        );
        let js = Notes::of(&r, &o);
        let v3 = write(&record, &js, OutFormat::Csa3);
        assert!(
            v3.contains("+7776FU,T1.234\n'** 30 -3334FU +2726FU\n"),
            "{v3}"
        );
        // Gote's score 31 is written in sente's view; its PV starts after its own move.
        assert!(v3.contains("-3334FU,T1.235\n'** -31\n"), "{v3}");
        assert!(v3.ends_with("%TORYO\n'*black resigned\n"), "{v3}");
        let v22 = write(&record, &js, OutFormat::Csa22);
        // KIF: ShogiHome's player block (the PV from the move itself), and the ending as
        // ShogiHome writes it, with no English comment.
        let kif = write(&record, &js, OutFormat::Kif);
        assert!(
            kif.contains("( 0:01/00:00:01)\n*互角\n**評価値=30\n**読み筋=▲７六歩△３四歩▲２六歩\n"),
            "{kif}"
        );
        assert!(kif.contains("\n**評価値=-31\n"), "{kif}");
        assert!(kif.ends_with("   3 投了\nまで2手で後手の勝ち\n"), "{kif}");
        assert!(v22.starts_with("V2.2\n"), "{v22}");
        assert!(v22.contains("+7776FU,T1\n"), "{v22}");
    }

    #[test]
    fn dates() {
        assert_eq!(csa_datetime(SystemTime::UNIX_EPOCH), "1970/01/01 00:00:00");
        let t = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_764_606_896);
        assert_eq!(csa_datetime(t), "2025/12/01 16:34:56");
    }
}

//! Tests of the referee: each answer and rule ends the game as it should, moves from
//! elsewhere are checked, and what the engine layer judged is taken as judged.

use super::*;
use shogi_core::Variant;

fn referee(sfen: &str, rules: Rules) -> Referee {
    let pos = if sfen == "startpos" {
        Position::startpos(Variant::Standard)
    } else {
        Position::from_sfen(sfen).unwrap()
    };
    Referee::new(pos, &[], rules).unwrap()
}

fn usi(m: &str) -> Move {
    Move::from_usi(m).unwrap()
}

/// A legal move, as the engine layer hands it over.
fn mv(r: &mut Referee, m: &str) -> Option<Outcome> {
    r.answer(&Answer::Move(usi(m)), MoveInfo::default())
        .cloned()
}

fn scored(r: &mut Referee, m: &str, cp: i32) -> Option<Outcome> {
    let info = MoveInfo {
        eval: Some(Score::Cp(cp)),
        ..MoveInfo::default()
    };
    r.answer(&Answer::Move(usi(m)), info).cloned()
}

#[test]
fn legal_moves_go_on_and_resign_ends() {
    let mut r = referee("startpos", Rules::default());
    assert_eq!(mv(&mut r, "7g7f"), None);
    assert_eq!(mv(&mut r, "3c3d"), None);
    let o = r.answer(&Answer::Resign, MoveInfo::default()).unwrap();
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(o.termination, Termination::Resign);
    assert_eq!(o.to_string(), "black resigned");
    assert_eq!(r.played().len(), 2);
    // Once over, a further answer changes nothing.
    let again = r.answer(&Answer::Move(usi("2g2f")), MoveInfo::default());
    assert_eq!(again.map(|o| &o.termination), Some(&Termination::Resign));
    assert_eq!(r.played().len(), 2);
}

#[test]
fn an_illegal_answer_loses_with_the_engine_layer_s_reason() {
    // The referee records the reason it is given and judges nothing again: here a text
    // that would be legal, with a reason that is not its own, to show it.
    let mut r = referee("startpos", Rules::default());
    let answer = Answer::Illegal {
        text: "7g7f".into(),
        why: Illegality::Rule(PlayError::Nifu),
    };
    let o = r.answer(&answer, MoveInfo::default()).unwrap();
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(
        o.termination,
        Termination::IllegalMove {
            text: "7g7f".into(),
            reason: "two unpromoted pawns on one file (nifu)".into()
        }
    );
    assert_eq!(
        o.to_string(),
        "black played an illegal move 7g7f: two unpromoted pawns on one file (nifu)"
    );
    assert!(r.played().is_empty());
    // Not a USI move: shogi-core's words for the parse error.
    let mut r = referee("startpos", Rules::default());
    let why = Illegality::NotUsi(Move::from_usi("xyz").unwrap_err());
    let answer = Answer::Illegal {
        text: "xyz".into(),
        why,
    };
    let o = r.answer(&answer, MoveInfo::default()).unwrap();
    assert!(
        o.to_string().ends_with(
            "xyz: bad USI move at byte 3: too short (expected like 7g7f, 8h2b+ or P*5e)"
        ),
        "{o}"
    );
}

#[test]
fn moves_from_elsewhere_are_checked_and_an_illegal_one_refused() {
    let info = MoveInfo::default;
    let mut r = referee("startpos", Rules::default());
    assert_eq!(r.play(usi("7g7e"), info()), Err(PlayError::CannotMoveThere));
    // Refused, not lost: the game goes on unchanged.
    assert!(r.outcome().is_none());
    assert_eq!(r.play(usi("7g7f"), info()), Ok(None));
    assert_eq!(r.played().len(), 1);
    // Nifu: sente has a pawn on every file but 5; P*7e is a second pawn on file 7.
    let mut r = referee("4k4/9/9/9/9/9/PPPP1PPPP/9/4K4 b P 1", Rules::default());
    assert_eq!(r.play(usi("P*7e"), info()), Err(PlayError::Nifu));
    // Pawn-drop mate: gote's king on 1a boxed by its own pieces, sente's gold guards 1b.
    let mut r = referee("7nk/7s1/8G/9/9/9/9/9/4K4 b P 1", Rules::default());
    assert_eq!(r.play(usi("P*1b"), info()), Err(PlayError::PawnDropMate));
    // Leaving the king in check: the pinned silver may not move off the file.
    let mut r = referee("k3r4/9/9/9/9/9/9/4S4/4K4 b - 1", Rules::default());
    let o = r.play(usi("5h4g"), info());
    assert_eq!(o, Err(PlayError::LeavesKingInCheck));
    // After the end, nothing more is played.
    r.answer(&Answer::Resign, info());
    assert_eq!(r.play(usi("5i4h"), info()), Err(PlayError::GameOver));
}

#[test]
fn checkmate_ends_and_mate_on_the_last_allowed_ply_counts() {
    // Sente mates with G*5b on its first move; with a limit of 1 ply the mate still wins.
    let rules = Rules {
        max_plies: 1,
        ..Rules::default()
    };
    let mut r = referee("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", rules);
    let o = mv(&mut r, "G*5b").unwrap();
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(o.termination, Termination::Checkmate);
    // Without a mate the limit draws after exactly max_plies moves.
    let rules = Rules {
        max_plies: 3,
        ..Rules::default()
    };
    let mut r = referee("startpos", rules);
    assert_eq!(mv(&mut r, "7g7f"), None);
    assert_eq!(mv(&mut r, "3c3d"), None);
    let o = mv(&mut r, "2g2f").unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(o.termination, Termination::MaxPlies { limit: 3 });
}

#[test]
fn repetition_draws_and_perpetual_check_loses() {
    let mut r = referee("startpos", Rules::default());
    let cycle = ["5i5h", "5a5b", "5h5i", "5b5a"];
    let mut end = None;
    for i in 0..12 {
        end = mv(&mut r, cycle[i % 4]);
        if i < 11 {
            assert_eq!(end, None, "ply {i}");
        }
    }
    let o = end.unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(o.termination, Termination::Repetition);
    // Sente's rook checks along rank a, then rank b, as gote's king shuttles 5a/5b.
    let mut r = referee("4k4/9/9/9/9/9/9/9/R3K4 b - 1", Rules::default());
    assert_eq!(mv(&mut r, "9i9a"), None);
    let cycle = ["5a5b", "9a9b", "5b5a", "9b9a"];
    let mut end = None;
    for i in 0..16 {
        end = mv(&mut r, cycle[i % 4]);
        if end.is_some() {
            break;
        }
    }
    let o = end.unwrap();
    assert_eq!(
        o.termination,
        Termination::PerpetualCheck {
            checker: ColorName(Color::Black)
        }
    );
    assert_eq!(o.winner, Some(Color::White));
}

/// The declaration of the side to move, as the engine layer judges it (shogi-core's
/// judgement under the match's rule).
fn declare(r: &mut Referee) -> Outcome {
    let d = r.position().declaration(r.rules().declaration);
    r.answer(&Answer::Win(d), MoveInfo::default())
        .unwrap()
        .clone()
}

#[test]
fn declarations_end_with_the_verdict_they_carry() {
    // NY28: sente may declare (28 points); S27: 27 points, a false declaration.
    let ny28 = "4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 10P2g2s4n4l4p 1";
    let o = declare(&mut referee(ny28, Rules::default()));
    assert_eq!(o.winner, Some(Color::Black), "{o}");
    let s27 = "4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 9P2g2s4n4l5p 1";
    let o = declare(&mut referee(s27, Rules::default()));
    assert_eq!(o.winner, Some(Color::White), "{o}");
    assert!(o.to_string().contains("false declaration"), "{o}");
    // 24-point rule: 27 points is in the draw band.
    let rules = Rules {
        declaration: ImpasseRule::Points24,
        ..Rules::default()
    };
    let o = declare(&mut referee(s27, rules));
    assert_eq!(o.winner, None, "{o}");
    assert!(o.to_string().contains("24-point rule"), "{o}");
    // From the start: a false declaration.
    let o = declare(&mut referee("startpos", Rules::default()));
    assert_eq!(o.winner, Some(Color::White));
    // The verdict is the one the answer carries, not judged again: a winning declaration
    // handed over at the start stands (the engine layer is the one judge).
    let mut r = referee("startpos", Rules::default());
    let judged = Declaration {
        king_in_zone: true,
        pieces_in_zone: 10,
        in_check: false,
        points: 28,
        result: DeclarationResult::Win,
    };
    let o = r.answer(&Answer::Win(judged), MoveInfo::default()).unwrap();
    assert_eq!(o.winner, Some(Color::Black), "{o}");
    assert!(o.to_string().contains(": 28 points, 10 pieces"), "{o}");
}

#[test]
fn failures_lose_for_the_side_to_move() {
    let mut r = referee("startpos", Rules::default());
    mv(&mut r, "7g7f");
    let o = r.fail(Termination::TimeUp {
        elapsed_ms: 1200,
        allowed_ms: 1000,
        no_answer: false,
        last_info: None,
    });
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(
        o.to_string(),
        "white lost on time: 1200 ms used, 1000 ms allowed"
    );
}

#[test]
fn adjudication_by_score() {
    let resign = Rules {
        resign: Some(Adjudication {
            score: 500,
            moves: 2,
        }),
        ..Rules::default()
    };
    let mut r = referee("startpos", resign);
    // Sente thinks it wins, gote agrees: after two moves of each, gote (to move) loses.
    assert_eq!(scored(&mut r, "7g7f", 600), None);
    assert_eq!(scored(&mut r, "3c3d", -600), None);
    assert_eq!(scored(&mut r, "2g2f", 700), None);
    let o = scored(&mut r, "4c4d", -700);
    // Now sente is to move and it is gote who is lost: not adjudicated yet.
    assert_eq!(o, None);
    let o = scored(&mut r, "2f2e", 800).unwrap();
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(
        o.termination,
        Termination::AdjudicatedLoss {
            score: 500,
            moves: 2
        }
    );
    // A disagreement (gote thinks it is fine) never adjudicates.
    let mut r = referee("startpos", resign);
    for (m, cp) in [
        ("7g7f", 600),
        ("3c3d", 0),
        ("2g2f", 700),
        ("4c4d", 0),
        ("2f2e", 800),
    ] {
        assert_eq!(scored(&mut r, m, cp), None);
    }
    let draw = Rules {
        draw: Some(Adjudication {
            score: 10,
            moves: 2,
        }),
        ..Rules::default()
    };
    let mut r = referee("startpos", draw);
    assert_eq!(scored(&mut r, "7g7f", 50), None);
    assert_eq!(scored(&mut r, "3c3d", -5), None);
    assert_eq!(scored(&mut r, "2g2f", 5), None);
    assert_eq!(scored(&mut r, "4c4d", 0), None);
    let o = scored(&mut r, "2f2e", 0).unwrap();
    assert_eq!(o.winner, None);
    assert!(matches!(o.termination, Termination::AdjudicatedDraw { .. }));
}

#[test]
fn kinds_are_the_json_kinds() {
    let adj = (1, 1);
    let all = [
        Termination::Resign,
        Termination::Checkmate,
        Termination::NoLegalMoves,
        Termination::IllegalMove {
            text: "x".into(),
            reason: "y".into(),
        },
        Termination::Repetition,
        Termination::PerpetualCheck {
            checker: ColorName(Color::Black),
        },
        Termination::Declaration {
            points: 28,
            pieces_in_zone: 10,
            king_in_zone: true,
            in_check: false,
            rule: 27,
            verdict: "v".into(),
        },
        Termination::MaxPlies { limit: 1 },
        Termination::TimeUp {
            elapsed_ms: 1,
            allowed_ms: 0,
            no_answer: false,
            last_info: None,
        },
        Termination::EngineFailure { detail: "d".into() },
        Termination::AdjudicatedLoss {
            score: adj.0,
            moves: adj.1,
        },
        Termination::AdjudicatedDraw {
            score: adj.0,
            moves: adj.1,
        },
    ];
    for t in all {
        let json = serde_json::to_value(&t).unwrap();
        assert_eq!(json["kind"], t.kind(), "{t:?}");
    }
}

#[test]
fn openings_are_checked() {
    let start = Position::startpos(Variant::Standard);
    let bad = [Move::from_usi("7g7e").unwrap()];
    assert!(matches!(
        Referee::new(start.clone(), &bad, Rules::default()),
        Err(OpeningProblem::Illegal(1, _))
    ));
    let ok = [Move::from_usi("7g7f").unwrap()];
    let r = Referee::new(start, &ok, Rules::default()).unwrap();
    assert_eq!(r.side_to_move(), Color::White);
    assert_eq!(r.opening_plies(), 1);
}

//! Matches between scripted fake engines (shogi-usi's `fake-usi`): each way a game can end
//! gives the right result and record, and the match goes on after it.

use shogi_core::{Color, ImpasseRule, Position, Variant};
use shogi_kif::{ReadOptions, read_str};
use shogi_match::clock::TimeControl;
use shogi_match::openings::Opening;
use shogi_match::output::{Output, Target};
use shogi_match::record::{self, OutFormat};
use shogi_match::referee::{Rules, Termination};
use shogi_match::runner::{self, Finished};
use shogi_match::settings::{EngineSpec, Pairing, Settings};
use shogi_match::stats::Sprt;
use shogi_train::GameResult;
use shogi_train::game_result;
use shogi_usi::testing::fake_engine_path;
use std::path::PathBuf;

fn fake(name: &str, args: &[&str]) -> EngineSpec {
    EngineSpec {
        name: name.into(),
        path: fake_engine_path(),
        args: args.iter().map(|s| s.to_string()).collect(),
        options: Vec::new(),
    }
}

fn settings(a: EngineSpec, b: EngineSpec, games: u32, byoyomi: u64) -> Settings {
    Settings {
        engines: vec![a, b],
        pairing: Pairing::HeadToHead,
        games,
        jobs: 1,
        time_control: TimeControl::Byoyomi {
            main_ms: 0,
            byoyomi_ms: byoyomi,
        },
        time_margin_ms: 100,
        move_timeout_ms: 5000,
        batch: true,
        rules: Rules {
            max_plies: 24,
            ..Rules::default()
        },
        variant: Variant::Standard,
        openings: vec![Opening::startpos(Variant::Standard)],
        order: vec![0],
        sprt: None,
        event: "test".into(),
    }
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shogi-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Plays the match and checks every record: it reads back valid in each format, with the
/// moves played and the result the referee gave.
fn play(s: &Settings) -> Vec<Finished> {
    runner::check(s).expect("engines start");
    let mut games = Vec::new();
    let (tally, _) = runner::run(s, &[], |f, _| {
        games.push(f.clone());
        Ok(())
    })
    .unwrap();
    assert_eq!(tally.games as usize, games.len());
    for f in &games {
        for fmt in [OutFormat::Csa3, OutFormat::Csa22, OutFormat::Kif] {
            let text = record::write(&f.record, &f.notes, fmt);
            let back = read_str(&text, ReadOptions::default())
                .unwrap_or_else(|e| panic!("{fmt:?}: {e}\n{text}"));
            assert_eq!(back.usi_moves(), f.record.usi_moves(), "{text}");
            assert_eq!(
                game_result(&back),
                Some(GameResult::from_winner(f.outcome.winner)),
                "{fmt:?} {}\n{text}",
                f.outcome
            );
        }
    }
    games.sort_by_key(|f| f.spec.index);
    games
}

fn csa(f: &Finished) -> String {
    record::write(&f.record, &f.notes, OutFormat::Csa3)
}

#[test]
fn a_fixed_sequence_is_played_as_given() {
    let line = "7g7f,3c3d,2g2f,8c8d,2f2e,8d8e,6i7h,4a3b";
    let a = fake("a", &["--moves", line]);
    let b = fake("b", &["--moves", line]);
    let mut s = settings(a, b, 2, 1000);
    s.rules.max_plies = 8;
    let games = play(&s);
    assert_eq!(games.len(), 2);
    for f in &games {
        assert_eq!(f.record.usi_moves().join(","), line);
        assert_eq!(f.outcome.termination, Termination::MaxPlies { limit: 8 });
        assert_eq!(f.outcome.winner, None);
        let text = csa(f);
        assert!(text.contains("$MAX_MOVES:8\n"), "{text}");
        assert!(
            text.ends_with("%MAX_MOVES\n'*the move limit of 8 plies was reached: draw\n"),
            "{text}"
        );
    }
    // Colours alternate: game 1 a is sente, game 2 b is.
    assert!(csa(&games[0]).contains("N+a\nN-b\n"));
    assert!(csa(&games[1]).contains("N+b\nN-a\n"));
}

#[test]
fn an_illegal_move_loses_and_the_match_goes_on() {
    let a = fake("a", &["--bestmove", "7g7e"]);
    let b = fake("b", &[]);
    let games = play(&settings(a, b, 2, 1000));
    // Game 1: a is sente and plays 7g7e at once.
    let g1 = &games[0];
    assert_eq!(g1.outcome.winner, Some(Color::White));
    assert!(
        matches!(&g1.outcome.termination, Termination::IllegalMove { text, .. } if text == "7g7e")
    );
    assert!(
        csa(g1).contains(
            "%ILLEGAL_MOVE\n'*black played an illegal move 7g7e: the piece does not move that way\n"
        ),
        "{}",
        csa(g1)
    );
    // Game 2: b is sente and moves; a (gote) then answers 7g7e, not a gote move.
    let g2 = &games[1];
    assert_eq!(g2.outcome.winner, Some(Color::Black));
    assert_eq!(g2.record.usi_moves().len(), 1);
}

#[test]
fn a_false_declaration_loses() {
    let a = fake("a", &["--bestmove", "win"]);
    let b = fake("b", &[]);
    let games = play(&settings(a, b, 2, 1000));
    let g1 = &games[0];
    assert_eq!(g1.outcome.winner, Some(Color::White));
    assert!(matches!(
        &g1.outcome.termination,
        Termination::Declaration { verdict, .. } if verdict.contains("false")
    ));
    assert!(csa(g1).contains("%KACHI\n"), "{}", csa(g1));
    assert_eq!(games[1].outcome.winner, Some(Color::Black));
}

#[test]
fn a_true_declaration_wins() {
    // gote's king in sente's camp with enough material: sente to move declares (NY28).
    let ny28 = "4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 10P2g2s4n4l4p 1";
    let a = fake("a", &["--bestmove", "win"]);
    let b = fake("b", &["--bestmove", "win"]);
    let mut s = settings(a, b, 1, 1000);
    s.openings = vec![Opening {
        start: Position::from_sfen(ny28).unwrap(),
        moves: Vec::new(),
        source: "test".into(),
    }];
    let games = play(&s);
    assert_eq!(
        games[0].outcome.winner,
        Some(Color::Black),
        "{}",
        games[0].outcome
    );
}

#[test]
fn a_crash_loses_the_engine_is_restarted_and_the_match_goes_on() {
    let dir = temp("crash");
    let counter = dir.join("count");
    let a = fake(
        "a",
        &["--crash-at-go", "2", "--counter", counter.to_str().unwrap()],
    );
    let b = fake("b", &[]);
    let games = play(&settings(a, b, 2, 1000));
    let g1 = &games[0];
    assert_eq!(g1.outcome.winner, Some(Color::White), "{}", g1.outcome);
    assert!(matches!(
        g1.outcome.termination,
        Termination::EngineFailure { .. }
    ));
    assert_eq!(
        g1.record.usi_moves().len(),
        2,
        "a moved once, b once, then a crashed"
    );
    assert!(
        csa(g1).contains("%TORYO\n'*black's engine failed: engine exited"),
        "{}",
        csa(g1)
    );
    // The restarted engine plays the whole second game.
    assert_eq!(
        games[1].outcome.termination,
        Termination::MaxPlies { limit: 24 }
    );
}

#[test]
fn a_hang_past_its_time_loses_on_time_and_the_match_goes_on() {
    let dir = temp("hang");
    let counter = dir.join("count");
    let a = fake(
        "a",
        &["--hang-at-go", "2", "--counter", counter.to_str().unwrap()],
    );
    let b = fake("b", &[]);
    let games = play(&settings(a, b, 2, 200));
    let g1 = &games[0];
    assert_eq!(g1.outcome.winner, Some(Color::White));
    let Termination::TimeUp {
        no_answer,
        allowed_ms,
        elapsed_ms,
        ref last_info,
    } = g1.outcome.termination
    else {
        panic!("{}", g1.outcome)
    };
    assert!(no_answer);
    // The hung engine sent no info for that go: the last one is the previous move's.
    assert!(
        last_info.as_deref().is_some_and(|l| l.starts_with("info")),
        "{last_info:?}"
    );
    assert_eq!(allowed_ms, 200);
    assert!(elapsed_ms >= 300, "{elapsed_ms}");
    assert!(csa(g1).contains("%TIME_UP"), "{}", csa(g1));
    assert_eq!(
        games[1].outcome.termination,
        Termination::MaxPlies { limit: 24 }
    );
}

#[test]
fn a_late_answer_loses_on_time() {
    // Thinks 400 ms with 100 ms byoyomi and 100 ms margin: an answer, but too late.
    let a = fake("a", &["--think", "400"]);
    let b = fake("b", &[]);
    let mut s = settings(a, b, 1, 100);
    s.time_margin_ms = 100;
    let games = play(&s);
    let Termination::TimeUp { no_answer, .. } = games[0].outcome.termination else {
        panic!("{}", games[0].outcome)
    };
    // The engine layer's wait ends at the same deadline: either way sente lost on time.
    let _ = no_answer;
    assert_eq!(games[0].outcome.winner, Some(Color::White));
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let mut line = vec!["9i9a"];
    line.extend(["5a5b", "9a9b", "5b5a", "9b9a"].repeat(4));
    let line = line.join(",");
    let a = fake("a", &["--moves", &line]);
    let b = fake("b", &["--moves", &line]);
    let mut s = settings(a, b, 1, 1000);
    s.openings = vec![Opening {
        start: Position::from_sfen("4k4/9/9/9/9/9/9/9/R3K4 b - 1").unwrap(),
        moves: Vec::new(),
        source: "test".into(),
    }];
    s.rules.max_plies = 100;
    let games = play(&s);
    let g = &games[0];
    assert!(
        matches!(g.outcome.termination, Termination::PerpetualCheck { .. }),
        "{}",
        g.outcome
    );
    assert_eq!(g.outcome.winner, Some(Color::White));
    assert!(csa(g).contains("%SENNICHITE\n"), "{}", csa(g));
}

#[test]
fn sprt_stops_at_a_decision() {
    let a = fake("a", &[]);
    let b = fake("b", &["--bestmove", "resign"]);
    let mut s = settings(a, b, 400, 1000);
    s.jobs = 2;
    s.sprt = Sprt::new(0.0, 5.0, 0.05, 0.05);
    runner::check(&s).unwrap();
    let (tally, stopped) = runner::run(&s, &[], |_, _| Ok(())).unwrap();
    assert!(stopped);
    assert!(tally.games < 400, "{}", tally.games);
    let (llr, decision) = tally.sprt(s.sprt.as_ref().unwrap());
    assert!(llr >= 2.944, "{llr}");
    assert_eq!(decision, shogi_match::stats::Decision::H1);
    assert_eq!(tally.engines[0].total().losses, 0);
}

#[test]
fn resume_continues_from_the_games_written() {
    let dir = temp("resume");
    let file = dir.join("m.csa");
    let a = fake("a", &[]);
    let b = fake("b", &[]);
    let mut s = settings(a, b, 2, 1000);
    s.rules.max_plies = 6;
    let out = Output::new(Target::File(file.clone()), vec![OutFormat::Csa3]).unwrap();
    assert!(out.prepare(&s, false).unwrap().is_empty());
    runner::run(&s, &[], |f, _| out.write(f)).unwrap();
    // Again without --resume: refused, nothing touched.
    let before = std::fs::read(&file).unwrap();
    let e = out.prepare(&s, false).unwrap_err().to_string();
    assert!(e.contains("exists"), "{e}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // A longer match resumed: the two games are counted, two more played.
    s.games = 4;
    let done = out.prepare(&s, true).unwrap();
    assert_eq!(done.len(), 2);
    let mut played = Vec::new();
    let (tally, _) = runner::run(&s, &done, |f, _| {
        played.push(f.spec.index);
        out.write(f)
    })
    .unwrap();
    played.sort();
    assert_eq!(played, [2, 3]);
    assert_eq!(tally.games, 4);
    let text = std::fs::read_to_string(&file).unwrap();
    let games: Vec<_> = shogi_kif::Reader::new(text.as_bytes(), ReadOptions::default())
        .unwrap()
        .collect();
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|g| g.is_valid()));
    // Other engines (other arguments) do not resume this file.
    let mut other = s.clone();
    other.engines[1].name = "c".into();
    assert!(
        out.prepare(&other, true)
            .unwrap_err()
            .to_string()
            .contains("not a game of this match")
    );
}

/// An engine named like gpsusi is restarted before a `position … moves …` that does not
/// continue its last one (gpsusi answers no such search once it has searched): here the first
/// search of game 3, where it is gote again after playing games 1 and 2. The record says so,
/// the restart's time is not on its clock, and the game is played to its end.
#[test]
fn a_gpsusi_is_restarted_before_a_new_line_and_the_record_says_so() {
    let line = "7g7f,3c3d,2g2f,8c8d";
    let a = fake("a", &["--moves", line]);
    let g = fake("g", &["--name", "gpsshogi (fake) r3033", "--moves", line]);
    let mut s = settings(a, g, 3, 1000);
    s.rules.max_plies = 4;
    let games = play(&s);
    assert_eq!(games.len(), 3);
    let restarted = |f: &Finished| csa(f).contains("g was restarted before this move");
    // Game 1: a fresh process. Game 2: g is sente, its first position has no moves.
    assert!(!restarted(&games[0]), "{}", csa(&games[0]));
    assert!(!restarted(&games[1]), "{}", csa(&games[1]));
    // Game 3: g is gote again; `position startpos moves 7g7f` does not continue game 2.
    let text = csa(&games[2]);
    assert!(restarted(&games[2]), "{text}");
    assert_eq!(games[2].record.usi_moves().join(","), line);
    // The note sits on g's first move (ply 2) and nowhere else.
    assert_eq!(text.matches("was restarted").count(), 1, "{text}");
    let after_first = text.split("+7776FU").nth(1).unwrap_or("");
    assert!(
        after_first
            .split("+2726FU")
            .next()
            .unwrap_or("")
            .contains("was restarted"),
        "{text}"
    );
}

/// One game from `sfen` (sente to move) in which both engines answer `bestmove <answer>`
/// at once, under the declaration rule `rule`: sente's answer ends it.
fn first_answer(sfen: &str, answer: &str, rule: ImpasseRule) -> Finished {
    let a = fake("a", &["--bestmove", answer]);
    let b = fake("b", &["--bestmove", answer]);
    let mut s = settings(a, b, 1, 1000);
    s.rules.declaration = rule;
    s.openings = vec![Opening {
        start: Position::from_sfen(sfen).unwrap(),
        moves: Vec::new(),
        source: "test".into(),
    }];
    play(&s).remove(0)
}

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Each kind of illegal answer ends the game at once against the side that sent it, with the
/// move as sent and the rule it breaks (as shogi-core words it) in the termination and in
/// the record, the same for every kind.
#[test]
fn each_kind_of_illegal_answer_loses_with_its_reason() {
    // Sente has a pawn on every file but 5: a pawn dropped on file 7 is nifu.
    let nifu = "4k4/9/9/9/9/9/PPPP1PPPP/9/4K4 b P 1";
    for (sfen, text, reason) in [
        (
            START,
            "xyz",
            "bad USI move at byte 3: too short (expected like 7g7f, 8h2b+ or P*5e)",
        ),
        (
            START,
            "7g7g",
            "bad USI move at byte 2: source and destination are the same square",
        ),
        (START, "7g7e", "the piece does not move that way"),
        (START, "5a5b", "the piece belongs to the opponent"),
        (START, "P*5e", "the piece is not in hand"),
        (START, "2h2b", "the path is blocked"),
        (nifu, "P*7e", "two unpromoted pawns on one file (nifu)"),
    ] {
        let g = first_answer(sfen, text, ImpasseRule::Points27);
        assert_eq!(g.outcome.winner, Some(Color::White), "{text}");
        assert_eq!(
            g.outcome.termination,
            Termination::IllegalMove {
                text: text.into(),
                reason: reason.into()
            }
        );
        assert!(g.record.usi_moves().is_empty(), "{text}");
        let end = format!("%ILLEGAL_MOVE\n'*black played an illegal move {text}: {reason}\n");
        assert!(csa(&g).ends_with(&end), "{}", csa(&g));
        let kif = record::write(&g.record, &g.notes, OutFormat::Kif);
        assert!(
            kif.contains(&format!("*反則手 {text} ({reason})\n")),
            "{kif}"
        );
    }
}

/// A declaration is judged by the match's rule, 27 or 24 points: the verdict, the points and
/// the conditions in the termination and the record.
#[test]
fn declarations_are_judged_by_the_match_rule() {
    // Sente's king in the camp with ten pieces there: 28, 27 and 31 points.
    let p28 = "4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 10P2g2s4n4l4p 1";
    let p27 = "4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 9P2g2s4n4l5p 1";
    let p31 = "4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 13P2g2s4n4l1p 1";
    let wins = "the declarer wins";
    let draw = "draw (持将棋)";
    let loses = "false declaration: the declarer loses";
    for (sfen, rule, points, verdict, winner) in [
        (p28, ImpasseRule::Points27, 28, wins, Some(Color::Black)),
        (p27, ImpasseRule::Points27, 27, loses, Some(Color::White)),
        (p31, ImpasseRule::Points27, 31, wins, Some(Color::Black)),
        (p28, ImpasseRule::Points24, 28, draw, None),
        (p27, ImpasseRule::Points24, 27, draw, None),
        (p31, ImpasseRule::Points24, 31, wins, Some(Color::Black)),
    ] {
        let n = if rule == ImpasseRule::Points27 {
            27
        } else {
            24
        };
        let g = first_answer(sfen, "win", rule);
        assert_eq!(g.outcome.winner, winner, "{}", g.outcome);
        assert_eq!(
            g.outcome.termination,
            Termination::Declaration {
                points,
                pieces_in_zone: 10,
                king_in_zone: true,
                in_check: false,
                rule: n,
                verdict: verdict.into(),
            }
        );
        let end = format!(
            "%KACHI\n'*black declared (entering king, {n}-point rule): {points} points, \
             10 pieces in the camp, king in the camp true, in check false: {verdict}\n"
        );
        assert!(csa(&g).ends_with(&end), "{}", csa(&g));
        assert!(csa(&g).contains(&format!("$JISHOGI:{n}\n")), "{}", csa(&g));
    }
    // From the start, under either rule: nothing in the camp, a false declaration.
    for (rule, n) in [(ImpasseRule::Points27, 27), (ImpasseRule::Points24, 24)] {
        let g = first_answer(START, "win", rule);
        assert_eq!(g.outcome.winner, Some(Color::White), "{}", g.outcome);
        let end = format!(
            "%KACHI\n'*black declared (entering king, {n}-point rule): 0 points, \
             0 pieces in the camp, king in the camp false, in check false: {loses}\n"
        );
        assert!(csa(&g).ends_with(&end), "{}", csa(&g));
    }
}

#[test]
fn a_resignation_ends_the_game() {
    let g = first_answer(START, "resign", ImpasseRule::Points27);
    assert_eq!(g.outcome.winner, Some(Color::White));
    assert_eq!(g.outcome.termination, Termination::Resign);
    assert!(
        csa(&g).ends_with("%TORYO\n'*black resigned\n"),
        "{}",
        csa(&g)
    );
}

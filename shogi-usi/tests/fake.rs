//! The engine layer against the scripted fake engine: every fault gives its documented error,
//! restart and retry work, the pool keeps input order, and nothing waits without a bound.

use shogi_core::{
    Color, DeclarationResult, ImpasseRule, Move, PlayError, Position, UsiMoveErrorKind, Variant,
};
use shogi_usi::{
    BestMove, Engine, EngineErrorKind, Illegality, Limit, MateAnswer, Pool, Score, StartOptions,
    Stream, Timeouts, testing::fake_engine_path,
};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

fn quick() -> StartOptions {
    StartOptions {
        timeouts: Timeouts {
            usiok: Duration::from_secs(3),
            readyok: Duration::from_secs(3),
            search_margin: Duration::from_millis(800),
            search_unbounded: Duration::from_secs(2),
            stop: Duration::from_secs(2),
            quit_grace: Duration::from_millis(300),
        },
        ..StartOptions::default()
    }
}

fn fake(args: &[&str]) -> Engine {
    match Engine::start(fake_engine_path(), args, quick()) {
        Ok(e) => e,
        Err(e) => panic!("fake engine did not start: {e}"),
    }
}

fn start() -> Position {
    Position::startpos(Variant::Standard)
}

fn mv(s: &str) -> Move {
    Move::from_usi(s).unwrap()
}

#[test]
fn plays_the_first_legal_move_with_the_given_score() {
    let mut e = fake(&["--score", "cp 42"]);
    assert_eq!(e.name(), "fake-usi");
    assert_eq!(e.author(), Some("the shogi toolkit tests"));
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    // USI text order: 1g1f is the smallest legal move at the start.
    assert_eq!(s.bestmove, BestMove::Move(mv("1g1f")));
    let line = s.best_line().unwrap();
    assert_eq!(line.pv, [mv("1g1f")]);
    assert_eq!(line.pv_cut, None);
    assert_eq!(line.depth, Some(1));
    assert_eq!(s.score().unwrap().relative(), Score::Cp(42));
    assert_eq!(s.score().unwrap().sente(), Score::Cp(42));
    // After one move gote is to move: sente's view is the negation.
    let s = e.search(&start(), &[mv("7g7f")], &Limit::nodes(1)).unwrap();
    assert_eq!(s.position.side_to_move(), Color::White);
    assert_eq!(s.score().unwrap().sente(), Score::Cp(-42));
    assert_eq!(s.score().unwrap().gote(), Score::Cp(42));
}

fn kind(
    r: Result<impl std::fmt::Debug, shogi_usi::EngineError>,
) -> (EngineErrorKind, shogi_usi::EngineError) {
    match r {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => (e.kind.clone(), e),
    }
}

fn temp_file(tag: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!(
        "shogi-usi-{tag}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn crash_is_a_typed_error_with_status_and_last_lines() {
    let mut e = fake(&["--crash-at-go", "1", "--stderr", "fake is about to crash"]);
    let (k, err) = kind(e.search(&start(), &[], &Limit::nodes(1)));
    match k {
        EngineErrorKind::Crashed {
            waiting_for,
            status,
        } => {
            assert_eq!(waiting_for, "bestmove");
            assert_eq!(status.as_deref(), Some("exit status: 3"));
        }
        other => panic!("{other:?}"),
    }
    assert!(err.needs_restart());
    assert_eq!(err.last_command(), Some("go nodes 1"));
    assert!(
        err.last_lines()
            .iter()
            .any(|l| l.stream == Stream::Stderr && l.text == "fake is about to crash"),
        "{err}"
    );
    assert!(
        err.last_lines()
            .iter()
            .any(|l| l.stream == Stream::Stdout && l.text == "usiok")
    );
    // The engine is dead now: further calls say so instead of hanging.
    assert!(e.is_dead());
    let (k, _) = kind(e.search(&start(), &[], &Limit::nodes(1)));
    assert!(matches!(k, EngineErrorKind::Dead(_)), "{k:?}");
    // A restart brings it back (the crash is at every process's first go, so it crashes again).
    e.restart().unwrap();
    assert!(!e.is_dead());
}

#[test]
fn retry_after_a_crash_or_a_hang_succeeds_once() {
    for fault in ["--crash-at-go", "--hang-at-go"] {
        let counter = temp_file(&fault[2..]);
        let counter_s = counter.to_str().unwrap();
        let mut e = fake(&[fault, "2", "--counter", counter_s]);
        e.search(&start(), &[], &Limit::nodes(1)).unwrap();
        let t = Instant::now();
        let s = e
            .search_with_retry(&start(), &[mv("7g7f")], &Limit::nodes(1))
            .unwrap();
        let first = s.retried.as_ref().expect("the first try failed");
        match fault {
            "--crash-at-go" => assert!(
                matches!(first.kind, EngineErrorKind::Crashed { .. }),
                "{first}"
            ),
            _ => assert!(
                matches!(
                    first.kind,
                    EngineErrorKind::Timeout {
                        waiting_for: "bestmove",
                        ..
                    }
                ),
                "{first}"
            ),
        }
        assert_eq!(s.position.side_to_move(), Color::White);
        assert!(matches!(s.bestmove, BestMove::Move(_)));
        // Bounded: the unbounded-limit timeout (2 s) plus a restart.
        assert!(t.elapsed() < Duration::from_secs(6), "{:?}", t.elapsed());
        // The next search runs on the restarted process without a retry.
        let s = e
            .search_with_retry(&start(), &[], &Limit::nodes(1))
            .unwrap();
        assert!(s.retried.is_none());
        let _ = std::fs::remove_file(counter);
    }
}

#[test]
fn hang_on_go_times_out_by_the_limit() {
    let mut e = fake(&["--hang-at-go", "1"]);
    let t = Instant::now();
    let (k, _) = kind(e.search(&start(), &[], &Limit::movetime(200)));
    let waited = t.elapsed();
    match k {
        EngineErrorKind::Timeout { waiting_for, after } => {
            assert_eq!(waiting_for, "bestmove");
            // movetime 200 ms + margin 800 ms.
            assert!(
                after >= Duration::from_millis(990) && after < Duration::from_millis(1100),
                "{after:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(waited < Duration::from_secs(2), "{waited:?}");
}

#[test]
fn hangs_during_start_time_out() {
    for args in [
        &["--hang-on", "usi"][..],
        &["--hang-after-lines", "3"],
        &["--slow-start", "5000"],
    ] {
        let t = Instant::now();
        let mut opts = quick();
        opts.timeouts.usiok = Duration::from_millis(700);
        let (k, err) = kind(Engine::start(fake_engine_path(), args, opts));
        assert!(
            matches!(
                k,
                EngineErrorKind::Timeout {
                    waiting_for: "usiok",
                    ..
                }
            ),
            "{args:?}: {err}"
        );
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{args:?} {:?}",
            t.elapsed()
        );
    }
    let mut opts = quick();
    opts.timeouts.readyok = Duration::from_millis(700);
    let (k, _) = kind(Engine::start(
        fake_engine_path(),
        &["--hang-on", "isready"],
        opts,
    ));
    assert!(
        matches!(
            k,
            EngineErrorKind::Timeout {
                waiting_for: "readyok",
                ..
            }
        ),
        "{k:?}"
    );
    // A slow start within the timeout is fine.
    let e = Engine::start(fake_engine_path(), &["--slow-start", "300"], quick());
    assert!(e.is_ok());
}

#[test]
fn missing_program_is_a_spawn_error() {
    let (k, err) = kind(Engine::start(
        "/nonexistent/engine",
        &[] as &[&str],
        quick(),
    ));
    assert!(matches!(k, EngineErrorKind::Spawn(_)), "{k:?}");
    assert!(err.to_string().contains("/nonexistent/engine"), "{err}");
}

#[test]
fn garbage_is_kept_not_fatal() {
    let mut e = fake(&["--garbage"]);
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    assert_eq!(s.bestmove, BestMove::Move(mv("1g1f")));
    let lines = e.last_lines();
    assert!(
        lines.iter().any(|l| l.text.contains("garbage")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.text == "bestmovex 7g7f"));
    // The 100 kB line is truncated to the 64 KiB bound.
    assert!(lines.iter().all(|l| l.text.len() <= 64 * 1024));
    assert!(lines.iter().any(|l| l.text.len() == 64 * 1024));
}

#[test]
fn illegal_or_malformed_bestmove_is_an_error_and_the_engine_stays_usable() {
    let rule = |e| Some(Illegality::Rule(e));
    for (text, needle, typed) in [
        ("9a9b", "9a9b", rule(PlayError::NotYourPiece)),
        ("xyz", "not a USI move", None),
        ("5i5g", "5i5g", rule(PlayError::OwnPieceOnTarget)),
    ] {
        let mut e = fake(&["--bestmove", text]);
        let (k, err) = kind(e.search(&start(), &[], &Limit::nodes(1)));
        match &k {
            EngineErrorKind::IllegalMove {
                text: t,
                reason,
                why,
            } => {
                assert_eq!(t, text);
                assert!(reason.contains("lnsgkgsnl/1r5b1"), "{reason}");
                // The typed reason: shogi-core's, as decided (a text that is no move: why not).
                match typed {
                    Some(want) => assert_eq!(why, &want),
                    None => assert!(
                        matches!(why, Illegality::NotUsi(u) if u.kind == UsiMoveErrorKind::TooShort),
                        "{why:?}"
                    ),
                }
            }
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().contains(needle), "{err}");
        assert!(!err.needs_restart());
        assert!(!e.is_dead());
        // Still in step with the protocol.
        e.is_ready().unwrap();
    }
    let mut e = fake(&["--bestmove", ""]);
    let (k, _) = kind(e.search(&start(), &[], &Limit::nodes(1)));
    assert!(matches!(k, EngineErrorKind::Protocol(_)), "{k:?}");
}

#[test]
fn illegal_pv_is_cut_and_reported() {
    let mut e = fake(&["--pv", "1g1f 1g1f 3c3d"]);
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    let line = s.best_line().unwrap();
    assert_eq!(line.pv, [mv("1g1f")]);
    let cut = line.pv_cut.as_ref().unwrap();
    assert_eq!((cut.index, cut.text.as_str()), (1, "1g1f"));
    assert_eq!(cut.why, Illegality::Rule(PlayError::NoPiece));
    let mut e = fake(&["--pv", "7g7f 3c3d oops"]);
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    let line = s.best_line().unwrap();
    assert_eq!(line.pv, [mv("7g7f"), mv("3c3d")]);
    let cut = line.pv_cut.as_ref().unwrap();
    assert_eq!(cut.index, 2);
    assert!(
        matches!(&cut.why, Illegality::NotUsi(u) if u.kind == UsiMoveErrorKind::Source),
        "{cut:?}"
    );
}

#[test]
fn resign_win_and_ponder() {
    let mut e = fake(&["--bestmove", "resign"]);
    assert_eq!(
        e.search(&start(), &[], &Limit::nodes(1)).unwrap().bestmove,
        BestMove::Resign
    );
    let mut e = fake(&["--bestmove", "win"]);
    let ny28 = Position::from_sfen("4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 10P2g2s4n4l4p 1").unwrap();
    let s27 = Position::from_sfen("4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 9P2g2s4n4l5p 1").unwrap();
    match e.search(&ny28, &[], &Limit::nodes(1)).unwrap().bestmove {
        BestMove::Win(d) => {
            assert_eq!(d.result, DeclarationResult::Win);
            assert_eq!(d.points, 28);
        }
        other => panic!("{other:?}"),
    }
    match e.search(&s27, &[], &Limit::nodes(1)).unwrap().bestmove {
        BestMove::Win(d) => assert_eq!((d.result, d.points), (DeclarationResult::Lose, 27)),
        other => panic!("{other:?}"),
    }
    // The 24-point rule judges 28 points a draw.
    let opts = StartOptions {
        impasse_rule: ImpasseRule::Points24,
        ..quick()
    };
    let mut e = Engine::start(fake_engine_path(), &["--bestmove", "win"], opts).unwrap();
    match e.search(&ny28, &[], &Limit::nodes(1)).unwrap().bestmove {
        BestMove::Win(d) => assert_eq!(d.result, DeclarationResult::Draw),
        other => panic!("{other:?}"),
    }
    let mut e = fake(&["--ponder", "3c3d"]);
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    assert_eq!(s.ponder, Some(mv("3c3d")));
    assert!(s.warnings.is_empty());
    let mut e = fake(&["--ponder", "7g7f"]);
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    assert_eq!(s.ponder, None);
    assert_eq!(s.warnings, ["ponder move `7g7f` is not legal after 1g1f"]);
}

#[test]
fn options_are_checked_against_what_the_engine_offers() {
    let mut e = fake(&[]);
    let names: Vec<&str> = e.options().iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Threads",
            "MultiPV",
            "USI_Hash",
            "Flag",
            "Style",
            "Clear Hash",
            "Book File"
        ]
    );
    e.set_option("USI_Hash", "64").unwrap();
    e.set_option("flag", "TRUE").unwrap();
    e.set_option("Style", "Solid").unwrap();
    e.set_option("Clear Hash", "").unwrap();
    e.set_option("Book File", "my book.db").unwrap();
    let (k, err) = kind(e.set_option("Hash", "64"));
    match k {
        EngineErrorKind::UnknownOption { name, available } => {
            assert_eq!(name, "Hash");
            assert!(
                available.contains(&"USI_Hash (spin 1..1024, default 16)".to_owned()),
                "{available:?}"
            );
            assert_eq!(available.len(), 7);
        }
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string()
            .contains("Style (combo normal|solid|wild, default normal)"),
        "{err}"
    );
    for (name, value, reason) in [
        ("USI_Hash", "0", "0 is out of range 1..1024"),
        ("USI_Hash", "lots", "`lots` is not an integer"),
        ("Flag", "1", "`1` is not true or false"),
        ("Style", "odd", "`odd` is not one of normal, solid, wild"),
        ("Clear Hash", "now", "a button takes no value (got `now`)"),
    ] {
        let (k, _) = kind(e.set_option(name, value));
        assert_eq!(
            k,
            EngineErrorKind::BadOptionValue {
                name: name.into(),
                value: value.into(),
                reason: reason.into()
            }
        );
    }
    let applied: Vec<_> = e
        .applied_options()
        .iter()
        .map(|(n, v)| format!("{n}={v:?}"))
        .collect();
    assert_eq!(
        applied,
        [
            "Threads=Some(\"1\")",
            "USI_Hash=Some(\"64\")",
            "Flag=Some(\"true\")",
            "Style=Some(\"solid\")",
            "Clear Hash=None",
            "Book File=Some(\"my book.db\")"
        ]
    );
    // A start option that the engine refuses makes the start fail with the list.
    let opts = quick().option("Hash", "16");
    let (k, _) = kind(Engine::start(fake_engine_path(), &[] as &[&str], opts));
    assert!(matches!(k, EngineErrorKind::UnknownOption { .. }), "{k:?}");
    // An engine with no options: MultiPV 1 is fine, 2 is refused.
    let mut e = fake(&["--no-options"]);
    assert!(e.options().is_empty());
    e.set_multipv(1).unwrap();
    let (k, _) = kind(e.set_multipv(2));
    assert!(matches!(k, EngineErrorKind::Unsupported(_)), "{k:?}");
}

#[test]
fn commands_sent_are_as_documented() {
    let log = temp_file("log");
    let log_s = log.to_str().unwrap();
    let opts = StartOptions {
        fresh_state: true,
        ..quick().option("Style", "wild")
    };
    let mut e = Engine::start(fake_engine_path(), &["--log", log_s], opts).unwrap();
    e.search(&start(), &[mv("7g7f"), mv("3c3d")], &Limit::nodes(5))
        .unwrap();
    let other = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
    e.search(&other, &[], &Limit::byoyomi(100)).unwrap();
    e.set_option("Style", "solid").unwrap();
    e.restart().unwrap();
    e.gameover(shogi_usi::GameResult::Lose).unwrap();
    e.quit();
    let sent = std::fs::read_to_string(&log).unwrap();
    let sent: Vec<&str> = sent.lines().collect();
    assert_eq!(
        sent,
        [
            "usi",
            "setoption name Threads value 1",
            "setoption name Style value wild",
            "isready",
            // An engine not measured gets every fresh-state command (FreshState::All).
            "setoption name Threads value 1",
            "usinewgame",
            "isready",
            "position startpos moves 7g7f 3c3d",
            "go nodes 5",
            "setoption name Threads value 1",
            "usinewgame",
            "isready",
            "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
            "go btime 0 wtime 0 byoyomi 100",
            "setoption name Style value solid",
            "quit",
            // The restarted process: the same start, then every option set so far.
            "usi",
            "setoption name Threads value 1",
            "setoption name Style value solid",
            "isready",
            "gameover lose",
            "quit"
        ]
    );
    let _ = std::fs::remove_file(log);
}

#[test]
fn fairy_11_clocks_are_swapped_for_it() {
    let log = temp_file("clock");
    let log_s = log.to_str().unwrap();
    let mut e = fake(&["--name", "Fairy-Stockfish 11.1 LB 64", "--log", log_s]);
    assert!(e.swaps_clocks());
    let clock = Limit {
        btime: Some(Duration::from_millis(300)),
        wtime: Some(Duration::from_millis(200)),
        ..Limit::default()
    };
    e.search(&start(), &[], &clock).unwrap();
    e.quit();
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(sent.contains("go btime 200 wtime 300\n"), "{sent}");
    assert!(!fake(&[]).swaps_clocks());
    let _ = std::fs::remove_file(log);
}

#[test]
fn infinite_needs_stop() {
    let mut e = fake(&[]);
    let (k, _) = kind(e.search(&start(), &[], &Limit::infinite()));
    assert!(matches!(k, EngineErrorKind::InvalidRequest(_)), "{k:?}");
    e.start_search(&start(), &[], &Limit::infinite()).unwrap();
    // While it searches, other commands are refused rather than interleaved.
    let (k, _) = kind(e.set_option("Flag", "true"));
    assert!(matches!(k, EngineErrorKind::InvalidRequest(_)), "{k:?}");
    let (k, _) = kind(e.wait());
    assert!(matches!(k, EngineErrorKind::InvalidRequest(_)), "{k:?}");
    std::thread::sleep(Duration::from_millis(50));
    let s = e.stop().unwrap();
    assert_eq!(s.bestmove, BestMove::Move(mv("1g1f")));
    assert!(s.elapsed >= Duration::from_millis(50));
    // A caller's illegal move is its own error, before anything is sent.
    let (k, _) = kind(e.search(&start(), &[mv("7g7f"), mv("7g7f")], &Limit::nodes(1)));
    assert!(
        matches!(k, EngineErrorKind::InvalidRequest(ref m) if m.contains("move 2 (7g7f)")),
        "{k:?}"
    );
}

#[test]
fn think_time_is_waited_for_and_stop_cuts_it() {
    let mut e = fake(&["--think", "150"]);
    let s = e.search(&start(), &[], &Limit::movetime(150)).unwrap();
    assert!(s.elapsed >= Duration::from_millis(140), "{:?}", s.elapsed);
    // The fake thinks 5 s unless stopped.
    let mut e = fake(&["--think", "5000"]);
    e.start_search(&start(), &[], &Limit::movetime(5_000))
        .unwrap();
    let t = Instant::now();
    e.stop().unwrap();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn go_mate_answers_checked() {
    let m1 = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
    let mut e = fake(&[]);
    assert_eq!(
        e.go_mate(&m1, &[], Some(Duration::from_millis(500)))
            .unwrap(),
        MateAnswer::Mate(vec![mv("G*5b")])
    );
    assert_eq!(e.go_mate(&start(), &[], None).unwrap(), MateAnswer::NoMate);
    let mut e = fake(&["--checkmate", "timeout"]);
    assert_eq!(e.go_mate(&m1, &[], None).unwrap(), MateAnswer::Timeout);
    let mut e = fake(&["--checkmate", "notimplemented"]);
    assert_eq!(
        e.go_mate(&m1, &[], None).unwrap(),
        MateAnswer::NotImplemented
    );
    let mut e = fake(&["--checkmate", "G*5b 5a4a"]);
    let (k, _) = kind(e.go_mate(&m1, &[], None));
    assert!(
        matches!(k, EngineErrorKind::IllegalMove { ref text, .. } if text == "5a4a"),
        "{k:?}"
    );
}

#[test]
fn mate_scores_and_mated_positions() {
    let mut e = fake(&["--score", "mate 3,mate -,cp -5"]);
    let s = e.search(&start(), &[mv("7g7f")], &Limit::nodes(1)).unwrap();
    let score = s.score().unwrap();
    assert_eq!(score.relative(), Score::Mate { plies: 3 });
    assert_eq!(score.sente(), Score::Mate { plies: -3 });
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    assert_eq!(
        s.score().unwrap().relative(),
        Score::MateUnknown { winning: false }
    );
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    assert_eq!(s.score().unwrap().relative(), Score::Cp(-5));
    let mated = Position::from_sfen("4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1").unwrap();
    let mut e = fake(&[]);
    let s = e.search(&mated, &[], &Limit::nodes(1)).unwrap();
    assert_eq!(s.bestmove, BestMove::Resign);
    let score = s.score().unwrap();
    assert_eq!(score.relative(), Score::Mate { plies: 0 });
    assert_eq!(score.sente(), Score::MateGiven);
}

#[test]
fn multipv_lines() {
    let mut e = fake(&["--score", "cp 30"]);
    e.set_multipv(3).unwrap();
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    assert_eq!(s.lines.len(), 3);
    let got: Vec<(u32, String, Option<Score>)> = s
        .lines
        .iter()
        .map(|l| (l.multipv, l.pv[0].to_usi(), l.score.map(|p| p.relative())))
        .collect();
    assert_eq!(
        got,
        [
            (1, "1g1f".into(), Some(Score::Cp(30))),
            (2, "1i1h".into(), Some(Score::Cp(20))),
            (3, "2g2f".into(), Some(Score::Cp(10)))
        ]
    );
}

#[test]
fn mini_shogi_needs_an_engine_that_offers_it() {
    let mini = Position::startpos(Variant::Mini);
    let mut e = fake(&[]);
    let (k, err) = kind(e.set_variant(Variant::Mini));
    assert!(matches!(k, EngineErrorKind::Unsupported(_)), "{k:?}");
    assert!(err.to_string().contains("cannot play Mini Shogi"), "{err}");
    let (k, _) = kind(e.search(&mini, &[], &Limit::nodes(1)));
    assert!(matches!(k, EngineErrorKind::Unsupported(_)), "{k:?}");
    let mut e = fake(&["--mini"]);
    let s = e.search(&mini, &[], &Limit::nodes(1)).unwrap();
    assert_eq!(e.variant(), Variant::Mini);
    let BestMove::Move(m) = s.bestmove else {
        panic!("{:?}", s.bestmove)
    };
    assert!(mini.is_legal(m));
    // Back to standard shogi on the same engine.
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    assert_eq!(e.variant(), Variant::Standard);
    assert_eq!(s.bestmove, BestMove::Move(mv("1g1f")));
}

#[test]
fn scripted_moves_for_matches() {
    let mut e = fake(&["--moves", "7g7f,3c3d,2g2f"]);
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    assert_eq!(s.bestmove, BestMove::Move(mv("7g7f")));
    let s = e.search(&start(), &[mv("7g7f")], &Limit::nodes(1)).unwrap();
    assert_eq!(s.bestmove, BestMove::Move(mv("3c3d")));
    // Item 2 (2g2f) is not legal after 2g2f 3c3d: the --play rule decides.
    let s = e
        .search(&start(), &[mv("2g2f"), mv("3c3d")], &Limit::nodes(1))
        .unwrap();
    assert_eq!(s.bestmove, BestMove::Move(mv("1g1f")));
    let mut e = fake(&["--play", "last"]);
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    assert_eq!(s.bestmove, BestMove::Move(mv("9i9h")));
}

#[test]
fn drop_never_hangs() {
    // Grace 300 ms, then a kill: an engine that ignores quit, and one hung in a search.
    let dropped_in = |e: Engine| {
        let t = Instant::now();
        drop(e);
        t.elapsed()
    };
    let quick = Duration::from_millis(1500);
    let t = dropped_in(fake(&["--ignore-quit"]));
    assert!(t < quick, "{t:?}");
    let mut e = fake(&["--hang-on", "go"]);
    e.start_search(&start(), &[], &Limit::infinite()).unwrap();
    let t = dropped_in(e);
    assert!(t < quick, "{t:?}");
}

fn positions(n: usize) -> Vec<(Position, Vec<Move>)> {
    // Distinct positions: the start after 0..n of a fixed line of moves (repeated as needed).
    let line = [
        "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b",
    ];
    (0..n)
        .map(|i| {
            (
                start(),
                line[..i % line.len()].iter().map(|s| mv(s)).collect(),
            )
        })
        .collect()
}

#[test]
fn pool_keeps_input_order_with_uneven_engines() {
    let slow = fake(&["--think", "25"]);
    let fast = fake(&[]);
    let mut pool = Pool::from_engines(vec![slow, fast]);
    let jobs = positions(24);
    let expected: Vec<String> = jobs
        .iter()
        .map(|(s, m)| {
            let mut p = s.clone();
            for &x in m {
                p.play(x).unwrap();
            }
            p.to_sfen()
        })
        .collect();
    let mut got = Vec::new();
    let flow = pool.run(
        jobs,
        |engine, (s, m)| {
            engine
                .search(&s, &m, &Limit::nodes(1))
                .map(|r| r.position.to_sfen())
        },
        |i, r| {
            got.push((i, r.unwrap()));
            ControlFlow::Continue(())
        },
    );
    assert!(flow.is_continue());
    let idx: Vec<usize> = got.iter().map(|g| g.0).collect();
    assert_eq!(idx, (0..24).collect::<Vec<_>>());
    let sfens: Vec<String> = got.into_iter().map(|g| g.1).collect();
    assert_eq!(sfens, expected);
}

#[test]
fn pool_restarts_crashed_engines_and_can_stop_early() {
    let opts = quick();
    let mut pool = Pool::start(2, fake_engine_path(), &["--crash-at-go", "3"], &opts).unwrap();
    let mut ok = 0;
    let mut retried = 0;
    let flow = pool.run(
        positions(12),
        |engine, (s, m)| engine.search_with_retry(&s, &m, &Limit::nodes(1)),
        |_, r| {
            let r = r.unwrap();
            ok += 1;
            retried += usize::from(r.retried.is_some());
            ControlFlow::Continue(())
        },
    );
    assert!(flow.is_continue());
    assert_eq!(ok, 12);
    assert!(retried >= 2, "{retried}");
    let mut seen = 0;
    let flow = pool.run(
        positions(100),
        |engine, (s, m)| engine.search_with_retry(&s, &m, &Limit::nodes(1)).is_ok(),
        |i, _| {
            seen += 1;
            if i == 4 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    assert!(flow.is_break());
    assert_eq!(seen, 5);
}

#[test]
fn engines_and_pools_move_between_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Engine>();
    send_sync::<Pool>();
    send_sync::<shogi_usi::EngineError>();
    // The fake engine documents itself.
    let out = std::process::Command::new(fake_engine_path())
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("--crash-at-go N"));
}

#[test]
fn infos_can_be_watched_as_they_come() {
    let mut e = fake(&["--score", "cp 7"]);
    e.set_multipv(2).unwrap();
    e.start_search(&start(), &[], &Limit::nodes(3)).unwrap();
    let mut seen = Vec::new();
    let s = e
        .wait_with(&mut |i| seen.push((i.multipv, i.nodes, i.score)))
        .unwrap();
    assert_eq!(
        seen,
        [
            (Some(1), Some(3), Some(Score::Cp(7))),
            (Some(2), Some(3), Some(Score::Cp(-3)))
        ]
    );
    assert_eq!(s.lines.len(), 2);
    assert_eq!(s.nodes, Some(3));
}

#[test]
fn programs_that_are_not_engines() {
    // Exits at once: a crash while waiting for usiok, with its status.
    // (Whether it is gone before `usi` is written or after, it is a crash.)
    let (k, _) = kind(Engine::start("/bin/false", &[] as &[&str], quick()));
    assert!(
        matches!(k, EngineErrorKind::Crashed { ref status, .. } if status.as_deref() == Some("exit status: 1")),
        "{k:?}"
    );
    // Echoes what it is sent and never says usiok: a timeout, its output in the last lines.
    let mut opts = quick();
    opts.timeouts.usiok = Duration::from_millis(500);
    let (k, err) = kind(Engine::start("/bin/cat", &[] as &[&str], opts));
    assert!(
        matches!(
            k,
            EngineErrorKind::Timeout {
                waiting_for: "usiok",
                ..
            }
        ),
        "{k:?}"
    );
    assert_eq!(
        err.last_lines().last().map(|l| l.text.as_str()),
        Some("usi")
    );
    // Not executable.
    let file = temp_file("not-exec");
    std::fs::write(&file, "not a program").unwrap();
    let (k, _) = kind(Engine::start(&file, &[] as &[&str], quick()));
    assert!(
        matches!(k, EngineErrorKind::Spawn(ref m) if m.contains("ermission")),
        "{k:?}"
    );
    let _ = std::fs::remove_file(file);
}

#[test]
fn an_engine_gone_between_commands_or_deaf_is_reported() {
    let mut e = fake(&["--exit-on", "gameover"]);
    // The write reaches the engine, which exits on it; the next write finds it gone.
    e.gameover(shogi_usi::GameResult::Draw).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let (k, err) = kind(e.set_option("Flag", "false"));
    assert!(
        matches!(k, EngineErrorKind::Crashed { ref status, .. } if status.as_deref() == Some("exit status: 4")),
        "{k:?}"
    );
    assert!(err.needs_restart());
    assert_eq!(err.last_command(), Some("setoption name Flag value false"));
    assert!(e.is_dead());
    // A process that closes its input but keeps running: a closed pipe.
    let script = "read l; echo usiok; read l; echo readyok; exec 0<&-; sleep 10";
    let mut e = Engine::start("/bin/sh", &["-c", script], quick()).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let (k, _) = kind(e.set_option_unchecked("X", Some("1")));
    assert!(matches!(k, EngineErrorKind::PipeClosed(_)), "{k:?}");
    assert!(e.is_dead());
}

/// The scheduling policies of this process's child processes named `comm` (field 41 of
/// /proc/PID/stat: 0 normal, 3 batch).
fn child_policies(comm: &str) -> Vec<u32> {
    let me = std::process::id().to_string();
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // "pid (comm) state ppid ...": the fields after the comm's closing parenthesis.
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if head.ends_with(&format!("({comm}")) && f.get(1) == Some(&me.as_str()) {
            out.extend(f.get(38).and_then(|p| p.parse::<u32>().ok()));
        }
    }
    out
}

#[test]
fn batch_starts_the_engine_under_sched_batch() {
    let has_chrt = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("chrt").is_file()));
    let opts = StartOptions {
        batch: true,
        ..quick()
    };
    let mut e = Engine::start(fake_engine_path(), &["--name", "batched"], opts).unwrap();
    assert_eq!(e.batch(), has_chrt);
    // It plays as any engine does.
    let s = e.search(&start(), &[], &Limit::nodes(1)).unwrap();
    assert!(matches!(s.bestmove, BestMove::Move(_)));
    if has_chrt && std::path::Path::new("/proc/self/stat").exists() {
        assert!(
            child_policies("fake-usi").contains(&3),
            "{:?}",
            child_policies("fake-usi")
        );
    }
    e.quit();
    // Without it, the policy is the default one.
    let e = fake(&[]);
    assert!(!e.batch());
    e.quit();
}

//! The engine layer against the two Debian engines (fairy-stockfish 11.1 and gpsusi). Each test
//! skips with a note when its engine is missing, and fails instead when `CI` is set.
//!
//! gpsusi aborts on `go nodes/depth/movetime`, so it is only given byoyomi; and it saves every
//! advertised option it is sent into its gpsusi.conf, so these tests send it no `setoption` at
//! all (`StartOptions::threads` only sets an option named `Threads`; gpsusi's is `Thread`).

use shogi_core::{DeclarationResult, Move, Position, Variant};
use shogi_usi::testing::{fairy_stockfish, gpsusi};
use shogi_usi::{
    BestMove, Engine, EngineErrorKind, Limit, MateAnswer, OptionKind, Score, Search, StartOptions,
};

const M1: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
const P3K: &str =
    "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP3+P1L/9/4+PsPSk/K5G1g b 2rb2nl3p 1";
const NY28: &str = "4K4/RBGGSS3/PPPP5/9/9/9/9/9/4k4 b 10P2g2s4n4l4p 1";

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap()
}

fn mv(s: &str) -> Move {
    Move::from_usi(s).unwrap()
}

/// Every PV legal and uncut, and the bestmove legal.
fn assert_legal(s: &Search) {
    if let BestMove::Move(m) = s.bestmove {
        assert!(s.position.is_legal(m), "{m:?}");
    }
    for l in &s.lines {
        assert_eq!(l.pv_cut, None, "line {}", l.multipv);
    }
}

#[test]
fn fairy_standard_search_mates_and_options() {
    let Some(path) = fairy_stockfish() else {
        return;
    };
    let mut e = Engine::start(&path, &[] as &[&str], StartOptions::default()).unwrap();
    assert!(e.name().starts_with("Fairy-Stockfish 11"), "{}", e.name());
    assert!(e.swaps_clocks());
    let skill = e
        .options()
        .iter()
        .find(|o| o.name == "Skill Level")
        .unwrap();
    assert_eq!(
        skill.kind,
        OptionKind::Spin {
            default: Some(20),
            min: Some(-20),
            max: Some(20)
        }
    );
    match &e
        .options()
        .iter()
        .find(|o| o.name == "UCI_Variant")
        .unwrap()
        .kind
    {
        OptionKind::Combo { vars, .. } => assert!(vars.iter().any(|v| v == "minishogi")),
        other => panic!("{other:?}"),
    }
    // Names with spaces, set by name.
    e.set_option("Skill Level", "20").unwrap();
    let (k, _) = match e.set_option("USI_Hash", "16") {
        Err(err) => (err.kind.clone(), err),
        Ok(()) => panic!("fairy 11.1 has no USI_Hash"),
    };
    assert!(matches!(k, EngineErrorKind::UnknownOption { .. }));

    let start = Position::startpos(Variant::Standard);
    let s = e
        .search(&start, &[mv("7g7f"), mv("3c3d")], &Limit::nodes(20_000))
        .unwrap();
    assert_legal(&s);
    let line = s.best_line().unwrap();
    assert!(line.depth.unwrap() >= 3, "{line:?}");
    assert!(line.pv.len() >= 2, "{line:?}");
    assert!(matches!(line.score.unwrap().relative(), Score::Cp(_)));
    assert!(s.nodes.unwrap() >= 20_000);

    let s = e.search(&pos(M1), &[], &Limit::depth(5)).unwrap();
    assert_eq!(s.bestmove, BestMove::Move(mv("G*5b")));
    assert_eq!(s.score().unwrap().relative(), Score::Mate { plies: 1 });
    let s = e.search(&pos(P3K), &[], &Limit::depth(8)).unwrap();
    assert_legal(&s);
    assert_eq!(s.score().unwrap().relative(), Score::Mate { plies: 3 });
    assert_eq!(s.score().unwrap().gote(), Score::Mate { plies: -3 });
    assert_eq!(s.best_line().unwrap().pv.len(), 3);

    e.set_multipv(3).unwrap();
    let s = e.search(&start, &[], &Limit::nodes(5_000)).unwrap();
    assert_legal(&s);
    assert_eq!(
        s.lines.iter().map(|l| l.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    e.set_multipv(1).unwrap();

    // fairy 11.1 reads the clocks swapped; the layer swaps them back. Sente to move with 2 s
    // left (gote 300 s): fairy must think briefly (measured: 0.10 s when it reads 2 s, 5.6 s
    // when it reads 300 s).
    let clock = Limit {
        btime: Some(std::time::Duration::from_secs(2)),
        wtime: Some(std::time::Duration::from_secs(300)),
        ..Limit::default()
    };
    let s = e.search(&start, &[], &clock).unwrap();
    assert!(
        s.elapsed < std::time::Duration::from_secs(2),
        "{:?}",
        s.elapsed
    );
    // fairy reads `go mate` as UCI's (mate in N moves) and answers bestmove.
    match e.go_mate(&pos(M1), &[], Some(std::time::Duration::from_millis(300))) {
        Err(err) => assert!(matches!(err.kind, EngineErrorKind::Unsupported(_)), "{err}"),
        Ok(a) => panic!("{a:?}"),
    }
    // Infinite + stop.
    e.start_search(&start, &[], &Limit::infinite()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    let s = e.stop().unwrap();
    assert_legal(&s);
    e.quit();
}

#[test]
fn fairy_fresh_state_is_reproducible_and_plays_mini_shogi() {
    let Some(path) = fairy_stockfish() else {
        return;
    };
    let opts = StartOptions {
        fresh_state: true,
        ..StartOptions::default()
    };
    let mut e = Engine::start(&path, &[] as &[&str], opts).unwrap();
    let start = Position::startpos(Variant::Standard);
    let line = [mv("2g2f"), mv("8c8d"), mv("2f2e")];
    let a = e.search(&start, &line, &Limit::nodes(5_000)).unwrap();
    let _other = e
        .search(&start, &[mv("7g7f")], &Limit::nodes(5_000))
        .unwrap();
    let b = e.search(&start, &line, &Limit::nodes(5_000)).unwrap();
    assert_eq!(a.bestmove, b.bestmove);
    assert_eq!(a.score(), b.score());
    assert_eq!(a.best_line().unwrap().pv, b.best_line().unwrap().pv);

    let mini = Position::startpos(Variant::Mini);
    let s = e.search(&mini, &[], &Limit::depth(6)).unwrap();
    assert_eq!(e.variant(), Variant::Mini);
    assert_legal(&s);
    assert!(!s.best_line().unwrap().pv.is_empty());
    let s = e.search(&mini, &[mv("5d5c")], &Limit::depth(4)).unwrap();
    assert_legal(&s);
    let s = e.search(&start, &[], &Limit::nodes(2_000)).unwrap();
    assert_eq!(e.variant(), Variant::Standard);
    assert_legal(&s);
    e.quit();
}

/// The fresh state fairy-stockfish is given before each search ([`shogi_usi::FreshState`]) equals
/// a process just started, also after the process played Mini Shogi in between (it restarts
/// into each variant: once `UCI_Variant` is set, even to `shogi`, fairy-stockfish 11.1 searches
/// standard positions differently).
#[test]
fn fairy_fresh_state_equals_a_fresh_process_across_variants() {
    let Some(path) = fairy_stockfish() else {
        return;
    };
    let opts = StartOptions {
        fresh_state: true,
        ..StartOptions::default()
    };
    let mut used = Engine::start(&path, &[] as &[&str], opts.clone()).unwrap();
    assert_eq!(used.fresh_state(), shogi_usi::FreshState::Threads);
    let start = Position::startpos(Variant::Standard);
    let mini = Position::startpos(Variant::Mini);
    let lines: [&[&str]; 4] = [
        &[],
        &["7g7f"],
        &["2g2f", "8c8d"],
        &["7g7f", "3c3d", "8h2b+"],
    ];
    for (i, line) in lines.iter().enumerate() {
        let moves: Vec<Move> = line.iter().map(|m| mv(m)).collect();
        if i % 2 == 1 {
            used.search(&mini, &[], &Limit::nodes(2_000)).unwrap();
            assert_eq!(used.variant(), Variant::Mini);
        }
        let got = used.search(&start, &moves, &Limit::nodes(2_000)).unwrap();
        let mut fresh = Engine::start(&path, &[] as &[&str], opts.clone()).unwrap();
        let want = fresh.search(&start, &moves, &Limit::nodes(2_000)).unwrap();
        fresh.quit();
        assert_eq!(got.bestmove, want.bestmove, "{line:?}");
        assert_eq!(got.score(), want.score(), "{line:?}");
        assert_eq!(
            got.best_line().unwrap().pv,
            want.best_line().unwrap().pv,
            "{line:?}"
        );
        assert_eq!(got.nodes, want.nodes, "{line:?}");
    }
    // The variant is the process's, not an option set: it is not among the applied options.
    assert!(
        used.applied_options()
            .iter()
            .all(|(n, _)| n != "UCI_Variant"),
        "{:?}",
        used.applied_options()
    );
    used.quit();
}

/// gpsusi's start takes 1 s on an idle machine and 7 s on a loaded one (measured here with a
/// load average of 13 on 2 cores): generous start timeouts.
fn gps_options() -> StartOptions {
    let mut o = StartOptions::default();
    o.timeouts.usiok = std::time::Duration::from_secs(60);
    o.timeouts.readyok = std::time::Duration::from_secs(60);
    o.timeouts.search_margin = std::time::Duration::from_secs(10);
    o
}

#[test]
fn gpsusi_byoyomi_and_declaration() {
    let Some(path) = gpsusi() else { return };
    let mut e = Engine::start(&path, &[] as &[&str], gps_options()).unwrap();
    assert!(e.name().starts_with("gpsshogi"), "{}", e.name());
    let names: Vec<&str> = e.options().iter().map(|o| o.name.as_str()).collect();
    for n in ["LimitDepth", "BookDepth", "MultiPVWidth", "Thread"] {
        assert!(names.contains(&n), "{names:?}");
    }
    assert!(!e.applied_options().iter().any(|(n, _)| n == "Thread"));
    let start = Position::startpos(Variant::Standard);
    // A book move: answered at once, with no info.
    let s = e
        .search(&start, &[mv("7g7f")], &Limit::byoyomi(500))
        .unwrap();
    assert_legal(&s);
    // Given as an SFEN the same position is searched (infos with PVs).
    let after = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
    let s = e.search(&after, &[], &Limit::byoyomi(500)).unwrap();
    assert_legal(&s);
    assert!(
        s.best_line().is_some_and(|l| l.pv.len() >= 2),
        "{:?}",
        s.lines
    );
    // Entering-king declaration, judged by our 27-point rule.
    match e
        .search(&pos(NY28), &[], &Limit::byoyomi(1000))
        .unwrap()
        .bestmove
    {
        BestMove::Win(d) => assert_eq!((d.result, d.points), (DeclarationResult::Win, 28)),
        other => panic!("{other:?}"),
    }
    // A mate in 1 is found with the right move (gpsusi scores it in cp). The hang seen after
    // it (`position startpos moves …` + `go` got no reply, not even to `isready`) is not about
    // the mate: see gpsusi_is_restarted_before_a_position_that_does_not_continue.
    let s = e.search(&pos(M1), &[], &Limit::byoyomi(500)).unwrap();
    assert_legal(&s);
    assert_eq!(s.bestmove, BestMove::Move(mv("G*5b")));
    assert!(matches!(s.score().unwrap().relative(), Score::Cp(cp) if cp > 100_000));
    e.quit();
}

#[test]
fn gpsusi_go_mate() {
    let Some(path) = gpsusi() else { return };
    let mut e = Engine::start(&path, &[] as &[&str], gps_options()).unwrap();
    // One per process: gpsusi stops answering a second one after a found mate. The limit is a
    // ceiling, not the search's length (gpsusi answers as soon as it has the mate, in
    // milliseconds when idle): 3 s was missed once on a machine at load 9.
    match e
        .go_mate(&pos(P3K), &[], Some(std::time::Duration::from_secs(30)))
        .unwrap()
    {
        MateAnswer::Mate(line) => {
            assert_eq!(line.len(), 3);
            let mut p = pos(P3K);
            for m in line {
                p.play(m).unwrap();
            }
            assert!(p.is_checkmate());
        }
        other => panic!("{other:?}"),
    }
    e.quit();
}

#[test]
fn fairy_pool_of_two_equals_pool_of_one_with_fresh_state() {
    let Some(path) = fairy_stockfish() else {
        return;
    };
    let opts = StartOptions {
        fresh_state: true,
        ..StartOptions::default()
    };
    let start = Position::startpos(Variant::Standard);
    let line = [
        "7g7f", "3c3d", "2g2f", "4c4d", "2f2e", "2b3c", "3i4h", "8b4b",
    ];
    let jobs: Vec<Vec<Move>> = (0..line.len())
        .map(|i| line[..i].iter().map(|s| mv(s)).collect())
        .collect();
    let run = |n: usize| {
        let mut pool = shogi_usi::Pool::start(n, &path, &[] as &[&str], &opts).unwrap();
        let mut out = Vec::new();
        let _ = pool.run(
            jobs.clone(),
            |e, moves| {
                e.search(&start, &moves, &Limit::nodes(3_000))
                    .map(|s| (s.bestmove, s.score(), s.best_line().map(|l| l.pv.clone())))
            },
            |_, r| {
                out.push(r.unwrap());
                std::ops::ControlFlow::Continue(())
            },
        );
        out
    };
    let one = run(1);
    assert_eq!(one.len(), line.len());
    assert_eq!(one, run(2));
}

/// gpsusi, once it has searched, answers no `position … moves …` that does not continue the
/// last position it was sent, and then not even `isready` (measured here: a search of the
/// position after 7g7f given as an SFEN, then `position startpos moves 7g7f 3c3d 2g2f` + `go`:
/// no `bestmove` in 5 s, no `readyok` in 3 s more; the same after `usinewgame`, `gameover` or
/// `stop`; a continuation of the last position, or one without moves, is answered). The
/// engine layer restarts it before such a search; a continuation is searched by the same
/// process.
#[test]
fn gpsusi_is_restarted_before_a_position_that_does_not_continue() {
    let Some(path) = gpsusi() else { return };
    let mut e = Engine::start(&path, &[] as &[&str], gps_options()).unwrap();
    let after = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
    let start = Position::startpos(Variant::Standard);
    let line: Vec<Move> = ["7g7f", "3c3d", "2g2f"].into_iter().map(mv).collect();
    // Nothing searched yet: nothing to restart for.
    assert_eq!(e.stale(&start, &line), None);
    // A real search (not a book move: it sends scored infos).
    let s = e.search(&after, &[], &Limit::byoyomi(300)).unwrap();
    assert!(s.score().is_some(), "{:?}", s.lines);
    assert!(e.stale(&start, &line).is_some());
    assert_eq!(
        e.stale(&after, &[]),
        None,
        "a position without moves is answered"
    );
    let s = e.search(&start, &line, &Limit::byoyomi(300)).unwrap();
    assert_legal(&s);
    let BestMove::Move(best) = s.bestmove else {
        panic!("{:?}", s.bestmove)
    };
    // The continuation of the position just searched needs no restart, and is answered.
    let mut p = s.position.clone();
    p.play(best).unwrap();
    let reply = p.legal_moves()[0];
    let mut cont = line.clone();
    cont.extend([best, reply]);
    assert_eq!(e.stale(&start, &cont), None);
    let s = e.search(&start, &cont, &Limit::byoyomi(300)).unwrap();
    assert_legal(&s);
    e.quit();
}

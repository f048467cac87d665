//! The engine layer against the scripted fake engine: every fault gives its documented error,
//! restart and retry work, the pool keeps input order, and nothing waits without a bound.

use shogi_core::{Color, DeclarationResult, ImpasseRule, Move, Position, Variant};
use shogi_usi::{
    BestMove, Engine, EngineErrorKind, Limit, MateAnswer, Pool, Score, StartOptions, Stream,
    Timeouts, testing::fake_engine_path,
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

//! Positions with known answers.

use shogi_core::{Position, SetupOptions};
use shogi_mate::{Limit, MateResult, Options, Solver, brute, verify_mate};

fn pos(sfen: &str) -> Position {
    Position::from_sfen_with(sfen, SetupOptions::TSUME).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn solve(sfen: &str, options: &Options) -> shogi_mate::Answer {
    let mut s = Solver::new(16 << 20);
    s.solve(&pos(sfen), options)
        .unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn shortest() -> Options {
    Options {
        shortest: true,
        ..Options::default()
    }
}

fn pv_usi(a: &shogi_mate::Answer) -> Vec<String> {
    match &a.result {
        MateResult::Mate { pv } => pv.iter().map(|m| m.to_usi()).collect(),
        other => panic!("expected a mate, got {other:?}"),
    }
}

const T3: &str =
    "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP3+P1L/9/4+PsPSk/6G1g b 2rb2nl3p 1523";
const T7: &str =
    "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP2+P1kL/9/4+PsP2/6G1g b S2rb2nl3p 1519";
const P3K: &str =
    "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP3+P1L/9/4+PsPSk/K5G1g b 2rb2nl3p 1";
const P7K: &str =
    "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP2+P1kL/9/4+PsP2/K5G1g b S2rb2nl3p 1";

fn tsume() -> Options {
    Options {
        shortest: true,
        tsume: true,
        ..Options::default()
    }
}

fn depth(n: u16) -> Options {
    Options {
        max_depth: Some(n),
        ..Options::default()
    }
}

#[test]
fn mate_in_one_by_a_drop_for_either_side() {
    let a = solve("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", &shortest());
    assert_eq!(pv_usi(&a), ["G*5b"]);
    assert_eq!((a.length, a.minimal, a.unique), (Some(1), true, Some(true)));
    let a = solve("4k4/9/9/9/9/9/4p4/9/4K4 w g 1", &shortest());
    assert_eq!(pv_usi(&a), ["G*5h"]);
}

#[test]
fn a_mated_side_to_move_has_no_mate() {
    let a = solve("4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1", &Options::default());
    assert_eq!(a.result, MateResult::NoMate { within: None });
}

#[test]
fn named_mates_in_three_and_seven() {
    for (sfen, len) in [(T3, 3), (P3K, 3), (T7, 7), (P7K, 7)] {
        let a = solve(sfen, &shortest());
        assert_eq!((a.length, a.minimal), (Some(len), true), "{sfen}");
        assert_eq!(a.unique, Some(true), "{sfen}");
        // No mate two plies shorter (T3: none in 1; T7: none in 3 or 5), a mate at the length.
        let short = solve(sfen, &depth(len - 2));
        assert_eq!(
            short.result,
            MateResult::NoMate {
                within: Some(len - 2)
            },
            "{sfen}"
        );
        assert!(
            !brute::mate_within(&pos(sfen), u32::from(len - 2)),
            "{sfen}"
        );
        let exact = solve(sfen, &depth(len));
        assert!(matches!(exact.result, MateResult::Mate { .. }), "{sfen}");
    }
}

#[test]
fn tsume_conventions_give_the_composed_lines() {
    // T3's composed line (ENGINE-FACTS §6.2): the defender takes the silver (1h1i), leaving the
    // attacker no piece in hand at the end, rather than 1h1g.
    assert_eq!(pv_usi(&solve(T3, &tsume())), ["2h1i", "1h1i", "G*2i"]);
    // T7 is T3 four plies earlier in the ミクロコスモス answer.
    assert_eq!(
        pv_usi(&solve(T7, &tsume())),
        ["4f3f", "2f1g", "S*2h", "1g1h", "2h1i", "1h1i", "G*2i"]
    );
}

#[test]
fn pawn_drop_mate_is_not_a_mate() {
    // P*1b would mate (the gold guards 1b, the king's own knight and pawn block 2a and 2b),
    // so it is illegal, and nothing else mates.
    let sfen = "7nk/7p1/7G1/9/9/9/9/9/9 b P 1";
    assert!(!brute::mate_within(&pos(sfen), 3));
    assert_eq!(
        solve(sfen, &Options::default()).result,
        MateResult::NoMate { within: None }
    );
    // With a gold in hand instead, G*1b mates.
    assert_eq!(
        pv_usi(&solve("7nk/7p1/7G1/9/9/9/9/9/9 b G 1", &Options::default())),
        ["G*1b"]
    );
}

#[test]
fn endless_checks_are_no_mate() {
    // A lone rook can check for ever but never mate: proven through repetition (perpetual
    // check), with and without interposing pieces for the defender.
    for sfen in [
        "8k/9/9/9/9/9/9/9/R8 b - 1",
        "8k/9/9/9/9/9/9/9/R8 b r2b4g4s4n4l18p 1",
    ] {
        assert_eq!(
            solve(sfen, &Options::default()).result,
            MateResult::NoMate { within: None },
            "{sfen}"
        );
    }
}

#[test]
fn mini_shogi_mates() {
    // Found by the solver and confirmed by the exhaustive search: mate in 9, none in 7.
    let sfen = "5/1k3/+b1R2/+S4/4K b RP 1";
    let a = solve(sfen, &shortest());
    assert_eq!((a.length, a.minimal), (Some(9), true));
    assert!(!brute::mate_within(&pos(sfen), 7));
    assert!(brute::mate_within(&pos(sfen), 9));
}

#[test]
fn limits_and_bad_problems() {
    let a = Solver::new(1 << 16)
        .solve(
            &pos(T7),
            &Options {
                nodes: 3,
                ..Options::default()
            },
        )
        .unwrap();
    assert_eq!(
        a.result,
        MateResult::Unknown {
            limit: Limit::Nodes
        }
    );
    // No king for the defender.
    let p = pos("9/9/9/9/9/9/9/9/4K4 b G 1");
    let e = Solver::new(1 << 16)
        .solve(&p, &Options::default())
        .unwrap_err();
    assert_eq!(e, shogi_mate::ProblemError::NoDefenderKing);
    // A table of one cluster still solves a short problem.
    let a = Solver::new(1).solve(&pos(T3), &Options::default()).unwrap();
    assert!(matches!(a.result, MateResult::Mate { ref pv } if verify_mate(&pos(T3), pv).is_ok()));
}

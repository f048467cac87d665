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

#[test]
fn print_named() {
    for sfen in [
        "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        "4k4/9/9/9/9/9/4p4/9/4K4 w g 1",
        "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP3+P1L/9/4+PsPSk/6G1g b 2rb2nl3p 1523",
        "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP2+P1kL/9/4+PsP2/6G1g b S2rb2nl3p 1519",
    ] {
        for o in [
            Options::default(),
            shortest(),
            Options {
                shortest: true,
                tsume: true,
                ..Options::default()
            },
        ] {
            let a = solve(sfen, &o);
            println!(
                "{sfen} {:?} len {:?} min {} uniq {:?} nodes {} {:?}",
                pv_usi(&a),
                a.length,
                a.minimal,
                a.unique,
                a.nodes,
                a.time
            );
        }
    }
}

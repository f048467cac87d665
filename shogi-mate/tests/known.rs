//! Positions with known answers.

use shogi_core::Move;
use shogi_core::{Position, SetupOptions};
use shogi_mate::{
    Limit, MateResult, Options, Solver, brute, counted_length, is_futile_interposition,
    verify_mate, verify_tsume_answer,
};

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

/// 小林正美 (近代将棋 1967-02, 塚田賞), まで49手詰, transcribed from the corpus's KI2 (the
/// defender holds every other piece, as the record's hand says).
const KOBAYASHI: &str = "8k/2rrl4/2n2ln2/g3pp2p/3l4n/2lp5/g5p2/9/7+p1 b 2B2GN4s12p 1";
/// Its stated answer (the record's moves), which stops at 83飛成 with only drops on 82 left.
const KOBAYASHI_ANSWER: &str = "N*2c 1a1b G*2b 1b2b B*3a 2b2c B*1b 2c2d 3a1c+ 2d2e 1b3d+ 2e3f \
    1c3e 3f4g 3d5f 4g5h 3e5g 5h6i G*6h 6i7i 6h7g 7i8h 5g7i 8h7g 5f7h 7g8f 7i9g 8f9e 7h9f 9e8d \
    9g7e 8d8c G*9c 9d9c 9f7d 8c8b 7e9c 8b9a G*9b 7b9b 9c9b 6b9b 7d7c 9a8a N*9c 9b9c R*8b 8a9a \
    8b8c+";

fn moves(usi: &str) -> Vec<Move> {
    usi.split_whitespace()
        .map(|m| Move::from_usi(m).unwrap_or_else(|e| panic!("{m}: {e}")))
        .collect()
}

#[test]
fn kobayashi_is_49_with_the_guarded_futile_drops_left_out() {
    let start = pos(KOBAYASHI);
    let answer = moves(KOBAYASHI_ANSWER);
    assert_eq!(answer.len(), 49);
    // The stated line does not end in checkmate: the defender may drop on 82, which the king
    // guards, but the horse (73) or the dragon (83) takes it with mate, protected by the other.
    assert!(verify_mate(&start, &answer).is_err());
    let mut end = start.clone();
    for m in &answer {
        end.play_unchecked(*m);
    }
    let replies = end.legal_moves();
    assert!(!replies.is_empty());
    for r in replies.iter() {
        assert!(r.is_drop() && r.to().to_string() == "8b", "{}", r.to_usi());
        assert!(is_futile_interposition(&end, *r), "{}", r.to_usi());
    }
    let mut s = Solver::new(16 << 20);
    assert_eq!(
        verify_tsume_answer(&mut s, &start, &answer, 100_000),
        Ok(())
    );
    assert_eq!(counted_length(&start, &answer), 49);
    // The solver: 49, proven minimal, and its line is the record's up to 82飛 (ply 47); at ply
    // 48 it takes the equally long defence 71玉 (72飛成 mates with the hand empty, as the
    // record's line does): a 変化同手数, not a disagreement.
    let a = s.solve(&start, &tsume()).unwrap();
    assert_eq!((a.length, a.minimal), (Some(49), true));
    let MateResult::Mate { pv } = &a.result else {
        panic!("{:?}", a.result)
    };
    assert_eq!(pv[..47], answer[..47]);
    assert!(verify_tsume_answer(&mut s, &start, pv, 100_000).is_ok());
    assert_eq!(counted_length(&start, pv), 49);
    // Without the tsume conventions every ply counts: the drop and its capture make 51.
    let plain = s.solve(&start, &shortest()).unwrap();
    assert_eq!((plain.length, plain.minimal), (Some(51), true));
}

#[test]
fn which_interpositions_are_futile() {
    // Gote's king 9a in check from sente's rook 9i; sente's gold 8c guards 9b and 9c, gote's
    // silver 8d guards 9c and 9e, gote's gold 8g guards 9g and 9h.
    let p = pos("k8/9/1G7/1s7/9/9/1g7/9/R8 w p 1");
    let futile: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| is_futile_interposition(&p, **m))
        .map(|m| m.to_usi())
        .collect();
    // 9d, 9f: unguarded, simply lost to the rook. 9b: the king guards it, but the rook takes
    // it with check, protected by the gold, and cannot be taken back.
    assert_eq!(futile, ["P*9b", "P*9d", "P*9f"]);
    // Counted (useful): 9c and 9e (the silver takes back), 9g and 9h (the gold takes back),
    // and the silver's moved interposition 8d9e.
    for m in ["P*9c", "P*9e", "P*9g", "P*9h", "8d9e"] {
        let m = Move::from_usi(m).unwrap();
        assert!(p.legal_moves().contains(&m), "{}", m.to_usi());
        assert!(!is_futile_interposition(&p, m), "{}", m.to_usi());
    }
}

/// 寿 (伊藤看寿, 将棋図巧 第100番), 611 plies: the famous long problem the plain search
/// solves in a few seconds (8.3 million nodes; a 64 MiB table is enough). Its SFEN is
/// bench/famous.tsv's, where ミクロコスモス (1525) is, too long for a test.
#[test]
fn kotobuki_is_mate_in_611() {
    let row = include_str!("../bench/famous.tsv")
        .lines()
        .find(|l| l.starts_with("寿"))
        .unwrap_or_else(|| panic!("寿 is not in famous.tsv"));
    let fields: Vec<&str> = row.split('\t').collect();
    assert_eq!(fields.len(), 3, "{row}");
    let stated: u16 = fields[1].parse().unwrap_or_else(|e| panic!("{row}: {e}"));
    let options = Options {
        nodes: 20_000_000,
        ..Options::default()
    };
    let start = pos(fields[2]);
    let a = Solver::new(64 << 20)
        .solve(&start, &options)
        .unwrap_or_else(|e| panic!("寿: {e}"));
    let MateResult::Mate { pv } = &a.result else {
        panic!("寿: {:?} after {} nodes", a.result, a.nodes);
    };
    assert_eq!((stated, a.length), (611, Some(611)));
    assert_eq!(pv.len(), 611);
    assert_eq!(verify_mate(&start, pv), Ok(()));
}

//! The rule index only skips work: the tags with it equal the tags of checking every active
//! rule at every move, on every test game (and mirrored), on each of them played on at random
//! (captures, drops and promotions after the formations), and on random games.

use super::Recognizer;
use crate::RuleSet;
use shogi_core::{Move, Position, Square, Variant};

/// Tags of `moves` from `start`, with the index or checking every rule.
fn tags(rules: &RuleSet, start: &Position, moves: &[Move], exhaustive: bool) -> super::GameTags {
    let mut r = Recognizer::new(rules, start).expect("a standard start");
    r.exhaustive = exhaustive;
    for &mv in moves {
        if r.is_done() {
            break;
        }
        r.push(mv).expect("legal");
    }
    r.finish()
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// `moves` played on with random legal moves, captures preferred half of the time, up to
/// `plies` in all.
fn played_on(start: &Position, moves: &[Move], plies: usize, rng: &mut Rng) -> Vec<Move> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for &mv in moves {
        if pos.play(mv).is_err() {
            return out;
        }
        out.push(mv);
    }
    while out.len() < plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let captures: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to()).is_some())
            .collect();
        let mv = if !captures.is_empty() && rng.below(2) == 0 {
            captures[rng.below(captures.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        pos.play_unchecked(mv);
        out.push(mv);
    }
    out
}

/// A move with the board turned 180°.
fn turned(mv: Move) -> Move {
    let turn = |sq: Square| Square::new(10 - sq.file(), 10 - sq.rank()).expect("a square");
    match mv {
        Move::Normal { from, to, promote } => Move::Normal {
            from: turn(from),
            to: turn(to),
            promote,
        },
        Move::Drop { role, to } => Move::Drop { role, to: turn(to) },
    }
}

/// The even start with gote to move: the test games mirrored start here.
fn gote_first() -> Position {
    Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
        .expect("valid")
}

#[test]
fn index_agrees_with_checking_every_rule() {
    let rules = RuleSet::builtin();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut games: Vec<(Position, Vec<Move>)> = Vec::new();
    for line in include_str!("../tests/data/games.txt").lines() {
        let Some(moves) = line.split('|').nth(2).filter(|_| !line.starts_with('#')) else {
            continue;
        };
        let moves: Vec<Move> = moves
            .split_whitespace()
            .map(|m| Move::from_usi(m).expect("a USI move"))
            .collect();
        let turned = moves.iter().map(|&m| turned(m)).collect::<Vec<_>>();
        for (start, line) in [
            (Position::startpos(Variant::Standard), moves),
            (gote_first(), turned),
        ] {
            let on = played_on(&start, &line, 120, &mut rng);
            games.push((start.clone(), line));
            games.push((start, on));
        }
    }
    for _ in 0..200 {
        let start = Position::startpos(Variant::Standard);
        let moves = played_on(&start, &[], 150, &mut rng);
        games.push((start, moves));
    }
    assert!(games.len() > 400, "{} games", games.len());
    let mut hits = 0;
    for (start, moves) in &games {
        let fast = tags(rules, start, moves, false);
        let every = tags(rules, start, moves, true);
        assert_eq!(fast, every, "{}", start.to_sfen());
        hits += fast.sente.openings.len() + fast.gote.castles.len();
    }
    assert!(hits > 500, "only {hits} tags formed");
}

#[test]
fn a_rule_set_without_rules_recognises_nothing() {
    let rules = RuleSet::parse(&[("empty", "class 居飛車\n")]).expect("valid");
    let start = Position::startpos(Variant::Standard);
    let moves = played_on(&start, &[], 40, &mut Rng(7));
    let t = tags(&rules, &start, &moves, false);
    assert!(t.sente.openings.is_empty() && t.gote.castles.is_empty());
    assert_eq!(t.plies_seen, 0);
}

/// A thread keeps one recogniser's memory from game to game: with rule sets of other sizes
/// in between (60 more tags and rules than the built-in ones) and games of other lengths,
/// the tags equal those of a recogniser made afresh.
#[test]
fn memory_kept_between_games_changes_no_tag() {
    let text: String = (0..60)
        .map(|i| format!("opening 試{i} < 振り飛車\n  rule\n    ply <= 5\n    moved 飛\n"))
        .collect();
    let bigger = RuleSet::with_user_file("test", &text).expect("valid rules");
    let builtin = RuleSet::builtin();
    assert!(bigger.rules.len().div_ceil(64) > builtin.rules.len().div_ceil(64));
    let start = Position::startpos(Variant::Standard);
    let moves: Vec<Move> = ["7g7f", "3c3d", "6g6f", "8c8d", "2h6h", "7a7b", "5i4h"]
        .map(|m| Move::from_usi(m).expect("a USI move"))
        .into();
    for rules in [builtin, &bigger, builtin, &bigger] {
        for n in [moves.len(), 2, moves.len()] {
            let kept = super::recognise(rules, &start, moves[..n].iter().copied());
            assert_eq!(kept, Some(tags(rules, &start, &moves[..n], false)));
        }
    }
    let last = super::recognise(&bigger, &start, moves.iter().copied()).expect("tags");
    let added = last
        .sente
        .openings
        .iter()
        .filter(|h| bigger.name(h.tag).starts_with('試'));
    assert_eq!(added.count(), 60, "each of the 60 at ply 5");
}

//! Every built-in tag on a game written here: it forms at the last move, not one move earlier,
//! not in its near miss, the same mirrored for the other side, and the same through another
//! move order (tests/data/games.txt).

use shogi_core::{Color, Move, Position, Square, Variant};
use shogi_openings::{GameTags, RuleSet, TagId, recognise};
use std::collections::BTreeSet;

const GAMES: &str = include_str!("data/games.txt");

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Expect {
    Forms,
    NearMiss,
    OtherOrder,
}

struct Entry {
    line: usize,
    expect: Expect,
    tag: String,
    side: Color,
    moves: Vec<Move>,
}

fn entries() -> Vec<Entry> {
    let mut out = Vec::new();
    for (i, raw) in GAMES.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(
            parts.len(),
            3,
            "games.txt:{}: expected TAG | SIDE | MOVES",
            i + 1
        );
        let (expect, tag) = match parts[0].chars().next() {
            Some('!') => (Expect::NearMiss, &parts[0][1..]),
            Some('=') => (Expect::OtherOrder, &parts[0][1..]),
            _ => (Expect::Forms, parts[0]),
        };
        let side = match parts[1] {
            "sente" => Color::Black,
            "gote" => Color::White,
            s => panic!("games.txt:{}: unknown side {s}", i + 1),
        };
        let moves = parts[2]
            .split_whitespace()
            .map(|m| Move::from_usi(m).unwrap_or_else(|e| panic!("games.txt:{}: {m}: {e}", i + 1)))
            .collect();
        out.push(Entry {
            line: i + 1,
            expect,
            tag: tag.to_string(),
            side,
            moves,
        });
    }
    out
}

/// The tag a test line names: the one of that name with rules.
fn tag(rules: &RuleSet, name: &str) -> TagId {
    let ids: Vec<TagId> = rules
        .find(name, None)
        .into_iter()
        .filter(|&t| rules.tag(t).has_rules)
        .collect();
    assert_eq!(ids.len(), 1, "{name}: {ids:?}");
    ids[0]
}

fn turn(sq: Square) -> Square {
    Square::new(10 - sq.file(), 10 - sq.rank()).unwrap()
}

/// The game mirrored: colours swapped, board turned (the even start with gote to move).
fn mirrored(moves: &[Move]) -> (Position, Vec<Move>) {
    let start =
        Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
            .unwrap();
    let moves = moves
        .iter()
        .map(|&m| match m {
            Move::Normal { from, to, promote } => Move::Normal {
                from: turn(from),
                to: turn(to),
                promote,
            },
            Move::Drop { role, to } => Move::Drop { role, to: turn(to) },
        })
        .collect();
    (start, moves)
}

/// Replays every move (the line must be legal) and recognises.
fn run(rules: &RuleSet, start: &Position, moves: &[Move], e: &Entry) -> (GameTags, Position) {
    let mut pos = start.clone();
    for (k, &m) in moves.iter().enumerate() {
        pos.play(m).unwrap_or_else(|err| {
            panic!(
                "games.txt:{}: move {} ({}) is illegal: {err}",
                e.line,
                k + 1,
                m.to_usi()
            )
        });
    }
    (
        recognise(rules, start, moves.iter().copied()).expect("the even start"),
        pos,
    )
}

fn ply_of(rules: &RuleSet, tags: &GameTags, side: Color, t: TagId) -> Option<u32> {
    let s = tags.side(side);
    let _ = rules;
    s.openings
        .iter()
        .chain(&s.castles)
        .find(|h| h.tag == t)
        .map(|h| h.ply)
}

#[test]
fn every_game_gives_its_tag_and_every_near_miss_does_not() {
    let rules = RuleSet::builtin();
    let entries = entries();
    let mut previous_board: Option<Position> = None;
    let mut failures = Vec::new();
    for e in &entries {
        let t = tag(rules, &e.tag);
        let n = e.moves.len() as u32;
        for mirror in [false, true] {
            let (start, moves, side) = if mirror {
                let (s, m) = mirrored(&e.moves);
                (s, m, e.side.opposite())
            } else {
                (
                    Position::startpos(Variant::Standard),
                    e.moves.clone(),
                    e.side,
                )
            };
            let (tags, end) = run(rules, &start, &moves, e);
            let got = ply_of(rules, &tags, side, t);
            let what = format!(
                "games.txt:{} {}{}",
                e.line,
                e.tag,
                if mirror { " (mirrored)" } else { "" }
            );
            match e.expect {
                Expect::Forms | Expect::OtherOrder => {
                    if got != Some(n) {
                        let names: Vec<(&str, u32)> = [&tags.sente, &tags.gote]
                            .iter()
                            .flat_map(|s| s.openings.iter().chain(&s.castles))
                            .map(|h| (rules.name(h.tag), h.ply))
                            .collect();
                        failures.push(format!(
                            "{what}: expected at ply {n}, got {got:?}; all: {names:?}"
                        ));
                    }
                    let (before, _) = run(rules, &start, &moves[..moves.len() - 1], e);
                    if ply_of(rules, &before, side, t).is_some() {
                        failures.push(format!("{what}: given one move early"));
                    }
                    // Nothing is given to the side that did not form it just because of mirroring.
                    let (other, _) = run(rules, &start, &moves, e);
                    assert_eq!(other, tags, "{what}: recognising twice differs");
                }
                Expect::NearMiss if got.is_some() => {
                    failures.push(format!("{what}: a near miss was given the tag"))
                }
                Expect::NearMiss => {}
            }
            if !mirror {
                if e.expect == Expect::OtherOrder {
                    let prev = previous_board
                        .as_ref()
                        .expect("an other-order line follows a game");
                    if end.to_sfen() != prev.to_sfen() {
                        failures.push(format!("games.txt:{}: not the same formation", e.line));
                    }
                }
                if e.expect == Expect::Forms {
                    previous_board = Some(end);
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_tag_with_rules_has_a_game_and_a_near_miss() {
    let rules = RuleSet::builtin();
    let entries = entries();
    let covered = |x: Expect| {
        entries
            .iter()
            .filter(|e| e.expect == x)
            .map(|e| tag(rules, &e.tag))
            .collect::<BTreeSet<_>>()
    };
    let (forms, near) = (covered(Expect::Forms), covered(Expect::NearMiss));
    for (id, t) in rules.tags().filter(|(_, t)| t.has_rules) {
        assert!(forms.contains(&id), "no game forms {}", t.name);
        assert!(
            near.contains(&id) || t.kind == shogi_openings::Kind::Castle,
            "no near miss for {}",
            t.name
        );
    }
    assert!(
        entries
            .iter()
            .filter(|e| e.expect == Expect::OtherOrder)
            .count()
            >= 3
    );
    let count = |k| {
        rules
            .tags()
            .filter(|(_, t)| t.has_rules && t.kind == k)
            .count()
    };
    assert!(count(shogi_openings::Kind::Opening) >= 40);
    assert!(count(shogi_openings::Kind::Castle) >= 30);
}

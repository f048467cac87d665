//! Properties checked over random playouts from many positions:
//! - a move is in `legal_moves` exactly when `check_move` accepts it (every syntactically
//!   possible move is tried);
//! - the incremental Zobrist key equals the key computed from scratch;
//! - no legal move leaves the mover's king attacked;
//! - bulk counting equals the generated list; SFEN round-trips;
//! - the moves to one square (of one role) are the legal moves that land there.

use shogi_core::{Bitboard, Color, Move, Position, Role, Square, Variant};
use shogi_testkit::Rng;

fn starts() -> Vec<Position> {
    let mut v = vec![
        Position::startpos(Variant::Standard),
        Position::startpos(Variant::Mini),
    ];
    for line in include_str!("../data/positions.txt").lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        v.push(Position::from_sfen(line).unwrap_or_else(|e| panic!("{line}: {e}")));
    }
    v
}

/// Every move the notation can express on this variant's board.
fn all_candidate_moves(variant: Variant) -> Vec<Move> {
    let squares: Vec<Square> = Square::all().filter(|s| variant.contains(*s)).collect();
    let mut v = Vec::new();
    for &from in &squares {
        for &to in &squares {
            if from != to {
                v.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
                v.push(Move::Normal {
                    from,
                    to,
                    promote: true,
                });
            }
        }
    }
    for role in Role::HAND {
        for &to in &squares {
            v.push(Move::Drop { role, to });
        }
    }
    v
}

fn king_attacked(p: &Position, color: Color) -> bool {
    match p.king_square(color) {
        Some(k) => p.attackers_to(k, !color, p.occupied()).any(),
        None => false,
    }
}

fn check_position(p: &Position, candidates: &[Move]) {
    let legal = p.legal_moves();
    // No duplicates.
    let mut sorted: Vec<Move> = legal.to_vec();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), legal.len(), "duplicate moves in {p:?}");
    assert_eq!(p.count_legal_moves(), legal.len() as u64, "{p:?}");
    let mut visited = 0;
    p.for_each_legal_move(|_| visited += 1);
    assert_eq!(visited, legal.len());
    // The moves to each square are the legal moves that land there, in the same order.
    for to in Square::all().filter(|s| p.variant().contains(*s)) {
        let all: Vec<Move> = legal.iter().copied().filter(|m| m.to() == to).collect();
        assert_eq!(
            p.legal_moves_to(to).to_vec(),
            all,
            "to {to:?} in {}",
            p.to_sfen()
        );
        let mut each = Vec::new();
        p.for_each_legal_move_to(to, |m| each.push(m));
        assert_eq!(each, all, "to {to:?} in {}", p.to_sfen());
        // And those of one role: the piece's role on the board, or the dropped role.
        for role in Role::ALL {
            let of_role: Vec<Move> = all
                .iter()
                .copied()
                .filter(|m| match *m {
                    Move::Normal { from, .. } => p.piece_at(from).is_some_and(|q| q.role == role),
                    Move::Drop { role: r, .. } => r == role,
                })
                .collect();
            let mut each = Vec::new();
            p.for_each_legal_move_of_to(role, to, |m| each.push(m));
            assert_eq!(each, of_role, "{role:?} to {to:?} in {}", p.to_sfen());
        }
    }
    // legal_moves == { m : check_move(m) is Ok }.
    for &m in candidates {
        let generated = sorted.binary_search(&m).is_ok();
        let accepted = p.check_move(m);
        assert_eq!(
            generated,
            accepted.is_ok(),
            "{} in {}: generated={generated}, check_move={accepted:?}",
            m.to_usi(),
            p.to_sfen()
        );
    }
    for &m in legal.iter() {
        let mut after = p.clone();
        after.play(m).unwrap();
        assert!(
            !king_attacked(&after, p.side_to_move()),
            "{m:?} leaves king attacked in {p:?}"
        );
        assert_eq!(after.key(), after.compute_key(), "key after {m:?} in {p:?}");
        assert_eq!(p.gives_check(m), after.is_check());
        // The position after the move is itself a valid setup (round trip through SFEN).
        let sfen = after.to_sfen();
        let back = Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(back, after, "{sfen}");
    }
}

#[test]
fn generation_matches_check_move_over_random_playouts() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let std_candidates = all_candidate_moves(Variant::Standard);
    let mini_candidates = all_candidate_moves(Variant::Mini);
    let mut positions = 0;
    for start in starts() {
        let candidates = match start.variant() {
            Variant::Standard => &std_candidates,
            Variant::Mini => &mini_candidates,
        };
        for _game in 0..3 {
            let mut p = start.clone();
            for _ply in 0..60 {
                check_position(&p, candidates);
                positions += 1;
                let legal = p.legal_moves();
                if legal.is_empty() {
                    assert!(p.outcome().is_some());
                    break;
                }
                let m = legal[rng.below(legal.len())];
                p.play_unchecked(m);
            }
        }
    }
    assert!(positions > 1000, "only {positions} positions checked");
}

#[test]
fn checkers_and_pins_are_consistent() {
    let mut rng = Rng::new(12345);
    for start in starts() {
        let mut p = start.clone();
        for _ in 0..80 {
            let us = p.side_to_move();
            // is_check agrees with the attackers of the king.
            assert_eq!(p.is_check(), king_attacked(&p, us));
            // A pinned piece that leaves the pin line would expose the king.
            let pinned: Bitboard = p.pinned_pieces();
            for m in p.legal_moves().iter() {
                if let Some(from) = m.from() {
                    if pinned.contains(from) {
                        let k = p.king_square(us).unwrap();
                        assert!(Bitboard::line(k, from).contains(m.to()));
                    }
                }
            }
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            p.play_unchecked(legal[rng.below(legal.len())]);
        }
    }
}

#[test]
fn permissive_positions_with_dead_pieces_and_nifu() {
    use shogi_core::SetupOptions;
    // Dead pawns, lances and knights of both colours on their last ranks, nifu on files 2 and 8,
    // and pieces in hand: the generator must not wrap a push off the board's edge.
    let sfens = [
        "P3k3P/N6P1/9/9/9/9/9/1p5n1/p3K3p b Pp 1",
        "P3k3P/N6P1/9/9/9/9/9/1p5n1/p3K3p w Pp 1",
        "LP2k2PL/9/1P5P1/9/9/9/1p5p1/9/lp2K2pl b NLnl 1",
        "LP2k2PL/9/1P5P1/9/9/9/1p5p1/9/lp2K2pl w NLnl 1",
    ];
    let candidates = all_candidate_moves(Variant::Standard);
    let mut rng = Rng::new(7);
    for sfen in sfens {
        let start = Position::from_sfen_with(sfen, SetupOptions::PERMISSIVE)
            .unwrap_or_else(|e| panic!("{sfen}: {e}"));
        let mut p = start.clone();
        for _ in 0..30 {
            let legal = p.legal_moves();
            for &m in &candidates {
                assert_eq!(
                    legal.contains(&m),
                    p.check_move(m).is_ok(),
                    "{} in {}",
                    m.to_usi(),
                    p.to_sfen()
                );
            }
            if legal.is_empty() {
                break;
            }
            p.play_unchecked(legal[rng.below(legal.len())]);
        }
    }
}

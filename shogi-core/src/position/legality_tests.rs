//! Move checking against the way it used to be done: the target tested on the mover's
//! whole attack set, and king safety by making the move on a copy and asking whether the
//! king is attacked. The fast checks must agree on every move of many random positions.

use super::movegen::reaches;
use super::testgen::{Rng, random_positions};
use super::{PlayError, Position};
use crate::bitboard::{Bitboard, attacks, pawn_attacks};
use crate::moves::Move;
use crate::setup::SetupOptions;
use crate::types::{Color, Role, Square, Variant};
use std::collections::HashSet;

/// The check of `m` as it was written before: same rules, same order of reasons, with
/// king safety tested on the position after the move.
fn reference_check(p: &Position, m: Move) -> Result<(), PlayError> {
    let us = p.side;
    let masks = p.variant.masks();
    let king_safe_after = |m: Move| {
        let mut after = p.clone();
        after.do_move(m);
        match after.king_square(us) {
            Some(k) => after.attackers_to(k, !us, after.occupied()).is_empty(),
            None => true,
        }
    };
    match m {
        Move::Normal { from, to, promote } => {
            if p.variant != Variant::Standard
                && (!masks.board.contains(from) || !masks.board.contains(to))
            {
                return Err(PlayError::OffBoard);
            }
            let piece = p.board[from.index()].ok_or(PlayError::NoPiece)?;
            if piece.color != us {
                return Err(PlayError::NotYourPiece);
            }
            if p.board[to.index()].is_some_and(|q| q.color == us) {
                return Err(PlayError::OwnPieceOnTarget);
            }
            let occ_s = p.occupied() | masks.offboard;
            if !attacks(us, piece.role, from, occ_s).contains(to) {
                let empty = attacks(us, piece.role, from, masks.offboard);
                return Err(if empty.contains(to) {
                    PlayError::PathBlocked
                } else {
                    PlayError::CannotMoveThere
                });
            }
            let zone = masks.zone[us.index()];
            if promote {
                if !piece.role.can_promote() || !(zone.contains(from) || zone.contains(to)) {
                    return Err(PlayError::PromotionNotAllowed);
                }
            } else {
                let dead = match piece.role {
                    Role::Pawn | Role::Lance => masks.last1[us.index()].contains(to),
                    Role::Knight => masks.last2[us.index()].contains(to),
                    _ => false,
                };
                if dead {
                    return Err(PlayError::PromotionRequired);
                }
            }
            if !king_safe_after(m) {
                return Err(PlayError::LeavesKingInCheck);
            }
            Ok(())
        }
        Move::Drop { role, to } => {
            if p.variant != Variant::Standard && !masks.board.contains(to) {
                return Err(PlayError::OffBoard);
            }
            if !role.is_hand_role() {
                return Err(PlayError::NotDroppable);
            }
            if p.hands[us.index()].count(role) == 0 {
                return Err(PlayError::NotInHand);
            }
            if p.occupied().contains(to) {
                return Err(PlayError::DropOnOccupied);
            }
            let dead = match role {
                Role::Pawn | Role::Lance => masks.last1[us.index()].contains(to),
                Role::Knight => masks.last2[us.index()].contains(to),
                _ => false,
            };
            if dead {
                return Err(PlayError::DeadPiece);
            }
            if role == Role::Pawn && (p.pieces(us, Role::Pawn) & Bitboard::file(to.file())).any() {
                return Err(PlayError::Nifu);
            }
            if !king_safe_after(m) {
                return Err(PlayError::LeavesKingInCheck);
            }
            if role == Role::Pawn {
                if let Some(tk) = p.king_square(!us) {
                    if pawn_attacks(us, to).contains(tk) && p.pawn_drop_mates(to) {
                        return Err(PlayError::PawnDropMate);
                    }
                }
            }
            Ok(())
        }
    }
}

/// Every move that can be written in `p`: each pair of squares, promoting or not, and each
/// role dropped on each square.
fn every_move() -> Vec<Move> {
    let mut out = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
            for promote in [false, true] {
                out.push(Move::Normal { from, to, promote });
            }
        }
    }
    for role in Role::ALL {
        for to in Square::all() {
            out.push(Move::Drop { role, to });
        }
    }
    out
}

/// `check_move` gives the reference's answer, reason included, for every move of every
/// position of random games (checks, pins and drops are frequent in them), and the moves it
/// accepts are the legal moves.
#[test]
fn move_checking_agrees_with_making_the_move() {
    let moves = every_move();
    let (mut legal, mut into_check, mut blocked) = (0u64, 0u64, 0u64);
    for p in random_positions(24, 0x5EED_0107) {
        let generated: HashSet<Move> = p.legal_moves().iter().copied().collect();
        for &m in &moves {
            let fast = p.check_move(m);
            assert_eq!(fast, reference_check(&p, m), "{m:?} in {}", p.to_sfen());
            assert_eq!(
                fast.is_ok(),
                generated.contains(&m),
                "{m:?} in {}",
                p.to_sfen()
            );
            match fast {
                Ok(()) => legal += 1,
                Err(PlayError::LeavesKingInCheck) => into_check += 1,
                Err(PlayError::PathBlocked) => blocked += 1,
                Err(_) => {}
            }
        }
    }
    // The positions test something: legal moves, moves into check, blocked paths.
    assert!(legal > 10_000 && into_check > 1_000 && blocked > 10_000);
}

/// `reaches` is membership in the attack set, for every role, side, source and target, in
/// the occupancies of random positions of both variants.
#[test]
fn reaching_a_square_is_being_in_the_attack_set() {
    for p in random_positions(12, 0x5EED_0108) {
        let occ_s = p.occupied() | p.variant.masks().offboard;
        for role in Role::ALL {
            for color in Color::ALL {
                for from in Square::all() {
                    let set = attacks(color, role, from, occ_s);
                    for to in Square::all() {
                        assert_eq!(
                            reaches(color, role, from, to, occ_s),
                            set.contains(to),
                            "{role:?} {color:?} {from:?} {to:?} in {}",
                            p.to_sfen()
                        );
                    }
                }
            }
        }
    }
}

/// Positions with the cached check state at its edges: every random position rebuilt from its
/// SFEN (so that from_sfen computes the state, checks included), each with the turn passed
/// (the side not to move may then be in check), and hand-made checks, double checks,
/// discovered checks and pins of both variants.
fn edge_positions(games: usize, seed: u64) -> Vec<Position> {
    let sfens = [
        // Double check by a rook on the file and a bishop on the diagonal; the king must move.
        "4k4/9/9/9/4R3B/9/9/9/4K4 w - 1",
        // A lance checks; a bishop pins a silver; a gold in hand may block.
        "4k4/4l4/9/9/9/9/2b6/3S5/4K4 b G 1",
        // Pins on a rank (gold), a file (pawn) and a diagonal (silver), not in check.
        "8k/9/4l4/9/9/1b7/4P4/3S5/r1G1K4 b RBsnp 1",
        // A knight check (no block) with a pinned gold.
        "4k4/9/9/9/9/9/3n5/9/1r1GK4 b P 1",
        // White in check from a dragon two squares away.
        "4k4/9/4+R4/9/9/9/9/9/4K4 w - 1",
        // Mini Shogi: a silver pinned by a rook on the file, a bishop in hand.
        "2k2/5/2s2/5/2R1K w b 1",
        // Mini Shogi: a silver pinned on the diagonal, a rook and a gold in hand.
        "k4/1s3/5/3B1/4K w rg 1",
        // Mini Shogi: double check by a dragon and a horse.
        "4k/5/4+R/5/+B1K2 w - 1",
        // Tsume setups: one side without a king (no king-safety test for it).
        "4k4/9/9/9/9/9/9/9/9 b R2b4g4s4n4l18p 1",
        "9/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1",
        "2k2/5/5/5/5 b RBGSP 1",
    ];
    let mut out = Vec::new();
    for sfen in sfens {
        match Position::from_sfen_with(sfen, SetupOptions::TSUME) {
            Ok(p) => out.push(p),
            Err(e) => panic!("{sfen}: {e}"),
        }
    }
    for p in random_positions(games, seed) {
        match Position::from_sfen_with(&p.to_sfen(), SetupOptions::TSUME) {
            Ok(q) => {
                assert_eq!(q, p, "from_sfen of {}", p.to_sfen());
                out.push(q);
            }
            Err(e) => panic!("{}: {e}", p.to_sfen()),
        }
    }
    let passed: Vec<Position> = out
        .iter()
        .map(|p| {
            let mut q = p.clone();
            q.swap_turn();
            q
        })
        .collect();
    out.extend(passed);
    out
}

/// The fast check (in check or not, pinned or not, dropping or moving) gives the reference's
/// answer for every move that can be written, in positions built by from_sfen and passed
/// with swap_turn as well as reached by moves.
#[test]
fn move_checking_agrees_at_the_edges_of_the_check_state() {
    let moves = every_move();
    let (mut in_check, mut double, mut opponent_checked) = (0u64, 0u64, 0u64);
    let mut into_check = [0u64; 2];
    for p in edge_positions(16, 0x5EED_0109) {
        in_check += u64::from(p.is_check());
        double += u64::from(p.checkers().more_than_one());
        opponent_checked += u64::from(p.opponent_in_check);
        for &m in &moves {
            let fast = p.check_move(m);
            assert_eq!(fast, reference_check(&p, m), "{m:?} in {}", p.to_sfen());
            if fast == Err(PlayError::LeavesKingInCheck) {
                into_check[usize::from(p.is_check())] += 1;
            }
        }
    }
    assert!(
        in_check > 300 && double > 3 && opponent_checked > 300,
        "{in_check} {double} {opponent_checked}"
    );
    // Moves into check both when in check and when not (pinned pieces, king steps).
    assert!(into_check[0] > 2_000 && into_check[1] > 10_000);
}

/// The cached check state and king squares equal the ones computed from scratch after every
/// move of random games (played with play and with play_unchecked), after from_sfen, after
/// swap_turn (twice, and followed by moves), and after set_move_number.
#[test]
fn cached_check_state_is_the_computed_one() {
    let same = |p: &Position, what: &str| {
        assert_eq!(
            (p.checkers, p.opponent_in_check),
            p.check_state(),
            "{what}: {}",
            p.to_sfen()
        );
        assert_eq!(p.is_check(), p.check_state().0.any());
        for c in Color::ALL {
            assert_eq!(
                p.king_square(c),
                p.pieces(c, Role::King).first(),
                "{what}: {}",
                p.to_sfen()
            );
        }
    };
    let mut rng = Rng(0x5EED_010A);
    let mut checked = 0u64;
    for p in edge_positions(30, 0x5EED_010B) {
        same(&p, "position");
        let mut q = p.clone();
        q.set_move_number(p.move_number() + 7);
        same(&q, "set_move_number");
        q.swap_turn();
        same(&q, "swap_turn");
        q.swap_turn();
        same(&q, "swap_turn twice");
        let mut renumbered = p.clone();
        renumbered.set_move_number(p.move_number() + 7);
        assert_eq!(q, renumbered);
        // A few moves on, by play and by play_unchecked in turn.
        let mut r = p.clone();
        for i in 0..4 {
            let moves = r.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            if i % 2 == 0 {
                assert_eq!(r.play(m), Ok(()));
            } else {
                r.play_unchecked(m);
            }
            same(&r, &format!("after {m:?}"));
            checked += u64::from(r.is_check());
        }
    }
    assert!(checked > 100);
}

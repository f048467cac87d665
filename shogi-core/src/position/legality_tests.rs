//! Move checking against the way it used to be done: the target tested on the mover's
//! whole attack set, and king safety by making the move on a copy and asking whether the
//! king is attacked. The fast checks must agree on every move of many random positions.

use super::movegen::reaches;
use super::testgen::random_positions;
use super::{PlayError, Position};
use crate::bitboard::{Bitboard, attacks, pawn_attacks};
use crate::moves::Move;
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

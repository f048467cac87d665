//! One test per rule, each on a position that isolates it.

use shogi_core::{
    Color, DeclarationResult, Game, ImpasseRule, Move, Outcome, PlayError, Position, Role, Square,
    Variant,
};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::from_usi(s).unwrap()
}

fn usi(m: &str) -> Move {
    Move::from_usi(m).unwrap()
}

fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| m.to_usi())
        .collect();
    v.sort();
    v
}

fn refused(p: &Position, m: &str) -> PlayError {
    let mv = usi(m);
    assert!(!p.legal_moves().contains(&mv), "{m} must not be generated");
    p.check_move(mv).expect_err(m)
}

// --- The positions pinned from the lesson the project grew from. ---

#[test]
fn king_in_the_open_reaches_all_eight_squares() {
    let p = pos("4k4/9/9/9/4K4/9/9/9/9 b - 1");
    assert_eq!(
        moves_from(&p, "5e"),
        [
            "5e4d", "5e4e", "5e4f", "5e5d", "5e5f", "5e6d", "5e6e", "5e6f"
        ]
    );
    assert_eq!(p.legal_moves().len(), 8);
}

#[test]
fn silver_in_the_zone_may_promote_or_not() {
    // A sente silver on 5c (inside the zone): every move may promote, including moves that
    // leave the zone (5c4d, 5c6d).
    let p = pos("k8/9/4S4/9/9/9/9/9/8K b - 1");
    assert_eq!(
        moves_from(&p, "5c"),
        [
            "5c4b", "5c4b+", "5c4d", "5c4d+", "5c5b", "5c5b+", "5c6b", "5c6b+", "5c6d", "5c6d+"
        ]
    );
    // And a silver entering the zone from 5d may promote on its way in.
    let p = pos("k8/9/9/4S4/9/9/9/9/8K b - 1");
    assert_eq!(
        moves_from(&p, "5d"),
        [
            "5d4c", "5d4c+", "5d4e", "5d5c", "5d5c+", "5d6c", "5d6c+", "5d6e"
        ]
    );
}

#[test]
fn gold_and_pawn_drops_cover_every_suitable_square() {
    // Sente has a gold and a pawn in hand, unpromoted pawns on files 9 and 3 and a tokin on
    // file 6 (a tokin does not count for nifu).
    let p = pos("4k4/9/3+P5/9/9/6P2/P8/9/4K4 b GP 1");
    let occupied = p.occupied();
    let mut gold = Vec::new();
    let mut pawn = Vec::new();
    for m in p.legal_moves().iter() {
        if let Move::Drop { role, to } = *m {
            match role {
                Role::Gold => gold.push(to),
                Role::Pawn => pawn.push(to),
                r => panic!("unexpected drop of {r:?}"),
            }
        }
    }
    // The oracle, written out: gold anywhere empty; pawn anywhere empty except rank 1 and
    // files 9 and 3.
    let empty: Vec<Square> = Square::all().filter(|s| !occupied.contains(*s)).collect();
    let mut want_pawn: Vec<Square> = empty
        .iter()
        .copied()
        .filter(|s| s.rank() != 1 && s.file() != 9 && s.file() != 3)
        .collect();
    gold.sort();
    pawn.sort();
    want_pawn.sort();
    assert_eq!(gold, empty);
    assert_eq!(gold.len(), 81 - 5);
    assert_eq!(pawn, want_pawn);
    assert!(
        pawn.iter().any(|s| s.file() == 6),
        "the tokin's file takes pawns"
    );
    // 7 files (8,7,6,5,4,2,1) x 8 ranks, minus the occupied 6c (tokin) and 5i (king).
    assert_eq!(pawn.len(), 7 * 8 - 2);
}

#[test]
fn dragon_mate_is_checkmate_and_sente_wins() {
    // Gote king 1a, sente dragon 2b guarded by the gold on 3c: every escape is covered.
    let p = pos("8k/7+R1/6G2/9/9/9/9/9/4K4 w - 1");
    assert!(p.is_check());
    assert!(p.legal_moves().is_empty());
    assert!(p.is_checkmate());
    assert_eq!(
        p.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
    assert_eq!(p.outcome().and_then(|o| o.winner()), Some(Color::Black));
}

#[test]
fn mini_pawn_must_promote_on_the_last_rank() {
    let p = pos("k4/2P2/5/5/4K b - 1");
    assert_eq!(p.variant(), Variant::Mini);
    assert_eq!(moves_from(&p, "3b"), ["3b3a+"]);
    assert_eq!(refused(&p, "3b3a"), PlayError::PromotionRequired);
}

#[test]
fn mini_silver_on_the_second_rank_may_promote_or_not() {
    let p = pos("k4/2S2/5/5/4K b - 1");
    assert_eq!(
        moves_from(&p, "3b"),
        [
            "3b2a", "3b2a+", "3b2c", "3b3a", "3b3a+", "3b4a", "3b4a+", "3b4c"
        ]
    );
}

// --- Movement of each role. ---

#[test]
fn each_role_moves_as_the_rules_say() {
    // One piece at 5e on an otherwise empty board (kings tucked away in corners).
    let cases: &[(&str, &[&str])] = &[
        ("P", &["5d"]),
        ("L", &["5a+", "5b", "5b+", "5c", "5c+", "5d"]),
        ("N", &["4c", "4c+", "6c", "6c+"]),
        ("S", &["4d", "4f", "5d", "6d", "6f"]),
        ("G", &["4d", "4e", "5d", "5f", "6d", "6e"]),
        ("+P", &["4d", "4e", "5d", "5f", "6d", "6e"]),
        ("+L", &["4d", "4e", "5d", "5f", "6d", "6e"]),
        ("+N", &["4d", "4e", "5d", "5f", "6d", "6e"]),
        ("+S", &["4d", "4e", "5d", "5f", "6d", "6e"]),
    ];
    for (piece, want) in cases {
        let p = pos(&format!("9/k8/9/9/4{piece}4/9/9/8K/9 b - 1"));
        let got: Vec<String> = moves_from(&p, "5e")
            .into_iter()
            .map(|m| m[2..].to_string())
            .collect();
        let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(got, want, "{piece}");
    }
    // Sliders on an otherwise empty board (kings on 9b and 1h, off 5e's lines).
    let count =
        |piece: &str| moves_from(&pos(&format!("9/k8/9/9/4{piece}4/9/9/8K/9 b - 1")), "5e").len();
    // 16 targets; promotion possible on 5a, 5b, 5c.
    assert_eq!(count("R"), 16 + 3);
    // 16 targets plus the four diagonal steps; already promoted.
    assert_eq!(count("+R"), 16 + 4);
    // 16 targets; promotion possible on 7c, 8b, 9a, 3c, 2b, 1a.
    assert_eq!(count("B"), 16 + 6);
    assert_eq!(count("+B"), 16 + 4);
}

#[test]
fn white_pieces_move_towards_rank_nine() {
    let p = pos("k8/9/9/9/4n4/9/9/9/8K w - 1");
    assert_eq!(moves_from(&p, "5e"), ["5e4g", "5e4g+", "5e6g", "5e6g+"]);
    let p = pos("k8/9/9/9/4p4/9/9/9/8K w - 1");
    assert_eq!(moves_from(&p, "5e"), ["5e5f"]);
}

#[test]
fn sliders_do_not_jump() {
    let p = pos("k8/9/9/4p4/4R4/9/9/9/8K b - 1");
    assert_eq!(refused(&p, "5e5c"), PlayError::PathBlocked);
    assert!(p.is_legal(usi("5e5d")));
    let p = pos("k8/9/9/9/4L4/9/9/9/8K b - 1");
    assert_eq!(
        refused(&p, "5e5f"),
        PlayError::CannotMoveThere,
        "lances never go back"
    );
    let p = pos("k8/9/9/9/4L4/4P4/9/9/8K b - 1");
    assert_eq!(refused(&p, "5e5f"), PlayError::OwnPieceOnTarget);
}

#[test]
fn knight_jumps_over_pieces() {
    let p = pos("k8/9/9/3ppp3/3PNP3/9/9/9/8K b - 1");
    assert!(p.is_legal(usi("5e4c")));
    assert!(p.is_legal(usi("5e6c+")));
}

// --- Promotion. ---

#[test]
fn forced_promotion_for_pawn_lance_knight() {
    let p = pos("k8/4P4/9/9/9/9/9/9/8K b - 1");
    assert_eq!(refused(&p, "5b5a"), PlayError::PromotionRequired);
    assert!(p.is_legal(usi("5b5a+")));
    let p = pos("k8/9/4L4/9/9/9/9/9/8K b - 1");
    assert_eq!(refused(&p, "5c5a"), PlayError::PromotionRequired);
    assert!(p.is_legal(usi("5c5b")), "a lance on rank 2 can still move");
    let p = pos("k8/9/9/4N4/9/9/9/9/8K b - 1");
    assert_eq!(refused(&p, "5d4b"), PlayError::PromotionRequired);
    assert!(p.is_legal(usi("5d4b+")));
    let p = pos("k8/9/9/9/4N4/9/9/9/8K b - 1");
    assert!(p.is_legal(usi("5e4c")), "a knight on rank 3 can still move");
    // Gote's last ranks are 9 (and 8 for knights).
    let p = pos("k8/9/9/9/9/4n4/9/9/8K w - 1");
    assert_eq!(refused(&p, "5f4h"), PlayError::PromotionRequired);
}

#[test]
fn promotion_only_into_out_of_or_within_the_zone() {
    let p = pos("k8/9/9/9/4S4/9/9/9/8K b - 1");
    assert_eq!(refused(&p, "5e5d+"), PlayError::PromotionNotAllowed);
    let p = pos("k8/9/9/9/4G4/4S4/9/9/8K b - 1");
    assert_eq!(refused(&p, "5e5d+"), PlayError::PromotionNotAllowed);
    let p = pos("k8/9/4G4/9/9/9/9/9/8K b - 1");
    assert_eq!(
        refused(&p, "5c5b+"),
        PlayError::PromotionNotAllowed,
        "gold never promotes"
    );
    let p = pos("k8/9/4+S4/9/9/9/9/9/8K b - 1");
    assert_eq!(refused(&p, "5c5b+"), PlayError::PromotionNotAllowed);
    let p = pos("k8/9/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(refused(&p, "5i5h+"), PlayError::PromotionNotAllowed);
    let p = pos("k8/9/9/4K4/9/9/9/9/9 b - 1");
    assert_eq!(
        refused(&p, "5d5c+"),
        PlayError::PromotionNotAllowed,
        "king never promotes"
    );
}

// --- Captures and hands. ---

#[test]
fn captured_pieces_go_to_hand_unpromoted() {
    let mut p = pos("k8/9/9/4+r4/4S4/9/9/9/8K b - 1");
    p.play(usi("5e5d")).unwrap();
    assert_eq!(p.hand(Color::Black).count(Role::Rook), 1);
    assert_eq!(p.hand(Color::Black).count(Role::Dragon), 0);
    assert!(p.to_sfen().starts_with("k8/9/9/4S4/9/9/9/9/8K w R "));
    // And the rook can be dropped next turn.
    p.play(usi("9a9b")).unwrap();
    assert!(p.is_legal(usi("R*5e")));
}

#[test]
fn drops_only_on_empty_squares_and_only_from_hand() {
    let p = pos("k8/9/9/9/4p4/9/9/9/8K b S 1");
    assert_eq!(refused(&p, "S*5e"), PlayError::DropOnOccupied);
    assert_eq!(refused(&p, "G*5d"), PlayError::NotInHand);
    assert!(p.is_legal(usi("S*5d")));
}

#[test]
fn nifu_forbids_a_second_unpromoted_pawn_on_a_file() {
    let p = pos("k8/9/9/9/9/9/4P4/9/8K b P 1");
    assert_eq!(refused(&p, "P*5c"), PlayError::Nifu);
    assert!(p.is_legal(usi("P*4c")));
    // A tokin does not count.
    let p = pos("k8/9/9/9/9/9/4+P4/9/8K b P 1");
    assert!(p.is_legal(usi("P*5c")));
    // Gote's pawns do not count for sente.
    let p = pos("k8/9/9/9/9/9/4p4/9/8K b P 1");
    assert!(p.is_legal(usi("P*5c")));
}

#[test]
fn no_drop_where_the_piece_could_never_move() {
    let p = pos("k8/9/9/9/9/9/9/9/8K b PLN 1");
    assert_eq!(refused(&p, "P*5a"), PlayError::DeadPiece);
    assert_eq!(refused(&p, "L*5a"), PlayError::DeadPiece);
    assert_eq!(refused(&p, "N*5a"), PlayError::DeadPiece);
    assert_eq!(refused(&p, "N*5b"), PlayError::DeadPiece);
    assert!(p.is_legal(usi("L*5b")));
    assert!(p.is_legal(usi("N*5c")));
    let p = pos("K8/9/9/9/9/9/9/9/8k w pln 1");
    assert_eq!(refused(&p, "P*5i"), PlayError::DeadPiece);
    assert_eq!(refused(&p, "N*5h"), PlayError::DeadPiece);
}

#[test]
fn pawn_drop_mate_is_illegal_but_pawn_drop_check_is_fine() {
    // Gote king 1a boxed in by its own knight on 2a; the silver on 2c guards 1b.
    let p = pos("7nk/9/7S1/9/9/9/9/9/K8 b P 1");
    assert_eq!(refused(&p, "P*1b"), PlayError::PawnDropMate);
    // The same with a gold instead of the knight: the gold can take the pawn, so it is check only.
    let p = pos("7gk/9/7S1/9/9/9/9/9/K8 b P 1");
    assert!(p.is_legal(usi("P*1b")));
    // A pinned defender cannot take the pawn: mate again.
    let p = pos("R6gk/9/7S1/9/9/9/9/9/K8 b P 1");
    assert_eq!(refused(&p, "P*1b"), PlayError::PawnDropMate);
}

#[test]
fn pawn_push_mate_is_legal() {
    let p = pos("7nk/9/7SP/9/9/9/9/9/K8 b - 1");
    let mut after = p.clone();
    after.play(usi("1c1b")).unwrap();
    assert!(after.is_checkmate());
}

#[test]
fn mini_pawn_drop_mate_is_illegal_too() {
    let p = pos("3rk/5/3S1/5/K4 b P 1");
    assert_eq!(refused(&p, "P*1b"), PlayError::PawnDropMate);
}

// --- King safety. ---

#[test]
fn the_king_never_steps_onto_an_attacked_square() {
    // Gote rook on 4a attacks file 4.
    let p = pos("5r2k/9/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(refused(&p, "5i4i"), PlayError::LeavesKingInCheck);
    assert_eq!(refused(&p, "5i4h"), PlayError::LeavesKingInCheck);
    assert_eq!(moves_from(&p, "5i"), ["5i5h", "5i6h", "5i6i"]);
}

#[test]
fn the_king_cannot_take_a_guarded_piece() {
    let p = pos("8k/9/9/9/9/9/4g4/4g4/4K4 b - 1");
    assert_eq!(refused(&p, "5i5h"), PlayError::LeavesKingInCheck);
}

#[test]
fn pinned_pieces_keep_to_the_pin_line() {
    // Gote rook on 5a pins the sente gold on 5e against the king on 5i.
    let p = pos("4r3k/9/9/9/4G4/9/9/9/4K4 b - 1");
    assert_eq!(moves_from(&p, "5e"), ["5e5d", "5e5f"]);
    assert_eq!(refused(&p, "5e4e"), PlayError::LeavesKingInCheck);
    // A pinned lance may take its pinner.
    let p = pos("4r3k/9/9/9/4L4/9/9/9/4K4 b - 1");
    assert!(p.is_legal(usi("5e5a+")));
    // Bishop pins along a diagonal: the silver may slide along it, not off it.
    let p = pos("b7k/9/9/9/4S4/9/9/9/8K b - 1");
    assert_eq!(moves_from(&p, "5e"), ["5e4f", "5e6d"]);
    let p = pos("8k/9/9/9/9/9/2b6/3S5/4K4 b - 1");
    assert_eq!(moves_from(&p, "6h"), ["6h7g"]);
}

#[test]
fn checks_are_answered_by_capture_block_or_king_move() {
    // Gote rook on 5a checks the king on 5i; sente has a gold on 7h and a silver in hand.
    let p = pos("4r3k/9/9/9/9/9/9/2G6/4K4 b S 1");
    assert!(p.is_check());
    for m in p.legal_moves().iter() {
        match *m {
            Move::Drop { to, .. } => {
                assert_eq!(to.file(), 5, "drops must interpose: {m:?}");
                assert!(to.rank() > 1 && to.rank() < 9);
            }
            Move::Normal { from, to, .. } => {
                if from != sq("5i") {
                    assert_eq!(to.file(), 5, "non-king moves must block or capture: {m:?}");
                }
            }
        }
    }
    // Seven interposing drops (5b..5h); the gold on 7h cannot reach file 5.
    let drops = p.legal_moves().iter().filter(|m| m.is_drop()).count();
    assert_eq!(drops, 7);
}

#[test]
fn double_check_allows_only_king_moves() {
    // Knight on 4g and bishop on 1e both check the king on 5i.
    let p = pos("4k4/9/9/9/8b/9/5n3/9/4K4 b GSPr 1");
    assert_eq!(p.checkers().count(), 2);
    assert!(p.legal_moves().iter().all(|m| m.from() == Some(sq("5i"))));
    assert_eq!(p.legal_moves().len(), 4);
}

#[test]
fn no_legal_move_without_check_is_a_loss_not_a_draw() {
    // Sente's lone king on 9i is not in check, but the gote gold on 8g covers 8h and 9h and
    // the gote silver on 7h covers 8i.
    let p = pos("8k/9/9/9/9/9/1g7/2s6/K8 b - 1");
    assert!(!p.is_check());
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.outcome(),
        Some(Outcome::NoLegalMoves {
            winner: Color::White
        })
    );
    // Mini Shogi too: sente's king on 5e; the gote rook on 4a covers 4d and 4e, the gote
    // gold on 5c covers 5d.
    let mini = pos("1r2k/5/g4/5/K4 b - 1");
    assert!(!mini.is_check());
    assert_eq!(mini.legal_moves().len(), 0);
    assert_eq!(
        mini.outcome(),
        Some(Outcome::NoLegalMoves {
            winner: Color::White
        })
    );
}

#[test]
fn play_names_each_reason() {
    let p = Position::startpos(Variant::Standard);
    assert_eq!(refused(&p, "5e5d"), PlayError::NoPiece);
    assert_eq!(refused(&p, "3c3d"), PlayError::NotYourPiece);
    assert_eq!(refused(&p, "9i8i"), PlayError::OwnPieceOnTarget);
    assert_eq!(refused(&p, "2h2c"), PlayError::PathBlocked);
    assert_eq!(refused(&p, "7g7e"), PlayError::CannotMoveThere);
    assert_eq!(refused(&p, "P*5e"), PlayError::NotInHand);
    let mini = Position::startpos(Variant::Mini);
    assert_eq!(refused(&mini, "9i9h"), PlayError::OffBoard);
    assert_eq!(refused(&mini, "1e1f"), PlayError::OffBoard);
    // The refused move changes nothing.
    let mut q = p.clone();
    assert!(q.play(usi("2h2c")).is_err());
    assert_eq!(q, p);
}

// --- Repetition and declaration. ---

#[test]
fn fourfold_repetition_is_a_draw() {
    let mut g = Game::new(Position::startpos(Variant::Standard));
    for _ in 0..3 {
        for m in ["5i5h", "5a5b", "5h5i", "5b5a"] {
            assert_eq!(g.outcome(), None);
            g.play(usi(m)).unwrap();
        }
    }
    let r = g.repetition().expect("fourfold repetition");
    assert_eq!((r.first_ply, r.fourth_ply), (0, 12));
    assert_eq!(r.perpetual_checker, None);
    assert_eq!(g.outcome(), Some(Outcome::Repetition));
    assert_eq!(g.play(usi("5i5h")), Err(PlayError::GameOver));
}

#[test]
fn three_occurrences_are_not_yet_repetition() {
    let mut g = Game::new(Position::startpos(Variant::Standard));
    for _ in 0..2 {
        for m in ["5i5h", "5a5b", "5h5i", "5b5a"] {
            g.play(usi(m)).unwrap();
        }
    }
    g.play(usi("5i5h")).unwrap();
    assert_eq!(g.repetition(), None);
    assert_eq!(g.outcome(), None);
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Sente's rook checks with every move; gote's king shuffles between 1a and 2a.
    let mut g = Game::new(pos("8k/9/9/9/9/9/9/9/K6R1 b - 1"));
    for _ in 0..3 {
        for m in ["2i1i", "1a2a", "1i2i", "2a1a"] {
            g.play(usi(m)).unwrap();
        }
    }
    let r = g.repetition().unwrap();
    assert_eq!(r.perpetual_checker, Some(Color::Black));
    assert_eq!(
        g.outcome(),
        Some(Outcome::PerpetualCheck {
            winner: Color::White
        })
    );
}

#[test]
fn a_cycle_with_quiet_moves_is_a_plain_draw() {
    // The start position comes back after every four plies: twice through a cycle of checks
    // (plies 4 and 8), then through a cycle in which sente's king makes quiet moves (ply 12).
    // Between the first and the fourth occurrence sente did not check every time: a draw.
    let mut g = Game::new(pos("8k/9/9/9/9/9/9/9/K6R1 b - 1"));
    let checks = ["2i1i", "1a2a", "1i2i", "2a1a"];
    let quiet = ["9i9h", "1a1b", "9h9i", "1b1a"];
    for m in checks.iter().chain(checks.iter()).chain(quiet.iter()) {
        assert_eq!(g.repetition(), None);
        g.play(usi(m)).unwrap();
    }
    let r = g.repetition().unwrap();
    assert_eq!((r.first_ply, r.fourth_ply), (0, 12));
    assert_eq!(r.perpetual_checker, None);
    assert_eq!(g.outcome(), Some(Outcome::Repetition));
}

#[test]
fn entering_king_declaration_points() {
    // Sente: king on 4b, 12 pieces in the camp (4 golds, 4 silvers: 8 points; 2 rooks and 2
    // bishops: 20 points) = 28 points, not in check.
    let p = pos("GGGGSSSS1/RRBB1K3/9/9/9/9/9/9/4k4 b - 1");
    let d = p.declaration(ImpasseRule::Points27);
    assert!(d.king_in_zone && !d.in_check);
    assert_eq!(d.pieces_in_zone, 12);
    assert_eq!(d.points, 28);
    assert_eq!(d.result, DeclarationResult::Win);
    assert_eq!(
        p.declaration(ImpasseRule::Points24).result,
        DeclarationResult::Draw
    );
    // One piece fewer in the camp: 27 points is not enough for sente under the 27 rule.
    let p = pos("GGGGSSS2/RRBB1K3/9/9/9/9/9/9/4k4 b S 1");
    let d = p.declaration(ImpasseRule::Points27);
    assert_eq!((d.pieces_in_zone, d.points), (11, 28));
    assert_eq!(d.result, DeclarationResult::Win, "pieces in hand count");
    let p = pos("GGGGSS3/RRBB1K3/9/9/9/9/9/9/4k4 b - 1");
    assert_eq!(
        p.declaration(ImpasseRule::Points27).result,
        DeclarationResult::Lose
    );
    // King outside the camp: lose whatever the points.
    let p = pos("GGGGSSSS1/RRBB5/5K3/9/9/9/9/9/4k4 b - 1");
    assert!(p.declaration(ImpasseRule::Points27).king_in_zone);
    let p = pos("GGGGSSSS1/RRBB5/9/5K3/9/9/9/9/4k4 b - 1");
    assert_eq!(
        p.declaration(ImpasseRule::Points27).result,
        DeclarationResult::Lose
    );
}

//! SFEN, USI and setup validation: round trips, located errors, and no panics on junk.

use shogi_core::{
    Color, Handicap, Move, Piece, Position, Role, Setup, SetupOptions, SetupProblem, SfenField,
    Square, Variant, parse_usi_position,
};

#[test]
fn squares_know_their_names() {
    let s = Square::from_usi("7g").unwrap();
    assert_eq!((s.file(), s.rank()), (7, 7));
    assert_eq!(s.csa(), "77");
    assert_eq!(s.japanese(), "７七");
    assert_eq!(Square::from_csa("76").unwrap().usi(), "7f");
    assert_eq!(Square::from_usi("1a").unwrap().index(), 0);
    assert_eq!(Square::from_usi("9i").unwrap().index(), 80);
    assert_eq!(Square::from_usi("0a"), None);
    assert_eq!(Square::from_usi("1j"), None);
    assert_eq!(Square::from_csa("00"), None);
    assert_eq!(std::mem::size_of::<Option<Square>>(), 1);
}

#[test]
fn roles_know_their_names() {
    for r in Role::ALL {
        assert_eq!(Role::from_csa(r.csa()), Some(r));
        assert_eq!(
            r.unpromote().promote().map(|p| p == r || !r.is_promoted()),
            r.unpromote().promote().map(|_| true)
        );
    }
    assert_eq!(Role::Dragon.kanji(), "龍");
    assert_eq!(Role::PromotedSilver.kanji_short(), "全");
    assert_eq!(Role::Horse.sfen(), "+B");
    assert_eq!(Piece::new(Color::White, Role::Tokin).sfen(), "+p");
    assert_eq!(Piece::new(Color::Black, Role::King).csa(), "+OU");
    assert!(!Role::Gold.can_promote() && !Role::King.can_promote());
}

#[test]
fn sfen_round_trips_and_canonical_hands() {
    let cases = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "rbsgk/4p/5/P4/KGSBR b - 1",
        "1b1gk/3rp/5/R4/+s1K2 w bgsp 1",
    ];
    for s in cases {
        assert_eq!(Position::from_sfen(s).unwrap().to_sfen(), s);
    }
    // Any hand order and explicit counts are read; the writer uses R B G S N L P.
    let p = Position::from_sfen(
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w 5pG1R1g1s1n 1",
    )
    .unwrap();
    assert!(p.to_sfen().ends_with(" w RGgsn5p 1"));
    // A leading "sfen", missing hands and move number.
    let p = Position::from_sfen("sfen rbsgk/4p/5/P4/KGSBR b").unwrap();
    assert_eq!(p.to_sfen(), "rbsgk/4p/5/P4/KGSBR b - 1");
    assert_eq!(p.variant(), Variant::Mini);
}

#[test]
fn sfen_errors_name_the_field_and_byte() {
    let err = |s: &str| Position::from_sfen(s).unwrap_err();
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1");
    assert_eq!((e.field, e.position), (SfenField::Board, 56));
    assert!(e.to_string().contains("'X'"), "{e}");
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1");
    assert_eq!((e.field, e.position), (SfenField::Side, 58));
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1");
    assert_eq!((e.field, e.position), (SfenField::Hands, 60));
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0");
    assert_eq!((e.field, e.position), (SfenField::MoveNumber, 62));
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 extra");
    assert_eq!(e.field, SfenField::Trailing);
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1");
    assert!(e.to_string().contains("8 ranks"), "{e}");
    let e = err("lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert!(e.to_string().contains("rank 2 has 8 squares"), "{e}");
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL b - 1");
    assert!(e.to_string().contains("king cannot be promoted"), "{e}");
    let e = err("");
    assert_eq!(e.field, SfenField::Board);
}

#[test]
fn setup_problems_are_each_named() {
    let problems = |s: &str| {
        Position::from_sfen(s)
            .unwrap_err()
            .setup
            .expect("a setup problem")
            .problems
    };
    assert_eq!(
        problems("9/9/9/9/9/9/9/9/4K4 b - 1"),
        [SetupProblem::MissingKing(Color::White)]
    );
    assert_eq!(
        problems("k3k4/9/9/9/9/9/9/9/4K4 b - 1"),
        [SetupProblem::ExtraKing(Color::White)]
    );
    assert_eq!(
        problems("k8/9/9/9/9/4P4/4P4/9/4K4 b - 1"),
        [SetupProblem::Nifu {
            color: Color::Black,
            file: 5
        }]
    );
    assert_eq!(
        problems("k3P4/9/9/9/9/9/9/9/4K4 b - 1"),
        [SetupProblem::DeadPiece {
            square: Square::from_usi("5a").unwrap(),
            piece: Piece::new(Color::Black, Role::Pawn)
        }]
    );
    assert!(matches!(
        problems("k8/9/9/9/9/9/9/4n4/4K4 w - 1")[..],
        [SetupProblem::DeadPiece { .. }]
    ));
    assert_eq!(
        problems("k8/9/9/9/9/9/9/9/4K4 b 3R 1"),
        [SetupProblem::TooManyPieces {
            role: Role::Rook,
            count: 3,
            max: 2
        }]
    );
    // Gote in check with sente to move.
    assert_eq!(
        problems("4k4/9/9/9/4R4/9/9/9/4K4 b - 1"),
        [SetupProblem::OpponentInCheck(Color::White)]
    );
    // Several at once, all named.
    assert_eq!(problems("9/9/9/9/9/4P4/4P4/9/9 b - 1").len(), 3);
    // Mini Shogi has no lances or knights.
    assert_eq!(
        problems("rbsgk/4p/5/P4/KGSBR b L 1"),
        [SetupProblem::RoleNotInVariant(Role::Lance)]
    );
}

#[test]
fn tsume_options_relax_kings_and_piece_counts() {
    let s = "7nk/9/7S1/9/9/9/9/9/9 b 3R 1";
    assert!(Position::from_sfen(s).is_err());
    let p = Position::from_sfen_with(s, SetupOptions::TSUME).unwrap();
    // 78 rook drops on the empty squares and 10 silver moves (5 squares, each with or
    // without promotion: the silver stands in the zone).
    assert_eq!(p.legal_moves().len(), 78 + 10);
    // Without a sente king, sente's moves are never refused for king safety.
    assert!(p.is_legal(Move::from_usi("R*1b").unwrap()));
}

#[test]
fn setups_can_be_built_by_hand() {
    let mut s = Setup::empty(Variant::Mini);
    s.set_piece(
        Square::from_usi("1a").unwrap(),
        Some(Piece::new(Color::White, Role::King)),
    );
    s.set_piece(
        Square::from_usi("5e").unwrap(),
        Some(Piece::new(Color::Black, Role::King)),
    );
    s.hands[0].set(Role::Gold, 1);
    let p = Position::from_setup(s.clone(), SetupOptions::default()).unwrap();
    assert_eq!(p.to_sfen(), "4k/5/5/5/K4 b G 1");
    assert_eq!(p.to_setup(), s);
    // A piece off the 5x5 board is named.
    s.set_piece(
        Square::from_usi("9i").unwrap(),
        Some(Piece::new(Color::Black, Role::Gold)),
    );
    let e = Position::from_setup(s, SetupOptions::default()).unwrap_err();
    assert_eq!(
        e.problems,
        [SetupProblem::OffBoard(Square::from_usi("9i").unwrap())]
    );
}

#[test]
fn usi_moves_parse_and_print() {
    for m in ["7g7f", "8h2b+", "P*5e", "R*1a", "1a1b"] {
        assert_eq!(Move::from_usi(m).unwrap().to_usi(), m);
    }
    for bad in [
        "", "7g", "7g7", "7g7f=", "7g7g", "K*5e", "p*5e", "+*5e", "P*5j", "0a1a", "7g7f++",
    ] {
        assert!(Move::from_usi(bad).is_err(), "{bad}");
    }
    assert_eq!(Move::from_usi("7g7f=").unwrap_err().position, 4);
}

#[test]
fn usi_position_lines() {
    let p =
        parse_usi_position("position startpos moves 7g7f 3c3d 8h2b+", Variant::Standard).unwrap();
    assert_eq!(p.moves.len(), 3);
    assert_eq!(
        p.end.to_sfen(),
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    );
    let p = parse_usi_position(
        "sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d",
        Variant::Standard,
    )
    .unwrap();
    assert_eq!(p.end.variant(), Variant::Mini);
    let p = parse_usi_position("startpos moves 5e4d", Variant::Mini).unwrap();
    assert_eq!(p.moves.len(), 1);
    // Located errors.
    let e = parse_usi_position("position startpos moves 7g7f 3c3d 2b2c", Variant::Standard)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "byte 34: move 3 '2b2c': the piece belongs to the opponent"
    );
    let e = parse_usi_position("position startpos moves 7g7f 3c3", Variant::Standard).unwrap_err();
    assert!(e.to_string().starts_with("byte 29: move 2 '3c3'"), "{e}");
    let e =
        parse_usi_position("position sfen lnsgkgsnl/9 b - 1 moves", Variant::Standard).unwrap_err();
    assert!(e.to_string().contains("2 ranks"), "{e}");
}

#[test]
fn handicaps_have_positions_and_names() {
    assert_eq!(Handicap::ALL.len(), 17);
    for h in Handicap::ALL {
        assert_eq!(Handicap::from_japanese(h.japanese()), Some(h));
        assert_eq!(Handicap::from_jkf(h.jkf()), Some(h));
        match h {
            Handicap::Other => assert!(h.sfen().is_none()),
            Handicap::Even => {
                assert_eq!(h.position().unwrap(), Position::startpos(Variant::Standard))
            }
            _ => {
                let p = h.position().unwrap_or_else(|| panic!("{}", h.english()));
                // The handicap giver (gote) moves first and has pieces removed.
                assert_eq!(p.side_to_move(), Color::White);
                assert!(p.by_color(Color::White).count() < 20, "{h:?}");
                assert_eq!(p.by_color(Color::Black).count(), 20);
                assert_eq!(Handicap::from_sfen(&p.to_sfen()), Some(h));
            }
        }
    }
    assert_eq!(Handicap::from_japanese("香落"), Some(Handicap::Lance));
    assert_eq!(Handicap::from_japanese("詰将棋"), None);
}

/// Junk of every shape: never a panic, always an error or a valid position.
#[test]
fn junk_never_panics() {
    let mut rng = shogi_testkit::Rng::new(0x1234_5678_9abc_def1);
    let mut next = || rng.next();
    let base = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
    let alphabet = b"0123456789/+-* bwKkRrBbGgSsNnLlPpxX\xe3\x81\x82";
    for _ in 0..20000 {
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..(next() % 4 + 1) {
            let i = (next() as usize) % bytes.len();
            match next() % 3 {
                0 => bytes[i] = alphabet[(next() as usize) % alphabet.len()],
                1 => {
                    bytes.remove(i);
                }
                _ => bytes.insert(i, alphabet[(next() as usize) % alphabet.len()]),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(p) = Position::from_sfen(&text) {
            // A valid position: its moves generate and play.
            for m in p.legal_moves().iter() {
                let mut q = p.clone();
                q.play(*m).unwrap();
            }
        }
        let head: String = text.chars().take(6).collect();
        let _ = Move::from_usi(&head);
        let _ = parse_usi_position(&text, Variant::Standard);
    }
}

#[test]
fn permissive_setups_allow_puzzle_diagrams() {
    // Nine gote pawns on file 2, one of them dead on 2i.
    let s = "4k4/7p1/7p1/7p1/7p1/7p1/7p1/7p1/4K2p1 b - 1";
    let e = Position::from_sfen_with(s, SetupOptions::TSUME).unwrap_err();
    assert!(
        e.to_string().contains("nifu") && e.to_string().contains("dead piece"),
        "{e}"
    );
    let p = Position::from_sfen_with(s, SetupOptions::PERMISSIVE).unwrap();
    // The dead pawn has no move; the others push (2h takes nothing: 2i is its own pawn).
    let mut q = p.clone();
    q.swap_turn();
    let pawn_moves = q
        .legal_moves()
        .iter()
        .filter(|m| m.from().is_some_and(|f| f.file() == 2))
        .count();
    assert_eq!(
        pawn_moves, 0,
        "every gote pawn on file 2 is blocked or dead"
    );
    assert!(!p.legal_moves().is_empty());
}

#[test]
fn legal_moves_to_one_square() {
    let p = Position::startpos(Variant::Standard);
    let to = Square::from_usi("7f").unwrap();
    let v: Vec<String> = p.legal_moves_to(to).iter().map(|m| m.to_usi()).collect();
    assert_eq!(v, ["7g7f"]);
    let p = Position::from_sfen("k8/9/9/9/9/9/9/9/8K b GS 1").unwrap();
    assert_eq!(p.legal_moves_to(Square::from_usi("5e").unwrap()).len(), 2);
}

#[test]
fn usi_move_errors_say_why() {
    use shogi_core::{Square, UsiMoveErrorKind as K};
    let kind = |s: &str| Move::from_usi(s).unwrap_err().kind;
    assert_eq!(kind("7g"), K::TooShort);
    assert_eq!(kind("K*5e"), K::DropRole);
    assert_eq!(kind("P*5j"), K::Destination);
    assert_eq!(kind("0a1a"), K::Source);
    assert_eq!(kind("7g7f++"), K::Trailing);
    assert_eq!(kind("P*5e+"), K::Trailing);
    let square = Square::from_usi("7g").unwrap();
    assert_eq!(
        kind("7g7g+"),
        K::SameSquare {
            square,
            promote: true
        }
    );
}

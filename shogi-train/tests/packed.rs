//! Training-data codecs: the test vectors of `shared/TRAINING-FORMATS.md` (cshogi 1.1.0 output)
//! byte for byte, error cases, and round trips over random games.

use shogi_core::{Color, Handicap, Move, Position, Role, Setup, SetupOptions, Square, Variant};
use shogi_testkit::Rng;
use shogi_train::{
    DecodeError, EncodeError, GameResult, Hcpe, Move16Format, PackedSfenValue, PositionFormat,
    RelativeResult,
};

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn arr32(v: &[u8]) -> [u8; 32] {
    v.try_into().unwrap()
}

/// (SFEN without move number, hcp hex, psfen hex): section 6 of TRAINING-FORMATS.md.
const VECTORS: &[(&str, &str, &str)] = &[
    (
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
        "58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c",
        "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c",
    ),
    (
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -",
        "59a449210cd757217e8e4d212caf427814c2ab109e4d112cd75f213e8e49210c",
        "59a451220ceb67227e9653221caf447824c22b119e53121ceb6f223e9651220c",
    ),
    (
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LN1GKGSNL b Bb",
        "58a449210cd756889f0345585e85f0288457213c9b2270fd15c2312984e1f36d",
        "58a451220ceb99889f0549385e89f0488457223ca724b0fe26c2324a84e1f15c",
    ),
    (
        "ln1gk2nl/1r3+B1s1/p1ppppppp/1p7/9/2P6/PP1PPPPPP/1+r7/L1SGKGSNL w Ns",
        "59a449210cd756080785b0f82c844721bc0ae1a10896eb4f11ff2685308cda1f",
        "59a451220ceb99080b8970f84a844722bc12e121098ef55712ff46893094b95f",
    ),
    (
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p",
        "582400000000000000000000c228e7f3234992244992648c71ce596bbdf77eff",
        "5824000000000000000000004219e7f1214992244992648cb1d63ae7bcf73ebf",
    ),
    (
        "4k4/+P+L+N+S+B+R3/9/9/9/9/9/+p+l+n+s+b+r3/4K4 b 2GSNL8P2gsnl8p",
        "5824000000f805ff3ec1b715ec9ce0660433091a00004018e51c9224c938ebbd",
        "5824000000f803ffbec0b70bdc6c60670233051a00004028e31c9224c958e7bd",
    ),
    (
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
        "59a449210c9742fc1c9b42585e85f0288457213c9b42582e85f8382685303c5e",
        "59a451220cab44fc2ca744385e89f0488457223ca744385689f858468930bc7e",
    ),
];

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap()
}

fn board_sfen(p: &Position) -> String {
    // The SFEN without its move number (packed positions do not hold it).
    let s = p.to_sfen();
    s[..s.rfind(' ').unwrap()].to_string()
}

#[test]
fn position_vectors_byte_for_byte() {
    for &(sfen, hcp, psfen) in VECTORS {
        let setup = Setup::from_sfen(sfen).unwrap();
        for (format, want) in [
            (PositionFormat::Hcp, hcp),
            (PositionFormat::PackedSfen, psfen),
        ] {
            let mut got = [0u8; 32];
            format.encode_setup(&setup, &mut got).unwrap();
            assert_eq!(got.to_vec(), hex(want), "{format:?} encode_setup {sfen}");
            assert_eq!(format.decode_setup(&got).unwrap(), setup);
            let p = match Position::from_sfen(sfen) {
                Ok(p) => p,
                Err(e) => {
                    // "every promoted kind" has gote's king next to a sente horse with sente
                    // to move: not a legal position, so decode says so.
                    assert!(e.to_string().contains("gote is in check"), "{e}");
                    let err = format.decode(&got).unwrap_err();
                    assert!(matches!(err, DecodeError::Impossible(_)), "{err:?}");
                    continue;
                }
            };
            let got = format.encode_to_array(&p).unwrap();
            assert_eq!(got.to_vec(), hex(want), "{format:?} encode {sfen}");
            let back = format.decode(&arr32(&hex(want))).unwrap();
            assert_eq!(board_sfen(&back), sfen, "{format:?} decode {sfen}");
            assert_eq!(back.move_number(), 1);
        }
    }
}

#[test]
fn yaneuraou_unit_test_vector_prefix() {
    // The first YaneuraOu PackedSfen unit-test vector starts 89,164,81,34,12,171,68,252.
    let p = pos("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -");
    let b = PositionFormat::PackedSfen.encode_to_array(&p).unwrap();
    assert_eq!(&b[..8], &[89, 164, 81, 34, 12, 171, 68, 252]);
}

/// (USI, cshogi move16, YaneuraOu Move16, SFEN of a position where the move is legal).
const MOVES: &[(&str, u16, u16, &str)] = &[
    (
        "7g7f",
        0x1e3b,
        0x1e3b,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
    ),
    (
        "2g2f",
        0x078e,
        0x078e,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
    ),
    (
        "3c3d",
        0x0a15,
        0x0a15,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -",
    ),
    (
        "8h2b+",
        0x630a,
        0xa30a,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -",
    ),
    (
        "8h2b",
        0x230a,
        0x230a,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -",
    ),
    (
        "P*5e",
        0x28a8,
        0x40a8,
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p",
    ),
    (
        "L*5e",
        0x2928,
        0x4128,
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p",
    ),
    (
        "N*5e",
        0x29a8,
        0x41a8,
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p",
    ),
    (
        "S*5e",
        0x2a28,
        0x4228,
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p",
    ),
    (
        "G*5e",
        0x2ba8,
        0x43a8,
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p",
    ),
    (
        "B*5e",
        0x2aa8,
        0x42a8,
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p",
    ),
    (
        "R*5e",
        0x2b28,
        0x4328,
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p",
    ),
    (
        "P*5e",
        0x28a8,
        0x40a8,
        "4k4/9/9/9/9/9/9/9/4K4 w rbgsnlpRBGSNLP16p",
    ),
    (
        "G*1a",
        0x2b80,
        0x4380,
        "4k4/9/9/9/9/9/9/9/4K4 w rbgsnlpRBGSNLP16p",
    ),
];

#[test]
fn move_vectors_both_encodings() {
    for &(usi, cs, yo, sfen) in MOVES {
        let m = Move::from_usi(usi).unwrap();
        let p = pos(sfen);
        assert_eq!(Move16Format::Cshogi.encode(m).unwrap(), cs, "{usi}");
        assert_eq!(Move16Format::YaneuraOu.encode(m).unwrap(), yo, "{usi}");
        assert_eq!(Move16Format::Cshogi.decode(cs, &p).unwrap(), m, "{usi}");
        assert_eq!(Move16Format::YaneuraOu.decode(yo, &p).unwrap(), m, "{usi}");
        assert_eq!(
            Move16Format::Cshogi.convert(cs, Move16Format::YaneuraOu),
            Ok(yo)
        );
        assert_eq!(
            Move16Format::YaneuraOu.convert(yo, Move16Format::Cshogi),
            Ok(cs)
        );
    }
}

#[test]
fn entry_vectors() {
    let p = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
    let m = Move::from_usi("3c3d").unwrap();
    let e = Hcpe::new(&p, -123, Some(m), GameResult::WhiteWin).unwrap();
    let mut want = hex(VECTORS[1].1);
    want.extend(hex("85ff150a0200"));
    assert_eq!(e.to_bytes().to_vec(), want);
    let back = Hcpe::from_bytes(&want.clone().try_into().unwrap()).unwrap();
    assert_eq!(back, e);
    let bp = back.position().unwrap();
    assert_eq!(board_sfen(&bp), board_sfen(&p));
    assert_eq!(back.best_move(&bp).unwrap(), Some(m));

    let e = PackedSfenValue::new(&p, -123, Some(m), GameResult::WhiteWin).unwrap();
    assert_eq!(e.game_ply, 2);
    assert_eq!(e.game_result, RelativeResult::Win);
    let mut want = hex(VECTORS[1].2);
    want.extend(hex("85ff150a02000100"));
    assert_eq!(e.to_bytes().to_vec(), want);
    let back = PackedSfenValue::from_bytes(&want.clone().try_into().unwrap()).unwrap();
    assert_eq!(back, e);
    assert_eq!(back.position().unwrap(), p);
    assert_eq!(back.best_move(&p).unwrap(), Some(m));
    assert_eq!(back.absolute_result(), GameResult::WhiteWin);
}

#[test]
fn result_conventions() {
    use GameResult::*;
    // hcpe_to_psv: 1 if turn == gameResult-1, -1 if turn == 2-gameResult, else 0.
    for r in [Draw, BlackWin, WhiteWin] {
        for side in Color::ALL {
            let rel = r.relative_to(side);
            let t = side as i32;
            let g = r.to_byte() as i32;
            let want = if t == g - 1 {
                1
            } else if t == 2 - g {
                -1
            } else {
                0
            };
            assert_eq!(rel.to_byte() as i32, want, "{r:?} {side:?}");
            assert_eq!(rel.absolute(side), r);
        }
    }
    assert_eq!(GameResult::from_byte(3), None);
    assert_eq!(RelativeResult::from_byte(2), None);
    let mut b = [0u8; 38];
    b[36] = 5;
    assert_eq!(Hcpe::from_bytes(&b), Err(DecodeError::BadGameResult(5)));
    let mut b = [0u8; 40];
    b[38] = 0x80;
    assert_eq!(
        PackedSfenValue::from_bytes(&b),
        Err(DecodeError::BadGameResult(0x80))
    );
}

#[test]
fn unencodable_positions() {
    let mini = Position::startpos(Variant::Mini);
    for f in [PositionFormat::Hcp, PositionFormat::PackedSfen] {
        let mut out = [7u8; 32];
        assert_eq!(
            f.encode(&mini, &mut out),
            Err(EncodeError::Variant(Variant::Mini))
        );
        assert_eq!(out, [7u8; 32], "out untouched on error");
        let tsume =
            Position::from_sfen_with("4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p", SetupOptions::TSUME)
                .unwrap();
        assert_eq!(
            f.encode_to_array(&tsume),
            Err(EncodeError::MissingKing(Color::Black))
        );
        let extra = Position::from_sfen_with(
            "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l19p",
            SetupOptions::TSUME,
        )
        .unwrap();
        let err = f.encode_to_array(&extra).unwrap_err();
        assert_eq!(
            err,
            EncodeError::TooManyPieces {
                role: Role::Pawn,
                count: 19,
                max: 18
            }
        );
        assert!(err.to_string().contains("19 pawns"), "{err}");
    }
    assert!(
        Hcpe::new(&mini, 0, None, GameResult::Draw)
            .unwrap_err()
            .to_string()
            .contains("Mini Shogi")
    );
    assert_eq!(
        Move16Format::Cshogi.encode(Move::Drop {
            role: Role::King,
            to: Square::new(5, 5).unwrap()
        }),
        Err(EncodeError::UnencodableMove(Move::Drop {
            role: Role::King,
            to: Square::new(5, 5).unwrap()
        }))
    );
}

#[test]
fn bad_bytes() {
    let start = arr32(&hex(VECTORS[0].1));
    // King square 81..127.
    let mut b = start;
    b[0] = (b[0] & 1) | (100 << 1);
    assert_eq!(
        PositionFormat::Hcp.decode(&b),
        Err(DecodeError::KingSquare {
            color: Color::Black,
            index: 100
        })
    );
    // Both kings on 5a.
    let mut b = start;
    b[0] = (b[0] & 1) | (36 << 1);
    assert!(matches!(
        PositionFormat::Hcp.decode(&b),
        Err(DecodeError::KingsOnSameSquare(_))
    ));
    // All ones: 1a reads as `11111111`, a rook code with two flags, then the stream runs out
    // as the board continues; with hcp an 8-bit `111111cp` is a rook, so the error is overflow
    // or an impossible position, never a panic.
    for f in [PositionFormat::Hcp, PositionFormat::PackedSfen] {
        let mut b = [0xffu8; 32];
        b[0] = 0x58;
        b[1] = 0x24;
        assert!(f.decode(&b).is_err());
    }
    // A gold code with a promotion bit does not exist: hcp `11110c` then ... is fine, but the
    // hand section `1111110` (7 bits) is no hcp hand or box code.
    // In the all-in-hand vector the hand section starts at bit 15 + 79 = 94; `011` starts no
    // hcp hand or box code.
    let mut b = arr32(&hex(VECTORS[4].1));
    for (bit, on) in [(94, false), (95, true), (96, true)] {
        if on {
            b[bit / 8] |= 1 << (bit % 8);
        } else {
            b[bit / 8] &= !(1 << (bit % 8));
        }
    }
    let err = PositionFormat::Hcp.decode(&b).unwrap_err();
    assert_eq!(
        err,
        DecodeError::BadCode {
            bit: 94,
            square: None
        }
    );
    assert_eq!(
        err.to_string(),
        "incorrect Huffman code at bit 94 (byte 11, pieces in hand)"
    );
    // 79 empty squares, then 162 zero bits: 54 sente pawns in hand.
    let mut b = [0u8; 32];
    b[0] = 0x58;
    b[1] = 0x24;
    let err = PositionFormat::Hcp.decode(&b).unwrap_err();
    assert!(err.to_string().contains("54 pawns"), "{err}");
    // The start position fills the 256 bits with its board; turning the empty 1b (bit 21)
    // into the start of a pawn code pushes the last board codes past the end.
    let mut b = start;
    b[2] |= 1 << 5;
    let err = PositionFormat::Hcp.decode(&b).unwrap_err();
    assert_eq!(
        err,
        DecodeError::Overflow {
            bit: 256,
            square: Square::new(9, 8)
        }
    );
    assert_eq!(err.to_string(), "the 256 bits end before square 9h");
    // Impossible position: the side not to move in check (sente rook gives check, gote to
    // move is fine, but sente to move with gote's king attacked is not).
    let p = pos("4k4/9/9/9/4R4/9/9/9/4K4 w r2b4g4s4n4l18p");
    let mut b = PositionFormat::Hcp.encode_to_array(&p).unwrap();
    b[0] &= !1;
    let err = PositionFormat::Hcp.decode(&b).unwrap_err();
    assert!(matches!(err, DecodeError::Impossible(_)), "{err:?}");
    assert!(err.to_string().starts_with("impossible position"), "{err}");
    // Bad moves.
    let sp = Position::startpos(Variant::Standard);
    for (f, v) in [
        (Move16Format::Cshogi, 0u16),
        (Move16Format::Cshogi, 129),
        (Move16Format::Cshogi, 0x8000 | 0x1e3b),
        (Move16Format::Cshogi, 88 << 7 | 40),
        (Move16Format::Cshogi, 81 << 7 | 40 | 1 << 14),
        (Move16Format::Cshogi, 10 << 7 | 100),
        (Move16Format::YaneuraOu, 258),
        (Move16Format::YaneuraOu, 387),
        (Move16Format::YaneuraOu, 1 << 14 | 8 << 7 | 40),
        (Move16Format::YaneuraOu, 1 << 14 | 1 << 15 | 1 << 7 | 40),
        (Move16Format::YaneuraOu, 90 << 7 | 40),
    ] {
        assert!(
            matches!(f.decode(v, &sp), Err(DecodeError::BadMove16 { .. })),
            "{f:?} {v:#x}"
        );
    }
    // Well formed but illegal: 7g7e, and a drop with an empty hand.
    let err = Move16Format::Cshogi
        .decode(
            Move16Format::Cshogi
                .encode(Move::from_usi("7g7e").unwrap())
                .unwrap(),
            &sp,
        )
        .unwrap_err();
    assert!(matches!(err, DecodeError::IllegalMove16 { .. }), "{err:?}");
    assert!(
        Move16Format::YaneuraOu
            .decode(0x40a8, &sp)
            .unwrap_err()
            .to_string()
            .contains("illegal")
    );
}

fn bit(b: &[u8; 32], k: usize) -> bool {
    b[k / 8] >> (k % 8) & 1 == 1
}

fn set_bit(b: &mut [u8; 32], k: usize, on: bool) {
    if on {
        b[k / 8] |= 1 << (k % 8);
    } else {
        b[k / 8] &= !(1 << (k % 8));
    }
}

#[test]
fn decode_accepts_any_hand_order() {
    // Empty board: the hand starts at bit 15 + 79 = 94 with sente's G, B, R (P L N S G B R
    // order). Old YaneuraOu wrote P L N S B R G: rewrite sente's hand as B, R, G.
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b RBGrb3g4s4n4l18p");
    // Both formats: G is 5 bits, B and R 7 bits each.
    let (g, br) = (5, 14);
    for f in [PositionFormat::Hcp, PositionFormat::PackedSfen] {
        let b = f.encode_to_array(&p).unwrap();
        let mut r = b;
        for i in 0..br {
            set_bit(&mut r, 94 + i, bit(&b, 94 + g + i));
        }
        for i in 0..g {
            set_bit(&mut r, 94 + br + i, bit(&b, 94 + i));
        }
        assert_ne!(r, b);
        assert_eq!(f.decode(&r).unwrap(), p, "{f:?}");
    }
}

#[test]
fn packed_sfen_box_entries_of_either_colour_are_skipped() {
    // YaneuraOu reads any hand entry with the promotion bit as a piece-box entry. The 2-piece
    // handicap ends with the box codes B `1111010` and R `1111110`; setting their colour bit
    // (the 7th) still gives box entries.
    let p = pos(VECTORS[6].0);
    let b = PositionFormat::PackedSfen.encode_to_array(&p).unwrap();
    let mut r = b;
    set_bit(&mut r, 256 - 14 + 6, true);
    set_bit(&mut r, 256 - 7 + 6, true);
    assert_ne!(r, b);
    assert_eq!(PositionFormat::PackedSfen.decode(&r).unwrap(), p);
}

// ---------------------------------------------------------------------------------------------
// Random games

fn check_round_trip(p: &Position, stats: &mut Stats) {
    for f in [PositionFormat::Hcp, PositionFormat::PackedSfen] {
        let b = f.encode_to_array(p).unwrap();
        let mut back = f.decode(&b).unwrap();
        back.set_move_number(p.move_number());
        assert_eq!(&back, p, "{f:?} {}", p.to_sfen());
        assert_eq!(back.key(), p.key());
    }
    let mut n = 0;
    p.for_each_legal_move(|m| {
        n += 1;
        for f in [Move16Format::Cshogi, Move16Format::YaneuraOu] {
            let v = f.encode(m).unwrap();
            assert_eq!(f.decode(v, p), Ok(m), "{f:?} {m:?} in {}", p.to_sfen());
        }
        stats.drops += m.is_drop() as u64;
        stats.promotions += m.is_promotion() as u64;
    });
    stats.moves += n;
    stats.positions += 1;
    let in_hand = p.hand(Color::Black).total() + p.hand(Color::White).total();
    stats.max_in_hand = stats.max_in_hand.max(in_hand);
    for sq in Square::all() {
        if let Some(pc) = p.piece_at(sq) {
            if pc.role.is_promoted() {
                stats.promoted[pc.index()] = true;
            }
        }
    }
}

#[derive(Default)]
struct Stats {
    positions: u64,
    moves: u64,
    drops: u64,
    promotions: u64,
    max_in_hand: u32,
    full_hands: u64,
    promoted: [bool; 28],
}

#[test]
fn round_trip_random_games() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut stats = Stats::default();
    let starts: Vec<Position> = [
        Handicap::Even,
        Handicap::Lance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::TwoPieces,
        Handicap::FourPieces,
        Handicap::SixPieces,
        Handicap::TenPieces,
    ]
    .iter()
    .map(|h| h.position().unwrap())
    .collect();
    for game in 0..400 {
        let mut p = starts[game % starts.len()].clone();
        if game % 3 == 1 {
            p.swap_turn();
        }
        for ply in 0..400 {
            check_round_trip(&p, &mut stats);
            if ply % 37 == 5 {
                // The same kings with every other piece of the position (and of the box) in
                // hand, shared out at random: full hands.
                let mut setup = p.to_setup();
                for sq in Square::all() {
                    if setup.piece_at(sq).is_some_and(|pc| pc.role != Role::King) {
                        setup.set_piece(sq, None);
                    }
                }
                setup.hands = Default::default();
                for role in Role::HAND {
                    for _ in 0..Variant::Standard.set_count(role) {
                        setup.hands[rng.below(2)].add(role);
                    }
                }
                if let Ok(full) = Position::from_setup(setup, SetupOptions::default()) {
                    check_round_trip(&full, &mut stats);
                    stats.full_hands += 1;
                }
            }
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures half of the time, so that hands fill up.
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| p.piece_at(m.to()).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.play(m).unwrap();
        }
    }
    eprintln!(
        "{} positions ({} with all 38 pieces in hand), {} moves ({} drops, {} promotions)",
        stats.positions, stats.full_hands, stats.moves, stats.drops, stats.promotions
    );
    assert!(stats.positions > 50_000);
    assert!(stats.drops > 10_000 && stats.promotions > 10_000);
    assert_eq!(stats.max_in_hand, 38);
    assert!(stats.full_hands > 1000, "{}", stats.full_hands);
    for color in Color::ALL {
        for role in Role::ALL.into_iter().filter(|r| r.is_promoted()) {
            assert!(
                stats.promoted[shogi_core::Piece::new(color, role).index()],
                "{color:?} {role:?} never seen"
            );
        }
    }
}

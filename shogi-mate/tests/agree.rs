//! The df-pn search against the exhaustive fixed-depth search (`brute`) on random
//! tsume-like positions of both variants: the same verdict on "mate within n plies", the
//! minimal length proven by `shortest` equal to the first n the exhaustive search mates in,
//! and every reported line replayed.

use shogi_core::{Color, Piece, Position, Role, Setup, SetupOptions, Square, Variant};
use shogi_mate::{MateResult, Options, Solver, brute, verify_mate};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const BOARD_ROLES: [Role; 13] = [
    Role::Pawn,
    Role::Lance,
    Role::Knight,
    Role::Silver,
    Role::Gold,
    Role::Bishop,
    Role::Rook,
    Role::Tokin,
    Role::PromotedSilver,
    Role::Horse,
    Role::Dragon,
    Role::PromotedKnight,
    Role::PromotedLance,
];

/// A random position: gote's king near its edge, a few sente pieces around it, a few gote
/// defenders, small hands (gote sometimes holding every piece left, as in tsume), sometimes a
/// sente king far away. Sente to move.
fn random_problem(rng: &mut Rng, variant: Variant) -> Option<Position> {
    let size = variant.size();
    let mut s = Setup::empty(variant);
    let kf = 1 + rng.below(u64::from(size)) as u8;
    let kr = 1 + rng.below(if size == 9 { 3 } else { 2 }) as u8;
    let ksq = Square::new(kf, kr)?;
    s.set_piece(ksq, Some(Piece::new(Color::White, Role::King)));
    let near = |rng: &mut Rng, d: u8| -> Option<Square> {
        let f = i16::from(kf) + rng.below(u64::from(2 * d + 1)) as i16 - i16::from(d);
        let r = i16::from(kr) + rng.below(u64::from(2 * d + 1)) as i16 - i16::from(d);
        if f < 1 || r < 1 || f > i16::from(size) || r > i16::from(size) {
            return None;
        }
        Square::new(f as u8, r as u8)
    };
    let roles: Vec<Role> = BOARD_ROLES
        .iter()
        .copied()
        .filter(|r| variant.has_role(r.unpromote()))
        .collect();
    for (color, n, d) in [
        (Color::Black, 2 + rng.below(4), 2u8),
        (Color::White, rng.below(3), 2u8),
    ] {
        for _ in 0..n {
            if let Some(sq) = near(rng, d) {
                if s.piece_at(sq).is_none() {
                    let role = roles[rng.below(roles.len() as u64) as usize];
                    s.set_piece(sq, Some(Piece::new(color, role)));
                }
            }
        }
    }
    if rng.below(3) == 0 {
        let sq = Square::new(1 + rng.below(u64::from(size)) as u8, size)?;
        if s.piece_at(sq).is_none() {
            s.set_piece(sq, Some(Piece::new(Color::Black, Role::King)));
        }
    }
    let hand_roles: Vec<Role> = Role::HAND
        .iter()
        .copied()
        .filter(|r| variant.has_role(*r))
        .collect();
    for _ in 0..1 + rng.below(3) {
        let r = hand_roles[rng.below(hand_roles.len() as u64) as usize];
        s.hands[0].add(r);
    }
    // Gote: every piece left (tsume), or a few, or none.
    match rng.below(3) {
        0 => {
            for r in &hand_roles {
                let on_board = Square::all()
                    .filter_map(|q| s.piece_at(q))
                    .filter(|p| p.role.unpromote() == *r)
                    .count() as i32;
                let left =
                    i32::from(variant.set_count(*r)) - on_board - i32::from(s.hands[0].count(*r));
                for _ in 0..left.max(0) {
                    s.hands[1].add(*r);
                }
            }
        }
        1 => {
            for _ in 0..rng.below(3) {
                s.hands[1].add(hand_roles[rng.below(hand_roles.len() as u64) as usize]);
            }
        }
        _ => {}
    }
    Position::from_setup(s, SetupOptions::TSUME).ok()
}

fn check_agreement(variant: Variant, count: usize, max_n: u32, seed: u64) {
    let mut rng = Rng(seed);
    let mut solver = Solver::new(4 << 20);
    let (mut tried, mut mates, mut no_mates) = (0, 0, 0);
    let mut by_len = [0usize; 8];
    while tried < count {
        let Some(pos) = random_problem(&mut rng, variant) else {
            continue;
        };
        if !pos.legal_moves().iter().any(|m| {
            let mut p = pos.clone();
            p.play_unchecked(*m);
            p.is_check()
        }) && rng.below(4) != 0
        {
            continue; // mostly positions with at least one check
        }
        tried += 1;
        let sfen = pos.to_sfen();
        if std::env::var_os("MATE_TRACE").is_some() {
            eprintln!("{tried} {sfen}");
        }
        // The first n the exhaustive search mates in (odd n up to max_n).
        let shortest = (1..=max_n)
            .step_by(2)
            .find(|n| brute::mate_within(&pos, *n));
        for n in (1..=max_n).step_by(2) {
            let o = Options {
                max_depth: Some(n as u16),
                nodes: 2_000_000,
                ..Options::default()
            };
            let a = solver
                .solve(&pos, &o)
                .unwrap_or_else(|e| panic!("{sfen}: {e}"));
            let expect = shortest.is_some_and(|s| s <= n);
            match &a.result {
                MateResult::Mate { pv } => {
                    assert!(expect, "{sfen}: false mate within {n}: {pv:?}");
                    assert!(pv.len() <= n as usize, "{sfen}: line longer than {n}");
                    verify_mate(&pos, pv).unwrap_or_else(|e| panic!("{sfen}: {e}"));
                }
                MateResult::NoMate { within } => {
                    assert!(!expect, "{sfen}: missed mate within {n}");
                    assert_eq!(*within, Some(n as u16));
                }
                MateResult::Unknown { limit } => panic!("{sfen}: unknown ({limit:?}) within {n}"),
            }
        }
        // The minimal length, searched within 9 plies.
        let o = Options {
            shortest: true,
            max_depth: Some(9),
            nodes: 200_000,
            ..Options::default()
        };
        let a = solver
            .solve(&pos, &o)
            .unwrap_or_else(|e| panic!("{sfen}: {e}"));
        match (&a.result, shortest) {
            (MateResult::Mate { pv }, Some(s)) => {
                verify_mate(&pos, pv).unwrap_or_else(|e| panic!("{sfen}: {e}"));
                assert!(a.minimal, "{sfen}");
                assert_eq!(a.length, Some(s as u16), "{sfen}: shortest");
                assert_eq!(pv.len(), s as usize, "{sfen}: line length");
                mates += 1;
                by_len[s as usize] += 1;
            }
            (MateResult::Mate { pv }, None) => {
                verify_mate(&pos, pv).unwrap_or_else(|e| panic!("{sfen}: {e}"));
                assert!(
                    pv.len() > max_n as usize,
                    "{sfen}: short mate the exhaustive search missed"
                );
                mates += 1;
            }
            (MateResult::NoMate { within: Some(9) }, None) => no_mates += 1,
            (MateResult::Unknown { .. }, None) => {}
            (r, s) => panic!("{sfen}: {r:?} but exhaustive search says {s:?}"),
        }
        // Unbounded, with a small budget: a mate found replays, a mate the exhaustive search
        // found is not denied.
        let o = Options {
            nodes: 20_000,
            ..Options::default()
        };
        let a = solver
            .solve(&pos, &o)
            .unwrap_or_else(|e| panic!("{sfen}: {e}"));
        match &a.result {
            MateResult::Mate { pv } => {
                verify_mate(&pos, pv).unwrap_or_else(|e| panic!("{sfen}: {e}"))
            }
            MateResult::NoMate { within } => {
                assert!(
                    shortest.is_none() && within.is_none(),
                    "{sfen}: {within:?} vs {shortest:?}"
                )
            }
            MateResult::Unknown { .. } => {}
        }
    }
    println!(
        "{variant:?}: {tried} positions, {mates} mates (by length {by_len:?}), {no_mates} proven no-mates"
    );
    assert!(
        mates > count / 12 && no_mates > count / 12,
        "too few of one kind to mean anything"
    );
}

#[test]
fn standard_agrees_with_exhaustive_search() {
    check_agreement(Variant::Standard, 200, 5, 0x1234_5678);
}

#[test]
fn mini_agrees_with_exhaustive_search() {
    check_agreement(Variant::Mini, 300, 5, 0x8765_4321);
}

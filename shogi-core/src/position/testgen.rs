//! Positions for the generators' tests: random games from several starts, biased towards
//! checks (so that checks, double checks, pins and drops come up often), both variants.

use crate::moves::Move;
use crate::position::Position;
use crate::setup::SetupOptions;
use crate::types::Variant;

/// A small fixed-seed generator (xorshift64*), so that failures reproduce.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// Every position of `games` random games (up to 160 plies each) from the standard and Mini
/// Shogi starts and from a few positions with pieces in hand; half of the moves are checks
/// when there is one.
pub(super) fn random_positions(games: usize, seed: u64) -> Vec<Position> {
    let sfens = [
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p 1",
        "ln1g3nl/1r1s1kg2/p1pppp1pp/6p2/1p5P1/2P6/PPBPPPP1P/2G4R1/LNS1KGSNL b BSp 1",
        "2k2/5/5/1R3/K4 b BGSP 1",
    ];
    let mut starts = vec![
        Position::startpos(Variant::Standard),
        Position::startpos(Variant::Mini),
    ];
    for sfen in sfens {
        match Position::from_sfen_with(sfen, SetupOptions::TSUME) {
            Ok(p) => starts.push(p),
            Err(e) => panic!("{sfen}: {e}"),
        }
    }
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for g in 0..games {
        let start = starts[g % starts.len()].clone();
        let mut p = start;
        for _ in 0..160 {
            out.push(p.clone());
            let moves: Vec<Move> = p.legal_moves().iter().copied().collect();
            if moves.is_empty() {
                break;
            }
            let checks: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| p.gives_check(*m))
                .collect();
            let m = if !checks.is_empty() && rng.below(2) == 0 {
                checks[rng.below(checks.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.play_unchecked(m);
        }
    }
    out
}

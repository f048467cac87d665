//! Lines through a book: the openings of a match, walked from a position by picking one of
//! the book's moves at each ply.

use crate::book::{Book, BookMove, Lookup};
use shogi_core::{Move, Position};

/// How a move is chosen among a position's book moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The highest value (then the higher count, then the book's order): one line.
    Best,
    /// At random, in proportion to the moves' counts (uniform when all counts are 0).
    Weighted,
    /// At random, each move equally likely.
    Uniform,
}

/// Settings of a walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkOptions {
    /// At most this many book moves.
    pub plies: u32,
    /// How each move is chosen.
    pub pick: Pick,
    /// How positions are looked up.
    pub lookup: Lookup,
}

/// A small seeded generator (splitmix64): the same seed gives the same lines everywhere.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x2545_F491_4F6C_DD1D)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// One line from `start`: at each ply the book's moves for the position (illegal ones left
/// out), one picked by `options.pick`, until `options.plies` moves, a position the book does
/// not hold, or one without a legal book move.
pub fn walk(book: &Book, start: &Position, options: WalkOptions, rng: &mut Rng) -> Vec<Move> {
    let mut pos = start.clone();
    let mut line = Vec::new();
    while line.len() < options.plies as usize {
        let Some(entry) = book.probe(&pos, options.lookup) else {
            break;
        };
        let legal: Vec<BookMove> = entry
            .moves
            .into_iter()
            .filter(|m| pos.check_move(m.mv).is_ok())
            .collect();
        let Some(m) = pick(&legal, options.pick, rng) else {
            break;
        };
        pos.play_unchecked(m);
        line.push(m);
    }
    line
}

/// `n` lines from `start` (see [`walk`]) drawn with the generator seeded by `seed`; with
/// [`Pick::Best`], the one line there is.
pub fn lines(
    book: &Book,
    start: &Position,
    options: WalkOptions,
    n: usize,
    seed: u64,
) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(seed);
    let n = if options.pick == Pick::Best { 1 } else { n };
    (0..n)
        .map(|_| walk(book, start, options, &mut rng))
        .collect()
}

fn pick(moves: &[BookMove], how: Pick, rng: &mut Rng) -> Option<Move> {
    if moves.is_empty() {
        return None;
    }
    let total: u64 = moves.iter().map(|m| m.count).fold(0, u64::saturating_add);
    let i = match how {
        Pick::Best => {
            let best = moves
                .iter()
                .enumerate()
                .max_by(|(i, a), (j, b)| (a.value, a.count).cmp(&(b.value, b.count)).then(j.cmp(i)))
                .map(|(i, _)| i);
            best.unwrap_or(0)
        }
        Pick::Weighted if total > 0 => {
            let mut r = rng.below(total);
            moves
                .iter()
                .position(|m| {
                    if r < m.count {
                        true
                    } else {
                        r -= m.count;
                        false
                    }
                })
                .unwrap_or(moves.len() - 1)
        }
        Pick::Weighted | Pick::Uniform => rng.below(moves.len() as u64) as usize,
    };
    Some(moves[i].mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Entry;
    use shogi_core::Variant;

    fn book() -> Book {
        let start = Position::startpos(Variant::Standard);
        let m = |s: &str, value, count| BookMove {
            value,
            count,
            ..BookMove::new(Move::from_usi(s).unwrap())
        };
        let mut b = Book::new();
        // 1a1b is illegal at the start: never picked.
        b.insert(
            &start,
            Entry {
                ply: Some(1),
                moves: vec![m("7g7f", 10, 9), m("2g2f", 30, 1), m("1a1b", 99, 100)],
                comments: vec![],
            },
        );
        let mut p = start.clone();
        p.play_unchecked(Move::from_usi("2g2f").unwrap());
        b.insert(
            &p,
            Entry {
                ply: Some(2),
                moves: vec![m("8c8d", 5, 1)],
                comments: vec![],
            },
        );
        b
    }

    fn opts(pick: Pick, plies: u32) -> WalkOptions {
        WalkOptions {
            plies,
            pick,
            lookup: Lookup::default(),
        }
    }

    #[test]
    fn best_follows_the_highest_legal_value() {
        let start = Position::startpos(Variant::Standard);
        let got = lines(&book(), &start, opts(Pick::Best, 8), 5, 0);
        let usi: Vec<Vec<String>> = got
            .iter()
            .map(|l| l.iter().map(|m| m.to_usi()).collect())
            .collect();
        assert_eq!(usi, vec![vec!["2g2f".to_string(), "8c8d".to_string()]]);
        let one = lines(&book(), &start, opts(Pick::Best, 1), 5, 0);
        assert_eq!(one[0].len(), 1);
    }

    #[test]
    fn weighted_follows_counts_and_uniform_does_not() {
        let start = Position::startpos(Variant::Standard);
        let count = |pick| {
            lines(&book(), &start, opts(pick, 1), 2000, 7)
                .iter()
                .filter(|l| l[0].to_usi() == "7g7f")
                .count()
        };
        // 9 of 10 by count, 1 of 2 uniformly (2000 draws: far outside these bounds by chance).
        let w = count(Pick::Weighted);
        assert!((1700..1900).contains(&w), "{w}");
        let u = count(Pick::Uniform);
        assert!((850..1150).contains(&u), "{u}");
        // The same seed gives the same lines.
        assert_eq!(
            lines(&book(), &start, opts(Pick::Weighted, 4), 50, 3),
            lines(&book(), &start, opts(Pick::Weighted, 4), 50, 3)
        );
    }
}

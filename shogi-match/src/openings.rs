//! Openings: the start positions of a match, from a file of SFEN or USI `position` lines or
//! of records in any format our reader reads.
//!
//! Each game of the file gives one opening: its start position and the first K moves of its
//! main line (`--opening-plies K`; all of them by default, which is what a `position … moves`
//! line means). A handicap start is kept as it is (上手 moves first). Openings are played in
//! file order, or shuffled by a seed; the scheduler plays each one twice with colours swapped.

use crate::referee::{OpeningProblem, Referee, Rules};
use shogi_core::{Move, Position, Variant};
use shogi_kif::{ReadOptions, Reader};
use std::fmt;

/// One opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position.
    pub start: Position,
    /// The moves played from it before the engines take over.
    pub moves: Vec<Move>,
    /// Where it came from (`file:line`), or `startpos`.
    pub source: String,
}

impl Opening {
    /// The start position of `variant`, no moves.
    pub fn startpos(variant: Variant) -> Opening {
        Opening {
            start: Position::startpos(variant),
            moves: Vec::new(),
            source: "startpos".to_string(),
        }
    }

    /// The USI `position` command for the opening followed by `extra` moves
    /// ([`shogi_core::position_line`]).
    pub fn usi_position(&self, extra: &[Move]) -> String {
        let moves: Vec<Move> = self.moves.iter().chain(extra).copied().collect();
        shogi_core::position_line(&self.start, &moves)
    }
}

/// An opening file that cannot be used, located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    /// The file.
    pub path: String,
    /// 1-based line (0 for the file as a whole).
    pub line: u32,
    /// 1-based column (0 when unknown).
    pub column: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}: error: {}", self.path, self.message),
            (l, 0) => write!(f, "{}:{l}: error: {}", self.path, self.message),
            (l, c) => write!(f, "{}:{l}:{c}: error: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for OpeningError {}

/// Reads the openings of a file's bytes (`path` names it in errors). Every game must read
/// without error, be of `variant`, and leave a game to play after `plies` moves.
pub fn read_openings(
    path: &str,
    bytes: &[u8],
    variant: Variant,
    plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningError> {
    let err = |line: u32, column: u32, message: String| OpeningError {
        path: path.to_string(),
        line,
        column,
        message,
    };
    let reader = Reader::new(bytes, ReadOptions::default())
        .map_err(|e| err(e.location.line, e.location.column, e.message.clone()))?;
    let mut out = Vec::new();
    for game in reader {
        if let Some(e) = &game.error {
            return Err(err(e.location.line, e.location.column, e.message.clone()));
        }
        let record = &game.record;
        let start = record.start_position().clone();
        if start.variant() != variant {
            return Err(err(
                game.line,
                0,
                format!(
                    "the opening is {} but the match is {} (--variant)",
                    start.variant().name(),
                    variant.name()
                ),
            ));
        }
        let legal: Vec<Move> = record
            .main_line()
            .take_while(|n| n.foul.is_none())
            .map(|n| n.mv)
            .collect();
        let moves: Vec<Move> = match plies {
            Some(k) => legal.into_iter().take(k).collect(),
            None => legal,
        };
        if let Err(p) = Referee::new(start.clone(), &moves, Rules::default()) {
            let message = match p {
                OpeningProblem::Over(_) | OpeningProblem::Illegal(..) => p.to_string(),
            };
            return Err(err(game.line, 0, message));
        }
        out.push(Opening {
            start,
            moves,
            source: format!("{path}:{}", game.line),
        });
    }
    if out.is_empty() {
        return Err(err(0, 0, "no opening in the file".into()));
    }
    Ok(out)
}

/// The order openings are played in: as given, or shuffled by `seed` (a xorshift-driven
/// Fisher-Yates shuffle, so the same seed gives the same order everywhere).
pub fn order(n: usize, seed: Option<u64>) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    if let Some(seed) = seed {
        let mut x = seed ^ 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            // splitmix64
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        for i in (1..n).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sfen_and_position_lines() {
        let text = "position startpos moves 7g7f 3c3d\n\
                    lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n\
                    position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 1c1d\n";
        let o = read_openings("o.txt", text.as_bytes(), Variant::Standard, None).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].moves.len(), 2);
        assert_eq!(o[0].usi_position(&[]), "position startpos moves 7g7f 3c3d");
        assert_eq!(o[1].moves.len(), 0);
        assert_eq!(o[1].start.side_to_move(), shogi_core::Color::White);
        // A handicap start (香落ち): gote (上手) moves first.
        assert_eq!(
            o[2].usi_position(&[]),
            "position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 1c1d"
        );
        let cut = read_openings("o.txt", text.as_bytes(), Variant::Standard, Some(1)).unwrap();
        assert_eq!(cut[0].moves.len(), 1);
    }

    #[test]
    fn records_give_openings() {
        let csa = "PI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n";
        let o = read_openings("g.csa", csa.as_bytes(), Variant::Standard, Some(2)).unwrap();
        assert_eq!(o[0].usi_position(&[]), "position startpos moves 7g7f 3c3d");
    }

    #[test]
    fn bad_lines_are_located() {
        let text = "position startpos moves 7g7f\nposition startpos moves 7g7f 7g7f\n";
        let e = read_openings("o.txt", text.as_bytes(), Variant::Standard, None).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(e.to_string().starts_with("o.txt:2:"), "{e}");
        let e = read_openings("o.txt", b"", Variant::Standard, None).unwrap_err();
        assert!(e.to_string().contains("empty"), "{e}");
        let e = read_openings("o.txt", b"position startpos\n", Variant::Mini, None).unwrap_err();
        assert!(e.to_string().contains("--variant"), "{e}");
        // A finished game is no opening.
        let mated = "4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1\n";
        let e = read_openings("o.txt", mated.as_bytes(), Variant::Standard, None).unwrap_err();
        assert!(e.to_string().contains("over"), "{e}");
    }

    #[test]
    fn mini_openings() {
        let o = read_openings(
            "m.txt",
            b"rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c\n",
            Variant::Mini,
            None,
        )
        .unwrap();
        assert_eq!(
            o[0].usi_position(&[]),
            "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c"
        );
    }

    #[test]
    fn shuffles_are_seeded_permutations() {
        assert_eq!(order(4, None), vec![0, 1, 2, 3]);
        let a = order(50, Some(7));
        assert_eq!(a, order(50, Some(7)));
        assert_ne!(a, order(50, Some(8)));
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }
}

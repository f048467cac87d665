//! Openings walked through a book (`shogi match --book`, `shogitk.match(book=...)`): one line
//! per game pair from the start position, or each opening of the openings file continued
//! through the book. Positions are looked up without their move number and also flipped (as
//! YaneuraOu's IgnoreBookPly and FlippedBook); illegal book moves are skipped.

use crate::error::{MatchError, Parameter};
use crate::openings::Opening;
use shogi_book::{Lookup, Pick, WalkOptions};
use shogi_core::{Position, Variant};
use std::path::PathBuf;

/// The default number of book moves per opening.
pub const DEFAULT_BOOK_PLIES: u32 = 16;

/// A book to walk the openings through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookRequest {
    /// The book: YaneuraOu's text or `.ybb` book, or Apery's `book.bin` (walked from the
    /// start position), told apart by content and extension.
    pub path: PathBuf,
    /// At most this many book moves per opening ([`DEFAULT_BOOK_PLIES`]).
    pub plies: u32,
    /// How a book move is chosen (random picks seeded by the match's seed, 0 without one).
    pub pick: Pick,
}

impl BookRequest {
    /// The book at `path` with the default plies and a pick weighted by the moves' counts.
    pub fn new(path: impl Into<PathBuf>) -> BookRequest {
        BookRequest {
            path: path.into(),
            plies: DEFAULT_BOOK_PLIES,
            pick: Pick::Weighted,
        }
    }

    /// The openings of a match: `openings` (from a file when `from_file`) continued through
    /// the book, one line each; or, from the start position alone, one line per game pair
    /// (`games` games; one line with [`Pick::Best`]).
    pub(crate) fn walk(
        &self,
        openings: Vec<Opening>,
        from_file: bool,
        games: u32,
        seed: Option<u64>,
        variant: Variant,
    ) -> Result<Vec<Opening>, MatchError> {
        let name = self.path.display().to_string();
        let refuse = |message: String| Err(MatchError::setting(Parameter::Book, message));
        if variant != Variant::Standard {
            return refuse(format!("{name}: books hold standard shogi only"));
        }
        let (book, _) = match shogi_book::open_book(&self.path) {
            Ok(b) => b,
            Err(e) => return refuse(e.to_string()),
        };
        let options = WalkOptions {
            plies: self.plies,
            pick: self.pick,
            lookup: Lookup {
                ignore_ply: true,
                flipped: true,
            },
        };
        let start = Position::startpos(Variant::Standard);
        if !from_file {
            let pairs = games.div_ceil(2).max(1) as usize;
            let lines = shogi_book::lines(&book, &start, options, pairs, seed.unwrap_or(0));
            return Ok(lines
                .into_iter()
                .enumerate()
                .map(|(i, moves)| Opening {
                    start: start.clone(),
                    moves,
                    source: format!("{name} line {}", i + 1),
                })
                .collect());
        }
        let mut rng = shogi_book::Rng::new(seed.unwrap_or(0));
        let mut out = Vec::with_capacity(openings.len());
        for mut o in openings {
            let mut end = o.start.clone();
            for &m in &o.moves {
                end.play_unchecked(m);
            }
            o.moves
                .extend(shogi_book::walk(&book, &end, options, &mut rng));
            o.source = format!("{} + {name}", o.source);
            out.push(o);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::error::Parameter;
    use crate::settings::Request;
    use shogi_book::Pick;
    use shogi_core::{Move, Variant};
    use std::path::{Path, PathBuf};

    const BOOK: &str = "#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
3c3d none 0 0 1
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f none 50 0 1
2g2f none 10 0 9
";

    fn scratch(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("shogi-match-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn request(book: &Path, plies: u32, pick: Pick) -> Request {
        let mut r = Request::new(vec!["a=/bin/a".into(), "b=/bin/b".into()]);
        r.byoyomi = Some(100);
        r.book = Some(super::BookRequest {
            path: book.to_path_buf(),
            plies,
            pick,
        });
        r
    }

    fn usi(moves: &[Move]) -> Vec<String> {
        moves.iter().map(|m| m.to_usi()).collect()
    }

    #[test]
    fn openings_are_walked_through_the_book_by_the_library() {
        let book = scratch("b.db", BOOK);
        // Best: one line, the highest value at each ply, as far as the book goes.
        let s = request(&book, 4, Pick::Best).settings().unwrap();
        assert_eq!(s.openings.len(), 1);
        assert_eq!(usi(&s.openings[0].moves), ["7g7f", "3c3d"]);
        assert!(s.openings[0].source.ends_with("b.db line 1"));
        let s = request(&book, 1, Pick::Best).settings().unwrap();
        assert_eq!(usi(&s.openings[0].moves), ["7g7f"]);
        // Weighted: one line per game pair, the same for the same seed.
        let mut r = request(&book, 4, Pick::Weighted);
        r.games = Some(6);
        r.seed = Some(3);
        let s = r.settings().unwrap();
        assert_eq!(s.openings.len(), 3);
        for o in &s.openings {
            let line = usi(&o.moves);
            assert!(
                line == ["7g7f", "3c3d"] || line == ["2g2f"],
                "{line:?} is not a book line"
            );
        }
        assert_eq!(r.settings().unwrap().openings, s.openings);
        // An openings file: each opening continued through the book.
        let mut r = request(&book, 4, Pick::Best);
        r.openings = Some(scratch("o.txt", "startpos moves 2g2f\nstartpos\n"));
        let s = r.settings().unwrap();
        let lines: Vec<Vec<String>> = s.openings.iter().map(|o| usi(&o.moves)).collect();
        assert_eq!(lines, [vec!["2g2f"], vec!["7g7f", "3c3d"]]);
        let tail = format!(" + {}", book.display());
        assert!(s.openings.iter().all(|o| o.source.ends_with(&tail)));
    }

    #[test]
    fn a_book_that_cannot_be_used_names_the_book() {
        let book = scratch("b2.db", BOOK);
        let mut r = request(&book, 4, Pick::Best);
        r.variant = Variant::Mini;
        let e = r.settings().unwrap_err();
        assert_eq!(e.parameters(), [Parameter::Book]);
        assert!(e.to_string().contains("standard shogi only"), "{e}");
        let missing = book.with_file_name("missing.db");
        let e = request(&missing, 4, Pick::Best).settings().unwrap_err();
        assert_eq!(e.parameters(), [Parameter::Book]);
        assert!(e.to_string().contains("missing.db"), "{e}");
    }
}

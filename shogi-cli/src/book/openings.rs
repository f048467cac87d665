//! `shogi match --book`: the flags of a match's openings walked through a book (the walk is
//! shogi-match's, [`shogi_match::book`]).

use shogi_book::Pick;
use shogi_match::book::BookRequest;
use std::path::PathBuf;

/// How `--book-pick` chooses a book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BookPick {
    /// The highest value (then the higher count): one line for the whole match.
    Best,
    /// At random in proportion to the moves' counts.
    Weighted,
    /// At random, every book move equally likely.
    Uniform,
}

/// The book flags of `shogi match`.
#[derive(clap::Args, Clone, Debug)]
pub struct MatchBookArgs {
    /// Openings walked through this book (YaneuraOu text, .ybb, or Apery's book.bin walked
    /// from the start position): one line per game pair from the start position, or each
    /// --openings opening continued through the book. Positions are looked up without their
    /// move number and also flipped (as YaneuraOu's IgnoreBookPly and FlippedBook); illegal
    /// book moves are skipped.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// At most N book moves per opening.
    #[arg(
        long,
        visible_alias = "book-ply",
        value_name = "N",
        default_value_t = shogi_match::book::DEFAULT_BOOK_PLIES,
        requires = "book"
    )]
    pub book_plies: u32,
    /// How a book move is chosen (random picks are seeded by --seed, 0 without it).
    #[arg(long, value_enum, default_value_t = BookPick::Weighted, requires = "book")]
    pub book_pick: BookPick,
}

impl MatchBookArgs {
    /// The library's book request (`None` without `--book`): the walk itself is shogi-match's,
    /// as for Python's `shogitk.match(book=...)`.
    pub fn request(&self) -> Option<BookRequest> {
        let path = self.book.clone()?;
        Some(BookRequest {
            path,
            plies: self.book_plies,
            pick: match self.book_pick {
                BookPick::Best => Pick::Best,
                BookPick::Weighted => Pick::Weighted,
                BookPick::Uniform => Pick::Uniform,
            },
        })
    }
}

//! `shogi match --book`: the openings of a match walked through a book, handed to the
//! match's openings (each played twice, colours swapped).

use super::files::{BookFormat, read_book};
use crate::ctx::Failure;
use shogi_book::{Lookup, Pick, WalkOptions};
use shogi_core::{Position, Variant};
use shogi_match::openings::Opening;
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
        default_value_t = 16,
        requires = "book"
    )]
    pub book_plies: u32,
    /// How a book move is chosen (random picks are seeded by --seed, 0 without it).
    #[arg(long, value_enum, default_value_t = BookPick::Weighted, requires = "book")]
    pub book_pick: BookPick,
}

/// The openings of a match with `--book`: `openings` continued through the book (one line
/// each); or, when `openings` is only the start position, one line per game pair (`games`
/// games: one line with `--book-pick best`). Without `--book`, `openings` as they are.
pub fn book_openings(
    args: &MatchBookArgs,
    openings: Vec<Opening>,
    from_file: bool,
    games: u32,
    seed: Option<u64>,
    variant: Variant,
) -> Result<Vec<Opening>, Failure> {
    let Some(path) = &args.book else {
        return Ok(openings);
    };
    let name = path.display().to_string();
    if variant != Variant::Standard {
        return Err(Failure::usage(format!(
            "error: --book {name}: books hold standard shogi only"
        )));
    }
    let format = BookFormat::of_input(path)?;
    let start = Position::startpos(Variant::Standard);
    let (book, _) = read_book(path, format, false, std::slice::from_ref(&start))?;
    let options = WalkOptions {
        plies: args.book_plies,
        pick: match args.book_pick {
            BookPick::Best => Pick::Best,
            BookPick::Weighted => Pick::Weighted,
            BookPick::Uniform => Pick::Uniform,
        },
        lookup: Lookup {
            ignore_ply: true,
            flipped: true,
        },
    };
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

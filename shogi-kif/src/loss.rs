//! What a format cannot hold. The writers leave it out (or write it in another form);
//! [`losses`] names it beforehand, so that a conversion never drops data silently.

use crate::ending::EndingKind;
use crate::format::Format;
use crate::holds::{EndingHolds, HeaderHolds, Holds};
use crate::model::{Line, MoveTime, Record};
use std::collections::HashSet;
use std::fmt;

/// Something a record holds that a format cannot: [`crate::write`] leaves it out, or writes
/// it in a form that reads back as something else.
///
/// Not listed, because the written file keeps them in some form: header entries CSA has no
/// field for (written as `'key：value` comment lines); running time totals in CSA (the times
/// spent are written, the totals follow from them); the 手合割 name of a start that is not a
/// preset (詰将棋, その他) in CSA and JKF, which write the position itself.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Loss {
    /// Alternative lines, nested ones included (CSA, USI, SFEN): the main line is written.
    Variations(usize),
    /// Comments on the start, moves and endings (USI, SFEN).
    Comments(usize),
    /// Times of moves and endings (KI2, USI, SFEN).
    Times(usize),
    /// Times with a fraction of a second (KIF, JKF): whole seconds are written.
    SubsecondTimes(usize),
    /// Bookmarks, しおり (CSA, USI, SFEN, JKF).
    Bookmarks(usize),
    /// Header entries (USI, SFEN); in KIF and KI2, entries whose key would make the line
    /// read as something else (a move, a hand, …), written as comments on the start.
    Header(usize),
    /// An ending the format has no word for: USI has `resign` and `win` only; CSA has no word
    /// for 不戦勝, 不戦敗 or an unknown word that is not a `%` word, and writes it as a comment
    /// line; KIF, KI2 and JKF write an unknown word that would not read back as itself (in
    /// the main line or a variation) as [`crate::UNKNOWN_ENDING_WORD`], with the word in a
    /// comment (see [`EndingKind::reads_back_in`]).
    Ending(EndingKind),
    /// A sealed move (封じ手) in CSA: written as `%CHUDAN` (an interruption) after a
    /// `'封じ手` comment line.
    SealedMove,
    /// That the record ends in a recorded illegal move (USI, SFEN): the move is written but
    /// nothing can say it is a foul, so readers (ours too) reject the line; `shogi convert
    /// --to usi` writes the moves before it.
    FoulMove,
}

impl Loss {
    /// Whether this is [`Loss::Variations`], which `shogi convert --mainline` accepts.
    pub fn is_variations(&self) -> bool {
        matches!(self, Loss::Variations(_))
    }

    /// What kind of thing is lost, in the plural, without a count (`times`, `endings`): the
    /// name under which a batch totals the records that lost one.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Loss::Variations(_) => "variations",
            Loss::Comments(_) => "comments",
            Loss::Times(_) => "times",
            Loss::SubsecondTimes(_) => "fractions of a second",
            Loss::Bookmarks(_) => "bookmarks",
            Loss::Header(_) => "header entries",
            Loss::Ending(_) => "endings",
            Loss::SealedMove => "sealed moves",
            Loss::FoulMove => "illegal last moves",
        }
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loss::Variations(n) => f.write_str(&plural(*n, "variation", "variations")),
            Loss::Comments(n) => f.write_str(&plural(*n, "comment", "comments")),
            Loss::Times(n) => f.write_str(&plural(*n, "time", "times")),
            Loss::SubsecondTimes(n) => f.write_str(&plural(
                *n,
                "time's fraction of a second",
                "times' fractions of a second",
            )),
            Loss::Bookmarks(n) => f.write_str(&plural(*n, "bookmark", "bookmarks")),
            Loss::Header(n) => f.write_str(&plural(*n, "header entry", "header entries")),
            Loss::Ending(k) => write!(f, "the ending {}", k.japanese()),
            Loss::SealedMove => f.write_str("the sealed move (封じ手, written as %CHUDAN)"),
            Loss::FoulMove => f.write_str("the illegal move the record ends with"),
        }
    }
}

/// Counts of what a line (and, when `deep`, its variations) holds.
#[derive(Default)]
struct Tally {
    variations: usize,
    comments: usize,
    times: usize,
    subsecond: usize,
    bookmarks: usize,
}

impl Tally {
    fn time(&mut self, t: &Option<MoveTime>) {
        if let Some(t) = t {
            if t.spent_ms.is_some() || t.total_ms.is_some() {
                self.times += 1;
            }
            let frac = |ms: Option<u64>| ms.is_some_and(|ms| ms % 1000 != 0);
            if frac(t.spent_ms) || frac(t.total_ms) {
                self.subsecond += 1;
            }
        }
    }

    fn line(&mut self, line: &Line, deep: bool) {
        for node in &line.moves {
            self.variations += node.variations.len();
            self.comments += node.comments.len();
            self.bookmarks += node.bookmarks.len();
            self.time(&node.time);
            if deep {
                node.variations.iter().for_each(|v| self.line(v, deep));
            }
        }
        if let Some(e) = &line.ending {
            self.variations += e.variations.len();
            self.comments += e.comments.len();
            self.bookmarks += e.bookmarks.len();
            self.time(&e.time);
            if deep {
                e.variations.iter().for_each(|v| self.line(v, deep));
            }
        }
    }
}

/// What writing `record` as `format` would leave out, in a fixed order (variations first).
/// Empty when the format holds all of it: our reader then reads the written text back as
/// the same record (times in whole seconds for KIF and JKF).
///
/// ```
/// use shogi_kif::{Format, Loss};
/// let kif = "手数----指手--\n   1 ７六歩(77)\n*a comment\n   2 ３四歩(33)+\n\n変化：2手\n   2 ８四歩(83)\n";
/// let record = shogi_kif::read_str(kif, Default::default())?;
/// assert_eq!(shogi_kif::losses(&record, Format::Kif), []);
/// assert_eq!(shogi_kif::losses(&record, Format::Csa), [Loss::Variations(1)]);
/// assert_eq!(
///     shogi_kif::losses(&record, Format::Usi),
///     [Loss::Variations(1), Loss::Comments(1)]
/// );
/// # Ok::<(), shogi_kif::ReadError>(())
/// ```
pub fn losses(record: &Record, format: Format) -> Vec<Loss> {
    let holds = holds(format);
    // Formats with variations count what is inside them too; the others lose a variation
    // with everything in it, so only the main line's notes are counted.
    let deep = holds.variations;
    let mut t = Tally {
        comments: record.start_comments.len(),
        bookmarks: record.start_bookmarks.len(),
        ..Tally::default()
    };
    t.line(&record.moves, deep);
    let mut out = Vec::new();
    let mut add = |n: usize, loss: fn(usize) -> Loss| {
        if n > 0 {
            out.push(loss(n));
        }
    };
    if !holds.variations {
        add(t.variations, Loss::Variations);
    }
    if !holds.comments {
        add(t.comments, Loss::Comments);
    }
    if !holds.times {
        add(t.times, Loss::Times);
    } else if !holds.subsecond_times {
        add(t.subsecond, Loss::SubsecondTimes);
    }
    if !holds.bookmarks {
        add(t.bookmarks, Loss::Bookmarks);
    }
    let header_lost = match holds.header {
        HeaderHolds::All => 0,
        HeaderHolds::None => record.header.entries.len(),
        HeaderHolds::KifLines => {
            let kept = |e: &&crate::model::HeaderEntry| {
                crate::kif::write::header_kept(&e.key, &crate::text::one_line(&e.value))
            };
            record.header.entries.iter().filter(|e| !kept(e)).count()
        }
    };
    add(header_lost, Loss::Header);
    let fouled = record.moves.moves.iter().any(|n| n.foul.is_some());
    if let Some(e) = record.ending() {
        let kept = match holds.endings {
            EndingHolds::Usi => {
                matches!(e.kind, EndingKind::Resign | EndingKind::Declaration) && !fouled
            }
            EndingHolds::Csa => match &e.kind {
                EndingKind::SealedMove => {
                    out.push(Loss::SealedMove);
                    true
                }
                k @ EndingKind::Other(_) => k.reads_back_in(format),
                k => k.csa().is_some() || k.is_foul(),
            },
            EndingHolds::ReadsBack => e.kind.reads_back_in(format),
        };
        if !kept {
            out.push(Loss::Ending(e.kind.clone()));
        }
    }
    if deep {
        // The variations' endings too, each word once (a set: there may be very many).
        let mut named: HashSet<&EndingKind> = HashSet::new();
        if let Some(e) = record.ending() {
            named.insert(&e.kind);
        }
        for kind in variation_endings(&record.moves) {
            if !kind.reads_back_in(format) && named.insert(kind) {
                out.push(Loss::Ending(kind.clone()));
            }
        }
    }
    if !holds.foul_moves && fouled {
        out.push(Loss::FoulMove);
    }
    out
}

/// The format module's declaration of what it holds.
fn holds(format: Format) -> Holds {
    match format {
        Format::Kif => crate::kif::KIF_HOLDS,
        Format::Ki2 => crate::kif::KI2_HOLDS,
        Format::Csa => crate::csa::HOLDS,
        Format::Jkf => crate::jkf::HOLDS,
        Format::Usi => crate::usi::USI_HOLDS,
        Format::Sfen => crate::usi::SFEN_HOLDS,
    }
}

/// The endings of every variation in `line` (nested ones included), in record order.
fn variation_endings(line: &Line) -> Vec<&EndingKind> {
    /// Put the variations of `line` on `todo`, the first to be popped first.
    fn push_all<'r>(todo: &mut Vec<&'r Line>, line: &'r Line) {
        let from_moves = line.moves.iter().flat_map(|n| &n.variations);
        let from_ending = line.ending.iter().flat_map(|e| &e.variations);
        let start = todo.len();
        todo.extend(from_moves.chain(from_ending));
        todo[start..].reverse();
    }
    let mut out = Vec::new();
    let mut todo = Vec::new();
    push_all(&mut todo, line);
    while let Some(v) = todo.pop() {
        if let Some(e) = &v.ending {
            out.push(&e.kind);
        }
        push_all(&mut todo, v);
    }
    out
}

impl Record {
    /// Remove every variation (of moves and of endings), keeping the main line; give how
    /// many lines were removed at the top level (nested ones go with them).
    pub fn drop_variations(&mut self) -> usize {
        let mut n = 0;
        for node in &mut self.moves.moves {
            n += node.variations.len();
            node.variations.clear();
        }
        if let Some(e) = &mut self.moves.ending {
            n += e.variations.len();
            e.variations.clear();
        }
        n
    }
}

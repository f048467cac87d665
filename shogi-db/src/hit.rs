//! What a search finds: hits (a game and a ply), their counts, and the stored games' lines
//! they are confirmed against.

use rusqlite::Row;
use shogi_batch::{ColumnWord, GameRow, parse_word};
use shogi_core::{Move, Position, SetupOptions};

/// One occurrence of the position: a game, the ply at which it stood there (0 = the start)
/// and the move played from it.
///
/// From the database without filters, `row` holds only what find and explore print (path,
/// game, players, start, plies, ending, winner, validity, ratings); with filters, or from a
/// scan, all of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// The game's row (the `games` table, the columns of `shogi stats`).
    pub row: GameRow,
    /// Moves played before the position (0: the start position).
    pub ply: u32,
    /// The move played from the position; `None` when the game's line ends there.
    pub next_move: Option<Move>,
}

impl Hit {
    /// A hit with an empty row, to be filled in place.
    pub(crate) fn empty() -> Hit {
        Hit {
            row: GameRow::default(),
            ply: 0,
            next_move: None,
        }
    }
}

/// The hits of a search, in order (path, game, ply), and how many there were before a limit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Found {
    /// The hits kept.
    pub hits: Vec<Hit>,
    /// All hits (before `limit`).
    pub total: usize,
    /// Distinct games among all hits.
    pub games: usize,
}

/// How many occurrences a search found, and in how many games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Occurrences (game and ply).
    pub total: usize,
    /// Distinct games.
    pub games: usize,
}

impl Found {
    /// The counts of all hits (before the limit).
    pub fn counts(&self) -> Counts {
        Counts {
            total: self.total,
            games: self.games,
        }
    }

    /// `hits` sorted in (path, game, ply) order, counted, and cut to `limit`.
    pub(crate) fn sorted(mut hits: Vec<Hit>, limit: Option<usize>) -> Found {
        hits.sort_by(|a, b| {
            (a.row.path.as_str(), a.row.game, a.ply).cmp(&(b.row.path.as_str(), b.row.game, b.ply))
        });
        let total = hits.len();
        let games = {
            let mut n = 0;
            let mut last: Option<(&str, u32)> = None;
            for h in &hits {
                let id = (h.row.path.as_str(), h.row.game);
                if last != Some(id) {
                    n += 1;
                    last = Some(id);
                }
            }
            n
        };
        if let Some(l) = limit {
            hits.truncate(l);
        }
        Found { hits, total, games }
    }
}

/// The `games` columns a hit reads when no filter is set: what find and explore print.
pub(crate) const HIT_COLUMNS: &[&str] = &[
    "path",
    "game",
    "sente",
    "gote",
    "start",
    "start_iso",
    "plies",
    "ending",
    "winner",
    "valid",
    "sente_rating",
    "gote_rating",
];

/// The [`HIT_COLUMNS`] of table alias `alias`, for a SELECT list.
pub(crate) fn hit_columns(alias: &str) -> String {
    HIT_COLUMNS
        .iter()
        .map(|c| format!("{alias}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A row holding the [`HIT_COLUMNS`] (the other fields left empty).
pub(crate) fn hit_row(r: &Row<'_>, i: usize) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        path: r.get(i)?,
        game: r.get(i + 1)?,
        sente: r.get(i + 2)?,
        gote: r.get(i + 3)?,
        start: r.get(i + 4)?,
        start_iso: r.get(i + 5)?,
        plies: r.get(i + 6)?,
        ending: stored_word(text(r, i + 7)?, i + 7)?,
        winner: stored_word(text(r, i + 8)?, i + 8)?.unwrap_or_default(),
        valid: r.get::<_, i64>(i + 9)? != 0,
        sente_rating: r.get(i + 10)?,
        gote_rating: r.get(i + 11)?,
        ..GameRow::default()
    })
}

/// Sets `to` to `from` (empty for `None`), reusing its allocation.
pub(crate) fn set(to: &mut String, from: Option<&str>) {
    to.clear();
    to.push_str(from.unwrap_or_default());
}

/// The text (or NULL) of column `i` of `r`.
fn text<'r>(r: &'r Row<'_>, i: usize) -> rusqlite::Result<Option<&'r str>> {
    Ok(r.get_ref(i)?.as_str_or_null()?)
}

/// A stored word of a closed-set column (`ending`, `winner`, …) of column `column`, `None`
/// for NULL; a word that is none of the column's (a damaged database) is that column's
/// conversion error, which the caller reports with the database's path.
pub(crate) fn stored_word<T: ColumnWord>(
    text: Option<&str>,
    column: usize,
) -> rusqlite::Result<Option<T>> {
    text.map(|t| {
        parse_word(t).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(
                column,
                rusqlite::types::Type::Text,
                format!("stored {e}").into(),
            )
        })
    })
    .transpose()
}

/// A stored move (USI text, or NULL at the end of a line) of column `column`; text that is
/// not a USI move (a damaged database) is that column's conversion error.
pub(crate) fn stored_move(text: Option<&str>, column: usize) -> rusqlite::Result<Option<Move>> {
    text.map(|t| {
        Move::from_usi(t).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(
                column,
                rusqlite::types::Type::Text,
                format!("stored move '{t}': {e}").into(),
            )
        })
    })
    .transpose()
}

/// Sets `to` to `from`, reusing its allocation where both are there.
pub(crate) fn set_opt(to: &mut Option<String>, from: Option<&str>) {
    match (to.as_mut(), from) {
        (Some(t), Some(f)) => {
            t.clear();
            t.push_str(f);
        }
        (_, f) => *to = f.map(str::to_string),
    }
}

/// [`hit_row`] into an existing row, reusing its strings (for streaming many hits).
pub(crate) fn fill_hit_row(r: &Row<'_>, i: usize, row: &mut GameRow) -> rusqlite::Result<()> {
    let text = |k: usize| text(r, i + k);
    set(&mut row.path, text(0)?);
    row.game = r.get(i + 1)?;
    set_opt(&mut row.sente, text(2)?);
    set_opt(&mut row.gote, text(3)?);
    set_opt(&mut row.start, text(4)?);
    set_opt(&mut row.start_iso, text(5)?);
    row.plies = r.get(i + 6)?;
    row.ending = stored_word(text(7)?, i + 7)?;
    row.winner = stored_word(text(8)?, i + 8)?.unwrap_or_default();
    row.valid = r.get::<_, i64>(i + 9)? != 0;
    row.sente_rating = r.get(i + 10)?;
    row.gote_rating = r.get(i + 11)?;
    Ok(())
}

/// The start position of a stored game (`games.start_sfen`).
pub(crate) fn stored_start(sfen: &str) -> Option<Position> {
    Position::from_sfen_with(sfen, SetupOptions::PERMISSIVE).ok()
}

/// The first `n` moves of a stored line (`7g7f 3c3d …`).
pub(crate) fn prefix(moves: &str, n: usize) -> &str {
    if n == 0 {
        return "";
    }
    let mut seen = 0;
    for (i, b) in moves.bytes().enumerate() {
        if b == b' ' {
            seen += 1;
            if seen == n {
                return &moves[..i];
            }
        }
    }
    moves
}

/// The position after the stored `moves` from the stored start `start`.
pub(crate) fn position_after(start: &str, moves: &str) -> Option<Position> {
    let mut pos = stored_start(start)?;
    for m in moves.split_whitespace() {
        let mv = shogi_core::Move::from_usi(m).ok()?;
        pos.play_unchecked(mv);
    }
    Some(pos)
}

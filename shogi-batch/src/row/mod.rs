//! One row per game: the columns of `shogi stats`, shared by CSV, JSON lines, SQLite and Python.

//!
//! Layout: this module holds the row and its steps; `columns` the header and ending
//! columns. What replaying the main line tells is shogi-kif's [`MainLine`].

use crate::filter_text::EndingName;
use crate::key::{game_key, key_hex};
use crate::read::InputRecord;
use columns::ending_and_winner;
pub use floodgate::{TimeControl, game_id};
use serde::{Deserialize, Serialize};
use shogi_core::{Color, Variant};
use shogi_kif::{Encoding, Format, MainLine, Record, Severity, Winner};
use std::borrow::Cow;
use word::{serde_flag_word, serde_opt_word, serde_word};

mod columns;
mod csv_line;
mod floodgate;
mod mate;
mod moves;
mod openings;
mod word;

pub use mate::{MateSearch, MissedMate, missed_mate};
pub use word::{ColumnWord, parse_word};

pub use csv_line::{MATE_COLUMNS, csv_header};

pub use moves::{main_line_text, moves_text};

pub use openings::{
    KeptHeader, TAG_COLUMNS, TagFilter, TagSide, TagWant, add_tag_headers, game_tags, main_name,
};

/// One game, as a row of the `shogi stats` table.
///
/// The fields are the columns, in order; absent values are empty in CSV and `null` in JSON.
/// A game that could not be read has `valid = false`, the reason in `first_error`, and what
/// could be read before the error (at least `path`, `game`).
///
/// `S` is the text of the columns: `String` (the usual row, owned), or `Cow<str>` for a row
/// that borrows what it can from its game while it is written out ([`GameRow::borrowed`]).
/// The closed-set columns (`format`, `encoding`, `variant`, `ending`, `winner`) are enums,
/// written as their words ([`ColumnWord`]) whatever `S` is.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameRow<S = String> {
    /// The input the game comes from (see [`crate::Input::name`]).
    pub path: S,
    /// The game's number within its input, from 1 (CSA files and USI/SFEN lists hold many).
    pub game: u32,
    /// The line the game starts on in its input, when the reader says.
    pub line: Option<u32>,
    /// The record format: `kif`, `ki2`, `csa`, `usi`, `sfen`, `jkf`.
    #[serde(with = "serde_opt_word")]
    pub format: Option<Format>,
    /// The text encoding: `utf-8`, `shift_jis`, `euc-jp`.
    #[serde(with = "serde_opt_word")]
    pub encoding: Option<Encoding>,
    /// `standard` or `mini` (Mini Shogi).
    #[serde(with = "serde_opt_word")]
    pub variant: Option<Variant>,
    /// The handicap (手合割) by its Japanese name (`平手`, `香落ち`, `二枚落ち`, …), or the
    /// name a record gives a position that is no preset (`詰将棋`, `その他`).
    pub handicap: Option<S>,
    /// Sente's (black's, 下手's) name, as written.
    pub sente: Option<S>,
    /// Gote's (white's, 上手's) name, as written.
    pub gote: Option<S>,
    /// The start date-time, as written (`開始日時`, else `対局日`, CSA `$START_TIME`).
    pub start: Option<S>,
    /// `start` in ISO 8601 (`2024-01-02T10:00:00`, or `2024-01-02` for a date alone), where
    /// it parses.
    pub start_iso: Option<S>,
    /// The event (`棋戦`, `$EVENT`).
    pub event: Option<S>,
    /// The place (`場所`, `$SITE`).
    pub site: Option<S>,
    /// The time control, as written (`持ち時間` with `秒読み`, CSA `$TIME_LIMIT` or `$TIME`).
    pub time_control: Option<S>,
    /// Sente's rating, where the record carries one (Floodgate `'black_rate:`, a
    /// `先手レーティング` header).
    pub sente_rating: Option<f64>,
    /// Gote's rating, likewise (`'white_rate:`, `後手レーティング`).
    pub gote_rating: Option<f64>,
    /// Sente's rank where the name ends with one, as Shogi Wars exports write them
    /// (`surokiti0510 初段` gives `初段`; also `1級`, `四段`, `5段`).
    pub sente_rank: Option<S>,
    /// Gote's rank, likewise.
    pub gote_rank: Option<S>,
    /// Main-line moves read (for an invalid game: the moves before the first error).
    pub plies: u32,
    /// How the game ended: `resign`, `checkmate`, `repetition`, `perpetual-check`,
    /// `declaration`, `impasse`, `timeout`, `foul`, `abort`, `max-moves`, `draw`, `no-mate`,
    /// `sealed`, `win-by-default`, `loss-by-default`, `other`; empty when the record states
    /// none and the final position does not end the game (never the name `none`).
    #[serde(with = "serde_opt_word")]
    pub ending: Option<EndingName>,
    /// `sente`, `gote`, `draw`, or `none` (unfinished, unknown).
    #[serde(with = "serde_word")]
    pub winner: Winner,
    /// Read without an error (warnings allowed).
    pub valid: bool,
    /// The first error: its kind and reason (`illegal-move: move 88 ５五歩打: 二歩 …`).
    pub first_error: Option<S>,
    /// The ply of the first error, when it is about a move.
    pub error_ply: Option<u32>,
    /// The line of the first error, when known.
    pub error_line: Option<u32>,
    /// Warnings found while reading and validating.
    pub warnings: u32,
    /// The ply at which a position occurred for the fourth time (千日手), if one did.
    pub repetition_ply: Option<u32>,
    /// The position after the main line (SFEN with move number).
    pub final_sfen: Option<S>,
    /// The start position (SFEN with move number).
    pub start_sfen: Option<S>,
    /// The game key: 16 hex digits of a stable hash of start and main line (see
    /// [`crate::game_key`]).
    pub key: Option<S>,
    /// With `--dedup`: the first copy of this game (`path#game`), when this is a duplicate.
    pub duplicate_of: Option<S>,
    /// With `--moves NOTATION` only (the column is absent otherwise): the main line as text
    /// in that notation, moves separated by single spaces (see [`moves_text`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<S>,
    /// With `--mate` only (absent otherwise; inner `None`: empty, no missed mate): the ply
    /// of the first position where the loser of a game lost by resignation or time had a
    /// forced mate (see [`missed_mate`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missed_mate_ply: Option<Option<u32>>,
    /// With `--mate`: the side that had it, `sente` or `gote`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "serde_flag_word"
    )]
    pub missed_mate_side: Option<Option<Color>>,
    /// With `--mate`: the mate's length in plies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missed_mate_length: Option<Option<u16>>,
    /// With `--mate`: the mating line in USI, moves separated by single spaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missed_mate_pv: Option<Option<S>>,
    /// With `--tags` only (absent otherwise; inner `None`: empty): the game's main 戦型, the
    /// name a `戦型：` header would give (`力戦` when no opening fits); see
    /// [`GameRow::set_tags`]. Empty where the taxonomy does not apply (Mini Shogi, most
    /// handicaps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<Option<S>>,
    /// With `--tags`: `相居飛車`, `対抗形`, `相振り飛車` or `力戦`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_class: Option<Option<S>>,
    /// With `--tags`: sente's class, `居飛車` or `振り飛車`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sente_class: Option<Option<S>>,
    /// With `--tags`: gote's class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gote_class: Option<Option<S>>,
    /// With `--tags`: sente's openings (戦法) in the order they formed (CSV: joined by `, `).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sente_openings: Option<Vec<S>>,
    /// With `--tags`: gote's openings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gote_openings: Option<Vec<S>>,
    /// With `--tags`: sente's castles (囲い) in the order they formed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sente_castles: Option<Vec<S>>,
    /// With `--tags`: gote's castles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gote_castles: Option<Vec<S>>,
    /// With `--tags`: what the record's own `戦型` header (CSA `$OPENING`) says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_header: Option<Option<S>>,
    /// The recognised tags, typed, for the selection's tag filters (set by
    /// [`GameRow::set_tags`]; never written).
    #[serde(skip)]
    pub tags: Option<shogi_openings::GameTags>,
}

/// The column names, in order.
pub const COLUMNS: &[&str] = &[
    "path",
    "game",
    "line",
    "format",
    "encoding",
    "variant",
    "handicap",
    "sente",
    "gote",
    "start",
    "start_iso",
    "event",
    "site",
    "time_control",
    "sente_rating",
    "gote_rating",
    "sente_rank",
    "gote_rank",
    "plies",
    "ending",
    "winner",
    "valid",
    "first_error",
    "error_ply",
    "error_line",
    "warnings",
    "repetition_ply",
    "final_sfen",
    "start_sfen",
    "key",
    "duplicate_of",
];

impl GameRow {
    /// The row of a game of input `path`, from the main line the reader kept
    /// ([`InputRecord::main`]) or, without it, from the record's moves played again.
    pub fn new(path: &str, game: &InputRecord) -> GameRow {
        build(path, game)
    }
}

impl<'a> GameRow<Cow<'a, str>> {
    /// [`GameRow::new`] without copying what the game holds (path, names, header values,
    /// the start SFEN): for a row written out at once (`shogi stats` makes one per game).
    pub fn borrowed(path: &'a str, game: &'a InputRecord) -> Self {
        build(path, game)
    }

    /// The row with its text owned.
    pub fn into_owned(self) -> GameRow {
        let o = |s: Option<Cow<'a, str>>| s.map(Cow::into_owned);
        GameRow {
            path: self.path.into_owned(),
            game: self.game,
            line: self.line,
            format: self.format,
            encoding: self.encoding,
            variant: self.variant,
            handicap: o(self.handicap),
            sente: o(self.sente),
            gote: o(self.gote),
            start: o(self.start),
            start_iso: o(self.start_iso),
            event: o(self.event),
            site: o(self.site),
            time_control: o(self.time_control),
            sente_rating: self.sente_rating,
            gote_rating: self.gote_rating,
            sente_rank: o(self.sente_rank),
            gote_rank: o(self.gote_rank),
            plies: self.plies,
            ending: self.ending,
            winner: self.winner,
            valid: self.valid,
            first_error: o(self.first_error),
            error_ply: self.error_ply,
            error_line: self.error_line,
            warnings: self.warnings,
            repetition_ply: self.repetition_ply,
            final_sfen: o(self.final_sfen),
            start_sfen: o(self.start_sfen),
            key: o(self.key),
            duplicate_of: o(self.duplicate_of),
            moves: o(self.moves),
            missed_mate_ply: self.missed_mate_ply,
            missed_mate_side: self.missed_mate_side,
            missed_mate_length: self.missed_mate_length,
            missed_mate_pv: self.missed_mate_pv.map(o),
            opening: self.opening.map(o),
            game_class: self.game_class.map(o),
            sente_class: self.sente_class.map(o),
            gote_class: self.gote_class.map(o),
            sente_openings: owned_list(self.sente_openings),
            gote_openings: owned_list(self.gote_openings),
            sente_castles: owned_list(self.sente_castles),
            gote_castles: owned_list(self.gote_castles),
            opening_header: self.opening_header.map(o),
            tags: self.tags,
        }
    }
}

fn owned_list(v: Option<Vec<Cow<'_, str>>>) -> Option<Vec<String>> {
    v.map(|v| v.into_iter().map(Cow::into_owned).collect())
}

/// The row, in three steps: what the reader said (format, errors, warnings), what the
/// record's header says (names, dates, ratings: `columns::header_columns`), what its main
/// line gives (plies, ending, winner, positions, key).
fn build<'a, S>(path: &'a str, game: &'a InputRecord) -> GameRow<S>
where
    S: From<&'a str> + From<String> + Default,
{
    let mut row = GameRow {
        path: S::from(path),
        game: game.index,
        line: (game.line > 0).then_some(game.line),
        format: game.format,
        encoding: game.encoding,
        valid: game.is_valid(),
        sente_rating: game.ratings[0],
        gote_rating: game.ratings[1],
        ..GameRow::default()
    };
    row.reader_columns(game);
    let Some(record) = &game.record else {
        return row;
    };
    columns::header_columns(&mut row, record);
    floodgate::fill(&mut row, record, path);
    row.line_columns(record, game.main_line().as_deref());
    row
}

impl<'a, S: From<&'a str> + From<String>> GameRow<S> {
    /// The first error (its kind and reason, ply and line) and the number of warnings.
    fn reader_columns(&mut self, game: &'a InputRecord) {
        let first_diag_error = game
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error);
        if let Some(e) = &game.error {
            let kind = if game.panic.is_some() {
                "internal"
            } else {
                e.kind.name()
            };
            self.first_error = Some(S::from(format!("{kind}: {}", e.message)));
            self.error_ply = e.ply;
            self.error_line = (e.location.line > 0).then_some(e.location.line);
        } else if let Some(d) = first_diag_error {
            self.first_error = Some(S::from(d.message.as_str()));
            self.error_line = (d.line > 0).then_some(d.line);
        }
        self.warnings = game
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count() as u32;
    }

    /// What the main line replayed as `main` gives (`None`: its start cannot be played
    /// from): plies, ending and winner, repetition, final and start positions, the game key.
    fn line_columns(&mut self, record: &'a Record, main: Option<&MainLine>) {
        let moves = &record.moves.moves;
        self.plies = moves.len() as u32;
        let (ending, winner) = ending_and_winner(record, main);
        self.ending = ending;
        self.winner = winner;
        self.repetition_ply = main
            .and_then(|m| m.repetition)
            .map(|rep| rep.fourth_ply as u32);
        // After a declared foul move (which cannot be played), the arrangement with every
        // main-line move applied, as the record shows it.
        let final_sfen = main.and_then(|m| {
            if moves.get(m.played()).is_some_and(|n| n.foul.is_some()) {
                record.final_setup().map(|s| s.to_sfen())
            } else {
                Some(m.last.to_sfen())
            }
        });
        self.final_sfen = final_sfen.map(S::from);
        self.start_sfen = Some(S::from(record.start.sfen()));
        self.key = Some(S::from(key_hex(game_key(record))));
    }
}

impl<S: AsRef<str>> GameRow<S> {
    /// `path#game`: how `duplicate_of` names a game.
    pub fn id(&self) -> String {
        format!("{}#{}", self.path.as_ref(), self.game)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The first game of `text`, which must have no error.
    pub(crate) fn read_one(text: &str) -> InputRecord {
        let game = read_any(text);
        assert!(game.error.is_none(), "{:?}", game.error);
        game
    }

    /// The first game of `text`, error and all.
    pub(super) fn read_any(text: &str) -> InputRecord {
        let g = shogi_kif::Reader::new(text.as_bytes(), shogi_kif::ReadOptions::default())
            .unwrap()
            .next()
            .unwrap();
        InputRecord {
            index: 1,
            line: 1,
            format: None,
            encoding: None,
            record: Some(g.record),
            error: g.error,
            diagnostics: g.diagnostics,
            main: g.main,
            ratings: [None, None],
            panic: None,
        }
    }

    fn row_of(text: &str) -> GameRow {
        let game = read_one(text);
        assert!(game.main.is_some());
        GameRow::new("t", &game)
    }

    /// The borrowing row holds the same values as the owned one.
    #[test]
    fn a_borrowed_row_is_the_owned_row() {
        for text in [
            "開始日時：2024/01/02(火) 10:00\n先手：甲 初段\n後手：乙\n持ち時間：10分\n秒読み：30秒\n手合割：香落ち\n手数----指手--\n   1 ３四歩(33)\n   2 投了\n",
            "position startpos moves 7g7f 3c3d 8h2b+\n",
        ] {
            let game = read_one(text);
            let owned = GameRow::new("p", &game);
            assert!(owned.sente.is_some() || owned.plies == 3, "{owned:?}");
            assert_eq!(GameRow::borrowed("p", &game).into_owned(), owned);
        }
    }

    #[test]
    fn resign_winner_is_the_other_side() {
        let r = row_of("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n");
        assert_eq!(r.plies, 2);
        assert_eq!(r.ending.map(EndingName::name), Some("resign"));
        assert_eq!(r.winner, Winner::Gote);
        assert!(r.valid);
        let r = row_of("   1 ７六歩(77)\n   2 投了\n");
        assert_eq!(r.winner, Winner::Sente);
    }

    #[test]
    fn mate_found_by_replay_without_an_ending() {
        // Fool's mate-like: a position where sente mates with G*5b (tsume start).
        let r = row_of("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b\n");
        assert_eq!(r.ending.map(EndingName::name), Some("checkmate"));
        assert_eq!(r.winner, Winner::Sente);
        assert_eq!(
            r.final_sfen.as_deref(),
            Some("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 2")
        );
    }

    #[test]
    fn repetition_found_by_replay() {
        let moves = "2h3h 8b7b 3h2h 7b8b ".repeat(3);
        let r = row_of(&format!("position startpos moves {moves}\n"));
        assert_eq!(r.repetition_ply, Some(12));
        assert_eq!(r.ending.map(EndingName::name), Some("repetition"));
        assert_eq!(r.winner, Winner::Draw);
    }

    #[test]
    fn columns_are_the_csv_header() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(GameRow::<String>::default()).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next().unwrap(), COLUMNS.join(","));
    }

    #[test]
    fn headers_and_dates() {
        let r = row_of(
            "開始日時：2024/01/02(火) 10:00\n棋戦：テスト\n先手：甲\n後手：乙\n持ち時間：10分\n秒読み：30秒\n手合割：香落ち\n手数----指手--\n   1 ３四歩(33)\n   2 投了\n",
        );
        assert_eq!(r.start.as_deref(), Some("2024/01/02(火) 10:00"));
        assert_eq!(r.start_iso.as_deref(), Some("2024-01-02T10:00:00"));
        assert_eq!(r.event.as_deref(), Some("テスト"));
        assert_eq!(r.sente.as_deref(), Some("甲"));
        assert_eq!(r.gote.as_deref(), Some("乙"));
        assert_eq!(r.time_control.as_deref(), Some("10分 秒読み30秒"));
        assert_eq!(r.handicap.as_deref(), Some("香落ち"));
        // Gote (上手) moved first and sente (下手) resigned.
        assert_eq!(r.winner, Winner::Gote);
    }
}

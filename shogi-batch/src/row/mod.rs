//! One row per game: the columns of `shogi stats`, shared by CSV, JSON lines, SQLite and Python.

//!
//! Layout: this module holds the row and its steps; `columns` the header and ending
//! columns; `replay` what replaying the main line tells.

use crate::key::{game_key, key_hex};
use crate::read::ReadGame;
use columns::{encoding_name, ending_and_winner};
use serde::{Deserialize, Serialize};
use shogi_core::Position;
use shogi_kif::{Record, Severity};

mod columns;
mod csv_line;
mod moves;
mod replay;

pub use csv_line::csv_header;

pub use moves::{main_line_text, moves_text};

pub(crate) use replay::replay_main;
pub use replay::{Replay, replay, same_position};

/// One game, as a row of the `shogi stats` table.
///
/// The fields are the columns, in order; absent values are empty in CSV and `null` in JSON.
/// A game that could not be read has `valid = false`, the reason in `first_error`, and what
/// could be read before the error (at least `path`, `game`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// The input the game comes from (see [`crate::Input::name`]).
    pub path: String,
    /// The game's number within its input, from 1 (CSA files and USI/SFEN lists hold many).
    pub game: u32,
    /// The line the game starts on in its input, when the reader says.
    pub line: Option<u32>,
    /// The record format: `kif`, `ki2`, `csa`, `usi`, `sfen`, `jkf`.
    pub format: Option<String>,
    /// The text encoding: `utf-8`, `shift_jis`, `euc-jp`.
    pub encoding: Option<String>,
    /// `standard` or `mini` (Mini Shogi).
    pub variant: Option<String>,
    /// The handicap (手合割) by its Japanese name (`平手`, `香落ち`, `二枚落ち`, …), or the
    /// name a record gives a position that is no preset (`詰将棋`, `その他`).
    pub handicap: Option<String>,
    /// Sente's (black's, 下手's) name, as written.
    pub sente: Option<String>,
    /// Gote's (white's, 上手's) name, as written.
    pub gote: Option<String>,
    /// The start date-time, as written (`開始日時`, else `対局日`, CSA `$START_TIME`).
    pub start: Option<String>,
    /// `start` in ISO 8601 (`2024-01-02T10:00:00`, or `2024-01-02` for a date alone), where
    /// it parses.
    pub start_iso: Option<String>,
    /// The event (`棋戦`, `$EVENT`).
    pub event: Option<String>,
    /// The place (`場所`, `$SITE`).
    pub site: Option<String>,
    /// The time control, as written (`持ち時間` with `秒読み`, CSA `$TIME_LIMIT` or `$TIME`).
    pub time_control: Option<String>,
    /// Sente's rating, where the record carries one (Floodgate `'black_rate:`, a
    /// `先手レーティング` header).
    pub sente_rating: Option<f64>,
    /// Gote's rating, likewise (`'white_rate:`, `後手レーティング`).
    pub gote_rating: Option<f64>,
    /// Sente's rank where the name ends with one, as Shogi Wars exports write them
    /// (`surokiti0510 初段` gives `初段`; also `1級`, `四段`, `5段`).
    pub sente_rank: Option<String>,
    /// Gote's rank, likewise.
    pub gote_rank: Option<String>,
    /// Main-line moves read (for an invalid game: the moves before the first error).
    pub plies: u32,
    /// How the game ended: `resign`, `checkmate`, `repetition`, `perpetual-check`,
    /// `declaration`, `impasse`, `timeout`, `foul`, `abort`, `max-moves`, `draw`, `no-mate`,
    /// `sealed`, `win-by-default`, `loss-by-default`, `other`; empty when the record states
    /// none and the final position does not end the game.
    pub ending: Option<String>,
    /// `sente`, `gote`, `draw`, or `none` (unfinished, unknown).
    pub winner: String,
    /// Read without an error (warnings allowed).
    pub valid: bool,
    /// The first error: its kind and reason (`illegal-move: move 88 ５五歩打: 二歩 …`).
    pub first_error: Option<String>,
    /// The ply of the first error, when it is about a move.
    pub error_ply: Option<u32>,
    /// The line of the first error, when known.
    pub error_line: Option<u32>,
    /// Warnings found while reading and validating.
    pub warnings: u32,
    /// The ply at which a position occurred for the fourth time (千日手), if one did.
    pub repetition_ply: Option<u32>,
    /// The position after the main line (SFEN with move number).
    pub final_sfen: Option<String>,
    /// The start position (SFEN with move number).
    pub start_sfen: Option<String>,
    /// The game key: 16 hex digits of a stable hash of start and main line (see
    /// [`crate::game_key`]).
    pub key: Option<String>,
    /// With `--dedup`: the first copy of this game (`path#game`), when this is a duplicate.
    pub duplicate_of: Option<String>,
    /// With `--moves NOTATION` only (the column is absent otherwise): the main line as text
    /// in that notation, moves separated by single spaces (see [`moves_text`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<String>,
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
    /// The row of a game of input `path`, with the main line replayed as `r` (see
    /// [`replay`]; pass `None` to have it replayed here).
    ///
    /// Three steps: what the reader said (format, errors, warnings), what the record's
    /// header says (names, dates, ratings: `columns::header_columns`), what its main line
    /// gives (plies, ending, winner, positions, key).
    pub fn new(path: &str, game: &ReadGame, r: Option<&Replay>) -> GameRow {
        let mut row = GameRow {
            path: path.to_string(),
            game: game.index,
            line: (game.line > 0).then_some(game.line),
            format: game.format.map(|f| f.name().to_string()),
            encoding: game.encoding.map(|e| encoding_name(e).to_string()),
            winner: "none".into(),
            valid: game.is_valid(),
            sente_rating: game.ratings[0],
            gote_rating: game.ratings[1],
            ..GameRow::default()
        };
        row.reader_columns(game);
        let Some(record) = &game.record else {
            return row;
        };
        let owned;
        let r = match r {
            Some(r) => r,
            None => {
                owned = game.replay(None);
                &owned
            }
        };
        columns::header_columns(&mut row, record);
        row.line_columns(record, r);
        row
    }

    /// The first error (its kind and reason, ply and line) and the number of warnings.
    fn reader_columns(&mut self, game: &ReadGame) {
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
            self.first_error = Some(format!("{kind}: {}", e.message));
            self.error_ply = e.ply;
            self.error_line = (e.location.line > 0).then_some(e.location.line);
        } else if let Some(d) = first_diag_error {
            self.first_error = Some(d.message.clone());
            self.error_line = (d.line > 0).then_some(d.line);
        }
        self.warnings = game
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count() as u32;
    }

    /// What the main line replayed as `r` gives: plies, ending and winner, repetition,
    /// final and start positions, the game key.
    fn line_columns(&mut self, record: &Record, r: &Replay) {
        self.plies = record.moves.moves.len() as u32;
        let (ending, winner) = ending_and_winner(record, r);
        self.ending = ending;
        self.winner = winner;
        self.repetition_ply = r.repetition.map(|rep| rep.fourth_ply as u32);
        // After a declared foul move (which cannot be played), the arrangement with every
        // main-line move applied, as the record shows it.
        self.final_sfen =
            if r.played < record.moves.moves.len() && record.moves.moves[r.played].foul.is_some() {
                record.final_setup().map(|s| s.to_sfen())
            } else {
                r.last.as_ref().map(Position::to_sfen)
            };
        self.start_sfen = Some(record.start.sfen.clone());
        self.key = Some(key_hex(game_key(record)));
    }

    /// `path#game`: how `duplicate_of` names a game.
    pub fn id(&self) -> String {
        format!("{}#{}", self.path, self.game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn read_one(text: &str) -> ReadGame {
        let g = shogi_kif::Reader::new(text.as_bytes(), shogi_kif::ReadOptions::default())
            .unwrap()
            .next()
            .unwrap();
        assert!(g.error.is_none(), "{:?}", g.error);
        ReadGame {
            index: 1,
            line: 1,
            format: None,
            encoding: None,
            record: Some(g.record),
            error: None,
            diagnostics: g.diagnostics,
            main: g.main,
            ratings: [None, None],
            panic: None,
        }
    }

    fn row_of(text: &str) -> GameRow {
        let game = read_one(text);
        assert!(game.main.is_some());
        GameRow::new("t", &game, None)
    }

    #[test]
    fn resign_winner_is_the_other_side() {
        let r = row_of("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n");
        assert_eq!(r.plies, 2);
        assert_eq!(r.ending.as_deref(), Some("resign"));
        assert_eq!(r.winner, "gote");
        assert!(r.valid);
        let r = row_of("   1 ７六歩(77)\n   2 投了\n");
        assert_eq!(r.winner, "sente");
    }

    #[test]
    fn mate_found_by_replay_without_an_ending() {
        // Fool's mate-like: a position where sente mates with G*5b (tsume start).
        let r = row_of("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b\n");
        assert_eq!(r.ending.as_deref(), Some("checkmate"));
        assert_eq!(r.winner, "sente");
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
        assert_eq!(r.ending.as_deref(), Some("repetition"));
        assert_eq!(r.winner, "draw");
    }

    #[test]
    fn columns_are_the_csv_header() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(GameRow::default()).unwrap();
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
        assert_eq!(r.winner, "gote");
    }
}

//! One row per game: the columns of `shogi stats`, shared by CSV, JSON lines, SQLite and Python.

use crate::date::iso8601;
use crate::key::{game_key, key_hex};
use crate::read::ReadGame;
use serde::{Deserialize, Serialize};
use shogi_core::{Color, Game, Position, Repetition};
use shogi_kif::{EndingKind, HeaderKey, MainLine, Record, Severity};

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

/// What replaying a game's main line tells beyond the record: the final position, a
/// four-fold repetition, whether a given position was passed through.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// The position after the last playable main-line move.
    pub last: Option<Position>,
    /// Moves played (a declared foul move and anything after it are not).
    pub played: usize,
    /// The first four-fold repetition.
    pub repetition: Option<Repetition>,
    /// Whether the main line passed through the wanted position (see [`replay`]).
    pub reached: bool,
    /// The side to move at the start.
    pub start_side: Option<Color>,
}

/// Replays the main line of `record`, looking for `want` on the way (compared by Zobrist
/// key, confirmed by board, hands and side to move).
///
/// The record must be as the reader gives it: every main-line move legal up to a declared
/// foul (moves are played without checking them again; an illegal one would give a wrong
/// answer, never a crash).
pub fn replay(record: &Record, want: Option<&Position>) -> Replay {
    let Some(start) = start_position(record) else {
        return Replay::default();
    };
    let mut pos = start.clone();
    let want_key = want.map(Position::key);
    let hit = |p: &Position| match (want, want_key) {
        (Some(w), Some(k)) => p.key() == k && same_position(p, w),
        _ => false,
    };
    let mut out = Replay {
        reached: hit(&pos),
        start_side: Some(start.side_to_move()),
        ..Replay::default()
    };
    let moves = &record.moves.moves;
    let mut keys = Vec::with_capacity(moves.len() + 1);
    keys.push(pos.key());
    for node in moves {
        if node.foul.is_some() {
            break;
        }
        pos.play_unchecked(node.mv);
        keys.push(pos.key());
        if !out.reached && want.is_some() && hit(&pos) {
            out.reached = true;
        }
    }
    out.played = keys.len() - 1;
    if let Some(ply) = fourth_occurrence(&keys) {
        let mut game = Game::new(start);
        for node in &moves[..ply] {
            game.play_unchecked(node.mv);
        }
        out.repetition = game.repetition();
    }
    out.last = Some(pos);
    out
}

/// [`replay`] from what the reader learned while replaying the main line of `record`
/// (`main`, see [`shogi_kif::Game::main`]): nothing is played again, except the moves up to
/// a position whose key is `want`'s, to confirm it.
pub fn replay_main(record: &Record, main: &MainLine, want: Option<&Position>) -> Replay {
    let mut out = Replay {
        last: Some(main.last.clone()),
        played: main.keys.len(),
        repetition: main.repetition,
        reached: false,
        start_side: Some(main.start.side_to_move()),
    };
    let Some(want) = want else {
        return out;
    };
    let want_key = want.key();
    if main.start.key() == want_key && same_position(&main.start, want) {
        out.reached = true;
        return out;
    }
    let moves = &record.moves.moves;
    let mut pos = main.start.clone();
    let mut played = 0;
    for (ply, _) in main
        .keys
        .iter()
        .enumerate()
        .filter(|(_, k)| **k == want_key)
    {
        let Some(between) = moves.get(played..=ply) else {
            break;
        };
        for node in between {
            pos.play_unchecked(node.mv);
        }
        played = ply + 1;
        if same_position(&pos, want) {
            out.reached = true;
            break;
        }
    }
    out
}

/// The start position; the usual starts are parsed once per process, not once per game.
fn start_position(record: &Record) -> Option<Position> {
    static STARTS: std::sync::OnceLock<[Position; 2]> = std::sync::OnceLock::new();
    let starts = STARTS.get_or_init(|| {
        [
            Position::startpos(shogi_core::Variant::Standard),
            Position::startpos(shogi_core::Variant::Mini),
        ]
    });
    let sfen = record.start.sfen.as_str();
    if sfen == shogi_core::Variant::Standard.start_sfen() {
        Some(starts[0].clone())
    } else if sfen == shogi_core::Variant::Mini.start_sfen() {
        Some(starts[1].clone())
    } else {
        record.start_position()
    }
}

/// A slot of the repetition table: a key, how often it was seen, and the game it belongs to
/// (slots of earlier games count as empty, so the table is never cleared).
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    stamp: u32,
    count: u8,
}

thread_local! {
    /// The repetition table of this thread, reused from game to game.
    static TABLE: std::cell::RefCell<(Vec<Slot>, u32)> = const { std::cell::RefCell::new((Vec::new(), 0)) };
}

/// The first ply (index into `keys`, the position keys from the start) at which a position is
/// seen for the fourth time: counted in an open-addressing table of the (already random)
/// Zobrist keys.
fn fourth_occurrence(keys: &[u64]) -> Option<usize> {
    if keys.len() < 9 {
        return None;
    }
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        let (table, stamp) = &mut *t;
        let size = (keys.len() * 2).next_power_of_two();
        *stamp = stamp.wrapping_add(1);
        if table.len() < size || *stamp == 0 {
            table.clear();
            table.resize(size.max(table.len()), Slot::default());
            *stamp = 1;
        }
        let mask = size - 1;
        let stamp = *stamp;
        keys.iter().enumerate().find_map(|(ply, &k)| {
            let mut i = (k as usize) & mask;
            loop {
                let slot = &mut table[i];
                if slot.stamp != stamp {
                    *slot = Slot {
                        key: k,
                        stamp,
                        count: 1,
                    };
                    return None;
                }
                if slot.key == k {
                    slot.count += 1;
                    return (slot.count == 4).then_some(ply);
                }
                i = (i + 1) & mask;
            }
        })
    })
}

/// Same board, hands and side to move (the move number aside).
pub fn same_position(a: &Position, b: &Position) -> bool {
    let strip = |p: &Position| crate::key::start_text(&p.to_sfen());
    strip(a) == strip(b)
}

fn header(record: &Record, key: &HeaderKey) -> Option<String> {
    record
        .header
        .get(key)
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

fn header_other(record: &Record, names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|n| header(record, &HeaderKey::Other((*n).to_string())))
}

fn rating_from(value: Option<String>) -> Option<f64> {
    let v = value?;
    let digits: String = v
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            _ => c,
        })
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    digits.parse().ok().filter(|r: &f64| r.is_finite())
}

/// A dan or kyu rank at the end of a name, after a space (`name 初段`, `name 3級`).
fn rank(name: &str) -> Option<String> {
    let last = name.trim().rsplit([' ', '\u{3000}']).next()?;
    if last.len() == name.trim().len() {
        return None;
    }
    let (number, unit) = last
        .strip_suffix('段')
        .map(|n| (n, '段'))
        .or_else(|| last.strip_suffix('級').map(|n| (n, '級')))?;
    let kanji = [
        "初", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十",
    ];
    let ok = kanji.contains(&number)
        || (!number.is_empty()
            && number.len() <= 6
            && number
                .chars()
                .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c)));
    ok.then(|| format!("{number}{unit}"))
}

/// The `ending` column and the winner for a record replayed as `r`.
fn ending_and_winner(record: &Record, r: &Replay) -> (Option<String>, String) {
    let moves = record.moves.moves.len();
    let start_side = r.start_side.unwrap_or(Color::Black);
    // The side to move after every main-line move (a declared foul move included).
    let to_move = if moves % 2 == 0 {
        start_side
    } else {
        !start_side
    };
    let side = |c: Color| match c {
        Color::Black => "sente",
        Color::White => "gote",
    };
    let win = |c: Color| side(c).to_string();
    let draw = || "draw".to_string();
    let none = || "none".to_string();
    let repetition_at_end = r
        .repetition
        .filter(|rep| rep.fourth_ply == moves && r.played == moves);
    let stated = record.ending().map(|e| (&e.kind, e.offender));
    let Some((kind, offender)) = stated else {
        // Nothing written: what the final position says.
        if let Some(rep) = repetition_at_end {
            return match rep.perpetual_checker {
                Some(c) => (Some("perpetual-check".into()), win(!c)),
                None => (Some("repetition".into()), draw()),
            };
        }
        if r.played == moves && r.last.as_ref().is_some_and(Position::is_checkmate) {
            return (Some("checkmate".into()), win(!to_move));
        }
        return (None, none());
    };
    let (name, winner) = match kind {
        EndingKind::Resign => ("resign", win(!to_move)),
        EndingKind::Interrupt => ("abort", none()),
        EndingKind::Repetition => match repetition_at_end.and_then(|rep| rep.perpetual_checker) {
            Some(c) => ("perpetual-check", win(!c)),
            None => ("repetition", draw()),
        },
        EndingKind::Impasse => ("impasse", draw()),
        EndingKind::Declaration => ("declaration", win(to_move)),
        EndingKind::TimeUp => ("timeout", win(!to_move)),
        EndingKind::FoulWin => match offender {
            Some(c) => ("foul", win(!c)),
            None => ("foul", win(to_move)),
        },
        EndingKind::FoulLoss => ("foul", win(!to_move)),
        EndingKind::Mate => ("checkmate", win(!to_move)),
        EndingKind::NoMate => ("no-mate", none()),
        EndingKind::MaxMoves => ("max-moves", draw()),
        EndingKind::Draw => ("draw", draw()),
        EndingKind::SealedMove => ("sealed", none()),
        EndingKind::WinByDefault => ("win-by-default", win(to_move)),
        EndingKind::LossByDefault => ("loss-by-default", win(!to_move)),
        EndingKind::Other(word) => {
            let w = word.trim().trim_start_matches('%').to_ascii_lowercase();
            if matches!(w.as_str(), "time-up" | "time_up" | "timeup" | "time up") {
                ("timeout", win(!to_move))
            } else {
                ("other", none())
            }
        }
    };
    (Some(name.to_string()), winner)
}

fn encoding_name(e: shogi_kif::Encoding) -> &'static str {
    match e {
        shogi_kif::Encoding::Utf8 => "utf-8",
        shogi_kif::Encoding::ShiftJis => "shift_jis",
        shogi_kif::Encoding::EucJp => "euc-jp",
    }
}

impl GameRow {
    /// The row of a game of input `path`, with the main line replayed as `r` (see
    /// [`replay`]; pass `None` to have it replayed here).
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
            row.first_error = Some(format!("{kind}: {}", e.message));
            row.error_ply = e.ply;
            row.error_line = (e.location.line > 0).then_some(e.location.line);
        } else if let Some(d) = first_diag_error {
            row.first_error = Some(d.message.clone());
            row.error_line = (d.line > 0).then_some(d.line);
        }
        row.warnings = game
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count() as u32;
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
        row.variant = Some(record.start.variant.name().to_string());
        row.handicap = record
            .start
            .handicap
            .map(|h| h.japanese().to_string())
            .or_else(|| record.start.name.clone());
        row.sente = header(record, &HeaderKey::Black);
        row.gote = header(record, &HeaderKey::White);
        row.start =
            header(record, &HeaderKey::StartTime).or_else(|| header(record, &HeaderKey::Date));
        row.start_iso = row.start.as_deref().and_then(iso8601);
        row.event = header(record, &HeaderKey::Event);
        row.site = header(record, &HeaderKey::Site);
        row.time_control = match (
            header(record, &HeaderKey::TimeLimit),
            header(record, &HeaderKey::Byoyomi),
        ) {
            (Some(t), Some(b)) => Some(format!("{t} 秒読み{b}")),
            (Some(t), None) => Some(t),
            (None, Some(b)) => Some(format!("秒読み{b}")),
            (None, None) => header(record, &HeaderKey::CsaTime),
        };
        if row.sente_rating.is_none() {
            row.sente_rating = rating_from(header_other(
                record,
                &[
                    "先手レーティング",
                    "下手レーティング",
                    "先手R",
                    "black_rate",
                ],
            ));
        }
        if row.gote_rating.is_none() {
            row.gote_rating = rating_from(header_other(
                record,
                &[
                    "後手レーティング",
                    "上手レーティング",
                    "後手R",
                    "white_rate",
                ],
            ));
        }
        row.sente_rank = row.sente.as_deref().and_then(rank);
        row.gote_rank = row.gote.as_deref().and_then(rank);
        row.plies = record.moves.moves.len() as u32;
        let (ending, winner) = ending_and_winner(record, r);
        row.ending = ending;
        row.winner = winner;
        row.repetition_ply = r.repetition.map(|rep| rep.fourth_ply as u32);
        // After a declared foul move (which cannot be played), the arrangement with every
        // main-line move applied, as the record shows it.
        row.final_sfen =
            if r.played < record.moves.moves.len() && record.moves.moves[r.played].foul.is_some() {
                record.final_setup().map(|s| s.to_sfen())
            } else {
                r.last.as_ref().map(Position::to_sfen)
            };
        row.start_sfen = Some(record.start.sfen.clone());
        row.key = Some(key_hex(game_key(record)));
        row
    }

    /// `path#game`: how `duplicate_of` names a game.
    pub fn id(&self) -> String {
        format!("{}#{}", self.path, self.game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_one(text: &str) -> ReadGame {
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

    /// What the reader kept gives the replay that playing the moves again gives, with and
    /// without a wanted position (the start, one reached later, a transposition's twin and
    /// one never reached).
    #[test]
    fn the_readers_main_line_replays_like_the_moves() {
        let cycle = "2h3h 8b7b 3h2h 7b8b ".repeat(3);
        let texts = [
            format!("position startpos moves {cycle}7g7f\n"),
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n".to_string(),
            "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b\n".to_string(),
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 反則負け\n".to_string(),
            "position startpos\n".to_string(),
        ];
        let start = Position::startpos(shogi_core::Variant::Standard);
        let mut after = start.clone();
        for m in ["7g7f", "3c3d"] {
            after.play(shogi_core::Move::from_usi(m).unwrap()).unwrap();
        }
        let mut rook = start.clone();
        rook.play(shogi_core::Move::from_usi("2h3h").unwrap())
            .unwrap();
        let wants = [None, Some(&start), Some(&after), Some(&rook), Some(&after)];
        let mut never = after.clone();
        never
            .play(shogi_core::Move::from_usi("2g2f").unwrap())
            .unwrap();
        for text in &texts {
            let game = read_one(text);
            let record = game.record.as_ref().unwrap();
            assert!(game.main.is_some(), "{text}");
            for want in wants.iter().copied().chain([Some(&never)]) {
                let (a, b) = (replay(record, want), game.replay(want));
                let sfen = |r: &Replay| r.last.as_ref().map(Position::to_sfen);
                assert_eq!(sfen(&a), sfen(&b), "{text}");
                assert_eq!(a.played, b.played, "{text}");
                assert_eq!(a.repetition, b.repetition, "{text}");
                assert_eq!(a.reached, b.reached, "{text} {want:?}");
                assert_eq!(a.start_side, b.start_side, "{text}");
            }
        }
        // The cases mean something: a repetition, positions reached and not.
        let game = read_one(&texts[0]);
        assert!(game.replay(None).repetition.is_some());
        assert!(game.replay(Some(&rook)).reached);
        assert!(!game.replay(Some(&never)).reached);
        assert!(read_one(&texts[1]).replay(Some(&after)).reached);
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
    fn fourth_occurrence_counts_per_game() {
        let keys = [1, 2, 1, 2, 1, 2, 1, 2, 3];
        assert_eq!(fourth_occurrence(&keys), Some(6));
        // A later, shorter game in the same table: earlier counts do not leak.
        assert_eq!(fourth_occurrence(&[1, 2, 3, 4, 5, 6, 7, 8, 1]), None);
        assert_eq!(fourth_occurrence(&[5; 9]), Some(3));
        let long: Vec<u64> = (0..5000).map(|i| i % 1700).collect();
        assert_eq!(fourth_occurrence(&long), None);
    }

    #[test]
    fn columns_are_the_csv_header() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(GameRow::default()).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next().unwrap(), COLUMNS.join(","));
    }

    #[test]
    fn ranks_from_names() {
        assert_eq!(rank("surokiti0510 初段").as_deref(), Some("初段"));
        assert_eq!(rank("muzudho 1級").as_deref(), Some("1級"));
        assert_eq!(rank("foo　四段").as_deref(), Some("四段"));
        assert_eq!(rank("羽生善治"), None);
        assert_eq!(rank("九段"), None);
        assert_eq!(rank("a 百段"), None);
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

//! Training data from game records: one entry per position of a game's main line, with the
//! move played from it, the game's result and the evaluation the record carries, ready to be
//! written as cshogi/DLShogi hcpe, YaneuraOu PackedSfenValue (psv) or a line of text.
//!
//! This module depends only on the record model ([`Record`], [`MoveNode`], [`crate::Ending`])
//! and on shogi-core, so that the command line and the Python bindings share it.
//!
//! # Conventions
//!
//! * **Entries.** One per position *before* each main-line move, in order; the position after
//!   the last move has no entry (no move was played from it). A declared foul move (a
//!   recorded illegal move) and everything after it give no entry.
//! * **Result.** [`game_result`] reads the record's ending as the side to move at the end:
//!   resignation, time loss, mate, own foul and loss by default lose; the opponent's foul and
//!   win by default win; an entering-king declaration wins when it meets the record's rule
//!   (27-point unless the header names the 24-point rule) and loses otherwise (a 24-point
//!   draw is a draw); repetition is a draw unless one side gave check with every move of the
//!   cycle (that side loses); impasse, `%MAX_MOVES` and `%HIKIWAKE` are draws. Interrupted,
//!   adjourned and unterminated games have no result. hcpe stores the result absolutely
//!   (0 draw, 1 sente won, 2 gote won), psv relative to the side to move (1, 0, -1).
//! * **Evaluation.** [`eval_from_comment`] recognises engine comments (see there). Every
//!   recognised form is from **sente's** point of view (checked on the Floodgate records of
//!   the shared corpus: in games gote won, both engines' `'**` scores are negative), and the
//!   comment on move *n* is the search of the position *before* move *n* (the engine's root:
//!   the same reading as DLShogi's `csa_to_hcpe.py`). Entries store it relative to the side
//!   to move, as both formats want, and 0 where the record carries none.
//! * **Mate and large scores.** hcpe: clamped to ±32767, and a mate is ±32767 (what
//!   `csa_to_hcpe.py` writes for Floodgate's ±100000 mates). psv: clamped to ±32000
//!   (YaneuraOu's `VALUE_MATE`), a mate in *n* plies is ±(32000 − *n*), a mate of unknown
//!   length ±32000.
//! * **Ply.** [`Entry::ply`] is the position's SFEN move number (1 for the start of an even
//!   game): psv's `gamePly`.
//!
//! ```
//! use shogi_kif::training::{self, Eval, TrainingOptions};
//!
//! let csa = "V2\nN+a\nN-b\nPI\n+\n+7776FU\n'** 35 -3334FU\n-3334FU\n'** -20\n%TORYO\n";
//! let record = shogi_kif::read_str(csa, shogi_kif::ReadOptions::default())?;
//! let entries = training::entries(&record, &TrainingOptions::default()).expect("selected");
//! assert_eq!(entries.len(), 2);
//! assert_eq!(entries[0].mv.to_usi(), "7g7f");
//! assert_eq!(entries[0].eval, Some(Eval::Cp(35)));
//! // Sente, to move at the end, resigned.
//! assert_eq!(entries[1].result, shogi_core::GameResult::WhiteWin);
//! // The second position has gote to move: sente's -20 is +20 for gote.
//! assert_eq!(entries[1].hcpe_eval(), 20);
//! # Ok::<(), shogi_kif::ReadError>(())
//! ```

use crate::ending::EndingKind;
use crate::model::{MoveNode, Record};
use crate::outcome::{LineEnd, Winner, outcome};
use shogi_core::{
    Color, EncodeError, GameResult, Hcpe, Move, PackedSfenValue, Position, PositionFormat,
};
use std::fmt;

/// An evaluation found in a record's comment, from **sente's** point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Eval {
    /// A score in centipawns (engine units), positive when sente stands better.
    Cp(i32),
    /// A forced mate.
    Mate {
        /// The side that mates.
        winner: Color,
        /// The number of plies to mate from the evaluated position, when written.
        plies: Option<u32>,
    },
}

/// psv's largest score: YaneuraOu's `VALUE_MATE`.
pub const PSV_MATE: i16 = 32000;

impl Eval {
    /// The evaluation from `side`'s point of view, with sente's sign flipped for gote.
    fn signed(self, side: Color, cap: i32, mate: impl Fn(Option<u32>) -> i32) -> i16 {
        let sente = match self {
            Eval::Cp(v) => v.clamp(-cap, cap),
            Eval::Mate { winner, plies } => {
                let m = mate(plies);
                if winner == Color::Black { m } else { -m }
            }
        };
        let v = if side == Color::Black { sente } else { -sente };
        v.clamp(-cap, cap) as i16
    }

    /// hcpe's `eval` for a position with `side` to move: clamped to ±32767, a mate ±32767.
    pub fn hcpe(self, side: Color) -> i16 {
        self.signed(side, i16::MAX as i32, |_| i16::MAX as i32)
    }

    /// psv's `score` for a position with `side` to move: clamped to ±32000, a mate in `n`
    /// plies ±(32000 − n), a mate of unknown length ±32000.
    pub fn psv(self, side: Color) -> i16 {
        let mate = PSV_MATE as i32;
        self.signed(side, mate, |plies| {
            mate - plies.map_or(0, |n| n.min(mate as u32) as i32)
        })
    }
}

/// A signed decimal integer at the start of `s` (`+`/`-` allowed), and the rest of `s`;
/// the number saturates at `i32`'s bounds.
fn leading_int(s: &str) -> Option<(i32, &str)> {
    let b = s.as_bytes();
    let (neg, start) = match b.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let digits = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let mut v: i64 = 0;
    for &c in &b[start..start + digits] {
        v = (v * 10 + i64::from(c - b'0')).min(i64::from(i32::MAX) + 1);
    }
    let v = if neg { -v } else { v };
    let v = v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    Some((v, &s[start + digits..]))
}

/// An integer that is a whole token: followed by the end or by white space.
fn int_token(s: &str) -> Option<i32> {
    let (v, rest) = leading_int(s)?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(v)
}

/// The evaluation in one comment line, as the readers keep it (without the KIF `*` or the
/// CSA `'*` that starts every comment). Only engine-written comments count: those whose text
/// starts with `*` or `#`. Recognised, all from sente's point of view:
///
/// * Floodgate / CSA engine scores, `'** <score> <pv>` in the file: `* 47 -2324FU +2824HI`,
///   `* -120`.
/// * ShogiHome (Electron Shogi) search comments, `**評価値=159` (the player's engine) or
///   `*#評価値=-80` (a researcher) in a KIF file, `'**評価値=` / `'*#評価値=` in CSA, and
///   their mates `*詰み=先手勝ち:7手`, `#詰み=後手勝ち` (no length).
/// * ShogiGUI game and analysis comments: `**対局 深さ 2 ノード数 960 評価値 100 読み筋 …`,
///   `**対局 評価値 100`, `**解析 0 ○ 候補1 … 評価値 123 …` (engines that write this form
///   for ShogiGUI turn their score to sente's view, as ShogiGUI does).
/// * ぴよ将棋 analysis comments: `*#指し手[2912]△６二玉 …`.
pub fn eval_from_comment(comment: &str) -> Option<Eval> {
    let body = comment.strip_prefix(['*', '#'])?;
    // ShogiHome marks the player's and a researcher's lines with one more `*` or `#`.
    let tagged = body.trim_start_matches(['*', '#']);
    if let Some(rest) = tagged.strip_prefix("評価値=") {
        return leading_int(rest.trim_start()).map(|(v, _)| Eval::Cp(v));
    }
    if let Some(rest) = tagged.strip_prefix("詰み=") {
        let (winner, rest) = if let Some(r) = rest.strip_prefix("先手勝ち") {
            (Color::Black, r)
        } else if let Some(r) = rest.strip_prefix("後手勝ち") {
            (Color::White, r)
        } else {
            return None;
        };
        let plies = rest
            .strip_prefix(':')
            .and_then(|r| r.strip_suffix('手').or(Some(r)))
            .and_then(|r| r.trim().parse::<u32>().ok());
        return Some(Eval::Mate { winner, plies });
    }
    if let Some(rest) = tagged.strip_prefix("指し手[") {
        let (v, after) = leading_int(rest)?;
        return after.starts_with(']').then_some(Eval::Cp(v));
    }
    if tagged.starts_with("対局 ") || tagged.starts_with("解析 ") {
        let mut words = tagged.split_whitespace();
        words.find(|w| *w == "評価値")?;
        return words.next().and_then(int_token).map(Eval::Cp);
    }
    // Floodgate: `'** <score> [pv]`, kept as `* <score> [pv]`.
    if comment.starts_with('*') && body.starts_with(char::is_whitespace) {
        return body
            .split_whitespace()
            .next()
            .and_then(int_token)
            .map(Eval::Cp);
    }
    None
}

/// The evaluation attached to a move: the first of its comments that carries one.
pub fn node_eval(node: &MoveNode) -> Option<Eval> {
    node.comments.iter().find_map(|c| eval_from_comment(c))
}

/// The game's result as its ending states it, judged by the rules where they decide it (see
/// the module's conventions). `None` when the game has no result: no ending, interrupted,
/// adjourned, a problem's ending, an unknown word, or a start that cannot be played.
pub fn game_result(record: &Record) -> Option<GameResult> {
    // Training data wants a stated result: a record without an ending gives none.
    record.ending()?;
    let replayed = LineEnd::replay(record)?;
    match outcome(record, &replayed.line_end()).1 {
        Winner::None => None,
        Winner::Draw => Some(GameResult::Draw),
        w => Some(GameResult::from_winner(w.color())),
    }
}

/// Which games and positions give entries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrainingOptions {
    /// Leave out the first N positions of every game (opening plies).
    pub skip_first: u32,
    /// Leave out games that ended in a draw.
    pub skip_draws: bool,
    /// Leave out games that ended with an entering-king declaration.
    pub skip_declarations: bool,
    /// Keep games without a result (interrupted, unterminated), with the result of a draw
    /// (hcpe and psv have no "unknown"). Left out by default.
    pub keep_unfinished: bool,
}

/// Why a game gave no entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// The game has no result (see [`game_result`]).
    NoResult,
    /// The game is a draw and draws are left out.
    Draw,
    /// The game ended with a declaration and those are left out.
    Declaration,
    /// The start position cannot be played.
    NoStart,
    /// The positions cannot be encoded (Mini Shogi, a missing king, more than one set).
    NotEncodable(EncodeError),
    /// A main-line move is illegal (a record built without the reader's checks).
    IllegalMove {
        /// The ply of the move (1 = the first move of the record).
        ply: usize,
    },
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::NoResult => f.write_str("no result (interrupted or unterminated)"),
            Skip::Draw => f.write_str("draw"),
            Skip::Declaration => f.write_str("entering-king declaration"),
            Skip::NoStart => f.write_str("the start position cannot be played"),
            Skip::NotEncodable(e) => write!(f, "not encodable: {e}"),
            Skip::IllegalMove { ply } => write!(f, "move {ply} is illegal"),
        }
    }
}

/// One training entry: a position, the move played from it, the game's result and the
/// evaluation recorded for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position (its move number is the SFEN's).
    pub position: Position,
    /// The move played from it.
    pub mv: Move,
    /// The position's SFEN move number (psv `gamePly`; 1 at an even game's start).
    pub ply: u32,
    /// The game's result (absolute).
    pub result: GameResult,
    /// The recorded evaluation (sente's point of view), if any.
    pub eval: Option<Eval>,
}

impl Entry {
    /// The side to move.
    pub fn side(&self) -> Color {
        self.position.side_to_move()
    }

    /// hcpe's `eval` (side to move; 0 without an evaluation).
    pub fn hcpe_eval(&self) -> i16 {
        self.eval.map_or(0, |e| e.hcpe(self.side()))
    }

    /// psv's `score` (side to move; 0 without an evaluation).
    pub fn psv_score(&self) -> i16 {
        self.eval.map_or(0, |e| e.psv(self.side()))
    }

    /// The 38-byte hcpe entry.
    pub fn hcpe(&self) -> Result<[u8; Hcpe::SIZE], EncodeError> {
        Hcpe::new(&self.position, self.hcpe_eval(), Some(self.mv), self.result)
            .map(|h| h.to_bytes())
    }

    /// The 40-byte psv entry.
    pub fn psv(&self) -> Result<[u8; PackedSfenValue::SIZE], EncodeError> {
        PackedSfenValue::new(&self.position, self.psv_score(), Some(self.mv), self.result)
            .map(|p| p.to_bytes())
    }

    /// The text line of `shogi convert --to positions`, without a newline: SFEN, the USI move,
    /// the ply, the result for the side to move (1, 0, -1) and the psv score, tab-separated.
    pub fn text_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}",
            self.position.to_sfen(),
            self.mv.to_usi(),
            self.ply,
            self.result.relative_to(self.side()).to_byte(),
            self.psv_score()
        )
    }
}

/// The result a selected game's entries carry, or why the game gives none.
pub fn select(record: &Record, options: &TrainingOptions) -> Result<GameResult, Skip> {
    let result = match game_result(record) {
        Some(r) => r,
        None if options.keep_unfinished => GameResult::Draw,
        None => return Err(Skip::NoResult),
    };
    if options.skip_draws && result == GameResult::Draw {
        return Err(Skip::Draw);
    }
    if options.skip_declarations
        && record
            .ending()
            .is_some_and(|e| e.kind == EndingKind::Declaration)
    {
        return Err(Skip::Declaration);
    }
    Ok(result)
}

/// Calls `f` with each entry of the game, in order, when the options select it; returns the
/// number of entries, or why the game gives none (then `f` was not called). The start
/// position is checked to be encodable first: every later position holds the same pieces.
pub fn for_each_entry(
    record: &Record,
    options: &TrainingOptions,
    mut f: impl FnMut(&Entry),
) -> Result<usize, Skip> {
    let result = select(record, options)?;
    let start = record.start_position().ok_or(Skip::NoStart)?;
    let mut scratch = [0u8; 32];
    PositionFormat::Hcp
        .encode(&start, &mut scratch)
        .map_err(Skip::NotEncodable)?;
    // Check every move first, so that an illegal one leaves the game out whole.
    let mut pos = start.clone();
    let moves: Vec<&MoveNode> = record
        .main_line()
        .take_while(|n| n.foul.is_none())
        .collect();
    for (i, node) in moves.iter().enumerate() {
        pos.play(node.mv)
            .map_err(|_| Skip::IllegalMove { ply: i + 1 })?;
    }
    let Some(first) = moves.first() else {
        return Ok(0);
    };
    let mut entry = Entry {
        ply: start.move_number(),
        position: start,
        mv: first.mv,
        result,
        eval: None,
    };
    let mut n = 0;
    for (i, node) in moves.iter().enumerate() {
        if i as u64 >= u64::from(options.skip_first) {
            entry.mv = node.mv;
            entry.eval = node_eval(node);
            entry.ply = entry.position.move_number();
            f(&entry);
            n += 1;
        }
        entry.position.play_unchecked(node.mv);
    }
    Ok(n)
}

/// The entries of a game, collected (see [`for_each_entry`]).
pub fn entries(record: &Record, options: &TrainingOptions) -> Result<Vec<Entry>, Skip> {
    let mut out = Vec::new();
    for_each_entry(record, options, |e| out.push(e.clone()))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A comment line as the reader keeps it: the file's line without its KIF `*` or CSA `'*`.
    fn kif(line: &str) -> Option<Eval> {
        eval_from_comment(line.strip_prefix('*').expect("a KIF comment line"))
    }

    fn csa(line: &str) -> Option<Eval> {
        eval_from_comment(line.strip_prefix("'*").expect("a CSA program comment line"))
    }

    #[test]
    fn floodgate_scores() {
        // Lines from the shared corpus's Floodgate records.
        assert_eq!(
            csa("'** 47 -2324FU +2824HI -8485FU +6978KI -4132KI +7776FU"),
            Some(Eval::Cp(47))
        );
        assert_eq!(csa("'** 0"), Some(Eval::Cp(0)));
        assert_eq!(
            csa("'** -34 -5354FU +7988GI -3536FU +3736FU"),
            Some(Eval::Cp(-34))
        );
        assert_eq!(csa("'** -865423 +2726FU"), Some(Eval::Cp(-865423)));
        assert_eq!(csa("'** 100000 +0054KA"), Some(Eval::Cp(100000)));
        // A V3 comment and the header-like comments are not scores.
        assert_eq!(csa("'*30手目から"), None);
        assert_eq!(csa("'** 読み筋と評価値"), None);
        assert_eq!(eval_from_comment("summary:toryo:a win:b lose"), None);
        assert_eq!(eval_from_comment("* 12abc"), None);
    }

    #[test]
    fn shogihome_comments() {
        // tsshogi's sample04 (ShogiHome): `**評価値=159` in KIF, `*評価値=159` in its JKF.
        assert_eq!(kif("**評価値=159"), Some(Eval::Cp(159)));
        assert_eq!(kif("**評価値=-1184"), Some(Eval::Cp(-1184)));
        assert_eq!(kif("*#評価値=+2000"), Some(Eval::Cp(2000)));
        assert_eq!(csa("'*#評価値=-500"), Some(Eval::Cp(-500)));
        assert_eq!(
            kif("**詰み=先手勝ち:7手"),
            Some(Eval::Mate {
                winner: Color::Black,
                plies: Some(7)
            })
        );
        assert_eq!(
            kif("*#詰み=後手勝ち"),
            Some(Eval::Mate {
                winner: Color::White,
                plies: None
            })
        );
        assert_eq!(kif("**読み筋=△６二銀▲７八玉"), None);
        assert_eq!(kif("**深さ=15"), None);
        assert_eq!(kif("*互角"), None);
    }

    #[test]
    fn shogigui_and_piyo_comments() {
        // kif-parser's ShogiGUI record.
        assert_eq!(
            kif("**対局 深さ 2 ノード数 1123 評価値 100 読み筋 △５二金(41) "),
            Some(Eval::Cp(100))
        );
        assert_eq!(
            kif("**対局 深さ 2 ノード数 365 評価値 -1000001 読み筋 △同　銀(31) "),
            Some(Eval::Cp(-1000001))
        );
        assert_eq!(
            kif("**解析 0 ○ 候補1 時間 00:01.0 深さ 17/29 ノード数 123 評価値 -85 読み筋 ▲７六歩"),
            Some(Eval::Cp(-85))
        );
        // The short form engines' own KIF writers use for ShogiGUI (sente's view too).
        assert_eq!(kif("**対局 評価値 -5000"), Some(Eval::Cp(-5000)));
        // tsshogi's ぴよ将棋 record.
        assert_eq!(
            kif("*#指し手[2912]△６二玉  ▲３三金打  △１二銀打"),
            Some(Eval::Cp(2912))
        );
        assert_eq!(
            kif("*#指し手[3773] 悪手 △７一玉  ▲４三金"),
            Some(Eval::Cp(3773))
        );
        // Recommended moves and the summary lines carry no score of the move played.
        assert_eq!(kif("*#推奨手[2508]△５四玉  ▲５三金打"), None);
        assert_eq!(kif("*#先手 悪手:0回  疑問手:2回"), None);
        // A human comment mentioning an evaluation is not an engine's.
        assert_eq!(kif("*評価値 300くらい"), None);
    }

    #[test]
    fn formats_conventions() {
        let cp = Eval::Cp(-40000);
        assert_eq!(cp.hcpe(Color::Black), -32767);
        assert_eq!(cp.hcpe(Color::White), 32767);
        assert_eq!(cp.psv(Color::Black), -32000);
        assert_eq!(Eval::Cp(123).psv(Color::White), -123);
        let mate = Eval::Mate {
            winner: Color::White,
            plies: Some(5),
        };
        assert_eq!(mate.hcpe(Color::White), 32767);
        assert_eq!(mate.hcpe(Color::Black), -32767);
        assert_eq!(mate.psv(Color::White), 31995);
        assert_eq!(mate.psv(Color::Black), -31995);
        let unknown = Eval::Mate {
            winner: Color::Black,
            plies: None,
        };
        assert_eq!(unknown.psv(Color::Black), 32000);
    }

    fn result_of(text: &str) -> Option<GameResult> {
        game_result(
            &crate::read::read_str(text, crate::read::ReadOptions::default()).expect("readable"),
        )
    }

    #[test]
    fn results() {
        let two = "V2\nPI\n+\n+7776FU\n-3334FU\n";
        assert_eq!(
            result_of(&format!("{two}%TORYO\n")),
            Some(GameResult::WhiteWin)
        );
        assert_eq!(
            result_of("V2\nPI\n+\n+7776FU\n%TORYO\n"),
            Some(GameResult::BlackWin)
        );
        assert_eq!(
            result_of(&format!("{two}%TIME_UP\n")),
            Some(GameResult::WhiteWin)
        );
        assert_eq!(
            result_of(&format!("{two}%SENNICHITE\n")),
            Some(GameResult::Draw)
        );
        assert_eq!(
            result_of(&format!("{two}%JISHOGI\n")),
            Some(GameResult::Draw)
        );
        assert_eq!(result_of(&format!("{two}%CHUDAN\n")), None);
        assert_eq!(result_of(two), None);
        // A declaration that does not meet the rule loses.
        assert_eq!(
            result_of(&format!("{two}%KACHI\n")),
            Some(GameResult::WhiteWin)
        );
    }

    #[test]
    fn perpetual_check_loses() {
        // Sente gives check with every move of the cycle: perpetual check, sente loses.
        let text = "position sfen 4k4/9/9/9/9/9/9/9/4K3R b G 1 moves 1i1a 5a5b 1a1b 5b5a 1b1a 5a5b 1a1b 5b5a 1b1a 5a5b 1a1b 5b5a 1b1a";
        let mut record =
            crate::read::read_str(text, crate::read::ReadOptions::default()).expect("readable");
        record.moves.ending = Some(crate::Ending::new(EndingKind::Repetition));
        let checks = game_result(&record);
        assert_eq!(checks, Some(GameResult::WhiteWin));
    }

    #[test]
    fn entries_of_a_floodgate_game() {
        let csa =
            "V2\nN+a\nN-b\nPI\n+\n+7776FU\n'** 35 -3334FU\n-3334FU\n'** -20\n+2726FU\n%TORYO\n";
        let record =
            crate::read::read_str(csa, crate::read::ReadOptions::default()).expect("readable");
        let all = entries(&record, &TrainingOptions::default()).expect("selected");
        let usi: Vec<String> = all.iter().map(|e| e.mv.to_usi()).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "2g2f"]);
        assert_eq!(all.iter().map(|e| e.ply).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(all[2].eval, None);
        assert_eq!(all[2].hcpe_eval(), 0);
        assert!(all.iter().all(|e| e.result == GameResult::BlackWin));
        assert_eq!(
            all[1].text_line(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\t3c3d\t2\t-1\t20"
        );
        let later = TrainingOptions {
            skip_first: 2,
            ..TrainingOptions::default()
        };
        assert_eq!(entries(&record, &later).expect("selected").len(), 1);
        let no_draws = TrainingOptions {
            skip_draws: true,
            ..TrainingOptions::default()
        };
        assert_eq!(entries(&record, &no_draws).map(|e| e.len()), Ok(3));
    }

    #[test]
    fn games_left_out() {
        let read = |t: &str| {
            crate::read::read_str(t, crate::read::ReadOptions::default()).expect("readable")
        };
        let draw = read("V2\nPI\n+\n+7776FU\n%SENNICHITE\n");
        let opts = TrainingOptions {
            skip_draws: true,
            ..TrainingOptions::default()
        };
        assert_eq!(entries(&draw, &opts), Err(Skip::Draw));
        let open = read("V2\nPI\n+\n+7776FU\n");
        assert_eq!(
            entries(&open, &TrainingOptions::default()),
            Err(Skip::NoResult)
        );
        let keep = TrainingOptions {
            keep_unfinished: true,
            ..TrainingOptions::default()
        };
        assert_eq!(
            entries(&open, &keep).map(|e| e[0].result),
            Ok(GameResult::Draw)
        );
        let mini = read("position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c\n");
        let mut mini = mini;
        mini.moves.ending = Some(crate::Ending::new(EndingKind::Resign));
        assert!(matches!(
            entries(&mini, &TrainingOptions::default()),
            Err(Skip::NotEncodable(_))
        ));
        // A record built in code with an illegal move gives nothing.
        let mut bad = read("V2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n");
        bad.moves.moves[1].mv = Move::from_usi("7g7f").expect("usi");
        assert_eq!(
            entries(&bad, &TrainingOptions::default()),
            Err(Skip::IllegalMove { ply: 2 })
        );
    }
}

//! Evaluations in records' engine comments, and how hcpe and psv store them.

use shogi_core::Color;
use shogi_kif::MoveNode;

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

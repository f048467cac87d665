//! How a game (or a line of play) ends.

use serde::{Deserialize, Serialize};
use shogi_core::Color;

/// The word KIF, KI2 and JKF write for an unknown ending word that would not read back as
/// itself (不明, "unknown"): the line keeps an ending, so that the ending's variations stay
/// where they were, and the word itself is the ending's first comment.
pub const UNKNOWN_ENDING_WORD: &str = "不明";

/// The terminal statement of a line of play, relative to the side to move at that point.
///
/// Serialised (JSON) by its one name, [`crate::ending_name`] (`resign`, `abort`,
/// `timeout`, `checkmate`, …), except the two fouls, `foul-win` and `foul-loss` (both
/// `foul` as an ending name); the snake_case names of earlier versions (`interrupt`,
/// `time_up`, `mate`, …) still read.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndingKind {
    /// 投了 / `%TORYO`: the side to move resigns.
    Resign,
    /// 中断 / `%CHUDAN`: the game was interrupted.
    #[serde(rename = "abort", alias = "interrupt")]
    Interrupt,
    /// 千日手 / `%SENNICHITE`: repetition draw.
    Repetition,
    /// 持将棋 / `%JISHOGI`: impasse draw.
    Impasse,
    /// 入玉勝ち / `%KACHI`: the side to move declares an entering-king win.
    Declaration,
    /// 切れ負け / `%TIME_UP`: the side to move lost on time.
    #[serde(rename = "timeout", alias = "time_up")]
    TimeUp,
    /// 反則勝ち / `%±ILLEGAL_ACTION` by the opponent: the side to move wins because the
    /// previous move was a foul.
    #[serde(alias = "foul_win")]
    FoulWin,
    /// 反則負け / `%ILLEGAL_MOVE`: the side to move loses by its own foul.
    #[serde(alias = "foul_loss")]
    FoulLoss,
    /// 詰み / `%TSUMI`: the side to move is mated.
    #[serde(rename = "checkmate", alias = "mate")]
    Mate,
    /// 不詰 / `%FUZUMI`: (problems) there is no mate.
    #[serde(alias = "no_mate")]
    NoMate,
    /// `%MAX_MOVES` (CSA V3): the move limit was reached (draw).
    #[serde(alias = "max_moves")]
    MaxMoves,
    /// `%HIKIWAKE`: draw.
    Draw,
    /// 封じ手: sealed move, the game was adjourned.
    #[serde(rename = "sealed", alias = "sealed_move")]
    SealedMove,
    /// 不戦勝: the side to move wins by default.
    #[serde(alias = "win_by_default")]
    WinByDefault,
    /// 不戦敗: the side to move loses by default.
    #[serde(alias = "loss_by_default")]
    LossByDefault,
    /// Any other word, kept as written (`%MATTA`, …).
    Other(String),
}

impl EndingKind {
    /// Read a KIF/KI2 special-move word.
    pub fn from_japanese(word: &str) -> Option<EndingKind> {
        Some(match word {
            "投了" => EndingKind::Resign,
            "中断" => EndingKind::Interrupt,
            "千日手" => EndingKind::Repetition,
            "持将棋" => EndingKind::Impasse,
            "入玉勝ち" | "宣言勝ち" => EndingKind::Declaration,
            // `Time-up`: 81Dojo's KIF writes the time-up ending in English.
            "切れ負け" | "時間切れ" | "Time-up" => EndingKind::TimeUp,
            "反則勝ち" => EndingKind::FoulWin,
            "反則負け" => EndingKind::FoulLoss,
            "詰み" | "詰" => EndingKind::Mate,
            "不詰" => EndingKind::NoMate,
            "封じ手" => EndingKind::SealedMove,
            "不戦勝" => EndingKind::WinByDefault,
            "不戦敗" => EndingKind::LossByDefault,
            _ => return None,
        })
    }

    /// The KIF word for this ending (unknown words as written).
    pub fn japanese(&self) -> &str {
        match self {
            EndingKind::Resign => "投了",
            EndingKind::Interrupt => "中断",
            EndingKind::Repetition => "千日手",
            EndingKind::Impasse => "持将棋",
            EndingKind::Declaration => "入玉勝ち",
            EndingKind::TimeUp => "切れ負け",
            EndingKind::FoulWin => "反則勝ち",
            EndingKind::FoulLoss => "反則負け",
            EndingKind::Mate => "詰み",
            EndingKind::NoMate => "不詰",
            EndingKind::MaxMoves => "持将棋",
            EndingKind::Draw => "持将棋",
            EndingKind::SealedMove => "封じ手",
            EndingKind::WinByDefault => "不戦勝",
            EndingKind::LossByDefault => "不戦敗",
            EndingKind::Other(w) => w,
        }
    }

    /// Read a CSA special (without the leading `%`); ±ILLEGAL_ACTION is handled by the caller.
    pub fn from_csa(word: &str) -> Option<EndingKind> {
        Some(match word {
            "TORYO" => EndingKind::Resign,
            "CHUDAN" => EndingKind::Interrupt,
            "SENNICHITE" => EndingKind::Repetition,
            "JISHOGI" => EndingKind::Impasse,
            "KACHI" => EndingKind::Declaration,
            "TIME_UP" => EndingKind::TimeUp,
            "ILLEGAL_MOVE" => EndingKind::FoulLoss,
            "TSUMI" => EndingKind::Mate,
            "FUZUMI" => EndingKind::NoMate,
            "MAX_MOVES" => EndingKind::MaxMoves,
            "HIKIWAKE" => EndingKind::Draw,
            _ => return None,
        })
    }

    /// The CSA word (without `%`), when CSA has one. Foul wins need the offender's sign:
    /// see the CSA writer.
    pub fn csa(&self) -> Option<&'static str> {
        Some(match self {
            EndingKind::Resign => "TORYO",
            EndingKind::Interrupt => "CHUDAN",
            EndingKind::Repetition => "SENNICHITE",
            EndingKind::Impasse => "JISHOGI",
            EndingKind::Declaration => "KACHI",
            EndingKind::TimeUp => "TIME_UP",
            EndingKind::FoulLoss => "ILLEGAL_MOVE",
            EndingKind::Mate => "TSUMI",
            EndingKind::NoMate => "FUZUMI",
            EndingKind::MaxMoves => "MAX_MOVES",
            EndingKind::Draw => "HIKIWAKE",
            _ => return None,
        })
    }

    /// Does this ending say that the last move was a foul?
    pub fn is_foul(&self) -> bool {
        matches!(self, EndingKind::FoulWin | EndingKind::FoulLoss)
    }
}

/// The ending a KI2 `まで…` line gives a line ending with `stm` to move: the result
/// [`closing_kind`] reads, else a KIF ending word, else the text as an unknown word.
pub(crate) fn ki2_closing_ending(text: &str, stm: Color) -> EndingKind {
    closing_kind(text, stm)
        .or_else(|| EndingKind::from_japanese(text))
        .unwrap_or_else(|| EndingKind::Other(text.to_string()))
}

/// The side the result part of a `まで…` line names first (`先手の勝ち`, `時間切れにより後手の勝ち`).
pub(crate) fn closing_winner(text: &str) -> Option<Color> {
    winner_in(&Words::new(text))
}

fn winner_in(t: &Words<'_>) -> Option<Color> {
    let text = t.text;
    if text.starts_with("先手") || text.starts_with("下手") {
        Some(Color::Black)
    } else if text.starts_with("後手") || text.starts_with("上手") {
        Some(Color::White)
    } else if t.has("により先手") || t.has("により下手") {
        Some(Color::Black)
    } else if t.has("により後手") || t.has("により上手") {
        Some(Color::White)
    } else {
        None
    }
}

/// Whether `text` contains `word`: `str::contains`'s answer without the searcher it builds on
/// every call, which cost more than the search itself on texts a few words long (a record's
/// closing line is looked up to 16 times).
fn has(text: &str, word: &str) -> bool {
    let (t, w) = (text.as_bytes(), word.as_bytes());
    let Some((&first, _)) = w.split_first() else {
        return true;
    };
    t.len() >= w.len() && (0..=t.len() - w.len()).any(|i| t[i] == first && &t[i..i + w.len()] == w)
}

/// A character's bit in [`Words::chars`] (a multiplicative hash to one of 64).
#[inline(always)]
fn char_bit(c: char) -> u64 {
    1 << ((c as u32).wrapping_mul(0x9E37_79B1) >> 26)
}

/// A text asked for many words in turn (a closing line, up to 16 words): the bits of its
/// characters are taken once, and a word whose first character's bit is not among them is
/// not searched for (most are not there: `先手の勝ち` holds 1 of the 14 first characters).
struct Words<'a> {
    text: &'a str,
    /// [`char_bit`] of every character of `text` (others' bits may collide with them: a
    /// set bit means "maybe", a clear one "not there").
    chars: u64,
}

impl<'a> Words<'a> {
    fn new(text: &'a str) -> Self {
        let chars = text.chars().fold(0, |bits, c| bits | char_bit(c));
        Words { text, chars }
    }

    /// [`has`]: whether the text contains `word`.
    #[inline(always)]
    fn has(&self, word: &str) -> bool {
        match word.chars().next() {
            None => true,
            Some(c) => self.chars & char_bit(c) != 0 && has(self.text, word),
        }
    }
}

/// What [`closing_kind`] reads, with its unknown-word case not yet made a `String`.
enum Closing {
    Kind(EndingKind),
    /// `勝ち` naming no side or the side to move: the text as an unknown word.
    Other,
}

/// Read the result part of a `まで…` line, relative to the side to move at the end.
pub(crate) fn closing_kind(text: &str, stm: Color) -> Option<EndingKind> {
    Some(match closing(text, stm)? {
        Closing::Kind(k) => k,
        Closing::Other => EndingKind::Other(text.to_string()),
    })
}

/// Whether [`closing_kind`] reads `text` at all (for either side: only the kind depends
/// on the side), without making its unknown-word text.
pub(crate) fn closing_known(text: &str) -> bool {
    closing(text, Color::Black).is_some()
}

fn closing(text: &str, stm: Color) -> Option<Closing> {
    let t = &Words::new(text);
    let winner = winner_in(t);
    Some(Closing::Kind(if t.has("反則勝ち") {
        if winner == Some(stm) {
            EndingKind::FoulWin
        } else {
            EndingKind::FoulLoss
        }
    } else if t.has("反則負け") {
        if winner == Some(stm) {
            EndingKind::FoulLoss
        } else {
            EndingKind::FoulWin
        }
    } else if t.has("時間切れ") || t.has("切れ負け") {
        EndingKind::TimeUp
    } else if t.has("入玉勝ち") || t.has("宣言勝ち") {
        EndingKind::Declaration
    } else if t.has("不詰") {
        EndingKind::NoMate
    } else if t.has("詰") {
        EndingKind::Mate
    } else if t.has("勝ち") {
        if winner.is_some() && winner != Some(stm) {
            EndingKind::Resign
        } else {
            return Some(Closing::Other);
        }
    } else if t.has("中断") {
        EndingKind::Interrupt
    } else if t.has("千日手") {
        EndingKind::Repetition
    } else if t.has("持将棋") {
        EndingKind::Impasse
    } else if t.has("封じ手") {
        EndingKind::SealedMove
    } else if t.has("投了") {
        EndingKind::Resign
    } else {
        return None;
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word the closing line is searched for (and the empty word).
    const WORDS: [&str; 19] = [
        "反則勝ち",
        "反則負け",
        "時間切れ",
        "切れ負け",
        "入玉勝ち",
        "宣言勝ち",
        "不詰",
        "詰",
        "勝ち",
        "中断",
        "千日手",
        "持将棋",
        "封じ手",
        "投了",
        "により先手",
        "により下手",
        "により後手",
        "により上手",
        "",
    ];

    /// Every text of up to four characters over an alphabet of the closing words' characters
    /// (and a one-byte, a two-byte and a four-byte one), against every word of up to three:
    /// `has` answers as `str::contains`.
    #[test]
    fn has_answers_as_contains() {
        let alphabet = ['先', '手', 'の', '勝', 'ち', '詰', '不', 'a', 'é', '𠮟'];
        let mut texts = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for t in &last {
                for c in alphabet {
                    next.push(format!("{t}{c}"));
                }
            }
            texts.extend(next.iter().cloned());
            last = next;
        }
        let words: Vec<&String> = texts.iter().filter(|w| w.chars().count() <= 3).collect();
        let mut checked = 0u64;
        for t in &texts {
            for w in &words {
                assert_eq!(has(t, w), t.contains(w.as_str()), "{t:?} {w:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 11_111 * 1_111);
    }

    /// The character filter never hides a word: over every text of up to three characters
    /// from the closing words' characters (and others), each closing word is found by
    /// `Words::has` exactly where `str::contains` finds it; and `closing_known` answers as
    /// `closing_kind` does for either side.
    #[test]
    fn words_answer_as_contains() {
        let mut alphabet: Vec<char> = WORDS.iter().flat_map(|w| w.chars()).collect();
        alphabet.extend(['a', 'é', '𠮟', 'の', '手', '　']);
        alphabet.sort_unstable();
        alphabet.dedup();
        let mut texts: Vec<String> = WORDS.iter().map(|w| format!("先手の{w}")).collect();
        for a in &alphabet {
            texts.push(a.to_string());
            for b in &alphabet {
                texts.push(format!("{a}{b}"));
                for c in ['勝', 'ち', '詰', 'x'] {
                    texts.push(format!("{a}{b}{c}"));
                }
            }
        }
        for t in &texts {
            let ws = Words::new(t);
            for w in WORDS {
                assert_eq!(ws.has(w), t.contains(w), "{t:?} {w:?}");
            }
            for stm in [Color::Black, Color::White] {
                assert_eq!(closing_known(t), closing_kind(t, stm).is_some(), "{t:?}");
            }
        }
    }

    /// The closing words themselves, in longer lines.
    #[test]
    fn closing_words_found_where_contains_finds_them() {
        let lines = [
            "先手の勝ち",
            "時間切れにより後手の勝ち",
            "後手の反則勝ち",
            "詰み",
            "不詰",
            "千日手",
            "中断",
            "",
            "x",
            "上手の入玉勝ち",
        ];
        for l in lines {
            for w in WORDS {
                assert_eq!(has(l, w), l.contains(w), "{l:?} {w:?}");
            }
        }
        assert_eq!(
            closing_kind("時間切れにより後手の勝ち", Color::Black),
            Some(EndingKind::TimeUp)
        );
        assert_eq!(
            closing_winner("時間切れにより後手の勝ち"),
            Some(Color::White)
        );
        assert_eq!(
            closing_kind("先手の勝ち", Color::White),
            Some(EndingKind::Resign)
        );
        assert_eq!(closing_kind("詰み", Color::White), Some(EndingKind::Mate));
        assert_eq!(closing_kind("まだ", Color::White), None);
    }
}

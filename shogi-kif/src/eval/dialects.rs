//! Evaluation comments of other programs, read into the same [`Evaluation`]:
//!
//! * ShogiGUI's search lines, `*対局 候補1 時間 00:01.0 深さ 10/17 ノード数 49691 評価値 34
//!   読み筋 △３四歩(33) ▲６八飛(28)` (the engine that played) and `*解析 0 ○ 候補1 … 評価値 207
//!   読み筋 ▲同　歩(87) …` (its analysis); a mate as `評価値 +詰5` / `-詰` (ShogiGUI's
//!   `*[<種類>] [<multipv>] [時間 …] [深さ …] [ノード数 …] [評価値 …] [<読み筋>]`, ShogiHome
//!   issue #261). 棋神アナリティクス writes the same words after `* ` (ShogiHome's reader).
//!   Only the first candidate (`候補1`, or no candidate word) is read.
//! * ぴよ将棋 / K-Shogi: `#指し手[72]△１四歩  ▲６八銀 …` (the move played, its value in
//!   brackets, then the line), `#形勢[N]…` (ShogiHome issue #73 and its reader); `#推奨手[N]…`
//!   (the recommended move's line) is not the played line and is not read as the evaluation.
//! * csa_client-style `'* <score> <CSA moves>` (one `*`: the comment text is ` 30 -3334FU …`),
//!   the comment a CSA-protocol client sends with its move, kept by some clients in their own
//!   record before the move it belongs to. [`super::evaluations`] attributes such a line to the
//!   next move when its PV continues from there and not from the move holding it.
//!
//! All these give the score in sente's view, as ShogiHome reads them.

use super::{Evaluation, Score, clamp_i32};

/// A ShogiGUI-style line (`対局 …`, `解析 …` or ` … 評価値 …` after the leading `*`); false
/// when `body` is not one.
pub(super) fn shogigui_line(game: &mut Evaluation, analysis: &mut Evaluation, body: &str) -> bool {
    let (e, rest) = if let Some(r) = body.strip_prefix("対局") {
        (game, r)
    } else if let Some(r) = body.strip_prefix("解析") {
        (analysis, r)
    } else if body.starts_with(' ') && body.contains(" 評価値 ") {
        (analysis, body)
    } else {
        return false;
    };
    if !(rest.is_empty() || rest.starts_with([' ', '\u{3000}'])) {
        return false;
    }
    if e.score.is_some() || e.pv.is_some() {
        return true;
    }
    let (head, pv) = match rest.split_once("読み筋") {
        Some((h, p)) => (h, Some(p)),
        None => (rest, None),
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    if words
        .iter()
        .any(|w| w.strip_prefix("候補").is_some_and(|n| n != "1"))
    {
        return true;
    }
    for pair in words.windows(2) {
        match pair[0] {
            "評価値" if e.score.is_none() => e.score = gui_score(pair[1]),
            "深さ" if e.depth.is_none() => {
                e.depth = pair[1].split('/').next().and_then(|d| d.parse().ok());
            }
            "ノード数" if e.nodes.is_none() => e.nodes = pair[1].parse().ok(),
            _ => {}
        }
    }
    if let Some(pv) = pv.map(str::trim).filter(|p| !p.is_empty()) {
        e.pv = Some(pv.to_string());
    }
    true
}

/// `34`, `-120`, `+詰5`, `-詰`, `詰3` (a mate without sign is sente's).
fn gui_score(w: &str) -> Option<Score> {
    let (winning, rest) = match w.strip_prefix('-') {
        Some(r) => (false, r),
        None => (true, w.strip_prefix('+').unwrap_or(w)),
    };
    if let Some(n) = rest.strip_prefix('詰') {
        let plies = if n.is_empty() {
            None
        } else {
            Some(n.parse().ok()?)
        };
        return Some(Score::mate_for(winning, plies));
    }
    w.parse::<i64>().ok().map(|v| Score::Cp(clamp_i32(v)))
}

/// ぴよ将棋 / K-Shogi's `指し手[N]…` / `形勢[N]…` (after the leading `#`); false when `body` is
/// not one.
pub(super) fn piyo_line(e: &mut Evaluation, body: &str) -> bool {
    let Some(rest) = body
        .strip_prefix("指し手[")
        .or_else(|| body.strip_prefix("形勢["))
    else {
        return false;
    };
    let Some((value, pv)) = rest.split_once(']') else {
        return false;
    };
    if e.score.is_none() {
        e.score = gui_score(value.trim());
    }
    let pv = pv.trim();
    if e.pv.is_none() && !pv.is_empty() && body.starts_with("指し手") {
        e.pv = Some(pv.split_whitespace().collect::<Vec<_>>().join(""));
    }
    true
}

/// A csa_client-style comment ` <score> <CSA moves>` (after the leading `*`, one space):
/// the same as Floodgate's but with one `*` fewer.
pub(super) fn csa_client_line(e: &mut Evaluation, text: &str) -> bool {
    let Some(body) = text.strip_prefix(' ') else {
        return false;
    };
    let mut words = body.split_whitespace();
    let Some(v) = words.next().and_then(|w| w.parse::<i64>().ok()) else {
        return false;
    };
    if e.score.is_some() {
        return true;
    }
    e.score = Some(Score::Cp(clamp_i32(v)));
    let pv: Vec<&str> = words.collect();
    if !pv.is_empty() {
        e.pv = Some(pv.join(" "));
    }
    true
}

/// A KIF-style PV (`▲同　歩(87) △同　飛(82)`) without its source squares and spaces, as the
/// Japanese PV reader takes it.
pub(super) fn strip_sources(pv: &str) -> String {
    let mut out = String::with_capacity(pv.len());
    let mut rest = pv;
    while let Some(c) = rest.chars().next() {
        let b = rest.as_bytes();
        if c == '('
            && b.len() >= 4
            && b[1].is_ascii_digit()
            && b[2].is_ascii_digit()
            && b[3] == b')'
        {
            rest = &rest[4..];
            continue;
        }
        if c != ' ' {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Source;

    fn fresh(source: Source) -> Evaluation {
        Evaluation::new(1, source)
    }

    #[test]
    fn shogigui_lines() {
        let (mut g, mut a) = (fresh(Source::ShogiGuiGame), fresh(Source::ShogiGuiAnalysis));
        assert!(shogigui_line(
            &mut g,
            &mut a,
            "対局 候補1 時間 00:01.0 深さ 10/17 ノード数 49691 評価値 -34 読み筋 △３四歩(33) ▲６八飛(28)"
        ));
        assert_eq!(g.score, Some(Score::Cp(-34)));
        assert_eq!((g.depth, g.nodes), (Some(10), Some(49691)));
        assert_eq!(g.pv.as_deref(), Some("△３四歩(33) ▲６八飛(28)"));
        assert!(shogigui_line(&mut g, &mut a, "解析 0 ○ 候補2 評価値 99"));
        assert_eq!(a.score, None, "a second candidate is not the evaluation");
        assert!(shogigui_line(&mut g, &mut a, "解析 0 候補1 評価値 -詰7"));
        assert_eq!(a.score, Some(Score::Mate { plies: -7 }));
        assert!(!shogigui_line(&mut g, &mut a, "対局者の感想"));
        assert_eq!(
            strip_sources("▲同　歩(87) △２二角成(88)"),
            "▲同　歩△２二角成"
        );
    }

    #[test]
    fn piyo_and_csa_client_lines() {
        let mut e = fresh(Source::Piyo);
        assert!(piyo_line(&mut e, "指し手[-72]△１四歩  ▲６八銀  "));
        assert_eq!(e.score, Some(Score::Cp(-72)));
        assert_eq!(e.pv.as_deref(), Some("△１四歩▲６八銀"));
        assert!(!piyo_line(&mut fresh(Source::Piyo), "推奨手[29]△４二銀"));
        let mut c = fresh(Source::CsaClient);
        assert!(csa_client_line(&mut c, " 30 -3334FU +2726FU"));
        assert_eq!(c.score, Some(Score::Cp(30)));
        assert!(!csa_client_line(&mut fresh(Source::CsaClient), " 良い手"));
    }
}

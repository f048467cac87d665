//! The USI protocol as pure functions of lines: every engine→GUI line parsed into a type.
//!
//! Nothing here starts a process; [`parse_line`] never fails and never panics: a line it does not
//! understand is [`EngineLine::Unknown`] (or [`EngineLine::Malformed`] when a known command word
//! is followed by something wrong), and the engine layer keeps it in its last-lines buffer.

use crate::options::{OptionKind, OptionSpec};
use shogi_core::score::{Bound, Score};

/// One line an engine wrote, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name <text>` (the rest of the line).
    IdName(String),
    /// `id author <text>` (the rest of the line).
    IdAuthor(String),
    /// `option name … type …`.
    Option(OptionSpec),
    /// `usiok`.
    UsiOk,
    /// `readyok`.
    ReadyOk,
    /// `info …`.
    Info(Info),
    /// `bestmove …`.
    BestMove(BestMoveText),
    /// `checkmate …` (the answer to `go mate`).
    Checkmate(CheckmateText),
    /// An empty (or all-blank) line.
    Empty,
    /// A known command word followed by something that does not fit its grammar.
    Malformed {
        /// The line as read.
        line: String,
        /// What is wrong.
        reason: String,
    },
    /// Anything else (banners, unknown commands, garbage): kept, never an error by itself.
    Unknown(String),
}

/// A `bestmove` line as text (the moves are checked against a position by the engine layer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMoveText {
    /// `bestmove <move> [ponder <move>]`.
    Move {
        /// The move as written.
        mv: String,
        /// The ponder move as written, if any.
        ponder: Option<String>,
    },
    /// `bestmove resign`.
    Resign,
    /// `bestmove win`: an entering-king declaration.
    Win,
}

/// A `checkmate` line: the answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckmateText {
    /// `checkmate m1 m2 …`: the mating line as written.
    Mate(Vec<String>),
    /// `checkmate nomate`: proven that there is no mate.
    NoMate,
    /// `checkmate timeout`: no answer within the time.
    Timeout,
    /// `checkmate notimplemented`: the engine does not solve mates.
    NotImplemented,
}

/// An `info` line, every field the protocol defines; absent fields are `None` / empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth d`.
    pub depth: Option<u32>,
    /// `seldepth s`.
    pub seldepth: Option<u32>,
    /// `time t`: milliseconds searched.
    pub time_ms: Option<u64>,
    /// `nodes n`.
    pub nodes: Option<u64>,
    /// `nps n`.
    pub nps: Option<u64>,
    /// `hashfull p` (per mille).
    pub hashfull: Option<u32>,
    /// `cpuload p` (per mille).
    pub cpuload: Option<u32>,
    /// `multipv k` (1 = best line).
    pub multipv: Option<u32>,
    /// `score cp x` / `score mate y`, from the side to move's view.
    pub score: Option<Score>,
    /// `lowerbound` / `upperbound` after the score.
    pub bound: Bound,
    /// `currmove m`.
    pub currmove: Option<String>,
    /// `currmovenumber n`.
    pub currmovenumber: Option<u32>,
    /// `pv m1 … mi`: the moves as written, to the end of the line.
    pub pv: Vec<String>,
    /// `refutation m1 …` (moves up to the next keyword).
    pub refutation: Vec<String>,
    /// `currline m1 …` (moves up to the next keyword).
    pub currline: Vec<String>,
    /// `string <text>`: the rest of the line.
    pub string: Option<String>,
    /// Fields that were present but malformed, and unknown tokens, as `token: reason` notes.
    pub problems: Vec<String>,
}

/// The keywords that start an `info` field.
const INFO_KEYS: &[&str] = &[
    "depth",
    "seldepth",
    "time",
    "nodes",
    "nps",
    "hashfull",
    "cpuload",
    "multipv",
    "score",
    "lowerbound",
    "upperbound",
    "currmove",
    "currmovenumber",
    "pv",
    "refutation",
    "currline",
    "string",
    "tbhits",
    "sbhits",
];

/// Splits a line into tokens with their byte offsets (ASCII whitespace separates).
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        if start < i {
            out.push((start, &line[start..i]));
        }
    }
    out
}

/// The rest of `line` from token `i` on (original spacing kept, trailing blanks trimmed).
fn rest(line: &str, toks: &[(usize, &str)], i: usize) -> String {
    match toks.get(i) {
        Some(&(at, _)) => line[at..].trim_end().to_owned(),
        None => String::new(),
    }
}

/// Parses one engine→GUI line. Never fails: see [`EngineLine::Unknown`] and
/// [`EngineLine::Malformed`]. A trailing `\r` or `\n` is ignored.
///
/// ```
/// use shogi_usi::{parse_line, EngineLine, Score};
///
/// let EngineLine::Info(info) = parse_line("info depth 8 multipv 1 score cp 161 nodes 9188 pv 7g7f 5a4b")
/// else { panic!() };
/// assert_eq!(info.depth, Some(8));
/// assert_eq!(info.score, Some(Score::Cp(161)));
/// assert_eq!(info.pv, ["7g7f", "5a4b"]);
/// assert_eq!(parse_line("usiok"), EngineLine::UsiOk);
/// ```
pub fn parse_line(line: &str) -> EngineLine {
    let line = line.trim_end_matches(['\r', '\n']);
    let toks = tokens(line);
    let Some(&(_, first)) = toks.first() else {
        return EngineLine::Empty;
    };
    let malformed = |reason: &str| EngineLine::Malformed {
        line: line.to_owned(),
        reason: reason.to_owned(),
    };
    match first {
        "usiok" if toks.len() == 1 => EngineLine::UsiOk,
        "readyok" if toks.len() == 1 => EngineLine::ReadyOk,
        "id" => match toks.get(1).map(|t| t.1) {
            Some("name") => EngineLine::IdName(rest(line, &toks, 2)),
            Some("author") => EngineLine::IdAuthor(rest(line, &toks, 2)),
            _ => EngineLine::Unknown(line.to_owned()),
        },
        "option" => match parse_option(&toks) {
            Ok(spec) => EngineLine::Option(spec),
            Err(reason) => malformed(&reason),
        },
        "info" => EngineLine::Info(parse_info(line, &toks)),
        "bestmove" => match toks.get(1).map(|t| t.1) {
            None => malformed("bestmove without a move"),
            Some("resign") => EngineLine::BestMove(BestMoveText::Resign),
            Some("win") => EngineLine::BestMove(BestMoveText::Win),
            Some(mv) => {
                let ponder = match (toks.get(2).map(|t| t.1), toks.get(3).map(|t| t.1)) {
                    (Some("ponder"), Some(p)) => Some(p.to_owned()),
                    (Some("ponder"), None) => return malformed("ponder without a move"),
                    _ => None,
                };
                EngineLine::BestMove(BestMoveText::Move {
                    mv: mv.to_owned(),
                    ponder,
                })
            }
        },
        "checkmate" => match toks.get(1).map(|t| t.1) {
            None => malformed("checkmate without an answer"),
            Some("nomate") => EngineLine::Checkmate(CheckmateText::NoMate),
            Some("timeout") => EngineLine::Checkmate(CheckmateText::Timeout),
            Some("notimplemented") => EngineLine::Checkmate(CheckmateText::NotImplemented),
            Some(_) => EngineLine::Checkmate(CheckmateText::Mate(
                toks[1..].iter().map(|t| t.1.to_owned()).collect(),
            )),
        },
        _ => EngineLine::Unknown(line.to_owned()),
    }
}

fn parse_info(line: &str, toks: &[(usize, &str)]) -> Info {
    let mut info = Info::default();
    let mut i = 1;
    let n = toks.len();
    let word = |i: usize| toks.get(i).map(|t| t.1);
    while i < n {
        let key = toks[i].1;
        i += 1;
        macro_rules! num {
            ($field:expr) => {{
                match word(i).map(str::parse) {
                    Some(Ok(v)) => {
                        $field = Some(v);
                        i += 1;
                    }
                    Some(Err(_)) => {
                        info.problems
                            .push(format!("{key}: not a number: {}", toks[i].1));
                        i += 1;
                    }
                    None => info.problems.push(format!("{key}: missing value")),
                }
            }};
        }
        match key {
            "depth" => num!(info.depth),
            "seldepth" => num!(info.seldepth),
            "time" => num!(info.time_ms),
            "nodes" => num!(info.nodes),
            "nps" => num!(info.nps),
            "hashfull" => num!(info.hashfull),
            "cpuload" => num!(info.cpuload),
            "multipv" => num!(info.multipv),
            "currmovenumber" => num!(info.currmovenumber),
            "tbhits" | "sbhits" => {
                let mut ignored: Option<u64> = None;
                num!(ignored);
                let _ = ignored;
            }
            "currmove" => match word(i) {
                Some(m) => {
                    info.currmove = Some(m.to_owned());
                    i += 1;
                }
                None => info.problems.push("currmove: missing move".into()),
            },
            "score" => {
                match (word(i), word(i + 1)) {
                    (Some("cp"), Some(v)) => match v.parse::<i32>() {
                        Ok(cp) => info.score = Some(Score::Cp(cp)),
                        Err(_) => info.problems.push(format!("score cp: not a number: {v}")),
                    },
                    (Some("mate"), Some(v)) => match parse_mate(v) {
                        Some(s) => info.score = Some(s),
                        None => info
                            .problems
                            .push(format!("score mate: not a distance: {v}")),
                    },
                    _ => {
                        info.problems
                            .push("score: expected `cp N` or `mate N`".into());
                        continue;
                    }
                }
                i += 2;
            }
            "lowerbound" => info.bound = Bound::Lower,
            "upperbound" => info.bound = Bound::Upper,
            "pv" => {
                info.pv = toks[i..].iter().map(|t| t.1.to_owned()).collect();
                i = n;
            }
            "refutation" | "currline" => {
                let mut moves = Vec::new();
                while let Some(m) = word(i) {
                    if INFO_KEYS.contains(&m) {
                        break;
                    }
                    moves.push(m.to_owned());
                    i += 1;
                }
                if key == "refutation" {
                    info.refutation = moves;
                } else {
                    info.currline = moves;
                }
            }
            "string" => {
                info.string = Some(rest(line, toks, i));
                i = n;
            }
            other => info.problems.push(format!("{other}: unknown token")),
        }
    }
    info
}

/// Reads the distance of `score mate`: `N`, `+N`, `-N`, `0`, `-0`, `+`, `-`.
///
/// `0` and `-0` are "the side to move is mated" ([`Score::Mate`] with 0 plies); `+` and `+0`
/// are a win at an unknown distance, `-` a loss at an unknown distance.
fn parse_mate(v: &str) -> Option<Score> {
    match v {
        "+" | "+0" => return Some(Score::MateUnknown { winning: true }),
        "-" => return Some(Score::MateUnknown { winning: false }),
        "-0" | "0" => return Some(Score::Mate { plies: 0 }),
        _ => {}
    }
    let digits = v.strip_prefix('+').unwrap_or(v);
    if digits.starts_with('+') {
        return None;
    }
    digits
        .parse::<i32>()
        .ok()
        .map(|plies| Score::Mate { plies })
}

const OPTION_KEYS: &[&str] = &["default", "min", "max", "var"];

fn parse_option(toks: &[(usize, &str)]) -> Result<OptionSpec, String> {
    if toks.get(1).map(|t| t.1) != Some("name") {
        return Err("option without `name`".into());
    }
    // The name runs up to the first `type` token: fairy-stockfish 11.1 prints names with spaces.
    let Some(type_at) = toks
        .iter()
        .skip(2)
        .position(|t| t.1 == "type")
        .map(|p| p + 2)
    else {
        return Err("option without `type`".into());
    };
    if type_at == 2 {
        return Err("option with an empty name".into());
    }
    let name = toks[2..type_at]
        .iter()
        .map(|t| t.1)
        .collect::<Vec<_>>()
        .join(" ");
    let Some(&(_, ty)) = toks.get(type_at + 1) else {
        return Err(format!("option {name}: `type` without a type"));
    };
    // The values after the type: each keyword takes the tokens up to the next keyword.
    let mut default: Option<String> = None;
    let mut min: Option<String> = None;
    let mut max: Option<String> = None;
    let mut vars: Vec<String> = Vec::new();
    let mut i = type_at + 2;
    while i < toks.len() {
        let key = toks[i].1;
        if !OPTION_KEYS.contains(&key) {
            return Err(format!("option {name}: unexpected `{key}`"));
        }
        i += 1;
        let start = i;
        while i < toks.len() && !OPTION_KEYS.contains(&toks[i].1) {
            i += 1;
        }
        let value = toks[start..i]
            .iter()
            .map(|t| t.1)
            .collect::<Vec<_>>()
            .join(" ");
        let value = if value == "<empty>" {
            String::new()
        } else {
            value
        };
        match key {
            "default" => default = Some(value),
            "min" => min = Some(value),
            "max" => max = Some(value),
            _ => vars.push(value),
        }
    }
    let int = |what: &str, v: &Option<String>| -> Result<Option<i64>, String> {
        match v {
            None => Ok(None),
            Some(s) => s
                .parse::<i64>()
                .map(Some)
                .map_err(|_| format!("option {name}: {what} is not an integer: {s}")),
        }
    };
    let kind = match ty {
        "check" => OptionKind::Check {
            default: match default.as_deref() {
                None => None,
                Some("true") => Some(true),
                Some("false") => Some(false),
                Some(other) => {
                    return Err(format!(
                        "option {name}: check default is not true/false: {other}"
                    ));
                }
            },
        },
        "spin" => OptionKind::Spin {
            default: int("default", &default)?,
            min: int("min", &min)?,
            max: int("max", &max)?,
        },
        "combo" => OptionKind::Combo { default, vars },
        "button" => OptionKind::Button,
        "string" => OptionKind::String { default },
        "filename" => OptionKind::Filename { default },
        other => return Err(format!("option {name}: unknown type {other}")),
    };
    Ok(OptionSpec { name, kind })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(line: &str) -> Info {
        match parse_line(line) {
            EngineLine::Info(i) => i,
            other => panic!("not an info: {other:?}"),
        }
    }

    #[test]
    fn fairy_info_line() {
        let i = info(
            "info depth 8 seldepth 11 multipv 1 score cp 161 nodes 9188 nps 399478 tbhits 0 time 23 pv 7g7f 5a4b 3g3f",
        );
        assert_eq!(i.depth, Some(8));
        assert_eq!(i.seldepth, Some(11));
        assert_eq!(i.multipv, Some(1));
        assert_eq!(i.score, Some(Score::Cp(161)));
        assert_eq!(i.nodes, Some(9188));
        assert_eq!(i.nps, Some(399478));
        assert_eq!(i.time_ms, Some(23));
        assert_eq!(i.pv, ["7g7f", "5a4b", "3g3f"]);
        assert_eq!(i.bound, Bound::Exact);
        assert!(i.problems.is_empty(), "{:?}", i.problems);
    }

    #[test]
    fn gpsusi_info_lines() {
        let i = info(
            "info depth 6 seldepth 11 time 1044 score cp 66 nodes 328112 nps 314227 pv 7g7f 3c3d",
        );
        assert_eq!(
            (i.depth, i.seldepth, i.time_ms),
            (Some(6), Some(11), Some(1044))
        );
        assert_eq!(i.score, Some(Score::Cp(66)));
        assert_eq!(i.nps, Some(314227));
        let i = info("info depth 10 seldepth 1 time 0 score cp -1148897 nodes 0 pv resign");
        assert_eq!(i.score, Some(Score::Cp(-1148897)));
        assert_eq!(i.pv, ["resign"]);
        assert_eq!(info("info currmove 7g7f").currmove.as_deref(), Some("7g7f"));
        assert_eq!(info("info hashfull 6").hashfull, Some(6));
        let i = info("info time 450 nodes 1 nps 2 hashfull 36");
        assert_eq!(
            (i.time_ms, i.nodes, i.nps, i.hashfull),
            (Some(450), Some(1), Some(2), Some(36))
        );
        assert_eq!(
            info("info string loss by checkmate").string.as_deref(),
            Some("loss by checkmate")
        );
    }

    #[test]
    fn mate_forms() {
        let s = |t: &str| info(&format!("info score mate {t} pv 7g7f")).score;
        assert_eq!(s("5"), Some(Score::Mate { plies: 5 }));
        assert_eq!(s("+5"), Some(Score::Mate { plies: 5 }));
        assert_eq!(s("-4"), Some(Score::Mate { plies: -4 }));
        assert_eq!(s("0"), Some(Score::Mate { plies: 0 }));
        assert_eq!(s("-0"), Some(Score::Mate { plies: 0 }));
        assert_eq!(s("+"), Some(Score::MateUnknown { winning: true }));
        assert_eq!(s("+0"), Some(Score::MateUnknown { winning: true }));
        assert_eq!(s("-"), Some(Score::MateUnknown { winning: false }));
        assert_eq!(s("x"), None);
        assert_eq!(s("++3"), None);
        // fairy-stockfish on a mated side.
        assert_eq!(
            info("info depth 0 score mate 0").score,
            Some(Score::Mate { plies: 0 })
        );
    }

    #[test]
    fn bounds_currmove_and_string() {
        let i = info("info depth 3 score cp 20 lowerbound nodes 5 pv 2g2f");
        assert_eq!(i.bound, Bound::Lower);
        assert_eq!(i.nodes, Some(5));
        let i = info("info depth 3 score mate -3 upperbound");
        assert_eq!(i.bound, Bound::Upper);
        let i = info("info depth 12 currmove 2g2f currmovenumber 3");
        assert_eq!(i.currmove.as_deref(), Some("2g2f"));
        assert_eq!(i.currmovenumber, Some(3));
        let i = info("info depth 2 string  hello  world pv 7g7f ");
        assert_eq!(i.string.as_deref(), Some("hello  world pv 7g7f"));
        assert!(i.pv.is_empty());
        let i = info("info refutation 7g7f 3c3d depth 4 currline 1 2g2f");
        assert_eq!(i.refutation, ["7g7f", "3c3d"]);
        assert_eq!(i.depth, Some(4));
        assert_eq!(i.currline, ["1", "2g2f"]);
    }

    #[test]
    fn info_problems_are_notes_not_failures() {
        let i = info("info depth x nodes 12 frobnicate score cp");
        assert_eq!(i.depth, None);
        assert_eq!(i.nodes, Some(12));
        assert_eq!(
            i.problems,
            [
                "depth: not a number: x",
                "frobnicate: unknown token",
                "score: expected `cp N` or `mate N`",
                "cp: unknown token"
            ]
        );
        let i = info("info depth");
        assert_eq!(i.problems, ["depth: missing value"]);
        let i = info("info nodes 99999999999999999999999");
        assert_eq!(i.nodes, None);
    }

    /// Each line parses to its value.
    #[track_caller]
    fn parses(cases: Vec<(&str, EngineLine)>) {
        for (line, want) in cases {
            assert_eq!(parse_line(line), want, "{line:?}");
        }
    }

    /// Each line is malformed.
    #[track_caller]
    fn malformed(lines: &[&str]) {
        for line in lines {
            let got = parse_line(line);
            assert!(
                matches!(got, EngineLine::Malformed { .. }),
                "{line:?}: {got:?}"
            );
        }
    }

    #[test]
    fn bestmove_forms() {
        let mv = |mv: &str, ponder: Option<&str>| {
            EngineLine::BestMove(BestMoveText::Move {
                mv: mv.into(),
                ponder: ponder.map(Into::into),
            })
        };
        parses(vec![
            ("bestmove 7g7f ponder 3c3d\r", mv("7g7f", Some("3c3d"))),
            ("bestmove 8h2b+", mv("8h2b+", None)),
            (
                "bestmove resign",
                EngineLine::BestMove(BestMoveText::Resign),
            ),
            ("bestmove win", EngineLine::BestMove(BestMoveText::Win)),
        ]);
        malformed(&["bestmove", "bestmove 7g7f ponder"]);
    }

    #[test]
    fn checkmate_forms() {
        let mate = |moves: &[&str]| {
            EngineLine::Checkmate(CheckmateText::Mate(
                moves.iter().map(|m| m.to_string()).collect(),
            ))
        };
        parses(vec![
            ("checkmate 2h1i 1h2g 3i2h", mate(&["2h1i", "1h2g", "3i2h"])),
            (
                "checkmate nomate",
                EngineLine::Checkmate(CheckmateText::NoMate),
            ),
            (
                "checkmate timeout",
                EngineLine::Checkmate(CheckmateText::Timeout),
            ),
            (
                "checkmate notimplemented",
                EngineLine::Checkmate(CheckmateText::NotImplemented),
            ),
        ]);
        malformed(&["checkmate"]);
    }

    #[test]
    fn id_and_simple_lines() {
        let fairy = "Fairy-Stockfish 11.1 LB 64";
        let sf_authors = "the Stockfish developers (see AUTHORS file)";
        let gps = "gpsshogi (smp) vm r3033 wordsize 64 gcc 12.2.0";
        let banner = "Fairy-Stockfish 11.1 LB 64 by Fabian Fichter";
        parses(vec![
            (
                format!("id name {fairy}").as_str(),
                EngineLine::IdName(fairy.into()),
            ),
            (
                format!("id author {sf_authors}").as_str(),
                EngineLine::IdAuthor(sf_authors.into()),
            ),
            (
                format!("id name {gps}").as_str(),
                EngineLine::IdName(gps.into()),
            ),
            ("usiok\n", EngineLine::UsiOk),
            ("  readyok  ", EngineLine::ReadyOk),
            ("", EngineLine::Empty),
            (" \t ", EngineLine::Empty),
            (banner, EngineLine::Unknown(banner.into())),
            ("usiok now", EngineLine::Unknown("usiok now".into())),
            ("id", EngineLine::Unknown("id".into())),
        ]);
    }

    fn option(line: &str) -> OptionSpec {
        match parse_line(line) {
            EngineLine::Option(o) => o,
            other => panic!("not an option: {other:?}"),
        }
    }

    #[test]
    fn fairy_options() {
        let o = option("option name Debug Log File type string default ");
        assert_eq!(o.name, "Debug Log File");
        assert_eq!(
            o.kind,
            OptionKind::String {
                default: Some(String::new())
            }
        );
        let o = option("option name Skill Level type spin default 20 min -20 max 20");
        assert_eq!(o.name, "Skill Level");
        assert_eq!(
            o.kind,
            OptionKind::Spin {
                default: Some(20),
                min: Some(-20),
                max: Some(20)
            }
        );
        let o = option("option name Clear Hash type button");
        assert_eq!(
            (o.name.as_str(), &o.kind),
            ("Clear Hash", &OptionKind::Button)
        );
        let o = option("option name Ponder type check default false");
        assert_eq!(
            o.kind,
            OptionKind::Check {
                default: Some(false)
            }
        );
        let o = option(
            "option name Analysis Contempt type combo default Both var Off var White var Black var Both",
        );
        assert_eq!(o.name, "Analysis Contempt");
        assert_eq!(
            o.kind,
            OptionKind::Combo {
                default: Some("Both".into()),
                vars: vec!["Off".into(), "White".into(), "Black".into(), "Both".into()]
            }
        );
        let o = option("option name SyzygyPath type string default <empty>");
        assert_eq!(
            o.kind,
            OptionKind::String {
                default: Some(String::new())
            }
        );
        let o = option("option name UCI_Variant type combo default shogi var minishogi var shogi");
        assert_eq!(o.name, "UCI_Variant");
    }

    #[test]
    fn gpsusi_and_other_options() {
        let o = option("option name LimitDepth type spin default 10 min 4 max 10");
        assert_eq!(
            o.kind,
            OptionKind::Spin {
                default: Some(10),
                min: Some(4),
                max: Some(10)
            }
        );
        let o = option("option name CSAFile type string default <empty>");
        assert_eq!(o.name, "CSAFile");
        let o = option("option name EvalDir type filename default eval dir");
        assert_eq!(
            o.kind,
            OptionKind::Filename {
                default: Some("eval dir".into())
            }
        );
        let o = option("option name BookFile type combo default no book var no book var user.db");
        assert_eq!(
            o.kind,
            OptionKind::Combo {
                default: Some("no book".into()),
                vars: vec!["no book".into(), "user.db".into()]
            }
        );
    }

    #[test]
    fn malformed_options() {
        for bad in [
            "option",
            "option name",
            "option name X",
            "option name type spin",
            "option name X type",
            "option name X type wheel",
            "option name X type spin default ten",
            "option name X type check default maybe",
            "option name X type spin default 1 step 2",
        ] {
            assert!(
                matches!(parse_line(bad), EngineLine::Malformed { .. }),
                "{bad}: {:?}",
                parse_line(bad)
            );
        }
    }

    #[test]
    fn garbage_never_panics() {
        let mut s = String::new();
        for c in [
            "info",
            " score",
            " mate",
            " -",
            " pv",
            " \u{3042}",
            " option name",
            " type",
        ] {
            s.push_str(c);
            let _ = parse_line(&s);
        }
        for line in [
            "\u{fffd}\u{fffd}",
            "info score",
            "info score mate",
            "info multipv -1",
            "option name \u{3042} type combo var",
            "bestmove \u{3042}",
            "id name",
        ] {
            let _ = parse_line(line);
        }
        assert_eq!(parse_line("id name"), EngineLine::IdName(String::new()));
    }
}

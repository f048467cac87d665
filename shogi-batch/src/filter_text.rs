//! The text forms of [`crate::Selection`]'s values, as the command line's flags and Python's
//! keyword arguments write them: each reader gives the value's type or says, in a phrase the
//! caller puts after its flag or keyword (`--since: '2024-13-01' is not a date …`), what is
//! wrong with the text.

use crate::date::iso8601;
use shogi_core::{Handicap, Position, UsiError, UsiPosition, Variant};
use shogi_kif::Winner;
use std::fmt;
use std::str::FromStr;

/// A day, `YYYY-MM-DD`: the bound of [`crate::Selection::since`] and `until`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day {
    /// `YYYY-MM-DD` as ASCII bytes (compared as text, as the `start_iso` column is).
    text: [u8; 10],
}

impl Day {
    /// The day as `YYYY-MM-DD`.
    pub fn as_str(&self) -> &str {
        // Built from an ISO 8601 date: always ASCII.
        std::str::from_utf8(&self.text).unwrap_or_default()
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Day {
    type Err = String;

    /// Reads `YYYY-MM-DD` (or `YYYY/MM/DD`, or any date form records use: see
    /// [`crate::iso8601`]); the time of day, if written, is dropped.
    fn from_str(s: &str) -> Result<Day, String> {
        let iso = iso8601(s).ok_or_else(|| format!("'{s}' is not a date (expected YYYY-MM-DD)"))?;
        let mut text = [0u8; 10];
        match iso.as_bytes().get(..10) {
            Some(day) => text.copy_from_slice(day),
            None => return Err(format!("'{s}' is not a date (expected YYYY-MM-DD)")),
        }
        Ok(Day { text })
    }
}

impl Day {
    /// The year and month (1 to 12) of the day.
    pub fn year_month(&self) -> (u32, u32) {
        let n = |r: std::ops::Range<usize>| self.as_str()[r].parse().unwrap_or(0);
        (n(0..4), n(5..7))
    }

    /// Whether the day is the first of its month (a `--since` that a count by months answers).
    pub fn is_month_start(&self) -> bool {
        self.as_str().ends_with("-01")
    }

    /// Whether the day is the last of its month (an `--until` that a count by months answers).
    pub fn is_month_end(&self) -> bool {
        let (y, m) = self.year_month();
        self.as_str()[8..].parse::<u32>().ok() == Some(crate::date::days_in_month(y, m))
    }
}

/// A month written `YYYY-MM` (or `YYYY/MM`): its year and month.
fn month(text: &str) -> Option<(u32, u32)> {
    let t = text.trim();
    let (y, m) = t.split_once(['-', '/'])?;
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(y, 4) || !(digits(m, 2) || digits(m, 1)) {
        return None;
    }
    let (y, m): (u32, u32) = (y.parse().ok()?, m.parse().ok()?);
    (1..=12).contains(&m).then_some((y, m))
}

/// The day of `--since`: a date, or a month (`2020-05`: from its first day).
pub fn since(text: &str) -> Result<Day, String> {
    match month(text) {
        Some((y, m)) => format!("{y:04}-{m:02}-01").parse(),
        None => text.parse(),
    }
}

/// The day of `--until`: a date, or a month (`2020-05`: up to its last day).
pub fn until(text: &str) -> Result<Day, String> {
    match month(text) {
        Some((y, m)) => format!("{y:04}-{m:02}-{:02}", crate::date::days_in_month(y, m)).parse(),
        None => text.parse(),
    }
}

/// Whose rating `--min-rating` and `--max-rating` bound: `mover`, `both` or `average`.
pub fn rating_of(text: &str) -> Result<crate::RatingOf, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "mover" => Ok(crate::RatingOf::Mover),
        "both" => Ok(crate::RatingOf::Both),
        "average" | "avg" => Ok(crate::RatingOf::Average),
        _ => Err(format!("'{text}' is not mover, both or average")),
    }
}

/// A time control: the documented form (`300+10F`, `900+0`) or a shogi-server game name
/// (`floodgate-300-10F`).
pub fn time_control(text: &str) -> Result<crate::TimeControl, String> {
    text.parse()
}

/// One of the ending names ([`crate::ENDINGS`], the values of the `ending` column), for
/// [`crate::Selection::ending`]; read with `parse` (case-insensitive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EndingName(&'static str);

impl EndingName {
    /// `none`: a game that states no ending and whose final position decides nothing (the
    /// `ending` column is empty then).
    pub const NONE: EndingName = EndingName("none");

    /// The name (`resign`, `checkmate`, …, `none`).
    pub fn name(self) -> &'static str {
        self.0
    }

    /// The ending name `name` exactly as [`shogi_kif::ENDING_NAMES`] spells it.
    pub fn from_exact(name: &str) -> Option<EndingName> {
        shogi_kif::ENDING_NAMES
            .iter()
            .find(|e| **e == name)
            .map(|e| EndingName(e))
    }

    /// A name shogi-kif's [`shogi_kif::outcome`] gave (one of [`shogi_kif::ENDING_NAMES`]), kept
    /// without looking it up.
    pub(crate) fn of_outcome(name: &'static str) -> EndingName {
        debug_assert!(shogi_kif::ENDING_NAMES.contains(&name), "{name}");
        EndingName(name)
    }
}

impl FromStr for EndingName {
    type Err = String;

    fn from_str(s: &str) -> Result<EndingName, String> {
        let k = s.trim().to_ascii_lowercase();
        EndingName::from_exact(&k).ok_or_else(|| {
            format!(
                "unknown ending '{k}' (one of: {})",
                shogi_kif::ENDING_NAMES.join(", ")
            )
        })
    }
}

/// Endings, comma-separated (`resign,checkmate`).
pub fn endings(text: &str) -> Result<Vec<EndingName>, String> {
    text.split(',').map(str::parse).collect()
}

/// A winner: `sente` (or `black`), `gote` (or `white`), `draw` or `none`.
pub fn winner(text: &str) -> Result<Winner, String> {
    let w = text.trim().to_ascii_lowercase();
    let w = match w.as_str() {
        "black" => "sente",
        "white" => "gote",
        other => other,
    };
    Winner::from_name(w)
        .ok_or_else(|| format!("'{text}' is not a winner (sente, gote, draw or none)"))
}

/// A variant: `standard` or `mini`.
pub fn variant(text: &str) -> Result<Variant, String> {
    text.trim().parse()
}

/// A handicap: a 手合割 name (平手, 香落ち, 二枚落ち, …) or a JKF code (HIRATE, KY, 2, …).
pub fn handicap(text: &str) -> Result<Handicap, String> {
    let v = text.trim();
    Handicap::from_japanese(v)
        .or_else(|| Handicap::from_jkf(&v.to_ascii_uppercase()))
        .ok_or_else(|| {
            format!(
                "unknown handicap '{text}' (a 手合割 name such as 平手, 香落ち, 二枚落ち, or a JKF code such as HIRATE, KY, 2)"
            )
        })
}

/// A number of plies.
pub fn plies(text: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .map_err(|_| format!("'{text}' is not a number of plies"))
}

/// A rating: a finite number.
pub fn rating(text: &str) -> Result<f64, String> {
    text.trim()
        .parse()
        .ok()
        .filter(|r: &f64| r.is_finite())
        .ok_or_else(|| format!("'{text}' is not a rating"))
}

/// A player's name (or part of one): not empty.
pub fn name(text: &str) -> Result<&str, String> {
    let v = text.trim();
    if v.is_empty() {
        Err("needs a value".to_string())
    } else {
        Ok(v)
    }
}

/// A position: `startpos` or an SFEN (`sfen ` prefix and move number optional), or either
/// followed by `moves …` (the position after them).
pub fn position(text: &str) -> Result<Position, String> {
    UsiPosition::parse(text, Variant::Standard)
        .map(|p| p.end)
        .map_err(|e| {
            let why = match e {
                UsiError::Sfen { error, .. } => error.to_string(),
                other => other.to_string(),
            };
            format!("'{text}': {why}")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_say_what_is_wrong() {
        assert_eq!(
            "2024-13-01".parse::<Day>().unwrap_err(),
            "'2024-13-01' is not a date (expected YYYY-MM-DD)"
        );
        assert_eq!("2024/01/02".parse::<Day>().unwrap().as_str(), "2024-01-02");
        assert!(position("9/9/9 b - 1").is_err());
        assert_eq!(plies("x").unwrap_err(), "'x' is not a number of plies");
        assert!(endings("resign,nope").unwrap_err().contains("'nope'"));
        assert_eq!(endings("Resign, checkmate").unwrap().len(), 2);
        assert!(winner("both").is_err());
        assert_eq!(winner("White"), Ok(Winner::Gote));
        assert!(handicap("九枚落ち").is_err());
        assert_eq!(handicap("ky"), Ok(Handicap::Lance));
        assert!(rating("inf").is_err());
        assert!(name("  ").is_err());
        assert!(variant("chess").is_err());
        assert_eq!(since("2020-05").unwrap().as_str(), "2020-05-01");
        assert_eq!(until("2020/2").unwrap().as_str(), "2020-02-29");
        assert_eq!(until("2021-02").unwrap().as_str(), "2021-02-28");
        assert_eq!(until("2021-02-03").unwrap().as_str(), "2021-02-03");
        assert!(since("2020-13").is_err());
        assert!(until("2021-02").unwrap().is_month_end());
        assert!(!until("2021-02-27").unwrap().is_month_end());
        assert!(since("2021-02").unwrap().is_month_start());
        assert_eq!(since("2021-02").unwrap().year_month(), (2021, 2));
        assert_eq!(rating_of("Average"), Ok(crate::RatingOf::Average));
        assert!(rating_of("sente").is_err());
        assert_eq!(
            time_control("floodgate-300-10F").unwrap().to_string(),
            "300+10F"
        );
        assert!(time_control("10 minutes").is_err());
    }
}

/// Which flag names a tag: `--opening` (an opening or a class), `--castle` (a castle or a
/// class) or `--class` (a side's or the game's class).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagFlag {
    /// `--opening NAME`.
    Opening,
    /// `--castle NAME`.
    Castle,
    /// `--class NAME`.
    Class,
}

/// What a tag filter's name asks for, looked up in `rules` (a tag's name or alias, in any
/// spelling the rules accept); an unknown name says which names are nearest.
pub fn tag_want(
    rules: &shogi_openings::RuleSet,
    flag: TagFlag,
    name: &str,
) -> Result<crate::TagWant, String> {
    use crate::TagWant;
    use shogi_openings::{GameClass, Kind, SideClass};
    let key = shogi_openings::normalize(name);
    if flag == TagFlag::Class {
        for c in [SideClass::StaticRook, SideClass::RangingRook] {
            if shogi_openings::normalize(c.japanese()) == key
                || rules
                    .find(name, Some(Kind::Class))
                    .iter()
                    .any(|&t| rules.name(t) == c.japanese())
            {
                return Ok(TagWant::Side(c));
            }
        }
        if let Some(c) = GameClass::ALL.into_iter().find(|c| {
            shogi_openings::normalize(c.japanese()) == key
                || (key == "相振飛車" && *c == GameClass::DoubleRangingRook)
        }) {
            return Ok(TagWant::Game(c));
        }
        let all = [
            "居飛車",
            "振り飛車",
            "相居飛車",
            "対抗形",
            "相振り飛車",
            "力戦",
        ];
        return Err(format!(
            "unknown class '{name}' (one of {})",
            all.join(", ")
        ));
    }
    let kind = if flag == TagFlag::Opening {
        Kind::Opening
    } else {
        Kind::Castle
    };
    for k in [kind, Kind::Class] {
        if let Some(&id) = rules.find(name, Some(k)).first() {
            return Ok(TagWant::Tag(id, kind));
        }
    }
    let near = rules.nearest(name, Some(kind), 5);
    let what = if kind == Kind::Opening {
        "opening"
    } else {
        "castle"
    };
    if near.is_empty() {
        Err(format!("unknown {what} '{name}'"))
    } else {
        Err(format!(
            "unknown {what} '{name}' (nearest: {})",
            near.join(", ")
        ))
    }
}

/// `sente`, `gote` or `either` (also `black`, `white`, `先手`, `後手`).
pub fn tag_side(s: &str) -> Result<crate::TagSide, String> {
    use crate::TagSide;
    match s.trim().to_ascii_lowercase().as_str() {
        "sente" | "black" | "b" | "先手" | "下手" => Ok(TagSide::Sente),
        "gote" | "white" | "w" | "後手" | "上手" => Ok(TagSide::Gote),
        "either" | "any" | "both" => Ok(TagSide::Either),
        _ => Err(format!("'{s}' is not a side (sente, gote or either)")),
    }
}

//! Selection: the filters of `shogi stats`, `check` and `convert`, applied to rows.

use crate::date::iso8601;
use crate::row::GameRow;
use shogi_core::{Position, UsiError, UsiPosition};
use std::fmt;

/// A filter value that cannot be used, naming the flag (`--since: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectionError {
    /// The flag, with its dashes (`--since`).
    pub flag: String,
    /// What is wrong with the value.
    pub message: String,
}

impl fmt::Display for SelectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.flag, self.message)
    }
}

impl std::error::Error for SelectionError {}

/// The endings a `--ending` value may name (the values of the `ending` column).
pub const ENDINGS: &[&str] = shogi_kif::ENDING_NAMES;

/// Which games to keep. Every filter set must hold (AND); an empty selection keeps all.
///
/// Built from flag names and string values with [`Selection::set`], so that the CLI, the
/// database and the Python bindings read the same values the same way:
///
/// | flag | value | keeps games … |
/// |------|-------|---------------|
/// | `--player` | name | where either side's name contains it (case-insensitive) |
/// | `--sente`, `--gote` | name | where that side's name contains it |
/// | `--since`, `--until` | `YYYY-MM-DD` (or `/`) | that started on or after / on or before the day; games without a readable date are left out |
/// | `--min-plies`, `--max-plies` | number | with at least / at most this many main-line moves |
/// | `--ending` | kinds, comma-separated | whose `ending` column is one of them (`none`: no ending) |
/// | `--winner` | `sente`, `gote`, `draw`, `none` | with this winner |
/// | `--variant` | `standard`, `mini` | of this variant |
/// | `--handicap` | `平手`, `香落ち`, …, or JKF code `HIRATE`, `KY`, … | with this handicap |
/// | `--valid`, `--invalid` | (none) | read without / with an error |
/// | `--min-rating` | number | where both sides' ratings are known and at least this |
/// | `--position` | SFEN (or `startpos`) | whose main line passes through this position (board, hands, side to move) |
#[derive(Clone, Debug, Default)]
pub struct Selection {
    players: Vec<String>,
    sente: Option<String>,
    gote: Option<String>,
    since: Option<String>,
    until: Option<String>,
    min_plies: Option<u32>,
    max_plies: Option<u32>,
    endings: Vec<String>,
    winner: Option<String>,
    variant: Option<String>,
    handicap: Option<String>,
    valid: Option<bool>,
    min_rating: Option<f64>,
    position: Option<Position>,
}

fn err(flag: &str, message: impl Into<String>) -> SelectionError {
    SelectionError {
        flag: flag.to_string(),
        message: message.into(),
    }
}

fn day(flag: &str, value: &str) -> Result<String, SelectionError> {
    iso8601(value).map(|d| d[..10].to_string()).ok_or_else(|| {
        err(
            flag,
            format!("'{value}' is not a date (expected YYYY-MM-DD)"),
        )
    })
}

/// `--ending`: kinds, comma-separated, each one of [`ENDINGS`].
fn endings(flag: &str, value: &str) -> Result<Vec<String>, SelectionError> {
    let mut kinds = Vec::new();
    for k in value.split(',') {
        let k = k.trim().to_ascii_lowercase();
        if !ENDINGS.contains(&k.as_str()) {
            return Err(err(
                flag,
                format!("unknown ending '{k}' (one of: {})", ENDINGS.join(", ")),
            ));
        }
        kinds.push(k);
    }
    Ok(kinds)
}

/// `--winner`: sente (black), gote (white), draw or none.
fn winner(flag: &str, value: &str) -> Result<String, SelectionError> {
    let w = value.trim().to_ascii_lowercase();
    let w = match w.as_str() {
        "black" => "sente".to_string(),
        "white" => "gote".to_string(),
        _ => w,
    };
    if !["sente", "gote", "draw", "none"].contains(&w.as_str()) {
        return Err(err(
            flag,
            format!("'{value}' is not a winner (sente, gote, draw or none)"),
        ));
    }
    Ok(w)
}

/// `--handicap`: a 手合割 name or a JKF code, as the Japanese name.
fn handicap(flag: &str, value: &str) -> Result<String, SelectionError> {
    let v = value.trim();
    let h = shogi_core::Handicap::from_japanese(v)
        .or_else(|| shogi_core::Handicap::from_jkf(&v.to_ascii_uppercase()))
        .ok_or_else(|| {
            err(
                flag,
                format!(
                    "unknown handicap '{value}' (a 手合割 name such as 平手, 香落ち, 二枚落ち, or a JKF code such as HIRATE, KY, 2)"
                ),
            )
        })?;
    Ok(h.japanese().to_string())
}

/// The value of a switch (`--valid`, `--invalid`): empty or true/false.
fn switch(flag: &str, value: &str) -> Result<bool, SelectionError> {
    match value.trim() {
        "" | "true" | "1" | "yes" => Ok(true),
        "false" | "0" | "no" => Ok(false),
        _ => Err(err(flag, format!("'{value}' is not true or false"))),
    }
}

/// `--min-rating`: a finite number.
fn rating(flag: &str, value: &str) -> Result<f64, SelectionError> {
    value
        .trim()
        .parse()
        .ok()
        .filter(|r: &f64| r.is_finite())
        .ok_or_else(|| err(flag, format!("'{value}' is not a rating")))
}

/// `--position`: `startpos` or an SFEN (`sfen ` prefix and move number optional), or either
/// followed by `moves …`.
fn position(flag: &str, value: &str) -> Result<Position, SelectionError> {
    UsiPosition::parse(value, shogi_core::Variant::Standard)
        .map(|p| p.end)
        .map_err(|e| {
            let why = match e {
                UsiError::Sfen { error, .. } => error.to_string(),
                other => other.to_string(),
            };
            err(flag, format!("'{value}': {why}"))
        })
}

impl Selection {
    /// An empty selection (keeps every game).
    pub fn new() -> Selection {
        Selection::default()
    }

    /// Whether no filter is set.
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
            && self.sente.is_none()
            && self.gote.is_none()
            && self.since.is_none()
            && self.until.is_none()
            && self.min_plies.is_none()
            && self.max_plies.is_none()
            && self.endings.is_empty()
            && self.winner.is_none()
            && self.variant.is_none()
            && self.handicap.is_none()
            && self.valid.is_none()
            && self.min_rating.is_none()
            && self.position.is_none()
    }

    /// Sets a filter from its flag (`--player`, `player` or `min_plies` alike) and value
    /// (`--valid` and `--invalid` take `""` or `true`). `--player` may be given many times
    /// (any of the names).
    pub fn set(&mut self, flag: &str, value: &str) -> Result<(), SelectionError> {
        let name = flag.trim_start_matches('-').replace('_', "-");
        let flag = format!("--{name}");
        let flag = flag.as_str();
        let text = || {
            let v = value.trim();
            if v.is_empty() {
                Err(err(flag, "needs a value"))
            } else {
                Ok(v.to_string())
            }
        };
        let count = || {
            value
                .trim()
                .parse::<u32>()
                .map_err(|_| err(flag, format!("'{value}' is not a number of plies")))
        };
        match name.as_str() {
            "player" => self.players.push(text()?.to_lowercase()),
            "sente" => self.sente = Some(text()?.to_lowercase()),
            "gote" => self.gote = Some(text()?.to_lowercase()),
            "since" => self.since = Some(day(flag, value)?),
            "until" => self.until = Some(day(flag, value)?),
            "min-plies" => self.min_plies = Some(count()?),
            "max-plies" => self.max_plies = Some(count()?),
            "ending" => self.endings = endings(flag, value)?,
            "winner" => self.winner = Some(winner(flag, value)?),
            "variant" => {
                let v: shogi_core::Variant = value.trim().parse().map_err(|e| err(flag, e))?;
                self.variant = Some(v.name().to_string());
            }
            "handicap" => self.handicap = Some(handicap(flag, value)?),
            "valid" | "invalid" => {
                let want_valid = (name == "valid") == switch(flag, value)?;
                if self.valid.is_some_and(|v| v != want_valid) {
                    return Err(err(flag, "--valid and --invalid exclude each other"));
                }
                self.valid = Some(want_valid);
            }
            "min-rating" => self.min_rating = Some(rating(flag, value)?),
            "position" => self.position = Some(position(flag, value)?),
            _ => return Err(err(flag, "is not a selection flag")),
        }
        Ok(())
    }

    /// The position games must pass through, if that filter is set ([`Selection::matches`]
    /// asks whether a game reached it).
    pub fn position(&self) -> Option<&Position> {
        self.position.as_ref()
    }

    /// Whether the game of `row` is kept; `reached` says whether the game passes through a
    /// position (asked only with a [`Selection::position`], once every other filter passed:
    /// [`crate::InputRecord::reached`] for a game read).
    pub fn matches(&self, row: &GameRow, reached: impl FnOnce(&Position) -> bool) -> bool {
        let has = |name: &Option<String>, want: &str| {
            name.as_deref()
                .is_some_and(|n| n.to_lowercase().contains(want))
        };
        if !self.players.is_empty()
            && !self
                .players
                .iter()
                .any(|p| has(&row.sente, p) || has(&row.gote, p))
        {
            return false;
        }
        if self.sente.as_ref().is_some_and(|p| !has(&row.sente, p)) {
            return false;
        }
        if self.gote.as_ref().is_some_and(|p| !has(&row.gote, p)) {
            return false;
        }
        let date = row.start_iso.as_deref().and_then(|d| d.get(..10));
        if let Some(since) = &self.since {
            if date.is_none_or(|d| d < since.as_str()) {
                return false;
            }
        }
        if let Some(until) = &self.until {
            if date.is_none_or(|d| d > until.as_str()) {
                return false;
            }
        }
        if self.min_plies.is_some_and(|m| row.plies < m) {
            return false;
        }
        if self.max_plies.is_some_and(|m| row.plies > m) {
            return false;
        }
        if !self.endings.is_empty() {
            let e = row.ending.as_deref().unwrap_or("none");
            if !self.endings.iter().any(|k| k == e) {
                return false;
            }
        }
        if self.winner.as_ref().is_some_and(|w| *w != row.winner) {
            return false;
        }
        if self
            .variant
            .as_ref()
            .is_some_and(|v| row.variant.as_ref() != Some(v))
        {
            return false;
        }
        if self
            .handicap
            .as_ref()
            .is_some_and(|h| row.handicap.as_ref() != Some(h))
        {
            return false;
        }
        if self.valid.is_some_and(|v| v != row.valid) {
            return false;
        }
        if let Some(min) = self.min_rating {
            let ok = matches!((row.sente_rating, row.gote_rating), (Some(a), Some(b)) if a >= min && b >= min);
            if !ok {
                return false;
            }
        }
        match &self.position {
            Some(want) => reached(want),
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_name_the_flag() {
        let mut s = Selection::new();
        let e = s.set("--since", "2024-13-01").unwrap_err();
        assert_eq!(
            e.to_string(),
            "--since: '2024-13-01' is not a date (expected YYYY-MM-DD)"
        );
        let e = s.set("position", "9/9/9 b - 1").unwrap_err();
        assert_eq!(e.flag, "--position");
        assert!(
            s.set("--min_plies", "x")
                .unwrap_err()
                .to_string()
                .starts_with("--min-plies: ")
        );
        assert!(s.set("--ending", "resign,nope").is_err());
        assert!(s.set("--winner", "both").is_err());
        assert!(s.set("--handicap", "九枚落ち").is_err());
        assert!(s.set("--colour", "x").is_err());
        assert!(s.is_empty());
    }

    #[test]
    fn filters() {
        let row = GameRow {
            sente: Some("Tanaka 四段".into()),
            gote: Some("suzuki".into()),
            start_iso: Some("2024-01-02T10:00:00".into()),
            plies: 120,
            ending: Some("resign".into()),
            winner: "gote".into(),
            variant: Some("standard".into()),
            handicap: Some("平手".into()),
            valid: true,
            sente_rating: Some(3000.0),
            gote_rating: Some(2500.0),
            ..GameRow::default()
        };
        let keeps = |pairs: &[(&str, &str)]| {
            let mut s = Selection::new();
            for (f, v) in pairs {
                s.set(f, v).unwrap();
            }
            s.matches(&row, |_| false)
        };
        assert!(keeps(&[]));
        assert!(keeps(&[("--player", "SUZUKI")]));
        assert!(keeps(&[("--player", "nobody"), ("--player", "tanaka")]));
        assert!(!keeps(&[("--sente", "suzuki")]));
        assert!(keeps(&[
            ("--since", "2024-01-02"),
            ("--until", "2024/01/02")
        ]));
        assert!(!keeps(&[("--since", "2024-01-03")]));
        assert!(keeps(&[("--min-plies", "120"), ("--max-plies", "120")]));
        assert!(!keeps(&[("--min-plies", "121")]));
        assert!(keeps(&[("--ending", "checkmate,resign")]));
        assert!(!keeps(&[("--ending", "none")]));
        assert!(keeps(&[("--winner", "white")]));
        assert!(keeps(&[
            ("--variant", "standard"),
            ("--handicap", "HIRATE")
        ]));
        assert!(!keeps(&[("--handicap", "香落ち")]));
        assert!(keeps(&[("--valid", "")]));
        assert!(!keeps(&[("--invalid", "")]));
        assert!(keeps(&[("--min-rating", "2500")]));
        assert!(!keeps(&[("--min-rating", "2501")]));
        // The position filter asks whether the game reached the position, after the others.
        assert!(!keeps(&[("--position", "startpos")]));
        let mut s = Selection::new();
        s.set("--position", "startpos").unwrap();
        assert!(s.matches(&row, |want| want.move_number() == 1));
        s.set("--min-plies", "121").unwrap();
        assert!(!s.matches(&row, |_| panic!("asked after a filter failed")));
    }
}

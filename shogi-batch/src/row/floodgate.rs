//! Floodgate's metadata: the time control and event of a game named by Floodgate's game id
//! (`wdoor+floodgate-300-10F+black+white+20200814050004`), which its records carry in
//! `$EVENT` and its files in their names, and nowhere else (no `$TIME_LIMIT`).

use super::GameRow;
use shogi_kif::{HeaderKey, Record};
use std::fmt;

/// A time control in the one form the `time_control` column gives it when it is read from
/// a game name: `BASE+SECONDS` in seconds, with `F` after a Fischer increment (added after
/// each move) and without for a byoyomi (time per move once the base is spent):
/// `floodgate-300-10F` is `300+10F`, `floodgate-900-0` is `900+0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Each side's time for the game, in seconds.
    pub base: u32,
    /// The Fischer increment or the byoyomi, in seconds.
    pub seconds: u32,
    /// Whether `seconds` is a Fischer increment (else a byoyomi).
    pub fischer: bool,
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fischer = if self.fischer { "F" } else { "" };
        write!(f, "{}+{}{fischer}", self.base, self.seconds)
    }
}

impl TimeControl {
    /// The time control of a shogi-server game name (`floodgate-300-10F`, `floodgate-900-0`,
    /// `r-600-10`): a name, `-`, the base, `-`, the seconds, an optional `F`.
    pub fn from_game_name(name: &str) -> Option<TimeControl> {
        let mut parts = name.rsplitn(3, '-');
        let (last, base, prefix) = (parts.next()?, parts.next()?, parts.next()?);
        if prefix.is_empty() {
            return None;
        }
        let (seconds, fischer) = match last.strip_suffix('F') {
            Some(s) => (s, true),
            None => (last, false),
        };
        let number = |s: &str| {
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        Some(TimeControl {
            base: number(base)?,
            seconds: number(seconds)?,
            fischer,
        })
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// The documented form (`300+10F`, `900+0`) or a game name (`floodgate-300-10F`).
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let s = s.trim();
        let dashed = s.replacen('+', "-", 1);
        TimeControl::from_game_name(&format!("t-{dashed}"))
            .filter(|_| s.contains('+'))
            .or_else(|| TimeControl::from_game_name(s))
            .ok_or_else(|| {
                format!("'{s}' is not a time control (expected e.g. 300+10F, 900+0 or floodgate-300-10F)")
            })
    }
}

/// The game name and time control of a shogi-server game id
/// (`EVENT+GAME_NAME+BLACK+WHITE+YYYYMMDDhhmmss`), when `id` is one.
pub fn game_id(id: &str) -> Option<(&str, TimeControl)> {
    let fields: Vec<&str> = id.split('+').collect();
    let stamp = fields.last()?;
    if fields.len() < 5 || stamp.len() != 14 || !stamp.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let name = fields[1];
    Some((name, TimeControl::from_game_name(name)?))
}

/// The game id a file name is (its name without the record's extension), if it is one.
fn id_of_path(path: &str) -> Option<&str> {
    let file = path.rsplit(['/', '\\']).next()?;
    let stem = file.split_once('.').map_or(file, |(stem, _)| stem);
    game_id(stem).map(|_| stem)
}

/// Fills an empty `time_control` (and an empty `event`) of a Floodgate game: from the
/// game id in the record's `$EVENT`, or when the record has no event, from its file name.
pub(super) fn fill<'a, S>(row: &mut GameRow<S>, record: &'a Record, path: &'a str)
where
    S: From<&'a str> + From<String>,
{
    let event = record
        .header
        .get(&HeaderKey::Event)
        .map(str::trim)
        .filter(|e| !e.is_empty());
    let id = match event {
        Some(e) => game_id(e).map(|_| e),
        None => id_of_path(path),
    };
    let Some((_, time)) = id.and_then(game_id) else {
        return;
    };
    if row.event.is_none() {
        row.event = id.map(S::from);
    }
    if row.time_control.is_none() {
        row.time_control = Some(S::from(time.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_names_in_the_documented_form() {
        let tc = |n| TimeControl::from_game_name(n).map(|t| t.to_string());
        assert_eq!(tc("floodgate-300-10F").as_deref(), Some("300+10F"));
        assert_eq!(tc("floodgate-900-0").as_deref(), Some("900+0"));
        assert_eq!(tc("r-600-10").as_deref(), Some("600+10"));
        for bad in [
            "floodgate",
            "floodgate-300",
            "-300-10",
            "floodgate-x-10F",
            "floodgate-300-F",
        ] {
            assert_eq!(tc(bad), None, "{bad}");
        }
    }

    #[test]
    fn parsed_from_either_form() {
        let want = TimeControl {
            base: 300,
            seconds: 10,
            fischer: true,
        };
        assert_eq!("300+10F".parse(), Ok(want));
        assert_eq!("floodgate-300-10F".parse(), Ok(want));
        assert_eq!(
            "900+0"
                .parse::<TimeControl>()
                .map(|t| t.to_string())
                .as_deref(),
            Ok("900+0")
        );
        for bad in ["300", "300+", "+10F", "300-10F", "x"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn game_ids_and_file_names() {
        let id = "wdoor+floodgate-300-10F+DEAD_SILENCE+elmo_WCSC27_479_4t_10m+20200814050004";
        let (name, time) = game_id(id).unwrap();
        assert_eq!(name, "floodgate-300-10F");
        assert_eq!(time.to_string(), "300+10F");
        assert_eq!(id_of_path(&format!("wdoor2020.7z/2020/{id}.csa")), Some(id));
        assert_eq!(id_of_path("games/第1期竜王戦.csa"), None);
        assert_eq!(game_id("wdoor+floodgate-300-10F+a+b+2020"), None);
        assert_eq!(game_id("第1期竜王戦"), None);
    }
}

//! The columns a row takes from the record's header and ending: names, dates, ratings,
//! ranks, the ending and the winner.

use super::GameRow;
use crate::date::iso8601;
use crate::filter_text::EndingName;
use shogi_kif::{HeaderKey, MainLine, Record, Winner};

fn header<'r>(record: &'r Record, key: &HeaderKey) -> Option<&'r str> {
    record
        .header
        .get(key)
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

/// The first of `names` (header keys the model does not type) with a value, trimmed; found
/// without making a key for each name.
fn header_other<'r>(record: &'r Record, names: &[&str]) -> Option<&'r str> {
    names.iter().find_map(|n| {
        record
            .header
            .entries
            .iter()
            .find(|e| matches!(&e.key, HeaderKey::Other(k) if k == n))
            .map(|e| e.value.trim())
            .filter(|v| !v.is_empty())
    })
}

/// A rating: the number a header value starts with, or, for Floodgate's `NAME:RATING`
/// (`black_rate`), the one after the last `:`.
fn rating_from(value: Option<&str>) -> Option<f64> {
    let v = value?;
    let v = v.rsplit(':').next().unwrap_or(v);
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

/// The columns of the record's header: variant, handicap, names, start (and its ISO 8601
/// form), event, site, time control, ratings not found by the reader, ranks.
pub(super) fn header_columns<'a, S>(row: &mut GameRow<S>, record: &'a Record)
where
    S: From<&'a str> + From<String>,
{
    let text = |s: Option<&'a str>| s.map(S::from);
    row.variant = Some(record.start.variant());
    row.handicap = text(
        record
            .start
            .handicap
            .map(|h| h.japanese())
            .or(record.start.name.as_deref()),
    );
    let (sente, gote) = (
        header(record, &HeaderKey::Black),
        header(record, &HeaderKey::White),
    );
    let start = header(record, &HeaderKey::StartTime).or_else(|| header(record, &HeaderKey::Date));
    row.sente = text(sente);
    row.gote = text(gote);
    row.start = text(start);
    row.start_iso = start.and_then(iso8601).map(S::from);
    row.event = text(header(record, &HeaderKey::Event));
    row.site = text(header(record, &HeaderKey::Site));
    row.time_control = match (
        header(record, &HeaderKey::TimeLimit),
        header(record, &HeaderKey::Byoyomi),
    ) {
        (Some(t), Some(b)) => Some(S::from(format!("{t} 秒読み{b}"))),
        (Some(t), None) => Some(S::from(t)),
        (None, Some(b)) => Some(S::from(format!("秒読み{b}"))),
        (None, None) => text(header(record, &HeaderKey::CsaTime)),
    };
    // The header keys of each side's rating, sente's then gote's.
    const RATING_KEYS: [[&str; 4]; 2] = [
        [
            "先手レーティング",
            "下手レーティング",
            "先手R",
            "black_rate",
        ],
        [
            "後手レーティング",
            "上手レーティング",
            "後手R",
            "white_rate",
        ],
    ];
    for (rating, keys) in [&mut row.sente_rating, &mut row.gote_rating]
        .into_iter()
        .zip(&RATING_KEYS)
    {
        if rating.is_none() {
            *rating = rating_from(header_other(record, keys));
        }
    }
    row.sente_rank = text(sente.and_then(rank));
    row.gote_rank = text(gote.and_then(rank));
}

/// A dan or kyu rank at the end of a name, after a space (`name 初段`, `name 3級`).
fn rank(name: &str) -> Option<&str> {
    let last = name.trim().rsplit([' ', '\u{3000}']).next()?;
    if last.len() == name.trim().len() {
        return None;
    }
    let number = last
        .strip_suffix('段')
        .or_else(|| last.strip_suffix('級'))?;
    let kanji = [
        "初", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十",
    ];
    let ok = kanji.contains(&number)
        || (!number.is_empty()
            && number.len() <= 6
            && number
                .chars()
                .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c)));
    ok.then_some(last)
}

/// The `ending` column and the winner of a record whose main line replayed as `main`:
/// shogi-kif's one [`shogi_kif::outcome`]. Without a playable start, the stated ending's
/// name and no winner.
pub(super) fn ending_and_winner(
    record: &Record,
    main: Option<&MainLine>,
) -> (Option<EndingName>, Winner) {
    let (ending, winner) = match main {
        Some(main) => shogi_kif::outcome(record, main),
        None => (
            record.ending().map(|e| shogi_kif::ending_name(&e.kind)),
            Winner::None,
        ),
    };
    (ending.map(EndingName::of_outcome), winner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_from_names() {
        assert_eq!(rank("surokiti0510 初段"), Some("初段"));
        assert_eq!(rank("muzudho 1級"), Some("1級"));
        assert_eq!(rank("foo　四段"), Some("四段"));
        assert_eq!(rank("羽生善治"), None);
        assert_eq!(rank("九段"), None);
        assert_eq!(rank("a 百段"), None);
    }
}

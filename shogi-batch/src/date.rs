//! Dates as records write them, normalised to ISO 8601.

/// A date (and time, when written) from a record header, as ISO 8601: `YYYY-MM-DD`,
/// `YYYY-MM-DDTHH:MM:SS`, with `Z` kept when the record says UTC.
///
/// Read: `2024/01/02`, `2024-01-02`, `2024年1月2日`, each optionally followed by a weekday in
/// parentheses (`(火)`) and a time `H:MM` or `HH:MM:SS` (fractions of a second dropped; the
/// colon ASCII or full-width), separated by spaces or `T` (`2017-03-22T01:00:00.000Z`); and
/// the American `12/30/2018 10:29:48 PM`. `None` for anything else,
/// including impossible dates such as `0000/00/00` or `2023/02/30`.
pub fn iso8601(text: &str) -> Option<String> {
    let s = text.trim().trim_matches('\u{3000}');
    if let Some(us) = us_date(s) {
        return Some(us);
    }
    let (y, rest) = number(s, 4, 4)?;
    let (sep, rest) = take_char(rest)?;
    let kanji = sep == '年';
    if !matches!(sep, '/' | '-' | '年') {
        return None;
    }
    let (m, rest) = number(rest, 1, 2)?;
    let (sep2, rest) = take_char(rest)?;
    let ok_sep2 = if kanji { sep2 == '月' } else { sep2 == sep };
    if !ok_sep2 {
        return None;
    }
    let (d, mut rest) = number(rest, 1, 2)?;
    if kanji {
        rest = rest.strip_prefix('日')?;
    }
    if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    let date = format!("{y:04}-{m:02}-{d:02}");
    // An optional weekday: (火), （火）, (Tue).
    let mut rest = rest.trim_start();
    if let Some(r) = rest.strip_prefix(['(', '（']) {
        let end = r.find([')', '）'])?;
        let close = r[end..].chars().next()?;
        rest = r[end + close.len_utf8()..].trim_start();
    }
    let rest = rest.strip_prefix('T').unwrap_or(rest).trim_start();
    if rest.is_empty() {
        return Some(date);
    }
    let (h, mi, sec, r) = time(rest)?;
    // Fractions of a second are dropped.
    let r = match r.strip_prefix('.') {
        Some(r) => r.trim_start_matches(|c: char| c.is_ascii_digit()),
        None => r,
    };
    let zone = match r.trim() {
        "" => "",
        "Z" | "z" => "Z",
        _ => return None,
    };
    if h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    Some(format!("{date}T{h:02}:{mi:02}:{sec:02}{zone}"))
}

/// `H:MM` or `HH:MM:SS` (the colon ASCII or full-width), and the rest.
fn time(s: &str) -> Option<(u32, u32, u32, &str)> {
    fn colon(r: &str) -> Option<&str> {
        r.strip_prefix(':').or_else(|| r.strip_prefix('：'))
    }
    let (h, r) = number(s, 1, 2)?;
    let (mi, r) = number(colon(r)?, 2, 2)?;
    let (sec, r) = match colon(r) {
        Some(r) => number(r, 2, 2)?,
        None => (0, r),
    };
    Some((h, mi, sec, r))
}

/// The American `M/D/YYYY h:mm:ss AM|PM` that some exports write (81Dojo).
fn us_date(s: &str) -> Option<String> {
    let (m, r) = number(s, 1, 2)?;
    let (d, r) = number(r.strip_prefix('/')?, 1, 2)?;
    let (y, r) = number(r.strip_prefix('/')?, 4, 4)?;
    if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    let date = format!("{y:04}-{m:02}-{d:02}");
    let r = r.trim_start();
    if r.is_empty() {
        return Some(date);
    }
    let (h, mi, sec, r) = time(r)?;
    let h = match (r.trim(), h) {
        ("", 0..=23) => h,
        ("AM" | "am", 1..=11) => h,
        ("AM" | "am", 12) => 0,
        ("PM" | "pm", 1..=11) => h + 12,
        ("PM" | "pm", 12) => 12,
        _ => return None,
    };
    if mi > 59 || sec > 60 {
        return None;
    }
    Some(format!("{date}T{h:02}:{mi:02}:{sec:02}"))
}

/// A run of `min..=max` ASCII or full-width digits at the start of `s`, and the rest.
fn number(s: &str, min: usize, max: usize) -> Option<(u32, &str)> {
    let mut value = 0u32;
    let mut count = 0;
    let mut end = 0;
    for (i, c) in s.char_indices() {
        let digit = match c {
            '0'..='9' => c as u32 - '0' as u32,
            '０'..='９' => c as u32 - '０' as u32,
            _ => break,
        };
        value = value * 10 + digit;
        count += 1;
        end = i + c.len_utf8();
        if count > max {
            return None;
        }
    }
    (count >= min).then(|| (value, &s[end..]))
}

fn take_char(s: &str) -> Option<(char, &str)> {
    let c = s.chars().next()?;
    Some((c, &s[c.len_utf8()..]))
}

/// The days of month `m` (1 to 12) of year `y`.
pub(crate) fn days_in_month(y: u32, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::iso8601;

    #[test]
    fn dates_seen_in_records() {
        let cases = [
            ("2024/01/02 10:00:00", Some("2024-01-02T10:00:00")),
            ("2024/01/02(火) 10:00", Some("2024-01-02T10:00:00")),
            ("1999/07/15(木) 19:07:12", Some("1999-07-15T19:07:12")),
            ("2016/12/24 9:00:00", Some("2016-12-24T09:00:00")),
            ("2021/10/17", Some("2021-10-17")),
            ("2017-03-22T01:00:00.000Z", Some("2017-03-22T01:00:00Z")),
            ("2024年1月2日", Some("2024-01-02")),
            ("２０２４/０１/０２", Some("2024-01-02")),
            ("2024/02/29", Some("2024-02-29")),
            ("2023/02/29", None),
            ("0000/00/00 00:00:00", None),
            ("", None),
            ("昭和50年", None),
            ("2024/01/02 25:00", None),
            ("2024/01-02", None),
            ("2024/01/02 10:00 JST", None),
            ("2014/09/13 14：59", Some("2014-09-13T14:59:00")),
            ("12/30/2018 10:29:48 PM", Some("2018-12-30T22:29:48")),
            ("1/2/2024 12:05:00 AM", Some("2024-01-02T00:05:00")),
            ("1/2/2024", Some("2024-01-02")),
            ("13/2/2024", None),
            ("2005/11/29･30日", None),
        ];
        for (text, want) in cases {
            assert_eq!(iso8601(text).as_deref(), want, "{text}");
        }
    }
}

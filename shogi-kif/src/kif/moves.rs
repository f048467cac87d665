//! The usual KIF move and time field, read byte by byte.

use crate::japanese::JaMove;
use crate::raw::RawTime;
use crate::text::{parse_number, trim};
use shogi_core::{Role, Square};

/// The UTF-8 bytes of a three-byte character, as one number (see [`code3`]).
const fn utf8_3(c: char) -> u32 {
    let c = c as u32;
    ((0xE0 | (c >> 12)) << 16) | ((0x80 | ((c >> 6) & 0x3F)) << 8) | (0x80 | (c & 0x3F))
}

/// The three bytes at `i` as one number (0 past the end).
fn code3(b: &[u8], i: usize) -> u32 {
    match b.get(i..i + 3) {
        Some(&[x, y, z]) => (u32::from(x) << 16) | (u32::from(y) << 8) | u32::from(z),
        _ => 0,
    }
}

/// Where a kanji rank's code ([`utf8_3`]) goes in [`RANKS`]: a multiplicative hash that
/// keeps the nine apart (checked when the table is built).
const fn rank_slot(c: u32) -> usize {
    (c.wrapping_mul(2_444_712_011) >> 28) as usize
}

/// `(code, rank)` by [`rank_slot`]; rank 0 in the unused slots.
const RANKS: [(u32, u8); 16] = {
    let list = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let mut t = [(0, 0); 16];
    let mut k = 0;
    while k < list.len() {
        let c = utf8_3(list[k]);
        assert!(t[rank_slot(c)].1 == 0, "rank codes collide");
        t[rank_slot(c)] = (c, k as u8 + 1);
        k += 1;
    }
    t
};

/// Where a piece kanji's code goes in [`KINDS`] (as [`rank_slot`]).
const fn kind_slot(c: u32) -> usize {
    (c.wrapping_mul(3_597_370_015) >> 27) as usize
}

/// `(code, kind)` by [`kind_slot`] for the one-character piece names of KIF moves.
const KINDS: [(u32, Option<Role>); 32] = {
    let list = [
        ('歩', Role::Pawn),
        ('香', Role::Lance),
        ('桂', Role::Knight),
        ('銀', Role::Silver),
        ('金', Role::Gold),
        ('角', Role::Bishop),
        ('飛', Role::Rook),
        ('玉', Role::King),
        ('王', Role::King),
        ('と', Role::Tokin),
        ('杏', Role::PromotedLance),
        ('圭', Role::PromotedKnight),
        ('全', Role::PromotedSilver),
        ('馬', Role::Horse),
        ('龍', Role::Dragon),
        ('竜', Role::Dragon),
    ];
    let mut t = [(0, None); 32];
    let mut k = 0;
    while k < list.len() {
        let c = utf8_3(list[k].0);
        assert!(t[kind_slot(c)].1.is_none(), "piece codes collide");
        t[kind_slot(c)] = (c, Some(list[k].1));
        k += 1;
    }
    t
};

/// The usual KIF move, read byte by byte: a full-width file and a kanji rank (or 同 and
/// full-width spaces), a one-character piece (or 成香, 成桂, 成銀), an optional 成 or 打,
/// then `(xy)` with a source square (or `(00)`) or nothing more. Anything else is left to
/// [`japanese::parse`]; what this reads, it reads the same way.
pub(super) fn parse_kif_common(b: &[u8]) -> Option<(JaMove, usize)> {
    kif_move::<false>(b)
}

/// [`parse_kif_common`], on a line (`EOL = false`) or on the text from a move to the end of
/// the input (`EOL = true`), where a move with no source square may also end at the line
/// end: `\n`, or `\r` (whose `\n` the caller checks for).
#[inline(always)]
pub(super) fn kif_move<const EOL: bool>(b: &[u8]) -> Option<(JaMove, usize)> {
    const ZERO: u32 = utf8_3('０');
    const DOU: u32 = utf8_3('同');
    const SPACE: u32 = utf8_3('\u{3000}');
    const NARI: u32 = utf8_3('成');
    const UTSU: u32 = utf8_3('打');
    const KYOU: u32 = utf8_3('香');
    const KEI: u32 = utf8_3('桂');
    const GIN: u32 = utf8_3('銀');
    let mut i;
    let c = code3(b, 0);
    let to = if c == DOU {
        i = 3;
        while code3(b, i) == SPACE {
            i += 3;
        }
        None
    } else {
        // '１'..'９' share their first two bytes with '０'.
        let file = c.wrapping_sub(ZERO);
        if !(1..=9).contains(&file) {
            return None;
        }
        let c = code3(b, 3);
        let (code, rank) = RANKS[rank_slot(c)];
        if code != c || rank == 0 {
            return None;
        }
        i = 6;
        Some(Square::new(file as u8, rank)?)
    };
    let c = code3(b, i);
    let (code, kind) = KINDS[kind_slot(c)];
    let kind = if code == c {
        kind?
    } else if c == NARI {
        // The two-character names of the promoted lance, knight and silver.
        i += 3;
        match code3(b, i) {
            KYOU => Role::PromotedLance,
            KEI => Role::PromotedKnight,
            GIN => Role::PromotedSilver,
            _ => return None,
        }
    } else {
        return None;
    };
    i += 3;
    let mut promote = None;
    let mut drop = false;
    match code3(b, i) {
        NARI => {
            promote = Some(true);
            i += 3;
        }
        UTSU => {
            drop = true;
            i += 3;
        }
        _ => {}
    }
    let mut from = None;
    match b.get(i..) {
        Some([b'(', f @ b'1'..=b'9', r @ b'1'..=b'9', b')', ..]) => {
            from = Square::new(f - b'0', r - b'0');
            i += 4;
        }
        Some([b'(', b'0', b'0', b')', ..]) => {
            drop = true;
            i += 4;
        }
        Some([] | [b' ' | b'\t', ..]) => {}
        Some([b'\n' | b'\r', ..]) if EOL => {}
        _ => return None,
    }
    Some((
        JaMove {
            side: None,
            to,
            kind,
            promote,
            drop,
            from,
            relative: None,
            motion: None,
        },
        i,
    ))
}

/// Parse the inside of a KIF time field: ` 0:16/00:00:16`, `00:01 / 00:01:10`, `0:7/`.
pub(super) fn parse_kif_time(body: &str) -> Option<RawTime> {
    // Nearly every field is ASCII digits, colons, a slash and spaces: read as bytes, the
    // same way (see `ascii_time`); most have the one shape `common_time` reads. A field that
    // holds anything else is read as text.
    let b = body.as_bytes();
    if let Some(t) = common_time(b) {
        return Some(t);
    }
    if b.iter()
        .all(|&c| matches!(c, b'0'..=b'9' | b':' | b'/' | b' '))
    {
        return ascii_time(b);
    }
    text_time(body)
}

/// The field as most KIF writers write it, `m:ss/hh:mm:ss` after any spaces and before any
/// (one to three digits of minutes, two digits elsewhere), as [`ascii_time`] reads it; `None`
/// for any other shape.
#[inline]
fn common_time(b: &[u8]) -> Option<RawTime> {
    let mut b = b;
    while let [b' ', rest @ ..] = b {
        b = rest;
    }
    let digit = |c: u8| c.is_ascii_digit().then(|| u64::from(c - b'0'));
    let (minutes, rest) = match b {
        [m, b':', rest @ ..] => (digit(*m)?, rest),
        [m1, m2, b':', rest @ ..] => (digit(*m1)? * 10 + digit(*m2)?, rest),
        [m1, m2, m3, b':', rest @ ..] => (digit(*m1)? * 100 + digit(*m2)? * 10 + digit(*m3)?, rest),
        _ => return None,
    };
    let [s1, s2, b'/', h1, h2, b':', n1, n2, b':', x1, x2, tail @ ..] = rest else {
        return None;
    };
    if !tail.iter().all(|&c| c == b' ') {
        return None;
    }
    let two = |a: u8, b: u8| Some(digit(a)? * 10 + digit(b)?);
    let spent = minutes * 60 + two(*s1, *s2)?;
    let total = (two(*h1, *h2)? * 60 + two(*n1, *n2)?) * 60 + two(*x1, *x2)?;
    Some(RawTime {
        spent_ms: Some(spent * 1000),
        total_ms: Some(total * 1000),
    })
}

/// [`parse_kif_time`] for a field made only of ASCII digits, `:`, `/` and spaces, read as
/// [`text_time`] reads it (a test compares the two): split at the first `/`, each side
/// trimmed, a side of at most three `:`-separated numbers.
fn ascii_time(b: &[u8]) -> Option<RawTime> {
    fn trim(mut s: &[u8]) -> &[u8] {
        while let [b' ', rest @ ..] = s {
            s = rest;
        }
        while let [rest @ .., b' '] = s {
            s = rest;
        }
        s
    }
    fn clock(s: &[u8]) -> Option<u64> {
        let mut total: u64 = 0;
        for (k, f) in s.split(|&c| c == b':').enumerate() {
            let f = trim(f);
            if k >= 3 || f.is_empty() {
                return None;
            }
            let mut n: u64 = 0;
            for &c in f {
                if !c.is_ascii_digit() {
                    return None;
                }
                n = n * 10 + u64::from(c - b'0');
                if n > u64::from(u32::MAX) {
                    return None;
                }
            }
            total = total.checked_mul(60)?.checked_add(n)?;
        }
        total.checked_mul(1000)
    }
    let (spent, total) = match b.iter().position(|&c| c == b'/') {
        Some(k) => (trim(&b[..k]), Some(trim(&b[k + 1..]))),
        None => (trim(b), None),
    };
    sides(spent, total, <[u8]>::is_empty, clock)
}

/// A time field from its two sides, trimmed, each read by `clock`: an empty side is no time,
/// and a field with neither is not a time field.
fn sides<S: ?Sized>(
    spent: &S,
    total: Option<&S>,
    empty: impl Fn(&S) -> bool,
    clock: impl Fn(&S) -> Option<u64>,
) -> Option<RawTime> {
    let spent_ms = if empty(spent) {
        None
    } else {
        Some(clock(spent)?)
    };
    let total_ms = match total {
        Some(t) if !empty(t) => Some(clock(t)?),
        _ => None,
    };
    if spent_ms.is_none() && total_ms.is_none() {
        return None;
    }
    Some(RawTime { spent_ms, total_ms })
}

/// [`parse_kif_time`] for any text: full-width digits and colons, other blanks.
fn text_time(body: &str) -> Option<RawTime> {
    let mut parts = body.splitn(2, '/');
    let spent = parts.next().map(trim).unwrap_or("");
    let total = parts.next().map(trim);
    sides(spent, total, str::is_empty, clock)
}

/// `h:mm:ss`, `m:ss` or `ss` (fields may be unpadded or space-padded) → milliseconds.
fn clock(s: &str) -> Option<u64> {
    let mut total: u64 = 0;
    let mut fields = 0;
    for f in s.split([':', '：']) {
        let f = trim(f);
        let n = parse_number(f)?;
        fields += 1;
        if fields > 3 {
            return None;
        }
        total = total.checked_mul(60)?.checked_add(u64::from(n))?;
    }
    total.checked_mul(1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte reading gives what the text reading gives, for every field the byte reading
    /// takes: all strings of up to six characters of `0 9:/` and many longer random ones.
    #[test]
    fn ascii_time_reads_as_text_time() {
        let alphabet = [b'0', b'9', b'5', b':', b'/', b' '];
        let mut checked = 0;
        let mut check = |b: &[u8]| {
            let text = std::str::from_utf8(b).unwrap();
            assert_eq!(ascii_time(b), text_time(text), "{text:?}");
            assert_eq!(parse_kif_time(text), text_time(text), "{text:?}");
            checked += 1;
        };
        let mut buf = Vec::new();
        for len in 0..=6u32 {
            for mut code in 0..6usize.pow(len) {
                buf.clear();
                for _ in 0..len {
                    buf.push(alphabet[code % 6]);
                    code /= 6;
                }
                check(&buf);
            }
        }
        // Longer ones, with runs of digits long enough to overflow.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 24) as usize;
            let mut r = state;
            buf.clear();
            for _ in 0..len {
                let pick = (r % 10) as usize;
                r = (r / 10) ^ r.rotate_left(17);
                buf.push(match pick {
                    0..=4 => b'0' + (r % 10) as u8,
                    5 | 6 => b':',
                    7 => b'/',
                    _ => b' ',
                });
            }
            check(&buf);
        }
        for common in [
            " 0:16/00:00:16",
            "999:59/99:99:99  ",
            "12:34/56:78:90",
            "00:01 / 00:01:10",
            "0:7/",
            "/1:00:00",
            "99999999999:00/",
        ] {
            check(common.as_bytes());
        }
        // The common shape with each of its characters replaced in turn.
        for shape in [" 0:16/00:00:16", "  12:05/01:02:03 ", "123:45/67:89:01"] {
            for at in 0..shape.len() {
                for c in alphabet {
                    let mut b = shape.as_bytes().to_vec();
                    b[at] = c;
                    check(&b);
                    b.remove(at);
                    check(&b);
                }
            }
        }
        assert!(checked > 250_000);
        // What the text reading alone takes: full-width digits and colons, tabs.
        assert_eq!(
            parse_kif_time("０：１６／\t1:0:0"),
            text_time("０：１６／\t1:0:0")
        );
        assert_eq!(
            parse_kif_time(" 0:16\t/00:00:16").map(|t| t.total_ms),
            Some(Some(16_000))
        );
    }
}

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
    let mut parts = body.splitn(2, '/');
    let spent = parts.next().map(trim).unwrap_or("");
    let total = parts.next().map(trim);
    let spent_ms = if spent.is_empty() {
        None
    } else {
        Some(clock(spent)?)
    };
    let total_ms = match total {
        Some(t) if !t.is_empty() => Some(clock(t)?),
        _ => None,
    };
    if spent_ms.is_none() && total_ms.is_none() {
        return None;
    }
    Some(RawTime { spent_ms, total_ms })
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

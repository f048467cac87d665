//! Character encodings: BOM, declared encoding, strict UTF-8, CP932, EUC-JP.

use crate::error::{ErrorKind, Location, ReadError};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A text encoding of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Encoding {
    /// UTF-8 (with or without a byte-order mark).
    Utf8,
    /// Shift_JIS as Windows writes it (CP932, which extends Shift_JIS).
    ShiftJis,
    /// EUC-JP (seen in old computer-shogi logs).
    EucJp,
}

impl Encoding {
    /// The name the `encoding` column of `shogi stats` and Python's `Record.encoding` give:
    /// `utf-8`, `shift_jis`, `euc-jp`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::ShiftJis => "shift_jis",
            Encoding::EucJp => "euc-jp",
        }
    }

    /// Parse an encoding name as written in `encoding=` declarations (case-insensitive).
    pub fn from_label(label: &str) -> Option<Encoding> {
        // Lowercased without '-' and '_' (no name is longer than 16 bytes that way).
        let mut buf = [0u8; 16];
        let mut n = 0;
        for b in label.trim().trim_matches('"').bytes() {
            if b == b'-' || b == b'_' {
                continue;
            }
            *buf.get_mut(n)? = b.to_ascii_lowercase();
            n += 1;
        }
        match &buf[..n] {
            b"utf8" => Some(Encoding::Utf8),
            b"shiftjis" | b"sjis" | b"cp932" | b"windows31j" | b"mskanji" => {
                Some(Encoding::ShiftJis)
            }
            b"eucjp" => Some(Encoding::EucJp),
            _ => None,
        }
    }

    pub(crate) fn codec(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::Utf8 => encoding_rs::UTF_8,
            Encoding::ShiftJis => encoding_rs::SHIFT_JIS,
            Encoding::EucJp => encoding_rs::EUC_JP,
        }
    }
}

/// Look for an `encoding=NAME` declaration on the first non-empty line
/// (`#KIF version=2.0 encoding=UTF-8`, `'CSA encoding=SHIFT_JIS`, `'encoding=Shift_JIS`).
pub fn declared_encoding(bytes: &[u8]) -> Option<Encoding> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // The declaration must be among the first two lines and is ASCII.
    let mut rest = bytes;
    for _ in 0..2 {
        let (line, after) = match crate::text::find_newline(rest) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &[][..]),
        };
        rest = after;
        let line = if line.len() > 200 { &line[..200] } else { line };
        // (Without a second line, the second is empty: as good as none.)
        if !(line.starts_with(b"#") || line.starts_with(b"'")) {
            continue;
        }
        // The key and the name are ASCII: look for them in the bytes. The first `=` that
        // ends the key (any case) ends the first place the key is at.
        const KEY: &[u8] = b"encoding";
        let found = line.iter().enumerate().skip(KEY.len()).find_map(|(j, &b)| {
            (b == b'=' && line[j - KEY.len()..j].eq_ignore_ascii_case(KEY)).then_some(j + 1)
        });
        if let Some(after_key) = found {
            let rest = &line[after_key..];
            let len = rest
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-' || **c == b'_')
                .count();
            return std::str::from_utf8(&rest[..len])
                .ok()
                .and_then(Encoding::from_label);
        }
    }
    None
}

/// Decode record bytes to text.
///
/// Order: an `override_enc` when given; a UTF-8 BOM; a declared encoding (see
/// [`declared_encoding`]); strict UTF-8; CP932; EUC-JP. A declaration that does not fit
/// the bytes is ignored in favour of the bytes. When nothing fits, the error points at
/// the first byte that is not valid UTF-8.
pub fn decode(
    bytes: &[u8],
    override_enc: Option<Encoding>,
) -> Result<(Cow<'_, str>, Encoding), ReadError> {
    decode_declared(bytes, override_enc, declaration(bytes, override_enc))
}

/// The declared encoding when [`decode`] looks for one (no override, no BOM).
fn declaration(bytes: &[u8], override_enc: Option<Encoding>) -> Option<Encoding> {
    if override_enc.is_none() && !bytes.starts_with(b"\xEF\xBB\xBF") {
        declared_encoding(bytes)
    } else {
        None
    }
}

/// [`decode`] with its [`declaration`] already looked for.
fn decode_declared(
    bytes: &[u8],
    override_enc: Option<Encoding>,
    declared: Option<Encoding>,
) -> Result<(Cow<'_, str>, Encoding), ReadError> {
    if let Some(enc) = override_enc {
        let bytes = if enc == Encoding::Utf8 {
            bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
        } else {
            bytes
        };
        return strict(bytes, enc).ok_or_else(|| invalid(bytes, enc));
    }
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return strict(rest, Encoding::Utf8).ok_or_else(|| invalid(rest, Encoding::Utf8));
    }
    if let Some(enc) = declared {
        if let Some(ok) = strict(bytes, enc) {
            return Ok(ok);
        }
    }
    for enc in [Encoding::Utf8, Encoding::ShiftJis, Encoding::EucJp] {
        // A declared encoding that did not fit is not tried twice.
        if declared == Some(enc) {
            continue;
        }
        if let Some(ok) = strict(bytes, enc) {
            return Ok(ok);
        }
    }
    Err(invalid(bytes, Encoding::Utf8))
}

/// [`decode`] for bytes the caller owns: UTF-8 text becomes the `String` without a copy.
pub(crate) fn decode_vec(
    mut bytes: Vec<u8>,
    override_enc: Option<Encoding>,
) -> Result<(String, Encoding), ReadError> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let bom = bytes.starts_with(BOM) && override_enc.is_none_or(|e| e == Encoding::Utf8);
    let declared = declaration(&bytes, override_enc);
    // Whether `decode` would try UTF-8 first, and only UTF-8 when there is a BOM.
    let utf8_first = match override_enc {
        Some(e) => e == Encoding::Utf8,
        None => bom || declared.is_none_or(|e| e == Encoding::Utf8),
    };
    if !utf8_first {
        return decode_declared(&bytes, override_enc, declared).map(|(t, e)| (t.into_owned(), e));
    }
    if bom {
        bytes.drain(..BOM.len());
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok((text, Encoding::Utf8)),
        Err(e) if bom || override_enc.is_some() => Err(invalid(e.as_bytes(), Encoding::Utf8)),
        Err(e) => decode_declared(e.as_bytes(), None, declared).map(|(t, e)| (t.into_owned(), e)),
    }
}

fn strict(bytes: &[u8], enc: Encoding) -> Option<(Cow<'_, str>, Encoding)> {
    if enc == Encoding::Utf8 {
        return std::str::from_utf8(bytes)
            .ok()
            .map(|s| (Cow::Borrowed(s), enc));
    }
    if enc == Encoding::ShiftJis {
        // The same text as encoding_rs gives, and `None` for the same bytes.
        return cp932::decode(bytes).map(|text| (Cow::Owned(text), enc));
    }
    let (text, had_errors) = enc.codec().decode_without_bom_handling(bytes);
    if had_errors {
        return None;
    }
    // NUL and most control characters do not occur in records: treat them as binary.
    Some((text, enc))
}

fn invalid(bytes: &[u8], enc: Encoding) -> ReadError {
    // Locate the first undecodable byte through the UTF-8 prefix that is valid.
    let valid = match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    };
    let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or("");
    let line = prefix.matches('\n').count() as u32 + 1;
    let line_start = prefix.rfind('\n').map_or(0, |i| i + 1);
    let column = prefix[line_start..].chars().count() as u32 + 1;
    let mut e = ReadError::new(
        ErrorKind::Encoding,
        format!(
            "the bytes are not valid {} (byte 0x{:02X} at offset {valid}); nor UTF-8, Shift_JIS (CP932) or EUC-JP",
            match enc {
                Encoding::Utf8 => "UTF-8",
                Encoding::ShiftJis => "Shift_JIS",
                Encoding::EucJp => "EUC-JP",
            },
            bytes.get(valid).copied().unwrap_or(0)
        ),
    );
    e.location = Location {
        line,
        column,
        start: valid,
        end: valid + 1,
    };
    e.line_text = prefix[line_start..].chars().take(200).collect();
    e
}

/// CP932 decoding through a table of characters that `encoding_rs` fills as they are first
/// met, so that the text is the one `encoding_rs::SHIFT_JIS` gives, character for
/// character, and the same bytes are errors.
///
/// Records are mostly short runs of ASCII between two-byte characters (`   1 ７六歩(77)`):
/// ASCII is copied sixteen bytes at a time, so that the run between two move lines'
/// characters (`(77)\n   2 `) is one step, and each character's UTF-8 bytes are stored
/// ready-made in the table, written into a scratch buffer kept from call to call (so it is
/// neither allocated nor zeroed each time). The buffer is then checked to be UTF-8 with
/// `encoding_rs`'s validator, several times quicker than `std`'s on such text, and copied
/// into the `String`: about a quarter of the instructions a byte that pushing `char`s into a
/// `String` takes.
mod cp932 {
    use std::cell::RefCell;

    /// Whether `b` is a lead byte (0x81..=0x9F, 0xE0..=0xFC), the first of two; other bytes
    /// from 0x80 decode alone (0x80, half-width katakana) or are errors. Flipping bit 0x20
    /// turns the two ranges into the one range 0xA1..=0xDC: one comparison, no table.
    const fn is_lead(b: u8) -> bool {
        (b ^ 0x20).wrapping_sub(0xA1) < 0xDC - 0xA1 + 1
    }

    /// Table entries, indexed by a byte from 0x80 (its low seven bits) and the byte after it
    /// for a lead byte (0 at the end of the input), or 0 for a byte that decodes alone. An
    /// entry holds the character's UTF-8 bytes in its low three bytes (little-endian); its
    /// top byte the UTF-8 length (low four bits) and how many input bytes the character
    /// takes (high four bits: 1 for a byte that decodes alone, 2 for a lead and a trail
    /// byte; the decoder moves on by `is_lead` instead, which it knows sooner). A top byte
    /// of 0 marks the special entries below.
    const ENTRIES: usize = 128 * 256;
    /// Not looked up yet.
    const UNKNOWN: u32 = 0;
    /// Not a character: the input is not CP932.
    const INVALID: u32 = 1;
    /// A character this table cannot hold (UTF-8 longer than three bytes; CP932 has none):
    /// the input is decoded by `encoding_rs` instead.
    const OTHER: u32 = 2;

    /// Inputs up to this size keep their scratch buffer (three times as large) for the next
    /// call; larger ones use one of their own.
    const KEEP: usize = 1 << 20;

    struct State {
        table: Box<[u32; ENTRIES]>,
        scratch: Vec<u8>,
    }

    thread_local! {
        static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
    }

    /// The entry of the character that starts with `lead` (0x80..=0xFF), followed by
    /// `next` (0 at the end of the input), as `encoding_rs` decodes it.
    #[cold]
    #[inline(never)]
    fn look_up(lead: u8, next: u8) -> u32 {
        let pair = [lead, next];
        let len = if is_lead(lead) { 2 } else { 1 };
        let text = encoding_rs::SHIFT_JIS
            .decode_without_bom_handling_and_without_replacement(&pair[..len]);
        let mut chars = text.as_deref().unwrap_or("").chars();
        let c = match (chars.next(), chars.next()) {
            // Exactly one character, and not ASCII (which a byte from 0x80 never gives).
            (Some(c), None) if !c.is_ascii() => c,
            _ => return INVALID,
        };
        let mut utf8 = [0; 4];
        let n = c.encode_utf8(&mut utf8).len();
        if n > 3 {
            return OTHER;
        }
        u32::from_le_bytes(utf8) | (n as u32 | (len as u32) << 4) << 24
    }

    /// Why [`decode_with`] stopped short.
    enum Stop {
        Invalid,
        Other,
    }

    /// The text of CP932 `bytes`, or `None` when they are not valid CP932 (exactly when
    /// `encoding_rs` reports errors).
    pub(super) fn decode(bytes: &[u8]) -> Option<String> {
        let result = STATE.with(|state| {
            let mut state = state.borrow_mut();
            let state = state.get_or_insert_with(|| State {
                table: vec![UNKNOWN; ENTRIES]
                    .into_boxed_slice()
                    .try_into()
                    .expect("the table's size"),
                scratch: Vec::new(),
            });
            if bytes.len() > KEEP {
                let mut scratch = Vec::new();
                return decode_with(bytes, &mut state.table, &mut scratch);
            }
            decode_with(bytes, &mut state.table, &mut state.scratch)
        });
        match result {
            Ok(text) => Some(text),
            Err(Stop::Invalid) => None,
            Err(Stop::Other) => {
                let (text, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
                (!had_errors).then(|| text.into_owned())
            }
        }
    }

    fn decode_with(
        bytes: &[u8],
        table: &mut [u32; ENTRIES],
        scratch: &mut Vec<u8>,
    ) -> Result<String, Stop> {
        // A byte gives at most three bytes of UTF-8 (half-width katakana), and the last
        // write may reach sixteen bytes past the text's end. The buffer is only zeroed where
        // it grows.
        let need = bytes.len() * 3 + 16;
        if scratch.len() < need {
            scratch.resize(need, 0);
        }
        let out = &mut scratch[..];
        let (mut i, mut o) = (0usize, 0usize);
        'ascii: loop {
            // ASCII, sixteen bytes at a time: they are written whole, and the text goes on
            // from the first byte that is not ASCII. (`o` never passes `3 * i`: the writes
            // stay inside `out`.)
            while bytes.len() - i >= 16 {
                let mut word = [0; 16];
                word.copy_from_slice(&bytes[i..i + 16]);
                out[o..o + 16].copy_from_slice(&word);
                let high = u128::from_le_bytes(word) & 0x8080_8080_8080_8080_8080_8080_8080_8080;
                if high != 0 {
                    let n = (high.trailing_zeros() / 8) as usize;
                    i += n;
                    o += n;
                    break;
                }
                i += 16;
                o += 16;
            }
            // Characters (often several in a row), and the last few bytes. The input moves
            // on by a branch on the byte rather than by the entry's count, so that the next
            // byte is read without waiting for the table: the branch is well predicted
            // (nearly every byte from 0x80 in a record is a lead byte), the entry's load is
            // slow to arrive.
            loop {
                let Some(&b) = bytes.get(i) else {
                    break 'ascii;
                };
                if b < 0x80 {
                    if bytes.len() - i >= 16 {
                        continue 'ascii;
                    }
                    out[o] = b;
                    i += 1;
                    o += 1;
                    continue;
                }
                let (next, step) = if is_lead(b) {
                    (bytes.get(i + 1).copied().unwrap_or(0), 2)
                } else {
                    (0, 1)
                };
                let at = usize::from(b & 0x7F) << 8 | usize::from(next);
                let mut entry = table[at];
                if entry >> 24 == 0 {
                    if entry == UNKNOWN {
                        entry = look_up(b, next);
                        table[at] = entry;
                    }
                    match entry {
                        INVALID => return Err(Stop::Invalid),
                        OTHER => return Err(Stop::Other),
                        _ => {}
                    }
                }
                out[o..o + 4].copy_from_slice(&entry.to_le_bytes());
                o += (entry >> 24 & 0xF) as usize;
                i += step;
            }
        }
        // The bytes written are UTF-8 by construction; checking them costs less than a
        // byte's worth of instructions and keeps the code safe.
        match encoding_rs::UTF_8.decode_without_bom_handling_and_without_replacement(&out[..o]) {
            Some(text) => Ok(text.into_owned()),
            None => unreachable!("the table holds UTF-8"),
        }
    }

    #[cfg(test)]
    mod tests {
        fn reference(bytes: &[u8]) -> Option<String> {
            let (text, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
            (!had_errors).then(|| text.into_owned())
        }

        /// Whether `bytes` decode, after checking that they decode as encoding_rs has it.
        fn check(bytes: &[u8]) -> bool {
            let ours = super::decode(bytes);
            assert_eq!(ours, reference(bytes), "{bytes:02X?}");
            ours.is_some()
        }

        #[test]
        fn every_short_byte_string() {
            for a in 0..=0xFFu8 {
                check(&[a]);
                for b in 0..=0xFFu8 {
                    check(&[a, b]);
                    check(&[b'x', a, b]);
                    check(&[a, b, b'\n']);
                    check(&[a, b, a]);
                }
            }
        }

        #[test]
        fn random_byte_strings() {
            // A small xorshift generator: the same strings on every run.
            let mut state = 0x9E37_79B9_7F4A_7C15u64;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let (valid, _, _) = encoding_rs::SHIFT_JIS.encode(
                "   1 ７六歩(77)   ( 0:01/00:00:01)\n　同　金打不成一九玉王と龍竜馬全圭杏①髙﨑ｱｶﾞ\n#KIF 先手：¥~\\",
            );
            let valid = valid.into_owned();
            let mut decoded = [0; 2];
            for round in 0..40_000 {
                let len = (next() % 120) as usize;
                let mut bytes = Vec::with_capacity(len + 32);
                while bytes.len() < len {
                    let r = next();
                    match r % 8 {
                        // Stretches of valid text (cut anywhere: cut characters too).
                        0..=4 => {
                            let at = (r >> 8) as usize % valid.len();
                            let end = (at + 1 + (r >> 24) as usize % 24).min(valid.len());
                            bytes.extend_from_slice(&valid[at..end]);
                        }
                        5 => bytes.push((r >> 8) as u8 & 0x7F),
                        // Any byte, in a quarter of the rounds.
                        _ if round % 4 == 0 => bytes.push((r >> 8) as u8),
                        // Half-width katakana.
                        6 => bytes.push(0xA1 + (r >> 8) as u8 % 0x3F),
                        _ => {
                            // A lead byte and a trail byte from their ranges.
                            let leads =
                                [0x81u8, 0x82, 0x88, 0x93, 0x9F, 0xE0, 0xEA, 0xED, 0xFA, 0xFC];
                            let lead = leads[(r >> 8) as usize % leads.len()];
                            let trail = 0x40 + ((r >> 16) as u8 % 0xBD);
                            bytes.extend_from_slice(&[lead, trail]);
                        }
                    }
                }
                decoded[usize::from(check(&bytes))] += 1;
            }
            // Both outcomes are well represented.
            assert!(decoded[0] > 5_000 && decoded[1] > 5_000, "{decoded:?}");
        }

        #[test]
        fn every_entry_fits_the_table() {
            // The fallback to encoding_rs for characters of four UTF-8 bytes is never taken.
            for lead in 0x80..=0xFFu8 {
                for next in 0..=0xFFu8 {
                    let entry = super::look_up(lead, next);
                    assert_ne!(entry, super::OTHER, "{lead:02X} {next:02X}");
                    assert!(entry == super::INVALID || entry >> 24 != 0);
                }
            }
        }

        #[test]
        fn a_character_the_table_cannot_hold_stops_the_fast_path() {
            let mut table: Box<[u32; super::ENTRIES]> = vec![super::UNKNOWN; super::ENTRIES]
                .into_boxed_slice()
                .try_into()
                .unwrap();
            let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("ab歩");
            let at = usize::from(sjis[2] & 0x7F) << 8 | usize::from(sjis[3]);
            let mut scratch = Vec::new();
            assert!(super::decode_with(&sjis, &mut table, &mut scratch).is_ok());
            table[at] = super::OTHER;
            assert!(matches!(
                super::decode_with(&sjis, &mut table, &mut scratch),
                Err(super::Stop::Other)
            ));
        }

        #[test]
        fn characters_at_every_place_in_ascii_runs() {
            // A run of ASCII before and after a character, of every length around the eight
            // bytes copied at a time; the character alone, cut, or repeated.
            let chars: [&[u8]; 7] = [
                b"\x82\xA0", // あ
                b"\x95\xE0", // 歩
                b"\xB1",     // ｱ (one byte, three of UTF-8)
                b"\x80",     // U+0080
                b"\x82",     // a lead byte without its trail
                b"\x82\x20", // a lead byte with a trail that is not one
                b"\xB1\xB1\xB1\xB1\xB1\xB1\xB1\xB1\xB1\xB1",
            ];
            for c in chars {
                for before in 0..20 {
                    for after in 0..20 {
                        let mut bytes = vec![b'a'; before];
                        bytes.extend_from_slice(c);
                        bytes.extend(std::iter::repeat_n(b'b', after));
                        check(&bytes);
                        bytes.extend_from_slice(c);
                        check(&bytes);
                    }
                }
            }
        }

        #[test]
        fn long_mixes_of_ascii_runs_and_characters() {
            // Runs of ASCII of every length from 0 to 20 between characters of one and two
            // bytes, so that runs begin and end at every place of the sixteen bytes copied at
            // once, and the last bytes (a lead byte alone among them) at every place too.
            let mut state = 0x2F6B_4C1D_93A5_E807u64;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            // Trail bytes in the ASCII range (７ is 82 56) and in the lead range (歩 is
            // 95 E0); two bytes of UTF-8 (α, §); NEC and IBM extensions (①, 髙, 﨑).
            let chars: Vec<Vec<u8>> = "７六歩同　金打成龍玉と①髙﨑α§＼～"
                .chars()
                .map(|c| {
                    let mut utf8 = [0; 4];
                    let (b, _, had_errors) =
                        encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut utf8));
                    assert!(!had_errors && b.len() == 2, "{c}");
                    b.into_owned()
                })
                .collect();
            let (mut decoded, mut longest) = ([0; 2], 0);
            for round in 0..4_000 {
                let mut bytes = Vec::new();
                for _ in 0..next() % 160 {
                    let r = next();
                    let run = (r % 21) as usize;
                    bytes.extend((0..run).map(|k| b"(77)\n\r 1aZ~\t\0"[(k + round) % 13]));
                    match r >> 8 & 31 {
                        0..=21 => bytes.extend_from_slice(&chars[(r >> 16) as usize % chars.len()]),
                        22..=26 => bytes.push(0xA1 + (r >> 16) as u8 % 0x3F),
                        27 => bytes.push(0x80),
                        // Not CP932, in a few rounds: a lead byte without a trail byte, a
                        // byte that is neither, an unassigned pair.
                        28 if round % 8 == 0 => bytes.extend_from_slice(&[0x82, b'\n']),
                        29 if round % 8 == 0 => bytes.push(0xA0 + (r >> 16) as u8 % 2 * 0x5F),
                        30 if round % 8 == 0 => bytes.extend_from_slice(&[0x85, 0x40]),
                        _ => {}
                    }
                }
                if round % 3 == 0 {
                    bytes.push(0x95);
                }
                let ok = check(&bytes);
                decoded[usize::from(ok)] += 1;
                if ok {
                    longest = longest.max(bytes.len());
                }
            }
            assert!(decoded[0] > 1_000 && decoded[1] > 1_000, "{decoded:?}");
            assert!(longest > 2_000, "{longest}");
        }

        #[test]
        fn lead_bytes_are_the_two_ranges() {
            for b in 0..=0xFFu8 {
                let lead = (0x81..=0x9F).contains(&b) || (0xE0..=0xFC).contains(&b);
                assert_eq!(super::is_lead(b), lead, "{b:02X}");
            }
        }

        #[test]
        fn long_inputs() {
            // Larger than the scratch buffer that is kept, then small again; katakana only
            // (the most UTF-8 a byte gives) and mixed.
            let (mixed, _, _) = encoding_rs::SHIFT_JIS.encode("   1 ７六歩(77)\nｱｲｳ\r\n");
            let mut bytes = Vec::new();
            while bytes.len() <= (1 << 20) + 100 {
                bytes.extend_from_slice(&mixed);
            }
            assert!(check(&bytes));
            assert!(check(&vec![0xB1; (1 << 20) + 3]));
            assert!(check(&vec![0xB1; 1000]));
            assert!(check(&bytes[..5000]));
            bytes.push(0x82);
            assert!(!check(&bytes));
        }

        #[test]
        fn corpus_files() {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
            let mut stack = vec![root];
            let (mut files, mut cp932) = (0, 0);
            while let Some(dir) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                for entry in entries.flatten() {
                    let path = entry.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if let Ok(bytes) = std::fs::read(&path) {
                        files += 1;
                        // Files that are not UTF-8 and decode are the CP932 ones.
                        if check(&bytes) && std::str::from_utf8(&bytes).is_err() {
                            cp932 += 1;
                        }
                    }
                }
            }
            assert!(files > 0 && cp932 > 0, "{files} files, {cp932} in CP932");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_encodings() {
        assert_eq!(
            decode("手合割：平手".as_bytes(), None).unwrap().1,
            Encoding::Utf8
        );
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("手合割：平手");
        assert_eq!(decode(&sjis, None).unwrap().1, Encoding::ShiftJis);
        assert_eq!(decode(&sjis, None).unwrap().0, "手合割：平手");
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice("先手：a".as_bytes());
        assert_eq!(decode(&bom, None).unwrap().0, "先手：a");
        assert_eq!(
            declared_encoding(b"#KIF version=2.0 encoding=Shift_JIS\n"),
            Some(Encoding::ShiftJis)
        );
        assert_eq!(
            declared_encoding(b"'CSA encoding=UTF-8\n"),
            Some(Encoding::Utf8)
        );
        assert_eq!(
            declared_encoding(b"#KIF \xff\xfe ENCODING=windows-31J x\n"),
            Some(Encoding::ShiftJis)
        );
        assert_eq!(
            declared_encoding(b"\n'encoding=euc_jp"),
            Some(Encoding::EucJp)
        );
        assert_eq!(declared_encoding(b"#KIF encoding=latin1\n"), None);
        assert_eq!(declared_encoding(b"#KIF encoding=\n"), None);
        assert_eq!(
            Encoding::from_label(" \"Shift-JIS\" "),
            Some(Encoding::ShiftJis)
        );
        assert_eq!(Encoding::from_label("utf-8-and-much-more-text"), None);
        assert_eq!(Encoding::from_label("ＵＴＦ８"), None);
    }

    /// `declared_encoding` as it was first written: every window of the first two lines.
    fn declared_reference(bytes: &[u8]) -> Option<Encoding> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        for line in bytes.split(|&b| b == b'\n').take(2) {
            let line = if line.len() > 200 { &line[..200] } else { line };
            if !(line.starts_with(b"#") || line.starts_with(b"'")) {
                continue;
            }
            const KEY: &[u8] = b"encoding=";
            if let Some(i) = line
                .windows(KEY.len())
                .position(|w| w.eq_ignore_ascii_case(KEY))
            {
                let rest = &line[i + KEY.len()..];
                let len = rest
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-' || **c == b'_')
                    .count();
                return std::str::from_utf8(&rest[..len])
                    .ok()
                    .and_then(Encoding::from_label);
            }
        }
        None
    }

    #[test]
    fn declarations_are_found_as_before() {
        // Random lines made of the pieces a declaration is made of, and of what is near one.
        let pieces: [&[u8]; 16] = [
            b"#",
            b"'",
            b"KIF ",
            b"encoding=",
            b"ENCODING=",
            b"encodin",
            b"g",
            b"=",
            b"==",
            b"Shift_JIS",
            b"utf-8",
            b"euc-jp",
            b" ",
            b"\n",
            b"\xEF\xBB\xBF",
            b"\x82\xA0",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut found = 0;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut bytes = Vec::new();
            let mut r = state;
            for _ in 0..(r % 9) {
                r /= 9;
                bytes.extend_from_slice(pieces[(r % 16) as usize]);
                r /= 16;
            }
            if r % 3 == 0 {
                // Near the 200 bytes a line is looked at.
                let at = bytes.len().min(1);
                bytes.splice(
                    at..at,
                    std::iter::repeat_n(b'x', 180 + (r / 3 % 24) as usize),
                );
                bytes.insert(0, b'#');
            }
            let ours = declared_encoding(&bytes);
            assert_eq!(ours, declared_reference(&bytes), "{bytes:?}");
            found += usize::from(ours.is_some());
        }
        assert!(found > 300, "{found}");
    }

    #[test]
    fn binary_junk_is_located() {
        let e = decode(b"abc\n\xff\xff\xff\x80\x80", None).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Encoding);
        assert_eq!(e.location.line, 2);
    }
}

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
    for line in bytes.split(|&b| b == b'\n').take(2) {
        let line = if line.len() > 200 { &line[..200] } else { line };
        if !(line.starts_with(b"#") || line.starts_with(b"'")) {
            continue;
        }
        // The key and the name are ASCII: look for them in the bytes.
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
    if let Some(enc) = declared_encoding(bytes) {
        if let Some(ok) = strict(bytes, enc) {
            return Ok(ok);
        }
    }
    for enc in [Encoding::Utf8, Encoding::ShiftJis, Encoding::EucJp] {
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
    // Whether `decode` would try UTF-8 first, and only UTF-8 when there is a BOM.
    let utf8_first = match override_enc {
        Some(e) => e == Encoding::Utf8,
        None => bom || declared_encoding(&bytes).is_none_or(|e| e == Encoding::Utf8),
    };
    if !utf8_first {
        return decode(&bytes, override_enc).map(|(t, e)| (t.into_owned(), e));
    }
    if bom {
        bytes.drain(..BOM.len());
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok((text, Encoding::Utf8)),
        Err(e) if bom || override_enc.is_some() => Err(invalid(e.as_bytes(), Encoding::Utf8)),
        Err(e) => decode(e.as_bytes(), None).map(|(t, e)| (t.into_owned(), e)),
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
/// character, and the same bytes are errors. Records are mostly ASCII with a few two-byte
/// characters a line, where this is about a fifth quicker than encoding_rs's general decoder.
mod cp932 {
    use std::cell::RefCell;

    /// Lead bytes 0x81..=0x9F and 0xE0..=0xFC (60 of them) have rows of 256 trail bytes.
    const ROWS: usize = 60;
    /// `KIND` for a byte that may decode alone (0x80, half-width katakana; or an error).
    const SINGLE: u8 = 0xFF;
    /// In the table: not looked up yet.
    const UNKNOWN: char = '\0';
    /// In the table: not a character. Never one of encoding_rs's results for a non-ASCII
    /// byte or pair.
    const INVALID: char = '\u{1}';

    /// For bytes 0x80..=0xFF: the row of a lead byte, or `SINGLE`.
    const KIND: [u8; 128] = {
        let mut kind = [SINGLE; 128];
        let mut row = 0;
        let mut b = 0x80;
        while b <= 0xFF {
            if (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC) {
                kind[b - 0x80] = row;
                row += 1;
            }
            b += 1;
        }
        kind
    };

    thread_local! {
        /// The characters of bytes 0x80..=0xFF alone (first 128 entries), then of a lead
        /// byte (by row) and a trail byte.
        static TABLE: RefCell<Vec<char>> = const { RefCell::new(Vec::new()) };
    }

    /// What `encoding_rs` makes of `bytes` when they are exactly one character.
    #[cold]
    fn look_up(bytes: &[u8]) -> char {
        let text =
            encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(bytes);
        let mut chars = text.as_deref().unwrap_or("").chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c != UNKNOWN && c != INVALID => c,
            _ => INVALID,
        }
    }

    /// The text of CP932 `bytes`, or `None` when they are not valid CP932 (exactly when
    /// `encoding_rs` reports errors).
    pub(super) fn decode(bytes: &[u8]) -> Option<String> {
        TABLE.with(|table| {
            let mut table = table.borrow_mut();
            if table.is_empty() {
                *table = vec![UNKNOWN; 128 + ROWS * 256];
            }
            decode_with(bytes, &mut table)
        })
    }

    fn decode_with(bytes: &[u8], table: &mut [char]) -> Option<String> {
        // Two-byte characters take three bytes in UTF-8.
        let mut out = String::with_capacity(bytes.len() + bytes.len() / 2 + 4);
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b < 0x80 {
                out.push(char::from(b));
                i += 1;
                continue;
            }
            let k = KIND[usize::from(b - 0x80)];
            let (at, len) = if k == SINGLE {
                (usize::from(b - 0x80), 1)
            } else {
                let trail = *bytes.get(i + 1)?;
                (128 + usize::from(k) * 256 + usize::from(trail), 2)
            };
            let mut c = table[at];
            if c == UNKNOWN {
                c = look_up(&bytes[i..i + len]);
                table[at] = c;
            }
            if c == INVALID {
                return None;
            }
            out.push(c);
            i += len;
        }
        Some(out)
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

    #[test]
    fn binary_junk_is_located() {
        let e = decode(b"abc\n\xff\xff\xff\x80\x80", None).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Encoding);
        assert_eq!(e.location.line, 2);
    }
}

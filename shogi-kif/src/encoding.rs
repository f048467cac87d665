//! Character encodings: BOM, declared encoding, strict UTF-8, CP932, EUC-JP.

use crate::error::{ErrorKind, Location, ReadError};
use serde::Serialize;
use std::borrow::Cow;

/// A text encoding of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Encoding {
    /// UTF-8 (with or without a byte-order mark).
    Utf8,
    /// Shift_JIS as Windows writes it (CP932, which extends Shift_JIS).
    ShiftJis,
    /// EUC-JP (seen in old computer-shogi logs).
    EucJp,
}

impl Encoding {
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

    fn codec(self) -> &'static encoding_rs::Encoding {
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

fn strict(bytes: &[u8], enc: Encoding) -> Option<(Cow<'_, str>, Encoding)> {
    if enc == Encoding::Utf8 {
        return std::str::from_utf8(bytes)
            .ok()
            .map(|s| (Cow::Borrowed(s), enc));
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

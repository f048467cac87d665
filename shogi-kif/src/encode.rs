//! Encoding written text for output: UTF-8 as it is, Shift_JIS (CP932) or EUC-JP through
//! encoding_rs, with no character ever replaced silently.

use crate::encoding::Encoding;
use std::borrow::Cow;
use std::fmt;

impl Encoding {
    /// The name declaration lines use for it (`#KIF version=2.0 encoding=Shift_JIS`).
    pub fn label(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::ShiftJis => "Shift_JIS",
            Encoding::EucJp => "EUC-JP",
        }
    }
}

impl Default for Encoding {
    /// UTF-8, what the writers write unless told otherwise.
    fn default() -> Encoding {
        Encoding::Utf8
    }
}

/// A character of the text that the target encoding has no form for, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unencodable {
    /// The character.
    pub ch: char,
    /// The encoding that lacks it.
    pub encoding: Encoding,
    /// Its line in the text (1-based).
    pub line: u32,
    /// Its column in that line, in characters (1-based).
    pub column: u32,
    /// The line, for the message.
    pub line_text: String,
}

impl fmt::Display for Unencodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {} (U+{:04X}) has no {} form, in \"{}\"",
            self.line,
            self.column,
            self.ch,
            u32::from(self.ch),
            self.encoding.label(),
            self.line_text
        )
    }
}

impl std::error::Error for Unencodable {}

/// The bytes of `c` in `encoding`, when it has a form that decodes back to `c` (encoding_rs
/// maps a few characters to look-alikes, e.g. U+2212 MINUS SIGN to the form of U+FF0D).
fn encode_char(c: char, encoding: Encoding) -> Option<Vec<u8>> {
    let mut buf = [0u8; 4];
    let s = c.encode_utf8(&mut buf);
    let codec = encoding.codec();
    let (bytes, _, unmappable) = codec.encode(s);
    if unmappable {
        return None;
    }
    let back = codec.decode_without_bom_handling_and_without_replacement(&bytes)?;
    (back == *s).then(|| bytes.into_owned())
}

/// What [`encode_lossy`] writes for a character the encoding lacks: ☗ and ☖ (the shogi
/// side marks of Unicode) become ▲ and △, which Shift_JIS has; anything else becomes its
/// code point written out, `U+2606`.
pub fn substitute(c: char) -> Cow<'static, str> {
    match c {
        '☗' => Cow::Borrowed("▲"),
        '☖' => Cow::Borrowed("△"),
        c => Cow::Owned(format!("U+{:04X}", u32::from(c))),
    }
}

/// Encode text for output. UTF-8 is the text itself; in another encoding a character it
/// lacks is an error naming it and its place (never a silent `?`).
///
/// ```
/// use shogi_kif::Encoding;
/// let bytes = shogi_kif::encode("▲７六歩\n", Encoding::ShiftJis)?;
/// assert_eq!(&bytes[..2], b"\x81\xA3");
/// let err = shogi_kif::encode("先手：☗\n", Encoding::ShiftJis).unwrap_err();
/// assert_eq!((err.ch, err.line, err.column), ('☗', 1, 4));
/// # Ok::<(), shogi_kif::Unencodable>(())
/// ```
pub fn encode(text: &str, encoding: Encoding) -> Result<Cow<'_, [u8]>, Unencodable> {
    encode_with(text, encoding, false).map(|(bytes, _)| bytes)
}

/// Encode text for output, replacing each character the encoding lacks by its
/// [`substitute`]; give the characters replaced (each once, in order of appearance).
pub fn encode_lossy(text: &str, encoding: Encoding) -> (Cow<'_, [u8]>, Vec<char>) {
    match encode_with(text, encoding, true) {
        Ok(done) => done,
        // Substitutes are ASCII or ▲/△: every encoding here has them.
        Err(_) => (Cow::Borrowed(text.as_bytes()), Vec::new()),
    }
}

fn encode_with(
    text: &str,
    encoding: Encoding,
    lossy: bool,
) -> Result<(Cow<'_, [u8]>, Vec<char>), Unencodable> {
    if encoding == Encoding::Utf8 {
        return Ok((Cow::Borrowed(text.as_bytes()), Vec::new()));
    }
    let codec = encoding.codec();
    // The usual case: every character has a form that decodes back to it.
    let (bytes, _, unmappable) = codec.encode(text);
    if !unmappable
        && codec
            .decode_without_bom_handling_and_without_replacement(&bytes)
            .is_some_and(|back| back == text)
    {
        return Ok((Cow::Owned(bytes.into_owned()), Vec::new()));
    }
    // Character by character, to find (or replace) the ones without a faithful form.
    let mut out = Vec::with_capacity(text.len());
    let mut replaced = Vec::new();
    for (line_no, line) in text.split_inclusive('\n').enumerate() {
        for (col, c) in line.chars().enumerate() {
            if c.is_ascii() {
                out.push(c as u8);
                continue;
            }
            if let Some(b) = encode_char(c, encoding) {
                out.extend_from_slice(&b);
                continue;
            }
            if !lossy {
                return Err(Unencodable {
                    ch: c,
                    encoding,
                    line: line_no as u32 + 1,
                    column: col as u32 + 1,
                    line_text: line
                        .trim_end_matches(['\n', '\r'])
                        .chars()
                        .take(200)
                        .collect(),
                });
            }
            let sub = substitute(c);
            let (b, _, _) = codec.encode(&sub);
            out.extend_from_slice(&b);
            if !replaced.contains(&c) {
                replaced.push(c);
            }
        }
    }
    Ok((Cow::Owned(out), replaced))
}

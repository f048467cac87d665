//! Record formats: their names, detection from the content, hints from file extensions.

use crate::japanese;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Format {
    /// Kakinoki KIF (numbered move lines with source squares).
    Kif,
    /// KI2 (moves without sources, resolved with 右 左 直 上 引 寄).
    Ki2,
    /// CSA standard record format (V2.2 / V3.0; several games split by `/`).
    Csa,
    /// USI `position …` lines, one record a line.
    Usi,
    /// Bare SFEN positions, one a line.
    Sfen,
    /// JSON Kifu Format.
    Jkf,
}

impl Format {
    /// Every format, in the order the CLI lists them.
    pub const ALL: [Format; 6] = [
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Usi,
        Format::Sfen,
        Format::Jkf,
    ];

    /// The format a file extension suggests (`kif`, `kifu`, `ki2`, `ki2u`, `csa`, `usi`, `sfen`, `jkf`, `json`).
    pub fn from_extension(ext: &str) -> Option<Format> {
        // Compared without case and without making a lower-case copy (asked once a file).
        const NAMES: [(&str, Format); 9] = [
            ("kif", Format::Kif),
            ("kifu", Format::Kif),
            ("ki2", Format::Ki2),
            ("ki2u", Format::Ki2),
            ("csa", Format::Csa),
            ("usi", Format::Usi),
            ("sfen", Format::Sfen),
            ("jkf", Format::Jkf),
            ("json", Format::Jkf),
        ];
        NAMES
            .iter()
            .find(|(name, _)| ext.eq_ignore_ascii_case(name))
            .map(|&(_, f)| f)
    }

    /// The format a path's extension suggests (see [`Format::from_extension`]).
    pub fn from_path(path: &Path) -> Option<Format> {
        path.extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
    }

    /// Whether an input of this format may hold several games (CSA games separated by `/`,
    /// one USI or SFEN game a line); KIF, KI2 and JKF hold one.
    pub fn is_multi_game(self) -> bool {
        matches!(self, Format::Csa | Format::Usi | Format::Sfen)
    }

    /// The format named `name` (a lowercase [`Format::name`]: `kif`, `ki2`, `csa`, `usi`,
    /// `sfen`, `jkf`); extensions such as `kifu` are [`Format::from_extension`]'s.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Lowercase name (what `Display` prints and [`Format::from_name`] reads).
    pub fn name(self) -> &'static str {
        match self {
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Usi => "usi",
            Format::Sfen => "sfen",
            Format::Jkf => "jkf",
        }
    }

    /// Recognise the format from the text; `hint` (e.g. from the extension) breaks ties.
    pub fn detect(text: &str, hint: Option<Format>) -> Option<Format> {
        let t = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
        if t.starts_with('{') {
            return Some(Format::Jkf);
        }
        // Kakinoki's own declaration line settles it.
        if t.starts_with("#KIF version=") {
            return Some(Format::Kif);
        }
        if t.starts_with("#KI2 version=") {
            return Some(Format::Ki2);
        }
        let (mut kif, mut ki2, mut csa, mut usi, mut sfen) = (0u32, 0u32, 0u32, 0u32, 0u32);
        for line in t.lines().take(400) {
            // Stop early once one format is far ahead of every other.
            let scores = [kif, ki2, csa, usi, sfen];
            let best = scores.iter().copied().max().unwrap_or(0);
            if best >= 45 && scores.iter().filter(|&&s| s * 5 > best).count() == 1 {
                break;
            }
            let l = line.trim();
            let b = l.as_bytes();
            if l.is_empty() {
                continue;
            }
            if l.starts_with("position ") || l.starts_with("startpos") {
                usi += 3;
            } else if l.starts_with("sfen ") {
                usi += 2;
            } else if l.split_whitespace().next().is_some_and(|f| {
                f.matches('/').count() >= 4
                    && f.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '/' || c == '+')
            }) {
                sfen += 2;
            } else if is_csa_move(b) || is_csa_position(l) {
                csa += 3;
            } else if l.starts_with("V2")
                || l.starts_with("V3")
                || l.starts_with("N+")
                || l.starts_with("N-")
                || (l.starts_with('$') && l.contains(':'))
                || l.starts_with('%')
            {
                csa += 2;
            } else if l.starts_with('\'') {
                csa += 1;
            } else if is_kif_move(l) || l.starts_with("手数-") || l.starts_with("手数－") {
                kif += 3;
            } else if l.starts_with(['▲', '△', '▼', '▽', '☗', '☖']) && !l.starts_with("手数")
            {
                ki2 += 3;
            } else if l.contains('：')
                || l.starts_with('*')
                || l.starts_with('#')
                || l.starts_with('|')
            {
                kif += 1;
            }
        }
        let scores = [
            (Format::Kif, kif),
            (Format::Ki2, ki2),
            (Format::Csa, csa),
            (Format::Usi, usi),
            (Format::Sfen, sfen),
        ];
        let best = scores.iter().map(|s| s.1).max().unwrap_or(0);
        if best == 0 {
            return hint;
        }
        if let Some(h) = hint {
            if scores.iter().any(|s| s.0 == h && s.1 == best) {
                return Some(h);
            }
        }
        scores.iter().find(|s| s.1 == best).map(|s| s.0)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn is_csa_move(b: &[u8]) -> bool {
    b.len() >= 7 && (b[0] == b'+' || b[0] == b'-') && b[1..5].iter().all(u8::is_ascii_digit)
}

fn is_csa_position(l: &str) -> bool {
    let b = l.as_bytes();
    l.starts_with("PI")
        || (b.len() > 2 && b[0] == b'P' && (b[1].is_ascii_digit() || b[1] == b'+' || b[1] == b'-'))
}

fn is_kif_move(l: &str) -> bool {
    l.starts_with(|c: char| c.is_ascii_digit())
        && japanese::parse(
            l.trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start(),
        )
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for f in Format::ALL {
            assert_eq!(Format::from_name(&f.to_string()), Some(f));
        }
        assert_eq!(Format::from_name("kifu"), None);
        assert_eq!(Format::from_extension("kifu"), Some(Format::Kif));
        assert_eq!(Format::from_extension("KIF"), Some(Format::Kif));
        assert_eq!(Format::from_extension("Ki2U"), Some(Format::Ki2));
        assert_eq!(Format::from_extension("JSON"), Some(Format::Jkf));
        assert_eq!(Format::from_extension("sFeN"), Some(Format::Sfen));
        assert_eq!(Format::from_extension("kif2"), None);
        assert_eq!(Format::from_extension("ki"), None);
        assert_eq!(Format::from_extension(""), None);
    }
}

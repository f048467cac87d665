//! The closed-set columns of a row (format, encoding, variant, ending, winner): each value is
//! an enum of shogi-core, shogi-kif or this crate, written as its one lowercase word in CSV,
//! JSON, SQLite and Python, and read back from that word.

use crate::filter_text::EndingName;
use shogi_core::{Color, Variant};
use shogi_kif::{Encoding, Format, Winner};

/// A value of a closed-set column and its word (`kif`, `shift_jis`, `mini`, `resign`, `gote`).
pub trait ColumnWord: Copy + Sized + 'static {
    /// The column's name (for errors about a stored word).
    const COLUMN: &'static str;

    /// The word written for the value.
    fn word(self) -> &'static str;

    /// The value a word stands for (exactly as [`ColumnWord::word`] writes it).
    fn from_word(word: &str) -> Option<Self>;
}

/// The value of `all` whose word is `word`.
fn find<T: ColumnWord>(all: &[T], word: &str) -> Option<T> {
    all.iter().copied().find(|v| v.word() == word)
}

impl ColumnWord for Format {
    const COLUMN: &'static str = "format";
    fn word(self) -> &'static str {
        self.name()
    }
    fn from_word(word: &str) -> Option<Self> {
        find(&Format::ALL, word)
    }
}

impl ColumnWord for Encoding {
    const COLUMN: &'static str = "encoding";
    fn word(self) -> &'static str {
        self.name()
    }
    fn from_word(word: &str) -> Option<Self> {
        find(&[Encoding::Utf8, Encoding::ShiftJis, Encoding::EucJp], word)
    }
}

impl ColumnWord for Variant {
    const COLUMN: &'static str = "variant";
    fn word(self) -> &'static str {
        self.name()
    }
    fn from_word(word: &str) -> Option<Self> {
        find(&[Variant::Standard, Variant::Mini], word)
    }
}

impl ColumnWord for Winner {
    const COLUMN: &'static str = "winner";
    fn word(self) -> &'static str {
        self.name()
    }
    fn from_word(word: &str) -> Option<Self> {
        Winner::from_name(word)
    }
}

impl ColumnWord for EndingName {
    const COLUMN: &'static str = "ending";
    fn word(self) -> &'static str {
        self.name()
    }
    fn from_word(word: &str) -> Option<Self> {
        EndingName::from_exact(word)
    }
}

impl ColumnWord for Color {
    const COLUMN: &'static str = "missed_mate_side";
    /// `sente` or `gote`, as the `winner` column names sides.
    fn word(self) -> &'static str {
        Winner::of(self).name()
    }
    fn from_word(word: &str) -> Option<Self> {
        Winner::from_name(word).and_then(Winner::color)
    }
}

/// The word `text` stored in `column` as its value, or a message naming the column and the
/// word (a damaged database, a hand-edited CSV).
pub fn parse_word<T: ColumnWord>(text: &str) -> Result<T, String> {
    T::from_word(text).ok_or_else(|| format!("'{text}' is not a value of column {}", T::COLUMN))
}

/// Serde for a closed-set column: the value as its word.
pub(super) mod serde_word {
    use super::ColumnWord;
    use serde::{Deserialize, Deserializer, Serializer};
    use std::borrow::Cow;

    pub fn serialize<T: ColumnWord, Z: Serializer>(v: &T, s: Z) -> Result<Z::Ok, Z::Error> {
        s.serialize_str(v.word())
    }

    pub fn deserialize<'de, T: ColumnWord, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let text = Cow::<str>::deserialize(d)?;
        super::parse_word(&text).map_err(serde::de::Error::custom)
    }
}

/// Serde for an optional closed-set column: the word, or `null` (empty in CSV).
pub(super) mod serde_opt_word {
    use super::ColumnWord;
    use serde::{Deserialize, Deserializer, Serializer};
    use std::borrow::Cow;

    pub fn serialize<T: ColumnWord, Z: Serializer>(v: &Option<T>, s: Z) -> Result<Z::Ok, Z::Error> {
        match v {
            Some(v) => s.serialize_some(v.word()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: ColumnWord, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        match Option::<Cow<str>>::deserialize(d)? {
            None => Ok(None),
            Some(text) if text.is_empty() => Ok(None),
            Some(text) => super::parse_word(&text)
                .map(Some)
                .map_err(serde::de::Error::custom),
        }
    }
}

/// Serde for a closed-set column that only some rows carry (`Some(None)`: the column is
/// there and empty; `None` is skipped by the field's `skip_serializing_if`).
pub(super) mod serde_flag_word {
    use super::ColumnWord;
    use serde::{Deserializer, Serializer};

    pub fn serialize<T: ColumnWord, Z: Serializer>(
        v: &Option<Option<T>>,
        s: Z,
    ) -> Result<Z::Ok, Z::Error> {
        super::serde_opt_word::serialize(&v.flatten(), s)
    }

    pub fn deserialize<'de, T: ColumnWord, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Option<T>>, D::Error> {
        super::serde_opt_word::deserialize(d).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word reads back as its value, and an unknown word is an error naming the column.
    #[test]
    fn words_round_trip() {
        fn back<T: ColumnWord + PartialEq + std::fmt::Debug>(all: &[T]) {
            for v in all {
                assert_eq!(T::from_word(v.word()), Some(*v));
                // Written into CSV without quoting (`Fields::word`).
                assert!(!v.word().contains([',', '"', '\r', '\n']), "{}", v.word());
            }
            let e = parse_word::<T>("Bogus").unwrap_err();
            assert!(e.contains(T::COLUMN) && e.contains("Bogus"), "{e}");
        }
        back(&Format::ALL);
        back(&[Encoding::Utf8, Encoding::ShiftJis, Encoding::EucJp]);
        back(&[Variant::Standard, Variant::Mini]);
        back(&[Winner::Sente, Winner::Gote, Winner::Draw, Winner::None]);
        back(&[Color::Black, Color::White]);
        let endings: Vec<EndingName> = shogi_kif::ENDING_NAMES
            .iter()
            .map(|e| e.parse().unwrap())
            .collect();
        back(&endings);
        assert_eq!(Encoding::ShiftJis.word(), "shift_jis");
    }
}

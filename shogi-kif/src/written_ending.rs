//! What each writer writes for an ending: an unknown ending word is kept as written where the
//! format's reader reads it back as the same ending, else it becomes [`UNKNOWN_ENDING_WORD`]
//! with the word in a comment. Here, not in `ending`, because it asks the readers (`kif`'s
//! move syntax, the `まで…` words), which themselves build on `ending`.

use crate::ending::{EndingKind, UNKNOWN_ENDING_WORD, closing_kind};
use crate::format::Format;
use shogi_core::Color;
use std::borrow::Cow;

impl EndingKind {
    /// Whether the KIF and KI2 writers write this ending as a word that reads back as the
    /// same ending: every known ending, and an unknown word unless it has a line break,
    /// blanks around it or a trailing time field, or reads as a move or as a known ending.
    /// Such a word is written as [`UNKNOWN_ENDING_WORD`] with the word in a comment
    /// ([`EndingKind::as_written`], [`crate::Loss::Ending`]).
    pub fn reads_back_in_kif(&self) -> bool {
        match self {
            EndingKind::Other(w) => {
                crate::kif::word_reads_back(w)
                    && [Color::Black, Color::White]
                        .iter()
                        .all(|&c| closing_kind(w, c).is_none_or(|k| &k == self))
            }
            _ => true,
        }
    }

    /// Whether `format`'s writer writes this ending as a word its reader reads back as the
    /// same ending. This is about unknown words ([`EndingKind::Other`]), kept as written
    /// where they read back as themselves: in KIF and KI2 see
    /// [`EndingKind::reads_back_in_kif`]; in CSA a `%` word on one line, without a comma or
    /// blanks around it, that is not a CSA word (`%TORYO` would read back as a resignation);
    /// in JKF any word that is not a CSA or KIF word; in USI and SFEN none. Every known
    /// ending gives `true`: which of them a format has no word for is [`crate::losses`]'s
    /// business.
    pub fn reads_back_in(&self, format: Format) -> bool {
        let EndingKind::Other(w) = self else {
            return true;
        };
        let foul = |w: &str| matches!(w, "+ILLEGAL_ACTION" | "-ILLEGAL_ACTION" | "ILLEGAL_ACTION");
        match format {
            Format::Kif | Format::Ki2 => self.reads_back_in_kif(),
            Format::Csa => w.strip_prefix('%').is_some_and(|rest| {
                !w.contains(['\n', ','])
                    && w.trim() == w
                    && !foul(rest)
                    && Self::from_csa(rest).is_none()
            }),
            Format::Jkf => {
                !foul(w) && Self::from_csa(w).is_none() && Self::from_japanese(w).is_none()
            }
            Format::Usi | Format::Sfen => false,
        }
    }

    /// The ending `format`'s writer writes for this one: itself, except an unknown word that
    /// would not read back as itself in KIF, KI2 or JKF ([`EndingKind::reads_back_in`]),
    /// which is written as [`UNKNOWN_ENDING_WORD`] with the word as the ending's first
    /// comment ([`crate::Loss::Ending`] names it).
    pub fn as_written(&self, format: Format) -> Cow<'_, EndingKind> {
        let variations = matches!(format, Format::Kif | Format::Ki2 | Format::Jkf);
        if variations && !self.reads_back_in(format) {
            Cow::Owned(EndingKind::Other(UNKNOWN_ENDING_WORD.to_string()))
        } else {
            Cow::Borrowed(self)
        }
    }
}

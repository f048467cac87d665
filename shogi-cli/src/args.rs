//! The command line's value types shared by several commands (variants, formats, notations,
//! inputs, the position argument). A leaf: the commands use it, it uses none of them.

use shogi_core::{Position, UsiError, UsiPosition, Variant};
use shogi_kif::notation::Notation;
use shogi_kif::{Encoding, Format};

/// Variant names on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VariantArg {
    /// Standard 9x9 shogi.
    Standard,
    /// Mini Shogi (5x5).
    Mini,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Standard => Variant::Standard,
            VariantArg::Mini => Variant::Mini,
        }
    }
}

/// The output of a command: text for people, JSON for programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Lines of text (see the command's help for their shape).
    Text,
    /// One JSON document.
    Json,
}

/// Reads a position argument (`startpos` of `variant`, standard when not given, or an SFEN,
/// either maybe followed by `moves …`; see [`UsiPosition`]) into the position it names; a
/// variant given with an SFEN must be the SFEN's.
pub(crate) fn parse_position(
    text: &str,
    variant: Option<VariantArg>,
) -> Result<Position, crate::ctx::Failure> {
    let v = Variant::from(variant.unwrap_or(VariantArg::Standard));
    let pos = match UsiPosition::parse(text, v) {
        Ok(p) => p.end,
        Err(e) => {
            // Without moves the text was meant as an SFEN: say what is wrong with it as
            // Position::from_sfen (and Python's Position) say it.
            let why = match Position::from_sfen(text) {
                Err(sfen) if !text.split_whitespace().any(|w| w == "moves") => sfen.to_string(),
                _ => match e {
                    UsiError::Sfen { error, .. } => error.to_string(),
                    other => other.to_string(),
                },
            };
            return Err(crate::ctx::Failure::usage(format!("error: {why}")));
        }
    };
    if let Some(v) = variant {
        if pos.variant() != Variant::from(v) {
            return Err(crate::ctx::Failure::usage(format!(
                "error: the SFEN is a {} position but --variant {} was given",
                pos.variant().name(),
                Variant::from(v).name()
            )));
        }
    }
    Ok(pos)
}

/// Move notations on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NotationArg {
    /// Japanese, as in KI2: ▲７六歩, △同　歩, qualifiers 右左直上引寄, 成/不成/打.
    #[value(alias = "ja")]
    Japanese,
    /// Western (Hodges): P-7f, Bx2b+, S*5e, G6i-5h, Nx7c=, +Rx2b.
    #[value(alias = "hodges")]
    Western,
    /// USI: 7g7f, 8h2b+, P*5e.
    Usi,
}

impl From<NotationArg> for Notation {
    fn from(n: NotationArg) -> Notation {
        match n {
            NotationArg::Japanese => Notation::Japanese,
            NotationArg::Western => Notation::Western,
            NotationArg::Usi => Notation::Usi,
        }
    }
}

/// Record formats on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Kakinoki KIF.
    Kif,
    /// KI2.
    Ki2,
    /// CSA (V2.2 / V3.0).
    Csa,
    /// USI `position` lines.
    Usi,
    /// SFEN positions.
    Sfen,
    /// JSON Kifu Format.
    Jkf,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Kif => Format::Kif,
            FormatArg::Ki2 => Format::Ki2,
            FormatArg::Csa => Format::Csa,
            FormatArg::Usi => Format::Usi,
            FormatArg::Sfen => Format::Sfen,
            FormatArg::Jkf => Format::Jkf,
        }
    }
}

/// Text encodings on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EncodingArg {
    /// UTF-8.
    Utf8,
    /// Shift_JIS (CP932).
    #[value(alias = "sjis", alias = "cp932")]
    ShiftJis,
    /// EUC-JP.
    EucJp,
}

impl From<EncodingArg> for Encoding {
    fn from(e: EncodingArg) -> Encoding {
        match e {
            EncodingArg::Utf8 => Encoding::Utf8,
            EncodingArg::ShiftJis => Encoding::ShiftJis,
            EncodingArg::EucJp => Encoding::EucJp,
        }
    }
}

/// Options shared by the commands that read records.
#[derive(clap::Args, Clone)]
pub struct InputArgs {
    /// The input format (default: detected from the content; the extension is only a hint).
    #[arg(long = "from", value_enum)]
    pub from: Option<FormatArg>,
    /// The text encoding (default: BOM, then a declaration, then UTF-8, CP932, EUC-JP).
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,
}

//! Writing records: the public entry points and what every writer shares.
//!
//! Each format's writer lives beside its reader (`kif/write.rs` for KIF, KI2 and board
//! diagrams, `csa/write.rs`, `usi/write.rs`, `jkf/write.rs`); all of them write into any
//! [`fmt::Write`] and pass its error on.

use crate::csa::write as csa;
use crate::encoding::Encoding;
use crate::format::Format;
use crate::jkf::write as jkf;
use crate::kif::write::{self as kif, JapaneseFormat};
use crate::loss::Loss;
use crate::model::Record;
use crate::usi::write::{self as usi, UsiForm};
use std::fmt;

/// Write a record in a format and return the text.
///
/// What the format cannot hold is left out (CSA, USI and SFEN write the main line only,
/// KI2 has no times, …): [`crate::losses`] names it beforehand. This is [`write_to`] into a
/// new `String`.
pub fn write(record: &Record, format: Format) -> String {
    write_with(record, format, &WriteOptions::default())
}

/// How to write a record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {
    /// The encoding the text will be stored in, which KIF, KI2 and CSA declare in their
    /// first line (`#KIF version=2.0 encoding=Shift_JIS`, `'CSA encoding=SHIFT_JIS`); turn
    /// the text into those bytes with [`crate::encode`]. JKF, USI and SFEN declare none.
    pub encoding: Encoding,
}

impl WriteOptions {
    /// Options for text to be stored in `encoding`.
    pub fn encoding(encoding: Encoding) -> WriteOptions {
        WriteOptions { encoding }
    }
}

/// [`write`] with options: the same text, but for the encoding declared.
pub fn write_with(record: &Record, format: Format, options: &WriteOptions) -> String {
    let mut out = String::new();
    // A `String` accepts every write: there is no error to pass on.
    if write_to_with(&mut out, record, format, options).is_err() {
        unreachable!("writing into a String cannot fail");
    }
    out
}

/// A record written, with what the format could not hold of it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Written {
    /// The text, as [`write_with`] writes it.
    pub text: String,
    /// What the text does not keep of the record ([`crate::losses`]), empty when it reads
    /// back as the same record.
    pub losses: Vec<Loss>,
}

/// [`write_with`], saying also what was not kept: the same answer `shogi convert` reports,
/// for programs that convert records themselves.
///
/// ```
/// use shogi_kif::{Format, Loss, WriteOptions};
/// let record = shogi_kif::read_str("手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:03/00:00:03)\n", Default::default())?;
/// let ki2 = shogi_kif::write_reporting(&record, Format::Ki2, &WriteOptions::default());
/// assert!(ki2.text.contains("▲７六歩"));
/// assert_eq!(ki2.losses, [Loss::Times(1)]);
/// # Ok::<(), shogi_kif::ReadError>(())
/// ```
pub fn write_reporting(record: &Record, format: Format, options: &WriteOptions) -> Written {
    Written {
        text: write_with(record, format, options),
        losses: crate::loss::losses(record, format),
    }
}

/// Write a record in a format into `out` (a `String`, a `fmt::Formatter`, or an adapter over
/// a file), returning the first error `out` gives. The text is the same as [`write`]'s.
///
/// ```
/// let record = shogi_kif::read_str("position startpos moves 7g7f 3c3d\n", Default::default())?;
/// let mut csa = String::new();
/// shogi_kif::write_to(&mut csa, &record, shogi_kif::Format::Csa).expect("a String accepts all");
/// assert!(csa.ends_with("+7776FU\n-3334FU\n"));
/// # Ok::<(), shogi_kif::ReadError>(())
/// ```
pub fn write_to<W: fmt::Write + ?Sized>(
    out: &mut W,
    record: &Record,
    format: Format,
) -> fmt::Result {
    write_to_with(out, record, format, &WriteOptions::default())
}

/// [`write_to`] with options (see [`write_with`]).
pub fn write_to_with<W: fmt::Write + ?Sized>(
    out: &mut W,
    record: &Record,
    format: Format,
    options: &WriteOptions,
) -> fmt::Result {
    let encoding = options.encoding;
    match format {
        Format::Kif => kif::write(out, record, JapaneseFormat::Kif, encoding),
        Format::Ki2 => kif::write(out, record, JapaneseFormat::Ki2, encoding),
        Format::Csa => csa::write(out, record, encoding),
        Format::Usi => usi::write(out, record, UsiForm::Record),
        Format::Sfen => usi::write(out, record, UsiForm::Sfen),
        Format::Jkf => jkf::write(out, record),
    }
}

/// Write a record's main line as one USI or SFEN line in `form` (with its newline) into
/// `out`, returning the first error `out` gives. [`UsiForm::Record`] and [`UsiForm::Sfen`]
/// write what [`write_to`] writes for [`Format::Usi`] and [`Format::Sfen`].
///
/// ```
/// use shogi_kif::{UsiForm, write_usi};
/// let record = shogi_kif::read_str("position startpos moves 7g7f 3c3d resign\n", Default::default())?;
/// let (mut game, mut engine) = (String::new(), String::new());
/// write_usi(&mut game, &record, UsiForm::Record).expect("a String accepts all");
/// write_usi(&mut engine, &record, UsiForm::Engine).expect("a String accepts all");
/// assert_eq!(game, "position startpos moves 7g7f 3c3d resign\n");
/// assert_eq!(engine, "position startpos moves 7g7f 3c3d\n");
/// # Ok::<(), shogi_kif::ReadError>(())
/// ```
pub fn write_usi<W: fmt::Write + ?Sized>(
    out: &mut W,
    record: &Record,
    form: UsiForm,
) -> fmt::Result {
    usi::write(out, record, form)
}

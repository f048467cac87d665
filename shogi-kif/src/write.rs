//! Writing records: the public entry points and what every writer shares.
//!
//! Each format's writer lives beside its reader (`kif/write.rs` for KIF, KI2 and board
//! diagrams, `csa/write.rs`, `usi/write.rs`, `jkf/write.rs`); all of them write into any
//! [`fmt::Write`] and pass its error on.

use crate::csa::write as csa;
use crate::format::Format;
use crate::jkf::write as jkf;
use crate::kif::write::{self as kif, Notation};
use crate::model::Record;
use crate::usi::write::{self as usi, UsiForm};
use std::fmt;

/// Write a record in a format and return the text.
///
/// CSA, USI and SFEN cannot hold variations: only the main line is written there. This is
/// [`write_to`] into a new `String`.
pub fn write(record: &Record, format: Format) -> String {
    let mut out = String::new();
    // A `String` accepts every write: there is no error to pass on.
    if write_to(&mut out, record, format).is_err() {
        unreachable!("writing into a String cannot fail");
    }
    out
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
    match format {
        Format::Kif => kif::write(out, record, Notation::Kif),
        Format::Ki2 => kif::write(out, record, Notation::Ki2),
        Format::Csa => csa::write(out, record),
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

//! Conversions between Python's arguments and our values: format, encoding, notation and
//! colour names, path lists, and the board's rows. A leaf: the classes' modules use it.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use shogi_core::{Color, Square, Variant};
use shogi_kif::{Encoding, Format, ReadOptions};
use std::path::PathBuf;

/// The format named `name` ("kif", "csa", …), or ValueError.
pub fn parse_format(name: &str) -> PyResult<Format> {
    Format::from_extension(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown format {name:?}: expected kif, ki2, csa, usi, sfen or jkf"
        ))
    })
}

/// Read options from the `format` and `encoding` arguments.
pub fn options(format: Option<&str>, encoding: Option<&str>) -> PyResult<ReadOptions> {
    Ok(ReadOptions {
        format: format.map(parse_format).transpose()?,
        encoding: encoding
            .map(|e| {
                Encoding::from_label(e).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "unknown encoding {e:?}: expected utf-8, shift_jis or euc-jp"
                    ))
                })
            })
            .transpose()?,
        ..ReadOptions::default()
    })
}

/// The paths of a `paths` argument: one path (str or os.PathLike) or an iterable of them.
pub fn path_list(paths: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let one = |p: &Bound<'_, PyAny>| -> PyResult<String> {
        let p: PathBuf = p.extract()?;
        Ok(p.to_string_lossy().into_owned())
    };
    if paths.is_instance_of::<PyString>() {
        return Ok(vec![one(paths)?]);
    }
    if let Ok(p) = one(paths) {
        return Ok(vec![p]);
    }
    paths.try_iter()?.map(|p| one(&p?)).collect()
}

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The notation named `name` ("usi", "japanese", "western"), or ValueError.
pub fn notation_arg(name: &str) -> PyResult<shogi_kif::notation::Notation> {
    name.parse()
        .map_err(|e: shogi_kif::notation::UnknownNotation| PyValueError::new_err(e.to_string()))
}

/// The squares of the board row by row from the top (rank a), files from high to low: the
/// order of SFEN and of diagrams.
pub fn rows(variant: Variant) -> impl Iterator<Item = impl Iterator<Item = Square>> {
    let n = variant.size();
    (1..=n).map(move |rank| {
        (1..=n)
            .rev()
            .filter_map(move |file| Square::new(file, rank))
    })
}

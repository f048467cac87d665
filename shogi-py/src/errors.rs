//! The Python exceptions: every one a `ValueError`, carrying the CLI's location and reason as
//! attributes.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

pyo3::create_exception!(
    shogitk,
    ShogiError,
    PyValueError,
    "Base class of the errors of shogitk: bad input (a ValueError)."
);
pyo3::create_exception!(
    shogitk,
    SfenError,
    ShogiError,
    "A malformed or illegal SFEN. Attributes: sfen, field, position (byte offset), reason."
);
pyo3::create_exception!(
    shogitk,
    InvalidMoveError,
    ShogiError,
    "Text that is not a USI move. Attributes: move (the text), position (byte offset), reason."
);
pyo3::create_exception!(
    shogitk,
    IllegalMoveError,
    ShogiError,
    "A move that breaks a rule in the position. Attributes: move (USI), sfen, reason."
);
pyo3::create_exception!(
    shogitk,
    ReadError,
    ShogiError,
    "A record that could not be read, located as the CLI locates it. Attributes: path, line, \
column, kind, ply, written, reason, line_text, context (the rendering with the source line)."
);

/// An exception of type `T` whose message is `message`, with attributes set on the instance.
pub fn with_attrs<'py, T: pyo3::PyTypeInfo>(
    py: Python<'py>,
    message: String,
    attrs: &[(&str, Bound<'py, PyAny>)],
) -> PyErr {
    let err = PyErr::new::<T, _>(message);
    let value = err.value(py);
    for (name, v) in attrs {
        if let Err(e) = value.setattr(*name, v) {
            return e;
        }
    }
    err
}

/// A Python string object.
pub fn s<'py>(py: Python<'py>, text: &str) -> Bound<'py, PyAny> {
    PyString::new(py, text).into_any()
}

/// A Python object from anything convertible (ints, options, strings).
pub fn o<'py, T>(py: Python<'py>, value: T) -> Bound<'py, PyAny>
where
    T: IntoPyObject<'py>,
{
    match value.into_pyobject(py) {
        Ok(v) => pyo3::BoundObject::into_bound(pyo3::BoundObject::into_any(v)),
        Err(_) => py.None().into_bound(py),
    }
}

/// `SfenError` for a bad SFEN, with the message of the CLI (`bad SFEN <field> at byte N: …`).
pub fn sfen_error(py: Python<'_>, sfen: &str, e: &shogi_core::SfenError) -> PyErr {
    with_attrs::<SfenError>(
        py,
        e.to_string(),
        &[
            ("sfen", s(py, sfen)),
            ("field", s(py, &e.field.to_string())),
            ("position", o(py, e.position)),
            ("reason", s(py, &e.message)),
        ],
    )
}

/// `ReadError` for a record that could not be read: `str()` is the CLI's
/// `path:line:col: error: message`.
pub fn read_error(py: Python<'_>, e: &shogi_kif::ReadError) -> PyErr {
    let line = (e.location.line > 0).then_some(e.location.line);
    let column = (e.location.line > 0).then_some(e.location.column);
    with_attrs::<ReadError>(
        py,
        e.to_string(),
        &[
            ("path", o(py, e.path.as_deref())),
            ("line", o(py, line)),
            ("column", o(py, column)),
            ("kind", s(py, e.kind.name())),
            ("ply", o(py, e.ply)),
            ("written", o(py, e.written.as_deref())),
            ("reason", s(py, &e.message)),
            ("line_text", s(py, &e.line_text)),
            ("context", s(py, &e.render())),
        ],
    )
}

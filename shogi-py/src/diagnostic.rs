//! The `Diagnostic` class: a warning, note or error about a record, located as `shogi check`
//! locates it.

use pyo3::prelude::*;
use shogi_kif::Severity;

/// The word for a severity, as `shogi check` prints it.
pub fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Note => "note",
        Severity::Warning => "warning",
        Severity::Error => "error",
    }
}

/// A remark about a record (a warning, a note, or an error that makes it invalid), located as
/// `shogi check` locates it.
#[pyclass(frozen, name = "Diagnostic", module = "shogitk")]
pub struct PyDiagnostic {
    /// The diagnostic.
    pub inner: shogi_kif::Diagnostic,
    /// The file of the record.
    pub path: Option<String>,
}

#[pymethods]
impl PyDiagnostic {
    /// "error", "warning" or "note".
    #[getter]
    fn severity(&self) -> &'static str {
        severity_name(self.inner.severity)
    }

    /// The file, when the record was read from one.
    #[getter]
    fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// 1-based line, None when not tied to a line.
    #[getter]
    fn line(&self) -> Option<u32> {
        (self.inner.line > 0).then_some(self.inner.line)
    }

    /// 1-based column in characters, None when not tied to a line.
    #[getter]
    fn column(&self) -> Option<u32> {
        (self.inner.line > 0).then_some(self.inner.column)
    }

    /// The explanation.
    #[getter]
    fn message(&self) -> &str {
        &self.inner.message
    }

    /// The source line concerned.
    #[getter]
    fn line_text(&self) -> &str {
        &self.inner.line_text
    }

    /// The rendering with the source line and a caret under the column.
    fn render(&self) -> String {
        self.inner.render(self.path.as_deref())
    }

    /// `path:line:col: severity: message`, as `shogi check` prints it.
    fn __str__(&self) -> String {
        let full = self.inner.render(self.path.as_deref());
        full.lines().next().unwrap_or_default().to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Diagnostic {}>", self.__str__())
    }
}

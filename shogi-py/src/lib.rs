//! Python bindings of the shogi toolkit: the extension module `shogitk._shogitk`.
//!
//! A thin layer over `shogi-core` (positions, legal moves), `shogi-perft` and `shogi-kif`
//! (records): no rule or parsing logic of its own. Errors become Python exceptions carrying the
//! same location and reason as the CLI. The GIL is released around the Rust work that can take
//! long (reading records, writing them, perft); the per-position calls that take microseconds
//! keep it, as releasing it would cost more than the call.
//!
//! The Python package `shogitk` (in `python/`) re-exports this module and holds the stubs.

// pyo3's macros expand to unsafe FFI glue; this crate writes no unsafe code of its own.
#![allow(unsafe_code)]

mod analyze;
mod args;
mod book;
mod diagnostic;
mod engine;
mod errors;
mod io;
mod match_py;
mod position;
mod reading;
mod record;
mod state;
mod stats;
mod svg;
mod tags;
mod web;

use pyo3::prelude::*;

/// The extension module, imported by the `shogitk` package.
#[pymodule]
#[pyo3(name = "_shogitk")]
fn shogitk_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ShogiError", py.get_type::<errors::ShogiError>())?;
    m.add("SfenError", py.get_type::<errors::SfenError>())?;
    m.add(
        "InvalidMoveError",
        py.get_type::<errors::InvalidMoveError>(),
    )?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("ReadError", py.get_type::<errors::ReadError>())?;
    m.add("EngineError", py.get_type::<engine::EngineError>())?;
    m.add(
        "AnalysisError",
        py.get_type::<analyze::exc::AnalysisError>(),
    )?;
    m.add("OptionError", py.get_type::<analyze::exc::OptionError>())?;
    m.add("MatchError", py.get_type::<match_py::exc::MatchError>())?;
    m.add("TagRulesError", py.get_type::<tags::exc::TagRulesError>())?;
    m.add("FilterError", py.get_type::<tags::exc::FilterError>())?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PyScore>()?;
    m.add_class::<engine::PyPovScore>()?;
    m.add_class::<position::PyMove>()?;
    m.add_class::<position::PyMoveList>()?;
    m.add_class::<position::MoveIter>()?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<record::PyRecord>()?;
    m.add("BookRowError", py.get_type::<book::BookRowError>())?;
    m.add_class::<book::PyBook>()?;
    m.add_class::<book::PyBookMove>()?;
    m.add_class::<diagnostic::PyDiagnostic>()?;
    m.add_class::<io::GameIter>()?;
    m.add_class::<tags::PyTag>()?;
    m.add_class::<tags::PyTags>()?;
    m.add_function(wrap_pyfunction!(io::read, m)?)?;
    m.add_function(wrap_pyfunction!(io::read_many, m)?)?;
    m.add_function(wrap_pyfunction!(io::files, m)?)?;
    m.add_function(wrap_pyfunction!(io::write, m)?)?;
    m.add_function(wrap_pyfunction!(stats::stats_rows, m)?)?;
    m.add_function(wrap_pyfunction!(analyze::analyze_rows, m)?)?;
    m.add_function(wrap_pyfunction!(analyze::merge_caches, m)?)?;
    m.add_function(wrap_pyfunction!(analyze::eval_graph, m)?)?;
    m.add_function(wrap_pyfunction!(record::record_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(match_py::play_match, m)?)?;
    m.add_function(wrap_pyfunction!(web::serve, m)?)?;
    Ok(())
}

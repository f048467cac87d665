//! `analyze`: the per-ply table of an analysis (or its summaries) as Python values, made by
//! the analysis library (shogi-analysis) in-process, the same rows as `shogi analyze` writes.

use crate::args::{notation_arg, path_list};
use crate::errors::{s, with_attrs};
use crate::stats::{dedup_arg, inputs, json_value, selection, shard_arg};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use shogi_analysis::graph::{Graph, View};
use shogi_analysis::{
    AnalysisError, AnalyzeMode, Class, Classifier, Collect, EngineSettings, Message, Parameter,
    Settings,
};
use shogi_usi::{EngineErrorKind, Limit};
use std::path::PathBuf;
use std::time::Duration;

/// The exceptions of an analysis (a module of their own: the Python names are the library's).
pub mod exc {
    use crate::errors::ShogiError;

    pyo3::create_exception!(
        shogitk,
        AnalysisError,
        ShogiError,
        "An analysis that could not run: a keyword out of range, a cache that is not usable, \
an annotated copy that would replace an input. Attributes: parameter (the keyword, or None), \
reason."
    );
    pyo3::create_exception!(
        shogitk,
        OptionError,
        ShogiError,
        "An engine option the engine does not offer or whose value it refuses. Attributes: \
name, value (or None), available (the options the engine offers, as `Name (type, default)` \
strings)."
    );
}

use exc::{AnalysisError as PyAnalysisError, OptionError};

/// The keyword of a parameter.
fn keyword(p: Parameter) -> &'static str {
    match p {
        Parameter::Limit => "nodes/depth/movetime/byoyomi",
        Parameter::Option => "options",
        Parameter::Multipv => "multipv",
        Parameter::Jobs => "jobs",
        Parameter::StartTimeout => "start_timeout",
        Parameter::SearchTimeout => "search_timeout",
        Parameter::Sigmoid => "sigmoid",
        Parameter::Thresholds => "inaccuracy < dubious < mistake < blunder",
        Parameter::AnnotateDir => "annotate_dir",
    }
}

/// The Python exception of an analysis error.
fn py_error(py: Python<'_>, e: AnalysisError) -> PyErr {
    match e {
        AnalysisError::Setting { parameter, message } => {
            let k = keyword(parameter);
            with_attrs::<PyAnalysisError>(
                py,
                format!("{k}: {message}"),
                &[("parameter", s(py, k)), ("reason", s(py, &message))],
            )
        }
        AnalysisError::Engine { error, .. } => match &error.kind {
            EngineErrorKind::UnknownOption { name, available } => {
                let list = PyList::new(py, available).map(|l| l.into_any());
                match list {
                    Ok(list) => with_attrs::<OptionError>(
                        py,
                        error.to_string(),
                        &[
                            ("name", s(py, name)),
                            ("value", py.None().into_bound(py)),
                            ("available", list),
                        ],
                    ),
                    Err(e) => e,
                }
            }
            EngineErrorKind::BadOptionValue { name, value, .. } => with_attrs::<OptionError>(
                py,
                error.to_string(),
                &[
                    ("name", s(py, name)),
                    ("value", s(py, value)),
                    ("available", py.None().into_bound(py)),
                ],
            ),
            _ => crate::engine::engine_error(py, &error),
        },
        other => {
            let reason = other.to_string();
            let parameter = match &other {
                AnalysisError::Overwrite { .. } => s(py, "annotate_dir"),
                _ => s(py, "cache"),
            };
            with_attrs::<PyAnalysisError>(
                py,
                reason.clone(),
                &[("parameter", parameter), ("reason", s(py, &reason))],
            )
        }
    }
}

/// The graph's axis named `name` (`cp` or `win`, the latter by the logistic of `sigmoid`).
fn graph_view(name: &str, sigmoid: f64) -> PyResult<View> {
    match name {
        "cp" => Ok(View::Centipawns { range: 2000 }),
        "win" => Ok(View::WinRate {
            coefficient: sigmoid,
        }),
        other => Err(PyValueError::new_err(format!(
            "graph: {other:?} is not a view (cp, win)"
        ))),
    }
}

/// The evaluation graph of one game as SVG text, drawn by the same code as the graphs of
/// `shogi analyze --annotate-dir`: `scores[k]` is sente's score in centipawns after ply k
/// (None: no score), `classes[k - 1]` the class of ply k's move (`"mistake"` and
/// `"blunder"` are marked), `view` `"cp"` (clamped to ±`range`) or `"win"` (sente's win
/// probability by the logistic of `sigmoid`).
#[pyfunction]
#[pyo3(signature = (scores, *, title = "", sente = None, gote = None, classes = Vec::new(), view = "cp", range = 2000, sigmoid = 600.0))]
#[allow(clippy::too_many_arguments)]
pub fn eval_graph(
    scores: Vec<Option<i32>>,
    title: &str,
    sente: Option<String>,
    gote: Option<String>,
    classes: Vec<Option<String>>,
    view: &str,
    range: i32,
    sigmoid: f64,
) -> PyResult<String> {
    let classes = classes
        .iter()
        .map(|c| match c.as_deref() {
            None => Ok(None),
            Some(name) => Class::from_name(name)
                .map(Some)
                .ok_or_else(|| PyValueError::new_err(format!("classes: {name:?} is not a class"))),
        })
        .collect::<PyResult<Vec<_>>>()?;
    if !(sigmoid.is_finite() && sigmoid > 0.0) || range <= 0 {
        return Err(PyValueError::new_err("range and sigmoid must be positive"));
    }
    let view = match graph_view(view, sigmoid)? {
        View::Centipawns { .. } => View::Centipawns { range },
        v => v,
    };
    Ok(Graph {
        title,
        players: [sente.as_deref(), gote.as_deref()],
        scores: &scores,
        classes: &classes,
        view,
    }
    .svg())
}

/// A positive duration in seconds, or a ValueError naming `keyword`.
fn seconds(t: Option<f64>, keyword: &str) -> PyResult<Option<Duration>> {
    match t {
        None => Ok(None),
        Some(t) if t.is_finite() && t > 0.0 => Ok(Some(Duration::from_secs_f64(t))),
        Some(t) => Err(PyValueError::new_err(format!(
            "{keyword}: must be a positive number of seconds, not {t}"
        ))),
    }
}

/// The search limit of `(kind, value)`: `nodes`, `depth`, `movetime` or `byoyomi` (ms).
fn limit_arg(limit: Option<(String, u64)>) -> PyResult<Limit> {
    let mut l = Limit::default();
    match limit {
        None => {}
        Some((k, v)) => match k.as_str() {
            "nodes" => l.nodes = Some(v),
            "depth" => {
                l.depth = Some(
                    u32::try_from(v)
                        .map_err(|_| PyValueError::new_err(format!("depth: {v} is too large")))?,
                )
            }
            "movetime" => l.movetime = Some(Duration::from_millis(v)),
            "byoyomi" => {
                l.btime = Some(Duration::ZERO);
                l.wtime = Some(Duration::ZERO);
                l.byoyomi = Some(Duration::from_millis(v));
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "{other} is not a limit (nodes, depth, movetime, byoyomi)"
                )));
            }
        },
    }
    Ok(l)
}

/// What `_analyze` returns: the columns, the rows as tuples, the messages as (kind, text).
type Analyzed<'py> = (
    Vec<&'static str>,
    Bound<'py, PyList>,
    Vec<(&'static str, String)>,
);

/// The analysis of `paths`: (columns, rows as tuples), the rows of the per-ply table or with
/// `summary` the summaries. The Python function `shogitk.analyze` builds the keywords and
/// wraps the result in a `Table`; messages (a failed position's full engine error, notes on
/// the cache) are returned as `(kind, text)` pairs.
///
/// The GIL is released while the engines work.
#[pyfunction]
#[pyo3(name = "_analyze", signature = (paths, *, engine = None, limit = None, options = Vec::new(), engine_args = Vec::new(), threads = 1, multipv = 1, jobs = 1, cache = None, summary = false, from_comments = false, notation = "japanese", annotate_dir = None, mode = "position", graph = "cp", sigmoid = 600.0, mate_cp = 30000, thresholds = (5.0, 10.0, 20.0, 50.0), search_timeout = None, start_timeout = None, shard = None, dedup = None, filters = None))]
#[allow(clippy::too_many_arguments)]
pub fn analyze_rows<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    engine: Option<PathBuf>,
    limit: Option<(String, u64)>,
    options: Vec<(String, String)>,
    engine_args: Vec<String>,
    threads: u32,
    multipv: u32,
    jobs: usize,
    cache: Option<PathBuf>,
    summary: bool,
    from_comments: bool,
    notation: &str,
    annotate_dir: Option<PathBuf>,
    mode: &str,
    graph: &str,
    sigmoid: f64,
    mate_cp: i32,
    thresholds: (f64, f64, f64, f64),
    search_timeout: Option<f64>,
    start_timeout: Option<f64>,
    shard: Option<&Bound<'py, PyAny>>,
    dedup: Option<&Bound<'py, PyAny>>,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<Analyzed<'py>> {
    let mode = match mode {
        "position" => AnalyzeMode::Position,
        "game" => AnalyzeMode::Game,
        other => {
            return Err(PyValueError::new_err(format!(
                "mode: {other:?} is not a mode (position, game)"
            )));
        }
    };
    let engine = match engine {
        Some(program) if !from_comments => Some(EngineSettings {
            program,
            args: engine_args,
            options,
            threads,
            limit: limit_arg(limit)?,
            start_timeout: seconds(start_timeout, "start_timeout")?,
            search_timeout: seconds(search_timeout, "search_timeout")?,
        }),
        Some(_) => {
            return Err(PyValueError::new_err(
                "engine: from_comments=True reads the records' evaluations, with no engine",
            ));
        }
        None if !from_comments && cache.is_none() => {
            return Err(PyValueError::new_err(
                "engine: give the engine program, from_comments=True, or a cache to read the \
                 results from (a merged cache: merge_caches)",
            ));
        }
        None => None,
    };
    let settings = Settings {
        engine,
        multipv,
        mode,
        jobs,
        cache,
        from_comments,
        classifier: Classifier {
            coefficient: sigmoid,
            mate_cp,
            thresholds: [thresholds.0, thresholds.1, thresholds.2, thresholds.3],
        },
        notation: notation_arg(notation)?,
        annotate_dir,
        graph: graph_view(graph, sigmoid)?,
        summary,
        selection: selection(filters, "analyze")?,
        dedup: dedup_arg(dedup)?,
    };
    settings.check().map_err(|e| py_error(py, e))?;
    let mut inputs = inputs(&path_list(paths)?)?;
    if let Some(shard) = shard_arg(shard)? {
        inputs = shard.select(inputs);
    }
    let (result, collected) = py.detach(move || {
        let mut collect = Collect::default();
        let reading = crate::reading::reading(shogi_kif::ReadOptions::default());
        let r = shogi_analysis::run(&settings, &inputs, &reading, &mut collect);
        (r, collect)
    });
    let report = result.map_err(|e| py_error(py, e))?;
    let columns: Vec<&'static str> = if summary {
        shogi_analysis::SUMMARY_COLUMNS.to_vec()
    } else {
        shogi_analysis::COLUMNS.to_vec()
    };
    let list = PyList::empty(py);
    let null = serde_json::Value::Null;
    let append = |value: serde_json::Value| -> PyResult<()> {
        let values = columns
            .iter()
            .map(|c| json_value(py, value.get(*c).unwrap_or(&null)))
            .collect::<PyResult<Vec<_>>>()?;
        list.append(PyTuple::new(py, values)?)
    };
    let value = |e: serde_json::Error| PyValueError::new_err(format!("a row: {e}"));
    if summary {
        for row in &report.summaries {
            append(serde_json::to_value(row).map_err(value)?)?;
        }
    } else {
        for row in &collected.rows {
            append(serde_json::to_value(row).map_err(value)?)?;
        }
    }
    let mut messages: Vec<(&'static str, String)> = collected
        .messages
        .into_iter()
        .map(|m| match m {
            Message::Error(t) => ("error", t),
            Message::Note(t) => ("note", t),
        })
        .collect();
    messages.extend(report.annotate_errors.iter().map(|e| ("error", e.clone())));
    messages.extend(report.cache_error.iter().map(|e| ("error", e.clone())));
    Ok((columns, list, messages))
}

/// Merges the analysis caches `caches` (each worker's of a cluster run) into the new file
/// `output`; returns (results read, distinct positions). They must hold results of one engine
/// configuration, and a position in several must have the same result in each; otherwise
/// `AnalysisError` (attribute `reason`) says which files or which position, and no output is
/// left. `analyze(paths, cache=output)` with no engine then gives the table.
#[pyfunction]
pub fn merge_caches(py: Python<'_>, caches: Vec<PathBuf>, output: PathBuf) -> PyResult<(u64, u64)> {
    let merged = py.detach(|| shogi_analysis::cache::merge_caches(&caches, &output));
    match merged {
        Ok(m) => Ok((m.read, m.positions)),
        Err(e) => {
            let reason = e.to_string();
            Err(with_attrs::<PyAnalysisError>(
                py,
                format!("merge_caches: {reason}"),
                &[
                    ("parameter", py.None().into_bound(py)),
                    ("reason", s(py, &reason)),
                ],
            ))
        }
    }
}

//! `analyze`: the per-ply table of `shogi analyze` (or its summary) as Python values, made by
//! the CLI's own code run in-process (the same columns and values as `--format jsonl`).

use crate::args::path_list;
use crate::stats::json_value;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};
use std::ffi::OsString;

/// The keyword filters, as `shogi analyze` flags (`min_plies` → `--min-plies`).
fn filter_args(filters: Option<&Bound<'_, PyDict>>, argv: &mut Vec<OsString>) -> PyResult<()> {
    let Some(filters) = filters else {
        return Ok(());
    };
    for (key, v) in filters.iter() {
        let key: String = key.extract()?;
        if v.is_none() {
            continue;
        }
        let flag = format!("--{}", key.replace('_', "-"));
        if key == "valid" {
            let keep: bool = v
                .extract()
                .map_err(|_| PyValueError::new_err("valid: expected True, False or None"))?;
            argv.push(if keep { "--valid" } else { "--invalid" }.into());
        } else if v.is_instance_of::<PyBool>() {
            if v.extract::<bool>()? {
                argv.push(flag.into());
            }
        } else if !v.is_instance_of::<PyString>() && v.try_iter().is_ok() {
            for item in v.try_iter()? {
                argv.push(flag.clone().into());
                argv.push(item?.str()?.to_cow()?.into_owned().into());
            }
        } else {
            argv.push(flag.into());
            argv.push(v.str()?.to_cow()?.into_owned().into());
        }
    }
    Ok(())
}

/// `shogi analyze` on `paths`: (columns, rows as tuples). The Python function
/// `shogitk.analyze` builds the keywords and wraps the result in a `Table`.
///
/// `options` are `NAME=VALUE` engine options; `filters` the other flags as keywords
/// (selection, `shard`, `dedup`, `sigmoid`, thresholds, `search_timeout`, `threads`, …).
/// The GIL is released while the engines work.
#[pyfunction]
#[pyo3(name = "_analyze", signature = (paths, *, engine = None, limit = None, options = Vec::new(), summary = false, from_comments = false, filters = None))]
#[allow(clippy::too_many_arguments)]
pub fn analyze_rows<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    engine: Option<String>,
    limit: Option<(String, String)>,
    options: Vec<String>,
    summary: bool,
    from_comments: bool,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Vec<&'static str>, Bound<'py, PyList>)> {
    let paths = path_list(paths)?;
    let mut argv: Vec<OsString> = vec!["shogi".into(), "analyze".into()];
    argv.extend(paths.iter().map(OsString::from));
    if let Some(e) = engine {
        argv.push("--engine".into());
        argv.push(e.into());
    }
    if let Some((flag, v)) = limit {
        argv.push(format!("--{flag}").into());
        argv.push(v.into());
    }
    for o in options {
        argv.push("--option".into());
        argv.push(o.into());
    }
    if summary {
        argv.push("--summary".into());
    }
    if from_comments {
        argv.push("--from-comments".into());
    }
    filter_args(filters, &mut argv)?;
    argv.push("--format".into());
    argv.push("jsonl".into());
    let (code, out, err) = py.detach(move || {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut stdin: &[u8] = b"";
        let code = shogi_cli::run(argv, &mut stdin, &mut out, &mut err);
        (code, out, err)
    });
    let err = String::from_utf8_lossy(&err);
    if code == 2 {
        let msg = err
            .lines()
            .find(|l| l.starts_with("error"))
            .unwrap_or_else(|| err.lines().next().unwrap_or("analyze failed"));
        return Err(PyValueError::new_err(
            msg.trim_start_matches("error: ").to_string(),
        ));
    }
    let columns: Vec<&'static str> = if summary {
        shogi_cli::ANALYZE_SUMMARY_COLUMNS.to_vec()
    } else {
        shogi_cli::ANALYZE_COLUMNS.to_vec()
    };
    let list = PyList::empty(py);
    let null = serde_json::Value::Null;
    for line in String::from_utf8_lossy(&out).lines() {
        let row: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| PyRuntimeError::new_err(format!("analyze: a row did not read: {e}")))?;
        let values = columns
            .iter()
            .map(|c| json_value(py, row.get(*c).unwrap_or(&null)))
            .collect::<PyResult<Vec<_>>>()?;
        list.append(PyTuple::new(py, values)?)?;
    }
    Ok((columns, list))
}

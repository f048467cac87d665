//! `stats`: the rows of `shogi stats` (shogi-batch's [`GameRow`]), with its selection,
//! shards and duplicate detection, as Python values.

use crate::args::path_list;
use crate::tags::{TAG_FILTERS, filter_error};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};
use shogi_batch::filter_text as t;
use shogi_batch::{
    COLUMNS, Dedup, DedupMode, Event, GameRow, Input, MATE_COLUMNS, MateSearch, RatingOf,
    Selection, Shard, TAG_COLUMNS, duplicates, game_key, line_text,
};
use shogi_kif::notation::Notation;
use shogi_openings::RuleSet;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

/// The keyword arguments of `stats` that are filters: the selection flags of `shogi stats`
/// (`--min-plies` is `min_plies`); `valid` stands for `--valid` (True) and `--invalid`
/// (False).
const FILTERS: &[&str] = &[
    "player",
    "sente",
    "gote",
    "since",
    "until",
    "min_plies",
    "max_plies",
    "ending",
    "winner",
    "variant",
    "handicap",
    "valid",
    "min_rating",
    "max_rating",
    "rating_of",
    "time_control",
    "event",
    "position",
];

/// A Python value for a JSON value of a row (an array, as the tag columns hold, is a list;
/// rows hold no objects); `analyze` rows too.
pub(crate) fn json_value<'py>(
    py: Python<'py>,
    v: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_value(py, item)?)?;
            }
            list.into_any()
        }
        other => PyString::new(py, &other.to_string()).into_any(),
    })
}

/// A row's values in the order of `columns` ([`COLUMNS`], and `moves` when asked for), as
/// `shogi stats --format jsonl` writes them: the row is serialised by the same serde
/// derive, so the bindings cannot drift from the CLI.
fn row_values<'py>(
    py: Python<'py>,
    row: &GameRow,
    columns: &[&str],
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let value = serde_json::to_value(row)
        .map_err(|e| PyValueError::new_err(format!("cannot convert a row: {e}")))?;
    let null = serde_json::Value::Null;
    columns
        .iter()
        .map(|c| json_value(py, value.get(*c).unwrap_or(&null)))
        .collect()
}

/// A row as a dict, keyed by column.
pub fn row_dict<'py>(py: Python<'py>, row: &GameRow) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (c, v) in COLUMNS.iter().zip(row_values(py, row, COLUMNS)?) {
        d.set_item(*c, v)?;
    }
    Ok(d)
}

/// The selection of the filter keyword arguments, read into the typed [`Selection`]; a bad
/// value is a `FilterError` (a ValueError) naming the keyword, an unknown keyword a TypeError.
pub(crate) fn selection(
    filters: Option<&Bound<'_, PyDict>>,
    function: &str,
) -> PyResult<Selection> {
    selection_with(filters, function, None)
}

/// [`selection`] that also takes the tag filters ([`TAG_FILTERS`]), looked up in `tags`
/// (`stats`, whose rows are tagged: elsewhere they are unknown keywords).
pub(crate) fn selection_with(
    filters: Option<&Bound<'_, PyDict>>,
    function: &str,
    tags: Option<&'static RuleSet>,
) -> PyResult<Selection> {
    let mut s = Selection::new();
    let Some(filters) = filters else {
        return Ok(s);
    };
    let py = filters.py();
    let known = |k: &str| FILTERS.contains(&k) || (tags.is_some() && TAG_FILTERS.contains(&k));
    let mut tag_values = Vec::new();
    let mut mover = false;
    for (key, value) in filters.iter() {
        let key: String = key.extract()?;
        if !known(&key) {
            let mut all = FILTERS.to_vec();
            if tags.is_some() {
                all.extend_from_slice(TAG_FILTERS);
            }
            return Err(PyTypeError::new_err(format!(
                "{function}() got an unexpected keyword argument '{key}' (filters: {})",
                all.join(", ")
            )));
        }
        if value.is_none() {
            continue;
        }
        if key == "valid" {
            let keep: bool = value.extract().map_err(|_| {
                filter_error(py, &key, &text_of(&value), "expected True, False or None")
            })?;
            s = s.valid(keep);
        } else if key == "player" && !value.is_instance_of::<PyString>() {
            // Several names: any of them.
            for name in value.try_iter()? {
                s = filter(py, s, &key, &name?.str()?.to_cow()?)?;
            }
        } else {
            if value.is_instance_of::<PyBool>() {
                let text = text_of(&value);
                return Err(filter_error(
                    py,
                    &key,
                    &text,
                    &format!("expected a value, not {text}"),
                ));
            }
            let text = value.str()?.to_cow()?.into_owned();
            if TAG_FILTERS.contains(&key.as_str()) {
                tag_values.push((key, text));
                continue;
            }
            mover |= key == "rating_of" && t::rating_of(&text) == Ok(RatingOf::Mover);
            s = filter(py, s, &key, &text)?;
        }
    }
    if mover && s.position().is_none() && function != "Book.from_db" {
        return Err(filter_error(
            py,
            "rating_of",
            "mover",
            "mover needs a position whose side to move is the mover (give position=)",
        ));
    }
    match tags {
        Some(rules) => crate::tags::tag_filters(py, s, &tag_values, rules),
        None => Ok(s),
    }
}

/// A value as text, for an error.
fn text_of(value: &Bound<'_, PyAny>) -> String {
    value
        .str()
        .map_or_else(|_| "?".to_string(), |v| v.to_string())
}

/// `s` with the filter of keyword `key` (one of [`FILTERS`] but `valid`) read from `text`.
fn filter(py: Python<'_>, s: Selection, key: &str, text: &str) -> PyResult<Selection> {
    let bad = |e: String| filter_error(py, key, text, &e);
    Ok(match key {
        "player" => s.player(t::name(text).map_err(bad)?),
        "sente" => s.sente(t::name(text).map_err(bad)?),
        "gote" => s.gote(t::name(text).map_err(bad)?),
        "since" => s.since(t::since(text).map_err(bad)?),
        "until" => s.until(t::until(text).map_err(bad)?),
        "min_plies" => s.min_plies(t::plies(text).map_err(bad)?),
        "max_plies" => s.max_plies(t::plies(text).map_err(bad)?),
        "ending" => t::endings(text)
            .map_err(bad)?
            .into_iter()
            .fold(s, Selection::ending),
        "winner" => s.winner(t::winner(text).map_err(bad)?),
        "variant" => s.variant(t::variant(text).map_err(bad)?),
        "handicap" => s.handicap(t::handicap(text).map_err(bad)?),
        "min_rating" => s.min_rating(t::rating(text).map_err(bad)?),
        "max_rating" => s.max_rating(t::rating(text).map_err(bad)?),
        "rating_of" => s.rating_of(t::rating_of(text).map_err(bad)?),
        "time_control" => s.time_control(t::time_control(text).map_err(bad)?),
        "event" => s.event(t::name(text).map_err(bad)?),
        "position" => s.passes_through(t::position(text).map_err(bad)?),
        _ => return Err(PyTypeError::new_err(format!("{key} is not a filter"))),
    })
}

pub(crate) fn shard_arg(shard: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Shard>> {
    let Some(shard) = shard.filter(|s| !s.is_none()) else {
        return Ok(None);
    };
    let text = match shard.extract::<(u32, u32)>() {
        Ok((i, n)) => format!("{i}/{n}"),
        Err(_) => shard.str()?.to_cow()?.into_owned(),
    };
    Shard::parse(&text)
        .map(Some)
        .map_err(|e| PyValueError::new_err(format!("shard: {e}")))
}

pub(crate) fn dedup_arg(dedup: Option<&Bound<'_, PyAny>>) -> PyResult<Option<DedupMode>> {
    let Some(dedup) = dedup.filter(|d| !d.is_none()) else {
        return Ok(None);
    };
    if let Ok(b) = dedup.cast::<PyBool>() {
        return Ok(b.is_true().then_some(DedupMode::Exact));
    }
    let mode: String = dedup
        .extract()
        .map_err(|_| PyValueError::new_err("dedup: expected True, \"exact\" or \"prefix\""))?;
    DedupMode::parse(&mode)
        .map(Some)
        .map_err(|e| PyValueError::new_err(format!("dedup: {e}")))
}

/// The inputs of `paths` as `shogi stats` expands them; a path that is not there raises
/// (FileNotFoundError), as the CLI stops with a usage error. `-` is a file named `-`.
pub(crate) fn inputs(paths: &[String]) -> PyResult<Vec<Input>> {
    let mut out = Vec::new();
    for p in paths {
        if p == "-" {
            out.push(Input::file(p));
            continue;
        }
        let found = shogi_batch::expand(std::slice::from_ref(p)).map_err(|e| {
            if e.reason == "no such file or directory" {
                PyFileNotFoundError::new_err((2, e.reason, e.path))
            } else {
                PyOSError::new_err((0, e.reason, e.path))
            }
        })?;
        out.extend(found);
    }
    Ok(out)
}

/// The columns a row may carry at its end, as `shogi stats` adds them.
#[derive(Clone, Copy)]
struct Extra {
    /// `moves`: the main line in this notation.
    moves: Option<Notation>,
    /// The `missed_mate_*` columns.
    mate: Option<MateSearch>,
    /// The tag columns ([`TAG_COLUMNS`]), recognised with these rules.
    tags: Option<&'static RuleSet>,
}

/// What the workers hand back for one game.
struct Item {
    row: Option<GameRow>,
    key: u64,
    line: Option<String>,
}

/// The rows of `inputs`, in input order, as `shogi stats` makes them (selection applied,
/// `duplicate_of` filled in when `dedup` asks).
/// `cancel` stops the reading at the next game (Ctrl-C in Python).
fn rows(
    inputs: &[Input],
    pool: &rayon::ThreadPool,
    selection: &Selection,
    dedup: Option<DedupMode>,
    extra: Extra,
    cancel: &AtomicBool,
) -> Vec<GameRow> {
    let Extra { moves, mate, tags } = extra;
    let tag_rules = tags.or(selection.tag_rules());
    let prefix = dedup == Some(DedupMode::Prefix);
    let mut exact = Dedup::new();
    let mut out = Vec::new();
    let mut lines = Vec::new();
    let reading = crate::reading::reading(shogi_kif::ReadOptions::default());
    let _ = shogi_batch::run(
        inputs,
        &reading,
        pool,
        |input, game| {
            let mut row = GameRow::new(&input.name, &game);
            if let Some(rules) = tag_rules {
                // Before the selection: its tag filters look at the row's tags.
                row.set_tags(&game, rules, tags.is_some());
            }
            let keep = selection.matches(&row, |want| game.reached(want));
            if let Some(notation) = moves.filter(|_| keep) {
                row.set_moves(&game, notation);
            }
            if let Some(search) = mate.filter(|_| keep) {
                row.set_missed_mate(&game, search);
            }
            let (key, line) = match &game.record {
                Some(rec) if keep && dedup.is_some() => {
                    (game_key(rec), prefix.then(|| line_text(rec)))
                }
                _ => (0, None),
            };
            Item {
                row: keep.then_some(row),
                key,
                line,
            }
        },
        |_, event| {
            if cancel.load(Ordering::Relaxed) {
                return ControlFlow::Break(());
            }
            let Event::Game(Item {
                row: Some(mut row),
                key,
                line,
            }) = event
            else {
                return ControlFlow::Continue(());
            };
            if dedup == Some(DedupMode::Exact) && row.key.is_some() {
                row.duplicate_of = exact.check(key, &row.id());
            }
            if prefix {
                // Unreadable games have no line: a line of their own keeps them apart.
                lines.push(line.unwrap_or_else(|| format!("\u{0}{}", row.id())));
            }
            out.push(row);
            ControlFlow::Continue(())
        },
    );
    if prefix {
        let ids: Vec<String> = out.iter().map(GameRow::id).collect();
        for (row, dup) in out.iter_mut().zip(duplicates(&lines, DedupMode::Prefix)) {
            row.duplicate_of = dup.map(|k| ids[k].clone());
        }
    }
    out
}

/// The rows of `shogi stats` for `paths`: (columns, rows as tuples). The Python function
/// `shogitk.stats` wraps them in a `Table`.
#[pyfunction]
#[pyo3(name = "_stats", signature = (paths, *, jobs = Some(1), shard = None, dedup = None, moves = None, mate = false, mate_plies = 10, mate_length = 7, tags = false, tag_rules = None, filters = None))]
#[allow(clippy::too_many_arguments)] // The keyword arguments of `shogitk.stats`.
pub fn stats_rows<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    jobs: Option<usize>,
    shard: Option<&Bound<'py, PyAny>>,
    dedup: Option<&Bound<'py, PyAny>>,
    moves: Option<&str>,
    mate: bool,
    mate_plies: usize,
    mate_length: u16,
    tags: bool,
    tag_rules: Option<&Bound<'py, PyAny>>,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Vec<&'static str>, Bound<'py, PyList>)> {
    let rules = crate::tags::rules(py, tag_rules)?;
    let selection = selection_with(filters, "stats", Some(rules))?;
    let tags = tags.then_some(rules);
    if mate && !(1..=99).contains(&mate_length) {
        return Err(PyValueError::new_err("mate_length: expected 1 to 99 plies"));
    }
    let mate = mate.then_some(MateSearch {
        plies: mate_plies,
        length: mate_length,
    });
    let moves = moves
        .map(|m| {
            m.parse::<Notation>()
                .map_err(|e| PyValueError::new_err(format!("moves: {e}")))
        })
        .transpose()?;
    let shard = shard_arg(shard)?;
    let dedup = dedup_arg(dedup)?;
    if jobs == Some(0) {
        return Err(PyValueError::new_err("jobs must be at least 1"));
    }
    let paths = path_list(paths)?;
    let mut inputs = inputs(&paths)?;
    if let Some(shard) = shard {
        inputs = shard.select(inputs);
    }
    let pool = shogi_batch::pool(jobs)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("stats: {e}")))?;
    // Read on a thread of its own, so that Ctrl-C is seen while waiting (and stops it).
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel::<Vec<GameRow>>();
    let stop = Arc::clone(&cancel);
    std::thread::Builder::new()
        .name("shogitk-stats".into())
        .spawn(move || {
            let _ = tx.send(rows(
                &inputs,
                &pool,
                &selection,
                dedup,
                Extra { moves, mate, tags },
                &stop,
            ));
        })
        .map_err(|e| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}"))
        })?;
    let mut rx = rx;
    let rows = loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(Duration::from_millis(100));
            (rx, got)
        });
        rx = back;
        match got {
            Ok(rows) => break rows,
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "shogitk: the stats thread failed (a bug: please report it)",
                ));
            }
        }
    };
    let mut columns = COLUMNS.to_vec();
    if moves.is_some() {
        columns.push("moves");
    }
    if mate.is_some() {
        columns.extend_from_slice(MATE_COLUMNS);
    }
    if tags.is_some() {
        columns.extend_from_slice(TAG_COLUMNS);
    }
    let list = PyList::empty(py);
    for row in &rows {
        list.append(PyTuple::new(py, row_values(py, row, &columns)?)?)?;
    }
    Ok((columns, list))
}

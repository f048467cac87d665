//! `shogitk.match(...)`: an engine match (shogi-match) from Python, with the parameters of
//! `shogi match`; returns the summary (a dict, as `--format json` prints it) and the games as
//! Records. The GIL is released while the games are played.

use crate::errors::{s as pystr, with_attrs};
use crate::reading;
use crate::record::PyRecord;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use shogi_book::Pick;
use shogi_core::Variant;
use shogi_match::book::{BookRequest, DEFAULT_BOOK_PLIES};
use shogi_match::record::{self, OutFormat};
use shogi_match::runner;
use shogi_match::settings::{Pairing, Request};
use shogi_match::{MatchError, Parameter};
use std::path::PathBuf;
use std::sync::Arc;

/// The exception of a match's settings (a module of its own: the Python name is the library's).
pub mod exc {
    use crate::errors::ShogiError;

    pyo3::create_exception!(
        shogitk,
        MatchError,
        ShogiError,
        "A match that cannot start for its settings: a keyword out of range, keywords that \
exclude each other, an openings file that cannot be used. Attributes: parameter (the keyword at \
fault), parameters (every keyword involved), reason."
    );
}

fn value_err(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The keyword of a match setting.
fn keyword(p: Parameter) -> String {
    match p {
        Parameter::Engine => "engines",
        Parameter::Pairing => "pairing",
        Parameter::Games => "games",
        Parameter::Jobs => "jobs",
        Parameter::Time => "time",
        Parameter::Byoyomi => "byoyomi",
        Parameter::Inc => "inc",
        Parameter::Movetime => "movetime",
        Parameter::Nodes => "nodes",
        Parameter::TimeMargin => "time_margin",
        Parameter::MoveTimeout => "move_timeout",
        Parameter::Openings => "openings",
        Parameter::Book => "book",
        Parameter::Resign => "resign",
        Parameter::Draw => "draw",
        Parameter::Declaration => "declaration",
        Parameter::Sprt => "sprt",
        Parameter::SprtModel => "sprt_model",
        // No record output from Python: the CLI's settings.
        Parameter::Out => "out",
        Parameter::OutDir => "out_dir",
        Parameter::OutFormat => "out_format",
        Parameter::Resume => "resume",
    }
    .to_string()
}

/// The Python exception of a match error: `MatchError` (a ValueError) for settings, the
/// engine layer's `EngineError` (a RuntimeError) for an engine that cannot play.
fn py_error(py: Python<'_>, e: MatchError) -> PyErr {
    let word = |p: Parameter| format!("{}=", keyword(p));
    match &e {
        MatchError::Engine { error, .. } => {
            crate::engine::engine_error_with(py, error, e.describe(&word))
        }
        MatchError::Write { .. } => PyRuntimeError::new_err(e.describe(&word)),
        _ => {
            let reason = e.describe(&word);
            let parameters: Vec<String> = e.parameters().into_iter().map(keyword).collect();
            let first = match parameters.first() {
                Some(k) => pystr(py, k),
                None => py.None().into_bound(py),
            };
            let all = PyList::new(py, &parameters).map(|l| l.into_any());
            match all {
                Ok(all) => with_attrs::<exc::MatchError>(
                    py,
                    reason.clone(),
                    &[
                        ("parameter", first),
                        ("parameters", all),
                        ("reason", pystr(py, &reason)),
                    ],
                ),
                Err(e) => e,
            }
        }
    }
}

/// Plays a match between USI engines and returns `(summary, records)`.
///
/// `engines` are `"NAME=PATH[,option=value...]"` strings as `shogi match --engine` takes them.
/// Exactly one time control: `byoyomi` (ms, optionally after `time`), `time` with `inc`
/// (Fischer), `time` alone, `movetime` or `nodes`. `pairing` is "head_to_head", "gauntlet" or
/// "round_robin"; `sprt` is `(elo0, elo1)` or `(elo0, elo1, alpha, beta)` in the Elo of
/// `sprt_model` ("normalized", the default, "logistic", "bayesian" or "cutechess");
/// `book` walks the openings through a book (YaneuraOu's text or .ybb, Apery's book.bin): one
/// line per game pair from the start, or each `openings` line continued; at most `book_plies`
/// book moves (16), picked by `book_pick` ("weighted" by count, the default, "uniform" or
/// "best"; random picks seeded by `seed`), as `shogi match --book`.
/// `engine_sched` is "batch" (the default: engines under SCHED_BATCH, as `shogi match`) or
/// "normal".
/// `games` defaults to 2, or to 20,000 with `sprt` (the test stops the match at its decision).
/// Bad settings raise `shogitk.MatchError` (a ValueError naming the keyword) before any engine
/// starts; an engine that cannot play raises `shogitk.EngineError` (a RuntimeError). The records
/// are in game order.
#[pyfunction]
#[pyo3(name = "match", signature = (engines, *, games = None, jobs = 1, pairing = "head_to_head",
    byoyomi = None, time = None, inc = None, movetime = None, nodes = None, time_margin = 100,
    move_timeout = 60000, variant = "standard", openings = None, opening_plies = None,
    seed = None, book = None, book_plies = DEFAULT_BOOK_PLIES, book_pick = "weighted",
    max_plies = 320, declaration = 27, resign = None, draw = None, sprt = None,
    sprt_model = None, engine_sched = "batch", event = "shogi match"))]
// One keyword argument a `shogi match` flag, mapped to the library's `Request`.
#[allow(clippy::too_many_arguments)]
pub fn play_match<'py>(
    py: Python<'py>,
    engines: Vec<String>,
    games: Option<u32>,
    jobs: u32,
    pairing: &str,
    byoyomi: Option<u64>,
    time: Option<u64>,
    inc: Option<u64>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    time_margin: u64,
    move_timeout: u64,
    variant: &str,
    openings: Option<String>,
    opening_plies: Option<usize>,
    seed: Option<u64>,
    book: Option<PathBuf>,
    book_plies: u32,
    book_pick: &str,
    max_plies: u32,
    declaration: u32,
    resign: Option<(i32, u32)>,
    draw: Option<(i32, u32)>,
    sprt: Option<Vec<f64>>,
    sprt_model: Option<&str>,
    engine_sched: &str,
    event: &str,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyList>)> {
    let variant = match variant {
        "standard" => Variant::Standard,
        "mini" => Variant::Mini,
        v => return Err(value_err(format!("variant {v:?}: standard or mini"))),
    };
    let pairing = match pairing {
        "head_to_head" => Pairing::HeadToHead,
        "gauntlet" => Pairing::Gauntlet,
        "round_robin" => Pairing::RoundRobin,
        p => {
            return Err(value_err(format!(
                "pairing {p:?}: head_to_head, gauntlet or round_robin"
            )));
        }
    };
    let batch = match engine_sched {
        "batch" => true,
        "normal" => false,
        e => return Err(value_err(format!("engine_sched {e:?}: batch or normal"))),
    };
    let pick = match book_pick {
        "weighted" => Pick::Weighted,
        "uniform" => Pick::Uniform,
        "best" => Pick::Best,
        p => {
            return Err(value_err(format!(
                "book_pick {p:?}: weighted, uniform or best"
            )));
        }
    };
    let book = book.map(|path| BookRequest {
        path,
        plies: book_plies,
        pick,
    });
    let request = Request {
        engines,
        pairing,
        games,
        jobs: jobs as usize,
        time,
        byoyomi,
        inc,
        movetime,
        nodes,
        time_margin_ms: time_margin,
        move_timeout_ms: move_timeout,
        batch,
        variant,
        openings: openings.map(Into::into),
        opening_plies,
        book,
        seed,
        max_plies,
        declaration,
        resign,
        draw,
        sprt,
        sprt_model: sprt_model.map(str::to_string),
        event: event.to_string(),
    };
    let settings = request.settings().map_err(|e| py_error(py, e))?;
    let (summary, games) = py
        .detach(|| -> Result<_, MatchError> {
            runner::check(&settings)?;
            let mut games = Vec::new();
            let (tally, stopped) = runner::run(&settings, &[], |f, _| {
                games.push((
                    f.spec.index,
                    record::annotated(&f.record, &f.notes, OutFormat::Csa3),
                ));
                Ok(())
            })?;
            games.sort_by_key(|t| t.0);
            Ok((tally.summary(&settings, stopped), games))
        })
        .map_err(|e| py_error(py, e))?;
    let summary =
        serde_json::to_string(&summary).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let summary = py.import("json")?.call_method1("loads", (summary,))?;
    // Each game as the typed record the match made (the judgements and the ending's reason
    // as CSA comments, as in a record file), checked as a record read from a file is.
    let records = games.into_iter().map(|(_, record)| {
        let game = shogi_batch::InputRecord::made(record, Some(shogi_kif::Format::Csa));
        PyRecord::new(Arc::new(reading::RecordData::new(None, game)))
    });
    Ok((summary, PyList::new(py, records)?))
}

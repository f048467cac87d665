//! `shogitk.match(...)`: an engine match (shogi-match) from Python, with the parameters of
//! `shogi match`; returns the summary (a dict, as `--format json` prints it) and the games as
//! Records. The GIL is released while the games are played.

use crate::reading;
use crate::record::PyRecord;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use shogi_core::{ImpasseRule, Variant};
use shogi_kif::ReadOptions;
use shogi_match::clock::TimeControl;
use shogi_match::openings::{Opening, order, read_openings};
use shogi_match::record::{self, OutFormat};
use shogi_match::referee::{Adjudication, Rules};
use shogi_match::runner::{self, EngineSpec, Pairing, Settings};
use shogi_match::stats::{Sprt, SprtModel};
use std::sync::Arc;

fn value_err(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Plays a match between USI engines and returns `(summary, records)`.
///
/// `engines` are `"NAME=PATH[,option=value...]"` strings as `shogi match --engine` takes them.
/// Exactly one time control: `byoyomi` (ms, optionally after `time`), `time` with `inc`
/// (Fischer), `time` alone, `movetime` or `nodes`. `pairing` is "head_to_head", "gauntlet" or
/// "round_robin"; `sprt` is `(elo0, elo1)` or `(elo0, elo1, alpha, beta)` in the Elo of
/// `sprt_model` ("normalized", the default, "logistic", "bayesian" or "cutechess");
/// `engine_sched` is "batch" (the default: engines under SCHED_BATCH, as `shogi match`) or
/// "normal".
/// Bad arguments raise ValueError before any engine starts; an engine that cannot start raises
/// RuntimeError. The records are in game order.
#[pyfunction]
#[pyo3(name = "match", signature = (engines, *, games = 2, jobs = 1, pairing = "head_to_head",
    byoyomi = None, time = None, inc = None, movetime = None, nodes = None, time_margin = 100,
    move_timeout = 60000, variant = "standard", openings = None, opening_plies = None,
    seed = None, max_plies = 320, declaration = 27, resign = None, draw = None, sprt = None,
    sprt_model = "normalized", engine_sched = "batch", event = "shogi match"))]
// Over 100 lines on purpose: one keyword argument a `shogi match` flag, each checked and
// mapped in turn to the same settings the CLI builds.
#[allow(clippy::too_many_arguments)]
pub fn play_match<'py>(
    py: Python<'py>,
    engines: Vec<String>,
    games: u32,
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
    max_plies: u32,
    declaration: u32,
    resign: Option<(i32, u32)>,
    draw: Option<(i32, u32)>,
    sprt: Option<Vec<f64>>,
    sprt_model: &str,
    engine_sched: &str,
    event: &str,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyList>)> {
    let engines = engines
        .iter()
        .map(|e| EngineSpec::parse(e).map_err(value_err))
        .collect::<PyResult<Vec<_>>>()?;
    let time_control =
        TimeControl::from_flags(time, byoyomi, inc, movetime, nodes).map_err(value_err)?;
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
    let declaration = match declaration {
        27 => ImpasseRule::Points27,
        24 => ImpasseRule::Points24,
        d => return Err(value_err(format!("declaration {d}: 27 or 24"))),
    };
    let openings = match openings {
        None => vec![Opening::startpos(variant)],
        Some(path) => {
            let bytes = std::fs::read(&path).map_err(|e| value_err(format!("{path}: {e}")))?;
            read_openings(&path, &bytes, variant, opening_plies).map_err(value_err)?
        }
    };
    let model: SprtModel = sprt_model.parse().map_err(value_err)?;
    let batch = match engine_sched {
        "batch" => true,
        "normal" => false,
        e => return Err(value_err(format!("engine_sched {e:?}: batch or normal"))),
    };
    let sprt = match sprt.as_deref() {
        None => None,
        Some(v) => {
            let s = match *v {
                [e0, e1] => Sprt::new(e0, e1, 0.05, 0.05),
                [e0, e1, a, b] => Sprt::new(e0, e1, a, b),
                _ => None,
            };
            let s = s.ok_or_else(|| {
                value_err("sprt: (elo0, elo1[, alpha, beta]) with elo0 < elo1, 0 < alpha, beta < 1")
            })?;
            Some(s.with_model(model))
        }
    };
    let adj = |a: Option<(i32, u32)>| a.map(|(score, moves)| Adjudication { score, moves });
    let settings = Settings {
        order: order(openings.len(), seed),
        engines,
        pairing,
        games,
        jobs: jobs.max(1) as usize,
        time_control,
        time_margin_ms: time_margin,
        batch,
        move_timeout_ms: move_timeout,
        rules: Rules {
            max_plies,
            declaration,
            resign: adj(resign),
            draw: adj(draw),
        },
        variant,
        openings,
        sprt,
        event: event.to_string(),
    };
    let (summary, texts) = py
        .detach(|| -> Result<_, String> {
            runner::check(&settings).map_err(|e| e.to_string())?;
            let mut texts = Vec::new();
            let (tally, stopped) = runner::run(&settings, &[], |f, _| {
                texts.push((
                    f.spec.index,
                    record::write(&f.record, &f.notes, OutFormat::Csa3),
                ));
                Ok(())
            })?;
            texts.sort_by_key(|t| t.0);
            let summary = serde_json::to_string(&tally.summary(&settings, stopped))
                .map_err(|e| e.to_string())?;
            Ok((summary, texts))
        })
        .map_err(PyRuntimeError::new_err)?;
    let summary = py.import("json")?.call_method1("loads", (summary,))?;
    let mut records = Vec::new();
    for (_, text) in texts {
        let games = reading::read_bytes(text.into_bytes(), ReadOptions::default())
            .map_err(PyRuntimeError::new_err)?;
        records.extend(games.into_iter().map(|g| PyRecord::new(Arc::new(g))));
    }
    Ok((summary, PyList::new(py, records)?))
}

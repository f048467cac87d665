//! `shogitk.Engine`: a USI engine (shogi-usi) from Python, the GIL released while it thinks.

use crate::args::color_name;
use crate::position::{PyMove, PyPosition};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use shogi_core::{DeclarationResult, Position, Variant};
use shogi_usi::{
    BestMove, Bound as UsiBound, Engine, EngineError as UsiError, EngineErrorKind, Limit,
    OptionKind, PovScore, Score, Search, StartOptions,
};
use std::time::Duration;

pyo3::create_exception!(
    shogitk,
    EngineError,
    PyRuntimeError,
    "An engine failed: it could not start, crashed, hung, broke the protocol, refused an option \
or answered an illegal move. Attributes: kind, engine, last_lines (list of str), last_command."
);

fn kind_name(k: &EngineErrorKind) -> &'static str {
    match k {
        EngineErrorKind::Spawn(_) => "spawn",
        EngineErrorKind::Timeout { .. } => "timeout",
        EngineErrorKind::Crashed { .. } => "crashed",
        EngineErrorKind::PipeClosed(_) => "pipe_closed",
        EngineErrorKind::Protocol(_) => "protocol",
        EngineErrorKind::IllegalMove { .. } => "illegal_move",
        EngineErrorKind::UnknownOption { .. } => "unknown_option",
        EngineErrorKind::BadOptionValue { .. } => "bad_option_value",
        EngineErrorKind::Unsupported(_) => "unsupported",
        EngineErrorKind::InvalidRequest(_) => "invalid_request",
        EngineErrorKind::Dead(_) => "dead",
    }
}

/// The Python EngineError for `e`, with its attributes.
pub(crate) fn engine_error(py: Python<'_>, e: &UsiError) -> PyErr {
    engine_error_with(py, e, e.to_string())
}

/// The Python EngineError for `e` with the caller's `message` (e.g. naming the engine in a
/// match), and `e`'s attributes.
pub(crate) fn engine_error_with(py: Python<'_>, e: &UsiError, message: String) -> PyErr {
    let lines: Vec<String> = e
        .last_lines()
        .iter()
        .map(|l| match l.stream {
            shogi_usi::Stream::Stdout => l.text.clone(),
            shogi_usi::Stream::Stderr => format!("stderr: {}", l.text),
        })
        .collect();
    let build = || -> PyResult<PyErr> {
        let err = PyErr::new::<EngineError, _>(message);
        let v = err.value(py);
        v.setattr("kind", kind_name(&e.kind))?;
        v.setattr("engine", e.engine())?;
        v.setattr("last_lines", lines)?;
        v.setattr("last_command", e.last_command())?;
        Ok(err)
    };
    build().unwrap_or_else(|failed| failed)
}

/// An evaluation from one side's view: centipawns or mate (its own kind).
#[pyclass(frozen, eq, name = "Score", module = "shogitk")]
#[derive(Clone, PartialEq)]
pub struct PyScore(Score);

#[pymethods]
impl PyScore {
    /// "cp", "mate" (known distance), "mate_unknown" (`mate +` / `mate -`) or "mate_given"
    /// (this side has already mated).
    #[getter]
    fn kind(&self) -> &'static str {
        match self.0 {
            Score::Cp(_) => "cp",
            Score::Mate { .. } => "mate",
            Score::MateUnknown { .. } => "mate_unknown",
            Score::MateGiven => "mate_given",
        }
    }

    /// Centipawns, or None for a mate.
    #[getter]
    fn cp(&self) -> Option<i32> {
        match self.0 {
            Score::Cp(cp) => Some(cp),
            _ => None,
        }
    }

    /// Mate distance in plies (positive: this side mates; negative: it is mated; 0: mated
    /// now), or None (centipawns, or the distance unknown).
    #[getter]
    fn mate(&self) -> Option<i32> {
        match self.0 {
            Score::Mate { plies } => Some(plies),
            _ => None,
        }
    }

    /// For a mate: whether this side is the one that mates; None for centipawns.
    #[getter]
    fn winning(&self) -> Option<bool> {
        self.0.mate_winner()
    }

    fn __repr__(&self) -> String {
        format!("Score({})", self.0)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }
}

fn bound_name(b: UsiBound) -> &'static str {
    match b {
        UsiBound::Exact => "exact",
        UsiBound::Lower => "lower",
        UsiBound::Upper => "upper",
    }
}

/// A score as the engine sent it (the side to move's view) with both sides' views.
#[pyclass(frozen, name = "PovScore", module = "shogitk")]
pub struct PyPovScore(PovScore);

#[pymethods]
impl PyPovScore {
    /// The side to move's view (what the engine sent).
    #[getter]
    fn relative(&self) -> PyScore {
        PyScore(self.0.relative())
    }

    /// Sente's (black's) view.
    #[getter]
    fn sente(&self) -> PyScore {
        PyScore(self.0.sente())
    }

    /// Gote's (white's) view.
    #[getter]
    fn gote(&self) -> PyScore {
        PyScore(self.0.gote())
    }

    /// The side to move of the searched position: "black" or "white".
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.0.turn)
    }

    /// "exact", "lower" or "upper" (the engine's bound, from the side to move's view).
    #[getter]
    fn bound(&self) -> &'static str {
        bound_name(self.0.bound)
    }

    /// The bound from sente's view.
    #[getter]
    fn sente_bound(&self) -> &'static str {
        bound_name(self.0.sente_bound())
    }

    fn __repr__(&self) -> String {
        format!(
            "PovScore({}, turn={}, bound={})",
            self.0.score,
            color_name(self.0.turn),
            bound_name(self.0.bound)
        )
    }
}

fn option_value(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = v.extract::<bool>() {
        return Ok(if b { "true" } else { "false" }.into());
    }
    if let Ok(n) = v.extract::<i64>() {
        return Ok(n.to_string());
    }
    if v.is_none() {
        return Ok(String::new());
    }
    v.extract::<String>()
        .map_err(|_| PyValueError::new_err("an option value must be a bool, an int, a str or None"))
}

fn position_arg(pos: &Bound<'_, PyAny>) -> PyResult<(Position, Vec<shogi_core::Move>)> {
    if let Ok(p) = pos.cast::<PyPosition>() {
        return Ok(p.borrow().start_and_moves());
    }
    if let Ok(text) = pos.extract::<String>() {
        let t = text.trim();
        if t == "startpos" {
            return Ok((Position::startpos(Variant::Standard), Vec::new()));
        }
        return Position::from_sfen(t)
            .map(|p| (p, Vec::new()))
            .map_err(|e| PyValueError::new_err(format!("bad SFEN {t:?}: {e}")));
    }
    Err(PyValueError::new_err(
        "position must be a shogitk.Position or an SFEN",
    ))
}

fn limit_arg(
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<u64>,
    byoyomi: Option<u64>,
) -> PyResult<Limit> {
    let limit = Limit {
        nodes,
        depth,
        movetime: movetime.map(Duration::from_millis),
        byoyomi: byoyomi.map(Duration::from_millis),
        btime: byoyomi.map(|_| Duration::ZERO),
        wtime: byoyomi.map(|_| Duration::ZERO),
        ..Limit::default()
    };
    if limit == Limit::default() {
        return Err(PyValueError::new_err(
            "give a limit: nodes=, depth=, movetime= (ms) or byoyomi= (ms)",
        ));
    }
    Ok(limit)
}

/// A USI engine process. Use it as a context manager (`with shogitk.Engine(path) as e:`), or
/// call `quit()`.
#[pyclass(name = "Engine", module = "shogitk")]
pub struct PyEngine {
    engine: Option<Engine>,
    multipv: u32,
}

impl PyEngine {
    fn engine(&mut self) -> PyResult<&mut Engine> {
        self.engine
            .as_mut()
            .ok_or_else(|| PyValueError::new_err("the engine has been closed"))
    }

    fn run(
        &mut self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        limit: Limit,
        multipv: u32,
    ) -> PyResult<Search> {
        let (start, moves) = position_arg(position)?;
        let want = multipv.max(1);
        let current = self.multipv;
        let engine = self.engine()?;
        let result = py.detach(|| -> Result<Search, UsiError> {
            if want != current {
                engine.set_multipv(want)?;
            }
            engine.search_with_retry(&start, &moves, &limit)
        });
        match result {
            Ok(s) => {
                self.multipv = want;
                Ok(s)
            }
            Err(e) => Err(engine_error(py, &e)),
        }
    }
}

#[pymethods]
impl PyEngine {
    /// Starts the engine at `path` (with `args`), sets `options` (a dict; each checked against
    /// what the engine offers), and `Threads` to `threads` where the engine has that option.
    /// `fresh=True` sends `usinewgame` + `isready` before every search (reproducible analysis).
    /// `timeout` (seconds) bounds each wait for `usiok`, `readyok` and a `bestmove` of a search
    /// with no clock (nodes, depth); the defaults are 10 s, 30 s and 120 s. Raises EngineError.
    #[new]
    #[pyo3(signature = (path, options = None, *, args = None, threads = Some(1), fresh = false, timeout = None))]
    fn new(
        py: Python<'_>,
        path: std::path::PathBuf,
        options: Option<&Bound<'_, PyDict>>,
        args: Option<Vec<String>>,
        threads: Option<u32>,
        fresh: bool,
        timeout: Option<f64>,
    ) -> PyResult<PyEngine> {
        let mut start = StartOptions {
            threads,
            fresh_state: fresh,
            ..StartOptions::default()
        };
        if let Some(t) = timeout {
            let d = Duration::try_from_secs_f64(t)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or_else(|| {
                    PyValueError::new_err("timeout must be a positive number of seconds")
                })?;
            let t = &mut start.timeouts;
            t.usiok = d;
            t.readyok = d;
            t.search_unbounded = d;
            t.stop = d;
            t.search_margin = t.search_margin.min(d);
        }
        if let Some(d) = options {
            for (k, v) in d.iter() {
                start
                    .options
                    .push((k.extract::<String>()?, option_value(&v)?));
            }
        }
        let args = args.unwrap_or_default();
        let engine = py
            .detach(|| Engine::start(&path, &args, start))
            .map_err(|e| engine_error(py, &e))?;
        Ok(PyEngine {
            engine: Some(engine),
            multipv: 1,
        })
    }

    /// The engine's `id name`.
    #[getter]
    fn name(&mut self) -> PyResult<String> {
        Ok(self.engine()?.name())
    }

    /// The options the engine offers: a list of dicts (name, type, default, min, max, vars).
    #[getter]
    fn options<'py>(&mut self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let mut out = Vec::new();
        for o in self.engine()?.options() {
            let d = PyDict::new(py);
            d.set_item("name", &o.name)?;
            d.set_item("type", o.kind.type_name())?;
            match &o.kind {
                OptionKind::Check { default } => d.set_item("default", *default)?,
                OptionKind::Spin { default, min, max } => {
                    d.set_item("default", *default)?;
                    d.set_item("min", *min)?;
                    d.set_item("max", *max)?;
                }
                OptionKind::Combo { default, vars } => {
                    d.set_item("default", default.clone())?;
                    d.set_item("vars", vars.clone())?;
                }
                OptionKind::Button => {}
                OptionKind::String { default } | OptionKind::Filename { default } => {
                    d.set_item("default", default.clone())?
                }
            }
            out.push(d);
        }
        Ok(out)
    }

    /// Sets one option (checked against what the engine offers). Raises EngineError.
    fn set_option(&mut self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = option_value(value)?;
        let engine = self.engine()?;
        engine
            .set_option(name, &v)
            .map_err(|e| engine_error(py, &e))
    }

    /// Searches `position` (a Position, whose pushed moves are sent as the game's moves, or
    /// an SFEN) and returns the final info of each line, best first: dicts with multipv,
    /// score (PovScore or None), pv (list of Move, cut at the first illegal move), pv_cut
    /// (None or a dict index/move/reason), depth, seldepth, nodes, nps, time (ms), hashfull.
    /// A crashed or hung engine is restarted and the search retried once. Raises EngineError.
    #[pyo3(signature = (position, *, nodes = None, depth = None, movetime = None, byoyomi = None, multipv = 1))]
    #[allow(clippy::too_many_arguments)]
    fn analyse<'py>(
        &mut self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        nodes: Option<u64>,
        depth: Option<u32>,
        movetime: Option<u64>,
        byoyomi: Option<u64>,
        multipv: u32,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let limit = limit_arg(nodes, depth, movetime, byoyomi)?;
        let search = self.run(py, position, limit, multipv)?;
        let mut out = Vec::new();
        for l in &search.lines {
            let d = PyDict::new(py);
            d.set_item("multipv", l.multipv)?;
            d.set_item("score", l.score.map(PyPovScore))?;
            d.set_item("pv", l.pv.iter().map(|&m| PyMove(m)).collect::<Vec<_>>())?;
            match &l.pv_cut {
                None => d.set_item("pv_cut", py.None())?,
                Some(c) => {
                    let cut = PyDict::new(py);
                    cut.set_item("index", c.index)?;
                    cut.set_item("move", &c.text)?;
                    cut.set_item("reason", &c.reason)?;
                    d.set_item("pv_cut", cut)?;
                }
            }
            d.set_item("depth", l.depth)?;
            d.set_item("seldepth", l.seldepth)?;
            d.set_item("nodes", l.nodes)?;
            d.set_item("nps", l.nps)?;
            d.set_item("time", l.time_ms)?;
            d.set_item("hashfull", l.hashfull)?;
            out.push(d);
        }
        Ok(out)
    }

    /// The engine's move in `position`: a Move, "resign", or "win" (an entering-king
    /// declaration that our 27-point rule judges valid; a false one raises EngineError).
    #[pyo3(signature = (position, *, nodes = None, depth = None, movetime = None, byoyomi = None))]
    fn play<'py>(
        &mut self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        nodes: Option<u64>,
        depth: Option<u32>,
        movetime: Option<u64>,
        byoyomi: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let limit = limit_arg(nodes, depth, movetime, byoyomi)?;
        let multipv = self.multipv;
        let search = self.run(py, position, limit, multipv)?;
        match search.bestmove {
            BestMove::Move(m) => Ok(Bound::new(py, PyMove(m))?.into_any()),
            BestMove::Resign => Ok("resign".into_pyobject(py)?.into_any()),
            BestMove::Win(d) if d.result == DeclarationResult::Win => {
                Ok("win".into_pyobject(py)?.into_any())
            }
            BestMove::Win(d) => Err(PyErr::new::<EngineError, _>(format!(
                "engine {}: false entering-king declaration ({} points, {} pieces in the camp, king in the camp: {}, in check: {})",
                self.engine()?.name(),
                d.points,
                d.pieces_in_zone,
                d.king_in_zone,
                d.in_check
            ))),
        }
    }

    /// `usinewgame` + `isready`.
    fn new_game(&mut self, py: Python<'_>) -> PyResult<()> {
        let engine = self.engine()?;
        py.detach(|| engine.new_game())
            .map_err(|e| engine_error(py, &e))
    }

    /// Sends `quit` and kills the process if it has not exited after a grace period.
    fn quit(&mut self, py: Python<'_>) {
        if let Some(e) = self.engine.take() {
            py.detach(|| e.quit());
        }
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&mut self, py: Python<'_>, _exc: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.quit(py);
        false
    }

    fn __repr__(&self) -> String {
        match &self.engine {
            Some(e) => format!("Engine({:?})", e.name()),
            None => "Engine(closed)".into(),
        }
    }
}

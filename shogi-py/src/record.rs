//! Records: `read`, `read_many`, `write`, and the `Record` and `Diagnostic` classes.

use crate::errors;
use crate::position::{PyPosition, color_name};
use crate::reading::{self, GameData};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use shogi_kif::{Encoding, EndingKind, Format, ReadOptions, Record, Severity};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn parse_format(name: &str) -> PyResult<Format> {
    Format::from_extension(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown format {name:?}: expected kif, ki2, csa, usi, sfen or jkf"
        ))
    })
}

fn options(format: Option<&str>, encoding: Option<&str>) -> PyResult<ReadOptions> {
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

fn severity_name(s: Severity) -> &'static str {
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
    inner: shogi_kif::Diagnostic,
    path: Option<String>,
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

/// One game of a record file. A game that could not be read to its end has `valid == False`,
/// its `error` set, and the record as far as it was read (the header, the start, the moves
/// before the error).
#[pyclass(frozen, name = "Record", module = "shogitk")]
pub struct PyRecord {
    game: Arc<GameData>,
}

impl PyRecord {
    fn record(&self) -> Option<&Record> {
        self.game.record.as_ref()
    }

    fn diagnostic(&self, d: &shogi_kif::Diagnostic) -> PyDiagnostic {
        PyDiagnostic {
            inner: d.clone(),
            path: self.game.path.clone(),
        }
    }

    /// The first error: the one that stopped reading, or the first error diagnostic.
    fn first_error(&self, py: Python<'_>) -> Option<PyErr> {
        if let Some(e) = &self.game.error {
            return Some(errors::read_error(py, e));
        }
        let d = self
            .game
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)?;
        let mut e = shogi_kif::ReadError::new(shogi_kif::ErrorKind::Syntax, d.message.clone());
        e.location.line = d.line;
        e.location.column = d.column;
        e.line_text = d.line_text.clone();
        if let Some(p) = &self.game.path {
            e = e.with_path(p.as_str());
        }
        let err = errors::read_error(py, &e);
        // Not a syntax error: a record that reads but breaks a rule of the game.
        let _ = err.value(py).setattr("kind", "invalid");
        Some(err)
    }
}

#[pymethods]
impl PyRecord {
    /// The file the game was read from (None for bytes or text).
    #[getter]
    fn path(&self) -> Option<&str> {
        self.game.path.as_deref()
    }

    /// The game's number in its input, from 1 (CSA files and USI/SFEN lists hold many); 0
    /// for an input that could not be read at all.
    #[getter]
    fn index(&self) -> usize {
        self.game.index
    }

    /// The line the game starts on in its input.
    #[getter]
    fn line(&self) -> Option<u32> {
        self.game.line
    }

    /// The text encoding the input was decoded with: "utf-8", "shift_jis" or "euc-jp".
    #[getter]
    fn encoding(&self) -> Option<&'static str> {
        self.game.encoding.map(|e| match e {
            Encoding::Utf8 => "utf-8",
            Encoding::ShiftJis => "shift_jis",
            Encoding::EucJp => "euc-jp",
        })
    }

    /// The format the input was read as ("kif", "ki2", "csa", "usi", "sfen", "jkf").
    #[getter]
    fn format(&self) -> Option<&'static str> {
        self.game.format.map(Format::name)
    }

    /// The header: KIF key (`先手`, `開始日時`, …) to value; a repeated key keeps its last
    /// value (`header_items` keeps them all, in order).
    #[getter]
    fn header<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if let Some(r) = self.record() {
            for e in &r.header.entries {
                d.set_item(e.key.kif(), &e.value)?;
            }
        }
        Ok(d)
    }

    /// The header entries in order, as (KIF key, value) pairs.
    #[getter]
    fn header_items(&self) -> Vec<(String, String)> {
        self.record().map_or_else(Vec::new, |r| {
            r.header
                .entries
                .iter()
                .map(|e| (e.key.kif().to_string(), e.value.clone()))
                .collect()
        })
    }

    /// The black (sente) player's name.
    #[getter]
    fn black(&self) -> Option<&str> {
        self.record()?.header.black()
    }

    /// The white (gote) player's name.
    #[getter]
    fn white(&self) -> Option<&str> {
        self.record()?.header.white()
    }

    /// "standard" or "mini".
    #[getter]
    fn variant(&self) -> Option<&'static str> {
        Some(self.record()?.start.variant.name())
    }

    /// The handicap in Japanese (`平手`, `香落ち`, …), None for a position that is not one.
    #[getter]
    fn handicap(&self) -> Option<&'static str> {
        self.record()?.start.handicap.map(|h| h.japanese())
    }

    /// The SFEN of the start position.
    #[getter]
    fn start_sfen(&self) -> Option<&str> {
        Some(self.record()?.start.sfen.as_str())
    }

    /// The SFEN after the last legal main-line move (what `shogi convert --to sfen` prints).
    #[getter]
    fn final_sfen(&self) -> Option<String> {
        Some(self.record()?.final_position()?.to_sfen())
    }

    /// The start position.
    fn start_position(&self) -> Option<PyPosition> {
        Some(PyPosition::wrap(self.record()?.start_position()?))
    }

    /// The position after `ply` main-line moves (0 = start), None past the end.
    fn position_at(&self, ply: usize) -> Option<PyPosition> {
        Some(PyPosition::wrap(self.record()?.position_at(ply)?))
    }

    /// The position after the last legal main-line move.
    fn final_position(&self) -> Option<PyPosition> {
        Some(PyPosition::wrap(self.record()?.final_position()?))
    }

    /// The positions of the main line with the move played from each: (SFEN, USI move)
    /// pairs, up to a declared foul (which cannot be played).
    fn positions(&self) -> Vec<(String, String)> {
        let Some(r) = self.record() else {
            return Vec::new();
        };
        let Some(mut pos) = r.start_position() else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(r.main_line().count());
        for node in r.main_line() {
            if node.foul.is_some() {
                break;
            }
            let sfen = pos.to_sfen();
            if pos.play(node.mv).is_err() {
                break;
            }
            out.push((sfen, node.mv.to_usi()));
        }
        out
    }

    /// The main line as USI moves.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.record().map_or_else(Vec::new, Record::usi_moves)
    }

    /// Time spent on each main-line move in milliseconds (None where the record has none).
    #[getter]
    fn times(&self) -> Vec<Option<u64>> {
        self.record().map_or_else(Vec::new, |r| {
            r.main_line()
                .map(|n| n.time.and_then(|t| t.spent_ms))
                .collect()
        })
    }

    /// The running total of each side's time after each main-line move, in milliseconds,
    /// where the record gives it.
    #[getter]
    fn total_times(&self) -> Vec<Option<u64>> {
        self.record().map_or_else(Vec::new, |r| {
            r.main_line()
                .map(|n| n.time.and_then(|t| t.total_ms))
                .collect()
        })
    }

    /// The comments on each main-line move (a list per move, often empty).
    #[getter]
    fn comments(&self) -> Vec<Vec<String>> {
        self.record().map_or_else(Vec::new, |r| {
            r.main_line().map(|n| n.comments.clone()).collect()
        })
    }

    /// The comments before the first move.
    #[getter]
    fn start_comments(&self) -> Vec<String> {
        self.record()
            .map_or_else(Vec::new, |r| r.start_comments.clone())
    }

    /// How the main line ends: "resign", "interrupt", "repetition", "impasse",
    /// "declaration", "time_up", "foul_win", "foul_loss", "mate", "no_mate", "max_moves",
    /// "draw", "sealed_move", "win_by_default", "loss_by_default", another word as written,
    /// or None when the record states no ending.
    #[getter]
    fn ending(&self) -> Option<String> {
        let kind = &self.record()?.ending()?.kind;
        Some(
            match kind {
                EndingKind::Resign => "resign",
                EndingKind::Interrupt => "interrupt",
                EndingKind::Repetition => "repetition",
                EndingKind::Impasse => "impasse",
                EndingKind::Declaration => "declaration",
                EndingKind::TimeUp => "time_up",
                EndingKind::FoulWin => "foul_win",
                EndingKind::FoulLoss => "foul_loss",
                EndingKind::Mate => "mate",
                EndingKind::NoMate => "no_mate",
                EndingKind::MaxMoves => "max_moves",
                EndingKind::Draw => "draw",
                EndingKind::SealedMove => "sealed_move",
                EndingKind::WinByDefault => "win_by_default",
                EndingKind::LossByDefault => "loss_by_default",
                EndingKind::Other(w) => w.as_str(),
            }
            .to_string(),
        )
    }

    /// The ending as the KIF word (`投了`, `千日手`, …).
    #[getter]
    fn ending_ja(&self) -> Option<String> {
        Some(self.record()?.ending()?.kind.japanese().to_string())
    }

    /// The winner ("black" or "white") as shogi-kif judges the game's result (the stated
    /// ending, checked by the rules where they decide it); None for a draw or no result.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        let result = shogi_kif::training::game_result(self.record()?)?;
        result.winner().map(color_name)
    }

    /// The game's result: "black", "white", "draw", or None when the game has none
    /// (interrupted, unterminated, a problem).
    #[getter]
    fn result(&self) -> Option<&'static str> {
        Some(match shogi_kif::training::game_result(self.record()?)? {
            shogi_core::GameResult::BlackWin => "black",
            shogi_core::GameResult::WhiteWin => "white",
            shogi_core::GameResult::Draw => "draw",
        })
    }

    /// Training data of the game, as `shogi convert --to hcpe|psv|positions` writes it: one
    /// entry per main-line position with the move played, the result and the evaluation
    /// found in the comments. "hcpe" and "psv" give bytes (38 and 40 per entry), "positions"
    /// text lines. Empty when the options leave the game out (no result, a draw with
    /// `skip_draws`, …). Raises ShogiError for a position the formats cannot hold.
    #[pyo3(signature = (format, *, skip_first = 0, skip_draws = false, skip_declarations = false, keep_unfinished = false))]
    fn training<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        skip_first: u32,
        skip_draws: bool,
        skip_declarations: bool,
        keep_unfinished: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let options = shogi_kif::training::TrainingOptions {
            skip_first,
            skip_draws,
            skip_declarations,
            keep_unfinished,
        };
        let entries = match self.record() {
            Some(r) => py
                .detach(|| shogi_kif::training::entries(r, &options))
                .unwrap_or_default(),
            None => Vec::new(),
        };
        let encode_error = |e: shogi_core::EncodeError| {
            errors::with_attrs::<errors::ShogiError>(py, e.to_string(), &[])
        };
        match format {
            "hcpe" | "psv" => {
                let mut out = Vec::with_capacity(entries.len() * 40);
                for e in &entries {
                    if format == "hcpe" {
                        out.extend_from_slice(&e.hcpe().map_err(encode_error)?);
                    } else {
                        out.extend_from_slice(&e.psv().map_err(encode_error)?);
                    }
                }
                Ok(PyBytes::new(py, &out).into_any())
            }
            "positions" => {
                let mut out = String::new();
                for e in &entries {
                    out.push_str(&e.text_line());
                    out.push('\n');
                }
                Ok(PyString::new(py, &out).into_any())
            }
            _ => Err(PyValueError::new_err(format!(
                "unknown training format {format:?}: expected hcpe, psv or positions"
            ))),
        }
    }

    /// True when the game was read and nothing in it is an error (as `shogi check` counts).
    #[getter]
    fn valid(&self) -> bool {
        self.game.error.is_none()
            && self
                .game
                .diagnostics
                .iter()
                .all(|d| d.severity != Severity::Error)
    }

    /// The ReadError that stopped reading this game (an exception instance, not raised), or
    /// None.
    #[getter]
    fn error(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        let e = self.game.error.as_ref()?;
        Some(errors::read_error(py, e).into_value(py).into_any())
    }

    /// The errors: the one that stopped reading and the error diagnostics.
    #[getter]
    fn errors(&self) -> Vec<PyDiagnostic> {
        let mut out: Vec<PyDiagnostic> = self
            .game
            .error
            .iter()
            .map(|e| self.diagnostic(&e.clone().into()))
            .collect();
        out.extend(
            self.game
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| self.diagnostic(d)),
        );
        out
    }

    /// The warnings.
    #[getter]
    fn warnings(&self) -> Vec<PyDiagnostic> {
        self.game
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .map(|d| self.diagnostic(d))
            .collect()
    }

    /// Every diagnostic (errors, warnings and notes), in the order found.
    #[getter]
    fn diagnostics(&self) -> Vec<PyDiagnostic> {
        self.game
            .diagnostics
            .iter()
            .map(|d| self.diagnostic(d))
            .collect()
    }

    /// Raise the first error (a ReadError) if the game is not valid.
    fn raise_for_error(&self, py: Python<'_>) -> PyResult<()> {
        match self.first_error(py) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The record written in `format` (see `shogitk.write`).
    fn write(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        write_game(py, &self.game, format)
    }

    fn __len__(&self) -> usize {
        self.record().map_or(0, |r| r.main_line().count())
    }

    fn __repr__(&self) -> String {
        let place = format!(
            "{}#{}",
            self.game.path.as_deref().unwrap_or("<input>"),
            self.game.index
        );
        match self.record() {
            Some(r) => format!(
                "<Record {place} {} vs {}, {} moves, {}{}>",
                r.header.black().unwrap_or("?"),
                r.header.white().unwrap_or("?"),
                r.main_line().count(),
                self.ending().unwrap_or_else(|| "no ending".into()),
                if self.valid() { "" } else { ", invalid" }
            ),
            None => format!("<Record {place} unreadable>"),
        }
    }
}

fn write_game(py: Python<'_>, game: &GameData, format: &str) -> PyResult<String> {
    let format = parse_format(format)?;
    let Some(record) = &game.record else {
        return Err(match &game.error {
            Some(e) => errors::read_error(py, e),
            None => PyValueError::new_err("the game holds no record"),
        });
    };
    Ok(py.detach(|| shogi_kif::write(record, format)))
}

/// Write a record in `format`: "kif", "ki2", "csa", "usi", "sfen" or "jkf" (CSA, USI and
/// SFEN hold the main line only). Raises the record's ReadError when it could not be read.
#[pyfunction]
pub fn write(py: Python<'_>, record: &Bound<'_, PyRecord>, format: &str) -> PyResult<String> {
    write_game(py, &record.get().game, format)
}

fn records_list<'py>(py: Python<'py>, games: Vec<GameData>) -> PyResult<Bound<'py, PyList>> {
    PyList::new(
        py,
        games.into_iter().map(|g| PyRecord { game: Arc::new(g) }),
    )
}

/// What `read` was given.
enum Source {
    Bytes(Vec<u8>),
    Path(PathBuf),
}

fn source_arg(source: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(b) = source.cast::<PyBytes>() {
        return Ok(Source::Bytes(b.as_bytes().to_vec()));
    }
    if let Ok(s) = source.cast::<PyString>() {
        let text = s.to_cow()?;
        if text.contains('\n') || text.contains('\r') {
            return Ok(Source::Bytes(text.into_owned().into_bytes()));
        }
        return Ok(Source::Path(PathBuf::from(text.as_ref())));
    }
    source
        .extract::<PathBuf>()
        .map(Source::Path)
        .map_err(|_| PyTypeError::new_err("read() takes a path, bytes, or record text (str)"))
}

fn os_error(path: &std::path::Path, e: &std::io::Error) -> PyErr {
    let reason = reading::io_reason(e);
    let name = path.to_string_lossy().into_owned();
    match e.kind() {
        std::io::ErrorKind::NotFound => {
            pyo3::exceptions::PyFileNotFoundError::new_err((2, reason, name))
        }
        std::io::ErrorKind::PermissionDenied => {
            pyo3::exceptions::PyPermissionError::new_err((13, reason, name))
        }
        std::io::ErrorKind::IsADirectory => {
            pyo3::exceptions::PyIsADirectoryError::new_err((21, reason, name))
        }
        _ => PyOSError::new_err((e.raw_os_error().unwrap_or(0), reason, name)),
    }
}

/// Read every game of a record file, or of record bytes or text.
///
/// `source` is a path (str without a line break, or os.PathLike), bytes (any supported
/// encoding), or record text (a str with a line break). The format is detected unless
/// `format` names it; the encoding likewise. Returns a list of Records, one per game: a game
/// that cannot be read is a Record with `valid == False` and its `error`, unless `strict`
/// asks for the first error to be raised as ReadError. An input that cannot be read at all
/// (unknown format, bad encoding) raises ReadError; a missing file raises FileNotFoundError.
#[pyfunction]
#[pyo3(signature = (source, *, format = None, encoding = None, strict = false))]
pub fn read<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    format: Option<&str>,
    encoding: Option<&str>,
    strict: bool,
) -> PyResult<Bound<'py, PyList>> {
    let opts = options(format, encoding)?;
    let games = match source_arg(source)? {
        Source::Bytes(bytes) => py
            .detach(|| reading::read_games(std::io::Cursor::new(bytes), opts, None))
            .map_err(|e| errors::read_error(py, &e))?,
        Source::Path(path) => {
            let name = path.to_string_lossy().into_owned();
            let opts = ReadOptions {
                hint: reading::hint_of(&path),
                ..opts
            };
            let file = std::fs::File::open(&path).map_err(|e| os_error(&path, &e))?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(pyo3::exceptions::PyIsADirectoryError::new_err((
                    21,
                    "is a directory (read_many walks folders)",
                    name,
                )));
            }
            py.detach(|| {
                reading::read_games(
                    std::io::BufReader::with_capacity(1 << 16, file),
                    opts,
                    Some(&name),
                )
            })
            .map_err(|e| errors::read_error(py, &e))?
        }
    };
    let list = records_list(py, games)?;
    if strict {
        for r in list.iter() {
            if let Some(e) = r.cast::<PyRecord>()?.get().first_error(py) {
                return Err(e);
            }
        }
    }
    Ok(list)
}

/// The games of many files, read in parallel in Rust (see `read_many`), in input order.
#[pyclass(name = "GameIterator", module = "shogitk")]
pub struct GameIter {
    /// Games received and not yet handed out.
    ready: Mutex<std::collections::VecDeque<GameData>>,
    /// Batches of games from the reading thread (None while another thread waits on it).
    rx: Mutex<Option<Receiver<Vec<GameData>>>>,
    worker: Mutex<Option<std::thread::JoinHandle<()>>>,
}

#[pymethods]
impl GameIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyRecord>> {
        if let Some(game) = self.pop_ready() {
            return Ok(Some(game));
        }
        let taken = self.rx.lock().ok().and_then(|mut g| g.take());
        let Some(mut rx) = taken else {
            return Err(PyRuntimeError::new_err(
                "this iterator is in use by another thread",
            ));
        };
        loop {
            // A batch already there is taken without releasing the GIL.
            let got = match rx.try_recv() {
                Ok(batch) => Ok(batch),
                Err(TryRecvError::Disconnected) => Err(RecvTimeoutError::Disconnected),
                Err(TryRecvError::Empty) => {
                    let (back, got) = py.detach(move || {
                        let got = rx.recv_timeout(Duration::from_millis(100));
                        (rx, got)
                    });
                    rx = back;
                    got
                }
            };
            match got {
                Ok(batch) => {
                    if let Ok(mut ready) = self.ready.lock() {
                        ready.extend(batch);
                    }
                    if let Some(game) = self.pop_ready() {
                        self.put_back(rx);
                        return Ok(Some(game));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    // Let Ctrl-C through while waiting.
                    if let Err(e) = py.check_signals() {
                        self.put_back(rx);
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.put_back(rx);
                    let worker = self.worker.lock().ok().and_then(|mut w| w.take());
                    if let Some(w) = worker {
                        if py.detach(|| w.join()).is_err() {
                            return Err(PyRuntimeError::new_err(
                                "shogitk: the reading thread failed (a bug: please report it)",
                            ));
                        }
                    }
                    // Finished: later calls raise StopIteration again.
                    return Ok(None);
                }
            }
        }
    }
}

impl GameIter {
    fn pop_ready(&self) -> Option<PyRecord> {
        let game = self.ready.lock().ok()?.pop_front()?;
        Some(PyRecord {
            game: Arc::new(game),
        })
    }

    fn put_back(&self, rx: Receiver<Vec<GameData>>) {
        if let Ok(mut g) = self.rx.lock() {
            *g = Some(rx);
        }
    }
}

/// The record files that `read_many` reads for `paths`, in its order (folders walked as
/// `shogi check` walks them): a way to split a collection into tasks.
#[pyfunction]
pub fn files(py: Python<'_>, paths: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let paths = path_list(paths)?;
    Ok(py.detach(|| {
        reading::expand(&paths)
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect()
    }))
}

fn path_list(paths: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if paths.is_instance_of::<PyString>() {
        return Ok(vec![paths.extract()?]);
    }
    if let Ok(p) = paths.extract::<PathBuf>() {
        return Ok(vec![p]);
    }
    paths.try_iter()?.map(|p| p?.extract::<PathBuf>()).collect()
}

/// Read the games of many files in parallel in Rust (the GIL released), yielding Records in
/// input order: files in the order given, folders walked recursively in name order (files
/// with a record extension), games in file order. `jobs` threads read (default: all cores).
/// Nothing stops the iteration: an unreadable file is a Record with its `error`.
#[pyfunction]
#[pyo3(signature = (paths, *, jobs = None, format = None, encoding = None))]
pub fn read_many(
    paths: &Bound<'_, PyAny>,
    jobs: Option<usize>,
    format: Option<&str>,
    encoding: Option<&str>,
) -> PyResult<GameIter> {
    let opts = options(format, encoding)?;
    let paths = path_list(paths)?;
    let jobs = match jobs {
        Some(0) => return Err(PyValueError::new_err("jobs must be at least 1")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start {jobs} threads: {e}")))?;
    // Batches of games, a few in flight: memory stays flat when Python consumes slowly.
    let (tx, rx) = sync_channel::<Vec<GameData>>(4);
    let worker = std::thread::Builder::new()
        .name("shogitk-read-many".into())
        .spawn(move || {
            use rayon::prelude::*;
            let files = reading::expand(&paths);
            // Chunks of files are read in parallel and handed over in order, a chunk at a
            // time (one handover per game would cost more than reading a short game).
            for chunk in files.chunks(jobs * 16) {
                let read: Vec<Vec<GameData>> = pool.install(|| {
                    chunk
                        .par_iter()
                        .map(|p| reading::read_path(p, opts))
                        .collect()
                });
                if tx.send(read.into_iter().flatten().collect()).is_err() {
                    return;
                }
            }
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    Ok(GameIter {
        ready: Mutex::new(std::collections::VecDeque::new()),
        rx: Mutex::new(Some(rx)),
        worker: Mutex::new(Some(worker)),
    })
}

//! Reading and writing records: `read`, `read_many` (with its iterator), `files`, `write`.

use crate::args::{options, path_list};
use crate::errors;
use crate::reading::{self, RecordData};
use crate::record::{PyRecord, write_game};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use shogi_batch::{Event, InputRecord};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Write a record in `format`: "kif", "ki2", "csa", "usi", "sfen" or "jkf" (CSA, USI and
/// SFEN hold the main line only). Raises the record's ReadError when it could not be read.
#[pyfunction]
pub fn write(py: Python<'_>, record: &Bound<'_, PyRecord>, format: &str) -> PyResult<String> {
    write_game(py, record.get().game(), format)
}

fn records_list<'py>(py: Python<'py>, games: Vec<RecordData>) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, games.into_iter().map(|g| PyRecord::new(Arc::new(g))))
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
            .detach(|| reading::read_bytes(bytes, opts))
            .map_err(PyOSError::new_err)?,
        Source::Path(path) => {
            let name = path.to_string_lossy().into_owned();
            let file = std::fs::File::open(&path).map_err(|e| os_error(&path, &e))?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(pyo3::exceptions::PyIsADirectoryError::new_err((
                    21,
                    "is a directory (read_many walks folders)",
                    name,
                )));
            }
            drop(file);
            py.detach(|| reading::read_file(&path, opts))
                .map_err(|reason| PyOSError::new_err((0, reason, name)))?
        }
    };
    // An input that holds no game at all (unknown format, bad encoding, empty) is an error
    // of the call, not a record.
    if let [only] = games.as_slice() {
        if let (true, Some(e)) = (only.input_failed(), &only.error) {
            return Err(errors::read_error(py, e));
        }
    }
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
    ready: Mutex<std::collections::VecDeque<RecordData>>,
    /// Batches of games from the reading thread (None while another thread waits on it).
    rx: Mutex<Option<Receiver<Vec<RecordData>>>>,
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
        Some(PyRecord::new(Arc::new(game)))
    }

    fn put_back(&self, rx: Receiver<Vec<RecordData>>) {
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
        let (inputs, _) = reading::expand(&paths);
        inputs.into_iter().map(|i| i.name).collect()
    }))
}

/// Games handed from the reading thread to the iterator at a time (one handover per game
/// would cost more than reading a short game).
const BATCH: usize = 64;

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
    if jobs == Some(0) {
        return Err(PyValueError::new_err("jobs must be at least 1"));
    }
    let pool =
        shogi_batch::pool(jobs).map_err(|e| PyRuntimeError::new_err(format!("read_many: {e}")))?;
    // Batches of games, a few in flight: memory stays flat when Python consumes slowly.
    let (tx, rx) = sync_channel::<Vec<RecordData>>(4);
    let worker = std::thread::Builder::new()
        .name("shogitk-read-many".into())
        .spawn(move || {
            let (inputs, failed) = reading::expand(&paths);
            let mut batch = Vec::with_capacity(BATCH);
            let flow = shogi_batch::run(
                &inputs,
                &reading::reading(opts),
                &pool,
                |input, game| {
                    let game = match failed.get(&input.name) {
                        // A path that is not there, or a folder that cannot be walked.
                        Some(reason) => InputRecord::failed(1, shogi_batch::read::io_error(reason)),
                        None => game,
                    };
                    RecordData::new(Some(&input.name), game)
                },
                |_, event| {
                    if let Event::Game(game) = event {
                        batch.push(game);
                        if batch.len() >= BATCH {
                            let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                            if tx.send(full).is_err() {
                                return ControlFlow::Break(());
                            }
                        }
                    }
                    ControlFlow::Continue(())
                },
            );
            if flow.is_continue() && !batch.is_empty() {
                let _ = tx.send(batch);
            }
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    Ok(GameIter {
        ready: Mutex::new(std::collections::VecDeque::new()),
        rx: Mutex::new(Some(rx)),
        worker: Mutex::new(Some(worker)),
    })
}

//! The web pages from Python: `Record.to_html()` (the page `shogi view` writes for one record)
//! and `shogitk.serve()` (the server of `shogi serve`), both shogi-web's code.

use crate::record::PyRecord;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use shogi_web::{Analysis, BookLookup, GameView, ServeOptions, Server, game_page};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The page of `rec` as `shogi view RECORD -o FILE.html` writes it.
pub fn record_html(py: Python<'_>, rec: &PyRecord, analysis: Option<PathBuf>) -> PyResult<String> {
    let game = rec.game();
    let Some(record) = &game.record else {
        return Err(rec
            .first_error(py)
            .unwrap_or_else(|| PyValueError::new_err("the record holds no game")));
    };
    let name = game
        .path
        .as_deref()
        .and_then(|p| Path::new(p).file_name())
        .map_or("record".to_string(), |n| n.to_string_lossy().into_owned());
    py.detach(|| {
        let mut view = GameView::of(record, &name);
        if let Some(e) = &game.error {
            view.stopped_by(game.path.as_deref().unwrap_or(&name), e);
        }
        if let Some(path) = &analysis {
            let a = Analysis::open(path).map_err(PyOSError::new_err)?;
            a.annotate(&mut view).map_err(PyOSError::new_err)?;
        }
        Ok(game_page(&view))
    })
}

/// Serves the explorer and game viewer of `shogi serve` over the game database `db` until
/// stopped (Ctrl-C, KeyboardInterrupt), then returns. The address is printed once bound
/// (port 0 picks a free one). The GIL is released while serving.
#[pyfunction]
#[pyo3(signature = (db, *, analysis = None, book = None, bind = "127.0.0.1:8080".to_string(), threads = 4))]
pub fn serve(
    py: Python<'_>,
    db: PathBuf,
    analysis: Option<PathBuf>,
    book: Option<PathBuf>,
    bind: String,
    threads: usize,
) -> PyResult<()> {
    let book = match book {
        Some(path) => {
            let b = py
                .detach(|| shogi_book::MarkBook::open(&path))
                .map_err(|e| PyOSError::new_err(format!("error: {e}")))?;
            Some(Arc::new(b) as Arc<dyn BookLookup>)
        }
        None => None,
    };
    let options = ServeOptions {
        bind,
        analysis,
        threads,
        book,
        ..ServeOptions::default()
    };
    let server = py
        .detach(|| Server::bind(&db, &options))
        .map_err(PyOSError::new_err)?;
    let addr = server.addr();
    let stop = server.stopper();
    let mut note = format!("shogitk.serve: {} at http://{addr}/", db.display());
    if !addr.ip().is_loopback() {
        note.push_str(" (reachable from other machines)");
    }
    let print = py.import("builtins")?.getattr("print")?;
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("flush", true)?;
    print.call((note,), Some(&kwargs))?;
    let running = std::thread::spawn(move || server.run());
    // Wait without the GIL, waking to let Python see Ctrl-C.
    let outcome = loop {
        py.detach(|| std::thread::sleep(Duration::from_millis(100)));
        if running.is_finished() {
            break Ok(());
        }
        if let Err(e) = py.check_signals() {
            break Err(e);
        }
    };
    stop.stop();
    let result = py.detach(|| running.join());
    match (outcome, result) {
        (Err(e), _) if !e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) => Err(e),
        (_, Ok(Err(e))) => Err(PyOSError::new_err(e)),
        (_, Err(_)) => Err(PyOSError::new_err("the server stopped by a failure")),
        _ => Ok(()),
    }
}

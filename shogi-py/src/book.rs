//! `Book`: opening books (YaneuraOu's text and `.ybb`, Apery's `book.bin`) opened, probed,
//! iterated, built from records, the game database or the analysis cache, and written: the
//! shogi-book model, with the file handling of `shogi book` (shogi-cli's `book_sources`).

use crate::errors::ShogiError;
use crate::position::{PyMove, PyPosition};
use crate::record::PyRecord;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use shogi_book::{Book, BookMove, BuildOptions, Builder, Lookup};
use shogi_cli::book_sources as sources;
use shogi_core::{Position, Variant};
use std::path::PathBuf;

fn err(message: String) -> PyErr {
    ShogiError::new_err(message)
}

/// One move of a book position.
#[pyclass(name = "BookMove", module = "shogitk", frozen)]
#[derive(Clone)]
pub struct PyBookMove(BookMove);

#[pymethods]
impl PyBookMove {
    /// The move.
    #[getter(r#move)]
    fn mv(&self) -> PyMove {
        PyMove(self.0.mv)
    }

    /// The expected reply, or None.
    #[getter]
    fn ponder(&self) -> Option<PyMove> {
        self.0.ponder.map(PyMove)
    }

    /// The evaluation after the move, from the mover's view.
    #[getter]
    fn value(&self) -> i32 {
        self.0.value
    }

    /// The search depth behind the value (0 when unknown).
    #[getter]
    fn depth(&self) -> i32 {
        self.0.depth
    }

    /// How many games played the move.
    #[getter]
    fn count(&self) -> u64 {
        self.0.count
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, PyBookMove>>()
            .is_ok_and(|o| o.0 == self.0)
    }

    fn __repr__(&self) -> String {
        let m = &self.0;
        format!(
            "BookMove('{}', ponder={}, value={}, depth={}, count={})",
            m.mv.to_usi(),
            m.ponder
                .map_or("None".to_string(), |p| format!("'{}'", p.to_usi())),
            m.value,
            m.depth,
            m.count
        )
    }
}

/// An opening book in memory.
#[pyclass(name = "Book", module = "shogitk")]
pub struct PyBook {
    book: Book,
}

/// A position argument: a Position, `startpos`, or an SFEN.
fn position_of(obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(p) = obj.extract::<PyRef<'_, PyPosition>>() {
        return Ok(p.pos.clone());
    }
    let text: String = obj.extract()?;
    let text = text.trim();
    if text == "startpos" {
        return Ok(Position::startpos(Variant::Standard));
    }
    let sfen = text.strip_prefix("sfen ").unwrap_or(text);
    Position::from_sfen(sfen).map_err(|e| err(format!("'{text}': {e}")))
}

fn moves_list<'py>(py: Python<'py>, moves: &[BookMove]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, moves.iter().map(|m| PyBookMove(*m)))
}

fn options(max_ply: u32, min_games: u32) -> BuildOptions {
    BuildOptions { max_ply, min_games }
}

/// `book` with the values of the analysis cache at `analysis`, if given.
fn with_analysis(mut book: Book, analysis: Option<PathBuf>, max_ply: u32) -> PyResult<Book> {
    if let Some(path) = analysis {
        let (evals, _) = sources::analysis_book(&path, max_ply).map_err(err)?;
        shogi_book::apply_evaluations(&mut book, &evals);
    }
    Ok(book)
}

#[pymethods]
impl PyBook {
    /// An empty book.
    #[new]
    fn new() -> PyBook {
        PyBook { book: Book::new() }
    }

    /// Reads a book of any of the three formats (YaneuraOu text, `.ybb`, Apery's `book.bin`,
    /// which is walked from the start position). Raises ShogiError with the located reason.
    #[staticmethod]
    fn open(path: PathBuf) -> PyResult<PyBook> {
        let (book, _) = sources::open_any(&path).map_err(err)?;
        Ok(PyBook { book })
    }

    /// A book from records (an iterable of Record): every position up to `max_ply` reached by
    /// at least `min_games` games, each move with its count and a value from the results
    /// (or, with `analysis`, from that analysis cache's engine lines).
    #[staticmethod]
    #[pyo3(signature = (records, *, max_ply = 32, min_games = 1, analysis = None))]
    fn build(
        records: &Bound<'_, PyAny>,
        max_ply: u32,
        min_games: u32,
        analysis: Option<PathBuf>,
    ) -> PyResult<PyBook> {
        let mut builder = Builder::new(options(max_ply, min_games));
        for r in records.try_iter()? {
            let r = r?;
            let r: PyRef<'_, PyRecord> = r.extract()?;
            let Some(record) = r.game().record.as_ref() else {
                continue;
            };
            let moves: Vec<_> = record.main_line().map(|n| n.mv).collect();
            let result = shogi_train::game_result(record);
            builder.add_game(record.start_position(), &moves, result);
        }
        let book = builder.finish().map_err(|e| err(e.to_string()))?;
        let book = with_analysis(book, analysis, max_ply)?;
        Ok(PyBook { book })
    }

    /// A book from the game database of `shogi index`; the keyword filters are those of
    /// `stats` (player, since, until, min_rating, winner, …).
    #[staticmethod]
    #[pyo3(signature = (path, *, max_ply = 32, min_games = 1, analysis = None, **filters))]
    fn from_db(
        path: PathBuf,
        max_ply: u32,
        min_games: u32,
        analysis: Option<PathBuf>,
        filters: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBook> {
        let selection = crate::stats::selection(filters, "Book.from_db")?;
        let mut builder = Builder::new(options(max_ply, min_games));
        sources::add_db_games(&mut builder, &path, &selection).map_err(err)?;
        let book = builder.finish().map_err(|e| err(e.to_string()))?;
        let book = with_analysis(book, analysis, max_ply)?;
        Ok(PyBook { book })
    }

    /// The book of an analysis cache (`shogi analyze --cache`): the engine's lines in every
    /// position searched up to `max_ply`, with their values and depths.
    #[staticmethod]
    #[pyo3(signature = (path, *, max_ply = 32))]
    fn from_analysis(path: PathBuf, max_ply: u32) -> PyResult<PyBook> {
        let (book, _) = sources::analysis_book(&path, max_ply).map_err(err)?;
        Ok(PyBook { book })
    }

    /// The book's moves for `position` (a Position, `startpos` or an SFEN), in the book's
    /// order; empty when the book does not hold it. By default the move number must match
    /// and the flipped position is tried too, as YaneuraOu does.
    #[pyo3(signature = (position, *, ignore_ply = false, flipped = true))]
    fn probe<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        ignore_ply: bool,
        flipped: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let pos = position_of(position)?;
        let found = self.book.probe(
            &pos,
            Lookup {
                ignore_ply,
                flipped,
            },
        );
        moves_list(py, &found.map(|e| e.moves).unwrap_or_default())
    }

    /// Writes the book in the format of the path's extension (`.ybb`, `.bin`, else text),
    /// through a temporary file renamed into place. Returns what the format could not keep.
    fn write(&self, path: PathBuf) -> PyResult<Vec<String>> {
        sources::save_any(&path, &self.book).map_err(err)
    }

    /// The number of moves over all positions.
    #[getter]
    fn moves(&self) -> usize {
        self.book.move_count()
    }

    fn __len__(&self) -> usize {
        self.book.len()
    }

    /// (SFEN with the move number when the book has one, list of BookMove) per position, in
    /// the book's (sorted) order.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut items = Vec::with_capacity(self.book.len());
        for (key, e) in self.book.iter() {
            let sfen = match e.ply {
                Some(p) => format!("{key} {p}"),
                None => key.to_string(),
            };
            let pair = (PyString::new(py, &sfen), moves_list(py, &e.moves)?);
            items.push(PyTuple::new(py, [pair.0.into_any(), pair.1.into_any()])?);
        }
        Ok(PyList::new(py, items)?.try_iter()?.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "<Book {} positions, {} moves>",
            self.book.len(),
            self.book.move_count()
        )
    }
}

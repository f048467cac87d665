//! `Book`: opening books (YaneuraOu's text and `.ybb`, Apery's `book.bin`) opened, probed,
//! iterated, built from records, the game database (shogi-db's `Db::games`) or the analysis
//! cache (shogi-analysis's `CacheReader`), and written: the shogi-book model and files.

use crate::errors::ShogiError;
use crate::position::{PyMove, PyPosition};
use crate::record::PyRecord;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use shogi_analysis::cache::CacheReader;
use shogi_book::{Book, BookMove, BuildOptions, Builder, EvalSort, Lookup, WriteOptions};
use shogi_core::{Position, Variant};
use std::path::{Path, PathBuf};

fn err(message: String) -> PyErr {
    ShogiError::new_err(message)
}

pyo3::create_exception!(
    shogitk,
    BookRowError,
    ShogiError,
    "A row of Book.from_rows that cannot be a book move. Attributes: row (its number, from 1), \
field (sfen, move, value, depth, count or row), reason."
);

/// `BookRowError` for row `row` (from 1): `str()` is `row N: field: reason`.
fn row_error(py: Python<'_>, row: usize, field: &str, reason: String) -> PyErr {
    use crate::errors::{o, s, with_attrs};
    with_attrs::<BookRowError>(
        py,
        format!("row {row}: {field}: {reason}"),
        &[
            ("row", o(py, row)),
            ("field", s(py, field)),
            ("reason", s(py, &reason)),
        ],
    )
}

/// The fields of one row: a tuple or list `(sfen, move[, value[, depth[, count]]])`, or a
/// mapping with the keys `sfen` and `move` (and `value`, `depth`, `count`), as a `Table`'s
/// rows are. Missing numbers take YaneuraOu's defaults (value 0, depth 0, count 1).
fn row_fields<'py>(
    item: &Bound<'py, PyAny>,
) -> Result<[Option<Bound<'py, PyAny>>; 5], (&'static str, String)> {
    const NAMES: [&str; 5] = ["sfen", "move", "value", "depth", "count"];
    let mut out: [Option<Bound<'py, PyAny>>; 5] = Default::default();
    if let Ok(map) = item.cast::<PyDict>() {
        for (i, name) in NAMES.iter().enumerate() {
            out[i] = map.get_item(name).map_err(|e| ("row", e.to_string()))?;
        }
    } else if let Ok(seq) = item.extract::<Vec<Bound<'py, PyAny>>>() {
        if !(2..=5).contains(&seq.len()) {
            return Err((
                "row",
                format!(
                    "{} values: give (sfen, move[, value[, depth[, count]]])",
                    seq.len()
                ),
            ));
        }
        for (i, v) in seq.into_iter().enumerate() {
            out[i] = Some(v);
        }
    } else {
        return Err((
            "row",
            "not a tuple, list or mapping (sfen, move, value, depth, count)".into(),
        ));
    }
    for (i, name) in NAMES[..2].iter().enumerate() {
        if out[i].as_ref().is_none_or(|v| v.is_none()) {
            return Err((name, "missing".into()));
        }
    }
    Ok(out)
}

/// One row as (position, book move), checked: a standard position, a move legal in it.
fn book_row(item: &Bound<'_, PyAny>) -> Result<(Position, BookMove), (&'static str, String)> {
    let [sfen, mv, value, depth, count] = row_fields(item)?;
    let text = |v: Option<Bound<'_, PyAny>>, field| -> Result<String, (&'static str, String)> {
        let v = v.expect("checked present");
        v.extract::<String>()
            .map_err(|_| (field, format!("not text: {v}")))
    };
    let sfen = text(sfen, "sfen")?;
    let trimmed = sfen.trim();
    let pos = match trimmed {
        "startpos" => Position::startpos(Variant::Standard),
        t => Position::from_sfen(t.strip_prefix("sfen ").unwrap_or(t))
            .map_err(|e| ("sfen", format!("'{trimmed}': {e}")))?,
    };
    if pos.variant() != Variant::Standard {
        return Err((
            "sfen",
            "a Mini Shogi position: books hold standard shogi only".into(),
        ));
    }
    let usi = text(mv, "move")?;
    let m =
        shogi_core::Move::from_usi(usi.trim()).map_err(|e| ("move", format!("'{usi}': {e}")))?;
    pos.check_move(m).map_err(|e| {
        (
            "move",
            format!("{usi} is not legal in '{}': {e}", pos.to_sfen()),
        )
    })?;
    fn number<T: for<'a> FromPyObject<'a, 'a>>(
        v: Option<Bound<'_, PyAny>>,
        field: &'static str,
        default: T,
        range: &str,
    ) -> Result<T, (&'static str, String)> {
        match v.filter(|v| !v.is_none()) {
            None => Ok(default),
            Some(v) => v
                .extract::<T>()
                .map_err(|_| (field, format!("{v} is not an integer in {range}"))),
        }
    }
    let book_move = BookMove {
        value: number(value, "value", 0i32, "-2147483648..2147483647")?,
        depth: number(depth, "depth", 0i32, "-2147483648..2147483647")?,
        count: number(count, "count", 1u64, "0..2^64")?,
        ..BookMove::new(m)
    };
    Ok((pos, book_move))
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

/// The book of the analysis cache at `path` as `shogi book build --analysis` makes it
/// (shogi-book's `EvalSort` over every configuration's results): the searches are sorted in
/// about `memory` bytes, in runs in the system's temporary folder beyond it, so only the
/// resulting book is held whole (a Python `Book` is in memory).
fn analysis_book(path: &Path, max_ply: u32, memory: usize) -> PyResult<Book> {
    let reader = CacheReader::open(path).map_err(err)?;
    let mut evals = EvalSort::new(max_ply, memory, &std::env::temp_dir());
    for config in reader.configurations().map_err(err)? {
        for r in reader.results(config.id) {
            let r = r.map_err(err)?;
            let lines = r.lines.iter().map(|l| (l.score, l.moves.first().copied()));
            evals.add(&r.position, r.depth, lines);
        }
    }
    let (mut evals, _) = evals.finish().map_err(|e| err(e.to_string()))?;
    let mut book = Book::new();
    evals
        .for_each(|key, entry| {
            book.insert_key(key.to_string(), entry.clone());
            Ok(())
        })
        .map_err(|e| err(e.to_string()))?;
    Ok(book)
}

/// The MiB the analysis's searches are sorted in by default (as `shogi book build`).
const ANALYSIS_MEMORY_MIB: usize = 512;

/// `book` with the values of the analysis cache at `analysis`, if given.
fn with_analysis(mut book: Book, analysis: Option<PathBuf>, max_ply: u32) -> PyResult<Book> {
    if let Some(path) = analysis {
        let evals = analysis_book(&path, max_ply, ANALYSIS_MEMORY_MIB << 20)?;
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
        let (book, _) = shogi_book::open_book(&path).map_err(|e| err(e.to_string()))?;
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
        let db = shogi_db::Db::open(&path).map_err(|e| err(e.to_string()))?;
        for game in db.games(&selection).map_err(|e| err(e.to_string()))? {
            let g = game.map_err(|e| err(e.to_string()))?;
            builder.add_game(&g.start, &g.moves, shogi_train::winner_result(g.row.winner));
        }
        let book = builder.finish().map_err(|e| err(e.to_string()))?;
        let book = with_analysis(book, analysis, max_ply)?;
        Ok(PyBook { book })
    }

    /// The book of an analysis cache (`shogi analyze --cache`): the engine's lines in every
    /// position searched up to `max_ply`, with their values and depths, built as `shogi book
    /// build --analysis` builds it: the searches sorted within `memory` MiB (in runs in the
    /// temporary folder beyond it). The book returned is held in memory.
    #[staticmethod]
    #[pyo3(signature = (path, *, max_ply = 32, memory = ANALYSIS_MEMORY_MIB))]
    fn from_analysis(path: PathBuf, max_ply: u32, memory: usize) -> PyResult<PyBook> {
        Ok(PyBook {
            book: analysis_book(&path, max_ply, memory.saturating_mul(1 << 20))?,
        })
    }

    /// A book from rows the caller has: an iterable of `(sfen, move, value, depth, count)`
    /// tuples (value, depth and count may be left off: 0, 0, 1), or of mappings with those
    /// keys, such as a `Table`'s rows. A position's ply is its SFEN's move number (the
    /// smallest when rows disagree); its moves are sorted as YaneuraOu writes them (count,
    /// then value). A row that cannot be a book move (a bad SFEN, a Mini Shogi position, a
    /// move that is not legal in its position, a number that is not an integer, a move given
    /// twice for one position) raises `BookRowError` naming the row (from 1) and the field.
    #[staticmethod]
    fn from_rows(py: Python<'_>, rows: &Bound<'_, PyAny>) -> PyResult<PyBook> {
        let mut book = Book::new();
        // Where each (position, move) was first given, to name the earlier row of a repeat.
        let mut first_row: std::collections::HashMap<(String, shogi_core::Move), usize> =
            std::collections::HashMap::new();
        for (i, item) in rows.try_iter()?.enumerate() {
            let row = i + 1;
            let (pos, m) =
                book_row(&item?).map_err(|(field, reason)| row_error(py, row, field, reason))?;
            let key = shogi_book::position_key(&pos);
            if let Some(earlier) = first_row.insert((key.clone(), m.mv), row) {
                return Err(row_error(
                    py,
                    row,
                    "move",
                    format!(
                        "{} given again for this position (first in row {earlier})",
                        m.mv
                    ),
                ));
            }
            let ply = pos.move_number();
            let mut entry = book
                .get(&key)
                .cloned()
                .unwrap_or_else(|| shogi_book::Entry {
                    ply: Some(ply),
                    ..shogi_book::Entry::default()
                });
            entry.ply = entry.ply.map(|p| p.min(ply));
            entry.moves.push(m);
            book.insert_key(key, entry);
        }
        for (_, entry) in book.iter_mut() {
            entry.sort_moves();
        }
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
        let format = shogi_book::BookFormat::of_output(&path);
        shogi_book::write_book(&path, format, &self.book, &WriteOptions::default())
            .map_err(|e| err(e.to_string()))
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

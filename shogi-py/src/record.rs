//! The `Record` class: one game of a record file, as read (header, start, moves, times,
//! comments, ending, result, validity, errors), and the training data of it.

use crate::diagnostic::PyDiagnostic;
use crate::errors;
use crate::position::PyPosition;
use crate::reading::RecordData;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use shogi_batch::{GameRow, InputRecord};
use shogi_kif::{Encoding, Format, Record, Severity};
use std::sync::{Arc, OnceLock};

/// A Record from its pickled form (`Record.__reduce__`); ValueError for bytes that are not
/// one.
#[pyfunction]
#[pyo3(name = "_record_from_state")]
pub fn record_from_state(py: Python<'_>, state: &[u8]) -> PyResult<PyRecord> {
    py.detach(|| crate::state::decode(state))
        .map(|g| PyRecord::new(Arc::new(g)))
        .map_err(PyValueError::new_err)
}

/// One game of a record file. A game that could not be read to its end has `valid == False`,
/// its `error` set, and the record as far as it was read (the header, the start, the moves
/// before the error).
#[pyclass(frozen, name = "Record", module = "shogitk")]
pub struct PyRecord {
    game: Arc<RecordData>,
    /// The game's row of `shogi stats`, made when first asked for.
    row: OnceLock<GameRow>,
}

impl PyRecord {
    /// A Record holding `game`.
    pub fn new(game: Arc<RecordData>) -> PyRecord {
        PyRecord {
            game,
            row: OnceLock::new(),
        }
    }

    /// The game's row of `shogi stats` (shogi-batch's [`GameRow`]).
    pub fn row(&self) -> &GameRow {
        self.row.get_or_init(|| {
            let g = &self.game;
            let game = InputRecord {
                index: g.index,
                line: g.line.unwrap_or(0),
                format: g.format,
                encoding: g.encoding,
                record: g.record.clone(),
                error: g.error.clone(),
                diagnostics: g.diagnostics.clone(),
                main: None,
                ratings: g.ratings,
                panic: None,
            };
            GameRow::new(g.path.as_deref().unwrap_or("<input>"), &game)
        })
    }

    /// The game.
    pub fn game(&self) -> &RecordData {
        &self.game
    }

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
    pub fn first_error(&self, py: Python<'_>) -> Option<PyErr> {
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
    fn index(&self) -> u32 {
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
        self.game.encoding.map(Encoding::name)
    }

    /// The format the input was read as ("kif", "ki2", "csa", "usi", "sfen", "jkf").
    #[getter]
    fn format(&self) -> Option<&'static str> {
        self.game.format.map(Format::name)
    }

    /// The game as one self-contained HTML page (board, moves, comments, tags, evaluation
    /// graph; no external request), the page `shogi view RECORD -o FILE.html` writes. The
    /// evaluations are the record's own comments, or those of `analysis`, a cache of
    /// `shogi analyze --cache`.
    #[pyo3(signature = (*, analysis = None))]
    fn to_html(&self, py: Python<'_>, analysis: Option<std::path::PathBuf>) -> PyResult<String> {
        crate::web::record_html(py, self, analysis)
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
        Some(self.record()?.start.variant().name())
    }

    /// The handicap in Japanese (`平手`, `香落ち`, …), None for a position that is not one.
    #[getter]
    fn handicap(&self) -> Option<&'static str> {
        self.record()?.start.handicap.map(|h| h.japanese())
    }

    /// The SFEN of the start position.
    #[getter]
    fn start_sfen(&self) -> Option<&str> {
        Some(self.record()?.start.sfen())
    }

    /// The SFEN after the last legal main-line move (what `shogi convert --to sfen` prints).
    #[getter]
    fn final_sfen(&self) -> Option<String> {
        Some(self.record()?.final_position()?.to_sfen())
    }

    /// The start position.
    fn start_position(&self) -> Option<PyPosition> {
        Some(PyPosition::wrap(self.record()?.start_position().clone()))
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
        let mut pos = r.start_position().clone();
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

    /// The main line as text in `notation`: "usi" (as `moves`), "japanese" (KI2 style with
    /// the side's mark: `▲７六歩`, `△同　角成`) or "western" (Hodges: `P-7f`, `Bx2b+`). A
    /// recorded foul move is written as far as its position tells.
    #[pyo3(signature = (notation = "usi"))]
    fn moves_text(&self, notation: &str) -> PyResult<Vec<String>> {
        let notation = crate::args::notation_arg(notation)?;
        let Some(r) = self.record() else {
            return Ok(Vec::new());
        };
        let mut pos = r.start_position().clone();
        let mut out = Vec::with_capacity(r.main_line().count());
        let mut last_to = None;
        let mut playable = true;
        for node in r.main_line() {
            if !playable {
                // After a move that could not be played no position tells more.
                out.push(node.mv.to_usi());
                continue;
            }
            out.push(shogi_kif::notation::move_text(
                &pos, node.mv, last_to, notation,
            ));
            last_to = Some(node.mv.to());
            playable = node.foul.is_none() && pos.play(node.mv).is_ok();
        }
        Ok(out)
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

    /// How the main line ends, by the one name `shogi stats` and its `--ending` filter use:
    /// "resign", "checkmate", "repetition", "declaration", "impasse", "timeout", "foul",
    /// "abort", "max-moves", "draw", "no-mate", "sealed", "win-by-default",
    /// "loss-by-default", "other" (the word itself is `ending_ja`), or None when the record
    /// states no ending.
    #[getter]
    fn ending(&self) -> Option<String> {
        let kind = &self.record()?.ending()?.kind;
        Some(shogi_kif::ending_name(kind).to_string())
    }

    /// The ending as the KIF word (`投了`, `千日手`, …).
    #[getter]
    fn ending_ja(&self) -> Option<String> {
        Some(self.record()?.ending()?.kind.japanese().to_string())
    }

    /// The winner as the `winner` column of `shogi stats` gives it: "sente", "gote",
    /// "draw", or None when the game has no result. (Earlier versions said "black"/"white",
    /// None for a draw, as `result` still does.)
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        let w = self.row().winner;
        (w != shogi_kif::Winner::None).then(|| w.name())
    }

    /// The game's row of `shogi stats` as a dict (the same columns and values as
    /// `shogi stats --format jsonl`; `duplicate_of` is None).
    fn stats_row<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::stats::row_dict(py, self.row())
    }

    /// The openings (戦法) and castles (囲い) each side formed, with the classes and the main
    /// 戦型, as `shogi stats --tags` recognises them (the main line up to its first illegal
    /// move); `tag_rules` a rule file read over the built-in rules (`--tag-rules`; a mistake
    /// raises `TagRulesError`). Empty (`applies` False) for Mini Shogi and the handicaps the
    /// taxonomy does not cover.
    #[pyo3(signature = (tag_rules = None))]
    fn tags(
        &self,
        py: Python<'_>,
        tag_rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<crate::tags::PyTags> {
        let rules = crate::tags::rules(py, tag_rules)?;
        Ok(crate::tags::record_tags(self.record(), rules))
    }

    /// Deprecated: use `winner`. The game's result as the training data takes it: "black",
    /// "white", "draw", or None when the record states no result (interrupted, unterminated,
    /// a problem). Judged by the same rules as `winner` (shogi-kif's `outcome`); kept only
    /// because existing scripts read it.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        Some(match shogi_train::game_result(self.record()?)? {
            shogi_train::GameResult::BlackWin => "black",
            shogi_train::GameResult::WhiteWin => "white",
            shogi_train::GameResult::Draw => "draw",
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
        let options = shogi_train::TrainingOptions {
            skip_first,
            skip_draws,
            skip_declarations,
            keep_unfinished,
        };
        let entries = match self.record() {
            Some(r) => py
                .detach(|| shogi_train::entries(r, &options))
                .unwrap_or_default(),
            None => Vec::new(),
        };
        let encode_error = |e: shogi_train::EncodeError| {
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

    /// What writing the record in `format` does not keep, one phrase each ("3 times",
    /// "1 variation"): the same list `shogi convert` warns with. Empty when the written text
    /// reads back as the same record.
    fn losses(&self, py: Python<'_>, format: &str) -> PyResult<Vec<String>> {
        game_losses(py, &self.game, format)
    }

    /// Pickling (Dask, multiprocessing): the record with everything it holds, as bytes.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let rebuild = py.import("shogitk")?.getattr("_record_from_state")?;
        let bytes = py.detach(|| crate::state::encode(&self.game));
        Ok((rebuild, (PyBytes::new(py, &bytes),)))
    }

    /// Equal when everything is: the record (moves, variations, times, comments, header,
    /// source lines), where it was read from, its error and diagnostics.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyRecord>()
            .is_ok_and(|o| Arc::ptr_eq(&self.game, &o.get().game) || *self.game == *o.get().game)
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

/// The game written in `format` (ValueError for an unknown format; the game's ReadError when
/// it holds no record).
pub fn write_game(py: Python<'_>, game: &RecordData, format: &str) -> PyResult<String> {
    let format = crate::args::parse_format(format)?;
    let Some(record) = &game.record else {
        return Err(match &game.error {
            Some(e) => errors::read_error(py, e),
            None => PyValueError::new_err("the game holds no record"),
        });
    };
    Ok(py.detach(|| shogi_kif::write(record, format)))
}

/// What writing the game in `format` would not keep (see `Record.losses`).
pub fn game_losses(py: Python<'_>, game: &RecordData, format: &str) -> PyResult<Vec<String>> {
    let format = crate::args::parse_format(format)?;
    let Some(record) = &game.record else {
        return Err(match &game.error {
            Some(e) => errors::read_error(py, e),
            None => PyValueError::new_err("the game holds no record"),
        });
    };
    let losses = shogi_kif::losses(record, format);
    Ok(losses.iter().map(ToString::to_string).collect())
}

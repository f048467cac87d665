//! `Position` and `Move`.

use crate::args::{color_name, notation_arg, rows};
use crate::errors::{self, IllegalMoveError, InvalidMoveError, o, s, with_attrs};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use shogi_core::{Color, Move, Outcome, Position, Role, Square, Variant};

/// The deepest perft accepted: beyond it a count runs for days.
const MAX_PERFT_DEPTH: u32 = 12;

/// A move: `str()` is its USI text (`7g7f`, `8h2b+`, `P*5e`).
///
/// A Move compares equal to another Move with the same USI text and to that text itself
/// (`Move == "7g7f"`), and hashes like that text, so `"7g7f" in pos.legal_moves()` and
/// dictionaries keyed by USI strings both work.
#[pyclass(frozen, freelist = 1024, name = "Move", module = "shogitk")]
#[derive(Clone, Copy)]
pub struct PyMove(pub Move);

fn parse_usi_move(py: Python<'_>, text: &str) -> PyResult<Move> {
    Move::from_usi(text).map_err(|e| {
        with_attrs::<InvalidMoveError>(
            py,
            e.to_string(),
            &[
                ("move", s(py, text)),
                ("position", o(py, e.position)),
                ("reason", s(py, e.message)),
            ],
        )
    })
}

/// A Move, or USI text parsed as one.
fn move_arg(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(m) = value.cast::<PyMove>() {
        return Ok(m.get().0);
    }
    if let Ok(text) = value.cast::<PyString>() {
        return parse_usi_move(py, &text.to_cow()?);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "a move is a Move or a USI string such as '7g7f'",
    ))
}

#[pymethods]
impl PyMove {
    /// A move from its USI text; raises InvalidMoveError when the text is not a USI move.
    #[new]
    fn new(py: Python<'_>, usi: &str) -> PyResult<PyMove> {
        parse_usi_move(py, usi).map(PyMove)
    }

    /// The USI text.
    #[getter]
    fn usi(&self) -> String {
        self.0.to_usi()
    }

    /// The source square (`"7g"`), None for a drop.
    #[getter(from_square)]
    fn source(&self) -> Option<String> {
        self.0.from().map(Square::usi)
    }

    /// The destination square (`"7f"`).
    #[getter(to_square)]
    fn destination(&self) -> String {
        self.0.to().usi()
    }

    /// Whether the piece promotes.
    #[getter]
    fn is_promotion(&self) -> bool {
        self.0.is_promotion()
    }

    /// Whether the move drops a piece from hand.
    #[getter]
    fn is_drop(&self) -> bool {
        self.0.is_drop()
    }

    /// The dropped piece as an SFEN letter (`"P"`), None for a board move.
    #[getter]
    fn drop_piece(&self) -> Option<String> {
        match self.0 {
            Move::Drop { role, .. } => Some(role.sfen()),
            Move::Normal { .. } => None,
        }
    }

    /// The 16-bit training-data encoding of the move: "cshogi" (hcpe's `bestMove16`, cshogi's
    /// `move16`) or "yaneuraou" (psv's `move`).
    #[pyo3(signature = (format = "cshogi"))]
    fn move16(&self, py: Python<'_>, format: &str) -> PyResult<u16> {
        move16_format(format)?
            .encode(self.0)
            .map_err(|e| errors::with_attrs::<errors::ShogiError>(py, e.to_string(), &[]))
    }

    fn __str__(&self) -> String {
        self.0.to_usi()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.0.to_usi())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(m) = other.cast::<PyMove>() {
            return m.get().0 == self.0;
        }
        if let Ok(text) = other.cast::<PyString>() {
            return text.to_cow().is_ok_and(|t| t == self.0.to_usi());
        }
        false
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyString::new(py, &self.0.to_usi()).hash()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((py.get_type::<PyMove>().into_any(), (self.0.to_usi(),)))
    }
}

/// The value named `name` among `choices` (two of them), or ValueError naming `what`.
fn one_of<T: Copy>(what: &str, name: &str, choices: [(&str, T); 2]) -> PyResult<T> {
    match choices.iter().find(|(n, _)| *n == name) {
        Some(&(_, v)) => Ok(v),
        None => Err(PyValueError::new_err(format!(
            "unknown {what} {name:?}: expected '{}' or '{}'",
            choices[0].0, choices[1].0
        ))),
    }
}

fn move16_format(name: &str) -> PyResult<shogi_train::Move16Format> {
    use shogi_train::Move16Format::{Cshogi, YaneuraOu};
    one_of(
        "move16 format",
        name,
        [("cshogi", Cshogi), ("yaneuraou", YaneuraOu)],
    )
}

fn packed_format(name: &str) -> PyResult<shogi_train::PositionFormat> {
    use shogi_train::PositionFormat::{Hcp, PackedSfen};
    one_of("packed format", name, [("hcp", Hcp), ("psfen", PackedSfen)])
}

/// The legal moves of a position: a read-only sequence of Move objects, each made when it is
/// looked at (so that asking for the moves costs about one Python object). `in` takes a Move
/// or USI text; `usi()` gives all the moves as text at once; it compares equal to a sequence
/// of the same moves (Moves or USI strings) in the same order.
#[pyclass(frozen, sequence, name = "MoveList", module = "shogitk")]
pub struct PyMoveList(Box<[Move]>);

#[pymethods]
impl PyMoveList {
    fn __len__(&self) -> usize {
        self.0.len()
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(slice) = index.cast::<pyo3::types::PySlice>() {
            let ind = slice.indices(self.0.len() as isize)?;
            let picked = (0..ind.slicelength).map(|k| {
                let at = ind.start + k as isize * ind.step;
                PyMove(self.0[at as usize])
            });
            return Ok(PyList::new(py, picked)?.into_any());
        }
        let i: isize = index.extract()?;
        let n = self.0.len() as isize;
        let at = if i < 0 { i + n } else { i };
        if !(0..n).contains(&at) {
            return Err(pyo3::exceptions::PyIndexError::new_err(
                "move index out of range",
            ));
        }
        Ok(Bound::new(py, PyMove(self.0[at as usize]))?.into_any())
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> bool {
        if let Ok(m) = item.cast::<PyMove>() {
            return self.0.contains(&m.get().0);
        }
        if let Ok(text) = item.cast::<PyString>() {
            if let Ok(m) = text
                .to_cow()
                .map_err(|_| ())
                .and_then(|t| Move::from_usi(&t).map_err(|_| ()))
            {
                return self.0.contains(&m);
            }
        }
        false
    }

    fn __iter__(slf: Bound<'_, Self>) -> MoveIter {
        MoveIter {
            list: slf.unbind(),
            next: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(o) = other.cast::<PyMoveList>() {
            return o.get().0 == self.0;
        }
        if other.is_instance_of::<PyString>() {
            return false;
        }
        let Ok(len) = other.len() else {
            return false;
        };
        len == self.0.len()
            && self
                .0
                .iter()
                .enumerate()
                .all(|(i, m)| other.get_item(i).is_ok_and(|x| PyMove(*m).__eq__(&x)))
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    /// The moves as USI text.
    fn usi(&self) -> Vec<String> {
        self.0.iter().map(|m| m.to_usi()).collect()
    }

    fn __repr__(&self) -> String {
        let items: Vec<String> = self
            .0
            .iter()
            .map(|m| format!("Move('{}')", m.to_usi()))
            .collect();
        format!("MoveList([{}])", items.join(", "))
    }
}

/// An iterator over a MoveList.
#[pyclass(frozen, name = "MoveIterator", module = "shogitk")]
pub struct MoveIter {
    list: Py<PyMoveList>,
    next: std::sync::atomic::AtomicUsize,
}

#[pymethods]
impl MoveIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self) -> Option<PyMove> {
        use std::sync::atomic::Ordering;
        let moves = &self.list.get().0;
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        moves.get(i).map(|m| PyMove(*m))
    }
}

/// A legal shogi or Mini Shogi position, with the moves pushed on it (for `pop`).
#[pyclass(name = "Position", module = "shogitk")]
#[derive(Clone)]
pub struct PyPosition {
    pub pos: Position,
    history: Vec<(Position, Move)>,
}

impl PyPosition {
    /// A position with no history.
    pub fn wrap(pos: Position) -> PyPosition {
        PyPosition {
            pos,
            history: Vec::new(),
        }
    }

    /// The position before the first pushed move and the moves pushed since (for engines,
    /// which want the game's moves).
    pub fn start_and_moves(&self) -> (Position, Vec<Move>) {
        match self.history.first() {
            Some((start, _)) => (start.clone(), self.history.iter().map(|h| h.1).collect()),
            None => (self.pos.clone(), Vec::new()),
        }
    }

    /// `value` (a Move or USI text) as a move that is legal here: InvalidMoveError for text
    /// that is not a USI move, IllegalMoveError (with the rule broken) for an illegal one.
    fn legal_move(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Move> {
        let m = move_arg(py, value)?;
        if let Err(e) = self.pos.check_move(m) {
            let usi = m.to_usi();
            return Err(with_attrs::<IllegalMoveError>(
                py,
                format!("illegal move {usi}: {}", e.message()),
                &[
                    ("move", s(py, &usi)),
                    ("sfen", s(py, &self.pos.to_sfen())),
                    ("reason", s(py, e.message())),
                ],
            ));
        }
        Ok(m)
    }
}

pub fn parse_variant(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>().map_err(|_| {
        PyValueError::new_err(format!(
            "unknown variant {name:?}: expected 'standard' or 'mini'"
        ))
    })
}

pub fn parse_color(name: &str) -> PyResult<Color> {
    match name {
        "black" | "b" | "sente" => Ok(Color::Black),
        "white" | "w" | "gote" => Ok(Color::White),
        _ => Err(PyValueError::new_err(format!(
            "unknown color {name:?}: expected 'black' or 'white'"
        ))),
    }
}

/// The hand roles of a variant, in SFEN order (R B G S N L P).
pub fn hand_roles(variant: Variant) -> impl Iterator<Item = Role> {
    Role::HAND_SFEN_ORDER
        .into_iter()
        .filter(move |r| variant.has_role(*r))
}

fn square_arg(pos: &Position, text: &str) -> PyResult<Square> {
    Square::from_usi(text)
        .filter(|sq| pos.variant().contains(*sq))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{text:?} is not a square of the {} board (USI squares such as '7g')",
                pos.variant().name()
            ))
        })
}

#[pymethods]
impl PyPosition {
    /// A position from an SFEN (`Position("lnsgkgsnl/… b - 1")`); `Position()` or
    /// `Position("startpos")` is the standard start. Raises SfenError for a bad SFEN.
    ///
    /// `relax` accepts setups that are not game positions, as records of problems hold them:
    /// "tsume" (a side without a king, extra pieces) or "permissive" (also nifu and pieces
    /// that can never move).
    #[new]
    #[pyo3(signature = (sfen = None, *, relax = None))]
    fn new(py: Python<'_>, sfen: Option<&str>, relax: Option<&str>) -> PyResult<PyPosition> {
        use shogi_core::SetupOptions;
        let options = match relax {
            None => SetupOptions::default(),
            Some(name) => one_of(
                "relax",
                name,
                [
                    ("tsume", SetupOptions::TSUME),
                    ("permissive", SetupOptions::PERMISSIVE),
                ],
            )?,
        };
        match sfen.map(str::trim) {
            None | Some("startpos") => Ok(PyPosition::wrap(Position::startpos(Variant::Standard))),
            Some(text) => Position::from_sfen_with(text, options)
                .map(PyPosition::wrap)
                .map_err(|e| errors::sfen_error(py, text, &e)),
        }
    }

    /// The start position of `variant` ("standard" or "mini").
    #[staticmethod]
    #[pyo3(signature = (variant = "standard"))]
    fn startpos(variant: &str) -> PyResult<PyPosition> {
        Ok(PyPosition::wrap(Position::startpos(parse_variant(
            variant,
        )?)))
    }

    /// The position of a USI `position` line (`position startpos moves 7g7f …`, or
    /// `sfen … moves …`), with its moves pushed (so `pop` takes them back). Raises ShogiError
    /// subclasses for a bad line or an illegal move.
    #[staticmethod]
    #[pyo3(signature = (line, variant = "standard"))]
    fn from_usi(py: Python<'_>, line: &str, variant: &str) -> PyResult<PyPosition> {
        let parsed = shogi_core::UsiPosition::parse(line, parse_variant(variant)?)
            .map_err(|e| errors::with_attrs::<errors::ShogiError>(py, e.to_string(), &[]))?;
        let mut p = PyPosition::wrap(parsed.start);
        for m in parsed.moves {
            let before = p.pos.clone();
            p.pos.play_unchecked(m);
            p.history.push((before, m));
        }
        Ok(p)
    }

    /// The 32-byte packed position of training data: "hcp" (cshogi's `to_hcp`, in hcpe
    /// entries) or "psfen" (YaneuraOu's PackedSfen, in psv entries). The move number is not
    /// kept. Raises ShogiError for what the formats cannot hold (Mini Shogi, a missing king,
    /// extra pieces).
    #[pyo3(signature = (format = "hcp"))]
    fn packed<'py>(&self, py: Python<'py>, format: &str) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = packed_format(format)?
            .encode_to_array(&self.pos)
            .map_err(|e| errors::with_attrs::<errors::ShogiError>(py, e.to_string(), &[]))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The position of 32 packed bytes ("hcp" or "psfen", see `packed`), move number 1.
    /// Raises ShogiError for bytes that are not a legal position.
    #[staticmethod]
    #[pyo3(signature = (data, format = "hcp"))]
    fn from_packed(py: Python<'_>, data: &[u8], format: &str) -> PyResult<PyPosition> {
        let format = packed_format(format)?;
        let bytes: &[u8; 32] = data.try_into().map_err(|_| {
            PyValueError::new_err(format!("a packed position is 32 bytes, not {}", data.len()))
        })?;
        format
            .decode(bytes)
            .map(PyPosition::wrap)
            .map_err(|e| errors::with_attrs::<errors::ShogiError>(py, e.to_string(), &[]))
    }

    /// The legal move a 16-bit training-data value spells here ("cshogi" or "yaneuraou", see
    /// `Move.move16`). Raises ShogiError for a value that is no move, or not a legal one.
    #[pyo3(signature = (value, format = "cshogi"))]
    fn move_from_move16(&self, py: Python<'_>, value: u16, format: &str) -> PyResult<PyMove> {
        move16_format(format)?
            .decode(value, &self.pos)
            .map(PyMove)
            .map_err(|e| errors::with_attrs::<errors::ShogiError>(py, e.to_string(), &[]))
    }

    /// The SFEN of the position.
    fn sfen(&self) -> String {
        self.pos.to_sfen()
    }

    /// "standard" or "mini".
    #[getter]
    fn variant(&self) -> &'static str {
        self.pos.variant().name()
    }

    /// The side to move: "black" (sente) or "white" (gote).
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.pos.side_to_move())
    }

    /// The move number of SFEN (1 at the start).
    #[getter]
    fn move_number(&self) -> u32 {
        self.pos.move_number()
    }

    /// The 64-bit Zobrist key of the position (stable across versions).
    #[getter]
    fn key(&self) -> u64 {
        self.pos.key()
    }

    /// The legal moves, in the engine's generation order: a MoveList (a sequence of Move
    /// objects, made as they are looked at).
    fn legal_moves(&self) -> PyMoveList {
        PyMoveList(self.pos.legal_moves().as_slice().into())
    }

    /// Whether `move` (a Move or USI text) is legal here. Malformed text is not legal.
    fn is_legal(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        match move_arg(py, r#move) {
            Ok(m) => Ok(self.pos.is_legal(m)),
            Err(e) if e.is_instance_of::<InvalidMoveError>(py) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Play a move (a Move or USI text). Raises InvalidMoveError for text that is not a USI
    /// move and IllegalMoveError, with the rule broken, for an illegal one.
    fn push(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = self.legal_move(py, r#move)?;
        let before = self.pos.clone();
        self.pos.play_unchecked(m);
        self.history.push((before, m));
        Ok(())
    }

    /// The text of a legal move (a Move or USI text) in `notation`: "usi" (`7g7f`),
    /// "japanese" (KI2 style with the side's mark, `▲７六歩`; 同 after a pushed move to that
    /// square) or "western" (Hodges, `P-7f`). Raises IllegalMoveError for an illegal move.
    #[pyo3(signature = (r#move, notation = "usi"))]
    fn move_text(
        &self,
        py: Python<'_>,
        r#move: &Bound<'_, PyAny>,
        notation: &str,
    ) -> PyResult<String> {
        let notation = notation_arg(notation)?;
        let m = self.legal_move(py, r#move)?;
        let last_to = self.history.last().map(|(_, m)| m.to());
        Ok(shogi_kif::notation::move_text(
            &self.pos, m, last_to, notation,
        ))
    }

    /// The same as `push`.
    fn play(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.push(py, r#move)
    }

    /// Take back the last pushed move and return it; IndexError when none is left.
    fn pop(&mut self) -> PyResult<PyMove> {
        let (before, m) = self
            .history
            .pop()
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("no move to pop"))?;
        self.pos = before;
        Ok(PyMove(m))
    }

    /// The moves pushed since the position was made.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.history.iter().map(|(_, m)| PyMove(*m)).collect()
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.pos.is_checkmate()
    }

    /// How the game stands by the position alone: None while moves remain, else a dict
    /// `{"reason": "checkmate" | "no_legal_moves", "winner": "black" | "white"}`.
    /// (Repetition needs the game's history: records report it in their diagnostics.)
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(outcome) = self.pos.outcome() else {
            return Ok(None);
        };
        let reason = match outcome {
            Outcome::Checkmate { .. } => "checkmate",
            Outcome::NoLegalMoves { .. } => "no_legal_moves",
            Outcome::Repetition => "repetition",
            Outcome::PerpetualCheck { .. } => "perpetual_check",
        };
        let d = PyDict::new(py);
        d.set_item("reason", reason)?;
        d.set_item("winner", outcome.winner().map(color_name))?;
        Ok(Some(d))
    }

    /// The number of leaf nodes of the legal move tree `depth` plies deep (the GIL is released
    /// while counting).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > MAX_PERFT_DEPTH {
            return Err(PyValueError::new_err(format!(
                "perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
            )));
        }
        let pos = self.pos.clone();
        Ok(py.detach(move || shogi_perft::perft(&pos, depth)))
    }

    /// Solves the position for a mate by the side to move (df-pn; the GIL is released):
    /// `(result, length, pv)` with result `"mate"`, `"nomate"` (proven: no mate at all),
    /// `"nomate within N"` (proven: none within `depth` = N plies) or `"unknown:nodes"` / `"unknown:time"` / `"unknown:depth"` /
    /// `"unknown:memory"`, the mate's length in plies (None unless a mate) and its line as USI
    /// moves. `shortest` proves the minimal length under the composed-tsume conventions.
    /// The table takes `memory_mb` MiB (and 512 KiB at most for a cache of evasion counts)
    /// and never grows; it is kept for the next call on the same thread (with the same
    /// `memory_mb`), so that a loop over many positions does not set up a table each time.
    #[pyo3(signature = (nodes = 1_000_000, shortest = false, depth = None, time = None, memory_mb = 64))]
    fn mate(
        &self,
        py: Python<'_>,
        nodes: u64,
        shortest: bool,
        depth: Option<u16>,
        time: Option<f64>,
        memory_mb: usize,
    ) -> PyResult<(String, Option<u16>, Vec<String>)> {
        let time = match time {
            Some(t) if !(t.is_finite() && t > 0.0) => {
                return Err(PyValueError::new_err(
                    "time must be a positive number of seconds",
                ));
            }
            t => t.map(std::time::Duration::from_secs_f64),
        };
        if memory_mb == 0 || memory_mb > 65536 {
            return Err(PyValueError::new_err(
                "memory_mb must be between 1 and 65536",
            ));
        }
        let options = shogi_mate::Options {
            nodes,
            time,
            max_depth: depth,
            shortest,
            tsume: shortest,
        };
        let pos = self.pos.clone();
        let answer =
            py.detach(move || shogi_mate::solve_on_this_thread(memory_mb << 20, &pos, &options));
        let answer = answer.map_err(|e| PyValueError::new_err(e.to_string()))?;
        let verdict = answer.result.verdict();
        Ok(match answer.result {
            shogi_mate::MateResult::Mate { pv } => (
                verdict,
                answer.length,
                pv.iter().map(|m| m.to_usi()).collect(),
            ),
            _ => (verdict, None, Vec::new()),
        })
    }

    /// The piece on a USI square (`"5i"`) as SFEN text (`"K"`, `"+p"`), None when empty.
    fn piece_at(&self, square: &str) -> PyResult<Option<String>> {
        let sq = square_arg(&self.pos, square)?;
        Ok(self.pos.piece_at(sq).map(|p| p.sfen()))
    }

    /// The board as rows from the top (rank a), each from file 9 (5 in Mini Shogi) to file 1:
    /// SFEN piece text (uppercase black, lowercase white, `+` promoted) or None.
    fn board(&self) -> Vec<Vec<Option<String>>> {
        rows(self.pos.variant())
            .map(|row| {
                row.map(|sq| self.pos.piece_at(sq).map(|p| p.sfen()))
                    .collect()
            })
            .collect()
    }

    /// A side's pieces in hand: SFEN letter (`"R"`, `"P"`, …) to count, every hand piece of
    /// the variant included.
    fn hand<'py>(&self, py: Python<'py>, color: &str) -> PyResult<Bound<'py, PyDict>> {
        let hand = self.pos.hand(parse_color(color)?);
        let d = PyDict::new(py);
        for role in hand_roles(self.pos.variant()) {
            d.set_item(role.sfen(), hand.count(role))?;
        }
        Ok(d)
    }

    /// Both hands: `{"black": {...}, "white": {...}}` as `hand` gives them.
    #[getter]
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("black", self.hand(py, "black")?)?;
        d.set_item("white", self.hand(py, "white")?)?;
        Ok(d)
    }

    /// A copy (with the same move stack).
    fn copy(&self) -> PyPosition {
        self.clone()
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.clone()
    }

    /// Positions are equal when their SFENs (board, hands, side, move number) are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyPosition>()
            .is_ok_and(|p| p.borrow().pos == self.pos)
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            py.get_type::<PyPosition>().into_any(),
            (self.pos.to_sfen(),),
        ))
    }

    /// A text diagram: the SFEN, then the board (ranks a… down the left, files across the
    /// top, uppercase black, lowercase white, `+` promoted) and the hands.
    fn __repr__(&self) -> String {
        crate::svg::text_diagram(&self.pos)
    }

    fn __str__(&self) -> String {
        crate::svg::text_diagram(&self.pos)
    }

    /// An SVG board for Jupyter: kanji pieces, gote's turned 180°, both hands.
    fn _repr_svg_(&self) -> String {
        shogi_kif::board::svg(&self.pos)
    }

    /// The SVG board and the SFEN, for Jupyter.
    fn _repr_html_(&self) -> String {
        format!(
            "<div class=\"shogitk-position\">{}<div><code>{}</code></div></div>",
            shogi_kif::board::svg(&self.pos),
            self.pos.to_sfen()
        )
    }
}

//! Openings (戦法) and castles (囲い) from Python: `Record.tags()`'s `Tag` and `Tags`, the
//! rule files of `tag_rules=`, and the tag filters of `shogitk.stats` (the recogniser is
//! shogi-openings', the names and columns shogi-batch's, as `shogi stats --tags` uses them).

use crate::errors::{o, s, with_attrs};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use shogi_batch::filter_text::{TagFlag, tag_side, tag_want};
use shogi_batch::{Selection, TagFilter, TagSide, main_name};
use shogi_core::Color;
use shogi_kif::Record;
use shogi_openings::{GameTags, Kind, RuleSet, TagHit};
use std::path::PathBuf;
use std::sync::Mutex;

/// The exceptions of tags and filters.
pub mod exc {
    use crate::errors::ShogiError;

    pyo3::create_exception!(
        shogitk,
        TagRulesError,
        ShogiError,
        "A rule file (`tag_rules=`) with a mistake, located as `shogi --tag-rules` locates it. \
Attributes: path, line, column, reason."
    );
    pyo3::create_exception!(
        shogitk,
        FilterError,
        ShogiError,
        "A selection filter with a bad value (an unknown opening name says which are nearest). \
Attributes: keyword, value, reason."
    );
}

/// `FilterError` for keyword `keyword` given `value`: `str()` is `keyword: reason`.
pub fn filter_error(py: Python<'_>, keyword: &str, value: &str, reason: &str) -> PyErr {
    with_attrs::<exc::FilterError>(
        py,
        format!("{keyword}: {reason}"),
        &[
            ("keyword", s(py, keyword)),
            ("value", s(py, value)),
            ("reason", s(py, reason)),
        ],
    )
}

/// The rules of a `tag_rules` argument: the built-in ones, or a user's file over them (each
/// file's text parsed once per process and kept to its end, as the CLI keeps it). A file
/// that cannot be read is an OSError, a mistake in it a `TagRulesError` at its
/// line and column.
pub fn rules(py: Python<'_>, tag_rules: Option<&Bound<'_, PyAny>>) -> PyResult<&'static RuleSet> {
    type Loaded = Vec<(PathBuf, String, &'static RuleSet)>;
    static LOADED: Mutex<Loaded> = Mutex::new(Vec::new());
    let Some(arg) = tag_rules.filter(|a| !a.is_none()) else {
        return Ok(RuleSet::builtin());
    };
    let path: PathBuf = arg.extract()?;
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|e| {
        PyOSError::new_err((e.raw_os_error().unwrap_or(0), e.to_string(), shown.clone()))
    })?;
    let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&(_, _, rules)) = loaded.iter().find(|(p, t, _)| *p == path && *t == text) {
        return Ok(rules);
    }
    let rules = py
        .detach(|| RuleSet::with_user_file(&shown, &text))
        .map_err(|e| {
            with_attrs::<exc::TagRulesError>(
                py,
                e.to_string(),
                &[
                    ("path", s(py, &e.origin)),
                    ("line", o(py, e.line)),
                    ("column", o(py, e.col)),
                    ("reason", s(py, &e.message)),
                ],
            )
        })?;
    let rules: &'static RuleSet = Box::leak(Box::new(rules));
    loaded.push((path, text, rules));
    Ok(rules)
}

/// The keywords of the tag filters (those of `--opening`, `--castle`, `--class`, `--side`).
pub const TAG_FILTERS: &[&str] = &["opening", "castle", "class", "side"];

/// `s` with the tag filters among `values` (keyword, text), looked up in `rules`; `side`
/// applies to all of them, wherever it comes. A bad name is a `FilterError` that suggests
/// the nearest names.
pub fn tag_filters(
    py: Python<'_>,
    mut s: Selection,
    values: &[(String, String)],
    rules: &'static RuleSet,
) -> PyResult<Selection> {
    let mut side = TagSide::Either;
    if let Some((_, v)) = values.iter().find(|(k, _)| k == "side") {
        side = tag_side(v).map_err(|e| filter_error(py, "side", v, &e))?;
    }
    for (key, v) in values {
        let flag = match key.as_str() {
            "opening" => TagFlag::Opening,
            "castle" => TagFlag::Castle,
            "class" => TagFlag::Class,
            _ => continue,
        };
        let want = tag_want(rules, flag, v).map_err(|e| filter_error(py, key, v, &e))?;
        s = s.tag(TagFilter { rules, want, side });
    }
    Ok(s)
}

/// One opening or castle a side formed.
#[pyclass(frozen, eq, name = "Tag", module = "shogitk")]
#[derive(Clone, Debug, PartialEq)]
pub struct PyTag {
    /// The canonical name (`四間飛車`, `美濃囲い`).
    #[pyo3(get)]
    name: String,
    /// Whose: "sente" or "gote" (the 下手 and the 上手 in a lance handicap).
    #[pyo3(get)]
    side: &'static str,
    /// "opening" (戦法) or "castle" (囲い).
    #[pyo3(get)]
    kind: &'static str,
    /// The ply (from 1, from the start of the record) of the move that first completed it.
    #[pyo3(get)]
    ply: u32,
    /// Its family line above it, nearest first, ending at its class (`ゴキゲン中飛車`:
    /// `["中飛車", "振り飛車"]`).
    #[pyo3(get)]
    family: Vec<String>,
    /// The English name, where the rules give one.
    #[pyo3(get)]
    english: Option<String>,
}

#[pymethods]
impl PyTag {
    /// Whether the tag is `name` or a descendant of it (`name` is one of its family).
    fn within(&self, name: &str) -> bool {
        self.name == name || self.family.iter().any(|f| f == name)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Tag({}, side='{}', kind='{}', ply={})",
            py_repr(py, &self.name)?,
            self.side,
            self.kind,
            self.ply
        ))
    }
}

/// A game's openings and castles with its classes and main 戦型: the values of the tag
/// columns of `shogi stats --tags`, with each tag typed.
#[pyclass(frozen, name = "Tags", module = "shogitk")]
#[derive(Clone, Debug)]
pub struct PyTags {
    /// Whether the taxonomy applies to the game (False for Mini Shogi and for the handicaps
    /// it does not cover: then every value is empty).
    #[pyo3(get)]
    applies: bool,
    /// The main 戦型 (the `opening` column): a tag's name, `力戦` where no opening formed,
    /// None where openings formed but none names a 戦型, or where the taxonomy does not apply.
    #[pyo3(get)]
    opening: Option<String>,
    /// `相居飛車`, `対抗形`, `相振り飛車` or `力戦` (None where the taxonomy does not apply).
    #[pyo3(get)]
    game_class: Option<&'static str>,
    /// Sente's class: `居飛車` or `振り飛車`.
    #[pyo3(get)]
    sente_class: Option<&'static str>,
    /// Gote's class.
    #[pyo3(get)]
    gote_class: Option<&'static str>,
    /// Sente's openings in the order they formed.
    #[pyo3(get)]
    sente_openings: Vec<PyTag>,
    /// Gote's openings.
    #[pyo3(get)]
    gote_openings: Vec<PyTag>,
    /// Sente's castles in the order they formed.
    #[pyo3(get)]
    sente_castles: Vec<PyTag>,
    /// Gote's castles.
    #[pyo3(get)]
    gote_castles: Vec<PyTag>,
}

impl PyTags {
    /// Every tag, by ply (sente's first at a tie; openings before castles).
    fn all(&self) -> Vec<PyTag> {
        let mut all: Vec<PyTag> = [
            &self.sente_openings,
            &self.sente_castles,
            &self.gote_openings,
            &self.gote_castles,
        ]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
        all.sort_by_key(|t| t.ply);
        all
    }
}

#[pymethods]
impl PyTags {
    /// Every tag of both sides, by the ply it formed.
    #[getter]
    fn tags(&self) -> Vec<PyTag> {
        self.all()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyTuple::new(py, self.all())?.try_iter()?.into_any())
    }

    fn __len__(&self) -> usize {
        self.sente_openings.len()
            + self.gote_openings.len()
            + self.sente_castles.len()
            + self.gote_castles.len()
    }

    /// The names of `side`'s (`"sente"`, `"gote"`) tags of `kind` (`"opening"`, `"castle"`,
    /// or None for both), in the order they formed.
    #[pyo3(signature = (side, kind = None))]
    fn names<'py>(
        &self,
        py: Python<'py>,
        side: &str,
        kind: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let side = match tag_side(side) {
            Ok(TagSide::Sente) => "sente",
            Ok(TagSide::Gote) => "gote",
            _ => return Err(filter_error(py, "side", side, "expected sente or gote")),
        };
        if kind.is_some_and(|k| k != "opening" && k != "castle") {
            let k = kind.unwrap_or_default();
            return Err(filter_error(
                py,
                "kind",
                k,
                "expected opening, castle or None",
            ));
        }
        let names = self
            .all()
            .into_iter()
            .filter(|t| t.side == side && kind.is_none_or(|k| t.kind == k))
            .map(|t| t.name);
        PyList::new(py, names)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let names = |a: &[PyTag], b: &[PyTag]| -> PyResult<String> {
            let names: Vec<&str> = a.iter().chain(b).map(|t| t.name.as_str()).collect();
            Ok(PyList::new(py, names)?.repr()?.to_string())
        };
        Ok(format!(
            "Tags(opening={}, game_class={}, sente={}, gote={})",
            self.opening
                .as_deref()
                .map_or(Ok("None".to_string()), |o| py_repr(py, o))?,
            self.game_class
                .map_or(Ok("None".to_string()), |c| py_repr(py, c))?,
            names(&self.sente_openings, &self.sente_castles)?,
            names(&self.gote_openings, &self.gote_castles)?,
        ))
    }
}

/// Python's `repr` of a string.
fn py_repr(py: Python<'_>, text: &str) -> PyResult<String> {
    Ok(pyo3::types::PyString::new(py, text).repr()?.to_string())
}

/// The Python tags of one side's hits.
fn side_tags(rules: &RuleSet, hits: &[TagHit], color: Color) -> Vec<PyTag> {
    hits.iter()
        .map(|h| {
            let tag = rules.tag(h.tag);
            PyTag {
                name: tag.name.clone(),
                side: match color {
                    Color::Black => "sente",
                    Color::White => "gote",
                },
                kind: match tag.kind {
                    Kind::Castle => "castle",
                    Kind::Opening | Kind::Class => "opening",
                },
                ply: h.ply,
                family: rules
                    .lineage(h.tag)
                    .skip(1)
                    .map(|t| rules.name(t).to_string())
                    .collect(),
                english: tag.english.clone(),
            }
        })
        .collect()
}

/// The Python value of a game's tags (`None`: the taxonomy does not apply).
pub fn py_tags(tags: Option<&GameTags>, rules: &RuleSet) -> PyTags {
    let Some(t) = tags else {
        return PyTags {
            applies: false,
            opening: None,
            game_class: None,
            sente_class: None,
            gote_class: None,
            sente_openings: Vec::new(),
            gote_openings: Vec::new(),
            sente_castles: Vec::new(),
            gote_castles: Vec::new(),
        };
    };
    PyTags {
        applies: true,
        opening: main_name(t, rules).map(str::to_string),
        game_class: Some(t.class.japanese()),
        sente_class: Some(t.sente.class.japanese()),
        gote_class: Some(t.gote.class.japanese()),
        sente_openings: side_tags(rules, &t.sente.openings, Color::Black),
        gote_openings: side_tags(rules, &t.gote.openings, Color::White),
        sente_castles: side_tags(rules, &t.sente.castles, Color::Black),
        gote_castles: side_tags(rules, &t.gote.castles, Color::White),
    }
}

/// The tags of a record's main line (up to its first illegal move), as `shogi stats --tags`
/// recognises them.
pub fn record_tags(record: Option<&Record>, rules: &RuleSet) -> PyTags {
    let tags = record.and_then(|r| shogi_batch::game_tags(r, rules));
    py_tags(tags.as_ref(), rules)
}

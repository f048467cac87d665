//! Annotated copies: each game written again with the evaluations as comments (ShogiHome's
//! form in KIF, KI2 and JKF; Floodgate's in CSA) and its evaluation graph beside it, never
//! over an input.

use crate::classify::{Class, Classifier};
use crate::error::AnalysisError;
use crate::graph::{Graph, View};
use crate::read::GameIn;
use crate::result::PosResult;
use shogi_batch::Input;
use shogi_core::{Color, Move, Position};
use shogi_kif::eval::{Judgement, Style};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Where the annotated copy of a game goes, and its format.
pub(crate) fn annotated_path(dir: &Path, g: &GameIn) -> (PathBuf, shogi_kif::Format) {
    use shogi_kif::Format;
    let format = match g.format {
        Some(f @ (Format::Kif | Format::Ki2 | Format::Csa | Format::Jkf)) => f,
        _ => Format::Kif,
    };
    let mut p = dir.join(&g.rel);
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into());
    let ext = p
        .extension()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|e| shogi_kif::Format::from_extension(e) == Some(format))
        .unwrap_or_else(|| format.name().to_string());
    let name = if g.index > 1 {
        format!("{stem}-{}.{ext}", g.index)
    } else {
        format!("{stem}.{ext}")
    };
    p.set_file_name(name);
    (p, format)
}

/// The graph beside an annotated record: its name with `.svg` added (`game.kif.svg`), so
/// that `game.kif` and `game.csa` get a graph each.
pub fn svg_path(record: &Path) -> PathBuf {
    let mut s = record.as_os_str().to_os_string();
    s.push(".svg");
    PathBuf::from(s)
}

/// The canonical paths of the inputs (to refuse overwriting one).
pub fn canonical_inputs(inputs: &[Input]) -> HashSet<PathBuf> {
    inputs
        .iter()
        .filter_map(|i| i.path.as_ref())
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect()
}

/// Whether writing `out` would replace one of `inputs` (see [`canonical_inputs`]).
pub fn overwrites(out: &Path, inputs: &HashSet<PathBuf>) -> bool {
    if let Ok(c) = std::fs::canonicalize(out) {
        return inputs.contains(&c);
    }
    // Not there yet: compare through the folder.
    match (out.parent(), out.file_name()) {
        (Some(parent), Some(name)) => {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            std::fs::canonicalize(parent).is_ok_and(|p| inputs.contains(&p.join(name)))
        }
        _ => false,
    }
}

/// Refuses an annotation folder where a copy (or its graph) would replace an input.
pub(crate) fn check_annotate_dir(
    dir: &Path,
    inputs: &[Input],
    input_set: &HashSet<PathBuf>,
) -> Result<(), AnalysisError> {
    for i in inputs {
        let probe = GameIn {
            rel: i.rel.clone(),
            index: 1,
            format: i.path.as_deref().and_then(shogi_kif::Format::from_path),
            ..GameIn::default()
        };
        let (p, _) = annotated_path(dir, &probe);
        if overwrites(&p, input_set) || overwrites(&svg_path(&p), input_set) {
            return Err(AnalysisError::Overwrite {
                path: p,
                input: i.name.clone(),
            });
        }
    }
    Ok(())
}

/// A USI move of `pos`, when legal.
pub(crate) fn legal(pos: &Position, usi: &str) -> Option<Move> {
    Move::from_usi(usi).ok().filter(|m| pos.is_legal(*m))
}

/// What an annotated copy is written with.
pub(crate) struct Annotator<'a> {
    pub dir: &'a Path,
    pub classifier: &'a Classifier,
    /// The engine's name (empty with comments as the source).
    pub engine: &'a str,
    pub inputs: &'a HashSet<PathBuf>,
    /// The graph's vertical axis.
    pub view: View,
}

impl Annotator<'_> {
    /// Writes game `g`'s annotated copy and graph from each position's result and each move's
    /// class; the errors (a file not written, and why) are returned.
    pub fn write(
        &self,
        g: &GameIn,
        per: &[Option<&PosResult>],
        classes: &[Option<Class>],
    ) -> Vec<String> {
        let Some(record) = &g.record else {
            return Vec::new();
        };
        let mut record = record.clone();
        let (path, format) = annotated_path(self.dir, g);
        let style = if format == shogi_kif::Format::Csa {
            Style::Floodgate
        } else {
            Style::ShogiHome
        };
        let mut judgements = Vec::with_capacity(g.moves.len());
        let mut graph = Vec::with_capacity(g.positions.len());
        for (k, pos) in g.positions.iter().enumerate() {
            let r = per.get(k).copied().flatten().filter(|r| r.error.is_none());
            let sente_score = r
                .and_then(|r| r.score)
                .map(|s| s.to_view(pos.side_to_move(), Color::Black));
            graph.push(sente_score.map(|s| self.classifier.cp(s)));
            if k == 0 {
                continue;
            }
            judgements.push(r.map(|r| {
                let mut p = pos.clone();
                let mut pv = Vec::new();
                for m in &r.pv {
                    match legal(&p, m) {
                        Some(m) => {
                            pv.push(m);
                            let _ = p.play(m);
                        }
                        None => break,
                    }
                }
                Judgement {
                    score: sente_score,
                    pv,
                    depth: r.depth,
                    nodes: r.nodes,
                    engine: (!self.engine.is_empty()).then(|| self.engine.to_string()),
                    label: classes
                        .get(k - 1)
                        .copied()
                        .flatten()
                        .and_then(Class::shogihome)
                        .map(str::to_string),
                }
            }));
        }
        shogi_kif::eval::annotate(&mut record, &judgements, style);
        let encoding = match format {
            shogi_kif::Format::Jkf => shogi_kif::Encoding::Utf8,
            _ => g.encoding.unwrap_or(shogi_kif::Encoding::Utf8),
        };
        let text = if encoding == shogi_kif::Encoding::Utf8 {
            shogi_kif::write(&record, format)
        } else {
            shogi_kif::write_with(
                &record,
                format,
                &shogi_kif::WriteOptions::encoding(encoding),
            )
        };
        let (bytes, _) = shogi_kif::encode_lossy(&text, encoding);
        let svg_path = svg_path(&path);
        let title = format!("{} #{}", g.path, g.index);
        let svg = Graph {
            title: &title,
            players: [g.players[0].as_deref(), g.players[1].as_deref()],
            scores: &graph,
            classes,
            view: self.view,
        }
        .svg();
        let mut errors = Vec::new();
        for (p, data) in [(&path, bytes.as_ref()), (&svg_path, svg.as_bytes())] {
            if overwrites(p, self.inputs) {
                errors.push(format!(
                    "{}: would overwrite an input; not written",
                    p.display()
                ));
                continue;
            }
            let written = p
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::write(p, data));
            if let Err(e) = written {
                errors.push(format!("{}: {}", p.display(), shogi_batch::io_reason(&e)));
            }
        }
        errors
    }
}

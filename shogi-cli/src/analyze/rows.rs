//! The per-ply table, the summaries, and the annotated records of `shogi analyze`.

use super::classify::{Class, Classifier};
use super::result::PosResult;
use super::{AnalyzeFormat, GameIn, annotated_path, overwrites};
use crate::ctx::Failure;
use shogi_core::{Color, Move, Position};
use shogi_kif::eval::{Judgement, Style};
use shogi_kif::notation::{Notation, move_text};
use shogi_usi::Score;
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;

/// One row of the per-ply table.
#[derive(serde::Serialize, Clone, Debug, Default)]
pub struct PlyRow {
    /// The input.
    pub path: String,
    /// The game's number in its input (from 1).
    pub game: u32,
    /// The move's number (from 1); empty for a game that could not be read at all.
    pub ply: Option<u32>,
    /// `sente` or `gote`: who played the move.
    pub side: Option<&'static str>,
    /// The move in USI.
    pub move_usi: Option<String>,
    /// The move in `--notation`.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// The engine's best move in the position before (USI, or `resign` / `win`).
    pub best_usi: Option<String>,
    /// The same in `--notation`.
    pub best: Option<String>,
    /// The best move's score, the mover's view, centipawns.
    pub best_cp: Option<i32>,
    /// The best move's score as a mate, the mover's view.
    pub best_mate: Option<String>,
    /// The played move's score (the position after it), the mover's view.
    pub played_cp: Option<i32>,
    /// The same as a mate.
    pub played_mate: Option<String>,
    /// `best_cp` in sente's view.
    pub best_cp_sente: Option<i32>,
    /// `best_mate` in sente's view.
    pub best_mate_sente: Option<String>,
    /// `played_cp` in sente's view.
    pub played_cp_sente: Option<i32>,
    /// `played_mate` in sente's view.
    pub played_mate_sente: Option<String>,
    /// The mover's win % before the move (best score).
    pub win_before: Option<f64>,
    /// The mover's win % after it.
    pub win_after: Option<f64>,
    /// `win_before - win_after`.
    pub loss: Option<f64>,
    /// best, good, inaccuracy, dubious, mistake, blunder.
    pub class: Option<&'static str>,
    /// The engine's PV from the position before the move (USI, spaces).
    pub pv: Option<String>,
    /// Depth of that search.
    pub depth: Option<u32>,
    /// Nodes of that search.
    pub nodes: Option<u64>,
    /// The engine.
    pub engine: Option<String>,
    /// Why this row is incomplete.
    pub error: Option<String>,
}

/// One row of `--summary`.
#[derive(serde::Serialize, Clone, Debug, Default)]
pub struct SummaryRow {
    /// `game` (one game and side) or `player` (one player over the collection).
    pub scope: &'static str,
    /// The input (game rows).
    pub path: Option<String>,
    /// The game's number (game rows).
    pub game: Option<u32>,
    /// sente or gote (game rows).
    pub side: Option<&'static str>,
    /// The player's name as the record gives it.
    pub player: Option<String>,
    /// Games (1 for game rows).
    pub games: u64,
    /// Moves played.
    pub moves: u64,
    /// Moves judged (both searches known).
    pub judged: u64,
    /// Average loss of win % over the judged moves.
    pub average_loss: Option<f64>,
    /// Moves of each class.
    pub best: u64,
    /// See [`Class::Good`].
    pub good: u64,
    /// See [`Class::Inaccuracy`].
    pub inaccuracy: u64,
    /// See [`Class::Dubious`].
    pub dubious: u64,
    /// See [`Class::Mistake`].
    pub mistake: u64,
    /// See [`Class::Blunder`].
    pub blunder: u64,
    /// The largest loss.
    pub max_loss: Option<f64>,
    /// Its ply (game rows).
    pub max_loss_ply: Option<u32>,
}

impl SummaryRow {
    fn add(&mut self, ply: u32, class: Option<Class>, loss: Option<f64>) {
        self.moves += 1;
        let (Some(class), Some(loss)) = (class, loss) else {
            return;
        };
        self.judged += 1;
        let total = self.average_loss.unwrap_or(0.0) * (self.judged - 1) as f64 + loss;
        self.average_loss = Some(total / self.judged as f64);
        match class {
            Class::Best => self.best += 1,
            Class::Good => self.good += 1,
            Class::Inaccuracy => self.inaccuracy += 1,
            Class::Dubious => self.dubious += 1,
            Class::Mistake => self.mistake += 1,
            Class::Blunder => self.blunder += 1,
        }
        if self.max_loss.is_none_or(|m| loss > m) {
            self.max_loss = Some(loss);
            self.max_loss_ply = Some(ply);
        }
    }

    fn merge(&mut self, o: &SummaryRow) {
        let judged = self.judged + o.judged;
        if judged > 0 {
            let total = self.average_loss.unwrap_or(0.0) * self.judged as f64
                + o.average_loss.unwrap_or(0.0) * o.judged as f64;
            self.average_loss = Some(total / judged as f64);
        }
        self.games += o.games;
        self.moves += o.moves;
        self.judged = judged;
        self.best += o.best;
        self.good += o.good;
        self.inaccuracy += o.inaccuracy;
        self.dubious += o.dubious;
        self.mistake += o.mistake;
        self.blunder += o.blunder;
        if let Some(m) = o.max_loss {
            if self.max_loss.is_none_or(|s| m > s) {
                self.max_loss = Some(m);
            }
        }
    }
}

/// Where rows go.
pub struct Sink<'a> {
    format: AnalyzeFormat,
    csv: Option<csv::Writer<Box<dyn Write + 'a>>>,
    out: Option<Box<dyn Write + 'a>>,
    summary: bool,
    players: BTreeMap<String, SummaryRow>,
    game_rows: Vec<SummaryRow>,
    error: Option<std::io::Error>,
}

impl<'a> Sink<'a> {
    /// Rows to `out` in `format`; with `summary`, summaries at the end instead.
    pub fn new(out: Box<dyn Write + 'a>, format: AnalyzeFormat, summary: bool) -> Sink<'a> {
        let (csv, out) = match format {
            AnalyzeFormat::Csv => (Some(csv::Writer::from_writer(out)), None),
            AnalyzeFormat::Jsonl => (None, Some(out)),
        };
        Sink {
            format,
            csv,
            out,
            summary,
            players: BTreeMap::new(),
            game_rows: Vec::new(),
            error: None,
        }
    }

    /// Whether writing failed (the run then stops).
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    fn put<T: serde::Serialize>(&mut self, row: &T) {
        if self.error.is_some() {
            return;
        }
        let r = match (&mut self.csv, &mut self.out) {
            (Some(w), _) => w.serialize(row).map_err(std::io::Error::other),
            (None, Some(w)) => serde_json::to_writer(&mut *w, row)
                .map_err(std::io::Error::other)
                .and_then(|()| w.write_all(b"\n")),
            (None, None) => Ok(()),
        };
        if let Err(e) = r {
            self.error = Some(e);
        }
    }

    fn row(&mut self, row: &PlyRow) {
        if !self.summary {
            self.put(row);
        }
    }

    /// Writes the summaries (with `--summary`) and flushes.
    pub fn finish(mut self) -> Result<(), Failure> {
        if self.summary {
            let games = std::mem::take(&mut self.game_rows);
            for g in &games {
                self.put(g);
            }
            let players = std::mem::take(&mut self.players);
            for p in players.values() {
                self.put(p);
            }
        }
        let flushed = match (&mut self.csv, &mut self.out) {
            (Some(w), _) => w.flush(),
            (None, Some(w)) => w.flush(),
            (None, None) => Ok(()),
        };
        if let Err(e) = flushed {
            self.error.get_or_insert(e);
        }
        let _ = self.format;
        match self.error {
            Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::usage(format!(
                "error: cannot write the output: {e}"
            ))),
            _ => Ok(()),
        }
    }
}

/// Signed mate text of a mate score: `5`, `-4`, `-0` (mated now), `+0` (has mated), `+`/`-`.
fn mate_text(s: Score) -> Option<String> {
    match s {
        Score::Cp(_) => None,
        Score::Mate { plies: 0 } => Some("-0".into()),
        Score::Mate { plies } => Some(plies.to_string()),
        Score::MateGiven => Some("+0".into()),
        Score::MateUnknown { winning } => Some(if winning { "+" } else { "-" }.into()),
    }
}

fn cp_of(s: Option<Score>) -> Option<i32> {
    match s {
        Some(Score::Cp(v)) => Some(v),
        _ => None,
    }
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// A USI move of `pos`, when legal.
fn legal(pos: &Position, usi: &str) -> Option<Move> {
    Move::from_usi(usi).ok().filter(|m| pos.is_legal(*m))
}

/// Makes the rows of each game, its summary, its annotated copy and graph.
pub struct GameRows {
    /// Win rates and classes.
    pub classifier: Classifier,
    /// The notation of `move` and `best`.
    pub notation: Notation,
    /// The engine's name (empty with --from-comments).
    pub engine: String,
    /// `--annotate-dir`.
    pub annotate: Option<PathBuf>,
    /// The inputs' canonical paths (never overwritten).
    pub inputs: HashSet<PathBuf>,
    /// Games with any failure.
    pub failed_games: u64,
    /// Annotated copies that could not be written.
    pub annotate_errors: Vec<String>,
}

impl GameRows {
    /// The rows of game `g` given each position's result (`per[k]`: the position after k
    /// moves), into `sink`; then its annotated copy.
    pub fn game(&mut self, g: &GameIn, per: &[Option<&PosResult>], sink: &mut Sink) {
        let mut failed = false;
        let names = [Color::Black, Color::White].map(|c| g.players[c as usize].clone());
        let mut sides = [Color::Black, Color::White].map(|c| SummaryRow {
            scope: "game",
            path: Some(g.path.clone()),
            game: Some(g.index),
            side: Some(side_name(c)),
            player: names[c as usize].clone(),
            games: 1,
            ..SummaryRow::default()
        });
        let get = |k: usize| per.get(k).copied().flatten();
        let mut labels: Vec<Option<&'static str>> = Vec::with_capacity(g.moves.len());
        let mut prev_to = None;
        for (i, &mv) in g.moves.iter().enumerate() {
            let ply = i as u32 + 1;
            let pos = &g.positions[i];
            let mover = pos.side_to_move();
            let before = get(i);
            let after = get(i + 1);
            let mut row = PlyRow {
                path: g.path.clone(),
                game: g.index,
                ply: Some(ply),
                side: Some(side_name(mover)),
                move_usi: Some(mv.to_usi()),
                mv: Some(move_text(pos, mv, prev_to, self.notation)),
                ..PlyRow::default()
            };
            let best_move = before
                .and_then(|b| b.best.as_deref())
                .map(|b| (b, legal(pos, b)));
            if let Some((text, m)) = best_move {
                row.best_usi = Some(text.to_string());
                row.best = Some(match m {
                    Some(m) => move_text(pos, m, prev_to, self.notation),
                    None => text.to_string(),
                });
            }
            let is_best = best_move.and_then(|(_, m)| m) == Some(mv);
            let (class, loss) = self.score_columns(&mut row, mover, is_best, before, after);
            labels.push(class.and_then(Class::shogihome));
            if let Some(b) = before {
                if !b.pv.is_empty() {
                    row.pv = Some(b.pv.join(" "));
                }
                row.depth = b.depth;
                row.nodes = b.nodes;
            }
            row.engine = if self.engine.is_empty() {
                before
                    .and_then(|b| b.warning.as_deref())
                    .and_then(|w| w.strip_prefix("engine="))
                    .map(str::to_string)
            } else {
                Some(self.engine.clone())
            };
            let errors = self.ply_errors(before, after);
            if errors.iter().any(|e| !e.starts_with("note")) {
                failed = true;
            }
            if !errors.is_empty() {
                row.error = Some(errors.join("; "));
            }
            sides[mover as usize].add(ply, class, loss);
            sink.row(&row);
            prev_to = Some(mv.to());
        }
        if let Some((ply, e)) = &g.error {
            failed = true;
            let row = PlyRow {
                path: g.path.clone(),
                game: g.index,
                ply: *ply,
                engine: (!self.engine.is_empty()).then(|| self.engine.clone()),
                error: Some(e.clone()),
                ..PlyRow::default()
            };
            sink.row(&row);
        }
        if failed {
            self.failed_games += 1;
        }
        if sink.summary {
            merge_summary(sink, sides);
        }
        if let Some(dir) = self.annotate.clone() {
            if g.error.as_ref().is_none_or(|(ply, _)| ply.is_some()) {
                self.write_annotated(&dir, g, per, &labels);
            }
        }
    }

    /// Fills `row`'s score columns (mover's view and sente's) and, when both positions have a
    /// score, the win chances, the loss and the class; returns the class and the loss.
    fn score_columns(
        &self,
        row: &mut PlyRow,
        mover: Color,
        is_best: bool,
        before: Option<&PosResult>,
        after: Option<&PosResult>,
    ) -> (Option<Class>, Option<f64>) {
        let best_score = before.and_then(|b| b.score);
        let played_score = after.and_then(|a| a.score).map(Score::flip);
        let sente = |s: Score| if mover == Color::Black { s } else { s.flip() };
        row.best_cp = cp_of(best_score);
        row.best_mate = best_score.and_then(mate_text);
        row.played_cp = cp_of(played_score);
        row.played_mate = played_score.and_then(mate_text);
        row.best_cp_sente = cp_of(best_score.map(sente));
        row.best_mate_sente = best_score.map(sente).and_then(mate_text);
        row.played_cp_sente = cp_of(played_score.map(sente));
        row.played_mate_sente = played_score.map(sente).and_then(mate_text);
        let mut class = None;
        let mut loss = None;
        if let (Some(b), Some(a)) = (best_score, played_score) {
            let c = &self.classifier;
            let l = c.loss(b, a);
            row.win_before = Some(round2(c.win(b)));
            row.win_after = Some(round2(c.win(a)));
            row.loss = Some(round2(l));
            let cl = c.classify(is_best, l);
            row.class = Some(cl.name());
            class = Some(cl);
            loss = Some(l);
        }
        (class, loss)
    }

    /// The problems of a ply's two positions: errors, and notes (warnings other than the
    /// engine's name) that start with "note".
    fn ply_errors(&self, before: Option<&PosResult>, after: Option<&PosResult>) -> Vec<String> {
        let mut errors = Vec::new();
        for (what, r) in [("before", before), ("after", after)] {
            match r {
                Some(r) => {
                    if let Some(e) = &r.error {
                        errors.push(format!("position {what} the move: {e}"));
                    } else if let Some(w) =
                        r.warning.as_deref().filter(|w| !w.starts_with("engine="))
                    {
                        errors.push(format!("note, position {what} the move: {w}"));
                    }
                }
                None if self.engine.is_empty() => {}
                None => errors.push(format!("position {what} the move: no result")),
            }
        }
        errors
    }

    fn write_annotated(
        &mut self,
        dir: &std::path::Path,
        g: &GameIn,
        per: &[Option<&PosResult>],
        labels: &[Option<&'static str>],
    ) {
        let Some(record) = &g.record else { return };
        let mut record = record.clone();
        let (path, format) = annotated_path(dir, g);
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
                    engine: (!self.engine.is_empty()).then(|| self.engine.clone()),
                    label: labels.get(k - 1).copied().flatten().map(str::to_string),
                }
            }));
        }
        shogi_kif::eval::annotate(&mut record, &judgements, style);
        let text = shogi_kif::write(&record, format);
        let encoding = match format {
            shogi_kif::Format::Jkf => shogi_kif::Encoding::Utf8,
            _ => g.encoding.unwrap_or(shogi_kif::Encoding::Utf8),
        };
        let text = if encoding == shogi_kif::Encoding::Utf8 {
            text
        } else {
            shogi_kif::write_with(
                &record,
                format,
                &shogi_kif::WriteOptions::encoding(encoding),
            )
        };
        let (bytes, _) = shogi_kif::encode_lossy(&text, encoding);
        let svg_path = super::svg_path(&path);
        let title = format!("{} #{}", g.path, g.index);
        let svg = super::graph::svg(&title, &graph, 2000);
        for (p, data) in [(&path, bytes.as_ref()), (&svg_path, svg.as_bytes())] {
            if overwrites(p, &self.inputs) {
                self.annotate_errors.push(format!(
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
                self.annotate_errors.push(format!(
                    "{}: {}",
                    p.display(),
                    shogi_batch::io_reason(&e)
                ));
            }
        }
    }
}

fn side_name(c: Color) -> &'static str {
    if c == Color::Black { "sente" } else { "gote" }
}

/// Adds a game's two side rows to the summary: each to its player's total, and as game rows.
fn merge_summary(sink: &mut Sink, sides: [SummaryRow; 2]) {
    for s in sides {
        let name = s.player.clone().unwrap_or_else(|| "(unknown)".into());
        let p = sink
            .players
            .entry(name.clone())
            .or_insert_with(|| SummaryRow {
                scope: "player",
                player: Some(name),
                ..SummaryRow::default()
            });
        p.merge(&s);
        sink.game_rows.push(s);
    }
}

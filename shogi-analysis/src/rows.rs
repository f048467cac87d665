//! The per-ply table ([`PlyRow`]) and the summaries ([`SummaryRow`]) of an analysis, made
//! game by game from each position's result.

use crate::Observer;
use crate::annotate::{Annotator, legal};
use crate::classify::{Class, Classifier};
use crate::read::GameIn;
use crate::result::PosResult;
use shogi_core::Color;
use shogi_kif::notation::{Notation, move_text};
use shogi_usi::Score;
use std::collections::BTreeMap;

/// The columns of the per-ply table, in order (the CSV header): [`PlyRow`]'s fields as
/// serialised.
pub const COLUMNS: &[&str] = &[
    "path",
    "game",
    "ply",
    "side",
    "move_usi",
    "move",
    "best_usi",
    "best",
    "best_cp",
    "best_mate",
    "played_cp",
    "played_mate",
    "best_cp_sente",
    "best_mate_sente",
    "played_cp_sente",
    "played_mate_sente",
    "win_before",
    "win_after",
    "loss",
    "class",
    "pv",
    "depth",
    "nodes",
    "engine",
    "error",
];

/// The columns of the summaries, in order: [`SummaryRow`]'s fields as serialised.
pub const SUMMARY_COLUMNS: &[&str] = &[
    "scope",
    "path",
    "game",
    "side",
    "player",
    "games",
    "moves",
    "judged",
    "average_loss",
    "best",
    "good",
    "inaccuracy",
    "dubious",
    "mistake",
    "blunder",
    "max_loss",
    "max_loss_ply",
];

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
    pub(crate) fn add(&mut self, ply: u32, class: Option<Class>, loss: Option<f64>) {
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

    pub(crate) fn merge(&mut self, o: &SummaryRow) {
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

/// The summaries of an analysis: each game and side, and each player over the collection.
#[derive(Default)]
pub(crate) struct Summaries {
    /// Game rows, in input order (two per game).
    pub games: Vec<SummaryRow>,
    /// Player rows, by name.
    pub players: BTreeMap<String, SummaryRow>,
}

impl Summaries {
    /// Adds a game's two side rows: each to its player's total, and as game rows.
    fn add(&mut self, sides: [SummaryRow; 2]) {
        for s in sides {
            let name = s.player.clone().unwrap_or_else(|| "(unknown)".into());
            let p = self
                .players
                .entry(name.clone())
                .or_insert_with(|| SummaryRow {
                    scope: "player",
                    player: Some(name),
                    ..SummaryRow::default()
                });
            p.merge(&s);
            self.games.push(s);
        }
    }
}

/// Makes the rows of each game, its summary, its annotated copy and graph.
pub(crate) struct GameRows<'a> {
    /// Win rates and classes.
    pub classifier: &'a Classifier,
    /// The notation of `move` and `best`.
    pub notation: Notation,
    /// The engine's name (empty with comments as the source).
    pub engine: String,
    /// Where annotated copies go.
    pub annotator: Option<Annotator<'a>>,
    /// The summaries, when asked for.
    pub summaries: Option<Summaries>,
    /// Games with any failure.
    pub failed_games: u64,
    /// Annotated copies that could not be written.
    pub annotate_errors: Vec<String>,
    /// The observer asked to stop.
    pub stopped: bool,
}

impl GameRows<'_> {
    /// The rows of game `g` given each position's result (`per[k]`: the position after k
    /// moves), to `observer`; then its annotated copy.
    pub fn game(&mut self, g: &GameIn, per: &[Option<&PosResult>], observer: &mut dyn Observer) {
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
        let mut classes: Vec<Option<Class>> = Vec::with_capacity(g.moves.len());
        let mut prev_to = None;
        let mut emit = |row: &PlyRow, stopped: &mut bool| {
            if !*stopped && observer.row(row).is_break() {
                *stopped = true;
            }
        };
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
            classes.push(class);
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
            let (errors, any_error) = self.ply_errors(before, after);
            failed |= any_error;
            if !errors.is_empty() {
                row.error = Some(errors.join("; "));
            }
            sides[mover as usize].add(ply, class, loss);
            emit(&row, &mut self.stopped);
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
            emit(&row, &mut self.stopped);
        }
        if failed {
            self.failed_games += 1;
        }
        if let Some(s) = &mut self.summaries {
            s.add(sides);
        }
        if let Some(a) = &self.annotator {
            if g.error.as_ref().is_none_or(|(ply, _)| ply.is_some()) {
                self.annotate_errors.extend(a.write(g, per, &classes));
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
            let c = self.classifier;
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

    /// The problems of a ply's two positions, in order: errors, and notes (warnings other
    /// than the engine's name, starting with "note"); and whether any is an error (the game
    /// then failed).
    fn ply_errors(
        &self,
        before: Option<&PosResult>,
        after: Option<&PosResult>,
    ) -> (Vec<String>, bool) {
        let mut errors = Vec::new();
        let mut any_error = false;
        for (what, r) in [("before", before), ("after", after)] {
            match r {
                Some(r) => {
                    if let Some(e) = &r.error {
                        errors.push(format!("position {what} the move: {e}"));
                        any_error = true;
                    } else if let Some(w) =
                        r.warning.as_deref().filter(|w| !w.starts_with("engine="))
                    {
                        errors.push(format!("note, position {what} the move: {w}"));
                    }
                }
                None if self.engine.is_empty() => {}
                None => {
                    errors.push(format!("position {what} the move: no result"));
                    any_error = true;
                }
            }
        }
        (errors, any_error)
    }
}

fn side_name(c: Color) -> &'static str {
    if c == Color::Black { "sente" } else { "gote" }
}

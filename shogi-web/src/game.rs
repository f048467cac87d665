//! A game as the viewer shows it: every position of the main line, each move in Japanese,
//! Western and USI notation, comments, tags and evaluations, computed here so that the
//! page's script only displays it.

use crate::board::{Board, move_cells};
use serde::Serialize;
use shogi_core::{Color, Position};
use shogi_kif::eval::{Score, evaluations};
use shogi_kif::notation::{Notation, kif_move_text, move_text};
use shogi_kif::{MainLine, Record, outcome};

/// Evaluations beyond this many centipawns (and mates) are drawn at the graph's edge.
pub const GRAPH_CAP: i32 = 3000;

/// One evaluation of a position, in sente's view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Eval {
    /// Centipawns for sente, a mate as ±[`GRAPH_CAP`].
    pub cp: i32,
    /// As people read it: `+120`, `-35`, `詰 先手勝ち 15手`.
    pub text: String,
}

impl Eval {
    /// The evaluation of `score` (sente's view).
    pub fn of(score: Score) -> Eval {
        let cp = score.centipawns(GRAPH_CAP);
        let text = match (score, score.mate_winner()) {
            (Score::Cp(v), _) => format!("{v:+}"),
            (_, winner) => mate_text(
                if winner == Some(true) {
                    Color::Black
                } else {
                    Color::White
                },
                score.mate_distance(),
            ),
        };
        Eval { cp, text }
    }
}

/// A mate as the viewer writes it: `詰 先手勝ち 15手`, `詰 後手勝ち` (distance unknown).
pub fn mate_text(winner: Color, plies: Option<u32>) -> String {
    let who = if winner == Color::Black {
        "先手勝ち"
    } else {
        "後手勝ち"
    };
    match plies {
        Some(n) => format!("詰 {who} {n}手"),
        None => format!("詰 {who}"),
    }
}

/// A position of the main line and the move that led there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ply {
    /// The position.
    pub board: Board,
    /// The move that led here (none at the start): Japanese (KI2 style, `▲７六歩`).
    pub ja: Option<String>,
    /// The same move as the KIF writer writes it (`７六歩(77)`: shogi-kif's
    /// [`kif_move_text`](shogi_kif::notation::kif_move_text)).
    pub kif: Option<String>,
    /// The same move in Western notation (`P-7f`).
    pub west: Option<String>,
    /// The same move in USI (`7g7f`).
    pub usi: Option<String>,
    /// The cell the move left (none for a drop or at the start).
    pub from: Option<usize>,
    /// The cell the move reached (none at the start).
    pub to: Option<usize>,
    /// Comments on the move (on the start position for the first).
    pub comments: Vec<String>,
    /// The evaluation of this position, where one is known.
    pub eval: Option<Eval>,
}

/// A whole game for the viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// A title: the players, or the file name.
    pub title: String,
    /// The header entries as written (`開始日時`, `先手`, …), in order.
    pub tags: Vec<(String, String)>,
    /// Sente's and gote's names, where known.
    pub players: [Option<String>; 2],
    /// Position 0 is the start; position n follows the n-th move.
    pub plies: Vec<Ply>,
    /// How it ended: the ending's name and the winner (`resign, sente won`), or why the
    /// main line stops early (a foul or an illegal move).
    pub result: String,
    /// Comments on the ending.
    pub ending_comments: Vec<String>,
    /// Where the evaluations come from (`record comments`, an analysis cache), if any.
    pub eval_source: Option<String>,
}

/// The evaluation per position (index = ply) read from the record's comments: ShogiHome's
/// analysis first, then the playing engine's, then Floodgate's.
pub fn record_evals(record: &Record, plies: usize) -> Vec<Option<Eval>> {
    let mut out: Vec<Option<(u8, Eval)>> = vec![None; plies + 1];
    for e in evaluations(record) {
        let (Some(score), Some(slot)) = (e.score, out.get_mut(e.ply as usize)) else {
            continue;
        };
        let rank = e.source.priority();
        if slot.as_ref().is_none_or(|(r, _)| rank < *r) {
            *slot = Some((rank, Eval::of(score)));
        }
    }
    out.into_iter().map(|s| s.map(|(_, e)| e)).collect()
}

impl GameView {
    /// The view of `record`'s main line, named `name` (a file name) when the header names no
    /// players. The evaluations are the record's own (see [`record_evals`]); replace them with
    /// [`GameView::set_evals`].
    pub fn of(record: &Record, name: &str) -> GameView {
        let start = record.start_position().clone();
        let mut pos = start.clone();
        let mut plies = vec![Ply {
            board: Board::of(&pos),
            ja: None,
            kif: None,
            west: None,
            usi: None,
            from: None,
            to: None,
            comments: record.start_comments.clone(),
            eval: None,
        }];
        let size = pos.variant().size();
        let mut last = None;
        let mut stopped = None;
        for (i, node) in record.main_line().enumerate() {
            let mv = node.mv;
            let ja = move_text(&pos, mv, last, Notation::Japanese);
            if let Some(foul) = &node.foul {
                stopped = Some(format!("move {}: {ja} is a foul ({foul})", i + 1));
                break;
            }
            if let Err(e) = pos.check_move(mv) {
                stopped = Some(format!("move {}: {ja} cannot be played: {e}", i + 1));
                break;
            }
            let west = move_text(&pos, mv, last, Notation::Western);
            let kif = kif_move_text(&pos, mv, last);
            pos.play_unchecked(mv);
            let (from, to) = move_cells(mv, size);
            plies.push(Ply {
                board: Board::of(&pos),
                ja: Some(ja),
                kif: Some(kif),
                west: Some(west),
                usi: Some(mv.to_usi()),
                from,
                to: Some(to),
                comments: node.comments.clone(),
                eval: None,
            });
            last = Some(mv.to());
        }
        let main = MainLine::replay(record);
        let (ending, winner) = outcome(record, &main);
        let result = match stopped {
            Some(why) => why,
            None => format!(
                "{} moves; {}{}",
                plies.len() - 1,
                ending.unwrap_or("no ending"),
                match winner {
                    shogi_kif::Winner::Sente => ", sente won",
                    shogi_kif::Winner::Gote => ", gote won",
                    shogi_kif::Winner::Draw => ", a draw",
                    shogi_kif::Winner::None => "",
                }
            ),
        };
        let players = [
            record.header.black().map(str::to_string),
            record.header.white().map(str::to_string),
        ];
        let title = match &players {
            [Some(b), Some(w)] => format!("☗{b} ☖{w}"),
            _ => name.to_string(),
        };
        let mut view = GameView {
            title,
            tags: record
                .header
                .entries
                .iter()
                .map(|e| (e.key.kif().to_string(), e.value.clone()))
                .collect(),
            players,
            result,
            ending_comments: record
                .ending()
                .map(|e| e.comments.clone())
                .unwrap_or_default(),
            plies,
            eval_source: None,
        };
        let evals = record_evals(record, view.plies.len() - 1);
        if evals.iter().any(Option::is_some) {
            view.set_evals(evals, "record comments");
        }
        view
    }

    /// Says in `result` that the record `name` was read only up to `error` (the view shows
    /// what was read), as `shogi view` and `Record.to_html()` write it.
    pub fn stopped_by(&mut self, name: &str, error: &shogi_kif::ReadError) {
        self.result = format!(
            "{name}: line {}: {} (shown up to there)",
            error.location.line, error.message
        );
    }

    /// The positions of the main line shown (the start first).
    pub fn positions(&self) -> impl Iterator<Item = &Board> {
        self.plies.iter().map(|p| &p.board)
    }

    /// Sets the evaluations (index = ply; missing ones left empty) and names their source.
    pub fn set_evals(&mut self, evals: Vec<Option<Eval>>, source: &str) {
        for (ply, e) in self
            .plies
            .iter_mut()
            .zip(evals.into_iter().chain(std::iter::repeat(None)))
        {
            ply.eval = e;
        }
        self.eval_source = Some(source.to_string());
    }

    /// The view of a line of `moves` (USI, already checked legal) from `start`, with no
    /// header: what the server shows of a stored game whose record is not at hand.
    pub fn of_line(start: &Position, moves: &[shogi_core::Move], title: &str) -> GameView {
        let record = Record {
            start: shogi_kif::Start::of(start.clone(), None),
            moves: shogi_kif::Line {
                moves: moves.iter().map(|m| shogi_kif::MoveNode::new(*m)).collect(),
                ending: None,
            },
            ..Record::default()
        };
        GameView::of(&record, title)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIF: &str = "先手：甲\n後手：乙\n手数----指手--\n   1 ７六歩(77)\n*#評価値=120\n   2 ３四歩(33)\n*コメント\n   3 ２二角成(88)\n*#詰み=先手勝ち:15手\n   4 投了\n";

    #[test]
    fn a_game_with_comments_and_evaluations() {
        let record = shogi_kif::read_str(KIF, Default::default()).unwrap();
        let v = GameView::of(&record, "x.kif");
        assert_eq!(v.title, "☗甲 ☖乙");
        assert_eq!(v.plies.len(), 4);
        assert_eq!(v.plies[1].ja.as_deref(), Some("▲７六歩"));
        assert_eq!(v.plies[1].west.as_deref(), Some("P-7f"));
        assert_eq!(v.plies[1].kif.as_deref(), Some("７六歩(77)"));
        assert_eq!(v.plies[3].kif.as_deref(), Some("２二角成(88)"));
        assert_eq!(v.plies[3].ja.as_deref(), Some("▲２二角成"));
        assert_eq!(v.plies[3].usi.as_deref(), Some("8h2b+"));
        assert_eq!(v.plies[3].board.cells[9 + 7], "+馬");
        assert_eq!(v.plies[3].board.hands[0], vec![("角".to_string(), 1)]);
        assert_eq!(v.plies[2].comments, vec!["コメント".to_string()]);
        assert_eq!(v.plies[1].eval.as_ref().map(|e| e.cp), Some(120));
        assert_eq!(
            v.plies[1].eval.as_ref().map(|e| e.text.as_str()),
            Some("+120")
        );
        assert_eq!(v.plies[2].eval, None);
        let mate = v.plies[3].eval.as_ref().unwrap();
        assert_eq!(
            (mate.cp, mate.text.as_str()),
            (GRAPH_CAP, "詰 先手勝ち 15手")
        );
        assert_eq!(v.eval_source.as_deref(), Some("record comments"));
        assert!(v.result.starts_with("3 moves; resign"), "{}", v.result);
        assert!(v.result.ends_with("sente won"), "{}", v.result);
        assert_eq!(v.tags[0], ("先手".to_string(), "甲".to_string()));
    }

    #[test]
    fn a_line_stops_at_an_illegal_move() {
        // The reader stops before a move that cannot be played; a record built by hand
        // need not.
        let mut record = Record::default();
        for usi in ["7g7f", "7f7e"] {
            let mv = shogi_core::Move::from_usi(usi).unwrap();
            record.moves.moves.push(shogi_kif::MoveNode::new(mv));
        }
        let v = GameView::of(&record, "bad.kif");
        assert_eq!(v.plies.len(), 2);
        assert!(v.result.starts_with("move 2:"), "{}", v.result);
        assert_eq!(v.title, "bad.kif");
        assert_eq!(v.eval_source, None);
    }
}

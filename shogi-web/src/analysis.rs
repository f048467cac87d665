//! Evaluations from the analysis cache `shogi analyze --cache` writes, read through
//! shogi-analysis's [`CacheReader`] (position-mode results, newest configuration first, typed
//! scores in the side to move's view). Opened read-only; nothing is written.

use crate::game::{Eval, GRAPH_CAP, mate_text};
use shogi_analysis::cache::CacheReader;
use shogi_core::Color;
use shogi_usi::Score;
use std::path::Path;

/// An analysis cache opened for reading.
pub struct Analysis {
    reader: CacheReader,
}

/// A score in `mover`'s view as an evaluation in sente's view.
pub fn cache_eval(score: Score, mover: Color) -> Eval {
    let sente = if mover == Color::Black {
        score
    } else {
        score.flip()
    };
    match sente {
        Score::Cp(cp) => Eval {
            cp,
            text: format!("{cp:+}"),
        },
        mate => {
            let winner = if mate.mate_winner() == Some(true) {
                Color::Black
            } else {
                Color::White
            };
            let plies = match mate {
                Score::Mate { plies } => Some(plies.unsigned_abs()),
                _ => None,
            };
            Eval {
                cp: if winner == Color::Black {
                    GRAPH_CAP
                } else {
                    -GRAPH_CAP
                },
                text: mate_text(winner, plies),
            }
        }
    }
}

impl Analysis {
    /// Opens the cache at `path` read-only. Errors name the file.
    pub fn open(path: &Path) -> Result<Analysis, String> {
        Ok(Analysis {
            reader: CacheReader::open(path)?,
        })
    }

    /// The cache's file.
    pub fn path(&self) -> &Path {
        self.reader.path()
    }

    /// The evaluation of the position `sfen` (with its move number, as the cache keys it),
    /// whose side to move is `mover`, if the cache holds one with a score.
    pub fn eval(&self, sfen: &str, mover: Color) -> Result<Option<Eval>, String> {
        Ok(self
            .reader
            .scored(sfen)?
            .and_then(|r| r.score)
            .map(|s| cache_eval(s, mover)))
    }

    /// The evaluations of `view`'s positions (index = ply), put into it when any is found
    /// (the record's own are kept otherwise). Returns how many were found.
    pub fn annotate(&self, view: &mut crate::GameView) -> Result<usize, String> {
        let mut evals = Vec::with_capacity(view.plies.len());
        for b in view.positions() {
            let mover = if b.turn == "sente" {
                Color::Black
            } else {
                Color::White
            };
            evals.push(self.eval(&b.sfen, mover)?);
        }
        let found = evals.iter().filter(|e| e.is_some()).count();
        if found > 0 {
            let source = format!("analysis cache {}", self.path().display());
            view.set_evals(evals, &source);
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_turn_to_sente_view() {
        let e = cache_eval(Score::Cp(120), Color::White);
        assert_eq!((e.cp, e.text.as_str()), (-120, "-120"));
        assert_eq!(cache_eval(Score::Cp(35), Color::Black).cp, 35);
        let m = cache_eval(Score::Mate { plies: 5 }, Color::White);
        assert_eq!((m.cp, m.text.as_str()), (-GRAPH_CAP, "詰 後手勝ち 5手"));
        let m = cache_eval(Score::Mate { plies: -4 }, Color::White);
        assert_eq!((m.cp, m.text.as_str()), (GRAPH_CAP, "詰 先手勝ち 4手"));
        // The side whose view it is has mated: it wins (the text form read it as a loss).
        assert_eq!(cache_eval(Score::MateGiven, Color::Black).cp, GRAPH_CAP);
        assert_eq!(cache_eval(Score::MateGiven, Color::White).cp, -GRAPH_CAP);
        let m = cache_eval(Score::MateUnknown { winning: true }, Color::Black);
        assert_eq!(m.cp, GRAPH_CAP);
        let m = cache_eval(Score::MateUnknown { winning: true }, Color::White);
        assert_eq!(m.cp, -GRAPH_CAP);
    }
}

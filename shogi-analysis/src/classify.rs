//! Move quality: win probability from a score, the loss of a move, and its class.
//!
//! win%(v) = 100 / (1 + exp(−v / c)) for a score v in centipawns from the mover's view, with
//! c = 600 by default (ShogiHome's `coefficientInSigmoid`, YaneuraOu's learner constant).
//! A mate counts as ±[`Classifier::mate_cp`] centipawns (default 30000, so a mate is a win
//! rate of 100 % to many decimals). The loss of a move is win%(before) − win%(after), both
//! from the mover's view: before = the engine's best score in the position before the move,
//! after = the score of the position after it.

use crate::error::{AnalysisError, Parameter};
use shogi_usi::Score;

/// The class of a played move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The engine's best move.
    Best,
    /// Another move losing less than the inaccuracy threshold.
    Good,
    /// 緩手: loss ≥ the inaccuracy threshold (default 5 points of win %).
    Inaccuracy,
    /// 疑問手: loss ≥ the dubious threshold (default 10).
    Dubious,
    /// 悪手: loss ≥ the mistake threshold (default 20).
    Mistake,
    /// 大悪手: loss ≥ the blunder threshold (default 50).
    Blunder,
}

impl Class {
    /// The name in tables: `best`, `good`, `inaccuracy`, `dubious`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Dubious => "dubious",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// The class named `name` (as [`Class::name`] writes it).
    pub fn from_name(name: &str) -> Option<Class> {
        [
            Class::Best,
            Class::Good,
            Class::Inaccuracy,
            Class::Dubious,
            Class::Mistake,
            Class::Blunder,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }

    /// ShogiHome's header word (`緩手`, `疑問手`, `悪手`, `大悪手`), for the bad classes.
    pub fn shogihome(self) -> Option<&'static str> {
        match self {
            Class::Inaccuracy => Some("緩手"),
            Class::Dubious => Some("疑問手"),
            Class::Mistake => Some("悪手"),
            Class::Blunder => Some("大悪手"),
            Class::Best | Class::Good => None,
        }
    }
}

/// The constants of the classification.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Classifier {
    /// The logistic's scale c in centipawns (default 600).
    pub coefficient: f64,
    /// The centipawn value a mate counts as (default 30000).
    pub mate_cp: i32,
    /// Loss thresholds in points of win %: inaccuracy, dubious, mistake, blunder (default
    /// ShogiHome's 5, 10, 20, 50).
    pub thresholds: [f64; 4],
}

impl Default for Classifier {
    fn default() -> Classifier {
        Classifier {
            coefficient: 600.0,
            mate_cp: Score::MATE_CP,
            thresholds: [5.0, 10.0, 20.0, 50.0],
        }
    }
}

impl Classifier {
    /// A score as centipawns: mates as ±`mate_cp`.
    pub fn cp(&self, s: Score) -> i32 {
        s.centipawns(self.mate_cp)
    }

    /// Win probability in percent of the side whose view `s` is.
    pub fn win(&self, s: Score) -> f64 {
        100.0 / (1.0 + (-f64::from(self.cp(s)) / self.coefficient).exp())
    }

    /// Loss of win % from `before` to `after` (both the mover's view).
    pub fn loss(&self, before: Score, after: Score) -> f64 {
        self.win(before) - self.win(after)
    }

    /// The class of a move: `Best` when it is the engine's move, else by its loss.
    pub fn classify(&self, is_best: bool, loss: f64) -> Class {
        if is_best {
            return Class::Best;
        }
        let [i, d, m, b] = self.thresholds;
        match loss {
            l if l >= b => Class::Blunder,
            l if l >= m => Class::Mistake,
            l if l >= d => Class::Dubious,
            l if l >= i => Class::Inaccuracy,
            _ => Class::Good,
        }
    }

    /// Checks the thresholds are strictly increasing and the coefficient positive.
    pub fn check(&self) -> Result<(), AnalysisError> {
        if !(self.coefficient > 0.0 && self.coefficient.is_finite()) {
            return Err(AnalysisError::setting(
                Parameter::Sigmoid,
                format!("must be positive, not {}", self.coefficient),
            ));
        }
        let t = self.thresholds;
        if !t.iter().all(|x| x.is_finite() && *x >= 0.0) || !t.windows(2).all(|w| w[0] < w[1]) {
            return Err(AnalysisError::setting(
                Parameter::Thresholds,
                format!(
                    "must increase strictly: inaccuracy {}, dubious {}, mistake {}, blunder {}",
                    t[0], t[1], t[2], t[3]
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ENGINE-FACTS §4.1: ShogiHome's test, sente-view scores after plies 1-5.
    #[test]
    fn shogihome_worked_example() {
        let c = Classifier::default();
        let sente = [-10, 200, -200, 400, -1000];
        let mut got = Vec::new();
        for ply in 2..=5usize {
            // The mover of ply k is sente when k is odd.
            let sign = if ply % 2 == 1 { 1 } else { -1 };
            let before = Score::Cp(sign * sente[ply - 2]);
            let after = Score::Cp(sign * sente[ply - 1]);
            let (wb, wa) = (c.win(before), c.win(after));
            let loss = c.loss(before, after);
            got.push((
                ply,
                (wb * 100.0).round() / 100.0,
                (wa * 100.0).round() / 100.0,
                (loss * 10.0).round() / 10.0,
                c.classify(false, loss),
            ));
        }
        assert_eq!(
            got,
            [
                (2, 50.42, 41.74, 8.7, Class::Inaccuracy),
                (3, 58.26, 41.74, 16.5, Class::Dubious),
                (4, 58.26, 33.92, 24.3, Class::Mistake),
                (5, 66.08, 15.89, 50.2, Class::Blunder),
            ]
        );
        assert_eq!(Class::Blunder.shogihome(), Some("大悪手"));
    }

    #[test]
    fn best_good_and_mates() {
        let c = Classifier::default();
        assert_eq!(c.classify(true, 80.0), Class::Best);
        assert_eq!(c.classify(false, 4.99), Class::Good);
        assert_eq!(c.classify(false, -3.0), Class::Good);
        assert!(c.win(Score::Mate { plies: 3 }) > 99.99);
        assert!(c.win(Score::Mate { plies: -3 }) < 0.01);
        assert!(c.win(Score::MateGiven) > 99.99);
        assert!(c.win(Score::MateUnknown { winning: false }) < 0.01);
        // Missing a mate in 3 for +300 (win% 62) is a mistake; for -300 a blunder.
        let loss = c.loss(Score::Mate { plies: 3 }, Score::Cp(300));
        assert_eq!(c.classify(false, loss), Class::Mistake);
        let loss = c.loss(Score::Mate { plies: 3 }, Score::Cp(-300));
        assert_eq!(c.classify(false, loss), Class::Blunder);
        let bad = Classifier {
            thresholds: [5.0, 5.0, 20.0, 50.0],
            ..c
        };
        assert!(bad.check().is_err());
        assert!(c.check().is_ok());
    }
}

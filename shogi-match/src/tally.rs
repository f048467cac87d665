//! The tally: results as games end (W-L-D per engine and per colour, per pairing, the
//! pentanomial view of game pairs, how games ended, our overhead per move) and the summary
//! with Elo, LOS and the SPRT.

use crate::schedule::{GameSpec, pairings};
use crate::settings::Settings;
use crate::stats::{Decision, EloSample, Figure, Pentanomial, Sprt, Trinomial};
use serde::Serialize;
use shogi_core::Color;
use std::collections::{BTreeMap, HashMap};

/// A game already played (read back by `--resume`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Done {
    /// Which game.
    pub index: usize,
    /// Its winner (`None`: draw).
    pub winner: Option<Color>,
}

/// Results per engine.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EngineTally {
    /// The engine's name.
    pub name: String,
    /// As sente.
    pub as_black: Trinomial,
    /// As gote.
    pub as_white: Trinomial,
}

impl EngineTally {
    /// Both colours.
    pub fn total(&self) -> Trinomial {
        Trinomial {
            wins: self.as_black.wins + self.as_white.wins,
            losses: self.as_black.losses + self.as_white.losses,
            draws: self.as_black.draws + self.as_white.draws,
        }
    }
}

/// Results of one pairing, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairTally {
    /// The first engine.
    pub a: usize,
    /// The second engine.
    pub b: usize,
    /// Games.
    pub games: Trinomial,
    /// Complete pairs.
    pub pairs: Pentanomial,
    /// Pairs with one game in: pair id → the first engine's half points.
    pending: HashMap<usize, u8>,
}

/// The running results of a match.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Per engine.
    pub engines: Vec<EngineTally>,
    /// Per pairing.
    pub pairings: Vec<PairTally>,
    /// How games ended: termination kind → count.
    pub terminations: BTreeMap<String, u64>,
    /// Overheads per move, µs.
    pub overheads_us: Vec<u64>,
    /// Games counted.
    pub games: u64,
}

impl Tally {
    /// An empty tally for `settings`.
    pub fn new(settings: &Settings) -> Tally {
        Tally {
            engines: settings
                .engines
                .iter()
                .map(|e| EngineTally {
                    name: e.name.clone(),
                    ..EngineTally::default()
                })
                .collect(),
            pairings: pairings(settings)
                .into_iter()
                .map(|(a, b)| PairTally {
                    a,
                    b,
                    ..PairTally::default()
                })
                .collect(),
            ..Tally::default()
        }
    }

    /// Counts a game.
    pub fn add(&mut self, spec: &GameSpec, winner: Option<Color>, kind: &str) {
        self.games += 1;
        *self.terminations.entry(kind.to_string()).or_default() += 1;
        let add = |t: &mut Trinomial, won: Option<bool>| match won {
            Some(true) => t.wins += 1,
            Some(false) => t.losses += 1,
            None => t.draws += 1,
        };
        let black_won = winner.map(|c| c == Color::Black);
        add(&mut self.engines[spec.black].as_black, black_won);
        add(
            &mut self.engines[spec.white].as_white,
            black_won.map(|b| !b),
        );
        let Some(p) = self.pairings.get_mut(spec.pairing) else {
            return;
        };
        let a_black = spec.black == p.a;
        let a_won = black_won.map(|b| b == a_black);
        add(&mut p.games, a_won);
        let half = match a_won {
            Some(true) => 2,
            Some(false) => 0,
            None => 1,
        };
        match p.pending.remove(&spec.pair) {
            Some(first) => p.pairs.add_pair(first, half),
            None => {
                p.pending.insert(spec.pair, half);
            }
        }
    }

    /// The SPRT's log-likelihood ratio and decision over the first pairing, under the test's
    /// model: the complete pairs (pentanomial) where the model can use them, the games
    /// (trinomial) otherwise.
    pub fn sprt(&self, sprt: &Sprt) -> (f64, Decision) {
        let llr = self
            .pairings
            .first()
            .map_or(0.0, |p| sprt.llr(&p.games, Some(&p.pairs)));
        (llr, sprt.decide(llr))
    }

    /// The summary (what `--format json` prints).
    pub fn summary(&self, settings: &Settings, stopped_by_sprt: bool) -> Summary {
        let mut sorted = self.overheads_us.clone();
        sorted.sort_unstable();
        let pct = |q: f64| -> Option<u64> {
            if sorted.is_empty() {
                return None;
            }
            let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
            sorted.get(i).copied()
        };
        Summary {
            games: self.games,
            engines: self
                .engines
                .iter()
                .map(|e| {
                    let t = e.total();
                    EngineSummary {
                        name: e.name.clone(),
                        games: t.games(),
                        wins: t.wins,
                        losses: t.losses,
                        draws: t.draws,
                        score: t.score(),
                        as_black: e.as_black,
                        as_white: e.as_white,
                    }
                })
                .collect(),
            pairings: self
                .pairings
                .iter()
                .map(|p| {
                    let t = p.games;
                    let (lo, hi) = t.elo_interval();
                    PairSummary {
                        first: self.engines[p.a].name.clone(),
                        second: self.engines[p.b].name.clone(),
                        games: t.games(),
                        wins: t.wins,
                        losses: t.losses,
                        draws: t.draws,
                        score: t.score(),
                        elo: Figure(t.elo()),
                        elo_low: Figure(lo),
                        elo_high: Figure(hi),
                        elo_margin: Figure(t.elo_margin()),
                        los: t.los(),
                        draw_rate: t.draw_rate(),
                        normalized_elo: Figure(t.normalized_elo()),
                        normalized_elo_margin: Figure(t.normalized_elo_margin()),
                        pairs: p.pairs.pairs(),
                        pentanomial: p.pairs.counts,
                        pair_elo: Figure(p.pairs.elo()),
                        pair_elo_margin: Figure(p.pairs.elo_margin()),
                    }
                })
                .collect(),
            sprt: settings.sprt.map(|s| {
                let (llr, decision) = self.sprt(&s);
                SprtSummary {
                    elo0: s.elo0,
                    elo1: s.elo1,
                    alpha: s.alpha,
                    beta: s.beta,
                    model: s.model.describe(true),
                    llr,
                    lower_bound: s.lower_bound(),
                    upper_bound: s.upper_bound(),
                    decision,
                }
            }),
            stopped_by_sprt,
            terminations: self.terminations.clone(),
            overhead_us_median: pct(0.5),
            overhead_us_p99: pct(0.99),
            overhead_us_p999: pct(0.999),
            overhead_us_max: sorted.last().copied(),
            overhead_samples: sorted.len(),
        }
    }
}

/// One engine's results.
#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    /// Name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Won.
    pub wins: u64,
    /// Lost.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// Score per game.
    pub score: f64,
    /// As sente.
    pub as_black: Trinomial,
    /// As gote.
    pub as_white: Trinomial,
}

/// One pairing's results, the first engine's view.
#[derive(Clone, Debug, Serialize)]
pub struct PairSummary {
    /// First engine.
    pub first: String,
    /// Second engine.
    pub second: String,
    /// Games.
    pub games: u64,
    /// First's wins.
    pub wins: u64,
    /// First's losses.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// First's score.
    pub score: f64,
    /// Elo difference (±∞ after a perfect score: `"inf"`/`"-inf"` in JSON).
    pub elo: Figure,
    /// 95 % interval, low end.
    pub elo_low: Figure,
    /// 95 % interval, high end.
    pub elo_high: Figure,
    /// Half the interval (`nan` when an end is infinite and the other too).
    pub elo_margin: Figure,
    /// Likelihood of superiority (fastchess's formula).
    pub los: f64,
    /// Share of draws.
    pub draw_rate: f64,
    /// Normalized Elo (`nan` without variance at an even score: all draws).
    pub normalized_elo: Figure,
    /// Its 95 % margin.
    pub normalized_elo_margin: Figure,
    /// Complete pairs.
    pub pairs: u64,
    /// Pairs by score: LL, LD, WL+DD, WD, WW.
    pub pentanomial: [u64; 5],
    /// Elo over pairs.
    pub pair_elo: Figure,
    /// Its margin.
    pub pair_elo_margin: Figure,
}

/// The SPRT state.
#[derive(Clone, Debug, Serialize)]
pub struct SprtSummary {
    /// H0, normalized Elo.
    pub elo0: f64,
    /// H1, normalized Elo.
    pub elo1: f64,
    /// Alpha.
    pub alpha: f64,
    /// Beta.
    pub beta: f64,
    /// The model.
    pub model: &'static str,
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound.
    pub lower_bound: f64,
    /// Upper bound.
    pub upper_bound: f64,
    /// The decision.
    pub decision: Decision,
}

/// The match's results.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Games counted.
    pub games: u64,
    /// Per engine.
    pub engines: Vec<EngineSummary>,
    /// Per pairing.
    pub pairings: Vec<PairSummary>,
    /// The SPRT, when asked for.
    pub sprt: Option<SprtSummary>,
    /// Whether the SPRT ended the match.
    pub stopped_by_sprt: bool,
    /// How games ended.
    pub terminations: BTreeMap<String, u64>,
    /// Median overhead per move (bestmove read → next go written), µs.
    pub overhead_us_median: Option<u64>,
    /// Its 99th percentile.
    pub overhead_us_p99: Option<u64>,
    /// Its 99.9th percentile.
    pub overhead_us_p999: Option<u64>,
    /// The largest.
    pub overhead_us_max: Option<u64>,
    /// Moves measured.
    pub overhead_samples: usize,
}

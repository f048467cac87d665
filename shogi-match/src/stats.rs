//! Match statistics: score, Elo with its 95 % interval, LOS, draw rate, normalized Elo, the
//! pentanomial view over game pairs, and the SPRT log-likelihood ratio.
//!
//! Formulas (ENGINE-FACTS §5.5–5.6, from fastchess and cutechess):
//!
//! * score s = (W + D/2)/N, Elo(s) = −400·log10(1/s − 1);
//! * per-game variance σ² = (W/N)(1−s)² + (L/N)s² + (D/N)(½−s)²; the 95 % interval is
//!   [Elo(s − z·σ/√N), Elo(s + z·σ/√N)] with z = 1.959963984540054 (fastchess); cutechess's
//!   margin with its approximate z is [`Trinomial::cutechess_margin`];
//! * LOS: fastchess ½(1 − erf(−(s−½)/√(2σ²/N))), cutechess 0.5 + 0.5·erf((W−L)/√(2(W+L)));
//! * normalized Elo (s−½)/σ·800/ln 10, per game (trinomial) or (s−½)/√(2σ²) per pair;
//! * pentanomial: pairs scored LL 0, LD ¼, WL and DD ½, WD ¾, WW 1, the same formulas over
//!   pairs with N the number of pairs.
//!
//! The SPRT model is fastchess's default, `normalized`: a generalized likelihood ratio with
//! the distributions constrained to (μ−½)/σ = t, t = nElo·ln 10/800 per game (trinomial) or
//! √2·nElo·ln 10/800 per pair (pentanomial, used whenever games are played in pairs). So the
//! SPRT bounds `elo0, elo1` are **normalized** Elo, as in fastchess. The `logistic` variant
//! (constraint on the mean score), fastchess's `bayesian` (the logistic construction with the
//! mean score of a BayesElo model whose draw Elo is estimated from the games, trinomial only)
//! and cutechess's trinomial BayesElo model are given too, chosen by [`SprtModel`].
//!
//! ```
//! use shogi_match::stats::{EloSample, Sprt, Trinomial};
//! let t = Trinomial { wins: 120, losses: 80, draws: 100 };
//! assert_eq!(format!("{:.2}", t.elo()), "46.60");
//! let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
//! assert_eq!(format!("{:.3}", sprt.llr_trinomial(&t)), "0.674");
//! ```

use crate::error::{MatchError, Parameter};
use serde::Serialize;
use std::f64::consts::{LN_10, PI};

/// z for a two-sided 95 % interval (the normal distribution's 0.975 quantile).
pub const Z95: f64 = 1.959963984540054;

/// Elo difference for an expected score `s` (0 < s < 1; ±infinity at the ends).
pub fn elo_from_score(s: f64) -> f64 {
    // `+ 0.0` turns the −0 of an even score into 0.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// Expected score for an Elo difference (the logistic curve).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to about 1e-15 (series below 2.5, continued fraction above).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // erf x = 2/√π · Σ (−1)ⁿ x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        2.0 / PI.sqrt() * sum
    } else {
        // erfc x = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), evaluated
        // from the tail.
        let mut f = x;
        for k in (1..60).rev() {
            f = x + (k as f64 / 2.0) / f;
        }
        1.0 - (-x * x).exp() / PI.sqrt() / f
    }
}

/// cutechess's approximate inverse error function (Winitzki's formula, a = 8(π−3)/(3π(4−π))).
fn erf_inv_approx(x: f64) -> f64 {
    let a = 8.0 * (PI - 3.0) / (3.0 * PI * (4.0 - PI));
    let y = (1.0 - x * x).ln();
    let z = 2.0 / (PI * a) + y / 2.0;
    let r = ((z * z - y / a).sqrt() - z).sqrt();
    if x < 0.0 { -r } else { r }
}

/// cutechess's and cshogi's approximate normal quantile (1.957162 at 0.975).
pub fn phi_inv_approx(p: f64) -> f64 {
    std::f64::consts::SQRT_2 * erf_inv_approx(2.0 * p - 1.0)
}

/// The Elo view of a sample of games ([`Trinomial`]) or of game pairs ([`Pentanomial`]): what
/// the formulas need is the mean score, the variance of one unit's score and the number of
/// units.
pub trait EloSample {
    /// Mean score per unit (0.5 with none).
    fn mean(&self) -> f64;
    /// Variance of one unit's score.
    fn var(&self) -> f64;
    /// Number of units (games, or pairs).
    fn units(&self) -> u64;

    /// Elo difference.
    fn elo(&self) -> f64 {
        elo_from_score(self.mean())
    }

    /// The 95 % interval of the Elo difference (fastchess's z).
    fn elo_interval(&self) -> (f64, f64) {
        interval(self.mean(), self.var(), self.units() as f64, Z95)
    }

    /// Half the width of [`EloSample::elo_interval`] (the printed "±").
    fn elo_margin(&self) -> f64 {
        let (lo, hi) = self.elo_interval();
        (hi - lo) / 2.0
    }

    /// Likelihood of superiority as fastchess computes it (draws count through σ).
    fn los(&self) -> f64 {
        los(self.mean(), self.var(), self.units() as f64)
    }
}

impl EloSample for Trinomial {
    fn mean(&self) -> f64 {
        self.score()
    }
    fn var(&self) -> f64 {
        self.variance()
    }
    fn units(&self) -> u64 {
        self.games()
    }
}

impl EloSample for Pentanomial {
    fn mean(&self) -> f64 {
        self.score()
    }
    fn var(&self) -> f64 {
        self.variance()
    }
    fn units(&self) -> u64 {
        self.pairs()
    }
}

/// Win, loss and draw counts, from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
}

impl Trinomial {
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Score per game, (W + D/2)/N (0.5 with no game).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
    }

    /// Per-game variance of the score.
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        let (w, l, d) = (
            self.wins as f64 / n,
            self.losses as f64 / n,
            self.draws as f64 / n,
        );
        w * (1.0 - s).powi(2) + l * s.powi(2) + d * (0.5 - s).powi(2)
    }

    /// The margin cutechess and cshogi print (their approximate z, 1.957162).
    pub fn cutechess_margin(&self) -> f64 {
        let (lo, hi) = interval(
            self.score(),
            self.variance(),
            self.games() as f64,
            phi_inv_approx(0.975),
        );
        (hi - lo) / 2.0
    }

    /// Likelihood of superiority as cutechess and cshogi compute it (draws ignored).
    pub fn los_cutechess(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 + 0.5 * erf((w - l) / (2.0 * (w + l)).sqrt())
    }

    /// Share of draws.
    pub fn draw_rate(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        self.draws as f64 / n as f64
    }

    /// Normalized Elo, (s−½)/σ·800/ln 10.
    pub fn normalized_elo(&self) -> f64 {
        normalized(self.score(), self.variance().sqrt())
    }

    /// The 95 % margin of the normalized Elo, z/√N·800/ln 10.
    pub fn normalized_elo_margin(&self) -> f64 {
        normalized_margin(self.variance(), self.games() as f64)
    }

    /// The same counts seen from the other engine.
    pub fn flipped(&self) -> Trinomial {
        Trinomial {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }
}

/// Game pairs (the same opening with colours swapped) by their total: LL, LD, WL+DD, WD, WW.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    /// Counts of pair scores 0, ¼, ½ (WL and DD), ¾, 1.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Adds a pair from the two games' scores (1, ½, 0 each, as 2, 1, 0 half points).
    pub fn add_pair(&mut self, first_half_points: u8, second_half_points: u8) {
        let i = usize::from(first_half_points.min(2) + second_half_points.min(2));
        self.counts[i] += 1;
    }

    fn probs(&self) -> [f64; 5] {
        let n = self.pairs() as f64;
        self.counts
            .map(|c| if n == 0.0 { 0.0 } else { c as f64 / n })
    }

    /// Score per pair (per game, as both games count).
    pub fn score(&self) -> f64 {
        if self.pairs() == 0 {
            return 0.5;
        }
        self.probs()
            .iter()
            .zip(PENTA_SCORES)
            .map(|(p, a)| p * a)
            .sum()
    }

    /// Variance of the pair score.
    pub fn variance(&self) -> f64 {
        let s = self.score();
        self.probs()
            .iter()
            .zip(PENTA_SCORES)
            .map(|(p, a)| p * (a - s).powi(2))
            .sum()
    }

    /// Normalized Elo over pairs, (s−½)/√(2σ²)·800/ln 10.
    pub fn normalized_elo(&self) -> f64 {
        normalized(self.score(), (2.0 * self.variance()).sqrt())
    }

    /// The 95 % margin of the normalized Elo, z/√(2N)·800/ln 10.
    pub fn normalized_elo_margin(&self) -> f64 {
        normalized_margin(self.variance(), 2.0 * self.pairs() as f64)
    }

    /// The games of the pairs as W/L/D (WL and DD cannot be told apart: counts must be given
    /// separately for that; here the middle class is taken as `wl` pairs WL, the rest DD).
    pub fn to_trinomial(&self, wl: u64) -> Trinomial {
        let [ll, ld, mid, wd, ww] = self.counts;
        let dd = mid.saturating_sub(wl);
        Trinomial {
            wins: wl + wd + 2 * ww,
            losses: 2 * ll + ld + wl,
            draws: ld + 2 * dd + wd,
        }
    }
}

const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
const TRI_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The Elo interval of score `s` ± z·σ/√n. A score bound past 0 or 1 is taken at 0 or 1
/// (Elo −∞ or +∞): fastchess computes the Elo of the raw bound, which is `nan` past 1.
fn interval(s: f64, var: f64, n: f64, z: f64) -> (f64, f64) {
    if n == 0.0 {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    let d = z * (var / n).sqrt();
    (
        elo_from_score((s - d).clamp(0.0, 1.0)),
        elo_from_score((s + d).clamp(0.0, 1.0)),
    )
}

/// LOS, fastchess's formula. Without variance (every unit scored alike) it is its limit: 1
/// above an even score, 0 below; at an even score with no variance (all draws, or no game)
/// there is no evidence either way: ½ (fastchess's formula gives `nan` there).
fn los(s: f64, var: f64, n: f64) -> f64 {
    if n == 0.0 || var == 0.0 {
        return match s.partial_cmp(&0.5) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Less) => 0.0,
            _ => 0.5,
        };
    }
    0.5 * (1.0 - erf(-(s - 0.5) / (2.0 * var / n).sqrt()))
}

/// Normalized Elo, (s−½)/σ·800/ln 10: ±∞ with no variance off an even score, undefined
/// (`nan`) at an even score with no variance, as fastchess computes it.
fn normalized(s: f64, sigma: f64) -> f64 {
    (s - 0.5) / sigma * 800.0 / LN_10
}

/// The 95 % margin of the normalized Elo over `n` units, z/√n·800/ln 10; undefined (`nan`)
/// without variance, as fastchess computes it.
fn normalized_margin(var: f64, n: f64) -> f64 {
    if var == 0.0 {
        return f64::NAN;
    }
    Z95 / n.sqrt() * 800.0 / LN_10
}

/// A figure of the statistics printed as fastchess prints it: two decimals (or the precision
/// asked), `inf`, `-inf` for an infinite one (the Elo of a perfect score) and `nan` for an
/// undefined one (the margin of an infinite Elo, the normalized Elo of all draws). In JSON a
/// finite figure is a number and the others these strings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure(pub f64);

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        if v.is_nan() {
            f.write_str("nan")
        } else if v.is_infinite() {
            f.write_str(if v > 0.0 { "inf" } else { "-inf" })
        } else {
            let p = f.precision().unwrap_or(2);
            if f.sign_plus() {
                write!(f, "{v:+.p$}")
            } else {
                write!(f, "{v:.p$}")
            }
        }
    }
}

impl Serialize for Figure {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64(self.0)
        } else {
            s.collect_str(self)
        }
    }
}

/// What the SPRT says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Not decided yet.
    Continue,
    /// H0 accepted (the change is not better by elo1).
    H0,
    /// H1 accepted (the change is better by elo0).
    H1,
}

/// The model of an SPRT: what `elo0`/`elo1` mean and how the likelihood ratio is formed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtModel {
    /// fastchess's default: normalized Elo, pentanomial over game pairs when games are paired.
    #[default]
    Normalized,
    /// fastchess's `logistic`: logistic Elo (a constraint on the mean score), pentanomial when
    /// paired.
    Logistic,
    /// fastchess's `bayesian`: BayesElo with the draw Elo estimated from the games, trinomial
    /// only (the LLR is 0 while there is no win or no loss).
    Bayesian,
    /// cutechess-cli's trinomial BayesElo model.
    Cutechess,
}

impl SprtModel {
    /// Every model, in the order the names are listed.
    pub const ALL: [SprtModel; 4] = [
        SprtModel::Normalized,
        SprtModel::Logistic,
        SprtModel::Bayesian,
        SprtModel::Cutechess,
    ];

    /// The name used on the command line (`normalized`, `logistic`, `bayesian`, `cutechess`).
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
            SprtModel::Bayesian => "bayesian",
            SprtModel::Cutechess => "cutechess",
        }
    }

    /// Whether the model can use game pairs (pentanomial).
    pub fn pentanomial(self) -> bool {
        matches!(self, SprtModel::Normalized | SprtModel::Logistic)
    }

    /// A one-line description (for the summary).
    pub fn describe(self, paired: bool) -> &'static str {
        match (self, paired) {
            (SprtModel::Normalized, true) => "normalized, pentanomial over game pairs (fastchess)",
            (SprtModel::Normalized, false) => "normalized, trinomial (fastchess)",
            (SprtModel::Logistic, true) => "logistic, pentanomial over game pairs (fastchess)",
            (SprtModel::Logistic, false) => "logistic, trinomial (fastchess)",
            (SprtModel::Bayesian, _) => "bayesian, trinomial (fastchess)",
            (SprtModel::Cutechess, _) => "BayesElo, trinomial (cutechess-cli)",
        }
    }
}

impl std::str::FromStr for SprtModel {
    type Err = MatchError;

    fn from_str(s: &str) -> Result<SprtModel, MatchError> {
        SprtModel::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                MatchError::setting(
                    Parameter::SprtModel,
                    format!(
                        "{s:?}: unknown SPRT model: use normalized, logistic, bayesian or cutechess"
                    ),
                )
            })
    }
}

/// A sequential probability ratio test of elo0 against elo1 with error rates alpha and beta;
/// what the Elo bounds mean depends on the [`SprtModel`] (normalized Elo by default, as in
/// fastchess).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// Normalized Elo of H0.
    pub elo0: f64,
    /// Normalized Elo of H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// The model.
    pub model: SprtModel,
}

impl Sprt {
    /// A test; `None` unless 0 < alpha, beta < 1, alpha + beta < 1 and elo0 < elo1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Option<Sprt> {
        let ok = |p: f64| p > 0.0 && p < 1.0;
        (ok(alpha)
            && ok(beta)
            && alpha + beta < 1.0
            && elo0 < elo1
            && elo0.is_finite()
            && elo1.is_finite())
        .then_some(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model: SprtModel::Normalized,
        })
    }

    /// The same test under another model.
    pub fn with_model(self, model: SprtModel) -> Sprt {
        Sprt { model, ..self }
    }

    /// The LLR under this test's model: of the complete game pairs when the model can use
    /// them and `pairs` is given, of the single games otherwise.
    pub fn llr(&self, games: &Trinomial, pairs: Option<&Pentanomial>) -> f64 {
        match (self.model, pairs) {
            (SprtModel::Normalized, Some(p)) => self.llr_pentanomial(p),
            (SprtModel::Normalized, None) => self.llr_trinomial(games),
            (SprtModel::Logistic, Some(p)) => self.llr_pentanomial_logistic(p),
            (SprtModel::Logistic, None) => self.llr_trinomial_logistic(games),
            (SprtModel::Bayesian, _) => self.llr_bayesian(games),
            (SprtModel::Cutechess, _) => self.llr_cutechess(games),
        }
    }

    /// Lower bound ln(β/(1−α)): H0 is accepted at or below it.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper bound ln((1−β)/α): H1 is accepted at or above it.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> Decision {
        if llr >= self.upper_bound() {
            Decision::H1
        } else if llr <= self.lower_bound() {
            Decision::H0
        } else {
            Decision::Continue
        }
    }

    /// LLR of single games (trinomial), normalized model.
    pub fn llr_trinomial(&self, t: &Trinomial) -> f64 {
        let counts = [t.losses, t.draws, t.wins];
        let t_of = |elo: f64| elo * LN_10 / 800.0;
        llr_normalized(&counts, &TRI_SCORES, t_of(self.elo0), t_of(self.elo1))
    }

    /// LLR of game pairs (pentanomial), normalized model.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        let t_of = |elo: f64| std::f64::consts::SQRT_2 * elo * LN_10 / 800.0;
        llr_normalized(&p.counts, &PENTA_SCORES, t_of(self.elo0), t_of(self.elo1))
    }

    /// LLR of single games, fastchess's `logistic` model (elo0, elo1 as logistic Elo).
    pub fn llr_trinomial_logistic(&self, t: &Trinomial) -> f64 {
        let counts = [t.losses, t.draws, t.wins];
        llr_logistic(&counts, &TRI_SCORES, self.elo0, self.elo1)
    }

    /// LLR of game pairs, fastchess's `logistic` model.
    pub fn llr_pentanomial_logistic(&self, p: &Pentanomial) -> f64 {
        llr_logistic(&p.counts, &PENTA_SCORES, self.elo0, self.elo1)
    }

    /// LLR of single games, fastchess's `bayesian` model: elo0, elo1 are BayesElo, turned into
    /// expected scores with the draw Elo 200·log10(((1−l)/l)·((1−w)/w)) of the (regularized)
    /// sample's win and loss rates, then the logistic model's likelihood ratio. 0 while the
    /// games have no win or no loss (as fastchess).
    pub fn llr_bayesian(&self, t: &Trinomial) -> f64 {
        if t.wins == 0 || t.losses == 0 {
            return 0.0;
        }
        let counts = [t.losses, t.draws, t.wins];
        let (_, p) = regularized(&counts);
        let (l, w) = (p[0], p[2]);
        let draw_elo = 200.0 * (((1.0 - l) / l) * ((1.0 - w) / w)).log10();
        let score = |elo: f64| {
            let pw = 1.0 / (1.0 + 10f64.powf((draw_elo - elo) / 400.0));
            let pl = 1.0 / (1.0 + 10f64.powf((draw_elo + elo) / 400.0));
            pw + 0.5 * (1.0 - pw - pl)
        };
        llr_mean(&counts, &TRI_SCORES, score(self.elo0), score(self.elo1))
    }

    /// LLR of cutechess's trinomial BayesElo model (elo0, elo1 as BayesElo scaled by the
    /// draw rate measured).
    pub fn llr_cutechess(&self, t: &Trinomial) -> f64 {
        if t.games() == 0 {
            return 0.0;
        }
        let (w, l, d) = (
            t.wins as f64 + 0.5,
            t.losses as f64 + 0.5,
            t.draws as f64 + 0.5,
        );
        let n = w + l + d;
        let (pw, pl) = (w / n, l / n);
        let draw_elo = 200.0 * (((1.0 - pl) / pl) * ((1.0 - pw) / pw)).log10();
        let x = 10f64.powf(-draw_elo / 400.0);
        let scale = 4.0 * x / (1.0 + x).powi(2);
        let probs = |elo: f64| {
            let b = elo / scale;
            let pw = 1.0 / (1.0 + 10f64.powf((draw_elo - b) / 400.0));
            let pl = 1.0 / (1.0 + 10f64.powf((draw_elo + b) / 400.0));
            (pw, pl, 1.0 - pw - pl)
        };
        let (w0, l0, d0) = probs(self.elo0);
        let (w1, l1, d1) = probs(self.elo1);
        w * (w1 / w0).ln() + l * (l1 / l0).ln() + d * (d1 / d0).ln()
    }
}

/// Empirical distribution with zero counts replaced by 0.001 (fastchess), and its size.
fn regularized(counts: &[u64]) -> (f64, Vec<f64>) {
    let c: Vec<f64> = counts.iter().map(|&c| (c as f64).max(1e-3)).collect();
    let n: f64 = c.iter().sum();
    (n, c.iter().map(|x| x / n).collect())
}

fn mean_var(p: &[f64], a: &[f64]) -> (f64, f64) {
    let mu: f64 = p.iter().zip(a).map(|(p, a)| p * a).sum();
    let var = p.iter().zip(a).map(|(p, a)| p * (a - mu).powi(2)).sum();
    (mu, var)
}

/// Solves Σ pᵢ·cᵢ/(1 + x·cᵢ) = 0 for x in (−1/max c, −1/min c) by bisection (the left side
/// decreases in x). Needs min c < 0 < max c.
fn secular(p: &[f64], c: &[f64]) -> f64 {
    let lo_c = c.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi_c = c.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if !(lo_c < 0.0 && hi_c > 0.0) {
        return 0.0;
    }
    let eps = 1e-9;
    let (mut lo, mut hi) = (-1.0 / hi_c + eps, -1.0 / lo_c - eps);
    let f = |x: f64| -> f64 { p.iter().zip(c).map(|(p, c)| p * c / (1.0 + x * c)).sum() };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The maximum-likelihood distribution with mean `s`.
fn mle_mean(p: &[f64], a: &[f64], s: f64) -> Vec<f64> {
    let c: Vec<f64> = a.iter().map(|a| a - s).collect();
    let x = secular(p, &c);
    p.iter().zip(&c).map(|(p, c)| p / (1.0 + x * c)).collect()
}

/// The maximum-likelihood distribution with (μ − ½)/σ = t (Van den Bergh's iteration, at most
/// 10 rounds, as fastchess).
fn mle_t(p: &[f64], a: &[f64], t: f64) -> Vec<f64> {
    let n = p.len();
    let mut q = vec![1.0 / n as f64; n];
    for _ in 0..10 {
        let prev = q.clone();
        let (mu, var) = mean_var(&q, a);
        let sigma = var.sqrt();
        let c: Vec<f64> = a
            .iter()
            .map(|&ai| ai - 0.5 - t * sigma * (1.0 + ((mu - ai) / sigma).powi(2)) / 2.0)
            .collect();
        let x = secular(p, &c);
        q = p.iter().zip(&c).map(|(p, c)| p / (1.0 + x * c)).collect();
        if q.iter().zip(&prev).all(|(a, b)| (a - b).abs() < 1e-9) {
            break;
        }
    }
    q
}

fn llr_of(n: f64, p: &[f64], p0: &[f64], p1: &[f64]) -> f64 {
    n * p
        .iter()
        .zip(p0.iter().zip(p1))
        .map(|(p, (q0, q1))| p * (q1 / q0).ln())
        .sum::<f64>()
}

fn llr_normalized(counts: &[u64], a: &[f64], t0: f64, t1: f64) -> f64 {
    if counts.iter().sum::<u64>() == 0 {
        return 0.0;
    }
    let (n, p) = regularized(counts);
    let p0 = mle_t(&p, a, t0);
    let p1 = mle_t(&p, a, t1);
    llr_of(n, &p, &p0, &p1)
}

fn llr_logistic(counts: &[u64], a: &[f64], elo0: f64, elo1: f64) -> f64 {
    llr_mean(counts, a, score_from_elo(elo0), score_from_elo(elo1))
}

/// The generalized LLR with the distributions constrained to mean scores `s0` and `s1`.
fn llr_mean(counts: &[u64], a: &[f64], s0: f64, s1: f64) -> f64 {
    if counts.iter().sum::<u64>() == 0 {
        return 0.0;
    }
    let (n, p) = regularized(counts);
    let p0 = mle_mean(&p, a, s0);
    let p1 = mle_mean(&p, a, s1);
    llr_of(n, &p, &p0, &p1)
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;

//! Tests of the match statistics: worked examples, degenerate results, SPRT bounds.

use super::*;

fn f(x: f64, digits: usize) -> String {
    format!("{x:.digits$}")
}

// ENGINE-FACTS §5.7, example 1: W 120, L 80, D 100; SPRT elo0 0, elo1 5, α = β = 0.05.
#[test]
fn worked_example_trinomial() {
    let t = Trinomial {
        wins: 120,
        losses: 80,
        draws: 100,
    };
    assert_eq!(f(t.score(), 6), "0.566667");
    assert_eq!(f(t.variance(), 6), "0.162222");
    assert_eq!(f(t.elo(), 2), "46.60");
    let (lo, hi) = t.elo_interval();
    assert_eq!((f(lo, 2), f(hi, 2)), ("14.66".into(), "79.35".into()));
    assert_eq!(f(t.elo_margin(), 2), "32.34");
    assert_eq!(f(t.cutechess_margin(), 2), "32.29");
    assert_eq!(f(100.0 * t.los_cutechess(), 2), "99.77");
    assert_eq!(f(100.0 * t.los(), 2), "99.79");
    assert_eq!(f(t.normalized_elo(), 2), "57.51");
    assert_eq!(f(t.normalized_elo_margin(), 2), "39.32");
    assert_eq!(f(t.draw_rate(), 4), "0.3333");
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
    assert_eq!(f(sprt.llr_trinomial(&t), 3), "0.674");
    assert_eq!(f(sprt.llr_trinomial_logistic(&t), 3), "0.817");
    assert_eq!(f(sprt.llr_cutechess(&t), 3), "0.825");
    assert_eq!(f(sprt.llr_bayesian(&t), 3), "0.728");
    // Chosen by name, the models give the same numbers.
    let by = |name: &str| {
        let m: SprtModel = name.parse().unwrap();
        f(sprt.with_model(m).llr(&t, None), 3)
    };
    assert_eq!(
        ["normalized", "logistic", "bayesian", "cutechess"].map(by),
        ["0.674", "0.817", "0.728", "0.825"]
    );
    assert!("gsprt".parse::<SprtModel>().is_err());
    assert_eq!(f(sprt.lower_bound(), 4), "-2.9444");
    assert_eq!(f(sprt.upper_bound(), 4), "2.9444");
    assert_eq!(sprt.decide(sprt.llr_trinomial(&t)), Decision::Continue);
    assert_eq!(f(phi_inv_approx(0.975), 6), "1.957162");
}

// ENGINE-FACTS §5.7, example 2: 150 pairs LL 5, LD 25, WL 20, DD 40, WD 40, WW 20.
#[test]
fn worked_example_pentanomial() {
    let p = Pentanomial {
        counts: [5, 25, 60, 40, 20],
    };
    assert_eq!(p.pairs(), 150);
    assert_eq!(f(p.score(), 3), "0.575");
    assert_eq!(f(p.variance(), 6), "0.063125");
    assert_eq!(f(p.elo(), 2), "52.51");
    let (lo, hi) = p.elo_interval();
    assert_eq!((f(lo, 2), f(hi, 2)), ("24.22".into(), "81.52".into()));
    assert_eq!(f(p.elo_margin(), 2), "28.65");
    assert_eq!(f(100.0 * p.los(), 2), "99.99");
    assert_eq!(f(p.normalized_elo(), 2), "73.34");
    let t = p.to_trinomial(20);
    assert_eq!(
        t,
        Trinomial {
            wins: 100,
            losses: 55,
            draws: 145
        }
    );
    assert_eq!(f(t.elo_margin(), 2), "28.34");
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
    assert_eq!(f(sprt.llr_pentanomial(&p), 3), "0.851");
    assert_eq!(f(sprt.llr_pentanomial_logistic(&p), 3), "1.147");
    assert_eq!(f(sprt.llr_trinomial(&t), 3), "0.870");
    assert_eq!(f(sprt.llr_trinomial_logistic(&t), 3), "1.196");
    assert_eq!(sprt.decide(sprt.llr_pentanomial(&p)), Decision::Continue);
}

#[test]
fn bounds_and_decisions() {
    let s = Sprt::new(0.0, 5.0, 0.01, 0.01).unwrap();
    assert_eq!(f(s.upper_bound(), 4), "4.5951");
    assert_eq!(s.decide(4.6), Decision::H1);
    assert_eq!(s.decide(-4.6), Decision::H0);
    assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_none());
    assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_none());
    // A clear superiority decides H1; a clear inferiority H0.
    let strong = Trinomial {
        wins: 600,
        losses: 200,
        draws: 200,
    };
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
    assert_eq!(sprt.decide(sprt.llr_trinomial(&strong)), Decision::H1);
    assert_eq!(
        sprt.decide(sprt.llr_trinomial(&strong.flipped())),
        Decision::H0
    );
}

#[test]
fn erf_values() {
    // erf(0.5) = 0.5204998778130465, erf(1) = 0.8427007929497149, erf(3) = 0.9999779095030014
    assert!((erf(0.5) - 0.5204998778130465).abs() < 1e-14);
    assert!((erf(1.0) - 0.8427007929497149).abs() < 1e-14);
    assert!((erf(3.0) - 0.9999779095030014).abs() < 1e-14);
    assert!((erf(-1.0) + 0.8427007929497149).abs() < 1e-14);
}

/// Elo, margin, nElo, its margin and LOS as a match line prints them (fastchess's form).
fn line<T: EloSample>(t: &T, nelo: f64, nelo_margin: f64) -> String {
    format!(
        "Elo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}, LOS: {:.2} %",
        Figure(t.elo()),
        Figure(t.elo_margin()),
        Figure(nelo),
        Figure(nelo_margin),
        100.0 * t.los()
    )
}

fn tri(wins: u64, losses: u64, draws: u64) -> String {
    let t = Trinomial {
        wins,
        losses,
        draws,
    };
    line(&t, t.normalized_elo(), t.normalized_elo_margin())
}

fn penta(counts: [u64; 5]) -> String {
    let p = Pentanomial { counts };
    line(&p, p.normalized_elo(), p.normalized_elo_margin())
}

#[test]
fn degenerate_results_are_right() {
    // Worked by hand. A perfect score is an infinite Elo whose interval is [inf, inf]
    // (its half-width undefined, `nan` as fastchess prints it); LOS is its limit, 0 or 1.
    // This was `Elo inf ± inf, LOS 50.0 %, nElo +0.0` for the engine that lost 0-4.
    assert_eq!(
        tri(0, 4, 0),
        "Elo: -inf +/- nan, nElo: -inf +/- nan, LOS: 0.00 %"
    );
    assert_eq!(
        tri(4, 0, 0),
        "Elo: inf +/- nan, nElo: inf +/- nan, LOS: 100.00 %"
    );
    assert_eq!(tri(1, 0, 0), tri(4, 0, 0), "one game");
    assert_eq!(tri(0, 1, 0), tri(0, 4, 0), "one game");
    // All draws: Elo 0 with no spread; the normalized Elo is 0/0, undefined; LOS ½.
    assert_eq!(
        tri(0, 0, 6),
        "Elo: 0.00 +/- 0.00, nElo: nan +/- nan, LOS: 50.00 %"
    );
    // 3-1: s = 0.75, σ² = 0.1875, s ± 1.96·√(σ²/4) = [0.3257, 1.1743]; the upper bound is
    // past 1: Elo +inf (fastchess takes the Elo of 1.1743, which is nan).
    let t = Trinomial {
        wins: 3,
        losses: 1,
        draws: 0,
    };
    let (lo, hi) = t.elo_interval();
    assert_eq!(
        format!("{:.2} {:.2}", Figure(lo), Figure(hi)),
        "-126.45 inf"
    );
    assert_eq!(format!("{:.2}", Figure(t.elo())), "190.85");
    assert_eq!(format!("{:.2}", Figure(t.elo_margin())), "inf");
    // Pairs: one pair WL (½) is like all draws; one pair WW a perfect score.
    assert_eq!(
        penta([0, 0, 1, 0, 0]),
        "Elo: 0.00 +/- 0.00, nElo: nan +/- nan, LOS: 50.00 %"
    );
    assert_eq!(
        penta([0, 0, 0, 0, 1]),
        "Elo: inf +/- nan, nElo: inf +/- nan, LOS: 100.00 %"
    );
    assert_eq!(
        penta([2, 0, 0, 0, 0]),
        "Elo: -inf +/- nan, nElo: -inf +/- nan, LOS: 0.00 %"
    );
    // The figures' JSON: numbers when finite, fastchess's words otherwise.
    let json =
        serde_json::to_string(&[Figure(1.5), Figure(f64::NEG_INFINITY), Figure(f64::NAN)]).unwrap();
    assert_eq!(json, r#"[1.5,"-inf","nan"]"#);
    assert_eq!(format!("{:+.1}", Figure(58.46)), "+58.5");
}

#[test]
fn empty_counts_do_not_divide_by_zero() {
    let t = Trinomial::default();
    assert_eq!(t.score(), 0.5);
    assert_eq!(t.los(), 0.5);
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
    assert_eq!(sprt.llr_trinomial(&t), 0.0);
    assert_eq!(sprt.llr_pentanomial(&Pentanomial::default()), 0.0);
    // fastchess's bayesian model gives 0 until there is a win and a loss.
    let no_loss = Trinomial {
        wins: 5,
        losses: 0,
        draws: 3,
    };
    assert_eq!(sprt.llr_bayesian(&no_loss), 0.0);
    assert_eq!(sprt.llr_bayesian(&no_loss.flipped()), 0.0);
    assert!(
        sprt.llr_bayesian(&Trinomial {
            losses: 1,
            ..no_loss
        }) > 0.0
    );
}

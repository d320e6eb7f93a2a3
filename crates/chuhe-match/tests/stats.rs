//! The figures against values worked out by hand: the game-pair (pentanomial) score,
//! variance, Elo and the SPRT's log-likelihood ratio, and no `-0`, NaN or infinity anywhere.

use chuhe_match::{EloModel, Pentanomial, Sprt, SprtVerdict, Tally};

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

/// [LL, LD, DD+WL, WD, WW] = [1, 2, 3, 4, 2]: 12 pairs worth 0, ¼, ½, ¾, 1 per game.
fn sample() -> Pentanomial {
    Pentanomial {
        ll: 1,
        ld: 2,
        dd: 2,
        wl: 1,
        wd: 4,
        ww: 2,
    }
}

#[test]
fn pairs_are_counted_by_their_two_results() {
    let mut p = Pentanomial::default();
    for (a, b) in [
        (0.0, 0.0),
        (0.5, 0.0),
        (0.0, 0.5),
        (0.5, 0.5),
        (1.0, 0.0),
        (0.0, 1.0),
        (1.0, 0.5),
        (1.0, 1.0),
    ] {
        p.add(a, b);
    }
    assert_eq!((p.ll, p.ld, p.dd, p.wl, p.wd, p.ww), (1, 2, 1, 2, 1, 1));
    assert_eq!(p.counts(), [1, 2, 3, 1, 1]);
    assert_eq!(p.pairs(), 8);
}

#[test]
fn pentanomial_score_variance_and_elo_match_the_hand_computation() {
    let p = sample();
    assert_eq!(p.counts(), [1, 2, 3, 4, 2]);
    // score = (2·¼ + 3·½ + 4·¾ + 2·1) / 12 = 7/12
    assert!(close(p.score(), 7.0 / 12.0, 1e-12));
    // variance = Σ cᵢ (xᵢ − 7/12)² / 12 = 12.5/144 = 25/288
    assert!(close(p.variance(), 25.0 / 288.0, 1e-12), "{}", p.variance());
    // Elo = −400 log10(12/7 − 1) = 58.45; the interval: s ± 1.96·√(v/12) → ± 124.68
    let elo = p.elo();
    assert_eq!(elo.elo, Some(58.5));
    assert_eq!(elo.error, Some(124.7));
    // nElo = (7/12 − ½) / √(2v) · 800/ln 10 = 69.49, ± 1.96 · 347.44 / √24 = 139.0
    assert_eq!(p.normalized_elo(), Some((69.5, 139.0)));
}

#[test]
fn pentanomial_sprt_matches_the_hand_computation() {
    let p = sample();
    let mut sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
    assert_eq!(sprt.model, EloModel::Normalized);
    // Bounds ln(0.05/0.95) and ln(0.95/0.05).
    let (lower, upper) = sprt.bounds();
    assert!(close(lower, -2.944439, 1e-6) && close(upper, 2.944439, 1e-6));
    // Normalized: s0 = ½, s1 = ½ + 10/347.44 · √(2v); LLR = N (s1−s0)(2s−s0−s1) / 2v = 0.12821
    assert!(
        close(sprt.llr_pentanomial(&p), 0.128214, 1e-5),
        "{}",
        sprt.llr_pentanomial(&p)
    );
    // Logistic: s0 = ½, s1 = 1/(1+10^(−10/400)); LLR = 0.15143
    sprt.model = EloModel::Logistic;
    assert!(
        close(sprt.llr_pentanomial(&p), 0.151433, 1e-5),
        "{}",
        sprt.llr_pentanomial(&p)
    );
    // No pairs: no evidence either way.
    assert_eq!(sprt.llr_pentanomial(&Pentanomial::default()), 0.0);
    // Every pair drawn: counts of 0 are regularized to 0.001, so the variance is tiny but
    // not 0 and the LLR is finite, favouring H0 (no NaN from a zero variance).
    let all_draws = Pentanomial {
        dd: 5,
        ..Pentanomial::default()
    };
    let llr = sprt.llr_pentanomial(&all_draws);
    assert!(llr.is_finite() && llr < 0.0, "{llr}");
    assert_eq!(all_draws.normalized_elo(), None);
    // Every pair won or lost: the test decides.
    sprt.model = EloModel::Normalized;
    let won = Pentanomial {
        ww: 10,
        ..Pentanomial::default()
    };
    assert_eq!(sprt.verdict_of(sprt.llr_pentanomial(&won)), SprtVerdict::H1);
    let lost = Pentanomial {
        ll: 10,
        ..Pentanomial::default()
    };
    assert_eq!(
        sprt.verdict_of(sprt.llr_pentanomial(&lost)),
        SprtVerdict::H0
    );
}

#[test]
fn no_figure_is_negative_zero_nan_or_infinite() {
    // An even score: Elo exactly 0, never -0.
    let even = Tally {
        wins: 3,
        draws: 4,
        losses: 3,
    };
    let e = even.elo();
    assert_eq!(e.elo.map(|x| x.to_bits()), Some(0.0f64.to_bits()));
    assert_eq!(
        e.describe(even.score()),
        format!("Elo +0.0 ± {:.1}", e.error.unwrap())
    );
    assert_eq!(
        serde_json::to_string(&e).unwrap(),
        format!(
            "{{\"elo\":0.0,\"error\":{}}}",
            serde_json::to_string(&e.error.unwrap()).unwrap()
        )
    );
    // Every game won or lost: unbounded, in words and as null.
    let won = Tally {
        wins: 4,
        draws: 0,
        losses: 0,
    };
    assert_eq!(won.elo().elo, None);
    assert_eq!(won.elo().error, None);
    assert_eq!(
        won.elo().describe(won.score()),
        "Elo unbounded (every game won)"
    );
    let lost = Tally {
        wins: 0,
        draws: 0,
        losses: 2,
    };
    assert_eq!(
        lost.elo().describe(lost.score()),
        "Elo unbounded (every game lost)"
    );
    assert_eq!(
        serde_json::to_string(&lost.elo()).unwrap(),
        "{\"elo\":null,\"error\":null}"
    );
    // A finite Elo whose interval reaches a score of 1: the error is unbounded, not infinite.
    let nearly = Tally {
        wins: 5,
        draws: 1,
        losses: 0,
    };
    let e = nearly.elo();
    assert!(e.elo.is_some_and(f64::is_finite));
    assert_eq!(e.error, None);
    assert!(e.describe(nearly.score()).ends_with("± unbounded"));
    // No games: Elo 0 with an unbounded interval.
    assert_eq!(Tally::default().elo().elo, Some(0.0));
    assert_eq!(Tally::default().elo().error, None);
    // A tiny negative rounds to +0.0.
    assert_eq!(format!("{:+.1}", chuhe_match::tidy(-0.04, 1)), "+0.0");
}

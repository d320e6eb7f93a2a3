//! Match statistics: score, Elo with a 95% interval, game-pair (pentanomial) counts, and the
//! sequential probability ratio test (SPRT) as engine testers use it.
//!
//! Figures are never NaN or infinite: an Elo that no finite number describes (every game
//! won, or every game lost) is `None` ("unbounded"), and so is an interval whose end is.

/// The 97.5% quantile of the normal distribution (a two-sided 95% interval).
const Z_95: f64 = 1.959_963_985;

/// 800 / ln 10: the slope that turns a t-value into normalized Elo.
const NELO_SCALE: f64 = 347.435_585_522_218_4;

/// Rounds `x` to `decimals` places and never gives `-0` (a figure printed or serialised as
/// `-0.0` reads as a loss that did not happen).
///
/// ```
/// assert_eq!(chuhe_match::tidy(-0.0001, 1).to_string(), "0");
/// assert_eq!(chuhe_match::tidy(12.345, 2), 12.35);
/// ```
pub fn tidy(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    let rounded = (x * scale).round() / scale;
    if rounded == 0.0 {
        0.0
    } else {
        rounded
    }
}

/// An Elo difference with the half-width of its 95% interval. `None` means unbounded: the
/// score is 0 or 1 (or the interval reaches it), where the logistic model has no finite Elo.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct EloEstimate {
    /// The Elo difference, rounded to 0.1; `None` when every game was won or lost.
    pub elo: Option<f64>,
    /// The half-width of the 95% interval, rounded to 0.1; `None` when unbounded (no
    /// games, or an end of the interval at a score of 0 or 1).
    pub error: Option<f64>,
}

impl EloEstimate {
    /// The estimate for a mean score `score` with standard error `stderr`, on `scale` (Elo
    /// per unit of the score's logit or t-value).
    fn logistic(score: f64, stderr: f64) -> EloEstimate {
        let elo = finite(score_to_elo(score));
        let low = finite(score_to_elo(score - Z_95 * stderr));
        let high = finite(score_to_elo(score + Z_95 * stderr));
        EloEstimate {
            elo: elo.map(|e| tidy(e, 1)),
            error: match (elo, low, high) {
                (Some(_), Some(l), Some(h)) => Some(tidy((h - l) / 2.0, 1)),
                _ => None,
            },
        }
    }

    /// `Elo +12.3 ± 45.6`; `Elo unbounded (every game won)`; `± unbounded` for an interval
    /// with an open end.
    pub fn describe(&self, score: f64) -> String {
        match (self.elo, self.error) {
            (Some(elo), Some(err)) => format!("Elo {:+.1} ± {:.1}", tidy(elo, 1), err),
            (Some(elo), None) => format!("Elo {:+.1} ± unbounded", tidy(elo, 1)),
            (None, _) if score >= 1.0 => "Elo unbounded (every game won)".to_string(),
            (None, _) => "Elo unbounded (every game lost)".to_string(),
        }
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Counts one game by its score (1, ½ or 0).
    pub fn add(&mut self, score: f64) {
        match score {
            s if s > 0.75 => self.wins += 1,
            s if s < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
    }

    /// The first engine's score, from 0 to 1 (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// The variance of one game's score.
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// The Elo difference of the first engine over the second (logistic model), with the
    /// half-width of its 95% interval from the per-game (trinomial) variance.
    ///
    /// ```
    /// use chuhe_match::Tally;
    /// let e = Tally { wins: 60, draws: 20, losses: 20 }.elo();
    /// assert_eq!(e.elo, Some(147.2));
    /// assert!(e.error.unwrap() > 50.0 && e.error.unwrap() < 90.0);
    /// assert_eq!(Tally { wins: 3, draws: 0, losses: 0 }.elo().elo, None);
    /// assert_eq!(Tally { wins: 1, draws: 0, losses: 1 }.elo().elo, Some(0.0));
    /// ```
    pub fn elo(&self) -> EloEstimate {
        let n = self.games() as f64;
        if n == 0.0 {
            return EloEstimate {
                elo: Some(0.0),
                error: None,
            };
        }
        EloEstimate::logistic(self.score(), (self.variance() / n).sqrt())
    }
}

/// Game pairs (the same opening with colours swapped) by their two results, from the first
/// engine's view: LL, LD, DD and WL (both worth one point), WD, WW.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Pentanomial {
    /// Both games lost.
    pub ll: u32,
    /// One lost, one drawn.
    pub ld: u32,
    /// Both drawn.
    pub dd: u32,
    /// One won, one lost.
    pub wl: u32,
    /// One won, one drawn.
    pub wd: u32,
    /// Both won.
    pub ww: u32,
}

impl Pentanomial {
    /// Counts a pair by its two scores (each 1, ½ or 0).
    pub fn add(&mut self, a: f64, b: f64) {
        let points = ((a + b) * 2.0).round() as i32;
        match points {
            0 => self.ll += 1,
            1 => self.ld += 1,
            2 if (a - b).abs() > 0.75 => self.wl += 1,
            2 => self.dd += 1,
            3 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.ll + self.ld + self.dd + self.wl + self.wd + self.ww
    }

    /// The five counts `[LL, LD, DD+WL, WD, WW]` (pairs worth 0, ½, 1, 1½ and 2 points).
    pub fn counts(&self) -> [u32; 5] {
        [self.ll, self.ld, self.dd + self.wl, self.wd, self.ww]
    }

    /// The mean score per game over the pairs, 0 to 1 (0.5 with none).
    pub fn score(&self) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.5;
        }
        self.counts()
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * i as f64 * 0.25)
            .sum::<f64>()
            / n
    }

    /// The variance of one pair's mean score (each pair worth 0, ¼, ½, ¾ or 1).
    pub fn variance(&self) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        self.counts()
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * (i as f64 * 0.25 - s).powi(2))
            .sum::<f64>()
            / n
    }

    /// Logistic Elo with its 95% interval from the pair variance.
    pub fn elo(&self) -> EloEstimate {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return EloEstimate {
                elo: Some(0.0),
                error: None,
            };
        }
        EloEstimate::logistic(self.score(), (self.variance() / n).sqrt())
    }

    /// Normalized Elo, `(score − ½) / √(2·variance) · 800 / ln 10`, and the half-width of its
    /// 95% interval; `None` when every pair scored the same (no variance).
    pub fn normalized_elo(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        let var = self.variance();
        if n == 0.0 || var <= 0.0 {
            return None;
        }
        let sigma = (2.0 * var).sqrt();
        let nelo = (self.score() - 0.5) / sigma * NELO_SCALE;
        let error = Z_95 * NELO_SCALE / (2.0 * n).sqrt();
        Some((tidy(nelo, 1), tidy(error, 1)))
    }
}

/// The expected score for an Elo difference (logistic model).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference for an expected score (logistic model): infinite at 0 and 1.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Which Elo the SPRT's bounds `elo0`, `elo1` are in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Normalized Elo (fastchess's default): differences measured in standard deviations of
    /// the result, so that the test's length hardly depends on the draw rate.
    #[default]
    Normalized,
    /// Logistic Elo, the usual rating scale (cutechess-cli's SPRT).
    Logistic,
}

impl EloModel {
    /// Reads `normalized` or `logistic`.
    pub fn parse(text: &str) -> Result<EloModel, String> {
        match text {
            "normalized" => Ok(EloModel::Normalized),
            "logistic" => Ok(EloModel::Logistic),
            _ => Err(format!(
                "--sprt-model '{}' is not normalized or logistic",
                chuhe::quote_input(text)
            )),
        }
    }
}

/// An SPRT of H0: Elo = `elo0` against H1: Elo = `elo1`, with error rates `alpha`, `beta`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// The scale of `elo0` and `elo1`.
    pub model: EloModel,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtVerdict {
    /// Keep playing.
    Continue,
    /// H1 accepted: the first engine is stronger by about `elo1`.
    H1,
    /// H0 accepted.
    H0,
}

impl Sprt {
    /// Reads `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05` (normalized Elo).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let values: Result<Vec<f64>, _> = parts.iter().map(|p| p.parse::<f64>()).collect();
        match values.as_deref() {
            Ok(&[elo0, elo1, alpha, beta])
                if elo0.is_finite()
                    && elo1.is_finite()
                    && elo0 < elo1
                    && alpha > 0.0
                    && alpha < 0.5
                    && beta > 0.0
                    && beta < 0.5 =>
            {
                Ok(Sprt {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                    model: EloModel::Normalized,
                })
            }
            _ => Err(format!(
                "--sprt '{}' is not elo0,elo1,alpha,beta with elo0 < elo1 and 0 < alpha, beta < 0.5 (e.g. 0,10,0.05,0.05)",
                chuhe::quote_input(text)
            )),
        }
    }

    /// The bounds of the log-likelihood ratio: (accept H0 at or below, accept H1 at or above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The approximate log-likelihood ratio of `n` observations with mean `score` and
    /// per-observation variance `var`; `spread` is the standard deviation of one game's
    /// score the normalized Elo is measured in.
    fn llr_of(&self, n: f64, score: f64, var: f64, spread: f64) -> f64 {
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = match self.model {
            EloModel::Logistic => (elo_to_score(self.elo0), elo_to_score(self.elo1)),
            EloModel::Normalized => (
                0.5 + self.elo0 / NELO_SCALE * spread,
                0.5 + self.elo1 / NELO_SCALE * spread,
            ),
        };
        n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * var)
    }

    /// The log-likelihood ratio of single games (trinomial, normal approximation).
    ///
    /// ```
    /// use chuhe_match::{Sprt, Tally};
    /// let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
    /// assert_eq!(sprt.llr(&Tally::default()), 0.0);
    /// assert!(sprt.llr(&Tally { wins: 300, draws: 100, losses: 100 }) > 2.94);
    /// ```
    pub fn llr(&self, tally: &Tally) -> f64 {
        let var = tally.variance();
        self.llr_of(tally.games() as f64, tally.score(), var, var.sqrt())
    }

    /// The log-likelihood ratio of game pairs (pentanomial, normal approximation), as
    /// fastchess computes it: the pairs' mean score and variance, with a normalized Elo
    /// measured in √(2·pair variance).
    ///
    /// A count of 0 counts as 0.001 here (as fishtest regularizes), so that a one-sided
    /// match (every pair won) has a variance and the test can decide.
    ///
    /// ```
    /// use chuhe_match::{Pentanomial, Sprt};
    /// let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
    /// let all_won = Pentanomial { ww: 20, ..Pentanomial::default() };
    /// assert!(sprt.llr_pentanomial(&all_won) > sprt.bounds().1);
    /// assert_eq!(sprt.llr_pentanomial(&Pentanomial::default()), 0.0);
    /// ```
    pub fn llr_pentanomial(&self, pairs: &Pentanomial) -> f64 {
        let n = pairs.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let counts = pairs.counts().map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let total: f64 = counts.iter().sum();
        let score = counts
            .iter()
            .enumerate()
            .map(|(i, c)| c * i as f64 * 0.25)
            .sum::<f64>()
            / total;
        let var = counts
            .iter()
            .enumerate()
            .map(|(i, c)| c * (i as f64 * 0.25 - score).powi(2))
            .sum::<f64>()
            / total;
        self.llr_of(n, score, var, (2.0 * var).sqrt())
    }

    /// The verdict for a log-likelihood ratio.
    pub fn verdict_of(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

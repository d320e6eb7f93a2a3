//! Match statistics: score, Elo with a 95% interval, and the sequential probability ratio
//! test (SPRT) as engine testers use it.

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

    /// The first engine's score, from 0 to 1 (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// The variance of one game's score.
    fn variance(&self) -> f64 {
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

    /// The Elo difference of the first engine over the second, and the half-width of its
    /// 95% interval. Infinite when one side scored everything.
    ///
    /// ```
    /// use chuhe_match::Tally;
    /// let t = Tally { wins: 60, draws: 20, losses: 20 };
    /// let (elo, margin) = t.elo();
    /// assert!((elo - 147.2).abs() < 0.1, "{elo}");
    /// assert!(margin > 50.0 && margin < 90.0, "{margin}");
    /// ```
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        let elo = score_to_elo(s);
        if n == 0.0 {
            return (0.0, f64::INFINITY);
        }
        let stderr = (self.variance() / n).sqrt();
        let low = score_to_elo(s - 1.959964 * stderr);
        let high = score_to_elo(s + 1.959964 * stderr);
        (elo, (high - low) / 2.0)
    }
}

/// The Elo difference for an expected score (logistic model).
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score for an Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
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
    /// Reads `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let values: Result<Vec<f64>, _> = parts.iter().map(|p| p.parse::<f64>()).collect();
        match values.as_deref() {
            Ok(&[elo0, elo1, alpha, beta])
                if elo0 < elo1
                    && (0.0..0.5).contains(&alpha)
                    && alpha > 0.0
                    && (0.0..0.5).contains(&beta)
                    && beta > 0.0 =>
            {
                Ok(Sprt {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                })
            }
            _ => Err(format!(
                "--sprt '{}' is not elo0,elo1,alpha,beta with elo0 < elo1 and 0 < alpha, beta < 0.5 (e.g. 0,10,0.05,0.05)",
                chuhe::quote_input(text)
            )),
        }
    }

    /// The bounds of the log-likelihood ratio: (accept H0 below, accept H1 above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the tally (normal approximation of the trinomial, logistic Elo).
    ///
    /// ```
    /// use chuhe_match::{Sprt, Tally};
    /// let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
    /// assert_eq!(sprt.llr(&Tally::default()), 0.0);
    /// assert!(sprt.llr(&Tally { wins: 300, draws: 100, losses: 100 }) > 2.94);
    /// ```
    pub fn llr(&self, tally: &Tally) -> f64 {
        let n = tally.games() as f64;
        let var = tally.variance();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        n * (s1 - s0) * (2.0 * tally.score() - s0 - s1) / (2.0 * var)
    }

    /// The verdict for a tally.
    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        let llr = self.llr(tally);
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

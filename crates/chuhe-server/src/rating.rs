//! Ratings: Glicko-2 (the `skillratings` crate), one rating per kind of game and speed — a
//! [`Perf`] such as `xiangqi:blitz`, as lichess and pychess.org keep them. A rated game's
//! result updates both players' ratings once, in the transaction that stores the result
//! (`crate::store`); this module only computes.
//!
//! ```
//! use chuhe_server::rating::{rate, PerfRating, Score};
//! let (a, b) = (PerfRating::default(), PerfRating::default());
//! let (a2, b2) = rate(&a, &b, Score::FirstWins);
//! assert!(a2.rating > 1500.0 && b2.rating < 1500.0);
//! assert_eq!((a2.games, a2.wins, b2.losses), (1, 1, 1));
//! ```

use chuhe::GameKind;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::store::TimeControl;

/// How fast a game is, from its time control's expected length (base + 40 increments), as
/// lichess counts it: bullet under 3 minutes, blitz under 8, rapid under 25, classical beyond.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Under 3 minutes.
    Bullet,
    /// 3 to 8 minutes.
    Blitz,
    /// 8 to 25 minutes.
    Rapid,
    /// 25 minutes and more.
    Classical,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 4] = [Speed::Bullet, Speed::Blitz, Speed::Rapid, Speed::Classical];

    /// The speed of a time control.
    ///
    /// ```
    /// use chuhe_server::rating::Speed;
    /// use chuhe_server::store::TimeControl;
    /// let tc = |s: &str| s.parse::<TimeControl>().unwrap();
    /// assert_eq!(Speed::of(tc("60+0")), Speed::Bullet);
    /// assert_eq!(Speed::of(tc("180+2")), Speed::Blitz);
    /// assert_eq!(Speed::of(tc("600+5")), Speed::Rapid);
    /// assert_eq!(Speed::of(tc("1800+10")), Speed::Classical);
    /// ```
    pub fn of(tc: TimeControl) -> Speed {
        let seconds = (tc.initial_ms + 40 * tc.increment_ms) / 1000;
        match seconds {
            0..=179 => Speed::Bullet,
            180..=479 => Speed::Blitz,
            480..=1499 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// `bullet`, `blitz`, `rapid`, `classical`.
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
        }
    }
}

impl std::str::FromStr for Speed {
    type Err = String;

    fn from_str(s: &str) -> Result<Speed, String> {
        Speed::ALL
            .into_iter()
            .find(|speed| speed.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown speed '{}' (bullet, blitz, rapid, classical)",
                    chuhe::quote_input(s)
                )
            })
    }
}

/// A rating category: a kind of game at a speed (`xiangqi:blitz`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Perf {
    /// The kind of game.
    pub kind: GameKind,
    /// Its speed.
    pub speed: Speed,
}

impl Perf {
    /// The category of a game of `kind` at time control `tc`.
    pub fn new(kind: GameKind, tc: TimeControl) -> Perf {
        Perf {
            kind,
            speed: Speed::of(tc),
        }
    }
}

impl std::fmt::Display for Perf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.kind.name(), self.speed.as_str())
    }
}

impl std::str::FromStr for Perf {
    type Err = String;

    /// `GAME:SPEED`, as written by `Display`.
    fn from_str(s: &str) -> Result<Perf, String> {
        let (kind, speed) = s.split_once(':').ok_or_else(|| {
            format!(
                "'{}' is not a rating category like xiangqi:blitz",
                chuhe::quote_input(s)
            )
        })?;
        Ok(Perf {
            kind: kind
                .parse()
                .map_err(|_| format!("unknown game '{}'", chuhe::quote_input(kind)))?,
            speed: speed.parse()?,
        })
    }
}

/// A deviation above this marks a rating as provisional (`1500?`), as on lichess.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A player's rating in one category, with their record there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerfRating {
    /// Glicko-2 rating (1500 at first).
    pub rating: f64,
    /// Its deviation (350 at first).
    pub deviation: f64,
    /// Its volatility (0.06 at first).
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
    /// Of which won.
    pub wins: i64,
    /// Lost.
    pub losses: i64,
    /// Drawn.
    pub draws: i64,
}

impl Default for PerfRating {
    /// A new player's rating: Glicko-2's defaults, no games.
    fn default() -> PerfRating {
        let start = Glicko2Rating::new();
        PerfRating {
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
            games: 0,
            wins: 0,
            losses: 0,
            draws: 0,
        }
    }
}

impl PerfRating {
    /// Is the rating provisional (its deviation still wide)?
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating rounded, as shown.
    pub fn shown(&self) -> i64 {
        self.rating.round() as i64
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn after(&self, new: Glicko2Rating, score: f64) -> PerfRating {
        PerfRating {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
            games: self.games + 1,
            wins: self.wins + i64::from(score == 1.0),
            losses: self.losses + i64::from(score == 0.0),
            draws: self.draws + i64::from(score == 0.5),
        }
    }
}

/// A game's result between its two seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The first player won.
    FirstWins,
    /// The second player won.
    SecondWins,
    /// A draw.
    Draw,
}

impl Score {
    /// The score of a stored winner (`first`, `second`, `none`).
    pub fn of_winner(winner: &str) -> Score {
        match winner {
            "first" => Score::FirstWins,
            "second" => Score::SecondWins,
            _ => Score::Draw,
        }
    }

    fn first_points(self) -> f64 {
        match self {
            Score::FirstWins => 1.0,
            Score::SecondWins => 0.0,
            Score::Draw => 0.5,
        }
    }
}

/// The two players' ratings after one game between them (`first` played the first seat).
pub fn rate(first: &PerfRating, second: &PerfRating, score: Score) -> (PerfRating, PerfRating) {
    let outcome = match score {
        Score::FirstWins => Outcomes::WIN,
        Score::SecondWins => Outcomes::LOSS,
        Score::Draw => Outcomes::DRAW,
    };
    let (a, b) = glicko2(
        &first.glicko(),
        &second.glicko(),
        &outcome,
        &Glicko2Config::new(),
    );
    let points = score.first_points();
    (first.after(a, points), second.after(b, 1.0 - points))
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// Glickman's worked example ("Example of the Glicko-2 system", the paper the crate
    /// follows): a 1500 player (deviation 200) beats a 1400 (30), loses to a 1550 (100) and
    /// to a 1700 (300) in one period: 1464.06, deviation 151.52, volatility 0.05999. chuhe
    /// rates game by game through the same functions of the crate; this checks the crate's
    /// arithmetic against the published figures.
    #[test]
    fn the_crate_reproduces_glickmans_published_example() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponents = [
            (1400.0, 30.0, Outcomes::WIN),
            (1550.0, 100.0, Outcomes::LOSS),
            (1700.0, 300.0, Outcomes::LOSS),
        ];
        let results: Vec<_> = opponents
            .iter()
            .map(|&(rating, deviation, outcome)| {
                (
                    Glicko2Rating {
                        rating,
                        deviation,
                        volatility: 0.06,
                    },
                    outcome,
                )
            })
            .collect();
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let after = glicko2_rating_period(&player, &results, &config);
        assert!((after.rating - 1464.06).abs() < 0.01, "{}", after.rating);
        assert!(
            (after.deviation - 151.52).abs() < 0.01,
            "{}",
            after.deviation
        );
        assert!(
            (after.volatility - 0.05999).abs() < 0.0001,
            "{}",
            after.volatility
        );
    }

    #[test]
    fn a_game_moves_ratings_toward_the_result_and_counts_it() {
        let strong = PerfRating {
            rating: 1900.0,
            deviation: 60.0,
            ..PerfRating::default()
        };
        let new = PerfRating::default();
        // The favourite wins: a small gain; the newcomer's rating moves far (wide deviation).
        let (s, n) = rate(&strong, &new, Score::FirstWins);
        assert!(
            s.rating > strong.rating && s.rating - strong.rating < 5.0,
            "{s:?}"
        );
        assert!(new.rating - n.rating > 20.0, "{n:?}");
        assert!(n.deviation < new.deviation);
        assert_eq!((s.wins, s.games, n.losses, n.games), (1, 1, 1, 1));
        // An upset moves both more.
        let (s2, n2) = rate(&strong, &new, Score::SecondWins);
        assert!(strong.rating - s2.rating > s.rating - strong.rating);
        assert!(n2.rating > new.rating + 100.0);
        // A draw between equals changes no rating, only deviations.
        let (a, b) = rate(&new, &new, Score::Draw);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert_eq!((a.draws, b.draws), (1, 1));
        assert!(a.provisional() && !strong.provisional());
    }

    #[test]
    fn categories_read_and_write() {
        let perf: Perf = "xiangqi:blitz".parse().unwrap();
        assert_eq!(perf.kind, GameKind::Xiangqi);
        assert_eq!(perf.to_string(), "xiangqi:blitz");
        for bad in ["xiangqi", "chess:blitz", "xiangqi:slow", ""] {
            assert!(bad.parse::<Perf>().is_err(), "{bad}");
        }
    }

    proptest::proptest! {
        /// Whatever the ratings, one game keeps every figure finite, the deviations within
        /// Glicko-2's bounds, the winner not losing points and the loser not gaining.
        #[test]
        fn every_update_is_sane(
            r1 in 600.0f64..2800.0, d1 in 30.0f64..350.0,
            r2 in 600.0f64..2800.0, d2 in 30.0f64..350.0,
            result in 0u8..3,
        ) {
            let a = PerfRating { rating: r1, deviation: d1, ..PerfRating::default() };
            let b = PerfRating { rating: r2, deviation: d2, ..PerfRating::default() };
            let score = [Score::FirstWins, Score::SecondWins, Score::Draw][usize::from(result)];
            let (a2, b2) = rate(&a, &b, score);
            for r in [a2, b2] {
                proptest::prop_assert!(r.rating.is_finite() && r.deviation.is_finite());
                proptest::prop_assert!(r.deviation > 0.0 && r.deviation <= 351.0);
                proptest::prop_assert!(r.volatility > 0.0 && r.volatility < 0.2);
            }
            match score {
                Score::FirstWins => proptest::prop_assert!(a2.rating >= a.rating && b2.rating <= b.rating),
                Score::SecondWins => proptest::prop_assert!(a2.rating <= a.rating && b2.rating >= b.rating),
                Score::Draw => proptest::prop_assert!((a2.rating - a.rating) * (b2.rating - b.rating) <= 1e-9),
            }
        }
    }
}

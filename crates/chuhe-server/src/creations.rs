//! How many games one client may create: `per_minute` a minute from one address, in bursts
//! of as many, counted by `governor`'s keyed token buckets (GCRA). A client over the limit is
//! told when to try again (429 with `Retry-After`); the others are not slowed.

use std::net::IpAddr;
use std::num::NonZeroU32;

use axum::http::StatusCode;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::ApiError;

/// The code of the 429 answer.
pub const TOO_MANY_GAMES: &str = "too_many_games";

/// The limit on game creation per client address.
pub struct CreationLimit {
    per_minute: u32,
    buckets: Option<DefaultKeyedRateLimiter<IpAddr>>,
}

impl CreationLimit {
    /// At most `per_minute` games a minute from one address; 0: no limit.
    ///
    /// ```
    /// use chuhe_server::creations::CreationLimit;
    /// let limit = CreationLimit::new(2);
    /// let client = "192.0.2.7".parse().unwrap();
    /// assert!(limit.admit(client).is_ok());
    /// assert!(limit.admit(client).is_ok());
    /// assert_eq!(limit.admit(client).unwrap_err().status.as_u16(), 429);
    /// assert!(limit.admit("192.0.2.8".parse().unwrap()).is_ok());
    /// ```
    pub fn new(per_minute: u32) -> CreationLimit {
        CreationLimit {
            per_minute,
            buckets: NonZeroU32::new(per_minute).map(|n| RateLimiter::keyed(Quota::per_minute(n))),
        }
    }

    /// Counts one game created by `client`, or refuses it with the seconds to wait.
    pub fn admit(&self, client: IpAddr) -> Result<(), ApiError> {
        let Some(buckets) = &self.buckets else {
            return Ok(());
        };
        buckets.check_key(&client).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            ApiError {
                retry_after: Some(seconds.max(1)),
                ..ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    TOO_MANY_GAMES,
                    format!(
                        "too many new games from {client}: at most {} a minute; try again in \
                         {} s",
                        self.per_minute,
                        seconds.max(1)
                    ),
                )
            }
        })
    }

    /// Forgets the clients whose buckets are full again (keeps the table small).
    pub fn forget_idle(&self) {
        if let Some(buckets) = &self.buckets {
            buckets.retain_recent();
            buckets.shrink_to_fit();
        }
    }
}

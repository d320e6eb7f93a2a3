//! What a search may spend, and how the clock becomes a time budget.

use std::time::Duration;

use chuhe::Side;

/// The time left on both clocks (UCI `wtime btime winc binc movestogo`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, indexed by side (`Side::index`: first, second).
    pub time: [Duration; 2],
    /// Increment per move, by side.
    pub increment: [Duration; 2],
    /// Moves until the next time control, if the clock has one.
    pub moves_to_go: Option<u32>,
}

/// Limits of one search; unset fields do not limit. With no limit at all the search runs
/// until stopped.
///
/// ```
/// use chuhe_engine::Limits;
/// use std::time::Duration;
/// let l = Limits::depth(6);
/// assert_eq!(l.depth, Some(6));
/// let l = Limits::movetime(Duration::from_millis(100));
/// assert!(!l.infinite);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The clocks (`go wtime … btime …`).
    pub clock: Option<Clock>,
    /// Exactly this long (`go movetime`).
    pub movetime: Option<Duration>,
    /// At most this many nodes (`go nodes`).
    pub nodes: Option<u64>,
    /// At most this depth (`go depth`).
    pub depth: Option<u32>,
    /// Stop once a forced win in this many moves is found (`go mate`).
    pub mate: Option<u32>,
    /// Run until stopped, whatever else is set (`go infinite`).
    pub infinite: bool,
    /// Search only these root moves, in the engine's move notation (`go searchmoves`).
    pub search_moves: Vec<String>,
}

impl Limits {
    /// A fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A fixed time.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// A node budget.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// When a search should stop: a soft limit checked between iterations and a hard limit
/// checked while searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start another iteration after this.
    pub soft: Option<Duration>,
    /// Stop at once after this.
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// The budget for `side` to move under `limits`, keeping `overhead` per move for the
    /// communication with the GUI.
    ///
    /// ```
    /// use chuhe_engine::{limits::{Clock, TimeBudget}, Limits};
    /// use chuhe::Side;
    /// use std::time::Duration;
    /// let clock = Clock { time: [Duration::from_secs(10); 2], increment: [Duration::from_millis(100); 2], moves_to_go: None };
    /// let b = TimeBudget::new(&Limits { clock: Some(clock), ..Limits::default() }, Side::First, Duration::from_millis(20));
    /// assert!(b.soft.unwrap() < b.hard.unwrap());
    /// assert!(b.hard.unwrap() < Duration::from_secs(10));
    /// ```
    pub fn new(limits: &Limits, side: Side, overhead: Duration) -> TimeBudget {
        if limits.infinite {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        }
        if let Some(t) = limits.movetime {
            // All of it: no iteration is cut short to save time for later.
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            return TimeBudget {
                soft: None,
                hard: Some(t),
            };
        }
        let Some(clock) = limits.clock else {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        };
        let left = clock.time[side.index()];
        let inc = clock.increment[side.index()];
        let usable = left.saturating_sub(overhead);
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        // A share of what is left plus most of the increment; never more than half the clock
        // (nine tenths before the last move of a control).
        let moves = f64::from(clock.moves_to_go.unwrap_or(22).clamp(1, 60));
        let cap = ms(usable)
            * if clock.moves_to_go == Some(1) {
                0.9
            } else {
                0.5
            };
        let soft = (ms(usable) / moves + ms(inc) * 0.75).min(cap * 0.6);
        let hard = (soft * 4.0).min(cap);
        let d = |v: f64| Duration::from_secs_f64((v.max(1.0)) / 1000.0);
        TimeBudget {
            soft: Some(d(soft)),
            hard: Some(d(hard)),
        }
    }
}

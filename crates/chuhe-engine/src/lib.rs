//! # chuhe-engine — search and evaluation for the Chinese-chess family
//!
//! The engine plays every game of [`chuhe::GameKind`]. Its search ([`search`]) is written
//! once over [`SearchGame`], the engine's view of a game (chuhe's [`chuhe::GamePosition`]
//! plus an evaluation and the game's ending rules as the search applies them); each game
//! brings its evaluation ([`eval`]).
//!
//! [`Engine`] is the façade, apart from any protocol: set a position, search with
//! [`Limits`], receive lines and the best move through a callback, stop. The UCI / UCCI
//! text protocol ([`uci`]) is one user of it; `chuhe analyze`, `chuhe bench`, the Python
//! package and the server are others.
//!
//! ```
//! use chuhe_engine::{Engine, Limits, Score};
//! use chuhe::GameKind;
//! // Xiongqi: South's chariot takes North's general up the open d-file.
//! let mut engine = Engine::new(GameKind::Xiongqi);
//! engine.set_position("3g^4/8/8/8/8/8/8/3RG^3 / X/x", &[]).unwrap();
//! let best = engine.search(Limits::depth(2)).unwrap();
//! assert_eq!(best.best.as_deref(), Some("d1d8"));
//! assert_eq!(best.score, Score::Mate(1));
//! ```
// Only the network's AVX2 kernels use `unsafe` (eval/xiangqi_net/kernels.rs).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
mod engine;
pub mod eval;
pub mod game;
pub mod history;
pub mod limits;
pub mod rules_game;
pub mod score;
pub mod search;
pub mod see;
pub mod tt;
pub mod uci;
pub mod wdl;

pub use engine::{
    ranges, BestMove, Engine, EngineError, Options, ScoreBound, SearchEvent, SearchInfo, LEVEL_ELO,
    MAX_LEVEL,
};
pub use game::{HistoryRule, Networks, NodeOutcome, SearchGame};
pub use limits::{Clock, Limits};
pub use score::Score;

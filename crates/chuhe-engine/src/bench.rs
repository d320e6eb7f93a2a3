//! The bench: a fixed set of positions per game, each searched single-threaded to a fixed
//! depth with a fresh 16 MB table. The total node count is the signature of a build (the
//! same binary gives the same number every time); the time gives its speed.
//!
//! ```
//! use chuhe::GameKind;
//! use chuhe_engine::bench;
//! let a = bench::run(&[GameKind::Xiongqi], 2, |_| {}).unwrap();
//! let b = bench::run(&[GameKind::Xiongqi], 2, |_| {}).unwrap();
//! assert_eq!(a.nodes(), b.nodes());
//! assert_eq!(a.games[0].positions.len(), bench::positions(GameKind::Xiongqi).len());
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use chuhe::GameKind;

use crate::engine::{Engine, EngineError};
use crate::game::Networks;
use crate::limits::Limits;
use crate::score::Score;

/// The depth `chuhe bench` searches when not told otherwise.
pub const DEFAULT_DEPTH: u32 = 16;

/// The transposition table of each bench search, in MB.
pub const HASH_MB: usize = 16;

/// One position of the bench.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    /// What it is.
    pub name: &'static str,
    /// `start`, a FEEN, or a Xiangqi FEN.
    pub position: &'static str,
}

const fn pos(name: &'static str, position: &'static str) -> BenchPosition {
    BenchPosition { name, position }
}

/// Xiongqi: the start, an opening, a quiet and a sharp middlegame reached by plausible
/// play (the last after exchanges, hands filled), and four endgames.
const XIONGQI: [BenchPosition; 8] = [
    pos("start", "start"),
    pos(
        "opening: f3-f4 c6-c5 g1-f3 b8-c6 h3-h4 h6-h5 h1-h3 h8-h6 b3-b4 a6-a5",
        "r1bag^bh1/2c2c2/1shssssr/s1s4s/1S3S1S/S1SSSHSR/2C2C2/RHBAG^B2 / X/x",
    ),
    pos(
        "middlegame: both sides developed, soldiers locked",
        "1rbag^2r/4ccb1/sshs1hs1/2s1ss1s/2SS2SS/SSH1SS1H/1B1CC3/R2AG^B1R / X/x",
    ),
    pos(
        "middlegame: soldiers across the river, cannons aimed at advisor and cannon",
        "1r1ag^2r/4ccb1/ss3hs1/2+S+Sh2s/5+sbS/SSH2S1H/1B1CC3/R2AG^B1R 3s/+SS X/x",
    ),
    pos(
        "endgame: chariot and soldier against bear",
        "5g^2/8/2b5/3+S4/8/8/8/3G^R3 / X/x",
    ),
    pos(
        "endgame: dragons, horse and soldier against horse",
        "3d^4/8/2h5/8/8/3H4/3S4/4D^3 / X/x",
    ),
    pos(
        "endgame: empress against horse and advisor",
        "3g^4/3a4/4h3/8/8/8/2E5/4G^3 / X/x",
    ),
    pos(
        "endgame: cannons and soldiers, North to move",
        "2b2g^2/3a4/1s6/8/2S2c2/8/2C5/3AG^3 / x/X",
    ),
];

/// Xiangqi: the start, three middlegames reached by common openings (the last after
/// exchanges), and four endgames.
const XIANGQI: [BenchPosition; 8] = [
    pos("start", "start"),
    pos(
        "middlegame: central cannon against screen horses, chariot pinning",
        "r3kabr1/4a4/1cn1b1nc1/p1p1p2Rp/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB2 w - - 12 7",
    ),
    pos(
        "middlegame: pawn opening, chariot across the river",
        "1rbaka1r1/9/1cn1b1c1n/pR2p1p1p/2p6/2P6/P3P1P1P/C1N3N1C/9/2BAKABR1 b - - 15 8",
    ),
    pos(
        "middlegame: same-direction cannons, soldiers exchanged",
        "r1b1kab2/4a4/1cn1c1n2/p1p3p1p/4C4/7R1/P1P1P1r1P/1CN3N2/9/R1BAKAB2 w - - 2 8",
    ),
    pos(
        "endgame: chariot and horse against chariot",
        "3akab2/9/4b4/9/5r3/2R6/4N4/9/4A4/3K5 w - - 0 1",
    ),
    pos(
        "endgame: horse and two soldiers against two advisors",
        "3k5/4a4/3a5/4P4/2P6/9/9/4N4/9/4K4 w - - 0 1",
    ),
    pos(
        "endgame: cannon with advisors against horse",
        "4ka3/4a4/9/9/6n2/9/9/4B4/4A4/2C1KA3 w - - 0 1",
    ),
    pos(
        "endgame: chariot against horse, advisor and elephant",
        "3k5/9/3ab4/9/4n4/9/9/9/9/3R1K3 w - - 0 1",
    ),
];

/// The bench positions of a game (the Xiangqi ones for both Xiangqi rule sets).
pub fn positions(game: GameKind) -> &'static [BenchPosition] {
    match game {
        GameKind::Xiongqi => &XIONGQI,
        GameKind::Xiangqi | GameKind::XiangqiCapture => &XIANGQI,
        // Games read from rule files have no fixed bench positions.
        GameKind::Rules(_) => &[],
    }
}

/// The result of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionResult {
    /// The game.
    pub game: GameKind,
    /// Index in [`positions`], from 0.
    pub index: usize,
    /// The position searched.
    pub position: BenchPosition,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The best move found, in coordinates (`None` when the game is over there).
    pub best: Option<String>,
    /// Its score.
    pub score: Score,
}

/// The results of one game's positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The game.
    pub game: GameKind,
    /// Every position, in order.
    pub positions: Vec<PositionResult>,
}

impl GameResult {
    /// Nodes searched over all positions.
    pub fn nodes(&self) -> u64 {
        self.positions.iter().map(|p| p.nodes).sum()
    }

    /// Time spent over all positions.
    pub fn time(&self) -> Duration {
        self.positions.iter().map(|p| p.time).sum()
    }

    /// Nodes per second.
    pub fn nodes_per_second(&self) -> u64 {
        nodes_per_second(self.nodes(), self.time())
    }
}

/// The whole bench.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// The depth searched.
    pub depth: u32,
    /// Each game's results.
    pub games: Vec<GameResult>,
}

impl BenchReport {
    /// Nodes searched in all (the signature).
    pub fn nodes(&self) -> u64 {
        self.games.iter().map(GameResult::nodes).sum()
    }

    /// Time spent in all.
    pub fn time(&self) -> Duration {
        self.games.iter().map(GameResult::time).sum()
    }

    /// Nodes per second in all.
    pub fn nodes_per_second(&self) -> u64 {
        nodes_per_second(self.nodes(), self.time())
    }
}

fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    let seconds = time.as_secs_f64();
    if seconds > 0.0 {
        (nodes as f64 / seconds).round() as u64
    } else {
        0
    }
}

/// Searches every position of each of `games` to `depth` (single thread, a fresh
/// [`HASH_MB`] table for each position) with the embedded networks, calling `on_position`
/// after each.
pub fn run(
    games: &[GameKind],
    depth: u32,
    on_position: impl FnMut(&PositionResult),
) -> Result<BenchReport, EngineError> {
    run_with(games, depth, &Networks::default(), on_position)
}

/// [`run`] with the evaluation's networks given (a network loaded from a file).
///
/// ```
/// use chuhe::GameKind;
/// use chuhe_engine::{bench, Networks};
/// let report = bench::run_with(&[GameKind::Xiangqi], 2, &Networks::default(), |_| {}).unwrap();
/// assert_eq!(report.games[0].positions.len(), bench::positions(GameKind::Xiangqi).len());
/// ```
pub fn run_with(
    games: &[GameKind],
    depth: u32,
    networks: &Networks,
    mut on_position: impl FnMut(&PositionResult),
) -> Result<BenchReport, EngineError> {
    let mut report = BenchReport {
        depth,
        games: Vec::new(),
    };
    for &game in games {
        let mut engine = Engine::new(game);
        engine.set_xiangqi_network(Arc::clone(&networks.xiangqi))?;
        engine.set_hash(HASH_MB)?;
        engine.set_threads(1)?;
        let mut result = GameResult {
            game,
            positions: Vec::new(),
        };
        for (index, &position) in positions(game).iter().enumerate() {
            engine.new_game()?;
            engine.set_position(position.position, &[])?;
            let start = Instant::now();
            let best = engine.search(Limits::depth(depth))?;
            let one = PositionResult {
                game,
                index,
                position,
                nodes: best.nodes,
                time: start.elapsed(),
                best: best.best,
                score: best.score,
            };
            on_position(&one);
            result.positions.push(one);
        }
        report.games.push(result);
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_a_game_in_progress() {
        for game in GameKind::ALL {
            let mut engine = Engine::new(game);
            for p in positions(game) {
                engine
                    .set_position(p.position, &[])
                    .unwrap_or_else(|e| panic!("{game} {}: {e}", p.name));
                assert_eq!(engine.outcome(), None, "{game} {}", p.name);
                assert!(!engine.legal_moves().is_empty(), "{game} {}", p.name);
            }
        }
    }
}

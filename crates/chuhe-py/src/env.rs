//! The reinforcement-learning core: observation planes, the fixed action encoding, the
//! legal-action mask and a whole environment step (the agent's move, the opponent's reply),
//! written once over [`GamePosition`]. The Python environments call one method per step.
//!
//! - Observation: `float32[2 × ROLES + 2, RANKS, FILES]`, from the side to move's view: plane
//!   `r` holds its pieces of role `r`, plane `ROLES + r` the opponent's, plane `2 × ROLES` the
//!   earlier occurrences of the position (0, 1/3, 2/3, 1 for three or more), plane
//!   `2 × ROLES + 1` the half-move clock / 200 (at most 1). Row 0 is the side to move's own
//!   back rank (the second player's board is flipped rank-wise; files are not mirrored).
//! - Action: `(from × SQUARES + to) × CHOICES + choice`, squares `rank × FILES + file` in the
//!   same view; `choice` is 0, or for Xiongqi 1–6 for a promotion to E, A, C, R, B, H.

use chuhe::{Game, GameKind, GameMove, GamePosition, GameSquare, GameVisitor, MoveBuffer, Side};
use chuhe_engine::{Engine, Limits};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::core::DynGame;

/// The shape of a game's observation and action space.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub files: usize,
    pub ranks: usize,
    pub planes: usize,
    pub choices: usize,
    pub actions: usize,
}

impl Spec {
    pub fn obs_len(&self) -> usize {
        self.planes * self.ranks * self.files
    }
}

/// Who answers the agent's moves.
pub enum Opponent {
    /// Self-play: every step is one move of the side to move.
    None,
    /// A uniformly random legal move.
    Random,
    /// chuhe's engine with a node or depth budget.
    Engine(Box<Engine>, Limits),
}

/// The result of one step.
#[derive(Clone, Copy, Debug, Default)]
pub struct StepOut {
    pub reward: f32,
    pub terminated: bool,
    pub truncated: bool,
    pub illegal: bool,
}

/// An environment, object-safe for the Python classes.
pub trait DynEnv: Send {
    fn spec(&self) -> Spec;
    /// Starts a new episode; `seed` reseeds the random source.
    fn reset(&mut self, seed: Option<u64>, obs: &mut [f32], mask: &mut [i8]);
    /// Plays `action` (and the opponent's reply); writes the next observation and mask.
    fn step(&mut self, action: i64, obs: &mut [f32], mask: &mut [i8]) -> Result<StepOut, String>;
    /// The action of a move (its encoding) in the current position's view.
    fn encode(&self, bits: u16) -> Option<usize>;
    /// The move (encoding) of an action in the current position's view, if well formed.
    fn decode(&self, action: i64) -> Option<u16>;
    /// The legal actions, ascending.
    fn legal_actions(&self) -> Vec<usize>;
    /// A uniformly random legal action.
    fn sample(&mut self) -> Option<usize>;
    /// The game so far.
    fn game(&self) -> &dyn DynGame;
    /// Is the episode over?
    fn done(&self) -> bool;
    /// The agent's side (the mover in self-play).
    fn agent(&self) -> Side;
    /// Writes the observation of the current position from `side`'s view.
    fn observe(&self, side: Side, obs: &mut [f32]);
    /// Every piece: square index, side (0 first, 1 second), role index.
    fn pieces(&self) -> Vec<(usize, u8, usize)>;
}

/// The environment of one game.
pub struct Env<P: GamePosition> {
    start: P,
    game: Game<P>,
    legal: P::Moves,
    opponent: Opponent,
    agent_side: Option<Side>,
    agent: Side,
    max_plies: Option<usize>,
    ended: bool,
    rng: SmallRng,
}

#[inline]
fn view<S: GameSquare>(index: usize, side: Side) -> usize {
    match side {
        Side::First => index,
        Side::Second => {
            let files = S::FILES as usize;
            (S::RANKS as usize - 1 - index / files) * files + index % files
        }
    }
}

impl<P: GamePosition> Env<P> {
    pub fn new(
        start: P,
        opponent: Opponent,
        agent_side: Option<Side>,
        max_plies: Option<usize>,
    ) -> Env<P> {
        let game = Game::from_position(start.clone());
        let mut env = Env {
            start,
            game,
            legal: P::Moves::default(),
            opponent,
            agent_side,
            agent: agent_side.unwrap_or(Side::First),
            max_plies,
            ended: false,
            rng: SmallRng::seed_from_u64(0),
        };
        env.refresh();
        env
    }

    const SPEC: Spec = Spec {
        files: P::Square::FILES as usize,
        ranks: P::Square::RANKS as usize,
        planes: 2 * P::ROLES.len() + 2,
        choices: P::Move::CHOICES,
        actions: P::Square::COUNT * P::Square::COUNT * P::Move::CHOICES,
    };

    fn refresh(&mut self) {
        self.legal.clear();
        self.game.legal_moves_into(&mut self.legal);
    }

    fn encode_move(&self, m: P::Move) -> usize {
        let side = self.game.position().turn();
        let from = view::<P::Square>(m.from().index(), side);
        let to = view::<P::Square>(m.to().index(), side);
        (from * P::Square::COUNT + to) * P::Move::CHOICES + m.choice()
    }

    fn decode_move(&self, action: i64) -> Option<P::Move> {
        let a = usize::try_from(action).ok()?;
        if a >= Self::SPEC.actions {
            return None;
        }
        let side = self.game.position().turn();
        let choice = a % P::Move::CHOICES;
        let squares = a / P::Move::CHOICES;
        let from = view::<P::Square>(squares / P::Square::COUNT, side);
        let to = view::<P::Square>(squares % P::Square::COUNT, side);
        P::Move::with_choice(
            P::Square::from_index(from)?,
            P::Square::from_index(to)?,
            choice,
        )
    }

    fn write(&self, obs: &mut [f32], mask: &mut [i8]) {
        self.write_obs(self.game.position().turn(), obs);
        mask.fill(0);
        for &m in self.legal.iter() {
            mask[self.encode_move(m)] = 1;
        }
    }

    fn write_obs(&self, me: Side, obs: &mut [f32]) {
        let pos = self.game.position();
        let n = P::Square::COUNT;
        let roles = P::ROLES.len();
        // The piece planes are cleared; the last two are filled whole below.
        obs[..2 * roles * n].fill(0.0);
        pos.for_each_piece(|sq, side, role| {
            let plane = if side == me { role } else { roles + role };
            obs[plane * n + view::<P::Square>(sq.index(), me)] = 1.0;
        });
        let earlier = self
            .game
            .history()
            .occurrences(pos)
            .count()
            .saturating_sub(1);
        let rep = earlier.min(3) as f32 / 3.0;
        obs[2 * roles * n..(2 * roles + 1) * n].fill(rep);
        let clock = pos.halfmove().min(200) as f32 / 200.0;
        obs[(2 * roles + 1) * n..(2 * roles + 2) * n].fill(clock);
    }

    fn play(&mut self, m: P::Move) {
        // Moves come from the legal list: the arbiter accepts them, and generates the next
        // legal moves once for the outcome and the list.
        self.game.play_legal(m, &mut self.legal);
    }

    fn opponent_move(&mut self) {
        let m = match &mut self.opponent {
            Opponent::None => return,
            Opponent::Random => None,
            Opponent::Engine(engine, limits) => {
                crate::engine::search(engine, &self.game, limits.clone())
                    .ok()
                    .and_then(|b| b.best)
                    .and_then(|t| {
                        self.game
                            .position()
                            .parse_move_as(&t, chuhe::MoveNotation::Uci)
                            .ok()
                    })
                    .filter(|m| self.legal.contains(m))
            }
        };
        let m = m.or_else(|| self.random_move());
        if let Some(m) = m {
            self.play(m);
        }
    }

    fn random_move(&mut self) -> Option<P::Move> {
        (!self.legal.is_empty()).then(|| self.legal[self.rng.gen_range(0..self.legal.len())])
    }

    fn self_play(&self) -> bool {
        matches!(self.opponent, Opponent::None)
    }
}

impl<P: GamePosition> DynEnv for Env<P> {
    fn spec(&self) -> Spec {
        Self::SPEC
    }

    fn reset(&mut self, seed: Option<u64>, obs: &mut [f32], mask: &mut [i8]) {
        if let Some(s) = seed {
            self.rng = SmallRng::seed_from_u64(s);
        }
        self.game.restart(self.start.clone());
        // The engine forgets the last episode, so that a seeded episode repeats exactly.
        if let Opponent::Engine(engine, _) = &mut self.opponent {
            let _ = engine.new_game();
        }
        self.ended = false;
        self.refresh();
        self.agent = match self.agent_side {
            Some(side) => side,
            None if self.self_play() => self.start.turn(),
            None => {
                if self.rng.gen::<bool>() {
                    Side::First
                } else {
                    Side::Second
                }
            }
        };
        if !self.self_play() && self.game.position().turn() != self.agent {
            self.opponent_move();
        }
        self.write(obs, mask);
    }

    fn step(&mut self, action: i64, obs: &mut [f32], mask: &mut [i8]) -> Result<StepOut, String> {
        if self.ended || self.game.outcome().is_some() {
            return Err("the episode is over; call reset() first".into());
        }
        let mover = self.game.position().turn();
        let Some(m) = self.decode_move(action).filter(|m| self.legal.contains(m)) else {
            // An illegal action loses the episode.
            self.ended = true;
            self.write(obs, mask);
            return Ok(StepOut {
                reward: -1.0,
                terminated: true,
                truncated: false,
                illegal: true,
            });
        };
        self.play(m);
        if self.game.outcome().is_none() {
            self.opponent_move();
        }
        let agent = if self.self_play() { mover } else { self.agent };
        self.write(obs, mask);
        let outcome = self.game.outcome();
        let reward = match outcome.and_then(|o| o.winner) {
            Some(w) if w == agent => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        let terminated = outcome.is_some();
        let truncated = !terminated && self.max_plies.is_some_and(|n| self.game.moves().len() >= n);
        self.ended = terminated || truncated;
        Ok(StepOut {
            reward,
            terminated,
            truncated,
            illegal: false,
        })
    }

    fn encode(&self, bits: u16) -> Option<usize> {
        P::Move::from_bits(bits).map(|m| self.encode_move(m))
    }

    fn decode(&self, action: i64) -> Option<u16> {
        self.decode_move(action).map(|m| m.bits())
    }

    fn legal_actions(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.legal.iter().map(|&m| self.encode_move(m)).collect();
        v.sort_unstable();
        v
    }

    fn sample(&mut self) -> Option<usize> {
        self.random_move().map(|m| self.encode_move(m))
    }

    fn game(&self) -> &dyn DynGame {
        &self.game
    }

    fn done(&self) -> bool {
        self.ended
    }

    fn agent(&self) -> Side {
        self.agent
    }

    fn observe(&self, side: Side, obs: &mut [f32]) {
        self.write_obs(side, obs);
    }

    fn pieces(&self) -> Vec<(usize, u8, usize)> {
        let pos = self.game.position();
        (0..P::Square::COUNT)
            .filter_map(|i| {
                let (side, role) = pos.piece_role(P::Square::from_index(i)?)?;
                Some((i, u8::from(side == Side::Second), role))
            })
            .collect()
    }
}

/// Builds an environment of `kind` from a position text.
pub fn new_env(
    kind: GameKind,
    position: &str,
    opponent: Opponent,
    agent_side: Option<Side>,
    max_plies: Option<usize>,
) -> Result<Box<dyn DynEnv>, chuhe::SetupError> {
    struct Make<'a> {
        position: &'a str,
        opponent: Opponent,
        agent_side: Option<Side>,
        max_plies: Option<usize>,
    }
    impl GameVisitor for Make<'_> {
        type Output = Result<Box<dyn DynEnv>, chuhe::SetupError>;
        fn visit<P: GamePosition>(self, config: P::Config) -> Self::Output {
            let start = P::from_text(self.position, config)?;
            Ok(Box::new(Env::new(
                start,
                self.opponent,
                self.agent_side,
                self.max_plies,
            )))
        }
    }
    kind.visit(Make {
        position,
        opponent,
        agent_side,
        max_plies,
    })
}

/// The spec of a game without building an environment.
pub fn spec_of(kind: GameKind) -> Spec {
    struct S;
    impl GameVisitor for S {
        type Output = Spec;
        fn visit<P: GamePosition>(self, _: P::Config) -> Spec {
            Env::<P>::SPEC
        }
    }
    kind.visit(S)
}

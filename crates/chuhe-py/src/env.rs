//! The reinforcement-learning core: observation planes, the fixed action encoding, the
//! legal-action mask and a whole environment step (the agent's move, the opponent's reply),
//! written once over [`GamePosition`]. The Python environments call one method per step.
//!
//! - Observation: `float32[2 × ROLES + 2, RANKS, FILES]`, from the side to move's view: plane
//!   `r` holds its pieces of role `r`, plane `ROLES + r` the opponent's, plane `2 × ROLES` the
//!   earlier occurrences of the position (0, 1/3, 2/3, 1 for three or more), plane
//!   `2 × ROLES + 1` the half-move clock / 200 (at most 1); in a game with drops from the
//!   hands (Minishogi), `2 × ROLES` hand planes follow, plane `r` filled with the pieces of
//!   role `r` the side to move holds / 8 (at most 1), then the opponent's; then with
//!   `history = k` the `2 × ROLES` piece planes of each of the `k` earlier positions (latest
//!   first, the same view, zeros before the game's start). Row 0 is the side to move's own
//!   back rank (the second player's board is flipped rank-wise; files are not mirrored).
//! - Action: `(from × SQUARES + to) × CHOICES + choice`, squares `rank × FILES + file` in the
//!   same view; `choice` is 0, or for Xiongqi 1–6 for a promotion to E, A, C, R, B, H.
//!
//! The sizes are a game's [`Layout`]: the native games' come from their types' constants
//! (and fold away at compile time); a game read from rule files gives its own board, pieces
//! and promotion choices at run time, so that its spaces are those of its real board.

use std::any::Any;

use chuhe::{
    Game, GameKind, GameMove, GamePosition, GameSquare, GameVisitor, MoveBuffer, Outcome, Side,
    Status,
};
use chuhe_engine::{Engine, Limits, Score};
use rand::rngs::SmallRng;
use rand::{Rng, RngCore, SeedableRng};

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

/// The random source of an environment: a seeded [`SmallRng`] that counts its draws, so
/// that its state can be written down (the seed and the count) and rebuilt.
#[derive(Clone, Debug)]
pub struct ReplayRng {
    rng: SmallRng,
    seed: u64,
    draws: u64,
}

impl ReplayRng {
    /// A source seeded with `seed`.
    pub fn new(seed: u64) -> ReplayRng {
        ReplayRng {
            rng: SmallRng::seed_from_u64(seed),
            seed,
            draws: 0,
        }
    }

    /// The source `seed` after `draws` draws.
    pub fn replayed(seed: u64, draws: u64) -> ReplayRng {
        let mut r = ReplayRng::new(seed);
        for _ in 0..draws {
            r.next_u64();
        }
        r
    }

    /// `(seed, draws)`: what [`ReplayRng::replayed`] rebuilds it from.
    pub fn state(&self) -> (u64, u64) {
        (self.seed, self.draws)
    }

    /// Reseeds from its own next draw, so that the state to replay stays short.
    pub fn renew(&mut self) {
        let seed = self.next_u64();
        *self = ReplayRng::new(seed);
    }
}

impl RngCore for ReplayRng {
    // Each of SmallRng's `next_u32` and `next_u64` advances its state by one step.
    fn next_u32(&mut self) -> u32 {
        self.draws += 1;
        self.rng.next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        self.draws += 1;
        self.rng.next_u64()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// How chuhe's engine plays as an opponent.
#[derive(Clone, Debug)]
pub struct EngineSettings {
    /// The search budget of each reply.
    pub limits: Limits,
    /// Strength level, 0 (weakest) to 20 (full strength).
    pub level: u8,
    /// `Some(t)`: the reply is drawn among the engine's best lines (`lines` of them) with
    /// probabilities proportional to `exp(score / (100 t))`, scores in centipawns; `None`:
    /// the engine's best move.
    pub temperature: Option<f64>,
    /// The lines scored for a drawn reply (MultiPV).
    pub lines: usize,
}

impl EngineSettings {
    /// An engine set up to play with these settings.
    pub fn engine(&self, kind: GameKind) -> Result<Engine, String> {
        let mut engine = Engine::new(kind);
        engine.set_hash(1).map_err(|e| e.to_string())?;
        engine
            .set_level(usize::from(self.level))
            .map_err(|e| e.to_string())?;
        if self.temperature.is_some() {
            engine.set_multipv(self.lines).map_err(|e| e.to_string())?;
        }
        Ok(engine)
    }
}

/// Who answers the agent's moves.
pub enum Opponent {
    /// Self-play: every step is one move of the side to move.
    None,
    /// A uniformly random legal move.
    Random,
    /// chuhe's engine (made at its first reply: a copy of an environment makes none until
    /// it is needed).
    Engine(Option<Box<Engine>>, EngineSettings),
}

impl Opponent {
    /// The same opponent, with no engine made yet (a fresh one, an empty hash table).
    fn fresh(&self) -> Opponent {
        match self {
            Opponent::None => Opponent::None,
            Opponent::Random => Opponent::Random,
            Opponent::Engine(_, settings) => Opponent::Engine(None, settings.clone()),
        }
    }
}

/// The state of an episode, apart from the environment's settings: what `get_state`
/// returns and pickles hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpisodeData {
    /// The game.
    pub kind: GameKind,
    /// The episode's start position (FEEN) and its half-move clock.
    pub start: String,
    pub halfmove: u32,
    /// The moves played, in coordinate form.
    pub moves: Vec<String>,
    /// The agent's side.
    pub agent: Side,
    /// Is the episode over?
    pub ended: bool,
    /// The random source: seed and draws.
    pub rng: (u64, u64),
    /// The game's result once over: replaying the moves finds a result the rules see, this
    /// one also keeps a declared result (an illegal action's `illegalmove`).
    pub outcome: Option<Outcome>,
    /// The moves played before the episode began (a game given at reset); `max_plies`
    /// counts from there.
    pub first_ply: usize,
}

/// Where an episode starts (see [`DynEnv::reset`]).
#[derive(Clone, Copy)]
pub enum Start<'a> {
    /// The environment's own start position.
    Default,
    /// A position as text: a FEEN, or (Xiangqi) a FEN.
    Text(&'a str),
    /// A game with its history: the episode goes on from its last position.
    Game(&'a dyn DynGame),
}

/// Why an episode cannot start from a finished game: the message names the position and
/// the result.
pub fn finished_message(kind: GameKind, what: &str, outcome: Outcome) -> String {
    format!(
        "the {kind} position {what} is already over ({}): an episode cannot start from a \
         finished position",
        outcome.in_words()
    )
}

/// An episode in memory, for a quick save and restore.
pub trait DynEpisode: Send + Sync {
    /// The game.
    fn kind(&self) -> GameKind;
    /// A copy.
    fn clone_box(&self) -> Box<dyn DynEpisode>;
    /// Written down.
    fn data(&self) -> EpisodeData;
    /// Is the episode over?
    fn ended(&self) -> bool;
    /// The game so far.
    fn game(&self) -> &dyn DynGame;
    /// As `Any`, to restore it into an environment of the same game.
    fn as_any(&self) -> &dyn Any;
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
    /// Starts a new episode from `start`; `seed` reseeds the random source. On error (a
    /// position that does not read, a game of another kind, a finished game) nothing
    /// changed.
    fn reset(
        &mut self,
        seed: Option<u64>,
        start: Start<'_>,
        obs: &mut [f32],
        mask: &mut [i8],
    ) -> Result<(), String>;
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
    /// Writes the observation and mask of the current position.
    fn current(&self, obs: &mut [f32], mask: &mut [i8]);
    /// Says whether the next calls give this environment the buffers of the last one, which
    /// nothing else wrote meanwhile (see [`Marks`]); `false` makes the next write whole.
    fn keep_buffers(&mut self, kept: bool);
    /// A copy: the same settings and episode (an engine opponent starts with an empty hash
    /// table).
    fn clone_box(&self) -> Box<dyn DynEnv>;
    /// The episode, to restore later.
    fn save(&self) -> Box<dyn DynEpisode>;
    /// Restores a saved episode of the same game.
    fn restore(&mut self, episode: &dyn DynEpisode) -> Result<(), String>;
    /// Checks that an episode can start from `start` (a position of this game, a game of
    /// this kind, not over).
    fn check_start(&self, start: Start<'_>) -> Result<(), String>;
    /// Restores an episode written down; on error the environment is unchanged.
    fn load(&mut self, data: &EpisodeData) -> Result<(), String>;
}

/// The state of one episode.
#[derive(Clone)]
struct Episode<P: GamePosition> {
    game: Game<P>,
    legal: P::Moves,
    agent: Side,
    ended: bool,
    rng: ReplayRng,
    /// The moves of `game` played before the episode began.
    first_ply: usize,
}

impl<P: GamePosition> DynEpisode for Episode<P> {
    fn kind(&self) -> GameKind {
        self.game.position().kind()
    }
    fn clone_box(&self) -> Box<dyn DynEpisode> {
        Box::new(self.clone())
    }
    fn data(&self) -> EpisodeData {
        let start = self.game.start_position();
        let moves = self
            .game
            .moves()
            .iter()
            .zip(self.game.positions())
            .map(|(&m, before)| {
                before
                    .move_to_text(m, chuhe::MoveNotation::Uci)
                    .unwrap_or_else(|_| m.to_string())
            })
            .collect();
        EpisodeData {
            kind: start.kind(),
            start: start.to_feen(),
            halfmove: start.halfmove(),
            moves,
            agent: self.agent,
            ended: self.ended,
            rng: self.rng.state(),
            outcome: self.game.outcome(),
            first_ply: self.first_ply,
        }
    }
    fn ended(&self) -> bool {
        self.ended
    }
    fn game(&self) -> &dyn DynGame {
        &self.game
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The environment of one game.
pub struct Env<P: GamePosition> {
    start: P,
    ep: Episode<P>,
    opponent: Opponent,
    agent_side: Option<Side>,
    max_plies: Option<usize>,
    /// Earlier positions shown in the observation (their piece planes).
    history: usize,
    /// Is this environment given the same observation and mask buffers on every call, which
    /// nothing else writes (a vector env's)? Then a write clears only what the last one set.
    kept: bool,
    obs_marks: Marks,
    mask_marks: Marks,
}

/// The sizes of a game's observation and action encoding: its board, its roles and the
/// choices of a move. Made from a position by [`Layout::of`]: for the native games every
/// field is a constant of their types, which the compiler folds into the encoding (no
/// run-time division); a game read from rule files gives its own at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The board's width.
    pub files: usize,
    /// The board's height.
    pub ranks: usize,
    /// The piece roles (one observation plane per role and side).
    pub roles: usize,
    /// The choices of a move between two squares.
    pub choices: usize,
    /// Does the game drop pieces from the hands (the observation has `2 × roles` hand planes)?
    pub hands: bool,
}

impl Layout {
    /// The layout of `pos`'s game.
    #[inline(always)]
    pub fn of<P: GamePosition>(pos: &P) -> Layout {
        let (files, ranks) = pos.board_size();
        Layout {
            files: usize::from(files),
            ranks: usize::from(ranks),
            roles: pos.role_count(),
            choices: pos.move_choices(),
            hands: pos.drops_from_hands(),
        }
    }

    /// The observation's planes before the earlier positions': pieces, repetitions, clock,
    /// and the hands where pieces are dropped.
    #[inline(always)]
    pub fn current_planes(self) -> usize {
        2 * self.roles + 2 + if self.hands { 2 * self.roles } else { 0 }
    }

    /// The board's squares.
    #[inline(always)]
    pub fn squares(self) -> usize {
        self.files * self.ranks
    }

    /// Is the board the square type's own (the square's index is its index here)?
    #[inline(always)]
    fn native<S: GameSquare>(self) -> bool {
        self.files == usize::from(S::FILES) && self.ranks == usize::from(S::RANKS)
    }

    /// The index `rank × files + file` of `sq` on this board.
    #[inline(always)]
    pub fn index<S: GameSquare>(self, sq: S) -> usize {
        if self.native::<S>() {
            sq.index()
        } else {
            usize::from(sq.rank()) * self.files + usize::from(sq.file())
        }
    }

    /// The square of index `index` on this board, if on it.
    #[inline(always)]
    pub fn square<S: GameSquare>(self, index: usize) -> Option<S> {
        if self.native::<S>() {
            S::from_index(index)
        } else if index < self.squares() {
            let (rank, file) = (index / self.files, index % self.files);
            S::from_coords(u8::try_from(file).ok()?, u8::try_from(rank).ok()?)
        } else {
            None
        }
    }

    /// The index of square `index` seen from `side` (the second player's board flipped
    /// rank-wise).
    #[inline(always)]
    fn view(self, index: usize, side: Side) -> usize {
        match side {
            Side::First => index,
            Side::Second => (self.ranks - 1 - index / self.files) * self.files + index % self.files,
        }
    }

    /// The spec of this layout with `history` earlier positions in the observation.
    pub fn spec(self, history: usize) -> Spec {
        let squares = self.squares();
        Spec {
            files: self.files,
            ranks: self.ranks,
            planes: self.current_planes() + 2 * self.roles * history,
            choices: self.choices,
            actions: squares * squares * self.choices,
        }
    }
}

/// A score as centipawns for a softmax: a forced win or loss far beyond any material score.
fn softmax_value(score: Score) -> f64 {
    match score {
        Score::Cp(v) => f64::from(v),
        Score::Mate(n) if n > 0 => 100_000.0 - f64::from(n),
        Score::Mate(n) => -100_000.0 - f64::from(n),
    }
}

/// The spec of `pos`'s game with `history` earlier positions in the observation.
pub fn spec_with_history<P: GamePosition>(pos: &P, history: usize) -> Spec {
    Layout::of(pos).spec(history)
}

/// The action of move `m` of a position where `side` is to move (the module's encoding), on
/// a board of `layout`. Always inlined, like the two below: a native game's layout is then a
/// constant where it is made, and its arithmetic folds (no run-time division).
#[inline(always)]
pub fn encode_move<P: GamePosition>(layout: Layout, m: P::Move, side: Side) -> usize {
    let from = layout.view(layout.index(m.from()), side);
    let to = layout.view(layout.index(m.to()), side);
    (from * layout.squares() + to) * layout.choices + m.choice()
}

/// The move an action stands for in a position where `side` is to move, on a board of
/// `layout`, if the action is well formed (legal or not).
#[inline(always)]
pub fn decode_action<P: GamePosition>(layout: Layout, action: i64, side: Side) -> Option<P::Move> {
    let a = usize::try_from(action).ok()?;
    let n = layout.squares();
    if a >= n * n * layout.choices {
        return None;
    }
    let choice = a % layout.choices;
    let squares = a / layout.choices;
    let from = layout.view(squares / n, side);
    let to = layout.view(squares % n, side);
    // A square to itself is no move, but a drop from the hand (`with_choice` knows).
    P::Move::with_choice(layout.square(from)?, layout.square(to)?, choice)
}

/// Writes the mask of the moves `legal` (of a position where `side` is to move), on a board
/// of `layout`.
#[inline(always)]
pub fn write_mask<P: GamePosition>(layout: Layout, legal: &[P::Move], side: Side, mask: &mut [i8]) {
    write_mask_over::<P>(layout, legal, side, mask, None);
}

/// The entries a write set in a buffer, so that the next write into the same buffer clears
/// only those instead of the whole buffer (most of an action mask or a piece plane is zero).
/// `valid` is false until a whole write, and whenever the buffer may hold something else.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    valid: bool,
    set: Vec<u32>,
}

impl Marks {
    /// Zeroes what the last write set, if the marks are valid (else the whole `buffer`), and
    /// starts recording anew.
    fn clear<T: Copy + Default>(&mut self, buffer: &mut [T]) {
        if self.valid {
            let zero = T::default();
            for &i in &self.set {
                buffer[i as usize] = zero;
            }
        } else {
            buffer.fill(T::default());
        }
        self.set.clear();
        self.valid = true;
    }

    fn put<T: Copy>(&mut self, buffer: &mut [T], index: usize, value: T) {
        buffer[index] = value;
        self.set.push(index as u32);
    }

    /// The buffer may hold something else: the next write clears it whole.
    pub fn forget(&mut self) {
        self.valid = false;
    }
}

/// [`write_mask`]; with `marks`, `mask` holds what the last write with these marks left.
fn write_mask_over<P: GamePosition>(
    layout: Layout,
    legal: &[P::Move],
    side: Side,
    mask: &mut [i8],
    marks: Option<&mut Marks>,
) {
    match marks {
        None => {
            mask.fill(0);
            for &m in legal {
                mask[encode_move::<P>(layout, m, side)] = 1;
            }
        }
        Some(marks) => {
            marks.clear(mask);
            for &m in legal {
                marks.put(mask, encode_move::<P>(layout, m, side), 1);
            }
        }
    }
}

/// Writes the observation of `game`'s current position from `me`'s view, with `history`
/// earlier positions (see the module's help).
pub fn write_observation<P: GamePosition>(
    game: &Game<P>,
    me: Side,
    history: usize,
    obs: &mut [f32],
) {
    write_observation_over(game, me, history, obs, None);
}

/// [`write_observation`]; with `marks`, `obs` holds what the last write with these marks
/// left, and only the piece cells it set are cleared.
fn write_observation_over<P: GamePosition>(
    game: &Game<P>,
    me: Side,
    history: usize,
    obs: &mut [f32],
    mut marks: Option<&mut Marks>,
) {
    let pos = game.position();
    let layout = Layout::of(pos);
    let n = layout.squares();
    let roles = layout.roles;
    let per = 2 * roles * n;
    let base = layout.current_planes() * n;
    // The piece planes (this position's and the earlier ones') are cleared; the two planes
    // between them are filled whole below.
    match marks.as_deref_mut() {
        Some(marks) => marks.clear(obs),
        None => {
            obs[..per].fill(0.0);
            obs[base..base + history * per].fill(0.0);
        }
    }
    let mut put = |obs: &mut [f32], index: usize| match marks.as_deref_mut() {
        Some(marks) => marks.put(obs, index, 1.0),
        None => obs[index] = 1.0,
    };
    pos.for_each_piece(|sq, side, role| {
        let plane = if side == me { role } else { roles + role };
        put(obs, plane * n + layout.view(layout.index(sq), me));
    });
    let earlier = game
        .history()
        .occurrences(pos)
        .take(4)
        .count()
        .saturating_sub(1);
    let rep = earlier.min(3) as f32 / 3.0;
    obs[2 * roles * n..(2 * roles + 1) * n].fill(rep);
    let clock = pos.halfmove().min(200) as f32 / 200.0;
    obs[(2 * roles + 1) * n..(2 * roles + 2) * n].fill(clock);
    if layout.hands {
        for (i, side) in [me, !me].into_iter().enumerate() {
            for role in 0..roles {
                let plane = 2 * roles + 2 + i * roles + role;
                let held = pos.held(side, role).min(8) as f32 / 8.0;
                obs[plane * n..(plane + 1) * n].fill(held);
            }
        }
    }
    // The earlier positions, latest first, from the same view; zeros before the start.
    let positions = game.positions();
    for j in 1..=history {
        let at = base + (j - 1) * per;
        if let Some(i) = positions.len().checked_sub(1 + j) {
            positions[i].for_each_piece(|sq, side, role| {
                let plane = if side == me { role } else { roles + role };
                put(obs, at + plane * n + layout.view(layout.index(sq), me));
            });
        }
    }
}

impl<P: GamePosition> Env<P> {
    pub fn new(
        start: P,
        opponent: Opponent,
        agent_side: Option<Side>,
        max_plies: Option<usize>,
        history: usize,
    ) -> Env<P> {
        let game = Game::from_position(start.clone());
        let mut env = Env {
            start,
            ep: Episode {
                game,
                legal: P::Moves::default(),
                agent: agent_side.unwrap_or(Side::First),
                ended: false,
                rng: ReplayRng::new(0),
                first_ply: 0,
            },
            opponent,
            agent_side,
            max_plies,
            history,
            kept: false,
            obs_marks: Marks::default(),
            mask_marks: Marks::default(),
        };
        env.refresh();
        env
    }

    /// The game's layout (constants for the native games).
    #[inline(always)]
    fn layout(&self) -> Layout {
        Layout::of(&self.start)
    }

    fn refresh(&mut self) {
        self.ep.legal.clear();
        self.ep.game.legal_moves_into(&mut self.ep.legal);
    }

    fn encode_move(&self, m: P::Move) -> usize {
        encode_move::<P>(self.layout(), m, self.ep.game.position().turn())
    }

    fn decode_move(&self, action: i64) -> Option<P::Move> {
        decode_action::<P>(self.layout(), action, self.ep.game.position().turn())
    }

    /// Writes the observation and mask of the current position; into kept buffers, over
    /// what the last write left there.
    fn write(&mut self, obs: &mut [f32], mask: &mut [i8]) {
        let side = self.ep.game.position().turn();
        let layout = self.layout();
        let (obs_marks, mask_marks) = if self.kept {
            (Some(&mut self.obs_marks), Some(&mut self.mask_marks))
        } else {
            (None, None)
        };
        write_observation_over(&self.ep.game, side, self.history, obs, obs_marks);
        write_mask_over::<P>(layout, &self.ep.legal, side, mask, mask_marks);
    }

    fn write_obs(&self, me: Side, obs: &mut [f32]) {
        write_observation(&self.ep.game, me, self.history, obs);
    }

    fn play(&mut self, m: P::Move) {
        // Moves come from the legal list: the arbiter accepts them, and generates the next
        // legal moves once for the outcome and the list.
        self.ep.game.play_legal(m, &mut self.ep.legal);
    }

    fn opponent_move(&mut self) {
        let m = match &mut self.opponent {
            Opponent::None => return,
            Opponent::Random => None,
            Opponent::Engine(slot, settings) => {
                if slot.is_none() {
                    // The settings were accepted when the environment was made.
                    *slot = settings.engine(self.start.kind()).ok().map(Box::new);
                }
                let texts = slot.as_deref_mut().and_then(|engine| {
                    engine_reply(engine, settings, &self.ep.game, &mut self.ep.rng)
                });
                let pos = self.ep.game.position();
                texts
                    .and_then(|t| pos.parse_move_as(&t, chuhe::MoveNotation::Uci).ok())
                    .filter(|m| self.ep.legal.contains(m))
            }
        };
        let m = m.or_else(|| self.random_move());
        if let Some(m) = m {
            self.play(m);
        }
    }

    fn random_move(&mut self) -> Option<P::Move> {
        let legal = &self.ep.legal;
        (!legal.is_empty()).then(|| legal[self.ep.rng.gen_range(0..legal.len())])
    }

    fn self_play(&self) -> bool {
        matches!(self.opponent, Opponent::None)
    }

    /// A start position of this game read from a FEEN or FEN.
    fn parse_start(&self, text: &str) -> Result<P, String> {
        P::from_text(text, self.start.config()).map_err(|e| {
            format!(
                "invalid {} position '{}': {e}",
                self.start.kind(),
                chuhe::quote_input(text)
            )
        })
    }

    /// The game an episode starts with: `start` read, checked to be of this game and not
    /// over.
    fn start_game(&self, start: Start<'_>) -> Result<Option<Game<P>>, String> {
        let kind = self.start.kind();
        let (game, what) = match start {
            Start::Default => return Ok(None),
            Start::Text(text) => (
                Game::from_position(self.parse_start(text)?),
                format!("'{}'", text.trim()),
            ),
            Start::Game(given) => {
                let game = given
                    .as_any()
                    .downcast_ref::<Game<P>>()
                    .filter(|_| given.kind() == kind)
                    .ok_or_else(|| {
                        format!(
                            "the game given is a {} game, not {kind}: an episode of this \
                             environment starts from a {kind} game",
                            given.kind()
                        )
                    })?;
                (
                    game.clone(),
                    format!("of the game given ({})", game.position().to_feen()),
                )
            }
        };
        match game.outcome() {
            Some(outcome) => Err(finished_message(kind, &what, outcome)),
            None => Ok(Some(game)),
        }
    }

    /// Restores an episode: the game, legal moves and the rest.
    fn set_episode(&mut self, ep: Episode<P>) {
        self.ep = ep;
    }
}

/// The engine's reply (coordinate text) in `game`: its best move, or one drawn by softmax
/// over its scored lines.
fn engine_reply<P: GamePosition>(
    engine: &mut Engine,
    settings: &EngineSettings,
    game: &Game<P>,
    rng: &mut ReplayRng,
) -> Option<String> {
    let dyn_game: &dyn crate::core::DynGame = game;
    let Some(temperature) = settings.temperature else {
        return crate::engine::search(engine, dyn_game, settings.limits.clone(), |_| {})
            .ok()
            .and_then(|b| b.best);
    };
    let (best, lines) =
        crate::engine::search_lines(engine, dyn_game, settings.limits.clone()).ok()?;
    if lines.is_empty() {
        return best.best;
    }
    let values: Vec<f64> = lines.iter().map(|l| softmax_value(l.score)).collect();
    let top = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = values
        .iter()
        .map(|v| ((v - top) / (100.0 * temperature)).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.gen::<f64>() * total;
    for (line, w) in lines.iter().zip(&weights) {
        if x < *w {
            return Some(line.pv[0].clone());
        }
        x -= w;
    }
    lines.last().map(|l| l.pv[0].clone())
}

impl<P: GamePosition> DynEnv for Env<P> {
    fn spec(&self) -> Spec {
        self.layout().spec(self.history)
    }

    fn reset(
        &mut self,
        seed: Option<u64>,
        start: Start<'_>,
        obs: &mut [f32],
        mask: &mut [i8],
    ) -> Result<(), String> {
        let given = self.start_game(start)?;
        match seed {
            Some(s) => self.ep.rng = ReplayRng::new(s),
            None => self.ep.rng.renew(),
        }
        match given {
            Some(game) => self.ep.game = game,
            None => self.ep.game.restart(self.start.clone()),
        }
        self.ep.first_ply = self.ep.game.moves().len();
        // The engine forgets the last episode, so that a seeded episode repeats exactly.
        if let Opponent::Engine(Some(engine), _) = &mut self.opponent {
            let _ = engine.new_game();
        }
        self.ep.ended = false;
        self.refresh();
        self.ep.agent = match self.agent_side {
            Some(side) => side,
            None if self.self_play() => self.ep.game.position().turn(),
            None => {
                if self.ep.rng.gen::<bool>() {
                    Side::First
                } else {
                    Side::Second
                }
            }
        };
        if !self.self_play() && self.ep.game.position().turn() != self.ep.agent {
            self.opponent_move();
        }
        self.write(obs, mask);
        Ok(())
    }

    fn step(&mut self, action: i64, obs: &mut [f32], mask: &mut [i8]) -> Result<StepOut, String> {
        if self.ep.ended || self.ep.game.outcome().is_some() {
            return Err("the episode is over; call reset() first".into());
        }
        let mover = self.ep.game.position().turn();
        let decoded = self.decode_move(action);
        let Some(m) = decoded.filter(|m| self.ep.legal.contains(m)) else {
            // An illegal action loses the episode, and the game with it: a move that the
            // arbiter accepts though the history forbids it (Xiongqi's X6) loses by
            // repetition, as in a game record; any other by an illegal move.
            self.ep.ended = true;
            let played = decoded.is_some_and(|m| self.ep.game.play(m).is_ok());
            if !played {
                self.ep
                    .game
                    .declare(Outcome::win(Status::Illegalmove, !mover));
            }
            self.refresh();
            self.write(obs, mask);
            return Ok(StepOut {
                reward: -1.0,
                terminated: true,
                truncated: false,
                illegal: true,
            });
        };
        self.play(m);
        if self.ep.game.outcome().is_none() {
            self.opponent_move();
        }
        let agent = if self.self_play() {
            mover
        } else {
            self.ep.agent
        };
        self.write(obs, mask);
        let outcome = self.ep.game.outcome();
        let reward = match outcome.and_then(|o| o.winner) {
            Some(w) if w == agent => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        let terminated = outcome.is_some();
        let truncated = !terminated
            && self
                .max_plies
                .is_some_and(|n| self.ep.game.moves().len() - self.ep.first_ply >= n);
        self.ep.ended = terminated || truncated;
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
        let mut v: Vec<usize> = self.ep.legal.iter().map(|&m| self.encode_move(m)).collect();
        v.sort_unstable();
        v
    }

    fn sample(&mut self) -> Option<usize> {
        self.random_move().map(|m| self.encode_move(m))
    }

    fn game(&self) -> &dyn DynGame {
        &self.ep.game
    }

    fn done(&self) -> bool {
        self.ep.ended
    }

    fn agent(&self) -> Side {
        self.ep.agent
    }

    fn observe(&self, side: Side, obs: &mut [f32]) {
        self.write_obs(side, obs);
    }

    fn pieces(&self) -> Vec<(usize, u8, usize)> {
        let pos = self.ep.game.position();
        let layout = self.layout();
        let mut out = Vec::new();
        pos.for_each_piece(|sq, side, role| {
            out.push((layout.index(sq), u8::from(side == Side::Second), role))
        });
        out.sort_unstable();
        out
    }

    fn current(&self, obs: &mut [f32], mask: &mut [i8]) {
        let side = self.ep.game.position().turn();
        write_observation(&self.ep.game, side, self.history, obs);
        write_mask::<P>(self.layout(), &self.ep.legal, side, mask);
    }

    fn keep_buffers(&mut self, kept: bool) {
        if !kept {
            self.obs_marks.forget();
            self.mask_marks.forget();
        }
        self.kept = kept;
    }

    fn clone_box(&self) -> Box<dyn DynEnv> {
        Box::new(Env {
            start: self.start.clone(),
            ep: self.ep.clone(),
            opponent: self.opponent.fresh(),
            agent_side: self.agent_side,
            max_plies: self.max_plies,
            history: self.history,
            kept: false,
            obs_marks: Marks::default(),
            mask_marks: Marks::default(),
        })
    }

    fn save(&self) -> Box<dyn DynEpisode> {
        Box::new(self.ep.clone())
    }

    fn restore(&mut self, episode: &dyn DynEpisode) -> Result<(), String> {
        // Xiangqi and xiangqi-capture share a position type: the game is compared first.
        if episode.kind() != self.start.kind() {
            return Err(format!(
                "the state is of a {} episode, not {}",
                episode.kind(),
                self.start.kind()
            ));
        }
        let ep = episode
            .as_any()
            .downcast_ref::<Episode<P>>()
            .ok_or_else(|| {
                format!(
                    "the state is of a {} episode, not {}",
                    episode.kind(),
                    self.start.kind()
                )
            })?;
        self.set_episode(ep.clone());
        Ok(())
    }

    fn check_start(&self, start: Start<'_>) -> Result<(), String> {
        self.start_game(start).map(|_| ())
    }

    fn load(&mut self, data: &EpisodeData) -> Result<(), String> {
        let kind = self.start.kind();
        if data.kind != kind {
            return Err(format!(
                "the state is of a {} episode, not {kind}",
                data.kind
            ));
        }
        let mut start = P::from_text(&data.start, self.start.config())
            .map_err(|e| format!("the state's start position: {e}"))?;
        start.set_halfmove(data.halfmove);
        let mut game = Game::from_position(start);
        for (i, text) in data.moves.iter().enumerate() {
            let m = game
                .position()
                .parse_move_as(text, chuhe::MoveNotation::Uci)
                .map_err(|e| format!("the state's move {} ({text}): {e}", i + 1))?;
            game.play(m)
                .map_err(|e| format!("the state's move {} ({text}): {e}", i + 1))?;
        }
        if let (Some(outcome), None) = (data.outcome, game.outcome()) {
            // A result declared outside the rules (an illegal action's).
            game.declare(outcome);
        }
        if data.first_ply > data.moves.len() {
            return Err(format!(
                "the state's episode begins at ply {} of a game of {} moves",
                data.first_ply,
                data.moves.len()
            ));
        }
        let mut ep = Episode {
            game,
            legal: P::Moves::default(),
            agent: data.agent,
            ended: data.ended,
            rng: ReplayRng::replayed(data.rng.0, data.rng.1),
            first_ply: data.first_ply,
        };
        ep.game.legal_moves_into(&mut ep.legal);
        self.set_episode(ep);
        Ok(())
    }
}

/// Builds an environment of `kind` from a position text.
pub fn new_env(
    kind: GameKind,
    position: &str,
    opponent: Opponent,
    agent_side: Option<Side>,
    max_plies: Option<usize>,
    history: usize,
) -> Result<Box<dyn DynEnv>, chuhe::SetupError> {
    struct Make<'a> {
        position: &'a str,
        opponent: Opponent,
        agent_side: Option<Side>,
        max_plies: Option<usize>,
        history: usize,
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
                self.history,
            )))
        }
    }
    kind.visit(Make {
        position,
        opponent,
        agent_side,
        max_plies,
        history,
    })
}

/// The layout of a game (see [`Layout`]).
pub fn layout_of(kind: GameKind) -> Layout {
    struct L;
    impl GameVisitor for L {
        type Output = Layout;
        fn visit<P: GamePosition>(self, config: P::Config) -> Layout {
            Layout::of(&P::start(config))
        }
    }
    kind.visit(L)
}

/// The spec of a game with `history` earlier positions in the observation.
pub fn spec_for(kind: GameKind, history: usize) -> Spec {
    layout_of(kind).spec(history)
}

/// The spec of a game without building an environment.
pub fn spec_of(kind: GameKind) -> Spec {
    spec_for(kind, 0)
}

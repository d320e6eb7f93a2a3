//! The game arbiter shared by every game: history, repetition look-ups, results, undo.
//!
//! A game's rules plug in through [`GamePosition`]; what differs between games (Xiongqi's
//! forbidden repetitions, Xiangqi's n-fold repetition with perpetual check) is in its two
//! history hooks, [`GamePosition::game_outcome`] and [`GamePosition::is_forbidden_by_history`].

use chuhe_notation::{Side, Status};

use crate::variant::{GamePosition, MoveBuffer, MoveNotation};
use crate::{MoveError, Outcome};

/// Buckets of the repetition look-up: a position goes into the bucket named by the top bits
/// of its Zobrist hash (uniformly random already, so no further mixing).
const BUCKETS: usize = 1024;

/// No position: the end of a chain.
const NONE: u32 = u32::MAX;

fn bucket(hash: u64) -> usize {
    (hash >> (64 - BUCKETS.trailing_zeros())) as usize
}

/// What the look-up keeps of a position.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Its Zobrist hash.
    hash: u64,
    /// The position before it in its bucket, or [`NONE`].
    bucket_prev: u32,
    /// The position before it with the same hash, or [`NONE`].
    same_prev: u32,
}

/// The positions and moves of a game, with O(1) look-up of earlier occurrences of a position.
///
/// The look-up is a small table, not a hash map: per bucket the last position in it, and per
/// position the one before it in its bucket and the one before it with the same hash (found
/// once, when the position is entered). A bit per bucket says which buckets hold a position,
/// so most moves read one cache line of it (128 bytes) and not the table, where a hash map's
/// scattered slots missed the cache at every move. Playing a move, taking it back and
/// starting again never allocate once the vectors have grown, and the repetitions of the
/// current position are a chain walked without a search.
#[derive(Clone, Debug)]
pub struct History<P: GamePosition> {
    positions: Vec<P>,
    moves: Vec<P::Move>,
    /// One per position.
    entries: Vec<Entry>,
    /// Per bucket: the last position in it; read only where `occupied` has the bucket's bit.
    bucket_last: [u32; BUCKETS],
    /// A bit per bucket: does it hold a position?
    occupied: [u64; BUCKETS / 64],
}

impl<P: GamePosition> History<P> {
    /// A history that starts at `start`, no move played.
    pub fn new(start: P) -> History<P> {
        let mut history = History {
            positions: Vec::new(),
            moves: Vec::new(),
            entries: Vec::new(),
            bucket_last: [NONE; BUCKETS],
            occupied: [0; BUCKETS / 64],
        };
        history.restart(start);
        history
    }

    /// Starts again at `start`, no move played, keeping the allocations.
    fn restart(&mut self, start: P) {
        self.positions.clear();
        self.moves.clear();
        self.entries.clear();
        self.occupied = [0; BUCKETS / 64];
        self.positions.push(start);
        self.link_position();
    }

    /// The positions: the start, then one after each move.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// The current position.
    pub fn current(&self) -> &P {
        self.positions.last().expect("a history is never empty")
    }

    /// The latest position with `hash`, or [`NONE`].
    fn latest_with(&self, hash: u64) -> u32 {
        let mut i = self.last_in(bucket(hash));
        while i != NONE && self.entries[i as usize].hash != hash {
            i = self.entries[i as usize].bucket_prev;
        }
        i
    }

    /// Indices (into [`History::positions`]) of every position with the same identity as `p`,
    /// the latest first.
    ///
    /// ```
    /// use chuhe::xiangqi::{Position, RuleSet};
    /// use chuhe::Game;
    ///
    /// let mut game = Game::<Position>::start(RuleSet::Standard);
    /// for m in ["h3e3", "h10g8", "e3h3", "g8h10"] {
    ///     game.play_text(m).unwrap();
    /// }
    /// let now: Vec<usize> = game.history().occurrences(game.position()).collect();
    /// assert_eq!(now, [4, 0]);
    /// ```
    pub fn occurrences<'a>(&'a self, p: &'a P) -> impl Iterator<Item = usize> + 'a {
        let latest = self.latest_with(p.zobrist_hash());
        std::iter::successors((latest != NONE).then_some(latest), move |&i| {
            let prev = self.entries[i as usize].same_prev;
            (prev != NONE).then_some(prev)
        })
        .map(|i| i as usize)
        .filter(move |&i| self.positions[i].same_identity(p))
    }

    fn push(&mut self, m: P::Move, after: P) {
        self.positions.push(after);
        self.moves.push(m);
        self.link_position();
    }

    /// Plays `m` on a copy of the current position made in place at the end of the list
    /// (no copy of the position through the stack).
    fn push_played(&mut self, m: P::Move) {
        let last = self.positions.len();
        self.positions.extend_from_within(last - 1..);
        self.positions[last].play_unchecked(m);
        self.moves.push(m);
        self.link_position();
    }

    /// Enters the last position into the look-up.
    fn link_position(&mut self) {
        let index = self.positions.len() - 1;
        let hash = self.positions[index].zobrist_hash();
        let b = bucket(hash);
        let same_prev = self.latest_with(hash);
        self.entries.push(Entry {
            hash,
            bucket_prev: self.last_in(b),
            same_prev,
        });
        self.bucket_last[b] = u32::try_from(index).expect("fewer than 4 billion plies");
        self.occupied[b / 64] |= 1 << (b % 64);
    }

    /// The last position in bucket `b`, or [`NONE`].
    #[inline]
    fn last_in(&self, b: usize) -> u32 {
        if self.occupied[b / 64] & (1 << (b % 64)) == 0 {
            NONE
        } else {
            self.bucket_last[b]
        }
    }

    fn pop(&mut self) -> Option<P::Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        let entry = self.entries.pop()?;
        let b = bucket(entry.hash);
        self.bucket_last[b] = entry.bucket_prev;
        if entry.bucket_prev == NONE {
            self.occupied[b / 64] &= !(1 << (b % 64));
        }
        Some(m)
    }
}

/// A game: a start position, the moves played, and the result.
#[derive(Clone, Debug)]
pub struct Game<P: GamePosition> {
    history: History<P>,
    declared: Option<Outcome>,
    outcome: Option<Outcome>,
    /// The ply whose move was forbidden by history (it ended the game).
    forbidden_at: Option<usize>,
}

impl<P: GamePosition> Game<P> {
    /// A game from the start position of a rule set (see [`GamePosition::start`]).
    pub fn start(config: P::Config) -> Game<P> {
        Game::from_position(P::start(config))
    }

    /// A game from `start`, a FEEN or (Xiangqi) a FEN, as [`GamePosition::from_text`].
    pub fn from_text(text: &str, config: P::Config) -> Result<Game<P>, crate::SetupError> {
        Ok(Game::from_position(P::from_text(text, config)?))
    }

    /// A game from a position (no history).
    pub fn from_position(position: P) -> Game<P> {
        let mut game = Game {
            history: History::new(position),
            declared: None,
            outcome: None,
            forbidden_at: None,
        };
        game.outcome = game.compute_outcome();
        game
    }

    /// The current position.
    pub fn position(&self) -> &P {
        self.history.current()
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &P {
        &self.history.positions[0]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[P::Move] {
        self.history.moves()
    }

    /// The positions so far: the start, then one after each move.
    pub fn positions(&self) -> &[P] {
        self.history.positions()
    }

    /// The whole history.
    pub fn history(&self) -> &History<P> {
        &self.history
    }

    /// Is `m` forbidden by the history (Xiongqi's X6; never in Xiangqi)?
    pub fn is_repetitive(&self, m: P::Move) -> bool {
        P::is_forbidden_by_history(&self.history, m)
    }

    /// The legal moves, history included; none once the game is over.
    pub fn legal_moves(&self) -> P::Moves {
        let mut list = P::Moves::default();
        self.legal_moves_into(&mut list);
        list
    }

    /// Appends the legal moves, history included, to `out`; none once the game is over.
    pub fn legal_moves_into(&self, out: &mut P::Moves) {
        if self.outcome.is_some() {
            return;
        }
        let start = out.len();
        self.position().legal_moves_into(out);
        if start == 0 {
            P::retain_allowed_by_history(&self.history, out);
            return;
        }
        let mut i = 0;
        out.retain(|m| {
            i += 1;
            i <= start || !P::is_forbidden_by_history(&self.history, m)
        });
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Is the side to move in check?
    pub fn is_check(&self) -> bool {
        self.position().is_check()
    }

    /// Plays a move checked against the rules; on error the game is unchanged. A move that
    /// the history forbids (X6) is accepted, as a game record may contain one, and loses.
    pub fn play(&mut self, m: P::Move) -> Result<(), MoveError> {
        if let Some(o) = self.outcome {
            return Err(MoveError::GameOver { outcome: o });
        }
        self.position().check_move(m)?;
        let forbidden = P::is_forbidden_by_history(&self.history, m);
        let mut after = self.position().clone();
        after.play_unchecked(m);
        self.history.push(m, after);
        if forbidden {
            self.forbidden_at = Some(self.history.moves.len());
        }
        self.outcome = self.compute_outcome();
        Ok(())
    }

    /// The moves the side to move may make whether or not the game is over: the pieces'
    /// moves ([`GamePosition::moves_past_end_into`]) less those the history forbids (X6).
    /// A GUI may send an engine a game that went on past a claimable repetition or the move
    /// limit; these are the moves to answer it with. While the game goes on they are
    /// [`Game::legal_moves`].
    ///
    /// ```
    /// use chuhe::{xiangqi, Game};
    /// // Two generals and an advisor: a draw by the rules (S3), yet the pieces can move.
    /// let game = Game::<xiangqi::Position>::from_text(
    ///     "3ak4/9/9/9/9/9/9/9/9/5K3 w - - 0 1",
    ///     xiangqi::RuleSet::Standard,
    /// )
    /// .unwrap();
    /// assert!(game.outcome().is_some());
    /// assert!(game.legal_moves().is_empty());
    /// assert!(!game.moves_past_end().is_empty());
    /// ```
    pub fn moves_past_end(&self) -> P::Moves {
        if self.outcome.is_none() {
            return self.legal_moves();
        }
        let mut list = P::Moves::default();
        self.position().moves_past_end_into(&mut list);
        P::retain_allowed_by_history(&self.history, &mut list);
        list
    }

    /// Plays `m` even when the game is over, when the pieces may make it
    /// ([`GamePosition::moves_past_end_into`]); while the game goes on, the same as
    /// [`Game::play`]. The result stays the first one the rules reached: the moves after it
    /// are kept in the history (repetitions and X6 look at them) but change no result. On
    /// error the game is unchanged.
    pub fn play_past_end(&mut self, m: P::Move) -> Result<(), MoveError> {
        let Some(outcome) = self.outcome else {
            return self.play(m);
        };
        let mut list = P::Moves::default();
        self.position().moves_past_end_into(&mut list);
        if !list.contains(&m) {
            return Err(match self.position().check_move(m) {
                Err(MoveError::GameOver { .. }) | Ok(()) => MoveError::GameOver { outcome },
                Err(e) => e,
            });
        }
        let mut after = self.position().clone();
        after.play_unchecked(m);
        self.history.push(m, after);
        Ok(())
    }

    /// Reads a move written in `notation` that [`Game::play_past_end`] would accept: as
    /// [`GamePosition::parse_move_as`], and past the end of the game, one of
    /// [`GamePosition::moves_past_end_into`] written the same way.
    pub fn parse_move_past_end(
        &self,
        text: &str,
        notation: MoveNotation,
    ) -> Result<P::Move, MoveError> {
        match self.position().parse_move_as(text, notation) {
            Err(MoveError::GameOver { outcome }) => {
                let mut list = P::Moves::default();
                self.position().moves_past_end_into(&mut list);
                let pos = self.position();
                list.iter()
                    .copied()
                    .find(|&m| {
                        pos.move_to_text(m, notation)
                            .is_ok_and(|t| t.eq_ignore_ascii_case(text.trim()))
                    })
                    .ok_or(MoveError::GameOver { outcome })
            }
            other => other,
        }
    }

    /// Plays `m`, a move of [`Game::legal_moves`], without checking it again, and writes the
    /// legal moves of the position it reaches (history included; none once the game is over)
    /// into `next`, emptied first. The same as [`Game::play`] then
    /// [`Game::legal_moves_into`], with the moves generated once instead of twice (the
    /// outcome needs them too): for loops that play many moves, as environments do.
    ///
    /// A move that is not legal here leaves the game in an unspecified state (debug builds
    /// panic).
    pub fn play_legal(&mut self, m: P::Move, next: &mut P::Moves) {
        debug_assert!(
            self.outcome.is_none()
                && self.position().check_move(m).is_ok()
                && !P::is_forbidden_by_history(&self.history, m),
            "play_legal: {m:?} is not a legal move here"
        );
        self.history.push_played(m);
        // A legal move is never forbidden, and the game was not over: neither a declared
        // result nor a forbidden move is pending, as `compute_outcome` would find.
        next.clear();
        self.position().legal_moves_into(next);
        P::retain_allowed_by_history(&self.history, next);
        self.outcome = P::game_outcome(&self.history, !next.is_empty());
        if self.outcome.is_some() {
            next.clear();
        }
    }

    /// Plays `m`, a legal move, where the caller knows the game goes on after it, without
    /// generating the next legal moves for the result (the result stays none): for a search
    /// that walks again down a line it played before with [`Game::play_legal`], which found
    /// the game going on there. Undo it with [`Game::undo_ongoing`].
    ///
    /// A move that is not legal here, or one that ends the game, leaves the game in an
    /// unspecified state (debug builds check that the game was going on).
    ///
    /// ```
    /// use chuhe::{xiangqi, Game, GamePosition};
    /// let mut game = Game::<xiangqi::Position>::start(xiangqi::RuleSet::Standard);
    /// let m = game.legal_moves()[0];
    /// let mut next = Default::default();
    /// game.play_legal(m, &mut next);       // the first walk: the result is computed
    /// assert!(game.outcome().is_none());
    /// game.undo_ongoing();
    /// game.replay_ongoing(m);              // later walks down the same move
    /// assert_eq!(game.moves(), &[m]);
    /// game.undo_ongoing();
    /// assert!(game.moves().is_empty());
    /// ```
    pub fn replay_ongoing(&mut self, m: P::Move) {
        debug_assert!(self.outcome.is_none(), "replay_ongoing: the game is over");
        self.history.push_played(m);
    }

    /// Takes back the last move, which was played while the game went on ([`Game::play`],
    /// [`Game::play_legal`], [`Game::replay_ongoing`]; not [`Game::play_past_end`]), without
    /// generating moves for the result: the game went on before that move, so the result is
    /// none again (a declared result is taken back, as [`Game::undo`] does).
    pub fn undo_ongoing(&mut self) -> Option<P::Move> {
        let m = self.take_back()?;
        self.outcome = None;
        Some(m)
    }

    /// Starts the game again from `position` (no history), keeping its allocations: the same
    /// as `*self = Game::from_position(position)`.
    pub fn restart(&mut self, position: P) {
        self.history.restart(position);
        self.declared = None;
        self.forbidden_at = None;
        self.outcome = self.compute_outcome();
    }

    /// Parses a move in the game's default notation and plays it; returns it.
    pub fn play_text(&mut self, text: &str) -> Result<P::Move, MoveError> {
        if let Some(o) = self.outcome {
            return Err(MoveError::GameOver { outcome: o });
        }
        let m = self.position().parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last move (and any declared result).
    pub fn undo(&mut self) -> Option<P::Move> {
        let m = self.take_back()?;
        self.outcome = self.compute_outcome();
        Some(m)
    }

    /// Takes back the last move, a forbidden move's mark and any declared result; the
    /// caller sets the result.
    fn take_back(&mut self) -> Option<P::Move> {
        let m = self.history.pop()?;
        if self
            .forbidden_at
            .is_some_and(|ply| ply > self.history.moves.len())
        {
            self.forbidden_at = None;
        }
        self.declared = None;
        Some(m)
    }

    /// `side` resigns and loses (CGSN `resignation`).
    pub fn resign(&mut self, side: Side) {
        self.declare(Outcome::win(Status::Resignation, !side));
    }

    /// `side`'s time ran out: it loses (CGSN `timelimit`).
    pub fn time_out(&mut self, side: Side) {
        self.declare(Outcome::win(Status::Timelimit, !side));
    }

    /// Both players agree to a draw (CGSN `agreement`).
    pub fn agree_draw(&mut self) {
        self.declare(Outcome::draw(Status::Agreement));
    }

    /// Ends the game with a result decided outside the rules: a resignation, a time or
    /// illegal-move forfeit, an agreed draw, an adjudication. Ignored once the game is over;
    /// [`Game::undo`] takes it back.
    pub fn declare(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.declared = Some(outcome);
            self.outcome = Some(outcome);
        }
    }

    fn compute_outcome(&self) -> Option<Outcome> {
        if let Some(d) = self.declared {
            return Some(d);
        }
        if self.forbidden_at.is_some() {
            // The player who made the forbidden move loses; the side to move now won.
            return Some(Outcome::win(Status::Repetition, self.position().turn()));
        }
        let moves = self.position().legal_moves();
        let has_legal = moves
            .iter()
            .any(|&m| !P::is_forbidden_by_history(&self.history, m));
        P::game_outcome(&self.history, has_legal)
    }
}

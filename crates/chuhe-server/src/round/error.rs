//! Why a player's action was refused: [`RoundError`], a code with parameters that the page
//! words in the player's language, and an English message for API clients.

use chuhe::{MoveError, Outcome, Side};
use serde_json::{json, Value};

use crate::store::StoreError;

/// A refused action on a game. Nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum RoundError {
    /// The game has a result (or was aborted): nothing more can happen in it.
    #[error("the game is over: {}", ended.words)]
    GameOver {
        /// How it ended.
        ended: Ended,
    },
    /// Only the side to move can do this.
    #[error("it is {}'s move", turn.as_str())]
    NotYourTurn {
        /// The side to move.
        turn: Side,
    },
    /// The engine is searching its move.
    #[error("the engine is thinking; wait for its move")]
    EngineThinking,
    /// The move was meant for another moment of the game (a page that was behind).
    #[error(
        "the move was meant for ply {meant}, but {played} moves have been played; reload the game"
    )]
    WrongPly {
        /// The ply the page meant.
        meant: usize,
        /// Moves played.
        played: usize,
    },
    /// The move cannot be read in any notation of the game.
    #[error("cannot read the move '{text}': {why}")]
    UnreadableMove {
        /// The move as written (cut short).
        text: String,
        /// Why.
        why: MoveError,
    },
    /// The move breaks the rules (or names an empty square, or the other side's piece).
    #[error("'{text}' cannot be played: {why}")]
    IllegalMove {
        /// The move as written (cut short).
        text: String,
        /// Why.
        why: MoveError,
    },
    /// Moves can be taken back only against the engine.
    #[error("moves can be taken back only in a game against the engine")]
    TakeBackAgainstEngineOnly,
    /// The asker has not moved yet.
    #[error("you have no move to take back")]
    NothingToTakeBack,
    /// A draw offer is answered, but none stands from the other side.
    #[error("there is no draw offer from the other player to answer")]
    NoDrawOffer,
    /// The asker's draw offer stands already.
    #[error("you have offered a draw already")]
    DrawAlreadyOffered,
    /// Both sides have moved: the game can be resigned, not aborted.
    #[error("both sides have moved: the game can no longer be aborted (resign instead)")]
    TooLateToAbort,
    /// The game is not over: no rematch yet.
    #[error("the game is not over yet")]
    NotOver,
    /// No rematch offer from the other side to answer.
    #[error("there is no rematch offer from the other player to answer")]
    NoRematchOffer,
    /// The rematch was made already.
    #[error("the rematch has been made already: game {game}")]
    RematchMade {
        /// Its game.
        game: String,
    },
    /// An imported record: reviewed, not played.
    #[error("this is an imported record: it can be replayed, not played")]
    ReviewOnly,
    /// The viewer holds no seat in this game.
    #[error("only the game's players can do this; spectators can only watch")]
    NotAPlayer,
    /// The seat the invite opens has a player already.
    #[error("the seat has been taken by someone else; you are watching")]
    SeatTaken,
    /// The invite link's code is not this game's.
    #[error("the invite link is not valid for this game")]
    BadInvite,
    /// No game has this id.
    #[error("no game with id '{0}'")]
    NoGame(String),
    /// The game is of a kind this server does not offer now: a game read from rule files
    /// whose directory it was not started with.
    #[error(
        "this game is of '{game}', whose rules this server was not started with; it is kept \
         unchanged and can be played again once the server is started with --rules for it"
    )]
    NotServed {
        /// The game's kind, as stored.
        game: String,
    },
    /// A game read from rule files that its rules, as this server was started with them, no
    /// longer replay: the rule files changed after it was played. The record is kept as it is.
    #[error(
        "this game of '{game}' does not replay under the rules this server was started with \
         ({at}: {why}); the rule files changed since it was played. It is kept unchanged and \
         can be played again once the server is started with the rules it was played under"
    )]
    RulesChanged {
        /// The game's kind, as stored.
        game: String,
        /// What was refused: `the start position` or `move N ('a2a3')`.
        at: String,
        /// Why the rules refused it.
        why: String,
    },
    /// The server failed inside (a task that panicked).
    #[error("the request failed inside the server: {0}")]
    Internal(String),
    /// The database refused or failed.
    #[error("{0}")]
    Store(#[from] StoreError),
}

/// How a finished game ended, for [`RoundError::GameOver`].
#[derive(Clone, Debug)]
pub struct Ended {
    /// The CGSN status or `aborted`.
    pub status: &'static str,
    /// `first`, `second` or `none`.
    pub winner: &'static str,
    /// The result in English words (`Black wins by resignation`).
    pub words: String,
}

impl Ended {
    /// The end of a game decided by `outcome`, worded for `game`.
    pub fn of(outcome: &Outcome, game: chuhe::GameKind) -> Ended {
        Ended {
            status: outcome.status.as_str(),
            winner: outcome.winner_str(),
            words: super::words::result(game, outcome),
        }
    }
}

impl RoundError {
    /// The stable code the API and the page use.
    pub fn code(&self) -> &'static str {
        match self {
            RoundError::GameOver { .. } => "game_over",
            RoundError::NotYourTurn { .. } => "not_your_turn",
            RoundError::EngineThinking => "engine_thinking",
            RoundError::WrongPly { .. } => "stale",
            RoundError::UnreadableMove { .. } => "bad_move",
            RoundError::IllegalMove { .. } => "illegal_move",
            RoundError::TakeBackAgainstEngineOnly | RoundError::NothingToTakeBack => "no_takeback",
            RoundError::NoDrawOffer => "no_draw_offer",
            RoundError::DrawAlreadyOffered => "draw_offered",
            RoundError::TooLateToAbort => "cannot_abort",
            RoundError::NotOver => "not_over",
            RoundError::NoRematchOffer => "no_rematch_offer",
            RoundError::RematchMade { .. } => "rematch_made",
            RoundError::ReviewOnly => "review_only",
            RoundError::NotAPlayer => "forbidden",
            RoundError::SeatTaken => "seat_taken",
            RoundError::BadInvite => "bad_invite",
            RoundError::NoGame(_) => "not_found",
            RoundError::NotServed { .. } => "game_not_served",
            RoundError::RulesChanged { .. } => "rules_changed",
            RoundError::Internal(_) => "internal",
            RoundError::Store(_) => "database",
        }
    }

    /// What the page needs to word the error: the parameters of its code.
    pub fn params(&self) -> Value {
        match self {
            RoundError::GameOver { ended } => {
                json!({"status": ended.status, "winner": ended.winner})
            }
            RoundError::NotYourTurn { turn } => json!({"turn": turn.as_str()}),
            RoundError::WrongPly { meant, played } => json!({"meant": meant, "played": played}),
            RoundError::UnreadableMove { text, why } | RoundError::IllegalMove { text, why } => {
                let mut p = json!({"move": text, "reason": move_reason(why)});
                match why {
                    MoveError::NoPiece { square } => p["square"] = json!(square),
                    MoveError::NotYourPiece { square, owner, .. } => {
                        p["square"] = json!(square);
                        p["owner"] = json!(owner);
                    }
                    MoveError::UnknownSquare { square, .. } => p["square"] = json!(square),
                    _ => {}
                }
                p
            }
            RoundError::TakeBackAgainstEngineOnly => json!({"reason": "engine_only"}),
            RoundError::NothingToTakeBack => json!({"reason": "nothing"}),
            RoundError::RematchMade { game } => json!({"game": game}),
            RoundError::NotServed { game } => json!({"game": game}),
            RoundError::RulesChanged { game, at, why } => {
                json!({"game": game, "at": at, "reason": why})
            }
            _ => json!({}),
        }
    }
}

/// The kind of a move error, for the page: `syntax`, `no_piece`, `not_your_piece`,
/// `unknown_square`, `illegal`, `game_over`, `notation`.
fn move_reason(e: &MoveError) -> &'static str {
    match e {
        MoveError::Syntax { .. } => "syntax",
        MoveError::UnknownSquare { .. } => "unknown_square",
        MoveError::NoPiece { .. } => "no_piece",
        MoveError::NotYourPiece { .. } => "not_your_piece",
        MoveError::Illegal { .. } => "illegal",
        MoveError::GameOver { .. } => "game_over",
        MoveError::UnsupportedNotation { .. } => "notation",
    }
}

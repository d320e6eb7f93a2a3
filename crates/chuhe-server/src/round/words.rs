//! Results and sides in English as players say them — "Black wins by resignation" in
//! Xiangqi, "South wins by checkmate" in Xiongqi — for API clients and records. The page
//! words the same codes itself, in the player's language.

use chuhe::{GameKind, Outcome, RepetitionRule, Side, Status};

/// A side's name in a game: Red and Black in Xiangqi, South and North in Xiongqi.
///
/// ```
/// use chuhe::{GameKind, Side};
/// use chuhe_server::round::words::side;
/// assert_eq!(side(GameKind::Xiangqi, Side::Second), "Black");
/// assert_eq!(side(GameKind::Xiongqi, Side::First), "South");
/// ```
pub fn side(game: GameKind, side: Side) -> &'static str {
    match (game, side) {
        (GameKind::Xiongqi, Side::First) => "South",
        (GameKind::Xiongqi, Side::Second) => "North",
        (_, Side::First) => "Red",
        (_, Side::Second) => "Black",
    }
}

/// The name of the piece whose capture ends a game: the general, or a rules game's royal
/// piece as its manifest names it.
fn royal(game: GameKind) -> &'static str {
    match game {
        GameKind::Rules(handle) => handle
            .info()
            .manifest
            .pieces
            .iter()
            .find(|p| p.royal)
            .map_or("royal piece", |p| p.name.as_str()),
        _ => "general",
    }
}

/// A result in words.
///
/// ```
/// use chuhe::{GameKind, Outcome, Side, Status};
/// use chuhe_server::round::words::result;
/// let resigned = Outcome::win(Status::Resignation, Side::Second);
/// assert_eq!(result(GameKind::Xiangqi, &resigned), "Black wins by resignation");
/// let mate = Outcome::win(Status::Checkmate, Side::First);
/// assert_eq!(result(GameKind::Xiongqi, &mate), "South wins by checkmate");
/// assert_eq!(result(GameKind::Xiangqi, &Outcome::draw(Status::Agreement)), "Draw by agreement");
/// ```
pub fn result(game: GameKind, outcome: &Outcome) -> String {
    let Some(winner) = outcome.winner else {
        return match outcome.status {
            Status::Agreement => "Draw by agreement".into(),
            Status::Repetition => "Draw by repetition".into(),
            Status::Movelimit => "Draw by the move limit".into(),
            Status::Insufficient => "Draw: neither side can win".into(),
            Status::Stalemate => "Draw by stalemate".into(),
            other => format!("Draw ({})", other.as_str()),
        };
    };
    let (w, l) = (side(game, winner), side(game, !winner));
    match (outcome.status, outcome.reason) {
        (Status::Checkmate, _) => format!("{w} wins by checkmate"),
        (Status::Stalemate, _) => format!("{w} wins: {l} has no legal move (stalemate)"),
        (Status::Nomove, _) => format!("{w} wins: {l} has no legal move"),
        (Status::Bareking, _) => format!("{w} wins by bare king"),
        (Status::Mareking, _) => format!("{w} wins: {l}'s {} was captured", royal(game)),
        (Status::Resignation, _) => format!("{w} wins by resignation"),
        (Status::Timelimit, _) => format!("{w} wins on time"),
        (Status::Illegalmove, _) => format!("{w} wins: {l} made a forbidden move"),
        (Status::Repetition, Some(RepetitionRule::PerpetualCheck)) => {
            format!("{w} wins: {l} checked perpetually")
        }
        (Status::Repetition, Some(RepetitionRule::PerpetualChase)) => {
            format!("{w} wins: {l} chased perpetually")
        }
        (Status::Repetition, _) => format!("{w} wins: {l} repeated a position"),
        (Status::Agreement, _) => format!("{w} wins by agreement"),
        (Status::Movelimit, _) => format!("{w} wins by the move limit"),
        (Status::Insufficient, _) => format!("{w} wins: {l} cannot win"),
        (Status::Check | Status::Stale, _) => format!("{w} wins"),
    }
}

/// An aborted game in words.
pub fn aborted(game: GameKind, late: Option<Side>) -> String {
    match late {
        Some(s) => format!(
            "Game aborted: {} did not make a first move in time",
            side(game, s)
        ),
        None => "Game aborted".into(),
    }
}

/// A game left by a player in words.
pub fn abandoned(game: GameKind, leaver: Side) -> String {
    format!(
        "{} wins: {} left the game",
        side(game, !leaver),
        side(game, leaver)
    )
}

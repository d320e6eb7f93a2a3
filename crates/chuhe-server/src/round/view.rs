//! A round as a client sees it: [`GameView`], the JSON of `GET /api/games/{id}` and of the
//! WebSocket's `state` messages. Results and notices are codes with parameters (the page
//! words them in the player's language), with English words beside them for API clients.

use chuhe::{AnyGame, GameKind, MoveNotation, MoveTexts, Outcome, Side};
use serde::Serialize;

use super::{words, Round, ABANDONED, ABORTED, NO_FIRST_MOVE, UNTIMED_PLIES};
use crate::store::{Opponent, SeatRating};

/// The state of a game as one viewer sees it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// `xiongqi`, `xiangqi`, `xiangqi-capture`.
    pub game: &'static str,
    /// `engine`, `friend` or `record` (an imported record: a review board).
    pub opponent: &'static str,
    /// The engine's level and side, in a game against it.
    pub engine: Option<EngineView>,
    /// The seats: first, then second.
    pub players: [PlayerView; 2],
    /// Does the result change ratings?
    pub rated: bool,
    /// The viewer's side, when they hold a seat.
    pub you: Option<&'static str>,
    /// What the viewer may do now.
    pub can: Can,
    /// The invite link for the open seat (shown to the game's creator while it is open).
    pub invite: Option<String>,
    /// The link for spectators.
    pub watch: String,
    /// The start position (FEEN).
    pub start: String,
    /// The current position (FEEN).
    pub feen: String,
    /// The current position as FEN (Xiangqi).
    pub fen: Option<String>,
    /// `first` or `second`.
    pub turn: &'static str,
    /// Moves played.
    pub ply: usize,
    /// Is the side to move in check?
    pub check: bool,
    /// The moves played.
    pub moves: Vec<MoveView>,
    /// The legal moves (none once the game is over).
    pub legal: Vec<LegalMove>,
    /// The result, once over.
    pub result: Option<ResultView>,
    /// The clocks.
    pub clock: Option<ClockView>,
    /// The side that offered a draw, while the offer stands.
    pub draw_offer: Option<&'static str>,
    /// The rematch: the side that offered it, and its game once made.
    pub rematch: RematchView,
    /// Is the engine thinking?
    pub thinking: bool,
    /// Something that happened that the state does not show (a declined offer), until the
    /// next move or the result.
    pub notice: Option<NoticeView>,
    /// When the game was created (ms since the epoch).
    pub created_ms: i64,
    /// Counts up with every change.
    pub version: u64,
}

/// A seat.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlayerView {
    /// The player's name (`None`: the engine, or a seat nobody has taken).
    pub name: Option<String>,
    /// A guest (no account).
    pub guest: bool,
    /// The engine's level, for the engine's seat.
    pub engine: Option<u8>,
    /// The rating at the start of a rated game.
    pub rating: Option<i64>,
    /// Was it provisional?
    pub provisional: bool,
    /// The change the result brought.
    pub diff: Option<i64>,
}

/// What the viewer may do now: the page offers exactly these.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Can {
    /// Play a move (their turn, the engine not thinking).
    #[serde(rename = "move")]
    pub play: bool,
    /// Resign.
    pub resign: bool,
    /// Abort (before both sides have moved).
    pub abort: bool,
    /// Offer a draw.
    pub offer_draw: bool,
    /// Answer the other side's draw offer.
    pub answer_draw: bool,
    /// Take back their last move (against the engine).
    pub take_back: bool,
    /// Offer (or, against the engine, start) a rematch.
    pub rematch: bool,
    /// Answer the other side's rematch offer.
    pub answer_rematch: bool,
}

/// The engine's part in a game.
#[derive(Clone, Debug, Serialize)]
pub struct EngineView {
    /// Strength, 0–20.
    pub level: u8,
    /// The side it plays.
    pub side: &'static str,
}

/// A move played.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// Its number, from 1.
    pub ply: usize,
    /// In every notation of the game (`uci`, `pmn`, `wxf`, …).
    pub text: MoveTexts,
    /// Coordinates as players write them: `h3-e3`, a capture `e3xe7`.
    pub coords: String,
    /// Milliseconds its player took (in a game; a position analysed has none, and the field
    /// is left out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
}

impl MoveView {
    /// The move at `ply` (from 1) written `texts`, which took `time_ms`.
    pub fn new(ply: usize, texts: MoveTexts, time_ms: Option<u64>) -> MoveView {
        MoveView {
            ply,
            coords: coordinates(texts.get("pmn").map_or("", String::as_str)),
            text: texts,
            time_ms,
        }
    }
}

/// The legal moves of `game`'s position with their squares (none once the game is over).
pub fn legal_moves(game: &dyn AnyGame) -> Vec<LegalMove> {
    game.legal_moves_in(&[MoveNotation::Uci, MoveNotation::Pmn])
        .unwrap_or_default()
        .into_iter()
        .map(|texts| {
            let [uci, pmn]: [String; 2] = texts.try_into().unwrap_or_default();
            let (from, to) = squares_of(&uci);
            LegalMove { uci, from, to, pmn }
        })
        .collect()
}

impl ResultView {
    /// A result the rules (or a declared end) decided, in `kind`'s words.
    pub fn of(kind: GameKind, outcome: &Outcome) -> ResultView {
        ResultView {
            status: outcome.status.as_str(),
            winner: outcome.winner_str(),
            reason: outcome.reason.map(|r| r.as_str().to_string()),
            text: words::result(kind, outcome),
        }
    }
}

/// A legal move with its squares, for a board that is clicked.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMove {
    /// Coordinates, as sent back to play it.
    pub uci: String,
    /// Origin square.
    pub from: String,
    /// Destination square.
    pub to: String,
    /// In PMN (the promotion choice shows here).
    pub pmn: String,
}

/// How the game ended.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    /// The CGSN status, or `aborted` (see [`ABORTED`]).
    pub status: &'static str,
    /// `first`, `second` or `none`.
    pub winner: &'static str,
    /// The repetition rule that decided it, `abandoned` (a player left), or
    /// `no_first_move` (aborted: the side to move did not make its first move in time).
    pub reason: Option<String>,
    /// In English words: `Black wins by resignation`.
    pub text: String,
}

/// The rematch.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RematchView {
    /// The side whose offer stands.
    pub offer: Option<&'static str>,
    /// The rematch's game, once made.
    pub game: Option<String>,
}

/// A notice: `draw_declined` by `side`.
#[derive(Clone, Debug, Serialize)]
pub struct NoticeView {
    /// What happened.
    pub code: &'static str,
    /// Who did it.
    pub side: &'static str,
    /// In English words.
    pub text: String,
}

/// The clocks, as of the moment the state was sent.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// Milliseconds at the start.
    pub initial_ms: u64,
    /// Milliseconds added per move.
    pub increment_ms: u64,
    /// The time control in its standard form (`180+2`).
    pub control: String,
    /// Milliseconds left for first and second.
    pub remaining_ms: [i64; 2],
    /// The side whose clock runs, if any (none before each side has made its first move:
    /// a side's clock starts with its first move).
    pub running: Option<&'static str>,
    /// Before each side has made its first move: the milliseconds the side to move has left
    /// to make it before the game is aborted.
    pub first_move_ms: Option<i64>,
}

/// Splits coordinates `e3e4`, `b10b3`, `e7e8e` into origin and destination.
fn squares_of(uci: &str) -> (String, String) {
    // A drop (`P@c3`) puts a piece from the hand on one square: both of its squares.
    if let Some((_, square)) = uci.split_once('@') {
        return (square.to_string(), square.to_string());
    }
    let bytes = uci.as_bytes();
    let mut i = 0;
    let mut parts = Vec::new();
    while i < bytes.len() && parts.len() < 2 {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_lowercase() {
            i += 1;
        }
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            break;
        }
        parts.push(uci[start..i].to_string());
    }
    let to = parts.pop().unwrap_or_default();
    let from = parts.pop().unwrap_or_default();
    (from, to)
}

/// A PMN move as players write coordinates: the capture sign `+` (which a WXF reader takes
/// for "advance") becomes `x`.
///
/// ```
/// use chuhe_server::round::view::coordinates;
/// assert_eq!(coordinates("h3-e3"), "h3-e3");
/// assert_eq!(coordinates("e3+e7"), "e3xe7");
/// assert_eq!(coordinates("d7+e8=R"), "d7xe8=R");
/// ```
pub fn coordinates(pmn: &str) -> String {
    let square_end = pmn
        .char_indices()
        .skip_while(|(_, c)| c.is_ascii_lowercase())
        .find(|(_, c)| !c.is_ascii_digit())
        .map(|(i, _)| i);
    match square_end {
        Some(i) if pmn[i..].starts_with('+') => format!("{}x{}", &pmn[..i], &pmn[i + 1..]),
        _ => pmn.to_string(),
    }
}

impl Round {
    /// The seat's player as the view shows it.
    fn player_view(&self, side: Side) -> PlayerView {
        let r = &self.record;
        let rating: Option<SeatRating> = r.ratings[side.index()];
        let engine = match r.opponent {
            Opponent::Engine { level, side: s } if s == side => Some(level),
            _ => None,
        };
        let player = r.players[side.index()].as_ref();
        PlayerView {
            name: player.map(|p| p.name.clone()),
            guest: player.is_some_and(|p| p.guest),
            engine,
            rating: rating.map(|r| r.rating),
            provisional: rating.is_some_and(|r| r.provisional),
            diff: rating.and_then(|r| r.diff),
        }
    }

    /// What the player in seat `side` may do now.
    fn can(&self, side: Side) -> Can {
        let in_play = !self.is_over() && !self.is_record();
        let friend = self.record.opponent == Opponent::Friend;
        let over = self.is_over() && !self.is_record() && self.record.rematch_id.is_none();
        let rematch_offer = self.record.rematch_offer;
        Can {
            play: in_play && self.game.turn() == side && !self.engine_thinks(),
            // Before both sides have moved the page offers abort instead (the server takes a
            // resignation at any moment).
            resign: in_play && !self.can_abort(),
            abort: self.can_abort(),
            offer_draw: in_play && self.draw_offer.is_none(),
            answer_draw: in_play && self.draw_offer == Some(!side),
            take_back: self.can_take_back(side),
            rematch: over && rematch_offer.is_none() && (friend || self.engine_side().is_some()),
            answer_rematch: over && rematch_offer == Some(!side),
        }
    }

    /// The state as `viewer` (a seat, or `None`: a spectator) sees it.
    pub fn view(&self, viewer: Option<Side>) -> GameView {
        let game = self.game.as_ref();
        let kind = game.kind();
        let over = game.outcome();
        let legal = if self.is_over() || self.is_record() {
            Vec::new()
        } else {
            legal_moves(game)
        };
        let id = &self.record.id;
        let open_seat = !self.record.creator;
        let invite = match (&self.record.invite, viewer) {
            (Some(code), Some(side))
                if side == self.record.creator
                    && self.record.players[open_seat.index()].is_none()
                    && !self.is_over() =>
            {
                Some(format!("/g/{id}?invite={code}"))
            }
            _ => None,
        };
        let clock = self.record.clock.zip(self.clocks).map(|(tc, c)| {
            let mut remaining_ms = c.remaining_ms;
            let running = self.clock_runs().then(|| game.turn());
            if let Some(side) = running {
                remaining_ms[side.index()] -= self.elapsed_ms() as i64;
            }
            let first_move_ms = (!self.is_over() && self.played.len() < UNTIMED_PLIES)
                .then(|| (self.abort_after.as_millis() as i64 - self.elapsed_ms() as i64).max(0));
            ClockView {
                initial_ms: tc.initial_ms,
                increment_ms: tc.increment_ms,
                control: tc.to_string(),
                remaining_ms,
                running: running.map(Side::as_str),
                first_move_ms,
            }
        });
        let stored = self.record.result.as_ref();
        let result = if self.is_aborted() {
            let late = stored.and_then(|r| r.reason.as_deref()) == Some(NO_FIRST_MOVE);
            Some(ResultView {
                status: ABORTED,
                winner: "none",
                reason: late.then(|| NO_FIRST_MOVE.to_string()),
                text: words::aborted(kind, late.then(|| game.turn())),
            })
        } else {
            over.map(|o| {
                let abandoned = stored.and_then(|r| r.reason.as_deref()) == Some(ABANDONED);
                let view = ResultView::of(kind, &o);
                if !abandoned {
                    return view;
                }
                ResultView {
                    reason: Some(ABANDONED.to_string()),
                    text: o.winner.map_or(view.text, |w| words::abandoned(kind, !w)),
                    ..view
                }
            })
        };
        let notice = self
            .notice
            .filter(|n| n.ply == self.played.len() && !self.is_over())
            .map(|n| NoticeView {
                code: n.code,
                side: n.side.as_str(),
                text: format!("{} declined the draw", words::side(kind, n.side)),
            });
        GameView {
            id: id.clone(),
            game: kind.name(),
            opponent: self.record.opponent.as_str(),
            engine: match self.record.opponent {
                Opponent::Engine { level, side } => Some(EngineView {
                    level,
                    side: side.as_str(),
                }),
                _ => None,
            },
            players: [
                self.player_view(Side::First),
                self.player_view(Side::Second),
            ],
            rated: self.record.rated,
            you: viewer.map(Side::as_str),
            can: viewer.map(|side| self.can(side)).unwrap_or_default(),
            invite,
            watch: format!("/g/{id}"),
            start: game.start_feen(),
            feen: game.to_feen(),
            fen: game.to_text(chuhe::PositionFormat::Fen).ok(),
            turn: game.turn().as_str(),
            ply: self.played.len(),
            check: game.is_check(),
            moves: self
                .played
                .iter()
                .enumerate()
                .map(|(i, p)| MoveView::new(i + 1, p.texts.clone(), Some(p.time_ms)))
                .collect(),
            legal,
            result,
            clock,
            draw_offer: self.draw_offer.map(Side::as_str),
            rematch: RematchView {
                offer: self.record.rematch_offer.map(Side::as_str),
                game: self.record.rematch_id.clone(),
            },
            thinking: self.engine_thinks(),
            notice,
            created_ms: self.record.created_ms,
            version: self.version,
        }
    }
}

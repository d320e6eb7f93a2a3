//! [`GamePosition`] for the positions of games read from rule files: notations, ends of the
//! game in the manifest's order, the forbidden repetition (X6 generalised) and perft.

use chuhe_notation::{Side, Status};

use super::bits::{Bits, Wide};
use super::compile::Compiled;
use super::manifest::{Insufficient, PerftRule, Repetition, RoyalRule, Verdict};
use super::position::{Move, Moves, Position, RulesConfig, Square};
use super::RulesHandle;
use crate::board::BoardGeometry;
use crate::game::History;
use crate::variant::{
    GameKind, GameMove, GamePosition, MoveNotation, PositionFormat, RuleOptionError,
};
use crate::{MoveError, Outcome, SetupError, UnsupportedFormat};

/// A square-set width a compiled game can be played in.
pub trait Width: Bits {
    /// The handle of a game compiled for this width.
    fn handle(game: &'static Compiled<Self>) -> RulesHandle;
    /// The game of a handle, if compiled for this width.
    fn compiled(handle: RulesHandle) -> Option<&'static Compiled<Self>>;
}

impl Width for u64 {
    fn handle(game: &'static Compiled<u64>) -> RulesHandle {
        RulesHandle::Narrow(game)
    }
    fn compiled(handle: RulesHandle) -> Option<&'static Compiled<u64>> {
        match handle {
            RulesHandle::Narrow(c) => Some(c),
            _ => None,
        }
    }
}
impl Width for u128 {
    fn handle(game: &'static Compiled<u128>) -> RulesHandle {
        RulesHandle::Broad(game)
    }
    fn compiled(handle: RulesHandle) -> Option<&'static Compiled<u128>> {
        match handle {
            RulesHandle::Broad(c) => Some(c),
            _ => None,
        }
    }
}
impl Width for Wide {
    fn handle(game: &'static Compiled<Wide>) -> RulesHandle {
        RulesHandle::Wide(game)
    }
    fn compiled(handle: RulesHandle) -> Option<&'static Compiled<Wide>> {
        match handle {
            RulesHandle::Wide(c) => Some(c),
            _ => None,
        }
    }
}

/// A game of rules read from files: the shared arbiter.
pub type Game<B> = crate::Game<Position<B>>;

/// The identity of a move for the forbidden repetition: the moving kind, then the move.
fn move_key<B: Bits>(pos: &Position<B>, m: Move) -> u32 {
    let kind = pos.bit(m.from()).map_or(0, |b| u32::from(pos.board[b]));
    (kind << 16) | u32::from(m.bits())
}

/// One (move, resulting position) pair of perft's path, for the forbidden repetition.
#[derive(Clone, Copy, Debug)]
pub struct PathEntry {
    key: u32,
    hash: u64,
    capture: bool,
}

impl<B: Width> Position<B> {
    /// The outcome decided by the position alone, before moving: a captured royal piece, the
    /// bare royal, insufficient material, and the move limit where it comes after the end by
    /// no move.
    pub(crate) fn static_outcome(&self) -> Option<Outcome> {
        let info = &self.game.info;
        let session = &info.manifest.session;
        if info.manifest.royal.rule == RoyalRule::Capture {
            match (
                self.royal_square(Side::First),
                self.royal_square(Side::Second),
            ) {
                (Some(_), None) => return Some(Outcome::win(Status::Mareking, Side::First)),
                (None, Some(_)) => return Some(Outcome::win(Status::Mareking, Side::Second)),
                (None, None) => return Some(Outcome::draw(Status::Mareking)),
                _ => {}
            }
        }
        if let Some(bare) = session.bare_royal {
            // Fairy-Stockfish's extinction: the side that moved last first.
            let them = !self.turn;
            let count = |s: Side| self.by_side[s.index()].count();
            if count(them) <= 1 && count(self.turn) >= 2 {
                return Some(Outcome::win(Status::Bareking, self.turn));
            }
            if count(self.turn) <= 1 && count(them) >= 2 + u32::from(bare.reply) {
                return Some(Outcome::win(Status::Bareking, them));
            }
        }
        match &session.insufficient {
            Some(Insufficient::BareRoyals) if self.occupied().count() == self.royals.count() => {
                return Some(Outcome::draw(Status::Insufficient));
            }
            Some(Insufficient::NoneOf(_)) => {
                let mut occ = self.occupied();
                let mut any = false;
                while let Some(b) = occ.pop() {
                    if self.kind_at(b).is_some_and(|k| info.attacker[k]) {
                        any = true;
                        break;
                    }
                }
                if !any {
                    return Some(Outcome::draw(Status::Insufficient));
                }
            }
            _ => {}
        }
        if let Some(limit) = &session.move_limit {
            if !limit.before_no_move && self.halfmove >= limit.plies {
                if self.count() == 0 {
                    return Some(self.no_move_outcome());
                }
                return Some(Outcome::draw(Status::Movelimit));
            }
        }
        None
    }

    /// The end when the side to move has no legal move.
    fn no_move_outcome(&self) -> Outcome {
        let info = &self.game.info;
        let checkmate = info.manifest.royal.rule == RoyalRule::Checkmate;
        if checkmate && self.is_check() {
            // A drop can only block, so the check comes from the piece dropped.
            let dropped = usize::from(self.last_drop)
                .checked_sub(1)
                .and_then(|d| info.drops[(!self.turn).index()].get(d));
            if dropped.is_some_and(|rule| !rule.may_checkmate) {
                return Outcome::win(Status::Illegalmove, self.turn);
            }
            return Outcome::win(Status::Checkmate, !self.turn);
        }
        match self.game.info.manifest.session.stalemate {
            Verdict::Loss => Outcome::win(Status::Stalemate, !self.turn),
            Verdict::Draw => Outcome::draw(Status::Stalemate),
            Verdict::Win => Outcome::win(Status::Stalemate, self.turn),
        }
    }

    /// PMN: `e3-e4`, `e4+e5`, `e7-e8=E`, `e4~e5` when the royal pieces change, `P*e5` for a
    /// drop (the piece's PIN in its side's case).
    fn to_pmn(&self, m: Move) -> String {
        if let Some(k) = self.dropped_kind(m) {
            return format!("{}*{}", self.game.info.kinds[k].pin, m.to());
        }
        let capture = self.bit(m.to()).is_some_and(|b| self.board[b] != 0);
        let sep = if self.transforms(m) {
            '~'
        } else if capture {
            '+'
        } else {
            '-'
        };
        let mut out = format!("{}{sep}{}", m.from(), m.to());
        if let Some(pin) = self.promotion_written(m) {
            out.push('=');
            out.push_str(&pin);
        }
        out
    }

    /// The promoted piece's PIN when the move's text names it (a choice, not a change the
    /// rules imply).
    fn promotion_written(&self, m: Move) -> Option<String> {
        let info = &self.game.info;
        let c = usize::from(m.choice_index());
        if c == 0 {
            return None;
        }
        let from = self.bit(m.from())?;
        let k = self.kind_at(from)?;
        let p = info.promos[k].as_ref()?;
        let into = *p.into.get(c - 1)?;
        let implied = !p.optional && p.into.len() == 1 && self.implied(k);
        (!implied).then(|| info.kinds[usize::from(into)].pin.to_string())
    }

    /// Is the kind's promotion a change the rules imply, written in no notation?
    fn implied(&self, kind: usize) -> bool {
        let info = &self.game.info;
        let role = info.kinds[kind].role;
        let pin = info.manifest.pieces[role].pin;
        info.manifest
            .promotions
            .iter()
            .any(|p| p.piece == pin && p.implied)
    }

    /// Coordinates: `e3e4`, a promotion's letter (its FEN letter, or PIN letter) lowercase,
    /// or `+` for a piece whose FEN token is `+` and a letter (shogi's promotions); a drop as
    /// Fairy-Stockfish writes it, `P@e5` (the letter uppercase for both sides).
    fn to_uci(&self, m: Move) -> String {
        if let Some(k) = self.dropped_kind(m) {
            let kind = &self.game.info.kinds[k];
            let letter = kind.fen.unwrap_or(kind.pin.letter()).to_ascii_uppercase();
            return format!("{letter}@{}", m.to());
        }
        let mut out = format!("{}{}", m.from(), m.to());
        if self.promotion_written(m).is_some() {
            let info = &self.game.info;
            let letter = self
                .bit(m.from())
                .and_then(|b| self.kind_at(b))
                .and_then(|k| info.promos[k].as_ref())
                .and_then(|p| p.into.get(usize::from(m.choice_index()) - 1))
                .map(|&into| {
                    let k = &info.kinds[usize::from(into)];
                    if k.fen_plus {
                        '+'
                    } else {
                        k.fen.unwrap_or(k.pin.letter()).to_ascii_lowercase()
                    }
                });
            if let Some(c) = letter {
                out.push(c);
            }
        }
        out
    }

    /// The texts a player may write for `m`.
    fn spellings(&self, m: Move) -> Vec<String> {
        let pmn = self.to_pmn(m);
        let uci = self.to_uci(m);
        let mut out = vec![pmn.clone(), uci];
        if pmn.contains('~') {
            out.push(pmn.replace('~', "-"));
            out.push(pmn.replace('~', "+"));
        }
        // A promotion the rules imply may be written too.
        if m.choice_index() > 0 && self.promotion_written(m).is_none() {
            let info = &self.game.info;
            if let Some(p) = self
                .bit(m.from())
                .and_then(|b| self.kind_at(b))
                .and_then(|k| info.promos[k].as_ref())
            {
                if let Some(&into) = p.into.first() {
                    let k = &info.kinds[usize::from(into)];
                    for base in out.clone() {
                        if base.contains('-') || base.contains('+') || base.contains('~') {
                            out.push(format!("{base}={}", k.pin));
                        } else {
                            out.push(format!(
                                "{base}{}",
                                k.fen.unwrap_or(k.pin.letter()).to_ascii_lowercase()
                            ));
                        }
                    }
                }
            }
        }
        out
    }

    fn read_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        let mut list = Moves::new();
        self.generate(&mut list);
        for &m in list.iter() {
            if self.spellings(m).iter().any(|s| s == text) {
                return Ok(m);
            }
        }
        if text.contains(['*', '@']) {
            return Err(self.why_no_drop(text, &list));
        }
        // Why not: the origin's piece, then the movement.
        let Some((a, b, _)) = crate::variant::split_coordinates(
            text.replace(['-', '+', '~'], "")
                .split('=')
                .next()
                .unwrap_or(""),
        )
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c)) else {
            return Err(MoveError::syntax(
                text,
                "expected a move such as e3-e4 or e3e4",
            ));
        };
        let from: Square = crate::variant::parse_square(&a, text)?;
        let to: Square = crate::variant::parse_square(&b, text)?;
        let info = &self.game.info;
        let (Some(fb), Some(_)) = (self.bit(from), self.bit(to)) else {
            return Err(MoveError::UnknownSquare {
                square: if self.bit(from).is_none() { a } else { b },
                board: "the game's board",
            });
        };
        let Some(k) = self.kind_at(fb) else {
            return Err(MoveError::NoPiece {
                square: from.to_string(),
            });
        };
        let kind = &info.kinds[k];
        if kind.side != self.turn {
            return Err(MoveError::NotYourPiece {
                square: from.to_string(),
                piece: kind.pin.to_string(),
                owner: kind.side.as_str(),
                turn: self.turn.as_str(),
            });
        }
        let name = &info.manifest.pieces[kind.role].name;
        if list.iter().any(|m| m.from() == from && m.to() == to) {
            return Err(MoveError::illegal(format!(
                "the {name} '{}' on {from} to {to}: write the promotion as one of {}",
                kind.pin,
                list.iter()
                    .filter(|m| m.from() == from && m.to() == to)
                    .map(|&m| self.to_pmn(m))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let mut pseudo = false;
        if let Some(tb) = self.bit(to) {
            self.pseudo(self.turn, |f, t| pseudo |= f == fb && t == tb);
        }
        Err(MoveError::illegal(if pseudo {
            format!(
                "the {name} '{}' on {from} cannot go to {to}: it would leave its royal piece attacked",
                kind.pin
            )
        } else {
            format!(
                "the {name} '{}' on {from} cannot go to {to}: not by its movement rules",
                kind.pin
            )
        }))
    }

    /// Why a drop (`P*e5`, `P@e5`) that is not legal here is refused.
    fn why_no_drop(&self, text: &str, list: &Moves) -> MoveError {
        let info = &self.game.info;
        let Some((piece, square)) = text.split_once(['*', '@']) else {
            return MoveError::syntax(text, "expected a drop such as P*e5 or P@e5");
        };
        let to: Square = match crate::variant::parse_square(square, text) {
            Ok(sq) => sq,
            Err(e) => return e,
        };
        if info.manifest.drops.is_empty() {
            return MoveError::illegal(format!("{} drops no pieces", info.manifest.title));
        }
        let rules = &info.drops[self.turn.index()];
        let rule = rules.iter().position(|r| {
            let k = &info.kinds[usize::from(r.kind)];
            k.pin.to_string().eq_ignore_ascii_case(piece)
                || k.fen
                    .is_some_and(|c| c.to_string().eq_ignore_ascii_case(piece))
        });
        let Some(rule) = rule else {
            return MoveError::syntax(
                text,
                &format!(
                    "'{}' is not a piece that may be dropped in {}",
                    chuhe_notation::error::shorten(piece),
                    info.manifest.title
                ),
            );
        };
        let kind = usize::from(rules[rule].kind);
        let name = &info.manifest.pieces[info.kinds[kind].role].name;
        let why = if self.hands[self.turn.index()][kind] == 0 {
            format!("{} holds no {name}", self.turn.as_str())
        } else if self.bit(to).is_none() {
            return MoveError::UnknownSquare {
                square: to.to_string(),
                board: "the game's board",
            };
        } else if self.bit(to).is_some_and(|b| self.board[b] != 0) {
            format!("{to} is not empty")
        } else if list.iter().all(|m| !m.is_drop()) && self.is_check() {
            "no drop answers the check".to_string()
        } else {
            format!(
                "the {name} may not be dropped on {to} by the rules of {}",
                info.manifest.title
            )
        };
        MoveError::illegal(format!("{text}: {why}"))
    }

    /// Fairy-Stockfish's FEN, when every piece has a FEN letter.
    fn fen_text(&self) -> Result<String, UnsupportedFormat> {
        self.to_fen().ok_or(UnsupportedFormat {
            game: self.game.info.name,
            format: "fen",
        })
    }
}

impl<B: Width> GamePosition for Position<B> {
    type Square = Square;
    type Move = Move;
    type Moves = Moves;
    type Config = RulesConfig<B>;
    type PerftPath = Vec<PathEntry>;

    fn kind(&self) -> GameKind {
        GameKind::Rules(B::handle(self.game))
    }

    fn config(&self) -> RulesConfig<B> {
        RulesConfig(self.game)
    }

    fn config_for(kind: GameKind) -> Option<RulesConfig<B>> {
        match kind {
            GameKind::Rules(h) => B::compiled(h).map(RulesConfig),
            _ => None,
        }
    }

    fn start(config: RulesConfig<B>) -> Self {
        Position::start(config.0)
    }

    fn from_text(text: &str, config: RulesConfig<B>) -> Result<Self, SetupError> {
        let text = text.trim();
        if text == "start" {
            return Ok(Position::start(config.0));
        }
        let fen_letters = config.0.info.kinds.iter().all(|k| k.fen.is_some());
        if crate::text::is_keyword_like(text) {
            return Err(SetupError::UnknownKeyword {
                word: chuhe_notation::error::shorten(text).into_owned(),
                formats: if fen_letters { "FEN or FEEN" } else { "FEEN" },
            });
        }
        // A FEEN's second field is its hands, with a `/` between them; a FEN's the side to move.
        let second = text.split_whitespace().nth(1);
        if fen_letters && second.is_some_and(|f| !f.contains('/')) {
            Position::from_fen(config.0, text)
        } else {
            Position::from_feen(config.0, text)
        }
    }

    fn to_feen(&self) -> String {
        Position::to_feen(self)
    }

    fn position_formats() -> &'static [PositionFormat] {
        &[PositionFormat::Feen, PositionFormat::Fen]
    }

    fn to_text(&self, format: PositionFormat) -> Result<String, UnsupportedFormat> {
        match format {
            PositionFormat::Feen => Ok(self.to_feen()),
            PositionFormat::Fen => self.fen_text(),
        }
    }

    fn halfmove(&self) -> u32 {
        self.halfmove
    }

    fn set_halfmove(&mut self, halfmove: u32) {
        self.halfmove = halfmove;
    }

    fn set_repetition_fold(&mut self, fold: u8) -> Result<(), RuleOptionError> {
        match self.game.info.manifest.session.repetition {
            Repetition::Fold { .. } if fold >= 2 => {
                self.fold = fold;
                Ok(())
            }
            Repetition::Fold { .. } => Err(RuleOptionError {
                game: self.game.info.name,
                message: format!("the repetition count must be at least 2, not {fold}"),
            }),
            _ => Err(RuleOptionError {
                game: self.game.info.name,
                message: "this game has no repetition count to set".into(),
            }),
        }
    }

    fn turn(&self) -> Side {
        self.turn
    }

    fn is_check(&self) -> bool {
        Position::is_check(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.static_outcome() {
            return Some(o);
        }
        let no_moves = self.count() == 0;
        if let Some(limit) = &self.game.info.manifest.session.move_limit {
            if limit.before_no_move
                && self.halfmove >= limit.plies
                && !(no_moves && self.is_check())
            {
                return Some(Outcome::draw(Status::Movelimit));
            }
        }
        no_moves.then(|| self.no_move_outcome())
    }

    fn zobrist_hash(&self) -> u64 {
        self.hash
    }

    fn same_identity(&self, other: &Self) -> bool {
        self.turn == other.turn
            && self.board == other.board
            && (!self.has_drops() || self.hands == other.hands)
    }

    fn piece_glyphs(&self, square: Square) -> Option<(String, char)> {
        let k = self.kind_at(self.bit(square)?)?;
        let kind = &self.game.info.kinds[k];
        Some((kind.pin.to_string(), kind.chinese))
    }

    fn geometry() -> BoardGeometry {
        BoardGeometry {
            river_below_rank: u8::MAX,
            palaces: false,
            points: false,
        }
    }

    fn board_geometry(&self) -> BoardGeometry {
        let b = self.game.info.manifest.board;
        BoardGeometry {
            river_below_rank: b.river.map_or(u8::MAX, |r| r - 1),
            palaces: b.palaces,
            points: b.points,
        }
    }

    fn board_size(&self) -> (u8, u8) {
        (self.game.info.files, self.game.info.ranks)
    }

    fn terminal_square(&self, side: Side) -> Option<Square> {
        self.royal_square(side).map(|b| self.face(b))
    }

    /// Roles by index: a game's pieces in the manifest's order (at most 16).
    const ROLES: &'static [&'static str] = &[
        "role0", "role1", "role2", "role3", "role4", "role5", "role6", "role7", "role8", "role9",
        "role10", "role11", "role12", "role13", "role14", "role15",
    ];

    fn role_count(&self) -> usize {
        self.game.info.manifest.pieces.len()
    }

    fn move_choices(&self) -> usize {
        self.game.info.choices
    }

    fn drops_from_hands(&self) -> bool {
        self.has_drops()
    }

    fn held(&self, side: Side, role: usize) -> u32 {
        let kinds = &self.game.info.kinds;
        self.droppable(side)
            .filter(|&(k, _)| kinds[k].role == role)
            .map(|(_, n)| u32::from(n))
            .sum()
    }

    fn piece_role(&self, square: Square) -> Option<(Side, usize)> {
        let k = self.kind_at(self.bit(square)?)?;
        let kind = &self.game.info.kinds[k];
        Some((kind.side, kind.role))
    }

    fn legal_moves_into(&self, out: &mut Moves) {
        if self.static_outcome().is_none() {
            self.generate(out);
        }
    }

    fn moves_past_end_into(&self, out: &mut Moves) {
        if self.both_royals() {
            self.generate(out);
        }
    }

    fn is_capture(&self, m: Move) -> bool {
        self.bit(m.to()).is_some_and(|b| self.board[b] != 0)
    }

    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        if let Some(outcome) = self.static_outcome() {
            return Err(MoveError::GameOver { outcome });
        }
        if self.is_legal(m) {
            Ok(())
        } else {
            Err(MoveError::illegal(format!("{m} is not a legal move here")))
        }
    }

    fn play_unchecked(&mut self, m: Move) {
        self.play_move(m)
    }

    fn notations() -> &'static [MoveNotation] {
        &[MoveNotation::Pmn, MoveNotation::Uci]
    }

    fn move_to_text(&self, m: Move, notation: MoveNotation) -> Result<String, MoveError> {
        match notation {
            MoveNotation::Pmn => Ok(self.to_pmn(m)),
            MoveNotation::Uci => Ok(self.to_uci(m)),
            other => Err(MoveError::UnsupportedNotation {
                game: self.game.info.name,
                notation: other,
            }),
        }
    }

    fn parse_move_as(&self, text: &str, notation: MoveNotation) -> Result<Move, MoveError> {
        match notation {
            MoveNotation::Pmn | MoveNotation::Uci => self.read_move(text),
            other => Err(MoveError::UnsupportedNotation {
                game: self.game.info.name,
                notation: other,
            }),
        }
    }

    fn game_outcome(history: &History<Self>, has_legal_move: bool) -> Option<Outcome> {
        let pos = history.current();
        if let Some(o) = pos.static_outcome() {
            return Some(o);
        }
        let session = &pos.game.info.manifest.session;
        if let Some(limit) = &session.move_limit {
            if limit.before_no_move {
                let checkmated = !has_legal_move && pos.is_check();
                if crate::ends::move_limit_reached(
                    history,
                    limit.plies,
                    limit.check_allowance,
                    checkmated,
                ) {
                    return Some(Outcome::draw(Status::Movelimit));
                }
            }
        }
        if let Repetition::Fold {
            perpetual_check,
            chase,
            ..
        } = session.repetition
        {
            let fold = usize::from(pos.fold);
            let outcome = if chase {
                let judge = |first: usize, last: usize| axf_chase(history, first, last);
                crate::ends::fold_repetition(history, fold, perpetual_check, Some(&judge))
            } else {
                crate::ends::fold_repetition(history, fold, perpetual_check, None)
            };
            if outcome.is_some() {
                return outcome;
            }
        }
        (!has_legal_move).then(|| pos.no_move_outcome())
    }

    fn is_forbidden_by_history(history: &History<Self>, m: Move) -> bool {
        let pos = history.current();
        if pos.game.info.manifest.session.repetition != Repetition::ForbiddenMove
            || history.moves().is_empty()
            || pos.is_capture(m)
        {
            return false;
        }
        let mut after = pos.clone();
        after.play_move(m);
        let key = move_key(pos, m);
        let positions = history.positions();
        let moves = history.moves();
        let repeated = history
            .occurrences(&after)
            .any(|i| i > 0 && move_key(&positions[i - 1], moves[i - 1]) == key);
        repeated
    }

    const PERFT_STOPS_AT_GAME_END: bool = false;

    fn perft_stops_at_game_end(&self) -> bool {
        self.game.info.manifest.session.perft == PerftRule::StopsAtEnd
    }

    fn perft_path_from(history: &History<Self>) -> Vec<PathEntry> {
        let positions = history.positions();
        history
            .moves()
            .iter()
            .enumerate()
            .map(|(i, &m)| PathEntry {
                key: move_key(&positions[i], m),
                hash: positions[i + 1].hash,
                capture: positions[i].is_capture(m),
            })
            .collect()
    }

    fn perft_over(&self) -> bool {
        (self.perft_stops_at_game_end() && self.static_outcome().is_some())
            || (self.game.info.manifest.royal.rule == RoyalRule::Capture && !self.both_royals())
    }

    fn perft_moves(&self) -> Moves {
        let mut list = Moves::new();
        self.generate(&mut list);
        list
    }

    fn perft_count(&self) -> u64 {
        self.count()
    }

    fn perft_excluded(&self, path: &Vec<PathEntry>, out: &mut Vec<Move>) {
        if self.game.info.manifest.session.repetition != Repetition::ForbiddenMove
            || self.game.info.manifest.session.perft != PerftRule::StopsAtEnd
        {
            return;
        }
        let n = path.len();
        for (back, e) in path.iter().rev().enumerate() {
            if back % 2 == 1 {
                if let Some(m) = Move::from_bits(e.key as u16) {
                    if move_key(self, m) == e.key && !out.contains(&m) && self.is_legal(m) {
                        let mut after = self.clone();
                        after.play_move(m);
                        if after.hash == e.hash {
                            out.push(m);
                        }
                    }
                }
            }
            if e.capture || back + 1 == n {
                break;
            }
        }
    }

    fn perft_path_push(&self, path: &mut Vec<PathEntry>, m: Move, child: &Self) {
        path.push(PathEntry {
            key: move_key(self, m),
            hash: child.hash,
            capture: self.is_capture(m),
        });
    }

    fn perft_path_pop(path: &mut Vec<PathEntry>) {
        path.pop();
    }
}

/// Xiangqi's chase rule (S6) on a game read from rule files whose pieces are Xiangqi's:
/// judged by the native Xiangqi code on the same moves, from the position before the cycle.
fn axf_chase<B: Width>(history: &History<Position<B>>, first: usize, last: usize) -> (bool, bool) {
    use crate::xiangqi;
    let positions = history.positions();
    let moves = history.moves();
    let from = first.saturating_sub(1);
    let Ok(mut start) =
        xiangqi::Position::from_feen(&positions[from].to_feen(), xiangqi::RuleSet::Standard)
    else {
        return (false, false);
    };
    start.set_halfmove(positions[from].halfmove);
    let mut game = xiangqi::Game::from_position(start);
    for (i, &m) in moves.iter().enumerate().take(last).skip(from) {
        let text = positions[i].to_uci(m);
        let Ok(native) = game.parse_move_past_end(&text, crate::MoveNotation::Uci) else {
            return (false, false);
        };
        if game.play_past_end(native).is_err() {
            return (false, false);
        }
    }
    xiangqi::chase_verdict(game.history(), first - from, last - from)
}

/// What the engine asks of a generic position beyond [`GamePosition`].
impl<B: Width> Position<B> {
    /// The kind of the piece on `square` (an index into [`super::Info::kinds`]).
    pub fn kind_on(&self, square: Square) -> Option<usize> {
        self.kind_at(self.bit(square)?)
    }

    /// Is the piece on `square` attacked by a piece of `by`?
    pub fn is_attacked(&self, square: Square, by: Side) -> bool {
        self.bit(square).is_some_and(|b| self.attacked(b, by))
    }

    /// The end decided before moving, without looking at the moves (see `outcome` for the
    /// rest).
    pub fn ends_before_moving(&self) -> Option<Outcome> {
        self.static_outcome()
    }

    /// The number of pseudo-legal moves of `side` (the evaluation's mobility).
    pub fn mobility(&self, side: Side) -> u32 {
        let mut n = 0;
        self.pseudo(side, |_, _| n += 1);
        n
    }

    /// The position with the other side to move (the null move).
    pub fn with_turn(&self, side: Side) -> Position<B> {
        let mut p = self.clone();
        p.set_turn(side);
        p
    }

    /// The pieces `side` holds that it may drop: `(kind, count)` for each kind held, in games
    /// with drops (in the others a hand holds captured pieces that never come back: none).
    pub fn droppable(&self, side: Side) -> impl Iterator<Item = (usize, u8)> + '_ {
        let drops = self.has_drops();
        self.hands[side.index()]
            .iter()
            .enumerate()
            .filter(move |&(_, &n)| drops && n > 0)
            .map(|(k, &n)| (k, n))
    }

    /// The end if the side to move has no legal move: checkmate (lost, or won where the
    /// checkmating drop was one the rules forbid) or the manifest's stalemate verdict.
    pub fn outcome_without_moves(&self) -> Outcome {
        self.no_move_outcome()
    }

    /// Does the game drop pieces from the hands?
    pub fn drops_pieces(&self) -> bool {
        self.has_drops()
    }

    /// Every occupied square (face squares), with its kind.
    pub fn pieces(&self) -> Vec<(Square, usize)> {
        let mut occ = self.occupied();
        let mut out = Vec::new();
        while let Some(b) = occ.pop() {
            if let Some(k) = self.kind_at(b) {
                out.push((self.face(b), k));
            }
        }
        out
    }
}

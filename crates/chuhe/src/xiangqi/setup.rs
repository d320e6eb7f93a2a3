//! Xiangqi positions from and to text: standard FEN and Sashité FEEN, both validated.

use std::fmt;

use chuhe_notation::error::shorten;
use chuhe_notation::{Feen, Side};

use super::attacks::palace;
use super::bitboard::{squares, Square};
use super::notation::role_name;
use super::position::Position;
use super::types::{Piece, Role, RuleSet};
use crate::setup_error::{FenSyntaxError, Location, PositionError, Problem, SetupError};

/// The largest FEN move number: the position counts plies in a `u32`.
const MAX_MOVE_NUMBER: u32 = 1 << 31;

fn fen_err(offset: usize, message: impl Into<String>) -> SetupError {
    SetupError::Fen(FenSyntaxError {
        offset,
        message: message.into(),
    })
}

/// Is this text a FEEN (three fields, the last one a style-turn like `X/x`) rather than a FEN?
pub fn looks_like_feen(text: &str) -> bool {
    let fields: Vec<&str> = text.split(' ').collect();
    fields.len() == 3 && fields[2].contains('/')
}

impl Position {
    /// Reads the keyword `start`, a standard FEN or a FEEN (told apart by their fields)
    /// under `rules`.
    ///
    /// ```
    /// use chuhe::xiangqi::{Position, RuleSet};
    /// let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    /// let a = Position::from_text(fen, RuleSet::Standard).unwrap();
    /// let b = Position::from_text(&a.to_feen(), RuleSet::Standard).unwrap();
    /// assert_eq!(a, b);
    /// assert_eq!(b.to_fen(), fen);
    /// ```
    pub fn from_text(text: &str, rules: RuleSet) -> Result<Position, SetupError> {
        let text = text.trim();
        if text == "start" {
            return Ok(Position::start_with(rules));
        }
        if crate::text::is_keyword_like(text) {
            return Err(SetupError::UnknownKeyword {
                word: chuhe_notation::error::shorten(text).into_owned(),
                formats: "FEN or FEEN",
            });
        }
        if looks_like_feen(text) {
            Position::from_feen(text, rules)
        } else {
            Position::from_fen(text, rules)
        }
    }

    /// Reads a standard Xiangqi FEN: `rnbakabnr/9/… w - - 0 1`. Also accepted: `h` for the
    /// horse, `e` for the elephant, `r` for Red to move, and only the first two fields.
    pub fn from_fen(text: &str, rules: RuleSet) -> Result<Position, SetupError> {
        let mut pos = Position::empty(rules);
        let placement_end = text.find(' ').unwrap_or(text.len());
        let mut rank: i32 = 9;
        let mut file: u32 = 0;
        let mut run_start: Option<usize> = None;
        for (i, c) in text[..placement_end].char_indices() {
            match c {
                '/' => {
                    if file != 9 {
                        return Err(fen_err(
                            i,
                            format!(
                                "rank {} has {}; every rank has 9",
                                rank + 1,
                                counted(file, "point", "points")
                            ),
                        ));
                    }
                    rank -= 1;
                    file = 0;
                    if rank < 0 {
                        return Err(fen_err(i, "more than 10 ranks"));
                    }
                    run_start = None;
                }
                '0' => return Err(fen_err(
                    i,
                    "'0' is not a valid count of empty points: a count is one digit from 1 to 9",
                )),
                '1'..='9' => {
                    if run_start == Some(i.wrapping_sub(1)) {
                        return Err(fen_err(
                            i,
                            "two digits in a row: write a single count of empty points",
                        ));
                    }
                    run_start = Some(i);
                    file += c.to_digit(10).unwrap_or(0);
                    if file > 9 {
                        return Err(fen_err(
                            i,
                            format!("rank {} has more than 9 points", rank + 1),
                        ));
                    }
                }
                _ => {
                    let Some(role) = Role::from_fen_letter(c).filter(|_| c.is_ascii_alphabetic())
                    else {
                        return Err(fen_err(
                            i,
                            format!(
                                "'{}' is not a Xiangqi piece (letters k a b n r c p, or e h)",
                                c.escape_debug()
                            ),
                        ));
                    };
                    if file >= 9 {
                        return Err(fen_err(
                            i,
                            format!("rank {} has more than 9 points", rank + 1),
                        ));
                    }
                    let side = if c.is_ascii_uppercase() {
                        Side::First
                    } else {
                        Side::Second
                    };
                    let sq = Square::from_coords(file as u8, rank as u8).expect("checked bounds");
                    pos.put(sq, Piece::new(side, role));
                    file += 1;
                    run_start = None;
                }
            }
        }
        if rank != 0 || file != 9 {
            return Err(fen_err(
                placement_end,
                format!(
                    "the placement has {}, the last with {}; expected 10 ranks of 9 points",
                    counted((10 - rank) as u32, "rank", "ranks"),
                    counted(file, "point", "points")
                ),
            ));
        }
        let rest: Vec<(usize, &str)> = fields_with_offsets(text).into_iter().skip(1).collect();
        let turn = match rest.first() {
            None => return Err(fen_err(text.len(), "missing the side to move ('w' or 'b')")),
            Some((_, "w" | "r")) => Side::First,
            Some((_, "b")) => Side::Second,
            Some((off, other)) => {
                return Err(fen_err(
                    *off,
                    format!(
                        "expected 'w' or 'b' for the side to move, found '{}'",
                        shorten(other)
                    ),
                ))
            }
        };
        if rest.len() > 5 {
            return Err(fen_err(rest[5].0, "too many fields: a FEN has at most 6"));
        }
        // The clocks: plain decimal numbers, each written back by `to_fen` as it was read, so
        // none is clamped: out of range is an error.
        let number = |k: usize, what: &str, (min, max): (u32, u32)| -> Result<u32, SetupError> {
            let Some(&(off, t)) = rest.get(k) else {
                return Ok(min); // not given: 0 plies since a capture, move 1
            };
            if !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(fen_err(
                    off,
                    format!("expected {what} (digits), found '{}'", shorten(t)),
                ));
            }
            if t.len() > 1 && t.starts_with('0') {
                return Err(fen_err(
                    off,
                    format!(
                        "{what} is written without leading zeros, found '{}'",
                        shorten(t)
                    ),
                ));
            }
            match t.parse::<u32>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(fen_err(
                    off,
                    format!("{what} must be from {min} to {max}, found {}", shorten(t)),
                )),
            }
        };
        pos.halfmove = number(3, "the half-move clock", (0, u32::MAX))?;
        // The position counts plies in a u32: move numbers up to 2^31 fit, for either side.
        let fullmove = number(4, "the move number", (1, MAX_MOVE_NUMBER))?;
        pos.ply = (fullmove - 1) * 2 + u32::from(turn == Side::Second);
        pos.set_turn(turn);
        pos.validate()?;
        Ok(pos)
    }

    /// Reads a FEEN with chuhe's Xiangqi letters (`R H E A G^ C S`, `+S` across the river).
    pub fn from_feen(text: &str, rules: RuleSet) -> Result<Position, SetupError> {
        let feen = Feen::parse(text)?;
        let mut pos = Position::empty(rules);
        let mut problems = Vec::new();
        let placement = &feen.placement;
        if placement.width() != 9 || placement.height() != 10 {
            let size = format!("{}×{}", placement.width(), placement.height());
            problems.push(Problem::coded(
                Location::Board,
                "board_size",
                &[("size", &size), ("want", "9×10")],
                format!(
                    "Xiangqi is played on 9×10 points, this board is {}×{}",
                    placement.width(),
                    placement.height()
                ),
            ));
        } else {
            for (cell, epin) in placement.iter() {
                let Some(sq) = Square::from_cell(cell) else {
                    continue;
                };
                match Piece::from_epin(epin) {
                    Some((piece, crossed)) => {
                        if piece.role == Role::Soldier
                            && crossed != Position::is_across_river(piece.side, sq)
                        {
                            let (want, why) = if crossed {
                                (epin.to_string().replace('+', ""), "before the river")
                            } else {
                                (format!("+{epin}"), "across the river")
                            };
                            problems.push(Problem::coded(
                                Location::Square(cell),
                                "soldier_mark",
                                &[("piece", &epin.to_string()), ("want", &want)],
                                format!("'{epin}' is a soldier {why}; write '{want}'"),
                            ));
                        }
                        pos.put(sq, piece);
                    }
                    None => problems.push(Problem::coded(
                        Location::Square(cell),
                        "unknown_piece",
                        &[("piece", &epin.to_string())],
                        format!("'{epin}' is not a Xiangqi piece (R H E A G^ C S, +S)"),
                    )),
                }
            }
        }
        for owner in [Side::First, Side::Second] {
            for (epin, n) in feen.hands[owner.index()].iter() {
                match Piece::from_epin(epin) {
                    Some((piece, _)) => {
                        let slot = &mut pos.hands[owner.index()][piece.index()];
                        *slot = slot.saturating_add(n.min(255) as u8);
                    }
                    None => problems.push(Problem::coded(
                        Location::Hand(owner),
                        "unknown_piece",
                        &[("piece", &epin.to_string())],
                        format!("'{epin}' is not a Xiangqi piece"),
                    )),
                }
            }
        }
        if !feen
            .style_turn
            .first_style()
            .letter()
            .eq_ignore_ascii_case(&'X')
        {
            problems.push(Problem::coded(
                Location::Turn,
                "style",
                &[("style", &feen.style_turn.to_string()), ("want", "X/x")],
                format!("chuhe's Xiangqi style is X/x, not {}", feen.style_turn),
            ));
        }
        if !problems.is_empty() {
            return Err(PositionError {
                game: "Xiangqi",
                problems,
            }
            .into());
        }
        pos.set_turn(feen.side_to_move());
        pos.validate()?;
        Ok(pos)
    }

    /// Checks what FEN and FEEN cannot express wrongly: one general per side inside its palace
    /// (a missing general only for a finished `xiangqi-capture` game), advisors and elephants
    /// on their points, no soldier behind its start rank.
    fn validate(&self) -> Result<(), PositionError> {
        let mut problems = Vec::new();
        for side in [Side::First, Side::Second] {
            let s = side.index();
            let name = if side == Side::First { "Red" } else { "Black" };
            let generals = self.by_role[Role::General.index()] & self.by_side[s];
            match generals.count_ones() {
                0 if self.rules == RuleSet::Standard => problems.push(Problem::coded(
                    Location::Board,
                    "no_general",
                    &[("side", side.as_str())],
                    format!("{name} has no general"),
                )),
                0 | 1 => {}
                n => problems.push(Problem::coded(
                    Location::Board,
                    "generals_count",
                    &[("side", side.as_str()), ("n", &n.to_string())],
                    format!("{name} has {n} generals; a side has exactly one"),
                )),
            }
            // Under the teaching rules a general that flew to capture the other one (C2)
            // stands in the other palace: a finished game that must read back.
            let other_general =
                self.by_role[Role::General.index()] & self.by_side[(!side).index()] != 0;
            let flown = self.rules == RuleSet::Capture && !other_general;
            let allowed = if flown {
                palace(s) | palace(1 - s)
            } else {
                palace(s)
            };
            for sq in squares(generals & !allowed) {
                problems.push(Problem::coded(
                    Location::Square(sq.cell()),
                    "general_outside_palace",
                    &[("side", side.as_str())],
                    format!("{name}'s general stands outside its palace"),
                ));
            }
            let advisor_points = ADVISOR_POINTS[s];
            for sq in
                squares(self.by_role[Role::Advisor.index()] & self.by_side[s] & !advisor_points)
            {
                problems.push(Problem::coded(
                    Location::Square(sq.cell()),
                    "advisor_point",
                    &[("side", side.as_str())],
                    format!("{name}'s advisor can never stand here (only on the palace's corners and centre)"),
                ));
            }
            for sq in squares(
                self.by_role[Role::Elephant.index()] & self.by_side[s] & !ELEPHANT_POINTS[s],
            ) {
                problems.push(Problem::coded(
                    Location::Square(sq.cell()),
                    "elephant_point",
                    &[("side", side.as_str())],
                    format!(
                        "{name}'s elephant can never stand here (seven points on its own side)"
                    ),
                ));
            }
            for sq in squares(self.by_role[Role::Soldier.index()] & self.by_side[s]) {
                let behind = match side {
                    Side::First => sq.rank() < 3,
                    Side::Second => sq.rank() > 6,
                };
                if behind {
                    problems.push(Problem::coded(
                        Location::Square(sq.cell()),
                        "soldier_behind",
                        &[("side", side.as_str())],
                        format!(
                            "{name}'s soldier stands behind its start rank, where it can never go"
                        ),
                    ));
                }
            }
        }
        if let Some(problem) = self.idle_side_in_check() {
            problems.push(problem);
        }
        self.hand_problems(&mut problems);
        if problems.is_empty() {
            Ok(())
        } else {
            problems.sort_by_key(|p| match p.location {
                Location::Square(c) => (1, c.rank(), c.file()),
                _ => (0, 0, 0),
            });
            Err(PositionError {
                game: "Xiangqi",
                problems,
            })
        }
    }

    /// Under the standard rules no move may leave one's general attacked or facing the other
    /// (S1), so the side that has just moved is never in check: a position where it is can
    /// never be reached. The problem, naming the general and what attacks it.
    fn idle_side_in_check(&self) -> Option<Problem> {
        let (mover, idle) = (self.turn, !self.turn);
        let generals =
            |side: Side| self.by_role[Role::General.index()] & self.by_side[side.index()];
        if self.rules != RuleSet::Standard
            || generals(idle).count_ones() != 1
            || generals(mover).count_ones() != 1
        {
            return None; // the teaching rules allow it; a missing general is reported already
        }
        let general = self.general(idle)?;
        let occ = self.occupied();
        let mut attackers = Vec::new();
        let mut facing = None;
        for sq in squares(self.by_side[mover.index()]) {
            if !self.attacked_with(general, mover, occ, sq.bb()) {
                continue;
            }
            match self.piece_at(sq).map(|p| p.role) {
                Some(Role::General) => facing = Some(sq),
                Some(role) => attackers.push(format!("the {} on {sq}", role_name(role))),
                None => {}
            }
        }
        let mut how = Vec::new();
        if !attackers.is_empty() {
            how.push(format!("is attacked by {}", attackers.join(" and ")));
        }
        if let Some(sq) = facing {
            how.push(format!("faces the general on {sq} on an open file"));
        }
        if how.is_empty() {
            return None;
        }
        let name = if idle == Side::First { "Red" } else { "Black" };
        Some(Problem::coded(
            Location::Square(general.cell()),
            "not_to_move_in_check",
            &[("side", idle.as_str()), ("square", &general.to_string())],
            format!(
                "the side not to move ({name}) is in check: its general on {general} {}; \
                 no legal move leads here (S1)",
                how.join(" and ")
            ),
        ))
    }

    /// Hands that no game reaches. A capture puts the piece unchanged into the capturer's
    /// hand, so a hand holds only the other side's pieces. Counts are not limited to the
    /// starting set: boards with more pieces of a kind than the start are accepted, and a game
    /// from such a board captures them into hands (a position chuhe writes always reads back).
    /// A general is captured
    /// only under the teaching rules, and that ends the game (C3): the captured side has no
    /// general left on the board and the capturer still has its own.
    fn hand_problems(&self, problems: &mut Vec<Problem>) {
        for owner in [Side::First, Side::Second] {
            let victim = !owner;
            let (own_name, victim_name) = match owner {
                Side::First => ("Red", "Black"),
                Side::Second => ("Black", "Red"),
            };
            let (own, other) = (owner.as_str(), victim.as_str());
            let mut report = |code: &'static str, params: &[(&'static str, &str)], message| {
                problems.push(Problem::coded(Location::Hand(owner), code, params, message))
            };
            for (piece, n) in self.hand(owner) {
                let token = hand_token(piece, n);
                let token = token.as_str();
                if piece.side == owner {
                    report(
                        "hand_own",
                        &[("piece", token), ("side", own), ("other", other)],
                        format!(
                        "'{token}' is {own_name}'s own: a captured piece goes unchanged to the \
                         capturer's hand, so {own_name}'s hand holds only {victim_name}'s pieces"
                    ),
                    );
                    continue;
                }
                let role = piece.role;
                let on_board =
                    (self.by_role[role.index()] & self.by_side[victim.index()]).count_ones();
                if role == Role::General {
                    if self.rules == RuleSet::Standard {
                        report(
                            "general_never_captured",
                            &[("piece", token)],
                            format!(
                            "'{token}': a general is never captured under the standard rules (S1)"
                        ),
                        );
                    } else if on_board > 0 {
                        report(
                            "general_on_board",
                            &[("piece", token), ("other", other)],
                            format!("'{token}': {victim_name}'s general is still on the board"),
                        );
                    } else if n > 1 {
                        report(
                            "one_general",
                            &[("piece", token), ("other", other)],
                            format!("'{token}': {victim_name} has only one general"),
                        );
                    } else if self.general(owner).is_none() {
                        report(
                            "capture_ends",
                            &[("piece", token), ("side", own)],
                            format!(
                            "'{token}': capturing a general ends the game (C3), so {own_name}'s \
                             general cannot be missing from the board too"
                        ),
                        );
                    }
                    continue;
                }
            }
        }
    }

    /// The standard FEN: letters `r n b a k c p`, `w`/`b`, half-move clock and move number.
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let sq = Square::from_coords(file, rank).expect("on the board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let turn = if self.turn == Side::First { 'w' } else { 'b' };
        format!("{s} {turn} - - {} {}", self.halfmove, self.ply / 2 + 1)
    }

    /// The FEEN data: chuhe's letters, `+S` across the river, captured pieces in hands.
    pub fn to_feen_value(&self) -> Feen {
        crate::feen_out::x_style_feen(
            (9, 10),
            squares(self.occupied()).filter_map(|sq| {
                self.piece_at(sq)
                    .map(|p| (sq.cell(), p.pin(Position::is_across_river(p.side, sq))))
            }),
            |owner| self.hand(owner).map(|(p, n)| (p.pin(false), n)),
            self.turn,
        )
    }

    /// The canonical FEEN.
    pub fn to_feen(&self) -> String {
        self.to_feen_value().to_string()
    }
}

const fn point_set(side: usize, points: &[(u8, u8)]) -> u128 {
    let mut bb = 0u128;
    let mut i = 0;
    while i < points.len() {
        let (f, r) = points[i];
        let rank = if side == 0 { r } else { 9 - r };
        bb |= 1u128 << (rank as u32 * 9 + f as u32);
        i += 1;
    }
    bb
}

const ADVISOR_PT: [(u8, u8); 5] = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)];
const ELEPHANT_PT: [(u8, u8); 7] = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)];
static ADVISOR_POINTS: [u128; 2] = [point_set(0, &ADVISOR_PT), point_set(1, &ADVISOR_PT)];
static ELEPHANT_POINTS: [u128; 2] = [point_set(0, &ELEPHANT_PT), point_set(1, &ELEPHANT_PT)];

/// A hand item as FEEN writes it: `2r`, `G^`.
fn hand_token(piece: Piece, n: u8) -> String {
    let pin = piece.pin(false);
    if n > 1 {
        format!("{n}{pin}")
    } else {
        pin.to_string()
    }
}

/// `1 point`, `2 points`.
fn counted(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn fields_with_offsets(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c == ' ' {
            if let Some(s) = start.take() {
                out.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

impl fmt::Display for Position {
    /// The standard FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl std::str::FromStr for Position {
    type Err = SetupError;

    /// Reads a FEN or FEEN under the standard rules, as [`Position::from_text`].
    ///
    /// ```
    /// use chuhe::xiangqi::Position;
    /// let pos: Position = chuhe::xiangqi::START_FEN.parse().unwrap();
    /// assert_eq!(pos, Position::start());
    /// ```
    fn from_str(s: &str) -> Result<Position, SetupError> {
        Position::from_text(s, RuleSet::Standard)
    }
}

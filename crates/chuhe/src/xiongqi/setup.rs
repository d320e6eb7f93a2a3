//! From FEEN text to a validated [`Position`] (decision X8), and back.

use chuhe_notation::{Epin, Feen, Side};

use super::bitboard::{squares, Square};
use super::position::{across_river, Position};
use super::types::{Piece, Role};
use crate::setup_error::{Location, PositionError, Problem, SetupError};

/// A plain, unvalidated arrangement: what a FEEN says, in Xiongqi pieces.
///
/// ```
/// use chuhe::xiongqi::{Position, Setup};
/// let setup = Setup::from_feen_str("7g^/8/8/3s4/3G^4/8/8/8 / X/x").unwrap();
/// let pos = Position::from_setup(&setup).unwrap();
/// assert_eq!(pos.legal_moves().len(), 4);
/// // X8: a soldier across the river must be written +S.
/// let bad = Setup::from_feen_str("4g^3/8/8/4S3/8/8/8/4G^3 / X/x").unwrap();
/// let err = Position::from_setup(&bad).unwrap_err();
/// assert!(err.to_string().contains("e5"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The pieces, by square index.
    pub board: [Option<Piece>; 64],
    /// `hands[owner]`: captured pieces with counts.
    pub hands: [Vec<(Piece, u8)>; 2],
    /// Side to move.
    pub turn: Side,
    /// Half-move clock (0 for a FEEN, X8).
    pub halfmove: u32,
}

impl Setup {
    /// Reads a FEEN: syntax errors come from the notation layer; pieces that are not Xiongqi
    /// pieces, a board that is not 8×8 and a style other than `X`/`x` are reported here, all at once.
    pub fn from_feen_str(text: &str) -> Result<Setup, SetupError> {
        let feen = Feen::parse(text)?;
        Ok(Setup::from_feen(&feen)?)
    }

    /// Converts a parsed FEEN, reporting every square or token that is not Xiongqi.
    pub fn from_feen(feen: &Feen) -> Result<Setup, PositionError> {
        let mut problems = Vec::new();
        let placement = &feen.placement;
        let mut setup = Setup {
            board: [None; 64],
            hands: [Vec::new(), Vec::new()],
            turn: feen.side_to_move(),
            halfmove: 0,
        };
        if placement.width() != 8 || placement.height() != 8 {
            let size = format!("{}×{}", placement.width(), placement.height());
            problems.push(Problem::coded(
                Location::Board,
                "board_size",
                &[("size", &size), ("want", "8×8")],
                format!("Xiongqi is played on 8×8, this board is {size}"),
            ));
        } else {
            for (cell, epin) in placement.iter() {
                let Some(sq) = Square::from_cell(cell) else {
                    continue;
                };
                match piece_of(epin) {
                    Ok(p) => setup.board[sq.index()] = Some(p),
                    Err(message) => problems.push(Problem::coded(
                        Location::Square(sq.cell()),
                        "unknown_piece",
                        &[("piece", &epin.to_string())],
                        message,
                    )),
                }
            }
        }
        for owner in [Side::First, Side::Second] {
            for (epin, n) in feen.hands[owner.index()].iter() {
                match piece_of(epin) {
                    Ok(p) => setup.hands[owner.index()].push((p, n.min(64) as u8)),
                    Err(message) => problems.push(Problem::coded(
                        Location::Hand(owner),
                        "unknown_piece",
                        &[("piece", &epin.to_string())],
                        message,
                    )),
                }
            }
        }
        let style = feen.style_turn.first_style();
        if style.letter() != 'X' {
            problems.push(Problem::coded(
                Location::Turn,
                "style",
                &[("style", &feen.style_turn.to_string()), ("want", "X/x")],
                format!("the Xiongqi style is X/x, not {}", feen.style_turn),
            ));
        }
        if problems.is_empty() {
            Ok(setup)
        } else {
            Err(PositionError {
                game: "Xiongqi",
                problems,
            })
        }
    }
}

fn piece_of(epin: Epin) -> Result<Piece, String> {
    if let Some(p) = Piece::from_epin(epin) {
        return Ok(p);
    }
    let pin = epin.pin;
    let letter = pin.letter();
    Err(if epin.derived {
        format!("'{epin}' has a derived style ('), which Xiongqi does not use")
    } else if !"GDABRCHES".contains(letter) {
        format!("'{epin}' is not a Xiongqi piece (letters G D A B R C H E S)")
    } else if matches!(letter, 'G' | 'D') && !pin.is_terminal() {
        format!(
            "'{epin}' must be written with '^': the {} is a terminal piece",
            name(letter)
        )
    } else if pin.is_terminal() && !matches!(letter, 'G' | 'D') {
        format!("'{epin}' is not a terminal piece: only G and D take '^'")
    } else {
        format!("'{epin}' has a state Xiongqi does not give this piece (only the soldier has +S)")
    })
}

/// Hands that no game reaches. A capture puts the piece unchanged into the capturer's hand
/// (X5), so a hand holds only the other side's pieces. A terminal piece is captured only by the
/// move that ends the game (X7 1): its side has none left on the board, and the capturer still
/// has its own, of the same kind (generals turn into dragons together, X3). Counts are not
/// limited to the starting set: X8 accepts boards with more pieces of a kind than the start,
/// and a game from such a board captures them into hands (a position chuhe writes always reads
/// back).
fn hand_problems(pos: &Position, problems: &mut Vec<Problem>) {
    for owner in Side::BOTH {
        let victim = !owner;
        let (own, other) = (owner.as_str(), victim.as_str());
        let mut report = |code: &'static str, params: &[(&'static str, &str)], message| {
            problems.push(Problem::coded(Location::Hand(owner), code, params, message))
        };
        let held = |role: Role| u32::from(pos.hand_count(owner, Piece::new(victim, role)));
        for (piece, n) in pos.hand(owner) {
            if piece.side == owner {
                let token = hand_token(piece, n);
                report(
                    "hand_own",
                    &[("piece", &token), ("side", own), ("other", other)],
                    format!(
                        "'{token}' is {own}'s own: a captured piece goes unchanged to the \
                         capturer's hand (X5), so {own}'s hand holds only {other}'s pieces"
                    ),
                );
            }
        }
        for role in [Role::General, Role::Dragon] {
            let n = held(role);
            if n == 0 {
                continue;
            }
            let token = hand_token(Piece::new(victim, role), n as u8);
            let kind = name(role.letter());
            if let Some(sq) = pos.terminal(victim) {
                report(
                    "terminal_on_board",
                    &[
                        ("piece", &token),
                        ("other", other),
                        ("square", &sq.to_string()),
                    ],
                    format!("'{token}': {other}'s terminal piece is still on the board ({sq})"),
                );
            } else if held(Role::General) + held(Role::Dragon) > 1 {
                report(
                    "one_terminal",
                    &[("piece", &token), ("other", other)],
                    format!("'{token}': {other} has only one terminal piece"),
                );
            } else {
                match pos.terminal(owner).and_then(|sq| pos.piece_at(sq)) {
                    None => report(
                        "terminal_capture_ends",
                        &[("piece", &token), ("side", own)],
                        format!(
                            "'{token}': capturing a terminal piece ends the game (X7), so {own}'s \
                         cannot be missing from the board too"
                        ),
                    ),
                    Some(mine) if mine.role != role => report(
                        "terminal_kind",
                        &[
                            ("piece", &token),
                            ("side", own),
                            ("kind", kind),
                            ("mine", name(mine.role.letter())),
                        ],
                        format!(
                        "'{token}': a captured {kind} means {own}'s terminal piece was a {kind} \
                         too (generals turn into dragons together, X3), but {own}'s is a {}",
                        name(mine.role.letter())
                    ),
                    ),
                    Some(_) => {}
                }
            }
        }
    }
}

/// A hand item as FEEN writes it: `2r`, `g^`.
fn hand_token(piece: Piece, n: u8) -> String {
    if n > 1 {
        format!("{n}{}", piece.pin())
    } else {
        piece.pin().to_string()
    }
}

fn name(letter: char) -> &'static str {
    match letter {
        'G' => "general",
        _ => "dragon",
    }
}

impl Position {
    /// Validates a setup (X8), reporting every problem with the square or token at fault.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut problems = Vec::new();
        let mut pos = Position::empty();
        let mut total = 0usize;
        for sq in Square::all() {
            let Some(piece) = setup.board[sq.index()] else {
                continue;
            };
            total += 1;
            let across = across_river(piece.side) & sq.bb() != 0;
            let letter = if piece.side == Side::First { "S" } else { "s" };
            if piece.role == Role::Soldier && across {
                problems.push(Problem::coded(
                    Location::Square(sq.cell()),
                    "soldier_mark",
                    &[
                        ("piece", &piece.to_string()),
                        ("want", &format!("+{letter}")),
                    ],
                    format!("'{piece}' is a soldier across the river; write '+{letter}' (X1)"),
                ));
            } else if piece.role == Role::CrossedSoldier && !across {
                problems.push(Problem::coded(
                    Location::Square(sq.cell()),
                    "soldier_mark",
                    &[("piece", &piece.to_string()), ("want", letter)],
                    format!("'{piece}' is a soldier before the river; write '{letter}' (X1)"),
                ));
            }
            pos.put(sq, piece);
        }
        for owner in [Side::First, Side::Second] {
            for &(piece, n) in &setup.hands[owner.index()] {
                total += n as usize;
                let slot = &mut pos.hands[owner.index()][piece.index()];
                *slot = slot.saturating_add(n);
            }
        }
        if total > 64 {
            problems.push(Problem::coded(
                Location::Board,
                "too_many_pieces",
                &[("n", &total.to_string()), ("squares", "64")],
                format!("{total} pieces on the board and in hands, more than 64 squares"),
            ));
        }
        let generals = pos.by_role[Role::General.index()];
        let dragons = pos.by_role[Role::Dragon.index()];
        for side in [Side::First, Side::Second] {
            let terminals = (generals | dragons) & pos.by_side[side.index()];
            if terminals.count_ones() > 1 {
                let list: Vec<String> = squares(terminals).map(|s| s.to_string()).collect();
                problems.push(Problem::coded(
                    Location::Square(
                        squares(terminals)
                            .nth(1)
                            .unwrap_or(Square::from_index_unchecked(0))
                            .cell(),
                    ),
                    "terminals_count",
                    &[
                        ("side", side.as_str()),
                        ("n", &terminals.count_ones().to_string()),
                    ],
                    format!(
                        "{} has {} terminal pieces ({}); a side has at most one",
                        side.as_str(),
                        terminals.count_ones(),
                        list.join(", ")
                    ),
                ));
            }
        }
        let south_g = generals & pos.by_side[0];
        let north_g = generals & pos.by_side[1];
        let south_d = dragons & pos.by_side[0];
        let north_d = dragons & pos.by_side[1];
        for (g, d) in [(south_g, north_d), (north_g, south_d)] {
            if g != 0 && d != 0 {
                let gs = Square::from_index_unchecked(g.trailing_zeros() as u8);
                let ds = Square::from_index_unchecked(d.trailing_zeros() as u8);
                problems.push(Problem::coded(
                    Location::Square(ds.cell()),
                    "dragon_with_general",
                    &[("dragon", &ds.to_string()), ("general", &gs.to_string())],
                    format!(
                        "a dragon on {ds} with a general on {gs}: generals turn into dragons together (X3)"
                    ),
                ));
            }
        }
        if south_g.count_ones() == 1 && north_g.count_ones() == 1 {
            let s = Square::from_index_unchecked(south_g.trailing_zeros() as u8);
            let n = Square::from_index_unchecked(north_g.trailing_zeros() as u8);
            if Position::generals_face(s, n, pos.occupied()) {
                problems.push(Problem::coded(
                    Location::Square(s.cell()),
                    "generals_face",
                    &[("a", &s.to_string()), ("b", &n.to_string())],
                    format!(
                        "the generals on {s} and {n} face each other; they would already be dragons (X3)"
                    ),
                ));
            }
        }
        hand_problems(&pos, &mut problems);
        if !problems.is_empty() {
            return Err(PositionError {
                game: "Xiongqi",
                problems,
            });
        }
        pos.halfmove = setup.halfmove;
        pos.set_turn(setup.turn);
        Ok(pos)
    }

    /// Reads a FEEN into a position (X8: clock 0, no history).
    ///
    /// ```
    /// use chuhe::xiongqi::Position;
    /// let pos = Position::from_feen("rhbag^bhr/2c2c2/ssssssss/8/8/SSSSSSSS/2C2C2/RHBAG^BHR / X/x").unwrap();
    /// assert_eq!(pos, Position::start());
    /// assert!(Position::from_feen("rhbag^bhr/8/8/8/8/8/8/RHBAG^BHR / X/x").is_err());
    /// ```
    pub fn from_feen(text: &str) -> Result<Position, SetupError> {
        let setup = Setup::from_feen_str(text)?;
        Ok(Position::from_setup(&setup)?)
    }

    /// The setup of this position.
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 64];
        for s in Square::all() {
            board[s.index()] = self.piece_at(s);
        }
        Setup {
            board,
            hands: [
                self.hand(Side::First).collect(),
                self.hand(Side::Second).collect(),
            ],
            turn: self.turn,
            halfmove: self.halfmove,
        }
    }

    /// The FEEN data of this position.
    pub fn to_feen_value(&self) -> Feen {
        crate::feen_out::x_style_feen(
            (8, 8),
            squares(self.occupied()).filter_map(|s| self.piece_at(s).map(|p| (s.cell(), p.pin()))),
            |owner| self.hand(owner).map(|(p, n)| (p.pin(), n)),
            self.turn,
        )
    }

    /// The canonical FEEN of this position.
    pub fn to_feen(&self) -> String {
        self.to_feen_value().to_string()
    }
}

impl std::str::FromStr for Position {
    type Err = SetupError;

    /// Reads a FEEN, as [`Position::from_feen`].
    ///
    /// ```
    /// use chuhe::xiongqi::Position;
    /// let pos: Position = chuhe::xiongqi::START_FEEN.parse().unwrap();
    /// assert_eq!(pos, Position::start());
    /// ```
    fn from_str(s: &str) -> Result<Position, SetupError> {
        Position::from_feen(s)
    }
}

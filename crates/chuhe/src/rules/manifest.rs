//! The rules manifest, `chuhe.rules/1`: what a game's GGN and FEEN do not say — royal pieces
//! and what their loss means, promotion, captures and hands, and how a game ends. Read from
//! JSON with every key checked: an unknown key, a missing one or a bad value is a
//! [`RulesError`] naming the file, the key and what is wrong. The format is written down in
//! `docs/RULES.md`.

use serde_json::{Map, Value};

use chuhe_notation::{Cell, Pin, Side};

use super::RulesError;

/// The most pieces a promotion may offer (the 16-bit move code's room).
pub const MAX_PROMOTION_CHOICES: usize = 7;

/// The most drop rules a game may have.
pub const MAX_DROPS: usize = 12;

/// The format this module reads.
pub const FORMAT: &str = "chuhe.rules/1";

/// A game's rules manifest, read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The game's name in chuhe: lowercase letters, digits and `-` (`minixiangqi`).
    pub name: String,
    /// The game's name for people (`Minixiangqi`).
    pub title: String,
    /// The GGN file, relative to the game's directory.
    pub ggn: String,
    /// The start position, FEEN.
    pub start: String,
    /// The board: size and drawing.
    pub board: BoardSpec,
    /// The pieces, by the first player's PIN, in the order of their role index.
    pub pieces: Vec<PieceSpec>,
    /// What the royal pieces' loss or attack means.
    pub royal: RoyalSpec,
    /// Promotion rules, tried in order; the first whose piece and zone fit applies.
    pub promotions: Vec<PromotionSpec>,
    /// Where captured pieces go.
    pub capture: CaptureTo,
    /// What a captured piece becomes in the hand (`{"+S": "S"}`), first players' PINs.
    pub demote: Vec<(Pin, Pin)>,
    /// Does a captured piece join the capturer's side in the hand (shogi's captures, key
    /// `capture.join`)? Needed for drops.
    pub join: bool,
    /// The pieces that may be dropped from the hand, tried in order (their index + 1 is the
    /// drop's choice in a move).
    pub drops: Vec<DropSpec>,
    /// How the game ends, and perft's convention.
    pub session: Session,
    /// The engine's mobility weight: centipawns per pseudo-legal move (key `mobility`,
    /// default 4), learnt with the piece values by the tuner (docs/TUNING.md).
    pub mobility: i32,
}

/// The board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSpec {
    /// Files (2–12).
    pub files: u8,
    /// Ranks (2–12).
    pub ranks: u8,
    /// The river runs above this many ranks of the first player (drawing only).
    pub river: Option<u8>,
    /// Palaces drawn (Xiangqi's files d–f, three ranks each side).
    pub palaces: bool,
    /// Pieces on the points of the lines rather than in the squares.
    pub points: bool,
}

/// One piece of the game, for both sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    /// Its PIN as the first player's (uppercase).
    pub pin: Pin,
    /// Its name (`chariot`).
    pub name: String,
    /// Is it royal (its capture or checkmate ends the game)? Royal pieces are the terminal
    /// ones (`^`) of PIN.
    pub royal: bool,
    /// Its value for the engine's evaluation (centipawns).
    pub value: i32,
    /// Its FEN letter (lowercase), for writing positions as Fairy-Stockfish does.
    pub fen: Option<char>,
    /// Is its FEN token `+` and the letter (Fairy-Stockfish's promoted shogi pieces, `"+p"`)?
    /// Its promotion is then written `+` in UCI.
    pub fen_plus: bool,
    /// Its Chinese characters for the first and the second player.
    pub chinese: Option<[char; 2]>,
}

/// What the royal pieces mean.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoyalSpec {
    /// Check constrains moves (checkmate) or not (the royal piece is captured).
    pub rule: RoyalRule,
    /// Two royal pieces facing each other on a file with nothing between.
    pub facing: Facing,
}

/// What losing the royal piece means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoyalRule {
    /// `checkmate`: no move may leave one's own royal piece attacked.
    Checkmate,
    /// `capture`: check constrains nothing; capturing the royal piece wins (`mareking`).
    Capture,
}

/// Two royal pieces on one file, the first player's below, nothing between.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Facing {
    /// `allowed`: nothing happens.
    Allowed,
    /// `forbidden`: it counts as an attack on the royal piece of the side to move (Xiangqi's
    /// flying general).
    Forbidden,
    /// `{"transform": {"G^": "D^"}}`: both change at once, for good (Xiongqi's X3).
    Transform(Vec<(Pin, Pin)>),
}

/// A promotion rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotionSpec {
    /// The piece that promotes (first player's PIN).
    pub piece: Pin,
    /// The zone, as the first player's squares (mirrored for the second): a move of the piece
    /// that ends there promotes.
    pub zone: Vec<Cell>,
    /// What it may become (first player's PINs), in the order of the move's choices.
    pub into: Vec<Pin>,
    /// May the piece stay as it is?
    pub optional: bool,
    /// Is the change one the rules imply, written in no notation (Xiangqi's and Xiongqi's
    /// soldier crossing the river)? Only for a single, compulsory choice.
    pub implied: bool,
    /// Does a move that starts in the zone promote too (shogi)? Otherwise only one that ends
    /// there.
    pub from_zone: bool,
}

/// A piece that may be dropped from its side's hand onto an empty square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DropSpec {
    /// The piece (first player's PIN).
    pub piece: Pin,
    /// Where it may be dropped, as the first player's squares (mirrored for the second);
    /// `None`: anywhere. Never where the piece could not stand (no entry of its GGN table).
    pub zone: Option<Vec<Cell>>,
    /// Not on a file that holds a piece of the same kind and side already (shogi's pawns).
    pub no_doubled: bool,
    /// May the drop checkmate (`checkmate`: `allowed`)? Otherwise (`loses`, shogi's pawn
    /// drop) a drop that checkmates loses the game for the side that dropped, as
    /// Fairy-Stockfish plays it (`Status::Illegalmove`).
    pub may_checkmate: bool,
}

/// Where a captured piece goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureTo {
    /// `hand`: into the capturer's hand, unchanged (Sashité's default; never dropped).
    Hand,
    /// `out`: off the game.
    Out,
}

/// A result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move loses.
    Loss,
    /// A draw.
    Draw,
    /// The side to move wins.
    Win,
}

/// How a game ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// No legal move and not in check.
    pub stalemate: Verdict,
    /// Repetition.
    pub repetition: Repetition,
    /// The move limit, if any.
    pub move_limit: Option<MoveLimit>,
    /// Insufficient material: a draw.
    pub insufficient: Option<Insufficient>,
    /// A side left with its royal piece alone loses (`bareking`).
    pub bare_royal: Option<BareRoyal>,
    /// What perft counts.
    pub perft: PerftRule,
}

/// The repetition rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// `none`.
    None,
    /// `fold`: the `fold`-th occurrence of a position (placement and side to move) ends the
    /// game: a draw, unless one side gave check with every move of the cycle and
    /// `perpetual_check` says it loses, or `chase` names a chase rule.
    Fold {
        /// Occurrences that end the game (at least 2).
        fold: u8,
        /// Does perpetual check lose?
        perpetual_check: bool,
        /// The chase rule (`axf`: Xiangqi's, judged by the native Xiangqi code).
        chase: bool,
    },
    /// `forbidden-move`: a move that repeats an earlier (move, resulting position) pair is
    /// illegal; a record that plays one ends the game, its player losing (Xiongqi's X6).
    ForbiddenMove,
}

/// The move limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLimit {
    /// Plies without a resetting move that draw.
    pub plies: u32,
    /// Which moves reset the count.
    pub reset: Vec<Reset>,
    /// Fairy-Stockfish's allowance for checks in Xiangqi (`axf`).
    pub check_allowance: bool,
    /// Judged before the end by no legal move (a checkmate still wins), or after it.
    pub before_no_move: bool,
}

/// A move that resets the move limit's count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reset {
    /// A capture.
    Capture,
    /// A move of this piece (first player's PIN).
    Piece(Pin),
}

/// Insufficient material.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Insufficient {
    /// `bare-royals`: each side has only royal pieces.
    BareRoyals,
    /// `{"no": [...]}`: neither side has any of these pieces.
    NoneOf(Vec<Pin>),
}

/// The bare-royal rule (Shatranj).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BareRoyal {
    /// May a bared side to move reply by baring the other (not lost while the other has just
    /// one piece besides its royal)?
    pub reply: bool,
}

/// What perft counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftRule {
    /// `legal-moves`: every legal move, whatever the history (Fairy-Stockfish's perft).
    LegalMoves,
    /// `stops-at-end`: a finished game has no children, and history-forbidden moves are not
    /// counted (Xiongqi's X9).
    StopsAtEnd,
}

/// A JSON object being read: every key taken is ticked off, and the rest are unknown.
struct Object<'a> {
    file: &'a str,
    path: String,
    map: &'a Map<String, Value>,
    taken: Vec<&'a str>,
}

impl<'a> Object<'a> {
    fn new(file: &'a str, path: &str, value: &'a Value) -> Result<Object<'a>, RulesError> {
        match value {
            Value::Object(map) => Ok(Object {
                file,
                path: path.to_string(),
                map,
                taken: Vec::new(),
            }),
            _ => Err(RulesError::invalid(file, path, "must be an object")),
        }
    }

    fn key(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn error(&self, key: &str, message: impl Into<String>) -> RulesError {
        RulesError::invalid(self.file, &self.key(key), message)
    }

    fn get(&mut self, key: &'a str) -> Option<&'a Value> {
        let v = self.map.get(key);
        if v.is_some() {
            self.taken.push(key);
        }
        v
    }

    fn need(&mut self, key: &'a str) -> Result<&'a Value, RulesError> {
        self.get(key)
            .ok_or_else(|| RulesError::missing(self.file, &self.key(key)))
    }

    fn string(&mut self, key: &'a str) -> Result<&'a str, RulesError> {
        let v = self.need(key)?;
        v.as_str()
            .ok_or_else(|| self.error(key, "must be a string"))
    }

    fn opt_string(&mut self, key: &'a str) -> Result<Option<&'a str>, RulesError> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.error(key, "must be a string")),
        }
    }

    fn bool_or(&mut self, key: &'a str, default: bool) -> Result<bool, RulesError> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.error(key, "must be true or false")),
        }
    }

    fn int(
        &mut self,
        key: &'a str,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<i64, RulesError> {
        let v = self.need(key)?;
        let n = v
            .as_i64()
            .ok_or_else(|| self.error(key, "must be a whole number"))?;
        if range.contains(&n) {
            Ok(n)
        } else {
            Err(self.error(
                key,
                format!("{n} is out of range {}..={}", range.start(), range.end()),
            ))
        }
    }

    fn object(&mut self, key: &'a str) -> Result<Object<'a>, RulesError> {
        let path = self.key(key);
        let v = self.need(key)?;
        Object::new(self.file, &path, v)
    }

    /// Fails on the first key not taken.
    fn done(self) -> Result<(), RulesError> {
        match self.map.keys().find(|k| !self.taken.contains(&k.as_str())) {
            Some(k) => Err(RulesError::unknown(self.file, &self.key(k))),
            None => Ok(()),
        }
    }
}

/// Reads a first player's PIN (uppercase).
fn first_pin(file: &str, key: &str, text: &str) -> Result<Pin, RulesError> {
    let pin = Pin::parse(text).map_err(|e| RulesError::invalid(file, key, e.to_string()))?;
    if pin.side() != Side::First {
        return Err(RulesError::invalid(
            file,
            key,
            format!("'{text}': pieces are named by the first player's PIN (uppercase)"),
        ));
    }
    Ok(pin)
}

/// Reads a region: squares (`e4`) and rectangles (`a6-i10`), separated by spaces, as the first
/// player's squares on a `files × ranks` board.
pub fn parse_region(
    file: &str,
    key: &str,
    text: &str,
    files: u8,
    ranks: u8,
) -> Result<Vec<Cell>, RulesError> {
    let cell = |t: &str| -> Result<Cell, RulesError> {
        let c = Cell::parse(t).map_err(|e| RulesError::invalid(file, key, e.to_string()))?;
        if c.file() >= u16::from(files) || c.rank() >= u16::from(ranks) {
            return Err(RulesError::invalid(
                file,
                key,
                format!("square {t} is off the {files}x{ranks} board"),
            ));
        }
        Ok(c)
    };
    let mut out = Vec::new();
    for token in text.split_whitespace() {
        match token.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (cell(a)?, cell(b)?);
                for f in a.file().min(b.file())..=a.file().max(b.file()) {
                    for r in a.rank().min(b.rank())..=a.rank().max(b.rank()) {
                        out.push(Cell::new(f, r));
                    }
                }
            }
            None => out.push(cell(token)?),
        }
    }
    if out.is_empty() {
        return Err(RulesError::invalid(file, key, "names no square"));
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn verdict(o: &Object<'_>, key: &str, v: &str) -> Result<Verdict, RulesError> {
    match v {
        "loss" => Ok(Verdict::Loss),
        "draw" => Ok(Verdict::Draw),
        "win" => Ok(Verdict::Win),
        _ => Err(o.error(key, format!("'{v}' is not loss, draw or win"))),
    }
}

impl Manifest {
    /// Reads a manifest from its JSON text; `file` names it in errors.
    pub fn from_json(file: &str, text: &str) -> Result<Manifest, RulesError> {
        let value: Value = serde_json::from_str(text).map_err(|e| RulesError {
            file: file.to_string(),
            key: String::new(),
            problem: super::RulesProblem::NotJson(e.to_string()),
        })?;
        let mut top = Object::new(file, "", &value)?;
        let format = top.string("format")?;
        if format != FORMAT {
            return Err(top.error("format", format!("'{format}' is not {FORMAT}")));
        }
        let name = top.string("name")?.to_string();
        if name.is_empty()
            || name.len() > 32
            || !name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err(top.error(
                "name",
                format!("'{name}': 1–32 lowercase letters, digits and '-'"),
            ));
        }
        let title = top.opt_string("title")?.unwrap_or(&name).to_string();
        let ggn = top.string("ggn")?.to_string();
        if !ggn.contains("ggn") || ggn.contains('/') || ggn.contains('\\') {
            return Err(top.error(
                "ggn",
                format!("'{ggn}': a file name in the game's directory that says ggn"),
            ));
        }
        let start = top.string("start")?.to_string();

        let mut b = top.object("board")?;
        let files = b.int("files", 2..=12)? as u8;
        let ranks = b.int("ranks", 2..=12)? as u8;
        let river = match b.get("river") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(n) if n >= 1 && n < u64::from(ranks) => Some(n as u8),
                _ => return Err(b.error("river", format!("must be a rank count 1..{ranks}"))),
            },
        };
        let palaces = b.bool_or("palaces", false)?;
        let points = b.bool_or("points", false)?;
        b.done()?;
        let board = BoardSpec {
            files,
            ranks,
            river,
            palaces,
            points,
        };

        let pieces_obj = top.object("pieces")?;
        let mut pieces = Vec::new();
        for (key, v) in pieces_obj.map.iter() {
            let path = pieces_obj.key(key);
            let pin = first_pin(file, &path, key)?;
            let mut p = Object::new(file, &path, v)?;
            let pname = p.string("name")?.to_string();
            let royal = p.bool_or("royal", false)?;
            if royal != pin.is_terminal() {
                return Err(p.error(
                    "royal",
                    "royal pieces are exactly the terminal ones (PIN with '^')",
                ));
            }
            let value = match p.get("value") {
                None => 0,
                Some(_) => {
                    p.taken.pop();
                    p.int("value", -100_000..=100_000)? as i32
                }
            };
            let (fen, fen_plus) = match p.opt_string("fen")? {
                None => (None, false),
                Some(s) => {
                    let plus = s.starts_with('+');
                    let mut chars = s.trim_start_matches('+').chars();
                    match (chars.next(), chars.next(), s.starts_with("++")) {
                        (Some(c), None, false) if c.is_ascii_lowercase() => (Some(c), plus),
                        _ => {
                            return Err(p.error(
                                "fen",
                                format!("'{s}': one lowercase letter, or + and the letter"),
                            ))
                        }
                    }
                }
            };
            let chinese = match p.opt_string("chinese")? {
                None => None,
                Some(s) => {
                    let cs: Vec<char> = s.chars().collect();
                    match cs[..] {
                        [a, b] => Some([a, b]),
                        _ => {
                            return Err(p.error(
                                "chinese",
                                format!(
                                    "'{s}': two characters, the first player's then the second's"
                                ),
                            ))
                        }
                    }
                }
            };
            p.done()?;
            pieces.push(PieceSpec {
                pin,
                name: pname,
                royal,
                value,
                fen,
                fen_plus,
                chinese,
            });
        }
        if pieces.is_empty() || pieces.len() > 16 {
            return Err(RulesError::invalid(file, "pieces", "1 to 16 pieces"));
        }
        if !pieces.iter().any(|p| p.royal) {
            return Err(RulesError::invalid(
                file,
                "pieces",
                "no royal piece (PIN with '^')",
            ));
        }
        let known = |pin: Pin| pieces.iter().any(|p| p.pin == pin);

        let mut r = top.object("royal")?;
        let rule = match r.string("rule")? {
            "checkmate" => RoyalRule::Checkmate,
            "capture" => RoyalRule::Capture,
            other => return Err(r.error("rule", format!("'{other}' is not checkmate or capture"))),
        };
        let facing = match r.get("facing") {
            None => Facing::Allowed,
            Some(Value::String(s)) if s == "allowed" => Facing::Allowed,
            Some(Value::String(s)) if s == "forbidden" => Facing::Forbidden,
            Some(v @ Value::Object(_)) => {
                let path = r.key("facing");
                let mut f = Object::new(file, &path, v)?;
                let t = f.object("transform")?;
                let mut pairs = Vec::new();
                for (from, to) in t.map.iter() {
                    let key = t.key(from);
                    let a = first_pin(file, &key, from)?;
                    let to = to
                        .as_str()
                        .ok_or_else(|| RulesError::invalid(file, &key, "must be a PIN"))?;
                    let b = first_pin(file, &key, to)?;
                    for p in [a, b] {
                        if !known(p) || !p.is_terminal() {
                            return Err(RulesError::invalid(
                                file,
                                &key,
                                format!("{p} is not a royal piece of 'pieces'"),
                            ));
                        }
                    }
                    pairs.push((a, b));
                }
                f.done()?;
                Facing::Transform(pairs)
            }
            Some(_) => {
                return Err(r.error(
                    "facing",
                    "must be allowed, forbidden or {\"transform\": {...}}",
                ))
            }
        };
        r.done()?;
        let royal = RoyalSpec { rule, facing };

        // The `piece` of a promotion or drop rule: a PIN of `pieces`.
        let known_piece = |o: &mut Object| -> Result<Pin, RulesError> {
            let text = o.string("piece")?;
            let piece = first_pin(file, &o.key("piece"), text)?;
            if known(piece) {
                Ok(piece)
            } else {
                Err(o.error("piece", format!("{piece} is not in 'pieces'")))
            }
        };
        let mut promotions = Vec::new();
        if let Some(v) = top.get("promotion") {
            let list = v
                .as_array()
                .ok_or_else(|| RulesError::invalid(file, "promotion", "must be a list"))?;
            for (i, item) in list.iter().enumerate() {
                let path = format!("promotion[{i}]");
                let mut p = Object::new(file, &path, item)?;
                let piece = known_piece(&mut p)?;
                let zone_text = p.string("zone")?;
                let zone = parse_region(file, &p.key("zone"), zone_text, files, ranks)?;
                let into_v = p.need("into")?;
                let into_list = into_v
                    .as_array()
                    .ok_or_else(|| p.error("into", "must be a list of PINs"))?;
                let mut into = Vec::new();
                for t in into_list {
                    let t = t
                        .as_str()
                        .ok_or_else(|| p.error("into", "must be a list of PINs"))?;
                    let pin = first_pin(file, &p.key("into"), t)?;
                    if !known(pin) {
                        return Err(p.error("into", format!("{pin} is not in 'pieces'")));
                    }
                    into.push(pin);
                }
                if into.is_empty() || into.len() > MAX_PROMOTION_CHOICES {
                    return Err(p.error("into", format!("1 to {MAX_PROMOTION_CHOICES} pieces")));
                }
                let optional = p.bool_or("optional", false)?;
                let implied = p.bool_or("implied", false)?;
                let from_zone = p.bool_or("from_zone", false)?;
                if implied && (optional || into.len() != 1) {
                    return Err(p.error(
                        "implied",
                        "only a compulsory promotion into one piece can be implied",
                    ));
                }
                p.done()?;
                promotions.push(PromotionSpec {
                    piece,
                    zone,
                    into,
                    optional,
                    implied,
                    from_zone,
                });
            }
        }

        let mut demote = Vec::new();
        let mut join = false;
        let capture = match top.get("capture") {
            None => CaptureTo::Hand,
            Some(Value::String(t)) if t == "hand" => CaptureTo::Hand,
            Some(Value::String(t)) if t == "out" => CaptureTo::Out,
            Some(v @ Value::Object(_)) => {
                let mut o = Object::new(file, "capture", v)?;
                let to = match o.string("to")? {
                    "hand" => CaptureTo::Hand,
                    "out" => CaptureTo::Out,
                    other => return Err(o.error("to", format!("'{other}' is not hand or out"))),
                };
                if let Some(d) = o.get("demote") {
                    let d = Object::new(file, "capture.demote", d)?;
                    for (from, to) in d.map.iter() {
                        let key = d.key(from);
                        let a = first_pin(file, &key, from)?;
                        let to = to
                            .as_str()
                            .ok_or_else(|| RulesError::invalid(file, &key, "must be a PIN"))?;
                        let b = first_pin(file, &key, to)?;
                        for p in [a, b] {
                            if !known(p) {
                                return Err(RulesError::invalid(
                                    file,
                                    &key,
                                    format!("{p} is not in 'pieces'"),
                                ));
                            }
                        }
                        demote.push((a, b));
                    }
                }
                join = o.bool_or("join", false)?;
                if join && to != CaptureTo::Hand {
                    return Err(o.error("join", "only a capture to the hand can join"));
                }
                o.done()?;
                to
            }
            Some(_) => {
                return Err(top.error(
                    "capture",
                    "must be hand, out or {\"to\": ..., \"demote\": {...}, \"join\": ...}",
                ))
            }
        };
        let mut drops: Vec<DropSpec> = Vec::new();
        if let Some(v) = top.get("drops") {
            let list = v
                .as_array()
                .ok_or_else(|| RulesError::invalid(file, "drops", "must be a list"))?;
            if list.len() > MAX_DROPS {
                return Err(RulesError::invalid(
                    file,
                    "drops",
                    format!("at most {MAX_DROPS} pieces"),
                ));
            }
            if !list.is_empty() && !join {
                return Err(RulesError::invalid(
                    file,
                    "drops",
                    "drops need captured pieces to join the capturer's hand: \
                     \"capture\": {\"to\": \"hand\", \"join\": true}",
                ));
            }
            for (i, item) in list.iter().enumerate() {
                let path = format!("drops[{i}]");
                let mut d = Object::new(file, &path, item)?;
                let piece = known_piece(&mut d)?;
                if piece.is_terminal() {
                    return Err(d.error("piece", format!("{piece} is royal: it is never dropped")));
                }
                if drops.iter().any(|e| e.piece == piece) {
                    return Err(d.error("piece", format!("{piece} is listed twice")));
                }
                let zone = match d.opt_string("zone")? {
                    None => None,
                    Some(t) => Some(parse_region(file, &d.key("zone"), t, files, ranks)?),
                };
                let no_doubled = d.bool_or("no_doubled", false)?;
                let may_checkmate = match d.opt_string("checkmate")? {
                    None | Some("allowed") => true,
                    Some("loses") => false,
                    Some(other) => {
                        return Err(
                            d.error("checkmate", format!("'{other}' is not allowed or loses"))
                        )
                    }
                };
                d.done()?;
                drops.push(DropSpec {
                    piece,
                    zone,
                    no_doubled,
                    may_checkmate,
                });
            }
        }

        let mobility = match top.get("mobility") {
            None => DEFAULT_MOBILITY,
            Some(_) => {
                top.taken.pop();
                top.int("mobility", 0..=1000)? as i32
            }
        };

        let mut s = top.object("session")?;
        let stalemate_text = s.string("stalemate")?;
        let stalemate = verdict(&s, "stalemate", stalemate_text)?;
        let repetition = match s.need("repetition")? {
            Value::String(t) if t == "none" => Repetition::None,
            Value::String(t) if t == "forbidden-move" => Repetition::ForbiddenMove,
            v @ Value::Object(_) => {
                let path = s.key("repetition");
                let mut o = Object::new(file, &path, v)?;
                let fold = o.int("fold", 2..=9)? as u8;
                let perpetual_check = match o.opt_string("perpetual_check")? {
                    None | Some("draw") => false,
                    Some("loss") => true,
                    Some(other) => {
                        return Err(
                            o.error("perpetual_check", format!("'{other}' is not loss or draw"))
                        )
                    }
                };
                let chase = match o.opt_string("chase")? {
                    None => false,
                    Some("axf") => true,
                    Some(other) => return Err(o.error("chase", format!("'{other}' is not axf"))),
                };
                o.done()?;
                Repetition::Fold {
                    fold,
                    perpetual_check,
                    chase,
                }
            }
            _ => {
                return Err(s.error(
                    "repetition",
                    "must be none, forbidden-move or {\"fold\": N, ...}",
                ))
            }
        };
        let move_limit = match s.get("move_limit") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let path = s.key("move_limit");
                let mut o = Object::new(file, &path, v)?;
                let plies = o.int("plies", 1..=10_000)? as u32;
                let reset_v = o.need("reset")?;
                let list = reset_v
                    .as_array()
                    .ok_or_else(|| o.error("reset", "must be a list"))?;
                let mut reset = Vec::new();
                for t in list {
                    let t = t
                        .as_str()
                        .ok_or_else(|| o.error("reset", "must be a list of strings"))?;
                    if t == "capture" {
                        reset.push(Reset::Capture);
                    } else {
                        let pin = first_pin(file, &o.key("reset"), t)?;
                        if !known(pin) {
                            return Err(o.error("reset", format!("{pin} is not in 'pieces'")));
                        }
                        reset.push(Reset::Piece(pin));
                    }
                }
                let check_allowance = match o.opt_string("check_allowance")? {
                    None => false,
                    Some("axf") => true,
                    Some(other) => {
                        return Err(o.error("check_allowance", format!("'{other}' is not axf")))
                    }
                };
                let before_no_move = match o.opt_string("precedence")? {
                    None | Some("before-no-move") => true,
                    Some("after-no-move") => false,
                    Some(other) => {
                        return Err(o.error(
                            "precedence",
                            format!("'{other}' is not before-no-move or after-no-move"),
                        ))
                    }
                };
                o.done()?;
                Some(MoveLimit {
                    plies,
                    reset,
                    check_allowance,
                    before_no_move,
                })
            }
        };
        let insufficient = match s.get("insufficient") {
            None | Some(Value::Null) => None,
            Some(Value::String(t)) if t == "bare-royals" => Some(Insufficient::BareRoyals),
            Some(v @ Value::Object(_)) => {
                let path = s.key("insufficient");
                let mut o = Object::new(file, &path, v)?;
                let list = o
                    .need("none_of")?
                    .as_array()
                    .ok_or_else(|| o.error("none_of", "must be a list of PINs"))?;
                let mut pins = Vec::new();
                for t in list {
                    let t = t
                        .as_str()
                        .ok_or_else(|| o.error("none_of", "must be a list of PINs"))?;
                    let pin = first_pin(file, &o.key("none_of"), t)?;
                    if !known(pin) {
                        return Err(o.error("none_of", format!("{pin} is not in 'pieces'")));
                    }
                    pins.push(pin);
                }
                o.done()?;
                Some(Insufficient::NoneOf(pins))
            }
            Some(_) => {
                return Err(s.error(
                    "insufficient",
                    "must be bare-royals or {\"none_of\": [...]}",
                ))
            }
        };
        let bare_royal = match s.get("bare_royal") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let path = s.key("bare_royal");
                let mut o = Object::new(file, &path, v)?;
                let reply = o.bool_or("reply", false)?;
                o.done()?;
                Some(BareRoyal { reply })
            }
        };
        let perft = match s.opt_string("perft")? {
            None | Some("legal-moves") => PerftRule::LegalMoves,
            Some("stops-at-end") => PerftRule::StopsAtEnd,
            Some(other) => {
                return Err(s.error(
                    "perft",
                    format!("'{other}' is not legal-moves or stops-at-end"),
                ))
            }
        };
        s.done()?;
        let session = Session {
            stalemate,
            repetition,
            move_limit,
            insufficient,
            bare_royal,
            perft,
        };
        if matches!(session.repetition, Repetition::Fold { chase: true, .. })
            && (files, ranks) != (9, 10)
        {
            return Err(RulesError::invalid(
                file,
                "session.repetition.chase",
                "the axf chase rule is Xiangqi's: only a 9x10 board with Xiangqi's pieces",
            ));
        }
        top.done()?;
        Ok(Manifest {
            name,
            title,
            ggn,
            start,
            board,
            pieces,
            royal,
            promotions,
            capture,
            demote,
            join,
            drops,
            session,
            mobility,
        })
    }
}

/// The engine's mobility weight when a manifest gives none (centipawns per pseudo-legal move).
pub const DEFAULT_MOBILITY: i32 = 4;

/// A manifest's text with new engine values: `values` by the pieces' keys (as `pieces`
/// names them, `"R"`, `"K^"`), and the `mobility` weight; the rest of the text — its layout,
/// its other keys — stays as it was. What the tuner writes (docs/TUNING.md). The result is
/// read back and must give exactly these values, else an error names what could not be set.
///
/// ```
/// use chuhe::rules::manifest::{with_engine_values, Manifest};
/// # let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/shatranj/rules.json");
/// let text = std::fs::read_to_string(dir).unwrap();
/// let tuned = with_engine_values("rules.json", &text, &[("R", 520), ("N", 330)], 6).unwrap();
/// let m = Manifest::from_json("rules.json", &tuned).unwrap();
/// assert_eq!(m.pieces.iter().find(|p| p.pin.to_string() == "R").unwrap().value, 520);
/// assert_eq!(m.mobility, 6);
/// ```
pub fn with_engine_values(
    file: &str,
    text: &str,
    values: &[(&str, i32)],
    mobility: i32,
) -> Result<String, RulesError> {
    let manifest = Manifest::from_json(file, text)?;
    let mut out = text.to_string();
    let pieces_at = out
        .find("\"pieces\"")
        .ok_or_else(|| RulesError::missing(file, "pieces"))?;
    for &(key, value) in values {
        let quoted = format!("\"{key}\"");
        let path = format!("pieces.{key}");
        let key_at = out[pieces_at..]
            .find(&quoted)
            .map(|i| pieces_at + i)
            .ok_or_else(|| RulesError::invalid(file, &path, "no such piece to set a value"))?;
        let open = out[key_at..]
            .find('{')
            .map(|i| key_at + i)
            .ok_or_else(|| RulesError::invalid(file, &path, "not an object"))?;
        let close = out[open..]
            .find('}')
            .map(|i| open + i)
            .ok_or_else(|| RulesError::invalid(file, &path, "not an object"))?;
        match out[open..close].find("\"value\"") {
            Some(i) => {
                let number_start = open
                    + i
                    + out[open + i..]
                        .find(':')
                        .ok_or_else(|| RulesError::invalid(file, &path, "a value without ':'"))?
                    + 1;
                let rest = &out[number_start..close];
                let skip = rest.len() - rest.trim_start().len();
                let digits = rest.trim_start();
                let len = digits
                    .find(|c: char| !(c.is_ascii_digit() || c == '-'))
                    .unwrap_or(digits.len());
                out.replace_range(
                    number_start + skip..number_start + skip + len,
                    &value.to_string(),
                );
            }
            None => out.insert_str(open + 1, &format!(" \"value\": {value},")),
        }
    }
    match find_top_key(&out, "mobility") {
        Some(at) => {
            let colon = at + out[at..].find(':').unwrap_or(0) + 1;
            let rest = &out[colon..];
            let skip = rest.len() - rest.trim_start().len();
            let digits = rest.trim_start();
            let len = digits
                .find(|c: char| !(c.is_ascii_digit() || c == '-'))
                .unwrap_or(digits.len());
            out.replace_range(colon + skip..colon + skip + len, &mobility.to_string());
        }
        None => {
            // Before the session, on a line of its own, indented as the session's key is.
            let at = find_top_key(&out, "session")
                .ok_or_else(|| RulesError::missing(file, "session"))?;
            let line_start = out[..at].rfind('\n').map_or(0, |i| i + 1);
            let indent: String = out[line_start..at]
                .chars()
                .filter(|c| c.is_whitespace())
                .collect();
            out.insert_str(line_start, &format!("{indent}\"mobility\": {mobility},\n"));
        }
    }
    // Read back: the values must be the ones asked for, and nothing else may have changed.
    let back = Manifest::from_json(file, &out)?;
    for &(key, value) in values {
        let got = back
            .pieces
            .iter()
            .position(|p| p.pin.to_string() == key)
            .map(|i| {
                (
                    back.pieces[i].value,
                    manifest.pieces[i].pin == back.pieces[i].pin,
                )
            });
        if got != Some((value, true)) {
            return Err(RulesError::invalid(
                file,
                &format!("pieces.{key}.value"),
                format!("could not be set to {value}"),
            ));
        }
    }
    for (before, after) in manifest.pieces.iter().zip(&back.pieces) {
        let asked = values.iter().any(|&(key, _)| before.pin.to_string() == key);
        if !asked && before.value != after.value {
            return Err(RulesError::invalid(
                file,
                &format!("pieces.{}.value", before.pin),
                "changed though no value was given for it",
            ));
        }
    }
    if back.mobility != mobility || back.pieces.len() != manifest.pieces.len() {
        return Err(RulesError::invalid(
            file,
            "mobility",
            format!("could not be set to {mobility}"),
        ));
    }
    Ok(out)
}

/// Where a key of the top-level object starts (its opening quote), if it is there: the first
/// `"key"` at nesting depth 1 outside strings.
fn find_top_key(text: &str, key: &str) -> Option<usize> {
    let quoted = format!("\"{key}\"");
    let bytes = text.as_bytes();
    let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            match b {
                b'{' | b'[' => depth += 1,
                b'}' | b']' => depth -= 1,
                b'"' => {
                    if depth == 1 && text[i..].starts_with(&quoted) {
                        return Some(i);
                    }
                    in_string = true;
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

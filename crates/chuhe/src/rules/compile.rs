//! From rule files to tables: the manifest and the GGN table are checked against each other
//! and the GGN's per-square possibilities become precomputed destination entries — a step,
//! leap or slide is one entry with the squares that must be empty between (`between`), a
//! cannon's capture one entry whose `between` must hold exactly one piece — so that move
//! generation tests masks and never reads GGN conditions. What fits neither shape (an exact
//! piece required on a square, say) is kept as masks per possibility ([`Poss`]).

use chuhe_notation::ggn::{Condition, Ggn, Possibility};
use chuhe_notation::{Cell, Feen, Pin, Qpi, Side, Sin};

use super::bits::Bits;
use super::manifest::{Facing, Insufficient, Manifest, Repetition, Reset};
use super::RulesError;

/// The most squares a board may have (12 × 12).
pub const MAX_SQUARES: usize = 144;
/// `NO_SQUARE` in the face ↔ board index tables.
pub(crate) const OFF: u8 = u8::MAX;

/// A piece kind of a compiled game: one side's piece. Kind `k` is role `k / 2` of side
/// `k % 2` (first, second).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindInfo {
    /// Its owner.
    pub side: Side,
    /// Its role: the index of its piece in the manifest.
    pub role: usize,
    /// Its PIN.
    pub pin: Pin,
    /// Its QPI (style and PIN), as GGN names it.
    pub qpi: Qpi,
    /// Is it royal?
    pub royal: bool,
    /// Its value for the evaluation.
    pub value: i32,
    /// Its FEN letter, in its side's case.
    pub fen: Option<char>,
    /// Is its FEN token `+` and the letter (a promoted shogi piece)?
    pub fen_plus: bool,
    /// The character drawn for it in Chinese glyphs.
    pub chinese: char,
}

/// A promotion rule compiled: for the piece kind that promotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Promo {
    /// Board indices where a move of the piece promotes.
    pub zone: Vec<bool>,
    /// The kinds it may become, in choice order.
    pub into: Vec<u8>,
    /// May it stay as it is (choice 0)?
    pub optional: bool,
    /// Does a move from the zone promote too?
    pub from_zone: bool,
}

/// A drop rule compiled, for one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DropRule {
    /// The kind dropped (the side's own), as it is held in the hand.
    pub kind: u8,
    /// Board indices where it may be dropped: the zone, where the kind can stand.
    pub squares: Vec<bool>,
    /// Not on a file holding a piece of this kind already.
    pub no_doubled: bool,
    /// May the drop checkmate?
    pub may_checkmate: bool,
}

/// What every width of a compiled game shares.
#[derive(Debug)]
pub struct Info {
    /// The manifest.
    pub manifest: Manifest,
    /// The game's name (for the registry).
    pub name: &'static str,
    /// The GGN table as read.
    pub ggn: Ggn,
    /// Files.
    pub files: u8,
    /// Ranks.
    pub ranks: u8,
    /// The kinds: `2 × pieces`.
    pub kinds: Vec<KindInfo>,
    /// The start position.
    pub start: Feen,
    /// The choices of a move between two squares: 1 (no promotion, or the first choice of
    /// a compulsory one) plus the most pieces a promotion may give (`Move::choice_index` is
    /// below it).
    pub choices: usize,
    pub(crate) squares: usize,
    pub(crate) styles: [Sin; 2],
    /// Face index (`rank × 12 + file`) → board index (`rank × files + file`), [`OFF`] off the board.
    pub(crate) face_to_bit: [u8; MAX_SQUARES],
    /// Board index → face index.
    pub(crate) bit_to_face: Vec<u8>,
    /// Per kind: its promotion, if any.
    pub(crate) promos: Vec<Option<Promo>>,
    /// Per kind: the kind it turns into when the royals face each other (X3), if any.
    pub(crate) transform: Vec<Option<u8>>,
    /// Per kind: does its move reset the move limit?
    pub(crate) resets: Vec<bool>,
    /// Per kind: the kind it becomes in the capturer's hand (demoted, and of the capturer's
    /// side when captures join).
    pub(crate) demote: Vec<u8>,
    /// Per side, the drop rules in the manifest's order (the drop's choice is the index + 1).
    pub(crate) drops: [Vec<DropRule>; 2],
    /// Per kind × count in the hand (up to [`HAND_KEYS`]): Zobrist keys, for games with drops.
    pub(crate) hand_zobrist: Vec<u64>,
    /// Does a capture reset the move limit?
    pub(crate) reset_capture: bool,
    /// Per kind: is it one of the insufficient-material rule's pieces?
    pub(crate) attacker: Vec<bool>,
    /// Per kind × board index: may the kind stand there (a source of its GGN entry)?
    pub(crate) stands: Vec<bool>,
    /// Per kind × board index: Zobrist keys; then the side-to-move key.
    pub(crate) zobrist: Vec<u64>,
    pub(crate) side_key: u64,
}

/// Hand counts with a Zobrist key of their own; higher counts share the last one (the
/// identity test still tells them apart).
pub(crate) const HAND_KEYS: usize = 32;

fn ggn_error(file: &str, key: String, message: impl Into<String>) -> RulesError {
    RulesError::invalid(file, &key, message)
}

impl Info {
    pub(crate) fn new(
        manifest: Manifest,
        manifest_file: &str,
        ggn_file: &str,
        ggn_text: &str,
    ) -> Result<Info, RulesError> {
        let ggn = Ggn::from_json(ggn_text).map_err(|e| RulesError {
            file: ggn_file.to_string(),
            key: String::new(),
            problem: super::RulesProblem::NotJson(e.to_string()),
        })?;
        let files = manifest.board.files;
        let ranks = manifest.board.ranks;
        let squares = usize::from(files) * usize::from(ranks);
        let start = Feen::parse(&manifest.start)
            .map_err(|e| RulesError::invalid(manifest_file, "start", e.to_string()))?;
        if (start.placement.width(), start.placement.height())
            != (u16::from(files), u16::from(ranks))
        {
            return Err(RulesError::invalid(
                manifest_file,
                "start",
                format!(
                    "the board is {}x{}, the manifest's board {files}x{ranks}",
                    start.placement.width(),
                    start.placement.height()
                ),
            ));
        }
        let styles = [
            start.style_turn.first_style(),
            start.style_turn.second_style(),
        ];
        let mut kinds = Vec::new();
        for (role, p) in manifest.pieces.iter().enumerate() {
            for side in Side::BOTH {
                let pin = p.pin.with_side(side);
                kinds.push(KindInfo {
                    side,
                    role,
                    pin,
                    qpi: Qpi {
                        sin: styles[side.index()],
                        pin,
                    },
                    royal: p.royal,
                    value: p.value,
                    fen: p.fen.map(|c| match side {
                        Side::First => c.to_ascii_uppercase(),
                        Side::Second => c,
                    }),
                    fen_plus: p.fen_plus,
                    chinese: p.chinese.map_or_else(|| pin.letter(), |c| c[side.index()]),
                });
            }
        }
        let kind_of = |pin: Pin| kinds.iter().position(|k| k.pin == pin).map(|k| k as u8);
        let mut face_to_bit = [OFF; MAX_SQUARES];
        let mut bit_to_face = vec![0u8; squares];
        for r in 0..usize::from(ranks) {
            for f in 0..usize::from(files) {
                let bit = r * usize::from(files) + f;
                face_to_bit[r * 12 + f] = bit as u8;
                bit_to_face[bit] = (r * 12 + f) as u8;
            }
        }
        let mirror = |c: Cell, side: Side| match side {
            Side::First => c,
            Side::Second => Cell::new(c.file(), u16::from(ranks) - 1 - c.rank()),
        };
        let bit_of = |c: Cell| usize::from(c.rank()) * usize::from(files) + usize::from(c.file());

        let mut promos = vec![None; kinds.len()];
        for (i, spec) in manifest.promotions.iter().enumerate() {
            for side in Side::BOTH {
                let k = kind_of(spec.piece.with_side(side)).unwrap_or(0) as usize;
                if promos[k].is_some() {
                    return Err(RulesError::invalid(
                        manifest_file,
                        &format!("promotion[{i}].piece"),
                        format!("{} already has a promotion rule", spec.piece),
                    ));
                }
                let mut zone = vec![false; squares];
                for &c in &spec.zone {
                    zone[bit_of(mirror(c, side))] = true;
                }
                let into = spec
                    .into
                    .iter()
                    .map(|p| kind_of(p.with_side(side)).unwrap_or(0))
                    .collect();
                promos[k] = Some(Promo {
                    zone,
                    into,
                    optional: spec.optional,
                    from_zone: spec.from_zone,
                });
            }
        }
        let mut transform = vec![None; kinds.len()];
        if let Facing::Transform(pairs) = &manifest.royal.facing {
            for &(a, b) in pairs {
                for side in Side::BOTH {
                    if let (Some(ka), Some(kb)) =
                        (kind_of(a.with_side(side)), kind_of(b.with_side(side)))
                    {
                        transform[ka as usize] = Some(kb);
                    }
                }
            }
        }
        let mut demote: Vec<u8> = (0..kinds.len() as u8).collect();
        for &(a, b) in &manifest.demote {
            for side in Side::BOTH {
                if let (Some(ka), Some(kb)) =
                    (kind_of(a.with_side(side)), kind_of(b.with_side(side)))
                {
                    demote[ka as usize] = kb;
                }
            }
        }
        if manifest.join {
            // Kinds alternate by side (`role × 2 + side`): the capturer's is the other one.
            for d in &mut demote {
                *d ^= 1;
            }
        }
        let mut resets = vec![false; kinds.len()];
        let mut reset_capture = false;
        if let Some(limit) = &manifest.session.move_limit {
            for r in &limit.reset {
                match r {
                    Reset::Capture => reset_capture = true,
                    Reset::Piece(p) => {
                        for side in Side::BOTH {
                            if let Some(k) = kind_of(p.with_side(side)) {
                                resets[k as usize] = true;
                            }
                        }
                    }
                }
            }
        }
        let mut attacker = vec![false; kinds.len()];
        if let Some(Insufficient::NoneOf(pins)) = &manifest.session.insufficient {
            for p in pins {
                for side in Side::BOTH {
                    if let Some(k) = kind_of(p.with_side(side)) {
                        attacker[k as usize] = true;
                    }
                }
            }
        }

        // The GGN table against the manifest: every key a known piece of the game's styles,
        // every square on the board, every destination conditioned.
        let mut stands = vec![false; kinds.len() * squares];
        for (qpi, sources) in &ggn.0 {
            let key = qpi.to_string();
            let side = qpi.side();
            if qpi.sin != styles[side.index()] {
                return Err(ggn_error(
                    ggn_file,
                    key,
                    format!(
                        "style {} is not this game's ({}/{})",
                        qpi.sin, styles[0], styles[1]
                    ),
                ));
            }
            let Some(k) = kind_of(qpi.pin) else {
                return Err(ggn_error(
                    ggn_file,
                    key,
                    format!("{} is not a piece of the manifest", qpi.pin),
                ));
            };
            for (from, dests) in sources {
                let on_board = |c: Cell| c.file() < u16::from(files) && c.rank() < u16::from(ranks);
                if !on_board(*from) {
                    return Err(ggn_error(
                        ggn_file,
                        format!("{key}.{from}"),
                        format!("square {from} is off the {files}x{ranks} board"),
                    ));
                }
                stands[k as usize * squares + bit_of(*from)] = true;
                for (to, possibilities) in dests {
                    let path = format!("{key}.{from}.{to}");
                    if !on_board(*to) {
                        return Err(ggn_error(
                            ggn_file,
                            path,
                            format!("square {to} is off the {files}x{ranks} board"),
                        ));
                    }
                    if to == from {
                        return Err(ggn_error(
                            ggn_file,
                            path,
                            "a piece cannot move to its own square",
                        ));
                    }
                    for p in possibilities {
                        for (cell, cond) in p.must.iter().chain(p.deny.iter()) {
                            if !on_board(cell) {
                                return Err(ggn_error(
                                    ggn_file,
                                    path.clone(),
                                    format!("condition on {cell}, off the {files}x{ranks} board"),
                                ));
                            }
                            if let Condition::Piece(q) = cond {
                                if kinds.iter().all(|k| k.qpi != q) {
                                    return Err(ggn_error(
                                        ggn_file,
                                        path.clone(),
                                        format!("condition names {q}, not a piece of this game"),
                                    ));
                                }
                            }
                        }
                        match p.must.get(to) {
                            Some(Condition::Empty) | Some(Condition::Enemy) => {}
                            Some(Condition::Piece(q)) if q.side() != side => {}
                            _ => return Err(ggn_error(
                                ggn_file,
                                path,
                                "the destination must be required empty, enemy or an enemy piece",
                            )),
                        }
                    }
                }
            }
        }
        // Every piece of the start position, and every promotion's result, is moved by GGN.
        for (cell, epin) in start.placement.iter() {
            let Some(k) = kind_of(epin.pin) else {
                return Err(RulesError::invalid(
                    manifest_file,
                    "start",
                    format!("{} on {cell} is not a piece of the manifest", epin.pin),
                ));
            };
            if epin.derived || !ggn.0.contains_key(&kinds[k as usize].qpi) {
                return Err(RulesError::invalid(
                    manifest_file,
                    "start",
                    format!(
                        "{} on {cell}: no entry of {ggn_file} moves it ({})",
                        epin.pin, kinds[k as usize].qpi
                    ),
                ));
            }
        }
        for (i, spec) in manifest.promotions.iter().enumerate() {
            for side in Side::BOTH {
                for p in &spec.into {
                    let q = Qpi {
                        sin: styles[side.index()],
                        pin: p.with_side(side),
                    };
                    if !ggn.0.contains_key(&q) {
                        return Err(RulesError::invalid(
                            manifest_file,
                            &format!("promotion[{i}].into"),
                            format!("no entry of {ggn_file} moves {q}"),
                        ));
                    }
                }
                // The 16-bit move code holds the first choice of a promotion from any square
                // to any, and the others for a step of at most two files and ranks.
                if spec.into.len() == 1 {
                    continue;
                }
                let q = Qpi {
                    sin: styles[side.index()],
                    pin: spec.piece.with_side(side),
                };
                for (from, dests) in ggn.0.get(&q).into_iter().flatten() {
                    for to in dests.keys() {
                        let far = (i32::from(to.file()) - i32::from(from.file())).abs() > 2
                            || (i32::from(to.rank()) - i32::from(from.rank())).abs() > 2;
                        if far {
                            return Err(RulesError::invalid(
                                manifest_file,
                                &format!("promotion[{i}].piece"),
                                format!(
                                    "{q} moves {from}-{to}: a piece with more than one promotion choice may move at most two files and two ranks"
                                ),
                            ));
                        }
                    }
                }
            }
        }
        if let Repetition::Fold { chase: true, .. } = manifest.session.repetition {
            let xiangqi = ["R", "H", "E", "A", "G^", "C", "S", "+S"];
            if manifest
                .pieces
                .iter()
                .any(|p| !xiangqi.contains(&p.pin.to_string().as_str()))
            {
                return Err(RulesError::invalid(
                    manifest_file,
                    "session.repetition.chase",
                    "the axf chase rule is Xiangqi's: only Xiangqi's pieces (R H E A G^ C S +S)",
                ));
            }
        }

        let mut state = 0x6368_7568_6521_0047u64 ^ (squares as u64);
        let mut zobrist = Vec::with_capacity(kinds.len() * squares);
        for _ in 0..kinds.len() * squares + 1 {
            let (s, k) = crate::zobrist::splitmix64(state);
            state = s;
            zobrist.push(k);
        }
        let side_key = zobrist.pop().unwrap_or(1);
        let mut hand_zobrist = Vec::new();
        if !manifest.drops.is_empty() {
            for _ in 0..kinds.len() * HAND_KEYS {
                let (s, k) = crate::zobrist::splitmix64(state);
                state = s;
                hand_zobrist.push(k);
            }
        }
        let mut drops = [Vec::new(), Vec::new()];
        for spec in &manifest.drops {
            for side in Side::BOTH {
                let kind = kind_of(spec.piece.with_side(side)).unwrap_or(0);
                let mut allowed = vec![spec.zone.is_none(); squares];
                for &c in spec.zone.iter().flatten() {
                    allowed[bit_of(mirror(c, side))] = true;
                }
                for (bit, a) in allowed.iter_mut().enumerate() {
                    *a &= stands[usize::from(kind) * squares + bit];
                }
                drops[side.index()].push(DropRule {
                    kind,
                    squares: allowed,
                    no_doubled: spec.no_doubled,
                    may_checkmate: spec.may_checkmate,
                });
            }
        }
        let name: &'static str = Box::leak(manifest.name.clone().into_boxed_str());
        let choices = 1 + promos
            .iter()
            .flatten()
            .map(|p| p.into.len())
            .max()
            .unwrap_or(0)
            .max(manifest.drops.len());
        Ok(Info {
            manifest,
            name,
            ggn,
            files,
            ranks,
            kinds,
            start,
            choices,
            squares,
            styles,
            face_to_bit,
            bit_to_face,
            promos,
            transform,
            demote,
            drops,
            hand_zobrist,
            resets,
            reset_capture,
            attacker,
            stands,
            zobrist,
            side_key,
        })
    }

    /// The kind of a PIN, if the game has it.
    pub(crate) fn kind_of(&self, pin: Pin) -> Option<u8> {
        self.kinds
            .iter()
            .position(|k| k.pin == pin)
            .map(|k| k as u8)
    }

    /// Board index of a cell.
    pub(crate) fn bit_of(&self, c: Cell) -> Option<usize> {
        (c.file() < u16::from(self.files) && c.rank() < u16::from(self.ranks))
            .then(|| usize::from(c.rank()) * usize::from(self.files) + usize::from(c.file()))
    }

    /// The cell of a board index.
    pub(crate) fn cell_of(&self, bit: usize) -> Cell {
        let files = usize::from(self.files);
        Cell::new((bit % files) as u16, (bit / files) as u16)
    }
}

/// Flags of a destination entry.
pub(crate) const QUIET: u8 = 1;
pub(crate) const CAPTURE: u8 = 2;
pub(crate) const HOP: u8 = 4;

/// A destination of a piece from a square: onto an empty square (`QUIET`) or an enemy
/// (`CAPTURE`) when `between` is empty, or onto an enemy when `between` holds exactly one
/// piece (`HOP`, a cannon's capture).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dest<B> {
    pub to: u8,
    pub flags: u8,
    pub between: B,
}

/// One GGN possibility as masks, for destinations that are not steps, slides or hops.
#[derive(Clone, Debug)]
pub(crate) struct Poss<B> {
    pub must_empty: B,
    pub must_occupied: B,
    pub must_enemy: B,
    pub deny_enemy: B,
    /// (board index, kind + 1): that kind must stand there.
    pub must_piece: Vec<(u8, u8)>,
    /// (board index, kind + 1): that kind must not.
    pub deny_piece: Vec<(u8, u8)>,
}

/// A destination whose possibilities are kept as masks.
#[derive(Clone, Debug)]
pub(crate) struct Fallback {
    pub to: u8,
    pub start: u32,
    pub len: u16,
}

/// Where the entries of one piece kind on one square are.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Slot {
    pub dest_start: u32,
    pub dest_len: u16,
    pub fb_start: u32,
    pub fb_len: u16,
}

/// A game compiled for one square-set width.
#[derive(Debug)]
pub struct Compiled<B: Bits> {
    /// What every width shares.
    pub info: Info,
    pub(crate) slots: Vec<Slot>,
    pub(crate) dests: Vec<Dest<B>>,
    pub(crate) fallbacks: Vec<Fallback>,
    pub(crate) poss: Vec<Poss<B>>,
    /// Per kind × target square: the squares from which that kind may reach the target.
    pub(crate) reverse: Vec<B>,
    /// Per target square: the union over kinds.
    pub(crate) reverse_any: Vec<B>,
    /// Per target square: every square whose contents could decide whether some piece
    /// reaches the target (the squares it may come from, and every square one of its ways
    /// there looks at). A move that touches none of them leaves the target's attackers as
    /// they were.
    pub(crate) guard: Vec<B>,
}

/// One possibility in normal form: squares that must be empty besides the destination
/// (`empty`), squares that must be occupied (`occupied`), and the destination's condition;
/// `None` when it has any other condition.
fn normal<B: Bits>(info: &Info, p: &Possibility, to: Cell) -> Option<(B, B, Condition)> {
    let mut empty = B::EMPTY;
    let mut occupied = B::EMPTY;
    let mut last = None;
    for (cell, cond) in p.must.iter() {
        if cell == to {
            last = Some(cond);
        } else if cond == Condition::Empty {
            empty.set(info.bit_of(cell)?);
        } else {
            return None;
        }
    }
    for (cell, cond) in p.deny.iter() {
        if cell != to && cond == Condition::Empty {
            occupied.set(info.bit_of(cell)?);
        } else {
            return None;
        }
    }
    match last? {
        c @ (Condition::Empty | Condition::Enemy) => Some((empty, occupied, c)),
        Condition::Piece(_) => None,
    }
}

impl<B: Bits> Compiled<B> {
    pub(crate) fn new(info: Info, _ggn_file: &str) -> Result<Compiled<B>, RulesError> {
        let squares = info.squares;
        let mut slots = vec![Slot::default(); info.kinds.len() * squares];
        let mut dests = Vec::new();
        let mut fallbacks = Vec::new();
        let mut poss = Vec::new();
        let mut reverse = vec![B::EMPTY; info.kinds.len() * squares];
        let mut reverse_any = vec![B::EMPTY; squares];
        let mut guard = vec![B::EMPTY; squares];
        for (k, kind) in info.kinds.iter().enumerate() {
            let Some(sources) = info.ggn.0.get(&kind.qpi) else {
                continue;
            };
            for (from, targets) in sources {
                let Some(from_bit) = info.bit_of(*from) else {
                    continue;
                };
                let slot = &mut slots[k * squares + from_bit];
                slot.dest_start = dests.len() as u32;
                slot.fb_start = fallbacks.len() as u32;
                for (to, possibilities) in targets {
                    let Some(to_bit) = info.bit_of(*to) else {
                        continue;
                    };
                    reverse[k * squares + to_bit].set(from_bit);
                    reverse_any[to_bit].set(from_bit);
                    guard[to_bit].set(from_bit);
                    if let Some(entries) = shapes::<B>(&info, possibilities, *to) {
                        for (flags, between) in entries {
                            guard[to_bit] = guard[to_bit].or(between);
                            dests.push(Dest {
                                to: to_bit as u8,
                                flags,
                                between,
                            });
                        }
                    } else {
                        let start = poss.len() as u32;
                        for p in possibilities {
                            let m = masks::<B>(&info, p, kind.side);
                            let mut seen = m
                                .must_empty
                                .or(m.must_occupied)
                                .or(m.must_enemy)
                                .or(m.deny_enemy);
                            for &(bit, _) in m.must_piece.iter().chain(&m.deny_piece) {
                                seen.set(usize::from(bit));
                            }
                            guard[to_bit] = guard[to_bit].or(seen);
                            poss.push(m);
                        }
                        fallbacks.push(Fallback {
                            to: to_bit as u8,
                            start,
                            len: possibilities.len() as u16,
                        });
                    }
                }
                slot.dest_len = (dests.len() as u32 - slot.dest_start) as u16;
                slot.fb_len = (fallbacks.len() as u32 - slot.fb_start) as u16;
            }
        }
        Ok(Compiled {
            info,
            slots,
            dests,
            fallbacks,
            poss,
            reverse,
            reverse_any,
            guard,
        })
    }
}

/// A destination's possibilities as entries (flags, between), when every one is a plain
/// step or slide (`between` empty) or a hop (every square of `between` in turn the one
/// occupied); `None` otherwise.
fn shapes<B: Bits>(info: &Info, possibilities: &[Possibility], to: Cell) -> Option<Vec<(u8, B)>> {
    let mut plain: Vec<(u8, B)> = Vec::new();
    let mut hops: Vec<(B, B)> = Vec::new(); // (all squares between, the screen)
    for p in possibilities {
        let (empty, occupied, cond) = normal::<B>(info, p, to)?;
        if occupied.is_empty() {
            let flag = if cond == Condition::Empty {
                QUIET
            } else {
                CAPTURE
            };
            match plain.iter_mut().find(|(_, b)| *b == empty) {
                Some(e) => e.0 |= flag,
                None => plain.push((flag, empty)),
            }
        } else if occupied.count() == 1
            && cond == Condition::Enemy
            && empty.and(occupied).is_empty()
        {
            hops.push((empty.or(occupied), occupied));
        } else {
            return None;
        }
    }
    let mut out = plain;
    let mut groups: Vec<(B, B)> = Vec::new(); // (between, screens seen)
    for (all, screen) in hops {
        match groups.iter_mut().find(|(b, _)| *b == all) {
            Some(g) => g.1 = g.1.or(screen),
            None => groups.push((all, screen)),
        }
    }
    for (between, screens) in groups {
        if screens != between {
            return None;
        }
        out.push((HOP, between));
    }
    Some(out)
}

fn masks<B: Bits>(info: &Info, p: &Possibility, side: Side) -> Poss<B> {
    let mut out = Poss {
        must_empty: B::EMPTY,
        must_occupied: B::EMPTY,
        must_enemy: B::EMPTY,
        deny_enemy: B::EMPTY,
        must_piece: Vec::new(),
        deny_piece: Vec::new(),
    };
    let _ = side;
    for (must, conds) in [(true, &p.must), (false, &p.deny)] {
        for (cell, cond) in conds.iter() {
            let Some(bit) = info.bit_of(cell) else {
                continue;
            };
            match (must, cond) {
                (true, Condition::Empty) => out.must_empty.set(bit),
                (false, Condition::Empty) => out.must_occupied.set(bit),
                (true, Condition::Enemy) => out.must_enemy.set(bit),
                (false, Condition::Enemy) => out.deny_enemy.set(bit),
                (m, Condition::Piece(q)) => {
                    let kind = info.kinds.iter().position(|k| k.qpi == q).unwrap_or(0) as u8 + 1;
                    if m {
                        out.must_piece.push((bit as u8, kind));
                    } else {
                        out.deny_piece.push((bit as u8, kind));
                    }
                }
            }
        }
    }
    out
}

//! XQF: the binary Xiangqi records of XQStudio (象棋演播室), the format of many Chinese game
//! archives. [`read`] turns a file's bytes into an [`XqfGame`]: its header, its start position
//! (any setup), its main line checked move by move by chuhe's rules, its comments, and its
//! variations; [`XqfGame::to_pcn`] writes it as a PCN record the way [`crate::pgn::to_pcn`]
//! does for PGN.
//!
//! The layout read here is the one XQStudio's author published for XQF 1.0 and the reading
//! of the later, encrypted versions in the public descriptions of the format:
//!
//! - **Header** (1024 bytes): `XQ` and the version at byte 2; the 32 piece places at `0x10`
//!   (red R N B A K A B N R C C P P P P P, then black's in the same order; a place is one
//!   byte `x·10 + y`, `x` the file from Red's left, `y` the rank from Red's side; 90 and above
//!   means off the board); the result at `0x33` (0 unknown, 1 Red won, 2 Black won, 3 or 4
//!   a draw); the record's kind at `0x40`; length-prefixed GB18030 texts: title `0x50`,
//!   event `0xD0`, date `0x110`, site `0x120`, Red `0x130`, Black `0x140`, time rule `0x150`,
//!   Red's time `0x190`, Black's time `0x1A0`, annotator `0x1D0`, author `0x1E0`.
//! - **Versions 1–10** (10 is XQF 1.0), not encrypted: from `0x400`, each record is 4 bytes
//!   (origin + 24, destination + 32, a tag, a reserved byte) and a 32-bit little-endian
//!   comment length, then the comment. A tag with any of its high four bits set has a next
//!   move; any of its low four, a variation after it.
//! - **Versions 11–18**: bytes 12–15 of the header are keys. Piece places are shifted by a
//!   key (and from version 12 also rotated), move squares by two more, and everything from
//!   `0x400` on is shifted by a 32-byte key stream (the key bytes masked with the string
//!   `[(C) Copyright Mr. Dong Shiwei.]`). A record is 4 bytes; tag bit `0x80` says a next
//!   move follows, `0x40` a variation, `0x20` that a 32-bit comment length (offset by a key)
//!   and the comment follow.
//!
//! The records form a tree written depth first: the first record is the position before the
//! first move (its comment comes before the first move); a record's next move is its first
//! child, and a variation is the next sibling, written after the whole subtree of the record
//! it replaces. The **main line** is the chain of first children. Each variation is kept, as
//! PGN keeps it: movetext in SAN (with its comments and nested variations) in the
//! [`Note`] of the main-line move it replaces; its moves are checked legal
//! on their positions (the history rules, repetitions, are applied to the main line only).
//!
//! The side to move first is the side of the piece the first move moves (Red when there is
//! no move). Piece places are read whatever the record's kind says. The tree must end where
//! the file ends: bytes after its last record are an error, not left unread.
//!
//! Every malformed file is an [`XqfError`] saying where (the byte offset): never a panic.
//!
//! ```
//! // A 1.0 file of the start position and one move, 兵七进一 (c4c5), built by hand.
//! let mut bytes = vec![0u8; 0x400];
//! bytes[..3].copy_from_slice(b"XQ\x0a");
//! let places = [
//!     80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, //
//!     9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86,
//! ];
//! bytes[0x10..0x30].copy_from_slice(&places);
//! bytes.extend([0x18, 0x20, 0xf0, 0xff, 0, 0, 0, 0]); // before the first move
//! bytes.extend([23 + 24, 24 + 32, 0x00, 0, 0, 0, 0, 0]); // c4c5, the last move
//! let game = chuhe::xqf::read(&bytes).unwrap();
//! assert_eq!(game.record.game.moves_uci(), ["c4c5"]);
//! assert!(game.start_fen.starts_with("rnbakabnr/9/1c5c1/p1p1p1p1p/"));
//! ```

use crate::pgn::{Note, PgnGame};
use crate::xiangqi::{Position, RuleSet};
use crate::{GameKind, GamePosition, MoveNotation, Side};

/// The header's length; the records start after it.
const HEADER_LEN: usize = 0x400;
/// The string the key stream of versions 11 and later is masked with.
const KEY_STREAM_MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
/// The deepest nesting of variations read (a variation inside a variation … ).
pub const MAX_VARIATION_DEPTH: usize = 100;
/// The newest version read.
pub const NEWEST_VERSION: u8 = 18;

/// Why bytes are not an XQF record. Offsets count from the file's first byte.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XqfError {
    /// Fewer bytes than the 1024-byte header.
    #[error("XQF: the file has {len} bytes, fewer than the 1024 of the header")]
    ShortHeader {
        /// The file's length.
        len: usize,
    },
    /// The file does not start with `XQ`.
    #[error("XQF byte 0: the file does not start with the signature 'XQ'")]
    Signature,
    /// A version this reader does not know.
    #[error("XQF byte 2: version {version} is not read (versions 1 to 18 are: 10 is XQF 1.0, 11 to 18 are encrypted)")]
    Version {
        /// The version byte.
        version: u8,
    },
    /// A header field that cannot be read.
    #[error("XQF byte {offset:#06x}: {message}")]
    Header {
        /// Where.
        offset: usize,
        /// What is wrong.
        message: String,
    },
    /// A move record's square is not on the board.
    #[error("XQF byte {offset:#06x}: the {which} of a move is byte value {value}, not a board point (0 to 89 once decoded)")]
    BadSquare {
        /// Where.
        offset: usize,
        /// `origin` or `destination`.
        which: &'static str,
        /// The decoded value.
        value: u8,
    },
    /// The file ends inside a move record (or its comment length).
    #[error("XQF byte {offset:#06x}: the file ends inside a move record ({needed} bytes needed, {left} left)")]
    TruncatedMove {
        /// Where the record (or its part) starts.
        offset: usize,
        /// Bytes the record needs here.
        needed: usize,
        /// Bytes left in the file.
        left: usize,
    },
    /// A comment length that cannot be right.
    #[error(
        "XQF byte {offset:#06x}: comment length {length} but {left} bytes are left in the file"
    )]
    CommentLength {
        /// Where the length is.
        offset: usize,
        /// The length, decoded (negative when the key is larger than the stored value).
        length: i64,
        /// Bytes left after it.
        left: usize,
    },
    /// A text (header field or comment) that is not GB18030.
    #[error("XQF byte {offset:#06x}: the {field} is not GB18030 text")]
    Text {
        /// Where the text starts.
        offset: usize,
        /// Which text.
        field: String,
    },
    /// The pieces do not make a valid Xiangqi position.
    #[error("XQF: the start position {fen} is not valid: {message}")]
    Position {
        /// The position the piece places give.
        fen: String,
        /// Why it is refused.
        message: String,
    },
    /// Two pieces on one point.
    #[error(
        "XQF byte {offset:#06x}: a piece is placed on {square}, where another piece already stands"
    )]
    SharedSquare {
        /// Where the second piece's place is.
        offset: usize,
        /// The point, in coordinates (`e1`).
        square: String,
    },
    /// A move the rules refuse.
    #[error("XQF byte {offset:#06x}: illegal move {uci} at ply {ply}{}: {message}", if *in_variation { " of a variation" } else { "" })]
    Move {
        /// Where its record is.
        offset: usize,
        /// Its ply, from 1 (counted from the start position).
        ply: usize,
        /// Whether it is in a variation rather than the main line.
        in_variation: bool,
        /// The move in coordinates.
        uci: String,
        /// Why it is refused.
        message: String,
    },
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`].
    #[error("XQF byte {offset:#06x}: variations nested more than {MAX_VARIATION_DEPTH} deep")]
    TooDeep {
        /// Where the record that goes too deep is.
        offset: usize,
    },
    /// Bytes after the last record of the tree.
    #[error("XQF byte {offset:#06x}: {len} bytes after the last move record of the tree (its records say no more follow)")]
    TrailingBytes {
        /// Where they start.
        offset: usize,
        /// How many.
        len: usize,
    },
    /// The header's result and the game disagree.
    #[error("XQF: {0}")]
    Result(String),
}

/// The texts and numbers of an XQF header (texts empty where the file leaves them empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct XqfHeader {
    /// The title (`0x50`).
    pub title: String,
    /// The event (`0xD0`).
    pub event: String,
    /// The date, as written (`0x110`).
    pub date: String,
    /// The site (`0x120`).
    pub site: String,
    /// Red's player (`0x130`).
    pub red: String,
    /// Black's player (`0x140`).
    pub black: String,
    /// The time rule (`0x150`).
    pub time_rule: String,
    /// Red's time (`0x190`).
    pub red_time: String,
    /// Black's time (`0x1A0`).
    pub black_time: String,
    /// The annotator (`0x1D0`).
    pub annotator: String,
    /// The file's author (`0x1E0`).
    pub author: String,
    /// The result byte (`0x33`): `Some(Some(side))` a win, `Some(None)` a draw, `None`
    /// unknown.
    pub result: Option<Option<Side>>,
    /// The record's kind (`0x40`): 0 a whole game, 1 an opening, 2 a middle game, 3 an
    /// endgame.
    pub kind: u8,
}

/// An XQF record read: its version, header, start position, and the game as PGN holds it.
pub struct XqfGame {
    /// The version byte.
    pub version: u8,
    /// The header.
    pub header: XqfHeader,
    /// The start position as FEN.
    pub start_fen: String,
    /// The main line as a game with its tags (`Event`, `Site`, `Date`, `White` (Red),
    /// `Black`, `Result`, and `Title`, `TimeRule`, `RedTime`, `BlackTime`, `Annotator`,
    /// `Author` where given), its comments and its variations (SAN movetext) as notes.
    pub record: PgnGame,
    /// How many variations the tree holds (each kept in [`record`](Self::record)'s notes).
    pub variations: usize,
}

impl XqfGame {
    /// The PCN record: as [`crate::pgn::to_pcn`] writes the game read from PGN (comments and
    /// variations under `meta.annotations`, the other tags under `meta.pgn`).
    pub fn to_pcn(&self) -> chuhe_notation::pcn::Pcn {
        crate::pgn::to_pcn(&self.record)
    }
}

/// One record of the tree.
struct Node {
    /// Where its record starts.
    offset: usize,
    /// Origin and destination, 0–89 (`x·10 + y`); unused for the root.
    from: u8,
    to: u8,
    comment: Option<String>,
    /// The record before it (the root is its own).
    parent: usize,
    children: Vec<usize>,
    /// Plies from the start position (the root is 0).
    ply: usize,
}

/// The keys of the encrypted versions (all zero before version 11).
#[derive(Default)]
struct Keys {
    places: u8,
    origin: u8,
    destination: u8,
    comment_length: u32,
    stream: [u8; 32],
}

impl Keys {
    fn of(header: &[u8], version: u8) -> Keys {
        if version < 11 {
            return Keys::default();
        }
        let square = |b: u8| (54 * u32::from(b) * u32::from(b) + 221) & 0xff;
        let places = (square(header[13]) * u32::from(header[13])) & 0xff;
        let origin = (square(header[14]) * places) & 0xff;
        let destination = (square(header[15]) * origin) & 0xff;
        let comment_length = (u32::from(header[12]) * 256 + u32::from(header[13])) % 32000 + 767;
        let mask = header[3];
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            let key = header[8 + i % 4] | (header[12 + i % 4] & mask);
            *s = KEY_STREAM_MASK[i] & key;
        }
        Keys {
            places: places as u8,
            origin: origin as u8,
            destination: destination as u8,
            comment_length,
            stream,
        }
    }
}

/// Reads the records after the header, decoding them.
struct Records<'a> {
    bytes: &'a [u8],
    at: usize,
    keys: &'a Keys,
}

impl Records<'_> {
    /// `n` bytes at the cursor, decoded, or how many are left.
    fn take(&mut self, n: usize) -> Result<Vec<u8>, usize> {
        let left = self.bytes.len() - self.at;
        if left < n {
            return Err(left);
        }
        let out = (self.at..self.at + n)
            .map(|i| self.bytes[i].wrapping_sub(self.keys.stream[(i - HEADER_LEN) % 32]))
            .collect();
        self.at += n;
        Ok(out)
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }
}

/// One record as read: its squares (raw, before the square keys), flags and comment.
struct RawRecord {
    offset: usize,
    from: u8,
    to: u8,
    next: bool,
    variation: bool,
    comment: Option<String>,
}

fn read_record(records: &mut Records, version: u8) -> Result<RawRecord, XqfError> {
    let offset = records.at;
    let truncated = |offset: usize, needed: usize| {
        move |left: usize| XqfError::TruncatedMove {
            offset,
            needed,
            left,
        }
    };
    let head = records.take(4).map_err(truncated(offset, 4))?;
    let tag = head[2];
    let (next, variation, length) = if version <= 10 {
        let at = records.at;
        let raw = records.take(4).map_err(truncated(at, 4))?;
        let length = u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]);
        (tag & 0xf0 != 0, tag & 0x0f != 0, i64::from(length))
    } else if tag & 0x20 != 0 {
        let at = records.at;
        let raw = records.take(4).map_err(truncated(at, 4))?;
        let length = u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]);
        (
            tag & 0x80 != 0,
            tag & 0x40 != 0,
            i64::from(length) - i64::from(records.keys.comment_length),
        )
    } else {
        (tag & 0x80 != 0, tag & 0x40 != 0, 0)
    };
    let length_at = records.at - if length != 0 { 4 } else { 0 };
    let left = records.left();
    let comment =
        if length == 0 {
            None
        } else {
            let n = usize::try_from(length).ok().filter(|&n| n <= left).ok_or(
                XqfError::CommentLength {
                    offset: length_at,
                    length,
                    left,
                },
            )?;
            let at = records.at;
            let raw = records.take(n).map_err(truncated(at, n))?;
            Some(gb18030(&raw).ok_or_else(|| XqfError::Text {
                offset: at,
                field: "comment".into(),
            })?)
        };
    Ok(RawRecord {
        offset,
        from: head[0].wrapping_sub(24).wrapping_sub(records.keys.origin),
        to: head[1]
            .wrapping_sub(32)
            .wrapping_sub(records.keys.destination),
        next,
        variation,
        comment,
    })
}

/// GB18030 text, or `None` when the bytes are not.
fn gb18030(bytes: &[u8]) -> Option<String> {
    encoding_rs::GB18030
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(|t| t.into_owned())
}

/// A point `x·10 + y` as coordinates (`e1`).
fn coordinates(point: u8) -> String {
    let (x, y) = (point / 10, point % 10);
    format!("{}{}", char::from(b'a' + x), y + 1)
}

/// The header's length-prefixed text at `offset` in a field of `size` bytes.
fn header_text(bytes: &[u8], offset: usize, size: usize, field: &str) -> Result<String, XqfError> {
    let len = usize::from(bytes[offset]);
    if len >= size {
        return Err(XqfError::Header {
            offset,
            message: format!(
                "the {field} is said to be {len} bytes long, but its field holds {}",
                size - 1
            ),
        });
    }
    gb18030(&bytes[offset + 1..offset + 1 + len]).ok_or_else(|| XqfError::Text {
        offset: offset + 1,
        field: field.into(),
    })
}

/// Reads an XQF record (versions 1 to 18).
pub fn read(bytes: &[u8]) -> Result<XqfGame, XqfError> {
    if bytes.len() >= 2 && &bytes[..2] != b"XQ" {
        return Err(XqfError::Signature);
    }
    if bytes.len() < HEADER_LEN {
        return Err(XqfError::ShortHeader { len: bytes.len() });
    }
    let version = bytes[2];
    if !(1..=NEWEST_VERSION).contains(&version) {
        return Err(XqfError::Version { version });
    }
    let header = read_header(bytes)?;
    let keys = Keys::of(&bytes[..16], version);
    let board = read_places(bytes, version, &keys)?;
    let nodes = read_tree(bytes, version, &keys)?;

    // The main line: the chain of first children.
    let mut main = Vec::new();
    let mut at = 0;
    while let Some(&child) = nodes[at].children.first() {
        main.push(child);
        at = child;
    }
    let black_first = main
        .first()
        .and_then(|&n| board[usize::from(nodes[n].from)])
        .is_some_and(|(side, _)| side == Side::Second);
    let start_fen = fen_of(&board, black_first);
    let position_error = |message: String| XqfError::Position {
        fen: start_fen.clone(),
        message,
    };
    let mut game = GameKind::Xiangqi
        .new_game(&start_fen)
        .map_err(|e| position_error(e.to_string()))?;
    let mut position = Position::from_text(&start_fen, RuleSet::Standard)
        .map_err(|e| position_error(e.to_string()))?;
    let mut notes = vec![Note::default(); main.len() + 1];
    notes[0].comments.extend(nodes[0].comment.clone());
    let mut variations = 0;
    let mut parent = 0;
    for (i, &n) in main.iter().enumerate() {
        let node = &nodes[n];
        let uci = format!("{}{}", coordinates(node.from), coordinates(node.to));
        let refused = |message: String| XqfError::Move {
            offset: node.offset,
            ply: node.ply,
            in_variation: false,
            uci: uci.clone(),
            message,
        };
        // The alternatives to this move, from the position before it.
        for &alternative in &nodes[parent].children[1..] {
            let mut text = String::new();
            variations += write_line(&nodes, alternative, &position, &mut text)?;
            notes[i + 1].variations.push(text);
        }
        game.play_text(&uci, MoveNotation::Uci)
            .map_err(|e| refused(e.to_string()))?;
        let m = position
            .parse_move_as(&uci, MoveNotation::Uci)
            .map_err(|e| refused(e.to_string()))?;
        position.play_unchecked(m);
        notes[i + 1].comments.extend(node.comment.clone());
        parent = n;
    }
    let tags = tags_of(&header);
    let result = crate::pgn::settle_result(game.as_mut(), &tags, None)
        .map_err(|e| XqfError::Result(e.to_string().trim_start_matches("PGN: ").to_string()))?;
    Ok(XqfGame {
        version,
        header,
        start_fen,
        record: PgnGame {
            tags,
            game,
            result,
            notes,
            line: 1,
        },
        variations,
    })
}

fn read_header(bytes: &[u8]) -> Result<XqfHeader, XqfError> {
    let text = |offset, size, field| header_text(bytes, offset, size, field);
    let result = match bytes[0x33] {
        0 => None,
        1 => Some(Some(Side::First)),
        2 => Some(Some(Side::Second)),
        3 | 4 => Some(None),
        other => {
            return Err(XqfError::Header {
                offset: 0x33,
                message: format!("the result is {other}, not 0 (unknown), 1 (Red won), 2 (Black won) or 3 or 4 (a draw)"),
            })
        }
    };
    Ok(XqfHeader {
        title: text(0x50, 64, "title")?,
        event: text(0xd0, 64, "event")?,
        date: text(0x110, 16, "date")?,
        site: text(0x120, 16, "site")?,
        red: text(0x130, 16, "name of Red's player")?,
        black: text(0x140, 16, "name of Black's player")?,
        time_rule: text(0x150, 64, "time rule")?,
        red_time: text(0x190, 16, "Red's time")?,
        black_time: text(0x1a0, 16, "Black's time")?,
        annotator: text(0x1d0, 16, "annotator")?,
        author: text(0x1e0, 16, "author")?,
        result,
        kind: bytes[0x40],
    })
}

/// The pieces of the 32 places, in the order of the places.
const ROLES: &[u8; 16] = b"rnbakabnrccppppp";

/// The board: for each point `x·10 + y`, the side and FEN letter of its piece.
fn read_places(
    bytes: &[u8],
    version: u8,
    keys: &Keys,
) -> Result<[Option<(Side, char)>; 90], XqfError> {
    let mut board = [None; 90];
    // Where each place's byte is (from version 12 the places are rotated).
    let mut source = [0usize; 32];
    for (i, s) in source.iter_mut().enumerate() {
        *s = if version >= 12 {
            (i + 64 - usize::from(keys.places) % 32 - 1) % 32
        } else {
            i
        };
    }
    for (slot, &from) in source.iter().enumerate() {
        let offset = 0x10 + from;
        let point = bytes[offset].wrapping_sub(keys.places);
        if point >= 90 {
            continue; // off the board
        }
        let side = if slot < 16 { Side::First } else { Side::Second };
        let letter = char::from(ROLES[slot % 16]);
        let letter = if side == Side::First {
            letter.to_ascii_uppercase()
        } else {
            letter
        };
        let cell = &mut board[usize::from(point)];
        if cell.is_some() {
            return Err(XqfError::SharedSquare {
                offset,
                square: coordinates(point),
            });
        }
        *cell = Some((side, letter));
    }
    Ok(board)
}

/// The FEN of a board (`x·10 + y` points), Red or Black to move.
fn fen_of(board: &[Option<(Side, char)>; 90], black_first: bool) -> String {
    let mut rows = Vec::new();
    for y in (0..10).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for x in 0..9 {
            match board[x * 10 + y] {
                Some((_, letter)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!(
        "{} {} - - 0 1",
        rows.join("/"),
        if black_first { 'b' } else { 'w' }
    )
}

/// The tree of records, the root first, read without recursion.
fn read_tree(bytes: &[u8], version: u8, keys: &Keys) -> Result<Vec<Node>, XqfError> {
    let mut records = Records {
        bytes,
        at: HEADER_LEN,
        keys,
    };
    let root = read_record(&mut records, version)?;
    let mut nodes = vec![Node {
        offset: root.offset,
        from: 0,
        to: 0,
        comment: root.comment,
        parent: 0,
        children: Vec::new(),
        ply: 0,
    }];
    // The depth of variation nesting of each node.
    let mut depths = vec![0usize];
    // The parents of the siblings still to come (the records that have a variation after
    // their subtree), innermost last.
    let mut pending: Vec<usize> = Vec::new();
    let mut parent = if root.next { Some(0) } else { None };
    while let Some(p) = parent {
        let record = read_record(&mut records, version)?;
        for (value, which, at) in [
            (record.from, "origin", record.offset),
            (record.to, "destination", record.offset + 1),
        ] {
            if value >= 90 {
                return Err(XqfError::BadSquare {
                    offset: at,
                    which,
                    value,
                });
            }
        }
        let index = nodes.len();
        let depth = depths[p] + usize::from(!nodes[p].children.is_empty());
        if depth > MAX_VARIATION_DEPTH {
            return Err(XqfError::TooDeep {
                offset: record.offset,
            });
        }
        nodes[p].children.push(index);
        nodes.push(Node {
            offset: record.offset,
            from: record.from,
            to: record.to,
            comment: record.comment,
            parent: p,
            children: Vec::new(),
            ply: nodes[p].ply + 1,
        });
        depths.push(depth);
        if record.variation {
            pending.push(p);
        }
        parent = if record.next {
            Some(index)
        } else {
            pending.pop()
        };
    }
    if records.left() > 0 {
        return Err(XqfError::TrailingBytes {
            offset: records.at,
            len: records.left(),
        });
    }
    Ok(nodes)
}

/// Writes the line that starts with `first` (a variation) as SAN movetext, played from
/// `position`, with its comments and nested variations; returns the variations written
/// (this one and those nested).
fn write_line(
    nodes: &[Node],
    first: usize,
    position: &Position,
    out: &mut String,
) -> Result<usize, XqfError> {
    let mut count = 1;
    let mut position = position.clone();
    let mut at = Some(first);
    let mut numbered = false;
    while let Some(n) = at {
        let node = &nodes[n];
        let uci = format!("{}{}", coordinates(node.from), coordinates(node.to));
        let refused = |message: String| XqfError::Move {
            offset: node.offset,
            ply: node.ply,
            in_variation: true,
            uci: uci.clone(),
            message,
        };
        let m = position
            .parse_move_as(&uci, MoveNotation::Uci)
            .map_err(|e| refused(e.to_string()))?;
        let next = position.play(m).map_err(|e| refused(e.to_string()))?;
        let san = position
            .move_to_text(m, MoveNotation::San)
            .map_err(|e| refused(e.to_string()))?;
        // Numbered as the PGN writer numbers the main line: a number before each move of
        // the side that moves first (pychess's form when Black moves first).
        let half = node.ply - 1;
        let number = half / 2 + 1;
        if !out.is_empty() {
            out.push(' ');
        }
        if half % 2 == 0 {
            out.push_str(&format!("{number}. "));
        } else if !numbered {
            out.push_str(&format!("{number}... "));
        }
        out.push_str(&san);
        numbered = true;
        if let Some(c) = &node.comment {
            // A PGN comment cannot hold `}`.
            out.push_str(&format!(" {{{}}}", c.replace('}', "]")));
            numbered = false;
        }
        // The alternatives to this move (those to the line's first are the caller's).
        if n != first {
            for &alternative in &nodes[node.parent].children[1..] {
                out.push_str(" (");
                let mut inner = String::new();
                count += write_line(nodes, alternative, &position, &mut inner)?;
                out.push_str(&inner);
                out.push(')');
                numbered = false;
            }
        }
        position = next;
        at = node.children.first().copied();
    }
    Ok(count)
}

/// The PGN tags of a header.
fn tags_of(header: &XqfHeader) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    let result = match header.result {
        None => "*",
        Some(Some(Side::First)) => "1-0",
        Some(Some(Side::Second)) => "0-1",
        Some(None) => "1/2-1/2",
    };
    for (name, value) in [
        ("Event", &header.event),
        ("Site", &header.site),
        ("Date", &header.date),
        ("White", &header.red),
        ("Black", &header.black),
    ] {
        if !value.is_empty() {
            tags.push((name.to_string(), value.clone()));
        }
    }
    tags.push(("Result".into(), result.into()));
    for (name, value) in [
        ("Title", &header.title),
        ("TimeRule", &header.time_rule),
        ("RedTime", &header.red_time),
        ("BlackTime", &header.black_time),
        ("Annotator", &header.annotator),
        ("Author", &header.author),
    ] {
        if !value.is_empty() {
            tags.push((name.to_string(), value.clone()));
        }
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PositionFormat;
    use proptest::prelude::*;

    /// The start position's 32 places, in the order of the places.
    const START: [u8; 32] = [
        80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, //
        9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86,
    ];

    /// A record of the tree to write: a move (`x·10 + y` points), a comment, what follows.
    struct T {
        from: u8,
        to: u8,
        comment: Option<&'static str>,
        children: Vec<T>,
    }

    fn t(uci: &str, comment: Option<&'static str>, children: Vec<T>) -> T {
        let point = |s: &str| {
            let x = s.as_bytes()[0] - b'a';
            let y: u8 = s[1..].parse::<u8>().unwrap() - 1;
            x * 10 + y
        };
        let split = uci[1..].find(|c: char| c.is_ascii_alphabetic()).unwrap() + 1;
        T {
            from: point(&uci[..split]),
            to: point(&uci[split..]),
            comment,
            children,
        }
    }

    /// A line of moves, each the only child of the one before.
    fn line(moves: &[&str]) -> Vec<T> {
        let mut children = Vec::new();
        for m in moves.iter().rev() {
            children = vec![t(m, None, children)];
        }
        children
    }

    fn gbk(text: &str) -> Vec<u8> {
        encoding_rs::GB18030.encode(text).0.into_owned()
    }

    /// Writes an XQF file: `keys` are header bytes 3 to 15 (used from version 11).
    fn write(
        version: u8,
        keys: [u8; 13],
        places: [u8; 32],
        root: &T,
        texts: &[(usize, &str)],
    ) -> Vec<u8> {
        let mut bytes = vec![0u8; HEADER_LEN];
        bytes[..3].copy_from_slice(&[b'X', b'Q', version]);
        if version >= 11 {
            bytes[3..16].copy_from_slice(&keys);
        }
        let k = Keys::of(&bytes[..16], version);
        for (slot, &place) in places.iter().enumerate() {
            let at = if version >= 12 {
                (slot + 64 - usize::from(k.places) % 32 - 1) % 32
            } else {
                slot
            };
            bytes[0x10 + at] = place.wrapping_add(k.places);
        }
        for (offset, text) in texts {
            let raw = gbk(text);
            bytes[*offset] = raw.len() as u8;
            bytes[offset + 1..offset + 1 + raw.len()].copy_from_slice(&raw);
        }
        let mut body = Vec::new();
        record(&mut body, version, &k, root, false, true);
        siblings(&mut body, version, &k, &root.children);
        for (i, b) in body.iter_mut().enumerate() {
            *b = b.wrapping_add(k.stream[i % 32]);
        }
        bytes.extend(body);
        bytes
    }

    fn siblings(body: &mut Vec<u8>, version: u8, k: &Keys, list: &[T]) {
        for (i, n) in list.iter().enumerate() {
            record(body, version, k, n, i + 1 < list.len(), false);
            siblings(body, version, k, &n.children);
        }
    }

    fn record(body: &mut Vec<u8>, version: u8, k: &Keys, n: &T, variation: bool, root: bool) {
        let comment = n.comment.map(gbk).unwrap_or_default();
        let next = !n.children.is_empty();
        let (from, to) = if root { (0, 0) } else { (n.from, n.to) };
        let from = (from + 24).wrapping_add(k.origin);
        let to = (to + 32).wrapping_add(k.destination);
        if version <= 10 {
            let tag = if next { 0xf0 } else { 0 } | if variation { 0x0f } else { 0 };
            body.extend([from, to, tag, if root { 0xff } else { 0 }]);
            body.extend((comment.len() as u32).to_le_bytes());
        } else {
            let tag = if next { 0x80 } else { 0 }
                | if variation { 0x40 } else { 0 }
                | if comment.is_empty() { 0 } else { 0x20 };
            body.extend([from, to, tag, 0]);
            if !comment.is_empty() {
                body.extend((comment.len() as u32 + k.comment_length).to_le_bytes());
            }
        }
        body.extend(comment);
    }

    const KEYS: [u8; 13] = [
        0x5a, 1, 2, 3, 4, 0x31, 0x72, 0x0c, 0xe4, 0x9b, 0x17, 0xc8, 0x66,
    ];

    fn opening() -> T {
        T {
            from: 0,
            to: 0,
            comment: Some("开局"),
            children: vec![t(
                "c4c5",
                Some("兵七进一"),
                vec![t(
                    "h10g8",
                    None,
                    vec![t("h3e3", None, vec![]), t("b3e3", Some("另一炮"), vec![])],
                )],
            )],
        }
    }

    fn checked(version: u8) {
        let texts = [
            (0x50, "仙人指路"),
            (0xd0, "测试赛"),
            (0x110, "2001年4月16日"),
            (0x120, "北京"),
            (0x130, "红方"),
            (0x140, "黑方"),
            (0x1d0, "讲评"),
        ];
        let bytes = write(version, KEYS, START, &opening(), &texts);
        let game = read(&bytes).unwrap();
        assert_eq!(game.version, version);
        assert_eq!(game.record.game.moves_uci(), ["c4c5", "h10g8", "h3e3"]);
        assert_eq!(
            game.start_fen,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
        );
        assert_eq!(game.header.title, "仙人指路");
        assert_eq!(game.record.tag("Event"), Some("测试赛"));
        assert_eq!(game.record.tag("White"), Some("红方"));
        assert_eq!(game.record.tag("Black"), Some("黑方"));
        assert_eq!(game.record.tag("Site"), Some("北京"));
        assert_eq!(game.record.tag("Date"), Some("2001年4月16日"));
        assert_eq!(game.record.tag("Annotator"), Some("讲评"));
        assert_eq!(game.record.notes[0].comments, ["开局"]);
        assert_eq!(game.record.notes[1].comments, ["兵七进一"]);
        assert_eq!(game.record.notes[3].variations, ["2. Cbe3 {另一炮}"]);
        assert_eq!(game.variations, 1);
        let pcn = game.to_pcn();
        let json = pcn.to_json_pretty();
        assert!(json.contains("另一炮"), "{json}");
        assert!(json.contains("仙人指路"), "{json}");
    }

    #[test]
    fn version_10_is_read() {
        checked(10);
    }

    #[test]
    fn versions_11_to_18_are_read() {
        for version in 11..=18 {
            checked(version);
        }
    }

    #[test]
    fn a_setup_with_black_first_and_a_result() {
        // Red: general d1, chariot a1; Black: general e10, chariot i10; Black moves first.
        let mut places = [0xff; 32];
        places[4] = 30; // red general
        places[0] = 0; // red chariot
        places[20] = 49; // black general
        places[24] = 89; // black chariot
        for version in [10, 11, 12, 18] {
            let root = T {
                from: 0,
                to: 0,
                comment: None,
                children: line(&["i10i2", "a1a2", "i2a2"]),
            };
            let mut bytes = write(version, KEYS, places, &root, &[]);
            bytes[0x33] = 2; // Black won
            let game = read(&bytes).unwrap();
            assert_eq!(game.start_fen, "4k3r/9/9/9/9/9/9/9/9/R2K5 b - - 0 1");
            assert_eq!(game.record.game.moves_uci(), ["i10i2", "a1a2", "i2a2"]);
            assert_eq!(game.record.result, Some(Some(Side::Second)));
            assert_eq!(
                game.record.game.start_text(PositionFormat::Fen).unwrap(),
                game.start_fen
            );
        }
    }

    #[test]
    fn variations_nest_and_are_counted() {
        // 1. c4c5 (1. h3e3 h10g8 (1... b10c8 2. b1c3) 2. h1g3) 1... h10g8
        let root = T {
            from: 0,
            to: 0,
            comment: None,
            children: vec![
                t("c4c5", None, line(&["h10g8"])),
                t(
                    "h3e3",
                    None,
                    vec![
                        t("h10g8", None, line(&["h1g3"])),
                        t("b10c8", None, line(&["b1c3"])),
                    ],
                ),
            ],
        };
        for version in [10, 12] {
            let game = read(&write(version, KEYS, START, &root, &[])).unwrap();
            assert_eq!(game.record.game.moves_uci(), ["c4c5", "h10g8"]);
            assert_eq!(game.variations, 2);
            assert_eq!(
                game.record.notes[1].variations,
                ["1. Che3 Hg8 (1... Hc8 2. Hc3) 2. Hg3"]
            );
        }
    }

    fn error_of(bytes: &[u8]) -> XqfError {
        match read(bytes) {
            Ok(_) => panic!("read"),
            Err(e) => e,
        }
    }

    fn simple(version: u8) -> Vec<u8> {
        let root = T {
            from: 0,
            to: 0,
            comment: None,
            children: line(&["c4c5", "h10g8"]),
        };
        write(version, KEYS, START, &root, &[])
    }

    #[test]
    fn header_errors() {
        assert_eq!(error_of(b"XQ\x0a"), XqfError::ShortHeader { len: 3 });
        assert_eq!(error_of(b""), XqfError::ShortHeader { len: 0 });
        let mut bytes = simple(10);
        bytes[1] = b'X';
        assert_eq!(error_of(&bytes), XqfError::Signature);
        for version in [0, 19, 0xff] {
            let mut bytes = simple(10);
            bytes[2] = version;
            assert_eq!(error_of(&bytes), XqfError::Version { version });
        }
        let mut bytes = simple(10);
        bytes[0x130] = 16;
        let e = error_of(&bytes);
        assert!(matches!(e, XqfError::Header { offset: 0x130, .. }), "{e}");
        assert!(e.to_string().contains("Red's player"), "{e}");
        let mut bytes = simple(10);
        bytes[0x50] = 2;
        bytes[0x51..0x53].copy_from_slice(&[0x81, 0x20]);
        assert_eq!(
            error_of(&bytes),
            XqfError::Text {
                offset: 0x51,
                field: "title".into()
            }
        );
        let mut bytes = simple(10);
        bytes[0x33] = 7;
        assert!(matches!(
            error_of(&bytes),
            XqfError::Header { offset: 0x33, .. }
        ));
    }

    #[test]
    fn position_errors() {
        let mut places = START;
        places[0] = places[1]; // two pieces on h1
        let root = T {
            from: 0,
            to: 0,
            comment: None,
            children: vec![],
        };
        let e = error_of(&write(10, KEYS, places, &root, &[]));
        assert_eq!(
            e,
            XqfError::SharedSquare {
                offset: 0x11,
                square: "h1".into()
            }
        );
        let mut places = START;
        places[4] = 0xff; // no red general
        let e = error_of(&write(12, KEYS, places, &root, &[]));
        assert!(matches!(e, XqfError::Position { .. }), "{e}");
    }

    #[test]
    fn move_errors() {
        // A move off the board.
        let mut bytes = simple(10);
        bytes[0x408] = 24 + 95;
        assert_eq!(
            error_of(&bytes),
            XqfError::BadSquare {
                offset: 0x408,
                which: "origin",
                value: 95
            }
        );
        // An illegal move names its ply.
        let root = T {
            from: 0,
            to: 0,
            comment: None,
            children: line(&["c4c5", "h10h5"]),
        };
        for version in [10, 11] {
            let e = error_of(&write(version, KEYS, START, &root, &[]));
            assert!(
                matches!(&e, XqfError::Move { ply: 2, in_variation: false, uci, .. } if uci == "h10h5"),
                "{e}"
            );
            assert!(e.to_string().contains("ply 2"), "{e}");
        }
        // So does one in a variation.
        let root = T {
            from: 0,
            to: 0,
            comment: None,
            children: vec![t("c4c5", None, vec![]), t("e1e3", None, vec![])],
        };
        let e = error_of(&write(12, KEYS, START, &root, &[]));
        assert!(
            matches!(
                e,
                XqfError::Move {
                    ply: 1,
                    in_variation: true,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn truncation_errors() {
        let bytes = simple(10);
        // Inside the second record's first four bytes, then in its comment length.
        assert_eq!(
            error_of(&bytes[..0x40a]),
            XqfError::TruncatedMove {
                offset: 0x408,
                needed: 4,
                left: 2
            }
        );
        assert_eq!(
            error_of(&bytes[..0x40e]),
            XqfError::TruncatedMove {
                offset: 0x40c,
                needed: 4,
                left: 2
            }
        );
        // A comment longer than the file.
        let mut bytes = simple(10);
        bytes[0x40c..0x410].copy_from_slice(&1000u32.to_le_bytes());
        assert_eq!(
            error_of(&bytes),
            XqfError::CommentLength {
                offset: 0x40c,
                length: 1000,
                left: 8
            }
        );
        // A key larger than the stored length (encrypted versions) is a negative length.
        let root = T {
            from: 0,
            to: 0,
            comment: Some("注"),
            children: vec![],
        };
        let mut bytes = write(11, KEYS, START, &root, &[]);
        let k = Keys::of(&bytes[..16], 11);
        let stored = 1u32.to_le_bytes();
        for (i, b) in stored.iter().enumerate() {
            bytes[0x404 + i] = b.wrapping_add(k.stream[4 + i]);
        }
        let e = error_of(&bytes);
        assert!(
            matches!(e, XqfError::CommentLength { offset: 0x404, length, .. } if length < 0),
            "{e}"
        );
    }

    #[test]
    fn bytes_after_the_tree_are_refused() {
        for version in [10, 12] {
            let mut bytes = simple(version);
            let end = bytes.len();
            bytes.extend([0, 0, 0]);
            assert_eq!(
                error_of(&bytes),
                XqfError::TrailingBytes {
                    offset: end,
                    len: 3
                }
            );
        }
    }

    #[test]
    fn the_result_must_fit_the_game() {
        // Black is mated by the chariot; a header that says Black won is refused.
        let mut places = [0xff; 32];
        places[4] = 30; // red general d1
        places[0] = 7; // red chariot a8
        places[8] = 88; // red chariot i9
        places[20] = 49; // black general e10
        let root = T {
            from: 0,
            to: 0,
            comment: None,
            children: line(&["a8a10"]),
        };
        let mut bytes = write(10, KEYS, places, &root, &[]);
        let game = read(&bytes).unwrap();
        assert_eq!(game.record.result, Some(Some(Side::First)));
        bytes[0x33] = 2;
        assert!(matches!(error_of(&bytes), XqfError::Result(_)));
    }

    #[test]
    fn variations_nested_too_deep_are_refused() {
        // Each record's second child goes one level deeper (the reader stops at the depth,
        // before the moves are checked).
        let mut node = t("a4a5", None, vec![]);
        for _ in 0..=MAX_VARIATION_DEPTH {
            node = t("i4i5", None, vec![t("c4c5", None, vec![]), node]);
        }
        let root = T {
            from: 0,
            to: 0,
            comment: None,
            children: vec![t("c4c5", None, vec![]), node],
        };
        let e = error_of(&write(10, KEYS, START, &root, &[]));
        assert!(matches!(e, XqfError::TooDeep { .. }), "{e}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random bytes after a good header, and any cut of a good file: an answer, never a
        /// panic.
        #[test]
        fn no_input_panics(tail in proptest::collection::vec(any::<u8>(), 0..200), version in 1u8..=18, cut in 0usize..1200) {
            let mut bytes = simple(if version <= 10 { 10 } else { version });
            bytes[2] = version;
            let keep = cut.min(bytes.len());
            let _ = read(&bytes[..keep]);
            bytes.truncate(HEADER_LEN);
            bytes.extend(&tail);
            let _ = read(&bytes);
            let mut noise = tail.clone();
            noise.resize(1100, 0x20);
            let _ = read(&noise);
        }
    }
}

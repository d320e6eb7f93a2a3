//! Games read from rule files: a game directory holds a GGN table (pseudo-legal movement), a
//! start position (FEEN, in the manifest) and a rules manifest (`chuhe.rules/1`,
//! [`manifest`]); [`load_dir`] compiles them into precomputed move tables ([`Compiled`]) and
//! gives a [`RulesHandle`], which [`GameKind::Rules`](crate::GameKind::Rules) carries to every
//! front end: the generic [`Position`] implements [`GamePosition`](crate::GamePosition) like
//! the native games.
//!
//! ```
//! use chuhe::{rules, AnyGame, GameKind};
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/xiangqi");
//! let kind = GameKind::Rules(rules::load_dir(dir).unwrap());
//! assert_eq!(kind.name(), "xiangqi");
//! let game = kind.new_game("start").unwrap();
//! assert_eq!(game.perft(2), 1920);
//! ```
//!
//! Loading reads files: the one place of this crate that does (`load_dir`); [`load`] takes
//! the texts themselves.

mod bits;
pub mod compact;
mod compile;
mod game;
pub mod manifest;
mod position;

use std::fmt;
use std::path::Path;
use std::sync::Mutex;

pub use bits::{Bits, Wide};
pub use compile::{Compiled, Info};
pub use game::{Game, PathEntry, Width};
pub use manifest::Manifest;
pub use position::{Move, Moves, Position, RulesConfig, Square};

/// What is wrong in a game's rule files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesProblem {
    /// The file could not be read.
    Unreadable(String),
    /// The file is not JSON (or not GGN): the parser's message.
    NotJson(String),
    /// A key the format does not have.
    UnknownKey,
    /// A key the format requires is missing.
    Missing,
    /// A value is not allowed: why.
    Invalid(String),
}

/// An error in a game's rule files: the file, the key (a dotted path: `session.move_limit`,
/// `X:R.a1.a9` in a GGN table; empty for the whole file) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RulesError {
    /// The file.
    pub file: String,
    /// The key.
    pub key: String,
    /// What is wrong.
    pub problem: RulesProblem,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if !self.key.is_empty() {
            write!(f, ": {}", self.key)?;
        }
        match &self.problem {
            RulesProblem::Unreadable(m) => write!(f, ": cannot be read: {m}"),
            RulesProblem::NotJson(m) => write!(f, ": not valid: {m}"),
            RulesProblem::UnknownKey => f.write_str(": unknown key"),
            RulesProblem::Missing => f.write_str(": missing"),
            RulesProblem::Invalid(m) => write!(f, ": {m}"),
        }
    }
}

impl RulesError {
    pub(crate) fn invalid(file: &str, key: &str, message: impl Into<String>) -> RulesError {
        RulesError {
            file: file.to_string(),
            key: key.to_string(),
            problem: RulesProblem::Invalid(message.into()),
        }
    }

    pub(crate) fn missing(file: &str, key: &str) -> RulesError {
        RulesError {
            file: file.to_string(),
            key: key.to_string(),
            problem: RulesProblem::Missing,
        }
    }

    pub(crate) fn unknown(file: &str, key: &str) -> RulesError {
        RulesError {
            file: file.to_string(),
            key: key.to_string(),
            problem: RulesProblem::UnknownKey,
        }
    }
}

/// The name of the manifest file in a game's directory.
pub const MANIFEST_FILE: &str = "rules.json";

/// A compiled game, as [`GameKind::Rules`](crate::GameKind::Rules) carries it: one of three
/// square-set widths, chosen by the board's size. Compiled games live for the rest of the
/// program (a directory loaded twice with the same files gives the same handle).
#[derive(Clone, Copy)]
pub enum RulesHandle {
    /// Up to 64 squares.
    Narrow(&'static Compiled<u64>),
    /// Up to 128 squares.
    Broad(&'static Compiled<u128>),
    /// Up to 144 squares (12 × 12).
    Wide(&'static Compiled<Wide>),
}

impl RulesHandle {
    /// What every width shares: the manifest, the pieces, the board.
    pub fn info(self) -> &'static Info {
        match self {
            RulesHandle::Narrow(c) => &c.info,
            RulesHandle::Broad(c) => &c.info,
            RulesHandle::Wide(c) => &c.info,
        }
    }

    /// The game's name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    fn address(self) -> usize {
        match self {
            RulesHandle::Narrow(c) => c as *const _ as usize,
            RulesHandle::Broad(c) => c as *const _ as usize,
            RulesHandle::Wide(c) => c as *const _ as usize,
        }
    }
}

impl PartialEq for RulesHandle {
    fn eq(&self, other: &Self) -> bool {
        self.address() == other.address()
    }
}
impl Eq for RulesHandle {}
impl std::hash::Hash for RulesHandle {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.address().hash(state)
    }
}
impl PartialOrd for RulesHandle {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for RulesHandle {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.name(), self.address()).cmp(&(other.name(), other.address()))
    }
}
impl fmt::Debug for RulesHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rules({})", self.name())
    }
}

/// The games compiled so far, by their files' texts: loading the same files again gives the
/// same game.
static LOADED: Mutex<Vec<(String, RulesHandle)>> = Mutex::new(Vec::new());

/// Compiles a game from its texts: the manifest (named `manifest_file` in errors) and the
/// GGN table it names (`ggn_file`).
pub fn load(
    manifest_file: &str,
    manifest_text: &str,
    ggn_file: &str,
    ggn_text: &str,
) -> Result<RulesHandle, RulesError> {
    let identity = format!("{manifest_text}\u{0}{ggn_text}");
    if let Ok(loaded) = LOADED.lock() {
        if let Some(&(_, h)) = loaded.iter().find(|(t, _)| *t == identity) {
            return Ok(h);
        }
    }
    let manifest = Manifest::from_json(manifest_file, manifest_text)?;
    let info = Info::new(manifest, manifest_file, ggn_file, ggn_text)?;
    let squares = usize::from(info.files) * usize::from(info.ranks);
    let handle = if squares <= 64 {
        RulesHandle::Narrow(Box::leak(Box::new(Compiled::<u64>::new(info, ggn_file)?)))
    } else if squares <= 128 {
        RulesHandle::Broad(Box::leak(Box::new(Compiled::<u128>::new(info, ggn_file)?)))
    } else {
        RulesHandle::Wide(Box::leak(Box::new(Compiled::<Wide>::new(info, ggn_file)?)))
    };
    if let Ok(mut loaded) = LOADED.lock() {
        loaded.push((identity, handle));
    }
    Ok(handle)
}

/// Reads and compiles a game directory: `rules.json` and the GGN file it names.
pub fn load_dir(dir: impl AsRef<Path>) -> Result<RulesHandle, RulesError> {
    let dir = dir.as_ref();
    let read = |path: &Path| {
        std::fs::read_to_string(path).map_err(|e| RulesError {
            file: path.display().to_string(),
            key: String::new(),
            problem: RulesProblem::Unreadable(e.to_string()),
        })
    };
    let manifest_path = dir.join(MANIFEST_FILE);
    let manifest_text = read(&manifest_path)?;
    let manifest_file = manifest_path.display().to_string();
    // The GGN file's name is in the manifest: read it first, checked.
    let manifest = Manifest::from_json(&manifest_file, &manifest_text)?;
    let ggn_path = dir.join(&manifest.ggn);
    let ggn_text = read(&ggn_path)?;
    load(
        &manifest_file,
        &manifest_text,
        &ggn_path.display().to_string(),
        &ggn_text,
    )
}

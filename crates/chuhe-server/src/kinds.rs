//! The games a server offers: the native ones and those read from rule files at its start
//! (`chuhe serve --rules DIR`, repeatable), by name. Every place that turns a game's name
//! (a form's, a stored game's, a record's) into a [`GameKind`] asks [`Kinds`].
//!
//! A rules game whose manifest gives a native game's name (`games/xiangqi` is named
//! `xiangqi`) is refused at the start: the native game keeps its name, and the stored games
//! of that name stay the native game's. Two directories of one name are refused too, unless
//! they are the same files.
//!
//! Games read from rule files are played casual only: their rules may change between starts
//! under the same name, which would make a rating compare different games.

use chuhe::rules::RulesHandle;
use chuhe::{GameKind, Side};
use serde_json::{json, Value};

/// The games a server offers.
#[derive(Clone, Debug, Default)]
pub struct Kinds {
    rules: Vec<RulesHandle>,
}

/// Why a set of rules games cannot be served together.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KindsError {
    /// The manifest names a native game.
    #[error(
        "the rules game is named '{0}', which is one of chuhe's own games; the native game \
         keeps its name: give the manifest's \"name\" another one (such as '{0}-rules')"
    )]
    NativeName(String),
    /// Two directories give the same name to different games.
    #[error(
        "two rules directories are both named '{0}': give one of their manifests another \"name\""
    )]
    SameName(String),
}

/// Why a name is not a game of this server.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{name}' ({})", .offered.join(", "))]
pub struct UnknownKind {
    /// The name (cut short).
    pub name: String,
    /// The games offered.
    pub offered: Vec<String>,
}

impl Kinds {
    /// The native games and `rules` (each game by its manifest's name).
    pub fn new(rules: impl IntoIterator<Item = RulesHandle>) -> Result<Kinds, KindsError> {
        let mut kept: Vec<RulesHandle> = Vec::new();
        for handle in rules {
            let name = handle.name();
            if name.parse::<GameKind>().is_ok() {
                return Err(KindsError::NativeName(name.to_string()));
            }
            match kept.iter().find(|h| h.name() == name) {
                Some(h) if *h == handle => {}
                Some(_) => return Err(KindsError::SameName(name.to_string())),
                None => kept.push(handle),
            }
        }
        Ok(Kinds { rules: kept })
    }

    /// The game named `name`: a native game, or a rules game loaded at this start.
    pub fn kind(&self, name: &str) -> Result<GameKind, UnknownKind> {
        self.find(name).ok_or_else(|| UnknownKind {
            name: chuhe::quote_input(name).into_owned(),
            offered: self.all().iter().map(|k| k.name().to_string()).collect(),
        })
    }

    /// The game named `name`, if offered.
    pub fn find(&self, name: &str) -> Option<GameKind> {
        name.parse::<GameKind>().ok().or_else(|| {
            self.rules
                .iter()
                .find(|h| h.name() == name)
                .map(|&h| GameKind::Rules(h))
        })
    }

    /// Every game offered: the native ones, then the rules games in the order given.
    pub fn all(&self) -> Vec<GameKind> {
        GameKind::ALL
            .into_iter()
            .chain(self.rules.iter().map(|&h| GameKind::Rules(h)))
            .collect()
    }

    /// The rules games offered.
    pub fn rules(&self) -> &[RulesHandle] {
        &self.rules
    }

    /// May games of `kind` be rated? Only the native games' (see the module's words).
    pub fn rated(kind: GameKind) -> bool {
        !matches!(kind, GameKind::Rules(_))
    }

    /// `GET /api/kinds`: each game with its board's size and pieces.
    pub fn listing(&self) -> Value {
        let kinds: Vec<Value> = self.all().into_iter().map(describe).collect();
        json!({ "kinds": kinds })
    }
}

/// One game for the page: name, title, board, pieces (letter as the board shows it,
/// the manifest's name), sides, whether it promotes and whether it may be rated.
fn describe(kind: GameKind) -> Value {
    let sides = [Side::First, Side::Second].map(|s| crate::round::words::side(kind, s));
    match kind {
        GameKind::Rules(handle) => {
            let info = handle.info();
            let manifest = &info.manifest;
            let pieces: Vec<Value> = manifest
                .pieces
                .iter()
                .map(|p| {
                    json!({
                        "letter": p.pin.letter().to_ascii_uppercase().to_string(),
                        "name": p.name,
                        "royal": p.royal,
                        "chinese": p.chinese.map(|c| c.map(String::from)),
                    })
                })
                .collect();
            json!({
                "name": kind.name(),
                "native": false,
                "title": manifest.title,
                "files": info.files,
                "ranks": info.ranks,
                "pieces": pieces,
                "promotes": !manifest.promotions.is_empty(),
                "rated": false,
                "sides": sides,
            })
        }
        _ => {
            let (files, ranks) = match kind {
                GameKind::Xiongqi => (8, 8),
                _ => (9, 10),
            };
            json!({
                "name": kind.name(),
                "native": true,
                "title": null,
                "files": files,
                "ranks": ranks,
                "pieces": [],
                "promotes": kind == GameKind::Xiongqi,
                "rated": true,
                "sides": sides,
            })
        }
    }
}

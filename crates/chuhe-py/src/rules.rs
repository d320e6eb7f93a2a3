//! Games read from rule files (`games/<name>/`, docs/RULES.md) in Python. Such a game is
//! named `rules:DIR` wherever the module takes a game's name (`Game`, the environments,
//! `observe`, the search), with `DIR` the directory's absolute path: [`load`] compiles a
//! directory and gives that name; any other use of the name loads the directory if this
//! process has not yet. Pickles of a rules game's states, games and moves carry the name, so
//! they load the directory again in another process.

use std::path::Path;
use std::sync::Mutex;

use chuhe::rules::RulesHandle;
use chuhe::GameKind;
use pyo3::prelude::*;

use crate::errors::RulesError;

/// The prefix of a rules game's name.
pub const PREFIX: &str = "rules:";

/// The rules games loaded in this process: `(name, game)`.
static LOADED: Mutex<Vec<(String, GameKind)>> = Mutex::new(Vec::new());

/// Reads and compiles the game directory `dir` (again, if it was loaded before: its files may
/// have changed); returns its name (`rules:` and the absolute path) and the game. A bad
/// directory is a [`RulesError`] naming the file, the key and what is wrong.
pub fn load(dir: &str) -> PyResult<(String, RulesHandle)> {
    let handle = chuhe::rules::load_dir(dir).map_err(|e| RulesError::new_err(e.to_string()))?;
    let kind = GameKind::Rules(handle);
    // The files were read: the directory exists, and its absolute path names the game.
    let path = Path::new(dir);
    let absolute = std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .map_or_else(|_| dir.to_string(), |p| p.display().to_string());
    let name = format!("{PREFIX}{absolute}");
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    match loaded.iter_mut().find(|(n, _)| *n == name) {
        Some(entry) => entry.1 = kind,
        None => loaded.push((name.clone(), kind)),
    }
    Ok((name, handle))
}

/// The game named `rules:DIR` (`dir` without the prefix): the one loaded from `DIR` in this
/// process, else `DIR` loaded now.
pub fn kind_of(dir: &str) -> PyResult<GameKind> {
    let name = format!("{PREFIX}{dir}");
    let found = LOADED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, kind)| kind);
    match found {
        Some(kind) => Ok(kind),
        None => load(dir).map(|(_, handle)| GameKind::Rules(handle)),
    }
}

/// The name by which `kind` is read back ([`crate::game::parse_kind`]): a native game's own,
/// `rules:DIR` for a game loaded from a directory.
pub fn game_id(kind: GameKind) -> String {
    if let GameKind::Rules(_) = kind {
        let loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        // The latest directory that gave this game (two copies of a directory are one game).
        if let Some((name, _)) = loaded.iter().rev().find(|(_, k)| *k == kind) {
            return name.clone();
        }
    }
    kind.name().to_string()
}

/// Loads the game directory `dir`: `(name, title, game)`, where `name` (`rules:` and the
/// absolute path) is what the environments and `Game` take, `title` is the manifest's, and
/// `game` the manifest's short name. Raises `chuhe.RulesError` for a bad directory.
#[pyfunction]
pub fn _load_rules(dir: &str) -> PyResult<(String, String, String)> {
    let (name, handle) = load(dir)?;
    Ok((
        name,
        handle.info().manifest.title.clone(),
        handle.name().to_string(),
    ))
}

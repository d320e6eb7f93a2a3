//! A game's GGN table from a compact description of its pieces, so that nobody writes GGN by
//! hand: `pieces.json` names the board, the style letter, regions, and each piece's movement
//! as a few words, from the first player's side (mirrored for the second):
//!
//! ```json
//! { "board": { "files": 7, "ranks": 7 }, "style": "X",
//!   "regions": { "palace": "c1-e3" },
//!   "pieces": { "G^": { "moves": "step:orth", "within": "palace" },
//!               "H": { "moves": "horse" }, "C": { "moves": "cannon:orth" },
//!               "P": { "moves": "move:step:fwd capture:step:fwd-diag" } } }
//! ```
//!
//! Movement words, separated by spaces: `step:DIRS` (one step), `slide:DIRS` (any distance,
//! clear path), `leap:A,B` (the eight (±A, ±B) and (±B, ±A) jumps), `horse` (Xiangqi's
//! horse: an orthogonal step onto an empty leg, then a diagonal step outward), `elephant`
//! (two diagonal steps, the middle point empty), `cannon:DIRS` (slides to empty squares,
//! captures over exactly one screen), `hop:DIRS` (the cannon's capture alone). `DIRS` is a
//! comma list of `orth`, `diag`, `all`, `fwd`, `back`, `side`, `fwd-diag`, `back-diag`. A
//! word prefixed `move:` only moves to empty squares; `capture:` only captures. A piece's
//! `on` region is where it may stand (its GGN sources); `within` is where it may stand and
//! go. Regions are squares and rectangles (`a1-i5`) or names of `regions`.
//!
//! ```
//! use chuhe::rules::compact;
//! let ggn = compact::ggn(
//!     "pieces.json",
//!     r#"{"board": {"files": 3, "ranks": 3}, "style": "X",
//!         "pieces": {"K^": {"moves": "step:all"}, "R": {"moves": "slide:orth"}}}"#,
//! ).unwrap();
//! assert_eq!(ggn.0.len(), 4); // X:K^, X:R, x:k^, x:r
//! let err = compact::ggn("p.json", r#"{"board": {"files": 3, "ranks": 3}, "style": "X",
//!     "pieces": {"R": {"moves": "fly:orth"}}}"#).unwrap_err();
//! assert_eq!(err.to_string(), "p.json: pieces.R.moves: unknown movement 'fly:orth'");
//! ```

use serde_json::Value;

use chuhe_notation::ggn::{Condition, Conditions, Ggn};
use chuhe_notation::{Cell, Pin, Qpi, Side, Sin};

use super::manifest::parse_region;
use super::RulesError;
use crate::ggn::{Builder, Delta};

/// Movement modes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Both,
    Quiet,
    Capture,
}

fn directions(file: &str, key: &str, text: &str, fwd: i32) -> Result<Vec<Delta>, RulesError> {
    let mut out = Vec::new();
    for d in text.split(',') {
        let list: &[Delta] = match d {
            "orth" => &[(0, 1), (0, -1), (1, 0), (-1, 0)],
            "diag" => &[(1, 1), (-1, 1), (1, -1), (-1, -1)],
            "all" => &[(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)],
            "fwd" => &[(0, 1)],
            "back" => &[(0, -1)],
            "side" => &[(1, 0), (-1, 0)],
            "fwd-diag" => &[(1, 1), (-1, 1)],
            "back-diag" => &[(1, -1), (-1, -1)],
            _ => {
                return Err(RulesError::invalid(
                    file,
                    key,
                    format!("unknown direction '{d}' (orth, diag, all, fwd, back, side, fwd-diag, back-diag)"),
                ))
            }
        };
        out.extend(list.iter().map(|&(f, r)| (f, r * fwd)));
    }
    Ok(out)
}

/// Writes the GGN table of a compact description (`file` names it in errors).
pub fn ggn(file: &str, text: &str) -> Result<Ggn, RulesError> {
    let value: Value = serde_json::from_str(text).map_err(|e| RulesError {
        file: file.to_string(),
        key: String::new(),
        problem: super::RulesProblem::NotJson(e.to_string()),
    })?;
    let top = value
        .as_object()
        .ok_or_else(|| RulesError::invalid(file, "", "must be an object"))?;
    for k in top.keys() {
        if !["board", "style", "regions", "pieces"].contains(&k.as_str()) {
            return Err(RulesError::unknown(file, k));
        }
    }
    let board = top
        .get("board")
        .and_then(Value::as_object)
        .ok_or_else(|| RulesError::missing(file, "board"))?;
    let dim = |k: &str| -> Result<u8, RulesError> {
        board
            .get(k)
            .and_then(Value::as_u64)
            .filter(|n| (2..=12).contains(n))
            .map(|n| n as u8)
            .ok_or_else(|| RulesError::invalid(file, &format!("board.{k}"), "a number 2..=12"))
    };
    let (files, ranks) = (dim("files")?, dim("ranks")?);
    let style_text = top
        .get("style")
        .and_then(Value::as_str)
        .ok_or_else(|| RulesError::missing(file, "style"))?;
    let style = Sin::parse(style_text)
        .ok()
        .filter(|s| s.side() == Side::First)
        .ok_or_else(|| RulesError::invalid(file, "style", "one uppercase letter"))?;
    let regions = top.get("regions").and_then(Value::as_object);
    let region = |key: &str, text: &str| -> Result<Vec<Cell>, RulesError> {
        match regions.and_then(|r| r.get(text)).and_then(Value::as_str) {
            Some(named) => parse_region(file, key, named, files, ranks),
            None => parse_region(file, key, text, files, ranks),
        }
    };
    let pieces = top
        .get("pieces")
        .and_then(Value::as_object)
        .ok_or_else(|| RulesError::missing(file, "pieces"))?;
    let mut b = Builder::new(u16::from(files), u16::from(ranks));
    let all: Vec<Cell> = b.cells().collect();
    for (pin_text, spec) in pieces {
        let path = format!("pieces.{pin_text}");
        let pin = Pin::parse(pin_text)
            .ok()
            .filter(|p| p.side() == Side::First)
            .ok_or_else(|| RulesError::invalid(file, &path, "a first player's PIN (uppercase)"))?;
        let spec = spec
            .as_object()
            .ok_or_else(|| RulesError::invalid(file, &path, "must be an object"))?;
        for k in spec.keys() {
            if !["moves", "on", "within"].contains(&k.as_str()) {
                return Err(RulesError::unknown(file, &format!("{path}.{k}")));
            }
        }
        let moves_key = format!("{path}.moves");
        let moves = spec
            .get("moves")
            .and_then(Value::as_str)
            .ok_or_else(|| RulesError::missing(file, &moves_key))?;
        let on = match spec
            .get("on")
            .or(spec.get("within"))
            .and_then(Value::as_str)
        {
            Some(t) => region(&format!("{path}.on"), t)?,
            None => all.clone(),
        };
        let within = match spec.get("within").and_then(Value::as_str) {
            Some(t) => Some(region(&format!("{path}.within"), t)?),
            None => None,
        };
        for side in Side::BOTH {
            let fwd = if side == Side::First { 1 } else { -1 };
            let mirror = |c: Cell| match side {
                Side::First => c,
                Side::Second => Cell::new(c.file(), u16::from(ranks) - 1 - c.rank()),
            };
            let piece = Qpi {
                sin: style.with_side(side),
                pin: pin.with_side(side),
            };
            let stand: Vec<Cell> = on.iter().map(|&c| mirror(c)).collect();
            let inside = |c: Cell| {
                within
                    .as_ref()
                    .map_or(true, |w| w.iter().any(|&x| mirror(x) == c))
            };
            for &from in &stand {
                // A piece may stand on a square from which it has no move.
                b.ggn.0.entry(piece).or_default().entry(from).or_default();
                for word in moves.split_whitespace() {
                    let (mode, rest) = match word.split_once(':') {
                        Some(("move", r)) => (Mode::Quiet, r),
                        Some(("capture", r)) => (Mode::Capture, r),
                        _ => (Mode::Both, word),
                    };
                    let (atom, arg) = rest.split_once(':').unwrap_or((rest, ""));
                    let add = |b: &mut Builder, path: &[Cell], to: Cell| {
                        if !inside(to) {
                            return;
                        }
                        if mode != Mode::Capture {
                            b.quiet(piece, from, path, to);
                        }
                        if mode != Mode::Quiet {
                            b.capture(piece, from, path, to);
                        }
                    };
                    match atom {
                        "step" => {
                            for d in directions(file, &moves_key, arg, fwd)? {
                                if let Some(to) = b.offset(from, d) {
                                    add(&mut b, &[], to);
                                }
                            }
                        }
                        "slide" => {
                            for d in directions(file, &moves_key, arg, fwd)? {
                                let ray = b.ray(from, d);
                                for (k, &to) in ray.iter().enumerate() {
                                    add(&mut b, &ray[..k], to);
                                }
                            }
                        }
                        "leap" => {
                            let (x, y) = arg
                                .split_once(',')
                                .and_then(|(a, c)| {
                                    Some((a.parse::<i32>().ok()?, c.parse::<i32>().ok()?))
                                })
                                .filter(|&(a, c)| {
                                    (0..=4).contains(&a) && (0..=4).contains(&c) && a + c > 0
                                })
                                .ok_or_else(|| {
                                    RulesError::invalid(
                                        file,
                                        &moves_key,
                                        format!("'{word}': leap:A,B with 0 <= A, B <= 4"),
                                    )
                                })?;
                            let mut seen = Vec::new();
                            for (a, c) in [(x, y), (y, x)] {
                                for (sa, sc) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                                    let d = (a * sa, c * sc);
                                    if !seen.contains(&d) {
                                        seen.push(d);
                                        if let Some(to) = b.offset(from, d) {
                                            add(&mut b, &[], to);
                                        }
                                    }
                                }
                            }
                        }
                        "horse" | "elephant" => {
                            let steps: &[(Delta, Delta)] = if atom == "horse" {
                                &[
                                    ((0, 1), (-1, 2)),
                                    ((0, 1), (1, 2)),
                                    ((0, -1), (-1, -2)),
                                    ((0, -1), (1, -2)),
                                    ((1, 0), (2, 1)),
                                    ((1, 0), (2, -1)),
                                    ((-1, 0), (-2, 1)),
                                    ((-1, 0), (-2, -1)),
                                ]
                            } else {
                                &[
                                    ((1, 1), (2, 2)),
                                    ((-1, 1), (-2, 2)),
                                    ((1, -1), (2, -2)),
                                    ((-1, -1), (-2, -2)),
                                ]
                            };
                            for &(leg, d) in steps {
                                if let (Some(leg), Some(to)) =
                                    (b.offset(from, leg), b.offset(from, d))
                                {
                                    add(&mut b, &[leg], to);
                                }
                            }
                        }
                        "cannon" | "hop" => {
                            for d in directions(file, &moves_key, arg, fwd)? {
                                let ray = b.ray(from, d);
                                for (k, &to) in ray.iter().enumerate() {
                                    if !inside(to) {
                                        continue;
                                    }
                                    let between = &ray[..k];
                                    if atom == "cannon" && mode != Mode::Capture {
                                        b.quiet(piece, from, between, to);
                                    }
                                    if mode == Mode::Quiet {
                                        continue;
                                    }
                                    for (s, &screen) in between.iter().enumerate() {
                                        let path: Vec<Cell> = between
                                            .iter()
                                            .enumerate()
                                            .filter(|&(i, _)| i != s)
                                            .map(|(_, &c)| c)
                                            .collect();
                                        let deny: Conditions = [(screen, Condition::Empty)].into();
                                        b.add_path(piece, from, &path, to, Condition::Enemy, deny);
                                    }
                                }
                            }
                        }
                        _ => {
                            return Err(RulesError::invalid(
                                file,
                                &moves_key,
                                format!("unknown movement '{word}'"),
                            ))
                        }
                    }
                }
            }
        }
    }
    Ok(b.ggn)
}

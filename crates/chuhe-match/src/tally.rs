//! The figures of games already played, read back from their PCN records: a match stopped
//! and continued (`--from-round`) in several runs, or several runs put together, counted as
//! `chuhe match` counts one.

use std::collections::HashMap;

use chuhe::notation::pcn::Pcn;
use chuhe::{GameKind, Outcome};

use crate::{summarize, GameReport, MatchError, PairStats, Sprt, Summary, Tournament};

/// A finished game's record, as `chuhe match --pcn-dir` writes it, for [`tally`].
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Where it was read (a file name), for messages.
    pub label: String,
    /// Records of the same match share a group: the two games of a round pair up only
    /// within their group (each run's rounds are numbered from 1, or from `--from-round`).
    pub group: usize,
    /// The record.
    pub pcn: Pcn,
}

/// Counts finished games as [`crate::run_match`] does: the engines by their names in the
/// records (in the order they first appear), each pair's games, and its game pairs: the two
/// games of one round of one group, colours swapped. Every record is replayed by the rules
/// (moves, status and winner checked) and must carry the round and the players' names that
/// `chuhe match` writes. A round with one game of a pair is counted as a single game and named
/// in the warnings; a third game of a round, or two with the same colours, is refused.
///
/// ```
/// # use chuhe_match::{tally, PlayedGame};
/// # use chuhe::notation::pcn::Pcn;
/// let record = |first: &str, second: &str, winner: &str| {
///     let json = format!(
///         r#"{{"meta": {{"round": 1, "game": "xiangqi"}},
///             "sides": {{"first": {{"name": "{first}"}}, "second": {{"name": "{second}"}}}},
///             "setup": "rheag^ae1r/9/1c4hc1/s1s1s1s1s/9/9/S1S1S1S1S/1C2C4/9/RHEAG^AEHR / X/x",
///             "moves": [], "status": "resignation", "winner": "{winner}"}}"#
///     );
///     PlayedGame { label: first.into(), group: 0, pcn: Pcn::from_json(&json).unwrap() }
/// };
/// // One round: a wins with the first move, and wins again with the second.
/// let summary = tally(&[record("a", "b", "first"), record("b", "a", "second")], None).unwrap();
/// let head = summary.head.unwrap();
/// assert_eq!((head.tally.wins, head.pentanomial.counts), (2, [0, 0, 0, 0, 1]));
/// ```
pub fn tally(games: &[PlayedGame], sprt: Option<Sprt>) -> Result<Summary, MatchError> {
    let refuse = |g: &PlayedGame, message: String| MatchError::Record {
        label: g.label.clone(),
        message,
    };
    let mut kind: Option<GameKind> = None;
    let mut names: Vec<String> = Vec::new();
    let mut pairs: Vec<PairStats> = Vec::new();
    // (pair, group, round) → the game pair's number and the first side of its games so far.
    let mut rounds: HashMap<(usize, usize, u32), (u32, Vec<usize>)> = HashMap::new();
    for (index, g) in games.iter().enumerate() {
        let played = chuhe::record::game_of(&g.pcn).map_err(|e| refuse(g, e.to_string()))?;
        let this_kind = played.kind();
        match kind {
            None => kind = Some(this_kind),
            Some(k) if k != this_kind => {
                return Err(refuse(g, format!("a {this_kind} game among {k} games")));
            }
            Some(_) => {}
        }
        let (Some(status), Some(winner)) = (g.pcn.status, g.pcn.winner) else {
            return Err(refuse(
                g,
                "the game is not finished (no status or winner)".into(),
            ));
        };
        let round = g.pcn.meta.round.ok_or_else(|| {
            refuse(
                g,
                "no meta.round: not a record of `chuhe match --pcn-dir`".into(),
            )
        })?;
        let name = |side: Option<&chuhe::notation::pcn::SideInfo>| {
            side.and_then(|s| s.name.clone())
                .ok_or_else(|| refuse(g, "a side without a name: who played it?".into()))
        };
        let sides = g.pcn.sides.as_ref();
        let side_names = [
            name(sides.and_then(|s| s.first.as_ref()))?,
            name(sides.and_then(|s| s.second.as_ref()))?,
        ];
        if side_names[0] == side_names[1] {
            return Err(refuse(g, format!("'{}' played both sides", side_names[0])));
        }
        let engines = side_names.map(|n| match names.iter().position(|m| *m == n) {
            Some(i) => i,
            None => {
                names.push(n);
                names.len() - 1
            }
        });
        let pair = match pairs
            .iter()
            .position(|p| p.engines == engines || p.engines == [engines[1], engines[0]])
        {
            Some(p) => p,
            None => {
                pairs.push(PairStats {
                    engines,
                    ..PairStats::default()
                });
                pairs.len() - 1
            }
        };
        let next_number = rounds.len() as u32;
        let (number, firsts) = rounds
            .entry((pair, g.group, round))
            .or_insert((next_number, Vec::new()));
        if firsts.len() == 2 {
            return Err(refuse(
                g,
                format!("a third game of round {round} between the same engines in one group"),
            ));
        }
        if firsts.contains(&engines[0]) {
            return Err(refuse(
                g,
                format!(
                    "round {round}: '{}' had the first move in both games of the pair",
                    names[engines[0]]
                ),
            ));
        }
        firsts.push(engines[0]);
        let reason = g
            .pcn
            .meta
            .extra
            .get("termination")
            .and_then(|t| t.as_str())
            .map_or_else(|| status.to_string(), str::to_string);
        let report = GameReport {
            index,
            round: *number,
            pair,
            engines,
            outcome: Outcome {
                status,
                winner: chuhe::record::side_of_winner(winner),
                reason: None,
            },
            reason,
            pcn: g.pcn.clone(),
            pgn: None,
        };
        pairs[pair].add(&report);
    }
    let Some(kind) = kind else {
        return Err(MatchError::Config("no game records to count".into()));
    };
    let mut halves: Vec<(usize, u32, usize)> = rounds
        .iter()
        .filter(|(_, (_, firsts))| firsts.len() == 1)
        .map(|(&(pair, group, round), _)| (group, round, pair))
        .collect();
    halves.sort_unstable();
    let warnings = halves
        .into_iter()
        .map(|(group, round, pair)| {
            let [a, b] = pairs[pair].engines;
            format!(
                "round {round} of {} vs {} (group {}): one game only, left out of the game pairs",
                names[a],
                names[b],
                group + 1
            )
        })
        .collect();
    let tournament = if names.len() > 2 && pairs.iter().all(|p| p.engines.contains(&0)) {
        Tournament::Gauntlet
    } else {
        Tournament::RoundRobin
    };
    Ok(Summary {
        warnings,
        ..summarize(kind, tournament, names, &pairs, sprt.as_ref())
    })
}

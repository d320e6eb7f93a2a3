//! Perft suites as data: the record format of `perft-xiongqi.txt` and `perft-xiangqi.txt`.
//!
//! ```
//! use chuhe::suite::parse_suite;
//! let text = "# comment\nid start\nfeen 7g^/8/8/3s4/3G^4/8/8/8 / X/x\nperft 1 4\nperft 2 9\n";
//! let records = parse_suite(text).unwrap();
//! assert_eq!(records[0].id, "start");
//! assert_eq!(records[0].expected, vec![(1, 4), (2, 9)]);
//! ```

use std::fmt;

use chuhe_notation::error::shorten;

/// How a record names its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SuitePosition {
    /// A FEEN (Sashité).
    Feen(String),
    /// A standard Xiangqi FEN.
    Fen(String),
}

/// One record: a position, an optional clock, and expected counts by depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftRecord {
    /// The record's short name.
    pub id: String,
    /// The position.
    pub position: SuitePosition,
    /// The half-move clock to start from (0 unless given).
    pub halfmove: u32,
    /// (depth, nodes) pairs in file order.
    pub expected: Vec<(u32, u64)>,
}

/// A line of a suite file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct SuiteError {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "perft suite line {}: {}", self.line, self.message)
    }
}

/// A record being read: what has been seen since its `id` line.
struct Draft {
    record: PerftRecord,
    has_position: bool,
    line: usize,
}

impl Draft {
    fn finish(self) -> Result<PerftRecord, SuiteError> {
        if self.has_position {
            Ok(self.record)
        } else {
            Err(SuiteError {
                line: self.line,
                message: format!(
                    "record '{}' has no feen or fen line",
                    shorten(&self.record.id)
                ),
            })
        }
    }
}

/// Parses a suite: records separated by blank lines, `#` comments.
pub fn parse_suite(text: &str) -> Result<Vec<PerftRecord>, SuiteError> {
    let mut records = Vec::new();
    let mut current: Option<Draft> = None;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if let Some(draft) = current.take() {
                records.push(draft.finish()?);
            }
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        let err = |message: String| SuiteError {
            line: line_no,
            message,
        };
        if key == "id" {
            if let Some(draft) = current.take() {
                records.push(draft.finish()?);
            }
            current = Some(Draft {
                record: PerftRecord {
                    id: value.to_string(),
                    position: SuitePosition::Feen(String::new()),
                    halfmove: 0,
                    expected: Vec::new(),
                },
                has_position: false,
                line: line_no,
            });
            continue;
        }
        let Some(draft) = current.as_mut() else {
            return Err(err(format!("'{}' before any 'id' line", shorten(key))));
        };
        let record = &mut draft.record;
        match key {
            "feen" | "fen" => {
                record.position = if key == "feen" {
                    SuitePosition::Feen(value.to_string())
                } else {
                    SuitePosition::Fen(value.to_string())
                };
                draft.has_position = true;
            }
            "halfmove" => {
                record.halfmove = value
                    .parse()
                    .map_err(|_| err(format!("bad half-move clock '{}'", shorten(value))))?
            }
            "perft" => {
                let mut parts = value.split_whitespace();
                let depth = parts.next().and_then(|d| d.parse().ok());
                let nodes = parts.next().and_then(|n| n.parse().ok());
                match (depth, nodes, parts.next()) {
                    (Some(d), Some(n), None) => record.expected.push((d, n)),
                    _ => {
                        return Err(err(format!(
                            "expected 'perft DEPTH NODES', found '{}'",
                            shorten(line)
                        )))
                    }
                }
            }
            other => return Err(err(format!("unknown key '{}'", shorten(other)))),
        }
    }
    if let Some(draft) = current.take() {
        records.push(draft.finish()?);
    }
    Ok(records)
}

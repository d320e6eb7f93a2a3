//! WXF notation (being written).

use super::position::Position;
use super::types::Move;
use crate::MoveError;

pub(crate) fn to_wxf(_pos: &Position, m: Move) -> String {
    m.to_string()
}

pub(crate) fn parse_wxf(_pos: &Position, text: &str) -> Result<Move, MoveError> {
    Err(MoveError::Syntax {
        text: text.to_string(),
        reason: "WXF input is not available yet".to_string(),
    })
}

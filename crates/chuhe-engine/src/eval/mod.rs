//! Static evaluation, one module per game.

pub mod xiangqi;
pub mod xiongqi;

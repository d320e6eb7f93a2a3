//! Python bindings of chuhe (the native module `chuhe._chuhe`): the library face
//! ([`game`]), the engine ([`engine`]) and the reinforcement-learning core ([`env`],
//! [`pyenv`]), each written once over [`chuhe::GamePosition`]; games read from rule files
//! are named `rules:DIR` ([`rules`]). The pure-Python package lives
//! in `python/chuhe/`.

pub mod core;
pub mod engine;
pub mod env;
pub mod errors;
pub mod game;
pub mod mcts;
pub mod observe;
pub mod pool;
pub mod pyenv;
pub mod rules;

use pyo3::prelude::*;

#[pymodule]
fn _chuhe(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add(
        "InvalidMoveError",
        py.get_type::<errors::InvalidMoveError>(),
    )?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add(
        "InvalidPositionError",
        py.get_type::<errors::InvalidPositionError>(),
    )?;
    m.add("RulesError", py.get_type::<errors::RulesError>())?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::Move>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<pyenv::EnvCore>()?;
    m.add_class::<pyenv::VecCore>()?;
    m.add_class::<pyenv::EnvState>()?;
    m.add_class::<mcts::MctsCore>()?;
    m.add_function(wrap_pyfunction!(pyenv::env_spec, m)?)?;
    m.add_function(wrap_pyfunction!(pyenv::_env_state, m)?)?;
    m.add_function(wrap_pyfunction!(game::_restore_game, m)?)?;
    m.add_function(wrap_pyfunction!(game::_restore_move, m)?)?;
    m.add_function(wrap_pyfunction!(game::_capture_moves_past_end, m)?)?;
    m.add_function(wrap_pyfunction!(game::_read_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(observe::_observe_into, m)?)?;
    m.add_function(wrap_pyfunction!(rules::_load_rules, m)?)?;
    Ok(())
}

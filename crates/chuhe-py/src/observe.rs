//! `chuhe.observe`: the observations and masks of any batch of games, env states or
//! position texts, written into arrays made by the caller (NumPy's, which torch and JAX take
//! through DLPack without a copy).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::core::{new_game, DynGame};
use crate::errors::position_error;
use crate::game::{check_history, parse_kind, Game};
use crate::pyenv::{buffer, items, EnvState};

/// Writes the observation and mask of every item (a `Game`, an `EnvState`, or a FEN/FEEN of
/// `game`) into row `i` of `obs` (`float32[N, planes, ranks, files]`) and `mask`
/// (`int8[N, actions]`), from the side to move's view with `history` earlier positions.
#[pyfunction]
pub fn _observe_into(
    items_: Vec<Bound<'_, PyAny>>,
    game: &str,
    history: usize,
    obs: &Bound<'_, PyAny>,
    mask: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let kind = parse_kind(game)?;
    check_history(history)?;
    let spec = crate::env::spec_for(kind, history);
    let n = items_.len();
    let ob = buffer::<f32>(obs, n * spec.obs_len(), "obs")?;
    let mb = buffer::<i8>(mask, n * spec.actions, "mask")?;
    // SAFETY: both buffers are held for the call and are distinct arrays.
    let (o, m) = unsafe { (items(&ob), items(&mb)) };
    let rows = o.chunks_mut(spec.obs_len()).zip(m.chunks_mut(spec.actions));
    for (i, (item, (o, m))) in items_.iter().zip(rows).enumerate() {
        // Each item is read where it lies; only a text makes a game.
        let (borrowed, state, parsed): (PyRef<'_, Game>, Bound<'_, EnvState>, Box<dyn DynGame>);
        let game: &dyn DynGame = if let Ok(g) = item.downcast::<Game>() {
            borrowed = g.borrow();
            borrowed.inner.as_ref()
        } else if let Ok(s) = item.downcast::<EnvState>() {
            state = s.clone();
            state.get().dyn_game()
        } else if let Ok(text) = item.extract::<String>() {
            parsed = new_game(kind, &text).map_err(|e| {
                let err = position_error(&e, kind.name(), &text);
                PyValueError::new_err(format!("items[{i}]: {err}"))
            })?;
            parsed.as_ref()
        } else {
            return Err(PyTypeError::new_err(format!(
                "items[{i}]: {} is not a chuhe.Game, an env state or a FEN/FEEN",
                item.repr()
                    .map(|r| r.to_string())
                    .unwrap_or_else(|_| "?".into())
            )));
        };
        if game.kind() != kind {
            return Err(PyValueError::new_err(format!(
                "items[{i}] is of {}, not {kind}: a batch holds one game",
                game.kind()
            )));
        }
        game.observe_into(history, o, m);
    }
    Ok(())
}

//! `chuhe serve`: Xiongqi and Xiangqi in the browser, against chuhe's engine or a friend,
//! every game kept in a database.
//!
//! The layers, from the bottom:
//! - [`store`]: the [`store::Store`] trait and its SQLite and PostgreSQL implementations;
//! - [`live`]: a game in play (rules, clocks, draw offers) and every player action, each
//!   written to the store before it is acknowledged;
//! - [`hub`]: the games in memory, the engine's moves and the clocks' deadlines;
//! - [`api`] and `ws`: the HTTP routes, the JSON API and each game's WebSocket; the page's
//!   assets are embedded in the binary.
//!
//! ```no_run
//! let options = chuhe_server::ServeOptions::default();
//! chuhe_server::serve(options).unwrap();
//! ```

pub mod api;
pub mod error;
pub mod hub;
pub mod live;
mod page;
pub mod store;
mod ws;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

pub use error::ApiError;
pub use hub::{Hub, HubOptions};

/// How `chuhe serve` runs.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The address to listen on (loopback unless told otherwise).
    pub addr: String,
    /// The database: a SQLite file path, or a `postgres://` URL.
    pub db: String,
    /// The engine's time per move.
    pub engine_movetime: Duration,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            addr: "127.0.0.1:8080".into(),
            db: "chuhe-games.sqlite3".into(),
            engine_movetime: Duration::from_millis(500),
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened.
    #[error("{0}")]
    Store(#[from] store::StoreError),
    /// The address is not an address.
    #[error("--addr '{0}' is not an address like 127.0.0.1:8080")]
    BadAddress(String),
    /// Listening failed.
    #[error("cannot listen on {addr}: {error}")]
    Listen {
        /// The address.
        addr: String,
        /// Why.
        error: std::io::Error,
    },
}

/// Opens the store, listens, prints `listening on http://ADDR` and serves until Ctrl-C.
pub fn serve(options: ServeOptions) -> Result<(), ServeError> {
    let addr: SocketAddr = options
        .addr
        .parse()
        .map_err(|_| ServeError::BadAddress(options.addr.clone()))?;
    // The PostgreSQL client must be made outside the async runtime.
    let store: Arc<dyn store::Store> = Arc::from(store::open(&options.db)?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|error| ServeError::Listen {
            addr: options.addr.clone(),
            error,
        })?;
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(addr)
                .await
                .map_err(|error| ServeError::Listen {
                    addr: options.addr.clone(),
                    error,
                })?;
        let local = listener.local_addr().unwrap_or(addr);
        println!(
            "chuhe serve: listening on http://{local} (games in {})",
            store.describe()
        );
        let hub = Hub::new(
            store,
            HubOptions {
                engine_movetime: options.engine_movetime,
            },
        );
        axum::serve(listener, api::router(hub))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|error| ServeError::Listen {
                addr: local.to_string(),
                error,
            })
    })
}

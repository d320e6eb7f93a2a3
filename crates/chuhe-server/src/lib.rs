//! `chuhe serve`: Xiongqi and Xiangqi in the browser — a site a club can run: players with
//! accounts (or guests), a lobby of seeks and challenges, games against the engine or each
//! other, Glicko-2 ratings, an archive; every game kept in a database, one server on SQLite or
//! several on PostgreSQL.
//!
//! The layout follows the domains, as lichess's lila and pychess-variants do:
//! - [`round`]: one game — its actions through one [`round::Round::apply`], its clocks, its
//!   view, its typed errors — and [`round::rooms`], the games a server holds in memory;
//! - [`lobby`]: seeks, challenges, the games being played;
//! - [`user`]: accounts, guests, sessions, names and passwords;
//! - [`rating`]: Glicko-2 categories and updates;
//! - [`archive`]: records in (PGN, PCN, XQF, FEN) and out (PCN, PGN);
//! - [`engines`]: a fixed number of engine threads shared by the engine players (whose moves
//!   go first) and the analysis, with their queues;
//! - [`analysis`]: the analysis board — positions checked by the rules core, analyses
//!   streamed to pages, with their limits;
//! - [`review`]: reviews after a game — positions evaluated at a fixed budget, moves
//!   classified, accuracy, computed once behind several servers;
//! - [`store`]: one trait per domain and their one SQL implementation, on SQLite or
//!   PostgreSQL, with the schema's migrations as SQL files;
//! - [`app`]: the server's state and its background work;
//! - [`http`]: the routes and WebSockets, thin layers over the domains; [`http::guard`] in
//!   front of every route (the origin check of changes, the security headers).
//!
//! ```no_run
//! let options = chuhe_server::ServeOptions::default();
//! chuhe_server::serve(options).unwrap();
//! ```

pub mod analysis;
pub mod app;
pub mod archive;
pub mod chart;
pub mod creations;
pub mod engines;
pub mod error;
pub mod http;
pub mod ids;
pub mod kinds;
pub mod lobby;
pub mod rating;
pub mod review;
pub mod round;
pub mod store;
pub mod user;

use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

pub use app::{App, AppOptions};
pub use error::ApiError;

/// How `chuhe serve` runs.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The address to listen on (loopback unless told otherwise).
    pub addr: String,
    /// The database: a SQLite file path, or a `postgres://` URL.
    pub db: String,
    /// The engine's time per move.
    pub engine_movetime: Duration,
    /// The origins whose pages may change games (`https://chuhe.example`); empty: the
    /// server's own.
    pub allowed_origins: Vec<String>,
    /// How long each side has for its first move in a game with clocks before the game is
    /// aborted.
    pub abort_after: Duration,
    /// The engine's worker threads (searches at once; the others queue).
    pub engine_threads: usize,
    /// How long an unused game stays in memory.
    pub idle_after: Duration,
    /// How long the side to move of a game between people without clocks may leave it.
    pub abandon_after: Duration,
    /// New games a minute per client address (0: no limit).
    pub games_per_minute: u32,
    /// Count clients by the balancer's `X-Forwarded-For` rather than the connection.
    pub trust_forwarded_for: bool,
    /// May anyone make an account (`--signup open`, the default)?
    pub signup_open: bool,
    /// Mark the session cookie `Secure` (`--cookie-secure`, for a site behind TLS).
    pub cookie_secure: bool,
    /// Seconds of search an analysis may use in all (`--analysis-seconds`).
    pub analysis_seconds: u64,
    /// Searching analysis pages per client address (`--analysis-per-address`).
    pub analysis_per_address: usize,
    /// Analyses (and reviews) that may wait for the engine (`--analysis-queue`).
    pub analysis_queue: usize,
    /// Nodes searched per position of a review (`--review-nodes`).
    pub review_nodes: u64,
    /// The directories of games read from rule files (`--rules DIR`, repeatable), served
    /// beside the native games.
    pub rules: Vec<std::path::PathBuf>,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            addr: "127.0.0.1:8080".into(),
            db: "chuhe-games.sqlite3".into(),
            engine_movetime: Duration::from_millis(500),
            allowed_origins: Vec::new(),
            abort_after: round::DEFAULT_ABORT_AFTER,
            engine_threads: round::rooms::default_engine_threads(),
            idle_after: round::rooms::DEFAULT_IDLE_AFTER,
            abandon_after: round::rooms::DEFAULT_ABANDON_AFTER,
            games_per_minute: app::DEFAULT_GAMES_PER_MINUTE,
            trust_forwarded_for: false,
            signup_open: true,
            cookie_secure: false,
            analysis_seconds: analysis::AnalysisOptions::default().seconds.as_secs(),
            analysis_per_address: analysis::AnalysisOptions::default().per_address,
            analysis_queue: analysis::AnalysisOptions::default().queue,
            review_nodes: review::DEFAULT_REVIEW_NODES,
            rules: Vec::new(),
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
    #[error("--addr '{0}' is not an address like 127.0.0.1:8080, localhost:8080 or [::1]:8080")]
    BadAddress(String),
    /// The host name of the address has no address.
    #[error("--addr '{addr}': cannot find the host: {error}")]
    UnknownHost {
        /// The address.
        addr: String,
        /// Why.
        error: std::io::Error,
    },
    /// An `--allowed-origin` is not an origin.
    #[error("{0}")]
    BadOrigin(String),
    /// `--db` is empty.
    #[error("--db is empty: name a SQLite file (created on first start) or a postgres:// URL")]
    EmptyDatabase,
    /// A `--rules` directory's files are wrong (the file, the key, what is wrong).
    #[error("--rules: {0}")]
    Rules(#[from] chuhe::rules::RulesError),
    /// The `--rules` games cannot be served together, or beside the native games.
    #[error("--rules {dir}: {error}")]
    Kinds {
        /// The directory.
        dir: String,
        /// Why.
        error: kinds::KindsError,
    },
    /// Listening failed.
    #[error("cannot listen on {addr}: {error}")]
    Listen {
        /// The address.
        addr: String,
        /// Why.
        error: std::io::Error,
    },
}

/// The socket addresses of `--addr`: `HOST:PORT` with an IPv4 or IPv6 address (`[::1]:8080`)
/// or a host name (`localhost:8080`), looked up by the system's resolver.
pub fn resolve(addr: &str) -> Result<Vec<SocketAddr>, ServeError> {
    let bad = || ServeError::BadAddress(addr.to_string());
    if let Ok(a) = addr.parse::<SocketAddr>() {
        return Ok(vec![a]);
    }
    // A host name needs a port after its last colon (and no other colon: IPv6 goes in
    // brackets).
    let (host, port) = addr.rsplit_once(':').ok_or_else(bad)?;
    if host.is_empty() || host.contains(':') || port.parse::<u16>().is_err() {
        return Err(bad());
    }
    let found: Vec<SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|error| ServeError::UnknownHost {
            addr: addr.to_string(),
            error,
        })?
        .collect();
    if found.is_empty() {
        return Err(ServeError::UnknownHost {
            addr: addr.to_string(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "no address"),
        });
    }
    Ok(found)
}

/// The most threads the server's runtime runs blocking work on (the store, the games'
/// locks) at once; more requests wait their turn.
pub const MAX_BLOCKING_THREADS: usize = 64;

/// The runtime `chuhe serve` runs on: a thread per core for the sockets, at most
/// [`MAX_BLOCKING_THREADS`] for blocking work (the engine has its own, see [`engines`]).
pub fn build_runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .enable_all()
        .build()
}

/// The games of `--rules` directories beside the native games: each directory compiled
/// (an error names its file and key), the names checked (see [`kinds`]).
pub fn kinds_of(dirs: &[std::path::PathBuf]) -> Result<kinds::Kinds, ServeError> {
    let mut handles = Vec::with_capacity(dirs.len());
    for (i, dir) in dirs.iter().enumerate() {
        handles.push(chuhe::rules::load_dir(dir)?);
        kinds::Kinds::new(handles.iter().copied()).map_err(|error| ServeError::Kinds {
            dir: dirs[i].display().to_string(),
            error,
        })?;
    }
    Ok(kinds::Kinds::new(handles).unwrap_or_default())
}

/// Opens the store, listens, prints `listening on http://ADDR` and serves until Ctrl-C.
pub fn serve(options: ServeOptions) -> Result<(), ServeError> {
    let addrs = resolve(&options.addr)?;
    if options.db.trim().is_empty() {
        return Err(ServeError::EmptyDatabase);
    }
    let allowed_origins = options
        .allowed_origins
        .iter()
        .map(|o| http::guard::parse_origin(o))
        .collect::<Result<Vec<_>, _>>()
        .map_err(ServeError::BadOrigin)?;
    let kinds = kinds_of(&options.rules)?;
    // The PostgreSQL client must be made outside the async runtime.
    let store: Arc<dyn store::Store> = Arc::from(store::open(&options.db)?);
    let runtime = build_runtime().map_err(|error| ServeError::Listen {
        addr: options.addr.clone(),
        error,
    })?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&addrs[..])
            .await
            .map_err(|error| ServeError::Listen {
                addr: options.addr.clone(),
                error,
            })?;
        let local = listener.local_addr().unwrap_or(addrs[0]);
        println!(
            "chuhe serve: listening on http://{local} (games in {})",
            store.describe()
        );
        let app = App::new(
            store,
            AppOptions {
                engine_movetime: options.engine_movetime,
                allowed_origins,
                abort_after: options.abort_after,
                engine_threads: options.engine_threads,
                idle_after: options.idle_after,
                abandon_after: options.abandon_after,
                games_per_minute: options.games_per_minute,
                trust_forwarded_for: options.trust_forwarded_for,
                signup_open: options.signup_open,
                cookie_secure: options.cookie_secure,
                presence_every: app::PRESENCE_EVERY,
                analysis: analysis::AnalysisOptions {
                    seconds: Duration::from_secs(options.analysis_seconds),
                    per_address: options.analysis_per_address,
                    queue: options.analysis_queue,
                    ..analysis::AnalysisOptions::default()
                },
                analysis_slice: engines::DEFAULT_SLICE,
                review: review::ReviewOptions {
                    nodes: options.review_nodes,
                    ..review::ReviewOptions::default()
                },
                kinds,
            },
        );
        axum::serve(listener, http::service(app))
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

//! The server's state: its store, the rounds in memory ([`Rooms`]), the lobby, the players'
//! service and the limits; and the work it does in the background — listening to the other
//! servers' changes, sweeping games whose deadline passed, reporting who is at which game,
//! keeping the seeks of open lobby pages, dropping idle games from memory.

use std::sync::Arc;
use std::time::Duration;

use crate::analysis::{Analyses, AnalysisOptions};
use crate::creations::CreationLimit;
use crate::engines::{EnginePool, PoolOptions};
use crate::kinds::Kinds;
use crate::lobby::Lobby;
use crate::review::{ReviewOptions, Reviews};
use crate::round::rooms::{Rooms, RoomsOptions};
use crate::store::{Change, Store, CHANGES_CHANNEL, LOBBY_CHANNEL};
use crate::user::Users;

/// Settings of a server.
#[derive(Clone, Debug)]
pub struct AppOptions {
    /// The engine's time per move (less when its clock is short).
    pub engine_movetime: Duration,
    /// The origins (`https://chuhe.example`) whose pages may change things; empty: the
    /// server's own, as each request's `Host` names it (see [`crate::http::guard`]).
    pub allowed_origins: Vec<String>,
    /// How long each side has for its first move (in games with clocks and between people)
    /// before the game is aborted.
    pub abort_after: Duration,
    /// The engine's worker threads.
    pub engine_threads: usize,
    /// How long an unused game stays in memory.
    pub idle_after: Duration,
    /// In a game between people without clocks, how long the side to move may have no page
    /// open before losing the game as left.
    pub abandon_after: Duration,
    /// Games one client address may create a minute (0: no limit; `chuhe serve` allows
    /// [`DEFAULT_GAMES_PER_MINUTE`]).
    pub games_per_minute: u32,
    /// Take the client's address from the last `X-Forwarded-For` entry (the one the balancer
    /// in front appended) rather than from the connection.
    pub trust_forwarded_for: bool,
    /// May anyone make an account (`--signup open`), or only the administrator
    /// (`chuhe user create`)?
    pub signup_open: bool,
    /// Mark the session cookie `Secure` (a site behind TLS).
    pub cookie_secure: bool,
    /// How often the server reports who is at its games (spectator counts, players present)
    /// and keeps its lobby pages' seeks.
    pub presence_every: Duration,
    /// The analysis board's searches: time and depth, pages per client address, the queue.
    pub analysis: AnalysisOptions,
    /// How long an analysis runs before it gives its worker up to others waiting.
    pub analysis_slice: Duration,
    /// Reviews after a game: nodes per position, when a silent server's review is taken over.
    pub review: ReviewOptions,
    /// The games offered: the native ones and those read from rule files (`--rules`).
    pub kinds: Kinds,
}

/// New games a minute per client address that `chuhe serve` allows by default.
pub const DEFAULT_GAMES_PER_MINUTE: u32 = 60;

impl Default for AppOptions {
    fn default() -> Self {
        let rooms = RoomsOptions::default();
        AppOptions {
            engine_movetime: rooms.engine_movetime,
            allowed_origins: Vec::new(),
            abort_after: rooms.abort_after,
            engine_threads: rooms.engine_threads,
            idle_after: rooms.idle_after,
            abandon_after: rooms.abandon_after,
            games_per_minute: 0,
            trust_forwarded_for: false,
            signup_open: true,
            cookie_secure: false,
            presence_every: PRESENCE_EVERY,
            analysis: AnalysisOptions::default(),
            analysis_slice: crate::engines::DEFAULT_SLICE,
            review: ReviewOptions::default(),
            kinds: Kinds::default(),
        }
    }
}

/// How often a server reports who is at its games, and keeps its lobby pages' seeks.
pub const PRESENCE_EVERY: Duration = Duration::from_secs(10);

/// A server.
pub struct App {
    store: Arc<dyn Store>,
    rooms: Arc<Rooms>,
    lobby: Lobby,
    users: Users,
    creations: CreationLimit,
    analyses: Analyses,
    reviews: Reviews,
    options: AppOptions,
}

impl App {
    /// A server over `store`. Inside a Tokio runtime it also starts its background work
    /// (which ends when the server is dropped).
    pub fn new(store: Arc<dyn Store>, options: AppOptions) -> Arc<App> {
        let server_id = crate::ids::random_id(16);
        let pool = Arc::new(EnginePool::with_options(PoolOptions {
            workers: options.engine_threads,
            slice: options.analysis_slice,
            first_slice: crate::engines::DEFAULT_FIRST_SLICE,
        }));
        let rooms = Arc::new(Rooms::new(
            store.clone(),
            RoomsOptions {
                engine_movetime: options.engine_movetime,
                abort_after: options.abort_after,
                engine_threads: options.engine_threads,
                idle_after: options.idle_after,
                abandon_after: options.abandon_after,
                kinds: options.kinds.clone(),
            },
            server_id.clone(),
            pool.clone(),
        ));
        let review = ReviewOptions {
            queue: options.analysis.queue,
            ..options.review
        };
        let app = Arc::new(App {
            analyses: Analyses::new(pool.clone(), options.analysis),
            reviews: Reviews::new(store.clone(), pool, server_id, review),
            lobby: Lobby::new(store.clone()),
            users: Users::new(store.clone(), options.signup_open),
            creations: CreationLimit::new(options.games_per_minute),
            rooms,
            store,
            options,
        });
        app.listen();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let every = (app.options.idle_after / 4)
                .clamp(Duration::from_millis(10), Duration::from_secs(60));
            app.every(&runtime, every, |app| {
                app.rooms.evict_idle();
                app.creations.forget_idle();
                app.users.forget_idle();
            });
            app.every(&runtime, crate::round::rooms::SWEEP_EVERY, |app| {
                app.rooms.sweep();
            });
            let beat = (app.options.review.stale / 4).max(Duration::from_millis(10));
            app.every(&runtime, beat, |app| app.reviews.heartbeat());
            let reported = std::sync::atomic::AtomicBool::new(false);
            app.every(&runtime, app.options.presence_every, move |app| {
                // Nothing to say and nothing said before: no write.
                let presence = app.rooms.presence();
                let had = reported.swap(!presence.is_empty(), std::sync::atomic::Ordering::Relaxed);
                if had || !presence.is_empty() {
                    let _ = app.store.report_presence(app.rooms.server_id(), &presence);
                }
                app.lobby.keep_alive();
            });
        }
        app
    }

    /// Runs `work` on a blocking thread every `every`, while the server lives.
    fn every(
        self: &Arc<Self>,
        runtime: &tokio::runtime::Handle,
        every: Duration,
        work: impl Fn(&Arc<App>) + Send + Sync + 'static,
    ) {
        let weak = Arc::downgrade(self);
        let work = Arc::new(work);
        runtime.spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(app) = weak.upgrade() else { return };
                let work = work.clone();
                // On a blocking thread: if this is the server's last holder, dropping it
                // closes the database client, which blocks.
                let _ = tokio::task::spawn_blocking(move || work(&app)).await;
            }
        });
    }

    /// Listens to the changes of the other servers on this database (PostgreSQL): a game
    /// held here that another server changed is read again at once and its watchers get the
    /// new state; the lobby's changes reach this server's lobby pages.
    fn listen(self: &Arc<Self>) {
        let runtime = tokio::runtime::Handle::try_current().ok();
        let weak = Arc::downgrade(self);
        self.store.watch_changes(Box::new(move |change| {
            let Some(app) = weak.upgrade() else {
                return false;
            };
            let _runtime = runtime.as_ref().map(|r| r.enter());
            match change {
                Change::Note { channel, payload } if channel == CHANGES_CHANNEL => {
                    let parsed = payload
                        .split_once(' ')
                        .and_then(|(id, v)| Some((id, v.parse::<i64>().ok()?)));
                    if let Some((id, version)) = parsed {
                        app.rooms.changed_elsewhere(id, version);
                    }
                }
                Change::Note { channel, payload } if channel == LOBBY_CHANNEL => {
                    app.lobby.announce(payload);
                }
                Change::Reconnected => app.lobby.refresh_all(),
                _ => {}
            }
            true
        }));
    }

    /// The store.
    pub fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }

    /// The store, shared.
    pub fn store_arc(&self) -> Arc<dyn Store> {
        self.store.clone()
    }

    /// The rounds in memory.
    pub fn rooms(&self) -> &Arc<Rooms> {
        &self.rooms
    }

    /// The lobby.
    pub fn lobby(&self) -> &Lobby {
        &self.lobby
    }

    /// The players' service.
    pub fn users(&self) -> &Users {
        &self.users
    }

    /// The games offered (the native ones, and those of `--rules`).
    pub fn kinds(&self) -> &Kinds {
        &self.options.kinds
    }

    /// The settings.
    pub fn options(&self) -> &AppOptions {
        &self.options
    }

    /// Counts a game created by `client` against its limit, or refuses it (429).
    pub fn admit_creation(&self, client: std::net::IpAddr) -> Result<(), crate::ApiError> {
        self.creations.admit(client)
    }

    /// This server's name among those sharing the database.
    pub fn server_id(&self) -> &str {
        self.rooms.server_id()
    }

    /// The number of games held in memory.
    pub fn games_in_memory(&self) -> usize {
        self.rooms.in_memory()
    }

    /// The engine's workers and their queues (game moves first, then analyses and reviews).
    pub fn engines(&self) -> &crate::engines::EnginePool {
        self.rooms.engines()
    }

    /// The analysis board's searches.
    pub fn analyses(&self) -> &Analyses {
        &self.analyses
    }

    /// The reviews after games.
    pub fn reviews(&self) -> &Reviews {
        &self.reviews
    }

    /// Drops idle games from memory; how many.
    pub fn evict_idle(&self) -> usize {
        self.rooms.evict_idle()
    }
}

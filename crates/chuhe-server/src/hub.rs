//! The games the server holds in memory, loaded from the store on first use, each behind its
//! own lock with a channel that tells watchers (WebSocket connections) about changes. The hub
//! also queues the engine's search when it is the engine's move (on the [`EnginePool`]) and
//! ends games whose clock runs out.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use crate::creations::CreationLimit;
use crate::engines::EnginePool;
use crate::error::ApiError;
use crate::live::{EngineJob, LiveGame};
use crate::store::{EngineClaim, Store, StoredGame};

/// One game in memory.
pub struct Table {
    live: Mutex<LiveGame>,
    changes: watch::Sender<u64>,
    /// When the game was last asked for (see [`HubOptions::idle_after`]).
    last_used: Mutex<Instant>,
}

impl Table {
    /// Locks the game.
    pub fn lock(&self) -> MutexGuard<'_, LiveGame> {
        // An action that panicked wrote nothing half-way to the store; the game in memory
        // may be behind it, which a reload repairs.
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A receiver that sees the version of every change.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    fn announce(&self, version: u64) {
        self.changes.send_replace(version);
    }

    fn touch(&self) {
        *self.last_used.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
    }

    /// Unused since `idle_after`, and held by nothing but the hub: no watcher, no search,
    /// no clock being watched, no request at work.
    fn is_idle(self: &Arc<Self>, idle_after: Duration) -> bool {
        Arc::strong_count(self) == 1
            && self.changes.receiver_count() == 0
            && self
                .last_used
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .elapsed()
                >= idle_after
    }
}

/// The code of the error that says a game changed meanwhile.
const STALE: &str = "stale";

/// Settings of the hub.
#[derive(Clone, Debug)]
pub struct HubOptions {
    /// The engine's time per move (less when its clock is short).
    pub engine_movetime: Duration,
    /// The origins (`https://chuhe.example`) whose pages may change games; empty: the
    /// server's own, as each request's `Host` names it (see [`crate::guard`]).
    pub allowed_origins: Vec<String>,
    /// How long each side has for its first move in a game with clocks before the game is
    /// aborted (its clock starts only with that move).
    pub abort_after: Duration,
    /// The engine's worker threads: this many searches run at once, the others wait in a
    /// queue (see [`crate::engines`]).
    pub engine_threads: usize,
    /// A game nobody has used for this long (no request, no watcher, no search, no running
    /// clock) is dropped from memory; the next request reads it from the database again.
    pub idle_after: Duration,
    /// Games one client address may create a minute (0: no limit; `chuhe serve` allows
    /// [`DEFAULT_GAMES_PER_MINUTE`]).
    pub games_per_minute: u32,
    /// Take the client's address from the last `X-Forwarded-For` entry (the one the balancer
    /// in front appended) rather than from the connection.
    pub trust_forwarded_for: bool,
}

/// New games a minute per client address that `chuhe serve` allows by default.
pub const DEFAULT_GAMES_PER_MINUTE: u32 = 60;

/// How long an idle game stays in memory by default.
pub const DEFAULT_IDLE_AFTER: Duration = Duration::from_secs(600);

/// How long a server's claim on an engine move lasts beyond the engine's time per move
/// before another server may take the move over (the first server died).
pub const ENGINE_CLAIM_GRACE: Duration = Duration::from_secs(15);

/// The number of engine workers by default: the machine's cores.
pub fn default_engine_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

impl Default for HubOptions {
    fn default() -> Self {
        HubOptions {
            engine_movetime: Duration::from_millis(500),
            allowed_origins: Vec::new(),
            abort_after: crate::live::DEFAULT_ABORT_AFTER,
            engine_threads: default_engine_threads(),
            idle_after: DEFAULT_IDLE_AFTER,
            games_per_minute: 0,
            trust_forwarded_for: false,
        }
    }
}

/// The server's games.
pub struct Hub {
    store: Arc<dyn Store>,
    tables: Mutex<HashMap<String, Arc<Table>>>,
    options: HubOptions,
    engines: EnginePool,
    /// This server among those sharing the database, in engine claims.
    server_id: String,
    creations: CreationLimit,
}

impl Hub {
    /// A hub over `store`.
    ///
    /// When the store tells of changes made by other servers (PostgreSQL), the hub listens:
    /// a game it holds that another server changed is read again at once and its watchers
    /// (WebSocket clients) get the new state. Call it inside the server's runtime.
    pub fn new(store: Arc<dyn Store>, options: HubOptions) -> Arc<Hub> {
        let hub = Arc::new(Hub {
            store,
            tables: Mutex::new(HashMap::new()),
            engines: EnginePool::new(options.engine_threads),
            creations: CreationLimit::new(options.games_per_minute),
            options,
            server_id: random_id(16),
        });
        let runtime = tokio::runtime::Handle::try_current().ok();
        let weak = Arc::downgrade(&hub);
        hub.store.watch_changes(Box::new(move |change| {
            let Some(hub) = weak.upgrade() else {
                return false;
            };
            if let Some((id, version)) = change {
                let _runtime = runtime.as_ref().map(|r| r.enter());
                hub.changed_elsewhere(id, version);
            }
            true
        }));
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let weak = Arc::downgrade(&hub);
            let every = (hub.options.idle_after / 4)
                .clamp(Duration::from_millis(10), Duration::from_secs(60));
            runtime.spawn(async move {
                loop {
                    tokio::time::sleep(every).await;
                    let Some(hub) = weak.upgrade() else { return };
                    // On a blocking thread: if this is the hub's last holder, dropping it
                    // closes the database client, which blocks.
                    let _ = tokio::task::spawn_blocking(move || {
                        hub.evict_idle();
                        hub.creations.forget_idle();
                    })
                    .await;
                }
            });
        }
        hub
    }

    /// Drops the games that are idle (see [`HubOptions::idle_after`]) from memory; how many.
    pub fn evict_idle(&self) -> usize {
        let mut tables = self.tables.lock().unwrap_or_else(|p| p.into_inner());
        let before = tables.len();
        tables.retain(|_, table| !table.is_idle(self.options.idle_after));
        before - tables.len()
    }

    /// Counts a game created by `client` against its limit, or refuses it (429).
    pub fn admit_creation(&self, client: std::net::IpAddr) -> Result<(), ApiError> {
        self.creations.admit(client)
    }

    /// The number of games held in memory.
    pub fn games_in_memory(&self) -> usize {
        self.tables.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// This server's name in the engine's claims.
    pub fn server_id(&self) -> &str {
        &self.server_id
    }

    /// Another server stored `version` of game `id`: a copy held here that is older is read
    /// again, and its watchers told.
    fn changed_elsewhere(self: &Arc<Self>, id: &str, version: i64) {
        let table = self
            .tables
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .cloned();
        let Some(table) = table else { return };
        let reloaded = {
            let mut live = table.lock();
            live.stored_version() < version && matches!(self.refresh(id, &mut live), Ok(true))
        };
        if reloaded {
            self.after_change(id, &table);
        }
    }

    /// The settings.
    pub fn options(&self) -> &HubOptions {
        &self.options
    }

    /// The engine's workers and their queue.
    pub fn engines(&self) -> &EnginePool {
        &self.engines
    }

    /// The store.
    pub fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }

    /// Adds a new game: writes it, then holds it.
    pub fn create(self: &Arc<Self>, record: StoredGame) -> Result<Arc<Table>, ApiError> {
        let live =
            LiveGame::load(record.clone()).map_err(|e| ApiError::bad_request(e.to_string()))?;
        self.store.create(&record)?;
        let table = self.insert(record.id.clone(), live);
        self.after_change(&record.id, &table);
        Ok(table)
    }

    fn insert(self: &Arc<Self>, id: String, mut live: LiveGame) -> Arc<Table> {
        live.set_abort_after(self.options.abort_after);
        let (changes, _) = watch::channel(live.version());
        let table = Arc::new(Table {
            live: Mutex::new(live),
            changes,
            last_used: Mutex::new(Instant::now()),
        });
        let mut tables = self.tables.lock().unwrap_or_else(|p| p.into_inner());
        tables.entry(id).or_insert(table).clone()
    }

    /// The game with this id, loaded from the store when not in memory (a game interrupted
    /// by a restart resumes here: the engine moves if it was its turn).
    pub fn get(self: &Arc<Self>, id: &str) -> Result<Arc<Table>, ApiError> {
        if !valid_id(id) {
            return Err(ApiError::no_game(id));
        }
        if let Some(t) = self
            .tables
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
        {
            t.touch();
            return Ok(t.clone());
        }
        let record = self.store.load(id)?.ok_or_else(|| ApiError::no_game(id))?;
        let live = LiveGame::load(record)?;
        let table = self.insert(id.to_string(), live);
        self.after_change(id, &table);
        Ok(table)
    }

    /// Brings the game in memory up to the database's version when another server changed
    /// it (one cheap query for the version; the game is read again only when it differs);
    /// true when it was reloaded.
    fn refresh(&self, id: &str, live: &mut LiveGame) -> Result<bool, ApiError> {
        match self.store.version(id)? {
            None => Err(ApiError::no_game(id)),
            Some(v) if v == live.stored_version() => Ok(false),
            Some(_) => {
                let record = self.store.load(id)?.ok_or_else(|| ApiError::no_game(id))?;
                live.reload(record)?;
                Ok(true)
            }
        }
    }

    /// Runs `action` on the game under its lock (on a blocking thread), on the database's
    /// latest version of it, then tells watchers and starts what follows (the engine's move,
    /// the clock's watch). When another server changed the game between the check and the
    /// write (the store answers that the version is stale), the game is read again and the
    /// action tried once more on it.
    pub async fn act<T: Send + 'static>(
        self: &Arc<Self>,
        id: &str,
        action: impl Fn(&mut LiveGame, &dyn Store) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let hub = self.clone();
        let id = id.to_string();
        blocking(move || {
            let table = hub.get(&id)?;
            let out = {
                let mut live = table.lock();
                let mut tries = 0;
                loop {
                    tries += 1;
                    if let Err(e) = hub.refresh(&id, &mut live) {
                        break Err(e);
                    }
                    match action(&mut live, hub.store()) {
                        Err(e) if e.code == STALE && tries < 3 => continue,
                        out => break out,
                    }
                }
            };
            hub.after_change(&id, &table);
            out
        })
        .await
    }

    /// Reads the game under its lock, on a blocking thread, as the database holds it now.
    pub async fn read<T: Send + 'static>(
        self: &Arc<Self>,
        id: &str,
        read: impl FnOnce(&LiveGame) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let hub = self.clone();
        let id = id.to_string();
        blocking(move || {
            let table = hub.get(&id)?;
            let (out, reloaded) = {
                let mut live = table.lock();
                let reloaded = hub.refresh(&id, &mut live)?;
                (read(&live), reloaded)
            };
            if reloaded {
                hub.after_change(&id, &table);
            }
            Ok(out)
        })
        .await
    }

    /// After any change: tells watchers, asks the engine for its move when it is its turn,
    /// and watches the clock of the side to move.
    fn after_change(self: &Arc<Self>, id: &str, table: &Arc<Table>) {
        let (version, job, deadline) = {
            let mut live = table.lock();
            let job = live.engine_job(self.options.engine_movetime);
            (live.version(), job, live.deadline())
        };
        table.announce(version);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if let Some(job) = job {
            let claim = {
                let (hub, id, table) = (self.clone(), id.to_string(), table.clone());
                let (job, handle) = (job.clone(), runtime.clone());
                move || {
                    let _runtime = handle.enter();
                    hub.claim_engine_move(&id, &job, &table)
                }
            };
            let (hub, id, table) = (self.clone(), id.to_string(), table.clone());
            let handle = runtime.clone();
            let search = job.clone();
            self.engines.submit(search, claim, move |answer| {
                // On the engine's worker thread: what follows the move (the next clock's
                // watch) is started on the server's runtime.
                let _runtime = handle.enter();
                let result = {
                    let mut live = table.lock();
                    match hub.refresh(&id, &mut live) {
                        Ok(_) => live.engine_done(&job, answer, hub.store()),
                        Err(e) => {
                            live.engine_failed();
                            Err(e)
                        }
                    }
                };
                if let Err(e) = result {
                    eprintln!("chuhe serve: game {id}: the engine's move was not kept: {e}");
                }
                // Best effort: an unreleased claim expires by itself.
                let _ = hub
                    .store
                    .release_engine_move(&id, job.ply(), &hub.server_id);
                hub.after_change(&id, &table);
            });
        }
        if let Some(deadline) = deadline {
            let (hub, id, table) = (self.clone(), id.to_string(), table.clone());
            runtime.spawn(async move {
                tokio::time::sleep_until(tokio::time::Instant::from_std(deadline)).await;
                tokio::time::sleep(Duration::from_millis(5)).await;
                let _ = tokio::task::spawn_blocking(move || {
                    let flagged = {
                        let mut live = table.lock();
                        hub.refresh(&id, &mut live)
                            .and_then(|_| live.check_flag(hub.store()))
                    };
                    if matches!(flagged, Ok(true)) {
                        hub.after_change(&id, &table);
                    }
                })
                .await;
            });
        }
    }
}

impl Hub {
    /// On an engine worker, before the search of the move at `ply`: claims it in the
    /// database. When another server holds the claim, this one waits until the claim would
    /// expire and looks again (the game may have moved on, or that server died); when the
    /// database is away, it looks again in a second.
    fn claim_engine_move(self: &Arc<Self>, id: &str, job: &EngineJob, table: &Arc<Table>) -> bool {
        let lease = self.options.engine_movetime + ENGINE_CLAIM_GRACE;
        let claim = self
            .store
            .claim_engine_move(id, job.ply(), &self.server_id, lease);
        let wait = match claim {
            Ok(EngineClaim::Won) => return true,
            Ok(EngineClaim::MovedOn) => {
                // This copy is behind: read it again now.
                table.lock().engine_not_started(job, false);
                Duration::ZERO
            }
            Ok(EngineClaim::Held { remaining, .. }) => {
                table.lock().engine_not_started(job, true);
                remaining + Duration::from_millis(50)
            }
            Err(e) => {
                eprintln!("chuhe serve: game {id}: the engine's move cannot be claimed: {e}");
                table.lock().engine_not_started(job, false);
                Duration::from_secs(1)
            }
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return false;
        };
        let (hub, id, table) = (self.clone(), id.to_string(), table.clone());
        runtime.spawn(async move {
            tokio::time::sleep(wait).await;
            let _ = tokio::task::spawn_blocking(move || {
                {
                    let mut live = table.lock();
                    live.recheck_engine();
                    let _ = hub.refresh(&id, &mut live);
                }
                hub.after_change(&id, &table);
            })
            .await;
        });
        false
    }
}

/// Runs blocking work (locks, the store) off the async threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the request failed inside the server: {e}"),
        )
    })?
}

/// Game ids are 1–32 ASCII letters and digits; anything else names no game.
pub fn valid_id(id: &str) -> bool {
    (1..=32).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A random string of `n` letters and digits (no look-alikes) from the operating system's
/// generator: a game id.
pub fn random_id(n: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut bytes = vec![0u8; n];
    getrandom::getrandom(&mut bytes).expect("the operating system's random generator failed");
    bytes
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// A player's secret: 128 random bits in hex.
pub fn random_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::getrandom(&mut bytes).expect("the operating system's random generator failed");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

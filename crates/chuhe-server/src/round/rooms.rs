//! The rounds a server holds in memory, loaded from the store on first use, each behind its
//! own lock with a channel that tells watchers (WebSocket connections) about changes, and a
//! count of who is watching (each seat's player, spectators). The rooms also queue the
//! engine's search when it is the engine's move (on the [`EnginePool`]), end games whose
//! clock runs out, and sweep the database for games whose deadline passed while no server
//! held them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use chuhe::Side;
use tokio::sync::watch;

use super::{EngineJob, Round, RoundError};
use crate::engines::EnginePool;
use crate::store::{EngineClaim, Presence, Store, StoreError, StoredGame};

/// One game in memory.
pub struct Table {
    round: Mutex<Round>,
    changes: watch::Sender<u64>,
    /// When the game was last asked for (see [`RoomsOptions::idle_after`]).
    last_used: Mutex<Instant>,
    /// Pages open on this server: each seat's, and spectators'.
    here: [AtomicUsize; 3],
}

/// A page open on a game (its WebSocket); counted while it lives.
pub struct Seat {
    table: Arc<Table>,
    slot: usize,
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.table.here[self.slot].fetch_sub(1, Ordering::Relaxed);
    }
}

impl Table {
    /// Locks the game.
    pub fn lock(&self) -> MutexGuard<'_, Round> {
        // An action that panicked wrote nothing half-way to the store; the game in memory
        // may be behind it, which a reload repairs.
        self.round.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A receiver that sees the version of every change.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Counts a page open on the game, as the seat `side`'s player or a spectator, until the
    /// returned [`Seat`] is dropped.
    pub fn enter(self: &Arc<Self>, side: Option<Side>) -> Seat {
        let slot = side.map_or(2, Side::index);
        self.here[slot].fetch_add(1, Ordering::Relaxed);
        Seat {
            table: self.clone(),
            slot,
        }
    }

    /// Who is here: each seat's player, spectators.
    fn presence(&self, id: &str) -> Presence {
        let n = |i: usize| self.here[i].load(Ordering::Relaxed);
        Presence {
            game_id: id.to_string(),
            seats: [n(0) > 0, n(1) > 0],
            spectators: n(2) as u64,
        }
    }

    fn announce(&self, version: u64) {
        self.changes.send_replace(version);
    }

    fn touch(&self) {
        *self.last_used.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
    }

    /// Unused since `idle_after`, and held by nothing but the rooms: no watcher, no search,
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

/// Settings of the rooms.
#[derive(Clone, Debug)]
pub struct RoomsOptions {
    /// The engine's time per move (less when its clock is short).
    pub engine_movetime: Duration,
    /// How long each side has for its first move (in games with clocks and games between
    /// people) before the game is aborted.
    pub abort_after: Duration,
    /// The engine's worker threads: this many searches run at once, the others wait in a
    /// queue (see [`crate::engines`]).
    pub engine_threads: usize,
    /// A game nobody has used for this long (no request, no watcher, no search, no running
    /// clock) is dropped from memory; the next request reads it from the database again.
    pub idle_after: Duration,
    /// In a game between people without clocks, a side to move with no page open for this
    /// long has left it, and loses.
    pub abandon_after: Duration,
    /// The games offered: a stored game of a kind not among them is refused
    /// ([`RoundError::NotServed`]).
    pub kinds: crate::kinds::Kinds,
}

/// How long an idle game stays in memory by default.
pub const DEFAULT_IDLE_AFTER: Duration = Duration::from_secs(600);

/// How long a server's claim on an engine move lasts beyond the engine's time per move
/// before another server may take the move over (the first server died).
pub const ENGINE_CLAIM_GRACE: Duration = Duration::from_secs(15);

/// How often a server looks in the database for games whose deadline has passed (their
/// server died, or none held them).
pub const SWEEP_EVERY: Duration = Duration::from_secs(2);

/// The number of engine workers by default: the machine's cores.
pub fn default_engine_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

impl Default for RoomsOptions {
    fn default() -> Self {
        RoomsOptions {
            engine_movetime: Duration::from_millis(500),
            abort_after: super::DEFAULT_ABORT_AFTER,
            engine_threads: default_engine_threads(),
            idle_after: DEFAULT_IDLE_AFTER,
            abandon_after: DEFAULT_ABANDON_AFTER,
            kinds: crate::kinds::Kinds::default(),
        }
    }
}

/// How long, by default, a side to move may leave a game without clocks before losing it.
pub const DEFAULT_ABANDON_AFTER: Duration = Duration::from_secs(300);

/// How recent a server's report of who is at a game must be to count.
pub const PRESENCE_FRESH_MS: i64 = 30_000;

/// The games a server holds.
pub struct Rooms {
    store: Arc<dyn Store>,
    tables: Mutex<HashMap<String, Arc<Table>>>,
    options: RoomsOptions,
    engines: Arc<EnginePool>,
    /// This server among those sharing the database, in engine claims and presence.
    server_id: String,
}

impl Rooms {
    /// The rooms over `store`, for the server `server_id`, whose engine moves are searched
    /// by `engines` (a pool of [`RoomsOptions::engine_threads`] workers, shared with the
    /// analysis).
    pub fn new(
        store: Arc<dyn Store>,
        options: RoomsOptions,
        server_id: String,
        engines: Arc<EnginePool>,
    ) -> Rooms {
        Rooms {
            store,
            tables: Mutex::new(HashMap::new()),
            engines,
            options,
            server_id,
        }
    }

    /// Drops the games that are idle (see [`RoomsOptions::idle_after`]) from memory; how many.
    pub fn evict_idle(&self) -> usize {
        let mut tables = self.tables.lock().unwrap_or_else(|p| p.into_inner());
        let before = tables.len();
        tables.retain(|_, table| !table.is_idle(self.options.idle_after));
        before - tables.len()
    }

    /// The number of games held in memory.
    pub fn in_memory(&self) -> usize {
        self.tables.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Who is at each game held here with a page open.
    pub fn presence(&self) -> Vec<Presence> {
        let tables = self.tables.lock().unwrap_or_else(|p| p.into_inner());
        tables
            .iter()
            .map(|(id, t)| t.presence(id))
            .filter(|p| p.seats.iter().any(|&s| s) || p.spectators > 0)
            .collect()
    }

    /// This server's name in the engine's claims.
    pub fn server_id(&self) -> &str {
        &self.server_id
    }

    /// The settings.
    pub fn options(&self) -> &RoomsOptions {
        &self.options
    }

    /// The engine's workers and their queues.
    pub fn engines(&self) -> &Arc<EnginePool> {
        &self.engines
    }

    /// The store.
    pub fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }

    /// Another server stored `version` of game `id`: a copy held here that is older is read
    /// again, and its watchers told.
    pub fn changed_elsewhere(self: &Arc<Self>, id: &str, version: i64) {
        let table = self
            .tables
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .cloned();
        let Some(table) = table else { return };
        let reloaded = {
            let mut round = table.lock();
            round.stored_version() < version && matches!(self.refresh(id, &mut round), Ok(true))
        };
        if reloaded {
            self.after_change(id, &table);
        }
    }

    /// Holds a game just stored (read back from the store, with what the store added: the
    /// players' names and ratings) and starts what follows.
    pub fn open(self: &Arc<Self>, record: StoredGame) -> Result<Arc<Table>, RoundError> {
        self.get(&record.id)
    }

    /// A player's name changed (a guest made an account): the games held here that name them
    /// are read again.
    pub fn player_renamed(self: &Arc<Self>, user_id: &str) {
        let tables: Vec<(String, Arc<Table>)> = self
            .tables
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .map(|(id, t)| (id.clone(), t.clone()))
            .collect();
        for (id, table) in tables {
            let reloaded = {
                let mut round = table.lock();
                let named = round
                    .record()
                    .players
                    .iter()
                    .flatten()
                    .any(|p| p.id == user_id);
                named
                    && match self.store.load(&id) {
                        Ok(Some(record)) => round.reload(record).is_ok(),
                        _ => false,
                    }
            };
            if reloaded {
                self.after_change(&id, &table);
            }
        }
    }

    fn insert(self: &Arc<Self>, id: String, mut round: Round) -> Arc<Table> {
        round.set_abort_after(self.options.abort_after);
        let (changes, _) = watch::channel(round.version());
        let table = Arc::new(Table {
            round: Mutex::new(round),
            changes,
            last_used: Mutex::new(Instant::now()),
            here: Default::default(),
        });
        let mut tables = self.tables.lock().unwrap_or_else(|p| p.into_inner());
        tables.entry(id).or_insert(table).clone()
    }

    /// The game with this id, loaded from the store when not in memory (a game interrupted
    /// by a restart resumes here: the engine moves if it was its turn).
    pub fn get(self: &Arc<Self>, id: &str) -> Result<Arc<Table>, RoundError> {
        if !crate::ids::valid_id(id) {
            return Err(RoundError::NoGame(id.to_string()));
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
        let record = self
            .store
            .load(id)?
            .ok_or_else(|| RoundError::NoGame(id.to_string()))?;
        let table = self.insert(id.to_string(), Round::load(record, &self.options.kinds)?);
        self.after_change(id, &table);
        Ok(table)
    }

    /// Brings the game in memory up to the database's version when another server changed
    /// it (one cheap query for the version; the game is read again only when it differs);
    /// true when it was reloaded.
    fn refresh(&self, id: &str, round: &mut Round) -> Result<bool, RoundError> {
        match self.store.version(id)? {
            None => Err(RoundError::NoGame(id.to_string())),
            Some(v) if v == round.stored_version() => Ok(false),
            Some(_) => {
                let record = self
                    .store
                    .load(id)?
                    .ok_or_else(|| RoundError::NoGame(id.to_string()))?;
                round.reload(record)?;
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
        action: impl Fn(&mut Round, &dyn Store) -> Result<T, RoundError> + Send + 'static,
    ) -> Result<T, RoundError> {
        let rooms = self.clone();
        let id = id.to_string();
        blocking(move || {
            let table = rooms.get(&id)?;
            let out = {
                let mut round = table.lock();
                let mut tries = 0;
                loop {
                    tries += 1;
                    if let Err(e) = rooms.refresh(&id, &mut round) {
                        break Err(e);
                    }
                    match action(&mut round, rooms.store()) {
                        Err(RoundError::Store(StoreError::Stale { .. })) if tries < 3 => continue,
                        out => break out,
                    }
                }
            };
            rooms.after_change(&id, &table);
            out
        })
        .await
    }

    /// Reads the game under its lock, on a blocking thread, as the database holds it now.
    pub async fn read<T: Send + 'static>(
        self: &Arc<Self>,
        id: &str,
        read: impl FnOnce(&Round) -> T + Send + 'static,
    ) -> Result<T, RoundError> {
        let rooms = self.clone();
        let id = id.to_string();
        blocking(move || rooms.read_now(&id, read)).await
    }

    /// [`Rooms::read`] on the calling (blocking) thread.
    pub fn read_now<T>(
        self: &Arc<Self>,
        id: &str,
        read: impl FnOnce(&Round) -> T,
    ) -> Result<T, RoundError> {
        let table = self.get(id)?;
        let (out, reloaded) = {
            let mut round = table.lock();
            let reloaded = self.refresh(id, &mut round)?;
            (read(&round), reloaded)
        };
        if reloaded {
            self.after_change(id, &table);
        }
        Ok(out)
    }

    /// Looks at the games whose deadline has passed in the database (a clock that ran out, a
    /// first move not made) and ends them; how many it looked at. Every server sweeps: the
    /// games of a server that died are ended by the others.
    pub fn sweep(self: &Arc<Self>) -> usize {
        let Ok(ids) = self.store.overdue(100) else {
            return 0;
        };
        for id in &ids {
            let Ok(table) = self.get(id) else { continue };
            let flagged = {
                let mut round = table.lock();
                self.refresh(id, &mut round)
                    .and_then(|_| round.check_flag(self.store()))
            };
            if matches!(flagged, Ok(true)) {
                self.after_change(id, &table);
            }
        }
        let idle_ms = self.options.abandon_after.as_millis() as i64;
        let left = self.store.unattended(idle_ms, 100).unwrap_or_default();
        for id in &left {
            let Ok(table) = self.get(id) else { continue };
            // Pages open here that the last report missed count too.
            let here = table.presence(id).seats;
            let ended = self
                .store
                .seats_present(id, PRESENCE_FRESH_MS)
                .and_then(|elsewhere| {
                    let present = [here[0] || elsewhere[0], here[1] || elsewhere[1]];
                    let mut round = table.lock();
                    self.refresh(id, &mut round).map_err(|e| match e {
                        RoundError::Store(s) => s,
                        other => StoreError::Backend(other.to_string()),
                    })?;
                    round
                        .check_abandoned(present, self.options.abandon_after, self.store())
                        .map_err(|e| StoreError::Backend(e.to_string()))
                });
            if matches!(ended, Ok(true)) {
                self.after_change(id, &table);
            }
        }
        ids.len() + left.len()
    }

    /// After any change: tells watchers, asks the engine for its move when it is its turn,
    /// and watches the clock of the side to move.
    pub fn after_change(self: &Arc<Self>, id: &str, table: &Arc<Table>) {
        let (version, job, deadline) = {
            let mut round = table.lock();
            let job = round.engine_job(self.options.engine_movetime);
            (round.version(), job, round.deadline())
        };
        table.announce(version);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if let Some(job) = job {
            let claim = {
                let (rooms, id, table) = (self.clone(), id.to_string(), table.clone());
                let (job, handle) = (job.clone(), runtime.clone());
                move || {
                    let _runtime = handle.enter();
                    rooms.claim_engine_move(&id, &job, &table)
                }
            };
            let (rooms, id, table) = (self.clone(), id.to_string(), table.clone());
            let handle = runtime.clone();
            let search = job.clone();
            self.engines.submit(search, claim, move |answer| {
                // On the engine's worker thread: what follows the move (the next clock's
                // watch) is started on the server's runtime.
                let _runtime = handle.enter();
                let result = {
                    let mut round = table.lock();
                    match rooms.refresh(&id, &mut round) {
                        Ok(_) => round.engine_done(&job, answer, rooms.store()),
                        Err(e) => {
                            round.engine_failed();
                            Err(e)
                        }
                    }
                };
                let stored = result.is_ok() && table.lock().game().plies() > job.ply();
                if let Err(e) = result {
                    eprintln!("chuhe serve: game {id}: the engine's move was not kept: {e}");
                }
                // A stored move ended the claim in its own transaction; otherwise give it up
                // (best effort: an unreleased claim expires by itself).
                if !stored {
                    let _ = rooms
                        .store
                        .release_engine_move(&id, job.ply(), &rooms.server_id);
                }
                rooms.after_change(&id, &table);
            });
        }
        if let Some(deadline) = deadline {
            // The watch does not keep the game in memory: a game dropped as idle meanwhile is
            // ended by the sweeper (see [`Rooms::sweep`]) from its deadline in the database.
            let (rooms, id, weak) = (self.clone(), id.to_string(), Arc::downgrade(table));
            runtime.spawn(async move {
                tokio::time::sleep_until(tokio::time::Instant::from_std(deadline)).await;
                tokio::time::sleep(Duration::from_millis(5)).await;
                let Some(table) = weak.upgrade() else { return };
                let _ = tokio::task::spawn_blocking(move || {
                    let flagged = {
                        let mut round = table.lock();
                        rooms
                            .refresh(&id, &mut round)
                            .and_then(|_| round.check_flag(rooms.store()))
                    };
                    if matches!(flagged, Ok(true)) {
                        rooms.after_change(&id, &table);
                    }
                })
                .await;
            });
        }
    }

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
        let (rooms, id, table) = (self.clone(), id.to_string(), table.clone());
        runtime.spawn(async move {
            tokio::time::sleep(wait).await;
            let _ = tokio::task::spawn_blocking(move || {
                {
                    let mut round = table.lock();
                    round.recheck_engine();
                    let _ = rooms.refresh(&id, &mut round);
                }
                rooms.after_change(&id, &table);
            })
            .await;
        });
        false
    }
}

/// Blocking work that failed inside the server (it panicked, or the runtime is shutting
/// down).
#[derive(Debug)]
pub struct TaskFailed(pub String);

impl From<TaskFailed> for RoundError {
    fn from(e: TaskFailed) -> RoundError {
        RoundError::Internal(e.0)
    }
}

impl From<TaskFailed> for crate::user::UserError {
    fn from(e: TaskFailed) -> crate::user::UserError {
        crate::user::UserError::Store(StoreError::Backend(e.0))
    }
}

impl From<TaskFailed> for crate::lobby::LobbyError {
    fn from(e: TaskFailed) -> crate::lobby::LobbyError {
        crate::lobby::LobbyError::Store(StoreError::Backend(e.0))
    }
}

impl From<TaskFailed> for crate::ApiError {
    fn from(e: TaskFailed) -> crate::ApiError {
        RoundError::Internal(e.0).into()
    }
}

/// Runs blocking work (locks, the store) off the async threads.
pub(crate) async fn blocking<T: Send + 'static, E: From<TaskFailed> + Send + 'static>(
    work: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> Result<T, E> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| E::from(TaskFailed(e.to_string())))?
}

//! The engine's searches: a fixed number of worker threads, each with its own engines (one
//! per kind of game, reused from search to search), shared by two kinds of work:
//!
//! - **game moves** ([`EnginePool::submit`]): an engine player's move. They always go first:
//!   a worker takes a waiting move before anything else, and when a move arrives while every
//!   worker is busy with analysis, one analysis is stopped (within a poll of
//!   [`POLL`], plus the engine's reaction to `stop`), told it is paused, and put back at the
//!   front of the analysis queue to resume later;
//! - **tasks** at analysis priority ([`EnginePool::enqueue`]): an analysis streamed to a page,
//!   a review's positions (see [`Task`]). They wait in one queue of bounded length; when
//!   others wait, a running task gives its worker up after a slice ([`PoolOptions::slice`])
//!   and goes to the back of the queue. A task that has not run yet (a page that has no line
//!   yet) goes before those that have had a slice, and they give it their worker at once:
//!   its first turn is short ([`PoolOptions::first_slice`]), so that every new page sees a
//!   first line soon, however long the others have searched.
//!
//! Nothing that serves a request waits for a search, and the threads and the engines'
//! memory stay the same however many games are played or positions analysed.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use chuhe::GameKind;
use chuhe_engine::{BestMove, Engine, EngineError, Limits, SearchEvent, SearchInfo};

use crate::round::EngineJob;

/// The engine's answer: its move in coordinates and its score from its own side (`None`
/// when it found none).
pub type Answer = Option<(String, i32)>;

/// How often a worker that supervises a search looks whether it must stop it (a game's move
/// waits, the page went, the slice is over).
pub const POLL: Duration = Duration::from_millis(10);

/// The slice a task runs before it gives its worker up to others waiting, by default.
pub const DEFAULT_SLICE: Duration = Duration::from_secs(1);
/// A task's first turn when others wait, by default (a page's first lines).
pub const DEFAULT_FIRST_SLICE: Duration = Duration::from_millis(100);

/// A game's move waiting for a worker, with what to do with its answer.
struct Search {
    job: EngineJob,
    may_start: Box<dyn FnOnce() -> bool + Send>,
    done: Box<dyn FnOnce(Answer) + Send>,
}

/// Work at analysis priority, run by the pool's workers a slice at a time.
pub trait Task: Send + Sync + 'static {
    /// The kind of game: the worker's engine for it runs the task.
    fn kind(&self) -> GameKind;
    /// Not wanted any more (its page went, or asked for something else): a cancelled task
    /// is dropped from the queue, and a running one should stop as soon as it looks.
    fn cancelled(&self) -> bool;
    /// Put in the queue (first, or again after a slice or a pause) with `ahead` tasks before
    /// it. Called with the pool's queue locked: it must not block (a channel's send).
    fn queued(&self, ahead: usize) {
        let _ = ahead;
    }
    /// Stopped for a game's move; it is queued again at once.
    fn paused(&self) {}
    /// Runs on `engine` (the worker's engine for [`Task::kind`]) until it is finished or
    /// `turn` says to give the worker up. `fresh`: the engine ran other work since this task
    /// last ran on it (or never ran it), so its position, options and tables are not this
    /// task's.
    fn run(&self, engine: &mut Engine, fresh: bool, turn: &Turn<'_>) -> Ran;
}

/// How a task's turn on a worker ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ran {
    /// Nothing more to do (or cancelled): the pool forgets it.
    Finished,
    /// It gave the worker up and is to be queued again.
    Yielded(Yield),
}

/// Why a task gives its worker up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Yield {
    /// A game's move waits for the worker (or the pool is closing): the task is told it is
    /// paused and queued again at the front.
    Preempted,
    /// Its slice is over and other tasks wait: queued again at the back.
    SliceOver,
}

/// A task's turn on a worker: it tells the task when to give the worker up.
pub struct Turn<'a> {
    preempt: &'a AtomicBool,
    shared: &'a PoolShared,
    started: Instant,
    /// Whether the task has had a whole slice before (it then gives way to new tasks).
    had_turn: bool,
}

impl Turn<'_> {
    /// Whether to give the worker up now, and why: a game's move waits for it, or the slice
    /// is over and other tasks wait.
    pub fn should_yield(&self) -> Option<Yield> {
        let slice = if self.had_turn {
            self.shared.slice
        } else {
            self.shared.first_slice
        };
        if self.preempt.load(Ordering::Relaxed) || self.shared.closed.load(Ordering::Relaxed) {
            Some(Yield::Preempted)
        } else if (self.had_turn && self.shared.new_tasks_waiting.load(Ordering::Relaxed) > 0)
            || (self.started.elapsed() >= slice
                && self.shared.tasks_waiting.load(Ordering::Relaxed) > 0)
        {
            // A new task waits (it goes first), or the slice is over and others wait.
            Some(Yield::SliceOver)
        } else {
            None
        }
    }

    /// How long the task has run in this turn.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// Runs a search on `engine` from its position, hands each line to `line` as it comes (with
/// the engine, idle-safe: its position is the searched one), and stops the search as soon as
/// `stop` says so — `stop` is asked after every line and every [`POLL`]. The best move, and
/// whether `stop` ended the search (false: it reached its limits). An engine that cannot
/// start the search, or a search thread that failed, is an error.
pub fn supervise(
    engine: &mut Engine,
    limits: Limits,
    mut line: impl FnMut(&Engine, &SearchInfo),
    mut stop: impl FnMut() -> bool,
) -> Result<(BestMove, bool), EngineError> {
    let (tx, rx) = mpsc::channel();
    engine.go(limits, move |event| {
        let _ = tx.send(event);
    })?;
    let mut stopped = false;
    loop {
        match rx.recv_timeout(POLL) {
            Ok(SearchEvent::Info(info)) => line(engine, &info),
            Ok(SearchEvent::BestMove(best)) => {
                engine.wait();
                return Ok((best, stopped));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // The search thread ended without its best move: it panicked.
                engine.wait();
                return Err(EngineError::Busy);
            }
        }
        if !stopped && stop() {
            engine.stop();
            stopped = true;
        }
    }
}

/// Settings of the pool.
#[derive(Clone, Copy, Debug)]
pub struct PoolOptions {
    /// Worker threads (at least one).
    pub workers: usize,
    /// How long a task runs before it gives its worker up when other tasks wait.
    pub slice: Duration,
    /// The same for a task's first turn (at most `slice`).
    pub first_slice: Duration,
}

impl Default for PoolOptions {
    fn default() -> Self {
        PoolOptions {
            workers: crate::round::rooms::default_engine_threads(),
            slice: DEFAULT_SLICE,
            first_slice: DEFAULT_FIRST_SLICE,
        }
    }
}

/// A task in the queue, with the serial that tells it from every other.
struct Queued {
    serial: u64,
    task: Arc<dyn Task>,
    /// Whether it has had a whole turn (its slice ran out once).
    had_turn: bool,
}

/// What a worker is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Busy {
    /// Looking for work, or waiting for some.
    Idle,
    /// A game's move.
    Move,
    /// A task.
    Task,
}

struct Slot {
    busy: Busy,
    /// Set to stop the worker's task for a game's move.
    preempt: Arc<AtomicBool>,
}

struct PoolState {
    moves: VecDeque<Search>,
    tasks: VecDeque<Queued>,
    slots: Vec<Slot>,
}

struct PoolShared {
    state: Mutex<PoolState>,
    wake: Condvar,
    slice: Duration,
    first_slice: Duration,
    closed: AtomicBool,
    /// Mirrors of the state's counts, read without the lock.
    moves_waiting: AtomicUsize,
    tasks_waiting: AtomicUsize,
    /// Waiting tasks that have not had a turn.
    new_tasks_waiting: AtomicUsize,
    tasks_running: AtomicUsize,
    searched: AtomicUsize,
    preempted: AtomicUsize,
    serials: AtomicU64,
}

impl PoolShared {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Keeps the counters read without the lock in step with the queues.
    fn counted(&self, st: &PoolState) {
        self.moves_waiting.store(st.moves.len(), Ordering::Relaxed);
        self.tasks_waiting.store(st.tasks.len(), Ordering::Relaxed);
        let new = st.tasks.iter().filter(|q| !q.had_turn).count();
        self.new_tasks_waiting.store(new, Ordering::Relaxed);
        let running = st.slots.iter().filter(|s| s.busy == Busy::Task).count();
        self.tasks_running.store(running, Ordering::Relaxed);
    }

    /// Moves that wait with no worker coming for them: stops as many running tasks.
    fn preempt_for_moves(&self, st: &PoolState) {
        let idle = st.slots.iter().filter(|s| s.busy == Busy::Idle).count();
        let stopping = st
            .slots
            .iter()
            .filter(|s| s.busy == Busy::Task && s.preempt.load(Ordering::Relaxed))
            .count();
        let mut needed = st.moves.len().saturating_sub(idle + stopping);
        for slot in &st.slots {
            if needed == 0 {
                break;
            }
            if slot.busy == Busy::Task && !slot.preempt.swap(true, Ordering::Relaxed) {
                needed -= 1;
            }
        }
    }

    /// Worker `index`'s next work: a waiting move first, then the first task not cancelled;
    /// `None` once the pool is closed.
    fn next(&self, index: usize) -> Option<Work> {
        let mut st = self.lock();
        st.slots[index].busy = Busy::Idle;
        st.slots[index].preempt.store(false, Ordering::Relaxed);
        loop {
            if self.closed.load(Ordering::Relaxed) {
                self.counted(&st);
                return None;
            }
            let work = if let Some(search) = st.moves.pop_front() {
                st.slots[index].busy = Busy::Move;
                Some(Work::Move(Box::new(search)))
            } else {
                let mut found = None;
                while let Some(q) = st.tasks.pop_front() {
                    if !q.task.cancelled() {
                        found = Some(q);
                        break;
                    }
                }
                found.map(|q| {
                    st.slots[index].busy = Busy::Task;
                    Work::Task(q)
                })
            };
            self.counted(&st);
            if let Some(work) = work {
                return Some(work);
            }
            st = self.wake.wait(st).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Puts `q` back in the queue (at the front after a pause, else at the back) and tells
    /// it its place.
    fn requeue(&self, q: Queued, front: bool) {
        if q.task.cancelled() {
            return;
        }
        let mut st = self.lock();
        let ahead = if front { 0 } else { st.tasks.len() };
        q.task.queued(ahead);
        if front {
            st.tasks.push_front(q);
        } else {
            st.tasks.push_back(q);
        }
        self.counted(&st);
        drop(st);
        self.wake.notify_one();
    }
}

enum Work {
    Move(Box<Search>),
    Task(Queued),
}

/// The queue of tasks is full: try again later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueFull {
    /// Tasks waiting.
    pub waiting: usize,
}

/// The pool of engine workers and its two queues.
pub struct EnginePool {
    shared: Arc<PoolShared>,
    workers: usize,
}

impl EnginePool {
    /// A pool of `workers` threads (at least one), with the default slice. The threads end
    /// when the pool is dropped.
    pub fn new(workers: usize) -> EnginePool {
        EnginePool::with_options(PoolOptions {
            workers,
            slice: DEFAULT_SLICE,
            first_slice: DEFAULT_FIRST_SLICE,
        })
    }

    /// A pool with these settings.
    pub fn with_options(options: PoolOptions) -> EnginePool {
        let workers = options.workers.max(1);
        let shared = Arc::new(PoolShared {
            state: Mutex::new(PoolState {
                moves: VecDeque::new(),
                tasks: VecDeque::new(),
                slots: (0..workers)
                    .map(|_| Slot {
                        // A worker counts as busy until it first looks for work.
                        busy: Busy::Move,
                        preempt: Arc::new(AtomicBool::new(false)),
                    })
                    .collect(),
            }),
            wake: Condvar::new(),
            slice: options.slice,
            first_slice: options.first_slice.min(options.slice),
            closed: AtomicBool::new(false),
            moves_waiting: AtomicUsize::new(0),
            tasks_waiting: AtomicUsize::new(0),
            new_tasks_waiting: AtomicUsize::new(0),
            tasks_running: AtomicUsize::new(0),
            searched: AtomicUsize::new(0),
            preempted: AtomicUsize::new(0),
            serials: AtomicU64::new(0),
        });
        for i in 0..workers {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("chuhe-engine-{i}"))
                .spawn(move || work(&shared, i));
            if let Err(e) = spawned {
                eprintln!("chuhe serve: cannot start engine worker {i}: {e}");
            }
        }
        EnginePool { shared, workers }
    }

    /// The number of worker threads.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Game moves waiting for a worker.
    pub fn waiting(&self) -> usize {
        self.shared.moves_waiting.load(Ordering::Relaxed)
    }

    /// Game moves searched since the pool was made (a job whose `may_start` said no is not
    /// counted).
    pub fn searched(&self) -> usize {
        self.shared.searched.load(Ordering::Relaxed)
    }

    /// Tasks (analyses, reviews) running on a worker now.
    pub fn tasks_running(&self) -> usize {
        self.shared.tasks_running.load(Ordering::Relaxed)
    }

    /// Tasks waiting in the queue.
    pub fn tasks_waiting(&self) -> usize {
        self.shared.tasks_waiting.load(Ordering::Relaxed)
    }

    /// Times a task was stopped for a game's move, since the pool was made.
    pub fn preempted(&self) -> usize {
        self.shared.preempted.load(Ordering::Relaxed)
    }

    /// Queues `job`, a game's move, before every task; when a worker takes it, it asks
    /// `may_start` (the hub claims the move in the database there) and, if that answers
    /// true, searches and hands the answer to `done` on the worker thread; otherwise the job
    /// is dropped and `done` never called. When no worker is free, a running task is stopped
    /// for it. Never waits.
    pub fn submit(
        &self,
        job: EngineJob,
        may_start: impl FnOnce() -> bool + Send + 'static,
        done: impl FnOnce(Answer) + Send + 'static,
    ) {
        let mut st = self.shared.lock();
        st.moves.push_back(Search {
            job,
            may_start: Box::new(may_start),
            done: Box::new(done),
        });
        self.shared.preempt_for_moves(&st);
        self.shared.counted(&st);
        drop(st);
        self.shared.wake.notify_one();
    }

    /// Queues `task` behind the new tasks waiting (before those that have had a turn already),
    /// unless `bound` tasks wait. Its [`Task::queued`] is told its place before any worker
    /// can take it. The task's ticket (for [`EnginePool::withdraw`]).
    pub fn enqueue(&self, task: Arc<dyn Task>, bound: usize) -> Result<u64, QueueFull> {
        let mut st = self.shared.lock();
        if st.tasks.len() >= bound {
            return Err(QueueFull {
                waiting: st.tasks.len(),
            });
        }
        let serial = self.shared.serials.fetch_add(1, Ordering::Relaxed) + 1;
        let place = st
            .tasks
            .iter()
            .position(|q| q.had_turn)
            .unwrap_or(st.tasks.len());
        task.queued(place);
        st.tasks.insert(
            place,
            Queued {
                serial,
                task,
                had_turn: false,
            },
        );
        self.shared.counted(&st);
        drop(st);
        self.shared.wake.notify_one();
        Ok(serial)
    }

    /// Takes the task with `ticket` out of the queue, if it waits there (a running task
    /// stops by itself once [`Task::cancelled`] says so).
    pub fn withdraw(&self, ticket: u64) {
        let mut st = self.shared.lock();
        st.tasks.retain(|q| q.serial != ticket);
        self.shared.counted(&st);
    }
}

impl Drop for EnginePool {
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::Relaxed);
        // Taken under the lock, so that no worker is between its look at `closed` and its
        // wait.
        drop(self.shared.lock());
        self.shared.wake.notify_all();
    }
}

/// A worker: takes the next work, runs it on its own engine for the game, hands the answer
/// on or puts the task back; ends when the pool is closed.
fn work(shared: &PoolShared, index: usize) {
    let preempt = shared.lock().slots[index].preempt.clone();
    let mut engines: HashMap<GameKind, Engine> = HashMap::new();
    // The serial of the task that last ran on each engine (none after a game's move).
    let mut last_task: HashMap<GameKind, u64> = HashMap::new();
    while let Some(next) = shared.next(index) {
        match next {
            Work::Move(search) => {
                if !(search.may_start)() {
                    continue;
                }
                shared.searched.fetch_add(1, Ordering::Relaxed);
                let kind = search.job.kind();
                last_task.remove(&kind);
                let engine = engines.entry(kind).or_insert_with(|| Engine::new(kind));
                let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    search.job.run_on(engine)
                }))
                .unwrap_or_else(|_| {
                    // A search that panicked may have left the engine half-way: a new one.
                    engines.remove(&kind);
                    None
                });
                (search.done)(answer);
            }
            Work::Task(q) => {
                let kind = q.task.kind();
                let fresh = last_task.insert(kind, q.serial) != Some(q.serial);
                let engine = engines.entry(kind).or_insert_with(|| Engine::new(kind));
                let turn = Turn {
                    preempt: &preempt,
                    shared,
                    started: Instant::now(),
                    had_turn: q.had_turn,
                };
                let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    q.task.run(engine, fresh, &turn)
                }))
                .unwrap_or_else(|_| {
                    engines.remove(&kind);
                    last_task.remove(&kind);
                    Ran::Finished
                });
                match ran {
                    Ran::Finished => {}
                    Ran::Yielded(Yield::Preempted) => {
                        shared.preempted.fetch_add(1, Ordering::Relaxed);
                        if !q.task.cancelled() {
                            q.task.paused();
                        }
                        shared.requeue(q, true);
                    }
                    Ran::Yielded(Yield::SliceOver) => {
                        let q = Queued {
                            had_turn: true,
                            ..q
                        };
                        shared.requeue(q, false)
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    /// A task that searches the start position of Xiangqi to a depth, counting what happens
    /// to it.
    struct Probe {
        depth: u32,
        cancel: AtomicBool,
        runs: AtomicU32,
        pauses: AtomicU32,
        finished: AtomicBool,
    }

    impl Probe {
        fn new(depth: u32) -> Arc<Probe> {
            Arc::new(Probe {
                depth,
                cancel: AtomicBool::new(false),
                runs: AtomicU32::new(0),
                pauses: AtomicU32::new(0),
                finished: AtomicBool::new(false),
            })
        }
    }

    impl Task for Probe {
        fn kind(&self) -> GameKind {
            GameKind::Xiangqi
        }
        fn cancelled(&self) -> bool {
            self.cancel.load(Ordering::Relaxed)
        }
        fn paused(&self) {
            self.pauses.fetch_add(1, Ordering::Relaxed);
        }
        fn run(&self, engine: &mut Engine, _fresh: bool, turn: &Turn<'_>) -> Ran {
            self.runs.fetch_add(1, Ordering::Relaxed);
            engine.set_position("start", &[]).unwrap();
            let mut why = None;
            let (_, stopped) = supervise(
                engine,
                Limits::depth(self.depth),
                |_, _| {},
                || {
                    why = turn.should_yield();
                    why.is_some() || self.cancelled()
                },
            )
            .unwrap();
            match why {
                Some(y) if stopped && !self.cancelled() => Ran::Yielded(y),
                _ => {
                    self.finished.store(true, Ordering::Relaxed);
                    Ran::Finished
                }
            }
        }
    }

    fn wait_until(what: &str, cond: impl Fn() -> bool) {
        let start = Instant::now();
        while !cond() {
            assert!(start.elapsed() < Duration::from_secs(20), "{what}");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn a_game_move_stops_a_task_which_then_resumes() {
        let pool = EnginePool::new(1);
        let probe = Probe::new(60);
        pool.enqueue(probe.clone(), 8).unwrap();
        wait_until("the task runs", || pool.tasks_running() == 1);
        let (tx, rx) = mpsc::channel();
        let asked = Instant::now();
        let job = crate::round::EngineJob::for_test(GameKind::Xiangqi, Duration::from_millis(30));
        pool.submit(job, || true, move |answer| tx.send(answer).unwrap());
        let answer = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(answer.is_some());
        assert!(
            asked.elapsed() < Duration::from_millis(500),
            "the move waited {:?}",
            asked.elapsed()
        );
        wait_until("the task resumes", || {
            probe.runs.load(Ordering::Relaxed) == 2 && pool.tasks_running() == 1
        });
        assert_eq!(probe.pauses.load(Ordering::Relaxed), 1);
        assert_eq!(pool.preempted(), 1);
        probe.cancel.store(true, Ordering::Relaxed);
        wait_until("the cancelled task stops", || pool.tasks_running() == 0);
    }

    #[test]
    fn tasks_share_a_worker_in_slices_and_the_queue_is_bounded() {
        let pool = EnginePool::with_options(PoolOptions {
            workers: 1,
            slice: Duration::from_millis(50),
            first_slice: Duration::from_millis(50),
        });
        let (a, b) = (Probe::new(60), Probe::new(60));
        pool.enqueue(a.clone(), 1).unwrap();
        wait_until("a runs", || pool.tasks_running() == 1);
        pool.enqueue(b.clone(), 1).unwrap();
        assert_eq!(
            pool.enqueue(Probe::new(1), 1),
            Err(QueueFull { waiting: 1 }),
            "the queue holds one"
        );
        wait_until("both run in turn, twice", || {
            a.runs.load(Ordering::Relaxed) >= 2 && b.runs.load(Ordering::Relaxed) >= 2
        });
        assert_eq!(a.pauses.load(Ordering::Relaxed), 0, "slices are no pauses");
        a.cancel.store(true, Ordering::Relaxed);
        b.cancel.store(true, Ordering::Relaxed);
        wait_until("both stop", || {
            pool.tasks_running() == 0 && pool.tasks_waiting() == 0
        });
    }

    #[test]
    fn a_new_task_gets_a_worker_at_once_from_tasks_that_had_their_turn() {
        let pool = EnginePool::with_options(PoolOptions {
            workers: 1,
            slice: Duration::from_secs(30),
            first_slice: Duration::from_millis(50),
        });
        let (a, b) = (Probe::new(60), Probe::new(60));
        pool.enqueue(a.clone(), 8).unwrap();
        wait_until("a runs", || a.runs.load(Ordering::Relaxed) == 1);
        // a's first turn is short when another waits: b soon has the worker, then a again
        // (for a long slice: both have had their first turn).
        pool.enqueue(b.clone(), 8).unwrap();
        wait_until("b has had its first turn and a runs again", || {
            b.runs.load(Ordering::Relaxed) == 1 && a.runs.load(Ordering::Relaxed) == 2
        });
        // A new task does not wait for a's 30 s slice, and goes before b.
        let c = Probe::new(60);
        let asked = Instant::now();
        assert_eq!(pool.enqueue(c.clone(), 8), Ok(3), "c's ticket");
        wait_until("c runs", || c.runs.load(Ordering::Relaxed) == 1);
        assert!(
            asked.elapsed() < Duration::from_millis(1000),
            "the new task waited {:?}",
            asked.elapsed()
        );
        assert_eq!(b.runs.load(Ordering::Relaxed), 1, "c went before b");
        for p in [&a, &b, &c] {
            p.cancel.store(true, Ordering::Relaxed);
        }
        wait_until("all stop", || {
            pool.tasks_running() == 0 && pool.tasks_waiting() == 0
        });
    }

    #[test]
    fn a_withdrawn_task_never_runs() {
        let pool = EnginePool::new(1);
        let first = Probe::new(60);
        pool.enqueue(first.clone(), 8).unwrap();
        wait_until("the first runs", || pool.tasks_running() == 1);
        let second = Probe::new(1);
        let ticket = pool.enqueue(second.clone(), 8).unwrap();
        assert_eq!(pool.tasks_waiting(), 1);
        pool.withdraw(ticket);
        assert_eq!(pool.tasks_waiting(), 0);
        first.cancel.store(true, Ordering::Relaxed);
        wait_until("the first stops", || pool.tasks_running() == 0);
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(second.runs.load(Ordering::Relaxed), 0);
    }
}

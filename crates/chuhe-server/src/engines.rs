//! The engine's searches: a fixed number of worker threads, each with its own engines (one
//! per kind of game, reused from search to search), fed by one queue. A game whose engine is
//! to move waits its turn in the queue; nothing that serves a request waits for a search, and
//! the threads and the engines' memory stay the same however many games are played.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use chuhe::GameKind;
use chuhe_engine::Engine;

use crate::round::EngineJob;

/// The engine's answer: its move in coordinates and its score from its own side (`None`
/// when it found none).
pub type Answer = Option<(String, i32)>;

/// A search waiting for a worker, with what to do with its answer.
struct Search {
    job: EngineJob,
    may_start: Box<dyn FnOnce() -> bool + Send>,
    done: Box<dyn FnOnce(Answer) + Send>,
}

/// The pool of engine workers and its queue.
pub struct EnginePool {
    queue: Mutex<mpsc::Sender<Search>>,
    waiting: Arc<AtomicUsize>,
    searched: Arc<AtomicUsize>,
    workers: usize,
}

impl EnginePool {
    /// A pool of `workers` threads (at least one). The threads end when the pool is dropped
    /// and the queue is empty.
    pub fn new(workers: usize) -> EnginePool {
        let workers = workers.max(1);
        let (sender, receiver) = mpsc::channel::<Search>();
        let receiver = Arc::new(Mutex::new(receiver));
        let waiting = Arc::new(AtomicUsize::new(0));
        let searched = Arc::new(AtomicUsize::new(0));
        for i in 0..workers {
            let receiver = receiver.clone();
            let (waiting, searched) = (waiting.clone(), searched.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("chuhe-engine-{i}"))
                .spawn(move || work(&receiver, &waiting, &searched));
            if let Err(e) = spawned {
                eprintln!("chuhe serve: cannot start engine worker {i}: {e}");
            }
        }
        EnginePool {
            queue: Mutex::new(sender),
            waiting,
            searched,
            workers,
        }
    }

    /// The number of worker threads.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Searches waiting for a worker.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// Searches started since the pool was made (a job whose `may_start` said no is not
    /// counted).
    pub fn searched(&self) -> usize {
        self.searched.load(Ordering::Relaxed)
    }

    /// Queues `job`; when a worker takes it, it asks `may_start` (the hub claims the move in
    /// the database there) and, if that answers true, searches and hands the answer to
    /// `done` on the worker thread; otherwise the job is dropped and `done` never called.
    /// Never waits.
    pub fn submit(
        &self,
        job: EngineJob,
        may_start: impl FnOnce() -> bool + Send + 'static,
        done: impl FnOnce(Answer) + Send + 'static,
    ) {
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let search = Search {
            job,
            may_start: Box::new(may_start),
            done: Box::new(done),
        };
        let sent = self
            .queue
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send(search);
        if let Err(mpsc::SendError(search)) = sent {
            // No worker is left (none could be started): the game is told there is no move.
            self.waiting.fetch_sub(1, Ordering::Relaxed);
            (search.done)(None);
        }
    }
}

/// A worker: takes the next search from the queue, runs it on its own engine for the game,
/// hands the answer on; ends when the queue is closed.
fn work(receiver: &Mutex<mpsc::Receiver<Search>>, waiting: &AtomicUsize, searched: &AtomicUsize) {
    let mut engines: HashMap<GameKind, Engine> = HashMap::new();
    loop {
        let next = receiver.lock().unwrap_or_else(|p| p.into_inner()).recv();
        let Ok(search) = next else { return };
        waiting.fetch_sub(1, Ordering::Relaxed);
        if !(search.may_start)() {
            continue;
        }
        searched.fetch_add(1, Ordering::Relaxed);
        let engine = engines
            .entry(search.job.kind())
            .or_insert_with(|| Engine::new(search.job.kind()));
        let answer =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| search.job.run_on(engine)))
                .unwrap_or_else(|_| {
                    // A search that panicked may have left the engine half-way: a new one.
                    engines.remove(&search.job.kind());
                    None
                });
        (search.done)(answer);
    }
}

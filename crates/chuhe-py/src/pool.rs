//! A small pool of worker threads for `VecCore`, started once per vector environment: a step
//! wakes the workers instead of spawning threads. The calling thread works too, and the work
//! is shared out in small chunks through atomic counters, each thread taking its own share's
//! chunks first and then what is left of the others', so a worker that the system does not
//! schedule in time (a busy machine) delays a step by one chunk at most instead of by its
//! whole share. A thread that waits (a worker for the next step, the caller for the workers'
//! last chunks) first polls for a short while, yielding the core, before it sleeps: steps
//! that follow each other closely then cost no sleep and wake-up.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a waiting thread polls before it sleeps.
const POLL: Duration = Duration::from_micros(100);

/// Polls `done` (yielding the core between tries) for at most [`POLL`].
fn poll(done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() && start.elapsed() < POLL {
        std::thread::yield_now();
    }
}

/// A job, called with the number of the thread that runs it (0: the caller; worker `k`:
/// `k + 1`).
type Job = dyn Fn(usize) + Sync;

struct State {
    /// The job now running; [`Pool::run`] clears it before it returns, after which no worker
    /// may start it any more.
    job: Option<&'static Job>,
    generation: u64,
    /// Workers inside the job.
    active: usize,
    /// A worker's part of a job panicked.
    panicked: bool,
    quit: bool,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    idle: Condvar,
    /// Copies of `generation` and `active`, written under the lock, read without it to poll.
    generation: AtomicU64,
    active: AtomicUsize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Worker threads that run a job together with the thread that calls [`Pool::run`].
pub struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl Pool {
    /// A pool of `workers` threads (0: `run` calls the job on the calling thread alone).
    pub fn new(workers: usize) -> Pool {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                job: None,
                generation: 0,
                active: 0,
                panicked: false,
                quit: false,
            }),
            wake: Condvar::new(),
            idle: Condvar::new(),
            generation: AtomicU64::new(0),
            active: AtomicUsize::new(0),
        });
        let workers = (0..workers)
            .filter_map(|k| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("chuhe-vec-{k}"))
                    .spawn(move || work(&shared, k + 1))
                    .ok()
            })
            .collect();
        Pool { shared, workers }
    }

    /// The threads that run a job: the workers and the caller.
    pub fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Runs `job` on the calling thread and on every worker that joins in while it runs;
    /// returns once no thread runs it any more. Each thread calls it with its number (0 for
    /// the caller, up to [`Pool::threads`] − 1). The job shares out its own work (see
    /// [`for_each_chunk`]): any number of threads must complete it. One job at a time
    /// (`&mut self`).
    pub fn run<'a>(&mut self, job: &'a (dyn Fn(usize) + Sync + 'a)) {
        if self.workers.is_empty() {
            job(0);
            return;
        }
        struct Finish<'a>(&'a Shared);
        impl Drop for Finish<'_> {
            fn drop(&mut self) {
                let mut st = self.0.lock();
                st.job = None;
                if st.active > 0 {
                    drop(st);
                    poll(|| self.0.active.load(Ordering::Acquire) == 0);
                    st = self.0.lock();
                }
                while st.active > 0 {
                    st = self.0.idle.wait(st).unwrap_or_else(|e| e.into_inner());
                }
            }
        }
        // Made before the job is published: however this function ends, it withdraws the job.
        let finish = Finish(&self.shared);
        // SAFETY: the reference is published to the workers only until `finish` withdraws it
        // and waits for every worker that took it to leave the job, which happens before this
        // function returns or unwinds: no worker uses it past `job`'s lifetime.
        let job_static: &'static Job =
            unsafe { std::mem::transmute::<&'a (dyn Fn(usize) + Sync + 'a), &'static Job>(job) };
        {
            let mut st = self.shared.lock();
            st.job = Some(job_static);
            st.generation = st.generation.wrapping_add(1);
            self.shared
                .generation
                .store(st.generation, Ordering::Release);
        }
        self.shared.wake.notify_all();
        job(0);
        drop(finish);
        let panicked = std::mem::take(&mut self.shared.lock().panicked);
        assert!(
            !panicked,
            "a worker thread of the vector environment panicked"
        );
    }
}

fn work(shared: &Shared, number: usize) {
    let mut seen = 0u64;
    loop {
        poll(|| shared.generation.load(Ordering::Acquire) != seen);
        let job = {
            let mut st = shared.lock();
            loop {
                if st.quit {
                    return;
                }
                if st.generation != seen {
                    seen = st.generation;
                    if let Some(job) = st.job {
                        st.active += 1;
                        shared.active.store(st.active, Ordering::Release);
                        break job;
                    }
                }
                st = shared.wake.wait(st).unwrap_or_else(|e| e.into_inner());
            }
        };
        // A panic in the job must not leave `active` counted (Pool::run would wait forever).
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(number)));
        let mut st = shared.lock();
        st.panicked |= result.is_err();
        st.active -= 1;
        shared.active.store(st.active, Ordering::Release);
        if st.active == 0 {
            shared.idle.notify_all();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.lock().quit = true;
        self.shared.wake.notify_all();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

/// Calls `f` on every item of `chunks` exactly once, on every thread of `pool` that takes
/// part. Thread `t` of `T` has a home: the `t`-th of `T` equal runs of chunks. It claims its
/// home's chunks first, then the chunks left in the others' homes, so that while the threads
/// keep pace a chunk goes to the same thread call after call and its data stay in that
/// core's caches (512 Xiangqi environments' observations and masks are 7 MB); a thread that
/// falls behind (a busy machine) still delays a call by one chunk at most.
pub fn for_each_chunk<T: Send>(pool: &mut Pool, chunks: &mut [T], f: impl Fn(&mut T) + Sync) {
    let slots: Vec<Mutex<&mut T>> = chunks.iter_mut().map(Mutex::new).collect();
    let threads = pool.threads();
    let len = slots.len();
    let home = |t: usize| t * len / threads..(t + 1) * len / threads;
    // The next unclaimed chunk of each home.
    let next: Vec<AtomicUsize> = (0..threads)
        .map(|t| AtomicUsize::new(home(t).start))
        .collect();
    let job = |me: usize| {
        for h in (0..threads).map(|i| (me + i) % threads) {
            let end = home(h).end;
            loop {
                let k = next[h].fetch_add(1, Ordering::Relaxed);
                if k >= end {
                    break;
                }
                // Each chunk is claimed once: the lock is never contended.
                let mut item = slots[k].lock().unwrap_or_else(|e| e.into_inner());
                f(&mut item);
            }
        }
    };
    pool.run(&job);
}

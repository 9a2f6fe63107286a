//! A fixed pool of threads with large stacks for CPU-bound page work (no I/O).
//!
//! Takes a job and a [`Budget`]; gives the job's result, or an error once the budget is spent.
//! Guarantees, across every request of the process:
//! - at most `threads` jobs run at once, so the pages and trees held in memory are bounded;
//!   a caller waits for a permit, and gives up when its budget ends, before its job is queued;
//! - a caller that stops waiting (its budget ended, or its request was dropped) abandons the job:
//!   the job sees it at its next budget check and stops; a job never started is skipped;
//! - a panic in a job is caught and reported, and the thread lives on;
//! - the threads are detached: they never keep the process alive at exit, so a shutdown is not
//!   held up by a conversion in progress (tokio's blocking pool is, when its runtime is dropped).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use thiserror::Error;
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};

use crate::limits::{Budget, Exhausted};

/// Stack of each worker. Page conversion recurses once per level of nesting, at most about a
/// kilobyte a level within the page limits; this leaves a wide margin. Only the pages touched
/// are ever committed.
pub const WORKER_STACK_BYTES: usize = 16 << 20;

/// Workers in the shared pool when the machine does not say how many cores it has.
const FALLBACK_THREADS: usize = 2;

/// Upper bound on the shared pool's workers: each may hold a large page and its tree.
pub const MAX_SHARED_THREADS: usize = 8;

type Job = Box<dyn FnOnce() + Send>;

#[derive(Debug, Error)]
#[non_exhaustive]
pub enum WorkError {
    #[error(transparent)]
    Budget(#[from] Exhausted),
    #[error("no conversion worker became free in time")]
    Busy,
    #[error("the page conversion panicked: {0}")]
    Panicked(String),
    #[error("the conversion workers could not be started")]
    Unavailable(#[source] std::io::Error),
}

/// Threads that run jobs under a budget.
pub struct WorkerPool {
    jobs: SyncSender<Job>,
    permits: Arc<Semaphore>,
    threads: usize,
}

impl WorkerPool {
    /// Starts `threads` workers (at least one).
    pub fn new(threads: usize) -> std::io::Result<WorkerPool> {
        let threads = threads.max(1);
        // Never more jobs than workers: a permit is held from queueing to the job's end.
        let (jobs, queue) = mpsc::sync_channel::<Job>(threads);
        let queue = Arc::new(Mutex::new(queue));
        for index in 0..threads {
            let queue = Arc::clone(&queue);
            std::thread::Builder::new()
                .name(format!("citecheck-convert-{index}"))
                .stack_size(WORKER_STACK_BYTES)
                .spawn(move || work(&queue))?;
        }
        Ok(WorkerPool {
            jobs,
            permits: Arc::new(Semaphore::new(threads)),
            threads,
        })
    }

    /// The pool every fetcher of the process shares: one worker per core, at most
    /// [`MAX_SHARED_THREADS`].
    pub fn shared() -> Result<&'static WorkerPool, WorkError> {
        static SHARED: OnceLock<Result<WorkerPool, std::io::ErrorKind>> = OnceLock::new();
        let threads = std::thread::available_parallelism()
            .map_or(FALLBACK_THREADS, usize::from)
            .min(MAX_SHARED_THREADS);
        match SHARED.get_or_init(|| WorkerPool::new(threads).map_err(|err| err.kind())) {
            Ok(pool) => Ok(pool),
            Err(kind) => Err(WorkError::Unavailable((*kind).into())),
        }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `job` on a worker within `budget`: waiting for a worker is bounded by the budget's
    /// limit, and the job gets the budget [`Budget::restarted`] when it starts. The job should
    /// check its budget between steps. Dropping the returned future abandons the job.
    pub async fn run<T, F>(&self, budget: Budget, job: F) -> Result<T, WorkError>
    where
        F: FnOnce(&Budget) -> T + Send + 'static,
        T: Send + 'static,
    {
        let _abandon = AbandonOnDrop(budget.clone());
        let limit = tokio::time::Instant::from_std(budget.limit());
        let permit =
            match tokio::time::timeout_at(limit, Arc::clone(&self.permits).acquire_owned()).await {
                Ok(Ok(permit)) => permit,
                // The semaphore is never closed; only the limit ends the wait.
                Ok(Err(_)) | Err(_) => return Err(WorkError::Busy),
            };
        let (done, result) = oneshot::channel();
        let job_budget = budget.clone();
        let queued: Job = Box::new(move || run_one(permit, &job_budget.restarted(), job, done));
        if self.jobs.try_send(queued).is_err() {
            // Unreachable while the permits match the channel's capacity and workers live.
            return Err(WorkError::Panicked("the conversion queue is full".into()));
        }
        match tokio::time::timeout_at(limit, result).await {
            Ok(Ok(outcome)) => outcome,
            // The job was skipped (its budget was spent before it started) or the limit passed.
            Ok(Err(_)) | Err(_) => Err(budget.check().err().unwrap_or(spent()).into()),
        }
    }
}

/// The error for a budget whose deadline passed by a hair less than the timer's resolution.
fn spent() -> Exhausted {
    Exhausted::Time(Duration::ZERO)
}

fn run_one<T, F>(
    permit: OwnedSemaphorePermit,
    budget: &Budget,
    job: F,
    done: oneshot::Sender<Result<T, WorkError>>,
) where
    F: FnOnce(&Budget) -> T,
{
    // Released when the job ends, whether or not anyone still waits for it.
    let _permit = permit;
    if budget.check().is_err() {
        return;
    }
    let outcome = catch_unwind(AssertUnwindSafe(|| job(budget))).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_string());
        WorkError::Panicked(message)
    });
    let _ = done.send(outcome);
}

fn work(queue: &Mutex<Receiver<Job>>) {
    loop {
        // A poisoned lock only means another worker panicked while holding it, which the
        // catch_unwind around every job rules out; take the receiver back regardless.
        let next = match queue.lock() {
            Ok(receiver) => receiver.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        match next {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// Abandons the budget's work when the caller stops waiting for it.
struct AbandonOnDrop(Budget);

impl Drop for AbandonOnDrop {
    fn drop(&mut self) {
        self.0.abandon();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Instant;

    use super::*;

    /// A job that runs on past its deadline until its caller abandons it.
    fn spin(budget: &Budget) -> Exhausted {
        loop {
            if let Err(Exhausted::Abandoned) = budget.check() {
                return Exhausted::Abandoned;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[tokio::test]
    async fn a_job_runs_on_a_large_stack_and_returns_its_value() {
        let pool = WorkerPool::new(1).expect("pool");
        let got = pool
            .run(Budget::new(Duration::from_secs(10)), |_| {
                // About 3 MiB of frames: more than the 2 MiB a spawned thread gets by default.
                fn down(n: usize) -> usize {
                    let pad = std::hint::black_box([0u8; 1024]);
                    if n == 0 {
                        return usize::from(pad[0]);
                    }
                    1 + down(n - 1) + usize::from(pad[1023])
                }
                down(3_000)
            })
            .await
            .expect("the job runs");
        assert_eq!(got, 3_000);
    }

    #[tokio::test]
    async fn a_job_over_its_budget_is_abandoned_and_stops_at_its_next_check() {
        let pool = WorkerPool::new(1).expect("pool");
        let stopped = Arc::new(AtomicUsize::new(0));
        let seen = Arc::clone(&stopped);
        let started = Instant::now();
        let err = pool
            .run(Budget::new(Duration::from_millis(100)), move |budget| {
                let end = spin(budget);
                seen.fetch_add(1, Ordering::SeqCst);
                end
            })
            .await
            .expect_err("over budget");
        assert!(matches!(err, WorkError::Budget(_)), "{err}");
        assert!(started.elapsed() < Duration::from_secs(5));
        // The worker is free again: the next job runs.
        let next = pool
            .run(Budget::new(Duration::from_secs(10)), |_| 7)
            .await
            .expect("the worker was released");
        assert_eq!(next, 7);
        assert_eq!(stopped.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn dropping_the_caller_abandons_the_job() {
        let pool = WorkerPool::new(1).expect("pool");
        let (tx, rx) = std::sync::mpsc::channel();
        let waiting = pool.run(Budget::new(Duration::from_secs(600)), move |budget| {
            let _ = tx.send(spin(budget));
        });
        // Stop waiting after a moment: the future is dropped.
        let _ = tokio::time::timeout(Duration::from_millis(100), waiting).await;
        let end = rx
            .recv_timeout(Duration::from_secs(5))
            .expect("the job stopped");
        assert_eq!(end, Exhausted::Abandoned);
    }

    #[tokio::test]
    async fn no_more_jobs_run_at_once_than_there_are_workers() {
        let pool = Arc::new(WorkerPool::new(2).expect("pool"));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let mut calls = Vec::new();
        for _ in 0..8 {
            let (pool, running, most) =
                (Arc::clone(&pool), Arc::clone(&running), Arc::clone(&most));
            calls.push(tokio::spawn(async move {
                pool.run(Budget::new(Duration::from_secs(30)), move |_| {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(30));
                    running.fetch_sub(1, Ordering::SeqCst);
                })
                .await
            }));
        }
        for call in calls {
            call.await.expect("task").expect("job ran");
        }
        assert_eq!(most.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn waiting_for_a_busy_pool_is_bounded_by_the_limit_and_is_not_the_jobs_time() {
        let pool = Arc::new(WorkerPool::new(1).expect("pool"));
        let busy = Arc::clone(&pool);
        let occupant = tokio::spawn(async move {
            busy.run(Budget::new(Duration::from_millis(400)), spin)
                .await
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        let err = pool
            .run(Budget::new(Duration::from_millis(100)), |_| 1)
            .await
            .expect_err("no worker was free");
        assert!(matches!(err, WorkError::Busy), "{err}");
        // A job that waited most of its limit still gets its own time once it starts.
        let limit = Instant::now() + Duration::from_secs(30);
        let got = pool
            .run(
                Budget::within(Duration::from_millis(200), limit),
                |budget| {
                    std::thread::sleep(Duration::from_millis(50));
                    budget.check().is_ok()
                },
            )
            .await
            .expect("ran after the occupant left");
        assert!(got);
        let _ = occupant.await;
    }

    #[tokio::test]
    async fn a_panicking_job_is_an_error_and_the_worker_survives() {
        let pool = WorkerPool::new(1).expect("pool");
        let err = pool
            .run(Budget::new(Duration::from_secs(10)), |_| -> u8 {
                panic!("hostile input")
            })
            .await
            .expect_err("panicked");
        assert!(err.to_string().contains("hostile input"), "{err}");
        let next = pool
            .run(Budget::new(Duration::from_secs(10)), |_| 1)
            .await
            .expect("still serving");
        assert_eq!(next, 1);
    }
}
